"""Game timers (G1) that listen: announced, warned at 10 s left, ended aloud.

While a timer runs the table keeps listening: a global command takes effect at
once ("pause" stops the timer, "resume" goes on with the time that was left), and
a timed moment (:meth:`Timers.timed`) takes answers as they come and ends as soon
as every player has acted. With ``--timer off`` the table says "ready" instead.
Each change is published as a :class:`~voicegame.engine.observer.Timer` event.

Only listening counts against a timer: the time the host speaks, a command takes (the
pause, the quit question) or an answer's callback takes (a confirmation) does not.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from voicegame.engine.moment import SILENT, Moment, NotUnderstood, encode_intent, _command_of, _outcome
from voicegame.engine.observer import Timer
from voicegame.ports import Expected, Heard, Silence

#: Seconds before the end at which a running timer warns.
WARNING_S = 10.0


@dataclass(frozen=True)
class TimerWords:
    """What a timer says (prompt keys; ``None``: nothing): at the start (``{purpose}``,
    ``{seconds}``; ``None``: the host has said the question and its time itself), at 10 s left
    (:data:`WARNING_S`; ``None``: the host says it, e.g. in the question it asks again), when
    the time runs out, and when everyone has acted before it does; with ``--timer off``, the
    start (``{purpose}``: ``common.timer_off``, or ``common.timer_off_short`` where an opening
    needs the room)."""

    start: str | None = "common.timer_start"
    warning: str | None = "common.timer_warning"
    end: str | None = "common.timer_end"
    all_done: str | None = "common.timer_all_done"
    off: str = "common.timer_off"


@dataclass
class _Running:
    total_s: float
    left_s: float
    active: bool = True


class Timers:
    """:param table: the :class:`voicegame.engine.table.Table` whose clock, speech and
    listening the timers use; seconds come from ``table.settings.timer_s``."""

    def __init__(self, table):
        self.t = table
        #: the timer running now (one at a time), else ``None``
        self.running: _Running | None = None

    # ------------------------------------------------------------------ pause
    def pause(self) -> None:
        """Stop the running timer (its time left is kept)."""
        if self.running is not None and self.running.active:
            self.running.active = False
            self._publish()

    def resume(self) -> None:
        """Go on with the time that was left."""
        if self.running is not None and not self.running.active:
            self.running.active = True
            self._publish()

    def _publish(self) -> None:
        r = self.running
        if r.total_s <= 0:  # no timer (``--timer off``): nothing to draw
            return
        self.t.observers.publish(Timer(r.total_s, round(max(0.0, r.left_s), 3), r.active))

    # ------------------------------------------------------------------ timers
    def run(self, purpose_key: str, **values) -> None:
        """Run one game timer for ``purpose_key`` (the prompt naming what it is for); only
        commands are listened for. Something else said during it is kept for the moment
        after the timer (the timer then runs out without listening)."""
        t = self.t
        seconds = t.settings.timer_s
        purpose = t.text(purpose_key, **values)
        if not seconds:
            u = t.understanding

            def parse(text: str) -> bool:
                if u.is_ready(text):
                    return True
                raise NotUnderstood

            t.moment(Moment("common.timer_off", parse, "common.help_ready", "ready", phrases=u.ready_words,
                            timeout_s=None, values={"purpose": purpose}))
            return
        t.say_text(t.text("common.timer_start", seconds=int(seconds), purpose=purpose), remember=False)
        self._listen(seconds, None, None, None)

    def timed(self, purpose_key: str | None, m: Moment, done: Callable[[], bool],
              on_answer: Callable[[Any], None] | None = None, words: TimerWords = TimerWords(), **values) -> list:
        """A timed moment: the timer runs while ``m``'s answers are taken as they come.

        :param purpose_key: the prompt naming what the timer is for (``{purpose}`` of the start
            sentence); ``None`` with ``words.start`` ``None``.
        :param m: the moment (its ``key`` is not said). With ``m.silence_limit`` a silence that
            ends a listen (at the warning, at the end) is an answer: :data:`SILENT` goes to
            ``on_answer``, accepted, so undo can take it back (the host calls
            ``table.not_undoable()`` when it only let time pass).
        :param done: ``done() -> bool``: every player has acted; the timer ends at once.
        :param on_answer: called with each accepted answer (apply it, read it back, even ask a
            confirmation: its time does not count).
        :param words: what the timer says (:class:`TimerWords`; :meth:`left_s` tells a host that
            says the warning itself the time left).
        :returns: the accepted answers, in order (silences left out).
        """
        t = self.t
        answers: list = []

        def take(value):
            if value is not SILENT:
                answers.append(value)
            if on_answer is not None:
                on_answer(value)

        seconds = t.settings.timer_s
        start = self.start_text(purpose_key, words.start, words.off, **values)
        if not seconds:  # no timer: answers until everyone has acted or "ready"
            if start is not None:
                t.say_text(start)
            self._listen(None, m, done, take)
            return answers
        if start is not None:
            t.say_text(start, remember=False)
        self._listen(seconds, m, done, take, words)
        return answers

    def start_text(self, purpose_key: str | None, start_key: str | None = TimerWords.start,
                   off_key: str = TimerWords.off, **values) -> str | None:
        """The sentence :meth:`timed` starts with: ``start_key`` (``{purpose}``, ``{seconds}``),
        with ``--timer off`` ``off_key`` (``{purpose}``); ``None`` when ``start_key`` is ``None``."""
        if start_key is None:
            return None
        t = self.t
        purpose = t.text(purpose_key, **values) if purpose_key else ""
        seconds = t.settings.timer_s
        if not seconds:
            return t.text(off_key, purpose=purpose)
        return t.text(start_key, seconds=int(seconds), purpose=purpose)

    def left_s(self) -> float | None:
        """Seconds left on the running timer (below 0 when an answer came after the end), or
        ``None`` when no timer runs (``--timer off``, or outside a timer)."""
        r = self.running
        return r.left_s if r is not None and r.total_s > 0 else None

    def _listen(self, seconds: float | None, m: Moment | None, done, take, words: TimerWords = TimerWords()) -> None:
        """Listen until the time is up (``seconds`` ``None``: until ``done()`` or "ready")."""
        t = self.t
        u = t.understanding
        if m is None:
            expected = Expected(u.grammar(), False, "timer")
        elif m.free:
            expected = Expected.free_text(m.name)
        else:  # as in any moment: after a number word an utterance may go on ("two … thousand")
            grammar = u.grammar(m.phrases, u.ready_words if seconds is None else ())
            expected = Expected(grammar, False, m.name, tuple(set(u.number_words()).intersection(grammar)))
        outer, self.running = self.running, _Running(seconds or 0.0, seconds or 0.0)
        r = self.running
        if seconds:
            self._publish()
        warned = bool(seconds) and seconds <= WARNING_S
        carried: Heard | None = None
        silences = 0
        finished = False  # done() ended it
        try:
            while seconds is None or r.left_s > 1e-9:
                if done is not None and done():
                    finished = True
                    break
                if carried is not None:
                    heard, carried = carried, None
                else:
                    if seconds is None:
                        wait = None
                    else:
                        wait = r.left_s - WARNING_S if not warned and r.left_s > WARNING_S else r.left_s
                    start = t.clock.now()
                    heard = t.listen(expected, wait)
                    if seconds is not None:
                        r.left_s -= t.clock.now() - start
                    if seconds is not None and not warned and r.left_s <= WARNING_S + 1e-9 and r.left_s > 1e-9:
                        warned = True
                        if words.warning is not None:
                            t.say_text(t.text(words.warning), remember=False)
                        self._publish()
                if isinstance(heard, Silence) and m is not None and m.silence_limit is not None:
                    silences += 1
                    if silences >= m.silence_limit:  # a silence is an answer here
                        silences = 0
                        t.accepted(SILENT, encode_intent(SILENT))
                        take(SILENT)
                    continue
                if not isinstance(heard, Heard):
                    continue
                entry = t.replayed()
                command = _command_of(u, heard, entry)
                if command:
                    carried = t.command(command, m or _TIMER_MOMENT)
                    continue
                if m is None:  # a plain timer takes no answers: keep it for the next moment
                    t.hold()
                    if seconds is not None and r.left_s > 0:
                        t.clock.sleep(r.left_s)
                    r.left_s = 0.0
                    break
                if seconds is None and u.is_ready(heard.text):  # no timer: "ready" ends it
                    t.missed()
                    break
                outcome = _outcome(m.parse, heard, entry)
                if outcome[0] == "ok":
                    t.accepted(outcome[1], encode_intent(outcome[1]))
                    take(outcome[1])
                    continue
                t.missed()
                if outcome[0] in ("not_allowed", "ambiguous"):
                    t.say_text(outcome[1], remember=False)
            else:
                finished = done is not None and done()
        finally:
            ended = self.running
            self.running = outer
        if seconds is not None:
            if finished:
                if ended.left_s > 1e-9 and words.all_done is not None:
                    t.say_text(t.text(words.all_done), remember=False)
            elif ended.left_s <= 1e-9 and words.end is not None:
                t.say_text(t.text(words.end), remember=False)
            ended.left_s, ended.active = 0.0, False
            t.observers.publish(Timer(ended.total_s, 0.0, False))


_TIMER_MOMENT = Moment(None, lambda text: None, "common.help_timer", "timer")
