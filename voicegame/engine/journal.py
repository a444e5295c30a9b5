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
import threading
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


def atomic_write_text(path: str | Path, text: str, durable: bool = True) -> None:
    """Write ``text`` to ``path`` atomically (temp file + rename), ``fsync``-ed if ``durable``.

    :raises OSError: the directory cannot be created or the disk is full; the
        previous file (if any) is left intact.
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
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


def to_json(data: Any) -> str:
    """Compact JSON with the C encoder (``json.dump`` to a file never uses it: 5× slower)."""
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


class BackgroundWriter:
    """One thread that does the slow, power-cut-safe writes off the listening path.

    ``write(path, text)`` replaces the file atomically and fsyncs it; ``sync(path)``
    fsyncs an existing file. Jobs for the same path coalesce (only the newest
    text is written). ``flush()`` waits until everything is on disk. A failure is
    kept in :attr:`error` (the caller says it once); the thread never dies of it.
    """

    def __init__(self):
        self._jobs: dict[Path, str | None] = {}
        self._lock = threading.Condition()
        self._busy = False
        self.error: OSError | None = None
        self._thread = threading.Thread(target=self._run, name="voicegame-writer", daemon=True)
        self._thread.start()

    def write(self, path: str | Path, text: str) -> None:
        with self._lock:
            self._jobs[Path(path)] = text
            self._lock.notify_all()

    def sync(self, path: str | Path) -> None:
        with self._lock:
            self._jobs.setdefault(Path(path), None)
            self._lock.notify_all()

    def flush(self) -> None:
        """Block until every queued write is done."""
        with self._lock:
            while self._jobs or self._busy:
                self._lock.wait()

    def _run(self) -> None:
        while True:
            with self._lock:
                while not self._jobs:
                    self._lock.wait()
                path, text = self._jobs.popitem()
                self._busy = True
            try:
                if text is None:
                    fd = os.open(path, os.O_RDONLY)
                    try:
                        os.fsync(fd)
                    finally:
                        os.close(fd)
                else:
                    atomic_write_text(path, text, durable=True)
            except OSError as exc:
                self.error = exc
            finally:
                with self._lock:
                    self._busy = False
                    self._lock.notify_all()


_WRITER: BackgroundWriter | None = None


def background_writer() -> BackgroundWriter:
    """The process's one :class:`BackgroundWriter` (started on first use)."""
    global _WRITER
    if _WRITER is None:
        _WRITER = BackgroundWriter()
    return _WRITER


def atomic_write_json(path: str | Path, data: Any, durable: bool = True) -> None:
    """Write ``data`` as compact JSON to ``path`` atomically (temp file + rename).

    :param durable: also ``fsync`` the file, so it survives a power cut, not just
        a crash of the process (a rename without fsync already survives a killed
        process: the data is in the kernel's page cache).
    :raises OSError: the directory cannot be created or the disk is full; the
        previous file (if any) is left intact.
    """
    atomic_write_text(path, to_json(data), durable)


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


def journal_path(autosave: str | Path) -> Path:
    """The append-only journal beside an autosave: ``<autosave>.journal``."""
    autosave = Path(autosave)
    return autosave.with_name(autosave.name + ".journal")


def open_journal(autosave: str | Path):
    """Open the autosave's journal for appending (creating its folder); line-buffered text.

    :raises OSError: the folder cannot be written.
    """
    path = journal_path(autosave)
    path.parent.mkdir(parents=True, exist_ok=True)
    return path.open("a", encoding="utf-8", buffering=1)


def write_journal_line(fh, index: int, entry: dict, generation: str = "", seq: int = 0) -> None:
    """Write one journal line (see :func:`append_journal`) to an open journal and flush it
    to the operating system (a killed process loses nothing; a power cut may)."""
    fh.write(to_json({"g": generation, "n": seq, "i": index, "entry": entry}) + "\n")
    fh.flush()


def append_journal(autosave: str | Path, index: int, entry: dict, generation: str = "", seq: int = 0) -> None:
    """Append one input-log entry (JSON line, with its index in the log and the
    generation of the autosave it continues) to the journal.

    A line append costs microseconds, so every listening moment is saved this way;
    the full autosave is rewritten at phase changes and the journal restarted.

    :raises OSError: the disk is full or the folder cannot be written.
    """
    with open_journal(autosave) as fh:
        write_journal_line(fh, index, entry, generation, seq)


def load_autosave(path: str | Path) -> dict:
    """An autosave with its journal applied: the input log as it was at the last listening moment.

    Only journal lines of the autosave's own ``generation`` count (a replay after
    an undo or a resume starts a new generation, so older lines can never
    overwrite the new log), and of those only lines written after the autosave
    (sequence ``n`` above the autosave's ``journal_seq``); such a line for an index
    the log holds replaces that entry (it is newer); a torn last line (the
    process died while writing it) is ignored.

    :raises ValueError: the autosave is missing or malformed (names the file and line).
    """
    save = read_json(path)
    if not isinstance(save, dict) or not isinstance(save.get("log"), list):
        return save
    log = save["log"]
    try:
        lines = journal_path(path).read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return save
    for line in lines:
        try:
            item = json.loads(line)
            index, entry, generation = int(item["i"]), item["entry"], item.get("g", "")
            seq = int(item.get("n", 0))
        except (ValueError, KeyError, TypeError):
            break  # torn write at the end
        if generation != save.get("generation", "") or seq <= int(save.get("journal_seq", -1)):
            continue
        if index < len(log):
            log[index] = entry
        elif index == len(log):
            log.append(entry)
        else:
            break  # a gap: never guess
    return save
