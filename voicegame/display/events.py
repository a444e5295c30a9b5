"""Public events as the page receives them, and what a page that (re)connects starts from.

Every event becomes one JSON object (one ``data:`` line of ``/events``):

- ``{"kind": "caption", "text": str, "at": epoch s}`` — a sentence as the host says it;
- ``{"kind": "view", "game": str, "phase": str, "data": {...}, "at": …}`` — the public
  view after a change (fields: /work VIEWS contract, each game's ``publish``/``show``);
- ``{"kind": "timer", "total_s": s, "left_s": s, "running": bool, "at": …}``.

``at`` is the wall-clock time of publishing (the page counts a running timer down from it,
and the bench measures the delay to the page's handler with it). Stdlib only.
"""

from __future__ import annotations

import json
import threading
import time
from collections import deque

from voicegame.engine.observer import PUBLIC, Caption, Timer, View

#: Captions a new page gets (the current one and the last few).
RECENT_CAPTIONS = 6


def encode(event, at: float | None = None) -> dict:
    """The JSON object of ``event`` (a public :class:`Caption`, :class:`View` or :class:`Timer`).

    :raises ValueError: an event of another audience (the page never serves one).
    """
    if event.audience != PUBLIC:
        raise ValueError(f"the screen serves the public audience only, not {event.audience!r}")
    at = time.time() if at is None else at
    if isinstance(event, Caption):
        return {"kind": "caption", "text": event.text, "at": at}
    if isinstance(event, View):
        return {"kind": "view", "game": event.game, "phase": event.phase, "data": event.data, "at": at}
    if isinstance(event, Timer):
        return {"kind": "timer", "total_s": event.total_s, "left_s": event.left_s, "running": event.running,
                "at": at}
    raise ValueError(f"not a table event: {event!r}")


def line(obj: dict) -> str:
    """``obj`` as one JSON line (no newline inside: a ``data:`` line of SSE)."""
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"))


class ScreenState:
    """What the table looks like now, for a page that connects late: the last view, the last
    timer and the last few captions (thread-safe: the game thread writes, the server reads)."""

    def __init__(self, recent: int = RECENT_CAPTIONS):
        self._lock = threading.Lock()
        self.view: str | None = None
        self.timer: str | None = None
        self.captions: deque[str] = deque(maxlen=recent)

    def remember(self, kind: str, text: str) -> None:
        """Keep the encoded event ``text`` of ``kind`` (``caption``, ``view``, ``timer``)."""
        with self._lock:
            if kind == "caption":
                self.captions.append(text)
            elif kind == "view":
                self.view = text
            elif kind == "timer":
                self.timer = text

    def snapshot(self) -> list[str]:
        """The encoded events a new page replays, oldest first: view, timer, captions."""
        with self._lock:
            return [t for t in (self.view, self.timer) if t is not None] + list(self.captions)
