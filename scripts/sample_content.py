#!/usr/bin/env python3
"""Draw a seeded sample of the built-in content for a fresh reader to review.

    python scripts/sample_content.py wits --lang es --count 50 --seed 2026
    python scripts/sample_content.py wavelength --lang nl --count 70 --seed 1
    python scripts/sample_content.py rofl --lang es --count 60 --seed 1 --region es-419

Wits & Wagers: one Markdown table row per question — id, the question, the answer as the
host says it (unit included, digits turned into words as the voice reads them), the year,
the source (kept in the bank, said only when asked), and an empty verdict column for the
reviewer; the checklist is in ``docs/content.md``. Wavelength: one row per card (both
sides). ROFL!: one row per card (both messages, categories and region).

The same seed always draws the same sample (``random.Random(seed).sample`` over the file
order), so a review can be repeated and its record points at exactly what was read.
Exit status 0, or 2 with one sentence on stderr for a bad option (too many asked, unknown
language or region).
"""

from __future__ import annotations

import argparse
import io
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from voicegame.adapters.headless import ScriptListener, TextVoice, VirtualClock  # noqa: E402
from voicegame.engine.table import Settings, Table  # noqa: E402
from voicegame.games.decks import DeckError  # noqa: E402
from voicegame.games.rofl.deck import load_deck as load_rofl  # noqa: E402
from voicegame.games.wavelength.deck import load_deck as load_wavelength  # noqa: E402
from voicegame.games.wits.deck import load_bank  # noqa: E402
from voicegame.games.wits.host import Host, validate  # noqa: E402
from voicegame.language.speakable import speakable  # noqa: E402

KINDS = ("wits", "wavelength", "rofl")


def _wits_host(lang: str, questions: list) -> Host:
    """A silent Wits host of ``lang``: only its number and unit wording is used.

    The questions are handed over as the game's ``question_set``, so nothing is drawn from the
    bank and no game state (the bank position file) is read or written: two readers may sample
    at once."""
    settings = Settings(game="wits", lang=lang, seed=1, timer_s=None,
                        options={"players": ["red", "blue"], "count": len(questions),
                                 "question_set": [q.to_dict() for q in questions]})
    validate(settings)
    return Host(Table(ScriptListener([]), TextVoice(io.StringIO()), VirtualClock(), settings))


def _cell(text: str) -> str:
    return str(text).replace("|", "/").replace("\n", " ")


def sample(kind: str, lang: str, count: int, seed: int, region: str | None = None) -> list:
    """``count`` items of the built-in deck or bank of ``lang``, drawn with ``random.Random(seed)``.

    :raises ValueError: ``count`` is below 1 or above the deck's size.
    :raises DeckError: the deck or bank is malformed.
    """
    if kind == "wits":
        items = load_bank(lang=lang)
    elif kind == "wavelength":
        items = load_wavelength(lang=lang)
    else:
        items = load_rofl(lang=lang, region=region, every_region=region is None)
    if not 1 <= count <= len(items):
        raise ValueError(f"--count must be 1 to {len(items)} for this deck, not {count}.")
    return random.Random(seed).sample(items, count)


def render(kind: str, lang: str, items: list) -> str:
    """The sample as a Markdown table with an empty verdict column."""
    if kind == "wits":
        host = _wits_host(lang, items)
        lines = ["| id | question | answer as said | year | source | verdict |", "|---|---|---|---|---|---|"]
        for q in items:
            said = speakable(host.value_text(q, q.answer), lang)
            lines.append(f"| {q.id} | {_cell(q.question)} | {_cell(said)} | {q.year or '—'} | "
                         f"{_cell(q.source)} | |")
    elif kind == "wavelength":
        lines = ["| line | kind | front | back | verdict |", "|---|---|---|---|---|"]
        for c in items:
            (l1, r1), (l2, r2) = c.sides
            lines.append(f"| {c.line} | {c.kind} | {_cell(l1)} – {_cell(r1)} | {_cell(l2)} – {_cell(r2)} | |")
    else:
        lines = ["| line | region | front | back | verdict |", "|---|---|---|---|---|"]
        for c in items:
            a, b = c.sides
            lines.append(f"| {c.line} | {c.region or 'all'} | {a.category}: {_cell(a.text)} | "
                         f"{b.category}: {_cell(b.text)} | |")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None, out=None, err=None) -> int:
    out = out or sys.stdout
    err = err or sys.stderr
    parser = argparse.ArgumentParser(description="Draw a seeded sample of voicegame content for review.")
    parser.add_argument("kind", choices=KINDS)
    parser.add_argument("--lang", default="en", choices=("en", "es", "nl"))
    parser.add_argument("--count", type=int, default=50)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--region", default=None, help="ROFL!: only the cards dealt to this region's tables")
    args = parser.parse_args(argv)
    try:
        items = sample(args.kind, args.lang, args.count, args.seed, args.region)
    except (ValueError, DeckError) as exc:
        print(exc, file=err)
        return 2
    out.write(render(args.kind, args.lang, items))
    return 0


if __name__ == "__main__":
    sys.exit(main())
