"""A voice on a Wyoming TTS server (``wyoming-piper`` and the like) behind the ``Voice`` port.

A prompt is cut into clauses (:func:`voicegame.language.clauses.clauses`; ``by_clause=False``:
the whole prompt in one request) and each clause is one ``Synthesize`` event on the one kept
connection (text with numbers already read as words, the voice chosen by name or language);
the server answers ``AudioStart``, ``AudioChunk``\\ s and ``AudioStop``. As soon as a clause's
audio is in, the next clause is asked for, so the server makes it while this one plays; the
pieces are played by :class:`~voicegame.adapters.clause_voice.PieceVoice` (the espeak
adapter's playing half: private audiences, the known end of playback, the barge-in hook,
tones, volume; the first clause plays at once, the rest queue behind it with no gap). A
stopped prompt reads and drops the one answer still on its way, so the connection stays in step.

Why one ``Synthesize`` per clause rather than wyoming-piper 2.5's streaming events
(``SynthesizeStart``/``SynthesizeChunk``/``SynthesizeStop``): its handler feeds the chunks to a
sentence-boundary detector and synthesises only whole sentences, so a clause sent as a chunk
waits for its sentence's end, and the first audio would still be the whole first sentence's;
and a server without streaming (``--no-streaming``, other programs) answers ``Synthesize`` too.
wyoming-piper adds a full stop to a clause that ends with a comma (``--auto-punctuation``);
Piper phonemises "Red team,." as "Red team," (the same phonemes), so that changes nothing.

Wyoming has no speaking rate, so ``adjust`` changes only the volume and the fallback's rate.

A server that cannot be reached or drops the connection is tried once more at
once; then the table hears ``lost_sentence`` once, and this voice speaks the rest of the
prompt with espeak-ng (its own parent) until the server answers again (asked again every
``retry_s`` seconds, :data:`RETRY_S` by default). A game never stops for a lost speech server.
"""

from __future__ import annotations

import logging
import time

import numpy as np

from voicegame.adapters import tts
from voicegame.adapters.clause_voice import PieceVoice
from voicegame.adapters.wyoming_client import Address, Connection, ServerLost, describe
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


class WyomingVoice(PieceVoice):
    """A :class:`~voicegame.ports.Voice` speaking through a Wyoming TTS server.

    :param address: the server (:func:`~voicegame.adapters.wyoming_client.parse_url`).
    :param lang: game language (numbers read as words in it; the server's voice of it).
    :param voice: a voice name the server offers, or ``None`` for its first voice of ``lang``.
    :param lost_sentence: said (with espeak-ng) once when the server is lost.
    :param timeout_s: seconds a connect or the wait for one event may take.
    :param retry_s: seconds between tries of a lost server.
    :param by_clause: one request per clause (default); ``False``: one per prompt.
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
            if self.asked_voice:
                raise DeviceError(f"The speech server {self.address} has no voice {self.asked_voice}: install one "
                                  "there, or use --tts espeak.", key="common.devices.server_no_voice_named",
                                  address=str(self.address), name=self.asked_voice)
            raise DeviceError(f"The speech server {self.address} has no {language_name(self.lang)} voice: install "
                              "one there, or use --tts espeak.", key="common.devices.server_no_language_voice",
                              address=str(self.address), lang=self.lang)
        self.server_voice = _SPOKEN[key] = found
        return found

    def _send(self, spoken: str) -> None:
        """Ask for ``spoken`` on the kept connection (opened if need be). :raises ServerLost: see the module."""
        from wyoming.tts import Synthesize, SynthesizeVoice

        if self._conn is None:
            self._conn = Connection(self.address, self.timeout_s)
        self._conn.send(Synthesize(text=spoken, voice=SynthesizeVoice(name=self.server_voice)))

    def _receive(self) -> tuple[np.ndarray, int]:
        """The answer to the request sent last: ``(int16 mono samples, rate)``. :raises ServerLost: see the module."""
        from wyoming.audio import AudioChunk, AudioStart, AudioStop

        if self._conn is None:
            raise ServerLost(f"The speech server {self.address} is not connected.")
        conn = self._conn
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

    def _server(self, spoken: str, sent: bool = False) -> tuple[np.ndarray, int] | None:
        """The server's speech for ``spoken`` (``sent``: already asked for on the connection), or
        ``None`` while it is lost (one retry on a dropped connection)."""
        if self.lost_at is not None and time.monotonic() - self.lost_at < self.retry_s:
            return None
        for attempt in (1, 2):
            try:
                if not (sent and attempt == 1):
                    self._send(spoken)
                result = self._receive()
            except ServerLost as exc:
                self._drop()
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

    def _drop(self) -> None:
        conn, self._conn = self._conn, None
        if conn is not None:
            conn.close()

    def pieces(self, text: str):
        """Speech for ``text`` from the server clause by clause (see the module docstring), volume
        applied; the rest of the prompt from espeak-ng once the server is lost.

        :returns: an iterator of ``(samples, sample_rate)`` (int16 mono).
        :raises DeviceError: the server is lost and espeak-ng is missing too.
        """
        items = self.split(text)
        was_lost = self.lost_at is not None
        sent = False  # items[i] is already asked for on the connection
        try:
            for i, (written, spoken) in enumerate(items):
                result = self._server(spoken, sent)
                sent = False
                if result is None:
                    rest = " ".join(t for t, _ in items[i:])
                    fallback = rest if was_lost or not self.lost_sentence else f"{self.lost_sentence} {rest}"
                    yield tts.Pyttsx3Voice.synthesize(self, fallback)
                    return
                if i + 1 < len(items):
                    try:
                        self._send(items[i + 1][1])  # made by the server while this clause plays
                        sent = True
                    except ServerLost:
                        self._drop()  # asked again (and retried) when its turn comes
                samples, rate = result
                yield self.louder(samples), rate
        finally:
            if sent:  # a stopped prompt: the answer on its way is read and dropped
                try:
                    self._receive()
                except ServerLost:
                    self._drop()
