"""The pyttsx3/espeak-ng voice with a recording player (no audio hardware needed)."""

from __future__ import annotations

import threading

import numpy as np
import pytest

from tests.port_check import port_problems

from voicegame.adapters import tts
from voicegame.adapters.tone import dial_tone_hz, sine_tone
from voicegame.adapters.tts import Pyttsx3Voice, voice_language
from voicegame.ports import DeviceError, Voice

pytest.importorskip("pyttsx3", reason="pip install pyttsx3")

PROMPTS = [
    "Ready.",
    "Team one, your turn.",
    "The psychic may look at the target now.",
    "Spin the dial until it points where you think the target is.",
    "The answer is 1,200,000 chips.",
    "Place your bet tokens on the payout slot you like best, then say done.",
    "Round 3 is over; the scores are 7 to 5.",
    "Everyone close your eyes except the psychic, who looks at the wedge.",
    "Say left or right if you think the target is to that side of the dial.",
    "Thank you for playing, and see you next time for another round of party games.",
]


class Recorder:
    """A player that keeps what it was asked to play, as ``(samples, rate, device)``."""

    def __init__(self):
        self.calls: list[tuple[np.ndarray, int, object]] = []

    def __call__(self, samples, rate, device):
        self.calls.append((np.asarray(samples), rate, device))


def rms(samples: np.ndarray) -> float:
    return float(np.sqrt(np.mean(samples.astype(np.float64) ** 2)))


@pytest.fixture(scope="module")
def english():
    rec = Recorder()
    return Pyttsx3Voice("en", player=rec, output_device="table", private_devices={"psychic": "earpiece"}), rec


def test_voice_implements_the_port(english):
    assert isinstance(english[0], Voice) and port_problems(english[0], Voice) == []


def test_ten_prompts_in_a_row_are_all_audible(english):
    voice, rec = english
    rec.calls.clear()
    for prompt in PROMPTS:
        voice.say(prompt)
    assert len(rec.calls) == len(PROMPTS)
    durations = []
    for (samples, rate, device), prompt in zip(rec.calls, PROMPTS):
        assert samples.dtype == np.int16 and rate == 22050 and device == "table"
        assert rms(samples) > 500, prompt  # not silence
        duration = len(samples) / rate
        assert 0.3 < duration < 15.0, prompt
        durations.append(duration)
    # durations grow with text length
    lengths = [len(p) for p in PROMPTS]
    assert np.corrcoef(lengths, durations)[0, 1] > 0.8
    assert durations[-1] > 3 * durations[0]


def test_private_audience_goes_to_its_earpiece(english):
    voice, rec = english
    rec.calls.clear()
    voice.say("The target is at 120 degrees.", to="psychic")
    voice.say("Nobody else has an earpiece.", to="guesser")
    assert [c[2] for c in rec.calls] == ["earpiece", "table"]


def test_numbers_are_spoken_as_words(english):
    # espeak alone reads "1984" as a quantity; the adapter reads it as a year first
    voice, _ = english
    digits, _ = voice.synthesize("in 1984")
    worded, _ = voice.synthesize("in nineteen eighty-four")
    raw, _, _ = tts._WORKER.call(tts._synth_job("in 1984", voice.voice_id, voice.rate_wpm, 10.0), 10.0)
    # espeak's output length varies by a few samples run to run
    assert abs(len(digits) - len(worded)) < 0.02 * len(worded)
    assert abs(len(raw) - len(worded)) > 0.15 * len(worded)


def test_empty_text_plays_nothing(english):
    voice, rec = english
    rec.calls.clear()
    voice.say("   ")
    assert rec.calls == []


@pytest.mark.parametrize("lang,sample", [("en", "left"), ("es", "izquierda"), ("nl", "links")])
def test_each_language_voice_is_verified(lang, sample):
    rec = Recorder()
    voice = Pyttsx3Voice(lang, player=rec)
    assert voice_language(voice.verify()) == lang
    assert voice.voice_id == tts.VOICE_IDS[lang]
    voice.say(sample)
    assert rms(rec.calls[0][0]) > 500


def test_missing_voice_raises_one_sentence_naming_the_fix():
    with pytest.raises(DeviceError) as info:
        Pyttsx3Voice("xx", player=Recorder())
    text = str(info.value)
    assert "espeak-ng-data" in text and "\n" not in text and text.endswith(".")


def test_voice_language_of_espeak_ids():
    assert voice_language("gmw/en-us") == "en"
    assert voice_language("roa/es-419") == "es"
    assert voice_language("gmw/nl") == "nl"
    assert voice_language(None) == ""


def test_adjust_stays_within_bounds():
    voice = Pyttsx3Voice("en", player=Recorder(), rate_wpm=180, volume=0.5)
    voice.adjust(rate_step=1)
    assert voice.rate_wpm == 200
    voice.adjust(rate_step=20)
    assert voice.rate_wpm == 300
    voice.adjust(rate_step=-50)
    assert voice.rate_wpm == 80
    voice.adjust(volume_step=1)
    assert voice.volume == 0.6
    voice.adjust(volume_step=10)
    assert voice.volume == 1.0
    voice.adjust(volume_step=-10)
    assert voice.volume == 0.2


def test_rate_and_volume_change_the_audio():
    voice = Pyttsx3Voice("en", player=Recorder(), rate_wpm=120)
    slow, _ = voice.synthesize("Spin the dial to the left.")
    voice.adjust(rate_step=5)  # 220 wpm
    fast, _ = voice.synthesize("Spin the dial to the left.")
    assert len(fast) < 0.8 * len(slow)
    loud = rms(fast)
    voice.adjust(volume_step=-5)  # 0.5
    soft, _ = voice.synthesize("Spin the dial to the left.")
    assert rms(soft) == pytest.approx(0.5 * loud, rel=0.02)


def test_tone_plays_a_sine(english):
    voice, rec = english
    rec.calls.clear()
    voice.tone(440.0, 0.2, label="beep")
    samples, rate, device = rec.calls[0]
    assert rate == 22050 and len(samples) == 4410 and device == "table"
    spectrum = np.abs(np.fft.rfft(samples.astype(np.float64)))
    peak_hz = np.argmax(spectrum) * rate / len(samples)
    assert abs(peak_hz - 440.0) < 10


def test_sine_tone_shape():
    tone = sine_tone(880.0, 0.5, sample_rate=16000, volume=0.5)
    assert tone.dtype == np.int16 and len(tone) == 8000
    assert abs(int(tone[0])) < 100 and abs(int(tone[-1])) < 100  # faded in and out
    assert int(np.abs(tone).max()) == pytest.approx(0.5 * 32767, rel=0.01)
    assert len(sine_tone(440.0, 0.0)) == 0
    with pytest.raises(ValueError):
        sine_tone(0.0, 1.0)


def test_dial_tone_rises_exponentially_with_angle():
    assert dial_tone_hz(0) == pytest.approx(220.0)
    assert dial_tone_hz(90) == pytest.approx(440.0)
    assert dial_tone_hz(180) == pytest.approx(880.0)
    assert dial_tone_hz(-30) == dial_tone_hz(0) and dial_tone_hz(999) == dial_tone_hz(180)
    pitches = [dial_tone_hz(a) for a in range(0, 181, 15)]
    assert pitches == sorted(pitches) and len(set(pitches)) == len(pitches)


def test_a_hung_engine_raises_instead_of_hanging():
    worker = tts._EngineWorker()
    worker._make_engine = lambda: object()  # no real engine: this worker must not touch espeak
    release = threading.Event()
    with pytest.raises(DeviceError, match="stopped responding"):
        worker.call(lambda engine: release.wait(), timeout_s=0.05)
    release.set()
    assert worker.call(lambda engine: "alive", timeout_s=5.0) == "alive"
