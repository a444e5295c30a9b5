"""ROFL!'s word budgets, counted on the golden playthroughs (every language): at most 40 host
words before the first input, a median of at most 80 host words per turn (the message texts
themselves not counted), no spoken sentence over 25 words."""

from __future__ import annotations

import re
import statistics

import pytest

from tests.test_rofl_views import GOLDENS, play_observed
from voicegame.engine.observer import Caption, View

BEFORE_FIRST_INPUT = 40
TURN_MEDIAN = 80
SENTENCE = 25

_WORD = re.compile(r"\w+(?:['’]\w+)*")


def words(text: str) -> int:
    return len(_WORD.findall(text))


def without_messages(text: str, messages: list[str]) -> str:
    for m in messages:
        text = text.replace(m, " ")
    return text


def measure(name: str) -> dict:
    """Host words of a golden playthrough: before the first input, per turn, the end, and
    the longest sentence (messages not counted)."""
    public, _, record = play_observed(name)
    messages = sorted({t["message"] for t in record["turns"] if t["message"]}, key=len, reverse=True)
    turn = 0
    per_turn: dict[int, int] = {}
    intro = end = 0
    longest = (0, "")
    ended = False
    for event in public:
        if isinstance(event, View):
            if event.phase == "tiebreak":  # the tie announcement belongs to the first tiebreaker turn
                turn += 1
            elif event.data.get("turn") and event.data["turn"] > turn:
                turn = event.data["turn"]
            if event.phase == "final":
                ended = True
            continue
        if not isinstance(event, Caption):
            continue
        text = without_messages(event.text, messages)
        n = words(text)
        for sentence in re.split(r"(?<=[.!?])\s+", text):
            if words(sentence) > longest[0]:
                longest = (words(sentence), sentence)
        if turn == 0:
            intro += n
        elif ended:
            end += n
        else:
            per_turn[turn] = per_turn.get(turn, 0) + n
    return {"intro": intro, "turns": per_turn, "end": end, "longest": longest,
            "median": statistics.median(per_turn.values()) if per_turn else 0,
            "max": max(per_turn.values()) if per_turn else 0}


def before_first_input(name: str) -> tuple[int, str]:
    """Host words printed before the first PLAYER line of the golden playthrough."""
    from tests.playthrough import GOLDEN

    text = (GOLDEN / f"{name}.txt").read_text("utf-8")
    head = text.split("\nPLAYER:")[0]
    public, _, record = play_observed(name)
    messages = [t["message"] for t in record["turns"] if t["message"]]
    spoken = [line.removeprefix("HOST: ") for line in head.splitlines() if line.startswith("HOST: ")]
    return words(without_messages(" ".join(spoken), messages)), " ".join(spoken)


@pytest.mark.parametrize("name", sorted(GOLDENS))
def test_the_game_starts_in_forty_words(name):
    count, said = before_first_input(name)
    assert count <= BEFORE_FIRST_INPUT, (count, said)


@pytest.mark.parametrize("name", sorted(GOLDENS))
def test_turns_are_short_and_sentences_fit_one_breath(name):
    m = measure(name)
    assert m["median"] <= TURN_MEDIAN, m["turns"]
    assert m["longest"][0] <= SENTENCE, m["longest"]


if __name__ == "__main__":  # the figures, for docs/performance.md
    for game in sorted(GOLDENS):
        m = measure(game)
        print(f"{game}: before first input {before_first_input(game)[0]}, per turn median {m['median']} "
              f"max {m['max']}, end {m['end']}, longest sentence {m['longest'][0]}")


@pytest.mark.parametrize("lang", ["en", "es", "nl"])
def test_every_rofl_sentence_fits_one_breath(lang):
    """Every sentence of prompts/<lang>/rofl.toml (help and rules chunks included) is at most
    25 words, with its placeholders counted as one word each."""
    from voicegame.language.prompts import Prompts

    prompts = Prompts.load(lang)
    long = []
    for key, template in prompts.templates.items():
        if not key.startswith("rofl.") or key.startswith("rofl.errors."):
            continue
        for sentence in re.split(r"(?<=[.!?])\s+", template if isinstance(template, str) else " ".join(template)):
            if words(re.sub(r"\{\w+\}", "X", sentence)) > SENTENCE:
                long.append((key, sentence))
    assert long == []
