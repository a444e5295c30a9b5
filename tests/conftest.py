"""Shared test setup: every test gets its own data and config directories."""

import pytest


@pytest.fixture(autouse=True)
def _isolated_dirs(tmp_path, monkeypatch):
    monkeypatch.setenv("VOICEGAME_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("VOICEGAME_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.delenv("VOICEGAME_MODEL_DIR", raising=False)
