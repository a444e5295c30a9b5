"""Command-line conventions: ``--version``, ``-v/--verbose`` (stderr and the log file, whose path
``--help`` and ``doctor`` name), exit statuses 0/1/2, no traceback on the terminal, and
``docs/configuration.md`` listing every environment variable and configuration key."""

from __future__ import annotations

import re
from pathlib import Path

from tests.playthrough import run_cli
from voicegame import cli, config

ROOT = Path(__file__).resolve().parents[1]


def test_version():
    status, out, err = run_cli(["--version"])
    assert status == 0 and re.fullmatch(r"voicegame \d+\.\d+\.\d+\S*\n", out)


def test_help_names_the_log_file_and_the_exit_statuses(tmp_path):
    status, out, err = run_cli(["--help"])
    assert status == 0
    assert f"log file: {tmp_path / 'data' / 'voicegame.log'}" in out
    assert "exit status: 0 success, 1 the command could not do its work, 2 a wrong command line" in out
    assert "-v, --verbose" in out


def test_exit_statuses(tmp_path):
    assert run_cli(["play", "nothing"])[0] == 2                                    # argparse
    assert run_cli(["play", "wits", "--timer", "0.5"])[0] == 2                     # a value out of range
    assert run_cli(["play", "wits", "--input", str(tmp_path / "none.txt")])[0] == 2  # a file named on it
    assert run_cli(["play", "wavelength", "--players", "1"])[0] == 2              # game options
    assert run_cli(["resume", "--output", "text"])[0] == 1                          # nothing to resume
    assert run_cli(["models", "path"])[0] == 0


def test_verbose_logs_to_stderr_and_the_log_file(tmp_path):
    log = tmp_path / "data" / "voicegame.log"
    status, out, err = run_cli(["models", "path"])
    assert status == 0 and err == "" and not (log.exists() and "models path" in log.read_text())
    for argv in (["-v", "models", "path"], ["models", "path", "--verbose"]):
        status, out, err = run_cli(argv)
        assert status == 0 and f"voicegame: voicegame {cli.version()}: {' '.join(argv)}" in err
        assert f"INFO voicegame: voicegame {cli.version()}: {' '.join(argv)}" in log.read_text()


def test_an_internal_error_is_one_sentence_and_its_traceback_goes_to_the_log(tmp_path, monkeypatch):
    def broken(args, env):
        raise RuntimeError("a bug deep inside")
    monkeypatch.setitem(cli.COMMANDS, "doctor", broken)
    log = tmp_path / "data" / "voicegame.log"
    status, out, err = run_cli(["doctor"])
    assert status == 1 and err == f"voicegame: internal error (RuntimeError); the details are in {log}.\n"
    assert "Traceback" in log.read_text() and "a bug deep inside" in log.read_text()
    status, out, err = run_cli(["-v", "doctor"])
    assert status == 1 and "Traceback" in err and "RuntimeError: a bug deep inside" in err


def test_doctor_names_the_log_file(tmp_path):
    status, out, err = run_cli(["doctor", "--lang", "en"])
    assert f"Log file: {tmp_path / 'data' / 'voicegame.log'}" in out


def test_configuration_doc_lists_every_variable_and_key():
    doc = (ROOT / "docs" / "configuration.md").read_text(encoding="utf-8")
    source = "\n".join(p.read_text(encoding="utf-8") for p in (ROOT / "voicegame").rglob("*.py"))
    variables = set(re.findall(r"\b(?:VOICEGAME|VOSK)_[A-Z_]+[A-Z]\b", source)) - {"VOSK_MODEL_LIST_URL"}
    assert variables >= {"VOICEGAME_DATA_DIR", "VOICEGAME_CONFIG_DIR", "VOICEGAME_MODEL_DIR",
                         "VOICEGAME_MODEL_BASE_URL", "VOSK_MODEL_PATH"}
    for name in sorted(variables):
        assert f"`{name}`" in doc, f"{name} is not in docs/configuration.md"
    for key in config.KEYS:
        assert re.search(rf"^{key} = ", doc, re.M), f"config key {key} is not in docs/configuration.md"
    # the other documents link to it instead of listing the variables again
    for other in ("README.md", "docs/kiosk.md", "docs/records.md"):
        text = (ROOT / other).read_text(encoding="utf-8")
        assert "configuration.md" in text, f"{other} does not link to docs/configuration.md"
        assert not re.search(r"^(lang|rate_wpm|input_device) = ", text, re.M), f"{other} lists config keys again"


def test_readme_first_command_uses_sudo_only_when_not_root():
    import os
    import subprocess

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    first = readme.split("```sh\n", 1)[1].split("\n```", 1)[0]
    assert "\n" not in first.strip() and first.count("apt-get") == 2
    prefix, rest = first.split(";", 1)
    assert rest.strip().startswith("$S apt-get update && $S apt-get install -y")
    said = subprocess.run(["sh", "-c", prefix + '; printf "%s" "$S"'], capture_output=True, text=True, timeout=30)
    assert said.stdout == ("" if os.getuid() == 0 else "sudo")


def test_every_word_the_readme_says_players_can_say_anytime_is_a_command():
    """Playtest: the README promised "quit", which a game takes for table talk (its command is
    "stop the game", as the in-game help says)."""
    from voicegame.language.words import Understanding

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    said = re.search(r"At any moment players can say: (.*?)\.\n", readme, re.S).group(1)
    said = re.sub(r"\s*\([^)]*\)", "", said.replace("\n", " "))  # an aside in brackets is not a phrase
    phrases = [p.strip() for part in said.split(",") for p in part.split("/")]
    u = Understanding("en")
    assert len(phrases) >= 10 and [p for p in phrases if u.command(p) is None] == []
