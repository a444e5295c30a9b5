"""Wyoming servers started on this machine, on 127.0.0.1: for the tests and ``voicegame bench``.

- :func:`piper_server` — the real ``wyoming-piper`` with a Piper voice found by
  :mod:`~voicegame.adapters.piper_voice` (``--local-files-only``: nothing is downloaded);
- :func:`vosk_server` — :mod:`~voicegame.adapters.wyoming_vosk_server` over a Vosk model;
- :func:`ovos_server` — the real ``wyoming-ovos-stt`` with its Vosk plugin over a Vosk
  model (configured through an ``XDG_CONFIG_HOME`` of its own).

Each returns ``(argv, env)`` for :func:`launch`, which waits until the server answers.
"""

from __future__ import annotations

import json
import os
import socket
import sys
from pathlib import Path

from voicegame.adapters.wyoming_client import Address, ServerLost, describe


def piper_server(voice, port: int) -> tuple[list[str], dict]:
    """``wyoming-piper`` serving ``voice`` (a :class:`~voicegame.adapters.piper_voice.VoiceFiles`)."""
    return ([sys.executable, "-m", "wyoming_piper", "--voice", voice.name, "--data-dir", str(voice.data_dir),
             "--local-files-only", "--uri", f"tcp://127.0.0.1:{port}"], dict(os.environ))


def vosk_server(model_dir, port: int, lang: str) -> tuple[list[str], dict]:
    """voicegame's Wyoming Vosk server over ``model_dir``."""
    return ([sys.executable, "-m", "voicegame.adapters.wyoming_vosk_server", "--model", str(model_dir),
             "--uri", f"tcp://127.0.0.1:{port}", "--lang", lang], dict(os.environ))


def ovos_server(model_dir, port: int, lang: str, home: Path) -> tuple[list[str], dict]:
    """``wyoming-ovos-stt`` with ``ovos-stt-plugin-vosk`` over ``model_dir``; its configuration
    and data folders are made in ``home``."""
    config = Path(home) / "config" / "mycroft"
    config.mkdir(parents=True, exist_ok=True)
    plugin = "ovos-stt-plugin-vosk"
    (config / "mycroft.conf").write_text(json.dumps({"lang": lang, "stt": {plugin: {"model": str(model_dir),
                                                                                    "lang": lang}}}))
    env = dict(os.environ, XDG_CONFIG_HOME=str(Path(home) / "config"), XDG_DATA_HOME=str(Path(home) / "data"),
               XDG_CACHE_HOME=str(Path(home) / "cache"))
    return [sys.executable, "-m", "wyoming_ovos_stt", "--plugin-name", plugin, "--uri", f"tcp://127.0.0.1:{port}"], env


def launch(argv: list[str], address: Address, timeout_s: float = 120.0, env: dict | None = None):
    """Start a Wyoming server process and wait until it answers ``Describe`` (tests, the bench).

    :param argv: the server's command line (it must listen on ``address``).
    :returns: the ``subprocess.Popen`` (the caller stops it).
    :raises ServerLost: it exited or did not answer within ``timeout_s`` (its last output named).
    """
    import subprocess
    import tempfile
    import time

    log_file = tempfile.TemporaryFile()
    process = subprocess.Popen(argv, stdout=log_file, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, env=env)
    deadline = time.monotonic() + timeout_s
    while True:
        try:
            describe(address, 2.0)
            return process
        except ServerLost:
            pass
        if process.poll() is not None or time.monotonic() > deadline:
            process.kill()
            process.wait()
            log_file.seek(0)
            tail = log_file.read().decode("utf-8", "replace").strip().splitlines()[-3:]
            raise ServerLost(f"The server {' '.join(argv[:3])} did not start on {address}: {' | '.join(tail)}")
        time.sleep(0.1)


def free_port() -> int:
    """A TCP port free on 127.0.0.1 now (for a server started next)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def stop(process) -> None:
    """Stop a launched server (terminate, then kill after 5 s)."""
    import subprocess

    process.terminate()
    try:
        process.wait(timeout=5)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
