"""Wits & Wagers' public view (VIEWS.md): after every change a view is published; the answer of
a question is in no public event before its reveal (Wits has no private audience); the fields are
right at the key phases of the golden game."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from tests.playthrough import SCRIPTS
from tests.test_host_wits import BANK7
from tests.test_host_wits import BANKS
from voicegame.adapters.headless import ScriptListener, TextVoice, VirtualClock
from voicegame.engine.observer import Caption, Observers, View
from voicegame.engine.table import Session, Settings
from voicegame.games.wits import host

GOLDENS = {"wits_full": ("en", BANK7), "wits_es": ("es", BANKS["es"]), "wits_nl": ("nl", BANKS["nl"])}


def play_observed(name: str, tmp_path: Path):
    """Play a golden script with a public subscriber; returns (public events, record)."""
    lang, bank_text = GOLDENS[name]
    bank = tmp_path / f"{name}.csv"
    bank.write_text(bank_text, encoding="utf-8")
    settings = Settings(game="wits", lang=lang, seed=7, timer_s=30.0,
                        options={"players": ["red", "orange", "yellow", "green"], "questions": str(bank), "count": 7,
                                     "bank_seed": 7})  # the golden games name their seats
    host.validate(settings)
    lines = [line for line in (SCRIPTS / f"{name}.txt").read_text("utf-8").splitlines()
             if line.strip() and not line.startswith("#")]
    bus = Observers()
    public: list = []
    bus.subscribe(public.append)
    clock = VirtualClock()
    session = Session(host.Host, ScriptListener(list(enumerate(lines, 1)), clock=clock), TextVoice(io.StringIO()),
                      clock, settings, observers=bus)
    assert session.run() == "finished"
    return public, session.table.record


@pytest.mark.parametrize("name", sorted(GOLDENS))
def test_no_answer_in_a_public_event_before_its_reveal(name, tmp_path):
    public, record = play_observed(name, tmp_path)
    views = [e for e in public if isinstance(e, View)]
    assert len(views) > 100  # one after every change, not once a phase
    revealed = 0  # questions whose answer is public
    for view in views:
        data = view.data
        if view.phase == "intro":  # an undo replays the game from its start: the views again
            revealed = 0
        question = data["question"] or {}
        assert set(question) <= {"number", "total", "text", "unit"}  # never the answer
        payout = data["payout"]
        if payout is not None:
            turn = record["turns"][question["number"] - 1] if question else record["turns"][-1]
            assert payout["answer"] == turn["answer"]
            revealed = max(revealed, turn["question"])
        if question and payout is None:
            assert question["number"] == revealed + 1  # the question in play: its answer not yet out
    assert revealed == 7
    answers = [c.text for c in public if isinstance(c, Caption) and c.text.startswith(("The answer", "La respuesta",
                                                                                         "Het juiste"))]
    assert len(answers) == 7  # said once each, at its reveal


def test_the_public_view_at_the_key_phases(tmp_path):
    public, record = play_observed("wits_full", tmp_path)
    views = [e.data for e in public if isinstance(e, View)]
    first = views[0]
    assert {"lang", "players", "scores", "turn", "active", "hint", "round_total", "question", "guesses", "mat",
            "bets", "chips", "payout"} <= set(first)
    assert [p["id"] for p in first["players"]] == ["red", "orange", "yellow", "green"]
    assert first["round_total"] == 7
    # while guessing: the question without its answer, the guesses so far (said aloud: public)
    guessing = next(v for v in views if v["guesses"] and v["question"] and v["question"]["number"] == 1)
    assert guessing["question"]["text"] == "In what year did Apollo 11 land on the Moon?"
    assert guessing["payout"] is None and guessing["mat"] == []
    # the mat: eight slots, odds and labels, the guess and who guessed it; slot 0 is too high
    betting = next(v for v in views if v["mat"] and v["question"]["number"] == 1)
    assert [s["odds"] for s in betting["mat"]] == [6, 5, 4, 3, 2, 3, 4, 5]
    assert betting["mat"][3] == {"slot": 3, "odds": 3, "label": "3 to 1", "value": 1969,
                                 "players": ["red", "yellow", "green"]}
    assert betting["mat"][0]["value"] is None
    # a bet placed shows at once, with its token and chips
    bet = next(v for v in views if v["bets"] and v["question"]["number"] == 1)
    assert bet["bets"] == [{"player": "red", "slot": 3, "token": "1", "chips": 0},
                           {"player": "red", "slot": 3, "token": "2", "chips": 0}]
    # the reveal: the answer, the winning slot and what each player was paid
    reveal = next(v for v in views if v["payout"])
    assert reveal["payout"] == {"answer": 1969, "unit": "year", "winning_slot": 3,
                                "paid": {"red": 9, "orange": 0, "yellow": 3, "green": 9}}
    # ... on the mat it pays, with the bets and guesses: a page loaded at the payout draws the winning slot
    last_bets = [v for v in views if v["bets"] and v["question"] and v["question"]["number"] == 1
                 and v["payout"] is None][-1]
    assert reveal["mat"] == last_bets["mat"] and reveal["mat"][3]["value"] == 1969
    assert reveal["bets"] == last_bets["bets"] != []
    assert reveal["guesses"] == [{"player": p, "value": v} for p, v in record["turns"][0]["guesses"].items()]
    assert reveal["question"]["number"] == 1
    # every view with a payout has the mat of that question (the reveal, then the final)
    for v in views:
        if v["payout"] is not None:
            turn = record["turns"][v["question"]["number"] - 1] if v["question"] else record["turns"][-1]
            assert [s["value"] for s in v["mat"]] == [s["guess"] for s in turn["slots"]]
            assert [(b["player"], b["slot"], b["chips"]) for b in v["bets"]] == \
                [(b["player"], b["slot"], b["chips"]) for b in turn["bets"]]
    assert views[-1]["chips"] == record["chips"] == views[-1]["scores"]
    # whom the host asks is the active player
    assert any(v["active"] == "yellow" for v in views)
