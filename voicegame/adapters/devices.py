"""Audio devices by index or by name, for ``--mic``, ``--speaker``, ``--private earpiece:DEVICE``
and the kiosk configuration; opening them for real (``doctor``); and waiting until a missing
device (or model) appears (:func:`wait_until`, the kiosk's start, a game's pause).

A device is chosen with a string: ``""`` is the system default, digits are a PortAudio
index, anything else is a part of the device's name (case does not matter) that must match
exactly one device with channels of the wanted kind. ``sounddevice`` is imported only when
a device is looked up, through :func:`voicegame.adapters.audio.import_sounddevice`, so a
test replaces it by putting a fake module in ``sys.modules["sounddevice"]``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, TypeVar

from voicegame.ports import DeviceError

#: Seconds between two checks while waiting for a device or a model.
RECHECK_S = 5.0

T = TypeVar("T")

KIND_WORD = {"input": "microphone", "output": "speaker"}


@dataclass(frozen=True)
class Device:
    """One PortAudio device: its ``index``, ``name``, channel counts and default rate (Hz)."""

    index: int
    name: str
    inputs: int
    outputs: int
    default_samplerate: float
    is_default_input: bool = False
    is_default_output: bool = False

    def channels(self, kind: str) -> int:
        return self.inputs if kind == "input" else self.outputs

    def is_default(self, kind: str) -> bool:
        return self.is_default_input if kind == "input" else self.is_default_output


class DeviceChoiceError(DeviceError):
    """No device, or several, match what was asked; ``str()`` lists the devices there are.

    :param kind: ``"input"`` or ``"output"``.
    :param asked: what was asked for (an index or a part of a name).
    :param devices: the devices of that kind.
    :param problem: ``"number"`` (no such index), ``"named"`` (no name matches) or ``"several"``:
        the prompt ``common.devices.<problem>_<microphone|speaker>``.
    """

    def __init__(self, message: str, kind: str, asked: str, devices: list[Device], problem: str | None = None):
        key = f"common.devices.{problem}_{KIND_WORD[kind]}" if problem else None
        super().__init__(message, key=key, asked=asked)
        self.kind, self.asked, self.devices = kind, asked, devices

    def sentence(self, prompts) -> str:
        """The sentence in ``prompts``' language, the devices listed with its ``(default)`` mark."""
        if not self.has_sentence(prompts):
            return str(self)
        listing = describe(self.devices, self.kind, none=prompts.text("common.devices.none"),
                           default=prompts.text("common.devices.default_mark"))
        return prompts.text(self.key, asked=self.asked, devices=listing)


def list_devices() -> list[Device]:
    """Every PortAudio device, the defaults marked.

    :raises DeviceError: PortAudio is missing.
    """
    from voicegame.adapters import audio  # numpy and PortAudio only when a device is used

    sd = audio.import_sounddevice()
    try:
        raw = [dict(d) for d in sd.query_devices()]
        default = list(sd.default.device)
    except (sd.PortAudioError, ValueError, TypeError) as exc:
        raise DeviceError(audio.NO_PORTAUDIO, key="common.devices.no_portaudio") from exc
    default_in = default[0] if default and default[0] is not None else -1
    default_out = default[1] if len(default) > 1 and default[1] is not None else -1
    out = []
    for position, d in enumerate(raw):
        index = int(d.get("index", position))
        out.append(Device(index, str(d.get("name", "?")), int(d.get("max_input_channels", 0)),
                          int(d.get("max_output_channels", 0)), float(d.get("default_samplerate", 0) or 0),
                          index == default_in, index == default_out))
    return out


def of_kind(devices: list[Device], kind: str) -> list[Device]:
    """The devices with at least one channel of ``kind`` (``"input"`` / ``"output"``)."""
    return [d for d in devices if d.channels(kind) > 0]


def describe(devices: list[Device], kind: str, none: str = "none", default: str = "(default)") -> str:
    """The devices of ``kind`` as one line: ``0 "USB Mic" (default), 2 "Webcam"`` (``none`` when empty;
    ``none`` and ``default`` in another language for a table)."""
    found = of_kind(devices, kind)
    if not found:
        return none
    return ", ".join(f'{d.index} "{d.name}"' + (f" {default}" if d.is_default(kind) else "") for d in found)


def resolve(asked: str | int | None, kind: str, devices: list[Device] | None = None) -> int | None:
    """The PortAudio index of the device ``asked`` for, ``None`` for the default.

    :param asked: ``None``/``""`` (the default), an index (``2``, ``"2"``), or a part of a name.
    :param kind: ``"input"`` (a microphone) or ``"output"`` (a speaker, an earpiece).
    :raises DeviceChoiceError: no device of that kind matches, or several do (the list is in
        the message).
    :raises DeviceError: PortAudio is missing.
    """
    text = "" if asked is None else str(asked).strip()
    if not text:
        return None
    devices = list_devices() if devices is None else devices
    candidates = of_kind(devices, kind)
    word = KIND_WORD[kind]
    listing = f"the {word}s are: {describe(devices, kind)} (`voicegame doctor` lists them)."
    if text.isdigit():
        chosen = [d for d in candidates if d.index == int(text)]
        if not chosen:
            raise DeviceChoiceError(f"There is no {word} number {text}; {listing}", kind, text, candidates, "number")
        return chosen[0].index
    chosen = [d for d in candidates if text.lower() in d.name.lower()]
    exact = [d for d in chosen if d.name.lower() == text.lower()]
    if len(exact) == 1:
        return exact[0].index
    if not chosen:
        raise DeviceChoiceError(f'No {word} has "{text}" in its name; {listing}', kind, text, candidates, "named")
    if len(chosen) > 1:
        raise DeviceChoiceError(f'More than one {word} has "{text}" in its name; give its number: {listing}',
                                kind, text, candidates, "several")
    return chosen[0].index


def open_input(index: int | None, seconds: float = 0.1) -> Device:
    """Open the microphone (``None``: the default), start it and read ``seconds`` of audio.

    :returns: the device opened.
    :raises DeviceError: it cannot be opened or delivers nothing (one sentence).
    """
    from voicegame.adapters import audio  # numpy and PortAudio only when a device is used

    sd = audio.import_sounddevice()
    info = audio.device_info(index, "input")
    rate = int(info.get("default_samplerate") or 16000)
    try:
        with sd.RawInputStream(samplerate=rate, device=index, channels=1, dtype="int16") as stream:
            stream.read(max(1, int(rate * seconds)))
    except (sd.PortAudioError, ValueError, OSError) as exc:
        raise DeviceError(f"The microphone {_named(info)} could not be opened ({exc}): check that no other "
                          "program uses it.", key="common.devices.microphone_busy", device=_named(info),
                          reason=str(exc)) from exc
    return _device(info)


def open_output(index: int | None, seconds: float = 0.05) -> Device:
    """Open the speaker (``None``: the default) and play ``seconds`` of silence.

    :returns: the device opened.
    :raises DeviceError: it cannot be opened (one sentence).
    """
    from voicegame.adapters import audio  # numpy and PortAudio only when a device is used

    import numpy as np

    sd = audio.import_sounddevice()
    info = audio.device_info(index, "output")
    rate = int(info.get("default_samplerate") or 22050)
    try:
        with sd.OutputStream(samplerate=rate, device=index, channels=1, dtype="float32") as stream:
            stream.write(np.zeros((max(1, int(rate * seconds)), 1), dtype="float32"))
    except (sd.PortAudioError, ValueError, OSError) as exc:
        raise DeviceError(f"The speaker {_named(info)} could not be opened ({exc}): check that no other "
                          "program uses it.", key="common.devices.speaker_busy", device=_named(info),
                          reason=str(exc)) from exc
    return _device(info)


def _named(info: dict) -> str:
    return f'{info.get("index", "?")} "{info.get("name", "?")}"'


def _device(info: dict) -> Device:
    return Device(int(info.get("index", -1)), str(info.get("name", "?")), int(info.get("max_input_channels", 0)),
                  int(info.get("max_output_channels", 0)), float(info.get("default_samplerate", 0) or 0))


def wait_until(attempt: Callable[[], T], clock, *, on_problem: Callable[[Exception], None],
               interval_s: float = RECHECK_S, problems: tuple[type[BaseException], ...] = (DeviceError,),
               key: Callable[[Exception], object] = str, give_up: Callable[[], bool] | None = None) -> T | None:
    """Call ``attempt()`` until it returns, checking again every ``interval_s`` seconds.

    Each distinct problem (by ``key``, its sentence by default) is reported once through
    ``on_problem`` — a device that stays missing is not announced again on every check.

    :param clock: a :class:`~voicegame.ports.Clock`; the wait is ``clock.sleep`` (virtual in tests).
    :param problems: exception types that mean "not there yet"; anything else propagates.
    :param give_up: called after each failed check; ``True`` stops waiting (returns ``None``).
    :returns: what ``attempt`` returned (``None`` when ``give_up`` said so).
    """
    reported: set = set()
    while True:
        try:
            return attempt()
        except problems as exc:
            k = key(exc)
            if k not in reported:
                reported.add(k)
                on_problem(exc)
        if give_up is not None and give_up():
            return None
        clock.sleep(interval_s)


class SpeakerWatch:
    """A Voice whose speaker may disappear and come back.

    A :class:`~voicegame.ports.DeviceError` while saying a sentence (or playing a tone)
    pauses right there: ``on_lost(error)`` is called once (say it where it still can be
    said: the log, stderr, the screen's captions), the same sentence is tried again every
    ``interval_s`` seconds on ``clock`` (virtual in tests), and once it plays
    ``on_back(seconds paused)`` is called and the game goes on from that sentence: nothing
    the host did or heard is lost. Everything else (``adjust``, ``stop``, ``wait``,
    ``speaking_until``, the devices) passes through to ``voice``.

    :param voice: the Voice that really speaks.
    :param clock: a :class:`~voicegame.ports.Clock` (``now``, ``sleep``).
    :param on_lost: ``on_lost(error: DeviceError) -> None``.
    :param on_back: ``on_back(paused_s: float) -> None`` (optional).
    """

    def __init__(self, voice, clock, on_lost: Callable[[Exception], None],
                 on_back: Callable[[float], None] | None = None, interval_s: float = RECHECK_S):
        self.inner = voice
        self._clock, self._on_lost, self._on_back, self._interval_s = clock, on_lost, on_back, interval_s

    def say(self, text: str, to: str | None = None) -> None:
        self._through_loss(lambda: self.inner.say(text) if to is None else self.inner.say(text, to=to))

    def tone(self, frequency_hz: float, duration_s: float = 0.12, label: str = "") -> None:
        self._through_loss(lambda: self.inner.tone(frequency_hz, duration_s, label))

    def _through_loss(self, sound: Callable[[], None]) -> None:
        try:
            sound()
            return
        except DeviceError as exc:
            lost = exc
        started = self._clock.now()
        self._on_lost(lost)
        self._clock.sleep(self._interval_s)

        def again() -> bool:
            sound()
            return True

        wait_until(again, self._clock, on_problem=lambda exc: None, interval_s=self._interval_s)
        if self._on_back is not None:
            self._on_back(self._clock.now() - started)

    def __getattr__(self, name: str):
        return getattr(self.inner, name)
