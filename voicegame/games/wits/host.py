"""The spoken Wits & Wagers host: a queued ``transitions`` machine over the pure rules
(rulings K1–K9, G1–G4 in docs/rulings.md).

Phases (:class:`Phase`)::

    setup → intro → question → guesses → bets → reveal → question … → final → game_over

- ``question``: "Question n of 7." and the question.
- ``guesses``: the guessing timer listens (K2, chosen): "red, 350" is Red's guess at once, read
  back once; it ends as soon as everyone has answered. Then whoever is missing is asked in
  seat order (silence twice: no guess). "no, 40" corrects the last guess, "red 40" Red's (G4);
  "Any guess to fix?" closes the guessing.
- ``bets``: the mat is read once, three slots a sentence, empty slots never (K3); the betting
  timer listens (K4): "red, both on 350" places Red's bets at once, read back once; it ends
  as soon as everyone has bet; the missing are asked in seat order (silence twice: no bet).
- ``reveal``: the answer, the winning slot (K5), each change of chips (K6, K7), the leader.
- ``final``: the winner (K8 tie-break asked when needed) and two highlights.

Rule state and chance: the question in play (:class:`rules.QuestionState`: guesses, mat, bets)
changes only through rule actions; the questions are drawn once, at set-up, from the bank's
saved position (:func:`deck.draw_questions`, the table's rng picking where a fresh bank starts
when ``--seed`` was given) and kept in ``settings.options`` so undo and resume replay them.
The public view (``game "wits"``) is published after every change; it never holds the answer
before the reveal.

"rules" tells the rules in short parts ("got it" ends them); a tip is said the first time each
moment comes up. "the mat", "the scores", "repeat the question" and "where is that from?" work
at every moment that listens; undo takes back the speaker's own last input.
"""

from __future__ import annotations

import argparse
import dataclasses
import enum
import re
from typing import NamedTuple
from pathlib import Path

from transitions import Machine

from voicegame.engine import phases
from voicegame.engine.snapshot import SnapshotMemo
from voicegame.engine.seats import default_seats, in_pairs, players_option
from voicegame.engine.table import SILENT, Ambiguous, NotAllowed, NotUnderstood, Table, understood
from voicegame.engine.timers import TimerWords
from voicegame.games.wits import rules
from voicegame.games.wits.deck import Question, bank_key, draw_questions, load_bank
from voicegame.games.wits.intents import (
    NO_GUESS,
    AmbiguousSlot,
    BadChips,
    BetRequest,
    NoGuesses,
    NoGuessOf,
    NoSuchOdds,
    SlotNameError,
    UnknownGuess,
    resolve,
    wits_understanding,
)
from voicegame.games.wits.rules import (
    DEFAULT_QUESTIONS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    TOO_HIGH,
    Bet,
    Slot,
    break_tie,
    new_game,
    standings,
    winners,
)
from voicegame.language.budget import OPENING_WORDS, words
from voicegame.language.prompts import Prompts
from voicegame.language.words import normalise, understanding

class FirstQuestion(NamedTuple):
    """How the opening says the first question (:meth:`Host.opening`): the guessing timer's
    purpose key, its start with ``--timer off`` (``common.timer_off`` or ``timer_off_short``),
    and whether the question's number is read ("Question 1 of 7."; else on "repeat the question")."""

    purpose: str = "wits.timer_guess_first"
    off_key: str = "common.timer_off"
    numbered: bool = True


#: Default players (G3): the first four colours of the one seat order (as the lobby seats them).
DEFAULT_PLAYERS = tuple(default_seats(4))
#: Silences at a player's guess or bets before "no guess" / "no bet" is recorded.
GUESS_SILENCES = BET_SILENCES = 2
#: Silences at "Any guess to fix?" that close the guessing.
CONFIRM_SILENCES = 1
#: Most items a spoken list has; the rest on request ("the mat", "the scores").
LIST_ITEMS = 3


class Said(enum.Enum):
    """What a moment heard besides a guess or a bet (enums journal as intents)."""

    READ_MAT = "read the mat"
    READ_QUESTION = "read the question"
    READ_SOURCE = "read the source"
    READ_SCORES = "read the scores"
    RULES = "rules"
    READY = "ready"
    FIX = "fix"          # "yes" at "Any guess to fix?": which one
    KEEP = "keep"        # "no" / "never mind": nothing to fix
    DONE = "done"        # "done" at the end: the game may end


class Phase(enum.Enum):
    """The phases of a Wits & Wagers game; the values are the undo/resume phase names."""

    SETUP = "setup"
    INTRO = "intro"
    QUESTION = "question"
    GUESSES = "guesses"
    BETS = "bets"
    REVEAL = "reveal"
    FINAL = "final"
    GAME_OVER = "game_over"


P = Phase
TRANSITIONS = [
    {"trigger": "start", "source": P.SETUP, "dest": P.INTRO},
    {"trigger": "begin", "source": P.INTRO, "dest": P.QUESTION},
    {"trigger": "question_read", "source": P.QUESTION, "dest": P.GUESSES},
    {"trigger": "guesses_taken", "source": P.GUESSES, "dest": P.BETS, "conditions": "all_guessed"},
    {"trigger": "bets_taken", "source": P.BETS, "dest": P.REVEAL, "conditions": "all_bet"},
    {"trigger": "settled", "source": P.REVEAL, "dest": P.FINAL, "conditions": "game_is_over"},
    {"trigger": "settled", "source": P.REVEAL, "dest": P.QUESTION, "unless": "game_is_over"},
    {"trigger": "finish", "source": P.FINAL, "dest": P.GAME_OVER},
]


# --------------------------------------------------------------------------- options


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """``--players``, ``--questions``, ``--count`` (``--timer`` is common)."""
    parser.add_argument("--players", default=None,
                        help=f"comma-separated players or teams in seat order, {MIN_PLAYERS} to {MAX_PLAYERS} "
                             f"(default {','.join(DEFAULT_PLAYERS)})")
    parser.add_argument("--questions", default=None, metavar="PATH",
                        help="a question bank (CSV: id,question,answer,unit,source,year; or TOML). "
                             "Questions come in the bank's fixed order from its saved position, each once "
                             "before any repeats; on a bank with no saved position yet, --seed picks "
                             "where that first pass starts")
    parser.add_argument("--count", type=int, default=DEFAULT_QUESTIONS,
                        help=f"questions in the game (default {DEFAULT_QUESTIONS})")
    parser.epilog = ('While playing, say "where is that from?" to hear the source of the last answer, '
                     '"rules" for the rules in short parts, "the mat" or "the scores".')


def options_from_args(args) -> dict:
    """JSON-serialisable options: players, questions path (absolute), count, and
    ``bank_seed`` — the ``--seed`` given to ``voicegame play`` (``None`` when not
    given, and in the lobby): it only picks where a bank with no saved position starts.
    Without ``--players`` the default seats are taken and ``seats_named`` is ``False``: the
    opening says them (nobody named them)."""
    players, named = players_option(args.players, DEFAULT_PLAYERS)
    path = str(Path(args.questions).resolve()) if args.questions else None
    out = {"players": players, "questions": path, "count": args.count, "bank_seed": getattr(args, "seed", None)}
    if not named:
        out["seats_named"] = False
    return out


def _player_names(names: list, lang: str) -> list[str]:
    """Player names: colour synonyms → the colour key ("Violet" → "purple"); any other
    name keeps its spelling ("Ana"; compared without case for duplicates and game words)."""
    return _players_and_names(names, lang)[0]


def _players_and_names(names: list, lang: str) -> tuple[list[str], dict[str, str]]:
    """:func:`_player_names` and the names the table chose for colour players when they are not
    the language's first word for that colour (``{"purple": "violeta"}``): the game keeps
    colour keys (for the understanding, the record), and speaks the chosen name (G3).

    :raises ValueError: a name that is not one, a word of the game, a name twice or the wrong
        count (``wits.errors.*``, one sentence in ``lang``).
    """
    prompts = Prompts.load(lang)
    u = understanding(lang)
    wu = wits_understanding(lang)
    out = []
    chosen: dict[str, str] = {}
    reserved = {" ".join(p) for table in (wu.bets, wu.slots, wu.guesses, wu.moments)
                for ps in table.values() for p in ps}
    for raw in names:
        shown = " ".join(str(raw).split())
        name = normalise(shown)
        if shown.lower() != name:  # punctuation around it: the plain form
            shown = name
        if not re.fullmatch(r"[^\W\d_]+(?:[ '-][^\W\d_]+)*", name or "-"):
            raise ValueError(prompts.text("wits.errors.players_not_a_name", name=repr(raw)))
        colour = next((c for c, ps in u.colour_words.items() if name in ps), None)
        if colour is None and (u.number(name) is not None or name in reserved or u.command(name)
                               or u.side(name) == name):
            raise ValueError(prompts.text("wits.errors.players_game_word", name=repr(raw)))
        if colour is not None and name != u.colour_name(colour):
            chosen[colour] = name
        out.append(colour or shown)
    if not MIN_PLAYERS <= len(out) <= MAX_PLAYERS:
        raise ValueError(prompts.text("wits.errors.players_count", min=MIN_PLAYERS, max=MAX_PLAYERS, count=len(out)))
    if len({normalise(n) for n in out}) != len(out):
        given = ", ".join(" ".join(str(n).split()) for n in names)  # as typed: "rojo, azul, Rojo"
        raise ValueError(prompts.text("wits.errors.players_twice", players=given))
    return out, chosen


def validate(settings) -> None:
    """Check the options and that the bank loads and holds ``--count`` questions; nothing is
    drawn here (:func:`deal` draws at the set-up). ``players`` become colour keys and
    other names; ``names`` keeps the words the table chose for colours
    (``{"purple": "violeta"}``), also when validated again.

    :raises ValueError: bad ``--players`` or ``--count``, or a bank smaller than ``--count`` (one
        sentence in the table's language, ``wits.errors.*``); :class:`voicegame.games.decks.DeckError`
        for a malformed bank (names the file and line).
    """
    opts = settings.options
    opts["players"], chosen = _players_and_names(list(opts.get("players") or DEFAULT_PLAYERS), settings.lang)
    names = {**chosen, **(opts.get("names") or {})}  # validated again (resume): the first names stay
    if names:
        opts["names"] = {p: n for p, n in names.items() if p in opts["players"]}
    count = opts.get("count", DEFAULT_QUESTIONS)
    if isinstance(count, bool) or not isinstance(count, int) or count < 1:
        raise ValueError(Prompts.load(settings.lang).text("wits.errors.count", count=repr(count)))
    if opts.get("question_set"):
        return
    bank = load_bank(opts.get("questions"), settings.lang)
    if count > len(bank):
        raise ValueError(Prompts.load(settings.lang).text("wits.errors.bank_too_small", size=len(bank), count=count))


def deal(settings, rng) -> None:
    """The chance step of the set-up: draw this game's questions into ``settings.options``
    (``question_ids``, ``question_set``), once — a game that holds them (undo, resume) keeps them.

    The bank's fixed order goes on from its saved position (no repeats across games); for a
    bank with no saved position yet, ``rng`` (the table's, seeded by ``--seed``) picks where the
    first pass starts when ``--seed`` was given (:func:`deck.first_start`).

    :raises ValueError: the position cannot be saved (one sentence in the table's language).
    """
    opts = settings.options
    if opts.get("question_set"):
        return
    bank = load_bank(opts.get("questions"), settings.lang)
    try:
        chosen = draw_questions(bank, opts.get("count", DEFAULT_QUESTIONS),
                                bank_key(opts.get("questions"), settings.lang),
                                rng=rng if opts.get("bank_seed") is not None else None)
    except OSError as exc:
        raise ValueError(Prompts.load(settings.lang).text("wits.errors.bank_position", reason=exc)) from exc
    opts["question_ids"] = [q.id for q in chosen]
    opts["question_set"] = [q.to_dict() for q in chosen]


# --------------------------------------------------------------------------- the host


class Host:
    """The Wits & Wagers host: a queued ``transitions`` machine over this object.

    :param table: the :class:`~voicegame.engine.table.Table` (settings validated; if not,
        :func:`validate` is called here). The constructor draws the questions (:func:`deal`)
        and never listens.
    """

    def __init__(self, table: Table):
        self.table = table
        settings = table.settings
        if not settings.options.get("players") or "count" not in settings.options:
            validate(settings)
        if not settings.options.get("question_set"):
            deal(settings, table.chance())
            table.settings_changed()
        self.lang = settings.lang
        self.wu = wits_understanding(settings.lang)
        self.questions = [Question.from_dict(d) for d in settings.options["question_set"]]
        self.players: tuple[str, ...] = tuple(settings.options["players"])
        #: the names the table chose for colour players ("violeta" for purple), see :meth:`name`
        self.chosen_names: dict[str, str] = dict(settings.options.get("names") or {})
        self.game = new_game(self.players, len(self.questions))
        #: the question in play (rule state: guesses, mat, bets), ``None`` between questions
        self.q: rules.QuestionState | None = None
        self.last_result: rules.QuestionResult | None = None
        self.tie: dict | None = None
        #: the player the host is asking now (the speaker an "undo" belongs to), else ``None``
        self.addressed: str | None = None
        self.tips: set[str] = set()
        self.rules_at = -1
        #: "ready" was said at an untimed guessing or betting moment (``--timer off``)
        self.ready = False
        #: the opening's choices (:meth:`opening`): the gist said, how the first question is said
        self.gist_told = True
        self.first = FirstQuestion()
        self.machine = Machine(model=self, states=Phase, transitions=TRANSITIONS, initial=Phase.SETUP,
                               auto_transitions=False, queued=True)
        table.score_callback = self.say_scores
        #: the autosave's state of finished, frozen parts (turns, questions) converted once
        self.snapshot_memo = SnapshotMemo()
        table.snapshot_callback = self.snapshot
        table.where_we_are = self.where_we_are
        table.speaker_of = self.speaker_of

    # ------------------------------------------------------------------ driver
    def play(self) -> None:
        """Run the whole game; returns when it is over. :raises PhaseError: a trigger could not fire."""
        phases.play(self, "start", Phase.GAME_OVER)

    def fire(self, trigger: str) -> None:
        """Fire ``trigger`` (queued). :raises PhaseError: no transition of it can fire now."""
        phases.fire(self, trigger)

    def _enter(self) -> None:
        """Mark the phase for undo and the autosave ("guesses:3")."""
        phase = self.state.value
        if self.state in (Phase.QUESTION, Phase.GUESSES, Phase.BETS, Phase.REVEAL):
            phase = f"{phase}:{self.number}"
        self.table.enter_phase(phase)

    # ------------------------------------------------------------------ conditions (pure rules)
    def all_guessed(self) -> bool:
        return self.q is not None and rules.all_guessed(self.q)

    def all_bet(self) -> bool:
        return self.q is not None and rules.all_bet(self.q)

    def game_is_over(self) -> bool:
        """Every question has been played (K8)."""
        return self.game.is_over

    # ------------------------------------------------------------------ state
    def snapshot(self) -> dict:
        """JSON-ready state for the autosave (informative; resume replays the log)."""
        return {"state": self.state.value, "game": self.snapshot_memo.asdict(self.game),
                "question": self.snapshot_memo.asdict(self.q) if self.q else None}

    @property
    def number(self) -> int:
        """1-based number of the current question (the last one once the game is over)."""
        return min(self.game.question_index + 1, len(self.questions)) if self.q is None else self.q.number

    @property
    def question(self) -> Question:
        return self.questions[self.number - 1]

    @property
    def scale(self) -> int:
        """The scale the current question asks in (10**6 for "How many million…?"), else 1."""
        q = self.question
        return self.wu.question_scale(q.question, q.unit)

    def first_time(self, moment: str) -> bool:
        """True the first time ``moment`` comes up in this game (its tip is said then)."""
        if moment in self.tips:
            return False
        self.tips.add(moment)
        return True

    def speaker_of(self, text: str | None) -> str | None:
        """Who said ``text`` (for "undo", G4): the player it names, else the player asked now,
        else ``None`` (anyone: a timer's open floor)."""
        named = self.wu.player_named(text or "", self.players)
        return named or self.addressed

    # ------------------------------------------------------------------ the public view
    def show(self, hint_key: str | None = None) -> None:
        """Publish the public view (VIEWS.md, game "wits") after every change. The answer is
        only in it from the reveal on (``payout``); guesses and bets are said aloud, so public."""
        t = self.table
        q = self.q
        question = None
        if self.state not in (Phase.SETUP, Phase.INTRO, Phase.FINAL, Phase.GAME_OVER) and q is not None:
            asked = self.question
            question = {"number": q.number, "total": len(self.questions), "text": asked.question,
                        "unit": asked.unit or None}
        guesses = [{"player": p, "value": q.guesses.get(p)} for p in self.players if p in q.guesses] if q else []
        mat, bets = self.mat_view(q.mat, q.book.bets) if q is not None and q.mat is not None else ([], [])
        payout = None
        result = self.last_result
        if result is not None and self.state in (Phase.REVEAL, Phase.FINAL, Phase.GAME_OVER):
            asked = self.questions[result.number - 1]
            payout = {"answer": result.answer, "unit": asked.unit or None, "winning_slot": result.winning_slot,
                      "paid": {p.player: p.won + p.bonus for p in result.settlement.players}}
            # the mat it pays beside the payout: a page loaded now draws the winning slot on it
            guesses = [{"player": p, "value": result.guesses.get(p)} for p in self.players]
            mat, bets = self.mat_view(result.mat, result.bets)
            if question is None and self.state is Phase.REVEAL:
                question = {"number": result.number, "total": len(self.questions), "text": asked.question,
                            "unit": asked.unit or None}
        waiting = ()
        if q is not None and self.state is Phase.GUESSES:
            waiting = rules.waiting_guessers(q)
        elif q is not None and self.state is Phase.BETS:
            waiting = rules.waiting_bettors(q)
        data = {
            "lang": self.lang,
            "players": [{"id": p, "name": self.name(p)} for p in self.players],
            "scores": dict(self.game.chips),
            "turn": question["number"] if question else None,
            "active": self.addressed,
            "hint": t.text(hint_key) if hint_key else None,
            "round_total": len(self.questions),
            "question": question,
            "guesses": guesses,
            "mat": mat,
            "bets": bets,
            "chips": dict(self.game.chips),
            "payout": payout,
            "waiting": list(waiting),
        }
        t.show(self.state.value, data)

    def mat_view(self, mat: rules.Mat, placed) -> tuple[list[dict], list[dict]]:
        """The view's ``mat`` (eight slots: odds, label, guess, guessers) and ``bets`` (each token
        numbered "1"/"2" per player, with its chips), VIEWS.md."""
        slots = [{"slot": slot.id, "odds": slot.odds, "label": self.text("wits.odds_label", odds=slot.odds),
                  "value": slot.guess, "players": list(slot.players)} for slot in mat.slots]
        counts: dict[str, int] = {}
        bets = []
        for b in placed:
            counts[b.player] = counts.get(b.player, 0) + 1
            bets.append({"player": b.player, "slot": b.slot_id, "token": str(counts[b.player]), "chips": b.chips})
        return slots, bets

    # ------------------------------------------------------------------ phases
    def on_enter_INTRO(self) -> None:
        self._enter()
        t = self.table
        t.check_vocabulary(w for phrase in self.wu.vocabulary(self.players) for w in phrase.split())
        welcome, seats, self.first = self.opening()
        self.gist_told = welcome == "wits.welcome" or welcome == "wits.welcome_gist"
        if welcome:
            t.say(welcome)
        if seats:
            t.say_text(seats)
        self.show()
        self.fire("begin")

    def opening(self) -> tuple[str | None, str | None, FirstQuestion]:
        """The opening's parts, the richest that keep it within :data:`OPENING_WORDS` (the
        voice budget, tests/test_voice_budget.py) with the first question and its timer as
        the host then says them (:meth:`first_question_lines`): ``(welcome key or None, the
        seats sentence or None, the first question's :class:`FirstQuestion`)``.

        Dropped in this order until it fits: the gist (then said at the
        first mat, ``wits.tip_closest``), the timer's example, the title, with ``--timer off``
        the long "no timer" sentence (``common.timer_off_short`` says it in fewer words), the
        question's number (said on "repeat the question"). The question itself and "colour and
        guess" always stay. The seats are said when the table did not name the players
        (``seats_named`` false), in pairs ("Red and Blue, Green and Yellow": two short chunks
        are easier to keep than a list of four)."""
        seats = None
        if self.table.settings.options.get("seats_named") is False:
            seats = self.text("wits.seats", seats=in_pairs(self.names(self.players), self.table.prompts.join))
        short = "wits.timer_guess_short"
        choices = [("wits.welcome", FirstQuestion()), ("wits.welcome_gist", FirstQuestion()),
                   ("wits.welcome_title", FirstQuestion()), ("wits.welcome_title", FirstQuestion(short)),
                   (None, FirstQuestion(short)), (None, FirstQuestion(short, "common.timer_off_short")),
                   (None, FirstQuestion(short, "common.timer_off_short", numbered=False))]
        for welcome, first in choices:
            said = [self.text(welcome)] if welcome else []
            if sum(words(x) for x in [*said, seats or "", *self.first_question_lines(first)]) <= OPENING_WORDS:
                return welcome, seats, first
        welcome, first = choices[-1]
        return welcome, seats, first

    def first_question_lines(self, first: FirstQuestion) -> list[str]:
        """What the host says of the first question before anyone answers, as QUESTION and
        GUESSES say it: the question (:meth:`question_text`, numbered or not), then the guessing
        timer's start (``first``'s purpose and ``--timer off`` keys, :meth:`guess_timer`)."""
        start = self.table.timer_start_text(self.seat_key(first.purpose), off_key=first.off_key, **self.guess_timer())
        return [self.question_text(first.numbered)] + ([start] if start else [])

    def guess_timer(self) -> dict:
        """The guessing timer's words for :meth:`Table.timed_moment` and
        :meth:`Table.timer_start_text`: its start sentence and the example guess it names."""
        return {"start_key": "wits.timer_start", "example": self.example_guess()}

    def on_enter_QUESTION(self) -> None:
        self.q = rules.start_question(self.game)
        self.last_result = None
        self._enter()
        self.read_question(numbered=self.number > 1 or self.first.numbered)
        self.show()
        self.fire("question_read")

    def on_enter_GUESSES(self) -> None:
        """K2: the guessing timer listens; then whoever is missing is asked in seat order;
        then "Any guess to fix?"."""
        t = self.table
        self._enter()
        self.show("wits.hint_guess")
        first = self.first_time("guess_timer")
        purpose, off_key = (self.seat_key(self.first.purpose), self.first.off_key) if first \
            else ("wits.timer_guess", TimerWords.off)
        self.addressed = None
        t.timed_moment(purpose, self.with_requests(self.parse_open_guess), done=self.guessing_done,
                       on_answer=self.take_open_guess, phrases=self.guess_phrases(),
                       help_key="wits.help_guess_timer", moment="guess_timer", off_key=off_key, **self.guess_timer())
        self.ready = False
        for player in rules.waiting_guessers(self.q):
            if player in self.q.guesses:  # answered meanwhile (a guess out of turn)
                continue
            self.ask_guess(player)
        self.addressed = None
        self.confirm_guesses()
        self.fire("guesses_taken")

    def on_enter_BETS(self) -> None:
        """K3, K4: the mat, read once; the betting timer listens; then the missing are asked."""
        t = self.table
        self.q = rules.open_mat(self.q)
        self._enter()
        self.show("wits.hint_bet")
        t.say_text(self.mat_text())
        if self.first_time("too_high"):
            if not self.gist_told:  # the opening had no room for it (:meth:`opening`)
                t.say_text(self.text("wits.tip_closest"), remember=False)
            t.say_text(self.text("wits.tip_too_high"), remember=False)
        purpose = "wits.timer_bet_first" if self.first_time("bet_timer") else "wits.timer_bet"
        self.addressed = None
        self.ready = False
        t.timed_moment(purpose, self.with_requests(self.bet_parser(None), mat=True), done=self.betting_done,
                       on_answer=self.take_open_bet, phrases=self.bet_phrases(), help_key="wits.help_bet_timer",
                       moment="bet_timer", start_key="wits.timer_start", first=self.cap(self.players[0]),
                       slot=self.num(self.q.mat.occupied()[0].guess) if self.q.mat.occupied() else
                       self.text("wits.too_high_name"))
        for player in rules.waiting_bettors(self.q):
            self.take_bets(player)
        self.addressed = None
        self.fire("bets_taken")

    def on_enter_REVEAL(self) -> None:
        t = self.table
        self._enter()
        asked = self.question
        chips_before = dict(self.game.chips)
        self.game, result = rules.settle_question(self.game, self.q, asked.answer)
        self.last_result = result
        self.q = None
        t.say_text(self.answer_text(asked))
        self.say_winning_slot(result)
        for line in self.payout_lines(result.settlement.players):
            t.say_text(line)
        self.record_question(asked, result, chips_before)
        self.show()
        if not self.game.is_over:
            self.say_leaders()
        self.fire("settled")

    def on_enter_FINAL(self) -> None:
        t = self.table
        self._enter()
        self.show()
        tied = winners(self.game)
        top = self.game.chips[tied[0]]
        if len(tied) == 1:
            won = list(tied)
            t.say("wits.winner", Player=self.cap(tied[0]), with_chips=self.with_chips(top))
        else:
            t.say("wits.tie", players=self.names_first_cap(tied), with_chips=self.with_chips(top))
            youngest = self.ask_youngest(tied)
            if len(youngest) == 1:
                won = [break_tie(tied, youngest[0])]
                t.say("wits.tie_winner", Player=self.cap(won[0]), player=self.name(won[0]),
                      with_chips=self.with_chips(top))
            else:  # K8 is silent on youngest players of the same age: the tie stands
                won = list(youngest)
                t.say("wits.tie_shared", players=self.names(won), with_chips=self.with_chips(top))
            self.tie = {"tied": list(tied), "youngest": list(youngest)}
        t.note_record(standings=[dataclasses.asdict(s) for s in standings(self.game)], winners=list(won),
                      tie_break=self.tie, chips=dict(self.game.chips))
        for sentence in self.highlights():
            t.say_text(sentence)
        self.last_words()
        t.say("common.game_over")
        self.fire("finish")

    def on_enter_GAME_OVER(self) -> None:
        self._enter()
        self.show()

    # ------------------------------------------------------------------ listening helpers
    def ask(self, key: str | None, parse, **kwargs):
        """:meth:`Table.ask` of this game, where "rules" tells the next part of the rules and
        "the mat" / "repeat the question" / "where is that from?" / "the scores" are answered
        (none of them an input "undo" takes back)."""
        mat = kwargs.pop("mat", False)
        wrapped = self.with_requests(parse, mat=mat)
        while True:
            got = self.table.ask(key, wrapped, **kwargs)
            if not self.answer_request(got):
                return got
            key = None

    def with_requests(self, parse, mat: bool = False):
        """``parse`` that also understands the requests of every moment (:class:`Said`)."""
        wu = self.wu

        def wrapped(text: str):
            self.undo_said(text)
            if wu.said("rules", text):
                return Said.RULES
            if wu.said("repeat_question", text):
                return Said.READ_QUESTION
            if wu.said("source", text):
                return Said.READ_SOURCE
            if wu.said("read_scores", text):
                return Said.READ_SCORES
            if wu.said("read_mat", text):
                if mat or (self.q is not None and self.q.mat is not None):
                    return Said.READ_MAT
            return parse(text)

        return wrapped

    def undo_said(self, text: str) -> None:
        """"red, undo": the global undo, said with the speaker's colour (only Red's own last input
        is taken back, G4); "nothing to undo" when it is not Red's. :raises Undo: taken back."""
        words = self.wu.words(text, self.players)
        named = self.wu.player_named(text, self.players)
        if named is None or len(words) < 2:
            return
        colour = {w for ph in self.wu.player_phrases(named) for w in ph}
        rest = " ".join(w for w in words if w not in colour)
        if self.table.understanding.command(rest) == "undo":
            self.table.command("undo", None)
            raise NotUnderstood

    def answer_request(self, got) -> bool:
        """Say what a request asked for; True when ``got`` was one (not an input for undo)."""
        if got not in (Said.RULES, Said.READ_QUESTION, Said.READ_SOURCE, Said.READ_SCORES, Said.READ_MAT):
            return False
        t = self.table
        t.not_undoable()
        if got is Said.RULES:
            self.say_rules()
        elif got is Said.READ_QUESTION:
            self.read_question(remember=False)
        elif got is Said.READ_SOURCE:
            t.say_text(self.source_text(), remember=False)
        elif got is Said.READ_SCORES:
            self.say_scores()
        else:
            t.say_text(self.mat_text(full=True), remember=False)
        return True

    def say_rules(self) -> None:
        """The next part of the rules on each "rules" (they start over after the last); each part
        ends by saying how to hear more or stop ("got it" is simply nothing more asked)."""
        t = self.table
        chunks = [k for k in (f"wits.rules.{i}" for i in range(1, 20)) if t.prompts.has(k)]
        self.rules_at = (self.rules_at + 1) % len(chunks)
        sentence = t.text(chunks[self.rules_at])
        if self.rules_at + 1 < len(chunks):
            sentence += " " + t.text("wits.rules_more")
        t.say_text(sentence, remember=False)

    def read_question(self, remember: bool = True, numbered: bool = True) -> None:
        """Read the current question (:meth:`question_text`)."""
        self.table.say_text(self.question_text(numbered), remember=remember)

    def question_text(self, numbered: bool = True) -> str:
        """The current question as read ("Question 3 of 7. …"; not ``numbered``: the question
        alone, as an opening short of room says the first, :meth:`opening`)."""
        if not numbered:
            return self.question.question
        return self.text("wits.read_question", number=self.number, count=len(self.questions),
                         question=self.question.question)

    def where_we_are(self) -> list[str]:
        """A resumed game's first words: where the game is (question n of 7, the chips), then
        what is pending (the question; in the betting, the mat)."""
        if self.state in (Phase.SETUP, Phase.INTRO):
            return []
        if self.state in (Phase.FINAL, Phase.GAME_OVER):
            return [self.text("wits.resume_final"), *self.leaders_text()]
        said = [self.text("wits.resume_where", number=self.number, count=len(self.questions)), *self.leaders_text()]
        if self.q is not None:
            said.append(self.question.question)
            if self.q.mat is not None:
                said.append(self.mat_text())
            said += self.still_to_answer()
        return said

    def still_to_answer(self) -> list[str]:
        """While a guessing or betting timer's floor is open (time left on it), who has not
        answered yet, for a resumed game ("Still to guess: Green."; more than
        :data:`LIST_ITEMS` players: how many); else nothing (playtest: the timer ran on in
        silence after a resume). The input the resume goes live with (the last one logged)
        is taken just after this, and read back ("Still to guess: Blue and Green." "Blue: 6.")."""
        left = self.table.timer_left()
        if left is None or left <= 0 or self.q is None:
            return []
        if self.state is Phase.GUESSES and self.q.mat is None:
            waiting, kind = rules.waiting_guessers(self.q), "guess"
        elif self.state is Phase.BETS and self.q.mat is not None:
            waiting, kind = rules.waiting_bettors(self.q), "bet"
        else:
            return []
        if not waiting:
            return []
        if len(waiting) > LIST_ITEMS:
            return [self.text(f"wits.still_to_{kind}_many", n=len(waiting))]
        return [self.text(f"wits.still_to_{kind}", players=self.names(waiting))]

    # ------------------------------------------------------------------ guessing
    def example_guess(self) -> str:
        """"Red 12": the first player and a number that is not the answer (a tip must not give
        it away)."""
        answer = self.question.answer
        return f"{self.cap(self.players[0])} {self.num(12 if answer != 12 else 15, year=False)}"

    def guessing_done(self) -> bool:
        return rules.all_guessed(self.q) or self.ready

    def guess_value(self, text: str):
        """The number a guess says (unit words and the question's scale allowed), ``None`` for
        "no guess"; :class:`NotUnderstood` when it says none."""
        said = self.wu.guess_said(text, self.question.unit, self.scale)
        if said is None:
            raise NotUnderstood
        return None if said[0] == NO_GUESS else said[0]

    def parse_fix(self, text: str):
        """"red 2009" → ``("red", 2009)``; "no, 40" → the last guesser and 40 (G4); else
        :class:`NotUnderstood`."""
        wu = self.wu
        fix = wu.fix_said(text, self.players, self.question.unit, self.scale)
        if fix is not None:
            return fix[0], (None if fix[1] == NO_GUESS else fix[1])
        opening = wu.fix_opening_rest(text)
        if opening is not None:
            value = self.guess_value(opening)
            if self.q.last is None:
                raise NotAllowed(self.text("wits.nothing_to_correct"))
            return self.q.last, value
        raise NotUnderstood

    def parse_open_guess(self, text: str):
        """A guess on the timer's open floor: it must name its player ("red, 350")."""
        if self.wu.is_ready(text) and not self.table.settings.timer_s:
            return Said.READY
        try:
            return self.parse_fix(text)
        except NotUnderstood:
            pass
        self.guess_value(text)  # a bare number: whose?
        raise NotAllowed(self.text("wits.say_colour_guess", example=self.example_guess()))

    def take_open_guess(self, got) -> None:
        self.take_open(got, self.give_guess)

    def take_open(self, got, apply) -> None:
        """An answer on a timer's open floor: a request is answered, "ready" (timer off) ends the
        moment, anything else is applied (``apply(*got)``)."""
        if self.answer_request(got):
            return
        if got is Said.READY:
            self.ready = True
            return
        apply(*got)

    def give_guess(self, player: str, value) -> None:
        """Apply a guess (a rule action), read it back once and publish the view."""
        t = self.table
        again = player in self.q.guesses
        self.q = rules.give_guess(self.q, player, value)
        t.note_speaker(player)
        if value is None:
            t.say_text(self.text("wits.readback_no_guess", Player=self.cap(player)), remember=False)
        else:
            key = "wits.readback_changed" if again else "wits.readback_guess"
            t.say_text(self.text(key, Player=self.cap(player), guess=self.value_text(self.question, value)),
                       remember=False)
        self.show("wits.hint_guess")

    def ask_guess(self, player: str) -> None:
        """One player's guess after the timer (K2): a number, "no guess", or silence twice.
        A guess naming a player is that player's ("no, 40" corrects the last one)."""
        t = self.table

        def parse(text: str):
            try:
                return self.parse_fix(text)
            except NotUnderstood:
                return player, self.guess_value(text)

        self.addressed = player
        self.show("wits.hint_guess")
        got = self.ask("wits.ask_guess", parse, phrases=self.guess_phrases(), help_key="wits.help_guess",
                       moment="guess", silence_limit=GUESS_SILENCES, Player=self.cap(player))
        if got is SILENT:
            self.q = rules.give_guess(self.q, player, None)
            t.say_text(self.text("wits.no_guess_recorded", Player=self.cap(player)), remember=False)
            self.show("wits.hint_guess")
            return
        who, value = got
        self.give_guess(who, value)
        if who != player and player not in self.q.guesses:
            self.ask_guess(player)

    def confirm_guesses(self) -> None:
        """"Any guess to fix?" (G4): a colour and a number, or "no, 40", changes one; "yes" asks
        which; "no", "that's right" or silence closes the guessing."""
        wu, u = self.wu, self.table.understanding

        def parse(text: str):
            try:
                return self.parse_fix(text)
            except NotUnderstood:
                pass
            if wu.said("all_right", text) or wu.keeps_guesses(text) and u.yes_no(text) is not True:
                return Said.KEEP
            if u.yes_no(text) is True:
                return Said.FIX
            raise NotUnderstood

        phrases = (self.guess_phrases() + u.yes_no_phrases()
                   + [" ".join(p) for k in ("all_right", "back_out") for p in wu.moments.get(k, ())])
        key = self.seat_key("wits.any_fix_first") if self.first_time("any_fix") else "wits.any_fix"
        while True:
            got = self.ask(key, parse, phrases=phrases, help_key=self.seat_key("wits.help_any_fix"), moment="fix_guess",
                           silence_limit=CONFIRM_SILENCES)
            if got is SILENT or got is Said.KEEP:
                return
            if got is Said.FIX:
                key = "wits.which_guess"
                continue
            self.give_guess(*got)
            key = "wits.any_other_fix"

    # ------------------------------------------------------------------ betting
    def betting_done(self) -> bool:
        return rules.all_bet(self.q) or self.ready

    def bet_parser(self, current: str | None):
        """A parse function for bets: ``(player, request, slots or AmbiguousSlot)``.

        :param current: the player asked now; ``None`` on the timer's open floor (then the bet
            must start with a colour; an ambiguous slot is asked back as :class:`Ambiguous`).
        """

        def parse(text: str):
            if current is None and self.wu.is_ready(text) and not self.table.settings.timer_s:
                return Said.READY
            readings = self.wu.parse_bet(text, self.players)
            if not readings:
                raise NotUnderstood
            error: Exception | None = None
            for request in readings:
                player = request.player or current
                if player is None:
                    error = error or NotAllowed(self.text("wits.say_colour_first"))
                    continue
                try:
                    slots = resolve(request, self.q.mat)
                except AmbiguousSlot as ambiguous:
                    if current is None:
                        error = error or Ambiguous(self.text("wits.which_side_open", Player=self.cap(player),
                                                             odds=ambiguous.odds), ambiguous.slot_ids)
                        continue
                    return player, request, ambiguous
                except SlotNameError as exc:
                    error = error or NotAllowed(self.slot_error(exc))
                    continue
                try:
                    self.placed(player, request, slots)
                except NotAllowed as exc:
                    error = error or exc
                    continue
                return player, request, tuple(slots)
            raise error

        return parse

    def placed(self, player: str, request: BetRequest, slots) -> rules.QuestionState:
        """The question state with ``request`` placed for ``player`` (K4), or :class:`NotAllowed`."""
        new = [Bet(player, slot_id, chips) for slot_id, chips in slots]
        held = self.game.chips[player]
        mine = list(new) if request.replace else list(self.q.book.bets_of(player)) + new
        try:
            return rules.give_bets(self.q, player, mine, held)
        except rules.TooManyBets:
            if not request.replace and self.q.book.bets_of(player):
                raise NotAllowed(self.text("wits.third_bet", Player=self.cap(player), player=self.name(player))) from None
            raise NotAllowed(self.text("wits.too_many_bets", Player=self.cap(player))) from None
        except rules.EmptySlotBet as exc:
            name = self.slot_name(self.q.mat.slot(exc.slot_id))
            raise NotAllowed(self.text("wits.empty_slot", Slot=name[:1].upper() + name[1:])) from None
        except rules.NotEnoughChips as exc:
            if not exc.held:
                raise NotAllowed(self.text("wits.not_enough_chips_none", Player=self.cap(player))) from None
            raise NotAllowed(self.text("wits.not_enough_chips", Player=self.cap(player),
                                       held=self.chips(exc.held))) from None
        except (rules.InvalidChips, rules.NegativeChips):
            raise NotAllowed(self.text("wits.bad_chips")) from None

    def slot_error(self, exc: SlotNameError) -> str:
        if isinstance(exc, UnknownGuess):
            if not self.q.mat.occupied():
                return self.text("wits.no_guesses")
            return self.text("wits.unknown_guess", value=self.num(exc.value))
        if isinstance(exc, NoGuessOf):
            return self.text("wits.player_no_guess", Player=self.cap(exc.player))
        if isinstance(exc, NoGuesses):
            return self.text("wits.no_guesses")
        if isinstance(exc, NoSuchOdds):
            return self.text("wits.no_such_odds", odds=self.num(exc.odds))
        if isinstance(exc, BadChips):
            return self.text("wits.bad_chips")
        raise exc

    def take_open_bet(self, got) -> None:
        self.take_open(got, self.give_bets)

    def give_bets(self, player: str, request: BetRequest, slots) -> None:
        """Apply bets (a rule action), read them back once and publish the view."""
        t = self.table
        self.q = self.placed(player, request, slots)
        t.note_speaker(player)
        t.say_text(self.text("wits.readback_bet", Player=self.cap(player), bets=self.bets_text(player)),
                   remember=False)
        self.show("wits.hint_bet")

    def take_bets(self, player: str) -> None:
        """Ask ``player`` for their bets after the timer; silence twice is no bet (K4)."""
        t = self.table
        self.addressed = player
        self.show("wits.hint_bet")
        held = self.game.chips[player]
        key = "wits.ask_bet" if held else "wits.ask_bet_none"
        while True:
            got = self.ask(key, self.bet_parser(player), phrases=self.bet_phrases(), mat=True,
                           help_key="wits.help_bet", moment="bet", silence_limit=BET_SILENCES,
                           Player=self.cap(player), holding=self.holding(held))
            key = "wits.ask_bet_none"
            if got is SILENT:
                self.q = rules.give_bets(self.q, player, (), self.game.chips[player])
                t.say_text(self.text("wits.no_bet_recorded", Player=self.cap(player)), remember=False)
                self.show("wits.hint_bet")
                return
            who, request, result = got
            if isinstance(result, AmbiguousSlot):
                result = self.ask_side(who, request, result)
                if result is None:
                    continue
            self.give_bets(who, request, result)
            if who == player or player in self.q.bettors:
                return

    def ask_side(self, player: str, request: BetRequest, ambiguous: AmbiguousSlot):
        """"The 3 to 1 on the left, or on the right?" → the slots, or ``None`` (not placed)."""
        t = self.table
        side = self.ask("wits.which_side", lambda text: understood(self.wu.side(text)),
                        phrases=t.understanding.side_phrases(), help_key="wits.help_side", moment="which_side",
                        silence_limit=GUESS_SILENCES, Player=self.cap(player), odds=ambiguous.odds)
        if side is SILENT:
            t.say_text(self.text("wits.side_not_heard"), remember=False)
            return None
        slots = resolve(request, self.q.mat, side)
        try:
            self.placed(player, request, slots)
        except NotAllowed as exc:
            t.say_text(str(exc), remember=False)
            return None
        return slots

    # ------------------------------------------------------------------ the end
    def ask_youngest(self, tied: list[str]) -> list[str]:
        """K8: which tied player (or team) has the youngest player ("Who is younger: Red or
        Blue?"); "same age" / "both" / "red and blue": the tie stands and they share the win.
        A colour that is not tied is refused with the reason."""
        wu = self.wu
        joins = {w for p in wu.bets["join"] for w in p}

        def parse(text: str) -> list[str]:
            named = wu.players_named(text, self.players)
            others = [n for n in named if n not in tied]
            if others:
                key = "wits.not_tied" if others[0] in self.players else "wits.not_playing"
                raise NotAllowed(self.text(key, Player=self.cap(others[0]), players=self.or_list(tied)))
            same_age = wu.said("same_age", text, contains=True)
            if len(named) == 1 and not same_age:
                return named
            if len(named) >= 2:
                names = {w for pl in named for ph in wu.player_phrases(pl) for w in ph}
                if same_age or all(w in names or w in joins for w in wu.words(text, self.players)):
                    return [p for p in tied if p in named]
            elif same_age:
                return list(tied)
            raise NotUnderstood

        phrases = ([" ".join(p) for pl in self.players for p in wu.player_phrases(pl)]
                   + self.table.understanding.colour_phrases()
                   + [" ".join(p) for p in wu.moments.get("same_age", ())] + [" ".join(p) for p in wu.bets["join"]])
        return self.ask("wits.ask_youngest", parse, phrases=phrases, help_key="wits.help_youngest",
                        moment="youngest", players=self.or_list(tied))

    def last_words(self) -> None:
        """After the last reveal and the winner: the table may still ask where an answer is
        from ("where is that from?"); "done" or silence ends the game."""

        def parse(text: str):  # anything but a request ends the game: table talk never traps it
            return Said.DONE

        self.ask("wits.last_words", parse, phrases=[" ".join(p) for p in self.wu.moments.get("source", ())]
                 + [" ".join(p) for p in self.wu.guesses["done"]], help_key="wits.help_last_words",
                 moment="last_words", silence_limit=1)

    def highlights(self) -> list[str]:
        """Two highlights of the game: the biggest win of one question with a winning bet (K8:
        "the best bet"; a guess bonus alone is no bet), and the closest guess."""
        out = []
        best = None
        for result in self.game.history:
            for p in result.settlement.players:
                gain = p.won + p.bonus - p.lost
                if p.won > 0 and gain > 0 and (best is None or gain > best[0]):
                    best = (gain, p.player, result.number)
        if best is not None:
            out.append(self.text("wits.highlight_win", Player=self.cap(best[1]), chips=self.chips(best[0]),
                                 number=best[2]))
        closest = None
        for result in self.game.history:
            asked = self.questions[result.number - 1]
            for player, guess in result.guesses.items():
                if guess is None:
                    continue
                off = abs(guess - result.answer) / (abs(result.answer) or 1)
                if closest is None or off < closest[0]:
                    closest = (off, player, guess, asked)
        if closest is not None:
            off, player, guess, asked = closest
            key = "wits.highlight_exact" if off == 0 else "wits.highlight_close"
            out.append(self.text(key, Player=self.cap(player), guess=self.value_text(asked, guess),
                                 answer=self.value_text(asked, asked.answer)))
        return out

    # ------------------------------------------------------------------ record
    def record_question(self, q: Question, result: rules.QuestionResult, chips_before: dict) -> None:
        """Append the question's record and award every chip won or lost (re-scorable)."""
        t = self.table
        n = result.number
        s = result.settlement
        t.record_turn({
            "question": n,
            "id": q.id,
            "text": q.question,
            "answer": q.answer,
            "unit": q.unit,
            "source": q.source,
            "year": q.year,
            "guesses": dict(result.guesses),
            "slots": [{"id": sl.id, "odds": sl.odds, "side": sl.side, "guess": sl.guess, "players": list(sl.players)}
                      for sl in result.mat.slots],
            "bets": [{"player": b.player, "slot": b.slot_id, "chips": b.chips} for b in result.bets],
            "winning_slot": s.winning_slot,
            "bonuses": s.bonuses,
            "payouts": {p.player: {"won": p.won, "returned": p.returned, "lost": p.lost, "bonus": p.bonus}
                        for p in s.players},
            "chips_before": chips_before,
            "chips_after": s.chips_after,
        })
        for p in s.players:
            if p.won:
                t.award(p.player, p.won, "chips", f"winning bet on slot {s.winning_slot} (K6)", n)
            if p.bonus:
                t.award(p.player, p.bonus, "chips", "guess in the winning slot (K7)", n)
            if p.lost:
                t.award(p.player, -p.lost, "chips", "chips on losing bets to the bank (K6)", n)

    # ------------------------------------------------------------------ speech building
    def text(self, key: str, **values) -> str:
        return self.table.text(key, **values)

    def name(self, player: str) -> str:
        """How a player is called aloud in a sentence (G3): a colour as a name with a capital,
        in the word the table chose ("Violeta" from ``--players violeta``) or else the
        language's ("Red", "Rojo", "Rood"), as in the other games; any other name as given
        ("bram"). At the start of a sentence use :meth:`cap`."""
        if player in self.table.understanding.colour_words:
            said = self.chosen_names.get(player) or self.table.name(player)
            return said[:1].upper() + said[1:]
        return self.table.name(player)

    def seat_key(self, key: str) -> str:
        """``key``, or its ``_named`` form ("Name and guess") when a player has a name, not a
        colour: "Colour and guess" said to Ann, Bob and Cat is wrong (play-test)."""
        if all(p in self.table.understanding.colour_words for p in self.players):
            return key
        return f"{key}_named"

    def names(self, players) -> list[str]:
        """:meth:`name` of each player (a list: the template joins it with "and")."""
        return [self.name(p) for p in players]

    def cap(self, player: str) -> str:
        """A player's name at the start of a sentence, with a capital ("blanco, ¿tu
        respuesta?" → "Blanco, ¿tu respuesta?"); the ``{Player}`` placeholders."""
        name = self.name(player)
        return name[:1].upper() + name[1:]

    def names_first_cap(self, players) -> list[str]:
        """:meth:`names` for a list that starts a sentence: the first name with a capital."""
        items = self.names(players)
        return [items[0][:1].upper() + items[0][1:], *items[1:]] if items else items

    def or_list(self, players) -> str:
        """Names joined with the language's "or" ("Red, Blue or Green")."""
        items = self.names(players)
        if len(items) == 1:
            return items[0]
        return ", ".join(items[:-1]) + " " + self.text("wits.or_word") + " " + items[-1]

    def num(self, value, year: bool | None = None) -> str:
        """A number as written for the host: decimals as given, group marks from 1,000 up —
        except a calendar year ("1969"), so the voice reads a quantity as a quantity ("1,500
        dollars", never "fifteen hundred") and a year as a year.

        :param year: the number is a calendar year; ``None``: it is when the current question
            asks for one (:meth:`asks_year`).
        """
        marks = self.table.understanding.numbers
        if year is None:
            year = self.asks_year()
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        sign = "-" if value < 0 else ""
        value = abs(value)
        whole, _, frac = (str(value) if isinstance(value, int) else repr(float(value))).partition(".")
        if "e" in whole or "e" in frac:
            whole, _, frac = f"{value:.10f}".rstrip("0").partition(".")
        if len(whole) > (4 if year and not frac and not sign else 3):
            whole = f"{int(whole):,}".replace(",", marks.group_mark)
        return sign + whole + (marks.decimal_mark + frac if frac else "")

    def asks_year(self, q: Question | None = None) -> bool:
        """True when ``q`` (default: the current question, if any) asks for a calendar year:
        its unit is a year and the question says "In what year…?"."""
        if q is None:
            try:
                q = self.question
            except (AttributeError, IndexError):
                return False
        unit = normalise(q.unit)
        return bool(unit) and unit in self.wu.calendar_units and self.wu.is_year_question(q.question)

    def chips(self, n: int) -> str:
        """"3 chips", "1 chip" (a count said on its own; 0 only in rare messages)."""
        if n == 0:
            return self.text("wits.chips_none")
        if n == 1:
            return self.text("wits.chips_one")
        return self.text("wits.chips_many", n=n)

    def with_chips(self, n: int) -> str:
        """"with 3 chips", or for none "with no chips" / "sin fichas" / "zonder fiches"."""
        return self.text("wits.with_chips", chips=self.chips(n)) if n else self.text("wits.with_no_chips")

    def holding(self, n: int) -> str:
        """The sentence of what a player holds: "You hold 3 chips.", "No tienes fichas."."""
        return self.text("wits.holding", chips=self.chips(n)) if n else self.text("wits.holding_none")

    def side_text(self, slot: Slot) -> str:
        return self.text(f"wits.side_{slot.side}") if slot.side else ""

    def slot_name(self, slot: Slot) -> str:
        """"all guesses too high", the guess in the slot, or "the 3 to 1 on the left" when empty."""
        if slot.is_too_high:
            return self.text("wits.too_high_name")
        if slot.occupied:
            return self.text("wits.guess_slot_name", guess=self.num(slot.guess))
        return self.text("wits.slot_name", odds=slot.odds, side=self.side_text(slot))

    def odds_name(self, slot: Slot) -> str:
        """A slot by its odds and side as the mat lists it: "3 to 1 on the left"."""
        return self.text("wits.odds_name", odds=slot.odds, side=self.side_text(slot))

    def spoken_slot_names(self, slot: Slot) -> list[str]:
        """Every way the host names ``slot`` aloud — in the mat, the bet read-backs, the
        winning slot and the empty-slot refusals — so that players can say any of them
        back in a bet (issue: the host's own words must be understood; a test parses each).
        """
        if slot.is_too_high:
            return [self.text("wits.too_high_name"), self.text("wits.odds_name", odds=slot.odds, side="")]
        names = [self.text("wits.slot_name", odds=slot.odds, side=self.side_text(slot)), self.odds_name(slot)]
        return names + ([self.slot_name(slot)] if slot.occupied else [])

    def mat_text(self, full: bool = False) -> str:
        """K3, read once: the guesses on the mat left to right with their odds, three a
        sentence; empty slots never. ``full`` ("the mat"): also who guessed each, and too high."""
        mat = self.q.mat
        occupied = mat.occupied()
        if not occupied:
            return self.text("wits.mat_no_guesses")
        if full:  # on request: one sentence a slot, with who guessed it
            return " ".join([self.text("wits.mat_slot", guess=self.num(slot.guess), odds=slot.odds,
                                       players=self.names(slot.players)) for slot in occupied]
                            + [self.text("wits.mat_too_high")])
        items = [self.text("wits.mat_item", guess=self.num(slot.guess), odds=slot.odds) for slot in occupied]
        groups = [items[i:i + LIST_ITEMS] for i in range(0, len(items), LIST_ITEMS)]
        return " ".join([self.text("wits.mat", items=groups[0])] + [self.text("wits.mat_more", items=g)
                                                                    for g in groups[1:]])

    def bets_text(self, player: str) -> str:
        """"both on 1969", "2 chips on 1969 and one on too high", "no bet"."""
        bets = self.q.book.bets_of(player) if self.q and self.q.book else ()
        if not bets:
            return self.text("wits.bet_none")
        if len(bets) == 2 and bets[0].slot_id == bets[1].slot_id:
            return self.text("wits.bet_both", slot=self.slot_name(self.q.mat.slot(bets[0].slot_id)),
                             chips=self.chips_part(bets[0].chips + bets[1].chips))
        return self.table.prompts.join([self.text("wits.bet_one", slot=self.slot_name(self.q.mat.slot(b.slot_id)),
                                                  chips=self.chips_part(b.chips)) for b in bets])

    def chips_part(self, n: int) -> str:
        """" with 3 chips" after a bet, nothing for a bare token."""
        return self.text("wits.bet_chips", chips=self.chips(n)) if n else ""

    def spoken_unit(self, q: Question) -> str:
        """The unit as the host says it: the question's unit, with the question's scale put
        before it when the unit does not say it ("How many million people…?", unit "people"
        → "million people"; Spanish "millones de personas"), or the scale alone."""
        wu = self.wu
        scale = wu.question_scale(q.question, q.unit)
        if scale == 1 or wu.unit_names_scale(q.unit, scale):
            return q.unit
        if not q.unit.strip() or wu.unit_is_silent(q.unit, q.question):
            return wu.scale_name(scale)
        return f"{wu.scale_name(scale, before_unit=True)} {q.unit}"

    def value_text(self, q: Question, value) -> str:
        """A number of question ``q`` as the host says it, with the unit — the answer, and every
        guess read back, alike: "42.195 kilometres", "17.1 million square kilometres", "Mach 2",
        and a calendar year bare ("1969", :meth:`WitsUnderstanding.unit_is_silent`)."""
        shown = self.num(value, year=self.asks_year(q))
        unit = self.spoken_unit(q)
        if unit == q.unit and self.wu.unit_is_silent(q.unit, q.question):
            return shown
        if unit == q.unit and self.wu.unit_goes_before(q.unit):
            return self.text("wits.answer_unit_before", value=shown, unit=unit)
        return self.text("wits.answer_unit", value=shown, unit=unit)

    def answer_value(self, q: Question) -> str:
        """The answer of ``q`` with its unit (:meth:`value_text`)."""
        return self.value_text(q, q.answer)

    def answer_text(self, q: Question) -> str:
        """"The answer is 17.1 million square kilometres." — the source is said only when asked
        (:meth:`source_text`)."""
        return self.text("wits.answer", answer=self.answer_value(q))

    def source_text(self) -> str:
        """The answer to "where is that from?": the source of the last answer revealed, as the
        host's voice can say it (``[sources]`` of the Wits words file: "IMDb" → "I M D b"), or
        that no answer was revealed yet / the bank names no source."""
        done = self.game.question_index  # questions revealed so far
        if done < 1:
            return self.text("wits.source_none_yet")
        q = self.questions[done - 1]
        if not q.source.strip():
            return self.text("wits.source_unknown")
        return self.text("wits.source", source=self.wu.spoken_source(q.source))

    def say_winning_slot(self, result: rules.QuestionResult) -> None:
        t = self.table
        slot = result.mat.slot(result.winning_slot)
        if slot.id == TOO_HIGH:
            t.say("wits.win_no_guesses" if not result.mat.occupied() else "wits.win_too_high")
            return
        asked = self.questions[result.number - 1]
        t.say("wits.win_slot", guess=self.num(slot.guess, year=self.asks_year(asked)), odds=slot.odds)

    def payout_lines(self, settled) -> list[str]:
        """The payouts (K6, K7), one sentence per equal change of chips, in seat order of the
        first player of each: "Red and Green each win 6 chips and get 3 bonus chips: 9 chips
        each now." (playtest: a sentence per player made 74 words between two inputs); the
        totals only where they are the same; nothing for a player whose chips did not change."""
        groups: dict[tuple, list] = {}
        for p in settled:
            if p.won or p.bonus or p.lost:
                groups.setdefault((p.won, p.bonus, p.lost), []).append(p)
        lines = []
        for (won, bonus, lost), members in groups.items():
            if len(members) == 1:
                lines.append(self.payout_text(members[0]))
                continue
            parts = []
            if won:
                parts.append(self.text("wits.part_won_many", won=self.chips(won)))
            if bonus:
                parts.append(self.text("wits.part_bonus_many", bonus=bonus))
            if lost:
                parts.append(self.text("wits.part_lost_many", lost=self.chips(lost)))
            totals = {p.chips_after for p in members}
            players = self.names_first_cap([p.player for p in members])
            if len(totals) > 1:
                lines.append(self.text("wits.payout_group_apart", Players=players, parts=parts))
            elif members[0].chips_after:
                lines.append(self.text("wits.payout_group", Players=players, parts=parts,
                                       chips=self.chips(members[0].chips_after)))
            else:
                lines.append(self.text("wits.payout_group_none", Players=players, parts=parts))
        return lines

    def payout_text(self, p: rules.PlayerSettlement) -> str:
        """One player's change of chips (K6, K7): "Green wins 2 chips and the 3 bonus: 5 now.";
        nothing for a player whose chips did not change."""
        parts = []
        if p.won:
            parts.append(self.text("wits.part_won", won=self.chips(p.won)))
        if p.bonus:
            parts.append(self.text("wits.part_bonus", bonus=p.bonus))
        if p.lost:
            parts.append(self.text("wits.part_lost", lost=self.chips(p.lost)))
        if not parts:
            return ""
        key = "wits.payout_line" if p.chips_after else "wits.payout_line_none"
        return self.text(key, Player=self.cap(p.player), parts=parts, chips=self.chips(p.chips_after))

    def leaders_text(self) -> list[str]:
        """Who leads (at most three names); nothing while nobody has chips."""
        top = winners(self.game)
        chips = self.game.chips[top[0]]
        if chips == 0 or len(top) > LIST_ITEMS:
            return []
        if len(top) == 1:
            return [self.text("wits.leader", Player=self.cap(top[0]), chips=self.chips(chips))]
        return [self.text("wits.leaders", players=self.names_first_cap(top), chips=self.chips(chips))]

    def say_leaders(self) -> None:
        for sentence in self.leaders_text():
            self.table.say_text(sentence)

    def say_scores(self) -> None:
        """Every player's chips, three a sentence ("the scores", the "score" command)."""
        items = [self.text("wits.standings_item", player=self.name(s.player), chips=self.chips(s.chips)) if s.chips
                 else self.text("wits.standings_item_none", player=self.name(s.player))
                 for s in standings(self.game)]
        groups = [items[i:i + LIST_ITEMS] for i in range(0, len(items), LIST_ITEMS)]
        sentences = [self.text("wits.standings", items=groups[0])]
        sentences += [self.text("wits.standings_more", items=g) for g in groups[1:]]
        self.table.say_text(" ".join(sentences), remember=False)

    # ------------------------------------------------------------------ grammar
    def guess_phrases(self) -> list[str]:
        wu = self.wu
        return (self.table.understanding.number_words() + [" ".join(p) for p in wu.guesses["no_guess"]]
                + [" ".join(ph) for pl in self.players for ph in wu.player_phrases(pl)]
                + [" ".join(p) for p in wu.fix_opening] + wu.unit_words(self.question.unit)
                + wu.scale_phrases(self.scale) + self.request_phrases())

    def request_phrases(self) -> list[str]:
        """The phrases of the requests every moment takes (rules, the question, the source…)."""
        return [" ".join(p) for k in ("rules", "repeat_question", "source", "read_scores", "read_mat")
                for p in self.wu.moments.get(k, ())]

    def bet_phrases(self) -> list[str]:
        return self.wu.vocabulary(self.players) + self.request_phrases()


# --------------------------------------------------------------------------- the lobby (issue 6)


def progress(save: dict, prompts) -> str:
    """Where an autosaved game stopped, in words for the lobby's resume offer ("question 4").

    :param save: an autosave (``voicegame-autosave/1``: its ``"phase"`` such as ``"bets:4"``).
    :param prompts: anything with ``text(key, **values)`` (a :class:`~voicegame.prompts.Prompts` or a Table).
    """
    kind, _, number = str(save.get("phase") or "").partition(":")
    if kind in ("question", "guesses", "bets", "reveal") and number.isascii() and number.isdigit():
        return prompts.text("wits.progress.question", number=int(number))
    if kind == "final":
        return prompts.text("wits.progress.final")
    return prompts.text("wits.progress.start")
