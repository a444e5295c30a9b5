"""The ports between a game host and the outside world: listening, speaking, time.

A host only ever talks to these interfaces; adapters (``voicegame.adapters``)
implement them for real hardware (Vosk + sounddevice, pyttsx3) and for tests and
headless use (script file, keyboard, printed text, virtual clock). Swapping an
adapter never touches a game. Shapes follow Rhasspy's Wyoming events: small
frozen dataclasses for what flows.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Protocol, runtime_checkable


@dataclass(frozen=True)
class Expected:
    """What may be said at one listening moment.

    :param phrases: phrases for a recognizer grammar (lower-case words of the
        current language). A grammar recognizer may only return these (plus
        ``[unk]``); a text adapter ignores them.
    :param free: True for a free-text moment (clue, ROFL! guess): no grammar.
    :param moment: a short name of the listening moment (``"dial"``, ``"guess"``),
        used in logs, records and vocabulary reports.
    :param open_words: words after which an utterance may go on with more phrases (the
        words of a number said word by word: "two … thousand"); a listener waits for a
        real pause after them instead of ending at once.
    """

    phrases: tuple[str, ...] = ()
    free: bool = False
    moment: str = ""
    open_words: tuple[str, ...] = ()

    @classmethod
    def free_text(cls, moment: str = "") -> "Expected":
        """A free-text listening moment (no grammar)."""
        return cls((), True, moment)

    def words(self) -> set[str]:
        """Every distinct word of every phrase (for vocabulary checks)."""
        return {w for p in self.phrases for w in p.split()}


@dataclass(frozen=True)
class Heard:
    """An utterance that was heard.

    :param text: best transcript, lower-case words (may be ``""`` for noise).
    :param alternatives: further transcripts, best first (may be empty).
    :param confidence: 0.0–1.0; adapters map their own scale onto it.
    :param duration_s: seconds of speech, when known.
    """

    text: str
    alternatives: tuple[str, ...] = ()
    confidence: float = 1.0
    duration_s: float = 0.0


@dataclass(frozen=True)
class Silence:
    """Nothing was heard before the listening moment's timeout."""

    waited_s: float = 0.0


@dataclass(frozen=True)
class Rejected:
    """Speech was heard but was not for the host (table talk, noise on grammar words).

    A host treats it as :class:`Silence`.

    :param text: what the grammar made of it, filler words removed (for logs only).
    :param reason: ``"filler"`` (words outside the moment's grammar), ``"long"``
        (longer than a command), ``"phrases"`` (more phrases than a command).
    :param duration_s: seconds of speech.
    """

    text: str = ""
    reason: str = ""
    duration_s: float = 0.0


class InputEnded(Exception):
    """The input source is exhausted (end of a script file, end of stdin).

    The game stops cleanly, says so, and still writes its record.
    """


class DeviceError(Exception):
    """An audio device, engine or model cannot be used.

    ``str(error)`` is one English sentence that names the fix (logs, ``doctor``).

    :param key: the prompt key of the same sentence for a table (``common.devices.*``), or
        ``None`` (the adapter has no prompt yet: :meth:`sentence` gives ``str()``).
    :param values: the key's placeholders; a ``lang`` code also fills ``{language}`` with the
        language's name in the table's words (``lobby.language_names``).
    """

    def __init__(self, message: str = "", *, key: str | None = None, **values):
        super().__init__(message)
        self.key, self.values = key, values

    def has_sentence(self, prompts) -> bool:
        """True when ``prompts`` (a :class:`~voicegame.language.prompts.Prompts`) holds this error's sentence."""
        return self.key is not None and prompts.has(self.key)

    def sentence(self, prompts) -> str:
        """The sentence in the language of ``prompts``; ``str(self)`` (English) without :meth:`has_sentence`."""
        if not self.has_sentence(prompts):
            return str(self)
        values = dict(self.values)
        if "lang" in values and "language" not in values:
            names = f"lobby.language_names.{values['lang']}"
            values["language"] = prompts.text(names) if prompts.has(names) else values["lang"]
        return prompts.text(self.key, **values)


@runtime_checkable
class Listener(Protocol):
    """Returns what was heard for a set of expected phrases."""

    def listen(self, expected: Expected, timeout_s: float | None) -> Heard | Silence | Rejected:
        """Listen for one utterance.

        May be called while an :class:`Interruptible` voice is still playing: the
        listener then ignores the host's own sound and may stop it (barge-in).

        :param expected: what may be said now.
        :param timeout_s: seconds to wait for speech to start; ``None`` waits forever.
        :returns: :class:`Heard`, :class:`Silence`, or :class:`Rejected` (treat as silence).
        :raises InputEnded: the input source is exhausted.
        """
        ...


@runtime_checkable
class Voice(Protocol):
    """Speaks to the table, or privately to one audience."""

    def say(self, text: str, to: str | None = None) -> None:
        """Speak ``text`` and return when playback has finished.

        :param to: name of a private audience (e.g. ``"psychic"``); ``None`` is everyone.
        """
        ...

    def tone(self, frequency_hz: float, duration_s: float = 0.12, label: str = "") -> None:
        """Play a short sine tone; ``label`` is what a text adapter prints instead."""
        ...

    def adjust(self, rate_step: int = 0, volume_step: int = 0) -> None:
        """Make speech slower/faster (``rate_step`` ±1) or softer/louder (``volume_step`` ±1)."""
        ...


@runtime_checkable
class Interruptible(Protocol):
    """The barge-in hook: a :class:`Voice` that a player can cut off.

    Such a voice's ``say()`` returns once playback has STARTED (a further ``say()`` or
    ``tone()`` first waits for the sound before it), so the listener can listen while
    it plays; ``wait()`` blocks until the sound is over. A listener told about the
    voice (``VoskListener(speaker=voice)`` / ``listener.attach(voice)``) ignores the
    microphone until ``speaking_until()`` plus its tail, and calls ``stop()`` when a
    player's command comes in over the prompt.
    """

    def speaking_until(self) -> float | None:
        """When the current sound will have left the loudspeaker (playback end plus the
        output latency), on the microphone source's clock (``time.monotonic()`` for
        live devices); ``None`` when nothing is playing."""
        ...

    def stop(self) -> None:
        """Stop playback at once (no-op when silent)."""
        ...

    def wait(self) -> None:
        """Return when the current sound has finished playing."""
        ...


@runtime_checkable
class EchoReference(Protocol):
    """An :class:`Interruptible` voice that can tell a listener what it played, for echo
    cancellation (optional: a listener without it tells the host's voice by level).
    """

    def reference(self, start_s: float, samples: int) -> "object | None":
        """The sound leaving the loudspeaker from ``start_s`` (the microphone source's
        clock) for ``samples`` samples at 16 kHz: int16 numpy samples (zeros where
        nothing played), or ``None`` when the voice cannot say."""
        ...


@runtime_checkable
class Clock(Protocol):
    """Time for timers: real in play, virtual in tests."""

    def now(self) -> float:
        """Seconds since an arbitrary origin (monotonic)."""
        ...

    def sleep(self, seconds: float) -> None:
        """Wait ``seconds``; a virtual clock only advances."""
        ...


@dataclass
class Ports:
    """The three ports a host needs, bundled (built by :func:`voicegame.env.build_ports`).

    :param relang: ``relang(lang) -> (listener, voice)`` for another language (a speech
        model and a voice of that language); ``None`` keeps both.
    :param screen: where private text goes with ``--private screen`` (a console line).
    """

    listener: Listener
    voice: Voice
    clock: Clock
    relang: Callable[[str], tuple[Listener, Voice]] | None = None
    screen: Callable[[str], None] | None = None
