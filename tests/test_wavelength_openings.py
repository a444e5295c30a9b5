"""Wavelength's opening as a fresh table hears it (`voicegame play wavelength`, the shipped deck,
no --players): at most 40 words before the first input on every seed (playtest item 10), Blue's
head start said once (W4, item 3), and the card and the secret wait until the table has chosen
its Psychic (item 2)."""

import pytest

from tests.playthrough import run_cli
from voicegame.language.budget import OPENING_WORDS, figures, words

#: The first thing a table says after "choose your Psychic", per language.
READY = {"en": "me", "es": "yo", "nl": "ik"}
HEAD_START = {"en": "team Blue has 1 point.", "es": "equipo Azul lleva 1 punto.", "nl": "team Blauw heeft 1 punt."}


def opening(tmp_path, lang: str, seed: int, *args: str, lines=("something",)) -> str:
    script = tmp_path / "script.txt"
    script.write_text("\n".join(lines) + "\n", encoding="utf-8")
    status, out, err = run_cli(["play", "wavelength", "--input", str(script), "--output", "text", "--lang", lang,
                                "--seed", str(seed), *args])
    assert status == 0 and "Traceback" not in out + err, err  # a refused command line plays nothing
    return out


@pytest.mark.parametrize("mode", [[], ["--coop"]], ids=["team", "coop"])
@pytest.mark.parametrize("lang", ["en", "es", "nl"])
def test_no_seed_says_more_than_40_words_before_the_first_input(tmp_path, lang, mode):
    """Seeds 0–19, counted as tests/test_voice_budget.py counts (private lines included)."""
    over = {}
    for seed in range(20):
        n = figures(opening(tmp_path, lang, seed, *mode))["before_first_input"]
        if n > OPENING_WORDS:
            over[seed] = n
    assert over == {}


#: The head start as the opening says it: in full, or short where a long card needs the room.
HEAD_START_SAID = {"en": ("team Blue has 1 point.", "1 point behind."), "es": ("equipo Azul lleva 1 punto.", "1 punto por detrás."),
                   "nl": ("team Blauw heeft 1 punt.", "1 punt achter.")}
LONG_TEAMS = {"en": ["Red Dragons", "Blue Whales"], "es": ["Dragones Rojos", "Ballenas Azules"],
              "nl": ["Rode Draken", "Blauwe Walvissen"]}


@pytest.mark.parametrize("mode", [["--players", "2", "2"], ["--players", "3"], ["--coop", "--players", "4"], "long_names"],
                         ids=["team", "team_one_count", "coop", "team_long_names"])
@pytest.mark.parametrize("lang", ["en", "es", "nl"])
def test_a_table_whose_players_are_known_hears_at_most_40_words_but_the_secrets_repeat(tmp_path, lang, mode):
    """With the players known (``--players`` as the command line takes them, numbers per team;
    the lobby always passes them) the card and the secret follow the welcome at once; seeds
    0–19 keep 40 words not counting the secret's second telling (G2: the private line that
    follows the first, as tests/test_voice_budget.py's sweep counts ROFL!'s), up to the clue.
    With the default team names the head start is said (item 3), short where the card is long."""
    if mode == "long_names":
        mode = ["--players", "2", "--teams", *LONG_TEAMS[lang]]
    over, head_start = {}, []
    for seed in range(20):
        out = opening(tmp_path, lang, seed, *mode, lines=("a clue",))
        assert "PLAYER: a clue" in out
        first = out.split("PLAYER:")[0].splitlines()
        again = [b.split(":", 1)[1] for a, b in zip(first, first[1:]) if a.startswith("PRIVATE") and b.startswith("PRIVATE")]
        n = figures(out)["before_first_input"] - sum(words(x) for x in again)
        if n > OPENING_WORDS:
            over[seed] = n
        head_start.append(any(h in out.split("PLAYER:")[0] for h in HEAD_START_SAID[lang]))
    assert over == {}
    if "--coop" not in mode and "--teams" not in mode:
        assert all(head_start)


def test_a_short_opening_leaves_the_scores_to_score(tmp_path):
    """Seed 16 (a long card) says the head start short; "score" says both teams' points."""
    out = opening(tmp_path, "en", 16, "--players", "2", lines=("score", "a clue"))
    assert "HOST: Team Red starts, 1 point behind. Psychic: player 1.\n" in out
    assert out.split("PLAYER: score\n")[1].startswith("HOST: Score: Red 0 and Blue 1.")


@pytest.mark.parametrize("lang", ["en", "es", "nl"])
@pytest.mark.parametrize("players", [[], ["--players", "2"]], ids=["chosen_at_the_table", "players_known"])
def test_the_second_teams_head_start_is_said_once_in_the_opening(tmp_path, lang, players):
    out = opening(tmp_path, lang, 1, *players, lines=(READY[lang], "a clue"))
    first = out.split("PLAYER:")[0]
    assert out.count(HEAD_START[lang]) == 1 and HEAD_START[lang] in first


@pytest.mark.parametrize("lang", ["en", "es", "nl"])
@pytest.mark.parametrize("mode", [[], ["--coop"]], ids=["team", "coop"])
def test_the_card_and_the_secret_wait_until_the_psychic_is_chosen(tmp_path, lang, mode):
    """No --players: "choose your Psychic" is a moment; table talk does not start the turn,
    "me" (or "ready") does, and a silence goes on; the cover-your-ears sentence comes first."""
    out = opening(tmp_path, lang, 1, *mode, lines=("who wants to do it", READY[lang], "a clue"))
    before, after = out.split(f"PLAYER: {READY[lang]}\n", 1)
    assert "PRIVATE" not in before and "PLAYER: who wants to do it" in before
    lines = after.splitlines()
    assert lines[1].startswith("HOST: ") and lines[4].startswith("PRIVATE psychic:")  # card, ears, countdown
    silent = opening(tmp_path, lang, 1, *mode, lines=("<silence>", "a clue"))
    assert silent.splitlines()[3].startswith("HOST: ") and "PRIVATE psychic:" in silent.split("a clue")[0]


def test_with_known_players_the_psychic_is_named_and_the_card_follows(tmp_path):
    out = opening(tmp_path, "en", 1, "--players", "2")
    assert "HOST: Team Red starts; team Blue has 1 point. Psychic: player 1.\n" in out
    assert out.index("PRIVATE psychic:") < out.index("PLAYER:")


def test_a_resume_while_the_table_chooses_says_the_turn_again(tmp_path):
    first = opening(tmp_path, "en", 1, "--record", str(tmp_path / "r.json"), lines=("who wants to",))
    assert "PRIVATE" not in first
    rest = tmp_path / "rest.txt"
    rest.write_text("me\na clue\n", encoding="utf-8")
    status, out, err = run_cli(["resume", "--input", str(rest), "--output", "text"])
    assert status == 0, err
    assert out.split("PLAYER:")[0] == ("HOST: Welcome back. Resuming the saved game.\n"
                                       "HOST: Team Red starts; team Blue has 1 point. Choose your Psychic, then say ready.\n")
    assert out.split("PLAYER: me\n")[1].startswith("HOST: Dungeon to Palace.\nHOST: Cover your ears")


WHERE = {"en": "where is it", "es": "dónde está", "nl": "waar staat hij"}
CLUE = {"en": "a clue", "es": "una pista", "nl": "een hint"}


@pytest.mark.parametrize("mode", [[], ["--coop"]], ids=["team", "coop"])
@pytest.mark.parametrize("lang", ["en", "es", "nl"])
def test_the_first_dial_prompt_says_how_to_hear_the_dial_in_words(tmp_path, lang, mode):
    """Playtest item 7 (low vision): the default dial is a tone; the first dial prompt (only
    the first) names the words that tell its position, and the dial takes them."""
    out = opening(tmp_path, lang, 1, *mode, lines=(READY[lang], CLUE[lang], WHERE[lang]))
    first_dial = out.split(f"PLAYER: {CLUE[lang]}\n")[1].split("PLAYER:")[0]
    assert WHERE[lang] in first_dial.lower()
    after = out.split(f"PLAYER: {WHERE[lang]}\n")[1].splitlines()[0]
    assert after.startswith("HOST: 90 ")  # the position, in words
