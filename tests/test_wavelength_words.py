"""How much the Wavelength host talks, counted on the golden playthroughs (en, es, nl):
at most 40 host words before the first input, a per-turn median of at most 90 host words,
and no spoken sentence over 25 words.

Counted: every HOST line and every private line (said aloud, twice, in ears mode), except the card's own texts (its concepts, also inside a position
such as "toward Street food") and the clue read back (the players' words). In accessible
mode the position said after each move stands in for the tone, so it is not counted. A turn
runs from its opening sentence ("Turn 3, team Red.") to the next one (the last to the winner);
a redo stays in its turn.
"""

from __future__ import annotations

import re
import statistics
import tomllib
from pathlib import Path

import pytest

from tests.playthrough import GOLDEN
from voicegame.language.prompts import PROMPTS_DIR

#: golden → (language, accessible mode)
GOLDENS = {"wavelength_team": ("en", False), "wavelength_coop": ("en", False),
           "wavelength_es": ("es", False), "wavelength_nl": ("nl", True)}
#: placeholders whose values are the card's or the players' words
CONTENT = {"left", "right", "concept", "clue"}
TURN_KEYS = ("turn_team", "turn_team_first", "turn_catch_up", "turn_sudden_death", "turn_coop", "turn_coop_first", "turn_coop_last")
BEFORE_FIRST_INPUT, TURN_MEDIAN, SENTENCE = 40, 90, 25


def prompts(lang: str) -> dict[str, str]:
    table = tomllib.loads((PROMPTS_DIR / lang / "wavelength.toml").read_text("utf-8"))
    return {k: v for k, v in table.items() if isinstance(v, str)}


def pattern(template: str) -> tuple[re.Pattern, list[str]]:
    names = re.findall(r"\{([a-z_]+)\}", template)
    parts = re.split(r"\{[a-z_]+\}", template)
    regex = "".join(re.escape(part) + (f"(?P<g{i}>.+?)" if i < len(names) else "") for i, part in enumerate(parts))
    return re.compile(regex), names


class Counter:
    """Host words of one language's sentences, without the card's and the players' words."""

    def __init__(self, lang: str):
        self.prompts = prompts(lang)
        self.templates = [pattern(t) for t in self.prompts.values() if "{" in t]
        self.turn_starts = [pattern(self.prompts[k])[0] for k in TURN_KEYS]
        self.where = [pattern(self.prompts[k])[0] for k in ("dial_where", "dial_where_same")]
        self.game_over = [pattern(self.prompts[k])[0] for k in ("winner", "coop_final")]

    def words(self, text: str) -> int:
        """The host's words of ``text``, by the template it fits with the most words of its own
        (a short template such as "Clue: {clue}." also fits a longer sentence)."""
        best = None
        for regex, names in self.templates:
            m = regex.fullmatch(text)
            if m:
                own = len(text.split()) - sum(len(m.group(f"g{i}").split()) for i in range(len(names)))
                if best is None or own > best[0]:
                    best = (own, m, names)
        if best is None:
            return len(text.split())
        n, m, names = best
        for i, name in enumerate(names):
            if name not in CONTENT:
                n += self.words(m.group(f"g{i}"))
        return max(n, 0)

    def is_game_over(self, text: str) -> bool:
        return any(r.fullmatch(text) for r in self.game_over)

    def is_turn_start(self, text: str) -> bool:
        return any(r.fullmatch(text) for r in self.turn_starts)


def measure(name: str) -> dict:
    lang, accessible = GOLDENS[name]
    counter = Counter(lang)
    lines = (GOLDEN / f"{name}.txt").read_text("utf-8").splitlines()
    before, started = 0, False
    turns: list[int] = []
    over = False
    longest = (0, "")
    previous = ""
    for line in lines:
        if line.startswith("PLAYER:"):
            started = True
        if line.startswith(("HOST: ", "PRIVATE psychic: ")):  # private lines are spoken too (ears mode)
            text = line.split(": ", 1)[1]
            for sentence in re.split(r"(?<=[.!?])\s+", text):
                if len(sentence.split()) > longest[0]:
                    longest = (len(sentence.split()), sentence)
            n = counter.words(text)
            if accessible and previous.startswith("TONE ") and any(r.fullmatch(text) for r in counter.where):
                n = 0  # accessible mode: the words stand in for the tone
            if not started:
                before += n
            over = over or counter.is_game_over(text)
            if counter.is_turn_start(text):
                turns.append(0)
            if turns and not over:
                turns[-1] += n
        previous = line
    return {"before": before, "turns": turns, "median": statistics.median(turns), "longest": longest}


@pytest.mark.parametrize("name", sorted(GOLDENS))
def test_the_game_starts_in_at_most_40_host_words(name):
    assert measure(name)["before"] <= BEFORE_FIRST_INPUT


@pytest.mark.parametrize("name", sorted(GOLDENS))
def test_the_median_turn_has_at_most_90_host_words(name):
    figures = measure(name)
    assert len(figures["turns"]) >= 4
    assert figures["median"] <= TURN_MEDIAN, figures["turns"]


@pytest.mark.parametrize("name", sorted(GOLDENS))
def test_no_spoken_sentence_is_over_25_words(name):
    words, sentence = measure(name)["longest"]
    assert words <= SENTENCE, sentence


@pytest.mark.parametrize("lang", ["en", "es", "nl"])
def test_every_prompt_sentence_is_at_most_25_words(lang):
    """Every Wavelength sentence of the prompts file, placeholders counted as one word each."""
    long = [(key, s) for key, text in prompts(lang).items()
            for s in re.split(r"(?<=[.!?])\s+", text) if len(s.split()) > SENTENCE]
    assert long == []


def test_the_counter_leaves_out_the_card_and_the_clue():
    counter = Counter("en")
    assert counter.words("Summer camp to Boot camp.") == 1
    assert counter.words("Clue: a quiet pub on a weekday.") == 1
    assert counter.words("110 degrees, a little toward Party central.") == 5
