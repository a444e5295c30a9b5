"""ROFL! rules, pure: no audio, time or I/O.

Everything here follows the rulings R1–R7 of ``shared/rules/NOTES.md`` (they
win over the Spanish rulebook text). Flow of one turn, as a host drives it::

    game = new_game(["red", "blue", "green"], RoflOptions(lenient=True))   # R1
    guesser = current_guesser(game); ws = writers(game)                     # R1
    board = Board()
    board = claim(board, "blue", 7, ws, game.options.stacking)               # R2
    board = pass_writer(board, "green", ws)                                  # R2
    all_done(board, ws)                                                      # R2
    for writer, space in reveal_order(board, disqualified):                  # R3, R4
        judgement = judge_guess(heard, card_text, game.options.lenient)      # R4
        ...  # writers may overrule; stop at the first correct result
    game, score = score_turn(game, [GuessResult("blue", False), ...])        # R5
    phase(game)  # "turn" | "tiebreak" | "finished"
    game, outcome = score_tiebreak_turn(game, results)                       # R6
    winners(game)                                                            # R1, R6

Terms: the *guesser* guesses; the *writers* condense the message; a *board
space* is 1..20; a writer's *token* sits on one space (a :class:`Claim`);
*reveal position* 1 is the first message shown that was not disqualified.

Every state object is a frozen dataclass: ``dataclasses.asdict`` gives JSON-ready
data and each class's ``from_dict`` rebuilds it. Functions never mutate their
arguments; they return new objects. Errors are :class:`ValueError` subclasses
(base :class:`RoflError`) carrying the fields a host needs to re-prompt.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Any, Collection, Iterable, Mapping, Sequence

from num2words import num2words
from rapidfuzz import fuzz
from text_to_num import alpha2digit

MIN_PLAYERS = 3
"""Fewest players, R1."""
MAX_PLAYERS = 7
"""Most players, R1."""
ROUNDS = 3
"""Rounds in a game; in each round every player is the guesser once, R1."""
FIRST_SPACE = 1
"""Lowest board space, R2."""
LAST_SPACE = 20
"""Highest board space, R2."""
COLOURS: tuple[str, ...] = ("red", "orange", "yellow", "green", "blue", "purple", "pink")
"""Default player names in seat order (G3: short, distinct colour words)."""
POSITION_POINTS: tuple[int, ...] = (3, 2)
"""Points for reveal positions 1 and 2; every later position scores 1 (R5)."""
LATER_POINTS = 1
"""Points for a correct guess on the third or a later revealed message (R5)."""

SLIP_THRESHOLD = 90.0
"""Least ``rapidfuzz.fuzz.ratio`` (0–100) of the normalised guess and message for
a one-word recognition slip to count as correct (R4).

Why 90: ``fuzz.ratio`` is ``100 * (1 - indel / (len_a + len_b))``, so one wrong
letter in a 20-character title costs about 5. Typical Vosk slips pass: "the lord
of the kings" for "...rings" scores 95.2, "...things" 93.0, "back to the feature"
91.9, "the cat in the bat" 94.4. A different word fails: "the lord of the swords"
83.7, "the cat in the box" 83.3, "back to the moon" 70.6; so does an article
swapped without the lenient option ("the cat in a hat", 88.2). Because the
whole-string ratio forgives more in long titles ("...under the cat" for "...under
the sea" scores 94.6), the differing word must also resemble the card's word:
see :data:`SLIP_WORD_THRESHOLD`.
"""
SLIP_WORD_THRESHOLD = 60.0
"""Least ``rapidfuzz.fuzz.ratio`` of the one differing word against the card's word
for a slip (R4): "kings"/"rings" 80, "things"/"rings" 73, "bat"/"hat" 67,
"strike"/"strikes" 92 pass; "cat"/"sea" 33, "sky"/"sea" 33, "swords"/"rings" 36 fail."""
SLIP_MIN_WORDS = 4
"""A recognition slip is only forgiven in messages of at least this many words (R4);
shorter messages need the exact words."""

ARTICLES: Mapping[str, frozenset[str]] = {
    "en": frozenset({"a", "an", "the"}),
    "es": frozenset({"el", "la", "los", "las", "un", "una", "unos", "unas"}),
    "nl": frozenset({"de", "het", "een"}),
}
"""Articles forgiven when missing or extra under the lenient option, per language (R4)."""
AND_WORDS: Mapping[str, str] = {"en": "and", "es": "y", "nl": "en"}
"""How "&" is said, per language (a card's "Pride & Prejudice" is guessed with "and")."""
SPELLINGS: Mapping[str, Mapping[str, str]] = {
    "es": {"veintiún": "veintiuno", "veintiun": "veintiuno"},
    "nl": {"'ns": "eens", "m'n": "mijn", "z'n": "zijn", "'t": "het", "'k": "ik", "'n": "een"},
}
"""Whole words written two ways that are one word when said, per language, mapped to the
form text2num and num2words use (R4): Spanish "veintiún" (text2num reads only "veintiuno",
so "21 días" would not match "Veintiún días"); Dutch contractions ("Zeg 'ns Aaa" is said
and transcribed "zeg eens aaa"; "m'n" is "mijn", "'t" is the article "het")."""

# Judgement reasons (for logs and records; a host says only right or wrong).
EXACT = "exact"
"""Every word in order (after normalisation)."""
SLIP = "one-word recognition slip"
"""A long message with one misheard word, forgiven (R4)."""
EMPTY = "empty guess"
MISSING_WORDS = "missing words"
EXTRA_WORDS = "extra words"
WRONG_ORDER = "wrong order"
NUMBER_DIFFERS = "a number differs"
SHORT_SLIP = "one word differs in a short message"
BELOW_THRESHOLD = "one word differs too much"
UNLIKE_WORD = "one word is not like the card's word"
DIFFERENT_WORDS = "different words"


# --------------------------------------------------------------------------- errors


class RoflError(ValueError):
    """Base of every ROFL! rule error."""


class InvalidPlayers(RoflError):
    """The player list is not 3–7 distinct non-empty names (R1).

    :ivar players: the rejected list.
    :ivar reason: ``"count"``, ``"duplicate"`` or ``"name"``.
    """

    def __init__(self, players: Sequence[Any], reason: str):
        self.players = tuple(players)
        self.reason = reason
        super().__init__(
            f"invalid players ({reason}): {list(players)!r}; need {MIN_PLAYERS}-{MAX_PLAYERS} distinct names"
        )


class ClaimError(RoflError):
    """Base of the errors of claiming a board space (R2)."""


class SpaceOutOfRange(ClaimError):
    """The space is not on the board (R2: spaces 1..20).

    :ivar space: the rejected number.
    """

    def __init__(self, space: int):
        self.space = space
        super().__init__(f"space {space} is not on the board ({FIRST_SPACE}-{LAST_SPACE})")


class SpaceTaken(ClaimError):
    """Another token is already on the space and stacking is off (R2).

    :ivar space: the space asked for.
    :ivar nearest_free: the nearest free space below and the nearest free space
        above, in that order, each left out when there is none (``[]`` when the
        board is full).
    """

    def __init__(self, space: int, nearest_free: list[int]):
        self.space = space
        self.nearest_free = list(nearest_free)
        super().__init__(f"space {space} is taken; nearest free: {self.nearest_free}")


class UnknownWriter(ClaimError):
    """The name is not a writer this turn (the guesser has no token, R1/R2).

    :ivar name: the rejected name.
    """

    def __init__(self, name: Any):
        self.name = name
        super().__init__(f"{name!r} is not a writer this turn")


class AlreadyClaimed(ClaimError):
    """The writer's token is already on the board; a claim cannot be moved (R2).

    :ivar writer: the writer.
    :ivar space: the space their token is on.
    """

    def __init__(self, writer: str, space: int):
        self.writer = writer
        self.space = space
        super().__init__(f"{writer} already claimed space {space}; a claim cannot be moved")


class WrongPhase(RoflError):
    """The action does not fit the game's phase (e.g. scoring a normal turn during
    a tiebreak, or anything after the game is finished).

    :ivar phase: the game's phase (``"turn"``, ``"tiebreak"`` or ``"finished"``).
    """

    def __init__(self, phase: str, action: str):
        self.phase = phase
        super().__init__(f"cannot {action} while the game phase is {phase!r}")


class InvalidResults(RoflError):
    """A turn's guess results are not a possible sequence of reveals (R4, R5, R6):
    a writer who is not a writer this turn, a writer twice, a result after the
    first correct guess, or a guesser who may not guess.

    :ivar results: the rejected results.
    """

    def __init__(self, results: Sequence[Any], why: str):
        self.results = tuple(results)
        super().__init__(f"invalid results ({why}): {list(results)!r}")


# --------------------------------------------------------------------------- state


@dataclass(frozen=True)
class RoflOptions:
    """Optional rules chosen before the game (R7, R4).

    :param stacking: several tokens may share a board space (R2, R7).
    :param lenient: a missing or extra article is forgiven when judging (R4).
    :param hard: the category is not told to the guesser (R7; host only).
    :param own_message: a writer may supply the message; the host then cannot
        judge and the writers say "correct"/"wrong" (R7; host only).
    """

    stacking: bool = False
    lenient: bool = False
    hard: bool = False
    own_message: bool = False

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "RoflOptions":
        """Rebuild from ``dataclasses.asdict`` output."""
        return cls(**{k: bool(data[k]) for k in ("stacking", "lenient", "hard", "own_message") if k in data})


@dataclass(frozen=True)
class Claim:
    """One writer's token on one board space (R2).

    :param writer: the writer's name.
    :param space: board space, 1..20.
    """

    writer: str
    space: int

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "Claim":
        """Rebuild from ``dataclasses.asdict`` output."""
        return cls(str(data["writer"]), int(data["space"]))


@dataclass(frozen=True)
class Board:
    """The game board of one turn (R2).

    :param claims: tokens in the order they were placed.
    :param passed: writers who said they will not place a token, in order.
    """

    claims: tuple[Claim, ...] = ()
    passed: tuple[str, ...] = ()

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "Board":
        """Rebuild from ``dataclasses.asdict`` output."""
        return cls(
            tuple(Claim.from_dict(c) for c in data.get("claims", ())),
            tuple(str(p) for p in data.get("passed", ())),
        )


@dataclass(frozen=True)
class GuessResult:
    """The final result of one revealed message, after any overrule (R4).

    :param writer: whose message was revealed.
    :param correct: whether the guess counts as correct.
    :param guesser: who guessed; ``None`` means the turn's guesser in a normal
        turn, or an unnamed guesser in a tiebreak (R6).
    """

    writer: str
    correct: bool
    guesser: str | None = None

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "GuessResult":
        """Rebuild from ``dataclasses.asdict`` output."""
        g = data.get("guesser")
        return cls(str(data["writer"]), bool(data["correct"]), None if g is None else str(g))


@dataclass(frozen=True)
class TurnScore:
    """What one normal turn scored (R5).

    :param guesser: the turn's guesser.
    :param writer: the writer whose message was guessed, or ``None``.
    :param position: reveal position (1-based, disqualified messages not
        counted) of the correct guess, or ``None``.
    :param points: points given to the guesser and to that writer each (0 if none).
    """

    guesser: str
    writer: str | None
    position: int | None
    points: int

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "TurnScore":
        """Rebuild from ``dataclasses.asdict`` output."""
        return cls(
            str(data["guesser"]),
            None if data.get("writer") is None else str(data["writer"]),
            None if data.get("position") is None else int(data["position"]),
            int(data["points"]),
        )


@dataclass(frozen=True)
class TurnRecord:
    """One played turn, for the game's history.

    :param round: round number 1..3 (3 for tiebreaker turns).
    :param turn: turn index within the round (tiebreaker turns: 0, 1, ...).
    :param guesser: the guesser (normal turn) or the guesser who guessed the
        winning message (tiebreak; ``None`` if none or unnamed).
    :param tiebreak: True for a tiebreaker turn (R6).
    :param results: the results in reveal order.
    :param scorer: the writer whose message was guessed, or ``None``.
    :param points: points to guesser and writer each (always 0 in a tiebreak).
    """

    round: int
    turn: int
    guesser: str | None
    tiebreak: bool
    results: tuple[GuessResult, ...]
    scorer: str | None
    points: int

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "TurnRecord":
        """Rebuild from ``dataclasses.asdict`` output."""
        return cls(
            int(data["round"]),
            int(data["turn"]),
            None if data.get("guesser") is None else str(data["guesser"]),
            bool(data["tiebreak"]),
            tuple(GuessResult.from_dict(r) for r in data.get("results", ())),
            None if data.get("scorer") is None else str(data["scorer"]),
            int(data["points"]),
        )


@dataclass(frozen=True)
class Tiebreak:
    """Tiebreak state (R6).

    :param writers: the tied leaders, in seat order.
    :param guessers: everyone else, in seat order (empty when every player is tied).
    :param turns_played: tiebreaker turns scored so far.
    :param winner: the writer who broke the tie, once one has.
    :param shared: True when every player was tied: no guesser, shared win.
    """

    writers: tuple[str, ...]
    guessers: tuple[str, ...]
    turns_played: int = 0
    winner: str | None = None
    shared: bool = False

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "Tiebreak":
        """Rebuild from ``dataclasses.asdict`` output."""
        return cls(
            tuple(str(w) for w in data["writers"]),
            tuple(str(g) for g in data["guessers"]),
            int(data.get("turns_played", 0)),
            None if data.get("winner") is None else str(data["winner"]),
            bool(data.get("shared", False)),
        )


@dataclass(frozen=True)
class TiebreakOutcome:
    """What one tiebreaker turn decided (R6).

    :param winner: the writer whose message was guessed first (wins the game), or ``None``.
    :param guesser: who guessed it, when named.
    :param again: True when nobody guessed: another tiebreaker turn follows.
    """

    winner: str | None
    guesser: str | None
    again: bool

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "TiebreakOutcome":
        """Rebuild from ``dataclasses.asdict`` output."""
        return cls(
            None if data.get("winner") is None else str(data["winner"]),
            None if data.get("guesser") is None else str(data["guesser"]),
            bool(data["again"]),
        )


@dataclass(frozen=True)
class RoflGame:
    """A whole ROFL! game (R1, R5, R6).

    :param players: names in seat order (the next name sits to the left).
    :param scores: points per player name.
    :param options: the optional rules (R7).
    :param round: current round, 1..3.
    :param turn: index of the current turn within the round, 0..len(players)-1.
    :param first_seat: seat index of the first guesser of every round.
    :param finished: True once the winner(s) are known.
    :param tiebreak: tiebreak state once the three rounds ended tied, else ``None``.
    :param history: every scored turn, oldest first.
    """

    players: tuple[str, ...]
    scores: dict[str, int]
    options: RoflOptions = field(default_factory=RoflOptions)
    round: int = 1
    turn: int = 0
    first_seat: int = 0
    finished: bool = False
    tiebreak: Tiebreak | None = None
    history: tuple[TurnRecord, ...] = ()

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "RoflGame":
        """Rebuild from ``dataclasses.asdict`` output (or its JSON round trip)."""
        tb = data.get("tiebreak")
        return cls(
            tuple(str(p) for p in data["players"]),
            {str(k): int(v) for k, v in data["scores"].items()},
            RoflOptions.from_dict(data.get("options", {})),
            int(data.get("round", 1)),
            int(data.get("turn", 0)),
            int(data.get("first_seat", 0)),
            bool(data.get("finished", False)),
            None if tb is None else Tiebreak.from_dict(tb),
            tuple(TurnRecord.from_dict(t) for t in data.get("history", ())),
        )


# --------------------------------------------------------------------------- players and rotation (R1)


def new_game(
    players: Sequence[str] | int,
    options: RoflOptions | Mapping[str, Any] | None = None,
    first_guesser: str | None = None,
) -> RoflGame:
    """Start a game (R1): everyone at 0 points, round 1, first turn.

    :param players: names in seat order, or a count (3..7) for the first colours
        of :data:`COLOURS` (G3).
    :param options: :class:`RoflOptions`, a mapping of its fields, or ``None``.
    :param first_guesser: the first guesser of every round; default the first seat.
    :raises InvalidPlayers: not 3–7 distinct non-empty names (case-insensitive).
    :raises ValueError: ``first_guesser`` is not a player.
    """
    if isinstance(players, int) and not isinstance(players, bool):
        if not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise InvalidPlayers([players], "count")
        names: tuple[str, ...] = COLOURS[:players]
    else:
        names = tuple(players)
        if not MIN_PLAYERS <= len(names) <= MAX_PLAYERS:
            raise InvalidPlayers(names, "count")
        if any(not isinstance(n, str) or not n.strip() for n in names):
            raise InvalidPlayers(names, "name")
        if len({n.strip().casefold() for n in names}) != len(names):
            raise InvalidPlayers(names, "duplicate")
        names = tuple(n.strip() for n in names)
    if options is None:
        opts = RoflOptions()
    elif isinstance(options, RoflOptions):
        opts = options
    else:
        opts = RoflOptions.from_dict(options)
    first = 0
    if first_guesser is not None:
        if first_guesser not in names:
            raise ValueError(f"first guesser {first_guesser!r} is not a player")
        first = names.index(first_guesser)
    return RoflGame(names, {n: 0 for n in names}, opts, first_seat=first)


def phase(game: RoflGame) -> str:
    """The game's phase: ``"turn"`` (normal turns, R1), ``"tiebreak"`` (R6) or ``"finished"``."""
    if game.finished:
        return "finished"
    if game.tiebreak is not None:
        return "tiebreak"
    return "turn"


def current_guesser(game: RoflGame) -> str:
    """The guesser of the current normal turn (R1: seat order, once per round).

    :raises WrongPhase: during a tiebreak (several guessers, see :func:`tiebreak_state`)
        or after the game.
    """
    p = phase(game)
    if p != "turn":
        raise WrongPhase(p, "name the guesser")
    return game.players[(game.first_seat + game.turn) % len(game.players)]


def writers(game: RoflGame) -> tuple[str, ...]:
    """The writers of the current turn in seat order, starting left of the guesser
    (R1: everyone but the guesser); in a tiebreak, the tied players (R6).

    :raises WrongPhase: after the game.
    """
    p = phase(game)
    if p == "tiebreak":
        assert game.tiebreak is not None
        return game.tiebreak.writers
    if p == "finished":
        raise WrongPhase(p, "list the writers")
    n = len(game.players)
    g = (game.first_seat + game.turn) % n
    return tuple(game.players[(g + k) % n] for k in range(1, n))


def leaders(game: RoflGame) -> tuple[str, ...]:
    """Players with the highest score, in seat order (R1, R6)."""
    top = max(game.scores[p] for p in game.players)
    return tuple(p for p in game.players if game.scores[p] == top)


def tiebreak_state(game: RoflGame) -> Tiebreak | None:
    """The tiebreak state (R6): ``None`` if the three rounds did not end tied."""
    return game.tiebreak


def winners(game: RoflGame) -> tuple[str, ...]:
    """The winner(s) of a finished game (R1, R6): the single leader; the tiebreak
    winner; or every player when all were tied (shared win).

    :raises WrongPhase: the game is not finished.
    """
    if not game.finished:
        raise WrongPhase(phase(game), "name the winners")
    tb = game.tiebreak
    if tb is not None:
        if tb.shared:
            return tb.writers
        if tb.winner is not None:
            return (tb.winner,)
    return leaders(game)


# --------------------------------------------------------------------------- board (R2)


def _check_space(space: Any) -> int:
    if isinstance(space, bool) or not isinstance(space, int):
        raise TypeError(f"board space must be an int, got {space!r}")
    if not FIRST_SPACE <= space <= LAST_SPACE:
        raise SpaceOutOfRange(space)
    return space


def space_of(board: Board, writer: str) -> int | None:
    """The space of ``writer``'s token, or ``None`` if they have not claimed (R2)."""
    for c in board.claims:
        if c.writer == writer:
            return c.space
    return None


def free_spaces(board: Board) -> list[int]:
    """Spaces without a token, ascending (R2)."""
    taken = {c.space for c in board.claims}
    return [s for s in range(FIRST_SPACE, LAST_SPACE + 1) if s not in taken]


def nearest_free(board: Board, space: int) -> list[int]:
    """The nearest free space below ``space`` and the nearest free space above it,
    in that order, each left out when there is none (R2; what a host offers after
    :class:`SpaceTaken`)."""
    free = free_spaces(board)
    below = [s for s in free if s < space]
    above = [s for s in free if s > space]
    return ([below[-1]] if below else []) + ([above[0]] if above else [])


def claim(board: Board, writer: str, space: int, writers: Collection[str], stacking: bool = False) -> Board:
    """Place ``writer``'s token on ``space`` (R2: "blue, seven").

    A writer who passed may still claim while claiming is open (the claim replaces
    the pass, G4); a claim itself can never be moved.

    :param writers: the writers of this turn (:func:`writers`).
    :param stacking: the stacking option (R7): tokens may share a space; they
        resolve in the order placed.
    :returns: a new board with the claim appended.
    :raises UnknownWriter: ``writer`` is not a writer this turn.
    :raises AlreadyClaimed: ``writer`` already has a token on the board.
    :raises SpaceOutOfRange: ``space`` is not 1..20.
    :raises SpaceTaken: the space has a token and stacking is off.
    :raises TypeError: ``space`` is not an int.
    """
    if writer not in writers:
        raise UnknownWriter(writer)
    have = space_of(board, writer)
    if have is not None:
        raise AlreadyClaimed(writer, have)
    _check_space(space)
    if not stacking and any(c.space == space for c in board.claims):
        raise SpaceTaken(space, nearest_free(board, space))
    return Board(board.claims + (Claim(writer, space),), tuple(p for p in board.passed if p != writer))


def pass_writer(board: Board, writer: str, writers: Collection[str] | None = None) -> Board:
    """Record that ``writer`` places no token this turn (R2). Passing twice is harmless.

    :param writers: when given, ``writer`` must be one of them.
    :raises UnknownWriter: ``writers`` given and ``writer`` is not among them.
    :raises AlreadyClaimed: ``writer`` already has a token (a claim cannot be taken back).
    """
    if writers is not None and writer not in writers:
        raise UnknownWriter(writer)
    have = space_of(board, writer)
    if have is not None:
        raise AlreadyClaimed(writer, have)
    if writer in board.passed:
        return board
    return Board(board.claims, board.passed + (writer,))


def all_done(board: Board, writers: Iterable[str]) -> bool:
    """True when every writer has claimed a space or passed: claiming closes (R2)."""
    done = {c.writer for c in board.claims} | set(board.passed)
    return all(w in done for w in writers)


# --------------------------------------------------------------------------- reveal (R3, R4)


def reveal_order(board: Board, disqualified: Collection[str] = frozenset()) -> list[tuple[str, int]]:
    """The messages to reveal, as ``(writer, space)``: lowest space first, stacked
    tokens in the order placed (R4, R2); disqualified writers' messages are left
    out, so the list index + 1 is the reveal position of :func:`points_for_position` (R3).
    """
    ordered = sorted(enumerate(board.claims), key=lambda ic: (ic[1].space, ic[0]))
    return [(c.writer, c.space) for _, c in ordered if c.writer not in disqualified]


# --------------------------------------------------------------------------- scoring (R5)


def points_for_position(position: int) -> int:
    """Points for a correct guess on the message at reveal ``position`` (R5):
    3 for position 1, 2 for position 2, 1 for every later one. Positions are
    1-based and count only messages that were not disqualified (R3).

    :raises ValueError: ``position`` < 1.
    """
    if isinstance(position, bool) or not isinstance(position, int) or position < 1:
        raise ValueError(f"reveal position must be an int >= 1, got {position!r}")
    return POSITION_POINTS[position - 1] if position <= len(POSITION_POINTS) else LATER_POINTS


def _as_results(results: Iterable[GuessResult | tuple]) -> tuple[GuessResult, ...]:
    out = []
    for r in results:
        out.append(r if isinstance(r, GuessResult) else GuessResult(*r))
    return tuple(out)


def _check_results(results: tuple[GuessResult, ...], allowed_writers: Collection[str], allowed_guessers: Collection[str] | None) -> int | None:
    """Validate results; return the index of the first correct one (or ``None``)."""
    seen: set[str] = set()
    first: int | None = None
    for i, r in enumerate(results):
        if r.writer not in allowed_writers:
            raise InvalidResults(results, f"{r.writer!r} is not a writer")
        if r.writer in seen:
            raise InvalidResults(results, f"{r.writer!r} revealed twice")
        seen.add(r.writer)
        if first is not None:
            raise InvalidResults(results, "a result after the first correct guess")
        if r.guesser is not None and allowed_guessers is not None and r.guesser not in allowed_guessers:
            raise InvalidResults(results, f"{r.guesser!r} may not guess")
        if r.correct:
            first = i
    return first


def _end_of_rounds(game: RoflGame) -> RoflGame:
    """After round 3: a single leader wins; tied leaders go to a tiebreak; all tied share (R1, R6)."""
    top = leaders(game)
    if len(top) == 1:
        return replace(game, finished=True)
    if len(top) == len(game.players):
        return replace(game, finished=True, tiebreak=Tiebreak(top, (), shared=True))
    others = tuple(p for p in game.players if p not in top)
    return replace(game, tiebreak=Tiebreak(top, others))


def score_turn(game: RoflGame, results: Sequence[GuessResult | tuple]) -> tuple[RoflGame, TurnScore]:
    """Score a normal turn and move on to the next guesser (R5, R1).

    :param results: one :class:`GuessResult` (or ``(writer, correct)`` tuple) per
        revealed, non-disqualified message, in reveal order, after overrules (R4);
        it ends at the first correct one (the turn ends there, R5). Empty when
        nobody claimed or every message was disqualified.
    :returns: the new game and the :class:`TurnScore`. A correct guess at reveal
        position p gives :func:`points_for_position` (p) to the guesser and that
        writer; none gives nobody anything. After the last turn of round 3 the
        game is finished, or in a tiebreak (R6).
    :raises WrongPhase: the game is in a tiebreak or finished.
    :raises InvalidResults: a non-writer or repeated writer, a result after the
        first correct one, or a guesser other than the turn's guesser.
    """
    p = phase(game)
    if p != "turn":
        raise WrongPhase(p, "score a normal turn")
    guesser = current_guesser(game)
    res = _as_results(results)
    first = _check_results(res, writers(game), (guesser,))
    scores = dict(game.scores)
    if first is None:
        score = TurnScore(guesser, None, None, 0)
    else:
        pts = points_for_position(first + 1)
        writer = res[first].writer
        scores[guesser] += pts
        scores[writer] += pts
        score = TurnScore(guesser, writer, first + 1, pts)
    record = TurnRecord(game.round, game.turn, guesser, False, res, score.writer, score.points)
    rnd, turn = game.round, game.turn + 1
    last = False
    if turn >= len(game.players):
        if rnd >= ROUNDS:
            last = True
            turn = game.turn
        else:
            rnd, turn = rnd + 1, 0
    new = replace(game, scores=scores, round=rnd, turn=turn, history=game.history + (record,))
    if last:
        new = _end_of_rounds(new)
    return new, score


# --------------------------------------------------------------------------- tiebreak (R6)


def score_tiebreak_turn(game: RoflGame, results: Sequence[GuessResult | tuple]) -> tuple[RoflGame, TiebreakOutcome]:
    """Score a tiebreaker turn (R6): the tied players wrote, any one of the other
    players guessed each revealed message once; the first writer whose message was
    guessed wins the game. Nobody guessed: another tiebreaker turn. Scores do not
    change in a tiebreak (R6 only names a winner).

    :param results: per revealed, non-disqualified message in reveal order, the
        :class:`GuessResult` (``guesser`` names who guessed, may be ``None``),
        ending at the first correct one.
    :returns: the new game and the :class:`TiebreakOutcome`.
    :raises WrongPhase: the game is not in a tiebreak.
    :raises InvalidResults: a writer who is not tied or repeated, a guesser who is
        tied, or a result after the first correct one.
    """
    p = phase(game)
    if p != "tiebreak":
        raise WrongPhase(p, "score a tiebreaker turn")
    tb = game.tiebreak
    assert tb is not None
    res = _as_results(results)
    first = _check_results(res, tb.writers, tb.guessers)
    winner = None if first is None else res[first].writer
    who = None if first is None else res[first].guesser
    record = TurnRecord(game.round, tb.turns_played, who, True, res, winner, 0)
    new_tb = replace(tb, turns_played=tb.turns_played + 1, winner=winner)
    new = replace(game, tiebreak=new_tb, finished=winner is not None, history=game.history + (record,))
    return new, TiebreakOutcome(winner, who, winner is None)


# --------------------------------------------------------------------------- judging (R4)


@dataclass(frozen=True)
class Judgement:
    """The host's judgement of one spoken guess (R4); writers may overrule it.

    :param correct: True when the guess counts as the message.
    :param similarity: best ``rapidfuzz.fuzz.ratio`` (0–100) between the
        normalised guess and message.
    :param reason: one of the module's reason constants (:data:`EXACT`,
        :data:`SLIP`, :data:`MISSING_WORDS`, ...), for logs and records.
    """

    correct: bool
    similarity: float
    reason: str

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "Judgement":
        """Rebuild from ``dataclasses.asdict`` output."""
        return cls(bool(data["correct"]), float(data["similarity"]), str(data["reason"]))


_APOSTROPHES = re.compile(r"['’‘ʼ`´]")
_THOUSANDS = re.compile(r"(?<=\d)[,.](?=\d{3}(?!\d))")
_PUNCT = re.compile(r"[^\w\s]|_")
_A_HUNDRED = re.compile(r"\ba (hundred|thousand|million)\b")
_ORDINAL = {
    "en": re.compile(r"^(\d+)(st|nd|rd|th)$"),
    "es": re.compile(r"^(\d+)[ºª°]$"),
    "nl": re.compile(r"^(\d+)(e|ste|de)$"),
}


@lru_cache(maxsize=16)
def _spellings_re(lang: str) -> re.Pattern | None:
    words = SPELLINGS.get(lang)
    if not words:
        return None
    alternatives = "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))
    return re.compile(rf"(?<![\w'])(?:{alternatives})(?![\w'])")


def _respell(text: str, lang: str) -> str:
    """:data:`SPELLINGS` applied to lower-case NFC text (apostrophes already straight)."""
    pattern = _spellings_re(lang)
    return text if pattern is None else pattern.sub(lambda m: SPELLINGS[lang][m.group(0)], text)


def _clean(text: str, lang: str) -> str:
    """Lower case, "&" said aloud, :data:`SPELLINGS` mapped, apostrophes dropped, other
    punctuation to spaces."""
    t = unicodedata.normalize("NFC", text).lower()
    t = t.replace("&", f" {AND_WORDS.get(lang, 'and')} ")
    if lang in SPELLINGS:
        t = _respell(_APOSTROPHES.sub("'", t), lang)
    if lang == "en":
        t = _A_HUNDRED.sub(r"one \1", t)
    t = _THOUSANDS.sub("", t)
    t = _APOSTROPHES.sub("", t)
    t = _PUNCT.sub(" ", t)
    return " ".join(t.split())


def _fold(word: str) -> str:
    """Drop accents (recognisers and cards disagree on them) but keep "ñ"."""
    out = []
    for ch in unicodedata.normalize("NFD", word):
        if unicodedata.combining(ch) and not (ch == "\u0303" and out and out[-1] == "n"):
            continue
        out.append(ch)
    return unicodedata.normalize("NFC", "".join(out))


@lru_cache(maxsize=4096)
def _to_digits(text: str, lang: str) -> str:
    """``text_to_num.alpha2digit`` with threshold 0, so even "one" becomes "1"
    (its default threshold 3 leaves "one", "two", "three" as words)."""
    if not text:
        return text
    try:
        return " ".join(alpha2digit(text, lang, threshold=0).split())
    except ValueError:  # language not supported by text2num
        return text


def _spell_number(n: int, lang: str, year: bool, ordinal: bool) -> str | None:
    try:
        if ordinal:
            words = num2words(n, lang=lang, to="ordinal")
        elif year and 1000 <= n <= 2099:
            words = num2words(n, lang=lang, to="year")
        else:
            words = num2words(n, lang=lang)
    except (NotImplementedError, OverflowError, ValueError, TypeError, KeyError):
        return None
    return _clean(words, lang)


def _to_words(text: str, lang: str, year: bool) -> str:
    """Digits spelled out with ``num2words`` (ordinals such as "51st" too);
    ``year`` says four-digit numbers 1000–2099 as years ("nineteen eighty four")."""
    out = []
    ordinal_re = _ORDINAL.get(lang)
    for tok in text.split():
        spelled = None
        if tok.isascii() and tok.isdigit() and len(tok) <= 15:
            spelled = _spell_number(int(tok), lang, year, False)
        elif ordinal_re is not None and (m := ordinal_re.match(tok)) and len(m.group(1)) <= 15:
            spelled = _spell_number(int(m.group(1)), lang, False, True)
        out.append(spelled if spelled else tok)
    return " ".join(out)


@lru_cache(maxsize=4096)
def _forms(text: str, lang: str, articles: frozenset[str]) -> tuple[tuple[str, ...], ...]:
    """Equivalent word sequences of ``text``: as written, numbers as digits
    (alpha2digit), digits as words (num2words, cardinal and year style), and digits
    as words after alpha2digit (canonical words). ``articles`` are removed first
    (lenient option), unless that would leave nothing."""
    words = _clean(text, lang).split()
    if articles:
        kept = [w for w in words if w not in articles]
        if kept:
            words = kept
    base = " ".join(words)
    digits = _to_digits(base, lang)
    variants = [base, digits]
    for src in (base, digits):
        variants.append(_to_words(src, lang, False))
        variants.append(_to_words(src, lang, True))
    seen: dict[tuple[str, ...], None] = {}
    for v in variants:
        seen.setdefault(tuple(_fold(w) for w in v.split()), None)
    return tuple(seen)


@lru_cache(maxsize=64)
def _number_vocabulary(lang: str) -> frozenset[str]:
    """Number words of ``lang`` (num2words 0–100, hundreds, thousands, ordinals 1–20),
    accent-folded, without connecting words such as "and"."""
    vocab: set[str] = set()
    values = list(range(0, 101)) + [100 * k for k in range(2, 10)] + [1000, 10**6, 10**9]
    for n in values:
        s = _spell_number(n, lang, False, False)
        if s:
            vocab.update(_fold(w) for w in s.split())
    for n in range(1, 21):
        s = _spell_number(n, lang, False, True)
        if s:
            vocab.update(_fold(w) for w in s.split())
    vocab.discard(AND_WORDS.get(lang, "and"))
    vocab.discard("and")
    return frozenset(vocab)


def _is_number(word: str, lang: str) -> bool:
    return any(c.isdigit() for c in word) or word in _number_vocabulary(lang) or _to_digits(word, lang) != word


def _slip_word(heard: str, card: str, lang: str) -> bool:
    """May ``heard`` be a misrecognition of ``card``? Not for numbers (R4)."""
    if _is_number(heard, lang) or _is_number(card, lang):
        return False
    return fuzz.ratio(heard, card) >= SLIP_WORD_THRESHOLD


def judge_guess(
    guess: str,
    message: str,
    lenient: bool = False,
    lang: str = "en",
    articles: Collection[str] | None = None,
) -> Judgement:
    """Judge a spoken guess against the card's message (R4).

    Correct when the guess has all the message's words in order. Case, accents
    (but not "ñ") and punctuation are ignored; apostrophes vanish ("ocean's" ==
    "oceans"); "&" is the language's "and"; word spacing may differ ("spider man"
    == "Spider-Man"); numbers match as digits or words ("Ocean's 11" == "oceans
    eleven"; "2001" == "two thousand and one"; "1984" == "nineteen eighty four"),
    comparing ``text_to_num.alpha2digit`` and ``num2words`` normalisations of both
    sides ("a hundred" is "one hundred" in English; Spanish "veintiún" is "veintiuno"
    and Dutch contractions such as "'ns" and "m'n" are "eens" and "mijn", see
    :data:`SPELLINGS`). With ``lenient``, missing
    or extra articles are forgiven: the guess is also compared with every article
    dropped from both sides (so "the" said as "a" passes too). A recognition
    slip is forgiven only in messages of at least :data:`SLIP_MIN_WORDS` words
    (counted as written on the card), within either comparison (with or without
    articles when lenient): same word count, exactly one word
    different, that word not a number and like the card's word
    (:data:`SLIP_WORD_THRESHOLD`) and not a word the message has elsewhere
    ("no pain no pain" is wrong for "No pain, no gain"), and ``rapidfuzz.fuzz.ratio`` of the whole
    normalised strings ≥ :data:`SLIP_THRESHOLD`. Missing, extra or reordered words are always wrong.

    :param guess: the transcript of the guess (may be empty: wrong).
    :param message: the card's text.
    :param lenient: the lenient-articles option (R4).
    :param lang: language code for number handling and articles ("en", "es", "nl";
        others work without number handling if text2num lacks them).
    :param articles: the article words; default :data:`ARTICLES` for ``lang``.
    :returns: a :class:`Judgement`.
    :raises ValueError: the message has no words.
    """
    message_words = _clean(message, lang).split()
    if not message_words:
        raise ValueError(f"message {message!r} has no words")
    if not _clean(guess, lang).split():
        return Judgement(False, 0.0, EMPTY)
    modes: list[frozenset[str]] = [frozenset()]
    if lenient:
        arts = frozenset(ARTICLES.get(lang, ())) if articles is None else frozenset(a.lower() for a in articles)
        if arts:
            modes.append(arts)

    best = -1.0
    best_pair: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())
    exact = False
    slip = False
    for arts in modes:
        for g in _forms(guess, lang, arts):
            for m in _forms(message, lang, arts):
                ratio = float(fuzz.ratio(" ".join(g), " ".join(m)))
                if ratio > best:
                    best, best_pair = ratio, (g, m)
                if g == m or "".join(g) == "".join(m):
                    exact = True
                elif len(message_words) >= SLIP_MIN_WORDS and len(g) == len(m) and ratio >= SLIP_THRESHOLD:
                    diff = [i for i in range(len(g)) if g[i] != m[i]]
                    # a word the card already has elsewhere ("no pain no pain") is the
                    # player's repetition, not the recognizer's slip
                    if len(diff) == 1 and g[diff[0]] not in m and _slip_word(g[diff[0]], m[diff[0]], lang):
                        slip = True
    if exact:
        return Judgement(True, 100.0, EXACT)
    if slip:
        return Judgement(True, best, SLIP)
    g, m = best_pair
    if len(g) < len(m):
        reason = MISSING_WORDS
    elif len(g) > len(m):
        reason = EXTRA_WORDS
    elif sorted(g) == sorted(m):
        reason = WRONG_ORDER
    else:
        diff = [i for i in range(len(g)) if g[i] != m[i]]
        if len(diff) != 1:
            reason = DIFFERENT_WORDS
        elif _is_number(g[diff[0]], lang) or _is_number(m[diff[0]], lang):
            reason = NUMBER_DIFFERS
        elif len(message_words) < SLIP_MIN_WORDS:
            reason = SHORT_SLIP
        elif best >= SLIP_THRESHOLD:
            reason = UNLIKE_WORD
        else:
            reason = BELOW_THRESHOLD
    return Judgement(False, best, reason)
