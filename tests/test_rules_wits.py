"""Tests for voicegame.rules.wits: Wits & Wagers rulings K1–K9."""

from __future__ import annotations

import dataclasses
import json
import math
import random

import pytest
from hypothesis import given, settings, strategies as st

from voicegame.games.wits.rules import (
    CENTRE,
    TOO_HIGH,
    Bet,
    BetBook,
    EmptySlotBet,
    GameOver,
    InvalidAnswer,
    InvalidChips,
    InvalidGuess,
    InvalidPlayers,
    Mat,
    NegativeChips,
    NotEnoughChips,
    QuestionResult,
    Settlement,
    Standing,
    TooManyBets,
    TooManyGuesses,
    UnknownPlayer,
    UnknownSlot,
    WitsGame,
    WrongPlayer,
    apply_question,
    break_tie,
    build_mat,
    check_bets,
    guess_slot_ids,
    new_game,
    open_betting,
    place_bet,
    place_bets,
    settle,
    standings,
    winners,
    winning_slot,
)

COLOURS = ("red", "orange", "yellow", "green", "blue", "purple", "pink")


def placed(mat: Mat) -> dict[int, object]:
    """slot id -> guess, occupied slots only."""
    return {s.id: s.guess for s in mat.occupied()}


# --------------------------------------------------------------------------- mat (K3)


def test_mat_layout_odds_and_sides():
    mat = build_mat({})
    assert [s.id for s in mat.slots] == list(range(8))
    assert [s.odds for s in mat.slots] == [6, 5, 4, 3, 2, 3, 4, 5]
    assert [s.side for s in mat.slots] == [None, "left", "left", "left", "centre", "right", "right", "right"]
    assert mat.slots[TOO_HIGH].is_too_high and mat.slots[CENTRE].odds == 2
    assert mat.occupied() == () and mat.smallest() is None
    assert [s.id for s in mat.bettable()] == [TOO_HIGH]


@pytest.mark.parametrize(
    "guesses, expected",
    [
        ([50], {4: 50}),
        ([60, 10], {3: 10, 5: 60}),
        ([30, 10, 20], {3: 10, 4: 20, 5: 30}),
        ([4, 1, 3, 2], {2: 1, 3: 2, 5: 3, 6: 4}),
        ([5, 4, 3, 2, 1], {2: 1, 3: 2, 4: 3, 5: 4, 6: 5}),
        ([6, 1, 5, 2, 4, 3], {1: 1, 2: 2, 3: 3, 5: 4, 6: 5, 7: 6}),
        ([7, 1, 6, 2, 5, 3, 4], {1: 1, 2: 2, 3: 3, 4: 4, 5: 5, 6: 6, 7: 7}),
        ([2.5, -1, 0.75], {3: -1, 4: 0.75, 5: 2.5}),
    ],
)
def test_mat_placement_distinct(guesses, expected):
    mat = build_mat({COLOURS[i]: g for i, g in enumerate(guesses)})
    assert placed(mat) == expected
    assert mat.slots[TOO_HIGH].guess is None
    for i, g in enumerate(guesses):
        slot = mat.slot(mat.slot_for_guess(g))
        assert slot.players == (COLOURS[i],)


@pytest.mark.parametrize(
    "count, ids",
    [(0, ()), (1, (4,)), (2, (3, 5)), (3, (3, 4, 5)), (4, (2, 3, 5, 6)), (5, (2, 3, 4, 5, 6)),
     (6, (1, 2, 3, 5, 6, 7)), (7, (1, 2, 3, 4, 5, 6, 7))],
)
def test_guess_slot_ids_table(count, ids):
    assert guess_slot_ids(count) == ids


@pytest.mark.parametrize(
    "guesses, expected, shared",
    [
        # all equal: one distinct guess on the centre, everyone shares it
        ({"red": 9, "blue": 9, "pink": 9}, {4: 9}, {4: ("red", "blue", "pink")}),
        # 12 and 12.0 are the same guess: two distinct -> 3-to-1 slots
        ({"red": 12, "blue": 20, "pink": 12.0}, {3: 12, 5: 20}, {3: ("red", "pink"), 5: ("blue",)}),
        # seven players, three distinct guesses -> odd count on the centre
        (
            {"red": 5, "orange": 1, "yellow": 5, "green": 9, "blue": 1, "purple": 9, "pink": 5},
            {3: 1, 4: 5, 5: 9},
            {3: ("orange", "blue"), 4: ("red", "yellow", "pink"), 5: ("green", "purple")},
        ),
        # no-guess players are left off the mat
        ({"red": None, "blue": 3, "pink": None, "green": 8}, {3: 3, 5: 8}, {3: ("blue",), 5: ("green",)}),
    ],
)
def test_mat_placement_equal_guesses(guesses, expected, shared):
    mat = build_mat(guesses)
    assert placed(mat) == expected
    assert {s.id: s.players for s in mat.occupied()} == shared


def test_mat_helpers():
    mat = build_mat({"red": 100, "blue": 20, "green": 50, "pink": 20})
    assert mat.slot_for_guess(20) == 3 and mat.slot_for_guess(20.0) == 3
    assert mat.slot_for_guess(21) is None
    assert mat.slot_of_player("pink") == 3 and mat.slot_of_player("nobody") is None
    assert [s.id for s in mat.slots_with_odds(3)] == [3, 5]
    assert [s.id for s in mat.slots_with_odds(6)] == [TOO_HIGH]
    assert mat.smallest().guess == 20 and mat.smallest().players == ("blue", "pink")
    assert [s.id for s in mat.bettable()] == [TOO_HIGH, 3, 4, 5]
    with pytest.raises(UnknownSlot) as err:
        mat.slot(8)
    assert err.value.slot_id == 8


def test_mat_rejects_more_than_seven_distinct_guesses():
    with pytest.raises(TooManyGuesses) as err:
        build_mat({f"p{i}": i for i in range(8)})
    assert err.value.count == 8
    with pytest.raises(TooManyGuesses):
        guess_slot_ids(8)


@pytest.mark.parametrize("bad", [math.nan, math.inf, -math.inf, "12", True])
def test_mat_rejects_non_numbers(bad):
    with pytest.raises(InvalidGuess) as err:
        build_mat({"red": 1, "blue": bad})
    assert err.value.player == "blue"


@settings(derandomize=True, max_examples=200, deadline=None)
@given(st.lists(st.integers(-50, 50) | st.floats(-50, 50, allow_nan=False), min_size=0, max_size=7))
def test_mat_placement_properties(values):
    guesses = {COLOURS[i]: v for i, v in enumerate(values)}
    distinct = sorted(set(values))
    if len(distinct) > 7:
        return
    mat = build_mat(guesses)
    occupied = mat.occupied()
    assert [s.guess for s in occupied] == distinct  # ascending, left to right, equal share
    assert sorted(p for s in occupied for p in s.players) == sorted(guesses)
    assert (mat.slots[CENTRE].guess is not None) == (len(distinct) % 2 == 1)
    ids = [s.id for s in occupied]
    if ids:  # contiguous around the centre, skipping it only for even counts
        left = [i for i in ids if i < CENTRE]
        right = [i for i in ids if i > CENTRE]
        assert abs(len(left) - len(right)) == 0
        assert left == list(range(CENTRE - len(left), CENTRE))
        assert right == list(range(CENTRE + 1, CENTRE + 1 + len(right)))


# --------------------------------------------------------------------------- winner (K5, K9)


def test_k9_answer_14_guesses_12_and_15():
    mat = build_mat({"red": 12, "blue": 15})
    assert mat.slot(winning_slot(mat, 14)).guess == 12


def test_k9_answer_2008_2004_beats_2009():
    mat = build_mat({"red": 2009, "blue": 2004, "green": 1990})
    assert mat.slot(winning_slot(mat, 2008)).guess == 2004


def test_k9_answer_380_smallest_guess_389_too_high_wins():
    mat = build_mat({"red": 389, "blue": 400, "green": 1000})
    assert mat.smallest().guess == 389
    assert winning_slot(mat, 380) == TOO_HIGH


@pytest.mark.parametrize(
    "answer, winner",
    [(10, 10), (10.0, 10), (9.99, TOO_HIGH), (1e9, 30), (29.5, 20), (20, 20)],
)
def test_winning_slot_exact_answer_counts_and_largest_not_exceeding(answer, winner):
    mat = build_mat({"red": 10, "blue": 20, "green": 30})
    expected = TOO_HIGH if winner == TOO_HIGH else mat.slot_for_guess(winner)
    assert winning_slot(mat, answer) == expected


def test_winning_slot_no_guesses_is_too_high_and_bad_answer_raises():
    assert winning_slot(build_mat({"red": None}), 5) == TOO_HIGH
    with pytest.raises(InvalidAnswer):
        winning_slot(build_mat({"red": 1}), math.nan)


# --------------------------------------------------------------------------- payouts (K6) and bonus (K7)


def _mat_10_20_30():
    # 10 -> slot 3 (3:1), 20 -> slot 4 (2:1), 30 -> slot 5 (3:1)
    return build_mat({"red": 10, "blue": 20, "green": 30})


def test_winning_bet_pays_k_times_one_plus_c_and_returns_chips():
    mat = _mat_10_20_30()
    s = settle(mat, [Bet("red", 4, 5)], 25, {"red": 5, "blue": 0, "green": 0})
    assert s.winning_slot == 4
    red = s.of("red")
    assert (red.won, red.returned, red.lost, red.payout, red.bonus) == (2 * 6, 5, 0, 17, 0)
    assert red.chips_after == 5 + 12 and red.delta == 12
    assert s.of("blue").bonus == 3 and s.of("blue").chips_after == 3  # blue's guess won
    assert s.bank_delta == -(12 + 3)


def test_bare_token_on_winning_slot_wins_k():
    mat = _mat_10_20_30()
    s = settle(mat, [Bet("green", 3, 0)], 15, {"red": 0, "blue": 0, "green": 0})
    assert s.of("green").won == 3 and s.of("green").chips_after == 3
    assert s.of("red").bonus == 3 and s.of("red").chips_after == 3


def test_losing_bet_goes_to_bank_token_comes_back():
    mat = _mat_10_20_30()
    s = settle(mat, [Bet("red", 5, 4)], 25, {"red": 10, "blue": 0, "green": 0})
    red = s.of("red")
    assert (red.won, red.returned, red.lost, red.chips_after) == (0, 0, 4, 6)
    assert s.bank_taken_in == 4 and s.bank_paid_out == 3 and s.bank_delta == 1


def test_split_bets_one_wins_one_loses():
    mat = _mat_10_20_30()
    bets = [Bet("blue", 3, 2), Bet("blue", 5, 7)]
    s = settle(mat, bets, 12, {"red": 0, "blue": 10, "green": 0})
    blue = s.of("blue")
    assert (blue.staked, blue.won, blue.returned, blue.lost) == (9, 3 * 3, 2, 7)
    assert blue.chips_after == 10 - 7 + 9


def test_both_tokens_on_one_slot_pay_separately():
    mat = _mat_10_20_30()
    bets = [Bet("blue", 4, 1), Bet("blue", 4, 3)]
    s = settle(mat, bets, 20, {"red": 0, "blue": 4, "green": 0})
    blue = s.of("blue")
    assert blue.won == 2 * (1 + 1) + 2 * (1 + 3) == 12  # two tokens: k counted twice
    assert blue.returned == 4 and blue.bonus == 3 and blue.chips_after == 4 + 12 + 3


def test_too_high_pays_six_to_one_and_no_bonus():
    mat = build_mat({"red": 389, "blue": 400})
    s = settle(mat, [Bet("red", TOO_HIGH, 2), Bet("blue", 3, 2)], 380, {"red": 2, "blue": 2})
    assert s.winning_slot == TOO_HIGH
    assert s.of("red").won == 6 * 3 and s.of("red").chips_after == 2 + 18
    assert s.bonuses == {"red": 0, "blue": 0}
    assert s.of("blue").chips_after == 0


def test_bonus_only_for_winning_slot_guessers_and_only_once():
    mat = build_mat({"red": 7, "blue": 7, "green": 9, "pink": 3})
    bets = [Bet("pink", 4, 0), Bet("pink", 4, 0), Bet("red", 3, 0)]
    s = settle(mat, bets, 8, {"red": 0, "blue": 0, "green": 0, "pink": 0})
    assert s.winning_slot == CENTRE and mat.slot(CENTRE).players == ("red", "blue")
    assert s.bonuses == {"red": 3, "blue": 3, "green": 0, "pink": 0}
    assert s.payouts == {"red": 0, "blue": 0, "green": 0, "pink": 2 + 2}
    assert s.chips_after == {"red": 3, "blue": 3, "green": 0, "pink": 4}


def test_settle_revalidates_bets():
    mat = _mat_10_20_30()
    with pytest.raises(NotEnoughChips):
        settle(mat, [Bet("red", 3, 5)], 10, {"red": 4, "blue": 0, "green": 0})
    with pytest.raises(UnknownPlayer):
        settle(mat, [Bet("gold", 3, 0)], 10, {"red": 4, "blue": 0, "green": 0})
    with pytest.raises(UnknownPlayer):  # a guesser who is not a player
        settle(mat, [], 10, {"red": 4, "blue": 0})


# --------------------------------------------------------------------------- bets (K4)


def _book():
    return open_betting(_mat_10_20_30(), ("red", "blue", "green"))


def test_place_bets_replaces_and_withdraws():
    book = _book()
    b1 = place_bets(book, "red", [Bet("red", 3, 1), Bet("red", 3, 2)], 3)
    assert b1.bets_of("red") == (Bet("red", 3, 1), Bet("red", 3, 2))
    assert book.bets == ()  # original unchanged (undo, G4)
    b2 = place_bets(b1, "blue", [Bet("blue", TOO_HIGH, 0)], 0)
    b3 = place_bets(b2, "red", [Bet("red", 5, 3)], 3)
    assert b3.bets_of("red") == (Bet("red", 5, 3),) and b3.bets_of("blue") == (Bet("blue", 0, 0),)
    assert place_bets(b3, "red", [], 3).bets_of("red") == ()


def test_place_bet_adds_one_token():
    book = place_bet(_book(), Bet("green", 4, 1), 2)
    book = place_bet(book, Bet("green", 5, 1), 2)
    assert book.bets_of("green") == (Bet("green", 4, 1), Bet("green", 5, 1))
    with pytest.raises(TooManyBets) as err:
        place_bet(book, Bet("green", 3, 0), 2)
    assert (err.value.count, err.value.player) == (3, "green")
    with pytest.raises(NotEnoughChips) as err:
        place_bet(place_bet(_book(), Bet("green", 4, 2), 3), Bet("green", 3, 2), 3)
    assert (err.value.asked, err.value.held) == (4, 3)


def test_bet_errors_carry_fields():
    book = _book()
    with pytest.raises(EmptySlotBet) as err:  # 3 guesses fill slots 3, 4, 5; slot 1 is empty
        place_bets(book, "red", [Bet("red", 1, 0)], 0)
    assert err.value.slot_id == 1
    with pytest.raises(UnknownSlot) as err:
        place_bets(book, "red", [Bet("red", 8, 0)], 0)
    assert err.value.slot_id == 8
    with pytest.raises(UnknownSlot):
        place_bets(book, "red", [Bet("red", "centre", 0)], 0)
    with pytest.raises(TooManyBets) as err:
        place_bets(book, "red", [Bet("red", 3, 0)] * 3, 0)
    assert err.value.count == 3
    with pytest.raises(NotEnoughChips) as err:
        place_bets(book, "red", [Bet("red", 3, 4), Bet("red", 4, 3)], 6)
    assert (err.value.asked, err.value.held, err.value.player) == (7, 6, "red")
    with pytest.raises(NegativeChips) as err:
        place_bets(book, "red", [Bet("red", 3, -1)], 6)
    assert err.value.chips == -1
    with pytest.raises(InvalidChips):
        place_bets(book, "red", [Bet("red", 3, 1.5)], 6)
    with pytest.raises(NegativeChips):
        place_bets(book, "red", [], -1)
    with pytest.raises(UnknownPlayer) as err:
        place_bets(book, "gold", [Bet("gold", 3, 0)], 0)
    assert err.value.player == "gold"
    with pytest.raises(WrongPlayer) as err:
        place_bets(book, "red", [Bet("blue", 3, 0)], 0)
    assert (err.value.expected, err.value.got) == ("red", "blue")
    assert all(issubclass(e, ValueError) for e in (EmptySlotBet, UnknownSlot, TooManyBets, NotEnoughChips,
                                                     NegativeChips, UnknownPlayer, WrongPlayer))


def test_even_count_centre_is_empty_and_not_bettable():
    mat = build_mat({"red": 1, "blue": 2})
    with pytest.raises(EmptySlotBet) as err:
        check_bets(mat, "red", [Bet("red", CENTRE, 0)], 0)
    assert err.value.slot_id == CENTRE
    assert check_bets(mat, "red", [Bet("red", TOO_HIGH, 0), Bet("red", 5, 0)], 0) == (
        Bet("red", TOO_HIGH, 0), Bet("red", 5, 0))


# --------------------------------------------------------------------------- game (K1, K8)


def test_new_game_and_player_count():
    game = new_game(["red", "blue"])
    assert game.chips == {"red": 0, "blue": 0} and game.questions == 7 and game.question_index == 0
    assert new_game(COLOURS, questions=3).questions == 3
    for bad, reason in ((["red"], "count"), (list(COLOURS) + ["white"], "count"),
                        (["red", "red"], "duplicate"), (["red", ""], "name")):
        with pytest.raises(InvalidPlayers) as err:
            new_game(bad)
        assert err.value.reason == reason
    with pytest.raises(ValueError):
        new_game(["red", "blue"], questions=0)


def test_apply_question_records_and_advances():
    game = new_game(["red", "blue", "green"], questions=2)
    game, r1 = apply_question(game, {"red": 12, "blue": 15}, [Bet("green", 3, 0), Bet("blue", 5, 0)], 14)
    assert r1.number == 1 and r1.guesses == {"red": 12, "blue": 15, "green": None}
    assert r1.winning_slot == 3 and r1.mat.slot(3).guess == 12
    assert game.chips == {"red": 3, "blue": 0, "green": 3}
    assert game.question_index == 1 and game.history == (r1,)
    game, r2 = apply_question(game, {"red": 1, "blue": 2, "green": 3},
                              [Bet("red", TOO_HIGH, 3), Bet("green", 5, 3)], 0.5)
    assert r2.winning_slot == TOO_HIGH
    assert game.chips == {"red": 3 - 3 + 3 + 6 * (1 + 3), "blue": 0, "green": 0}
    assert game.is_over
    with pytest.raises(GameOver):
        apply_question(game, {}, [], 1)


def test_apply_question_rejects_unknown_guesser_and_overbet():
    game = new_game(["red", "blue"])
    with pytest.raises(UnknownPlayer):
        apply_question(game, {"gold": 1}, [], 1)
    with pytest.raises(NotEnoughChips):
        apply_question(game, {"red": 1}, [Bet("red", 4, 1)], 1)


def _game_with_chips(chips: dict[str, int]) -> WitsGame:
    return dataclasses.replace(new_game(list(chips)), chips=dict(chips), question_index=7)


def test_standings_and_winners_k8():
    game = _game_with_chips({"red": 5, "blue": 9, "green": 9, "pink": 1})
    assert standings(game) == [Standing(1, "blue", 9), Standing(1, "green", 9),
                               Standing(3, "red", 5), Standing(4, "pink", 1)]
    assert winners(game) == ["blue", "green"]
    assert winners(_game_with_chips({"red": 5, "blue": 2})) == ["red"]


def test_break_tie_youngest_k8():
    assert break_tie(["blue", "green"], "green") == "green"
    with pytest.raises(UnknownPlayer) as err:
        break_tie(["blue", "green"], "red")
    assert err.value.player == "red"


def test_json_round_trip():
    game = new_game(["red", "blue", "green"])
    game, _ = apply_question(game, {"red": 2.5, "blue": 2.5, "green": 9}, [Bet("red", 3, 0)], 3)
    game, _ = apply_question(game, {"red": 100, "blue": None, "green": 4}, [Bet("red", 5, 3), Bet("green", 3, 0)], 50)
    assert game.question_index == 2 and game.chips == {"red": 6 - 3, "blue": 3, "green": 0 + 3 + 3}
    data = json.loads(json.dumps(dataclasses.asdict(game)))
    assert WitsGame.from_dict(data) == game
    result = game.history[-1]
    assert QuestionResult.from_dict(json.loads(json.dumps(dataclasses.asdict(result)))) == result
    assert Settlement.from_dict(dataclasses.asdict(result.settlement)) == result.settlement
    book = place_bets(open_betting(result.mat, game.players), "red", [Bet("red", 3, 1)], 3)
    assert BetBook.from_dict(json.loads(json.dumps(dataclasses.asdict(book)))) == book


# --------------------------------------------------------------------------- random play (money conserved)


def _random_bets(rng: random.Random, mat: Mat, player: str, held: int) -> list[Bet]:
    slots = [s.id for s in mat.bettable()]
    n = rng.choice((0, 1, 2, 2, 2))
    bets = []
    left = held
    for _ in range(n):
        c = rng.randint(0, left) if rng.random() < 0.7 else 0
        left -= c
        bets.append(Bet(player, rng.choice(slots), c))
    return bets


def test_random_play_conserves_chips_and_never_goes_negative():
    rng = random.Random(20240607)
    played = 0
    while played < 3000:
        players = rng.sample(COLOURS, rng.randint(2, 7))
        game = new_game(players)
        while not game.is_over:
            pool = [rng.randint(0, 20) for _ in range(rng.randint(1, 4))] + [rng.uniform(0, 20)]
            guesses = {p: (None if rng.random() < 0.1 else rng.choice(pool)) for p in players}
            mat = build_mat(guesses)
            book = open_betting(mat, game.players)
            for p in players:
                book = place_bets(book, p, _random_bets(rng, mat, p, game.chips[p]), game.chips[p])
            answer = rng.choice([rng.uniform(-5, 25), rng.choice(pool)])
            before = dict(game.chips)
            game, result = apply_question(game, guesses, book.bets, answer)
            s = result.settlement
            deltas = sum(game.chips[p] - before[p] for p in players)
            assert deltas + s.bank_delta == 0
            assert s.bank_delta == s.bank_taken_in - s.bank_paid_out
            assert all(c >= 0 for c in game.chips.values())
            assert s.winning_slot == TOO_HIGH or mat.slot(s.winning_slot).guess <= answer
            for entry in s.players:
                assert entry.chips_after == entry.chips_before - entry.lost + entry.won + entry.bonus
                assert entry.bonus == (3 if s.winning_slot != TOO_HIGH
                                       and entry.player in mat.slot(s.winning_slot).players else 0)
            played += 1
        assert len(game.history) == 7


# --------------------------------------------------------------------------- the question in play


def test_the_question_in_play_changes_only_through_rule_actions():
    from voicegame.games.wits import rules

    game = rules.new_game(("red", "blue", "green"))
    q = rules.start_question(game)
    assert q.number == 1 and rules.waiting_guessers(q) == ("red", "blue", "green") and q.mat is None
    q1 = rules.give_guess(q, "blue", 15)
    assert q.guesses == {} and q1.guesses == {"blue": 15} and q1.last == "blue"  # a new state each time
    q2 = rules.give_guess(rules.give_guess(q1, "red", 12), "red", 14)  # a second guess replaces the first (G4)
    assert q2.guesses == {"blue": 15, "red": 14} and not rules.all_guessed(q2)
    q3 = rules.give_guess(q2, "green", None)
    assert rules.all_guessed(q3)
    with pytest.raises(rules.UnknownPlayer):
        rules.give_guess(q3, "pink", 3)
    with pytest.raises(rules.BettingNotOpen):
        rules.give_bets(q3, "red", (), 0)
    mat = rules.open_mat(q3)
    assert [s.guess for s in mat.mat.occupied()] == [14, 15] and mat.seated_guesses()["green"] is None
    with pytest.raises(rules.GuessingClosed):
        rules.give_guess(mat, "green", 20)
    b = rules.give_bets(mat, "red", (rules.Bet("red", 3, 0), rules.Bet("red", 3, 0)), 0)
    assert rules.waiting_bettors(b) == ("blue", "green") and not rules.all_bet(b)
    b = rules.give_bets(rules.give_bets(b, "blue", (), 0), "green", (rules.Bet("green", 0, 0),), 0)
    assert rules.all_bet(b)
    with pytest.raises(rules.NotEnoughChips):
        rules.give_bets(b, "blue", (rules.Bet("blue", 5, 2),), 0)
    game2, result = rules.settle_question(game, b, 14)
    assert result.winning_slot == 3 and game2.chips == {"red": 9, "blue": 0, "green": 0}
