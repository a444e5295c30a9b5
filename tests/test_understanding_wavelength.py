"""Table-driven tests of the Wavelength understanding: dial moves (W7), calls (W5), turn words (W8)."""

from __future__ import annotations

import pytest

from voicegame.engine.table import NotUnderstood

from voicegame.games.wavelength.intents import (
    LOCK, MOVE, NEGATIVE, SET, WHERE, Call, DialCommand, concept_key, wavelength_understanding,
)

W = wavelength_understanding("en")
LEFT, RIGHT = "Breakfast food", "Cutting-edge"


@pytest.mark.parametrize("said, expected", [
    # plain, small, tiny and big steps (15°, 5°, 1°, 45°)
    ("left", DialCommand(MOVE, -15)),
    ("right", DialCommand(MOVE, 15)),
    ("more left", DialCommand(MOVE, -15)),
    ("to the right", DialCommand(MOVE, 15)),
    ("a little left", DialCommand(MOVE, -5)),
    ("a little bit more to the right", DialCommand(MOVE, 5)),
    ("slightly right", DialCommand(MOVE, 5)),
    ("a tiny bit left", DialCommand(MOVE, -1)),
    ("just a touch right", DialCommand(MOVE, 1)),
    ("way right", DialCommand(MOVE, 45)),
    ("a lot more left", DialCommand(MOVE, -45)),
    # the card's concepts: 0° is the left concept (W1)
    ("more breakfast food", DialCommand(MOVE, -15)),
    ("toward cutting edge", DialCommand(MOVE, 15)),
    ("towards Cutting-edge", DialCommand(MOVE, 15)),
    ("a little more breakfast food", DialCommand(MOVE, -5)),
    ("way more cutting edge", DialCommand(MOVE, 45)),
    ("a tiny bit toward breakfast food", DialCommand(MOVE, -1)),
    ("less breakfast food", DialCommand(MOVE, 15)),
    ("more brekfast food", DialCommand(MOVE, -15)),  # a near miss after "more" is snapped
    # absolute positions
    ("centre", DialCommand(SET, 90)),
    ("center", DialCommand(SET, 90)),
    ("move it back to the middle", DialCommand(SET, 90)),
    ("all the way left", DialCommand(SET, 0)),
    ("all the way to cutting edge", DialCommand(SET, 180)),
    ("all the way breakfast food", DialCommand(SET, 0)),
    # numbers: discouraged by the rulebook, not forbidden (W7)
    ("ten degrees left", DialCommand(MOVE, -10)),
    ("right 3", DialCommand(MOVE, 3)),
    ("three point five degrees right", DialCommand(MOVE, 3.5)),
    ("forty five degrees", DialCommand(SET, 45)),
    ("two hundred degrees", DialCommand(SET, 200)),
    # asking and ending
    ("where is it", DialCommand(WHERE)),
    ("where's the dial", DialCommand(WHERE)),
    ("lock it in", DialCommand(LOCK)),
    ("lock it in please", DialCommand(LOCK)),
    ("okay lock it in", DialCommand(LOCK)),
    # what a table naturally says to lock the dial
    ("lock it", DialCommand(LOCK)),
    ("that's it", DialCommand(LOCK)),
    ("That's it!", DialCommand(LOCK)),
    ("we're done", DialCommand(LOCK)),
    ("done", DialCommand(LOCK)),
    ("okay, done", DialCommand(LOCK)),
    # a move past the end is a move: the host stops it at the edge and says so
    ("left 500", DialCommand(MOVE, -500)),
    # a negative number is refused by the host with a word, never turned into a move
    ("right minus 20", DialCommand(NEGATIVE, -20)),
    ("left minus twenty degrees", DialCommand(NEGATIVE, -20)),
    ("minus ten degrees", DialCommand(NEGATIVE, -10)),
])
def test_dial_commands(said, expected):
    assert W.dial_command(said, LEFT, RIGHT) == expected


@pytest.mark.parametrize("said", [
    "banana", "", "left right", "more breakfast food toward cutting edge", "a little way left",
    "all the way left ten degrees", "hello there left", "less left", "ten degrees twenty",
])
def test_dial_nonsense_is_not_understood(said):
    with pytest.raises(NotUnderstood):
        W.dial_command(said, LEFT, RIGHT)


def test_step_sizes_are_as_documented():
    """The documented steps: tiny 1°, a little 5°, plain 15°, way 45° (W7, fine control to 1°)."""
    sizes = [abs(W.dial_command(s, LEFT, RIGHT).degrees) for s in ("a tiny bit left", "a little left", "left", "way left")]
    assert sizes == [1, 5, 15, 45]


TEAMS = ["Red", "Blue"]


@pytest.mark.parametrize("said, left, right, teams, expected", [
    ("left", LEFT, RIGHT, TEAMS, Call("left", None)),
    ("blue left", LEFT, RIGHT, TEAMS, Call("left", 1)),
    ("blue says right", LEFT, RIGHT, TEAMS, Call("right", 1)),
    ("team blue right", LEFT, RIGHT, TEAMS, Call("right", 1)),
    ("blue team, more breakfast food", LEFT, RIGHT, TEAMS, Call("left", 1)),
    ("red says left", LEFT, RIGHT, TEAMS, Call("left", 0)),
    ("we think it's more cutting edge", LEFT, RIGHT, TEAMS, Call("right", None)),
    ("pass", LEFT, RIGHT, TEAMS, Call(None, None)),
    ("blue pass", LEFT, RIGHT, TEAMS, Call(None, 1)),
    # a concept holding a team's name is the concept, not the team
    ("red carpet", "Red carpet", "Doormat", TEAMS, Call("left", None)),
    ("blue, more red carpet", "Red carpet", "Doormat", TEAMS, Call("left", 1)),
    # team names holding side words (the rulebook's Left Brain and Right Brain)
    ("left brain, left", LEFT, RIGHT, ["Left Brain", "Right Brain"], Call("left", 0)),
    ("right brain more cutting edge", LEFT, RIGHT, ["Left Brain", "Right Brain"], Call("right", 1)),
])
def test_calls(said, left, right, teams, expected):
    assert W.call(said, left, right, teams) == expected


@pytest.mark.parametrize("said", ["blue", "hello", "blue red left", "left right", "", "lock it in"])
def test_call_nonsense_is_not_understood(said):
    with pytest.raises(NotUnderstood):
        W.call(said, LEFT, RIGHT, TEAMS)


@pytest.mark.parametrize("said, other_side, redo", [
    ("other side", True, False), ("flip the card", True, False), ("redo", False, True),
    ("new card", False, True), ("toast", False, False), ("the other side of the moon", False, False),
])
def test_turn_words(said, other_side, redo):
    assert W.is_other_side(said) is other_side
    assert W.is_redo(said) is redo


def test_concept_key_reads_hyphens_as_spaces():
    assert concept_key("Cutting-Edge!") == "cutting edge"
    assert concept_key("Kid's menu") == "kid's menu"


def test_grammars_hold_the_card_concepts_and_plain_sides():
    dial = W.dial_phrases(LEFT, RIGHT)
    assert {"left", "right", "more breakfast food", "toward cutting edge", "lock it in", "where is it"} <= set(dial)
    call = W.call_phrases(LEFT, RIGHT, TEAMS)
    assert {"left", "right", "blue left", "more cutting edge", "pass"} <= set(call)
    assert {"left", "right", "lock", "centre"} <= W.all_words()


@pytest.mark.parametrize("said, degrees", [
    ("put it at eighty", 80), ("set it to 80", 80), ("set the dial to one hundred and twenty degrees", 120),
    ("make it eighty", 80), ("leave it at forty", 40), ("move it to thirty degrees", 30), ("put it on 80", 80),
])
def test_positions_said_with_a_number_and_a_verb(said, degrees):
    """W7: an absolute position with the natural verbs ("set it to eighty")."""
    assert W.dial_command(said, LEFT, RIGHT) == DialCommand(SET, degrees)


def test_the_position_verbs_are_in_the_dial_grammar():
    phrases = W.dial_phrases(LEFT, RIGHT)
    assert "set it to" in phrases and "put it at" in phrases
    assert {"set", "put", "make"} <= W.all_words()
