"""A seeded fuzz harness: random input in every listening moment of every game and the lobby,
in en/es/nl, with invariants checked on each game's record.

Used by ``tests/test_fuzz.py`` (a small slice in CI) and ``scripts/fuzz.py`` (thousands of
games, kills included; figures in docs/reliability.md). Every game is a function of its seed:
a failure prints the seed and the script, so it can be replayed.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tomllib
from collections import defaultdict
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from tests.playthrough import SCRIPTS, run_cli
from voicegame.engine.journal import load_autosave
from voicegame.language.prompts import PROMPTS_DIR, Prompts

GAMES = ("wavelength", "rofl", "wits", "lobby")
LANGS = ("en", "es", "nl")
#: What a crash sounds like to the table (the host's own sentences for an internal error).
CRASH_MARKS = ("Traceback", "went wrong", "could not start", "algo ha fallado", "ging iets mis",
               "no ha podido empezar", "kon niet beginnen")

# no NUL byte: a script file holding one is refused as UTF-16 before any game starts
# (engine.journal.data_lines), so whether a case plays would depend on where the draw put it
ODD = ["²⁵", "①②", "red ³", "blue, ⁴²", "9" * 400, "1e400", "-0", "nan", "inf", "٣", "１２",
       "red\u2028seven", "\x07\x1b[31m", "🙂", "ß" * 50, "   ", "one point", "minus minus five",
       "a " * 300, "10 ** 15", "999999999999999999", "0.0000001", "½", "zero zero zero"]
GLOBAL = ["repeat", "help", "score", "pause", "resume", "undo", "slower", "faster", "louder", "softer",
          "quit", "yes", "no", "stop", "rules", "how to play", "skip", "got it"]


def _words(lang: str) -> list[str]:
    """Every phrase of the language's words files (commands, numbers, colours, game words)."""
    out: list[str] = []

    def walk(value):
        if isinstance(value, str):
            out.append(value)
        elif isinstance(value, list):
            for v in value:
                walk(v)
        elif isinstance(value, dict):
            for v in value.values():
                walk(v)

    for path in sorted((PROMPTS_DIR / lang).glob("words*.toml")):
        walk(tomllib.loads(path.read_text(encoding="utf-8")))
    return [w for w in out if 0 < len(w) < 60]


def _harvest(game: str, lang: str) -> list[str]:
    """Valid answers from the golden scripts of ``game`` in ``lang`` (the lobby: kiosk scripts)."""
    stem = "kiosk" if game == "lobby" else game
    names = [p for p in SCRIPTS.glob(f"{stem}*.txt")
             if (lang == "en" and not p.stem.endswith(("_es", "_nl"))) or p.stem.endswith(f"_{lang}")]
    lines = []
    for path in names or SCRIPTS.glob(f"{stem}*.txt"):
        lines += [l.strip() for l in path.read_text(encoding="utf-8").splitlines()
                  if l.strip() and not l.startswith("#")]
    return [l for l in lines if not any(w in l.lower() for w in QUIT_WORDS)]  # quitting is drawn apart


#: Words that may end a game; the harness says them rarely (1 in 200 inputs), so games get far.
QUIT_WORDS = ("quit", "stop", "salir", "para", "stoppen", "afsluiten", "switch off", "apaga", "uit")


@dataclass
class Case:
    game: str
    lang: str
    seed: int
    lines: list[str]
    argv: list[str] = field(default_factory=list)


def make_case(game: str, lang: str, seed: int, length: int = 160) -> Case:
    """A seeded script: mostly valid answers (so games get far), with random words, odd and
    out-of-range numbers, other games' commands, global commands, silences, long lines and
    Unicode oddities mixed in."""
    rng = random.Random(f"{game}:{lang}:{seed}")
    valid, words = _harvest(game, lang), _words(lang)
    others = [l for g in GAMES if g != game for l in _harvest(g, lang)]
    lines = []
    for _ in range(length):
        roll = rng.random()
        if roll < 0.55:
            line = rng.choice(valid)
        elif roll < 0.68:
            line = " ".join(rng.choice(words) for _ in range(rng.randint(1, 3)))
        elif roll < 0.75:
            line = rng.choice(ODD)
        elif roll < 0.80:
            line = rng.choice(others)
        elif roll < 0.86:
            line = rng.choice(GLOBAL if rng.random() < 0.08 else [g for g in GLOBAL if g not in ("quit", "stop")])
        elif roll < 0.93:
            line = "<silence>"
        elif roll < 0.96:
            line = str(rng.choice([-1, 0, 21, 10 ** rng.randint(3, 20), rng.uniform(-1e6, 1e6)]))
        else:
            line = " ".join(rng.choice(valid + words) for _ in range(rng.randint(20, 80)))
        lines.append(line.replace("\n", " "))
    return Case(game, lang, seed, lines, _argv(game, lang, seed, rng))


def _argv(game: str, lang: str, seed: int, rng: random.Random) -> list[str]:
    if game == "lobby":
        return ["kiosk", "--lang", lang, "--seed", str(seed)]
    argv = ["play", game, "--lang", lang, "--seed", str(seed)]
    if game == "wavelength":
        argv += rng.choice([["--players", "3", "2"], ["--coop", "--players", "4"], ["--target-score", "5"]])
    elif game == "rofl":
        argv += rng.choice([["--players", "red,blue,green"], ["--players", "red,blue,green,yellow", "--stacking"],
                            ["--players", "red,blue,green", "--lenient"]])
    elif game == "wits":
        argv += rng.choice([["--players", "red,blue"], ["--players", "red,blue,green,yellow"], []])
    return argv


@dataclass
class Outcome:
    case: Case
    status: int
    out: str
    err: str
    record: dict | None
    problems: list[str]


def _write_script(case: Case, folder: Path) -> Path:
    path = folder / f"{case.game}-{case.lang}-{case.seed}.txt"
    path.write_text("\n".join(case.lines) + "\n", encoding="utf-8")
    return path


@contextmanager
def own_dirs(environ: dict):
    """Point this process's data and config folders at ``environ``'s while an in-process game
    runs: the engine finds its folders through ``os.environ`` (the autosave, the record, the
    Wits question-bank position), so without this an in-process game would save into, and
    draw its questions from, whatever folder the calling process uses."""
    names = ("VOICEGAME_DATA_DIR", "VOICEGAME_CONFIG_DIR")
    before = {name: os.environ.get(name) for name in names}
    try:
        for name in names:
            if environ.get(name):
                os.environ[name] = environ[name]
        yield
    finally:
        for name, value in before.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


def play(case: Case, folder: Path) -> Outcome:
    """Play ``case`` in-process (virtual clock) and check it."""
    folder.mkdir(parents=True, exist_ok=True)
    script = _write_script(case, folder)
    record = folder / f"{case.game}-{case.lang}-{case.seed}-record.json"
    argv = [*case.argv, "--input", str(script), "--output", "text"]
    if case.game == "lobby":
        argv += ["--config", str(folder / "config.toml")]
    else:
        argv += ["--record", str(record)]
    environ = {**os.environ, "VOICEGAME_DATA_DIR": str(folder / "data"),
               "VOICEGAME_CONFIG_DIR": str(folder / "config")}
    with own_dirs(environ):
        status, out, err = run_cli(argv, environ=environ)
    data = json.loads(record.read_text(encoding="utf-8")) if record.exists() else None
    problems = check(case, status, out, err, data)
    if case.game == "lobby":  # every game the lobby started left a record in the data dir
        for path in sorted((folder / "data" / "records").glob("*.json")):
            played = json.loads(path.read_text(encoding="utf-8"))
            sub = Case(played.get("game", ""), case.lang, case.seed, [])
            problems += [f"{path.name}: {p}" for p in check(sub, 0, "", "", played)]
    return Outcome(case, status, out, err, data, problems)


def check(case: Case, status: int, out: str, err: str, record: dict | None) -> list[str]:
    """Invariants: no crash said, exit 0, and the record's arithmetic (see each game)."""
    problems = [f"the host said {mark!r}" for mark in CRASH_MARKS if mark in out or mark in err]
    if status != 0:
        problems.append(f"exit status {status}")
    if record is None:
        return problems
    awards = record.get("awards", [])
    totals: dict[str, float] = defaultdict(float)
    for a in awards:
        totals[a["to"]] += a["amount"]
    if case.game == "wavelength" and any(a["amount"] < 0 for a in awards):
        problems.append("a Wavelength score went down")
    if case.game == "rofl":
        by_turn = defaultdict(list)
        for a in awards:
            by_turn[(a.get("turn"), a.get("reason"))].append(a["amount"])
        for amount in (a["amount"] for a in awards):
            if amount not in (1, 2, 3):
                problems.append(f"a ROFL! award of {amount}")
        per_turn = defaultdict(list)
        for a in awards:
            per_turn[a.get("turn")].append(a["amount"])
        for turn, amounts in per_turn.items():
            if len(amounts) % 2 or len(set(amounts)) > 1:
                problems.append(f"ROFL! turn {turn} awards {amounts} are not a 3/2/1 pair")
    if case.game == "wits":
        running: dict[str, float] = defaultdict(float)
        for a in sorted(awards, key=lambda a: a.get("turn") or 0):
            running[a["to"]] += a["amount"]
            if running[a["to"]] < 0:
                problems.append(f"{a['to']} has negative chips after turn {a.get('turn')}")
                break
    standings = record.get("standings")
    if record.get("finished") and isinstance(standings, list):
        for line in standings:
            who = line.get("player", line.get("name"))
            have = line.get("chips", line.get("points"))
            if who in totals and have is not None and abs(totals[who] - have) > 1e-9:
                problems.append(f"standings say {who} has {have}, the awards add up to {totals[who]}")
    return problems


def kill_and_resume(case: Case, folder: Path, rng: random.Random | None = None,
                    cut: int | None = None) -> tuple[list[str], bool]:
    """Play ``case`` in a child process by keyboard, SIGKILL it after a random number of
    inputs (``rng``) or after ``cut`` inputs, resume the rest, and compare the record with
    the uninterrupted game's.

    :returns: (problems, whether a resume happened — False when the kill came before the
        first save or after the game had ended)."""
    folder.mkdir(parents=True, exist_ok=True)
    lines = [l for l in case.lines if l != "<silence>" and "quit" not in l]
    whole_dir, killed_dir = folder / "whole", folder / "killed"
    env_whole = {**os.environ, "VOICEGAME_DATA_DIR": str(whole_dir)}
    base = [*case.argv, "--input", "keyboard", "--output", "text", "--timer", "off"]
    with own_dirs(env_whole):  # a fresh data dir, as the killed game's: the same questions drawn
        status, _, _ = run_cli([*base, "--record", str(folder / "whole.json")],
                               stdin_text="\n".join(lines) + "\n", environ=env_whole)
    whole = json.loads((folder / "whole.json").read_text()) if (folder / "whole.json").exists() else None
    cut = rng.randint(1, max(1, len(lines) - 1)) if cut is None else cut
    env_killed = {**os.environ, "VOICEGAME_DATA_DIR": str(killed_dir)}
    proc = subprocess.Popen([sys.executable, "-m", "voicegame", *base, "--record", str(folder / "killed.json")],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                            env=env_killed)
    seen = bytearray()
    try:
        for i, line in enumerate(lines[:cut]):
            if not _wait_for_prompt(proc, i + 1, seen):
                break
            proc.stdin.write((line + "\n").encode())
            proc.stdin.flush()
        _wait_for_prompt(proc, cut + 1, seen)
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=60)
    autosaves = list((killed_dir / "autosave").glob("*.json")) if (killed_dir / "autosave").is_dir() else []
    if not autosaves:
        return [], False  # killed before the first listening moment, or the game had already ended
    rest = folder / "rest.txt"
    rest.write_text("\n".join(lines[cut:]) + "\n", encoding="utf-8")
    with own_dirs(env_killed):
        status, out, err = run_cli(["resume", str(autosaves[0]), "--input", "keyboard", "--output", "text"],
                                   stdin_text="\n".join(lines[cut:]) + "\n", environ=env_killed)
    killed = json.loads((folder / "killed.json").read_text()) if (folder / "killed.json").exists() else None
    problems = [f"resume said {m!r}" for m in CRASH_MARKS if m in out or m in err]
    if whole is None or killed is None:
        return problems + ([] if whole is None and killed is None else ["one of the two games left no record"]), True
    for key in ("awards", "standings", "winners", "finished"):
        if whole.get(key) != killed.get(key):
            problems.append(f"after a kill at input {cut} and resume, {key} differs")
    return problems, True


ROOT = Path(__file__).resolve().parents[1]
#: The host's "I cannot save" sentence in each language (said once per game).
SAVE_FAILED = {lang: Prompts.load(lang).text("common.save_failed") for lang in LANGS}


def full_disk_and_resume(case: Case, folder: Path, full_at: int, free_at: int, cut: int,
                         tmpfs: Path | None = None) -> tuple[list[str], bool]:
    """Play ``case`` by keyboard in a child process whose disk fills up before input
    ``full_at`` and has room again before input ``free_at``; SIGKILL it after ``cut`` inputs
    (``full_at <= free_at <= cut``), resume the rest, and compare the record with the
    uninterrupted game's. The game must go on through the full disk, say once that it
    cannot save, and the resume must lose no accepted input.

    :param tmpfs: a small mounted file system for the killed game's data dir, filled with a
        filler file (a real full disk); ``None``: an injected Storage that fails with
        ``ENOSPC`` (tests/full_disk_child.py), the autosave, journal, record and log file alike.
    :returns: (problems, whether a resume happened).
    """
    folder.mkdir(parents=True, exist_ok=True)
    lines = [l for l in case.lines if l != "<silence>" and "quit" not in l]
    base = [*case.argv, "--input", "keyboard", "--output", "text", "--timer", "off"]
    env_whole = {**os.environ, "VOICEGAME_DATA_DIR": str(folder / "whole")}
    with own_dirs(env_whole):
        run_cli([*base, "--record", str(folder / "whole.json")], stdin_text="\n".join(lines) + "\n",
                environ=env_whole)
    whole = json.loads((folder / "whole.json").read_text()) if (folder / "whole.json").exists() else None
    killed_dir = (tmpfs if tmpfs is not None else folder) / "killed"
    shutil.rmtree(killed_dir, ignore_errors=True)
    record = killed_dir / "killed.json"  # on the full disk too
    env_killed = {**os.environ, "VOICEGAME_DATA_DIR": str(killed_dir), "PYTHONPATH": str(ROOT)}
    flag, filler = folder / "disk-full", (tmpfs / "filler" if tmpfs is not None else None)
    if tmpfs is None:
        command = [sys.executable, "-m", "tests.full_disk_child", str(flag)]
    else:
        command = [sys.executable, "-m", "voicegame"]
    proc = subprocess.Popen([*command, *base, "--record", str(record)], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env_killed, cwd=ROOT)
    seen = bytearray()
    try:
        for i, line in enumerate(lines[:cut]):
            if not _wait_for_prompt(proc, i + 1, seen):
                break
            if i + 1 == full_at:
                _fill(flag, filler)
            if i + 1 == free_at:
                _free(flag, filler)
            proc.stdin.write((line + "\n").encode())
            proc.stdin.flush()
        _wait_for_prompt(proc, cut + 1, seen)
    finally:
        proc.send_signal(signal.SIGKILL)
        _, err_bytes = proc.communicate(timeout=60)
        _free(flag, filler)
    said = seen.decode("utf-8", "replace")
    (folder / "killed-out.txt").write_text(said, encoding="utf-8")  # to read when it fails
    problems = [f"the full-disk game said {m!r}" for m in CRASH_MARKS if m in said + err_bytes.decode("utf-8", "replace")]
    told = said.count(SAVE_FAILED[case.lang])
    # an injected full disk fails every write; on a real one a short append may still fit in
    # the journal's last page, so the game may never have met the full disk
    if told > 1 or (tmpfs is None and free_at > full_at and told != 1):
        problems.append(f"the host said {told} times that it cannot save (once is right)")
    autosaves = list((killed_dir / "autosave").glob("*.json")) if (killed_dir / "autosave").is_dir() else []
    if not autosaves:
        return problems + ([] if whole and whole.get("finished") else ["no autosave to resume"]), False
    shutil.copytree(killed_dir / "autosave", folder / "at-kill", dirs_exist_ok=True)  # to read when it fails
    gaps = load_autosave(autosaves[0]).get("journal_problems")
    if gaps:  # a journal line after the full disk continued a save that misses the inputs between
        problems.append(f"after a full disk (inputs {full_at}-{free_at}) and a kill at input {cut}: {gaps[0]}")
    with own_dirs(env_killed):
        status, out, err = run_cli(["resume", str(autosaves[0]), "--input", "keyboard", "--output", "text"],
                                   stdin_text="\n".join(lines[cut:]) + "\n", environ=env_killed)
    killed = json.loads(record.read_text()) if record.exists() else None
    problems += [f"resume said {m!r}" for m in CRASH_MARKS if m in out or m in err]
    if whole is None or killed is None:
        return problems + ["one of the two games left no record"], True
    for key in ("awards", "standings", "winners", "finished"):
        if whole.get(key) != killed.get(key):
            problems.append(f"after a full disk (inputs {full_at}-{free_at}), a kill at input {cut} and resume, "
                            f"{key} differs")
    return problems, True


def _fill(flag: Path, filler: Path | None) -> None:
    """Make the disk full: the injected storage's flag, or a filler file up to ENOSPC."""
    if filler is None:
        flag.touch()
        return
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
    try:
        for size in (1 << 16, 1 << 12, 1 << 8, 1):  # down to the last byte
            try:
                while True:
                    os.write(fd, b"\0" * size)
            except OSError:
                pass
    finally:
        os.close(fd)


def _free(flag: Path, filler: Path | None) -> None:
    flag.unlink(missing_ok=True)
    if filler is not None:
        filler.unlink(missing_ok=True)


def _wait_for_prompt(proc, count: int, seen: bytearray, timeout_s: float = 60.0) -> bool:
    import select

    while seen.count(b"> ") < count:
        ready, _, _ = select.select([proc.stdout], [], [], timeout_s)
        if not ready:
            return False
        chunk = os.read(proc.stdout.fileno(), 65536)
        if not chunk:
            return False
        seen += chunk
    return True
