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
