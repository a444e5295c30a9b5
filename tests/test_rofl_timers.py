"""ROFL!'s writing and guessing timers are the table's timers (engine/timers.py): a screen
subscribed to the public audience sees each as Timer events; "pause" stops them and "resume"
goes on with the time left; the 10-second warning is said once (G1); the disqualify
confirmation stops the guessing clock (R3, R4). Virtual clock: only silences take time."""

from __future__ import annotations

import io
import json

import pytest

from tests.playthrough import FIXTURES
from voicegame.adapters.headless import ScriptListener, TextVoice, VirtualClock
from voicegame.display.events import ScreenState, encode, line
from voicegame.engine.observer import PUBLIC, Caption, Observers, Timer
from voicegame.engine.table import Session, Settings
from voicegame.games.rofl import host

WRITING = "Writers, claim a space like Blue, seven. 30 seconds."
GUESSING = "Red, say the whole message, word for word. 30 seconds."


def play(tmp_path, lines, timer_s=30.0, screen_state=None):
    """Red guesses, Blue and Green write (seed 5, the frozen deck). Returns what a public
    subscriber saw, in order: ``("said", text)``, ``("heard", text)`` and
    ``("timer", total_s, left_s, running, clock_s)``."""
    settings = Settings("rofl", seed=5, timer_s=timer_s,
                        options={"players": ["red", "blue", "green"], "deck": str(FIXTURES / "rofl_deck_en.txt")},
                        record=str(tmp_path / "r.json"), autosave=str(tmp_path / "s.json"))
    host.validate(settings)
    clock = VirtualClock()
    seen: list[tuple] = []

    def screen(event) -> None:
        if screen_state is not None:  # as the table's screen keeps it for its page
            obj = encode(event, at=0.0)
            screen_state.remember(obj["kind"], line(obj))
        if isinstance(event, Timer):
            seen.append(("timer", event.total_s, event.left_s, event.running, clock.t))
        elif isinstance(event, Caption):
            seen.append(("said", event.text))

    bus = Observers()
    bus.subscribe(screen, audience=PUBLIC)
    listener = ScriptListener(list(enumerate(lines, 1)), clock=clock, echo=lambda text: seen.append(("heard", text)))
    assert Session(host.Host, listener, TextVoice(io.StringIO()), clock, settings, observers=bus).run() == "input_ended"
    return seen


def after(seen, sentence):
    """What was seen from ``sentence`` on (its first time)."""
    return seen[seen.index(("said", sentence)):]


def timers(seen):
    return [e[1:] for e in seen if e[0] == "timer"]


def test_the_writing_timer_is_published_warned_once_and_ended(tmp_path):
    seen = play(tmp_path, ["blue, three", "<silence>", "<silence>", "green, four"])
    writing = after(seen, WRITING)
    assert writing[1] == ("timer", 30.0, 30.0, True, 0.0)  # the screen starts drawing it with the question
    until_guess = writing[:writing.index(("said", "Blue, show space 3."))]
    assert timers(until_guess) == [(30.0, 30.0, True, 0.0), (30.0, 10.0, True, 20.0), (30.0, 0.0, False, 30.0)]
    assert until_guess.count(("said", "Ten seconds.")) == 1
    assert until_guess.index(("said", "Ten seconds.")) < until_guess.index(("said", "Time's up."))
    assert ("said", "Green, your space, or pass?") in until_guess  # asked by name after the timer


def test_the_writing_timer_ends_at_once_when_every_writer_has_claimed(tmp_path):
    seen = play(tmp_path, ["blue, three", "green, four"])
    writing = after(seen, WRITING)
    assert timers(writing)[:2] == [(30.0, 30.0, True, 0.0), (30.0, 0.0, False, 0.0)]
    assert ("said", "Time's up.") not in writing and ("said", "Everyone's in.") not in writing


def test_pause_stops_the_writing_timer_and_resume_goes_on_with_the_time_left(tmp_path):
    """The 10 s of silence at the quit question, asked while paused, are not timer time."""
    seen = play(tmp_path, ["blue, three", "<silence>", "pause", "stop the game", "<silence>", "resume", "<silence>",
                           "green, four"])
    writing = after(seen, WRITING)
    writing = writing[:writing.index(("said", "Blue, show space 3."))]
    assert timers(writing) == [(30.0, 30.0, True, 0.0), (30.0, 10.0, True, 20.0),  # the warning
                               (30.0, 10.0, False, 20.0),  # paused
                               (30.0, 10.0, True, 30.0),   # resumed after 10 s at the quit question
                               (30.0, 0.0, False, 40.0)]   # 10 s more: 30 s of writing in all
    assert writing.count(("said", "Ten seconds.")) == 1


def test_the_guessing_timer_is_published_and_warns_once_in_the_question_asked_again(tmp_path):
    seen = play(tmp_path, ["blue, three", "green, four", "<silence>", "<silence>"])
    guessing = after(seen, GUESSING)
    guessing = guessing[:guessing.index(("said", "Green, show space 4."))]
    assert timers(guessing) == [(30.0, 30.0, True, 0.0), (30.0, 10.0, True, 20.0), (30.0, 0.0, False, 30.0)]
    said = [e[1] for e in guessing if e[0] == "said"]
    assert said == [GUESSING, "Ten seconds. Red, your guess?", "Time's up: no guess."]


def test_a_guess_heard_as_nothing_early_still_gets_the_warning_once(tmp_path):
    """Noise asks again at once; the silence that follows reaches the warning (G1), which is
    said once; the time running out is no guess."""
    seen = play(tmp_path, ["blue, three", "green, four", "[unk]", "<silence>", "<silence>"])
    guessing = after(seen, GUESSING)
    guessing = guessing[:guessing.index(("said", "Green, show space 4."))]
    said = [e[1] for e in guessing if e[0] == "said"]
    assert said == [GUESSING, "Red, your guess?", "Ten seconds. Red, your guess?", "Time's up: no guess."]
    assert timers(guessing)[-1] == (30.0, 0.0, False, 30.0)


def test_pause_stops_the_guessing_timer_and_resume_goes_on_with_the_time_left(tmp_path):
    seen = play(tmp_path, ["blue, three", "green, four", "pause", "stop the game", "<silence>", "resume",
                           "<silence>", "<silence>"])
    guessing = after(seen, GUESSING)
    guessing = guessing[:guessing.index(("said", "Green, show space 4."))]
    assert timers(guessing) == [(30.0, 30.0, True, 0.0), (30.0, 30.0, False, 0.0), (30.0, 30.0, True, 10.0),
                                (30.0, 10.0, True, 30.0), (30.0, 0.0, False, 40.0)]
    assert [e[1] for e in guessing if e[0] == "said"].count("Ten seconds. Red, your guess?") == 1


def test_the_disqualify_confirmation_stops_the_guessing_clock(tmp_path):
    """20 s of guessing, 10 s of silence at "Disqualify Blue's message?", then the 10 s left."""
    seen = play(tmp_path, ["blue, three", "green, four", "<silence>", "disqualified", "<silence>", "no",
                           "<silence>"])
    guessing = after(seen, GUESSING)
    guessing = guessing[:guessing.index(("said", "Green, show space 4."))]
    assert timers(guessing) == [(30.0, 30.0, True, 0.0), (30.0, 10.0, True, 20.0), (30.0, 0.0, False, 40.0)]
    said = [e[1] for e in guessing if e[0] == "said"]
    assert said[-3:] == ["It stays.", "Red, say the whole message, word for word.", "Time's up: no guess."]


def test_a_game_without_timers_publishes_no_timer(tmp_path):
    seen = play(tmp_path, ["blue, three", "green, four", "<silence>", "<silence>", "<silence>"], timer_s=None)
    assert ("said", "No guess.") in seen and timers(seen) == []


@pytest.mark.parametrize("lines, warnings", [
    (["<silence>", "<silence>", "blue, three", "green, four", "<silence>", "<silence>"], 2),  # each timer once
    (["blue, three", "<silence>", "repeat", "help", "<silence>", "green, four", "<silence>", "<silence>"], 2),
])
def test_each_timer_warns_once(tmp_path, lines, warnings):
    seen = play(tmp_path, lines)
    first_turn = seen[:seen.index(("said", "Green, show space 4."))]
    said = [e[1] for e in first_turn if e[0] == "said"]
    assert sum(s.startswith("Ten seconds.") for s in said) == warnings
    assert sum(1 for t in timers(first_turn) if t[1] == 10.0 and t[2]) == warnings  # one warning event each


def test_the_screen_draws_the_rofl_timers(tmp_path):
    """The screen's state (what a page that connects now starts from) holds the running timer."""
    state = ScreenState()
    play(tmp_path, ["blue, three", "<silence>", "pause"], screen_state=state)  # the script ends while paused
    timer = [json.loads(t) for t in state.snapshot() if json.loads(t)["kind"] == "timer"]
    assert timer == [{"kind": "timer", "total_s": 30.0, "left_s": 10.0, "running": False, "at": 0.0}]
