"""The Chromium kiosk-mode unit of the table's screen (scripts/voicegame-screen-user.service):
it opens http://127.0.0.1:PORT in kiosk mode only once the page answers, and passes
``systemd-analyze verify`` where systemd is installed."""

from __future__ import annotations

import os
import shlex
import shutil
import socket
import subprocess
from pathlib import Path

import pytest

from tests.test_units import read
from voicegame.display import DEFAULT_PORT
from voicegame.display.server import Display

ROOT = Path(__file__).resolve().parents[1]
UNIT = ROOT / "scripts" / "voicegame-screen-user.service"


def test_the_unit_opens_the_page_in_kiosk_mode_after_it_answers():
    service = read(UNIT)["Service"]
    start = shlex.split(service["ExecStart"])
    assert start[:2] == ["/usr/bin/env", "chromium"] and "--kiosk" in start
    assert f"--app=http://127.0.0.1:{DEFAULT_PORT}/" in start
    assert f"127.0.0.1/{DEFAULT_PORT}" in service["ExecStartPre"] and service["Restart"] == "always"
    doc = (ROOT / "docs" / "kiosk.md").read_text(encoding="utf-8")
    assert "voicegame-screen-user.service" in doc and "no screen" in doc.lower()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_the_wait_before_the_browser_ends_only_once_the_page_listens():
    port = free_port()
    wait = read(UNIT)["Service"]["ExecStartPre"].replace(str(DEFAULT_PORT), str(port))
    argv = shlex.split(wait)
    with pytest.raises(subprocess.TimeoutExpired):  # nothing listens: it keeps waiting
        subprocess.run(argv, timeout=1.5)
    display = Display("127.0.0.1", port).start()
    try:
        assert subprocess.run(argv, timeout=30).returncode == 0
    finally:
        display.stop()


def test_the_unit_passes_systemd_analyze_verify(tmp_path):
    tool = shutil.which("systemd-analyze")
    if tool is None:
        pytest.skip("systemd-analyze is not installed here")
    env = {**os.environ, "XDG_RUNTIME_DIR": str(tmp_path)}
    done = subprocess.run([tool, "--user", "verify", str(UNIT)], capture_output=True, text=True, timeout=60, env=env)
    assert done.returncode == 0 and done.stderr.strip() == "", done.stderr
