"""Short sine tones: cues, and the Wavelength dial heard as pitch.

:func:`dial_tone_hz` maps a dial angle to a pitch so the psychic (or a blind
player) can hear where the dial points: low = left (0°), high = right (180°).
"""

from __future__ import annotations

import math

import numpy as np

DIAL_LOW_HZ = 220.0   # dial at 0° (far left)
DIAL_HIGH_HZ = 880.0  # dial at 180° (far right): two octaves up


def sine_tone(frequency_hz: float, duration_s: float, sample_rate: int = 22050,
              volume: float = 0.3) -> np.ndarray:
    """A sine tone with a 10 ms fade in and out (no clicks).

    :param frequency_hz: pitch in Hz (> 0).
    :param duration_s: length in seconds (≥ 0).
    :param sample_rate: samples per second.
    :param volume: peak amplitude, 0.0–1.0 of full scale.
    :returns: int16 mono samples, ``round(duration_s * sample_rate)`` long.
    :raises ValueError: a non-positive frequency or sample rate, or a negative duration.
    """
    if frequency_hz <= 0 or sample_rate <= 0 or duration_s < 0:
        raise ValueError("need frequency_hz > 0, sample_rate > 0 and duration_s >= 0")
    n = int(round(duration_s * sample_rate))
    t = np.arange(n) / sample_rate
    wave = np.sin(2 * math.pi * frequency_hz * t)
    fade = min(n // 2, int(0.01 * sample_rate))
    if fade > 0:
        ramp = np.linspace(0.0, 1.0, fade, endpoint=False)
        wave[:fade] *= ramp
        wave[n - fade:] *= ramp[::-1]
    amplitude = max(0.0, min(1.0, volume)) * 32767
    return np.round(wave * amplitude).astype(np.int16)


def dial_tone_hz(angle_deg: float) -> float:
    """The pitch for a dial angle: 220 Hz at 0° rising exponentially to 880 Hz at 180°.

    Equal angle steps are equal musical intervals (one octave per 90°). Angles
    outside 0–180° are clamped.

    :param angle_deg: dial angle in degrees, 0 = far left, 180 = far right.
    :returns: frequency in Hz.
    """
    a = max(0.0, min(180.0, float(angle_deg)))
    return DIAL_LOW_HZ * (DIAL_HIGH_HZ / DIAL_LOW_HZ) ** (a / 180.0)
