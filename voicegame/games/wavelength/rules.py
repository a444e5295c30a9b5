"""Wavelength rules, pure (standard library only): geometry, scoring, turn order, catch-up,
sudden death, co-op, the turn in progress and the chance steps (rulings W1–W9, docs/rulings.md).

State is plain dataclasses (``dataclasses.asdict`` is JSON-ready); functions return new
states. A team turn::

    card, deck = draw_card(deck, rng)                      # chance
    turn = start_turn(game, attempt, card, draw_target(rng))   # chance: W3; Psychic: W4, W6
    turn = give_clue(turn, clue); turn, _ = move_dial(turn, -15)  # W7
    turn = make_call(turn, "left", other_team(turn.team))       # W5
    game, score = score_turn(game, turn.dial, turn.target, turn.call)   # W2, W4–W6

Angles are degrees: 0° is the card's left concept, 180° its right (W1).
"""

from __future__ import annotations

import copy
import math
import random
from dataclasses import dataclass, field, replace
from typing import Any, Sequence

__all__ = [
    "DIAL_MIN", "DIAL_MAX", "DIAL_START", "WEDGE_WIDTH", "EDGE_TOLERANCE",
    "CALLS", "LEFT", "RIGHT",
    "REASON_WEDGE", "REASON_CALL", "REASON_CALL_CANCELLED",
    "RATING_BANDS", "COOP_CARDS",
    "WavelengthError", "IllegalCall", "OutOfRange", "InvalidSetup", "GameOver",
    "clamp_dial", "draw_target", "wedge_points", "call_is_correct",
    "Award", "TurnRecord", "TurnScore", "TeamGame",
    "new_team_game", "other_team", "current_psychic", "score_turn", "redo_turn",
    "CoopTurnRecord", "CoopTurnScore", "CoopGame",
    "new_coop_game", "coop_psychic", "score_coop_turn", "redo_coop_turn", "rating_band",
    "IllegalMove", "Deck", "new_deck", "draw_card", "TurnState", "start_turn", "turn_card_over",
    "give_clue", "move_dial", "set_dial", "may_call", "make_call",
]

# --- constants (W1, W2) -----------------------------------------------------

DIAL_MIN = 0.0
"""Degrees at the card's left concept (W1)."""
DIAL_MAX = 180.0
"""Degrees at the card's right concept (W1)."""
DIAL_START = 90.0
"""Where the dial stands at the start of each turn, degrees (W1)."""
WEDGE_WIDTH = 9.0
"""Width of each of the five target wedges, degrees (W2)."""
EDGE_TOLERANCE = 1e-9
"""Degrees. A distance this close to a wedge edge counts as *on* the edge, so
floating-point noise (``23.8 - 10.3 == 13.500000000000002``) never costs the
Psychic's team the better result (W2 edge rule)."""

LEFT = "left"
RIGHT = "right"
CALLS = (LEFT, RIGHT)
"""The legal left/right calls (W5), in the words the rules use."""

REASON_WEDGE = "wedge"
"""Award reason: points of the Psychic's team from the dial's wedge (W2)."""
REASON_CALL = "call"
"""Award reason: the other team's left/right call, 1 if correct else 0 (W5)."""
REASON_CALL_CANCELLED = "call_cancelled_by_4"
"""Award reason: the call scores 0 because the Psychic's team scored 4 (W5)."""

COOP_CARDS = 7
"""Cards dealt at the start of a co-op game (W9)."""

RATING_BANDS: tuple[tuple[int, int | None], ...] = (
    (0, 3), (4, 6), (7, 9), (10, 12), (13, 15), (16, 18), (19, 21), (22, 24), (25, None),
)
"""Co-op rating table of the rulebook (W9): ``(low, high)`` points, inclusive;
``None`` = no upper bound. The band's index is the key for the host's prompt."""


# --- errors ----------------------------------------------------------------

class WavelengthError(ValueError):
    """Base of every error raised by these rules."""


class IllegalCall(WavelengthError):
    """A left/right call that is not ``"left"``/``"right"``, or made by the
    Psychic's own team (W5)."""


class OutOfRange(WavelengthError):
    """A dial or target outside [0°, 180°] or not a finite number (W1), or a
    negative co-op score for :func:`rating_band`."""


class InvalidSetup(WavelengthError):
    """A game cannot be created with these parameters (team count, target
    score, first team, player counts, card count)."""


class GameOver(WavelengthError):
    """The game is finished: no more turns can be scored or redone (W4, W9)."""


class IllegalMove(WavelengthError):
    """A turn action that is not allowed now: the card turned over twice, a clue
    given twice, a call made twice."""


# --- geometry and scoring (W1–W3, W5, W9) ----------------------------------

def _check_angle(name: str, deg: float) -> float:
    try:
        value = float(deg)
    except (TypeError, ValueError) as exc:
        raise OutOfRange(f"{name} must be a number of degrees, got {deg!r}") from exc
    if not math.isfinite(value) or not DIAL_MIN <= value <= DIAL_MAX:
        raise OutOfRange(f"{name} must be within [{DIAL_MIN}, {DIAL_MAX}] degrees, got {deg!r}")
    return value


def clamp_dial(deg: float) -> tuple[float, bool]:
    """Keep a dial position on the device (W1).

    :param deg: wanted dial position, degrees (may be outside the range after a
        relative move such as "way right").
    :returns: ``(position, hit_edge)``: the position clamped to
        [``DIAL_MIN``, ``DIAL_MAX``] degrees, and True iff it had to be clamped
        (the move was stopped by an end of the dial). A position exactly at
        0° or 180° is not clamped.
    :raises OutOfRange: ``deg`` is NaN or not a number.
    """
    try:
        value = float(deg)
    except (TypeError, ValueError) as exc:
        raise OutOfRange(f"dial must be a number of degrees, got {deg!r}") from exc
    if math.isnan(value):
        raise OutOfRange("dial must be a number of degrees, got NaN")
    if value < DIAL_MIN:
        return DIAL_MIN, True
    if value > DIAL_MAX:
        return DIAL_MAX, True
    return value, False


def draw_target(rng: random.Random) -> float:
    """Spin the wheel: a target centre drawn uniformly in [0°, 180°], to the nearest whole
    degree (W3).

    The chance step of a turn. Whole degrees, like the dial (:func:`set_dial`), so
    what the host says is exactly what is scored (W1: angles are spoken as whole degrees).

    :param rng: the injected random source (seed it in tests).
    :returns: target centre, degrees, a whole number as a float.
    """
    return float(round(rng.uniform(DIAL_MIN, DIAL_MAX)))


def wedge_points(dial_deg: float, target_deg: float, coop: bool = False) -> int:
    """Points of the Psychic's team for where the dial stands (W2; W9 for co-op).

    With ``d = |dial − target centre|``: 4 if ``d ≤ 4.5°``, 3 if ``d ≤ 13.5°``,
    2 if ``d ≤ 22.5°``, else 0. A dial on an edge scores the better result
    (W2), within ``EDGE_TOLERANCE``. In co-op (W9) the centre wedge scores 3.

    :param dial_deg: final dial position, degrees in [0, 180].
    :param target_deg: target centre, degrees in [0, 180].
    :param coop: True for the cooperative mode (W9).
    :returns: 0, 2, 3 or 4 (co-op: 0, 2 or 3).
    :raises OutOfRange: either angle outside [0°, 180°] or not finite.
    """
    d = abs(_check_angle("dial", dial_deg) - _check_angle("target", target_deg))
    if d <= WEDGE_WIDTH / 2 + EDGE_TOLERANCE:
        return 3 if coop else 4
    if d <= WEDGE_WIDTH * 1.5 + EDGE_TOLERANCE:
        return 3
    if d <= WEDGE_WIDTH * 2.5 + EDGE_TOLERANCE:
        return 2
    return 0


def _check_call(call: str) -> str:
    if call not in CALLS:
        raise IllegalCall(f"a call is 'left' or 'right', got {call!r}")
    return call


def call_is_correct(call: str, dial_deg: float, target_deg: float) -> bool:
    """Whether a left/right call is right (W5).

    ``"left"`` is correct iff the target centre is left of the dial
    (``target < dial``), ``"right"`` iff it is right of it. A target exactly
    under the dial makes neither call correct (and scores 4 anyway, W2/W5).

    :param call: ``"left"`` or ``"right"``.
    :param dial_deg: final dial position, degrees in [0, 180].
    :param target_deg: target centre, degrees in [0, 180].
    :raises IllegalCall: ``call`` is not one of :data:`CALLS`.
    :raises OutOfRange: either angle outside [0°, 180°] or not finite.
    """
    _check_call(call)
    dial = _check_angle("dial", dial_deg)
    target = _check_angle("target", target_deg)
    return target < dial if call == LEFT else target > dial


# --- team game records -----------------------------------------------------

@dataclass
class Award:
    """Points given to one team in one turn, and why.

    :param team: team index (0 or 1).
    :param points: points given (may be 0: a wrong or cancelled call, a miss).
    :param reason: :data:`REASON_WEDGE`, :data:`REASON_CALL` or
        :data:`REASON_CALL_CANCELLED`.
    """

    team: int
    points: int
    reason: str

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "Award":
        """Rebuild from ``dataclasses.asdict`` output."""
        return cls(team=int(d["team"]), points=int(d["points"]), reason=str(d["reason"]))


@dataclass
class TurnRecord:
    """Everything a recap needs about one scored team turn (W2, W4–W6).

    :param turn: 1-based number of the turn in the game.
    :param team: index of the Psychic's team.
    :param psychic: Psychic number within that team (see :func:`current_psychic`).
    :param target: target centre, degrees.
    :param dial: final dial, degrees.
    :param call: ``"left"``, ``"right"`` or None (no call made).
    :param calling_team: index of the team that called, None if no call.
    :param call_correct: whether the call was right (even if cancelled by a 4);
        None if no call.
    :param points: points gained by each team this turn, by team index.
    :param awards: the points and their reasons.
    :param scores_after: each team's score after this turn.
    :param catch_up: this turn was a catch-up turn (W6).
    :param catch_up_follows: this turn earned a catch-up turn (W6).
    :param sudden_death: this turn was a sudden-death turn (W4).
    :param sudden_death_round: 1-based sudden-death round of this turn, 0 if none.
    """

    turn: int
    team: int
    psychic: int
    target: float
    dial: float
    call: str | None
    calling_team: int | None
    call_correct: bool | None
    points: list[int]
    awards: list[Award]
    scores_after: list[int]
    catch_up: bool = False
    catch_up_follows: bool = False
    sudden_death: bool = False
    sudden_death_round: int = 0

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "TurnRecord":
        """Rebuild from ``dataclasses.asdict`` output (or its JSON round trip)."""
        data = dict(d)
        data["points"] = [int(p) for p in d["points"]]
        data["scores_after"] = [int(s) for s in d["scores_after"]]
        data["awards"] = [Award.from_dict(a) for a in d["awards"]]
        data["target"] = float(d["target"])
        data["dial"] = float(d["dial"])
        return cls(**data)


@dataclass
class TurnScore:
    """What :func:`score_turn` tells the host about the turn just scored.

    :param record: the :class:`TurnRecord` appended to the game.
    :param wedge_points: points of the Psychic's team from the dial (W2).
    :param points: points gained by each team this turn, by team index.
    :param scores: each team's score after the turn.
    :param catch_up: the same team plays again at once, with a new Psychic (W6).
    :param sudden_death_starts: the game reached the target score on a tie:
        sudden death begins with the next turn (W4).
    :param sudden_death_continues: a sudden-death round ended tied: another
        round follows (W4).
    :param sudden_death_round_over: this turn completed a sudden-death round.
    :param in_sudden_death: the next turn (if any) is a sudden-death turn.
    :param sudden_death_round: the round the next turn belongs to (0 if none).
    :param game_over: no more turns (W4).
    :param winner: index of the winning team once the game is over, else None.
    :param next_team: index of the team whose Psychic plays next, None if over.
    """

    record: TurnRecord
    wedge_points: int
    points: list[int]
    scores: list[int]
    catch_up: bool
    sudden_death_starts: bool
    sudden_death_continues: bool
    sudden_death_round_over: bool
    in_sudden_death: bool
    sudden_death_round: int
    game_over: bool
    winner: int | None
    next_team: int | None


@dataclass
class TeamGame:
    """State of a two-team game (W4–W6, W8). Change it only through
    :func:`score_turn` and :func:`redo_turn`, which return new states.

    :param team_names: the two team names (colours by default, G3).
    :param scores: points of each team, by index. The team playing first starts
        at 0, the other at 1 (W4).
    :param target_score: reaching it ends the game after that turn (W4).
    :param first_team: index of the team that played first.
    :param current_team: index of the team whose Psychic plays the current turn.
    :param psychic_turns: per team, how many turns its Psychics have played;
        drives the Psychic rotation (:func:`current_psychic`).
    :param players_per_team: per team, its number of players, to wrap the
        Psychic rotation; None = number Psychics 1, 2, 3… without bound.
    :param turns: one :class:`TurnRecord` per scored turn, in order.
    :param catch_up_turn: the current turn is a catch-up turn (W6).
    :param sudden_death: the game is in sudden death (W4); stays True once a
        game decided in sudden death is finished.
    :param sudden_death_round: current (or deciding) sudden-death round,
        1-based; 0 if none.
    :param sudden_death_points: points of each team in the current
        sudden-death round (the call included).
    :param sudden_death_played: per team, whether it has played its turn in the
        current sudden-death round.
    :param redos: how many turns were restarted (W8), for the recap.
    :param finished: the game is over.
    :param winner: index of the winning team when finished, else None.
    """

    team_names: list[str]
    scores: list[int]
    target_score: int = 10
    first_team: int = 0
    current_team: int = 0
    psychic_turns: list[int] = field(default_factory=lambda: [0, 0])
    players_per_team: list[int] | None = None
    turns: list[TurnRecord] = field(default_factory=list)
    catch_up_turn: bool = False
    sudden_death: bool = False
    sudden_death_round: int = 0
    sudden_death_points: list[int] = field(default_factory=lambda: [0, 0])
    sudden_death_played: list[bool] = field(default_factory=lambda: [False, False])
    redos: int = 0
    finished: bool = False
    winner: int | None = None

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "TeamGame":
        """Rebuild from ``dataclasses.asdict`` output (or its JSON round trip)."""
        data = dict(d)
        data["team_names"] = [str(n) for n in d["team_names"]]
        data["scores"] = [int(s) for s in d["scores"]]
        data["psychic_turns"] = [int(n) for n in d["psychic_turns"]]
        ppt = d.get("players_per_team")
        data["players_per_team"] = None if ppt is None else [int(n) for n in ppt]
        data["turns"] = [TurnRecord.from_dict(t) for t in d.get("turns", [])]
        data["sudden_death_points"] = [int(p) for p in d["sudden_death_points"]]
        data["sudden_death_played"] = [bool(p) for p in d["sudden_death_played"]]
        return cls(**data)


# --- team game functions ---------------------------------------------------

def _players_list(players_per_team: int | Sequence[int] | None) -> list[int] | None:
    if players_per_team is None:
        return None
    if isinstance(players_per_team, bool):
        raise InvalidSetup("players_per_team must be a whole number or one per team")
    if isinstance(players_per_team, int):
        counts = [players_per_team, players_per_team]
    else:
        counts = list(players_per_team)
    if len(counts) != 2 or any(isinstance(n, bool) or not isinstance(n, int) or n < 1 for n in counts):
        raise InvalidSetup(
            f"players_per_team must be a whole number ≥ 1 or two of them, got {players_per_team!r}")
    return counts


def new_team_game(
    team_names: Sequence[str],
    target_score: int = 10,
    first_team: int = 0,
    players_per_team: int | Sequence[int] | None = None,
) -> TeamGame:
    """Set up a two-team game (W4).

    The team at ``first_team`` plays first and starts at 0 points; the other
    starts at 1 (W4). The dial starting position is :data:`DIAL_START` (W1).

    :param team_names: exactly two distinct, non-empty names.
    :param target_score: points that end the game, ≥ 2 (the second team starts
        at 1). Default 10 (W4).
    :param first_team: 0 or 1.
    :param players_per_team: optional player count, one for both teams or one
        per team, to wrap the Psychic rotation (:func:`current_psychic`).
    :raises InvalidSetup: any parameter outside these limits.
    """
    names = list(team_names)
    if len(names) != 2:
        raise InvalidSetup(f"Wavelength is played by exactly two teams, got {len(names)}")
    if any(not isinstance(n, str) or not n.strip() for n in names) or names[0] == names[1]:
        raise InvalidSetup(f"team names must be two distinct non-empty strings, got {names!r}")
    if isinstance(target_score, bool) or not isinstance(target_score, int) or target_score < 2:
        raise InvalidSetup(f"target_score must be a whole number ≥ 2, got {target_score!r}")
    if first_team not in (0, 1) or isinstance(first_team, bool):
        raise InvalidSetup(f"first_team must be 0 or 1, got {first_team!r}")
    scores = [1, 1]
    scores[first_team] = 0
    return TeamGame(
        team_names=names,
        scores=scores,
        target_score=target_score,
        first_team=first_team,
        current_team=first_team,
        players_per_team=_players_list(players_per_team),
    )


def other_team(team: int) -> int:
    """The index of the other team (the one making the left/right call, W5).

    :raises InvalidSetup: ``team`` is not 0 or 1.
    """
    if team not in (0, 1) or isinstance(team, bool):
        raise InvalidSetup(f"team index must be 0 or 1, got {team!r}")
    return 1 - team


def _psychic_number(game: TeamGame, team: int, players: list[int] | None) -> int:
    n = game.psychic_turns[team]
    return n % players[team] + 1 if players else n + 1


def current_psychic(
    game: TeamGame, players_per_team: int | Sequence[int] | None = None
) -> tuple[int, int]:
    """Who gives the clue this turn: ``(team_index, psychic_number)`` (W4, W6).

    Each team's Psychics are numbered 1, 2, 3… and a new one plays each turn
    of that team, a catch-up turn included (W6 "with a new Psychic"); a redo
    keeps the Psychic (W8). With a player count the numbers wrap
    (1…n, 1…n); without one they grow without bound and the host maps them
    to players.

    :param game: the current state.
    :param players_per_team: overrides ``game.players_per_team`` (one count for
        both teams or one per team).
    :raises GameOver: the game is finished.
    :raises InvalidSetup: a player count below 1.
    """
    if game.finished:
        raise GameOver("the game is over: there is no Psychic to play")
    players = _players_list(players_per_team) if players_per_team is not None else game.players_per_team
    return game.current_team, _psychic_number(game, game.current_team, players)


def _unique_leader(values: Sequence[int]) -> int | None:
    best = max(values)
    leaders = [i for i, v in enumerate(values) if v == best]
    return leaders[0] if len(leaders) == 1 else None


def score_turn(
    game: TeamGame,
    dial_deg: float,
    target_deg: float,
    call: str | None,
    calling_team: int | None = None,
) -> tuple[TeamGame, TurnScore]:
    """Score the current turn and decide what follows (W2, W4, W5, W6).

    Pure: ``game`` is left untouched; a new :class:`TeamGame` is returned with
    the scores, the :class:`TurnRecord`, the Psychic rotation and the next team
    updated.

    Points: the Psychic's team gets :func:`wedge_points` (W2). The other team
    gets 1 for a correct call, but nothing if the Psychic's team scored 4 (W5).

    What follows, in this order of precedence:

    * **Regular play, target reached** (W4): as soon as any team has
      ``target_score`` or more after this turn's scoring, the game ends right
      after this turn — the other team does *not* get a turn to even out the
      round. The higher score wins; a tie starts sudden death.
      (b) Game end beats catch-up. (With the W4/W5 rules a 4 leaves the other
      team's score unchanged and below the target, so a team behind after a 4
      can never coincide with the end; the order is kept as a guard.)
    * **Regular play, catch-up** (W6): the Psychic's team scored 4 and is still
      strictly behind after scoring (a tie is not behind): it plays again at
      once, with its next Psychic.
    * **Regular play otherwise**: the other team plays next.
    * **Sudden death** (W4): each round every team plays exactly one turn
      (left/right call included); teams keep alternating, so the team that did
      not play the game's last regular turn opens each round. After both turns,
      the team with more points that round (= higher total, as totals are tied
      when a round starts) wins; if tied, another round. The game does not
      end mid-round, whatever the scores. Catch-up does not apply in sudden
      death (c).

    :param game: the state before scoring.
    :param dial_deg: final dial, degrees in [0, 180] (clamp with :func:`clamp_dial`).
    :param target_deg: target centre, degrees in [0, 180].
    :param call: ``"left"``, ``"right"``, or None if the other team made no call
        (e.g. it stayed silent): then nobody scores for a call. A call the
        rules do not know is refused, not ignored.
    :param calling_team: index of the team making the call; None means the
        other team. Must be the other team (W5).
    :returns: ``(new_game, turn_score)``.
    :raises GameOver: the game is already finished.
    :raises IllegalCall: ``call`` is not ``"left"``/``"right"``/None, or
        ``calling_team`` is the Psychic's own team.
    :raises OutOfRange: dial or target outside [0°, 180°] or not finite.
    """
    if game.finished:
        raise GameOver("the game is over: no more turns can be scored")
    team = game.current_team
    caller = other_team(team)
    if call is not None:
        _check_call(call)
        if calling_team is not None and calling_team != caller:
            raise IllegalCall(
                f"the left/right call belongs to the other team ({caller}), not team {calling_team!r}")
    dial = _check_angle("dial", dial_deg)
    target = _check_angle("target", target_deg)

    wedge = wedge_points(dial, target)
    points = [0, 0]
    points[team] = wedge
    awards = [Award(team, wedge, REASON_WEDGE)]
    call_correct: bool | None = None
    if call is not None:
        call_correct = call_is_correct(call, dial, target)
        if wedge == 4:
            awards.append(Award(caller, 0, REASON_CALL_CANCELLED))
        else:
            call_points = 1 if call_correct else 0
            points[caller] += call_points
            awards.append(Award(caller, call_points, REASON_CALL))
    scores = [s + p for s, p in zip(game.scores, points)]

    psychic = _psychic_number(game, team, game.players_per_team)
    psychic_turns = list(game.psychic_turns)
    psychic_turns[team] += 1

    catch_up = False
    sd_starts = sd_continues = sd_round_over = False
    finished = False
    winner: int | None = None
    sd = game.sudden_death
    sd_round = game.sudden_death_round
    sd_points = list(game.sudden_death_points)
    sd_played = list(game.sudden_death_played)
    next_team: int | None = caller

    if not sd:
        if max(scores) >= game.target_score:
            winner = _unique_leader(scores)
            if winner is not None:
                finished = True
            else:
                sd_starts = True
                sd, sd_round = True, 1
                sd_points, sd_played = [0, 0], [False, False]
        elif wedge == 4 and scores[team] < scores[caller]:
            catch_up = True
            next_team = team
    else:
        sd_points = [a + b for a, b in zip(sd_points, points)]
        sd_played[team] = True
        if all(sd_played):
            sd_round_over = True
            winner = _unique_leader(sd_points)
            if winner is not None:
                finished = True
            else:
                sd_continues = True
                sd_round += 1
                sd_points, sd_played = [0, 0], [False, False]
    if finished:
        next_team = None

    record = TurnRecord(
        turn=len(game.turns) + 1,
        team=team,
        psychic=psychic,
        target=target,
        dial=dial,
        call=call,
        calling_team=caller if call is not None else None,
        call_correct=call_correct,
        points=list(points),
        awards=awards,
        scores_after=list(scores),
        catch_up=game.catch_up_turn,
        catch_up_follows=catch_up,
        sudden_death=game.sudden_death,
        sudden_death_round=game.sudden_death_round,
    )
    new_game = replace(
        game,
        team_names=list(game.team_names),
        scores=list(scores),
        current_team=team if next_team is None else next_team,
        psychic_turns=psychic_turns,
        players_per_team=None if game.players_per_team is None else list(game.players_per_team),
        turns=[*game.turns, record],
        catch_up_turn=catch_up,
        sudden_death=sd,
        sudden_death_round=sd_round,
        sudden_death_points=sd_points,
        sudden_death_played=sd_played,
        finished=finished,
        winner=winner,
    )
    turn_score = TurnScore(
        record=record,
        wedge_points=wedge,
        points=list(points),
        scores=list(scores),
        catch_up=catch_up,
        sudden_death_starts=sd_starts,
        sudden_death_continues=sd_continues,
        sudden_death_round_over=sd_round_over,
        in_sudden_death=sd and not finished,
        sudden_death_round=sd_round if sd and not finished else 0,
        game_over=finished,
        winner=winner,
        next_team=next_team,
    )
    return new_game, turn_score


def redo_turn(game: TeamGame) -> TeamGame:
    """Restart the current turn after the Psychic gave the target away (W8).

    The host draws a new card and a new target (:func:`draw_target`); nothing
    is scored, the Psychic stays, the turn keeps its catch-up and
    sudden-death status. Only ``redos`` (for the recap) changes.

    :returns: a new state; ``game`` is left untouched.
    :raises GameOver: the game is finished.
    """
    if game.finished:
        raise GameOver("the game is over: there is no turn to redo")
    return replace(copy.deepcopy(game), redos=game.redos + 1)


# --- cooperative mode (W9) -------------------------------------------------

@dataclass
class CoopTurnRecord:
    """One scored co-op turn, for the recap (W9).

    :param turn: 1-based turn number.
    :param psychic: Psychic number (see :func:`coop_psychic`).
    :param target: target centre, degrees.
    :param dial: final dial, degrees.
    :param points: points scored (0, 2 or 3).
    :param bonus_card: the centre wedge was hit: one bonus card was added.
    :param score_after: team score after the turn.
    :param cards_left_after: cards still to play after the turn.
    """

    turn: int
    psychic: int
    target: float
    dial: float
    points: int
    bonus_card: bool
    score_after: int
    cards_left_after: int

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "CoopTurnRecord":
        """Rebuild from ``dataclasses.asdict`` output."""
        data = dict(d)
        data["target"] = float(d["target"])
        data["dial"] = float(d["dial"])
        return cls(**data)


@dataclass
class CoopTurnScore:
    """What :func:`score_coop_turn` tells the host (W9).

    :param record: the :class:`CoopTurnRecord` appended to the game.
    :param points: points scored this turn.
    :param bonus_card: a bonus card was added (an extra turn).
    :param score: team score after the turn.
    :param cards_left: cards still to play.
    :param game_over: the cards have run out.
    :param band: index into :data:`RATING_BANDS` when the game is over, else None.
    """

    record: CoopTurnRecord
    points: int
    bonus_card: bool
    score: int
    cards_left: int
    game_over: bool
    band: int | None


@dataclass
class CoopGame:
    """State of a cooperative game (W9): one team, a pile of cards.

    :param cards: cards dealt at the start.
    :param cards_left: cards still to play, the current one included.
    :param bonus_cards: bonus cards added so far.
    :param score: team score.
    :param players: optional player count to wrap the Psychic rotation.
    :param turns: one :class:`CoopTurnRecord` per scored turn.
    :param redos: turns restarted (W8).
    :param finished: the cards have run out.
    """

    cards: int = COOP_CARDS
    cards_left: int = COOP_CARDS
    bonus_cards: int = 0
    score: int = 0
    players: int | None = None
    turns: list[CoopTurnRecord] = field(default_factory=list)
    redos: int = 0
    finished: bool = False

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "CoopGame":
        """Rebuild from ``dataclasses.asdict`` output (or its JSON round trip)."""
        data = dict(d)
        data["turns"] = [CoopTurnRecord.from_dict(t) for t in d.get("turns", [])]
        return cls(**data)


def new_coop_game(cards: int = COOP_CARDS, players: int | None = None) -> CoopGame:
    """Set up a cooperative game (W9): ``cards`` cards, score 0.

    :param cards: starting cards, ≥ 1 (rulebook: 7).
    :param players: optional player count to wrap the Psychic rotation.
    :raises InvalidSetup: ``cards`` < 1 or ``players`` < 1.
    """
    if isinstance(cards, bool) or not isinstance(cards, int) or cards < 1:
        raise InvalidSetup(f"cards must be a whole number ≥ 1, got {cards!r}")
    if players is not None and (isinstance(players, bool) or not isinstance(players, int) or players < 1):
        raise InvalidSetup(f"players must be a whole number ≥ 1, got {players!r}")
    return CoopGame(cards=cards, cards_left=cards, players=players)


def coop_psychic(game: CoopGame) -> int:
    """Psychic number of the current co-op turn: 1, 2, 3… (wrapping at
    ``game.players`` if set); a new Psychic each turn, kept on a redo (W8, W9).

    :raises GameOver: the game is finished.
    """
    if game.finished:
        raise GameOver("the game is over: there is no Psychic to play")
    n = len(game.turns)
    return n % game.players + 1 if game.players else n + 1


def score_coop_turn(game: CoopGame, dial_deg: float, target_deg: float) -> tuple[CoopGame, CoopTurnScore]:
    """Score a co-op turn (W9).

    Points as in W2 except the centre wedge scores 3 and adds one bonus card
    (an extra turn). No left/right call. The turn uses up its card; the game
    ends when no card is left (bonus cards included). The physical deck's size
    does not limit bonus cards here (the host deals cards).

    :param game: the state before scoring (left untouched).
    :param dial_deg: final dial, degrees in [0, 180].
    :param target_deg: target centre, degrees in [0, 180].
    :returns: ``(new_game, coop_turn_score)``.
    :raises GameOver: the game is already finished.
    :raises OutOfRange: dial or target outside [0°, 180°] or not finite.
    """
    if game.finished:
        raise GameOver("the game is over: no more turns can be scored")
    dial = _check_angle("dial", dial_deg)
    target = _check_angle("target", target_deg)
    points = wedge_points(dial, target, coop=True)
    bonus = wedge_points(dial, target) == 4
    cards_left = game.cards_left - 1 + (1 if bonus else 0)
    score = game.score + points
    finished = cards_left == 0
    record = CoopTurnRecord(
        turn=len(game.turns) + 1,
        psychic=coop_psychic(game),
        target=target,
        dial=dial,
        points=points,
        bonus_card=bonus,
        score_after=score,
        cards_left_after=cards_left,
    )
    new_game = replace(
        game,
        cards_left=cards_left,
        bonus_cards=game.bonus_cards + (1 if bonus else 0),
        score=score,
        turns=[*game.turns, record],
        finished=finished,
    )
    return new_game, CoopTurnScore(
        record=record,
        points=points,
        bonus_card=bonus,
        score=score,
        cards_left=cards_left,
        game_over=finished,
        band=rating_band(score)[2] if finished else None,
    )


def redo_coop_turn(game: CoopGame) -> CoopGame:
    """Restart the current co-op turn (W8): the host draws a new card and
    target; the given-away card is replaced, so ``cards_left`` is unchanged;
    nothing is scored; the Psychic stays.

    :raises GameOver: the game is finished.
    """
    if game.finished:
        raise GameOver("the game is over: there is no turn to redo")
    return replace(copy.deepcopy(game), redos=game.redos + 1)


def rating_band(score: int) -> tuple[int, int | None, int]:
    """The rulebook's co-op rating band for a final score (W9).

    :param score: final co-op score, ≥ 0.
    :returns: ``(low, high, band_index)`` with ``high`` None for the open top
        band (25+); ``band_index`` 0…8 indexes :data:`RATING_BANDS` and is the
        key of the host's spoken rating.
    :raises OutOfRange: ``score`` is negative or not a whole number.
    """
    if isinstance(score, bool) or not isinstance(score, int) or score < 0:
        raise OutOfRange(f"a co-op score is a whole number ≥ 0, got {score!r}")
    for index, (low, high) in enumerate(RATING_BANDS):
        if high is None or score <= high:
            return low, high, index
    raise AssertionError("unreachable: the last band is open")  # pragma: no cover


# --- the deck and the turn in progress (W1, W3, W5, W7, W8) -------------------

@dataclass
class Deck:
    """The shuffled pile of cards, by index into the host's card list.

    :param size: number of cards in the deck, ≥ 1.
    :param order: indexes still to draw, next first; reshuffled when empty.
    """

    size: int
    order: list[int] = field(default_factory=list)


def new_deck(size: int) -> Deck:
    """An unshuffled deck of ``size`` cards (shuffled at the first :func:`draw_card`).

    :raises InvalidSetup: ``size`` < 1.
    """
    if isinstance(size, bool) or not isinstance(size, int) or size < 1:
        raise InvalidSetup(f"a deck needs at least one card, got {size!r}")
    return Deck(size=size)


def draw_card(deck: Deck, rng: random.Random) -> tuple[int, Deck]:
    """Chance step: draw the next card; an empty pile is shuffled anew with ``rng``.

    :returns: ``(card_index, new_deck)``; ``deck`` is left untouched.
    """
    order = list(deck.order)
    if not order:
        order = list(range(deck.size))
        rng.shuffle(order)
    return order[0], Deck(size=deck.size, order=order[1:])


@dataclass(frozen=True)
class TurnState:
    """The turn being played, until :func:`score_turn` / :func:`score_coop_turn`
    scores it. Changed only by the actions below, which return a new state.

    :param attempt: serial number of this turn attempt in the game (redos count, W8).
    :param team: index of the Psychic's team (0 in co-op).
    :param psychic: Psychic number within the team (:func:`current_psychic`).
    :param card: index of the card in the host's card list.
    :param side: 0 front, 1 back (the card turned over before the clue).
    :param target: target centre, degrees (W3).
    :param dial: dial position, degrees (W1: starts at :data:`DIAL_START`).
    :param moved: the dial has been moved this turn.
    :param clue: the clue as heard ("" until given).
    :param call: ``"left"``, ``"right"`` or None (W5).
    :param called: the other team has called (or passed).
    """

    attempt: int
    team: int
    psychic: int
    card: int
    target: float
    side: int = 0
    dial: float = DIAL_START
    moved: bool = False
    clue: str = ""
    call: str | None = None
    called: bool = False


def start_turn(game: "TeamGame | CoopGame", attempt: int, card: int, target: float) -> TurnState:
    """A new turn attempt for the Psychic whose turn it is (W4, W6, W9), dial at 90° (W1).

    :param card: the drawn card's index (:func:`draw_card`).
    :param target: the spun target (:func:`draw_target`), degrees.
    :raises GameOver: the game is finished.
    :raises OutOfRange: ``target`` outside [0°, 180°].
    """
    if isinstance(game, CoopGame):
        team, psychic = 0, coop_psychic(game)
    else:
        team, psychic = current_psychic(game)
    return TurnState(attempt=attempt, team=team, psychic=psychic, card=card,
                     target=_check_angle("target", target))


def turn_card_over(turn: TurnState) -> TurnState:
    """Use the card's other side, once, before the clue (the rulebook's double-sided cards).

    :raises IllegalMove: the card was already turned over, or the clue is given.
    """
    if turn.side == 1 or turn.clue:
        raise IllegalMove("the card can be turned over once, before the clue")
    return replace(turn, side=1)


def give_clue(turn: TurnState, clue: str) -> TurnState:
    """Note the Psychic's clue (free text; never judged, W8 is the table's remedy).

    :raises IllegalMove: empty, or a clue was already given.
    """
    if turn.clue:
        raise IllegalMove("the clue was already given")
    if not clue.strip():
        raise IllegalMove("a clue needs at least one word")
    return replace(turn, clue=clue.strip())


def set_dial(turn: TurnState, degrees: float) -> tuple[TurnState, bool]:
    """Turn the dial to ``degrees``, kept on the device (W1, W7), in whole degrees
    (half a degree rounds to the even neighbour, as Python's ``round``). A position
    *said* outside 0–180° never gets here (the host asks again, W7); one from a move
    past an end, or from a save made before W7 said so, stops at that end.

    :returns: ``(new_turn, hit_edge)`` (see :func:`clamp_dial`).
    :raises OutOfRange: ``degrees`` is not a number.
    """
    angle, hit_edge = clamp_dial(degrees)
    angle = float(round(angle))
    return replace(turn, dial=angle, moved=True), hit_edge


def move_dial(turn: TurnState, degrees: float) -> tuple[TurnState, bool]:
    """Turn the dial by ``degrees`` (negative = toward the left concept, W7).

    :returns: ``(new_turn, hit_edge)``.
    """
    return set_dial(turn, turn.dial + float(degrees))


def may_call(turn: TurnState, team: int | None) -> bool:
    """Whether ``team`` may make the left/right call: only the other team (W5).
    ``None`` (a team not named) is left to the host."""
    return team is None or team != turn.team


def make_call(turn: TurnState, side: str | None, team: int) -> TurnState:
    """The other team's left/right call, or a pass (``side`` None) (W5).

    :raises IllegalCall: ``side`` not a call, or ``team`` is the Psychic's team.
    :raises IllegalMove: a call was already made this turn.
    """
    if side is not None:
        _check_call(side)
    if not may_call(turn, team):
        raise IllegalCall("the left/right call belongs to the other team")
    if turn.called:
        raise IllegalMove("the call was already made")
    return replace(turn, call=side, called=True)
