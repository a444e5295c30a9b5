"""What the Wavelength host says to table talk, to a stop and to a resume: nothing to the
first stray words in the dial, at most a short nudge later; "stop" then "lock it in" never
ends the game; a resume says where the game is before what is pending and never narrates
a past scoring as new; the redo sentence of a catch-up turn agrees with itself."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.playthrough import SCRIPTS, run_cli
from voicegame.language.prompts import Prompts

TALK = {"en": ["what do you think", "yeah", "no the other way", "hmm maybe", "I don't know", "more like that"],
        "es": ["qué pensáis", "sí", "no, al otro lado", "mmm quizás", "no sé", "más o menos así"],
        "nl": ["wat denken jullie", "ja", "nee de andere kant op", "hmm misschien", "weet ik niet", "zoiets"]}
OPENING = {"en": "a clue", "es": "una pista", "nl": "een hint"}
WHERE = {"en": "where is it", "es": "dónde está", "nl": "waar staat hij"}
#: Without --players the table first says its Psychic is chosen.
READY = {"en": "ready", "es": "listos", "nl": "klaar"}


def write_script(tmp_path: Path, name: str, lines: list[str]) -> Path:
    path = tmp_path / name
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def replies(out: str) -> list[list[str]]:
    """For each PLAYER line, the HOST lines that follow it until the next PLAYER line."""
    chunks: list[list[str]] = []
    for line in out.splitlines():
        if line.startswith("PLAYER:"):
            chunks.append([])
        elif chunks and line.startswith("HOST: "):
            chunks[-1].append(line[6:])
    return chunks


@pytest.mark.parametrize("lang", ["en", "es", "nl"])
def test_table_talk_in_the_dial_gets_nothing_first_then_at_most_a_short_nudge(tmp_path, lang):
    script = write_script(tmp_path, "talk.txt", [READY[lang], OPENING[lang], *TALK[lang], WHERE[lang]])
    status, out, _ = run_cli(["play", "wavelength", "--lang", lang, "--seed", "1", "--input", str(script),
                              "--output", "text", "--record", str(tmp_path / "r.json")])
    assert status == 0
    talk = replies(out)[2:2 + len(TALK[lang])]
    assert len(talk) == len(TALK[lang])
    assert talk[0] == []  # nothing the first time
    assert all(sum(len(s.split()) for s in reply) <= 12 for reply in talk)
    assert any(talk) and all(len(reply) <= 1 for reply in talk)
    record = json.loads((tmp_path / "r.json").read_text())
    assert [i["text"] for i in record["inputs"]] == [READY[lang], OPENING[lang]]  # table talk is no input


#: Table talk at the clue moment, then the real clue (W7: only hesitation or yes/no words is no clue).
CLUE_TALK = {"en": ["hmm", "okay"], "es": ["mmm", "vale"], "nl": ["hmm", "oké"]}
REAL_CLUE = {"en": "a quiet library", "es": "una biblioteca tranquila", "nl": "een stille bibliotheek"}
FIRST_TEAM = {"en": "Red", "es": "Rojo", "nl": "Rood"}
LEFT = {"en": "left", "es": "izquierda", "nl": "links"}


@pytest.mark.parametrize("lang", ["en", "es", "nl"])
def test_hesitation_at_the_clue_moment_is_table_talk_and_the_real_clue_is_taken(tmp_path, lang):
    text = Prompts.load(lang).text
    script = write_script(tmp_path, "clue.txt", [READY[lang], *CLUE_TALK[lang], REAL_CLUE[lang], LEFT[lang]])
    status, out, _ = run_cli(["play", "wavelength", "--lang", lang, "--seed", "1", "--input", str(script),
                              "--output", "text", "--record", str(tmp_path / "r.json")])
    assert status == 0
    hmm, okay, clue = replies(out)[1:4]
    assert hmm == []  # nothing the first time
    assert okay == [text("common.nudge_question", question=text("wavelength.ask_clue_first"))]  # the usual nudge
    assert clue == [text("wavelength.clue_heard", clue=REAL_CLUE[lang]),
                    text("wavelength.dial_start_first", team=FIRST_TEAM[lang])]  # read back, then the dial
    record = json.loads((tmp_path / "r.json").read_text())
    assert [(i["phase"], i["text"]) for i in record["inputs"]] == [
        ("psychic", READY[lang]), ("clue", REAL_CLUE[lang]), ("dial", LEFT[lang])]  # the talk is no input


def test_rules_on_request_come_in_short_chunks_that_got_it_ends(tmp_path):
    script = write_script(tmp_path, "rules.txt", ["ready", "a clue", "how to play", "next", "got it", "lock it in", "yes"])
    status, out, _ = run_cli(["play", "wavelength", "--seed", "1", "--input", str(script), "--output", "text"])
    assert status == 0
    chunks = replies(out)
    rules, after_next, after_got_it = chunks[2], chunks[3], chunks[4]
    assert rules[0].startswith("Each turn I read a card") and rules[-1] == "More rules? Say next, or got it."
    assert after_next[0].startswith("The Psychic says one clue.")
    assert after_got_it == ["Back to the game."]
    assert "Lock it at 90 degrees" in out  # the game goes on in the dial


def test_a_redo_in_a_catch_up_turn_says_one_consistent_sentence(tmp_path):
    lines = [line for line in (SCRIPTS / "wavelength_team.txt").read_text("utf-8").splitlines()]
    cut = lines.index("a lion on a diet")  # the clue of turn 4, Red's catch-up turn
    script = write_script(tmp_path, "redo.txt", [*lines[:cut], "redo", "yes", "a clue"])
    status, out, _ = run_cli(["play", "wavelength", "--seed", "7", "--players", "3", "2", "--input", str(script),
                              "--output", "text"])
    assert status == 0
    turn_lines = [line for line in out.splitlines() if line.startswith("HOST: Turn 4")]
    assert turn_lines == ["HOST: Turn 4, catch-up: team Red. Psychic: player 3.",
                          "HOST: Turn 4 again, same Psychic."]


def _resume(tmp_path, lang: str, args: list[str], lines: list[str], cut: int) -> str:
    first = write_script(tmp_path, "first.txt", lines[:cut])
    rest = write_script(tmp_path, "rest.txt", lines[cut:])
    status, _, err = run_cli(["play", "wavelength", "--lang", lang, *args, "--input", str(first), "--output", "text",
                              "--record", str(tmp_path / "r.json")])
    assert status == 0, err
    status, out, err = run_cli(["resume", "--input", str(rest), "--output", "text"])
    assert status == 0, err
    return out


def test_a_resume_at_a_reveal_says_the_scoring_once_in_the_past(tmp_path):
    lines = ["ready", "a clue", "lock it in", "yes", "blue left", "yes", "ready", "another clue", "lock it in", "yes"]
    out = _resume(tmp_path, "en", ["--seed", "1"], lines, 6)  # stopped right after the call's "yes"
    before = out.split("PLAYER:")[0]
    assert "HOST: Turn 1 was scored: team Red got 0. Score: Red 0 and Blue 2." in before
    assert "The target:" not in before and "guessed correctly" not in before  # not narrated as new
    assert "HOST: Turn 2, team Blue." in before  # then the game goes on


@pytest.mark.parametrize("lang, clue_prompt, card_word", [
    ("es", "Psíquico, ¿tu pista?", "La carta: de"), ("nl", "Helderziende, je hint?", "De kaart:"),
    ("en", "Psychic, your clue?", "The card:"),
])
def test_a_resume_in_the_clue_says_the_game_and_the_card_before_asking_for_the_clue(tmp_path, lang, clue_prompt,
                                                                                      card_word):
    redo = {"en": "redo", "es": "rehacer", "nl": "overdoen"}[lang]
    no = {"en": "no", "es": "no", "nl": "nee"}[lang]
    out = _resume(tmp_path, lang, ["--seed", "1"], [READY[lang], redo, no, OPENING[lang]], 3)
    before = out.split("PLAYER:")[0]
    card, score, clue = before.index(card_word), before.index(" 0 "), before.rindex(clue_prompt)
    assert score < card < clue  # where the game is (turn, score), then the card, then the question


def test_stop_then_lock_it_in_leaves_the_game_running(tmp_path):
    """ "stop" stops the host talking; "lock it in" then locks the dial, it is no yes to quitting."""
    script = write_script(tmp_path, "stop.txt", ["ready", "a clue", "stop", "lock it in", "yes", "blue left", "yes"])
    status, out, _ = run_cli(["play", "wavelength", "--seed", "1", "--input", str(script), "--output", "text",
                              "--record", str(tmp_path / "r.json")])
    assert status == 0
    assert "stopped and saved" not in out
    record = json.loads((tmp_path / "r.json").read_text())
    assert len(record["turns"]) == 1 and record["turns"][0]["call_by"] == "Blue"


#: Per language: "other side", table talk, the clue prompt, the card's and the dial's recall words.
NOT_TAKEN = {
    "en": ("other side", "banana", "Psychic, your clue?", "The card:", "The clue: a clue.", "The dial is at 90 degrees."),
    "es": ("otro lado", "plátano", "Psíquico, ¿tu pista?", "La carta:", "La pista: a clue.", "El dial está en 90 grados."),
    "nl": ("andere kant", "banaan", "Helderziende, je hint?", "De kaart:", "De hint: a clue.",
           "De wijzer staat op 90 graden."),
}


@pytest.mark.parametrize("lang", sorted(NOT_TAKEN))
def test_a_resume_after_an_input_that_was_not_taken_says_the_game_then_the_card_then_what_is_pending(tmp_path, lang):
    """A save cut right after a refused "other side" (the card is already turned), or after
    table talk in the dial: the resume says where the game is (turn, score), then the card
    (the target again, privately, in the clue phase), then what is pending."""
    other, talk, clue_prompt, card, clue, dial = NOT_TAKEN[lang]
    (tmp_path / "clue").mkdir()
    (tmp_path / "dial").mkdir()
    out = _resume(tmp_path / "clue", lang, ["--seed", "1"], [READY[lang], other, other, "a clue"], 3)
    before = out.split("PLAYER:")[0]
    score, at_card = before.index(" 0 "), before.index(card)
    secret, question = before.index("PRIVATE psychic:"), before.rindex(clue_prompt)
    assert score < at_card < secret < question
    assert before.count(card) == 1 and "(silence)" not in before
    out = _resume(tmp_path / "dial", lang, ["--seed", "1"], [READY[lang], "a clue", talk, "lock it in", "yes"], 3)
    before = out.split("PLAYER:")[0]
    assert before.index(" 0 ") < before.index(card) < before.index(clue) < before.index(dial)
    assert "PRIVATE" not in before  # the target is told again only before the clue


@pytest.mark.parametrize("lang", sorted(NOT_TAKEN))
def test_a_resume_after_a_silence_in_the_clue_says_the_card_before_the_question(tmp_path, lang):
    other, _, clue_prompt, card, _, _ = NOT_TAKEN[lang]
    out = _resume(tmp_path, lang, ["--seed", "1"], [READY[lang], "<silence>", "a clue"], 2)
    before = out.split("PLAYER:")[0]
    assert before.index(" 0 ") < before.index(card) < before.index("PRIVATE psychic:") < before.rindex(clue_prompt)
