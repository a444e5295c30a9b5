"""Adapters implementing the ports of voicegame.ports."""
