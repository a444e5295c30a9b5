"""The listening moment of the engine: typed parse errors with their own re-prompts,
intents stored beside transcripts, and replays that apply the stored intents (old,
transcript-only logs still replay)."""

import io
import json

import pytest

from tests.playthrough import SCRIPTS
from voicegame import bench
from voicegame.adapters.headless import ScriptListener, TextVoice, VirtualClock
from voicegame.engine.journal import NoStorage, load_autosave
from voicegame.engine.moment import (SILENT, Ambiguous, Moment, NotAllowed, NotUnderstood, decode_intent,
                                     encode_intent)
from voicegame.engine.table import Session, Settings
from voicegame.lobby.intents import LobbyIntent, OptionChange


class Picker:
    """A toy host: one moment; "one" is ambiguous, "seven" is not allowed, numbers ≤ 5 count."""

    def __init__(self, table):
        self.t = table
        self.picked = []

    def parse(self, text):
        if text == "one":
            raise Ambiguous("One or eleven?", readings=(1, 11))
        n = self.t.understanding.number(text)
        if n is None:
            raise NotUnderstood
        if n > 5:
            raise NotAllowed(f"{n} is more than five.")
        return n

    def play(self):
        self.t.enter_phase("pick")
        for _ in range(2):
            self.picked.append(self.t.moment(Moment("common.help_ready", self.parse, "common.help_yes_no", "pick",
                                                    phrases=self.t.understanding.number_words())))
        self.t.note_record(standings=[{"name": "red", "points": sum(self.picked)}])
        self.t.say_text(f"picked {self.picked}")


def play(lines, tmp_path, log=None, host=Picker):
    out = io.StringIO()
    clock = VirtualClock()
    listener = ScriptListener([(i + 1, t) for i, t in enumerate(lines)], clock=clock)
    settings = Settings("toy", record=str(tmp_path / "rec.json"), autosave=str(tmp_path / "save.json"))
    session = Session(host, listener, TextVoice(out), clock, settings, log=log)
    return session.run(), out.getvalue(), session


def test_each_parse_error_has_its_own_reprompt(tmp_path):
    outcome, out, _ = play(["one", "blah", "seven", "2", "3"], tmp_path)
    assert outcome == "finished"
    assert "HOST: One or eleven?" in out
    assert "HOST: 7 is more than five." in out
    assert "blah" not in out  # a first miss gets nothing (table talk)
    assert out.rstrip().endswith("picked [2, 3]")


class Dial(Picker):
    """A toy dial: "lock it in" is this moment's answer (and "okay" means lock too)."""

    def parse(self, text):
        if text in ("lock it in", "okay"):
            return "locked"
        raise NotUnderstood

    def play(self):
        self.t.enter_phase("dial")
        self.picked.append(self.t.moment(Moment("common.help_ready", self.parse, "common.help_yes_no", "dial")))
        self.t.say_text(f"dial {self.picked}")


@pytest.mark.parametrize("lines, said", [
    (["stop", "lock it in"], []),  # "stop" alone only stops the voice: no quit question
    (["stop the game", "lock it in"], ["To stop and save this game", "Good, the game goes on."]),
    (["stop the game", "okay"], ["To stop and save this game", "Good, the game goes on."]),
    (["quit the game", "yes", "no", "okay"], ["To stop, say the words: yes, stop the game."]),
    (["quit the game", "correct", "lock it in"], ["Good, the game goes on."]),
])
def test_no_game_ends_by_accident(tmp_path, lines, said):
    outcome, out, _ = play(lines, tmp_path, host=Dial)
    assert outcome == "finished" and out.rstrip().endswith("dial ['locked']"), out
    for sentence in said:
        assert sentence in out


def test_only_the_exact_words_stop_the_game_and_the_quit_is_not_replayed(tmp_path):
    outcome, out, session = play(["quit the game", "yes, stop the game"], tmp_path, host=Dial)
    assert outcome == "quit" and "yes, stop the game" in out
    save = load_autosave(tmp_path / "save.json")
    assert save["log"] == []  # resuming starts the dial moment again
    outcome, out, _ = play(["lock it in"], tmp_path, log=save["log"], host=Dial)
    assert outcome == "finished"


def test_stop_stops_the_voice_that_is_speaking(tmp_path):
    stopped = []

    class Stoppable(TextVoice):
        def stop(self):
            stopped.append(True)

    out = io.StringIO()
    clock = VirtualClock()
    settings = Settings("toy", record=str(tmp_path / "rec.json"), autosave=str(tmp_path / "save.json"))
    listener = ScriptListener([(1, "stop"), (2, "okay")], clock=clock)
    assert Session(Dial, listener, Stoppable(out), clock, settings).run() == "finished"
    assert stopped == [True] and "To stop" not in out.getvalue()


def test_the_log_holds_the_accepted_intent_beside_the_transcript(tmp_path, monkeypatch):
    monkeypatch.setenv("VOICEGAME_KEEP_FINISHED", "1")  # a finished game's autosave is read back here
    _, _, session = play(["one", "2", "repeat", "three"], tmp_path)
    log = session.table.log
    assert [(e["text"], e.get("intent"), e.get("command")) for e in log] == [
        ("one", None, None), ("2", {"type": "value", "args": 2}, None), ("repeat", None, "repeat"),
        ("three", {"type": "value", "args": 3}, None)]
    assert load_autosave(tmp_path / "save.json")["log"] == log  # journalled as it is live


def test_a_replay_applies_the_stored_intent_not_the_words(tmp_path):
    """A save survives a change of words: the transcripts no longer parse, the intents do."""
    log = [{"phase": "pick", "moment": "pick", "text": "deux", "alternatives": [], "confidence": 1.0,
            "elapsed": 1.0, "accepted": True, "intent": {"type": "value", "args": 4}},
           {"phase": "pick", "moment": "pick", "text": "2", "alternatives": [], "confidence": 1.0,
            "elapsed": 1.0, "accepted": False, "intent": None},  # not taken then: not taken now
           {"phase": "pick", "moment": "pick", "text": "cinq", "alternatives": [], "confidence": 1.0,
            "elapsed": 1.0, "accepted": True, "intent": {"type": "value", "args": 5}}]
    outcome, out, session = play([], tmp_path, log=log)
    assert outcome == "finished" and out.rstrip().endswith("picked [4, 5]")


def test_an_old_transcript_only_log_still_replays(tmp_path):
    log = [{"phase": "pick", "moment": "pick", "text": t, "alternatives": [], "confidence": 1.0, "elapsed": 1.0,
            "accepted": a} for t, a in (("blah", False), ("2", True), ("three", True))]
    outcome, out, _ = play([], tmp_path, log=log)
    assert outcome == "finished" and out.rstrip().endswith("picked [2, 3]")


@pytest.mark.parametrize("value", [3, 2.5, "left", True, None, SILENT, (1, "a"), [1, [2]], {"k": (1,)},
                                   LobbyIntent("play", game="wits", count=3, options=(OptionChange("timer", "off"),)),
                                   OptionChange("questions", 4)])
def test_intents_round_trip_through_json(value):
    intent = encode_intent(value)
    assert intent is not None
    assert decode_intent(json.loads(json.dumps(intent))) == value


def test_an_answer_that_cannot_be_encoded_keeps_only_its_transcript():
    assert encode_intent(object()) is None
    with pytest.raises(TypeError):
        decode_intent({"type": "data", "class": "os:PathLike", "args": {}})


@pytest.mark.parametrize("script", ["wits_full.txt", "wavelength_team.txt", "rofl_four_players.txt"])
def test_a_golden_game_replays_from_its_intents_alone(tmp_path, script):
    """Every transcript of a golden game's log replaced by a word nobody knows: the game
    replays from the intents (and the logged commands) to the same record."""
    argv, _ = bench.script_argv(SCRIPTS / script, tmp_path)
    game = script.split("_")[0]
    with bench._quiet_data_dir(tmp_path):
        module, settings = bench.game_settings(game, argv, SCRIPTS / script, tmp_path)
        clock = VirtualClock()
        first = Session(module.Host, ScriptListener(SCRIPTS / script, clock=clock), TextVoice(io.StringIO()), clock,
                        settings, screen=lambda s: None)
        assert first.run() == "finished"
        record = json.loads((tmp_path / f"{game}-record.json").read_text())
        log = [dict(e) for e in first.table.log]
        assert sum(1 for e in log if isinstance(e.get("intent"), dict)) > 10
        for e in log:
            if e["text"] is not None and "intent" in e:
                e["text"], e["alternatives"] = "zzzq", []
        module, settings = bench.game_settings(game, argv, SCRIPTS / script, tmp_path)
        settings.record = str(tmp_path / "replayed.json")
        clock = VirtualClock()
        second = Session(module.Host, ScriptListener([], clock=clock), TextVoice(io.StringIO()), clock, settings,
                         log=log, screen=lambda s: None, storage=NoStorage())
        assert second.run() == "finished"
    replayed = second.table.record
    for key in ("turns", "awards", "standings", "winners"):
        assert replayed[key] == record[key], key
