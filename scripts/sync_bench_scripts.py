#!/usr/bin/env python3
"""Refresh the bench's shipped copies (voicegame/bench_scripts/*.txt) from the golden scripts in
tests/scripts/: each copy keeps its own ``# argv:`` line and note, the rest is the golden's.
Run after changing a golden script; tests/test_bench.py fails while a copy is stale."""

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def header(lines: list[str]) -> list[str]:
    return [l for l in lines if l.lower().startswith(("# argv:", "# voicegame bench:"))]


for copy in sorted((ROOT / "voicegame" / "bench_scripts").glob("*.txt")):
    golden = ROOT / "tests" / "scripts" / copy.name
    own = header(copy.read_text(encoding="utf-8").splitlines(True))
    body = [l for l in golden.read_text(encoding="utf-8").splitlines(True) if not l.lower().startswith("# argv:")]
    copy.write_text("".join(own + body), encoding="utf-8")
    print(f"refreshed {copy.relative_to(ROOT)}")
