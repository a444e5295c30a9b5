"""The playing half shared by the voices that speak a prompt piece by piece (Piper, Wyoming).

A neural voice makes a sentence in one inference, so the table would wait for the whole
first sentence before hearing anything. :class:`PieceVoice` plays the prompt as its
subclass makes it, one piece at a time (a clause, :func:`voicegame.language.clauses.clauses`,
or a sentence): the first piece sounds as soon as it is made, the next one is made while
it plays and is queued right behind it with no gap (:meth:`voicegame.adapters.audio.Playback.queue`).

The contract is the espeak adapter's (:class:`~voicegame.adapters.tts.Pyttsx3Voice`, whose
playing half this inherits: private audiences, rate, volume, tones, ``adjust``):

- through a blocking ``player`` (no barge-in, or a private audience) :meth:`say` returns when
  the last piece has played; the default player (:func:`~voicegame.adapters.audio.play`) is
  replaced by one gapless stream per prompt; an injected player gets one call per piece;
- with barge-in, :meth:`say` returns once the first piece plays; a feeder thread queues the
  rest as they are made; :meth:`speaking_until` is the end of what is queued (at least one
  frame from now while pieces are still coming); :meth:`stop` (a player cut in) ends the
  sound now and queues nothing more, between pieces or inside one.
"""

from __future__ import annotations

import threading
import time
from typing import Iterator

import numpy as np

from voicegame.adapters import audio, tts
from voicegame.language.clauses import clauses
from voicegame.language.speakable import speakable
from voicegame.ports import DeviceError

Piece = tuple[np.ndarray, int]  # (int16 mono samples, samples per second)
_SPEAKER = audio.play  # the real player (a test that replaces audio.play gets its calls)


class PieceVoice(tts.Pyttsx3Voice):
    """Base of a voice whose :meth:`pieces` yields a prompt's speech piece by piece.

    :param by_clause: cut each sentence at its clauses (``False``: a piece per sentence).
    The other parameters are :class:`~voicegame.adapters.tts.Pyttsx3Voice`'s.
    """

    def __init__(self, lang: str = "en", *, by_clause: bool = True, **kwargs):
        self.by_clause = by_clause
        super().__init__(lang, **kwargs)

    def split(self, text: str) -> list[tuple[str, str]]:
        """``(written, spoken)`` of each piece of ``text``: its clauses (``by_clause``; else the
        whole text), spoken with numbers as words; pieces with nothing to say dropped."""
        texts = clauses(text) if self.by_clause else [text]
        return [(t, s) for t, s in ((t, speakable(t, self.lang).strip()) for t in texts) if s]

    def pieces(self, text: str) -> Iterator[Piece]:
        """Speech for ``text``, piece by piece, volume applied; the subclass makes the next piece
        while the caller plays this one. :raises DeviceError: the engine fails or hangs."""
        raise NotImplementedError

    def synthesize(self, text: str) -> tuple[np.ndarray, int]:
        """Speech for ``text`` (numbers read as words, rate and volume applied), not played.

        :returns: ``(samples, sample_rate)``: int16 mono (empty for text with nothing to say).
        :raises DeviceError: the engine hangs or fails.
        """
        parts = list(self.pieces(text))
        if not parts:
            return np.zeros(0, dtype=np.int16), tts.TONE_RATE
        rate = parts[0][1]
        return np.concatenate([s if r == rate else _resampled(s, r, rate) for s, r in parts]), rate

    def say(self, text: str, to: str | None = None) -> None:
        """Speak ``text``, playing each piece as soon as it is made (see the module docstring).

        :param to: a private audience (``private_devices[to]``, else the normal output).
        :raises DeviceError: no speaker, engine hung (raised at once for the first piece).
        """
        self.wait()
        parts = self.pieces(text)
        if self.playback is None or to is not None:
            self._say_blocking(parts, to)
            return
        first = next(parts, None)
        if first is None:
            return
        gapless = hasattr(self.playback, "queue")
        queue = self.playback.queue if gapless else self.playback.start
        queue(first[0], first[1], self._device(None))
        stopped = self._stopped = threading.Event()

        def feed():
            try:
                for samples, rate in parts:
                    if not gapless:
                        self.playback.wait()  # start() would wait holding the lock stop() needs
                    with self._starting:
                        if stopped.is_set():
                            return
                        queue(samples, rate, self._device(None))
            except DeviceError:
                pass  # a later piece lost: the prompt ends there (the next say raises)
            finally:
                parts.close()  # a stopped prompt: the engine drops what it was making

        self._feeder = threading.Thread(target=feed, name="voicegame-voice-feed", daemon=True)
        self._feeder.start()

    def _say_blocking(self, parts: Iterator[Piece], to: str | None) -> None:
        device = self._device(to)
        if self.player is not _SPEAKER:  # an injected player: one call per piece
            for samples, rate in parts:
                if samples.size:
                    self.player(samples, rate, device)
            return
        line = audio.Playback()  # the real speaker: one gapless stream for the prompt
        try:
            for samples, rate in parts:
                line.queue(samples, rate, device)
        finally:
            line.wait()

    _feeder: threading.Thread | None = None
    _stopped: threading.Event | None = None
    _starting = threading.Lock()  # a piece's queueing and stop() never cross

    def speaking_until(self) -> float | None:
        """When the prompt has left the loudspeaker (``time.monotonic()``); while later pieces
        are still coming, at least one frame from now."""
        until = super().speaking_until()
        if self._feeder is not None and self._feeder.is_alive():
            return max(until or 0.0, time.monotonic() + 0.032)
        return until

    def stop(self) -> None:
        """Stop the current prompt at once, the pieces not yet played included."""
        with self._starting:
            if self._stopped is not None:
                self._stopped.set()
            super().stop()

    def wait(self) -> None:
        """Return when the whole prompt has played."""
        if self._feeder is not None:
            self._feeder.join()
        super().wait()


def _resampled(samples: np.ndarray, rate: int, to: int) -> np.ndarray:
    """int16 mono ``samples`` at ``rate`` as samples at ``to`` (a fallback voice's piece)."""
    from voicegame.adapters.vad import Resampler

    return Resampler(rate, to)(np.asarray(samples, dtype="<i2").tobytes())
