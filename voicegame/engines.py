"""Which speech engines a command uses: ``--tts`` and ``--asr`` (and config.toml's ``tts``/``asr``).

- ``--tts espeak`` (the default) | ``piper`` | ``piper:VOICE`` | ``wyoming://HOST:PORT``
- ``--asr vosk`` (the default) | ``wyoming://HOST:PORT``

:func:`make_voice` and :func:`make_listener` build the adapters; the port factory
(:mod:`voicegame.env`), the kiosk (:mod:`voicegame.appliance`), ``say`` and ``doctor``
call them. espeak-ng stays the voice wherever the chosen engine has no voice of the
language (no Piper voice installed for it, a server without it): said once in the
log, never a failure. The sentences a lost server makes the host say are in
``prompts/<lang>/common.toml`` (``speech_server_lost``, ``recogniser_lost``).
"""

from __future__ import annotations

import argparse
import logging
from dataclasses import dataclass
from typing import Mapping

from voicegame.ports import DeviceError

log = logging.getLogger("voicegame")
TTS_HELP = "speech engine: espeak (default), piper, piper:VOICE or wyoming://HOST:PORT"
ASR_HELP = "recogniser: vosk (default) or wyoming://HOST:PORT (a shared Wyoming ASR server)"


@dataclass(frozen=True)
class Engine:
    """A parsed engine choice: ``kind`` (``espeak``, ``piper``, ``vosk``, ``wyoming``) and
    its ``voice`` name (piper) or ``address`` (wyoming)."""

    kind: str
    voice: str | None = None
    address: object = None

    @property
    def remote(self) -> bool:
        return self.kind == "wyoming"


def parse_tts(text: str | None) -> Engine:
    """``--tts``'s value. :raises ValueError: anything else (one sentence)."""
    value = (text or "espeak").strip()
    if value == "espeak":
        return Engine("espeak")
    if value == "piper" or value.startswith("piper:"):
        name = value.split(":", 1)[1].strip() if ":" in value else ""
        return Engine("piper", voice=name or None)
    if value.lower().startswith(("wyoming://", "tcp://")):
        from voicegame.adapters.wyoming_client import parse_url

        return Engine("wyoming", address=parse_url(value))
    raise ValueError(f"--tts takes espeak, piper, piper:VOICE or wyoming://HOST:PORT, not {value!r}")


def parse_asr(text: str | None) -> Engine:
    """``--asr``'s value. :raises ValueError: anything else (one sentence)."""
    value = (text or "vosk").strip()
    if value == "vosk":
        return Engine("vosk")
    if value.lower().startswith(("wyoming://", "tcp://")):
        from voicegame.adapters.wyoming_client import parse_url

        return Engine("wyoming", address=parse_url(value))
    raise ValueError(f"--asr takes vosk or wyoming://HOST:PORT, not {value!r}")


def _argument_type(parse):
    def check(value: str) -> str:
        try:
            parse(value)
        except ValueError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None
        return value
    return check


def add_arguments(p: argparse.ArgumentParser, asr: bool = True) -> None:
    """``--tts`` (and ``--asr``); ``None`` when not given, so config.toml's value can fill in."""
    p.add_argument("--tts", default=None, type=_argument_type(parse_tts), metavar="ENGINE", help=TTS_HELP)
    if asr:
        p.add_argument("--asr", default=None, type=_argument_type(parse_asr), metavar="ENGINE", help=ASR_HELP)


def sentence(lang: str, key: str) -> str:
    """One sentence of ``prompts/<lang>/common.toml`` (``speech_server_lost`` / ``recogniser_lost``)."""
    from voicegame.language.prompts import Prompts

    return Prompts.load(lang).text(f"common.{key}")


def espeak_instead(exc: DeviceError, lang: str) -> str:
    """Why espeak-ng speaks instead, in ``lang``; in English when ``exc`` has no sentence in ``lang``
    (one line, one language: Piper's and Wyoming's errors have no key yet)."""
    from voicegame.language.prompts import for_error

    prompts = for_error(exc, lang)
    return f"{exc.sentence(prompts)} {prompts.text('common.devices.espeak_instead')}"


def make_voice(tts: str | None, lang: str, environ: Mapping[str, str] | None = None, **kwargs):
    """The voice ``tts`` asks for in ``lang``; espeak-ng where the engine has no voice of it.

    :param kwargs: the espeak adapter's parameters (rate, volume, devices, player, barge-in…).
    :returns: ``(voice, note)``: ``note`` is ``None``, or why espeak-ng speaks instead, in ``lang``.
    :raises DeviceError: espeak-ng itself cannot speak (as for the default voice).
    """
    from voicegame.adapters.tts import Pyttsx3Voice

    engine = parse_tts(tts)
    note = None
    if engine.kind == "piper":
        from voicegame.adapters import piper_voice

        try:
            found = piper_voice.find_voice(engine.voice, lang, environ)
            if found is not None and found.lang == lang:  # a named voice speaks its own language only
                return piper_voice.PiperTtsVoice(lang, found.name, environ=environ, **kwargs), None
            log.info("no Piper voice for %s: espeak-ng speaks", lang)
        except DeviceError as exc:
            note = espeak_instead(exc, lang)
    elif engine.kind == "wyoming":
        from voicegame.adapters.wyoming_voice import WyomingVoice

        try:
            return WyomingVoice(engine.address, lang, lost_sentence=sentence(lang, "speech_server_lost"),
                                **kwargs), None
        except DeviceError as exc:
            note = espeak_instead(exc, lang)
    if note:
        log.warning("%s", note)
    return Pyttsx3Voice(lang=lang, **kwargs), note


def make_listener(asr: str | None, lang: str, source, **kwargs):
    """The Wyoming listener ``asr`` names, on ``source`` (``asr`` must be remote: Vosk is built by the caller)."""
    from voicegame.adapters.wyoming_listener import WyomingListener

    engine = parse_asr(asr)
    return WyomingListener(engine.address, source, lang, lost_sentence=sentence(lang, "recogniser_lost"), **kwargs)


def is_remote_asr(asr: str | None) -> bool:
    """True when ``asr`` names a Wyoming server (no local Vosk model is needed)."""
    return parse_asr(asr).remote


class NoLanguage(DeviceError):
    """A Wyoming server answers but has nothing for the language asked."""


def check_server(address, kind: str, lang: str | None, timeout_s: float = 3.0) -> str:
    """Reach a Wyoming server and say what it offers (``doctor``).

    :param kind: ``"tts"`` or ``"asr"``.
    :returns: one line, such as ``"ok (languages: en, ko)"``.
    :raises DeviceError: unreachable, no such program, or no ``lang`` (when given).
    """
    from voicegame.adapters.wyoming_client import describe, languages

    found = languages(describe(address, timeout_s), kind)
    what = "speech" if kind == "tts" else "recognition"
    if not found:
        raise DeviceError(f"The server {address} offers no {what}: point --{kind} at a Wyoming {kind.upper()} server.",
                          key=f"common.devices.server_without_{kind}", address=str(address))
    if lang and lang not in found:
        from voicegame.models import language_name

        raise NoLanguage(f"The server {address} has no {language_name(lang)} {what} "
                          f"(it has {', '.join(sorted(found))}): install one there.")
    return f"ok (languages: {', '.join(sorted(found))})"
