"""A voice on a Wyoming TTS server (``wyoming-piper`` and the like) behind the ``Voice`` port.

Each sentence is one ``Synthesize`` event (text with numbers already read as words,
the voice chosen by name or language); the server answers ``AudioStart``,
``AudioChunk``\\ s and ``AudioStop``, and the samples are played through sounddevice by
the espeak adapter's playing half, which :class:`WyomingVoice` inherits (private
audiences, the known end of playback, the barge-in hook, tones, volume). Wyoming has
no speaking rate, so ``adjust`` changes only the volume and the fallback's rate.

A server that cannot be reached or drops the connection is tried once more at
once; then the table hears ``lost_sentence`` once, and this voice speaks with
espeak-ng (its own parent) until the server answers again (asked again every
``retry_s`` seconds, :data:`RETRY_S` by default). A game never stops for a lost speech server.
"""

from __future__ import annotations

import logging
import time

import numpy as np

from voicegame.adapters import tts
from voicegame.adapters.wyoming_client import Address, Connection, ServerLost, describe
from voicegame.language.speakable import speakable
from voicegame.models import language_name
from voicegame.ports import DeviceError

log = logging.getLogger(__name__)
RETRY_S = 10.0


def candidate_voices(info, lang: str, name: str | None = None) -> list[str]:
    """The server's voices called ``name``, or (``None``) all its voices of ``lang``, in its order."""
    found = []
    for program in info.tts or ():
        for voice in program.voices or ():
            if voice.installed is False:
                continue
            codes = {c.replace("-", "_").split("_")[0].lower() for c in voice.languages or ()}
            if (name is not None and voice.name == name) or (name is None and lang in codes):
                found.append(voice.name)
    return found


#: (address, lang, asked name) → the voice that answered (a server is probed once per process)
_SPOKEN: dict[tuple, str] = {}


def probe(address: Address, voice: str, timeout_s: float) -> bool:
    """True when the server speaks a short word with ``voice`` (it may list voices it does not have:
    wyoming-piper advertises its whole catalogue and answers an error for one not on disk)."""
    from wyoming.audio import AudioStart
    from wyoming.tts import Synthesize, SynthesizeVoice

    conn = Connection(address, timeout_s)
    try:
        conn.send(Synthesize(text="ok", voice=SynthesizeVoice(name=voice)))
        while True:
            event = conn.receive()
            if AudioStart.is_type(event.type):
                return True
            if event.type == "error":
                return False
    finally:
        conn.close()


class WyomingVoice(tts.Pyttsx3Voice):
    """A :class:`~voicegame.ports.Voice` speaking through a Wyoming TTS server.

    :param address: the server (:func:`~voicegame.adapters.wyoming_client.parse_url`).
    :param lang: game language (numbers read as words in it; the server's voice of it).
    :param voice: a voice name the server offers, or ``None`` for its first voice of ``lang``.
    :param lost_sentence: said (with espeak-ng) once when the server is lost.
    :param timeout_s: seconds a connect or the wait for one event may take.
    :param retry_s: seconds between tries of a lost server.
    The other parameters are :class:`~voicegame.adapters.tts.Pyttsx3Voice`'s.
    :raises DeviceError: the server is unreachable at start, or speaks no voice of ``lang``.
    """

    def __init__(self, address: Address, lang: str = "en", voice: str | None = None, *,
                 lost_sentence: str | None = None, timeout_s: float = 10.0, retry_s: float = RETRY_S, **kwargs):
        self.address = address
        self.asked_voice = voice
        self.server_voice: str | None = None
        self.lost_sentence = lost_sentence
        self.retry_s = retry_s
        self.lost_at: float | None = None  # time.monotonic() when the server was lost, or None
        self._conn: Connection | None = None
        super().__init__(lang, timeout_s=timeout_s, **kwargs)

    def verify(self) -> str:
        """Find the server's first voice of the language (or the one asked for) that really
        speaks; returns its name. :raises DeviceError: see the class."""
        key = (self.address, self.lang, self.asked_voice)
        found = _SPOKEN.get(key)
        if found is None:
            info = describe(self.address, self.timeout_s)
            found = next((v for v in candidate_voices(info, self.lang, self.asked_voice)
                          if probe(self.address, v, 3 * self.timeout_s)), None)  # a first word loads the voice
        if found is None:
            wanted = f"voice {self.asked_voice}" if self.asked_voice else f"{language_name(self.lang)} voice"
            raise DeviceError(f"The speech server {self.address} has no {wanted}: install one there, "
                              "or use --tts espeak.")
        self.server_voice = _SPOKEN[key] = found
        return found

    def _remote(self, spoken: str) -> tuple[np.ndarray, int]:
        from wyoming.audio import AudioChunk, AudioStart, AudioStop
        from wyoming.tts import Synthesize, SynthesizeVoice

        if self._conn is None:
            self._conn = Connection(self.address, self.timeout_s)
        conn = self._conn
        conn.send(Synthesize(text=spoken, voice=SynthesizeVoice(name=self.server_voice)))
        rate, width, channels, parts = 22050, 2, 1, []
        while True:
            event = conn.receive()
            if AudioStart.is_type(event.type):
                start = AudioStart.from_event(event)
                rate, width, channels = start.rate, start.width, start.channels
            elif AudioChunk.is_type(event.type):
                parts.append(AudioChunk.from_event(event).audio)
            elif AudioStop.is_type(event.type):
                break
            elif event.type == "error":
                raise ServerLost(f"The speech server {self.address} failed: {event.data.get('text', '')}")
        if width != 2:
            raise ServerLost(f"The speech server {self.address} sends {8 * width}-bit audio; 16-bit is needed.")
        samples = np.frombuffer(b"".join(parts), dtype="<i2")
        if channels > 1:
            samples = samples.reshape(-1, channels)[:, 0]
        return samples.copy(), int(rate)

    def _server(self, spoken: str) -> tuple[np.ndarray, int] | None:
        """The server's speech, or ``None`` while it is lost (one retry on a dropped connection)."""
        if self.lost_at is not None and time.monotonic() - self.lost_at < self.retry_s:
            return None
        for attempt in (1, 2):
            try:
                result = self._remote(spoken)
            except ServerLost as exc:
                self._conn = None
                if attempt == 2:
                    first = self.lost_at is None
                    self.lost_at = time.monotonic()
                    if first:
                        log.warning("speech server lost: %s", exc)
                    return None
                continue
            if self.lost_at is not None:
                log.info("speech server %s answers again", self.address)
                self.lost_at = None
            return result
        return None

    def synthesize(self, text: str) -> tuple[np.ndarray, int]:
        """Speech for ``text`` from the server (espeak-ng while it is lost), volume applied.

        :returns: ``(samples, sample_rate)``: int16 mono (empty for nothing to say).
        :raises DeviceError: the server is lost and espeak-ng is missing too.
        """
        spoken = speakable(text, self.lang).strip()
        if not spoken:
            return np.zeros(0, dtype=np.int16), tts.TONE_RATE
        was_lost = self.lost_at is not None
        result = self._server(spoken)
        if result is None:
            fallback = text if was_lost or not self.lost_sentence else f"{self.lost_sentence} {text}"
            return tts.Pyttsx3Voice.synthesize(self, fallback)
        samples, rate = result
        if self.volume != 1.0:
            samples = np.round(samples.astype(np.float64) * self.volume).astype(np.int16)
        return samples, rate
