"""Every prompt key exists in every language, with the same placeholders (issue 8)."""

import pytest

from voicegame.language.prompts import PROMPTS_DIR, Prompts

LANGS = ["en", "es", "nl"]


def _files(lang):
    return {p.name for p in (PROMPTS_DIR / lang).glob("*.toml") if not p.stem.startswith("words")}


@pytest.mark.parametrize("lang", LANGS[1:])
def test_same_prompt_files(lang):
    assert _files(lang) == _files("en")


@pytest.mark.parametrize("lang", LANGS[1:])
def test_same_keys_and_placeholders(lang):
    en, other = Prompts.load("en"), Prompts.load(lang)
    assert sorted(set(en.templates) - set(other.templates)) == [], f"keys missing in {lang}"
    assert sorted(set(other.templates) - set(en.templates)) == [], f"keys only in {lang}"
    for key in en.templates:
        assert en.placeholders(key) == other.placeholders(key), f"{lang}: placeholders of {key} differ"


@pytest.mark.parametrize("lang", LANGS)
def test_words_files_exist(lang):
    assert (PROMPTS_DIR / lang / "words.toml").exists()


def _raised_file_errors() -> set[str]:
    """The prompt keys of every DeckError the loaders raise: ``DeckError("game", "kind", …)`` in the
    deck modules, and what every file can get wrong (read by the engine's data_lines and by unreadable())."""
    import re
    from pathlib import Path

    from voicegame.games.decks import COMMON_KINDS, DeckError

    games = Path(__file__).resolve().parents[1] / "voicegame" / "games"
    keys = {f"common.file_errors.{kind}" for kind in COMMON_KINDS}
    for source in games.glob("*/deck.py"):
        for game, kind in re.findall(r'DeckError\(\s*"(\w+)",\s*"(\w+)"', source.read_text(encoding="utf-8")):
            keys.add(DeckError(game, kind, "x").key)
    return keys


@pytest.mark.parametrize("lang", LANGS)
def test_every_broken_file_has_its_sentence(lang):
    """A broken deck or bank is printed and said in the table's language: every kind a loader
    raises has its sentence (and its file's name) in every language, and no sentence is unused."""
    prompts = Prompts.load(lang)
    raised = _raised_file_errors()
    assert len(raised) >= 30
    assert sorted(k for k in raised if not prompts.has(k)) == []
    names = {"common.file_errors.at_line", "wits.file_errors.at_question", "wits.file_errors.at_question_id"}
    names |= {f"{game}.file_errors.file" for game in ("wits", "wavelength", "rofl")}
    assert sorted(k for k in prompts.templates if ".file_errors." in k and k not in raised | names) == []
