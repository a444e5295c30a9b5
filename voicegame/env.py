"""The process environment and the one port factory.

:class:`Env` holds every process dependency (streams, environment variables, a clock
override) so tests pass their own. :func:`build_ports` turns a :class:`PortChoice`
(what the command line or the kiosk configuration asked for) into the listener,
voice and clock a session needs; ``play``, ``resume``, ``hear``, ``kiosk`` and the
bench all build their ports here. Nothing in here imports :mod:`voicegame.cli`.
"""

from __future__ import annotations

import argparse
import os
import sys
from dataclasses import dataclass, field
from typing import Callable, Mapping, TextIO

from voicegame.ports import DeviceError, Ports


@dataclass
class Env:
    """The process environment a command runs in (tests pass their own)."""

    stdin: TextIO = field(default_factory=lambda: sys.stdin)
    stdout: TextIO = field(default_factory=lambda: sys.stdout)
    stderr: TextIO = field(default_factory=lambda: sys.stderr)
    environ: Mapping[str, str] = field(default_factory=lambda: os.environ)
    clock_factory: Callable | None = None  # overrides the clock (tests)

    def say(self, sentence: str) -> None:
        """One plain sentence to the person at the terminal."""
        self.stdout.write(sentence + "\n")
        self.stdout.flush()


class CliError(Exception):
    """A problem a person can fix; ``str()`` is the one sentence to print."""


def fallback(exc: DeviceError, lang: str, then: str) -> str:
    """What a missing device and its fallback are: the device's sentence and ``common.devices.<then>``
    (``keyboard_instead``, ``text_instead``, ``secrets_would_show``), in ``lang``; both in English
    when the adapter's error has no sentence in ``lang`` (one line, one language)."""
    from voicegame.language.prompts import for_error

    prompts = for_error(exc, lang)
    return " ".join((exc.sentence(prompts), prompts.text(f"common.devices.{then}")))


def no_model(lang: str) -> str:
    """That ``lang`` has no speech model and how to install it, in ``lang`` (``common.devices.no_model``;
    :func:`voicegame.models.install_hint` is the English one, for logs and ``doctor``)."""
    from voicegame.language.prompts import Prompts

    prompts = Prompts.load(lang)
    return prompts.text("common.devices.no_model", language=prompts.text(f"lobby.language_names.{lang}"), lang=lang)


def device(value) -> int | str | None:
    """A sounddevice device as given by a person: ``""``/``None`` → default, digits → index, else a name."""
    value = str(value if value is not None else "").strip()
    if not value:
        return None
    return int(value) if value.isascii() and value.isdigit() else value


@dataclass
class PortChoice:
    """What a command asked for; :func:`build_ports` builds it.

    :param input: ``mic``, ``keyboard`` or the path of a script file.
    :param output: ``speaker`` or ``text``.
    :param mic: input device (index or name part); ``None`` is the default.
    :param speaker: output device; ``None`` is the default.
    :param private: ``ears``, ``screen`` or ``earpiece:DEVICE``.
    :param rate_wpm: speaking rate in words a minute (``None``: the voice's default).
    :param volume: 0.0–1.0.
    :param barge_in: players may cut the host short (microphone and speaker only).
    :param display: ``[HOST:]PORT`` of the table's screen (:mod:`voicegame.display`); ``None``: none.
    :param keyboard_fallback: fall back to the keyboard / printed text when a device or
        model is missing (``play`` on a laptop); a kiosk passes False.
    :param tts: ``espeak``, ``piper[:VOICE]`` or ``wyoming://HOST:PORT`` (:mod:`voicegame.engines`).
    :param asr: ``vosk`` or ``wyoming://HOST:PORT``.
    """

    input: str = "mic"
    output: str = "speaker"
    lang: str = "en"
    model: str | None = None
    mic: int | str | None = None
    speaker: int | str | None = None
    private: str = "ears"
    rate_wpm: int | None = None
    volume: float = 1.0
    keyboard_fallback: bool = True
    barge_in: bool = True
    display: str | None = None
    tts: str = "espeak"
    asr: str = "vosk"

    @classmethod
    def from_args(cls, args: argparse.Namespace, **overrides) -> "PortChoice":
        """The choice an argparse namespace holds (missing attributes keep their defaults)."""
        names = cls.__dataclass_fields__
        values = {k: getattr(args, k) for k in names if getattr(args, k, None) is not None}
        values.update({k: v for k, v in overrides.items() if v is not None})
        return cls(**values)


def make_clock(choice: PortChoice, env: Env):
    """A virtual clock for scripted input, else real time (``env.clock_factory`` wins)."""
    from voicegame.adapters.headless import RealClock, VirtualClock

    if env.clock_factory:
        return env.clock_factory()
    scripted = choice.input not in ("mic", "keyboard")
    return VirtualClock() if scripted else RealClock()


def make_listener(choice: PortChoice, env: Env, clock, shared: dict | None = None):
    """The Listener for ``choice.input``.

    A missing microphone or model falls back to the keyboard with one sentence (without
    ``keyboard_fallback``, :func:`build_ports` waits for them instead). ``shared`` keeps one
    microphone stream (and one script) across languages. :raises CliError: unreadable script file.
    """
    from voicegame.adapters.headless import KeyboardListener, ScriptError, ScriptListener

    shared = {} if shared is None else shared
    if choice.input == "keyboard":
        return shared.setdefault("keyboard", KeyboardListener(env.stdin, out=env.stdout))
    if choice.input != "mic":
        if "script" not in shared:
            try:
                echo = (lambda text: env.say(f"PLAYER: {text}")) if choice.output == "text" else None
                shared["script"] = ScriptListener(choice.input, clock=clock, echo=echo)
            except ScriptError as exc:
                raise CliError(str(exc)) from None
        return shared["script"]
    from voicegame import engines, models

    if engines.is_remote_asr(choice.asr):  # a shared Wyoming recogniser: no model here
        try:
            return engines.make_listener(choice.asr, choice.lang, mic_source(choice, shared),
                                           barge_in=choice.barge_in)
        except DeviceError as exc:
            env.say(fallback(exc, choice.lang, "keyboard_instead"))
            return KeyboardListener(env.stdin, out=env.stdout)
    model_path = models.find_model(choice.lang, choice.model, env.environ)
    if model_path is None:
        env.say(no_model(choice.lang))
        return KeyboardListener(env.stdin, out=env.stdout)
    try:
        from voicegame.adapters.vosk_listener import VoskListener, load_model

        source = mic_source(choice, shared)  # the microphone first: its absence is the first thing said
        return VoskListener(load_model(model_path), source, barge_in=choice.barge_in)
    except DeviceError as exc:
        env.say(fallback(exc, choice.lang, "keyboard_instead"))
        return KeyboardListener(env.stdin, out=env.stdout)


def mic_source(choice: PortChoice, shared: dict):
    """The one microphone stream of ``shared`` (opened and started the first time).
    :raises DeviceError: no such microphone."""
    from voicegame.adapters.audio import MicSource
    from voicegame.adapters.devices import resolve

    if "source" not in shared:
        shared["source"] = MicSource(device=resolve(choice.mic, "input"))
        shared["source"].start()
    return shared["source"]


def make_voice(choice: PortChoice, env: Env, shared: dict | None = None):
    """The Voice for ``choice.output``; falls back to printed text with one sentence."""
    from voicegame.adapters.headless import TextVoice

    shared = {} if shared is None else shared
    if choice.output == "text":
        return shared.setdefault("text_voice", TextVoice(env.stdout))
    from voicegame import appliance

    try:
        from voicegame.adapters.audio import require_output
        from voicegame.adapters.devices import resolve
        from voicegame import engines

        devices = appliance.private_outputs(choice.private, choice.lang)
        speaker = resolve(choice.speaker, "output")
        require_output(speaker)
        voice, note = engines.make_voice(choice.tts, choice.lang, env.environ, rate_wpm=choice.rate_wpm,
                                         volume=choice.volume, output_device=speaker, private_devices=devices,
                                         barge_in=choice.input == "mic")  # the listener needs its timing
        if note:
            env.say(note)
        return voice
    except appliance.UsageError as exc:
        raise CliError(str(exc)) from None
    except DeviceError as exc:
        if choice.private.startswith("earpiece:"):  # printed text would show the secrets to everyone
            raise CliError(fallback(exc, choice.lang, "secrets_would_show")) from None
        env.say(fallback(exc, choice.lang, "text_instead"))
        return TextVoice(env.stdout)


def connect(listener, voice) -> None:
    """Tell ``listener`` about ``voice`` when both take part in barge-in (the
    :class:`~voicegame.ports.Interruptible` hook); otherwise do nothing."""
    attach = getattr(listener, "attach", None)
    if attach is not None and callable(getattr(voice, "speaking_until", None)) and \
            callable(getattr(voice, "stop", None)) and getattr(voice, "barge_in", True):
        attach(voice)


def build_ports(choice: PortChoice, env: Env, observers=None) -> Ports:
    """Listener, voice and clock for ``choice``; ``relang(code)`` builds both for another
    language on the same microphone stream; ``screen`` shows private text on the console.

    :param observers: a kiosk's :class:`~voicegame.engine.observer.Observers`: what it says while
        it waits for a device or model is captioned there too (the screen shows it).

    :raises CliError: unreadable script file.
    """
    clock = make_clock(choice, env)
    if choice.input == "mic" and not choice.keyboard_fallback:  # a kiosk: waits, never the keyboard
        from voicegame import appliance

        listener, voice, relang = appliance.unattended_ports(choice, env, clock, observers=observers)
        return Ports(listener, voice, clock, relang=relang, screen=env.say)
    shared: dict = {}

    def for_language(code: str):
        other = PortChoice(**{**choice.__dict__, "lang": code})
        pair = make_listener(other, env, clock, shared), make_voice(other, env, shared)
        connect(*pair)
        if getattr(pair[0], "announcer", False) is None:  # a shared recogniser says a lost server aloud
            pair[0].announcer = pair[1]
        return pair

    listener, voice = for_language(choice.lang)
    return Ports(listener, voice, clock, relang=for_language, screen=env.say)
