"""ROFL! moments that talk like a host: tips the first time only, rules on request, the writing
phase ending at once, pause stopping the timers, agreement needing a word, a late guess, resume."""

from __future__ import annotations

import io

from voicegame.adapters.headless import TextVoice, VirtualClock
from voicegame.engine.table import Session, Settings
from voicegame.games.rofl import host as host_rofl
from voicegame.ports import Heard, Silence
from tests.playthrough import run_cli
from tests.test_host_rofl import play, script_file

THREE = ["--players", "red,blue,green", "--seed", "5"]


def host_lines(out: str) -> list[str]:
    return [line.removeprefix("HOST: ") for line in out.splitlines() if line.startswith("HOST: ")]


class TimedListener:
    """Script lines, each taking ``seconds`` of (virtual) time to say; ``<silence>`` waits
    out the window. Lets a test see whether a timer ran while the table was paused."""

    def __init__(self, lines, clock, seconds=5.0):
        self.lines, self.clock, self.seconds = list(lines), clock, seconds

    def listen(self, expected, timeout_s):
        from voicegame.ports import InputEnded
        if not self.lines:
            raise InputEnded("script")
        text = self.lines.pop(0)
        if text == "<silence>":
            self.clock.sleep(timeout_s or 0)
            return Silence(timeout_s or 0)
        self.clock.sleep(self.seconds)
        return Heard(text)


def run(lines, clock, seconds=5.0, **options):
    settings = Settings("rofl", seed=5, options={"players": ["red", "blue", "green"], **options})
    host_rofl.validate(settings)
    out = io.StringIO()
    Session(host_rofl.Host, TimedListener(lines, clock, seconds), TextVoice(out), clock, settings).run()
    return out.getvalue()


def test_the_writing_phase_ends_at_once_when_every_writer_has_claimed():
    clock = VirtualClock()
    out = run(["blue, three", "green pass"], clock)
    said = host_lines(out)
    assert said[said.index("Green passes.") + 1] == "Blue, show space 3."
    assert "Ten seconds." not in out and "Time's up." not in out
    assert clock.now() < 20  # no waiting out the 30-second timer


def test_pause_stops_the_writing_timer():
    """Five seconds a line: claim (5 s), pause, 40 s of talk while paused, resume — the
    writing timer (30 s) has not run out, so Green may still claim during it."""
    clock = VirtualClock()
    paused_talk = ["hold on"] + ["we are still talking"] * 8 + ["resume"]
    out = run(["blue, three", *paused_talk, "green, four"], clock)
    said = host_lines(out)
    assert "Time's up." not in said[:said.index("Green on 4.")]
    assert "Green, your space, or pass?" not in out


def test_pause_stops_the_guessing_timer():
    clock = VirtualClock()
    paused_talk = ["pause"] + ["hmm"] * 8 + ["resume"]
    out = run(["blue, three", "green, four", *paused_talk, "no pain no gain", "agreed"], clock)
    assert "Time's up: no guess." not in out and "That's right!" in out


def test_a_guess_said_after_its_time_counts_as_no_guess():
    """A keyboard (or a slow line) may deliver a guess after the 30 seconds: it is too late."""
    clock = VirtualClock()
    out = run(["blue, three", "green, four", "no pain no gain"], clock, seconds=31.0)
    said = host_lines(out)
    assert "Time's up: no guess." in said and "That's right!" not in said


def test_silence_is_not_agreement_the_host_says_its_judgement_stands(tmp_path):
    _, out, record = play(tmp_path, script_file(tmp_path, ["blue, three", "green, four", "no pain no gain",
                                                           "<silence>"]), THREE)
    said = host_lines(out)
    assert said[said.index("That's right!") + 1:][:2] == ["Writers: say agreed, or your colour and correct or wrong.",
                                                        "No objection: it stands."]
    assert record["turns"][0]["points"] == {"red": 3, "blue": 3}


def test_tips_come_once_then_short_prompts(tmp_path):
    _, out, _ = play(tmp_path, "rofl_four_players", ["--seed", "5"])
    said = host_lines(out)
    assert said.count("Writers, claim a space like Blue, seven. 30 seconds.") == 1
    assert sum(s.startswith("Writers, claim your spaces.") for s in said) == 12  # once more after an undo
    assert said.count("Red, say the whole message, word for word. 30 seconds.") == 1
    assert said.count("Writers: say agreed, or your colour and correct or wrong.") == 1
    assert said.count("Agreed?") > 10


def test_rules_on_request_in_chunks_and_the_timer_goes_on(tmp_path):
    _, out, record = play(tmp_path, script_file(tmp_path, ["rules", "more", "more", "more", "more", "blue, three",
                                                           "green, four"]), THREE + ["--lenient"])
    said = host_lines(out)
    first = said.index(next(s for s in said if s.startswith("Each turn one player guesses.")))
    assert said[first].endswith("Say more for the rest.")
    assert said[first + 4].startswith("Too many characters on a board?")
    assert said[first + 4].endswith("Options on: a missing or extra a, an or the is forgiven.")
    assert all(len(s.split()) <= 40 for s in said[first:first + 5])
    assert record["inputs"][0]["text"] == "blue, three"  # the rules are not inputs undo takes back
    assert "blue, three" in out and "Blue on 3." in out


def test_resume_says_where_the_game_is_and_what_is_pending(tmp_path):
    first = script_file(tmp_path, ["blue, three", "green, four", "no pain no gain", "agreed", "green, two"],
                        "first.txt")
    status, out, err = run_cli(["play", "rofl", "--input", str(first), "--output", "text",
                                "--record", str(tmp_path / "r.json"), *THREE])
    assert status == 0, err
    rest = script_file(tmp_path, ["red, five", "<silence>"], "rest.txt")
    status, out, err = run_cli(["resume", "--input", str(rest), "--output", "text"])
    assert status == 0, err
    said = host_lines(out)
    # the saved game stopped as Green's claim was heard: where the game is, what is pending, then
    # that claim (the last input of the save) is taken live
    assert said[1:5] == ["ROFL!, round 1, turn 2. Blue guessing.", "Red and Blue lead with 3 points.",
                         "Writers, claim a space.", "Green on 2."]
    assert "3 points each" not in out  # no past scoring narrated as new
