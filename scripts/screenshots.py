#!/usr/bin/env python3
"""Screenshots of the table's screen at each game's key phases, into docs/screen/ and
docs/screen.md (regenerate after changing the page: ``.venv/bin/python scripts/screenshots.py``).

Each golden script is played with ``--display`` and held at its key moments (as the browser
tests do); headless Chromium photographs the page at 1920×1080 (a TV) and 800×480 (a Pi
touchscreen). Wits & Wagers is drawn from a stream that follows the public view contract.
"""

from __future__ import annotations

import sys
import time
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from voicegame.display.chromium import Chromium  # noqa: E402
from voicegame.display.server import Display  # noqa: E402
from voicegame.engine.observer import Caption, Observers, Timer, View  # noqa: E402
from tests.display_harness import MAT, ScreenedGame, wits_view  # noqa: E402

OUT = ROOT / "docs" / "screen"
SIZES = {"tv": (1920, 1080), "pi": (800, 480)}


class Patch:
    """``monkeypatch.setattr`` outside pytest: undone by :meth:`undo`."""

    def __init__(self):
        self.saved = []

    def setattr(self, obj, name, value):
        self.saved.append((obj, name, getattr(obj, name)))
        setattr(obj, name, value)

    def undo(self):
        for obj, name, value in reversed(self.saved):
            setattr(obj, name, value)


def view(game, phase=None, test=lambda d: True):
    return lambda e: isinstance(e, View) and e.game == game and (phase is None or e.phase == phase) and test(e.data)


def wits_publishes_views() -> bool:
    from voicegame.games.wits import host

    return callable(getattr(host.Host, "show", None))


def after_a_caption(wanted):
    """``wanted``, but only once the host has said something (the page then shows a caption)."""
    said = []

    def check(event):
        if getattr(event, "kind", None) == "caption":
            said.append(event)
        return bool(said) and wanted(event)
    return check


#: Per golden script: the key moments (file stem, what it shows, wanted(event)).
GAMES = {
    "kiosk_tour": [
        ("lobby_menu", "The lobby: the games to choose from and the unfinished ones",
         after_a_caption(view("lobby", None, lambda d: d["setup"] is None))),
        ("lobby_setup", "The lobby while a game is set up", view("lobby", None, lambda d: d["setup"] and d["setup"]["players"])),
    ],
    "wavelength_team": [
        ("wavelength_dial", "Wavelength: the card's concepts, the clue and the needle as the team turns the dial",
         view("wavelength", "dial", lambda d: d["dial_deg"] != 90)),
        ("wavelength_reveal", "Wavelength: the reveal, target wedges 2|3|4|3|2 and the points",
         view("wavelength", None, lambda d: d.get("reveal") is not None)),
    ],
    **({"wits_full": [
        ("wits_guessing", "Wits & Wagers: the question and the guesses as they come",
         view("wits", "guesses", lambda d: sum(1 for g in d["guesses"] if g["value"] is not None) >= 2)),
        ("wits_betting", "Wits & Wagers: the mat, eight slots with their odds, the guesses and the bets",
         view("wits", "bets", lambda d: len(d["bets"]) >= 3)),
        ("wits_payout", "Wits & Wagers: the payout, the winning slot and the chips",
         view("wits", "reveal", lambda d: d["payout"] is not None)),
    ]} if wits_publishes_views() else {}),
    "rofl_four_players": [
        ("rofl_claims", "ROFL!: the category and the board spaces as the writers claim them",
         view("rofl", "claims", lambda d: sum(1 for s in d["board"] if s["claimed_by"]) >= 2)),
        ("rofl_judged", "ROFL!: the reveal order and the judgement of a guess",
         view("rofl", None, lambda d: d["judgement"] is not None)),
        ("rofl_turn_end", "ROFL!: the turn's end, the message shown and the scores", view("rofl", "turn_end")),
    ],
}


def shoot(browser: Chromium, stem: str, phase: str, shots: list) -> None:
    """Photograph the live page (it has followed the game so far) at each size."""
    for size, (w, h) in SIZES.items():
        browser.viewport(w, h)
        browser.wait_for(f"document.getElementById('stage').dataset.phase === {phase!r}")
        time.sleep(0.3)  # layout after the resize
        shots.append((stem, size, browser.screenshot(OUT / f"{stem}_{size}.png")))


def main() -> int:
    OUT.mkdir(parents=True, exist_ok=True)
    shots: list = []
    captions: dict[str, str] = {}
    with Chromium(1920, 1080) as browser, tempfile.TemporaryDirectory() as tmp:
        import os

        os.environ["VOICEGAME_DATA_DIR"] = str(Path(tmp) / "data")
        os.environ["VOICEGAME_CONFIG_DIR"] = str(Path(tmp) / "config")
        for script, moments in GAMES.items():
            patch = Patch()
            game = ScreenedGame(script, Path(tmp), patch, [(stem, wanted) for stem, _, wanted in moments])
            try:
                for n, (stem, what, _) in enumerate(moments):
                    name, event, _ = game.gate.next()
                    if n == 0:
                        browser.open(game.display.url)
                    captions[stem] = what
                    shoot(browser, stem, event.phase, shots)
                    game.gate.release()
            finally:
                game.end()
                patch.undo()
        if wits_publishes_views():
            return finish(shots, captions)
        observers = Observers()
        display = Display("127.0.0.1", 0).start()
        browser.open(display.url)
        display.attach(observers)
        try:
            bets = [{"player": "red", "slot": 4, "token": "1", "chips": 2},
                    {"player": "blue", "slot": 3, "token": "2", "chips": 1},
                    {"player": "green", "slot": 5, "token": "1", "chips": 1}]
            guesses = [{"player": "red", "value": 1969}, {"player": "blue", "value": 1972},
                       {"player": "green", "value": 1959}]
            stream = [
                ("wits_guessing", "Wits & Wagers (es): the question and the guesses as they come",
                 [wits_view("guessing", guesses=guesses[:2] + [{"player": "green", "value": None}]),
                  Timer(30.0, 18.0, True), Caption("Escribid vuestra respuesta: treinta segundos.")]),
                ("wits_betting", "Wits & Wagers (es): the mat, eight slots with their odds, guesses and bets",
                 [wits_view("betting", mat=MAT, bets=bets, guesses=guesses, hint="Rojo, tu apuesta: un número de casilla."),
                  Caption("Apostad: decid la casilla y las fichas.")]),
                ("wits_payout", "Wits & Wagers (es): the payout, the winning slot and the chips",
                 [wits_view("payout", mat=MAT, bets=bets, guesses=guesses, scores={"red": 9, "blue": 1, "green": 1},
                            payout={"answer": 1969, "unit": None, "winning_slot": 4, "paid": {"red": 7}}),
                  Timer(30.0, 0.0, False), Caption("La respuesta es 1969. Rojo gana siete fichas.")]),
            ]
            for stem, what, events in stream:
                for event in events:
                    observers.publish(event)
                captions[stem] = what
                shoot(browser, stem, events[0].phase, shots)
        finally:
            display.stop()
    return finish(shots, captions)


def finish(shots: list, captions: dict) -> int:
    lines = ["# The table's screen", "",
             "What `--display [HOST:]PORT` shows (issue 16), at each game's key phases, on a 1920×1080 TV",
             "and an 800×480 Raspberry Pi touchscreen. Made by `scripts/screenshots.py` (headless Chromium",
             "over scripted golden games held at these moments" + ("" if wits_publishes_views() else
             "; Wits & Wagers from a stream that follows the public view contract") + "); regenerate it after",
             "changing `voicegame/display/static/`.", ""]
    for stem in dict.fromkeys(s for s, _, _ in shots):
        lines += [f"## {captions[stem]}", "", f"![{captions[stem]}, 1920×1080](screen/{stem}_tv.png)", "",
                  f"![{captions[stem]}, 800×480](screen/{stem}_pi.png)", ""]
    (ROOT / "docs" / "screen.md").write_text("\n".join(lines), encoding="utf-8")
    print(f"{len(shots)} screenshots in {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
