"""The device choices and settings every command shares, and the kiosk's unattended start.

- :func:`apply_config` — ``play`` and ``hear`` honour ``config.toml`` (language, speech rate
  and volume, microphone, speaker, private channel) wherever the command line says nothing.
- :func:`private_outputs` — ``--private earpiece:DEVICE`` (an index or a part of a name) as
  PortAudio indices, refused with the device list when the earpiece is not there.
- :func:`unattended_ports` — ``voicegame kiosk`` with a microphone never falls back to the
  keyboard: a missing microphone, model or speaker is written once to stderr (the journal)
  and said once aloud when a speaker exists; then it checks again every
  :data:`~voicegame.adapters.devices.RECHECK_S` seconds on the injected clock and starts by
  itself when everything is there (the lobby greets once, after that).
"""

from __future__ import annotations

import logging
import re
from typing import Callable

from voicegame.adapters import devices
from voicegame.engine.observer import Caption, CaptionedVoice
from voicegame.ports import DeviceError

log = logging.getLogger("voicegame")


class UsageError(Exception):
    """A device named on the command line or in the configuration cannot be used as asked;
    ``str()`` is one sentence with the list of devices."""


# ---------------------------------------------------------------------- settings
def apply_config(args, env, stderr=None) -> None:
    """Fill ``args`` from ``config.toml`` where the command line left a choice open.

    Sets ``args.lang`` (when ``None``), ``args.mic``, ``args.speaker``, ``args.private``
    and ``args.display`` (when ``None``), ``args.rate_wpm``, ``args.volume``, ``args.tts``, ``args.asr``
    and ``args.barge_in`` (when ``None``: config's ``barge_in``). A configuration file that cannot
    be used is named once on ``stderr`` and the defaults are used.
    """
    from voicegame import config as kiosk_config

    try:
        config = kiosk_config.load(env.environ)
    except kiosk_config.ConfigError as exc:
        (stderr or env.stderr).write(f"voicegame: {exc} Using the default settings.\n")
        config = kiosk_config.Config()
    if getattr(args, "lang", None) is None:
        args.lang = config.lang if config.lang in ("en", "es", "nl") else "en"
    if getattr(args, "mic", None) is None:
        args.mic = config.input_device or None
    if getattr(args, "speaker", None) is None:
        args.speaker = config.output_device or None
    if hasattr(args, "private") and args.private is None:
        args.private = config.private
    if hasattr(args, "display") and args.display is None:
        args.display = config.display or None
    args.rate_wpm = config.rate_wpm
    args.volume = config.volume
    for key in ("tts", "asr"):  # the speech engines (voicegame.engines)
        if getattr(args, key, None) is None:
            setattr(args, key, getattr(config, key))
    if hasattr(args, "barge_in") and args.barge_in is None:
        args.barge_in = bool(config.barge_in)


def private_outputs(private: str | None, lang: str = "en") -> dict:
    """The private audiences' output devices for ``--private earpiece:DEVICE`` (``{}`` otherwise).

    :raises UsageError: the earpiece is not there: refused with the list of speakers, in ``lang``
        (``common.devices.earpiece_missing``), so a secret is never spoken aloud or printed instead.
    """
    if not private or not private.startswith("earpiece:"):
        return {}
    asked = private.split(":", 1)[1]
    try:
        index = devices.resolve(asked, "output")
        from voicegame.adapters.audio import require_output

        require_output(index)
    except DeviceError as exc:
        from voicegame.language.prompts import for_error

        prompts = for_error(exc, lang)
        raise UsageError(prompts.text("common.devices.earpiece_missing", problem=exc.sentence(prompts))) from None
    return {"psychic": index, "writers": index}


# ---------------------------------------------------------------------- the unattended kiosk
class NotReady(DeviceError):
    """Something the kiosk needs is missing: ``problems`` is a list of ``(kind, sentence)``
    with kind ``"speaker"``, ``"microphone"`` or ``"model"``; ``voice`` speaks when a speaker exists."""

    def __init__(self, problems: list[tuple[str, str]], voice):
        super().__init__("; ".join(text for _, text in problems))
        self.problems, self.voice = problems, voice


def speaker_voice(lang: str, choice, output: int | None, private: dict):
    """The kiosk's voice (``choice.tts``, espeak-ng by default) on ``output`` with the choice's rate and volume."""
    from voicegame import engines

    voice, _ = engines.make_voice(getattr(choice, "tts", None), lang, rate_wpm=choice.rate_wpm,
                                  volume=choice.volume, output_device=output, private_devices=private)
    return voice


def recogniser(model_path, source):
    """The kiosk's listener: Vosk on ``model_path`` reading ``source``."""
    from voicegame.adapters.vosk_listener import VoskListener, load_model

    return VoskListener(load_model(model_path), source)


def listener_for(choice, lang: str, model_path, source, voice=None):
    """:func:`recogniser`, or the shared Wyoming recogniser that ``choice.asr`` names (it says
    a lost server's sentence with ``voice``)."""
    from voicegame import engines

    if engines.is_remote_asr(getattr(choice, "asr", None)):
        return engines.make_listener(choice.asr, lang, source, announcer=voice)
    return recogniser(model_path, source)


def refresh_devices() -> None:
    """Make PortAudio look for devices again (it lists them once, when it starts); nothing is open while waiting."""
    try:
        from voicegame.adapters.audio import import_sounddevice

        sd = import_sounddevice()
        if hasattr(sd, "_terminate") and hasattr(sd, "_initialize"):
            sd._terminate()
            sd._initialize()
    except Exception as exc:  # a failed refresh only delays the next check
        log.debug("PortAudio refresh failed: %s", exc)


def say_missing(kind: str, lang: str, voice, choice) -> None:
    """Say aloud, in ``lang``, that the microphone or the speech model is missing and that the
    host starts by itself (``lobby.waiting.*`` in the prompts)."""
    from voicegame.language.prompts import Prompts

    prompts = Prompts.load(lang)
    if kind == "model":
        name = prompts.text(f"lobby.language_names.{lang}") if prompts.has(f"lobby.language_names.{lang}") else lang
        voice.say(prompts.text("lobby.waiting.no_model", language=name, lang=lang))
    elif choice.mic not in (None, ""):
        voice.say(prompts.text("lobby.waiting.missing_microphone", device=choice.mic))
    else:
        voice.say(prompts.text("lobby.waiting.no_microphone"))


def unattended_ports(choice, env, clock, say_problem: Callable[[str, str, object, object], None] = say_missing,
                     observers=None):
    """Listener and voice for an unattended kiosk, waiting until the microphone, model and speaker are there.

    :param choice: a :class:`voicegame.env.PortChoice` with ``input="mic"`` (devices, rate,
        volume, private channel, language, model folder).
    :param clock: the waits between checks are ``clock.sleep`` (virtual in tests).
    :param say_problem: ``say_problem(kind, lang, voice, choice)`` speaks the missing thing's
        sentence on ``voice`` (:func:`say_missing`).
    :param observers: where the waiting is captioned for a screen (public): the sentence as
        said, or — with no speaker to say it — the journal's line.
    :returns: ``(listener, voice, relang)``; ``relang(code)`` gives another language's pair.
    """
    from voicegame import engines, models
    from voicegame.adapters.audio import MicSource, device_info, require_output
    from voicegame.adapters.headless import TextVoice

    shared: dict = {}
    written: set = set()
    spoken: set = set()
    want_speaker = choice.output == "speaker"
    lang = choice.lang

    def attempt():
        refresh_devices()
        problems: list[tuple[str, str]] = []
        voice = shared.get("voice")
        if not want_speaker:
            voice = shared.setdefault("voice", TextVoice(env.stdout))
        elif voice is None:
            try:
                output = devices.resolve(choice.speaker, "output")
                require_output(output)
                private = {}
                if choice.private.startswith("earpiece:"):
                    earpiece = devices.resolve(choice.private.split(":", 1)[1], "output")
                    require_output(earpiece)
                    private = {"psychic": earpiece, "writers": earpiece}
                voice = shared["voice"] = speaker_voice(lang, choice, output, private)
            except DeviceError as exc:
                problems.append(("speaker", str(exc)))
        remote = engines.is_remote_asr(getattr(choice, "asr", None))  # a shared recogniser needs no model
        model_path = None if remote else models.find_model(lang, choice.model, env.environ)
        if model_path is None and not remote:
            problems.append(("model", models.install_hint(lang)))
        try:
            mic = devices.resolve(choice.mic, "input")
            device_info(mic, "input")
        except DeviceError as exc:
            problems.append(("microphone", str(exc)))
            mic = None
        if not problems:
            try:
                source = MicSource(device=mic)
                source.start()
            except DeviceError as exc:
                problems.append(("microphone", str(exc)))
            else:
                try:
                    listener = listener_for(choice, lang, model_path, source, voice)
                except DeviceError as exc:  # the model is there but Vosk cannot load it
                    source.close()
                    problems.append(("model", str(exc)))
                else:
                    shared["source"] = source
                    return listener, voice
        raise NotReady(problems, voice)

    def report(exc: NotReady) -> None:
        for kind, text in exc.problems:
            text = re.sub(r",? or play with --(input keyboard|output text)", "", text)
            if (kind, text) not in written:
                written.add((kind, text))
                env.stderr.write(f"voicegame kiosk: {text} Waiting: checking again every "
                                 f"{devices.RECHECK_S:g} seconds.\n")
                env.stderr.flush()
                if observers is not None and (exc.voice is None or kind == "speaker"):
                    observers.publish(Caption(text))  # nothing can say it: the screen shows it
            if exc.voice is not None and kind != "speaker" and kind not in spoken:
                spoken.add(kind)
                try:
                    say_problem(kind, lang, exc.voice if observers is None
                                else CaptionedVoice(exc.voice, lambda: observers), choice)
                except DeviceError as lost:  # the speaker went away too: the next check finds it
                    log.warning("could not say that the %s is missing: %s", kind, lost)

    listener, voice = devices.wait_until(attempt, clock, on_problem=report,
                                         key=lambda exc: (tuple(exc.problems), exc.voice is not None))

    def relang(code: str):
        """Listener and voice of ``code`` on the same microphone and speaker; without that
        language's model the current listener stays (named in the log)."""
        remote = engines.is_remote_asr(getattr(choice, "asr", None))
        path = None if remote else models.find_model(code, choice.model, env.environ)
        other_voice = voice if not want_speaker else speaker_voice(code, choice, voice.output_device,
                                                                    voice.private_devices)
        other_listener = listener
        if path is None and not remote:
            log.warning("%s", models.install_hint(code))
        else:
            other_listener = listener_for(choice, code, path, shared["source"], other_voice)
        return other_listener, other_voice

    return listener, voice, relang
