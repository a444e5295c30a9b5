"""The game registry: name → host module.

Each host module (``voicegame.games.<module>.host``) provides:

- ``add_arguments(parser)`` — its command-line options;
- ``options_from_args(args) -> dict`` — JSON-serialisable game options;
- ``validate(settings)`` — loads decks/question banks, raising ``ValueError``
  with one sentence (naming file and line) when something is malformed;
- ``Host(table)`` with ``play()`` — the ``transitions`` machine that runs the game.
"""

from __future__ import annotations

from types import ModuleType

from voicegame.games.rofl import host as rofl_host
from voicegame.games.wavelength import host as wavelength_host
from voicegame.games.wits import host as wits_host

#: Game name on the command line → host module.
GAMES: dict[str, ModuleType] = {"wavelength": wavelength_host, "rofl": rofl_host, "wits": wits_host}


def host_module(game: str) -> ModuleType:
    """The host module of ``game``.

    :raises ValueError: unknown game (one sentence listing the known ones).
    """
    if game not in GAMES:
        raise ValueError(f"Unknown game {game!r}: choose one of {', '.join(GAMES)}.")
    return GAMES[game]
