"""Card decks and question banks: data files under ``prompts/<lang>/``, one loader per game.

Every loader raises :class:`DeckError`, which knows the file, the line (or TOML entry) and
what is wrong; the sentence a person reads or hears is in ``prompts/<lang>/``
(``<game>.file_errors.*``, or ``common.file_errors.*`` for what every file can get wrong).
"""

from __future__ import annotations

import errno
from pathlib import Path
from typing import Any

from voicegame.engine import journal as storage
from voicegame.language.prompts import Prompts, lang_dir

#: What every data file can get wrong (``common.file_errors.<kind>``); the other kinds are
#: the game's own (``<game>.file_errors.<kind>``).
COMMON_KINDS = ("missing", "folder", "denied", "unreadable", "utf16", "not_utf8")


class DeckError(ValueError):
    """A deck or question bank is malformed or cannot be read.

    :param game: ``"wits"``, ``"wavelength"`` or ``"rofl"`` (names the file: "the question bank").
    :param kind: what is wrong: one of :data:`COMMON_KINDS` or a key of ``<game>.file_errors``.
    :param path: the file; ``line`` is its 1-based line, or ``entry`` the number of a TOML
        ``[[question]]`` (``entry_id`` its id, when it has one).
    :param values: the sentence's other placeholders (a value as written, a count…).

    ``str()`` is the English sentence (for logs and tests); :meth:`sentence` gives it in a
    table's language, where it is printed or said.
    """

    def __init__(self, game: str, kind: str, path: str | Path, *, line: int | None = None,
                 entry: int | None = None, entry_id: str | None = None, **values: Any):
        super().__init__(game, kind, str(path), line)
        self.game, self.kind, self.path = game, kind, str(path)
        self.line, self.entry, self.entry_id = line, entry, entry_id
        self.values = values

    @property
    def key(self) -> str:
        """The prompt key of the sentence."""
        scope = "common" if self.kind in COMMON_KINDS else self.game
        return f"{scope}.file_errors.{self.kind}"

    def where(self, prompts: Prompts) -> str:
        """"bank.csv, line 3", "bank.toml, question 2 (id 'b')" or the path, in ``prompts``' language."""
        if self.line is not None:
            return prompts.text("common.file_errors.at_line", path=self.path, line=self.line)
        if self.entry is not None:
            key = "wits.file_errors.at_question_id" if self.entry_id is not None else "wits.file_errors.at_question"
            return prompts.text(key, path=self.path, number=self.entry, id=repr(self.entry_id))
        return self.path

    def sentence(self, prompts: Prompts) -> str:
        """The one sentence for a person, in the language of ``prompts``.

        :raises PromptError: the key or a placeholder is missing in that language.
        """
        return prompts.text(self.key, where=self.where(prompts), path=self.path,
                            file=prompts.text(f"{self.game}.file_errors.file"), **self.values)

    def __str__(self) -> str:
        return self.sentence(Prompts.load("en"))


def unreadable(game: str, path: str | Path, exc: OSError) -> DeckError:
    """The :class:`DeckError` for a file that cannot be opened: missing, a folder, not allowed, or else."""
    kind = {errno.ENOENT: "missing", errno.EISDIR: "folder", errno.EACCES: "denied",
            errno.EPERM: "denied"}.get(exc.errno, "unreadable")
    return DeckError(game, kind, path)


def default_path(lang: str, filename: str) -> Path:
    """``prompts/<lang>/<filename>``."""
    return lang_dir(lang) / filename


class _FileProblem(Exception):
    """What :func:`voicegame.engine.journal.data_lines` raises here (``kind``, ``line``)."""


def data_lines(path: str | Path, game: str) -> list[tuple[int, str]]:
    """``(line_number, text)`` of a UTF-8 text deck of ``game``, without blank and ``#`` lines.

    :raises DeckError: the file cannot be read or is not UTF-8 (names the file and line).
    """
    try:
        return storage.data_lines(path, _FileProblem, "deck")
    except _FileProblem as exc:
        cause = exc.__cause__
        if isinstance(cause, OSError):
            raise unreadable(game, path, cause) from cause
        raise DeckError(game, exc.kind, path, line=exc.line) from cause
