"""Card decks and question banks: data files under ``prompts/<lang>/``, one loader per game.

Every loader raises :class:`DeckError` whose message names the file and line of
the first malformed entry.
"""

from __future__ import annotations

from pathlib import Path

from voicegame.engine import journal as storage
from voicegame.language.prompts import lang_dir


class DeckError(ValueError):
    """A deck or question bank is malformed; ``str()`` names the file and line."""


def default_path(lang: str, filename: str) -> Path:
    """``prompts/<lang>/<filename>``."""
    return lang_dir(lang) / filename


def data_lines(path: str | Path):
    """Yield ``(line_number, text)`` of a UTF-8 text deck, skipping blank and ``#`` lines.

    :raises DeckError: the file cannot be read or is not UTF-8.
    """
    yield from storage.data_lines(path, DeckError, "deck")
