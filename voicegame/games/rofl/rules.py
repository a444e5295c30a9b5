"""ROFL! rules, pure (standard library only): the game, one turn in progress, chance.

Follows the rulings R1–R7 (docs/rulings.md). One turn, as a host drives it::

    game = new_game(["red", "blue", "green"], RoflOptions(lenient=True))   # R1
    game, (card, side) = draw(game, card_count, rng)                          # chance
    turn = start_turn(game)                                                   # R1, R6
    turn = claim_space(turn, "blue", 7, game.options.stacking)               # R2
    turn = pass_turn(turn, "green")                                           # R2
    turn = close_claims(turn)              # reveal order, lowest space first  R4
    while more_to_reveal(turn):
        turn = show_next(turn); writer, space = on_show(turn)
        turn = guessed(turn, host_says)    # one guess per message             R4
        turn = overrule(turn, "green", True) or settle(turn)                  # R4
    game, score = score_turn(game, turn.results)                             # R5
    game, outcome = score_tiebreak_turn(game, turn.results)                  # R6

Every state object is a frozen dataclass (``dataclasses.asdict`` gives JSON-ready
data, ``from_dict`` rebuilds it); functions return new objects. Errors are
:class:`RoflError` (a ``ValueError``) subclasses carrying what a host needs to re-prompt.
Judging the words of a guess is not here: see :mod:`voicegame.games.rofl.judge`.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Collection, Iterable, Mapping, Protocol, Sequence

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
    pile: tuple[tuple[int, int], ...] = ()

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
            tuple((int(i), int(side)) for i, side in data.get("pile", ())),
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


# --------------------------------------------------------------------------- chance: the deck


class Rng(Protocol):
    """The injected randomness (a ``random.Random``)."""

    def shuffle(self, x: list) -> None: ...

    def randrange(self, stop: int) -> int: ...


def shuffle_pile(card_count: int, rng: Rng) -> tuple[tuple[int, int], ...]:
    """Chance step: every card of the deck in a random order, each with a random side
    (0 front, 1 back), as ``(card index, side)``.

    :raises ValueError: ``card_count`` < 1.
    """
    if card_count < 1:
        raise ValueError("a deck needs at least one card")
    order = list(range(card_count))
    rng.shuffle(order)
    return tuple((i, rng.randrange(2)) for i in order)


def draw(game: RoflGame, card_count: int, rng: Rng) -> tuple[RoflGame, tuple[int, int]]:
    """Chance step: the next ``(card index, side)`` of the draw pile; an empty pile is
    reshuffled first (:func:`shuffle_pile`)."""
    pile = game.pile or shuffle_pile(card_count, rng)
    return replace(game, pile=pile[1:]), pile[0]


# --------------------------------------------------------------------------- one turn in progress


class TurnError(RoflError):
    """The turn action does not fit where the turn is (R2, R4).

    :ivar why: ``"claims_open"``, ``"claims_closed"``, ``"nothing_on_show"``,
        ``"already_guessed"``, ``"no_judgement"``.
    """

    def __init__(self, why: str):
        self.why = why
        super().__init__(f"turn action not possible now: {why}")


class NotAWriter(RoflError):
    """Only a writer of this turn may overrule or judge a guess (R4, R7).

    :ivar colour: who tried; :ivar playing: whether they play in this game at all.
    """

    def __init__(self, colour: str, playing: bool):
        self.colour = colour
        self.playing = playing
        super().__init__(f"{colour!r} is not a writer this turn")


@dataclass(frozen=True)
class Reveal:
    """One message shown at reveal (R3, R4).

    :param writer: whose message; :param space: its board space.
    :param disqualified: skipped by a confirmed "disqualified" (R3).
    :param guessed: a guess was heard (one per message, R4); ``False`` for no guess.
    :param host_says: the host's judgement of the guess, ``None`` when it cannot judge
        (own messages, R7) or no guess was heard.
    :param correct: the final result once settled (after any overrule), else ``None``.
    :param overruled_by: the writer whose verdict decided, if one spoke.
    """

    writer: str
    space: int
    disqualified: bool = False
    guessed: bool = False
    host_says: bool | None = None
    correct: bool | None = None
    overruled_by: str | None = None

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "Reveal":
        """Rebuild from ``dataclasses.asdict`` output."""
        return cls(str(data["writer"]), int(data["space"]), bool(data.get("disqualified")),
                   bool(data.get("guessed")), data.get("host_says"), data.get("correct"),
                   data.get("overruled_by"))


@dataclass(frozen=True)
class Turn:
    """A turn in progress (R1–R6): who writes and guesses, the board, the reveal.

    :param writers: the writers (tiebreak: the tied players), seat order.
    :param guessers: the guesser, or a tiebreak's guessers.
    :param tiebreak: a tiebreaker turn (R6).
    :param board: the claims and passes (R2).
    :param closed: claiming has closed; ``order`` is set.
    :param order: the tokens in reveal order, lowest space first (R4).
    :param reveals: the messages shown so far, in order.
    """

    writers: tuple[str, ...]
    guessers: tuple[str, ...]
    tiebreak: bool = False
    board: Board = field(default_factory=Board)
    closed: bool = False
    order: tuple[tuple[str, int], ...] = ()
    reveals: tuple[Reveal, ...] = ()

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "Turn":
        """Rebuild from ``dataclasses.asdict`` output."""
        return cls(tuple(data["writers"]), tuple(data["guessers"]), bool(data.get("tiebreak")),
                   Board.from_dict(data.get("board", {})), bool(data.get("closed")),
                   tuple((str(w), int(sp)) for w, sp in data.get("order", ())),
                   tuple(Reveal.from_dict(r) for r in data.get("reveals", ())))

    @property
    def results(self) -> tuple[GuessResult, ...]:
        """The settled results of the messages not disqualified, in reveal order (R5, R6)."""
        return tuple(GuessResult(r.writer, bool(r.correct)) for r in self.reveals
                     if not r.disqualified and r.correct is not None)

    @property
    def current(self) -> Reveal | None:
        """The message on show, or ``None``."""
        return self.reveals[-1] if self.reveals else None

    @property
    def position(self) -> int:
        """Reveal position of the message on show (R3: disqualified ones not counted)."""
        return sum(1 for r in self.reveals if not r.disqualified)


def start_turn(game: RoflGame) -> Turn:
    """The turn now due (R1; R6 in a tiebreak: the tied write, all others guess).

    :raises WrongPhase: the game is finished.
    """
    p = phase(game)
    if p == "finished":
        raise WrongPhase(p, "start a turn")
    if p == "tiebreak":
        assert game.tiebreak is not None
        return Turn(game.tiebreak.writers, game.tiebreak.guessers, True)
    return Turn(writers(game), (current_guesser(game),))


def waiting(turn: Turn) -> tuple[str, ...]:
    """Writers who have neither claimed nor passed, seat order (R2)."""
    done = {c.writer for c in turn.board.claims} | set(turn.board.passed)
    return tuple(w for w in turn.writers if w not in done)


def claims_complete(turn: Turn) -> bool:
    """Every writer has claimed or passed: claiming ends at once (R2)."""
    return all_done(turn.board, turn.writers)


def _open(turn: Turn) -> None:
    if turn.closed:
        raise TurnError("claims_closed")


def claim_space(turn: Turn, writer: str, space: int, stacking: bool = False) -> Turn:
    """A writer's token on a space (R2); the errors of :func:`claim`."""
    _open(turn)
    return replace(turn, board=claim(turn.board, writer, space, turn.writers, stacking))


def pass_turn(turn: Turn, writer: str) -> Turn:
    """A writer places no token (R2); the errors of :func:`pass_writer`."""
    _open(turn)
    return replace(turn, board=pass_writer(turn.board, writer, turn.writers))


def close_claims(turn: Turn) -> Turn:
    """Claiming closes once every writer has claimed or passed; the reveal order is set
    (R2, R4). :raises TurnError: a writer is still to claim or pass."""
    _open(turn)
    if not claims_complete(turn):
        raise TurnError("claims_open")
    return replace(turn, closed=True, order=tuple(reveal_order(turn.board)))


def guessed_right(turn: Turn) -> bool:
    """A settled result was correct: the turn ends (R5)."""
    return any(r.correct for r in turn.reveals)


def more_to_reveal(turn: Turn) -> bool:
    """Another message is to be shown: none guessed yet and tokens left (R4, R5)."""
    return turn.closed and not guessed_right(turn) and len(turn.reveals) < len(turn.order)


def show_next(turn: Turn) -> Turn:
    """Show the next message in the reveal order (R4).
    :raises TurnError: nothing left to show, or the message on show is not settled."""
    if not more_to_reveal(turn):
        raise TurnError("nothing_on_show")
    if turn.current is not None and not _settled(turn.current):
        raise TurnError("no_judgement")
    writer, space = turn.order[len(turn.reveals)]
    return replace(turn, reveals=turn.reveals + (Reveal(writer, space),))


def _settled(r: Reveal) -> bool:
    return r.disqualified or r.correct is not None


def _replace_current(turn: Turn, **changes) -> Turn:
    return replace(turn, reveals=turn.reveals[:-1] + (replace(turn.reveals[-1], **changes),))


def _unguessed(turn: Turn) -> Reveal:
    r = turn.current
    if r is None:
        raise TurnError("nothing_on_show")
    if r.guessed or _settled(r):
        raise TurnError("already_guessed")
    return r


def disqualify(turn: Turn) -> Turn:
    """The message on show is disqualified (R3): skipped, no reveal position used.
    :raises TurnError: nothing on show, or it was already guessed."""
    _unguessed(turn)
    return _replace_current(turn, disqualified=True)


def no_guess(turn: Turn) -> Turn:
    """Nobody guessed the message on show: it counts as not guessed (R4).
    :raises TurnError: nothing on show, or it was already guessed."""
    _unguessed(turn)
    return _replace_current(turn, correct=False)


def guessed(turn: Turn, host_says: bool | None) -> Turn:
    """The one guess at the message on show was heard (R4): no second guess follows.

    :param host_says: the host's judgement; ``None`` when it cannot judge (R7).
    :raises TurnError: nothing on show, or it was already guessed.
    """
    _unguessed(turn)
    return _replace_current(turn, guessed=True, host_says=host_says)


def may_overrule(turn: Turn, colour: str) -> bool:
    """Only a writer of this turn judges a guess (R4, R7)."""
    return colour in turn.writers


def overrule(turn: Turn, colour: str, correct: bool, players: Collection[str] = ()) -> Turn:
    """A writer's verdict settles the guess on show (R4; R7: the only judgement).

    :param players: everyone in the game, to tell a guesser from a stranger.
    :raises NotAWriter: ``colour`` is not a writer this turn.
    :raises TurnError: no guess is waiting for a judgement.
    """
    r = turn.current
    if r is None or not r.guessed or r.correct is not None:
        raise TurnError("no_judgement")
    if not may_overrule(turn, colour):
        raise NotAWriter(colour, colour in players)
    return _replace_current(turn, correct=bool(correct), overruled_by=colour)


def settle(turn: Turn) -> Turn:
    """The host's judgement of the guess on show stands (R4).
    :raises TurnError: no guess waiting, or the host could not judge (R7)."""
    r = turn.current
    if r is None or not r.guessed or r.correct is not None or r.host_says is None:
        raise TurnError("no_judgement")
    return _replace_current(turn, correct=r.host_says)


def awaiting_verdict(turn: Turn) -> bool:
    """A guess on show is heard and not yet settled."""
    r = turn.current
    return r is not None and r.guessed and r.correct is None
