"""A stand-in for the ``sounddevice`` module with a device list the test controls.

Put it in place with ``monkeypatch.setitem(sys.modules, "sounddevice", FakeSoundDevice(...))``:
``voicegame.adapters.audio.import_sounddevice`` then returns it. Devices are dicts as
``sounddevice.query_devices`` gives them; ``devices`` may be a callable (a list that
changes with a virtual clock: a microphone plugged in later). Streams that were opened
and sounds that were played are noted in ``opened`` and ``played``.
"""

from __future__ import annotations


class PortAudioError(Exception):
    pass


def mic(index: int, name: str, rate: float = 48000.0) -> dict:
    return {"index": index, "name": name, "max_input_channels": 1, "max_output_channels": 0,
            "default_samplerate": rate}


def speaker(index: int, name: str, rate: float = 44100.0) -> dict:
    return {"index": index, "name": name, "max_input_channels": 0, "max_output_channels": 2,
            "default_samplerate": rate}


class _Default:
    def __init__(self, owner):
        self.owner = owner

    @property
    def device(self):
        return self.owner.defaults()


class FakeSoundDevice:
    PortAudioError = PortAudioError

    def __init__(self, devices, default_input: int | None = None, default_output: int | None = None):
        self._devices = devices
        self._default_input = default_input
        self._default_output = default_output
        self.default = _Default(self)
        self.opened: list[tuple[str, object]] = []
        self.played: list[tuple[int, object]] = []
        self.refreshes = 0

    # -- the device list -------------------------------------------------------------
    def devices(self) -> list[dict]:
        return list(self._devices() if callable(self._devices) else self._devices)

    def defaults(self) -> list[int]:
        found = self.devices()

        def first(kind: str, wanted: int | None) -> int:
            indices = [d["index"] for d in found if d[f"max_{kind}_channels"] > 0]
            if wanted in indices:
                return wanted
            return indices[0] if indices else -1
        return [first("input", self._default_input), first("output", self._default_output)]

    def query_devices(self, device=None, kind=None):
        found = self.devices()
        if device is None and kind is None:
            return found
        if device is None:
            device = self.defaults()[0 if kind == "input" else 1]
            if device == -1:
                raise PortAudioError("Error querying device -1")
        if isinstance(device, str):
            matches = [d for d in found if device.lower() in d["name"].lower()]
            if len(matches) != 1:
                raise ValueError(f"No device matching {device!r}" if not matches else f"Multiple devices {device!r}")
            info = matches[0]
        else:
            info = next((d for d in found if d["index"] == device), None)
            if info is None:
                raise PortAudioError(f"Error querying device {device}")
        if kind is not None and info[f"max_{kind}_channels"] < 1:
            raise ValueError(f"Not an {kind} device: {device!r}")
        return dict(info)

    def _initialize(self):
        self.refreshes += 1

    def _terminate(self):
        pass

    # -- streams -------------------------------------------------------------------
    def RawInputStream(self, samplerate=None, blocksize=None, device=None, channels=1, dtype="int16",
                       callback=None):
        self.query_devices(device, kind="input")
        return _Stream(self, "input", device)

    def OutputStream(self, samplerate=None, device=None, channels=1, dtype="float32", **kwargs):
        self.query_devices(device, kind="output")
        return _Stream(self, "output", device)

    def play(self, data, samplerate, device=None):
        self.query_devices(device, kind="output")
        self.played.append((int(samplerate), device))

    def wait(self):
        pass


class _Stream:
    def __init__(self, owner: FakeSoundDevice, kind: str, device):
        self.owner, self.kind, self.device = owner, kind, device

    def start(self):
        self.owner.opened.append((self.kind, self.device))

    def stop(self):
        pass

    def close(self):
        pass

    def read(self, frames):
        return b"\0\0" * frames, False

    def write(self, data):
        return False

    def __enter__(self):
        self.start()
        return self

    def __exit__(self, *exc):
        self.close()
        return False
