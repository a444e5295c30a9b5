"""``python -m tests.full_disk_child FLAG ARGS…``: run ``voicegame ARGS`` on a disk that is
full while the file FLAG exists (tests/fuzz.py :func:`~tests.fuzz.full_disk_and_resume`).

Every write of the game fails then with ``ENOSPC`` — the autosave (written at once or by
the background writer), the journal, the record, the log file — as on a real full disk;
the harness creates and removes FLAG between two inputs.
"""

from __future__ import annotations

import errno
import os
import sys
from pathlib import Path

from voicegame import logs
from voicegame.cli import entry
from voicegame.engine import journal, table

FLAG = Path(sys.argv.pop(1))


def _full() -> OSError | None:
    return OSError(errno.ENOSPC, os.strerror(errno.ENOSPC)) if FLAG.exists() else None


class FullDiskStorage(journal.Storage):
    """The disk, full while FLAG exists."""

    def __init__(self):
        self._error: OSError | None = None

    def write_now(self, path, data) -> None:
        if (error := _full()) is not None:
            raise error
        super().write_now(path, data)

    def write_later(self, path, text) -> None:
        if (error := _full()) is not None:
            self._error = error  # what the background writer would have met
        else:
            super().write_later(path, text)

    def take_error(self):
        error, self._error = self._error, None
        return super().take_error() or error

    def write_journal(self, fh, index, entry, generation, seq) -> None:
        if (error := _full()) is not None:
            raise error
        super().write_journal(fh, index, entry, generation, seq)


class _FullDiskFile:
    """The log file, whose writes fail while FLAG exists."""

    def __init__(self, fh):
        self._fh = fh

    def write(self, text):
        if (error := _full()) is not None:
            raise error
        return self._fh.write(text)

    def __getattr__(self, name):
        return getattr(self._fh, name)


_open_log = logs._private_open
logs._private_open = lambda path: _FullDiskFile(_open_log(path))
table.Storage = FullDiskStorage
entry()
