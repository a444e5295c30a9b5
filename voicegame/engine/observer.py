"""Observers: what each audience of the table may see, published as events.

The table publishes two kinds of event (OpenSpiel's observer idea):

- :class:`Caption` — a sentence as the host says it, to everyone (``audience``
  ``"public"``) or to one private audience (``"psychic"``, ``"writers"``, a player);
- :class:`View` — a game's picture of the table for one audience after a change:
  the public view (card, dial, scores, mat, board) or a private one (the
  Psychic's target);
- :class:`Timer` — a running game timer (total, left, running), public.

A subscriber names the audience it serves and receives only that audience's
events: a screen subscribes to ``"public"`` and can never receive a secret.
Subscribers must be quick and must not raise; a subscriber that raises is dropped
and logged, so a broken screen never stops a game.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any, Callable

log = logging.getLogger(__name__)

#: The audience of everything the whole table may see and hear.
PUBLIC = "public"


@dataclass(frozen=True)
class Caption:
    """One sentence as spoken. :param text: the words, in the table's language."""

    text: str
    audience: str = PUBLIC
    kind: str = "caption"


@dataclass(frozen=True)
class View:
    """A game's view of the table for one audience.

    :param game: ``"wavelength"``, ``"rofl"``, ``"wits"`` or ``"lobby"``.
    :param phase: the phase the game is in (its state machine's state name).
    :param data: JSON-serialisable fields of the view (the game defines them; see
        each game's ``views`` in its host). Never holds another audience's secret.
    """

    game: str
    phase: str
    data: dict = field(default_factory=dict)
    audience: str = PUBLIC
    kind: str = "view"


@dataclass(frozen=True)
class Timer:
    """A game timer as a screen draws it (public): at its start, at each announcement, at
    pause and resume, and at its end.

    :param total_s: the timer's length, seconds.
    :param left_s: seconds left (0 at the end).
    :param running: False while paused and once it has ended.
    """

    total_s: float
    left_s: float
    running: bool
    audience: str = PUBLIC
    kind: str = "timer"


Event = Caption | View | Timer


class Observers:
    """Subscribers per audience; :meth:`publish` hands each event to its audience only."""

    def __init__(self) -> None:
        self._subscribers: dict[str, list[Callable[[Any], None]]] = {}
        #: the last view per audience, so a late subscriber starts from the current state
        self.last_view: dict[str, View] = {}

    def subscribe(self, callback: Callable[[Any], None], audience: str = PUBLIC) -> None:
        """Call ``callback(event)`` for every event of ``audience`` (the last view at once)."""
        self._subscribers.setdefault(audience, []).append(callback)
        if audience in self.last_view:
            self._deliver(callback, audience, self.last_view[audience])

    def unsubscribe(self, callback: Callable[[Any], None], audience: str = PUBLIC) -> None:
        """Stop calling ``callback`` (no error when it was not subscribed)."""
        subscribers = self._subscribers.get(audience, [])
        if callback in subscribers:
            subscribers.remove(callback)

    def publish(self, event: Event) -> None:
        """Give ``event`` to the subscribers of ``event.audience``."""
        if isinstance(event, View):
            self.last_view[event.audience] = event
        for callback in list(self._subscribers.get(event.audience, ())):
            self._deliver(callback, event.audience, event)

    def _deliver(self, callback, audience: str, event: Event) -> None:
        try:
            callback(event)
        except Exception:  # a broken subscriber never stops the game
            log.exception("observer %r failed; unsubscribed", callback)
            self.unsubscribe(callback, audience)


class CaptionedVoice:
    """A Voice that publishes a :class:`Caption` for every sentence before speaking it.

    A sentence ``to`` a private audience is captioned for that audience only.
    :param voice: the Voice that really speaks.
    :param observers: ``observers() -> Observers`` (looked up at each sentence).
    """

    def __init__(self, voice, observers: Callable[[], Observers]):
        self.inner = voice
        self._observers = observers

    def say(self, text: str, to: str | None = None) -> None:
        self._observers().publish(Caption(text, audience=to or PUBLIC))
        self.inner.say(text, to=to) if to is not None else self.inner.say(text)

    def __getattr__(self, name: str):  # tone, adjust, stop, … pass through
        return getattr(self.inner, name)
