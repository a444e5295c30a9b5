"""The listener's parts on their own: resampler, voice detectors, the model vocabulary, fillers."""

from __future__ import annotations

import struct

import numpy as np
import pytest

from voicegame.adapters.vad import Resampler, make_vad
from voicegame.adapters.vocabulary import model_vocabulary, pick_fillers


def test_resampling_does_not_depend_on_the_chunking():
    x = (np.sin(np.arange(22050) / 7.0) * 10000).astype(np.int16)
    whole = Resampler(22050)(x.tobytes())
    r = Resampler(22050)
    parts = np.concatenate([r(x[i:i + 777].tobytes()) for i in range(0, x.size, 777)])
    assert abs(whole.size - 16000) <= 1
    assert np.array_equal(whole, parts)
    assert np.array_equal(Resampler(16000)(x[:100].tobytes()), x[:100])


@pytest.mark.parametrize("name", ["silero", "webrtc"])
def test_detectors_take_their_frames_and_give_a_probability(name):
    vad = make_vad(name)
    frame = np.zeros(vad.frame_samples, dtype=np.int16)
    assert vad(frame) == pytest.approx(0.0, abs=0.2)
    vad.reset()


def test_silero_calls_steady_white_noise_no_speech():
    vad = make_vad("silero")
    noise = np.random.default_rng(3).normal(0, 2000, 16000 * 2).astype(np.int16)
    n = vad.frame_samples
    flags = [vad(noise[i:i + n]) >= 0.5 for i in range(0, noise.size - n + 1, n)]
    assert sum(flags) <= len(flags) // 20


def test_unknown_detector_is_a_clear_error():
    with pytest.raises(ValueError, match="silero"):
        make_vad("nope")


def _fst_with_symbols(path, words):
    def string(s):
        b = s.encode()
        return struct.pack("<i", len(b)) + b

    def table(ws):
        out = struct.pack("<i", 2125658996) + string("words.txt") + struct.pack("<qq", len(ws), len(ws))
        for i, w in enumerate(ws):
            out += string(w) + struct.pack("<q", i)
        return out

    head = struct.pack("<i", 2125659606) + string("vector") + string("standard") + struct.pack("<ii", 2, 3)
    head += struct.pack("<Qqqq", 0, 0, 1, 0)
    path.write_bytes(head + table(words) + table(words) + b"\x00" * 16)


def test_vocabulary_from_words_txt_or_an_embedded_symbol_table(tmp_path):
    a = tmp_path / "a" / "graph"
    a.mkdir(parents=True)
    (a / "words.txt").write_text("<eps> 0\n!SIL 1\n왼쪽 2\n사과 3\n#0 4\n", encoding="utf-8")
    assert model_vocabulary(str(tmp_path / "a")) == ("왼쪽", "사과")
    b = tmp_path / "b" / "graph"
    b.mkdir(parents=True)
    _fst_with_symbols(b / "Gr.fst", ["<eps>", "[unk]", "hello", "table"])
    assert model_vocabulary(str(tmp_path / "b")) == ("hello", "table")
    assert model_vocabulary(str(tmp_path / "none")) == ()


def test_fillers_are_shaped_like_the_phrases_and_never_near_them():
    vocab = ("left", "lefty", "cleft", "apple", "tree", "x", "verylongword", "table", "über", "два", "be2")
    fillers = pick_fillers(vocab, ["left", "right now"], count=10)
    assert "left" not in fillers and "lefty" not in fillers and "cleft" not in fillers  # near a command
    assert "x" not in fillers and "verylongword" not in fillers  # not command-shaped
    assert "два" not in fillers and "be2" not in fillers  # another script, not letters only
    assert set(fillers) <= {"apple", "tree", "table", "über"}
    assert pick_fillers(vocab, ["left", "right now"], count=10) == fillers  # deterministic
    assert len(pick_fillers(vocab, ["left"], count=2)) == 2


def test_speex_echo_canceller_takes_the_host_out_of_the_microphone():
    """The host's sound through a reverberant room, the played samples as the reference:
    after the first second the canceller leaves far less than the echo (here > 20 dB)."""
    pytest.importorskip("pyaec")
    from voicegame.adapters.echo import SpeexEcho
    from voicegame.adapters.room import Room, RoomVoice, impulse_response

    rng = np.random.default_rng(1)
    t = np.arange(4 * 16000) / 16000
    played = (3000 * np.sin(2 * np.pi * 180 * t) * (1 + np.sin(2 * np.pi * 3 * t)) / 2
              + 800 * rng.normal(size=t.size)).astype(np.int16)
    room = Room(np.zeros(t.size + 16000), latency_s=0.4, ir=impulse_response(0.4, seed=3))
    voice = RoomVoice(room, lambda text: played)
    voice.say("prompt")
    mic = np.clip(np.round(room.track + room.echo), -32768, 32767).astype(np.int16)
    echo = SpeexEcho(512)
    out = np.concatenate([echo(mic[k:k + 512], voice.reference(k / 16000, 512))
                          for k in range(0, mic.size - 511, 512)])
    late = slice(2 * 16000, 4 * 16000)
    erle_db = 10 * np.log10(np.mean(mic[late].astype(float) ** 2) / np.mean(out[late].astype(float) ** 2))
    assert erle_db > 20.0


def test_room_voice_reference_is_what_leaves_the_loudspeaker():
    from voicegame.adapters.room import Room, RoomVoice

    room = Room(np.zeros(16000), latency_s=0.25)
    played = np.arange(1, 1601, dtype=np.int16)
    voice = RoomVoice(room, lambda text: played)
    voice.say("x")
    ref = voice.reference(0.25 - 0.001, 32)  # 16 samples before the sound leaves, 16 of it
    assert list(ref[:16]) == [0] * 16 and list(ref[16:]) == list(range(1, 17))
    assert not voice.reference(0.25 + 0.1, 16).any()  # after the 0.1 s sound: nothing
