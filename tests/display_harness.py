"""Helpers of the screen's tests: every golden script played as its golden test plays it, with
every table's events recorded in order (public as the page gets them, and the private ones
that tell the test what the secrets are)."""

from __future__ import annotations

import json
import threading
from pathlib import Path

from voicegame import bench
from voicegame import config as kiosk_config
from voicegame.display.events import encode, line
from voicegame.engine import observer
from voicegame.engine.observer import View
from tests.playthrough import SCRIPTS, frozen_deck, run_cli

#: Private audiences of the games (the Psychic's target, the ROFL! writers' message).
PRIVATE = ("psychic", "writers")
#: Kiosk scripts and how their golden tests play them: (extra argv, seed, config text, played before).
KIOSK = {
    "kiosk_tour": ([], 3, None, None),
    "kiosk_es": (["--lang", "es"], 3, None, None),
    "kiosk_nl": (["--lang", "nl"], 3, None, None),
    "kiosk_idle": ([], 5, "idle_minutes = 0.5\n", None),
    "kiosk_power_cut_1": ([], 5, None, None),
    "kiosk_power_cut_2": ([], 5, None, "kiosk_power_cut_1"),
}


def golden_names() -> list[str]:
    return sorted(p.stem for p in SCRIPTS.glob("*.txt"))


def record_events(monkeypatch) -> list[tuple[str, str, object]]:
    """Record, in order, ``(audience, encoded line or None, event)`` of every table made from now
    on: public events through the screen's own encoder, private ones as they are."""
    events: list[tuple[str, str, object]] = []
    original = observer.Observers.__init__

    def init(self, *args, **kwargs):
        original(self, *args, **kwargs)
        self.subscribe(lambda e: events.append((observer.PUBLIC, line(encode(e)), e)), observer.PUBLIC)
        for audience in PRIVATE:
            self.subscribe(lambda e, a=audience: events.append((a, None, e)), audience)

    monkeypatch.setattr(observer.Observers, "__init__", init)
    return events


def play_golden(name: str, work: Path, extra: list[str] | None = None) -> tuple[int, str, str]:
    """Play ``tests/scripts/<name>.txt`` with the command line of its golden test.

    :raises AssertionError: a script whose command line is not known here.
    """
    script = SCRIPTS / f"{name}.txt"
    extra = list(extra or [])
    if name in KIOSK:
        argv, seed, config_text, before = KIOSK[name]
        if config_text:
            kiosk_config.config_path().parent.mkdir(parents=True, exist_ok=True)
            kiosk_config.config_path().write_text(config_text, encoding="utf-8")
        if before:
            play_golden(before, work, extra)
        return run_cli(["kiosk", "--input", str(script), "--output", "text", "--seed", str(seed), *argv, *extra])
    game = name.split("_")[0]
    argv, origin = bench.script_argv(script, work)
    assert argv is not None, f"{name}: no command line known for this golden script"
    deck = frozen_deck(game, argv) if game in ("wavelength", "rofl") else []
    return run_cli(["play", game, "--input", str(script), "--output", "text", *argv, *deck, *extra])


def public_json(events) -> list[dict]:
    return [json.loads(text) for audience, text, _ in events if audience == observer.PUBLIC]


class Gate:
    """Holds the game thread at chosen public events until the test has looked at the page.

    :param stops: ``[(name, wanted(event) -> bool)]`` in the order they come in the game.
    A stop not released within ``hold_s`` opens the gate for good (a failing test never hangs).
    """

    def __init__(self, stops, hold_s: float = 90.0):
        import queue

        self.stops = list(stops)
        self.hits: "queue.Queue" = queue.Queue()
        self.go = threading.Event()
        self.open = False
        self.hold_s = hold_s
        self.last_caption: str | None = None

    def __call__(self, event) -> None:
        if getattr(event, "kind", None) == "caption":
            self.last_caption = event.text
        if self.open or not self.stops:
            return
        name, wanted = self.stops[0]
        if wanted(event):
            self.stops.pop(0)
            self.hits.put((name, event, self.last_caption))
            if not self.go.wait(self.hold_s):
                self.open = True
            self.go.clear()

    def next(self, timeout_s: float = 120.0):
        """``(name, event, last caption)`` of the next stop the game reached."""
        return self.hits.get(timeout=timeout_s)

    def release(self) -> None:
        self.go.set()

    def finish(self) -> None:
        self.open = True
        self.go.set()


class ScreenedGame:
    """A golden script played in a thread with ``--display 127.0.0.1:0`` and a :class:`Gate`
    subscribed right after the screen (so the page has the event when the game stops)."""

    def __init__(self, name: str, work: Path, monkeypatch, stops):
        """:param monkeypatch: pytest's (or anything with its ``setattr(obj, name, value)``)."""
        from voicegame.display.server import Display

        self.gate = Gate(stops)
        self.display: Display | None = None
        self.result: tuple | None = None
        attach = Display.attach

        def attach_and_gate(display, observers):
            attach(display, observers)
            self.display = display
            observers.subscribe(self.gate, observer.PUBLIC)

        monkeypatch.setattr(Display, "attach", attach_and_gate)
        self.thread = threading.Thread(target=self._play, args=(name, work), daemon=True)
        self.thread.start()

    def _play(self, name: str, work: Path) -> None:
        self.result = play_golden(name, work, ["--display", "127.0.0.1:0"])

    def end(self) -> tuple:
        """Let the game run to its end; :returns: its (status, stdout, stderr)."""
        self.gate.finish()
        self.thread.join(120)
        assert self.result is not None, "the game did not end"
        return self.result


# ------------------------------------------------------------------ a Wits & Wagers stream by the contract
WITS_PLAYERS = [{"id": "red", "name": "Rojo"}, {"id": "blue", "name": "Azul"}, {"id": "green", "name": "Verde"}]

def wits_view(phase: str, **fields) -> View:
    """A Wits & Wagers public view as the VIEWS contract has it (Spanish names: the page's words follow)."""
    data = {"lang": "es", "players": WITS_PLAYERS, "scores": {"red": 2, "blue": 2, "green": 2}, "turn": 1,
            "active": None, "hint": None, "round_total": 7,
            "question": {"number": 1, "total": 7, "text": "¿En qué año llegó el Apolo 11 a la Luna?", "unit": None},
            "guesses": [], "mat": [], "bets": [], "chips": {"red": 2, "blue": 2, "green": 2}, "payout": None}
    data.update(fields)
    return View("wits", phase, data)

MAT = [{"slot": 0, "odds": 6, "label": "6 a 1", "value": None, "players": []},
       {"slot": 1, "odds": 5, "label": "5 a 1", "value": None, "players": []},
       {"slot": 2, "odds": 4, "label": "4 a 1", "value": None, "players": []},
       {"slot": 3, "odds": 3, "label": "3 a 1", "value": 1959, "players": ["green"]},
       {"slot": 4, "odds": 2, "label": "2 a 1", "value": 1969, "players": ["red"]},
       {"slot": 5, "odds": 3, "label": "3 a 1", "value": 1972, "players": ["blue"]},
       {"slot": 6, "odds": 4, "label": "4 a 1", "value": None, "players": []},
       {"slot": 7, "odds": 5, "label": "5 a 1", "value": None, "players": []}]
