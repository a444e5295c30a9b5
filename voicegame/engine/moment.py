"""One listening moment, the same for every game and the lobby.

A moment is what the host waits for now (:class:`Moment`: the prompt, the phrases
expected, the parse, the help) and the policy it waits with (:func:`run_moment`):

- a silence: "I didn't hear anything" and listen again (none while nothing is timed
  and the moment says so); after ``silence_limit`` silences :data:`SILENT`;
- a global command (:class:`Commands`: repeat, help, score, pause/resume, undo,
  slower/faster, louder/softer, quit): done, then listen again;
- a parse error, each with its own re-prompt (python-chess style, all subclasses of
  :class:`ParseError`): :class:`NotUnderstood` (invalid: what was heard and what may
  be said), :class:`NotAllowed` (understood, not allowed now: why),
  :class:`Ambiguous` (which of the readings was meant);
- after :data:`MAX_TRIES` failed tries the moment's options are offered aloud.

The place the moment listens at (a game's table, the lobby) is a :class:`Floor`:
it hears (live or replayed), speaks, and keeps the log. An accepted answer is
handed back as an *intent* (:func:`encode_intent`: ``{"type": name, "args": …}``),
stored in the log beside the transcript; a replayed moment applies the stored
intent, so an old save plays back the same even when the words files changed.
"""

from __future__ import annotations

import dataclasses
import enum
import re
import sys
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Protocol, TypeVar

from voicegame.language.budget import words
from voicegame.ports import Expected, Heard, Silence

T = TypeVar("T")

#: Seconds a listening moment waits for speech to start before it counts as silence.
DEFAULT_LISTEN_S = 10.0
#: Failed tries before the moment's options are offered aloud.
MAX_TRIES = 3


class _Silent:
    def __repr__(self) -> str:
        return "SILENT"


#: Returned by a moment when ``silence_limit`` silences were heard.
SILENT: Any = _Silent()


# --------------------------------------------------------------------------- parse errors


class ParseError(Exception):
    """A parse function could not take the utterance as this moment's answer.

    ``str(error)`` is the sentence to say (already in the table's language), or empty.
    """

    kind = "invalid"


class NotUnderstood(ParseError):
    """Invalid: the utterance is not one of the moment's forms (re-prompt: what was heard,
    what may be said)."""

    kind = "invalid"


class NotAllowed(ParseError):
    """Understood, but not allowed now; ``str(error)`` says why (re-prompt: that sentence)."""

    kind = "not_allowed"


class Ambiguous(ParseError):
    """Understood in more than one way; ``str(error)`` asks which was meant (re-prompt:
    that question). :param readings: the candidate values, for the record."""

    kind = "ambiguous"

    def __init__(self, sentence: str, readings: Iterable[Any] = ()):
        super().__init__(sentence)
        self.readings = tuple(readings)


def understood(value: T | None) -> T:
    """``value``, or :class:`NotUnderstood` when the understanding found nothing (``None``)."""
    if value is None:
        raise NotUnderstood
    return value


def try_parse(parse: Callable[[str], T], heard: Heard) -> tuple[str, Any]:
    """Parse the best transcript, then the alternatives, in order.

    :returns: ``("ok", value)``; else ``(kind, sentence)`` for the first
        :class:`NotAllowed` or :class:`Ambiguous` seen (``kind`` is
        ``"not_allowed"`` / ``"ambiguous"``); else ``("not_understood", None)``.
    """
    first_error = None
    for text in (heard.text, *heard.alternatives):
        try:
            return ("ok", parse(text))
        except (NotAllowed, Ambiguous) as exc:
            first_error = first_error or (exc.kind, str(exc))
        except NotUnderstood:
            pass
    return first_error or ("not_understood", None)


# --------------------------------------------------------------------------- intents


_PLAIN = (str, int, float, bool, type(None))


def encode_intent(value: Any) -> dict | None:
    """A JSON-serialisable form of an accepted answer: ``{"type": name, "args": …}``.

    Plain values, lists, tuples, dicts with string keys, enums and dataclasses
    (nested) are encoded; ``None`` is returned for anything else (the log then keeps
    only the transcript, and a replay parses it again).
    """
    try:
        return _encode(value)
    except TypeError:
        return None


def _encode(value: Any) -> dict:
    if value is SILENT:
        return {"type": "silence"}
    if isinstance(value, enum.Enum):
        return {"type": "enum", "class": _class_name(type(value)), "args": value.name}
    if isinstance(value, _PLAIN):
        if isinstance(value, float) and value != value:
            raise TypeError("NaN")
        return {"type": "value", "args": value}
    if isinstance(value, tuple) and not hasattr(value, "_fields"):
        return {"type": "tuple", "args": [_encode(v) for v in value]}
    if isinstance(value, list):
        return {"type": "list", "args": [_encode(v) for v in value]}
    if isinstance(value, dict) and all(isinstance(k, str) for k in value):
        return {"type": "dict", "args": {k: _encode(v) for k, v in value.items()}}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {"type": "data", "class": _class_name(type(value)),
                "args": {f.name: _encode(getattr(value, f.name)) for f in dataclasses.fields(value)}}
    raise TypeError(f"cannot encode {type(value).__name__}")


def _class_name(cls: type) -> str:
    return f"{cls.__module__}:{cls.__qualname__}"


def _class(name: str) -> type:
    """The class named ``module:qualname``; only classes of modules already loaded
    (an intent's class is always loaded: the host that made it is running)."""
    module_name, _, qualname = name.partition(":")
    module = sys.modules.get(module_name)
    if module is None or not module_name.startswith("voicegame"):
        raise TypeError(f"unknown intent class {name}")
    obj: Any = module
    for part in qualname.split("."):
        obj = getattr(obj, part)
    return obj


def decode_intent(intent: dict) -> Any:
    """The answer :func:`encode_intent` encoded.

    :raises TypeError: the intent is malformed or names a class that is not loaded.
    """
    try:
        kind = intent["type"]
        if kind == "silence":
            return SILENT
        if kind == "value":
            return intent["args"]
        if kind == "tuple":
            return tuple(decode_intent(v) for v in intent["args"])
        if kind == "list":
            return [decode_intent(v) for v in intent["args"]]
        if kind == "dict":
            return {k: decode_intent(v) for k, v in intent["args"].items()}
        if kind == "enum":
            return _class(intent["class"])[intent["args"]]
        if kind == "data":
            cls = _class(intent["class"])
            values = {k: decode_intent(v) for k, v in intent["args"].items()}
            init = {f.name for f in dataclasses.fields(cls) if f.init}
            obj = cls(**{k: v for k, v in values.items() if k in init})
            for k, v in values.items():
                if k not in init:
                    object.__setattr__(obj, k, v)
            return obj
    except (KeyError, AttributeError, ValueError) as exc:
        raise TypeError(f"malformed intent: {exc}") from None
    raise TypeError(f"unknown intent type {intent.get('type')!r}")


# --------------------------------------------------------------------------- the moment


@dataclass
class Moment:
    """What a host waits for now.

    :param key: prompt key said first (``None``: nothing said).
    :param parse: transcript → answer; raises a :class:`ParseError`.
    :param help_key: what may be said (for "help", the not-understood re-prompt and
        the options after :data:`MAX_TRIES` failures); ``help_values`` fill it.
    :param name: the moment's short name (records, vocabulary, the recognizer).
    :param phrases: the grammar of this moment (the global commands are added).
    :param free: a free-text moment (no grammar).
    :param timeout_s: seconds to wait for speech; ``None`` waits until someone speaks.
    :param silence_limit: after this many silences :data:`SILENT` is the answer.
    :param silence_key: what a silence is answered with.
    :param quiet_untimed: a silence while nothing is timed (``timeout_s`` ``None``) gets
        no answer (the lobby waits quietly).
    :param nudge_key: the few words said after repeated misses (default: the short question
        and "say help for more", see :func:`nudge`).
    :param owned_commands: global commands this moment's parse sees first (the lobby
        takes "resume" as an answer); every other command is checked before parsing.
    :param values: fill ``key``.
    """

    key: str | None
    parse: Callable[[str], Any]
    help_key: str
    name: str
    phrases: Iterable[str] = ()
    free: bool = False
    timeout_s: float | None = DEFAULT_LISTEN_S
    silence_limit: int | None = None
    silence_key: str = "common.didnt_hear"
    quiet_untimed: bool = False
    nudge_key: str = "common.nudge"
    not_understood_values: dict = field(default_factory=dict)
    owned_commands: frozenset[str] | set[str] | tuple = frozenset()
    help_values: dict = field(default_factory=dict)
    values: dict = field(default_factory=dict)

    def help_text(self, floor: "Floor") -> str:
        return floor.text(self.help_key, **self.help_values)


class Floor(Protocol):
    """Where a moment listens: a game's table or the lobby."""

    understanding: Any

    def text(self, key: str, **values) -> str: ...

    def say(self, key: str, **values) -> str: ...

    def say_text(self, sentence: str, remember: bool = True) -> None: ...

    def listen(self, expected: Expected, timeout_s: float | None) -> Heard | Silence:
        """One raw listen (replayed or live)."""

    def replayed(self) -> dict | None:
        """The log entry the last :meth:`listen` replayed, else ``None`` (live)."""

    def accepted(self, value: Any, intent: dict | None) -> None:
        """The last utterance (or silence) was taken as the moment's answer."""

    def missed(self) -> None:
        """The last utterance was not taken (its entry keeps no intent)."""

    def command(self, command: str, moment: Moment) -> Heard | None:
        """A global command was heard in ``moment``: do it; may hand back an utterance
        heard meanwhile that was meant for the moment (a "lock it in" at the quit question)."""


#: An un-placeable utterance in a row that first gets a nudge (the ones before get nothing).
NUDGE_AFTER = 2
#: After the first nudge, a nudge every this many further misses.
NUDGE_EVERY = 3
#: Words a re-asked question may have after a silence.
REASK_WORDS = 12
#: The most words a nudge may have: table talk never gets more (the host-voice budget, docs/architecture.md).
NUDGE_WORDS = 8


def run_moment(floor: Floor, m: Moment) -> Any:
    """Say ``m.key`` (if any), then listen until ``m.parse`` accepts an utterance.

    The policy: a silence re-asks the question in a few words (nothing while nothing is
    timed); a global command is done (a command may hand back an utterance it did not
    take, which the moment then hears); what cannot be placed (not understood, or
    rejected by the listener as table talk) gets nothing at first and a short nudge after
    repeated misses — the options only on "help"; what is understood but not allowed now
    (or ambiguous) gets its own sentence.

    :returns: the parsed answer, or :data:`SILENT`.
    :raises: whatever the floor's commands raise (undo, quit, cancel) and
        :class:`voicegame.ports.InputEnded`.
    """
    u = floor.understanding
    grammar = () if m.free else u.grammar(m.phrases)  # number words: a number said word by word may go on
    expected = Expected.free_text(m.name) if m.free else Expected(grammar, False, m.name,
                                                                   tuple(set(u.number_words()).intersection(grammar)))
    if m.key:
        floor.say(m.key, **m.values)
    silences = misses = 0
    carried: Heard | None = None
    while True:
        if carried is not None:
            heard, carried = carried, None
        else:
            heard = floor.listen(expected, m.timeout_s)
        entry = floor.replayed()
        if isinstance(heard, Silence):
            silences += 1
            if m.silence_limit is not None and silences >= m.silence_limit:
                floor.accepted(SILENT, encode_intent(SILENT))
                return SILENT
            if m.timeout_s is not None or not m.quiet_untimed:
                floor.say_text(reask(floor, m), remember=False)
            continue
        if not isinstance(heard, Heard):  # rejected by the listener: table talk
            misses += 1
            _nudge(floor, m, misses)
            continue
        command = _command_of(u, heard, entry)
        if command and command not in m.owned_commands:
            carried = floor.command(command, m)
            continue
        outcome = _outcome(m.parse, heard, entry)
        if outcome[0] == "ok":
            floor.accepted(outcome[1], encode_intent(outcome[1]))
            return outcome[1]
        if command:  # a command the parse did not take after all
            carried = floor.command(command, m)
            continue
        floor.missed()
        if outcome[0] in ("not_allowed", "ambiguous"):
            misses = 0
            floor.say_text(outcome[1], remember=False)
        else:
            misses += 1
            _nudge(floor, m, misses)


def _nudge(floor: Floor, m: Moment, misses: int) -> None:
    """Nothing for the first miss; a nudge of a few words after repeated misses."""
    if misses == NUDGE_AFTER or (misses > NUDGE_AFTER and (misses - NUDGE_AFTER) % NUDGE_EVERY == 0):
        floor.say_text(nudge(floor, m), remember=False)


def nudge(floor: Floor, m: Moment) -> str:
    """What repeated misses are answered with: ``m.nudge_key`` when the moment has its own
    (the lobby's); else the moment's short question (:func:`short_question` of the last
    prompt) and "say help for more" (``common.nudge_question``) when that is at most
    :data:`NUDGE_WORDS` words; else ``common.nudge``, "say help to hear what fits here"."""
    if m.nudge_key != "common.nudge":
        return floor.text(m.nudge_key, **m.not_understood_values)
    question = short_question(getattr(floor, "last_prompt", None))
    if question:
        again = floor.text("common.nudge_question", question=question)
        if words(again) <= NUDGE_WORDS:
            return again
    return floor.text("common.nudge", **m.not_understood_values)


def reask(floor: Floor, m: Moment) -> str:
    """What a silence is answered with: ``m.silence_key`` when the moment has its own,
    else the question of the last prompt when it is short (≤ :data:`REASK_WORDS`
    words), else the short "say it again"."""
    if m.silence_key != "common.didnt_hear":
        return floor.text(m.silence_key)
    question = short_question(getattr(floor, "last_prompt", None))
    return question or floor.text("common.didnt_hear")


def short_question(prompt: str | None, limit: int = REASK_WORDS) -> str | None:
    """What to re-ask of ``prompt`` after a silence: its last question ("…?") when that
    has at most ``limit`` words; else its last sentence (what to say now) when short; else
    the whole prompt when short; else ``None``."""
    if not prompt:
        return None
    sentences = [x.strip() for x in re.split(r"(?<=[.?!])\s+", prompt.strip()) if x.strip()]
    for sentence in reversed(sentences):
        if sentence.endswith("?"):
            return sentence if len(sentence.split()) <= limit else None
    if sentences and len(sentences[-1].split()) <= limit:
        return sentences[-1]
    return prompt if len(prompt.split()) <= limit else None


def _command_of(u, heard: Heard, entry: dict | None) -> str | None:
    """The global command of an utterance: the logged one when replaying an entry that has it."""
    if entry is not None and "intent" in entry:
        return entry.get("command")
    return u.command(heard.text)


def _outcome(parse: Callable[[str], Any], heard: Heard, entry: dict | None) -> tuple[str, Any]:
    """Parse ``heard``; when replaying an entry with a stored intent, the intent wins.

    The parse still runs (it may note things, as it did live); when its answer is not
    the stored one (the words changed since), the stored answer is used. A replayed
    entry stored as not taken stays not taken.
    """
    outcome = try_parse(parse, heard)
    if entry is None or "intent" not in entry:
        return outcome
    stored = entry["intent"]
    if stored is None:
        return outcome if outcome[0] != "ok" else ("not_understood", None)
    if outcome[0] == "ok" and encode_intent(outcome[1]) == stored:
        return outcome
    try:
        return ("ok", decode_intent(stored))
    except TypeError:
        return outcome


# --------------------------------------------------------------------------- global commands


class Commands:
    """The global commands of a game's table (repeat, help, score, pause/resume, undo,
    slower/faster, louder/softer, quit): one method ``on_<command>(moment)`` each.

    :param table: the :class:`voicegame.engine.table.Table` they act on.
    """

    def __init__(self, table):
        self.t = table

    def __call__(self, command: str, moment: Moment) -> Heard | None:
        return getattr(self, f"on_{command}", self.on_unknown)(moment)

    def on_unknown(self, moment: Moment) -> None:
        pass

    def on_repeat(self, moment: Moment) -> None:
        self.t.speech.repeat()

    def on_help(self, moment: Moment) -> None:
        t = self.t
        t.say_text(moment.help_text(t), remember=False)
        t.say_text(t.text("common.help_global"), remember=False)

    def on_score(self, moment: Moment) -> None:
        t = self.t
        if t.score_callback:
            t.score_callback()
        else:
            t.say_text(t.text("common.no_score_yet"), remember=False)

    def on_pause(self, moment: Moment) -> None:
        self.pause()

    def on_resume(self, moment: Moment) -> None:
        self.t.say_text(self.t.text("common.not_paused"), remember=False)

    def on_slower(self, moment: Moment) -> None:
        self._adjust("slower", rate_step=-1)

    def on_faster(self, moment: Moment) -> None:
        self._adjust("faster", rate_step=1)

    def on_louder(self, moment: Moment) -> None:
        self._adjust("louder", volume_step=1)

    def on_softer(self, moment: Moment) -> None:
        self._adjust("softer", volume_step=-1)

    def _adjust(self, command: str, **step) -> None:
        self.t.voice.adjust(**step)
        self.t.say_text(self.t.text(f"common.{command}"), remember=False)

    def on_undo(self, moment: Moment) -> None:
        from_index = self.t.undo_index()
        if from_index is None:
            key = "common.undo_whose" if self.t.undo_is_ambiguous() else "common.nothing_to_undo"
            self.t.say_text(self.t.text(key), remember=False)
        else:
            self.t.undo(from_index)

    def on_stop(self, moment: Moment) -> None:
        """"stop" alone: the host stops talking (barge-in), nothing else happens."""
        stop = getattr(self.t.live_voice, "stop", None)
        if callable(stop):
            stop()

    def on_quit(self, moment: Moment) -> Heard | None:
        """Stop the game only on an answer such as "yes, stop the game" (the question says the
        words); a bare yes hears the words once more; anything else keeps the game going, and
        an answer meant for the game ("lock it in") is handed back to the moment.

        :raises QuitGame: confirmed (through ``table.quit()``).
        """
        t = self.t
        u = t.understanding
        interrupted = t.last_prompt
        expected = Expected(u.grammar(u.quit_confirm_words, u.yes_no_phrases()), False, "confirm_quit")
        t.say_text(t.text("common.confirm_quit"), remember=False)
        carried = None
        for attempt in range(2):
            heard = t.listen(expected, DEFAULT_LISTEN_S)
            decision = quit_decision(u, heard, t.replayed(), first=attempt == 0)
            t.note_quit(decision)
            if decision == "quit":
                t.quit()
            if decision == "exact":
                t.say_text(t.text("common.confirm_quit_exact"), remember=False)
                continue
            if decision == "carry":
                carried = heard
            break
        t.last_prompt = interrupted  # "repeat" repeats the game's question again
        t.say_text(t.text("common.not_quitting"), remember=False)
        if interrupted and carried is None:
            t.voice.say(interrupted)
        return carried

    def pause(self) -> None:
        """Pause until "resume" (or yes, or ready); "stop the game" may be said while paused.
        A running timer stops while paused and goes on with the time it had left."""
        t = self.t
        t.timers.pause()
        t.say_text(t.text("common.paused"), remember=False)
        u = t.understanding
        expected = Expected(u.grammar(), False, "paused")
        quit_moment = Moment(None, lambda text: None, "common.help_paused", "paused")
        while True:
            heard = t.listen(expected, None)
            if not isinstance(heard, Heard):
                continue
            command = _command_of(u, heard, t.replayed())
            if command == "resume" or u.yes_no(heard.text) or u.is_ready(heard.text):
                t.say_text(t.text("common.resumed"), remember=False)
                t.timers.resume()
                t.speech.repeat()
                return
            if command == "quit":
                t.note_command("quit")
                self.on_quit(quit_moment)


def quit_decision(u, heard, entry: dict | None, first: bool) -> str:
    """What an answer to "stop the game?" decides: ``"quit"`` (an answer that names it),
    ``"exact"`` (a bare yes, the first time: ask for the words), ``"stay"`` (no, silence,
    a command, a second bare yes) or ``"carry"`` (anything else — "okay", "correct",
    "lock it in": meant for the game, handed back to its moment). A replayed entry
    keeps the decision it had."""
    if entry is not None and "quit" in entry:
        return entry["quit"]
    if not isinstance(heard, Heard):
        return "stay"
    if u.confirms_quit(heard.text):
        return "quit"
    if u.is_bare_yes(heard.text):
        return "exact" if first else "stay"
    if u.yes_no(heard.text) is False or u.command(heard.text) is not None:
        return "stay"
    return "carry"
