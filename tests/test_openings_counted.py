"""An opening is counted as it is said: the words a host's ``opening()`` fits within
:data:`~voicegame.language.budget.OPENING_WORDS` are the words the table then hears before the
first input, made once by the same methods (review: a second copy of the first turn's
sentences, kept for counting only, had drifted from what was said — ROFL!'s screen and earpiece
sentences named one writer where the host named them all)."""

from __future__ import annotations

import pytest

from tests.playthrough import run_cli
from voicegame.games.rofl import host as host_rofl
from voicegame.games.wavelength import host as host_wavelength
from voicegame.games.wits import host as host_wits
from voicegame.language.budget import heard_words, turns


def _played(tmp_path, game: str, argv: list[str], line: str) -> str:
    script = tmp_path / "s.txt"
    script.write_text(line + "\n", encoding="utf-8")
    env = {"VOICEGAME_DATA_DIR": str(tmp_path / "d"), "VOICEGAME_CONFIG_DIR": str(tmp_path / "c")}
    status, out, err = run_cli(["play", game, "--input", str(script), "--output", "text", *argv], environ=env)
    assert status == 0 and "Traceback" not in out + err, err
    return out


def _heard_first(out: str) -> list[str]:
    """The words before the first input, as printed (spoken and private lines)."""
    return " ".join(turns(out)[0]).split()


ROFL = [["--seed", "3"], ["--seed", "4", "--players", "red,blue,green"], ["--seed", "5", "--hard"],
        ["--seed", "6", "--own-message", "--players", "red,blue,green"], ["--seed", "7", "--timer", "off"],
        ["--seed", "8", "--private", "screen"], ["--seed", "9", "--own-message", "--hard", "--timer", "off"],
        ["--seed", "1", "--lang", "es"], ["--seed", "2", "--lang", "nl", "--players", "rood,blauw,geel,groen,roze"]]


@pytest.mark.parametrize("argv", ROFL, ids=[" ".join(a) for a in ROFL])
def test_rofl_opening_counts_the_words_the_host_then_says(tmp_path, monkeypatch, argv):
    counted = []
    opening = host_rofl.Host.opening

    def spy(self):
        welcome, seats, example = opening(self)
        lines = ([("say", self.table.text(welcome))] if welcome else []) + ([("say", seats)] if seats else [])
        counted.append(lines + self.first_turn_lines(example))
        return welcome, seats, example

    monkeypatch.setattr(host_rofl.Host, "opening", spy)
    out = _played(tmp_path, "rofl", argv, "red 5")
    assert len(counted) == 1
    assert [w for how, text in counted[0] if how != "screen" for w in text.split()] == _heard_first(out)
    assert heard_words(counted[0]) <= 40


WITS = [["--seed", "1"], ["--seed", "2", "--players", "red,blue,green"], ["--seed", "3", "--timer", "off"],
        ["--seed", "4", "--lang", "es"], ["--seed", "5", "--lang", "nl", "--players", "rood,blauw,geel,groen,roze,paars"],
        ["--seed", "16", "--timer", "off"], ["--seed", "18", "--lang", "nl", "--timer", "off"]]  # long questions: short forms


@pytest.mark.parametrize("argv", WITS, ids=[" ".join(a) for a in WITS])
def test_wits_opening_counts_the_words_the_host_then_says(tmp_path, monkeypatch, argv):
    counted = []
    opening = host_wits.Host.opening

    def spy(self):
        welcome, seats, timer = opening(self)
        counted.append(([self.text(welcome)] if welcome else []) + ([seats] if seats else [])
                       + self.first_question_lines(timer))
        return welcome, seats, timer

    monkeypatch.setattr(host_wits.Host, "opening", spy)
    out = _played(tmp_path, "wits", argv, "red 5")
    assert len(counted) == 1
    assert " ".join(counted[0]).split() == _heard_first(out)
    assert sum(len(x.split()) for x in counted[0]) <= 40


WAVELENGTH = [["--seed", "1", "--players", "2"], ["--seed", "16", "--players", "2", "2"],
              ["--seed", "12", "--players", "2", "--teams", "Red Dragons", "Blue Whales"],
              ["--seed", "16", "--coop", "--players", "4"], ["--seed", "3"], ["--seed", "4", "--coop"],
              ["--seed", "5", "--players", "3", "--private", "screen"], ["--seed", "8", "--lang", "es", "--players", "2"],
              ["--seed", "5", "--lang", "nl", "--coop", "--players", "5"]]


@pytest.mark.parametrize("argv", WAVELENGTH, ids=[" ".join(a) for a in WAVELENGTH])
def test_wavelength_opening_counts_the_words_the_host_then_says(tmp_path, monkeypatch, argv):
    counted = []
    opening = host_wavelength.Host.opening

    def spy(self):
        welcome, first = opening(self)
        counted.append(([("say", self.welcome_text(welcome))] if welcome else []) + self.first_turn_lines(first))
        return welcome, first

    monkeypatch.setattr(host_wavelength.Host, "opening", spy)
    out = _played(tmp_path, "wavelength", argv, "a clue")
    assert len(counted) == 1
    assert [w for how, text in counted[0] if how != "screen" for w in text.split()] == _heard_first(out)
    assert heard_words(counted[0]) <= 40
