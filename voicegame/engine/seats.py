"""The one default seat order of colours (G3, docs/rulings.md): players without names are
colours, and a table of N players without chosen colours takes the first N of these, in the
lobby and in ``voicegame play`` alike (two teams: Red and Blue; four players: Red, Blue, Green,
Yellow). The first four are the most distinct to see and to hear."""

from __future__ import annotations

#: Colour keys in the default seat order; how each is said is in ``prompts/<lang>/words.toml``.
SEAT_ORDER = ("red", "blue", "green", "yellow", "orange", "purple", "pink")


def default_seats(n: int) -> list[str]:
    """The first ``n`` colours of :data:`SEAT_ORDER`.

    :raises ValueError: ``n`` is not between 0 and the number of colours.
    """
    if not 0 <= n <= len(SEAT_ORDER):
        raise ValueError(f"there are {len(SEAT_ORDER)} seat colours, not {n}")
    return list(SEAT_ORDER[:n])
