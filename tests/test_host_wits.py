"""The Wits & Wagers host end to end: golden game, record re-scoring, K9 at host level,
keyboard play, resume, bank position, question-bank loading and options."""

from __future__ import annotations

import io
import json
import random
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
from voicegame.adapters.headless import ScriptListener, TextVoice, VirtualClock
from voicegame.engine.table import Table
from voicegame.games.wits.host import Host, validate
from voicegame.engine.journal import data_dir
from voicegame.language.prompts import Prompts

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
#: The golden game's seats, named on its command line (a later ``--players`` overrides them).
PLAYERS = ["red", "orange", "yellow", "green"]


@pytest.fixture
def bank7(tmp_path) -> Path:
    path = tmp_path / "bank7.csv"
    path.write_text(BANK7, encoding="utf-8")
    return path


def play(bank: Path, script: Path, record: Path, *extra: str, seed: int = 7):
    return run_cli(["play", "wits", "--questions", str(bank), "--input", str(script), "--output", "text",
                    "--seed", str(seed), "--record", str(record), "--players", ",".join(PLAYERS), *extra])


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
    assert rescore(record) == record["chips"] == {"red": 76, "orange": 41, "yellow": 3, "green": 76}
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
    assert first["guesses"] == {"red": 1969, "orange": 1971, "yellow": 1969, "green": 1969}
    assert first["bets"][0] == {"player": "red", "slot": 3, "chips": 0}
    assert first["payouts"]["green"] == {"won": 6, "returned": 0, "lost": 0, "bonus": 3}
    assert record["turns"][2]["answer"] == 42.195


def test_golden_game_says_every_refusal_with_its_reason(bank7, tmp_path):
    status, out, err = play(bank7, SCRIPTS / "wits_full.txt", tmp_path / "r.json")
    assert status == 0, err
    expected = [
        "PLAYER: 1965\nHOST: Start with your colour, like Red 12.",  # the open floor needs a colour
        "PLAYER: no, 1971\nHOST: Orange: now 1971.",  # "no" and a number corrects the last guess (G4)
        "PLAYER: red 1970\nHOST: Red: now 1970.\nHOST: Yellow, your guess?",  # a colour names whose guess
        # undo after another player's input takes back nothing of theirs (G4)
        "PLAYER: undo\nHOST: There is nothing to undo in this step.",
        "PLAYER: green, undo\nHOST: There is nothing to undo in this step.",
        "PLAYER: red, undo\nHOST: Undone. Let's take that step again.",
        "PLAYER: repeat the question\nHOST: Question 1 of 7. In what year did Apollo 11 land on the Moon?",
        "Red, you hold no chips yet: bet your tokens alone.",  # over the chips held
        "Orange, the 3 to 1 on the left or on the right? Say it with your bet.",  # ambiguous on the open floor
        "The 5 to 1 on the left is empty. Bet on a guess, or on too high.",
        "PLAYER: where is that from\nHOST: No answer yet: ask me after the first one.",
        "PLAYER: yellow one sixty\nHOST: Yellow: 160 keys.",  # a number as people say it
        "PLAYER: pause\nHOST: The game is paused.",
        "PLAYER: stop the game\nHOST: To stop and save this game, say: yes, stop the game. Or say no.",
        "Orange is not tied for the lead. Say Red or Green, or say same age.",
        "Green is the youngest, so Green wins with 76 chips!",
        # the source after the last reveal, then the end
        "PLAYER: where is that from\nHOST: That answer comes from Gray's Anatomy.\nPLAYER: done",
        "Every guess was over: too high wins, at 6 to 1.",
        "The answer is 1969.\n",  # the answer alone: the source only when asked
    ]
    for sentence in expected:
        assert sentence in out, sentence
    # read-backs once: no list of every guess or bet; the mat never lists empty slots
    assert "The guesses are" not in out and "Empty" not in out and "Betting is closed" not in out
    # the end recap names the winner and two highlights, not every question
    assert "Best bet: Red won 27 chips on question 4." in out
    assert "Closest guess: Red, 1969, exactly right." in out
    assert "Question 3: How long" not in out
    # player names always with a capital
    assert not [line for line in out.splitlines() if line.startswith("HOST:")
                and re.search(r"\b(red|orange|green|yellow)\b", line)]


# --------------------------------------------------------------------------- K9 at host level


def test_k9_examples_through_the_host(tmp_path):
    bank = tmp_path / "k9.csv"
    bank.write_text("id,question,answer,unit,source,year\n"
                    "k-14,How many lines does a classic sonnet have?,14,lines,Encyclopaedia Britannica,2024\n"
                    "k-2008,In what year did Beijing host the Summer Olympics?,2008,year,IOC,2008\n"
                    "k-380,What number follows A in the name of the Airbus superjumbo?,380,,Airbus,2024\n")
    guesses = {"k-14": ("red 12", "blue 15"), "k-2008": ("red 2004", "blue 2009"), "k-380": ("red 389", "blue 400")}
    order = [q.id for q in bank_order(load_bank(bank))]
    lines = []
    for qid in order:
        lines += [*guesses[qid], "no", "red one on the smallest", "blue one on too high"]
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
    assert "Every guess was over: too high wins, at 6 to 1." in out
    assert "12 wins, at 3 to 1." in out
    assert rescore(record) == record["chips"]


# --------------------------------------------------------------------------- keyboard


def test_keyboard_game_from_the_printed_instructions(bank7):
    # What a person types after reading the host's words: a colour and a guess, "no" at "Any guess
    # to fix?", a colour and bets; "ready" ends an untimed moment, and the missing are asked in turn.
    typed = [
        "red 1960", "blue 1975", "no",
        "red both on 1960", "blue one on 1975 with 0 chips, one on too high",
        "red 80", "", "ready", "", "", "no",
        "red no bet", "ready", "split 80 and too high", "done",
    ]
    status, out, err = run_cli(["play", "wits", "--questions", str(bank7), "--players", "red,blue", "--count", "2",
                                "--input", "keyboard", "--output", "text", "--timer", "off", "--seed", "3"],
                               stdin_text="\n".join(typed) + "\n")
    assert status == 0, err
    opening = out.split("\n", 1)[0]
    assert "rules" in opening.lower() and len(opening.split()) <= 25
    # --timer off (G1): no seconds are said, "ready" ends the moment
    assert "seconds" not in out
    assert "There is no timer. Say ready when everyone is done." in out
    assert "Red: both on 1960." in out
    assert "Blue: one on 1975 and one on too high." in out
    assert "Blue, your guess?" in out and "Blue: no guess." in out
    assert "Blue: one on 80 and one on too high." in out
    assert "red wins" in out.lower() or "blue wins" in out.lower()
    assert out.rstrip().endswith("The game is over.")


# --------------------------------------------------------------------------- resume


def test_resume_finishes_with_the_same_scores(bank7, tmp_path):
    lines = (SCRIPTS / "wits_full.txt").read_text().splitlines(keepends=True)
    cut = next(i for i, line in enumerate(lines) if line.startswith("# --- Q4"))
    cut += 5  # stop after red's guess and a silence at orange's, in question 4
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
    # first where the game is (question, chips), then what is pending (the question), then the prompt
    lines = out.splitlines()
    where = lines.index("HOST: Question 4 of 7.")
    assert lines[where + 1:where + 5] == ["HOST: Red and Green lead with 16 chips.",
                                          "HOST: How many lines does a classic sonnet have?",
                                          "HOST: Red: 12 lines.",  # the last input before the stop, live
                                          "HOST: Orange, your guess?"]
    assert not any(line.startswith("HOST: Red: ") for line in lines[:where])  # never a read-back first
    record = json.loads(record_path.read_text())
    assert record["finished"] is True
    assert [t["id"] for t in record["turns"]] == ORDER7
    assert record["chips"] == {"red": 76, "orange": 41, "yellow": 3, "green": 76} == rescore(record)
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
    # a fresh bank with --seed 7 and 4 questions a game: the game's rng picks the block of the first pass
    start = first_start(10, 4, random.Random(7))
    assert first_start(10, 4, None) == 0 and start in (0, 4)
    order = order[start:] + order[:start]
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
    for seed in (None, 1, 2, 3):
        pos = tmp_path / f"pos{seed}.json"
        rng = random.Random(seed) if seed is not None else None
        firsts[seed] = [q.id for q in draw_questions(bank, 4, "k", pos, rng=rng)]
    assert firsts[None] == order[:4]  # no seed: the start of the order
    for seed in (1, 2, 3):  # a whole block of the order, the one the seeded rng picks
        block = random.Random(seed).randrange(5) * 4
        assert firsts[seed] == order[block:block + 4]
    # later games go on from the saved position whatever their rng; one pass asks each question once
    pos = tmp_path / "pos3.json"
    rest = [q.id for seed in (9, None, 0, 2) for q in draw_questions(bank, 4, "k", pos, rng=random.Random(seed))]
    assert sorted(firsts[3] + rest) == sorted(order)
    # a position saved before starts were kept (no "start") goes on from the beginning of the order
    old = tmp_path / "old.json"
    old.write_text(json.dumps({"format": "voicegame-wits-position/1",
                               "banks": {"k": {"pass": 1, "asked": order[:4], "position": 4, "size": 20}}}))
    assert [q.id for q in draw_questions(bank, 4, "k", old, rng=random.Random(3))] == order[4:8]


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


def test_validate_draws_nothing_and_the_host_deals_once(bank7):
    settings = Settings(game="wits", options={"players": ["red", "violet"], "questions": str(bank7), "count": 2})
    validate(settings)
    assert settings.options["players"] == ["red", "purple"]
    assert "question_set" not in settings.options and not (data_dir() / "wits_position.json").exists()
    Host(Table(ScriptListener([]), TextVoice(io.StringIO()), VirtualClock(), settings))  # the chance step
    assert settings.options["question_ids"] == ORDER7[:2]
    assert [q["id"] for q in settings.options["question_set"]] == ORDER7[:2]
    position = (data_dir() / "wits_position.json").read_text()
    Host(Table(ScriptListener([]), TextVoice(io.StringIO()), VirtualClock(), settings))  # undo, resume: no new deal
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


def test_play_wits_seats_the_players_as_the_lobby_does(bank7):
    from voicegame.engine.seats import default_seats

    settings = Settings(game="wits", options={"questions": str(bank7)})
    validate(settings)
    assert settings.options["players"] == default_seats(4)  # G3: one default seat order everywhere


def test_a_transition_that_cannot_fire_raises(bank7):
    from voicegame.engine.phases import PhaseError
    from voicegame.games.wits import rules
    from voicegame.games.wits.host import Phase

    settings = Settings(game="wits", options={"players": ["red", "blue"], "questions": str(bank7), "count": 2})
    validate(settings)
    host = Host(Table(ScriptListener([]), TextVoice(io.StringIO()), VirtualClock(), settings))
    with pytest.raises(PhaseError):  # no such transition from the set-up
        host.fire("bets_taken")
    host.machine.set_state(Phase.GUESSES)
    host.q = rules.give_guess(rules.start_question(host.game), "red", 12)
    with pytest.raises(PhaseError):  # the rule predicate says blue has not answered: no silent rerun
        host.fire("guesses_taken")
    assert host.state is Phase.GUESSES


@pytest.mark.parametrize("timer", ["30", "off"])
def test_quit_and_pause_during_a_timer_take_effect_at_once(bank7, tmp_path, timer):
    script = tmp_path / "quit.txt"
    script.write_text("red 10\npause\nresume\nstop the game\nyes, stop the game\n", encoding="utf-8")
    status, out, err = play(bank7, script, tmp_path / "r.json", "--players", "red,blue", "--count", "1",
                            "--timer", timer)
    assert status == 0, err
    lines = out.splitlines()
    i = lines.index("HOST: Red: 10 kilometres.")
    assert lines[i + 1:i + 3] == ["PLAYER: pause", "HOST: The game is paused. Say resume when you want to continue."]
    assert lines[i + 6:i + 8] == ["PLAYER: stop the game",
                                  "HOST: To stop and save this game, say: yes, stop the game. Or say no."]
    assert "Time's up." not in out and "Ten seconds left." not in out  # nothing waited for the timer


def test_undo_on_a_timers_open_floor_asks_whose_input_it_is(bank7, tmp_path):
    """During the guessing timer nobody is asked: a bare "undo" after two players' guesses
    cannot know whose to take back, so it asks; "blue, undo" then takes back Blue's only (G4)."""
    script = tmp_path / "undo.txt"
    script.write_text("red 10\nblue 20\nundo\nblue, undo\nstop the game\nyes, stop the game\n", encoding="utf-8")
    status, out, err = play(bank7, script, tmp_path / "r.json", "--players", "red,blue", "--count", "1")
    assert status == 0, err
    lines = out.splitlines()
    i = lines.index("PLAYER: undo")
    assert lines[i + 1] == "HOST: " + Prompts.load("en").text("common.undo_whose")
    assert lines[i + 2:i + 4] == ["PLAYER: blue, undo", "HOST: Undone. Let's take that step again."]
    assert "HOST: Red: 10 kilometres." in lines[:i] and "HOST: Blue: 20 kilometres." in lines[:i]
    assert "Time's up." not in out


def test_best_bet_is_a_winning_bet_never_a_bonus_alone(bank7, tmp_path):
    """Playtest: with no bet won in the game, the recap said "Best bet: Red won 3 chips on
    question 1." for Red's guess bonus (K7). A bonus alone is no bet: no best-bet line then."""
    script = tmp_path / "s.txt"
    # the first question of seed 7 is the marathon (42.195 km): Red's 40 wins, every bet is on 50
    script.write_text("\n".join(["red 40", "orange 30", "yellow 50", "green 60", "no",
                                 "red both on 50", "orange both on 50",
                                 "yellow both on 50", "green both on 50", "done"]) + "\n", encoding="utf-8")
    status, out, err = play(bank7, script, tmp_path / "r.json", "--count", "1")
    assert status == 0, err
    assert "Red gets 3 bonus chips" in out and "Red wins with 3 chips" in out
    assert "Best bet" not in out
