"""The Wits & Wagers host end to end: golden game, record re-scoring, K9 at host level,
keyboard play, resume, bank position, question-bank loading and options."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.playthrough import SCRIPTS, check_golden, run_cli
from voicegame.games.decks import DeckError
from voicegame.games.wits.deck import (
    Question,
    bank_order,
    draw_questions,
    first_start,
    load_bank,
    load_csv,
    load_toml,
)
from voicegame.engine.table import Settings
from voicegame.games.wits.host import validate
from voicegame.engine.journal import data_dir

# The fixed test bank (independent of the default bank's content). Its play order
# (seeded hash of the ids) is apollo, piano, marathon, sonnet, airbus, beijing, bones.
BANK7 = """id,question,answer,unit,source,year
t-apollo,In what year did Apollo 11 land on the Moon?,1969,year,NASA,1969
t-bones,How many bones are in the skeleton of an adult human?,206,bones,Gray's Anatomy,2020
t-sonnet,How many lines does a classic sonnet have?,14,lines,Encyclopaedia Britannica,2024
t-beijing,In what year did Beijing host the Summer Olympic Games?,2008,year,International Olympic Committee,2008
t-airbus,What number follows the letter A in the name of the Airbus double-decker superjumbo?,380,,Airbus,2024
t-marathon,How long is a marathon race in kilometres?,42.195,kilometres,World Athletics,2024
t-piano,How many keys does a standard modern piano have?,88,keys,Encyclopaedia Britannica,2024
"""
EXTRA = """t-chess,How many squares are on a chessboard?,64,squares,FIDE,2024
t-octopus,How many hearts does an octopus have?,3,hearts,Smithsonian Institution,2024
t-football,How many players does one football team have on the pitch?,11,players,IFAB,2024
"""
ORDER7 = ["t-apollo", "t-piano", "t-marathon", "t-sonnet", "t-airbus", "t-beijing", "t-bones"]
PLAYERS = ["red", "blue", "green", "yellow"]


@pytest.fixture
def bank7(tmp_path) -> Path:
    path = tmp_path / "bank7.csv"
    path.write_text(BANK7, encoding="utf-8")
    return path


def play(bank: Path, script: Path, record: Path, *extra: str, seed: int = 7):
    return run_cli(["play", "wits", "--questions", str(bank), "--input", str(script), "--output", "text",
                    "--seed", str(seed), "--record", str(record), *extra])


def rescore(record: dict) -> dict[str, int]:
    """Re-score a Wits & Wagers record from its turns alone (K5–K7), independently of the rules module.

    Also checks each turn's ``chips_after`` against the running totals.
    """
    players = record["settings"]["options"]["players"]
    chips = {p: 0 for p in players}
    for turn in record["turns"]:
        answer = turn["answer"]
        slots = {s["id"]: s for s in turn["slots"]}
        fitting = [s for s in turn["slots"] if s["guess"] is not None and s["guess"] <= answer]
        win = max(fitting, key=lambda s: s["guess"])["id"] if fitting else 0
        assert win == turn["winning_slot"]
        odds = slots[win]["odds"]
        for bet in turn["bets"]:
            if bet["slot"] == win:
                chips[bet["player"]] += odds * (1 + bet["chips"])
            else:
                chips[bet["player"]] -= bet["chips"]
        if win != 0:
            for p in slots[win]["players"]:
                chips[p] += 3
        assert chips == turn["chips_after"], turn["question"]
    return chips


# --------------------------------------------------------------------------- the golden game


def test_golden_four_player_game_plays_to_the_end(bank7, tmp_path):
    record_path = tmp_path / "record.json"
    status, out, err = play(bank7, SCRIPTS / "wits_full.txt", record_path)
    assert status == 0, err
    check_golden("wits_full", out)
    record = json.loads(record_path.read_text())
    assert record["finished"] is True
    assert [t["id"] for t in record["turns"]] == ORDER7
    # the record re-scores to the same chip totals (independent function)
    assert rescore(record) == record["chips"] == {"red": 21, "blue": 18, "green": 21, "yellow": 0}
    assert {s["player"]: s["chips"] for s in record["standings"]} == record["chips"]
    awarded = {p: 0 for p in PLAYERS}
    for award in record["awards"]:
        assert award["unit"] == "chips"
        awarded[award["to"]] += award["amount"]
    assert awarded == record["chips"]
    # K8: red and green tie; green has the youngest player
    assert record["tie_break"] == {"tied": ["red", "green"], "youngest": ["green"]}
    assert record["winners"] == ["green"]
    first = record["turns"][0]
    assert first["guesses"] == {"red": 1965, "blue": 1971, "green": 1969, "yellow": None}
    assert first["bets"][0] == {"player": "red", "slot": 4, "chips": 0}
    assert first["payouts"]["green"] == {"won": 2, "returned": 0, "lost": 0, "bonus": 3}
    assert record["turns"][2]["answer"] == 42.195


def test_golden_game_says_every_refusal_with_its_reason(bank7, tmp_path):
    status, out, err = play(bank7, SCRIPTS / "wits_full.txt", tmp_path / "r.json")
    assert status == 0, err
    expected = [
        "PLAYER: banana\nPLAYER: 1972",  # a guess that is not a number is table talk: no lecture
        # another player's colour at a guess: the reason, then the question again
        "Red, you can correct your guess when I read all the guesses back. Green, your guess?",
        "Yellow, please wait: I'll ask for your guess in turn. Green, your guess?",
        "PLAYER: green, nineteen sixty nine\nHOST: Green: 1969.",  # own colour + number
        "I didn't hear a guess from Yellow, so Yellow has no guess this time. Yellow can still bet.",
        "Blue's guess is now 1971.",  # G4 correction
        "PLAYER: no, blue ninety\nHOST: Blue's guess is now 90 keys.",  # "no" + correction in one go
        # the question again at a guess, at "is that right?" and at a bet; then "undo" passes over the
        # request and takes back red's guess (G4)
        "PLAYER: repeat the question\nHOST: Question 2 of 7. How many keys does a standard modern piano have?\n"
        "HOST: Blue, your guess?\nPLAYER: undo\nHOST: Undone. Let's take that step again.\nHOST: Red, your guess?",
        "PLAYER: what's the question\nHOST: Question 3 of 7. How long is a marathon race in kilometres?\n"
        "HOST: The guesses are:",
        "PLAYER: what was the question\nHOST: Question 2 of 7. How many keys does a standard modern piano have?\n"
        "HOST: Red, your bets? You hold 4 chips.",
        # every guess read back with the question's unit, said or not (a calendar year bare)
        "PLAYER: forty\nHOST: Blue: 40 kilometres.", "PLAYER: 1972\nHOST: Blue: 1972.",
        # a second chip count without "chips"
        "PLAYER: split 2004 with 2 chips and 2010 with 2\nHOST: Green: one token on 2004 with 2 chips and one token "
        "on 2010 with 2 chips.",
        # the year of the figure, and none when it is the answer itself
        "Source: Encyclopaedia Britannica, figure for 2024.", "The answer is 1969. Source: NASA.\n",
        "PLAYER: that's right\nHOST: Here is the mat",
        "PLAYER: all good\nHOST: Here is the mat",
        "PLAYER: never mind\nHOST: All right, the guesses stay as they are.\nHOST: Here is the mat",
        "PLAYER: forty two point two kilometres\nHOST: Red: 42.2 kilometres.",  # a guess with its unit
        "Red, you hold no chips, so that bet cannot put 2 chips under your tokens.",  # over the chips held
        "PLAYER: the mat\nHOST: Here is the mat, from left to right.",
        "PLAYER: read the mat\nHOST: Here is the mat, from left to right.",
        "It is Blue's turn to bet.",
        "The 4 to 1 on the left is empty. Bets go on a slot with a guess, or on all guesses too high.",
        "PLAYER: both on the 2 to 1 in the middle\nHOST: The 2 to 1 in the middle is empty.",
        "Blue, the 3 to 1 on the left, or the one on the right?",  # ambiguous slot asked back
        "Yellow has no guess on the mat.",
        "Red, you have only two bet tokens, and both are down",  # a third bet
        "PLAYER: never mind\nHOST: All right, no change.\nHOST: Any changes?",
        "Green, you hold 5 chips, so that bet cannot put 6 chips under your tokens.",
        "Nothing heard from Red, so Red places no bet.",
        "Standings: Red no chips, Blue no chips, Green no chips and Yellow no chips.",  # "score"
        "Undone. Let's take that step again.",
        "Who is younger: Red or Green? If you are the same age, say same age.",  # K8, for players or teams
        "Blue is not tied for the lead. Say Red or Green, or say same age.",
        "Purple is not playing. Say Red or Green, or say same age.",
        "Green is the youngest, so Green wins with 21 chips!",
        "Question 3: How long is a marathon race in kilometres? Answer: 42.195 kilometres.",
    ]
    for sentence in expected:
        assert sentence in out, sentence
    # the mat: every slot, its odds and whose guess is in it (K3)
    assert ("All guesses too high pays 6 to 1. 3 to 1 on the left: 12, guessed by Red and Green. "
            "2 to 1 in the middle: 15, guessed by Blue. 3 to 1 on the right: 20, guessed by Yellow.") in out
    # the K7 bonus is said once, in the payout line; player names always with a capital
    assert "bonus for the winning guess" not in out
    assert "HOST: Green wins 2 chips and gets the 3 chips bonus, and now has 5 chips." in out
    listed = [line for line in out.splitlines()
              if line.startswith(("HOST: Standings:", "HOST: The guesses are:", "HOST: Here is the mat"))]
    assert len(listed) > 20
    assert not [line for line in listed if re.search(r"\b(red|blue|green|yellow)\b", line)]


# --------------------------------------------------------------------------- K9 at host level


def test_k9_examples_through_the_host(tmp_path):
    bank = tmp_path / "k9.csv"
    bank.write_text("id,question,answer,unit,source,year\n"
                    "k-14,How many lines does a classic sonnet have?,14,lines,Encyclopaedia Britannica,2024\n"
                    "k-2008,In what year did Beijing host the Summer Olympics?,2008,year,IOC,2008\n"
                    "k-380,What number follows A in the name of the Airbus superjumbo?,380,,Airbus,2024\n")
    guesses = {"k-14": ("12", "15"), "k-2008": ("2004", "2009"), "k-380": ("389", "400")}
    order = [q.id for q in bank_order(load_bank(bank))]
    lines = []
    for qid in order:
        lines += [*guesses[qid], "yes", "one on the smallest", "one on too high", "no"]
    script = tmp_path / "k9.txt"
    script.write_text("\n".join(lines) + "\n")
    record_path = tmp_path / "k9.json"
    status, out, err = play(bank, script, record_path, "--players", "red,blue", "--count", "3")
    assert status == 0, err
    record = json.loads(record_path.read_text())
    by_id = {t["id"]: t for t in record["turns"]}
    slot = {t["id"]: next(s for s in t["slots"] if s["id"] == t["winning_slot"]) for t in record["turns"]}
    assert slot["k-14"]["guess"] == 12          # answer 14: 12 beats 15
    assert slot["k-2008"]["guess"] == 2004      # answer 2008: 2004 beats 2009
    assert by_id["k-380"]["winning_slot"] == 0  # answer 380, smallest guess 389: too high wins
    assert "Every guess was over the answer, so all guesses too high wins, paying 6 to 1." in out
    assert "The winning guess is 12, by Red, on the 3 to 1 on the left." in out
    assert rescore(record) == record["chips"]


# --------------------------------------------------------------------------- keyboard


def test_keyboard_game_from_the_printed_instructions(bank7):
    # What a person types after reading the host's words: "ready" when the timer-off
    # prompt asks for it, numbers when asked for a guess, bets in the forms the
    # introduction lists, "no" to close betting.
    typed = [
        "ready", "1960", "1975", "yes", "ready",
        "both on 1960", "one on 1975 with 0 chips, one on too high", "no",
        "ready", "80", "", "", "yes", "ready",
        "no bet", "split 80 and too high", "no",
    ]
    status, out, err = run_cli(["play", "wits", "--questions", str(bank7), "--players", "red,blue", "--count", "2",
                                "--input", "keyboard", "--output", "text", "--timer", "off", "--seed", "3"],
                               stdin_text="\n".join(typed) + "\n")
    assert status == 0, err
    intro = out.split("\n", 1)[0]
    for hint in ("both on 2008", "one on 2008 with 3 chips, one on too high", "split 12 and 15",
                 "5 chips on the 3 to 1 on the left", "no bet", "say no to close the betting", "say help",
                 "say the mat to hear the mat again", "the youngest of them wins",
                 "say repeat the question to hear the question again"):
        assert hint in intro
    # --timer off: the introduction speaks of saying ready, never of a timer (G1)
    assert "timer" not in intro
    assert "write down a number as your guess, and say ready when everyone has one" in intro
    assert "Then you bet: say ready when everyone has decided" in intro
    assert "There is no timer. Say ready when everyone is done." in out
    assert "Red: both tokens on 1960 with no chips." in out
    assert "Blue: one token on all guesses too high with no chips and one token on 80 with no chips." not in out
    assert "Blue: one token on 80 with no chips and one token on all guesses too high with no chips." in out
    assert "red wins" in out.lower() or "blue wins" in out.lower()
    assert out.rstrip().endswith("The game is over.")


# --------------------------------------------------------------------------- resume


def test_resume_finishes_with_the_same_scores(bank7, tmp_path):
    lines = (SCRIPTS / "wits_full.txt").read_text().splitlines(keepends=True)
    cut = next(i for i, line in enumerate(lines) if line.startswith("# --- Q4"))
    cut += 4  # stop after two guesses of question 4
    first, rest = tmp_path / "first.txt", tmp_path / "rest.txt"
    first.write_text("".join(lines[:cut]))
    rest.write_text("".join(lines[cut:]))
    record_path = tmp_path / "record.json"
    status, out, err = play(bank7, first, record_path)
    assert status == 0, err
    assert "The script has ended, so the game stops here." in out
    record = json.loads(record_path.read_text())
    assert record["finished"] is False and len(record["turns"]) == 3
    # the resumed game replays its stored questions: the bank position does not move
    before = json.loads((data_dir() / "wits_position.json").read_text())
    status, out, err = run_cli(["resume", "--input", str(rest), "--output", "text"])
    assert status == 0, err
    assert "Welcome back. Resuming the saved game." in out
    # the question heard before the stop is read again at the first live moment, before the next guess
    lines = out.splitlines()
    recall = lines.index("HOST: We are at question 4 of 7. How many lines does a classic sonnet have?")
    assert recall < next(i for i, line in enumerate(lines) if line.endswith(", your guess?"))
    assert sum("How many lines does a classic sonnet have?" in line for line in lines) == 2  # and the recap
    record = json.loads(record_path.read_text())
    assert record["finished"] is True
    assert [t["id"] for t in record["turns"]] == ORDER7
    assert record["chips"] == {"red": 21, "blue": 18, "green": 21, "yellow": 0} == rescore(record)
    assert json.loads((data_dir() / "wits_position.json").read_text()) == before  # resume draws nothing


# --------------------------------------------------------------------------- bank position


def _ids_of_a_started_game(bank: Path, tmp_path: Path, name: str, count: int) -> list[str]:
    empty = tmp_path / "empty.txt"
    empty.write_text("# nothing is said: the game stops at its first question\n")
    record = tmp_path / f"{name}.json"
    status, out, err = play(bank, empty, record, "--count", str(count))
    assert status == 0, err
    return json.loads(record.read_text())["settings"]["options"]["question_ids"]


def test_bank_position_persists_across_games(tmp_path):
    bank = tmp_path / "bank10.csv"
    bank.write_text(BANK7 + EXTRA, encoding="utf-8")
    order = [q.id for q in bank_order(load_bank(bank))]
    # a fresh bank with --seed 7 and 4 questions a game: block 7 mod (10 // 4) = 1 starts the first pass
    assert first_start(10, 4, 7) == 4
    order = order[4:] + order[:4]
    game1 = _ids_of_a_started_game(bank, tmp_path, "g1", 4)
    game2 = _ids_of_a_started_game(bank, tmp_path, "g2", 4)
    assert game1 == order[:4] and game2 == order[4:8]  # no repeats: the next ones in the fixed order
    position = json.loads((data_dir() / "wits_position.json").read_text())
    entry = position["banks"][str(bank.resolve())]
    assert entry["position"] == 8 and set(entry["asked"]) == set(order[:8]) and entry["start"] == order[0]
    # the pass ends: the last two, then a new pass (same start) that does not repeat them in this game
    game3 = _ids_of_a_started_game(bank, tmp_path, "g3", 4)
    assert game3 == order[8:] + order[:2]
    assert len(set(game3)) == 4


def test_seed_picks_where_a_fresh_bank_starts_and_every_question_still_comes_once(tmp_path):
    bank = [Question(f"q{i:02d}", f"Question {i}?", i) for i in range(20)]
    order = [q.id for q in bank_order(bank)]
    firsts = {}
    for seed in (None, 0, 1, 2, 3, 4, 5):
        pos = tmp_path / f"pos{seed}.json"
        firsts[seed] = [q.id for q in draw_questions(bank, 4, "k", pos, seed=seed)]
    assert firsts[None] == order[:4] == firsts[0] == firsts[5]  # no seed: the start of the order
    assert [firsts[s] for s in (1, 2, 3, 4)] == [order[4:8], order[8:12], order[12:16], order[16:20]]
    # later games go on from the saved position whatever their seed; one pass asks each question once
    pos = tmp_path / "pos3.json"
    rest = [q.id for seed in (9, None, 0, 2) for q in draw_questions(bank, 4, "k", pos, seed=seed)]
    assert rest == order[16:] + order[:12] and sorted(firsts[3] + rest) == sorted(order)
    assert [q.id for q in draw_questions(bank, 4, "k", pos, seed=1)] == order[12:16]  # the next pass
    # a position saved before starts were kept (no "start") goes on from the beginning of the order
    old = tmp_path / "old.json"
    old.write_text(json.dumps({"format": "voicegame-wits-position/1",
                               "banks": {"k": {"pass": 1, "asked": order[:4], "position": 4, "size": 20}}}))
    assert [q.id for q in draw_questions(bank, 4, "k", old, seed=3)] == order[4:8]


def test_play_seed_changes_the_first_questions_of_a_fresh_data_dir_only(tmp_path, capsys):
    script = tmp_path / "empty.txt"
    script.write_text("# nothing is said\n")
    position = data_dir() / "wits_position.json"

    def first_ids(*seed: str) -> list[str]:
        record = tmp_path / "r.json"
        status, out, err = run_cli(["play", "wits", "--input", str(script), "--output", "text",
                                    "--record", str(record), *seed])
        assert status == 0, err
        return json.loads(record.read_text())["settings"]["options"]["question_ids"]

    unseeded = first_ids()
    position.unlink()
    assert first_ids() == unseeded  # no --seed (and the lobby): the bank's fixed start
    position.unlink()
    one = first_ids("--seed", "1")
    position.unlink()
    two = first_ids("--seed", "2")
    assert len({*unseeded, *one, *two}) == 21  # three fresh data dirs, three different games
    assert not set(first_ids("--seed", "1")) & {*one, *two}  # a saved position: the seed changes nothing
    status, out, err = run_cli(["play", "wits", "--help"])  # the help goes to the run's own stdout
    assert status == 0 and "--seed picks where that first pass starts" in " ".join(out.split())


def test_validate_stores_the_questions_once(bank7):
    settings = Settings(game="wits", options={"players": ["red", "violet"], "questions": str(bank7), "count": 2})
    validate(settings)
    assert settings.options["players"] == ["red", "purple"]
    assert settings.options["question_ids"] == ORDER7[:2]
    assert [q["id"] for q in settings.options["question_set"]] == ORDER7[:2]
    position = (data_dir() / "wits_position.json").read_text()
    validate(settings)  # already drawn (resume/replay): nothing changes
    assert settings.options["question_ids"] == ORDER7[:2]
    assert (data_dir() / "wits_position.json").read_text() == position


def test_draw_skips_nothing_when_the_bank_grows(tmp_path):
    small = [Question(f"q{i}", f"Question {i}?", i) for i in range(6)]
    key, pos = "test", tmp_path / "pos.json"
    first = draw_questions(small, 3, key, pos)
    grown = small + [Question(f"n{i}", f"New {i}?", i) for i in range(4)]
    second = draw_questions(grown, 7, key, pos)
    assert not {q.id for q in first} & {q.id for q in second}
    assert len({q.id for q in second}) == 7


# --------------------------------------------------------------------------- bank loading and options


def test_default_bank_loads():
    bank = load_bank()
    assert len(bank) >= 350
    assert all(isinstance(q.answer, (int, float)) for q in bank)


def test_toml_bank_loads_and_plays(tmp_path):
    bank = tmp_path / "bank.toml"
    bank.write_text('[[question]]\nid = "a"\nquestion = "How many legs does a spider have?"\nanswer = 8\n'
                    'unit = "legs"\nsource = "Natural History Museum"\nyear = 2024\n\n'
                    '[[question]]\nid = "b"\nquestion = "How many minutes are in a day?"\nanswer = 1440\n'
                    'unit = "minutes"\n', encoding="utf-8")
    questions = load_toml(bank)
    assert [(q.id, q.answer, q.year) for q in questions] == [("a", 8, 2024), ("b", 1440, None)]
    ids = _ids_of_a_started_game(bank, tmp_path, "toml", 2)
    assert sorted(ids) == ["a", "b"]


@pytest.mark.parametrize("body, message", [
    ("id,question,answer,unit,source,year\nq1,How many?,twelve,,,\n", "line 2: the answer must be a number"),
    ("id,question,answer,unit,source,year\nq1,How many?,12,,,\nq1,How many more?,13,,,\n",
     "line 3: the id 'q1' is already used at"),
    ("id,question,answer,unit,source,year\nq1,,12,,,\n", "line 2: the question is empty."),
    ("id,question,answer,unit,source,year\nq1,How many?,12,,\n", "line 2: 5 fields, expected 6"),
    ("id,question,answer,unit,source,year\n\nq1,How many?,12,,,2020x\n", "line 3: the year must be a whole number"),
    ("question,answer\nHow many?,12\n", "line 1: the header must be"),
])
def test_malformed_csv_bank_names_file_and_line(tmp_path, body, message):
    bank = tmp_path / "bad.csv"
    bank.write_text(body, encoding="utf-8")
    with pytest.raises(DeckError) as info:
        load_csv(bank)
    assert str(bank) in str(info.value) and message in str(info.value)


def test_malformed_toml_bank_names_the_entry(tmp_path):
    bank = tmp_path / "bad.toml"
    bank.write_text('[[question]]\nid = "a"\nquestion = "Q?"\nanswer = 1\n\n'
                    '[[question]]\nid = "b"\nquestion = "Q2?"\nanswer = "lots"\n', encoding="utf-8")
    with pytest.raises(DeckError, match=r"bad\.toml, question 2 \(id 'b'\): the answer must be a number"):
        load_toml(bank)
    bank.write_text("[[question]\nid = 1\n", encoding="utf-8")
    with pytest.raises(DeckError, match=r"bad\.toml: not valid TOML .*line 1"):
        load_toml(bank)


def test_cli_refuses_a_malformed_bank_and_bad_options(tmp_path, bank7):
    bad = tmp_path / "bad.csv"
    bad.write_text("id,question,answer,unit,source,year\nq1,How many?,1 2,,,\n", encoding="utf-8")
    script = tmp_path / "s.txt"
    script.write_text("yes\n")
    status, out, err = play(bad, script, tmp_path / "r.json")
    assert status == 2 and "bad.csv, line 2: the answer must be a number" in err and "Traceback" not in err
    for players, message in (("red", "2 to 7 players, not 1"), ("red,blue,red", "names someone twice"),
                             ("red,both", "is a word the game uses")):
        status, out, err = play(bank7, script, tmp_path / "r.json", "--players", players)
        assert status == 2 and message in err, err
    status, out, err = play(bank7, script, tmp_path / "r.json", "--count", "8")
    assert status == 2 and "only 7 questions, fewer than --count 8" in err
