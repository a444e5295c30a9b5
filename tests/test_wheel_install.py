"""A non-editable install: build a wheel from the sources, install it into a fresh venv and
run it from ``/``: every sentence, deck and bench script comes from the installed package,
and a scripted game and the lobby print exactly their golden playthroughs.

To stay quick, the fresh venv gets its dependencies (vosk, numpy …) from this venv's
site-packages through a ``.pth`` line instead of installing them again (a path listed in a
``.pth`` file is not a site directory, so this venv's editable install of voicegame stays
out). ``.ci/wheel-check`` does the whole thing with ``pip install`` of every dependency,
plus one game of each title, ``hear``, ``doctor`` and ``bench --quick``.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from tests.playthrough import GOLDEN, SCRIPTS

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> dict:
    work = tmp_path_factory.mktemp("wheel")
    src = work / "src"
    src.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, src / name)
    shutil.copytree(ROOT / "voicegame", src / "voicegame", ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    built = subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(work / "dist"),
                            str(src)], capture_output=True, text=True, timeout=600)
    assert built.returncode == 0, built.stderr[-2000:]
    wheel = next((work / "dist").glob("voicegame-*.whl"))
    venv = work / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120)
    python = venv / "bin" / "python"
    done = subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "-q", "--no-deps",
                           "--no-index", str(wheel)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    site = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                          capture_output=True, text=True, check=True).stdout.strip()
    (Path(site) / "voicegame-test-deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VOICEGAME_MODEL_DIR")}
    env.update(VOICEGAME_DATA_DIR=str(work / "data"), VOICEGAME_CONFIG_DIR=str(work / "config"))
    return {"python": python, "voicegame": venv / "bin" / "voicegame", "env": env, "work": work, "wheel": wheel}


def run(installed, *argv: str) -> subprocess.CompletedProcess:
    for folder in ("data", "config"):
        shutil.rmtree(installed["work"] / folder, ignore_errors=True)
    return subprocess.run([str(installed["voicegame"]), *argv], cwd="/", env=installed["env"],
                          capture_output=True, text=True, timeout=300)


def test_the_package_comes_from_the_wheel_with_its_data(installed):
    import zipfile

    names = zipfile.ZipFile(installed["wheel"]).namelist()
    for lang in ("en", "es", "nl"):
        assert f"voicegame/prompts/{lang}/lobby.toml" in names and f"voicegame/prompts/{lang}/wits_questions.csv" in names
    assert "voicegame/bench_scripts/wits_full.txt" in names and not any(n.startswith("tests/") for n in names)
    where = subprocess.run([str(installed["python"]), "-c", "import voicegame; print(voicegame.__file__)"],
                           cwd="/", env=installed["env"], capture_output=True, text=True, check=True).stdout
    assert where.startswith(str(installed["work"] / "venv")), where
    done = run(installed, "--version")
    assert done.returncode == 0 and done.stdout.startswith("voicegame ")


def test_a_scripted_game_from_slash_is_its_golden_playthrough(installed):
    done = run(installed, "play", "wavelength", "--input", str(SCRIPTS / "wavelength_team.txt"), "--output", "text",
               "--record", str(installed["work"] / "team.json"), "--seed", "7", "--players", "3", "2",
               "--deck", str(Path(__file__).resolve().parent / "fixtures" / "wavelength_deck_en.txt"))  # the golden's deck
    assert done.returncode == 0, done.stderr
    assert done.stdout == (GOLDEN / "wavelength_team.txt").read_text(encoding="utf-8")


def test_the_lobby_from_slash_is_its_golden_tour(installed):
    done = run(installed, "kiosk", "--input", str(SCRIPTS / "kiosk_tour.txt"), "--output", "text", "--seed", "3")
    assert done.returncode == 0, done.stderr
    assert done.stdout == (GOLDEN / "kiosk_tour.txt").read_text(encoding="utf-8")
