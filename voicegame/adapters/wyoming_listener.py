"""A listener on a Wyoming ASR server (one recogniser for many tables) behind the ``Listener`` port.

The microphone, the voice detector and the end of utterance stay on this side, as in
the Vosk listener (:mod:`voicegame.adapters.vosk_listener`, whose parts this reuses:
its resampler and detectors from :mod:`~voicegame.adapters.vad`, its phrase sets, its
half-duplex timing against the host's voice, its stalled-microphone guard). Only the
words come from the server:

- speech starts (two detector frames) → a new connection: ``Transcribe`` (the game
  language; the moment's phrases as ``transcript_terms``, a hint servers may use),
  ``AudioStart``, then the utterance as 16 kHz ``AudioChunk`` events as it is heard;
- ``pause_s`` of non-speech (``free_pause_s`` in free text), or ``max_utterance_s``,
  ends it → ``AudioStop``, and the server's ``Transcript`` is awaited (at most
  ``reply_timeout_s``);
- in grammar mode the transcript is snapped to the moment's phrases with rapidfuzz
  (Wyoming's ASR has no grammar; as wyoming-vosk's "corrected" mode): the whole
  transcript to one phrase, else its words to a sequence of phrases, each at least
  ``cutoff`` (0–100, on Unicode-decomposed text so Hangul compares by letters).
  Nothing that near → :class:`~voicegame.ports.Rejected` (``"unmatched"``); more than
  ``max_phrases`` phrases → ``"phrases"``; longer than ``max_command_s`` → ``"long"``.
  The heard phrase is the snapped one; the raw transcript is its alternative.

``last_endpoint`` is ``"pause"``, ``"max"``, ``"timeout"`` or ``"input_end"``; timing is
audio time (samples / 16000), as the Vosk listener's.

A server that cannot be reached or drops the connection mid-utterance: the table hears
``lost_sentence`` once (through the attached voice, or ``announcer``), the utterance is
dropped and the same moment listens on (the player says it again); each new utterance
tries the server again. The moment's timeout still counts, so a lost server never
hangs it.

Barge-in (``barge_in``, a voice that hands its sound, :class:`~voicegame.ports.EchoReference`):
the Vosk listener's echo path (its canceller from :mod:`voicegame.adapters.echo` and its
parameters ``echo``, ``echo_converge_s``, ``barge_onset_frames``, ``barge_preroll_frames``,
``barge_kept_db``): ``barge_onset_frames`` speech frames in a row on the echo-cancelled
microphone stop the host and start the utterance from its pre-roll; the rest of the
host's sound is cancelled out of it. Wyoming gives no partial words, so there is no
level-and-grammar path: without a reference (or before the canceller has learned on
``echo_converge_s`` of the host's sound) the host's own sound is never an answer
(half-duplex).
"""

from __future__ import annotations

import collections
import logging
import re
import time
import unicodedata

import numpy as np

from voicegame.adapters.vad import RATE, Resampler, make_vad
from voicegame.adapters.vosk_listener import PhraseSet, VoskListener, _rms
from voicegame.adapters.wyoming_client import Address, Connection, ServerLost
from voicegame.ports import Expected, Heard, InputEnded, Rejected, Silence

log = logging.getLogger(__name__)
ENDPOINTS = frozenset({"pause", "max", "timeout", "input_end"})
_PUNCTUATION = re.compile(r"[^\w\s']+")


def _key(text: str) -> str:
    return unicodedata.normalize("NFD", text.replace(" ", ""))


def snap(text: str, phrases, cutoff: float = 70.0) -> tuple[list[str], float] | None:
    """The moment's phrases nearest to a transcript.

    :param text: lower-case words.
    :param phrases: the moment's phrases.
    :param cutoff: least rapidfuzz ``ratio`` (0–100) of each phrase.
    :returns: ``(words, score)`` — the snapped words (one phrase for the whole transcript,
        or phrases in a row for its words in a row, whichever is nearer) and their score
        (a row's: the mean weighted by words) — or ``None``.
    """
    from rapidfuzz import fuzz, process

    words = text.split()
    phrases = list(dict.fromkeys(p for p in phrases if p.split()))
    if not words or not phrases:
        return None
    keys = {_key(p): p for p in phrases}
    whole = process.extractOne(_key(text), list(keys), scorer=fuzz.ratio, score_cutoff=cutoff)
    by_length: dict[int, dict[str, str]] = collections.defaultdict(dict)
    for p in phrases:
        by_length[len(p.split())][_key(p)] = p
    best: list[tuple[list[str], float] | None] = [([], 0.0)] + [None] * len(words)
    for end in range(1, len(words) + 1):
        for length, choices in by_length.items():
            start = end - length
            if start < 0 or best[start] is None:
                continue
            found = process.extractOne(_key(" ".join(words[start:end])), list(choices), scorer=fuzz.ratio,
                                       score_cutoff=cutoff)
            if found is None:
                continue
            candidate = (best[start][0] + choices[found[0]].split(), best[start][1] + found[1] * length)
            if best[end] is None or candidate[1] > best[end][1]:
                best[end] = candidate
    cover = None if best[-1] is None else (best[-1][0], round(best[-1][1] / len(words), 2))
    if whole is not None and (cover is None or whole[1] >= cover[1]):
        return keys[whole[0]].split(), round(float(whole[1]), 2)  # one phrase, unless a row of them is nearer
    return cover


class _Stream:
    """One utterance on its way to the server (one connection)."""

    def __init__(self, address: Address, lang: str, expected: Expected, timeout_s: float):
        from wyoming.asr import Transcribe
        from wyoming.audio import AudioStart

        self.conn = Connection(address, timeout_s)
        terms = list(expected.phrases) if expected.phrases and not expected.free else None
        self.conn.send(Transcribe(language=lang, transcript_terms=terms), AudioStart(rate=RATE, width=2, channels=1))

    def send(self, frames) -> None:
        from wyoming.audio import AudioChunk

        if frames:
            self.conn.send(AudioChunk(rate=RATE, width=2, channels=1,
                                      audio=np.concatenate(frames).astype("<i2").tobytes()))

    def transcript(self, timeout_s: float) -> str:
        from wyoming.asr import Transcript
        from wyoming.audio import AudioStop

        self.conn.send(AudioStop())
        self.stopped_at = time.monotonic()
        try:
            while True:
                event = self.conn.receive(timeout_s)
                if Transcript.is_type(event.type):
                    return Transcript.from_event(event).text or ""
                if event.type == "error":
                    raise ServerLost(f"The speech server {self.conn.address} failed: {event.data.get('text', '')}")
        finally:
            self.conn.close()


class _Utterance:
    def __init__(self, start: float, frames):
        self.start = start
        self.last_speech = start
        self.voiced_s = 0.0
        self.unsent = list(frames)
        self.stream: _Stream | None = None


class WyomingListener:
    """A :class:`~voicegame.ports.Listener` on a Wyoming ASR server and an :class:`AudioSource`.

    :param address: the server (:func:`~voicegame.adapters.wyoming_client.parse_url`).
    :param source: an :class:`~voicegame.adapters.audio.AudioSource`.
    :param lang: the language sent with each ``Transcribe``.
    :param cutoff: least rapidfuzz score (0–100) of a snapped phrase.
    :param chunk_s: seconds of audio per ``AudioChunk`` event.
    :param timeout_s: seconds a connect or a write may take.
    :param reply_timeout_s: seconds to wait for the transcript after ``AudioStop``.
    :param lost_sentence: said once when the server is lost (``None``: only logged).
    :param announcer: a voice to say it with when no voice is attached.
    ``vad``, ``vad_threshold``, ``min_level``, ``pause_s``, ``free_pause_s``, ``tail_s``,
    ``max_utterance_s``, ``max_command_s``, ``min_speech_s``, ``max_phrases``, ``speaker``,
    ``clock``, ``stall_s``, ``barge_in``, ``echo``, ``echo_converge_s``, ``barge_onset_frames``,
    ``barge_preroll_frames`` and ``barge_kept_db`` are the Vosk listener's.
    """

    attach = VoskListener.attach
    _echo_for = VoskListener._echo_for
    _reference = VoskListener._reference
    _now = VoskListener._now
    _read = VoskListener._read
    _speaking_until = VoskListener._speaking_until
    _source_time = VoskListener._source_time

    def __init__(self, address: Address, source, lang: str = "en", *, vad="silero", vad_threshold: float = 0.5,
                 min_level: float = 150.0, pause_s: float = 0.5, free_pause_s: float = 0.8, tail_s: float = 0.3,
                 max_utterance_s: float = 12.0, max_command_s: float = 4.0, min_speech_s: float = 0.15,
                 max_phrases: int = 2, cutoff: float = 70.0, chunk_s: float = 0.1, speaker=None, clock=None,
                 stall_s: float = 5.0, timeout_s: float = 2.0, reply_timeout_s: float = 10.0,
                 lost_sentence: str | None = None, announcer=None, barge_in: bool = True, echo="speex",
                 echo_converge_s: float = 1.0, barge_onset_frames: int = 5, barge_preroll_frames: int = 5,
                 barge_kept_db: float = 20.0):
        self.address = address
        self.source = source
        self.lang = lang
        self.vad = make_vad(vad) if isinstance(vad, str) else vad
        self.vad_threshold, self.min_level = vad_threshold, min_level
        self.pause_s, self.free_pause_s, self.tail_s = pause_s, free_pause_s, tail_s
        self.max_utterance_s, self.max_command_s, self.min_speech_s = max_utterance_s, max_command_s, min_speech_s
        self.max_phrases, self.cutoff, self.chunk_s = max_phrases, cutoff, chunk_s
        self.speaker, self.clock, self.stall_s = speaker, clock, stall_s
        self.timeout_s, self.reply_timeout_s = timeout_s, reply_timeout_s
        self.lost_sentence, self.announcer = lost_sentence, announcer
        self.barge_in, self.echo, self.echo_converge_s = barge_in, echo, echo_converge_s
        self.barge_onset_frames, self.barge_preroll_frames = barge_onset_frames, barge_preroll_frames
        self.barge_kept_db = barge_kept_db
        self._echo = None if isinstance(echo, str) or echo is None else (echo, None)
        self._echo_vad = None  # a second detector of the same kind, on the cancelled signal
        self._echo_heard_s = 0.0  # seconds of the host's sound the canceller has learned on
        #: audio seconds when a barge-in stopped the speaker in the last listen, or None.
        self.last_barge_in_s: float | None = None
        #: True from a lost server until it answers again (the sentence is said once a loss).
        self.lost = False
        #: how many times the server was lost mid-moment or at an utterance's start.
        self.losses = 0
        self.last_endpoint: str | None = None
        #: the server's raw transcript of the last utterance.
        self.last_transcript: str | None = None
        #: audio seconds: speech start, last speech frame, and when listen returned.
        self.last_speech_start_s: float | None = None
        self.last_speech_end_s: float | None = None
        self.last_return_s: float | None = None
        #: wall seconds from ``AudioStop`` to the server's transcript (the recogniser's own share of the gap).
        self.last_reply_s: float | None = None

    # -- a lost server --------------------------------------------------------
    def _lose(self, exc: Exception) -> None:
        self.losses += 1
        if self.lost:
            return
        self.lost = True
        log.warning("speech recogniser lost: %s", exc)
        voice = self.speaker if self.speaker is not None else self.announcer
        if self.lost_sentence and voice is not None:
            try:
                voice.say(self.lost_sentence)
            except Exception as said:  # a voice that cannot speak must not end the moment
                log.warning("could not say that the recogniser is lost: %s", said)

    def _result(self, text: str, expected: Expected, speech_s: float) -> Heard | Rejected | None:
        """What a transcript means in this moment (``None``: no words, listen on)."""
        text = " ".join(_PUNCTUATION.sub(" ", text.lower()).split())
        self.last_transcript = text
        if not text:
            return None
        duration = round(speech_s, 3)
        if expected.free or not expected.phrases:
            return Heard(text, (), 1.0, duration)
        if speech_s > self.max_command_s + 1e-9:
            return Rejected(text, "long", duration)
        snapped = snap(text, expected.phrases, self.cutoff)
        if snapped is None:
            return Rejected(text, "unmatched", duration)
        words, score = snapped
        if PhraseSet(expected.phrases, getattr(expected, "open_words", ())).count(words) > self.max_phrases:
            return Rejected(text, "phrases", duration)
        heard = " ".join(words)
        return Heard(heard, (text,) if text != heard else (), round(score / 100.0, 4), duration)

    def _close(self, utt: _Utterance, expected: Expected, endpoint: str, audio_t: float):
        """End ``utt``: its meaning, or ``None`` when it had no words or the server was lost."""
        try:
            if utt.stream is None:
                return None
            utt.stream.send(utt.unsent)
            text = utt.stream.transcript(self.reply_timeout_s)
            self.last_reply_s = time.monotonic() - utt.stream.stopped_at
        except ServerLost as exc:
            self._lose(exc)
            return None
        self.lost = False
        self.last_speech_start_s, self.last_speech_end_s = utt.start, utt.last_speech
        result = self._result(text, expected, utt.last_speech - utt.start)
        if result is not None:
            self.last_endpoint, self.last_return_s = endpoint, audio_t
        return result

    # -- the port ---------------------------------------------------------------
    def listen(self, expected: Expected, timeout_s: float | None) -> Heard | Silence | Rejected:
        """Listen for one utterance (see the module docstring).

        :param timeout_s: audio seconds to wait for speech to start, counted once the host's
            own sound is over; ``None`` waits forever.
        :raises InputEnded: the source ran out before any speech started.
        :raises DeviceError: the microphone fails or stops sending audio.
        """
        self.last_endpoint = self.last_transcript = self.last_reply_s = None
        self.last_speech_start_s = self.last_speech_end_s = self.last_return_s = self.last_barge_in_s = None
        self.source.start()
        self.source.drain()
        resample = Resampler(self.source.sample_rate, RATE)
        self.vad.reset()
        n = self.vad.frame_samples
        frame_s = n / RATE
        per_chunk = max(1, int(round(self.chunk_s / frame_s)))
        pause = self.free_pause_s if (expected.free or not expected.phrases) else self.pause_s
        pending = np.zeros(0, dtype=np.int16)
        preroll: collections.deque = collections.deque(maxlen=6)  # ~0.2 s before the detector's start: the onset
        audio_t = waited = 0.0
        run = 0
        utt: _Utterance | None = None
        tail_left = self.tail_s if self.speaker is None else 0.0
        until = None
        hush = 0.0  # after a loss mid-utterance: seconds of quiet before a new utterance may start
        stalled: list = [None]
        echo = self._echo_for(n) if self.speaker is not None else None
        cleaned: collections.deque = collections.deque(maxlen=self.barge_onset_frames + self.barge_preroll_frames)
        echo_run = 0
        while True:
            try:
                chunk = self._read(stalled)
            except InputEnded:
                if utt is None:
                    raise
                result = self._close(utt, expected, "input_end", audio_t)
                if result is None:
                    raise
                return result
            if not chunk:
                continue
            pending = np.concatenate([pending, resample(chunk)])
            chunk_end = self._source_time()
            now_until = self._speaking_until()
            if now_until is not None:
                until = now_until
            while pending.size >= n:
                frame, pending = pending[:n], pending[n:]
                if tail_left > 0:
                    tail_left -= frame_s
                    continue
                frame_time = chunk_end - pending.size / RATE
                own = until is not None and frame_time < until + self.tail_s - 1e-9
                ref = self._reference(frame_time - frame_s, n) if own and echo is not None else None
                if own and ref is None:
                    continue  # the host's own sound: never an answer
                audio_t += frame_s
                if own:  # the host's echo cancelled: what is left is the players
                    if np.any(ref):
                        self._echo_heard_s += frame_s
                    raw_level = _rms(frame)
                    clean = echo[0](frame, ref)  # (with Speex's suppressor: for the detector)
                    frame = echo[1](frame, ref) if echo[1] is not None else clean
                    level = _rms(clean)
                    speech = self._echo_vad(clean) >= self.vad_threshold and level >= self.min_level
                    if utt is None:
                        if self._echo_heard_s < self.echo_converge_s - 1e-9:
                            continue  # the canceller is still learning the room
                        cleaned.append(frame)
                        kept = level >= raw_level * 10 ** (-self.barge_kept_db / 20)
                        echo_run = echo_run + 1 if speech and kept else 0
                        if echo_run >= self.barge_onset_frames:
                            self.last_barge_in_s = audio_t
                            self.speaker.stop()
                            utt = _Utterance(audio_t - len(cleaned) * frame_s, cleaned)
                            utt.last_speech, utt.voiced_s = audio_t, echo_run * frame_s
                            cleaned.clear()
                            echo_run = 0
                        continue
                else:
                    speech = self.vad(frame) >= self.vad_threshold and _rms(frame) >= self.min_level
                if utt is None:
                    preroll.append(frame)
                    if hush > 0:  # the rest of the lost utterance is not a new one
                        hush = pause if speech else hush - frame_s
                    run = run + 1 if speech and hush <= 0 else 0
                    if run >= 2:
                        utt = _Utterance(audio_t - 2 * frame_s, preroll)
                        utt.last_speech, utt.voiced_s = audio_t, 2 * frame_s
                        preroll.clear()
                        run = 0
                        continue
                    waited += frame_s
                    if timeout_s is not None and waited >= timeout_s - 1e-9:
                        self.last_endpoint, self.last_return_s = "timeout", audio_t
                        return Silence(waited_s=round(waited, 3))
                    continue
                utt.unsent.append(frame)
                if speech:
                    utt.last_speech = audio_t
                    utt.voiced_s += frame_s
                silence = audio_t - utt.last_speech
                if utt.stream is None:
                    if utt.voiced_s < self.min_speech_s - 1e-9:
                        if silence >= 0.1:
                            utt = None  # a click, shorter than any word
                        continue
                    try:
                        utt.stream = _Stream(self.address, self.lang, expected, self.timeout_s)
                    except ServerLost as exc:
                        self._lose(exc)
                        utt, hush = None, pause
                        continue
                if len(utt.unsent) >= per_chunk:
                    try:
                        utt.stream.send(utt.unsent)
                    except ServerLost as exc:  # dropped mid-utterance: said once, the moment goes on
                        self._lose(exc)
                        utt, hush = None, pause
                        continue
                    utt.unsent = []
                ended = "pause" if silence >= pause - 1e-9 else (
                    "max" if audio_t - utt.start >= self.max_utterance_s - 1e-9 else None)
                if ended is None:
                    continue
                result = self._close(utt, expected, ended, audio_t)
                utt = None
                if result is not None:
                    return result
                if self.lost:
                    hush = 0.0  # the player has finished: the next utterance is the answer
