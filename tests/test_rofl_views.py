"""ROFL!'s views (VIEWS.md): every golden playthrough played with a public subscriber never
shows a secret publicly (the message before the turn's end, what the writers are told), and
the public view's fields are right at the key phases."""

from __future__ import annotations

import argparse
import io
from pathlib import Path

import pytest

from tests.playthrough import frozen_deck, SCRIPTS
from voicegame.adapters.headless import ScriptListener, TextVoice, VirtualClock
from voicegame.engine.observer import Caption, Observers, Timer, View
from voicegame.engine.table import Session, Settings
from voicegame.games.rofl import host
from voicegame.language.prompts import Prompts

GOLDENS = {
    "rofl_four_players": ("en", ["--seed", "5"]),
    "rofl_tiebreak": ("en", ["--players", "red,blue,green", "--stacking", "--lenient", "--seed", "7"]),
    "rofl_own_messages": ("en", ["--players", "red,blue,green", "--own-message", "--hard", "--timer", "off",
                                 "--seed", "3"]),
    "rofl_es": ("es", ["--players", "rojo,azul,verde", "--seed", "1"]),
    "rofl_nl": ("nl", ["--players", "rood,blauw,geel", "--lenient", "--seed", "5"]),
}


def play_observed(name: str):
    """Play a golden script with subscribers; returns (public events, writers' events, record)."""
    lang, argv = GOLDENS[name]
    if "--own-message" not in argv:  # the frozen deck, as the golden tests deal
        argv = [*argv, *frozen_deck("rofl", ["--lang", lang, *argv])]
    parser = argparse.ArgumentParser()
    host.add_arguments(parser)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--timer", default="30")
    args = parser.parse_args(argv)
    settings = Settings(game="rofl", lang=lang, seed=args.seed,
                        timer_s=None if args.timer == "off" else float(args.timer),
                        options=host.options_from_args(args))
    host.validate(settings)
    lines = [line for line in (SCRIPTS / f"{name}.txt").read_text("utf-8").splitlines()
             if line.strip() and not line.startswith("#")]
    bus = Observers()
    public, writers = [], []
    bus.subscribe(public.append)
    bus.subscribe(writers.append, audience="writers")
    clock = VirtualClock()
    session = Session(host.Host, ScriptListener(list(enumerate(lines, 1)), clock=clock), TextVoice(io.StringIO()),
                      clock, settings, observers=bus)
    session.run()
    return public, writers, session.table.record


@pytest.mark.parametrize("name", sorted(GOLDENS))
def test_no_secret_in_any_public_event(name):
    public, writers, record = play_observed(name)
    messages = [t["message"] for t in record["turns"] if t["message"]]
    prompts = Prompts.load(GOLDENS[name][0])
    assert public and any(isinstance(e, View) for e in public)
    for event in public:
        if isinstance(event, Caption):
            said_at_the_end = {prompts.text("rofl.message_was", message=m) for m in messages}
            assert not any(m in event.text for m in messages) or event.text in said_at_the_end, event.text
            continue
        if isinstance(event, Timer):  # numbers only: no room for a secret
            assert {type(v) for v in (event.total_s, event.left_s)} <= {float, int}
            assert isinstance(event.running, bool)
            continue
        text = repr(event.data)
        for message in messages:
            if message in text:  # only once the turn's guesses are judged (then it is said or guessed)
                assert event.phase == "turn_end", (name, message, event.phase)
    private_views = [e for e in writers if isinstance(e, View)]
    if messages:
        # a replay (undo) publishes the turn's views again
        assert list(dict.fromkeys(e.data["message"] for e in private_views)) == messages
        assert all(any(m in e.text for m in messages) for e in writers if isinstance(e, Caption))


def test_the_public_view_at_key_phases():
    public, _, record = play_observed("rofl_four_players")
    views = [e for e in public if isinstance(e, View)]
    first = next(v for v in views if v.phase == "claims")
    common = {"lang", "players", "scores", "turn", "active", "hint", "round_total"}
    rofl = {"category", "board", "reveal_order", "revealed", "judgement"}
    assert common | rofl <= set(first.data)
    assert first.data["players"][0] == {"id": "red", "name": "Red"} and first.data["active"] == "red"
    assert first.data["turn"] == 1 and first.data["round_total"] == 12 and first.data["category"] == "a saying"
    assert [s["space"] for s in first.data["board"]] == list(range(1, 21))
    assert first.data["hint"].startswith("Your colour and a space: Blue, seven")
    # after the claims of turn 1: Green 6, Blue 7, Yellow 10, shown lowest first (R4)
    closed = next(v for v in views if v.phase == "claims" and v.data["reveal_order"])
    assert closed.data["reveal_order"] == ["green", "blue", "yellow"]
    assert {s["space"]: s["claimed_by"] for s in closed.data["board"] if s["claimed_by"]} == {
        6: "green", 7: "blue", 10: "yellow"}
    judged = next(v for v in views if v.phase == "judge" and v.data["judgement"])
    assert judged.data["judgement"]["guess"] == "no pain no gain" and judged.data["judgement"]["correct"] is True
    assert judged.data["revealed"] == [{"player": "green", "space": 6, "clue": None, "disqualified": False}]
    end = next(v for v in views if v.phase == "turn_end")
    assert end.data["scores"]["red"] == 3 and end.data["scores"]["green"] == 3
    assert end.data["message"] == "No pain, no gain"
    last = views[-1]
    assert last.data["scores"] == {p["name"]: p["points"] for p in record["standings"]}
