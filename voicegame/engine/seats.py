"""The one default seat order of colours (G3, docs/rulings.md): players without names are
colours, and a table of N players without chosen colours takes the first N of these, in the
lobby and in ``voicegame play`` alike (two teams: Red and Blue; four players: Red, Blue, Green,
Yellow). The first four are the most distinct to see and to hear."""

from __future__ import annotations

from typing import Callable, Sequence

#: Colour keys in the default seat order; how each is said is in ``prompts/<lang>/words.toml``.
SEAT_ORDER = ("red", "blue", "green", "yellow", "orange", "purple", "pink")


def default_seats(n: int) -> list[str]:
    """The first ``n`` colours of :data:`SEAT_ORDER`.

    :raises ValueError: ``n`` is not between 0 and the number of colours.
    """
    if not 0 <= n <= len(SEAT_ORDER):
        raise ValueError(f"there are {len(SEAT_ORDER)} seat colours, not {n}")
    return list(SEAT_ORDER[:n])


def players_option(typed: str | None, default: Sequence[str]) -> tuple[list[str], bool]:
    """``--players`` as typed (comma-separated, kept as typed so errors can quote them), else
    ``default``; and whether the table named them (if not, the opening says the seats)."""
    named = typed is not None
    text = str(typed) if named else ",".join(default)
    return [p.strip() for p in text.split(",") if p.strip()], named


def in_pairs(names: Sequence[str], join: Callable[[Sequence[str]], str]) -> str:
    """The seats said two by two ("Red and Blue, Green and Yellow": two short chunks are easier
    to keep than a list of four); ``join`` is the language's "and" (``Prompts.join``)."""
    return ", ".join(join(list(names[i:i + 2])) for i in range(0, len(names), 2))
