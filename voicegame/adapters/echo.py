"""Acoustic echo cancellation: the host's own voice taken out of the microphone.

The listener hands every microphone frame (int16 mono at 16 kHz) together with the
sound that left the loudspeaker at the same moment (the *reference*, from the voice's
``reference()``, see :class:`~voicegame.ports.EchoReference`) to a canceller, and
listens to what comes out: the players, with the host's echo 30–40 dB lower
(docs/performance.md, section 7). Because the voice knows its output latency, the
reference arrives already lined up with its echo, so the canceller's filter only
has to learn the room (its reverberation), not the delay.

- :class:`SpeexEcho` — Speex's MDF echo canceller with its residual-echo
  suppressor, through ``pyaec`` (a prebuilt wheel of libspeexdsp's ``mdf.c``). Kept.
- :class:`WebrtcEcho` — WebRTC's audio-processing module (AEC3) through
  ``aec-audio-processing`` when it is installed (it builds from source: not a
  dependency), for comparison in ``voicegame bench``.

Both keep their adaptive filter between calls: make one per room (per listener) and
keep it, so it converges once, on the first prompt, and stays converged.
"""

from __future__ import annotations

import ctypes

import numpy as np

from voicegame.ports import DeviceError

RATE = 16000


class SpeexEcho:
    """Speex MDF echo cancellation (``pyaec``) on frames of ``frame_samples`` at 16 kHz.

    :param frame_samples: samples per frame (the voice detector's frame: 512 or 480).
    :param filter_s: seconds of room response the filter models (0.128 s = 2048 taps:
        the direct path and the loud part of the reverberation; longer filters
        converged slower and cancelled less in the benchmark).
    :param preprocess: also run Speex's residual-echo suppressor (and its noise
        suppressor) on the output.
    :raises DeviceError: ``pyaec`` is not installed.
    """

    name = "speex"

    def __init__(self, frame_samples: int = 512, filter_s: float = 0.128, preprocess: bool = True):
        try:
            import pyaec
        except (ImportError, OSError) as exc:
            raise DeviceError("The echo canceller is missing: run `pip install pyaec`.") from exc
        self.frame_samples = int(frame_samples)
        self._pyaec = pyaec
        self._handle = pyaec.lib.AecNew(self.frame_samples, int(round(filter_s * RATE)), RATE, bool(preprocess))
        if not self._handle:
            raise DeviceError("The echo canceller could not start: reinstall it with `pip install pyaec`.")
        self._out = np.zeros(self.frame_samples, dtype=np.int16)

    def __call__(self, mic: np.ndarray, reference: np.ndarray) -> np.ndarray:
        """The microphone frame with the reference's echo taken out (int16, same length).

        :param mic: int16 microphone samples, ``frame_samples`` long.
        :param reference: int16 samples that left the loudspeaker over the same span.
        """
        ptr = ctypes.POINTER(ctypes.c_int16)
        m = np.ascontiguousarray(mic, dtype=np.int16)
        r = np.ascontiguousarray(reference, dtype=np.int16)
        out = np.empty(self.frame_samples, dtype=np.int16)
        self._pyaec.lib.AecCancelEcho(self._handle, m.ctypes.data_as(ptr), r.ctypes.data_as(ptr),
                                      out.ctypes.data_as(ptr), self.frame_samples)
        return out

    def __del__(self):
        handle, self._handle = getattr(self, "_handle", None), None
        if handle:
            self._pyaec.lib.AecDestroy(handle)


class WebrtcEcho:
    """WebRTC APM echo cancellation (``aec-audio-processing``), 10 ms sub-frames.

    :param frame_samples: samples per frame handed in (a multiple of 160).
    :raises DeviceError: ``aec-audio-processing`` is not installed.
    """

    name = "webrtc"

    def __init__(self, frame_samples: int = 480):
        try:
            from aec_audio_processing import AudioProcessor
        except (ImportError, OSError) as exc:
            raise DeviceError("The WebRTC echo canceller is missing: run "
                              "`pip install aec-audio-processing`.") from exc
        self.frame_samples = int(frame_samples)
        self._ap = AudioProcessor(enable_aec=True, enable_ns=False, enable_agc=False)
        self._ap.set_stream_format(RATE, 1, RATE, 1)
        self._ap.set_reverse_stream_format(RATE, 1)
        self._ap.set_stream_delay(0)

    def __call__(self, mic: np.ndarray, reference: np.ndarray) -> np.ndarray:
        """The microphone frame with the reference's echo taken out (int16, same length)."""
        out = []
        for i in range(0, self.frame_samples - 159, 160):
            self._ap.process_reverse_stream(np.asarray(reference[i:i + 160], dtype="<i2").tobytes())
            out.append(np.frombuffer(self._ap.process_stream(np.asarray(mic[i:i + 160], dtype="<i2").tobytes()),
                                     dtype="<i2"))
        got = np.concatenate(out) if out else np.zeros(0, np.int16)
        return np.concatenate([got, np.asarray(mic[got.size:], dtype=np.int16)]).astype(np.int16)


ECHOS = {"speex": SpeexEcho, "webrtc": WebrtcEcho}


def make_echo(name: str = "speex", frame_samples: int = 512, **options):
    """An echo canceller by name (``"speex"`` or ``"webrtc"``) for frames of ``frame_samples``
    (``options`` go to its class, e.g. ``preprocess=False``).

    :raises ValueError: unknown name. :raises DeviceError: its package is missing.
    """
    try:
        cls = ECHOS[name]
    except KeyError:
        raise ValueError(f"unknown echo canceller {name!r}: use one of {', '.join(ECHOS)}") from None
    return cls(frame_samples, **options)
