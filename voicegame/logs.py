"""Logging of one command run: the log file, ``-v/--verbose``, and the exit statuses.

- The log file is ``<data dir>/voicegame.log`` (:func:`log_path`; ``$VOICEGAME_DATA_DIR``
  moves it), created 0600 in a 0700 folder. Warnings, and internal errors with their traceback, always go there; ``-v``
  adds information lines, ``-vv`` debug lines.
- stderr (the journal under systemd) gets warnings always, and with ``-v`` / ``-vv``
  everything the log file gets, tracebacks included.

Exit statuses of every command: :data:`OK` 0 (success), :data:`FAILURE` 1 (the command
could not do its work: a device, a model, a download, a saved game), :data:`USAGE` 2 (the
command line is wrong: an unknown option, a value out of range, a file named on it that
cannot be used).
"""

from __future__ import annotations

import logging
import logging.handlers
import os
from pathlib import Path
from typing import Mapping, TextIO

OK, FAILURE, USAGE = 0, 1, 2
LOGGER = "voicegame"
FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"

_echo: TextIO | None = None


class Failure(Exception):
    """The command could not do its work (exit status 1); ``str()`` is one sentence for a person."""


def log_path(env: Mapping[str, str] | None = None) -> Path:
    """``<data dir>/voicegame.log``."""
    from voicegame.engine.journal import data_dir

    return data_dir(env) / "voicegame.log"


def _private_open(path: Path):
    """``path`` opened for appending, created 0600 (the log may name players and games)."""
    return os.fdopen(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600), "a", encoding="utf-8")


class _PrivateRotatingHandler(logging.handlers.RotatingFileHandler):
    """A rotating log file whose files are created 0600."""

    def _open(self):
        return _private_open(Path(self.baseFilename))

    def handleError(self, record) -> None:
        """A line that cannot be written (a full disk) is dropped quietly: never a traceback
        on stderr, and the game goes on (stderr still gets the warning)."""

    def flush(self) -> None:
        try:
            super().flush()
        except OSError:  # a full disk: what is buffered is lost, the run is not
            pass

    def close(self) -> None:
        try:
            super().close()
        except OSError:
            pass


class _Run:
    """The handlers one run added (removed again by :meth:`close`)."""

    def __init__(self, logger: logging.Logger, handlers: list[logging.Handler], level: int, propagate: bool):
        self.logger, self.handlers, self.level, self.propagate = logger, handlers, level, propagate

    def close(self) -> None:
        global _echo
        for h in self.handlers:
            self.logger.removeHandler(h)
            h.close()
        self.logger.setLevel(self.level)
        self.logger.propagate = self.propagate
        _echo = None


def setup(verbose: int, stderr: TextIO, env: Mapping[str, str] | None = None) -> _Run:
    """Send the ``voicegame`` logger to stderr and the log file for this run.

    :param verbose: how often ``-v`` was given (0: warnings only; 1: information; 2: debug).
    :returns: an object whose ``close()`` removes the handlers (tests run many commands in one process).
    """
    global _echo
    logger = logging.getLogger(LOGGER)
    level = logging.WARNING if verbose <= 0 else logging.INFO if verbose == 1 else logging.DEBUG
    run = _Run(logger, [], logger.level, logger.propagate)
    err = logging.StreamHandler(stderr)
    err.setFormatter(logging.Formatter("voicegame: %(message)s"))
    err.setLevel(level)
    run.handlers.append(err)
    path = log_path(env)
    try:
        from voicegame.engine.journal import private_folder

        private_folder(path.parent)
        file = _PrivateRotatingHandler(path, maxBytes=1 << 20, backupCount=2, encoding="utf-8", delay=True)
        file.setFormatter(logging.Formatter(FORMAT))
        file.setLevel(level)
        run.handlers.append(file)
    except OSError:
        pass  # an unwritable data dir: stderr only
    for h in run.handlers:
        logger.addHandler(h)
    logger.setLevel(level)
    _echo = stderr if verbose > 0 else None
    return run


def echo_crash(details: str) -> None:
    """With ``-v``, also print an internal error's traceback (already in the log file) on stderr."""
    if _echo is not None:
        try:
            _echo.write(details.rstrip("\n") + "\n")
            _echo.flush()
        except (OSError, ValueError):
            pass


def crash(details: str, env: Mapping[str, str] | None = None) -> Path:
    """Append a traceback to the log file (and stderr with ``-v``); returns the log's path."""
    import datetime as _dt

    path = log_path(env if env is not None else os.environ)
    try:
        from voicegame.engine.journal import private_folder

        private_folder(path.parent)
        with _private_open(path) as fh:
            fh.write(f"--- {_dt.datetime.now().isoformat(timespec='seconds')}\n{details}\n")
    except OSError:
        pass
    echo_crash(details)
    return path
