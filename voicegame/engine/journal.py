"""Where voicegame keeps files, and how it writes them without losing any.

- :func:`data_dir` — ``$VOICEGAME_DATA_DIR`` or ``platformdirs.user_data_dir("voicegame")``
  (records, autosaves, question-bank positions, models), read from the environment a
  command runs in (:func:`environment`; else ``os.environ``).
- :func:`atomic_write_json` — temp file + ``os.replace`` so a crash never leaves
  half a file (POSIX rename is atomic on one file system).
"""

from __future__ import annotations

import contextlib
import contextvars
import errno
import json
import logging
import math
import os
import tempfile
import threading
import time
import uuid
import zlib
from pathlib import Path
from typing import Any, Mapping

import platformdirs

from voicegame.engine.snapshot import plain_data

APP = "voicegame"
_log = logging.getLogger(__name__)
#: the environment of the command running (``cli.main`` sets its ``Env.environ``)
_ENVIRON: contextvars.ContextVar[Mapping[str, str] | None] = contextvars.ContextVar("voicegame_environ",
                                                                                     default=None)


@contextlib.contextmanager
def environment(environ: Mapping[str, str]):
    """Within the block, :func:`data_dir` and :func:`config_dir` called with no ``env`` read
    ``environ`` (a command's own, which a test passes in) instead of ``os.environ``."""
    token = _ENVIRON.set(environ)
    try:
        yield
    finally:
        _ENVIRON.reset(token)


def _environ(env: Mapping[str, str] | None) -> Mapping[str, str]:
    if env is not None:
        return env
    current = _ENVIRON.get()
    return os.environ if current is None else current


def data_dir(env: Mapping[str, str] | None = None) -> Path:
    """The user data directory (created on demand by writers, not here)."""
    env = _environ(env)
    if env.get("VOICEGAME_DATA_DIR"):
        return Path(env["VOICEGAME_DATA_DIR"])
    return Path(platformdirs.user_data_dir(APP))


def config_dir(env: Mapping[str, str] | None = None) -> Path:
    """The user configuration directory (``$VOICEGAME_CONFIG_DIR`` overrides)."""
    env = _environ(env)
    if env.get("VOICEGAME_CONFIG_DIR"):
        return Path(env["VOICEGAME_CONFIG_DIR"])
    return Path(platformdirs.user_config_dir(APP))


def private_folder(folder: str | Path) -> Path:
    """Create ``folder`` (and parents) as 0700: what players said is nobody else's business."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True, mode=0o700)
    try:
        if folder.stat().st_mode & 0o777 != 0o700:
            folder.chmod(0o700)
    except OSError:
        pass
    return folder


#: Records kept by default, and for how many days (0 = no age limit); see docs/configuration.md.
KEEP_RECORDS = 500
KEEP_DAYS = 0


def _env_count(env: Mapping[str, str], name: str, default: int) -> int:
    try:
        value = int(env.get(name, default))
    except (TypeError, ValueError):
        return default
    return value if value >= 0 else default


def tidy(env: Mapping[str, str] | None = None, now: float | None = None) -> list[Path]:
    """Housekeeping at start: stray temporary files (a kill mid-write) go; a finished game's
    autosave and journal go once its record exists; records beyond
    ``$VOICEGAME_KEEP_RECORDS`` (newest kept, default 500) or older than
    ``$VOICEGAME_KEEP_DAYS`` days (0 = no limit) go; folders become 0700 and files 0600.

    :returns: the files removed. Never raises (a file that cannot be touched stays).
    """
    env = os.environ if env is None else env
    now = time.time() if now is None else now
    root = data_dir(env)
    removed: list[Path] = []

    def remove(path: Path) -> None:
        try:
            path.unlink()
            removed.append(path)
        except OSError:
            pass

    if not root.is_dir():
        return removed
    private_folder(root)
    autosaves, records = root / "autosave", root / "records"
    for folder in (root, autosaves, records):
        if not folder.is_dir():
            continue
        private_folder(folder)
        for path in folder.glob(".*.tmp"):
            remove(path)
        for path in folder.iterdir():
            try:
                if path.is_file() and path.stat().st_mode & 0o077:
                    path.chmod(0o600)
            except OSError:
                pass
    if autosaves.is_dir():
        for path in autosaves.glob("*.json"):
            try:
                save = read_json(path)
                finished = isinstance(save, dict) and save.get("finished") is True
                record = (save.get("settings") or {}).get("record") if finished else None
                record_path = Path(record) if isinstance(record, str) else records / path.name
            except (ValueError, AttributeError, TypeError):
                continue
            if finished and record_path.exists():
                remove(path)
                remove(journal_path(path))
    if records.is_dir():
        keep = _env_count(env, "VOICEGAME_KEEP_RECORDS", KEEP_RECORDS)
        days = _env_count(env, "VOICEGAME_KEEP_DAYS", KEEP_DAYS)
        dated = sorted(((p.stat().st_mtime, p) for p in records.glob("*.json")), reverse=True)
        for rank, (mtime, path) in enumerate(dated):
            if rank >= keep or (days and now - mtime > days * 86400):
                remove(path)
    return removed


def atomic_write_text(path: str | Path, text: str, durable: bool = True) -> None:
    """Write ``text`` to ``path`` atomically (temp file + rename), ``fsync``-ed if ``durable``.

    :raises OSError: the directory cannot be created or the disk is full; the
        previous file (if any) is left intact.
    """
    path = Path(path)
    if not path.parent.is_dir():
        private_folder(path.parent)
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


def dict_json(data: dict, known: Mapping[str, str]) -> str:
    """``to_json(data)``, byte for byte, with the values of the keys in ``known`` given as
    their JSON text already (``{"k":v,…}`` in the dict's order, the separators of :func:`to_json`).

    :raises TypeError: a key is not a string (the encoder would turn it into one).
    """
    parts = []
    for key, value in data.items():
        if not isinstance(key, str):
            raise TypeError(f"dict_json: key {key!r} is not a string")
        code = known.get(key)
        parts.append(f"{to_json(key)}:{to_json(value) if code is None else code}")
    return "{" + ",".join(parts) + "}"


class ListJson:
    """``to_json`` of a list that mostly grows at its end and of which mostly the newest item
    changes (the input log: :class:`~voicegame.engine.table.Table` sets keys of ``log[-1]``
    alone; the record's accepted inputs are never changed). Every item but the newest is
    encoded once and kept, with the item itself and a shallow copy of a dict item: an item
    that is not the same object as the one kept at its index (the list was cut, an item
    replaced) or a dict whose keys were set since (an older entry changed after all) is
    encoded again, as is everything after it. The newest item is encoded on every call.
    A change deep inside an older item (a list in it appended to) is not seen: nothing does it.
    """

    def __init__(self):
        self._items: list = []  # the items encoded, index by index (kept alive: ids never reused)
        self._shallow: list = []  # a shallow copy of each dict item, as encoded
        self._codes: list[str] = []

    def encode(self, items: list) -> str:
        """``to_json(items)``, byte for byte."""
        last = len(items) - 1
        same = 0
        limit = min(len(self._items), max(last, 0))
        while same < limit and self._items[same] is items[same] \
                and (self._shallow[same] is None or self._shallow[same] == items[same]):
            same += 1
        del self._items[same:], self._codes[same:], self._shallow[same:]
        for item in items[same:last]:
            self._items.append(item)
            self._shallow.append(dict(item) if isinstance(item, dict) else None)
            self._codes.append(to_json(item))
        codes = self._codes if last < 0 else [*self._codes, to_json(items[last])]
        return "[" + ",".join(codes) + "]"


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
    :raises error: the file cannot be read or a line is not UTF-8 (names file and line); the
        exception also carries ``kind`` (``"unreadable"``, ``"utf16"``, ``"not_utf8"``) and
        ``line`` (``None`` for the whole file), for callers that say it in a table's language.
    """
    def problem(message: str, kind: str, line: int | None = None) -> Exception:
        exc = error(message)
        exc.kind, exc.line = kind, line
        return exc

    p = Path(path)
    try:
        raw = p.read_bytes()
    except OSError as exc:
        raise problem(f"Cannot read the {what} {p}: {exc.strerror or exc}.", "unreadable") from exc
    head = raw[:4096]
    # UTF-16 without a byte-order mark has a zero byte beside every ASCII letter; a stray
    # NUL in UTF-8 text (which is valid UTF-8) is not that
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")) or (head and head.count(0) * 4 >= len(head)):
        raise problem(f"{p} is not UTF-8 text (it looks like UTF-16): save it as UTF-8.", "utf16")
    raw = raw.removeprefix(b"\xef\xbb\xbf")  # a UTF-8 byte-order mark
    lines = []
    for number, line in enumerate(raw.split(b"\n"), start=1):
        try:
            text = line.decode("utf-8").strip()
        except UnicodeDecodeError as exc:
            raise problem(f"{p}, line {number}: not UTF-8 text.", "not_utf8", number) from exc
        if text and not text.startswith("#"):
            lines.append((number, text))
    return lines


def journal_path(autosave: str | Path) -> Path:
    """The append-only journal beside an autosave: ``<autosave>.journal``."""
    autosave = Path(autosave)
    return autosave.with_name(autosave.name + ".journal")


class JournalFile:
    """An open journal: one self-checking line per listening moment (see :func:`journal_line`).

    Opening cuts a torn tail (a kill or a full disk mid-write) back to the last whole line
    before anything is appended; a write that fails part-way is cut back the same way, so a
    later line is never glued onto half a line.

    :raises OSError: the folder cannot be written.
    """

    def __init__(self, path: Path):
        self.path = path
        path.parent.mkdir(parents=True, exist_ok=True)
        self._fh = _private_open(path, "ab")
        self._cut_torn_tail()

    def _cut_torn_tail(self) -> None:
        size = self._fh.seek(0, os.SEEK_END)
        if size == 0:
            return
        with self.path.open("rb") as reader:
            data = reader.read()
        end = data.rfind(b"\n") + 1  # 0 when there is no whole line at all
        if end != size:
            os.ftruncate(self._fh.fileno(), end)
            self._fh.seek(end)

    def write(self, line: bytes) -> None:
        """Append one line and hand it to the operating system (a killed process loses nothing).

        :raises OSError: the disk is full; the file is left ending on a whole line.
        """
        start = self._fh.seek(0, os.SEEK_END)
        try:
            rest = memoryview(line)
            while rest:  # an unbuffered write may take only part of the line (a disk filling up)
                written = self._fh.write(rest)
                if not written:
                    raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
                rest = rest[written:]
            self._fh.flush()
        except OSError:
            try:
                os.ftruncate(self._fh.fileno(), start)
                self._fh.seek(start)
            except OSError:
                pass
            raise

    def close(self) -> None:
        self._fh.close()


def _private_open(path: Path, mode: str):
    """Open ``path`` so that a new file is 0600 (the journal holds what players said)."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_APPEND
    return os.fdopen(os.open(path, flags, 0o600), mode, buffering=0)


def open_journal(autosave: str | Path) -> JournalFile:
    """Open the autosave's journal for appending (creating its folder).

    :raises OSError: the folder cannot be written.
    """
    return JournalFile(journal_path(autosave))


def journal_line(index: int, entry: dict, generation: str = "", seq: int = 0) -> bytes:
    """One journal line: ``<crc32 of the JSON, 8 hex digits> <JSON>\\n``.

    The JSON is pure ASCII (``ensure_ascii``), so no character of an utterance — U+2028,
    U+0085, a form feed — can ever end the line early; the CRC tells a damaged line.
    """
    body = json.dumps({"g": generation, "n": seq, "i": index, "entry": entry},
                      ensure_ascii=True, separators=(",", ":")).encode("ascii")
    return b"%08x " % zlib.crc32(body) + body + b"\n"


def parse_journal_line(line: bytes) -> dict:
    """The object of one journal line (also the older lines without a CRC).

    :raises ValueError: the line is damaged (CRC mismatch, not JSON, wrong shape).
    """
    if line[:1] == b"{":  # an older journal: plain JSON lines
        body = line
    else:
        crc, _, body = line.partition(b" ")
        if len(crc) != 8 or not body:
            raise ValueError("no checksum")
        try:
            expected = int(crc, 16)
        except ValueError:
            raise ValueError("no checksum") from None
        if zlib.crc32(body) != expected:
            raise ValueError("checksum mismatch")
    try:
        item = json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ValueError("not JSON") from exc
    if not (isinstance(item, dict) and isinstance(item.get("i"), int) and not isinstance(item.get("i"), bool)
            and item["i"] >= 0 and isinstance(item.get("entry"), dict)
            and isinstance(item.get("g", ""), str) and isinstance(item.get("n", 0), int)):
        raise ValueError("wrong shape")
    return item


def write_journal_line(fh: JournalFile, index: int, entry: dict, generation: str = "", seq: int = 0) -> None:
    """Write one journal line (see :func:`append_journal`) to an open journal."""
    fh.write(journal_line(index, entry, generation, seq))


def append_journal(autosave: str | Path, index: int, entry: dict, generation: str = "", seq: int = 0) -> None:
    """Append one input-log entry (with its index in the log and the generation of the
    autosave it continues) to the journal.

    A line append costs microseconds, so every listening moment is saved this way;
    the full autosave is rewritten at phase changes and the journal restarted.

    :raises OSError: the disk is full or the folder cannot be written.
    """
    fh = open_journal(autosave)
    try:
        write_journal_line(fh, index, entry, generation, seq)
    finally:
        fh.close()


def read_journal(path: Path) -> tuple[list[dict], list[str]]:
    """Every good line of a journal, and a sentence for each damaged one.

    Lines end only at ``\\n`` (never ``str.splitlines``); a torn last line (no ``\\n``)
    is dropped quietly — it is what a kill mid-write leaves; a damaged line before
    the end is reported ("<file>, line N: …") and reading goes on.
    """
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return [], []
    except OSError as exc:
        return [], [f"{path}: cannot be read ({exc.strerror or exc})."]
    raw = data.split(b"\n")
    torn = raw.pop()  # after the last "\n": empty, or a torn write
    items, problems = [], []
    for number, line in enumerate(raw, start=1):
        if not line.strip():
            continue
        try:
            items.append(parse_journal_line(line))
        except ValueError as exc:
            problems.append(f"{path}, line {number}: damaged ({exc}).")
    if torn.strip():
        try:  # an old journal's last line may lack nothing but its "\n"
            items.append(parse_journal_line(torn))
        except ValueError:
            pass
    return items, problems


def quarantine(autosave: str | Path) -> Path | None:
    """Move an autosave that cannot be replayed (and its journal) aside, kept for a person
    to read: ``<name>.json`` → ``<name>.json.broken-<UTC stamp>``; nothing lists it as a
    game to resume again. :returns: the new path, or ``None`` when there was no file.
    :raises OSError: the rename failed.
    """
    autosave = Path(autosave)
    if not autosave.exists():
        return None
    stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())
    target = autosave.with_name(f"{autosave.name}.broken-{stamp}")
    os.replace(autosave, target)
    journal = journal_path(autosave)
    if journal.exists():
        os.replace(journal, target.with_name(target.name + ".journal"))
    return target


def _number(value, low: float, high: float) -> bool:
    return (isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)
            and low <= value <= high)


def check_autosave(save: Any, path: str | Path) -> None:
    """Check an autosave's shape before anything uses it.

    :raises ValueError: one sentence naming the file and the field that is wrong.
    """
    from voicegame.language.prompts import SUPPORTED

    def bad(field: str) -> ValueError:
        return ValueError(f"{path} is not a voicegame autosave: {field}.")

    if not isinstance(save, dict):
        raise bad("it is not an object")
    settings = save.get("settings")
    if not isinstance(settings, dict):
        raise bad("'settings' is missing or not an object")
    if not isinstance(settings.get("game"), str):
        raise bad("'settings.game' is not a game name")
    if settings.get("lang", "en") not in SUPPORTED:
        raise bad(f"'settings.lang' is not one of {', '.join(SUPPORTED)}")
    if "seed" in settings and not (isinstance(settings["seed"], int) and not isinstance(settings["seed"], bool)):
        raise bad("'settings.seed' is not a whole number")
    timer = settings.get("timer_s", 30.0)
    if timer is not None and not _number(timer, 1, 86400):
        raise bad("'settings.timer_s' is not a number of seconds")
    if not isinstance(settings.get("options", {}), dict):
        raise bad("'settings.options' is not an object")
    for name in ("private", "record", "autosave", "started"):
        if settings.get(name) is not None and not isinstance(settings[name], str):
            raise bad(f"'settings.{name}' is not text")
    if not isinstance(save.get("finished", False), bool):
        raise bad("'finished' is not true or false")
    log = save.get("log")
    if not isinstance(log, list):
        raise bad("'log' is missing or not a list")
    for number, entry in enumerate(log, start=1):
        if not isinstance(entry, dict):
            raise bad(f"input {number} of 'log' is not an object")
        text, alternatives = entry.get("text"), entry.get("alternatives", [])
        if text is not None and not isinstance(text, str):
            raise bad(f"input {number} of 'log' has a 'text' that is not text")
        if not isinstance(alternatives, list) or not all(isinstance(a, str) for a in alternatives):
            raise bad(f"input {number} of 'log' has 'alternatives' that are not a list of texts")
        if entry.get("confidence") is not None and not _number(entry["confidence"], 0, 1):
            raise bad(f"input {number} of 'log' has a 'confidence' outside 0 to 1")
        if entry.get("elapsed") is not None and not _number(entry["elapsed"], 0, 1e7):
            raise bad(f"input {number} of 'log' has an 'elapsed' that is not a number of seconds")


def load_autosave(path: str | Path) -> dict:
    """An autosave with its journal applied: the input log as it was at the last listening moment.

    Only journal lines of the autosave's own ``generation`` count (a replay after
    an undo or a resume starts a new generation, so older lines can never
    overwrite the new log), and of those only lines written after the autosave
    (sequence ``n`` above the autosave's ``journal_seq``); such a line for an index
    the log holds replaces that entry (it is newer). A torn last line is dropped; a
    damaged line elsewhere is named in ``save["journal_problems"]`` (and the log) and
    the game resumes from before the first gap it leaves.

    :raises ValueError: the autosave is missing or malformed (names the file and line).
    """
    save = read_json(path)
    check_autosave(save, path)
    log = save["log"]
    items, problems = read_journal(journal_path(path))
    generation_now = save.get("generation", "")
    try:
        saved_seq = int(save.get("journal_seq", -1))
    except (TypeError, ValueError):
        saved_seq = -1
    for item in items:
        index, entry, generation, seq = item["i"], item["entry"], item.get("g", ""), item.get("n", 0)
        if generation != generation_now or seq <= saved_seq:
            continue
        if index < len(log):
            log[index] = entry
        elif index == len(log):
            log.append(entry)
        else:
            problems.append(f"{journal_path(path)}: input {len(log) + 1} is missing; the game resumes before it.")
            break  # a gap: never guess
    if problems:
        save["journal_problems"] = problems
        for problem in problems:
            _log.warning("%s", problem)
    return save


# --------------------------------------------------------------------------- a table's saves


class Storage:
    """Where a table's autosave, journal and record go: the disk (the default).

    The first save of a generation is written at once; later full saves go to the
    process's :class:`BackgroundWriter` (atomic + fsync off the listening path); the
    journal is an open append-only file. Replace it to save elsewhere or not at all
    (:class:`NoStorage`), or to measure (the bench).
    """

    def write_now(self, path: Path, data: Any) -> None:
        """Write ``data`` as JSON atomically, now (no fsync), after every queued write has
        landed: a queued, older save of the same file must never replace this one.
        :raises OSError: on failure."""
        background_writer().flush()
        atomic_write_json(path, data, durable=False)

    def write_later(self, path: Path, text: str) -> None:
        """Queue ``text`` for an atomic, fsynced write of ``path``."""
        background_writer().write(path, text)

    def take_error(self) -> OSError | None:
        """The failure of a queued write since the last call, if any (then forgotten)."""
        writer = background_writer()
        error, writer.error = writer.error, None
        return error

    def open_journal(self, autosave: Path):
        """The autosave's journal, open for appending. :raises OSError: on failure."""
        return open_journal(autosave)

    def write_journal(self, fh, index: int, entry: dict, generation: str, seq: int) -> None:
        write_journal_line(fh, index, entry, generation, seq)

    def flush(self) -> None:
        """Wait until every queued write is on disk."""
        background_writer().flush()

    def remove(self, path: Path) -> None:
        """Delete a save that must not be offered (a game that failed before any input)."""
        path.unlink(missing_ok=True)


class NoStorage(Storage):
    """Saves nothing (a table that must leave no file)."""

    def write_now(self, path, data) -> None:
        pass

    def write_later(self, path, text) -> None:
        pass

    def take_error(self) -> OSError | None:
        return None

    def open_journal(self, autosave):
        return None

    def write_journal(self, fh, index, entry, generation, seq) -> None:
        pass

    def flush(self) -> None:
        pass

    def remove(self, path) -> None:
        pass


def new_record(settings_dict: dict) -> dict:
    """An empty game record (``voicegame-record/1``) for settings given as a dict."""
    return {"format": "voicegame-record/1", "game": settings_dict.get("game"), "settings": dict(settings_dict),
            "seed": settings_dict.get("seed"), "inputs": [], "turns": [], "awards": [], "standings": None,
            "winners": None, "finished": False}


class Recorder:
    """One table's record, autosave and journal (a generation of the autosave).

    :param settings: the game's settings (a dataclass with ``record``, ``autosave``,
        ``game`` and ``started``).
    :param storage: where it all goes (:class:`Storage`).
    :param said_failure: called once per failed save (the table says so once).
    """

    def __init__(self, settings, storage: Storage, said_failure):
        self.settings = settings
        self.storage = storage
        self._failed = said_failure
        self._settings_dict = plain_data(settings)
        self.record: dict = new_record(plain_data(settings))
        self.generation = ""
        self._generation_saved = False
        self.journal_seq = 0
        self._journal = None
        self.snapshot_callback = None
        self._state: Any = None
        #: the saves' JSON, encoded in parts (:meth:`save_text`, :meth:`record_text`): the
        #: log's and the record inputs' older entries once, the settings once per change
        self._log_json = ListJson()
        self._inputs_json = ListJson()
        self._settings_json: tuple[Any, Any, str] | None = None  # (dict, its "autosave", JSON)
        self._record_settings_json: tuple[Any, str] | None = None  # (dict, JSON)
        self.new_generation()

    def settings_changed(self) -> None:
        """The game's set-up added to its settings (a chance step dealt the questions): the
        autosave and the record keep them from now on, so undo and resume deal the same."""
        self._settings_dict = plain_data(self.settings)
        self.record["settings"] = plain_data(self.settings)
        self._settings_json = self._record_settings_json = None

    def save_text(self, save: dict) -> str:
        """``to_json(save)`` of an autosave built by :meth:`autosave`, byte for byte: its
        settings encoded once per change, its log's older entries once (:class:`ListJson`)."""
        settings = save["settings"]
        cached = self._settings_json
        if cached is None or cached[0] is not settings or cached[1] != settings.get("autosave"):
            cached = self._settings_json = (settings, settings.get("autosave"), to_json(settings))
        return dict_json(save, {"settings": cached[2], "log": self._log_json.encode(save["log"])})

    def record_text(self) -> str:
        """``to_json(self.record)``, byte for byte: its settings encoded once per change, its
        accepted inputs once each (:class:`ListJson`)."""
        record = self.record
        known = {}
        settings, inputs = record.get("settings"), record.get("inputs")
        if isinstance(settings, dict):
            cached = self._record_settings_json
            if cached is None or cached[0] is not settings:
                cached = self._record_settings_json = (settings, to_json(settings))
            known["settings"] = cached[1]
        if isinstance(inputs, list):
            known["inputs"] = self._inputs_json.encode(inputs)
        return dict_json(record, known)

    def new_generation(self) -> None:
        """Start a new autosave lineage: journal lines written so far stop counting."""
        self.generation = uuid.uuid4().hex[:12]
        self._generation_saved = False

    def record_path(self) -> Path:
        s = self.settings
        return Path(s.record) if s.record else data_dir() / "records" / f"{s.game}-{s.started}.json"

    def autosave_path(self) -> Path:
        s = self.settings
        return Path(s.autosave) if s.autosave else data_dir() / "autosave" / f"{s.game}-{s.started}.json"

    def autosave(self, log: list[dict], phase: str, finished: bool = False, record: bool = True) -> None:
        """Write the autosave (settings + input log + state) and, with ``record``, the record.

        The first save of a generation is written at once (until it exists, journal
        lines of the generation would have nothing to continue); the others go to the
        storage's writer. A failure is reported to ``said_failure``.
        """
        if self.snapshot_callback and (record or self._state is None):
            try:  # informative only (resume replays the log), so taken at phase changes
                self._state = self.snapshot_callback()
            except Exception:
                logging.getLogger("voicegame").exception("snapshot failed")
        self._settings_dict["autosave"] = self.settings.autosave
        save = {"format": "voicegame-autosave/1", "settings": self._settings_dict, "generation": self.generation,
                "journal_seq": self.journal_seq, "log": log, "phase": phase, "state": self._state,
                "finished": finished}
        try:
            if not self._generation_saved:
                self.storage.write_now(self.autosave_path(), save)
                self._generation_saved = True
            if record or finished:
                self.storage.write_later(self.autosave_path(), self.save_text(save))
                self.record["finished"] = finished
                self.storage.write_later(self.record_path(), self.record_text())
            error = self.storage.take_error()
            if error is not None:
                raise error
        except OSError as exc:
            self._lost_a_write(exc)

    def _lost_a_write(self, exc: OSError) -> None:
        """A write failed (a full disk): the next listening moment writes the whole log afresh,
        in a new generation, before any journal line, so the lines after the failure never
        continue a save that misses the inputs in between."""
        self.new_generation()
        self._failed(exc)

    def journal(self, log: list[dict], phase: str) -> None:
        """Append the newest log entry to the journal (a newer line for an index wins)."""
        if not log:
            return
        if not self._generation_saved:  # after a replay: the new generation's autosave first
            self.autosave(log, phase, record=False)
        try:
            self.journal_seq += 1
            if self._journal is None:  # one open file per table: a line costs a write, not an open
                self._journal = self.storage.open_journal(self.autosave_path())
            self.storage.write_journal(self._journal, len(log) - 1, log[-1], self.generation, self.journal_seq)
        except OSError as exc:
            self._lost_a_write(exc)

    def close(self) -> None:
        if self._journal is not None:
            try:
                self._journal.close()
            except OSError:
                pass
            self._journal = None
