"""Where voicegame keeps files, and how it writes them without losing any.

- :func:`data_dir` — ``$VOICEGAME_DATA_DIR`` or ``platformdirs.user_data_dir("voicegame")``
  (records, autosaves, question-bank positions, models).
- :func:`atomic_write_json` — temp file + ``os.replace`` so a crash never leaves
  half a file (POSIX rename is atomic on one file system).
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any, Mapping

import platformdirs

APP = "voicegame"


def data_dir(env: Mapping[str, str] | None = None) -> Path:
    """The user data directory (created on demand by writers, not here)."""
    env = os.environ if env is None else env
    if env.get("VOICEGAME_DATA_DIR"):
        return Path(env["VOICEGAME_DATA_DIR"])
    return Path(platformdirs.user_data_dir(APP))


def config_dir(env: Mapping[str, str] | None = None) -> Path:
    """The user configuration directory (``$VOICEGAME_CONFIG_DIR`` overrides)."""
    env = os.environ if env is None else env
    if env.get("VOICEGAME_CONFIG_DIR"):
        return Path(env["VOICEGAME_CONFIG_DIR"])
    return Path(platformdirs.user_config_dir(APP))


def atomic_write_json(path: str | Path, data: Any, durable: bool = True) -> None:
    """Write ``data`` as compact JSON to ``path`` atomically (temp file + rename).

    :param durable: also ``fsync`` the file, so it survives a power cut, not just
        a crash of the process (a rename without fsync already survives a killed
        process: the data is in the kernel's page cache).
    :raises OSError: the directory cannot be created or the disk is full; the
        previous file (if any) is left intact.
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            json.dump(data, fh, ensure_ascii=False, separators=(",", ":"))
            fh.flush()
            if durable:
                os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def read_json(path: str | Path) -> Any:
    """Read a JSON file.

    :raises ValueError: the file is missing or malformed; the message names the
        file and, for malformed JSON, the line.
    """
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ValueError(f"Cannot read {path}: {exc.strerror or exc}.") from exc
    except UnicodeDecodeError as exc:
        raise ValueError(f"{path} is not UTF-8 text.") from exc
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise ValueError(f"{path}, line {exc.lineno}: not valid JSON ({exc.msg}).") from exc


def data_lines(path: str | Path, error: type[Exception], what: str) -> list[tuple[int, str]]:
    """The lines of a UTF-8 text file (script, deck) without blank and ``#`` lines.

    :param error: the exception class to raise (e.g. ``ScriptError``, ``DeckError``).
    :param what: what the file is, for the message ("script file", "deck").
    :returns: ``[(line_number, stripped_text), …]``.
    :raises error: the file cannot be read or a line is not UTF-8 (names file and line).
    """
    p = Path(path)
    try:
        raw = p.read_bytes()
    except OSError as exc:
        raise error(f"Cannot read the {what} {p}: {exc.strerror or exc}.") from exc
    lines = []
    for number, line in enumerate(raw.split(b"\n"), start=1):
        try:
            text = line.decode("utf-8").strip()
        except UnicodeDecodeError as exc:
            raise error(f"{p}, line {number}: not UTF-8 text.") from exc
        if text and not text.startswith("#"):
            lines.append((number, text))
    return lines
