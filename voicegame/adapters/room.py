"""A simulated room: a microphone that hears players AND the host's own loudspeaker.

For tests and ``voicegame bench`` (no audio hardware): :class:`Room` is an
:class:`~voicegame.adapters.audio.AudioSource` that streams a players' track (with
any noise already mixed in) and adds whatever :class:`RoomVoice` plays, after the
output latency, through a reverberant impulse response and ``leak_db`` quieter.
Time is the room's audio time (seconds of microphone audio handed out), which both
the microphone (``time_s``) and the voice (``speaking_until()``) use, so a full-speed
run is deterministic. :class:`RoomPlayback` is the same loudspeaker for a real voice adapter
(its ``playback``): the pieces it queues play one after the other into the room.
"""

from __future__ import annotations

import numpy as np

from voicegame.ports import InputEnded

RATE = 16000


def impulse_response(rt60_s: float = 0.4, rate: int = RATE, seed: int = 0, direct_s: float = 0.003) -> np.ndarray:
    """A synthetic reverberant room response: a direct path, then decaying noise.

    :param rt60_s: seconds for the reverberation to fall by 60 dB.
    :param direct_s: seconds from loudspeaker to microphone (direct path).
    :returns: float64 samples of unit energy (the sound's level is kept).
    """
    rng = np.random.default_rng(seed)
    n = int(rt60_s * rate)
    t = np.arange(n) / rate
    tail = rng.normal(0.0, 1.0, n) * 10 ** (-3.0 * t / rt60_s) * 0.3
    ir = np.zeros(int(direct_s * rate) + n)
    ir[int(direct_s * rate)] = 1.0
    ir[int(direct_s * rate) + 1:] += tail[:-1] if n > 1 else 0.0
    return ir / np.sqrt(np.sum(ir * ir))


class Room:
    """The microphone of a simulated room.

    :param track: int16 samples at 16 kHz: the players (and noise) as the microphone hears them.
    :param latency_s: output latency: seconds from a voice's ``say()`` starting
        playback to its sound leaving the loudspeaker.
    :param ir: the room's impulse response (:func:`impulse_response`); ``None``: direct only.
    :param leak_db: level of the loudspeaker at the microphone, relative to what was played.
    :param chunk_s: seconds per :meth:`read`.
    :param trailing_s: seconds of the track's end before :class:`InputEnded`.
    """

    sample_rate = RATE

    def __init__(self, track, latency_s: float = 0.0, ir=None, leak_db: float = -10.0,
                 chunk_s: float = 0.05, trailing_s: float = 0.0):
        self.track = np.concatenate([np.asarray(track, dtype=np.float64),
                                     np.zeros(int(trailing_s * RATE))])
        self.latency_s = float(latency_s)
        self.ir = np.asarray(ir if ir is not None else [1.0], dtype=np.float64)
        self.gain = 10 ** (leak_db / 20)
        self.chunk = max(1, int(round(chunk_s * RATE)))
        self.pos = 0  # samples handed out
        self.echo = np.zeros_like(self.track)

    @property
    def time_s(self) -> float:
        """The room clock: seconds of microphone audio handed out so far."""
        return self.pos / RATE

    def play(self, samples, start_s: float) -> None:
        """Add played samples (16 kHz) leaving the loudspeaker at ``start_s`` (room clock)."""
        x = np.asarray(samples, dtype=np.float64)
        if x.size == 0:
            return
        wet = np.convolve(x, self.ir)[: x.size + self.ir.size - 1] * self.gain
        i = int(round(start_s * RATE))
        if i >= self.echo.size:
            return
        wet = wet[: self.echo.size - i]
        self.echo[i:i + wet.size] += wet

    def cut(self, from_s: float, samples, start_s: float) -> None:
        """Remove what was played from ``from_s`` on (a stopped voice): subtract its echo."""
        x = np.asarray(samples, dtype=np.float64).copy()
        k = int(round((from_s - start_s) * RATE))
        if k >= x.size:
            return
        x[: max(0, k)] = 0.0
        self.play(-x, start_s)

    def start(self) -> None:
        """Nothing to open."""

    def drain(self) -> None:
        """No backlog: a simulated microphone is read as it is made."""

    def close(self) -> None:
        """Further reads raise :class:`InputEnded`."""
        self.pos = self.track.size

    def read(self, timeout_s: float) -> bytes:
        """The next chunk of the microphone (players + the loudspeaker's echo).

        :raises InputEnded: the track is used up.
        """
        if self.pos >= self.track.size:
            raise InputEnded("end of the room's track")
        end = min(self.track.size, self.pos + self.chunk)
        x = self.track[self.pos:end] + self.echo[self.pos:end]
        self.pos = end
        return np.clip(np.round(x), -32768, 32767).astype("<i2").tobytes()


class RoomVoice:
    """A :class:`~voicegame.ports.Voice` and :class:`~voicegame.ports.Interruptible`
    that plays into a :class:`Room`.

    :param room: the room.
    :param synthesize: ``synthesize(text) -> int16 samples at 16 kHz``.
    """

    def __init__(self, room: Room, synthesize):
        self.room = room
        self.synthesize = synthesize
        self.said: list[str] = []
        #: room seconds at which stop() was called, one per call.
        self.stopped_at: list[float] = []
        self._current = None  # (samples, start_s)

    def say(self, text: str, to: str | None = None) -> None:
        """Start playing ``text`` now (room clock); the sound leaves after the latency."""
        self.said.append(text)
        start = max(self.room.time_s, self._end()) + self.room.latency_s
        samples = self.synthesize(text)
        self.room.play(samples, start)
        self._current = (samples, start)

    def tone(self, frequency_hz: float, duration_s: float = 0.12, label: str = "") -> None:
        """A tone is not simulated."""

    def adjust(self, rate_step: int = 0, volume_step: int = 0) -> None:
        """Nothing to adjust."""

    def _end(self) -> float:
        if self._current is None:
            return 0.0
        samples, start = self._current
        return start + len(samples) / RATE

    def speaking_until(self) -> float | None:
        """Room seconds when the current sound has left the loudspeaker, or ``None``."""
        end = self._end()
        return end if self._current is not None and end > self.room.time_s else None

    def reference(self, start_s: float, samples: int) -> np.ndarray:
        """What leaves the loudspeaker from ``start_s`` (room clock) for ``samples`` samples
        (int16 at 16 kHz, zeros where nothing plays): the echo canceller's reference."""
        out = np.zeros(int(samples), dtype=np.int16)
        if self._current is None:
            return out
        played, start = self._current
        i = int(round((start_s - start) * RATE))
        a, b = max(0, i), min(len(played), i + out.size)
        if b > a:
            out[a - i:b - i] = np.asarray(played[a:b], dtype=np.int16)
        return out

    def stop(self) -> None:
        """Stop now: what has not yet left the loudspeaker (after the latency) is cut."""
        self.stopped_at.append(self.room.time_s)
        if self._current is None:
            return
        samples, start = self._current
        cut_from = self.room.time_s + self.room.latency_s
        self.room.cut(cut_from, samples, start)
        keep = max(0, int(round((cut_from - start) * RATE)))
        self._current = (samples[:keep], start)

    def wait(self) -> None:
        """The room clock runs only when the microphone is read: nothing to wait for."""


class RoomPlayback:
    """A voice's barge-in playback (:class:`~voicegame.adapters.audio.Playback`'s ``queue``,
    ``start``, ``speaking_until``, ``reference``, ``stop``, ``wait``) that plays into a
    :class:`Room`: each piece leaves the loudspeaker right after the one before (or after the
    latency, when nothing plays), on the room clock.

    :param room: the room.
    """

    def __init__(self, room: Room):
        self.room = room
        self.pieces: list[tuple[np.ndarray, float]] = []  # (16 kHz samples, start_s), what is playing
        #: room seconds at which stop() was called, one per call.
        self.stopped_at: list[float] = []

    def _end(self) -> float:
        return max((start + len(x) / RATE for x, start in self.pieces), default=0.0)

    def queue(self, samples, sample_rate: int, device=None) -> None:
        """Play int16 mono samples right after what is queued (the room clock's now, if nothing is)."""
        from voicegame.adapters.vad import Resampler

        x = Resampler(int(sample_rate), RATE)(np.asarray(samples, dtype="<i2").tobytes())
        if self._end() <= self.room.time_s + self.room.latency_s:
            self.pieces = []
        start = max(self.room.time_s + self.room.latency_s, self._end())
        self.room.play(x, start)
        self.pieces.append((x, start))

    start = queue

    def speaking_until(self) -> float | None:
        """Room seconds when the queued sound has left the loudspeaker, or ``None``."""
        end = self._end()
        return end if self.pieces and end > self.room.time_s else None

    def reference(self, start_s: float, samples: int) -> np.ndarray:
        """What leaves the loudspeaker from ``start_s`` (room clock) for ``samples`` samples (16 kHz)."""
        out = np.zeros(int(samples), dtype=np.int16)
        for played, start in self.pieces:
            i = int(round((start_s - start) * RATE))
            a, b = max(0, i), min(len(played), i + out.size)
            if b > a:
                out[a - i:b - i] = played[a:b]
        return out

    def stop(self) -> None:
        """Stop now: what has not yet left the loudspeaker (after the latency) is cut."""
        self.stopped_at.append(self.room.time_s)
        cut_from = self.room.time_s + self.room.latency_s
        kept = []
        for played, start in self.pieces:
            self.room.cut(cut_from, played, start)
            keep = max(0, int(round((cut_from - start) * RATE)))
            if keep:
                kept.append((played[:keep], start))
        self.pieces = kept

    def wait(self) -> None:
        """The room clock runs only when the microphone is read: nothing to wait for."""
