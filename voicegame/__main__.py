"""``python -m voicegame`` — same as the ``voicegame`` console script."""

from voicegame.cli import entry

entry()
