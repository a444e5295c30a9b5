"""``voicegame doctor``: what this machine has for voice play, and how to fix what is missing.

It lists audio inputs and outputs (``sounddevice``, the defaults marked), opens the
chosen (``--mic``/``--speaker``) or default microphone and speaker for real, the espeak-ng voice of each
checked language (through pyttsx3, verified by synthesising a word) and the
installed Vosk models, and prints, for each missing thing, one plain sentence with
the command or action that fixes it. It never raises and prints no tracebacks.

What counts as REQUIRED (the exit status is 1 when any is missing, else 0):

- the espeak-ng voice of every checked language;
- a microphone and a speaker (voice play needs both; keyboard/text play needs
  neither, which the fix sentences say);
- a Vosk model for the checked language — with no ``lang``, for at least one of
  en, es, nl (missing models of the other languages are listed, not counted);
- a chosen Wyoming server (``--tts``/``--asr wyoming://…``) that answers, and a chosen
  ASR server with the checked language (a TTS server without it: espeak-ng speaks).
"""

from __future__ import annotations

import os
from typing import Callable, Mapping

from voicegame.ports import DeviceError

SUPPORTED_LANGUAGES = ("en", "es", "nl")


def _check_voice(lang: str) -> str:
    """The verified espeak voice id for ``lang``.

    :raises DeviceError: the engine or the voice is missing.
    """
    from voicegame.adapters.tts import Pyttsx3Voice

    return Pyttsx3Voice(lang, player=lambda samples, rate, device: None).verify()


def _one_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    return text


def _check_devices(out: Callable[[str], None], missing: list[str], mic=None, speaker=None) -> None:
    """List the devices (the defaults marked), then open the chosen microphone and speaker for real."""
    from voicegame.adapters import devices
    from voicegame.adapters.audio import NO_MICROPHONE, NO_SPEAKER

    try:
        found = devices.list_devices()
    except DeviceError as exc:  # PortAudio missing: names `sudo apt install libportaudio2`
        out(f"  MISSING: {exc}")
        missing.append(str(exc))
        return
    for kind, word in (("input", "microphone"), ("output", "speaker")):
        for d in devices.of_kind(found, kind):
            rate = f" ({int(d.default_samplerate)} Hz)" if kind == "input" else ""
            out(f"  {word} {d.index}: {d.name}{rate}" + (" — the default" if d.is_default(kind) else ""))
    for kind, word, asked, opener, none in (("input", "microphone", mic, devices.open_input, NO_MICROPHONE),
                                            ("output", "speaker", speaker, devices.open_output, NO_SPEAKER)):
        if not devices.of_kind(found, kind):
            out(f"  MISSING: {none}")
            missing.append(none)
            continue
        try:
            opened = opener(devices.resolve(asked, kind, found))
            which = "the chosen" if asked else "the default"
            out(f"  opened {which} {word} {opened.index}: {opened.name}: ok")
        except DeviceError as exc:
            out(f"  MISSING: {exc}")
            missing.append(str(exc))


def _check_engines(out: Callable[[str], None], missing: list[str], langs: list[str], env, tts, asr) -> None:
    """The chosen speech engines: Piper voices found, each Wyoming server reached and asked for its languages."""
    from voicegame import engines
    from voicegame.adapters import piper_voice

    out(f"Speech engines (voice: {tts or 'espeak'}, recogniser: {asr or 'vosk'}):")
    try:
        voices = piper_voice.installed_voices(env)
    except Exception as exc:
        voices = []
        out(f"  Piper voices could not be listed ({_one_line(exc)})")
    for v in voices:
        out(f"  Piper voice {v.name} ({v.lang}): {v.model}")
    tts_engine = engines.parse_tts(tts)
    if tts_engine.kind == "piper":
        try:
            import piper  # noqa: F401
        except ImportError:
            out(f"  MISSING: {piper_voice.NO_PIPER}")
            missing.append(piper_voice.NO_PIPER)
        for code in langs:
            try:
                found = piper_voice.find_voice(tts_engine.voice, code, env)
                out(f"  piper {code}: " + (f"ok ({found.name})" if found else "no Piper voice: espeak-ng speaks"))
            except DeviceError as exc:
                out(f"  piper {code}: MISSING: {exc}")
                missing.append(str(exc))
    for kind, engine in (("tts", tts_engine), ("asr", engines.parse_asr(asr))):
        if not engine.remote:
            continue
        for code in langs:
            try:
                out(f"  {kind} {engine.address} {code}: {engines.check_server(engine.address, kind, code)}")
            except engines.NoLanguage as exc:
                if kind == "tts":  # espeak-ng speaks that language
                    out(f"  {kind} {engine.address} {code}: {exc} espeak-ng speaks it.")
                else:
                    out(f"  {kind} {engine.address} {code}: MISSING: {exc}")
                    missing.append(str(exc))
            except DeviceError as exc:
                out(f"  {kind} {engine.address} {code}: MISSING: {exc}")
                missing.append(str(exc))


def run_doctor(lang: str | None = None, out: Callable[[str], None] = print,
               env: Mapping[str, str] = os.environ, model_dir=None, mic=None, speaker=None,
               tts: str | None = None, asr: str | None = None) -> int:
    """Check this machine for voice play and print what to fix.

    :param lang: the game language to check (``"en"``); ``None`` checks en, es and nl.
    :param out: where each line goes.
    :param env: environment variables for the model search (``VOICEGAME_MODEL_DIR`` …).
    :param model_dir: an explicit ``--model DIR``.
    :param mic, speaker: ``--mic`` / ``--speaker`` (an index or a part of a name); each chosen
        (or default) device is opened for real.
    :param tts, asr: the chosen engines (:mod:`voicegame.engines`); each Wyoming server is reached.
    :returns: 0 when everything required is present, 1 otherwise.
    """
    from voicegame import models

    langs = [lang] if lang else list(SUPPORTED_LANGUAGES)
    missing: list[str] = []  # fix sentences of REQUIRED things

    # -- audio devices ---------------------------------------------------------
    out("Audio devices:")
    try:
        _check_devices(out, missing, mic, speaker)
    except Exception as exc:
        msg = (f"The audio devices could not be listed ({_one_line(exc)}): run "
               "`sudo apt install libportaudio2` and plug in a microphone and a speaker.")
        out(f"  MISSING: {msg}")
        missing.append(msg)

    # -- voices ----------------------------------------------------------------
    out("Voices (espeak-ng):")
    for code in langs:
        try:
            voice_id = _check_voice(code)
            out(f"  {code}: ok ({voice_id})")
        except DeviceError as exc:
            out(f"  {code}: MISSING: {exc}")
            missing.append(str(exc))
        except Exception as exc:
            msg = (f"The {models.language_name(code)} voice could not be checked "
                   f"({_one_line(exc)}): run `sudo apt install espeak-ng espeak-ng-data`.")
            out(f"  {code}: MISSING: {msg}")
            missing.append(msg)

    # -- speech engines -----------------------------------------------------------
    try:
        _check_engines(out, missing, langs, env, tts, asr)
    except Exception as exc:
        out(f"  the speech engines could not be checked ({_one_line(exc)})")

    # -- speech models ------------------------------------------------------------
    out("Speech models (Vosk):")
    with_model = []
    hints = []
    for code in langs:
        try:
            path = models.find_model(code, explicit=model_dir, env=env)
        except Exception as exc:
            path = None
            out(f"  {code}: could not search ({_one_line(exc)})")
        if path is not None:
            with_model.append(code)
            out(f"  {code}: ok ({path})")
        else:
            hint = models.install_hint(code)
            hints.append(hint)
            out(f"  {code}: MISSING: {hint}")
    try:
        others = [(c, p) for c, p in models.list_models(env=env, explicit=model_dir) if c not in langs]
        for code, path in others:
            out(f"  {code}: installed ({path})")
    except Exception as exc:
        out(f"  other models could not be listed ({_one_line(exc)})")
    from voicegame.engines import parse_asr

    if not with_model and not parse_asr(asr).remote:  # a shared recogniser needs no model here
        missing.extend(hints if lang else hints[:1])

    from voicegame import logs

    out(f"Log file: {logs.log_path(env)} (voicegame -v also logs to stderr).")

    # -- summary -----------------------------------------------------------------
    if missing:
        out(f"Not ready for voice play: {len(missing)} {'thing' if len(missing) == 1 else 'things'} to fix.")
        for msg in missing:
            out(f"  - {msg}")
        return 1
    out(f"Ready for voice play in: {', '.join(with_model)}.")
    return 0
