"""A blocking Wyoming connection: the part the Wyoming voice and listener share.

Wyoming (Rhasspy / Home Assistant) is JSON-lines events with binary payloads over TCP;
the ``wyoming`` package reads and writes them (``wyoming.event.read_event`` /
``write_event`` on a socket's file objects). Every wait has a timeout (a server that
hangs is a lost server, never a hung game), and every failure is :class:`ServerLost`,
a :class:`~voicegame.ports.DeviceError` whose text names the server and the fix.

Engines are written ``wyoming://HOST:PORT`` (:func:`parse_url`).
"""

from __future__ import annotations

import socket
from dataclasses import dataclass

from voicegame.ports import DeviceError

SCHEME = "wyoming://"


class ServerLost(DeviceError):
    """A Wyoming server cannot be reached, stopped answering, or closed the connection."""


def import_wyoming():
    """The ``wyoming`` package. :raises DeviceError: it is not installed (names the extra)."""
    try:
        import wyoming.event  # noqa: F401
    except ImportError as exc:
        raise DeviceError("The Wyoming client is missing: run `pip install 'voicegame[wyoming]'`.",
                          key="common.devices.no_wyoming") from exc
    return wyoming


@dataclass(frozen=True)
class Address:
    """Where a Wyoming server listens: ``host`` and TCP ``port``."""

    host: str
    port: int

    def __str__(self) -> str:
        return f"{SCHEME}{self.host}:{self.port}"


def parse_url(text: str) -> Address:
    """``wyoming://HOST:PORT`` (also ``tcp://HOST:PORT``) → :class:`Address`.

    :raises ValueError: not that form (one sentence with an example).
    """
    rest = text.strip()
    for prefix in (SCHEME, "tcp://"):
        if rest.lower().startswith(prefix):
            rest = rest[len(prefix):]
            break
    else:
        raise ValueError(f"{text!r} is not a Wyoming server: write it like wyoming://127.0.0.1:10200")
    host, _, port = rest.rstrip("/").rpartition(":")
    if not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise ValueError(f"{text!r} needs a host and a port, like wyoming://127.0.0.1:10200")
    return Address(host.strip("[]"), int(port))


class Connection:
    """One TCP connection to a Wyoming server.

    :param address: the server.
    :param timeout_s: seconds a connect, a write or a wait for one event may take.
    :raises ServerLost: the server cannot be reached within ``timeout_s``.
    """

    def __init__(self, address: Address, timeout_s: float = 2.0):
        import_wyoming()
        self.address = address
        self.timeout_s = timeout_s
        try:
            self._sock = socket.create_connection((address.host, address.port), timeout=timeout_s)
        except OSError as exc:
            raise ServerLost(f"The speech server {address} cannot be reached ({exc.strerror or exc}): "
                             "start it, or check the address.") from exc
        self._sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)  # many small audio chunks
        self._rfile = self._sock.makefile("rb")
        self._wfile = self._sock.makefile("wb")

    def send(self, *eventables) -> None:
        """Write events (``wyoming`` Eventables or Events). :raises ServerLost: the connection broke."""
        from wyoming.event import write_event

        try:
            for item in eventables:
                write_event(item.event() if hasattr(item, "event") else item, self._wfile)
        except (OSError, ValueError) as exc:
            self.close()
            raise ServerLost(f"The speech server {self.address} dropped the connection.") from exc

    def receive(self, timeout_s: float | None = None):
        """The next event (a ``wyoming.event.Event``).

        :param timeout_s: seconds to wait (``None``: the connection's timeout).
        :raises ServerLost: closed, broken, or nothing within the timeout.
        """
        from wyoming.event import read_event

        try:
            self._sock.settimeout(self.timeout_s if timeout_s is None else timeout_s)
            event = read_event(self._rfile)
        except (OSError, ValueError) as exc:
            self.close()
            raise ServerLost(f"The speech server {self.address} stopped answering.") from exc
        if event is None:
            self.close()
            raise ServerLost(f"The speech server {self.address} closed the connection.")
        return event

    def close(self) -> None:
        """Close the connection (idempotent)."""
        for f in (self._rfile, self._wfile, self._sock):
            try:
                f.close()
            except OSError:
                pass


def describe(address: Address, timeout_s: float = 2.0):
    """The server's ``wyoming.info.Info`` (its ASR and TTS programs, their languages).

    :raises ServerLost: unreachable, or no Info within ``timeout_s``.
    """
    from wyoming.info import Describe, Info

    conn = Connection(address, timeout_s)
    try:
        conn.send(Describe())
        while True:
            event = conn.receive()
            if Info.is_type(event.type):
                return Info.from_event(event)
    finally:
        conn.close()


def languages(info, kind: str) -> set[str]:
    """Languages a server's ``info`` offers for ``kind`` (``"asr"`` or ``"tts"``), as
    lower-case primary codes (``"en_US"`` → ``"en"``)."""
    found = set()
    for program in getattr(info, kind, None) or ():
        for artifact in (program.models if kind == "asr" else program.voices) or ():
            found.update(code.replace("-", "_").split("_")[0].lower() for code in artifact.languages or ())
    return found

