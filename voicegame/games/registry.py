"""The game registry: name → host module.

Each host module (``voicegame.games.<module>.host``) provides:

- ``add_arguments(parser)`` — its command-line options;
- ``options_from_args(args) -> dict`` — JSON-serialisable game options;
- ``validate(settings)`` — loads decks/question banks, raising ``ValueError``
  with one sentence (naming file and line) when something is malformed;
- ``Host(table)`` with ``play()`` — the ``transitions`` machine that runs the game.
"""

from __future__ import annotations

import importlib
from types import ModuleType

#: Game name on the command line → host module name.
GAMES = {"wavelength": "wavelength", "rofl": "rofl", "wits": "wits"}


def host_module(game: str) -> ModuleType:
    """Import the host module of ``game``.

    :raises ValueError: unknown game (one sentence listing the known ones).
    """
    if game not in GAMES:
        raise ValueError(f"Unknown game {game!r}: choose one of {', '.join(GAMES)}.")
    return importlib.import_module(f"voicegame.games.{GAMES[game]}.host")
