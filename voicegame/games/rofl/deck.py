"""The ROFL! message deck: double-sided cards, one per line.

File format (UTF-8; blank lines and ``#`` lines are ignored)::

    category | message | category | message

Each line is one double-sided card as in the box; each side is one message with
its category. Categories are the six of the rulebook (``rofl.es.txt``): ``movie``,
``tv`` (TV shows), ``song``, ``book`` (books and comics), ``history`` (politics
and history) and ``saying`` (proverbs and idioms). The default deck is
``prompts/<lang>/rofl_messages.txt``; ``voicegame play rofl --deck PATH`` loads a
custom one with the same format.

The host judges a guess against the message word by word (R4,
:func:`voicegame.rules.rofl.judge_guess`), so a message must have at least one
word, and the same message may not appear twice in one deck.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from voicegame.games.decks import DeckError, data_lines, default_path

#: The deck file name under ``prompts/<lang>/``.
DEFAULT_FILE = "rofl_messages.txt"
#: The six categories of the rulebook, as written in deck files.
CATEGORIES: tuple[str, ...] = ("movie", "tv", "song", "book", "history", "saying")
#: Fields per card line: category, message, category, message.
FIELDS = 4

_WORD = re.compile(r"\w", re.UNICODE)


@dataclass(frozen=True)
class Message:
    """One side of a card.

    :param category: one of :data:`CATEGORIES`.
    :param text: the message as printed (a title, quotation or saying).
    """

    category: str
    text: str


@dataclass(frozen=True)
class Card:
    """One double-sided message card.

    :param sides: the two messages, front first.
    :param line: the line of the deck file it came from (1-based; 0 if not from a file).
    """

    sides: tuple[Message, Message]
    line: int = 0

    def to_list(self) -> list[str]:
        """``[category, message, category, message]`` (JSON-friendly)."""
        a, b = self.sides
        return [a.category, a.text, b.category, b.text]

    @classmethod
    def from_list(cls, fields: list[str], line: int = 0) -> "Card":
        """Rebuild from :meth:`to_list` output."""
        return cls((Message(fields[0], fields[1]), Message(fields[2], fields[3])), line)


def _key(text: str) -> str:
    """A message reduced for duplicate checks: lower case, words only."""
    return " ".join(re.sub(r"[^\w\s]", " ", text.lower().replace("'", "")).split())


def load_deck(path: str | Path | None = None, lang: str = "en") -> list[Card]:
    """Load a ROFL! message deck.

    :param path: a deck file; ``None`` loads the default deck of ``lang``
        (``prompts/<lang>/rofl_messages.txt``).
    :param lang: the language of the default deck.
    :returns: the cards in file order (at least one).
    :raises DeckError: the file cannot be read, is not UTF-8, has a line without
        exactly four ``|``-separated non-empty fields, an unknown category, a
        message without words, a message that is already on an earlier line, or no
        cards at all. The message names the file and the line.
    """
    p = Path(path) if path is not None else default_path(lang, DEFAULT_FILE)
    cards: list[Card] = []
    seen: dict[str, int] = {}
    for number, text in data_lines(p):
        fields = [f.strip() for f in text.split("|")]
        if len(fields) != FIELDS:
            raise DeckError(f"{p}, line {number}: expected 'category | message | category | message' "
                            f"(4 fields separated by |), found {len(fields)} field(s).")
        if not all(fields):
            raise DeckError(f"{p}, line {number}: a field is empty; every card needs two categories "
                            f"and two messages.")
        sides = []
        for category, message in ((fields[0], fields[1]), (fields[2], fields[3])):
            category = category.lower()
            if category not in CATEGORIES:
                raise DeckError(f"{p}, line {number}: unknown category {category!r}; "
                                f"use one of {', '.join(CATEGORIES)}.")
            if not _WORD.search(message):
                raise DeckError(f"{p}, line {number}: the message {message!r} has no words to guess.")
            key = _key(message)
            if key in seen:
                raise DeckError(f"{p}, line {number}: the message {message!r} is already in the deck "
                                f"on line {seen[key]}.")
            seen[key] = number
            sides.append(Message(category, message))
        cards.append(Card((sides[0], sides[1]), number))
    if not cards:
        raise DeckError(f"{p}, line 1: the deck has no cards (expected lines like "
                        f"'movie | The Wizard of Oz | saying | Better late than never').")
    return cards
