"""The table's screen: a local web page of the public events (issue 16).

``--display [HOST:]PORT`` (or ``display = "127.0.0.1:8765"`` in config.toml) serves a
static page at ``/`` and the table's public events at ``/events`` as Server-Sent Events:
one JSON object per ``data:`` line (:func:`voicegame.display.events.encode`). The page
only reads; it subscribes to the public audience alone, so no secret can reach it.

- :mod:`voicegame.display.events` — events as JSON and the state a new page starts from
  (stdlib only, shared with the tests and the bench);
- :mod:`voicegame.display.server` — the aiohttp server in its own thread (the optional
  extra ``voicegame[display]``).
"""

from __future__ import annotations

import ipaddress

#: The default port of ``--display PORT`` examples and docs.
DEFAULT_PORT = 8765


class AddressError(ValueError):
    """A ``--display`` value that is not ``[HOST:]PORT``; ``str()`` is one sentence."""


def parse_address(value: str) -> tuple[str, int] | None:
    """``"8765"`` → ``("127.0.0.1", 8765)``; ``"0.0.0.0:8765"``, ``"[::1]:8765"`` → (host, port);
    ``""``/``"off"`` → ``None`` (no screen). Port 0 picks a free port.

    :raises AddressError: no port, a port out of 0..65535, or an empty host.
    """
    text = (value or "").strip()
    if text.lower() in ("", "off", "none"):
        return None
    host, sep, port = text.rpartition(":")
    if not sep:
        host = "127.0.0.1"
    host = host.strip("[]")
    if not host or not port.isdigit() or not 0 <= int(port) <= 65535:
        raise AddressError(f"--display takes [HOST:]PORT, such as 8765 or 0.0.0.0:8765, not {value!r}")
    return host, int(port)


def is_loopback(host: str) -> bool:
    """True for an address only this machine can reach (127.0.0.0/8, ::1, localhost)."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def display_address(value: str) -> str:
    """``--display`` as argparse's ``type``: the value when :func:`parse_address` takes it.

    :raises argparse.ArgumentTypeError: a malformed address (one sentence).
    """
    import argparse

    try:
        parse_address(value)
    except AddressError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    return value


def add_argument(parser) -> None:
    """``--display [HOST:]PORT`` on ``play``, ``resume`` and ``kiosk``."""
    parser.add_argument("--display", type=display_address, default=None, metavar="[HOST:]PORT",
                        help="show the table on a web page at this address (default: config.toml's "
                             "display, else off; any address but 127.0.0.1 needs the printed token)")

