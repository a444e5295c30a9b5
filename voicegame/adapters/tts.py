"""The pyttsx3 (espeak-ng) voice behind the ``Voice`` port.

pyttsx3 2.99 on Linux speaks only the last of several queued ``say()`` calls and
plays through an unchecked ``aplay``, and one engine shared across threads goes
silent or hangs. So:

- ONE process-wide worker thread owns the pyttsx3 engine; every engine call runs
  there, and callers wait with a timeout (a hung engine raises ``DeviceError``
  instead of hanging the game);
- each utterance is synthesised alone with ``save_to_file`` into a temporary WAV
  (waiting for espeak's asynchronous "finished-utterance" notice, see
  :func:`_wait_until_synthesised`),
  read back with ``wave``, and played by :func:`voicegame.adapters.audio.play`
  (or an injected ``player(samples, sample_rate, device)``) on the caller's thread,
  so :meth:`Pyttsx3Voice.say` returns when playback has finished;
- property changes in pyttsx3 are queued and a failed voice change raises nothing,
  so the voice is VERIFIED after each synthesis by the language of the engine's
  current espeak voice id (``gmw/en-us`` → ``en``).

Volume is applied by scaling the samples (exact and testable); speech rate is the
espeak rate in words per minute.
"""

from __future__ import annotations

import atexit
import os
import queue
import sys
import tempfile
import threading
import time
import wave
from concurrent.futures import Future
from concurrent.futures import TimeoutError as FutureTimeout

import numpy as np

from voicegame.adapters import audio
from voicegame.adapters.tone import sine_tone
from voicegame.models import language_name
from voicegame.ports import DeviceError
from voicegame.language.speakable import speakable

#: espeak-ng voice id per game language.
VOICE_IDS = {"en": "gmw/en-us", "es": "roa/es", "nl": "gmw/nl"}
DEFAULT_RATE_WPM = 175  # espeak's own default; pyttsx3 would use 200
RATE_MIN_WPM, RATE_MAX_WPM, RATE_STEP_WPM = 80, 300, 20
VOLUME_MIN, VOLUME_MAX, VOLUME_STEP = 0.2, 1.0, 0.1
TONE_RATE = 22050
NO_ENGINE = "The speech engine espeak-ng is missing: run `sudo apt install espeak-ng`, or play with --output text."


def voice_language(voice_id: str | None) -> str:
    """The language code of an espeak voice id (``"gmw/en-us"`` → ``"en"``; ``None`` → ``""``)."""
    if not voice_id:
        return ""
    return voice_id.lower().rsplit("/", 1)[-1].split("-")[0]


def missing_voice_message(lang: str) -> str:
    """One sentence for a missing espeak-ng voice, naming the fix."""
    return (f"The {language_name(lang)} voice is missing: run `sudo apt install espeak-ng-data`, "
            "or play with --output text.")


class MissingVoice(DeviceError):
    """espeak-ng has no voice for ``lang``: ``str()`` is :func:`missing_voice_message`;
    :meth:`sentence` names the language in the table's words (``lobby.language_names``)."""

    def __init__(self, lang: str):
        super().__init__(missing_voice_message(lang), key="common.devices.no_voice", lang=lang)
        self.lang = lang


class _EngineWorker:
    """The one thread that owns the pyttsx3 engine; jobs are ``fn(engine)``."""

    def __init__(self):
        self._jobs: queue.Queue = queue.Queue()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()
        self.errors: list[BaseException] = []  # pyttsx3 swallows these; we collect them
        self.finished = threading.Event()  # set by espeak's own thread when an utterance ends

    def call(self, fn, timeout_s: float):
        with self._lock:
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._run, name="voicegame-tts", daemon=True)
                self._thread.start()
        fut: Future = Future()
        self._jobs.put((fn, fut))
        try:
            return fut.result(timeout=timeout_s)
        except FutureTimeout:
            fut.cancel()
            raise DeviceError(
                "The speech engine stopped responding: restart voicegame, and run "
                "`voicegame doctor` if it happens again.", key="common.devices.engine_hung"
            ) from None

    def _run(self):
        engine = None
        while True:
            fn, fut = self._jobs.get()
            if not fut.set_running_or_notify_cancel():
                continue
            try:
                if engine is None:
                    engine = self._make_engine()
                fut.set_result(fn(engine))
            except BaseException as exc:  # handed to the caller
                fut.set_exception(exc)

    def _make_engine(self):
        try:
            import pyttsx3
        except ImportError as exc:
            raise DeviceError("The pyttsx3 speech library is missing: run `pip install pyttsx3`.",
                              key="common.devices.no_pyttsx3") from exc
        try:
            engine = pyttsx3.init()
        except Exception as exc:  # OSError (no libespeak-ng), RuntimeError (init failed)
            raise DeviceError(NO_ENGINE, key="common.devices.no_espeak") from exc
        # The espeak driver prints "Audio saved to …" on every save_to_file: mute that
        # module's print (only that module; nothing else is touched).
        driver_module = sys.modules.get("pyttsx3.drivers.espeak")
        if driver_module is not None:
            driver_module.print = lambda *args, **kwargs: None
        # runAndWait calls driver.stop(), which runs espeak_Cancel() whenever espeak is
        # busy, and espeak then drops the rate change still queued for this utterance
        # (or the utterance itself). This engine is ours alone and is never stopped
        # mid-utterance, so that stop is disabled.
        driver = getattr(getattr(engine, "proxy", None), "_driver", None)
        if driver is not None and hasattr(driver, "stop"):
            driver.stop = lambda: None
        engine.connect("error", lambda **kw: self.errors.append(kw.get("exception")))
        engine.connect("finished-utterance", lambda **kw: self.finished.set())
        return engine


_WORKER = _EngineWorker()


def available_voices(timeout_s: float = 10.0) -> list[tuple[str, str, tuple[str, ...]]]:
    """The engine's voices as ``(id, name, languages)``, e.g. ``("roa/es", "Spanish (Spain)", ("es",))``.

    :raises DeviceError: espeak-ng / pyttsx3 is missing or the engine hangs.
    """
    def job(engine):
        return [(v.id, v.name, tuple(v.languages or ())) for v in engine.getProperty("voices")]
    return _WORKER.call(job, timeout_s)


def _wait_until_synthesised(timeout_s: float) -> None:
    """Wait for espeak's own thread to finish the utterance.

    pyttsx3 2.99 starts espeak-ng in AUDIO_OUTPUT_RETRIEVAL mode, which is
    asynchronous: ``runAndWait`` returns before the WAV is written, and the driver's
    callback (on espeak's thread) writes it, then notifies "finished-utterance",
    then updates the driver's state. We wait for the notice, then until espeak is no
    longer busy, so the next utterance cannot race with this one.
    """
    if not _WORKER.finished.wait(timeout_s):
        raise DeviceError(
            "The speech engine stopped responding: restart voicegame, and run "
            "`voicegame doctor` if it happens again.", key="common.devices.engine_hung"
        )
    espeak = sys.modules.get("pyttsx3.drivers._espeak")
    if espeak is None:
        return
    deadline = time.monotonic() + timeout_s
    while espeak.IsPlaying() and time.monotonic() < deadline:
        time.sleep(0.001)


def _synth_job(text: str, voice_id: str, rate_wpm: int, timeout_s: float):
    def job(engine):
        fd, path = tempfile.mkstemp(prefix="voicegame-", suffix=".wav")
        os.close(fd)
        try:
            _WORKER.errors.clear()
            _WORKER.finished.clear()
            engine.setProperty("voice", voice_id)
            engine.setProperty("rate", int(rate_wpm))
            engine.setProperty("volume", 1.0)
            engine.save_to_file(text, path)
            engine.runAndWait()
            _wait_until_synthesised(timeout_s)
            current = engine.getProperty("voice")
            errors = [e for e in _WORKER.errors if e is not None]
            if os.path.getsize(path) == 0:
                raise DeviceError(
                    "The speech engine produced no audio: check espeak-ng with "
                    "`espeak-ng hello`, or play with --output text.", key="common.devices.no_audio"
                ) from (errors[0] if errors else None)
            with wave.open(path, "rb") as wf:
                rate = wf.getframerate()
                data = wf.readframes(wf.getnframes())
            return np.frombuffer(data, dtype="<i2").copy(), rate, current
        finally:
            try:
                os.unlink(path)
            except OSError:
                pass
    return job


class Pyttsx3Voice:
    """A :class:`~voicegame.ports.Voice` speaking through pyttsx3 / espeak-ng.

    :param lang: game language; the espeak voice is ``VOICE_IDS[lang]``.
    :param rate_wpm: words per minute (80–300); ``None`` is 175.
    :param volume: 0.2–1.0 of full scale.
    :param output_device: ``sounddevice`` output for everyone (``None`` = default).
    :param private_devices: audience name → output device (an earpiece), e.g.
        ``{"psychic": 3}``; an audience without one hears the normal output.
    :param player: ``player(samples, sample_rate, device)`` that returns when
        playback has finished; ``None`` is :func:`voicegame.adapters.audio.play`.
    :param timeout_s: seconds an engine call may take before ``DeviceError``.
    :param barge_in: be :class:`~voicegame.ports.Interruptible`: ``say()`` returns once
        playback has started (through ``playback``, default
        :class:`~voicegame.adapters.audio.Playback`), so a listener can hear a player
        over the prompt and :meth:`stop` it.
    :raises DeviceError: espeak-ng / pyttsx3 missing, or the language's voice is
        missing (checked at once by synthesising a short word).
    """

    def __init__(self, lang: str = "en", rate_wpm: int | None = None, volume: float = 1.0,
                 output_device=None, private_devices: dict | None = None, player=None,
                 timeout_s: float = 10.0, barge_in: bool = False, playback=None):
        self.lang = lang
        self.voice_id = VOICE_IDS.get(lang, lang)
        self.rate_wpm = int(min(RATE_MAX_WPM, max(RATE_MIN_WPM, rate_wpm or DEFAULT_RATE_WPM)))
        self.volume = round(min(VOLUME_MAX, max(VOLUME_MIN, float(volume))), 2)
        self.output_device = output_device
        self.private_devices = dict(private_devices or {})
        self.player = player if player is not None else audio.play
        self.timeout_s = timeout_s
        self.barge_in = barge_in
        self.playback = playback if playback is not None else (audio.Playback() if barge_in else None)
        if self.playback is not None:
            atexit.register(self.wait)  # the last prompt is heard to its end
        self.verify()

    def verify(self) -> str:
        """Synthesise a short word and check the engine really uses this language's voice.

        :returns: the engine's current espeak voice id.
        :raises DeviceError: the voice is missing (names the package to install).
        """
        _, _, current = _WORKER.call(_synth_job("ok", self.voice_id, self.rate_wpm, self.timeout_s), self.timeout_s)
        if voice_language(current) != self.lang:
            raise MissingVoice(self.lang)
        return current

    def synthesize(self, text: str) -> tuple[np.ndarray, int]:
        """Speech for ``text`` (numbers read as words, volume applied), not played.

        :returns: ``(samples, sample_rate)``: int16 mono, samples per second
            (an empty array for text with nothing to say).
        :raises DeviceError: engine missing or hung, or the voice was lost.
        """
        spoken = speakable(text, self.lang).strip()
        if not spoken:
            return np.zeros(0, dtype=np.int16), TONE_RATE
        samples, rate, current = _WORKER.call(
            _synth_job(spoken, self.voice_id, self.rate_wpm, self.timeout_s), self.timeout_s)
        if voice_language(current) != self.lang:
            raise MissingVoice(self.lang)
        return self.louder(samples), rate

    def louder(self, samples: np.ndarray) -> np.ndarray:
        """``samples`` (int16) at this voice's volume (0.0–1.0 of full scale)."""
        if self.volume == 1.0:
            return samples
        return np.round(samples.astype(np.float64) * self.volume).astype(np.int16)

    def _device(self, to: str | None):
        if to is not None and to in self.private_devices:
            return self.private_devices[to]
        return self.output_device

    def say(self, text: str, to: str | None = None) -> None:
        """Speak ``text`` and return when playback has finished.

        :param to: a private audience; routed to ``private_devices[to]`` when given,
            otherwise to the normal output.
        :raises DeviceError: no speaker, engine missing or hung.
        """
        samples, rate = self.synthesize(text)
        self._play(samples, rate, to)

    def _play(self, samples: np.ndarray, rate: int, to: str | None) -> None:
        """Play synthesised samples: through ``playback`` (returns at once) or the player (blocks)."""
        if not samples.size:
            return
        if self.playback is not None and to is None:
            self.playback.start(samples, rate, self._device(to))
        else:
            self.wait()
            self.player(samples, rate, self._device(to))

    # -- the barge-in hook (ports.Interruptible) --------------------------------
    def speaking_until(self) -> float | None:
        """``time.monotonic()`` seconds when the current prompt has left the loudspeaker, or ``None``."""
        return self.playback.speaking_until() if self.playback is not None else None

    def reference(self, start_s: float, samples: int):
        """What leaves the loudspeaker from ``start_s`` (``time.monotonic()``), for the echo
        canceller (:class:`~voicegame.ports.EchoReference`); ``None`` without playback."""
        return self.playback.reference(start_s, samples) if self.playback is not None else None

    def stop(self) -> None:
        """Stop the current prompt at once (a player cut in)."""
        if self.playback is not None:
            self.playback.stop()

    def wait(self) -> None:
        """Return when the current prompt has finished playing."""
        if self.playback is not None:
            self.playback.wait()

    def tone(self, frequency_hz: float, duration_s: float = 0.12, label: str = "") -> None:
        """Play a sine tone (``label`` is for text adapters and ignored here)."""
        self.wait()
        self.player(sine_tone(frequency_hz, duration_s, TONE_RATE, volume=0.3 * self.volume),
                    TONE_RATE, self.output_device)

    def adjust(self, rate_step: int = 0, volume_step: int = 0) -> None:
        """Change speech rate by ``rate_step`` × 20 wpm (80–300) and volume by ``volume_step`` × 0.1 (0.2–1.0)."""
        self.rate_wpm = int(min(RATE_MAX_WPM, max(RATE_MIN_WPM, self.rate_wpm + RATE_STEP_WPM * rate_step)))
        self.volume = round(min(VOLUME_MAX, max(VOLUME_MIN, self.volume + VOLUME_STEP * volume_step)), 2)
