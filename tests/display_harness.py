"""Helpers of the screen's tests: every golden script played as its golden test plays it, with
every table's events recorded in order (public as the page gets them, and the private ones
that tell the test what the secrets are)."""

from __future__ import annotations

import json
from pathlib import Path

from voicegame import bench
from voicegame import config as kiosk_config
from voicegame.display.events import encode, line
from voicegame.engine import observer
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
