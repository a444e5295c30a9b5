"""scripts/sample_content.py: a seeded sample of the content for review, the same every time."""

from __future__ import annotations

import importlib.util
import io
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "sample_content.py"
spec = importlib.util.spec_from_file_location("sample_content", SCRIPT)
sampler = importlib.util.module_from_spec(spec)
spec.loader.exec_module(sampler)


def run(*argv) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    status = sampler.main(list(argv), out, err)
    return status, out.getvalue(), err.getvalue()


@pytest.mark.parametrize("lang", ["en", "es", "nl"])
def test_fifty_questions_drawn_the_same_way_every_time(lang):
    status, first, err = run("wits", "--lang", lang, "--count", "50", "--seed", "2026")
    assert status == 0 and err == ""
    rows = [line for line in first.splitlines()[2:] if line.startswith("|")]
    assert len(rows) == 50
    assert len({row.split("|")[1] for row in rows}) == 50  # 50 distinct ids
    assert all(row.split("|")[1].strip().startswith(f"{lang}-") for row in rows)
    assert run("wits", "--lang", lang, "--count", "50", "--seed", "2026")[1] == first
    assert run("wits", "--lang", lang, "--count", "50", "--seed", "7")[1] != first
    # the answer as the voice says it: words, no digits
    assert not any(ch.isdigit() for row in rows for ch in row.split("|")[3])


def test_decks_and_regions_can_be_sampled():
    status, out, _ = run("wavelength", "--lang", "nl", "--count", "5", "--seed", "1")
    assert status == 0 and len(out.splitlines()) == 7
    status, out, _ = run("rofl", "--lang", "es", "--count", "10", "--seed", "1", "--region", "es-419")
    assert status == 0 and "es-ES" not in out


def test_a_sample_larger_than_the_deck_is_refused_in_one_sentence():
    status, out, err = run("wits", "--lang", "en", "--count", "100000")
    assert status == 2 and out == "" and err.count(".") == 1 and "--count" in err


def test_sampling_writes_no_game_state(tmp_path, monkeypatch):
    """Two readers sampling at once must not race on the bank position file: the sampler
    reads the bank and writes nothing, even where the data directory cannot be written."""
    blocked = tmp_path / "not-a-directory"
    blocked.write_text("", encoding="utf-8")  # a file: any write below it fails
    monkeypatch.setenv("VOICEGAME_DATA_DIR", str(blocked))
    for lang in ("en", "es", "nl"):
        status, out, err = run("wits", "--lang", lang, "--count", "50", "--seed", "11")
        assert status == 0 and err == "" and len(out.splitlines()) == 52
    assert blocked.read_text(encoding="utf-8") == ""
    assert sorted(p.name for p in tmp_path.iterdir()) == ["not-a-directory"]
