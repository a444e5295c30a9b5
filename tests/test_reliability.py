"""Inputs that cannot crash a game, saves that cannot poison a resume: transcripts cleaned at
the listener boundary, autosaves checked by shape, a save that fails to replay set aside."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.playthrough import run_cli
from tests.test_table import Counter, run
from voicegame.engine.journal import load_autosave
from voicegame.language.utterance import MAX_UTTERANCE_CHARS, clean_text
from voicegame.ports import Heard
from voicegame.language.utterance import clean_heard


@pytest.mark.parametrize("raw, clean", [
    ("red ²⁵", "red 25"),            # superscripts: isdigit() but not int()
    ("①②③", "123"),                  # circled digits
    ("ｆｉｆｔｙ", "fifty"),            # full-width letters
    ("red\u2028seven", "red seven"),  # a line separator inside an utterance
    ("blue\x00\x1c\x85four", "blue four"),
    ("  lock \t it   in  ", "lock it in"),
])
def test_transcripts_are_cleaned_once(raw, clean):
    assert clean_text(raw) == clean


def test_a_long_line_is_cut_at_a_word_boundary():
    text = clean_text("left " * 2000)
    assert len(text) <= MAX_UTTERANCE_CHARS and text.endswith("left")


def test_a_heard_result_gets_a_sane_confidence():
    heard = clean_heard(Heard("x\u2029y", ("a\x00b",), float("nan")))
    assert heard == Heard("x y", ("a b",), 0.0)


@given(st.text(max_size=2000))
def test_cleaning_is_idempotent_and_bounded(text):
    once = clean_text(text)
    assert clean_text(once) == once and len(once) <= MAX_UTTERANCE_CHARS
    assert "\n" not in once and "\u2028" not in once


@pytest.mark.parametrize("game", ["wits", "rofl", "wavelength"])
def test_odd_digits_never_end_a_game(tmp_path, game):
    """Digits that str.isdigit() accepts and int() rejects, huge numbers, and line separators
    in every answer of a short game: the game goes on (no internal error) and ends with the script."""
    odd = ["²⁵", "①", "red ³", "blue, ⁴²", "9" * 5000, "1e400", "red\u2028seven", "٣", "lock it in"]
    script = tmp_path / "odd.txt"
    script.write_text("\n".join(odd * 6) + "\n", encoding="utf-8")
    args = ["play", game, "--input", str(script), "--output", "text", "--seed", "3",
            "--record", str(tmp_path / "rec.json")]
    status, out, err = run_cli(args, environ={"VOICEGAME_DATA_DIR": str(tmp_path / "data")})
    assert "Traceback" not in out + err
    assert "went wrong" not in out and "could not start" not in out, out[-800:]
    assert status == 0


@pytest.mark.parametrize("content, field", [
    ("[]", "not an object"), ("null", "not an object"), ("5", "not an object"),
    ('{"settings": {"game": "wits", "lang": "xx"}, "log": []}', "settings.lang"),
    ('{"settings": {"game": "wits"}, "log": [{"text": 5}]}', "input 1"),
    ('{"settings": {"game": "wits"}, "log": [{"text": "a", "elapsed": "soon"}]}', "elapsed"),
    ('{"settings": {"game": "wits"}, "log": {}}', "'log'"),
    ('{"settings": {"game": "wits", "timer_s": -3}, "log": []}', "timer_s"),
])
def test_a_wrong_shaped_autosave_is_named_with_its_field(tmp_path, content, field):
    bad = tmp_path / "save.json"
    bad.write_text(content)
    status, out, err = run_cli(["resume", str(bad), "--output", "text"],
                               environ={"VOICEGAME_DATA_DIR": str(tmp_path / "data")})
    assert status != 0 and str(bad) in err and field in err
    assert "Traceback" not in out + err


json_values = st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
                           lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                                       max_size=4), max_leaves=20)


@settings(max_examples=150, deadline=None)
@given(st.one_of(json_values, st.fixed_dictionaries({"settings": json_values, "log": json_values}),
                 st.fixed_dictionaries({"settings": st.fixed_dictionaries({"game": st.just("wits")}),
                                        "log": st.lists(st.dictionaries(
                                            st.sampled_from(["text", "alternatives", "confidence", "elapsed"]),
                                            json_values), max_size=3)})))
def test_loading_any_json_raises_only_value_error(tmp_path_factory, value):
    path = tmp_path_factory.mktemp("s") / "save.json"
    path.write_text(json.dumps(value))
    try:
        save = load_autosave(path)
    except ValueError as exc:
        assert str(path) in str(exc)
    else:
        assert isinstance(save["log"], list) and isinstance(save["settings"], dict)


def test_a_save_that_fails_to_replay_is_set_aside_and_never_offered_again(tmp_path):
    class Fragile(Counter):
        def parse(self, text):
            if self.t.replaying:  # e.g. a words file changed under an old save
                raise RuntimeError("the host cannot replay this save")
            return super().parse(text)

        def play(self):
            self.t.enter_phase("q")
            for _ in range(3):
                self.t.ask(None, self.parse, help_key="common.help_ready", moment="n")

    outcome, out, session = run(Fragile, ["five", "six"], tmp_path)  # the script ends: saved, resumable
    assert outcome == "input_ended"
    log = load_autosave(tmp_path / "save.json")["log"]
    outcome, out, _ = run(Fragile, [], tmp_path, log=log)
    assert outcome == "error" and "set it aside" in out and "Traceback" not in out
    assert not (tmp_path / "save.json").exists()
    kept = [p for p in tmp_path.glob("save.json.broken-*") if not p.name.endswith(".journal")]
    assert len(kept) == 1 and "five" in kept[0].read_text() + "".join(
        p.read_text() for p in tmp_path.glob("save.json.broken-*.journal"))
    assert [p.name for p in tmp_path.glob("*.json")] == ["rec.json"]  # nothing left that a resume or a kiosk would offer


def test_an_input_that_meets_an_internal_error_is_asked_again_on_resume(tmp_path):
    class Picky(Counter):
        def parse(self, text):
            if text == "boom":
                raise RuntimeError("parser bug")
            return super().parse(text)

        def play(self):
            self.t.enter_phase("q")
            self.t.ask(None, self.parse, help_key="common.help_ready", moment="n")
            self.t.ask(None, self.parse, help_key="common.help_ready", moment="n")

    outcome, out, _ = run(Picky, ["five", "boom"], tmp_path)
    assert outcome == "error"
    log = load_autosave(tmp_path / "save.json")["log"]
    assert [e["text"] for e in log] == ["five"]  # the accepted input kept, the crashing one not


class _FlakyMic:
    """A listener whose microphone is gone for ``gone`` listens, then hears ``lines``."""

    def __init__(self, lines, gone, clock):
        from voicegame.adapters.headless import ScriptListener

        self.inner = ScriptListener([(i + 1, l) for i, l in enumerate(lines)], clock=clock)
        self.gone = gone

    def listen(self, expected, timeout_s):
        from voicegame.ports import DeviceError

        if self.gone:
            self.gone -= 1
            raise DeviceError("The microphone was unplugged.")
        return self.inner.listen(expected, timeout_s)


def test_a_lost_microphone_pauses_the_moment_and_the_game_goes_on(tmp_path):
    import io

    from voicegame.adapters.headless import TextVoice, VirtualClock
    from voicegame.engine.table import DEVICE_POLL_S, Session, Settings

    out, clock = io.StringIO(), VirtualClock()
    settings = Settings("toy", record=str(tmp_path / "rec.json"), autosave=str(tmp_path / "save.json"))
    start = clock.now()
    outcome = Session(Counter, _FlakyMic(["five", "six", "seven"], 4, clock), TextVoice(out), clock, settings).run()
    said = out.getvalue()
    assert outcome == "finished" and "final total 18" in said
    assert said.count("lost the microphone") == 1 and "Traceback" not in said
    assert clock.now() - start >= 4 * DEVICE_POLL_S
    assert [e["text"] for e in load_autosave_or_record(tmp_path)] == ["five", "six", "seven"]


def load_autosave_or_record(folder):
    record = json.loads((folder / "rec.json").read_text())
    return record["inputs"]


def test_housekeeping_removes_leftovers_and_keeps_the_newest_records(tmp_path):
    import os

    from voicegame.engine.journal import tidy

    data = tmp_path / "data"
    (data / "autosave").mkdir(parents=True)
    (data / "records").mkdir()
    stray = data / "autosave" / ".wits-1.json.abc.tmp"
    stray.write_text("half")
    done = data / "autosave" / "wits-1.json"
    done.write_text(json.dumps({"settings": {"game": "wits"}, "log": [], "finished": True}))
    (data / "autosave" / "wits-1.json.journal").write_text("")
    (data / "records" / "wits-1.json").write_text("{}")
    going = data / "autosave" / "rofl-2.json"
    going.write_text(json.dumps({"settings": {"game": "rofl"}, "log": [], "finished": False}))
    for n in range(5):
        record = data / "records" / f"old-{n}.json"
        record.write_text("{}")
        os.utime(record, (1000 + n, 1000 + n))
    os.chmod(going, 0o644)
    removed = tidy({"VOICEGAME_DATA_DIR": str(data), "VOICEGAME_KEEP_RECORDS": "3"})
    assert stray in removed and done in removed and not done.exists() and going.exists()
    assert sorted(p.name for p in (data / "records").glob("*.json")) == ["old-3.json", "old-4.json", "wits-1.json"]
    assert going.stat().st_mode & 0o777 == 0o600
    assert (data / "autosave").stat().st_mode & 0o777 == 0o700


def test_a_finished_game_leaves_its_record_and_no_autosave(tmp_path):
    outcome, out, session = run(Counter, ["one", "two", "three"], tmp_path)
    assert outcome == "finished"
    assert (tmp_path / "rec.json").exists() and (tmp_path / "rec.json").stat().st_mode & 0o777 == 0o600
    assert not (tmp_path / "save.json").exists() and not (tmp_path / "save.json.journal").exists()


@pytest.mark.parametrize("encoding", ["utf-16-le", "utf-16"])
def test_a_utf16_script_is_refused_with_one_sentence(tmp_path, encoding):
    script = tmp_path / "script.txt"
    script.write_bytes("ready\nyes\n".encode(encoding))
    status, out, err = run_cli(["play", "wits", "--input", str(script), "--output", "text"],
                               environ={"VOICEGAME_DATA_DIR": str(tmp_path / "data")})
    assert status != 0 and "UTF-16" in err and str(script) in err and "Traceback" not in out + err


def test_a_utf8_script_with_a_byte_order_mark_plays(tmp_path):
    from voicegame.adapters.headless import ScriptListener
    from voicegame.ports import Expected

    script = tmp_path / "script.txt"
    script.write_bytes("\ufeffready\n".encode("utf-8"))
    assert ScriptListener(script).listen(Expected(), 5.0).text == "ready"
