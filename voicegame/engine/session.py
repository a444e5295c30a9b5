"""A game's settings, and replaying its input log (undo, resume).

A game is deterministic given its :class:`Settings` and its inputs, so undo (G4)
and resume both rebuild the state by replaying the input log (:class:`Replay`)
with the voice muted and a virtual clock (:class:`SwitchClock`). The exceptions
here end a table's run: :class:`Undo`, :class:`QuitGame`, :class:`IdleTable`.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

from voicegame.adapters.headless import VirtualClock
from voicegame.language.utterance import clean_heard
from voicegame.ports import Clock, Heard, Silence


class QuitGame(Exception):
    """The table confirmed "quit": the game stops, its record and autosave are kept."""


class IdleTable(Exception):
    """Nobody spoke for ``settings.idle_s`` seconds (kiosk): the game is saved and the host
    returns to the lobby."""


class Undo(Exception):
    """Take back the last accepted input of the current phase (G4): replay the log up to ``index``."""

    def __init__(self, index: int):
        super().__init__(index)
        self.index = index


@dataclass
class Settings:
    """Everything that, with the input log, determines a game.

    :param game: ``"wavelength"``, ``"rofl"`` or ``"wits"``.
    :param timer_s: seconds for every game timer (G1), ``None`` for off.
    :param private: ``"ears"``, ``"earpiece:DEVICE"`` or ``"screen"`` (G2).
    :param options: game options (players, teams, modes, deck paths…), JSON-serialisable.
    :param idle_s: seconds of silence after which a kiosk table counts as idle.
    :param teach: "teach me" (the lobby): the table was taught the rules in parts and the
        game's tips explain a little more (:meth:`~voicegame.engine.table.Table.tip`).
    :param rules_heard: the table heard this game's rules in the lobby: its start says
        only what the game is, never the rules again.
    """

    game: str
    lang: str = "en"
    seed: int = 0
    timer_s: float | None = 30.0
    private: str = "ears"
    options: dict = field(default_factory=dict)
    record: str | None = None
    autosave: str | None = None
    started: str = ""
    idle_s: float | None = None
    teach: bool = False
    rules_heard: bool = False

    @classmethod
    def from_dict(cls, d: dict) -> "Settings":
        names = {f.name for f in dataclasses.fields(cls)}
        return cls(**{k: v for k, v in d.items() if k in names})


class SwitchClock:
    """A clock that runs virtual time while a log is replayed, then live time, continuously."""

    def __init__(self, live: Clock):
        self.live = live
        self.virtual = VirtualClock()
        self.replaying = False
        self.offset = 0.0

    def now(self) -> float:
        return self.virtual.now() if self.replaying else self.live.now() + self.offset

    def sleep(self, seconds: float) -> None:
        (self.virtual if self.replaying else self.live).sleep(seconds)

    def start_replay(self) -> None:
        self.replaying = True
        self.virtual = VirtualClock(self.live.now() + self.offset)

    def go_live(self) -> None:
        self.offset = self.virtual.now() - self.live.now()
        self.replaying = False


class BadSave(ValueError):
    """A saved input log entry has the wrong shape; ``str()`` says which entry and field."""


def _is_seconds(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and 0 <= value < 1e7


def replayed(entry) -> Heard | Silence:
    """The listen result a saved log entry stands for (cleaned as a live one is).

    :raises BadSave: the entry is not an object, or its text / alternatives / confidence /
        elapsed have the wrong type.
    """
    if not isinstance(entry, dict):
        raise BadSave("an input log entry is not an object")
    text, alternatives = entry.get("text"), entry.get("alternatives", [])
    confidence, elapsed = entry.get("confidence", 1.0), entry.get("elapsed", 0.0)
    if elapsed is not None and not _is_seconds(elapsed):
        raise BadSave("an input log entry's 'elapsed' is not a number of seconds")
    if text is None:
        return Silence(float(elapsed or 0.0))
    if not isinstance(text, str):
        raise BadSave("an input log entry's 'text' is not text")
    if not isinstance(alternatives, list) or not all(isinstance(a, str) for a in alternatives):
        raise BadSave("an input log entry's 'alternatives' is not a list of texts")
    if confidence is None:
        confidence = 1.0
    if not isinstance(confidence, (int, float)) or isinstance(confidence, bool):
        raise BadSave("an input log entry's 'confidence' is not a number")
    return clean_heard(Heard(text, tuple(alternatives), float(confidence)))



class Replay:
    """The input-log entries still to replay, oldest first.

    :param entries: log entries (``{"text", "alternatives", "confidence", "elapsed",
        "intent"?, "command"?, …}``); ``text`` ``None`` is a silence.
    :param live_at: ``"end"`` (resume): live right after the last entry; ``"next_listen"``
        (undo): muted until the next listening moment starts.
    """

    def __init__(self, entries: list[dict] | None, live_at: str = "end"):
        self.pending = list(entries or [])
        self.live_at = live_at
        #: the entry the last :meth:`next` returned (``None`` once live)
        self.current: dict | None = None

    def __bool__(self) -> bool:
        return bool(self.pending)

    def next(self) -> tuple[dict, Heard | Silence]:
        """The next entry and what was heard then."""
        entry = self.pending.pop(0)
        self.current = entry
        return entry, replayed(entry)

    @property
    def ends_live(self) -> bool:
        """The replay goes live right after its last entry (a resume)."""
        return self.live_at == "end"
