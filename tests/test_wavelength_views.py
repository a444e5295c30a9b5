"""The Wavelength views a screen gets (VIEWS contract): every golden playthrough is run
with a public and a Psychic subscriber; the public events never hold a target before its
reveal, and the view's fields are right at the key phases."""

from __future__ import annotations

import io
import json

import pytest

from pathlib import Path

from tests.playthrough import GOLDEN, SCRIPTS
from tests.test_host_wavelength import mechanics_deck
from voicegame.bench import game_settings
from voicegame.adapters.headless import ScriptListener, TextVoice, VirtualClock
from voicegame.engine.observer import Caption, Observers, View
from voicegame.engine.table import Session
from voicegame.games.wavelength import host

#: the golden playthroughs and their command lines (as in the golden tests)
GAMES = {
    "wavelength_team": ["--seed", "7", "--players", "3", "2"],
    "wavelength_coop": ["--coop", "--seed", "11", "--players", "4"],
    "wavelength_es": ["--lang", "es", "--seed", "7", "--players", "3", "2"],
    "wavelength_nl": ["--lang", "nl", "--seed", "8", "--accessible", "--target-score", "7"],
}
COMMON = {"lang", "players", "scores", "turn", "active", "hint", "round_total"}
OWN = {"teams", "card", "clue", "dial_deg", "reveal"}


def play(name: str, tmp_path):
    """Play golden ``name`` as the CLI would, with a public and a Psychic subscriber."""
    argv = [*mechanics_deck(GAMES[name]), *GAMES[name]]  # the frozen deck, as the golden tests deal
    _, settings = game_settings("wavelength", argv, SCRIPTS / f"{name}.txt", tmp_path)
    bus = Observers()
    public, psychic = [], []
    bus.subscribe(public.append)
    bus.subscribe(psychic.append, audience="psychic")
    out = io.StringIO()
    clock = VirtualClock()
    listener = ScriptListener(SCRIPTS / f"{name}.txt", clock=clock, echo=lambda t: out.write(f"PLAYER: {t}\n"))
    Session(host.Host, listener, TextVoice(out), clock, settings, observers=bus).run()
    return public, psychic, json.loads(Path(settings.record).read_text()), out.getvalue()


def test_the_views_games_are_the_goldens(tmp_path):
    """The same game as the golden file: the text output is the golden one."""
    _, _, _, out = play("wavelength_team", tmp_path)
    assert out == (GOLDEN / "wavelength_team.txt").read_text("utf-8")


@pytest.mark.parametrize("name", sorted(GAMES))
def test_no_target_reaches_the_public_before_its_reveal(name, tmp_path):
    public, psychic, record, _ = play(name, tmp_path)
    assert record["finished"]
    views = [e for e in public if isinstance(e, View)]
    assert views and all(json.dumps(v.data) for v in views)  # JSON-serialisable
    secret_views = [e for e in psychic if isinstance(e, View)]
    assert secret_views and all(set(v.data) == {"target_deg", "card"} for v in secret_views)
    targets = {v.data["target_deg"] for v in secret_views}
    revealed: set[float] = set()
    secrets = {c.text for c in psychic if isinstance(c, Caption)}
    dial = None
    for event in public:
        if isinstance(event, View):
            dial = event.data["dial_deg"]
            assert set(event.data) == COMMON | OWN
            if event.data["reveal"] is not None:
                revealed.add(event.data["reveal"]["target_deg"])
            assert "target_deg" not in event.data
        else:
            assert isinstance(event, Caption)
            # the private sentence (the target in words) never reaches the public, unless it is
            # the public dial's own position read back ("65 degrees, …" with the dial at 65)
            if event.text in secrets:
                assert dial is not None and event.text.startswith(f"{round(dial)} ")
    # every turn's target was revealed, and only after the Psychic had it
    assert {t["target"] for t in record["turns"]} <= revealed


def test_team_views_at_the_key_phases(tmp_path):
    public, _, record, _ = play("wavelength_team", tmp_path)
    views = [e for e in public if isinstance(e, View)]
    first = next(v for v in views if v.phase == "psychic")
    assert first.data["turn"] == 1 and first.data["active"] == "red"
    assert first.data["scores"] == {"red": 0, "blue": 1}  # W4
    assert first.data["teams"][0]["id"] == "red" and first.data["players"][1] == {"id": "blue", "name": "Blue"}
    dial = [v for v in views if v.phase == "dial"]
    assert dial[0].data["dial_deg"] == 90.0 and dial[0].data["clue"] == record["turns"][0]["clue"]
    assert dial[0].data["hint"]
    reveals = [v for v in views if v.data["reveal"] is not None]
    assert len(reveals) == len(record["turns"])
    for view, turn in zip(reveals, record["turns"]):
        reveal = view.data["reveal"]
        assert reveal["target_deg"] == turn["target"] and view.data["dial_deg"] == turn["dial"]
        assert reveal["points"] == turn["points"][turn["team"]]
        assert [w["points"] for w in reveal["wedges"]] == [2, 3, 4, 3, 2]
        if turn["call"]:
            assert reveal["side_call"]["call"] == turn["call"]
            assert reveal["side_call"]["correct"] == turn["call_correct"]
        assert view.data["scores"] == {k.lower(): v for k, v in turn["scores_after"].items()}
    assert views[-1].phase == "game_over" and views[-1].data["card"] is None


def test_coop_views_have_no_teams_and_count_the_cards(tmp_path):
    public, _, record, _ = play("wavelength_coop", tmp_path)
    views = [e for e in public if isinstance(e, View)]
    assert all(v.data["teams"] is None for v in views)
    reveals = [v for v in views if v.data["reveal"] is not None]
    assert [w["points"] for w in reveals[0].data["reveal"]["wedges"]] == [2, 3, 3, 3, 2]  # W9
    assert views[-1].data["scores"] == {"team": record["standings"][0]["points"]}
    assert views[-1].data["round_total"] == len(record["turns"])
