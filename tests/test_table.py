"""The shared Table and Session: re-prompt policy, global commands, timers, private channel,
undo and resume by replay, autosave (incl. a failing disk), and crash handling."""

import io
import json

import pytest

from voicegame.adapters.headless import ScriptListener, TextVoice, VirtualClock
from voicegame.engine.table import SILENT, NotAllowed, NotUnderstood, Session, Settings


class Counter:
    """A toy game: three phases, each asks for a number ≤ 100 and adds it up."""

    def __init__(self, table):
        self.t = table
        self.total = 0
        table.score_callback = lambda: table.say_text(f"total so far {self.total}")
        table.snapshot_callback = lambda: {"total": self.total}

    def parse(self, text):
        n = self.t.understanding.number(text)
        if n is None:
            raise NotUnderstood
        if n > 100:
            raise NotAllowed(f"{n} is more than 100.")
        return n

    def play(self):
        for i in range(3):
            self.t.enter_phase(f"q{i}")
            n = self.t.ask("common.help_ready", self.parse, phrases=self.t.understanding.number_words(),
                           help_key="common.help_yes_no", moment="number")
            self.total += n
            self.t.award("red", n, "points", "toy", i)
        self.t.record["standings"] = [{"name": "red", "points": self.total}]
        self.t.say_text(f"final total {self.total}")


class Pairs(Counter):
    """One phase with two inputs (for undo inside a phase)."""

    def play(self):
        self.t.enter_phase("both")
        values = [self.t.ask("common.help_ready", self.parse, help_key="common.help_yes_no", moment="n")
                  for _ in range(3)]
        self.t.say_text(f"values {values}")


def run(host, lines, tmp_path, log=None, settings=None):
    out = io.StringIO()
    script = [(i + 1, line) for i, line in enumerate(lines)]
    clock = VirtualClock()
    listener = ScriptListener(script, clock=clock, echo=lambda t: out.write(f"PLAYER: {t}\n"))
    settings = settings or Settings("toy", record=str(tmp_path / "rec.json"), autosave=str(tmp_path / "save.json"))
    session = Session(host, listener, TextVoice(out), clock, settings, log=log)
    outcome = session.run()
    return outcome, out.getvalue(), session


def test_reprompt_policy(tmp_path):
    """A silence re-asks the question; table talk gets nothing, then a short nudge; what is
    understood but not allowed gets its reason; the options come only on "help"."""
    outcome, out, _ = run(Counter, ["<silence>", "blah", "what do you think", "yeah", "five hundred", "seven",
                                    "8", "nine"], tmp_path)
    assert outcome == "finished"
    lines = out.splitlines()
    assert lines[1:3] == ["PLAYER: (silence)", "HOST: Say ready when everyone is done."]  # the question again
    assert lines[3:6] == ["PLAYER: blah", "PLAYER: what do you think",
                          "HOST: Say help to hear what fits here."]  # the question and help would be 9 words
    assert lines[6] == "PLAYER: yeah"  # nothing again
    assert "500 is more than 100." in out
    assert "Please say yes or no." not in out  # the options: only on help
    assert out.rstrip().endswith("HOST: final total 24")


def test_table_talk_never_gets_more_than_a_short_nudge(tmp_path):
    """Table talk gets nothing, then a nudge of at most 8 words (the moment's short question and
    "say help for more", or "say help to hear what fits here")."""
    talk = ["what do you think", "yeah", "no the other way", "hmm", "maybe", "i don't know", "okay then"]
    outcome, out, _ = run(Counter, [*talk, "1", "2", "3"], tmp_path)
    lines = out.splitlines()
    talk_part = lines[1:lines.index("PLAYER: 1")]
    replies = [line[6:] for line in talk_part if line.startswith("HOST:")]
    assert replies and all(len(r.split()) <= 8 for r in replies)
    assert len(replies) <= len(talk) // 2


@pytest.mark.parametrize("lang, tail", [("en", "Or say help."), ("es", "O decid ayuda."),
                                        ("nl", "Of zeg help.")])
def test_the_nudge_asks_the_moments_question_again(tmp_path, lang, tail):
    """Playtest item 1: after two misses the nudge says what is wanted — the moment's short
    question, then "say help for more" — not only "say help"; a question too long to re-ask
    keeps the plain "say help to hear what fits here"."""
    from voicegame.language.prompts import Prompts

    class Asks(Counter):
        def play(self):
            self.t.enter_phase("q")
            self.t.say_text("A long introduction. Red, any guess to fix?")
            self.t.ask(None, self.parse, help_key="common.help_ready", moment="n")
            self.t.say_text("This question goes on and on about all the many things it could possibly want here?")
            self.t.ask(None, self.parse, help_key="common.help_ready", moment="n")

    settings = Settings("toy", lang=lang, record=str(tmp_path / "rec.json"), autosave=str(tmp_path / "save.json"))
    outcome, out, _ = run(Asks, ["blah", "blah blah", "4", "blah", "blah blah", "5"], tmp_path, settings=settings)
    said = [line[6:] for line in out.splitlines() if line.startswith("HOST:")]
    assert said[1] == f"Red, any guess to fix? {tail}"
    assert said[3] == Prompts.load(lang).text("common.nudge")


def test_a_rejected_utterance_is_table_talk(tmp_path):
    from voicegame.ports import Rejected

    class Rejecting:
        def __init__(self, script):
            self.script = script

        def listen(self, expected, timeout_s):
            heard = self.script.listen(expected, timeout_s)
            return Rejected(heard.text, "filler", 1.0) if getattr(heard, "text", "").startswith("talk") else heard

    out = io.StringIO()
    clock = VirtualClock()
    script = ScriptListener([(i, t) for i, t in enumerate(["talk a", "talk b", "1", "2", "3"])], clock=clock)
    settings = Settings("toy", record=str(tmp_path / "rec.json"), autosave=str(tmp_path / "save.json"))
    assert Session(Counter, Rejecting(script), TextVoice(out), clock, settings).run() == "finished"
    assert out.getvalue().splitlines()[:2] == ["HOST: Say ready when everyone is done.",
                                               "HOST: Say help to hear what fits here."]


def test_silence_re_asks_the_question_in_at_most_12_words(tmp_path):
    class Long(Counter):
        def play(self):
            self.t.enter_phase("q")
            self.t.say_text("Here is a long introduction that goes on and on about many things. Red, your guess?")
            self.t.ask(None, self.parse, help_key="common.help_ready", moment="n")

    outcome, out, _ = run(Long, ["<silence>", "4"], tmp_path)
    assert out.splitlines()[2] == "HOST: Red, your guess?"


def test_global_commands(tmp_path):
    lines = ["repeat", "help", "score", "slower", "louder", "pause", "five", "resume", "1", "2", "3"]
    outcome, out, session = run(Counter, lines, tmp_path)
    assert outcome == "finished"
    assert out.count("Say ready when everyone is done.") >= 3  # prompt, repeat, after resume
    assert "Anytime: repeat, help, score" in out and "Please say yes or no." in out
    assert "total so far 0" in out
    assert "I'll speak more slowly." in out and "I'll speak louder." in out
    assert "The game is paused" in out and "Let's continue." in out
    assert "final total 6" in out


def test_undo_takes_back_last_input_of_phase(tmp_path):
    outcome, out, _ = run(Pairs, ["five", "undo", "six", "seven", "eight"], tmp_path)
    assert outcome == "finished" and "values [6, 7, 8]" in out and "Undone." in out
    outcome, out, _ = run(Pairs, ["five", "six", "undo", "eight", "nine"], tmp_path)
    assert "values [5, 8, 9]" in out
    # the prompt is repeated once after the undo, not the whole game
    assert out.count("Say ready when everyone is done.") == 5


def test_undo_with_nothing_in_phase(tmp_path):
    outcome, out, _ = run(Counter, ["five", "undo", "6", "7"], tmp_path)
    assert "There is nothing to undo" in out and "final total 18" in out


def test_quit_confirms_and_keeps_the_record(tmp_path):
    outcome, out, _ = run(Counter, ["five", "stop the game", "no", "six", "quit the game", "yes, stop the game"],
                          tmp_path)
    assert outcome == "quit"
    record = json.loads((tmp_path / "rec.json").read_text())
    save = json.loads((tmp_path / "save.json").read_text())
    assert record["finished"] is False and [a["amount"] for a in record["awards"]] == [5, 6]
    assert save["finished"] is False
    assert all(e.get("command") != "quit" or e["text"] != "quit" for e in save["log"][-1:])
    # resume: the confirmed quit is not replayed; the game continues where it stopped
    outcome, out, _ = run(Counter, ["seven"], tmp_path, log=save["log"],
                          settings=Settings.from_dict(save["settings"]))
    assert outcome == "finished" and "final total 18" in out and "Welcome back" in out
    assert json.loads((tmp_path / "rec.json").read_text())["finished"] is True


def test_script_end_stops_cleanly_and_resume_finishes(tmp_path):
    outcome, out, _ = run(Counter, ["five", "six"], tmp_path)
    assert outcome == "input_ended" and "The script has ended" in out
    save = json.loads((tmp_path / "save.json").read_text())
    assert json.loads((tmp_path / "rec.json").read_text())["finished"] is False
    outcome, out, _ = run(Counter, ["seven"], tmp_path, log=save["log"], settings=Settings.from_dict(save["settings"]))
    assert outcome == "finished" and "final total 18" in out
    # replayed inputs were not spoken again; only the resumed part and the last prompt
    assert "PLAYER: five" not in out and out.count("Say ready when everyone is done.") == 1


def test_silence_limit_returns_silent(tmp_path):
    seen = []

    class Quiet(Counter):
        def play(self):
            self.t.enter_phase("q")
            seen.append(self.t.ask(None, self.parse, help_key="common.help_ready", moment="n", silence_limit=2))

    outcome, out, _ = run(Quiet, ["<silence>", "<silence>"], tmp_path)
    assert seen == [SILENT] and out.count("I didn't hear anything") == 1


def test_timer_on_and_off(tmp_path):
    class Timed(Counter):
        def play(self):
            start = self.t.clock.now()
            self.t.run_timer("common.help_ready")
            self.t.say_text(f"waited {self.t.clock.now() - start:.0f}")

    outcome, out, _ = run(Timed, ["<silence>", "<silence>"], tmp_path)
    assert "You have 30 seconds" in out and "Ten seconds left." in out and "Time's up." in out
    assert "waited 30" in out
    settings = Settings("toy", timer_s=None, record=str(tmp_path / "r.json"), autosave=str(tmp_path / "s.json"))
    outcome, out, _ = run(Timed, ["banana", "ready"], tmp_path, settings=settings)
    assert "There is no timer" in out and "waited 0" in out and outcome == "finished"


@pytest.mark.parametrize("mode, expect", [
    ("ears", ["cover your ears", "Three, two, one.", "PRIVATE psychic: target 42", "All clear."]),
    ("earpiece:hw:1", ["listen to your earpiece", "PRIVATE psychic: target 42"]),
    ("screen", ["read the screen", "For Psychic only: target 42"]),
])
def test_private_channel(tmp_path, mode, expect):
    class Secret(Counter):
        def play(self):
            self.t.tell_private("psychic", "target 42", "Psychic")

    out = io.StringIO()
    settings = Settings("toy", private=mode, record=str(tmp_path / "r.json"), autosave=str(tmp_path / "s.json"))
    Session(Secret, ScriptListener([]), TextVoice(out), VirtualClock(), settings,
            screen=lambda s: out.write(s + "\n")).run()
    text = out.getvalue()
    for piece in expect:
        assert piece in text
    if mode == "ears":
        assert text.count("PRIVATE psychic: target 42") == 2


def test_full_disk_at_autosave_is_said_and_the_game_goes_on(tmp_path):
    blocker = tmp_path / "blocker"
    blocker.write_text("a file where a directory should be")
    settings = Settings("toy", record=str(blocker / "rec.json"), autosave=str(blocker / "save.json"))
    outcome, out, _ = run(Counter, ["1", "2", "3"], tmp_path, settings=settings)
    assert outcome == "finished" and "final total 6" in out
    assert out.count("Saving the game failed") == 1


def test_crash_never_shows_a_traceback(tmp_path, caplog):
    class Broken(Counter):
        def play(self):
            self.t.enter_phase("q")
            self.t.ask(None, self.parse, help_key="common.help_ready", moment="n")
            raise RuntimeError("bug")

    outcome, out, _ = run(Broken, ["five"], tmp_path)
    assert outcome == "error" and "Traceback" not in out and "something went wrong" in out
    save = json.loads((tmp_path / "save.json").read_text())
    assert save["finished"] is False and save["log"][0]["text"] == "five"  # resumable
    assert "RuntimeError: bug" in (tmp_path / "data" / "voicegame.log").read_text()


def test_crash_before_anything_was_played_leaves_nothing_to_resume(tmp_path):
    class Broken(Counter):
        def play(self):
            self.t.enter_phase("setup")
            raise RuntimeError("bug")

    outcome, out, _ = run(Broken, [], tmp_path)
    assert outcome == "error" and "could not start" in out and not (tmp_path / "save.json").exists()


def test_idle_table_saves_and_returns(tmp_path):
    settings = Settings("toy", idle_s=25, record=str(tmp_path / "rec.json"), autosave=str(tmp_path / "save.json"))
    outcome, out, _ = run(Counter, ["five", "<silence>", "<silence>", "<silence>", "six"], tmp_path, settings=settings)
    assert outcome == "idle" and "Nobody has spoken for a while" in out
    assert json.loads((tmp_path / "save.json").read_text())["finished"] is False


def test_a_deciding_silence_can_be_undone(tmp_path):
    """Silence that means something (e.g. a writer's pass) is an input of the phase: undo takes it back."""
    seen = []

    class Quiet(Counter):
        def play(self):
            self.t.enter_phase("q")
            first = self.t.ask(None, self.parse, help_key="common.help_ready", moment="n", silence_limit=1)
            second = self.t.ask(None, self.parse, help_key="common.help_ready", moment="n", silence_limit=1)
            seen.append((first, second))

    outcome, out, _ = run(Quiet, ["<silence>", "undo", "five", "six"], tmp_path)
    assert outcome == "finished" and seen[-1] == (5, 6) and "Undone." in out


def test_repeat_repeats_the_question_not_the_timer(tmp_path):
    class Timed(Counter):
        def play(self):
            self.t.enter_phase("q")
            self.t.say("common.help_yes_no")
            self.t.run_timer("common.help_ready")
            self.t.ask(None, self.parse, help_key="common.help_ready", moment="n")

    outcome, out, _ = run(Timed, ["repeat", "5"], tmp_path)
    assert out.count("You have 30 seconds") == 1 and out.count("Please say yes or no.") == 2


def test_journal_between_phases_is_applied_on_load(tmp_path):
    """Every listening moment appends to a journal; a torn last line is ignored."""
    from voicegame.engine.journal import append_journal, atomic_write_json, journal_path, load_autosave

    save = tmp_path / "save.json"
    atomic_write_json(save, {"settings": {"game": "wits"}, "log": [{"text": "a"}], "finished": False})
    append_journal(save, 0, {"text": "a", "accepted": True})
    append_journal(save, 1, {"text": "b"})
    with journal_path(save).open("a") as fh:
        fh.write('{"i": 2, "entr')  # the process died mid-write
    assert load_autosave(save)["log"] == [{"text": "a", "accepted": True}, {"text": "b"}]


def test_saved_log_matches_the_live_log_at_every_listening_moment(tmp_path):
    """What a killed process leaves on disk (autosave + journal) is the whole input log at
    every listen — commands, pauses, refused inputs and a declined quit included."""
    from voicegame.engine.journal import load_autosave

    lines = ["repeat", "five", "blah", "pause", "hello", "resume", "quit", "no", "undo", "six", "score",
             "<silence>", "seven", "8"]
    out = io.StringIO()
    clock = VirtualClock()
    script = ScriptListener([(i + 1, t) for i, t in enumerate(lines)], clock=clock)
    settings = Settings("toy", record=str(tmp_path / "rec.json"), autosave=str(tmp_path / "save.json"))
    checked = []

    class Checking:
        def listen(self, expected, timeout_s):
            table = session.table
            if (tmp_path / "save.json").exists() and not table.replaying:
                assert load_autosave(tmp_path / "save.json")["log"] == table.log
                checked.append(len(table.log))
            return script.listen(expected, timeout_s)

    session = Session(Counter, Checking(), TextVoice(out), clock, settings)
    assert session.run() == "finished"
    assert len(checked) >= len(lines) - 2


def test_a_moment_without_timeout_still_lets_an_idle_table_go(tmp_path):
    """Kiosk: "say ready", the clue, a pause… wait forever only where no idle time is set."""
    class Waiting(Counter):
        def play(self):
            self.t.enter_phase("q")
            self.t.ask(None, self.parse, help_key="common.help_ready", moment="n", timeout_s=None)

    settings = Settings("toy", idle_s=25, record=str(tmp_path / "rec.json"), autosave=str(tmp_path / "save.json"))
    outcome, out, _ = run(Waiting, ["<silence>"] * 10, tmp_path, settings=settings)
    assert outcome == "idle"


# ---------------------------------------------------------------------- one seat order (G3)
@pytest.mark.parametrize("lang", ["en", "es", "nl"])
def test_play_and_the_lobby_give_the_same_default_colours(lang):
    """`voicegame play rofl` / `play wavelength` without --players / --teams seat the same
    colours, in the same order, as the lobby's set-up for as many players (engine/seats.py)."""
    from voicegame.engine.seats import default_seats
    from voicegame.games.registry import host_module
    from voicegame.games.wavelength.intents import wavelength_understanding
    from voicegame.language.words import normalise, understanding

    u = understanding(lang)
    rofl = host_module("rofl")
    assert list(rofl.DEFAULT_PLAYERS) == default_seats(len(rofl.DEFAULT_PLAYERS))
    settings = Settings(game="rofl", lang=lang)
    rofl.validate(settings)
    assert settings.options["players"] == default_seats(4)

    def key(team: str) -> str:
        said = normalise(team)
        return said if said in u.colour_words else next(k for k, v in u.colour_words.items() if said in v)

    assert [key(t) for t in wavelength_understanding(lang).default_teams] == default_seats(2)


def test_seats_are_taken_as_typed_or_the_default_and_said_in_pairs():
    """``--players`` as typed (errors quote it), else the default seats, unnamed; said two by two."""
    from voicegame.engine.seats import in_pairs, players_option
    from voicegame.language.prompts import Prompts

    assert players_option(None, ["red", "blue", "green"]) == (["red", "blue", "green"], False)
    assert players_option(" Red, ,blue ", ["red"]) == (["Red", "blue"], True)
    assert in_pairs(["Red", "Blue", "Green", "Yellow", "Orange"], Prompts.load("en").join) == \
        "Red and Blue, Green and Yellow, Orange"
    assert in_pairs(["Rojo", "Azul", "Verde"], Prompts.load("es").join) == "Rojo y Azul, Verde"
