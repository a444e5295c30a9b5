"""Driving a game's ``transitions`` machine (queued, ``auto_transitions=False``): the phases run in
their ``on_enter`` callbacks, each firing the next trigger; a trigger that cannot fire is a bug and
raises, never a silent rerun (docs/architecture.md)."""

from __future__ import annotations

from typing import Any


class PhaseError(RuntimeError):
    """A trigger could not fire from the current phase (a bug, never a player's doing)."""


def fire(model: Any, trigger: str) -> None:
    """Fire ``trigger`` on ``model`` (the machine's model). :raises PhaseError: it cannot fire now."""
    if not getattr(model, f"may_{trigger}")():
        raise PhaseError(f"{trigger!r} cannot fire in phase {model.state}")
    getattr(model, trigger)()


def play(model: Any, trigger: str, end: Any) -> None:
    """Fire the first ``trigger`` and let the queued machine run every phase; the game must stop in
    ``end``. :raises PhaseError: it stopped anywhere else."""
    fire(model, trigger)
    if model.state is not end:
        raise PhaseError(f"the game stopped in phase {model.state}")
