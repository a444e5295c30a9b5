"""The Wavelength deck: double-sided spectrum cards from a UTF-8 text file.

File format (``prompts/<lang>/wavelength_cards.txt`` or ``--deck PATH``), one card
per line, blank lines and ``#`` comments ignored::

    kind | left1 | right1 | left2 | right2

- ``kind`` is ``everyday`` or ``odd`` (the card's flavour, for balance checks);
- ``left1 | right1`` is the front side's pair of opposing concepts, ``left2 |
  right2`` the back side's: 0° on the dial is the left concept, 180° the right
  one (W1). The Psychic may use either side (the rulebook's double-sided cards).

Concepts are read aloud and become recognition grammar words ("more <concept>",
W7), so each must contain at least one letter, and the two concepts of a side
must differ.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from voicegame.games.decks import DeckError, data_lines, default_path

#: File name of the default deck under ``prompts/<lang>/``.
DECK_FILE = "wavelength_cards.txt"
#: The allowed card kinds (first field).
KINDS = ("everyday", "odd")


@dataclass(frozen=True)
class Card:
    """One double-sided spectrum card.

    :param kind: ``"everyday"`` or ``"odd"``.
    :param sides: ``((left1, right1), (left2, right2))``: concept pairs, 0° at
        the left concept and 180° at the right one (W1).
    :param line: line number in the deck file (for records and errors).
    """

    kind: str
    sides: tuple[tuple[str, str], tuple[str, str]]
    line: int

    def pair(self, side: int) -> tuple[str, str]:
        """``(left, right)`` concepts of side 0 (front) or 1 (back)."""
        return self.sides[side]


def default_deck_path(lang: str = "en") -> Path:
    """The built-in deck of ``lang``: ``prompts/<lang>/wavelength_cards.txt``."""
    return default_path(lang, DECK_FILE)


def parse_card(text: str, line: int, path: str | Path) -> Card:
    """One deck line → :class:`Card`.

    :raises DeckError: wrong field count, unknown kind, a concept without a
        letter, or a side whose two concepts are the same (names file and line).
    """
    fields = [f.strip() for f in text.split("|")]
    if len(fields) != 5:
        raise DeckError("wavelength", "fields", path, line=line, found=len(fields))
    kind, l1, r1, l2, r2 = fields
    if kind.lower() not in KINDS:
        raise DeckError("wavelength", "kind", path, line=line, value=repr(kind))
    for concept in (l1, r1, l2, r2):
        if not any(ch.isalpha() for ch in concept):
            raise DeckError("wavelength", "letters", path, line=line, value=repr(concept))
    for left, right in ((l1, r1), (l2, r2)):
        if " ".join(left.lower().split()) == " ".join(right.lower().split()):
            raise DeckError("wavelength", "same", path, line=line, value=repr(left))
    return Card(kind.lower(), ((l1, r1), (l2, r2)), line)


def load_deck(path: str | Path | None = None, lang: str = "en") -> list[Card]:
    """Load a Wavelength deck.

    :param path: a deck file (``--deck PATH``); ``None`` for the built-in deck of ``lang``.
    :param lang: language of the built-in deck.
    :returns: the cards in file order (at least one), a new list each call (a file parsed
        once is kept until it changes: its path, inode, size or modification time).
    :raises DeckError: the file is unreadable, not UTF-8, has a malformed line
        (the message names the file and line) or holds no card.
    """
    p = Path(path) if path is not None else default_deck_path(lang)
    try:  # the file as it is now: another file, or the same one changed, is another key
        st = p.stat()
        key = (str(p), st.st_dev, st.st_ino, st.st_mtime_ns, st.st_size)
    except OSError:
        key = None  # data_lines says why it cannot be read
    kept = _LOADED.get(key) if key is not None else None
    if kept is not None:
        return list(kept)
    cards = [parse_card(text, number, p) for number, text in data_lines(p, "wavelength")]
    if not cards:
        raise DeckError("wavelength", "no_cards", p)
    if key is not None:
        if len(_LOADED) >= 32:
            _LOADED.clear()
        _LOADED[key] = tuple(cards)
    return cards


#: decks parsed already (a new host per undo loads the deck again): (path, device, inode,
#: mtime in ns, size) → the cards; only a deck that loaded without an error is kept
_LOADED: dict[tuple, tuple[Card, ...]] = {}
