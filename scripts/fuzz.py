#!/usr/bin/env python3
"""The full fuzz campaign: thousands of seeded games (every game and the lobby, en/es/nl) and
random kills with resume; prints one line per failure and the totals (docs/reliability.md).

    python scripts/fuzz.py --games 2000 --kills 200 --disks 30 [--start SEED] [--work DIR]

``--disks N``: N games whose disk fills up mid-game and has room again a few inputs later,
then a kill and a resume; every third on a real 1 MB tmpfs when this process may mount one
(root), the others with an injected storage that fails with ENOSPC.

Run from the repository root with the project's venv. Exit status 1 when anything failed.
"""

from __future__ import annotations

import argparse
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.fuzz import GAMES, LANGS, full_disk_and_resume, kill_and_resume, make_case, play  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--kills", type=int, default=200)
    parser.add_argument("--disks", type=int, default=0, help="full-disk + kill + resume runs")
    parser.add_argument("--start", type=int, default=0, help="first seed")
    parser.add_argument("--work", default=None, help="folder for scripts and saves (default: a temp dir)")
    args = parser.parse_args()
    work = Path(args.work or tempfile.mkdtemp(prefix="voicegame-fuzz-"))
    t0 = time.monotonic()
    failed = moments = finished = 0
    for n in range(args.games):
        game, lang, seed = GAMES[n % len(GAMES)], LANGS[(n // len(GAMES)) % len(LANGS)], args.start + n
        folder = work / f"g{n}"
        outcome = play(make_case(game, lang, seed), folder)
        moments += outcome.out.count("PLAYER: ") + outcome.out.count("(silence)")
        finished += bool(outcome.record and outcome.record.get("finished"))
        if outcome.problems:
            failed += 1
            print(f"FAIL game={game} lang={lang} seed={seed}: {outcome.problems[:3]}", flush=True)
        else:
            shutil.rmtree(folder, ignore_errors=True)
    games_s = time.monotonic() - t0
    kill_failed = resumed = 0
    rng = random.Random(args.start)
    for n in range(args.kills):
        game, seed = GAMES[n % 3], args.start + 10_000 + n  # the three games (the lobby has no resume)
        folder = work / f"k{n}"
        problems, did = kill_and_resume(make_case(game, LANGS[n % 3], seed, length=100), folder, rng)
        resumed += did
        if problems:
            kill_failed += 1
            print(f"FAIL kill game={game} seed={seed}: {problems[:3]}", flush=True)
        else:
            shutil.rmtree(folder, ignore_errors=True)
    kills_s = time.monotonic() - t0 - games_s
    disk_failed = disk_resumed = on_tmpfs = 0
    disk = work / "tmpfs"
    disk.mkdir(parents=True, exist_ok=True)
    mounted = args.disks > 0 and subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", str(disk)],
                                                capture_output=True).returncode == 0
    try:
        for n in range(args.disks):
            game, lang, seed = GAMES[n % 3], LANGS[(n // 3) % 3], args.start + 20_000 + n
            case = make_case(game, lang, seed, length=100)
            count = len([l for l in case.lines if l != "<silence>" and "quit" not in l])
            full_at = rng.randint(2, max(2, count // 2))
            free_at = rng.randint(full_at + 1, full_at + 15)
            cut = rng.randint(free_at, free_at + 3)
            tmpfs = disk if mounted and n % 3 == 2 else None
            on_tmpfs += tmpfs is not None
            folder = work / f"d{n}"
            problems, did = full_disk_and_resume(case, folder, full_at, free_at, cut, tmpfs=tmpfs)
            disk_resumed += did
            if problems:
                disk_failed += 1
                print(f"FAIL disk game={game} lang={lang} seed={seed} full={full_at}-{free_at} cut={cut} "
                      f"{'tmpfs' if tmpfs else 'storage'}: {problems[:3]}", flush=True)
            else:
                shutil.rmtree(folder, ignore_errors=True)
    finally:
        if mounted:
            subprocess.run(["umount", str(disk)], capture_output=True)
    print(f"{args.games} fuzz games ({finished} finished, ~{moments} listening moments) in {games_s:.0f} s: "
          f"{failed} failed; {args.kills} kills ({resumed} resumed) in {kills_s:.0f} s: {kill_failed} failed; "
          f"{args.disks} full disks ({on_tmpfs} on a tmpfs, {disk_resumed} resumed): {disk_failed} failed"
          + ("" if mounted or not args.disks else " (no tmpfs could be mounted: injected storage only)"))
    return 1 if failed or kill_failed or disk_failed else 0


if __name__ == "__main__":
    sys.exit(main())
