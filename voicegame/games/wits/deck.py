"""The Wits & Wagers question bank: loading, and drawing questions without repeats.

A bank is a list of :class:`Question` (one number each). The default bank is
``prompts/<lang>/wits_questions.csv``; ``--questions PATH`` loads a custom one.

File formats (UTF-8):

- CSV with the header ``id,question,answer,unit,source,year``. ``id``, ``question``
  and ``answer`` are required; ``unit``, ``source`` and ``year`` may be empty.
  ``answer`` is written with digits, ``.`` for decimals, optionally ``,`` between
  thousands ("1,200" — quote it) and a leading ``-``.
- TOML with one ``[[question]]`` table per question and the same keys
  (``answer`` a TOML integer or float, ``year`` an integer).

Every malformed entry raises :class:`voicegame.decks.DeckError` naming the file
and line (CSV) or entry number (TOML).

No repeats across games (the rulebook's own advice for a kiosk): each bank has a
fixed play order — its ids sorted by a seeded hash (:func:`bank_order`), so
adding rows to the bank never reshuffles the others — and the user data dir
keeps, per bank, which ids of the current pass through that order were already
asked (``wits_position.json``, written atomically). :func:`draw_questions` takes
the next ones in order and starts a new pass only when every question has been
asked once.

Where a bank starts: at the beginning of its fixed order, or — for a bank with no
position saved yet (a fresh data dir) and an explicit ``voicegame play wits --seed N``
— at a block of that order the game's seeded rng picks (:func:`first_start`), so
different seeds start fresh kiosks or test runs on different questions. The start
is saved with the position and every later pass goes round the same rotated order,
so each question is still asked once before any repeats.
"""

from __future__ import annotations

import csv
import hashlib
import io
import math
import random
import re
import tomllib
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Iterable, Mapping, Sequence

from voicegame.games.decks import DeckError, default_path, unreadable
from voicegame.config import syntax_line
from voicegame.engine.journal import atomic_write_json, data_dir, read_json

#: File name of the default bank inside ``prompts/<lang>/``.
DEFAULT_FILE = "wits_questions.csv"
#: Columns of a CSV bank, in order.
COLUMNS = ("id", "question", "answer", "unit", "source", "year")
#: Seed of the fixed play order of every bank (changing it reshuffles every kiosk).
ORDER_SEED = "wits-bank-order-1"
#: File in the user data dir holding the bank positions.
POSITION_FILE = "wits_position.json"

_ANSWER = re.compile(r"-?(\d{1,3}(,\d{3})+|\d+)(\.\d+)?")
_ID = re.compile(r"[A-Za-z0-9_.:-]+")


@dataclass(frozen=True)
class Question:
    """One question of the bank.

    :ivar id: unique id within the bank (letters, digits, ``_ . : -``).
    :ivar question: the question as read aloud.
    :ivar answer: the number that answers it (int when whole, else float).
    :ivar unit: the answer's unit ("years", "km", "" when none).
    :ivar source: the reference work or organisation the answer comes from.
    :ivar year: the year the answer holds for — a fixed fact's own year, or the "as of" year
        of a figure that changes (then the question says it) — or ``None`` for a timeless
        fact (a cat's teeth, a unit's size). See docs/content.md.
    """

    id: str
    question: str
    answer: int | float
    unit: str = ""
    source: str = ""
    year: int | None = None

    def to_dict(self) -> dict:
        """JSON-ready dict (stored in ``Settings.options``)."""
        return asdict(self)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "Question":
        """Rebuild from :meth:`to_dict` output."""
        return cls(data["id"], data["question"], data["answer"], data.get("unit", ""),
                   data.get("source", ""), data.get("year"))


# --------------------------------------------------------------------------- loading


#: Where an entry is, for :class:`DeckError`: ``{"path": …, "line": …}`` (CSV) or
#: ``{"path": …, "entry": …, "entry_id": …}`` (TOML).
Where = Mapping[str, Any]


def _answer(value: Any, where: Where) -> int | float:
    if isinstance(value, bool):
        raise DeckError("wits", "answer_number", **where, value=repr(value))
    if isinstance(value, (int, float)):
        number = value
    else:
        text = str(value).strip()
        if not _ANSWER.fullmatch(text):
            raise DeckError("wits", "answer_digits", **where, value=repr(text))
        number = float(text.replace(",", ""))
        if "." not in text:
            number = int(text.replace(",", ""))
    if isinstance(number, float):
        if not math.isfinite(number):
            raise DeckError("wits", "answer_finite", **where, value=repr(value))
        if number.is_integer() and not isinstance(value, float):
            number = int(number)
    return number


def _year(value: Any, where: Where) -> int | None:
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    if isinstance(value, bool):
        raise DeckError("wits", "year", **where, value=repr(value))
    if isinstance(value, int):
        return value
    text = str(value).strip()
    if not re.fullmatch(r"-?\d{1,4}", text):
        raise DeckError("wits", "year", **where, value=repr(text))
    return int(text)


def _text(value: Any, name: str, where: Where, required: bool) -> str:
    """:param name: the column (``id``, ``question``, ``unit``, ``source``), as the file writes it."""
    if value is None:
        value = ""
    if not isinstance(value, str):
        raise DeckError("wits", "not_text", **where, field=name, value=repr(value))
    value = " ".join(value.split())
    if required and not value:
        raise DeckError("wits", "empty", **where, field=name)
    return value


def _question(row: Mapping[str, Any], where: Where) -> Question:
    qid = _text(row.get("id"), "id", where, True)
    if not _ID.fullmatch(qid):
        raise DeckError("wits", "id_chars", **where, value=repr(qid))
    if row.get("answer") is None or (isinstance(row.get("answer"), str) and not row["answer"].strip()):
        raise DeckError("wits", "empty", **where, field="answer")
    return Question(
        id=qid,
        question=_text(row.get("question"), "question", where, True),
        answer=_answer(row["answer"], where),
        unit=_text(row.get("unit"), "unit", where, False),
        source=_text(row.get("source"), "source", where, False),
        year=_year(row.get("year"), where),
    )


def _check_unique(questions: Sequence[Question], places: Sequence[Where]) -> None:
    seen: dict[str, Where] = {}
    for q, where in zip(questions, places):
        if q.id in seen:
            first = seen[q.id]
            if "line" in first:
                raise DeckError("wits", "id_twice_line", **where, value=repr(q.id), other=first["line"])
            raise DeckError("wits", "id_twice_entry", **where, value=repr(q.id), other=first["entry"])
        seen[q.id] = where


def _read(p: Path) -> str:
    """The text of a bank file (a UTF-8 byte-order mark dropped).

    :raises DeckError: the file cannot be read or is not UTF-8.
    """
    try:
        raw = p.read_bytes()
    except OSError as exc:
        raise unreadable("wits", p, exc) from exc
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise DeckError("wits", "not_utf8", p, line=raw[:exc.start].count(b"\n") + 1) from exc


def load_csv(path: str | Path) -> list[Question]:
    """Load a CSV bank (header ``id,question,answer,unit,source,year``).

    :raises DeckError: unreadable file, wrong header, malformed row or duplicate id
        (the message names the file and line).
    """
    p = Path(path)
    text = _read(p)
    reader = csv.reader(io.StringIO(text, newline=""))
    questions: list[Question] = []
    places: list[Where] = []
    header = None
    try:
        for row in reader:
            line = reader.line_num
            if not row or all(not c.strip() for c in row) or row[0].lstrip().startswith("#"):
                continue
            if header is None:
                header = [c.strip().lower() for c in row]
                missing = [c for c in ("id", "question", "answer") if c not in header]
                if missing:
                    raise DeckError("wits", "header", p, line=line, header=",".join(COLUMNS),
                                    missing=", ".join(missing))
                continue
            where = {"path": p, "line": line}
            if len(row) != len(header):
                raise DeckError("wits", "fields", **where, found=len(row), expected=len(header))
            questions.append(_question(dict(zip(header, row)), where))
            places.append(where)
    except csv.Error as exc:
        raise DeckError("wits", "csv", p, line=reader.line_num) from exc
    if header is None or not questions:  # nothing, or a header without a question
        raise DeckError("wits", "no_questions", p, line=1)
    _check_unique(questions, places)
    return questions


def load_toml(path: str | Path) -> list[Question]:
    """Load a TOML bank: one ``[[question]]`` table per question.

    :raises DeckError: unreadable file, invalid TOML (with its line), malformed
        entry (named by its number and id) or duplicate id.
    """
    p = Path(path)
    text = _read(p)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise DeckError("wits", "toml", p, line=syntax_line(exc, text)) from exc
    entries = data.get("question")
    if not isinstance(entries, list) or not entries:
        raise DeckError("wits", "no_entries", p)
    questions, places = [], []
    for number, entry in enumerate(entries, start=1):
        where = {"path": p, "entry": number}
        if isinstance(entry, dict) and isinstance(entry.get("id"), str):
            where["entry_id"] = entry["id"]
        if not isinstance(entry, dict):
            raise DeckError("wits", "not_a_table", **where)
        unknown = sorted(set(entry) - set(COLUMNS))
        if unknown:
            raise DeckError("wits", "unknown_key", **where, value=repr(unknown[0]), keys=", ".join(COLUMNS))
        questions.append(_question(entry, where))
        places.append(where)
    _check_unique(questions, places)
    return questions


def load_bank(path: str | Path | None = None, lang: str = "en") -> list[Question]:
    """Load the bank at ``path`` (``.toml`` → TOML, anything else → CSV), or the default bank.

    :raises DeckError: see :func:`load_csv` and :func:`load_toml`.
    """
    p = Path(path) if path else default_path(lang, DEFAULT_FILE)
    if p.suffix.lower() == ".toml":
        return load_toml(p)
    return load_csv(p)


def bank_key(path: str | Path | None, lang: str) -> str:
    """The key of a bank in the position file: ``default:<lang>`` or the resolved path."""
    return f"default:{lang}" if not path else str(Path(path).resolve())


# --------------------------------------------------------------------------- order and position


def _rank(qid: str) -> str:
    return hashlib.sha256(f"{ORDER_SEED}:{qid}".encode("utf-8")).hexdigest()


def bank_order(questions: Iterable[Question]) -> list[Question]:
    """The bank's fixed, seeded-shuffled play order (ids sorted by a seeded SHA-256).

    Each question's place relative to the others depends only on the ids, so a
    question added to the bank never moves the others.
    """
    return sorted(questions, key=lambda q: (_rank(q.id), q.id))


def position_path() -> Path:
    """``<user data dir>/wits_position.json``."""
    return data_dir() / POSITION_FILE


def _read_positions(path: Path) -> dict:
    if not path.exists():
        return {"format": "voicegame-wits-position/1", "banks": {}}
    try:
        data = read_json(path)
    except ValueError:
        return {"format": "voicegame-wits-position/1", "banks": {}}  # a damaged file restarts the pass
    if not isinstance(data, dict) or not isinstance(data.get("banks"), dict):
        return {"format": "voicegame-wits-position/1", "banks": {}}
    return data


def first_start(size: int, count: int, rng: random.Random | None) -> int:
    """Index in the fixed order where a fresh bank's first pass starts (a chance step).

    The order is cut into blocks of ``count`` questions (whole games); ``rng`` picks one
    (``rng.randrange(size // count)``). No rng: 0.

    :param size: questions in the bank; :param count: questions per game.
    """
    if rng is None or count < 1 or size < count:
        return 0
    return rng.randrange(size // count) * count


def _rotated(order: list[Question], start_id: str | None) -> list[Question]:
    """``order`` starting at ``start_id``, or where it would stand if it has left the bank."""
    if not start_id:
        return order
    mark = (_rank(start_id), start_id)
    cut = next((i for i, q in enumerate(order) if (_rank(q.id), q.id) >= mark), 0)
    return order[cut:] + order[:cut]


def draw_questions(bank: Sequence[Question], count: int, key: str,
                   path: str | Path | None = None, rng: random.Random | None = None) -> list[Question]:
    """Draw the next ``count`` questions of ``bank`` in its fixed order, and persist the position.

    Questions already asked in the current pass are skipped; when fewer than
    ``count`` remain, the rest of the pass is taken and a new pass starts (never
    repeating a question within one game).

    :param key: the bank's key (:func:`bank_key`).
    :param path: position file (default :func:`position_path`).
    :param rng: only for a bank with no saved position: picks where its first pass
        starts (:func:`first_start`); the start is saved and kept by every later pass.
    :returns: ``count`` distinct questions.
    :raises ValueError: ``count`` < 1 or larger than the bank.
    :raises OSError: the position file cannot be written.
    """
    if count < 1:
        raise ValueError(f"--count must be at least 1, not {count}.")
    if count > len(bank):
        raise ValueError(f"The question bank has only {len(bank)} questions, fewer than --count {count}.")
    pos_file = Path(path) if path else position_path()
    data = _read_positions(pos_file)
    saved = data["banks"].get(key)
    entry = saved if isinstance(saved, dict) else {}
    asked = set(entry.get("asked", ())) if isinstance(entry.get("asked"), list) else set()
    passes = entry.get("pass", 1) if isinstance(entry.get("pass"), int) else 1
    order = bank_order(bank)
    if isinstance(entry.get("start"), str):
        start_id = entry["start"]
    elif saved is None:  # a fresh bank: the seed may pick where its first pass starts
        start_id = order[first_start(len(order), count, rng)].id
    else:  # saved before starts were kept: the beginning of the order
        start_id = order[0].id
    order = _rotated(order, start_id)
    chosen = [q for q in order if q.id not in asked][:count]
    if len(chosen) < count:  # end of the pass: start a new one
        taken = {q.id for q in chosen}
        fresh = [q for q in order if q.id not in taken][: count - len(chosen)]
        chosen += fresh
        asked = {q.id for q in fresh}
        passes += 1
    else:
        asked |= {q.id for q in chosen}
    ids_in_bank = {q.id for q in bank}
    data["banks"][key] = {"pass": passes, "asked": [q.id for q in order if q.id in asked & ids_in_bank],
                          "position": len(asked & ids_in_bank), "size": len(bank), "start": start_id}
    atomic_write_json(pos_file, data)
    return chosen
