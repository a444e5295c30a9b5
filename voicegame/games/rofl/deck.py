"""The ROFL! message deck: double-sided cards, one per line.

File format (UTF-8; blank lines and ``#`` lines are ignored)::

    category | message | category | message
    category | message | category | message | region = es-ES

Each line is one double-sided card as in the box; each side is one message with
its category. Categories are the six of the rulebook (``rofl.es.txt``): ``movie``,
``tv`` (TV shows), ``song``, ``book`` (books and comics), ``history`` (politics
and history) and ``saying`` (proverbs and idioms). The default deck is
``prompts/<lang>/rofl_messages.txt``; ``voicegame play rofl --deck PATH`` loads a
custom one with the same format.

A card whose messages are known under these words only in one region (a film title
used in Spain but not in Latin America, a Flemish show) carries a fifth field
``region = <tag>`` (:data:`REGIONS`: ``es-ES``, ``es-419``, ``nl-NL``, ``nl-BE``). Such a
card is dealt only when the table chose that region (``voicegame play rofl --region
es-ES``); with no region — the default — only the unmarked cards, which every table of
the language knows, are dealt.

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
#: Fields per card line: category, message, category, message (and an optional region).
FIELDS = 4
#: The regions a card may be marked with, per language (BCP 47 tags; 419 = Latin America).
REGIONS: dict[str, tuple[str, ...]] = {"es": ("es-ES", "es-419"), "nl": ("nl-NL", "nl-BE")}
_REGION = re.compile(r"region\s*=\s*([a-z]{2}-(?:[A-Z]{2}|\d{3}))")

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
    :param region: the region whose tables know these messages (``"es-ES"``), or ``""``
        for a card every table of the language knows.
    """

    sides: tuple[Message, Message]
    line: int = 0
    region: str = ""

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


def load_deck(path: str | Path | None = None, lang: str = "en", region: str | None = None,
              every_region: bool = False) -> list[Card]:
    """Load a ROFL! message deck.

    :param path: a deck file; ``None`` loads the default deck of ``lang``
        (``prompts/<lang>/rofl_messages.txt``).
    :param lang: the language of the default deck.
    :param region: the table's region (``"es-419"``): its regional cards are dealt too;
        ``None``: only the cards without a region.
    :param every_region: keep every card, whatever its region (for checks and reviews).
    :returns: the cards in file order (at least one).
    :raises DeckError: the file cannot be read, is not UTF-8, has a line without
        four ``|``-separated non-empty fields (and an optional ``region = <tag>``), an
        unknown category, a message without words, a message that is already on an
        earlier line, or no cards at all. The message names the file and the line.
    """
    p = Path(path) if path is not None else default_path(lang, DEFAULT_FILE)
    cards: list[Card] = []
    seen: dict[str, int] = {}
    for number, text in data_lines(p, "rofl"):
        fields = [f.strip() for f in text.split("|")]
        card_region = ""
        if len(fields) == FIELDS + 1:
            m = _REGION.fullmatch(fields[-1])
            if not m:
                raise DeckError("rofl", "region", p, line=number, value=repr(fields[-1]))
            card_region = m.group(1)
            fields = fields[:FIELDS]
        if len(fields) != FIELDS:
            raise DeckError("rofl", "fields", p, line=number, found=len(fields))
        if not all(fields):
            raise DeckError("rofl", "empty_field", p, line=number)
        sides = []
        for category, message in ((fields[0], fields[1]), (fields[2], fields[3])):
            category = category.lower()
            if category not in CATEGORIES:
                raise DeckError("rofl", "category", p, line=number, value=repr(category),
                                categories=", ".join(CATEGORIES))
            if not _WORD.search(message):
                raise DeckError("rofl", "no_words", p, line=number, value=repr(message))
            key = _key(message)
            if key in seen:
                raise DeckError("rofl", "duplicate", p, line=number, value=repr(message), other=seen[key])
            seen[key] = number
            sides.append(Message(category, message))
        if every_region or not card_region or card_region == region:
            cards.append(Card((sides[0], sides[1]), number, card_region))
    if not cards:
        raise DeckError("rofl", "no_cards", p, line=1)
    return cards
