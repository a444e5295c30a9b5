"""Game timers (G1): announced, warned at 10 s left, ended aloud; "ready" when off.

:class:`Timers` runs a timer on the table's clock (virtual while a log is
replayed); with ``--timer off`` the table is asked to say "ready" instead.
"""

from __future__ import annotations

from voicegame.engine.moment import Moment, NotUnderstood

#: Seconds before the end at which a running timer warns.
WARNING_S = 10.0


class Timers:
    """:param table: the :class:`voicegame.engine.table.Table` whose clock, speech and
    moments the timers use; seconds come from ``table.settings.timer_s``."""

    def __init__(self, table):
        self.t = table

    def run(self, purpose_key: str, **values) -> None:
        """Run one game timer for ``purpose_key`` (the prompt naming what it is for)."""
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
        if seconds > WARNING_S:
            t.clock.sleep(seconds - WARNING_S)
            t.say_text(t.text("common.timer_warning"), remember=False)
            t.clock.sleep(WARNING_S)
        else:
            t.clock.sleep(seconds)
        t.say_text(t.text("common.timer_end"), remember=False)
