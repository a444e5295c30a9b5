"""Audio in and out: microphone and WAV sources for a recognizer, and playback.

- :class:`AudioSource` — what a recognizer reads: int16 mono chunks at ``sample_rate``.
- :class:`MicSource` — a microphone through ``sounddevice.RawInputStream``.
- :class:`WavSource` — a WAV file streamed in chunks (tests, benchmarks).
- :func:`play` — play samples and return when playback has finished.
- :class:`Playback` — play without waiting, knowing when the sound has left the
  loudspeaker (the barge-in hook of a voice); :meth:`Playback.queue` plays pieces one
  after the other with no gap (a voice that speaks clause by clause).

Every PortAudio or missing-device failure becomes :class:`~voicegame.ports.DeviceError`
whose text is one sentence naming the fix. ``sounddevice`` is imported only when a
device is opened, so importing this module never touches PortAudio.
"""

from __future__ import annotations

import queue
import threading
import time
import wave
from pathlib import Path
from typing import Protocol, runtime_checkable

import numpy as np

from voicegame.ports import DeviceError, InputEnded

NO_PORTAUDIO = "The PortAudio library is missing: run `sudo apt install libportaudio2`."
NO_MICROPHONE = "No microphone found: plug one in, or play with --input keyboard."
NO_SPEAKER = "No speaker found: plug in speakers or headphones, or play with --output text."


def import_sounddevice():
    """Import ``sounddevice``.

    :raises DeviceError: PortAudio (``libportaudio2``) or ``sounddevice`` is missing.
    """
    try:
        import sounddevice
    except (ImportError, OSError) as exc:
        raise DeviceError(NO_PORTAUDIO, key="common.devices.no_portaudio") from exc
    return sounddevice


@runtime_checkable
class AudioSource(Protocol):
    """A stream of int16 mono audio for a recognizer.

    ``read`` returns raw little-endian int16 bytes (any chunk length), or ``None``
    when nothing arrived within ``timeout_s`` seconds. It raises
    :class:`~voicegame.ports.InputEnded` when the source is exhausted.
    """

    sample_rate: int

    def start(self) -> None:
        """Start capturing (idempotent)."""
        ...

    def read(self, timeout_s: float) -> bytes | None:
        """One chunk of int16 mono bytes, or ``None`` after ``timeout_s`` seconds without audio."""
        ...

    def drain(self) -> None:
        """Throw away audio captured so far (e.g. the host's own voice)."""
        ...

    def close(self) -> None:
        """Stop capturing and free the device."""
        ...


class MicSource:
    """A microphone: int16 mono at the device's own default sample rate.

    The PortAudio callback only puts bytes on a queue; nothing slow runs there.
    Input overflows (audio lost because the reader fell behind) are counted in
    :attr:`overflows`, never fatal.

    :param device: a ``sounddevice`` device index or name; ``None`` is the default input.
    :param blocksize: samples per chunk; ``None`` is 50 ms at the device rate.
    :raises DeviceError: no microphone or no PortAudio (one sentence naming the fix).
    """

    def __init__(self, device: int | str | None = None, blocksize: int | None = None):
        self.device = device
        info = device_info(device, "input")
        #: samples per second delivered by :meth:`read`.
        self.sample_rate = int(info["default_samplerate"])
        self.blocksize = int(blocksize) if blocksize else max(1, self.sample_rate // 20)
        #: number of input overflows reported by PortAudio so far.
        self.overflows = 0
        self._queue: queue.Queue = queue.Queue()
        self._stream = None
        #: ``time.monotonic()`` at the end of the last chunk read (the speaker's clock).
        self.time_s: float | None = None

    def _callback(self, indata, frames, time_info, status) -> None:
        if status and status.input_overflow:
            self.overflows += 1
        self._queue.put((time.monotonic(), bytes(indata)))

    def start(self) -> None:
        """Open and start the input stream (idempotent).

        :raises DeviceError: the microphone cannot be opened.
        """
        if self._stream is not None:
            return
        sd = import_sounddevice()
        try:
            stream = sd.RawInputStream(
                samplerate=self.sample_rate,
                blocksize=self.blocksize,
                device=self.device,
                channels=1,
                dtype="int16",
                callback=self._callback,
            )
            stream.start()
        except (sd.PortAudioError, ValueError) as exc:
            raise DeviceError(
                "The microphone could not be opened: check it is plugged in and not "
                "used by another program, or play with --input keyboard.", key="common.devices.microphone_unopened"
            ) from exc
        self._stream = stream

    def read(self, timeout_s: float) -> bytes | None:
        """One chunk of int16 mono bytes, or ``None`` after ``timeout_s`` seconds."""
        if self._stream is None:
            self.start()
        try:
            self.time_s, chunk = self._queue.get(timeout=max(0.0, timeout_s))
        except queue.Empty:
            return None
        return chunk

    def drain(self) -> None:
        """Throw away everything captured so far."""
        while True:
            try:
                self._queue.get_nowait()
            except queue.Empty:
                return

    def close(self) -> None:
        """Stop and close the stream (safe to call twice)."""
        stream, self._stream = self._stream, None
        if stream is not None:
            try:
                stream.stop()
                stream.close()
            except Exception:  # closing a vanished device must not crash the game
                pass


def read_wav(path: str | Path) -> tuple[np.ndarray, int]:
    """Read a mono 16-bit WAV file.

    :returns: ``(samples, sample_rate)``: int16 array, samples per second.
    :raises ValueError: not mono, not 16-bit, or not a WAV file.
    """
    try:
        with wave.open(str(path), "rb") as wf:
            if wf.getnchannels() != 1 or wf.getsampwidth() != 2:
                raise ValueError(f"{path}: need a mono 16-bit WAV file")
            rate = wf.getframerate()
            data = wf.readframes(wf.getnframes())
    except wave.Error as exc:
        raise ValueError(f"{path}: not a WAV file ({exc})") from exc
    return np.frombuffer(data, dtype="<i2").copy(), rate


class WavSource:
    """Streams a mono int16 WAV file (any sample rate) in chunks, then silence.

    At full speed (default) every :meth:`read` returns the next chunk at once, so a
    recognizer's audio time is deterministic; with ``realtime=True`` reads are paced
    to the wall clock. After the file comes ``trailing_silence_s`` seconds of zeros;
    after that :meth:`read` raises :class:`~voicegame.ports.InputEnded`.
    :meth:`drain` is a no-op: a file holds no audio captured "in the past". The file is
    read chunk by chunk, never whole (a game night's recording is hours long).

    :param path: the WAV file.
    :param realtime: pace reads to real time (``time.sleep`` or ``clock.sleep``).
    :param clock: a :class:`~voicegame.ports.Clock` used for pacing; ``None`` is ``time``.
    :param chunk_s: seconds per chunk.
    :param leading_silence_s: seconds of zeros before the file.
    :param trailing_silence_s: seconds of zeros after the file.
    :param first_channel: also take any other WAV recorders write (8–32-bit PCM, 32/64-bit
        float, extensible headers, any number of channels), read with ``soundfile``
        (libsndfile), of which the first channel is the microphone.
    :raises ValueError: the file is not a mono 16-bit WAV (with ``first_channel``: not a
        sound file libsndfile reads, or holds no audio).
    :raises ImportError, OSError: ``first_channel`` on a file the ``wave`` module cannot take,
        and ``soundfile`` or its libsndfile is missing.
    """

    def __init__(
        self,
        path: str | Path,
        realtime: bool = False,
        clock=None,
        chunk_s: float = 0.1,
        leading_silence_s: float = 0.0,
        trailing_silence_s: float = 3.0,
        first_channel: bool = False,
    ):
        self.path = Path(path)
        self._wav = self._sound = None
        try:
            self._wav = wave.open(str(path), "rb")
        except (wave.Error, EOFError, RuntimeError) as exc:  # (RuntimeError: a chunk past the file's end)
            if not first_channel:
                raise ValueError(f"{path}: not a WAV file ({exc or type(exc).__name__})") from exc
        if self._wav is not None and (self._wav.getnchannels() != 1 or self._wav.getsampwidth() != 2):
            self._wav.close()
            self._wav = None
            if not first_channel:
                raise ValueError(f"{path}: need a mono 16-bit WAV file")
        if self._wav is not None:
            rate, frames = self._wav.getframerate(), self._wav.getnframes()
        else:
            import soundfile

            try:
                self._sound = soundfile.SoundFile(str(path))
            except (RuntimeError, TypeError) as exc:  # soundfile.LibsndfileError is a RuntimeError
                raise ValueError(f"{path}: not a WAV file ({exc})") from exc
            rate, frames = int(self._sound.samplerate), int(self._sound.frames)
            if frames <= 0:
                self._sound.close()
                raise ValueError(f"{path}: holds no audio")
        self.sample_rate = rate
        self.realtime = realtime
        self.clock = clock
        self.chunk_samples = max(1, int(round(chunk_s * rate)))
        self._lead = int(round(leading_silence_s * rate))  # samples of zeros before the file
        self._file_end = self._lead + frames
        self._total = self._file_end + int(round(trailing_silence_s * rate))
        self._pos = 0  # samples handed out
        self._started_at: float | None = None

    def _now(self) -> float:
        return self.clock.now() if self.clock is not None else time.monotonic()

    def start(self) -> None:
        """Begin streaming (starts the real-time pacing reference)."""
        if self._started_at is None:
            self._started_at = self._now()

    def _samples(self, start: int, end: int) -> bytes:
        """Bytes of samples ``start:end`` of lead + file + trail (reads are in order)."""
        out = b""
        if start < self._lead:
            out += bytes(2 * (min(end, self._lead) - start))
        a, b = max(start, self._lead), min(end, self._file_end)
        if b > a:
            data = self._wav.readframes(b - a) if self._wav is not None else self._first_channel(b - a)
            out += data
            if len(data) < 2 * (b - a):
                # a file shorter than its header says (a recording cut off mid-write can claim
                # 2 GB): it ends here, then the trailing silence
                trail = self._total - self._file_end
                self._file_end = a + len(data) // 2
                self._total = self._file_end + trail
                end = min(end, self._total)
        if end > self._file_end:
            out += bytes(2 * (end - max(start, self._file_end)))
        return out

    def _first_channel(self, n: int) -> bytes:
        """The next ``n`` frames of a file libsndfile reads: the first channel as int16 bytes
        (libsndfile scales every PCM width to floats in [-1, 1); clipped)."""
        try:
            block = self._sound.read(n, dtype="float64", always_2d=True)
        except RuntimeError:  # (soundfile.LibsndfileError) damaged past here: the file ends
            return b""
        return np.clip(np.round(block[:, 0] * 32768.0), -32768, 32767).astype("<i2").tobytes()

    def read(self, timeout_s: float) -> bytes | None:
        """The next chunk; paced in real time when ``realtime`` is set.

        :raises InputEnded: the file and its trailing silence are used up.
        """
        self.start()
        if self._pos >= self._total:
            raise InputEnded(f"end of {self.path.name}")
        end = min(self._total, self._pos + self.chunk_samples)
        if self.realtime:
            due = self._started_at + end / self.sample_rate
            wait = due - self._now()
            if wait > timeout_s:
                (self.clock.sleep if self.clock is not None else time.sleep)(max(0.0, timeout_s))
                return None
            if wait > 0:
                (self.clock.sleep if self.clock is not None else time.sleep)(wait)
        chunk = self._samples(self._pos, end)
        self._pos += len(chunk) // 2
        if not chunk:
            raise InputEnded(f"end of {self.path.name}")
        return chunk

    @property
    def position_s(self) -> float:
        """Seconds of audio handed out so far."""
        return self._pos / self.sample_rate

    @property
    def time_s(self) -> float:
        """The source's clock: the end of the last chunk read, in seconds of the file."""
        return self.position_s

    def drain(self) -> None:
        """No-op: a file has no backlog of captured audio."""

    def close(self) -> None:
        """Closes the file; further reads raise :class:`InputEnded`."""
        self._pos = self._total
        for f in (self._wav, self._sound):
            if f is not None:
                f.close()


def device_info(device: int | str | None, kind: str) -> dict:
    """The ``sounddevice`` description of an ``"input"`` or ``"output"`` device that has at
    least one channel (``None``: the default one).

    :raises DeviceError: no such device / no PortAudio (one sentence naming the fix).
    """
    missing = NO_MICROPHONE if kind == "input" else NO_SPEAKER
    key = "common.devices.no_microphone" if kind == "input" else "common.devices.no_speaker"
    sd = import_sounddevice()
    try:
        info = sd.query_devices(device, kind=kind)
    except (sd.PortAudioError, ValueError) as exc:
        raise DeviceError(missing, key=key) from exc
    if not info or int(info.get(f"max_{kind}_channels", 0)) < 1:
        raise DeviceError(missing, key=key)
    return info


def require_output(device: int | str | None = None) -> None:
    """Check that an audio output exists before a game relies on it.

    :raises DeviceError: no speaker / no PortAudio (one sentence naming the fix).
    """
    device_info(device, "output")


def play(samples, sample_rate: int, device: int | str | None = None) -> None:
    """Play mono samples and return when playback has finished.

    :param samples: numpy int16, or float in -1.0..1.0, one channel.
    :param sample_rate: samples per second.
    :param device: a ``sounddevice`` output device index or name; ``None`` is the default.
    :raises DeviceError: no speaker / no PortAudio (one sentence naming the fix).
    """
    data = np.asarray(samples)
    if data.size == 0:
        return
    sd = import_sounddevice()
    try:
        sd.play(data, int(sample_rate), device=device)
        sd.wait()
    except (sd.PortAudioError, ValueError) as exc:
        if device is not None:
            raise DeviceError(
                f"The audio output {device!r} is not available: plug it in, or pick "
                "another device (`voicegame doctor` lists them).", key="common.devices.output_unavailable",
                device=repr(device)) from exc
        raise DeviceError(NO_SPEAKER, key="common.devices.no_speaker") from exc


class Playback:
    """Non-blocking playback that knows when its sound has left the loudspeaker.

    The barge-in side of a voice (:class:`~voicegame.ports.Interruptible`): :meth:`start`
    returns once playback has started; :meth:`speaking_until` is the start time plus
    the samples' duration plus the output stream's latency as ``sounddevice`` reports
    it, on ``time.monotonic()`` (the clock of :class:`MicSource`'s ``time_s``).

    :raises DeviceError: no speaker / no PortAudio (one sentence naming the fix).
    """

    def __init__(self):
        self._until: float | None = None
        self._played: tuple[np.ndarray, float] | None = None  # (16 kHz samples, when they leave)
        self._line: _Line | None = None  # the open stream :meth:`queue` feeds
        self._by_line = False  # the last sound came through :meth:`queue`

    def start(self, samples, sample_rate: int, device: int | str | None = None) -> None:
        """Start playing mono samples (waits for what is playing first)."""
        data = np.asarray(samples)
        self.wait()
        if data.size == 0:
            return
        sd = import_sounddevice()
        try:
            sd.play(data, int(sample_rate), device=device)
            stream = sd.get_stream()
            latency = float(getattr(stream, "latency", 0.0) or 0.0)
        except (sd.PortAudioError, ValueError) as exc:
            raise DeviceError(NO_SPEAKER, key="common.devices.no_speaker") from exc
        started = time.monotonic() + latency  # when the first sample leaves the loudspeaker
        self._until = started + data.shape[0] / float(sample_rate)
        self._by_line = False
        self._remember(data, sample_rate, started, restart=True)

    def queue(self, samples, sample_rate: int, device: int | str | None = None) -> None:
        """Play mono samples right after what :meth:`queue` gave before, with no gap: one open
        output stream is fed piece by piece (a piece that comes after the stream has run dry,
        or at another rate or device, starts a new one). Returns at once.

        :raises DeviceError: no speaker / no PortAudio (one sentence naming the fix).
        """
        data = np.asarray(samples)
        if data.size == 0:
            return
        mono = data if data.ndim == 1 else data[:, 0]
        if mono.dtype.kind == "f":
            mono = np.clip(np.round(mono * 32767.0), -32768, 32767).astype(np.int16)
        mono = np.asarray(mono, dtype=np.int16)
        line = self._line
        if line is not None and (line.rate, line.device) == (int(sample_rate), device):
            at = line.add(mono)
            if at is not None:
                self._until = at + mono.size / float(sample_rate)
                self._remember(mono, sample_rate, at, restart=False)
                return
        self.wait()
        sd = import_sounddevice()
        try:
            line = self._line = _Line(sd, int(sample_rate), device)
        except (sd.PortAudioError, ValueError) as exc:
            raise DeviceError(NO_SPEAKER, key="common.devices.no_speaker") from exc
        at = line.add(mono)
        self._until = at + mono.size / float(sample_rate)
        self._by_line = True
        self._remember(mono, sample_rate, at, restart=True)

    def _remember(self, data, sample_rate: int, started: float, restart: bool) -> None:
        """Keep what leaves the loudspeaker from ``started`` (16 kHz) for :meth:`reference`."""
        mono = data if data.ndim == 1 else data[:, 0]
        if mono.dtype.kind == "f":
            mono = np.clip(np.round(mono * 32767.0), -32768, 32767).astype(np.int16)
        from voicegame.adapters.vad import Resampler

        played = Resampler(int(sample_rate), 16000)(np.asarray(mono, dtype="<i2").tobytes())
        if restart or self._played is None:
            self._played = (played, started)
            return
        before, first = self._played
        at = max(before.size, int(round((started - first) * 16000)))
        joined = np.zeros(at + played.size, dtype=np.int16)
        joined[:before.size] = before
        joined[at:] = played
        self._played = (joined, first)

    def reference(self, start_s: float, samples: int) -> np.ndarray:
        """What leaves the loudspeaker from ``start_s`` (``time.monotonic()``) for ``samples``
        samples at 16 kHz (int16, zeros where nothing plays): the echo canceller's reference."""
        out = np.zeros(int(samples), dtype=np.int16)
        if self._played is None:
            return out
        played, started = self._played
        i = int(round((start_s - started) * 16000))
        a, b = max(0, i), min(played.size, i + out.size)
        if b > a:
            out[a - i:b - i] = played[a:b]
        return out

    def speaking_until(self) -> float | None:
        """``time.monotonic()`` seconds when the sound has left the loudspeaker, or ``None``."""
        if self._until is None or self._until <= time.monotonic():
            self._until = None
        return self._until

    def stop(self) -> None:
        """Stop playback now (what is in the output buffer still sounds for its latency)."""
        if self._until is None:
            return
        sd = import_sounddevice()
        line, self._line = self._line, None
        try:
            if line is not None:
                latency = line.latency
                line.close()
            elif self._by_line:
                latency = 0.0
            else:
                latency = float(getattr(sd.get_stream(), "latency", 0.0) or 0.0)
                sd.stop()
        except (sd.PortAudioError, ValueError, RuntimeError):
            latency = 0.0
        self._until = time.monotonic() + latency
        if self._played is not None:  # what was never played is no echo
            played, started = self._played
            self._played = (played[: max(0, int(round((self._until - started) * 16000)))], started)

    def wait(self) -> None:
        """Return when the current sound has finished playing."""
        if self._until is None:
            return
        sd = import_sounddevice()
        line = self._line
        try:
            if line is not None:
                line.finished.wait(max(0.0, (self._until or 0.0) - time.monotonic()) + 2.0)
                self._line = None
                line.close()
            elif not self._by_line:
                sd.wait()
        except (sd.PortAudioError, ValueError, RuntimeError):
            pass
        left = (self._until or 0.0) - time.monotonic()
        if 0 < left < 2.0:
            time.sleep(left)  # the output latency: the sound is still on its way out
        self._until = None


class _Line:
    """One open output stream that plays int16 mono pieces back to back (:meth:`Playback.queue`).

    The PortAudio callback only copies samples (under a lock held for that copy) and fills with
    zeros when it runs short; the first time it runs short it ends the stream (``CallbackStop``:
    what is buffered still plays), and :meth:`add` then answers ``None``.
    """

    def __init__(self, sd, rate: int, device):
        self.rate, self.device, self._sd = rate, device, sd
        self._pieces: list[np.ndarray] = []
        self._pos = 0  # samples of the first piece already given
        self._lock = threading.Lock()
        self._ended = False  # the callback ran dry: nothing more can be added
        self._queued_s = 0.0  # seconds queued since the stream started
        self.finished = threading.Event()
        self._stream = sd.OutputStream(samplerate=rate, device=device, channels=1, dtype="int16",
                                       callback=self._callback, finished_callback=self.finished.set)
        self.latency = float(getattr(self._stream, "latency", 0.0) or 0.0)
        self._t0: float | None = None

    def add(self, samples: np.ndarray) -> float | None:
        """Queue ``samples``; returns when (``time.monotonic()``) they leave the loudspeaker, or
        ``None`` when the stream has already ended (the caller opens a new one)."""
        with self._lock:
            if self._ended:
                return None
            self._pieces.append(samples)
            first = self._t0 is None
            if first:
                self._t0 = time.monotonic() + self.latency
            at = self._t0 + self._queued_s
            self._queued_s += samples.size / float(self.rate)
        if first:
            self._stream.start()
        return at

    def _callback(self, outdata, frames, time_info, status) -> None:
        out = outdata[:, 0] if outdata.ndim == 2 else outdata
        filled = 0
        with self._lock:
            while filled < frames and self._pieces:
                piece = self._pieces[0]
                n = min(frames - filled, piece.size - self._pos)
                out[filled:filled + n] = piece[self._pos:self._pos + n]
                filled, self._pos = filled + n, self._pos + n
                if self._pos >= piece.size:
                    self._pieces.pop(0)
                    self._pos = 0
            out[filled:] = 0
            if filled < frames:
                self._ended = True
        if filled < frames:
            raise self._sd.CallbackStop

    def close(self) -> None:
        """Stop the stream now and free it (safe to call twice)."""
        with self._lock:
            self._ended = True
            self._pieces.clear()
        try:
            self._stream.abort()  # what is buffered is dropped: a barge-in stops the host now
            self._stream.close()
        finally:
            self.finished.set()
