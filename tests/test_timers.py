"""Timers that listen: commands and answers take effect at once, "pause" stops the timer
and "resume" goes on with the time left, a timed moment ends when everyone has acted, and
the keyboard waits no longer than a microphone would."""

import io
import os

from voicegame.adapters.headless import KeyboardListener, ScriptListener, TextVoice, VirtualClock
from voicegame.engine.moment import NotUnderstood
from voicegame.engine.observer import Observers, Timer
from voicegame.engine.table import Session, Settings
from voicegame.ports import Expected, Heard, Silence


class Timed:
    """A toy host: one 30 s timer, then one question."""

    def __init__(self, table):
        self.t = table

    def play(self):
        self.t.enter_phase("t")
        self.t.say("common.help_yes_no")  # the question the timer is for
        start = self.t.clock.now()
        self.t.run_timer("common.help_ready")
        self.t.say_text(f"timer took {self.t.clock.now() - start:.0f}")
        answer = self.t.ask_yes_no("common.help_yes_no")
        self.t.say_text(f"answer {answer}")


class Bets:
    """A toy timed moment: three players say their colour; it ends when all three have."""

    def __init__(self, table):
        self.t = table
        self.said = []

    def parse(self, text):
        colour = self.t.understanding.colour(text)
        if colour is None:
            raise NotUnderstood
        return colour

    def play(self):
        self.t.enter_phase("bets")
        start = self.t.clock.now()
        got = self.t.timed_moment("common.help_ready", self.parse, done=lambda: len(self.said) == 3,
                                  on_answer=self.said.append, phrases=self.t.understanding.colour_phrases())
        self.t.say_text(f"got {got} after {self.t.clock.now() - start:.0f}")


def run(host, lines, tmp_path, timer_s=30.0, bus=None):
    out = io.StringIO()
    clock = VirtualClock()
    listener = ScriptListener([(i + 1, t) for i, t in enumerate(lines)], clock=clock,
                              echo=lambda t: out.write(f"PLAYER: {t}\n"))
    settings = Settings("toy", timer_s=timer_s, record=str(tmp_path / "rec.json"), autosave=str(tmp_path / "s.json"))
    outcome = Session(host, listener, TextVoice(out), clock, settings, observers=bus).run()
    return outcome, out.getvalue()


def test_a_command_during_a_timer_takes_effect_at_once(tmp_path):
    outcome, out = run(Timed, ["repeat", "<silence>", "<silence>", "yes"], tmp_path)
    lines = out.splitlines()
    assert lines[2:4] == ["PLAYER: repeat", "HOST: Please say yes or no."]  # the question, not the timer
    assert "timer took 30" in out and "answer True" in out


def test_pause_stops_the_timer_and_resume_goes_on_with_the_time_left(tmp_path):
    bus, events = Observers(), []
    bus.subscribe(lambda e: events.append(e) if isinstance(e, Timer) else None)
    outcome, out = run(Timed, ["<silence>", "pause", "<silence>", "resume", "<silence>", "yes"], tmp_path, bus=bus)
    assert outcome == "finished" and "The game is paused" in out and "Let's continue." in out
    assert [(e.left_s, e.running) for e in events] == [(30.0, True), (10.0, True), (10.0, False), (10.0, True),
                                                        (0.0, False)]
    assert "timer took 30" in out  # the pause took no time off the timer


def test_something_said_during_a_timer_is_heard_by_the_next_moment(tmp_path):
    outcome, out = run(Timed, ["yes"], tmp_path)
    assert outcome == "finished" and "answer True" in out and "Time's up." in out


def test_a_timed_moment_ends_as_soon_as_everyone_has_acted(tmp_path):
    outcome, out = run(Bets, ["red", "what do you think", "blue", "<silence>", "green"], tmp_path)
    assert "got ['red', 'blue', 'green'] after 20" in out  # one silent stretch of 20 s, then done
    assert "Everyone's in." in out and "Time's up." not in out


def test_a_timed_moment_runs_out_with_the_answers_it_has(tmp_path):
    outcome, out = run(Bets, ["red", "<silence>", "<silence>"], tmp_path)
    assert "got ['red'] after 30" in out and "Time's up." in out


def test_a_timed_moment_without_timer_listens_until_done_or_ready(tmp_path):
    outcome, out = run(Bets, ["red", "ready"], tmp_path, timer_s=None)
    assert "There is no timer" in out and "got ['red'] after 0" in out


def test_a_timed_moment_replays_the_same_after_an_undo(tmp_path):
    outcome, out = run(Bets, ["red", "blue", "undo", "green", "blue"], tmp_path)
    assert "got ['red', 'green', 'blue']" in out


def test_the_keyboard_waits_no_longer_than_the_moment_allows():
    read_end, write_end = os.pipe()
    with os.fdopen(read_end, "r") as stream, os.fdopen(write_end, "w") as writer:
        keyboard = KeyboardListener(stream, out=io.StringIO())
        expected = Expected(("yes",), False, "t")
        assert keyboard.listen(expected, 0.01) == Silence(0.01)
        writer.write("yes\nno\n")
        writer.flush()
        assert keyboard.listen(expected, 0.01) == Heard("yes")
        assert keyboard.listen(expected, 0.01) == Heard("no")  # both lines arrived at once
