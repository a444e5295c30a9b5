"""The command line: hear, usage errors, bad files, resume with nothing to resume."""

import subprocess
import sys

import pytest

from tests.playthrough import run_cli


def test_hear_prints_utterance_confidence_and_meaning(tmp_path):
    script = tmp_path / "hear.txt"
    script.write_text("# a mic check\nnineteen eighty four\n<silence>\nyes\nmore left\nblue\nrepeat\nbanana\n")
    status, out, err = run_cli(["hear", "--input", str(script)])
    assert status == 0, err
    assert "heard: 'nineteen eighty four' | confidence 1.00 | understood as: number 1984" in out
    assert "(silence)" in out
    assert "understood as: yes" in out
    assert "understood as: side left" in out
    assert "understood as: colour blue" in out
    assert "understood as: command repeat" in out
    assert "'banana' | confidence 1.00 | understood as: nothing known" in out
    assert out.rstrip().endswith("Done.")


def test_unknown_game_is_a_usage_error(capsys):
    status, out, err = run_cli(["play", "chess"])
    real = capsys.readouterr()
    assert status == 2 and "invalid choice: 'chess'" in err
    assert real.err == "" and real.out == ""  # nothing bypasses the command's streams


def test_bad_timer_is_a_usage_error():
    status, out, err = run_cli(["play", "wavelength", "--timer", "soon"])
    assert status == 2 and "--timer takes a number of seconds or 'off', not 'soon'" in err


def test_missing_script_file_names_the_file(tmp_path):
    status, out, err = run_cli(["hear", "--input", str(tmp_path / "nope.txt")])
    assert status == 2 and "nope.txt" in err and "Traceback" not in err + out


def test_non_utf8_script_names_file_and_line(tmp_path):
    script = tmp_path / "bad.txt"
    script.write_bytes(b"yes\n\xff\xfe no\n")
    status, out, err = run_cli(["hear", "--input", str(script)])
    assert status == 2 and "bad.txt, line 2: not UTF-8 text." in err


def test_resume_with_nothing_to_resume():
    status, out, err = run_cli(["resume", "--input", "keyboard", "--output", "text"])
    assert status == 1 and "no unfinished game" in err


def test_resume_unreadable_autosave(tmp_path):
    bad = tmp_path / "save.json"
    bad.write_text("{not json")
    status, out, err = run_cli(["resume", str(bad), "--output", "text"])
    assert status == 2 and "save.json, line 1" in err


def test_python_dash_m_works():
    result = subprocess.run([sys.executable, "-m", "voicegame", "--help"], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0 and "play" in result.stdout and "doctor" in result.stdout


def test_timer_must_be_a_real_number_of_seconds(capsys):
    for bad in ("nan", "inf", "0.5", "-3"):
        status, out, err = run_cli(["play", "wits", "--timer", bad])
        real = capsys.readouterr()
        assert status == 2 and "--timer takes a number of seconds" in err, bad
        assert "Traceback" not in err + out + real.err + real.out


def test_usage_errors_are_written_to_the_commands_own_stderr():
    """The traceback checks above read the streams argparse really writes to."""
    status, out, err = run_cli(["play", "wits", "--timer", "nan"])
    assert err.startswith("usage: voicegame play wits")


def test_resume_a_json_file_that_is_not_an_autosave(tmp_path):
    bad = tmp_path / "empty.json"
    bad.write_text("{}")
    status, out, err = run_cli(["resume", str(bad), "--output", "text"])
    assert status == 2 and "is not a voicegame autosave" in err


@pytest.mark.parametrize("lang, sentence", [
    ("en", "--record {path} is a folder: give a file name, such as {path}/game.json."),
    ("es", "--record {path} es una carpeta: dad un nombre de archivo, como {path}/game.json."),
    ("nl", "--record {path} is een map: geef een bestandsnaam, zoals {path}/game.json."),
])
def test_record_path_that_is_a_folder_is_refused(tmp_path, lang, sentence):
    status, out, err = run_cli(["play", "wits", "--lang", lang, "--record", str(tmp_path), "--input", "keyboard",
                                "--output", "text"])
    assert status == 2 and err == f"voicegame: {sentence.format(path=tmp_path)}\n"


def test_an_internal_error_goes_to_the_log_not_the_player(tmp_path, monkeypatch):
    """A host that fails before anything was played: one sentence, no traceback, nothing to resume."""
    from voicegame.games.wits import host as wits

    def broken(table):
        raise RuntimeError("a bug")

    monkeypatch.setattr(wits, "Host", broken)
    script = tmp_path / "s.txt"
    script.write_text("ready\n")
    status, out, err = run_cli(["play", "wits", "--input", str(script), "--output", "text"])
    assert status == 1 and "Traceback" not in out + err and "could not start" in out
    log = tmp_path / "data" / "voicegame.log"
    assert "RuntimeError: a bug" in log.read_text()
    status, out, err = run_cli(["resume", "--output", "text"])
    assert status == 1 and "no unfinished game" in err


def test_resume_names_an_unreadable_autosave(tmp_path):
    folder = tmp_path / "data" / "autosave"
    folder.mkdir(parents=True)
    (folder / "wits-broken.json").write_text('{"settings": ')
    status, out, err = run_cli(["resume", "--output", "text"])
    assert status == 1 and "wits-broken.json can't be read" in out and "no unfinished game" in err
