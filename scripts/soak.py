#!/usr/bin/env python3
"""Soak: a kiosk plays GAMES short Wits & Wagers games back to back on a virtual clock (one
process, scripted input), and reports its resident memory, open files and data-dir size at the
start, the middle and the end (docs/reliability.md). Flat figures mean nothing piles up.

    python scripts/soak.py [--games 1000]
"""

from __future__ import annotations

import argparse
import gc
import io
import os
import sys
import tempfile
import threading
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from voicegame.cli import main as cli_main  # noqa: E402
from voicegame.engine import table  # noqa: E402
from voicegame.env import Env  # noqa: E402

finished = [0]
_run = table.Session.run


def _counted_run(self):  # count the games the kiosk plays to the end
    outcome = _run(self)
    finished[0] += outcome == "finished"
    return outcome


table.Session.run = _counted_run

SETUP = ["wits and wagers", "two", "<silence>", "<silence>", "<silence>", "two questions", "start"]
#: One game: two questions, each guessed and bet on, and "same age" for a tie (elsewhere the host
#: asks again, as it does for anything it cannot place).
GAME = ["700", "750", "yes", "both on 700", "both on too high", "no",
        "46", "78", "yes", "both on 78", "both on too high", "no", "same age"]


def _rss_kb() -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def _size(folder: Path) -> int:
    """Bytes of the files under ``folder`` (a temporary file renamed meanwhile is skipped)."""
    total = 0
    for path in folder.rglob("*") if folder.exists() else ():
        try:
            total += path.stat().st_size if path.is_file() else 0
        except FileNotFoundError:
            pass
    return total


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--keep", type=int, default=50, help="records the kiosk keeps (VOICEGAME_KEEP_RECORDS)")
    parser.add_argument("--every", type=int, default=0, help="also sample every N games (an RSS curve)")
    parser.add_argument("--frames", type=int, default=3, help="frames kept per allocation with --trace")
    parser.add_argument("--trace", action="store_true",
                        help="tracemalloc: print what grew between a third of the way and the end (slow)")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="voicegame-soak-"))
    script = work / "soak.txt"
    lines = SETUP + GAME
    for _ in range(args.games - 1):
        lines += ["play again", *GAME]
    script.write_text("\n".join(lines) + "\n", encoding="utf-8")
    os.environ["VOICEGAME_DATA_DIR"] = str(work / "data")
    os.environ["VOICEGAME_CONFIG_DIR"] = str(work / "config")
    os.environ["VOICEGAME_KEEP_RECORDS"] = str(args.keep)
    samples: list[tuple[int, int, int, int]] = []
    done = threading.Event()

    snapshots: dict[int, object] = {}
    if args.trace:
        tracemalloc.start(args.frames)

    def sample() -> None:
        marks = {1, max(1, args.games // 3), max(1, args.games // 2), args.games}
        if args.every:
            marks |= set(range(args.every, args.games + 1, args.every))
        while not done.is_set():
            n = finished[0]
            if n in marks:
                marks.discard(n)
                samples.append((n, _rss_kb(), len(os.listdir("/proc/self/fd")), _size(work / "data")))
                if args.trace and n == max(1, args.games // 3):
                    gc.collect()
                    snapshots[n] = tracemalloc.take_snapshot()
            time.sleep(0.05)

    watcher = threading.Thread(target=sample, daemon=True)
    watcher.start()
    # what the host says goes to a file, as a kiosk's stdout goes to the system journal: kept
    # in memory it grew ~10 kB a game, the growth the first soak measured (tracemalloc)
    out = (work / "host.txt").open("w", encoding="utf-8")
    t0 = time.monotonic()
    status = cli_main(["kiosk", "--input", str(script), "--output", "text", "--seed", "1"],
                      Env(stdin=io.StringIO(), stdout=out, stderr=out, environ=os.environ))
    done.set()
    watcher.join()
    games = finished[0]
    if args.trace:
        gc.collect()
        snapshots[games] = tracemalloc.take_snapshot()
    samples.append((games, _rss_kb(), len(os.listdir("/proc/self/fd")), _size(work / "data")))
    out.close()
    print(f"work folder: {work}")
    print(f"{games} games in {time.monotonic() - t0:.0f} s, exit status {status}")
    print("games  RSS (MB)  open files  data dir (kB)")
    for n, rss, fds, size in samples:
        print(f"{n:5d}  {rss / 1024:8.1f}  {fds:10d}  {size / 1024:13.1f}")
    if len(snapshots) == 2:
        first, last = (snapshots[k] for k in sorted(snapshots))
        print(f"grown most between game {min(snapshots)} and game {max(snapshots)} (tracemalloc):")
        for stat in last.compare_to(first, "traceback")[:12]:
            print(f"  {stat.size_diff / 1024:+9.1f} kB {stat.count_diff:+7d} blocks")
            for line in stat.traceback.format()[-8:]:
                print("      " + line)
    leftovers = [p.name for p in (work / "data" / "autosave").glob("*")] if (work / "data" / "autosave").is_dir() else []
    print(f"autosave folder at the end: {len(leftovers)} files")
    return 0 if status == 0 and games == args.games else 1


if __name__ == "__main__":
    sys.exit(main())
