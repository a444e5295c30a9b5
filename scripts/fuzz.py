#!/usr/bin/env python3
"""The full fuzz campaign: thousands of seeded games (every game and the lobby, en/es/nl) and
random kills with resume; prints one line per failure and the totals (docs/reliability.md).

    python scripts/fuzz.py --games 2000 --kills 200 [--start SEED] [--work DIR]

Run from the repository root with the project's venv. Exit status 1 when anything failed.
"""

from __future__ import annotations

import argparse
import random
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.fuzz import GAMES, LANGS, kill_and_resume, make_case, play  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--kills", type=int, default=200)
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
    print(f"{args.games} fuzz games ({finished} finished, ~{moments} listening moments) in {games_s:.0f} s: "
          f"{failed} failed; {args.kills} kills ({resumed} resumed) in {time.monotonic() - t0 - games_s:.0f} s: "
          f"{kill_failed} failed")
    return 1 if failed or kill_failed else 0


if __name__ == "__main__":
    sys.exit(main())
