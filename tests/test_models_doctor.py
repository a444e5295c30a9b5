"""Model discovery and installation (never touching the network), and ``doctor``."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
import requests
import vosk

from voicegame import doctor, models
from voicegame.ports import DeviceError


def make_model(parent: Path, name: str) -> Path:
    """A folder that looks like an unpacked Vosk model."""
    d = parent / name
    (d / "conf").mkdir(parents=True)
    (d / "conf" / "model.conf").write_text("--beam=10.0\n")
    return d


@pytest.fixture(autouse=True)
def isolated(monkeypatch, tmp_path):
    """No network, and the project / user model folders point into tmp_path."""
    def no_network(*args, **kwargs):
        raise AssertionError("a test tried to use the network")
    monkeypatch.setattr(requests, "get", no_network)
    monkeypatch.setattr(vosk, "urlretrieve", no_network)
    monkeypatch.setattr(models, "project_models_dir", lambda: tmp_path / "project-models")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    return tmp_path


def test_search_order(tmp_path):
    env = {"VOICEGAME_MODEL_DIR": str(tmp_path / "env"), "VOSK_MODEL_PATH": str(tmp_path / "vosk-env")}
    dirs = models.search_dirs(explicit=tmp_path / "explicit", env=env)
    assert dirs[:5] == [
        tmp_path / "explicit",
        tmp_path / "env",
        tmp_path / "project-models",
        tmp_path / "xdg" / "voicegame" / "models",
        tmp_path / "vosk-env",
    ]
    assert Path.home() / ".cache" / "vosk" in dirs
    assert len(dirs) == len(set(dirs))
    assert models.search_dirs(env={})[0] == tmp_path / "project-models"


def test_find_model_prefers_earlier_folders_and_small_models(tmp_path):
    env_dir, user_dir = tmp_path / "env", tmp_path / "xdg" / "voicegame" / "models"
    make_model(user_dir, "vosk-model-small-en-us-0.15")
    big = make_model(env_dir, "vosk-model-en-us-0.22")
    small = make_model(env_dir, "vosk-model-small-en-us-0.15")
    make_model(env_dir, "vosk-model-small-en-in-0.4")
    (env_dir / "vosk-model-small-es-0.42").mkdir()  # named right, but empty: not a model
    make_model(env_dir, "vosk-model-small-nlx-0.1")    # another language code
    env = {"VOICEGAME_MODEL_DIR": str(env_dir)}
    assert models.find_model("en", env=env) == small
    assert models.find_model("es", env=env) is None
    assert models.find_model("nl", env=env) is None
    assert big in [p for _, p in models.list_models(env=env)]
    assert models.find_model("en", env={}) == user_dir / "vosk-model-small-en-us-0.15"


def test_explicit_model_folder_is_taken_as_is(tmp_path):
    odd = make_model(tmp_path, "my-own-model")
    assert models.find_model("en", explicit=odd, env={}) == odd
    holder = tmp_path / "holder"
    es = make_model(holder, "vosk-model-small-es-0.42")
    assert models.find_model("es", explicit=holder, env={}) == es
    assert models.find_model("en", explicit=holder, env={}) is None


def test_list_models_reports_language_and_folder(tmp_path):
    env_dir = tmp_path / "env"
    en = make_model(env_dir, "vosk-model-small-en-us-0.15")
    nl = make_model(env_dir, "vosk-model-small-nl-0.22")
    found = models.list_models(env={"VOICEGAME_MODEL_DIR": str(env_dir)})
    assert ("en", en) in found and ("nl", nl) in found


def test_install_hint_is_one_sentence_with_the_command():
    hint = models.install_hint("en")
    assert hint == ("No speech model for English: run `voicegame models install en` "
                    "(needs internet once), or play with --input keyboard.")


# The installer (download, resume, checks, --from, broken folders) is tested against a real
# HTTP server in tests/test_installer.py.


# -- doctor --------------------------------------------------------------------------


def test_doctor_on_this_machine_names_each_fix(tmp_path):
    import sounddevice as sd

    lines: list[str] = []
    status = doctor.run_doctor(out=lines.append, env={"VOICEGAME_MODEL_DIR": str(tmp_path / "none")})
    text = "\n".join(lines)
    assert status != 0
    assert "voicegame models install en" in text
    if not any(d["max_input_channels"] > 0 for d in sd.query_devices()):  # true on the build machine
        assert "No microphone found: plug one in" in text
    for lang in ("en", "es", "nl"):
        assert f"  {lang}: ok" in text  # the espeak-ng voices are installed here
    assert "Traceback" not in text


def fake_devices(monkeypatch):
    from tests.fake_sounddevice import FakeSoundDevice, mic, speaker

    sd = FakeSoundDevice([mic(0, "usb mic"), speaker(1, "speaker")])
    monkeypatch.setitem(sys.modules, "sounddevice", sd)
    return sd


def test_doctor_passes_when_everything_is_there(monkeypatch, tmp_path):
    sd = fake_devices(monkeypatch)
    env_dir = tmp_path / "env"
    make_model(env_dir, "vosk-model-small-en-us-0.15")
    lines: list[str] = []
    assert doctor.run_doctor("en", out=lines.append, env={"VOICEGAME_MODEL_DIR": str(env_dir)}) == 0
    text = "\n".join(lines)
    assert "usb mic" in text and "speaker" in text and "Ready for voice play in: en" in text
    assert "  microphone 0: usb mic (48000 Hz) — the default" in text
    assert "  opened the default microphone 0: usb mic: ok" in text and sd.opened == [("input", None), ("output", None)]
    # only a Spanish model is missing: listed with its command, but en is playable
    lines.clear()
    assert doctor.run_doctor(out=lines.append, env={"VOICEGAME_MODEL_DIR": str(env_dir)}) == 0
    assert "voicegame models install es" in "\n".join(lines)


def test_doctor_without_the_model_for_the_chosen_language_fails(monkeypatch, tmp_path):
    fake_devices(monkeypatch)
    make_model(tmp_path / "env", "vosk-model-small-en-us-0.15")
    lines: list[str] = []
    assert doctor.run_doctor("nl", out=lines.append, env={"VOICEGAME_MODEL_DIR": str(tmp_path / "env")}) == 1
    assert "voicegame models install nl" in lines[-1]


def test_doctor_names_portaudio_when_it_is_missing(monkeypatch):
    from voicegame.adapters import audio

    def missing():
        raise DeviceError(audio.NO_PORTAUDIO)
    monkeypatch.setattr(audio, "import_sounddevice", missing)
    lines: list[str] = []
    assert doctor.run_doctor("en", out=lines.append, env={}) == 1
    assert any("sudo apt install libportaudio2" in line for line in lines)


def test_doctor_never_raises(monkeypatch):
    def boom(*args, **kwargs):
        raise RuntimeError("something odd\nwith a second line")
    from voicegame.adapters import devices

    monkeypatch.setattr(devices, "list_devices", boom)
    monkeypatch.setattr(doctor, "_check_voice", boom)
    monkeypatch.setattr(models, "find_model", boom)
    monkeypatch.setattr(models, "list_models", boom)
    lines: list[str] = []
    assert doctor.run_doctor(out=lines.append, env={}) == 1
    assert all("\n" not in line and "Traceback" not in line for line in lines)
    assert any("libportaudio2" in line for line in lines)
