"""The spoken Wits & Wagers host (second edition; rulings K1–K9, G1–G4).

Per question (phases of a ``transitions`` machine over :class:`Host`):

1. ``question`` — read "question n of 7" and run the guessing timer (G1, K2).
2. ``guessing`` — ask each player in seat order for their guess ("Red, your
   guess?") and read it back, every guess alike with the question's unit ("Red: 85
   keys.", a calendar year bare: "Red: 1969."); the number may come with the
   player's own colour ("red, twenty"; another colour is refused with the reason)
   and with unit words ("fifty kilometres"); in a question asked in a scale ("How
   many million square kilometres…?") a guess said with it is taken in the
   question's unit ("seventeen million" → 17, read back "17 million square
   kilometres"); a non-number is asked again showing
   what was heard; silence re-prompts once, then records "no guess" (left off the
   mat; the player may still bet). Then all guesses are read back together: "yes"
   / "that's right" (or silence twice) accepts them, "no" asks which to change
   ("never mind" / "yes" there keeps them), "red 2009" / "no, red 2009" /
   "red no guess" changes one directly (G4); "undo" takes back the last answer.
3. ``betting`` — announce the mat (K3: every slot, its odds and whose guess is
   in it), run the betting timer, then ask each player in seat order for their
   bets (silence twice: no bet), reading each back. Betting closes by voice:
   "Any changes?" — a player says their colour and new bets (a two-token bet
   or "no bet" replaces theirs; a single token is added, a third refused, K4),
   and "no" / "done" (or silence twice) closes the betting; the bets are read back.
   "The mat" re-reads the mat at every betting moment (and at "say ready" with
   ``--timer off``); "never mind" after "yes" at "Any changes?" goes back to it.
   "Repeat the question" ("what was the question") re-reads the question at every
   guessing and betting moment; such a request is no answer, so "undo" passes over it.
4. ``reveal`` — the answer with its unit and source ("Source: World Athletics,
   figure for 2024."; no year when it is the answer itself), the winning slot
   (K5), the bonuses (K7), each player's winnings (K6), and the standings.

After the last question (``final``): the winner, the K8 tie-break question
when needed ("Who is younger: Red or Blue?" — worded for a player or a team, as
the host cannot tell them apart), and a recap of the questions with their answers.
K8 is silent on youngest players of the same age:
then ("same age", "both", "red and blue") the tie stands and those players share
the win (``record["winners"]`` lists them all, as R6 does for ROFL!).

Resume: ``voicegame resume`` replays the input log muted; at the first live
listening moment of a question whose reading was muted, the host reads the
question again ("We are at question 4 of 7. …"), and in the betting the mat too.

With ``--timer off`` the host's own "say ready" moment (G1) also takes "ok",
"yes", "done" and the language's ``[moments] ready`` words.

Options: ``--players red,blue,green,yellow`` (2–7 names, colours by default,
G3; a colour is kept as a colour key inside but said as the table chose it —
"violeta" stays "Violeta", not "Morado" — and other names keep their spelling:
"Ana", "bram"; every name starts a sentence with a capital), ``--questions PATH`` (CSV or TOML
bank), ``--count 7``. The questions are drawn in :func:`validate` from the
persisted bank position and stored in ``settings.options`` so that undo and resume
replay the same questions; ``voicegame play wits --seed N`` also picks where a bank
with no saved position starts (:func:`voicegame.decks.wits.first_start`).

Languages (``--lang en|es|nl``, issue 8): every sentence comes from
``prompts/<lang>/wits.toml``, every phrase word from ``words_wits.toml``; colour
players are said as names with a capital (:meth:`Host.name`: "Red", "Rojo", "Rood",
as the other games do); Dutch speaks to the table as "jullie", and "je" only to one
named player; numbers are written with
the language's decimal and group marks (:meth:`Host.num`: "42,195", "12.500").
"""

from __future__ import annotations

import argparse
import dataclasses
import re
from pathlib import Path
from typing import Any

from transitions import Machine

from voicegame.games.wits.deck import Question, bank_key, draw_questions, load_bank
from voicegame.engine.table import SILENT, NotAllowed, NotUnderstood, Table, understood
from voicegame.games.wits import rules
from voicegame.games.wits.rules import (
    DEFAULT_QUESTIONS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    TOO_HIGH,
    Bet,
    BetBook,
    Mat,
    Slot,
    apply_question,
    break_tie,
    build_mat,
    new_game,
    open_betting,
    place_bets,
    standings,
    winners,
)
from voicegame.language.words import normalise, understanding
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

#: Default players (G3): four colours, seat order.
DEFAULT_PLAYERS = ("red", "blue", "green", "yellow")
#: Silences at a player's guess before "no guess" is recorded (the first re-prompts).
GUESS_SILENCES = 2
#: Silences at a player's bet prompt before "no bet" is recorded.
BET_SILENCES = 2
#: Silences at "is that right?" / "any changes?" that accept / close.
CONFIRM_SILENCES = 2
#: Parsed at a betting moment when the players ask for the mat again ("the mat").
READ_MAT = "read the mat"
#: Parsed when a player backs out of a follow-up question ("never mind").
BACK_OUT = "back out"
#: Parsed at a guessing or betting moment when the players ask for the question again.
READ_QUESTION = "read the question"

STATES = ["intro", "question", "guessing", "betting", "reveal", "final", "game_over"]
TRANSITIONS = [
    {"trigger": "begin", "source": "intro", "dest": "question"},
    {"trigger": "guessing_time", "source": "question", "dest": "guessing"},
    {"trigger": "guesses_taken", "source": "guessing", "dest": "betting"},
    {"trigger": "betting_closed", "source": "betting", "dest": "reveal"},
    {"trigger": "next_step", "source": "reveal", "dest": "final", "conditions": "game_is_over"},
    {"trigger": "next_step", "source": "reveal", "dest": "question", "unless": "game_is_over"},
    {"trigger": "finish", "source": "final", "dest": "game_over"},
]


# --------------------------------------------------------------------------- options


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """``--players``, ``--questions``, ``--count`` (``--timer`` is common)."""
    parser.add_argument("--players", default=",".join(DEFAULT_PLAYERS),
                        help=f"comma-separated players or teams in seat order, {MIN_PLAYERS} to {MAX_PLAYERS} "
                             f"(default {','.join(DEFAULT_PLAYERS)})")
    parser.add_argument("--questions", default=None, metavar="PATH",
                        help="a question bank (CSV: id,question,answer,unit,source,year; or TOML). "
                             "Questions come in the bank's fixed order from its saved position, each once "
                             "before any repeats; on a bank with no saved position yet, --seed picks "
                             "where that first pass starts")
    parser.add_argument("--count", type=int, default=DEFAULT_QUESTIONS,
                        help=f"questions in the game (default {DEFAULT_QUESTIONS})")


def options_from_args(args) -> dict:
    """JSON-serialisable options: players, questions path (absolute), count, and
    ``bank_seed`` — the ``--seed`` given to ``voicegame play`` (``None`` when not
    given, and in the lobby): it only picks where a bank with no saved position starts."""
    players = [p.strip() for p in str(args.players).split(",") if p.strip()]
    path = str(Path(args.questions).resolve()) if args.questions else None
    return {"players": players, "questions": path, "count": args.count, "bank_seed": getattr(args, "seed", None)}


def _player_names(names: list, lang: str) -> list[str]:
    """Player names: colour synonyms → the colour key ("Violet" → "purple"); any other
    name keeps its spelling ("Ana"; compared without case for duplicates and game words)."""
    return _players_and_names(names, lang)[0]


def _players_and_names(names: list, lang: str) -> tuple[list[str], dict[str, str]]:
    """:func:`_player_names` and the names the table chose for colour players when they are not
    the language's first word for that colour (``{"purple": "violeta"}``): the game keeps
    colour keys (for the understanding, the record), and speaks the chosen name (G3)."""
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
            raise ValueError(f"--players: {raw!r} is not a name; use words such as red,blue,green.")
        colour = next((c for c, ps in u.colour_words.items() if name in ps), None)
        if colour is None and (u.number(name) is not None or name in reserved or u.command(name)
                               or u.side(name) == name):
            raise ValueError(f"--players: {raw!r} is a word the game uses; choose another name.")
        if colour is not None and name != u.colour_name(colour):
            chosen[colour] = name
        out.append(colour or shown)
    if not MIN_PLAYERS <= len(out) <= MAX_PLAYERS:
        raise ValueError(f"--players needs {MIN_PLAYERS} to {MAX_PLAYERS} players, not {len(out)}.")
    if len({normalise(n) for n in out}) != len(out):
        raise ValueError(f"--players names someone twice: {', '.join(out)}.")
    return out, chosen


def validate(settings) -> None:
    """Check the options and draw this game's questions (stored in ``settings.options``).

    The questions are drawn from the bank's persisted position (no repeats
    across games) only once: a settings object that already holds
    ``question_set`` (resume, replay) keeps it. ``players`` become colour keys and
    other names; ``names`` keeps the words the table chose for colours
    (``{"purple": "violeta"}``), also when validated again.

    :raises ValueError: bad ``--players`` or ``--count``; :class:`voicegame.decks.DeckError`
        for a malformed bank (names the file and line).
    """
    opts = settings.options
    opts["players"], chosen = _players_and_names(list(opts.get("players") or DEFAULT_PLAYERS), settings.lang)
    names = {**chosen, **(opts.get("names") or {})}  # validated again (resume): the first names stay
    if names:
        opts["names"] = {p: n for p, n in names.items() if p in opts["players"]}
    count = opts.get("count", DEFAULT_QUESTIONS)
    if isinstance(count, bool) or not isinstance(count, int) or count < 1:
        raise ValueError(f"--count must be a whole number of questions, at least 1, not {count!r}.")
    if opts.get("question_set"):
        return
    bank = load_bank(opts.get("questions"), settings.lang)
    try:
        chosen = draw_questions(bank, count, bank_key(opts.get("questions"), settings.lang),
                                seed=opts.get("bank_seed"))
    except OSError as exc:
        raise ValueError(f"Cannot save the question-bank position: {exc}.") from exc
    opts["question_ids"] = [q.id for q in chosen]
    opts["question_set"] = [q.to_dict() for q in chosen]


# --------------------------------------------------------------------------- the host


class Host:
    """The Wits & Wagers host: a ``transitions`` machine over this object.

    :param table: the :class:`~voicegame.host.base.Table` (settings already validated;
        if not, :func:`validate` is called here).
    """

    def __init__(self, table: Table):
        self.table = table
        settings = table.settings
        if not settings.options.get("question_set"):
            validate(settings)
        self.lang = settings.lang
        self.wu = wits_understanding(settings.lang)
        self.questions = [Question.from_dict(d) for d in settings.options["question_set"]]
        self.players: tuple[str, ...] = tuple(settings.options["players"])
        #: the names the table chose for colour players ("violeta" for purple), see :meth:`name`
        self.chosen_names: dict[str, str] = dict(settings.options.get("names") or {})
        self.game = new_game(self.players, len(self.questions))
        self.guesses: dict[str, Any] = {}
        self.mat: Mat | None = None
        self.book: BetBook | None = None
        self.tie: dict | None = None
        self.final_winners: list[str] = []
        #: Resumed from a replayed log (``voicegame resume``), not yet at a live listening moment.
        self.replayed = table.resuming
        #: What of the current question was said live, not muted by a replay: "question", "mat".
        self.said_live: set[str] = set()
        self.machine = Machine(model=self, states=STATES, transitions=TRANSITIONS, initial="intro",
                               auto_transitions=False)
        table.score_callback = self.say_standings
        table.snapshot_callback = self.snapshot

    # ------------------------------------------------------------------ driver
    def play(self) -> None:
        """Run the whole game; returns when it is over."""
        while self.state != "game_over":
            getattr(self, "run_" + self.state)()

    def game_is_over(self) -> bool:
        """Condition: every question has been played (K8)."""
        return self.game.is_over

    def snapshot(self) -> dict:
        """JSON-ready state for the autosave (informative; resume replays the log)."""
        return {"state": self.state, "game": dataclasses.asdict(self.game), "guesses": dict(self.guesses),
                "book": dataclasses.asdict(self.book) if self.book else None}

    @property
    def number(self) -> int:
        """1-based number of the current question."""
        return self.game.question_index + 1

    @property
    def question(self) -> Question:
        return self.questions[self.game.question_index]

    @property
    def scale(self) -> int:
        """The scale the current question asks in (10**6 for "How many million…?"), else 1."""
        q = self.question
        return self.wu.question_scale(q.question, q.unit)

    # ------------------------------------------------------------------ phases
    def run_intro(self) -> None:
        t = self.table
        t.enter_phase("intro")
        t.check_vocabulary(w for phrase in self.wu.vocabulary(self.players) for w in phrase.split())
        count = len(self.questions)
        seconds = t.settings.timer_s
        t.say("wits.intro", players=self.names(self.players),
              questions=self.text("wits.questions_one") if count == 1 else self.text("wits.questions_many", n=count),
              guessing=(self.text("wits.intro_guess_timer", seconds=int(seconds)) if seconds
                        else self.text("wits.intro_guess_ready")),
              betting=self.text("wits.intro_bet_timer") if seconds else self.text("wits.intro_bet_ready"))
        self.begin()

    def run_question(self) -> None:
        t = self.table
        n = self.number
        t.enter_phase(f"question:{n}")
        self.guesses, self.mat, self.book = {}, None, None
        self.said_live = set()
        self.read_question()
        self.run_timer("wits.timer_guess", number=n)
        self.guessing_time()

    def run_guessing(self) -> None:
        t = self.table
        t.enter_phase(f"guesses:{self.number}")
        for player in self.players:
            self.guesses[player] = self.ask_guess(player)
        self.confirm_guesses()
        self.guesses_taken()

    def run_betting(self) -> None:
        t = self.table
        n = self.number
        t.enter_phase(f"bets:{n}")
        self.mat = build_mat({p: self.guesses.get(p) for p in self.players})
        self.book = open_betting(self.mat, self.players)
        t.say_text(self.mat_text())
        self.mark_live("mat")
        self.run_timer("wits.timer_bet", mat=True, number=n)
        for player in self.players:
            self.take_bets(player)
        self.take_changes()
        t.say_text(" ".join([self.text("wits.betting_closed")]
                            + [self.text("wits.readback_bet", Player=self.cap(p), bets=self.bets_text(p))
                               for p in self.players]))
        self.betting_closed()

    def run_reveal(self) -> None:
        t = self.table
        n = self.number
        q = self.question
        t.enter_phase(f"reveal:{n}")
        t.say_text(self.answer_text(q))
        chips_before = dict(self.game.chips)
        self.game, result = apply_question(self.game, self.guesses, self.book.bets, q.answer)
        self.say_winning_slot(result)
        for entry in result.settlement.players:
            t.say_text(self.payout_text(entry))
        self.record_question(q, result, chips_before)
        self.say_standings()
        self.next_step()

    def run_final(self) -> None:
        t = self.table
        t.enter_phase("final")
        t.say("wits.final_intro")
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
        self.final_winners = won
        t.record["standings"] = [dataclasses.asdict(s) for s in standings(self.game)]
        t.record["winners"] = list(won)
        t.record["tie_break"] = self.tie
        t.record["chips"] = dict(self.game.chips)
        t.say("wits.recap_intro")
        for i, q in enumerate(self.questions, start=1):
            t.say("wits.recap_item", number=i, question=q.question, answer=self.value_text(q, q.answer))
        t.say("common.game_over")
        self.finish()

    # ------------------------------------------------------------------ timers
    def run_timer(self, purpose_key: str, mat: bool = False, **values) -> None:
        """A game timer (G1, :meth:`Table.run_timer`); with ``--timer off`` the host's own
        "say ready" moment, which also takes "ok", "yes", "done"… and, when ``mat``
        (betting), "the mat" to hear the mat again."""
        t = self.table
        if t.settings.timer_s:
            t.run_timer(purpose_key, **values)
            return
        u, wu = t.understanding, self.wu

        def parse(text: str):
            if mat and wu.said("read_mat", text):
                return READ_MAT
            if wu.is_ready(text):
                return True
            raise NotUnderstood

        phrases = (list(u.ready_words) + [" ".join(p) for p in wu.moments.get("ready", ())] + list(u.yes_words)
                   + [" ".join(p) for p in wu.moments.get("repeat_question", ())]
                   + ([" ".join(p) for p in wu.moments.get("read_mat", ())] if mat else []))
        while self.reread(self.ask("common.timer_off", self.with_question(parse), phrases=phrases, moment="ready",
                                   timeout_s=None, help_key="wits.help_ready_bet" if mat else "wits.help_ready_guess",
                                   purpose=self.text(purpose_key, **values))):
            pass

    # ------------------------------------------------------------------ listening
    def ask(self, key: str | None, parse, **kwargs):
        """:meth:`Table.ask` of this game: after a resume, :meth:`recall` first."""
        self.recall()
        return self.table.ask(key, parse, **kwargs)

    def read_question(self, key: str = "wits.read_question") -> None:
        """Read the current question ("Question 3 of 7. …")."""
        self.table.say(key, number=self.number, count=len(self.questions), question=self.question.question)
        self.mark_live("question")

    def mark_live(self, part: str) -> None:
        """Note that ``part`` of the question ("question", "mat") was just said live (not muted
        by a replay), so :meth:`recall` need not say it again."""
        if not self.table.replaying:
            self.said_live.add(part)

    def recall(self) -> None:
        """Before a listening moment: after ``voicegame resume``, at the first live one, say again
        what the players only heard before the stop (muted in the replay): the current question
        while it is guessed or bet on ("We are at question 4 of 7: …"), and in the betting the mat.
        Nothing if it was said live after the resume."""
        t = self.table
        if not self.replayed or t.replaying:
            return
        self.replayed = False
        if self.state not in ("question", "guessing", "betting"):
            return
        if "question" not in self.said_live:
            self.read_question("wits.recall_question")
        if self.state == "betting" and self.mat is not None and "mat" not in self.said_live:
            t.say_text(self.mat_text())
            self.mark_live("mat")

    def with_question(self, parse):
        """``parse`` that also understands "repeat the question" (returns :data:`READ_QUESTION`)."""

        def wrapped(text: str):
            if self.wu.said("repeat_question", text):
                return READ_QUESTION
            return parse(text)

        return wrapped

    def reread(self, outcome) -> bool:
        """Say the question or the mat again when ``outcome`` asked for it (True), else False.
        Such a request decides nothing: "undo" (G4) passes over it to the last real answer."""
        if isinstance(outcome, str) and outcome in (READ_QUESTION, READ_MAT):
            self.table.not_undoable()
            if outcome == READ_QUESTION:
                self.read_question()
            else:
                self.table.say_text(self.mat_text())
            return True
        return False

    # ------------------------------------------------------------------ guessing
    def ask_guess(self, player: str):
        """One player's guess (K2): a number, or ``None`` for no guess / silence twice.

        The number may come with unit words ("fifty kilometres") and with the player's own
        colour first ("red, twenty"); another player's colour is refused with the reason
        (wait for your turn / correct it at the read-back). In a question asked in a scale
        ("How many million…?") a guess said with it is read in the question's unit
        ("seventeen million" → 17). Every guess is read back with the question's unit
        (:meth:`value_text`), so the table hears how it was taken. "Repeat the question"
        reads the question again.
        """
        t = self.table
        wu = self.wu
        unit, scale = self.question.unit, self.scale
        seat = self.players.index(player)

        def parse(text: str):
            said = wu.guess_said(text, unit, scale)
            if said is None:
                fix = understood(wu.fix_said(text, self.players, unit, scale))
                named, value, _ = fix
                if named != player:
                    key = "wits.guess_fix_later" if self.players.index(named) < seat else "wits.guess_wait_turn"
                    raise NotAllowed(self.text(key, Other=self.cap(named), Current=self.cap(player)))
                said = value, ()
            return None if said[0] == NO_GUESS else said[0]

        while True:
            answer = self.ask("wits.ask_guess", self.with_question(parse), phrases=self.guess_phrases(),
                              help_key="wits.help_guess", moment="guess", silence_limit=GUESS_SILENCES,
                              Player=self.cap(player))
            if not self.reread(answer):
                break
        if answer is SILENT:
            t.say("wits.no_guess_recorded", player=self.name(player), Player=self.cap(player))
            return None
        self.say_guess(player, answer)
        return answer

    def say_guess(self, player: str, value) -> None:
        """Read a guess back with the question's unit, as every guess is ("Red: 17 million
        square kilometres.", "Red: 1969.")."""
        if value is None:
            self.table.say("wits.readback_no_guess", Player=self.cap(player))
        else:
            self.table.say("wits.readback_guess", Player=self.cap(player), guess=self.value_text(self.question, value))

    def confirm_guesses(self) -> None:
        """G4: read all guesses back. "yes" / "that's right" accepts; "red 2009" or
        "no, red 2009" corrects one directly; "no" asks which to change, where
        "never mind" / "nothing" / "yes" keeps the guesses as they are."""
        t = self.table
        wu, u = self.wu, self.table.understanding
        unit, scale = self.question.unit, self.scale

        def parse(text: str):
            fix = wu.fix_said(text, self.players, unit, scale)
            if fix is not None:
                return fix[:2]
            return understood(wu.confirm(text))

        def parse_fix(text: str):
            fix = wu.fix_said(text, self.players, unit, scale)
            if fix is not None:
                return fix[:2]
            if wu.keeps_guesses(text):
                return BACK_OUT
            raise NotUnderstood

        phrases = (self.guess_phrases() + u.yes_no_phrases() + list(u.ready_words)
                   + [" ".join(p) for k in ("all_right", "back_out", "ready") for p in wu.moments.get(k, ())])
        while True:
            items = [self.text("wits.guess_item_none", player=self.name(p)) if self.guesses[p] is None
                     else self.text("wits.guess_item", player=self.name(p), guess=self.num(self.guesses[p]))
                     for p in self.players]
            answer = self.ask("wits.confirm_guesses", self.with_question(parse), phrases=phrases,
                              help_key="wits.help_confirm_guesses", moment="confirm_guesses",
                              silence_limit=CONFIRM_SILENCES, guesses=items)
            if self.reread(answer):
                continue
            if answer is SILENT or answer is True:
                return
            if answer is False:
                example = next((p for p in self.players if self.guesses[p] is not None), self.players[0])
                while True:
                    answer = self.ask("wits.which_guess", self.with_question(parse_fix), phrases=phrases,
                                      help_key="wits.help_which_guess", moment="fix_guess",
                                      silence_limit=CONFIRM_SILENCES, player=self.name(example),
                                      guess=self.num(self.guesses[example] if self.guesses[example] is not None
                                                     else 10))
                    if not self.reread(answer):
                        break
                if answer is SILENT:
                    continue
                if answer == BACK_OUT:
                    t.say("wits.guesses_kept")
                    return
            player, value = answer
            value = None if value == NO_GUESS else value
            self.guesses[player] = value
            if value is None:
                t.say("wits.guess_removed", Player=self.cap(player))
            else:
                t.say("wits.guess_changed", Player=self.cap(player), guess=self.value_text(self.question, value))

    # ------------------------------------------------------------------ betting
    def bet_parser(self, current: str | None):
        """A parse function for bets: returns ``(player, request, book or AmbiguousSlot)``.

        :param current: the player whose turn it is; ``None`` in "any changes"
            (then the bet must start with a colour).
        """

        def parse(text: str):
            readings = self.wu.parse_bet(text, self.players)
            if not readings:
                raise NotUnderstood
            error: NotAllowed | None = None
            for request in readings:
                player = request.player or current
                if player is None:
                    error = error or NotAllowed(self.text("wits.say_colour_first"))
                    continue
                if current is not None and player != current:
                    error = error or NotAllowed(self.text("wits.not_your_turn", current=self.name(current),
                                                          Other=self.cap(player)))
                    continue
                try:
                    slots = resolve(request, self.mat)
                except AmbiguousSlot as ambiguous:
                    return player, request, ambiguous
                except SlotNameError as exc:
                    error = error or NotAllowed(self.slot_error(exc))
                    continue
                try:
                    return player, request, self.placed(player, request, slots)
                except NotAllowed as exc:
                    error = error or exc
            raise error

        return parse

    def placed(self, player: str, request: BetRequest, slots) -> BetBook:
        """The book with ``request`` placed for ``player`` (K4), or :class:`NotAllowed` with the reason."""
        new = [Bet(player, slot_id, chips) for slot_id, chips in slots]
        held = self.game.chips[player]
        mine = list(new) if request.replace else list(self.book.bets_of(player)) + new
        try:
            return place_bets(self.book, player, mine, held)
        except rules.TooManyBets:
            if not request.replace and self.book.bets_of(player):
                raise NotAllowed(self.text("wits.third_bet", Player=self.cap(player), player=self.name(player),
                                           bets=self.bets_text(player))) from None
            raise NotAllowed(self.text("wits.too_many_bets", Player=self.cap(player))) from None
        except rules.EmptySlotBet as exc:
            name = self.slot_name(self.mat.slot(exc.slot_id))
            raise NotAllowed(self.text("wits.empty_slot", Slot=name[:1].upper() + name[1:])) from None
        except rules.NotEnoughChips as exc:
            if not exc.held:
                raise NotAllowed(self.text("wits.not_enough_chips_none", Player=self.cap(player),
                                           asked=self.chips(exc.asked))) from None
            raise NotAllowed(self.text("wits.not_enough_chips", Player=self.cap(player), held=self.chips(exc.held),
                                       asked=self.chips(exc.asked))) from None
        except (rules.InvalidChips, rules.NegativeChips):
            raise NotAllowed(self.text("wits.bad_chips")) from None

    def slot_error(self, exc: SlotNameError) -> str:
        if isinstance(exc, UnknownGuess):
            guesses = [self.num(s.guess) for s in self.mat.occupied()]
            if not guesses:
                return self.text("wits.no_guesses")
            return self.text("wits.unknown_guess", value=self.num(exc.value), guesses=guesses)
        if isinstance(exc, NoGuessOf):
            return self.text("wits.player_no_guess", Player=self.cap(exc.player))
        if isinstance(exc, NoGuesses):
            return self.text("wits.no_guesses")
        if isinstance(exc, NoSuchOdds):
            return self.text("wits.no_such_odds", odds=self.num(exc.odds))
        if isinstance(exc, BadChips):
            return self.text("wits.bad_chips")
        raise exc

    def place_said(self, outcome) -> str | None:
        """Apply a parsed bet (asking back an ambiguous slot); returns the player, or ``None`` if not placed."""
        t = self.table
        player, request, result = outcome
        if isinstance(result, AmbiguousSlot):
            u = self.wu

            def parse_side(text: str) -> str:
                return understood(u.side(text))

            side = self.ask("wits.which_side", parse_side, phrases=t.understanding.side_phrases(),
                            help_key="wits.help_side", moment="which_side", silence_limit=CONFIRM_SILENCES,
                            Player=self.cap(player), odds=result.odds)
            if side is SILENT:
                t.say("wits.side_not_heard")
                return None
            try:
                result = self.placed(player, request, resolve(request, self.mat, side))
            except SlotNameError as exc:
                t.say_text(self.slot_error(exc))
                return None
            except NotAllowed as exc:
                t.say_text(str(exc))
                return None
        self.book = result
        t.say("wits.readback_bet", Player=self.cap(player), bets=self.bets_text(player))
        return player

    def with_mat(self, parse):
        """``parse`` that also understands "the mat" (returns :data:`READ_MAT`) and "repeat the
        question" (:data:`READ_QUESTION`)."""

        def wrapped(text: str):
            if self.wu.said("read_mat", text):
                return READ_MAT
            return parse(text)

        return self.with_question(wrapped)

    def take_bets(self, player: str) -> None:
        """Ask ``player`` for their bets until placed; silence twice is no bet (K4);
        "the mat" reads the mat again."""
        t = self.table
        while True:
            outcome = self.ask("wits.ask_bet", self.with_mat(self.bet_parser(player)), phrases=self.bet_phrases(),
                               help_key="wits.help_bet", moment="bet", silence_limit=BET_SILENCES,
                               Player=self.cap(player), holding=self.holding(self.game.chips[player]))
            if outcome is SILENT:
                t.say("wits.no_bet_recorded", player=self.name(player))
                return
            if self.reread(outcome):
                continue
            if self.place_said(outcome):
                return

    def take_changes(self) -> None:
        """"Any changes?" until "no"/"done" or silence: a colour and new bets changes that
        player's bets; "yes" asks for the change, where "never mind" goes back to
        "Any changes?"; "the mat" reads the mat again."""
        t = self.table
        wu = self.wu
        bet = self.bet_parser(None)

        def parse(text: str):
            if wu.is_done(text):
                return "done"
            if wu.wants_change(text):
                return "change"
            return bet(text)

        def parse_change(text: str):
            if wu.said("back_out", text):
                return BACK_OUT
            return bet(text)

        while True:
            outcome = self.ask("wits.any_changes", self.with_mat(parse), phrases=self.bet_phrases(),
                               help_key="wits.help_changes", moment="bet_changes", silence_limit=CONFIRM_SILENCES)
            if outcome is SILENT or outcome == "done":
                return
            if self.reread(outcome):
                continue
            while outcome == "change":
                outcome = self.ask("wits.say_change", self.with_mat(parse_change), phrases=self.bet_phrases(),
                                   help_key="wits.help_say_change", moment="bet_change",
                                   silence_limit=CONFIRM_SILENCES)
                if self.reread(outcome):
                    outcome = "change"
            if outcome is SILENT:
                continue
            if outcome == BACK_OUT:
                t.say("wits.no_change")
                continue
            self.place_said(outcome)

    # ------------------------------------------------------------------ the end
    def ask_youngest(self, tied: list[str]) -> list[str]:
        """K8: which tied player (or team) has the youngest player, asked so that it fits
        players and teams alike ("Who is younger: Red or Blue?").

        :returns: that player, or — when the table says the youngest players are the
            same age ("same age", "both", "red and blue") — every tied player named
            (all of ``tied`` when none is named): the tie stands and they share the win.
            A colour that is not tied is refused with the reason.
        """
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

    # ------------------------------------------------------------------ record
    def record_question(self, q: Question, result: rules.QuestionResult, chips_before: dict) -> None:
        """Append the question's record and award every chip won or lost (re-scorable)."""
        t = self.table
        n = result.number
        s = result.settlement
        t.record["turns"].append({
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

    def num(self, value) -> str:
        """A number as written for the host (group marks from 10,000 up, decimals as given)."""
        marks = self.table.understanding.numbers
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        sign = "-" if value < 0 else ""
        value = abs(value)
        whole, _, frac = (str(value) if isinstance(value, int) else repr(float(value))).partition(".")
        if "e" in whole or "e" in frac:
            whole, _, frac = f"{value:.10f}".rstrip("0").partition(".")
        if len(whole) > 4:
            whole = f"{int(whole):,}".replace(",", marks.group_mark)
        return sign + whole + (marks.decimal_mark + frac if frac else "")

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

    def mat_text(self) -> str:
        """K3: every slot, its odds and whose guess is in it, left to right."""
        parts = [self.text("wits.mat_intro"), self.text("wits.mat_too_high")]
        empty = []
        for slot in self.mat.slots[1:]:
            if slot.occupied:
                parts.append(self.text("wits.mat_slot", slot=self.odds_name(slot), guess=self.num(slot.guess),
                                       players=self.names(slot.players)))
            else:
                empty.append(self.slot_name(slot))
        if not self.mat.occupied():
            parts.append(self.text("wits.mat_no_guesses"))
        elif empty:
            parts.append(self.text("wits.mat_empty", slots=empty))
        return " ".join(parts)

    def bets_text(self, player: str) -> str:
        bets = self.book.bets_of(player) if self.book else ()
        if not bets:
            return self.text("wits.bet_none")
        if len(bets) == 2 and bets[0].slot_id == bets[1].slot_id:
            return self.text("wits.bet_both", slot=self.slot_name(self.mat.slot(bets[0].slot_id)),
                             with_chips=self.with_chips(bets[0].chips + bets[1].chips))
        return self.table.prompts.join([self.text("wits.bet_one", slot=self.slot_name(self.mat.slot(b.slot_id)),
                                                  with_chips=self.with_chips(b.chips)) for b in bets])

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
        shown = self.num(value)
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
        """"The answer is 17.1 million square kilometres. Source: CIA World Factbook, figure for
        2024." — the year the answer holds for is left out when it is the answer itself (a
        calendar-year question), where it would sound like an edition of the source."""
        parts = [self.text("wits.answer", answer=self.answer_value(q))]
        if q.source and q.year is not None and q.year != q.answer:
            parts.append(self.text("wits.answer_source_year", source=q.source, year=q.year))
        elif q.source:
            parts.append(self.text("wits.answer_source", source=q.source))
        return " ".join(parts)

    def say_winning_slot(self, result: rules.QuestionResult) -> None:
        t = self.table
        slot = result.mat.slot(result.winning_slot)
        if slot.id == TOO_HIGH:
            t.say("wits.win_no_guesses" if not result.mat.occupied() else "wits.win_too_high")
            return
        # the K7 bonus is said once, in each payout line of the players who wrote this guess
        t.say("wits.win_slot", guess=self.num(slot.guess), players=self.names(slot.players),
              slot=self.text("wits.slot_name", odds=slot.odds, side=self.side_text(slot)))

    def payout_text(self, p: rules.PlayerSettlement) -> str:
        parts = []
        if p.staked == 0 and not self.book.bets_of(p.player):
            parts.append(self.text("wits.part_nothing"))
        elif p.won:
            parts.append(self.text("wits.part_won", won=self.chips(p.won)))
            if p.returned:
                parts.append(self.text("wits.part_returned", returned=self.chips(p.returned)))
        else:
            parts.append(self.text("wits.part_no_win"))
        if p.lost:
            parts.append(self.text("wits.part_lost", lost=self.chips(p.lost)))
        if p.bonus:
            parts.append(self.text("wits.part_bonus", bonus=self.chips(p.bonus)))
        if not p.chips_after:
            return self.text("wits.payout_line_none", Player=self.cap(p.player), parts=parts)
        return self.text("wits.payout_line", Player=self.cap(p.player), parts=parts, chips=self.chips(p.chips_after))

    def say_standings(self) -> None:
        """Speak the standings (also the "score" command)."""
        items = [self.text("wits.standings_item", player=self.name(s.player), chips=self.chips(s.chips)) if s.chips
                 else self.text("wits.standings_item_none", player=self.name(s.player))
                 for s in standings(self.game)]
        self.table.say("wits.standings", items=items)

    # ------------------------------------------------------------------ grammar
    def guess_phrases(self) -> list[str]:
        wu = self.wu
        return (self.table.understanding.number_words() + [" ".join(p) for p in wu.guesses["no_guess"]]
                + [" ".join(ph) for pl in self.players for ph in wu.player_phrases(pl)]
                + [" ".join(p) for p in wu.fix_opening] + wu.unit_words(self.question.unit)
                + wu.scale_phrases(self.scale) + [" ".join(p) for p in wu.moments.get("repeat_question", ())])

    def bet_phrases(self) -> list[str]:
        return self.wu.vocabulary(self.players)


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
