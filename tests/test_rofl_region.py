"""ROFL! ``--region``: a table may add the cards known in its region; the default deals only
the cards every table of the language knows."""

from __future__ import annotations

import pytest

from voicegame.games.rofl.deck import load_deck
from voicegame.engine.table import Settings
from voicegame.games.rofl.host import validate


def _settings(lang: str, region: str | None) -> Settings:
    return Settings(game="rofl", lang=lang, options={"players": ["red", "blue", "green"], "region": region})


@pytest.mark.parametrize("lang, region", [("es", "es-ES"), ("es", "es-419"), ("nl", "nl-NL"), ("nl", "nl-BE")])
def test_a_region_is_accepted_and_adds_its_cards(lang, region):
    validate(_settings(lang, region))
    default, regional = load_deck(lang=lang), load_deck(lang=lang, region=region)
    assert len(regional) > len(default)
    assert {c.region for c in regional} == {"", region}


@pytest.mark.parametrize("lang, region", [("es", "nl-BE"), ("en", "es-ES"), ("nl", "xx")])
def test_another_languages_region_is_refused_with_the_choices(lang, region):
    with pytest.raises(ValueError, match="--region"):
        validate(_settings(lang, region))


def test_the_spanish_default_leaves_out_titles_used_in_only_one_region():
    default = {s.text for c in load_deck(lang="es") for s in c.sides}
    spain = {s.text for c in load_deck(lang="es", region="es-ES") for s in c.sides}
    americas = {s.text for c in load_deck(lang="es", region="es-419") for s in c.sides}
    assert "Jungla de cristal" in spain - default and "Duro de matar" in americas - default
    assert "Corrupción en Miami" not in default | americas
    dutch = {s.text for c in load_deck(lang="nl", region="nl-NL") for s in c.sides}
    flemish = {s.text for c in load_deck(lang="nl", region="nl-BE") for s in c.sides}
    assert "De Slimste Mens" in dutch - flemish and "De Slimste Mens ter Wereld" in flemish - dutch
