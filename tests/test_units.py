"""The systemd user unit (PipeWire / WirePlumber set-ups) beside the system unit (ALSA only):
ordered after the user's audio services, and valid for ``systemd-analyze verify`` where
systemd is installed (the system unit's own checks are in tests/test_kiosk.py)."""

from __future__ import annotations

import configparser
import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
USER_UNIT = ROOT / "scripts" / "voicegame-kiosk-user.service"


def read(path: Path) -> configparser.ConfigParser:
    unit = configparser.ConfigParser(strict=False, interpolation=None)
    unit.optionxform = str
    unit.read(path, encoding="utf-8")
    return unit


def test_the_user_unit_starts_after_the_users_audio_services():
    unit = read(USER_UNIT)
    audio = {"pipewire.service", "pipewire-pulse.service", "wireplumber.service"}
    assert set(unit["Unit"]["After"].split()) >= audio and set(unit["Unit"]["Wants"].split()) >= audio
    service = unit["Service"]
    assert service["ExecStart"].split()[-2:] == ["voicegame", "kiosk"] and service["Restart"] == "always"
    assert "User" not in service and "SupplementaryGroups" not in service  # a user manager runs it as its user
    assert unit["Install"]["WantedBy"] == "default.target"
    assert "loginctl enable-linger" in USER_UNIT.read_text(encoding="utf-8")
    kiosk_doc = (ROOT / "docs" / "kiosk.md").read_text(encoding="utf-8")
    assert "voicegame-kiosk-user.service" in kiosk_doc and "loginctl enable-linger" in kiosk_doc


def test_the_user_unit_passes_systemd_analyze_verify(tmp_path):
    tool = shutil.which("systemd-analyze")
    if tool is None:
        pytest.skip("systemd-analyze is not installed here")
    env = {**os.environ, "XDG_RUNTIME_DIR": str(tmp_path)}  # a user manager's view without a session
    done = subprocess.run([tool, "--user", "verify", str(USER_UNIT)], capture_output=True, text=True, timeout=60,
                          env=env)
    assert done.returncode == 0 and done.stderr.strip() == "", done.stderr
