"""Headless adapters: scripted utterances, keyboard, printed text, clocks.

- :class:`ScriptListener` — ``--input PATH``: one utterance per listening moment.
- :class:`KeyboardListener` — ``--input keyboard``: each typed line is an utterance.
- :class:`TextVoice` — ``--output text``: prints ``HOST: …`` and ``PRIVATE <who>: …``.
- :class:`RealClock` and :class:`VirtualClock` — the ``Clock`` port.
"""

from __future__ import annotations

import os
import select
import sys
import time
from pathlib import Path
from typing import Callable, TextIO

from voicegame.ports import Expected, Heard, InputEnded, Silence
from voicegame.engine.journal import data_lines

#: The script line meaning "nothing was heard in this listening moment".
SILENCE_LINE = "<silence>"


class ScriptError(Exception):
    """A script file cannot be read; ``str()`` names the file and line."""


def read_script(path: str | Path) -> list[tuple[int, str]]:
    """Read a script file: UTF-8, one utterance per line, blank and ``#`` lines ignored.

    :returns: ``[(line_number, utterance), …]``; ``<silence>`` is kept as is.
    :raises ScriptError: the file is missing or not UTF-8 (names the file and line).
    """
    return data_lines(path, ScriptError, "script file")


class ScriptListener:
    """Plays back utterances from a script file, one per listening moment.

    :param source: a path or an already-read list of ``(line, text)``.
    :param clock: optional clock advanced by ``timeout_s`` on ``<silence>``.
    :raises ScriptError: the file is unreadable.
    """

    def __init__(self, source, clock=None, echo: Callable[[str], None] | None = None):
        self.lines = read_script(source) if isinstance(source, (str, Path)) else list(source)
        self.position = 0
        self.clock = clock
        self.echo = echo

    def listen(self, expected: Expected, timeout_s: float | None) -> Heard | Silence:
        """Next script line as :class:`Heard` (confidence 1.0) or :class:`Silence`.

        :raises InputEnded: no lines left.
        """
        if self.position >= len(self.lines):
            raise InputEnded("script")
        _, text = self.lines[self.position]
        self.position += 1
        if text.lower() == SILENCE_LINE:
            if self.echo:
                self.echo("(silence)")
            if self.clock is not None and timeout_s:
                self.clock.sleep(timeout_s)
            return Silence(timeout_s or 0.0)
        if self.echo:
            self.echo(text)
        return Heard(text.lower())


class KeyboardListener:
    """Each typed line is an utterance; an empty line is silence; end of input ends the game.

    A listening moment with a timeout waits at most that long for a line (as a
    microphone waits for speech), so the game's timers run the same with a keyboard;
    a stream without a file descriptor (a test's ``StringIO``) is read at once.

    :param stream: input stream (default ``sys.stdin``).
    :param prompt: printed before reading, e.g. ``"> "``.
    """

    def __init__(self, stream: TextIO | None = None, prompt: str = "> ", out: TextIO | None = None):
        self.stream = stream or sys.stdin
        self.prompt = prompt
        self.out = out or sys.stdout
        self._pending = b""
        self._eof = False
        try:
            self._fd: int | None = self.stream.fileno()
        except (AttributeError, OSError, ValueError):
            self._fd = None

    def listen(self, expected: Expected, timeout_s: float | None) -> Heard | Silence:
        """Read one line (at most ``timeout_s`` seconds). :raises InputEnded: end of input (Ctrl-D)."""
        self.out.write(self.prompt)
        self.out.flush()
        try:
            line = self._read_line(timeout_s)
        except KeyboardInterrupt as exc:
            raise InputEnded("keyboard") from exc
        if line is None:
            self.out.write("\n")
            return Silence(timeout_s or 0.0)
        if not line:
            raise InputEnded("keyboard")
        text = line.strip()
        if not text or text.lower() == SILENCE_LINE:
            return Silence(timeout_s or 0.0)
        return Heard(text.lower())

    def _read_line(self, timeout_s: float | None) -> str | None:
        """The next line ("" at the end of input), or ``None`` when ``timeout_s`` passed first."""
        if self._fd is None:
            return self.stream.readline()
        deadline = None if timeout_s is None else time.monotonic() + timeout_s
        while b"\n" not in self._pending and not self._eof:
            wait = None if deadline is None else max(0.0, deadline - time.monotonic())
            ready, _, _ = select.select([self._fd], [], [], wait)
            if not ready:
                return None
            chunk = os.read(self._fd, 4096)
            if not chunk:
                self._eof = True
            self._pending += chunk
        if b"\n" in self._pending:
            line, self._pending = self._pending.split(b"\n", 1)
            return line.decode("utf-8", "replace") + "\n"
        line, self._pending = self._pending, b""
        return line.decode("utf-8", "replace")


class TextVoice:
    """Prints what the host says: ``HOST: …``, ``PRIVATE <audience>: …``, ``TONE <label>``.

    :param out: output stream (default ``sys.stdout``).
    """

    def __init__(self, out: TextIO | None = None):
        self.out = out or sys.stdout
        self.rate_step = 0
        self.volume_step = 0

    def _print(self, line: str) -> None:
        self.out.write(line + "\n")
        self.out.flush()

    def say(self, text: str, to: str | None = None) -> None:
        self._print(f"PRIVATE {to}: {text}" if to else f"HOST: {text}")

    def tone(self, frequency_hz: float, duration_s: float = 0.12, label: str = "") -> None:
        self._print(f"TONE {label or f'{frequency_hz:.0f} Hz'}")

    def adjust(self, rate_step: int = 0, volume_step: int = 0) -> None:
        self.rate_step += rate_step
        self.volume_step += volume_step


class NullVoice:
    """Says nothing (used while replaying a saved game)."""

    def say(self, text: str, to: str | None = None) -> None:
        pass

    def tone(self, frequency_hz: float, duration_s: float = 0.12, label: str = "") -> None:
        pass

    def adjust(self, rate_step: int = 0, volume_step: int = 0) -> None:
        pass


class RealClock:
    """Wall-clock time (monotonic seconds) and real sleeping."""

    def now(self) -> float:
        return time.monotonic()

    def sleep(self, seconds: float) -> None:
        if seconds > 0:
            time.sleep(seconds)


class VirtualClock:
    """A clock that only moves when told: ``sleep`` advances it instantly (tests, scripts)."""

    def __init__(self, start: float = 0.0):
        self.t = start

    def now(self) -> float:
        return self.t

    def sleep(self, seconds: float) -> None:
        if seconds > 0:
            self.t += seconds
