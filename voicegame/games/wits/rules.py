"""Wits & Wagers (second edition) rules, pure: no audio, time, text or I/O.

Everything here follows the rulings K1–K9 of ``shared/rules/NOTES.md`` (they
fill the payout table the Spanish rulebook text lost, and win over it).

Flow of one question, as a host drives it::

    mat = build_mat(guesses)                    # K3, guesses: player -> number | None
    book = open_betting(mat, game.players)      # K4
    book = place_bets(book, "red", [Bet("red", 4, 2)], game.chips["red"])
    ...                                         # replace freely until betting closes
    game, result = apply_question(game, guesses, book.bets, answer)   # K5, K6, K7
    standings(game); winners(game); break_tie(tied, youngest)         # K8

Terms: a *guess* is a player's number; the *mat* has eight *payout slots*;
a *slot id* is 0 for "all guesses too high" (``TOO_HIGH``) and 1..7 left to
right for the others, 4 being the 2-to-1 centre (``CENTRE``). A :class:`Bet` is
**one bet token** with some *chips* under it; "both tokens on one slot" is two
:class:`Bet` entries on that slot, each with its own chips (K4). *Odds* ``k``
means "pays k to 1". The *bank* holds the chips not owned by players.

Every state object is a dataclass: ``dataclasses.asdict`` gives JSON-ready
data and each class's ``from_dict`` rebuilds it. Functions never mutate their
arguments; they return new objects.

Errors are :class:`ValueError` subclasses (base :class:`WitsError`) carrying
the fields a host needs to say what went wrong and re-prompt.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from numbers import Real
from typing import Any, Iterable, Mapping, Sequence

Number = float | int

MIN_PLAYERS = 2
"""Fewest players (or teams) the product supports (K1 gives only the maximum)."""
MAX_PLAYERS = 7
"""Most players (or teams), K1."""
DEFAULT_QUESTIONS = 7
"""Questions per game, K1."""
BONUS_CHIPS = 3
"""Chips given to each player whose guess is in the winning slot, K7."""
BETS_PER_PLAYER = 2
"""Bet tokens per player, hence at most two bets per question, K1/K4."""

TOO_HIGH = 0
"""Slot id of "all guesses too high" (pays 6 to 1), K3."""
CENTRE = 4
"""Slot id of the 2-to-1 centre slot, K3."""

SLOT_ODDS: tuple[int, ...] = (6, 5, 4, 3, 2, 3, 4, 5)
"""Odds k (k to 1) by slot id, left to right, K3."""
SLOT_SIDES: tuple[str | None, ...] = (None, "left", "left", "left", "centre", "right", "right", "right")
"""Side of the mat by slot id; ``None`` for "all guesses too high", K3."""
MAX_DISTINCT_GUESSES = len(SLOT_ODDS) - 1
"""Seven guess slots, so at most seven distinct guesses, K3."""


# --------------------------------------------------------------------------- errors


class WitsError(ValueError):
    """Base of every Wits & Wagers rule error."""


class InvalidPlayers(WitsError):
    """The player list is not 2–7 distinct non-empty names (K1).

    :ivar players: the rejected list.
    :ivar reason: ``"count"``, ``"duplicate"`` or ``"name"``.
    """

    def __init__(self, players: Sequence[str], reason: str):
        self.players = tuple(players)
        self.reason = reason
        super().__init__(
            f"invalid players ({reason}): {list(players)!r}; need {MIN_PLAYERS}-{MAX_PLAYERS} distinct names"
        )


class UnknownPlayer(WitsError):
    """A name that is not a player of this game or betting round.

    :ivar player: the unknown name.
    """

    def __init__(self, player: Any):
        self.player = player
        super().__init__(f"unknown player {player!r}")


class InvalidGuess(WitsError):
    """A guess that is not a finite real number (K2: whole numbers and decimals).

    :ivar player: whose guess it was (``None`` when not known).
    :ivar value: the rejected value.
    """

    def __init__(self, player: Any, value: Any):
        self.player = player
        self.value = value
        super().__init__(f"invalid guess {value!r} from {player!r}: need a finite number")


class InvalidAnswer(WitsError):
    """An answer that is not a finite real number.

    :ivar value: the rejected value.
    """

    def __init__(self, value: Any):
        self.value = value
        super().__init__(f"invalid answer {value!r}: need a finite number")


class TooManyGuesses(WitsError):
    """More distinct guesses than the mat's seven guess slots (K3).

    :ivar count: the number of distinct guesses.
    """

    def __init__(self, count: int):
        self.count = count
        super().__init__(f"{count} distinct guesses; the mat holds at most {MAX_DISTINCT_GUESSES}")


class BetError(WitsError):
    """Base of the errors raised when validating bets (K4)."""


class UnknownSlot(BetError):
    """A slot id that is not 0..7.

    :ivar slot_id: the rejected id.
    """

    def __init__(self, slot_id: Any):
        self.slot_id = slot_id
        super().__init__(f"unknown payout slot {slot_id!r}; slot ids are 0..{len(SLOT_ODDS) - 1}")


class EmptySlotBet(BetError):
    """A bet on a slot that holds no guess (only "all guesses too high" may be empty), K4.

    :ivar slot_id: the empty slot.
    """

    def __init__(self, slot_id: int):
        self.slot_id = slot_id
        super().__init__(f"payout slot {slot_id} holds no guess; bets go on a guess or on 'all guesses too high'")


class TooManyBets(BetError):
    """More than two bets (bet tokens) for one player, K4.

    :ivar count: the number of bets asked for.
    :ivar player: whose bets.
    """

    def __init__(self, count: int, player: str | None = None):
        self.count = count
        self.player = player
        super().__init__(f"{count} bets for {player!r}; at most {BETS_PER_PLAYER}")


class NotEnoughChips(BetError):
    """A player's bets put more chips down than the player holds, K4.

    :ivar asked: chips under all of the player's bets together.
    :ivar held: chips the player holds.
    :ivar player: whose bets.
    """

    def __init__(self, asked: int, held: int, player: str | None = None):
        self.asked = asked
        self.held = held
        self.player = player
        super().__init__(f"{player!r} bets {asked} chips but holds {held}")


class NegativeChips(BetError):
    """A negative number of chips under a bet token (or held), K4.

    :ivar chips: the rejected number.
    :ivar player: whose bet.
    """

    def __init__(self, chips: int, player: str | None = None):
        self.chips = chips
        self.player = player
        super().__init__(f"negative chips {chips} for {player!r}")


class InvalidChips(BetError):
    """Chips that are not a whole number (``int``; ``bool`` refused).

    :ivar chips: the rejected value.
    :ivar player: whose bet.
    """

    def __init__(self, chips: Any, player: str | None = None):
        self.chips = chips
        self.player = player
        super().__init__(f"chips must be a whole number, got {chips!r} for {player!r}")


class WrongPlayer(BetError):
    """A bet handed in for one player names another.

    :ivar expected: the player whose bets are being placed.
    :ivar got: the player named in the bet.
    """

    def __init__(self, expected: str, got: str):
        self.expected = expected
        self.got = got
        super().__init__(f"bet names {got!r} but is placed for {expected!r}")


class GameOver(WitsError):
    """A question applied after the last one (K1: 7 questions by default).

    :ivar questions: the game's question count.
    """

    def __init__(self, questions: int):
        self.questions = questions
        super().__init__(f"the game is over after {questions} questions")


# --------------------------------------------------------------------------- validation helpers


def _check_number(value: Any, player: Any = None, *, answer: bool = False) -> Number:
    if isinstance(value, bool) or not isinstance(value, Real) or not math.isfinite(value):
        raise InvalidAnswer(value) if answer else InvalidGuess(player, value)
    return value


def _check_chips(chips: Any, player: str | None = None) -> int:
    if isinstance(chips, bool) or not isinstance(chips, int):
        raise InvalidChips(chips, player)
    if chips < 0:
        raise NegativeChips(chips, player)
    return chips


def _check_players(players: Sequence[str]) -> tuple[str, ...]:
    players = tuple(players)
    if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        raise InvalidPlayers(players, "count")
    if any(not isinstance(p, str) or not p for p in players):
        raise InvalidPlayers(players, "name")
    if len(set(players)) != len(players):
        raise InvalidPlayers(players, "duplicate")
    return players


# --------------------------------------------------------------------------- mat (K3)


@dataclass(frozen=True)
class Slot:
    """One payout slot of the mat (K3).

    :ivar id: slot id, 0 = "all guesses too high", 1..7 left to right, 4 = centre.
    :ivar odds: k of "pays k to 1".
    :ivar side: ``"left"``, ``"centre"``, ``"right"``, or ``None`` for too high.
    :ivar guess: the guess in this slot, ``None`` when empty (always ``None`` for too high).
    :ivar players: players whose guess this is, in the order the guesses were given.
    """

    id: int
    odds: int
    side: str | None
    guess: Number | None = None
    players: tuple[str, ...] = ()

    @property
    def is_too_high(self) -> bool:
        """True for the "all guesses too high" slot."""
        return self.id == TOO_HIGH

    @property
    def occupied(self) -> bool:
        """True when a guess lies in this slot."""
        return self.guess is not None

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "Slot":
        """Rebuild from ``dataclasses.asdict`` output."""
        return cls(data["id"], data["odds"], data["side"], data["guess"], tuple(data["players"]))


@dataclass(frozen=True)
class Mat:
    """The betting mat: eight payout slots, index = slot id (K3).

    :ivar slots: ``slots[i].id == i``; slot 0 is "all guesses too high".
    """

    slots: tuple[Slot, ...]

    def slot(self, slot_id: Any) -> Slot:
        """The slot with this id.

        :raises UnknownSlot: id not an int in 0..7.
        """
        if isinstance(slot_id, bool) or not isinstance(slot_id, int) or not 0 <= slot_id < len(self.slots):
            raise UnknownSlot(slot_id)
        return self.slots[slot_id]

    def occupied(self) -> tuple[Slot, ...]:
        """Slots holding a guess, left to right (ascending guesses), K3."""
        return tuple(s for s in self.slots if s.occupied)

    def bettable(self) -> tuple[Slot, ...]:
        """Slots a bet may go on: "all guesses too high" then every occupied slot (K4)."""
        return (self.slots[TOO_HIGH],) + self.occupied()

    def slot_for_guess(self, value: Number) -> int | None:
        """Slot id holding a guess equal to ``value`` (``12 == 12.0``), or ``None``."""
        for s in self.occupied():
            if s.guess == value:
                return s.id
        return None

    def slot_of_player(self, player: str) -> int | None:
        """Slot id holding ``player``'s guess, or ``None`` (no guess)."""
        for s in self.occupied():
            if player in s.players:
                return s.id
        return None

    def slots_with_odds(self, k: int) -> tuple[Slot, ...]:
        """Every slot paying ``k`` to 1, left to right (e.g. ``k=3`` gives slots 3 and 5)."""
        return tuple(s for s in self.slots if s.odds == k)

    def smallest(self) -> Slot | None:
        """The occupied slot with the smallest guess, or ``None`` when no one guessed.

        "All guesses too high" means "the answer is smaller than this guess" (K5, K9).
        """
        occupied = self.occupied()
        return occupied[0] if occupied else None

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "Mat":
        """Rebuild from ``dataclasses.asdict`` output."""
        return cls(tuple(Slot.from_dict(s) for s in data["slots"]))


def guess_slot_ids(count: int) -> tuple[int, ...]:
    """Slot ids for ``count`` distinct guesses sorted ascending (K3).

    Odd count: the median goes on the 2-to-1 centre (id 4); even count: the centre
    stays empty and the two middle guesses go on the 3-to-1 slots (ids 3 and 5);
    the rest go outward one slot at a time. ``guess_slot_ids(3) == (3, 4, 5)``,
    ``guess_slot_ids(2) == (3, 5)``.

    :raises TooManyGuesses: ``count`` > 7.
    """
    if count < 0:
        raise ValueError(f"negative guess count {count}")
    if count > MAX_DISTINCT_GUESSES:
        raise TooManyGuesses(count)
    half = count // 2
    if count % 2:
        return tuple(CENTRE - half + i for i in range(count))
    left = tuple(CENTRE - half + i for i in range(half))
    right = tuple(CENTRE + 1 + i for i in range(half))
    return left + right


def build_mat(guesses: Mapping[str, Number | None]) -> Mat:
    """Place the guesses on the mat (K3).

    :param guesses: player -> guess (a finite int or float), or ``None`` for no
        guess. Equal guesses (``12`` and ``12.0``) share one slot; its ``guess`` is
        the first one given, its ``players`` follow the mapping's order.
    :returns: the mat; slot 0 ("all guesses too high", 6 to 1) is always empty.
    :raises InvalidGuess: a guess that is not a finite real number.
    :raises TooManyGuesses: more than 7 distinct guesses.
    """
    groups: dict[Number, list[str]] = {}  # a dict keeps the first of equal keys (12 vs 12.0)
    for player, value in guesses.items():
        if value is None:
            continue
        groups.setdefault(_check_number(value, player), []).append(player)
    values = sorted(groups)
    ids = guess_slot_ids(len(values))
    placed = {slot_id: value for slot_id, value in zip(ids, values)}
    slots = []
    for slot_id, (odds, side) in enumerate(zip(SLOT_ODDS, SLOT_SIDES)):
        value = placed.get(slot_id)
        players = tuple(groups[value]) if value is not None else ()
        slots.append(Slot(slot_id, odds, side, value, players))
    return Mat(tuple(slots))


# --------------------------------------------------------------------------- bets (K4)


@dataclass(frozen=True)
class Bet:
    """One bet token placed on a payout slot, with chips under it (K4).

    Both tokens on one slot are two ``Bet`` entries on that slot.

    :ivar player: who placed it.
    :ivar slot_id: the slot (0 = all guesses too high).
    :ivar chips: chips under the token, ≥ 0 (0 = a bare token).
    """

    player: str
    slot_id: int
    chips: int = 0

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "Bet":
        """Rebuild from ``dataclasses.asdict`` output."""
        return cls(data["player"], data["slot_id"], data["chips"])


def check_bets(mat: Mat, player: str, bets: Sequence[Bet], chips_held: int) -> tuple[Bet, ...]:
    """Validate one player's complete set of bets for a question (K4).

    Legal: 0, 1 or 2 bets (one per bet token, both may be on one slot), each on
    an occupied slot or on "all guesses too high", chips ≥ 0 under each and at
    most ``chips_held`` in total.

    :param chips_held: chips the player holds before betting.
    :returns: the bets as a tuple.
    :raises WrongPlayer: a bet names another player.
    :raises TooManyBets: more than two bets.
    :raises UnknownSlot: a slot id outside 0..7.
    :raises EmptySlotBet: a bet on an empty guess slot.
    :raises InvalidChips: chips (or ``chips_held``) not an int.
    :raises NegativeChips: negative chips (or ``chips_held``).
    :raises NotEnoughChips: total chips under the bets exceed ``chips_held``.
    """
    bets = tuple(bets)
    held = _check_chips(chips_held, player)
    for bet in bets:
        if bet.player != player:
            raise WrongPlayer(player, bet.player)
    if len(bets) > BETS_PER_PLAYER:
        raise TooManyBets(len(bets), player)
    for bet in bets:
        slot = mat.slot(bet.slot_id)
        if not slot.is_too_high and not slot.occupied:
            raise EmptySlotBet(bet.slot_id)
        _check_chips(bet.chips, player)
    asked = sum(bet.chips for bet in bets)
    if asked > held:
        raise NotEnoughChips(asked, held, player)
    return bets


@dataclass(frozen=True)
class BetBook:
    """The bets of one betting phase (K4), replaceable until betting closes.

    :ivar mat: the mat the bets go on.
    :ivar players: players allowed to bet (seat order).
    :ivar bets: all bets so far, grouped by player in the order they were placed.
    """

    mat: Mat
    players: tuple[str, ...]
    bets: tuple[Bet, ...] = ()

    def bets_of(self, player: str) -> tuple[Bet, ...]:
        """The bets ``player`` has placed so far (0, 1 or 2)."""
        return tuple(b for b in self.bets if b.player == player)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "BetBook":
        """Rebuild from ``dataclasses.asdict`` output."""
        return cls(Mat.from_dict(data["mat"]), tuple(data["players"]), tuple(Bet.from_dict(b) for b in data["bets"]))


def open_betting(mat: Mat, players: Sequence[str]) -> BetBook:
    """An empty bet book for this mat (K4)."""
    return BetBook(mat, tuple(players))


def place_bets(book: BetBook, player: str, bets: Sequence[Bet], chips_held: int) -> BetBook:
    """Replace all of ``player``'s bets with ``bets`` (K4: bets may change until the timer ends).

    ``bets=()`` withdraws the player's bets.

    :returns: a new book; ``book`` is unchanged (so the host can undo, G4).
    :raises UnknownPlayer: ``player`` is not in ``book.players``.
    :raises BetError: any error of :func:`check_bets`.
    """
    if player not in book.players:
        raise UnknownPlayer(player)
    new = check_bets(book.mat, player, bets, chips_held)
    kept = tuple(b for b in book.bets if b.player != player)
    return BetBook(book.mat, book.players, kept + new)


def place_bet(book: BetBook, bet: Bet, chips_held: int) -> BetBook:
    """Add one bet token to ``bet.player``'s existing bets (K4).

    :returns: a new book.
    :raises UnknownPlayer: ``bet.player`` is not in ``book.players``.
    :raises TooManyBets: the player already has two bets.
    :raises BetError: any other error of :func:`check_bets` (total chips checked
        over both bets).
    """
    return place_bets(book, bet.player, book.bets_of(bet.player) + (bet,), chips_held)


# --------------------------------------------------------------------------- winner (K5)


def winning_slot(mat: Mat, answer: Number) -> int:
    """Slot id of the winning payout slot (K5, examples K9).

    The slot holding the closest guess that does not exceed ``answer``
    (``guess <= answer``); :data:`TOO_HIGH` when every guess exceeds it, or when
    there is no guess at all.

    :raises InvalidAnswer: ``answer`` not a finite real number.
    """
    _check_number(answer, answer=True)
    best = TOO_HIGH
    for slot in mat.occupied():  # ascending guesses
        if slot.guess <= answer:
            best = slot.id
    return best


# --------------------------------------------------------------------------- settlement (K6, K7)


@dataclass(frozen=True)
class PlayerSettlement:
    """One player's result for one question (K6, K7). All amounts in chips.

    :ivar player: the player.
    :ivar chips_before: chips held before betting.
    :ivar staked: chips under all of the player's bet tokens.
    :ivar won: winnings from the bank, k × (1 + c) per winning bet (K6).
    :ivar returned: chips under winning bets, handed back (K6).
    :ivar lost: chips under losing bets, taken by the bank (K6).
    :ivar bonus: 3 if the player's guess is in the winning slot, else 0 (K7).
    :ivar chips_after: chips held after settling.
    """

    player: str
    chips_before: int
    staked: int
    won: int
    returned: int
    lost: int
    bonus: int
    chips_after: int

    @property
    def payout(self) -> int:
        """Chips handed to the player for winning bets: ``won + returned`` (K6)."""
        return self.won + self.returned

    @property
    def delta(self) -> int:
        """Change in chips this question: ``chips_after - chips_before``."""
        return self.chips_after - self.chips_before

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "PlayerSettlement":
        """Rebuild from ``dataclasses.asdict`` output."""
        names = ("player", "chips_before", "staked", "won", "returned", "lost", "bonus", "chips_after")
        return cls(**{k: data[k] for k in names})


@dataclass(frozen=True)
class Settlement:
    """The result of settling one question (K5, K6, K7).

    :ivar answer: the answer read from the card.
    :ivar winning_slot: slot id of the winning slot (K5).
    :ivar players: one entry per player, in the order of the ``chips`` mapping given.
    :ivar bank_taken_in: chips the bank collected from losing bets.
    :ivar bank_paid_out: chips the bank paid as winnings and bonuses.
    :ivar bank_delta: change in the bank's chips, ``bank_taken_in - bank_paid_out``;
        the players' deltas always sum to ``-bank_delta``.

    Bet tokens always come back to their players (K6); they are not tracked.
    """

    answer: Number
    winning_slot: int
    players: tuple[PlayerSettlement, ...]
    bank_taken_in: int
    bank_paid_out: int
    bank_delta: int

    def of(self, player: str) -> PlayerSettlement:
        """The entry for ``player``.

        :raises UnknownPlayer: no such player in this settlement.
        """
        for p in self.players:
            if p.player == player:
                return p
        raise UnknownPlayer(player)

    @property
    def chips_after(self) -> dict[str, int]:
        """player -> chips after settling."""
        return {p.player: p.chips_after for p in self.players}

    @property
    def bonuses(self) -> dict[str, int]:
        """player -> bonus chips (3 or 0), K7."""
        return {p.player: p.bonus for p in self.players}

    @property
    def payouts(self) -> dict[str, int]:
        """player -> chips handed back for winning bets (winnings + stake), K6."""
        return {p.player: p.payout for p in self.players}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "Settlement":
        """Rebuild from ``dataclasses.asdict`` output."""
        return cls(
            data["answer"],
            data["winning_slot"],
            tuple(PlayerSettlement.from_dict(p) for p in data["players"]),
            data["bank_taken_in"],
            data["bank_paid_out"],
            data["bank_delta"],
        )


def settle(mat: Mat, bets: Iterable[Bet], answer: Number, chips: Mapping[str, int]) -> Settlement:
    """Settle one question: find the winning slot, pay bets and bonuses (K5, K6, K7).

    A winning bet (one token, c chips, slot paying k to 1) wins k × (1 + c) from
    the bank and its c chips come back; chips on losing bets go to the bank (K6).
    Each player whose guess lies in the winning slot gets 3 chips once; nobody
    does when "all guesses too high" wins (K7).

    :param bets: every bet of the question (all players); revalidated per player.
    :param chips: player -> chips held before betting; every player of the game.
    :raises UnknownPlayer: a bet by a player not in ``chips``, or a guesser on the mat not in ``chips``.
    :raises InvalidAnswer: ``answer`` not a finite real number.
    :raises BetError: a player's bets break K4 (see :func:`check_bets`).
    """
    win = winning_slot(mat, answer)
    bets = tuple(bets)
    for bet in bets:
        if bet.player not in chips:
            raise UnknownPlayer(bet.player)
    for slot in mat.occupied():
        for p in slot.players:
            if p not in chips:
                raise UnknownPlayer(p)
    win_slot = mat.slot(win)
    entries = []
    taken_in = paid_out = 0
    for player, held in chips.items():
        mine = check_bets(mat, player, [b for b in bets if b.player == player], held)
        staked = sum(b.chips for b in mine)
        won = sum(win_slot.odds * (1 + b.chips) for b in mine if b.slot_id == win)
        returned = sum(b.chips for b in mine if b.slot_id == win)
        lost = staked - returned
        bonus = BONUS_CHIPS if (win != TOO_HIGH and player in win_slot.players) else 0
        after = held - lost + won + bonus
        taken_in += lost
        paid_out += won + bonus
        entries.append(PlayerSettlement(player, held, staked, won, returned, lost, bonus, after))
    return Settlement(answer, win, tuple(entries), taken_in, paid_out, taken_in - paid_out)


# --------------------------------------------------------------------------- game (K1, K8)


@dataclass(frozen=True)
class QuestionResult:
    """The record of one played question.

    :ivar number: question number, 1-based.
    :ivar guesses: player -> guess or ``None``, every player in seat order (K2).
    :ivar mat: the mat: slots with odds, guesses and guessers (K3).
    :ivar bets: every bet placed (K4).
    :ivar settlement: winning slot, payouts, bonuses and chips after (K5–K7).
    """

    number: int
    guesses: dict[str, Number | None]
    mat: Mat
    bets: tuple[Bet, ...]
    settlement: Settlement

    @property
    def answer(self) -> Number:
        """The answer read from the card."""
        return self.settlement.answer

    @property
    def winning_slot(self) -> int:
        """Slot id of the winning slot (K5)."""
        return self.settlement.winning_slot

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "QuestionResult":
        """Rebuild from ``dataclasses.asdict`` output."""
        return cls(
            data["number"],
            dict(data["guesses"]),
            Mat.from_dict(data["mat"]),
            tuple(Bet.from_dict(b) for b in data["bets"]),
            Settlement.from_dict(data["settlement"]),
        )


@dataclass(frozen=True)
class WitsGame:
    """A game of Wits & Wagers (K1).

    :ivar players: player (or team) names in seat order, 2–7.
    :ivar chips: player -> chips held; everyone starts at 0.
    :ivar questions: questions in the game (7 by default).
    :ivar question_index: questions played so far (0-based index of the next one).
    :ivar history: one :class:`QuestionResult` per played question.
    """

    players: tuple[str, ...]
    chips: dict[str, int]
    questions: int = DEFAULT_QUESTIONS
    question_index: int = 0
    history: tuple[QuestionResult, ...] = ()

    @property
    def is_over(self) -> bool:
        """True once every question has been played (K8)."""
        return self.question_index >= self.questions

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "WitsGame":
        """Rebuild from ``dataclasses.asdict`` output."""
        return cls(
            tuple(data["players"]),
            dict(data["chips"]),
            data["questions"],
            data["question_index"],
            tuple(QuestionResult.from_dict(q) for q in data["history"]),
        )


def new_game(players: Sequence[str], questions: int = DEFAULT_QUESTIONS) -> WitsGame:
    """A fresh game: every player at 0 chips, no question played (K1).

    :param players: 2–7 distinct non-empty names in seat order (colours by default, G3).
    :param questions: number of questions, ≥ 1.
    :raises InvalidPlayers: wrong count, duplicate or empty names.
    :raises ValueError: ``questions`` < 1.
    """
    players = _check_players(players)
    if isinstance(questions, bool) or not isinstance(questions, int) or questions < 1:
        raise ValueError(f"questions must be a whole number >= 1, got {questions!r}")
    return WitsGame(players, {p: 0 for p in players}, questions)


def apply_question(
    game: WitsGame,
    guesses: Mapping[str, Number | None],
    bets: Iterable[Bet],
    answer: Number,
) -> tuple[WitsGame, QuestionResult]:
    """Play one question: mat, bets, winner, payouts, bonuses (K3–K7).

    :param guesses: player -> guess or ``None``; a missing player counts as no guess.
    :param bets: every bet of the question (e.g. ``book.bets``), validated against
        the chips each player holds now.
    :returns: the new game (chips updated, index advanced, record appended) and
        this question's record.
    :raises GameOver: all questions already played.
    :raises UnknownPlayer: a guess or bet from a non-player.
    :raises InvalidGuess, TooManyGuesses, InvalidAnswer, BetError: see
        :func:`build_mat`, :func:`winning_slot`, :func:`check_bets`.
    """
    if game.is_over:
        raise GameOver(game.questions)
    for player in guesses:
        if player not in game.chips:
            raise UnknownPlayer(player)
    seated = {p: guesses.get(p) for p in game.players}
    mat = build_mat(seated)
    bets = tuple(bets)
    settlement = settle(mat, bets, answer, {p: game.chips[p] for p in game.players})
    result = QuestionResult(game.question_index + 1, seated, mat, bets, settlement)
    new = WitsGame(
        game.players,
        settlement.chips_after,
        game.questions,
        game.question_index + 1,
        game.history + (result,),
    )
    return new, result


@dataclass(frozen=True)
class Standing:
    """One line of the standings.

    :ivar rank: 1-based; tied players share a rank (1, 1, 3, …).
    :ivar player: the player.
    :ivar chips: chips held.
    """

    rank: int
    player: str
    chips: int


def standings(game: WitsGame) -> list[Standing]:
    """Players by chips, most first; ties keep seat order and share a rank (K8)."""
    order = sorted(game.players, key=lambda p: -game.chips[p])  # stable: seat order on ties
    result: list[Standing] = []
    for i, player in enumerate(order):
        chips = game.chips[player]
        rank = result[-1].rank if result and result[-1].chips == chips else i + 1
        result.append(Standing(rank, player, chips))
    return result


def winners(game: WitsGame) -> list[str]:
    """Players holding the most chips, in seat order (K8).

    Once ``game.is_over`` these are the winners; more than one means a tie, which
    :func:`break_tie` settles. Before that they are the current leaders.
    """
    top = max(game.chips[p] for p in game.players)
    return [p for p in game.players if game.chips[p] == top]


def break_tie(tied: Sequence[str], youngest: str) -> str:
    """The winner of a tie: the tied player (or team) with the youngest player (K8).

    The host asks the table who that is and passes the answer as ``youngest``.

    :raises UnknownPlayer: ``youngest`` is not one of ``tied``.
    """
    if youngest not in tied:
        raise UnknownPlayer(youngest)
    return youngest


# --------------------------------------------------------------------------- one question in play (K2–K4)


class GuessingClosed(WitsError):
    """A guess given after the mat was laid out (K2 ends when betting starts)."""

    def __init__(self):
        super().__init__("guessing is closed: the mat is laid out")


class BettingNotOpen(WitsError):
    """A bet before the mat is laid out (K4 follows K3)."""

    def __init__(self):
        super().__init__("betting is not open: no mat yet")


@dataclass(frozen=True)
class QuestionState:
    """The question in play: the guesses so far (K2), then the mat and the bets (K3, K4).

    Changed only by :func:`give_guess`, :func:`open_mat`, :func:`give_bets`; each returns a
    new state.

    :ivar number: 1-based question number.
    :ivar players: seat order.
    :ivar guesses: player -> guess or ``None`` (no guess), for players who have answered.
    :ivar last: the player whose guess came last ("no, 40" corrects it, G4), else ``None``.
    :ivar book: the bet book once the mat is laid out, else ``None``.
    :ivar bettors: players who have bet or said "no bet", in the order they did.
    """

    number: int
    players: tuple[str, ...]
    guesses: dict[str, Number | None]
    last: str | None = None
    book: BetBook | None = None
    bettors: tuple[str, ...] = ()

    @property
    def mat(self) -> Mat | None:
        """The mat, once laid out."""
        return self.book.mat if self.book else None

    def seated_guesses(self) -> dict[str, Number | None]:
        """player -> guess or ``None``, every player in seat order (missing = no guess)."""
        return {p: self.guesses.get(p) for p in self.players}


def start_question(game: WitsGame) -> QuestionState:
    """The next question of ``game``, before any guess.

    :raises GameOver: all questions played.
    """
    if game.is_over:
        raise GameOver(game.questions)
    return QuestionState(game.question_index + 1, game.players, {})


def give_guess(state: QuestionState, player: str, value: Number | None) -> QuestionState:
    """``player``'s guess (``None``: no guess); a second one replaces the first (G4).

    :raises UnknownPlayer, InvalidGuess, GuessingClosed.
    """
    if state.book is not None:
        raise GuessingClosed()
    if player not in state.players:
        raise UnknownPlayer(player)
    if value is not None:
        _check_number(value, player)
    guesses = {**state.guesses, player: value}
    distinct = {v for v in guesses.values() if v is not None}
    if len(distinct) > MAX_DISTINCT_GUESSES:
        raise TooManyGuesses(len(distinct))
    return QuestionState(state.number, state.players, guesses, player)


def waiting_guessers(state: QuestionState) -> tuple[str, ...]:
    """Players who have not answered yet, in seat order."""
    return tuple(p for p in state.players if p not in state.guesses)


def all_guessed(state: QuestionState) -> bool:
    """Predicate: every player has a guess or said "no guess" (K2 may end early)."""
    return not waiting_guessers(state)


def open_mat(state: QuestionState) -> QuestionState:
    """Lay out the mat from the guesses (K3) and open the betting (K4); a player who never
    answered has no guess."""
    book = open_betting(build_mat(state.seated_guesses()), state.players)
    return QuestionState(state.number, state.players, state.seated_guesses(), state.last, book, ())


def give_bets(state: QuestionState, player: str, bets: Sequence[Bet], chips_held: int) -> QuestionState:
    """Replace ``player``'s bets (``()``: no bet), K4; the player counts as having bet.

    :raises BettingNotOpen, UnknownPlayer, BetError.
    """
    if state.book is None:
        raise BettingNotOpen()
    book = place_bets(state.book, player, bets, chips_held)
    bettors = state.bettors if player in state.bettors else state.bettors + (player,)
    return QuestionState(state.number, state.players, state.guesses, state.last, book, bettors)


def waiting_bettors(state: QuestionState) -> tuple[str, ...]:
    """Players who have not bet (nor said "no bet") yet, in seat order."""
    return tuple(p for p in state.players if p not in state.bettors)


def all_bet(state: QuestionState) -> bool:
    """Predicate: every player has bet or said "no bet" (K4 may end early)."""
    return state.book is not None and not waiting_bettors(state)


def settle_question(game: WitsGame, state: QuestionState, answer: Number) -> tuple[WitsGame, QuestionResult]:
    """:func:`apply_question` for the question in play (K5–K7).

    :raises BettingNotOpen: no mat yet.
    """
    if state.book is None:
        raise BettingNotOpen()
    return apply_question(game, state.seated_guesses(), state.book.bets, answer)
