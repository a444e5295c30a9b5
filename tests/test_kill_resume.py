"""A game process killed mid-way (SIGKILL, no chance to clean up) resumes from its
autosave with no point lost (foundation issue: autosave and resume)."""

import json
import os
import select
import signal
import subprocess
import sys
import time

from tests.playthrough import run_cli
from voicegame.cli import latest_autosave
from voicegame.engine.journal import load_autosave

QUESTIONS = """id,question,answer,unit,source,year
t-1,How many legs does a spider have?,8,legs,Encyclopaedia Britannica,2024
t-2,In what year did the Berlin Wall fall?,1989,year,Encyclopaedia Britannica,1989
"""
INPUTS = ["red 1990", "blue 1989", "no", "red both on 1989", "blue both on 1990",
          "red 6", "blue 8", "no", "red both on 8", "blue no bet", "done"]
KILL_AFTER = 6  # inputs answered before the kill: question 2 is half-way through its guesses


def _read_until_prompts(proc, count: int, seen: bytearray, timeout_s: float = 60.0) -> str:
    """Read the game's output (kept in ``seen``) until the keyboard prompt "> " has been
    printed ``count`` times in all."""
    data = seen
    while data.count(b"> ") < count:
        ready, _, _ = select.select([proc.stdout], [], [], timeout_s)
        assert ready, f"the game stopped answering; output so far:\n{data.decode()}"
        chunk = os.read(proc.stdout.fileno(), 65536)
        assert chunk, f"the game ended early; output:\n{data.decode()}"
        data += chunk
    return data.decode()


def _saved_up_to(record, inputs: int) -> bool:
    """True once the record is on disk (an unfinished game) and the autosave's input log
    holds ``inputs`` answers: what a kill must find to lose nothing."""
    try:
        if json.loads(record.read_text())["finished"] is not False:
            return False
        save = latest_autosave(os.environ)
        return save is not None and len(load_autosave(save)["log"]) >= inputs
    except (OSError, ValueError, KeyError):
        return False


def _wait_until(condition, what: str, timeout_s: float = 60.0) -> None:
    """Poll ``condition`` (the saves are written by the game's writer thread) until it holds;
    fail after ``timeout_s`` seconds. Time bounds the wait, it never decides the outcome."""
    deadline = time.monotonic() + timeout_s
    while not condition():
        assert time.monotonic() < deadline, f"gave up waiting: {what}"
        select.select([], [], [], 0.01)


def test_killed_game_resumes_with_no_point_lost(tmp_path):
    bank = tmp_path / "q.csv"
    bank.write_text(QUESTIONS)
    argv = ["play", "wits", "--input", "keyboard", "--output", "text", "--timer", "off", "--seed", "3",
            "--players", "red,blue", "--count", "2", "--questions", str(bank)]

    # the uninterrupted game, for comparison
    status, whole, _ = run_cli(argv + ["--record", str(tmp_path / "whole.json")], stdin_text="\n".join(INPUTS) + "\n")
    assert status == 0 and "Red wins with 12 chips" in whole
    whole_record = json.loads((tmp_path / "whole.json").read_text())

    # the same game, killed after KILL_AFTER inputs
    record = tmp_path / "killed.json"
    proc = subprocess.Popen([sys.executable, "-m", "voicegame", *argv, "--record", str(record)],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    try:
        seen = bytearray()
        _read_until_prompts(proc, 1, seen)
        for i, line in enumerate(INPUTS[:KILL_AFTER], start=1):
            proc.stdin.write((line + "\n").encode())
            proc.stdin.flush()
            output = _read_until_prompts(proc, i + 1, seen)
        assert "Red: 6 legs." in output  # question 2's first guess was accepted before the kill
        # the kill comes once the record and every answer so far are saved, not after some time
        _wait_until(lambda: _saved_up_to(record, KILL_AFTER), f"record and {KILL_AFTER} saved answers")
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=30)
    assert proc.returncode == -signal.SIGKILL
    assert json.loads(record.read_text())["finished"] is False

    rest = tmp_path / "rest.txt"
    rest.write_text("\n".join(INPUTS[KILL_AFTER:]) + "\n")
    status, out, err = run_cli(["resume", "--input", str(rest), "--output", "text"])
    assert status == 0, err
    assert "Welcome back" in out and "Red wins with 12 chips" in out
    resumed = json.loads(record.read_text())
    assert resumed["finished"] is True
    assert resumed["awards"] == whole_record["awards"] and resumed["turns"] == whole_record["turns"]
    assert resumed["standings"] == whole_record["standings"]
