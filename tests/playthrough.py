"""Helpers for golden playthroughs (OpenSpiel style): run the CLI on a script with
``--output text`` and diff the printed game against ``tests/playthroughs/<name>.txt``.

Regenerate a golden file deliberately with ``VOICEGAME_REGEN=1 pytest tests/...``.
"""

from __future__ import annotations

import difflib
import io
import os
from pathlib import Path

from voicegame.cli import Env, main

HERE = Path(__file__).parent
GOLDEN = HERE / "playthroughs"
SCRIPTS = HERE / "scripts"
FIXTURES = HERE / "fixtures"


def frozen_deck(game: str, args: list[str]) -> list[str]:
    """``--deck`` of the frozen deck of ``game`` in the language ``args`` name (tests/fixtures),
    unless ``args`` names a deck: scripted games test the rules and the host, not the deck's content."""
    if "--deck" in args:
        return []
    lang = args[args.index("--lang") + 1] if "--lang" in args else "en"
    return ["--deck", str(FIXTURES / f"{game}_deck_{lang}.txt")]


def run_cli(argv: list[str], stdin_text: str = "", environ: dict | None = None) -> tuple[int, str, str]:
    """Run ``voicegame argv`` in-process; returns (status, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    env = Env(stdin=io.StringIO(stdin_text), stdout=out, stderr=err,
              environ=environ if environ is not None else dict(os.environ))
    status = main(argv, env)
    return status, out.getvalue(), err.getvalue()


def check_golden(name: str, output: str) -> None:
    """Assert ``output`` equals ``tests/playthroughs/<name>.txt`` (or write it when regenerating)."""
    path = GOLDEN / f"{name}.txt"
    if os.environ.get("VOICEGAME_REGEN") == "1" or not path.exists():
        path.write_text(output, encoding="utf-8")
        if os.environ.get("VOICEGAME_REGEN") != "1":
            raise AssertionError(f"golden playthrough {path} did not exist; written now — review and commit it")
        return
    expected = path.read_text(encoding="utf-8")
    if output != expected:
        diff = "".join(difflib.unified_diff(expected.splitlines(True), output.splitlines(True),
                                            "golden", "now", n=2))
        raise AssertionError(f"playthrough {name} differs from its golden file:\n{diff[:6000]}")
