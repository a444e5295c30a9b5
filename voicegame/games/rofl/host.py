"""The spoken ROFL! host: a ``transitions`` machine over the pure rules (R1–R7, G1–G4).

One turn: DELIVER (the guesser is named; the message goes privately to the writers,
G2; the category is told unless hard mode, R7) → CLAIMS (writing timer, G1; "blue,
seven", R2) → REVEAL (lowest space first, R4; "disqualified", R3; one guess per
message) → JUDGE (the host's judgement; writers may overrule, R4; own messages: the
writers judge, R7) → REVEAL … → TURN_END (R5; tiebreak R6; the end).

Each phase runs in its state's ``on_enter`` and ends by firing the next trigger; the
machine is queued, so the game is one flat loop of transitions (driven by
:mod:`voicegame.engine.phases`: a trigger that cannot fire raises its ``PhaseError``).
Undo (G4) takes back the last input of the current step (see :meth:`Host._enter`): a
guess once heard is never asked again (R4).

Speakers name themselves by colour ("blue, seven", "green says wrong"): a recognizer
cannot tell voices apart. Options: ``--players``, ``--stacking``, ``--lenient``,
``--hard``, ``--own-message`` (R7), ``--deck PATH``.
"""

from __future__ import annotations

import dataclasses
import enum
from pathlib import Path
from typing import Any

from transitions import Machine

from voicegame.engine import phases
from voicegame.engine.snapshot import SnapshotMemo
from voicegame.engine.seats import default_seats, in_pairs, players_option
from voicegame.engine.table import DEFAULT_LISTEN_S, SILENT, NotAllowed, NotUnderstood, Table
from voicegame.engine.timers import WARNING_S
from voicegame.games.rofl import judge, rules
from voicegame.games.rofl.deck import REGIONS, Card, load_deck
from voicegame.games.rofl.intents import Verdict, rofl_understanding
from voicegame.games.rofl.rules import (AlreadyClaimed, NotAWriter, RoflOptions, SpaceOutOfRange, SpaceTaken,
                                        UnknownWriter)
from voicegame.language.budget import OPENING_WORDS, heard_words, words
from voicegame.language.prompts import Prompts
from voicegame.language.words import normalise, understanding

#: Default players (G3), when ``--players`` is not given: the first four of the one seat order.
DEFAULT_PLAYERS = tuple(default_seats(4))
#: Guesses heard as nothing before a message counts as not guessed, with a guessing timer.
TIMED_GUESS_TRIES = 2
#: The same without a timer (``--timer off``): asked twice more, the last time with a warning.
UNTIMED_GUESS_TRIES = 3



class Said(enum.Enum):
    """What a moment heard besides a claim, a guess or a verdict (enums journal as intents)."""

    READY = "ready"              # everyone has finished writing (no timer)
    DISQUALIFIED = "disqualified"  # the message on show is too long (R3), to be confirmed
    NO_GUESS = "no guess"        # the guesser gives up on this message
    RULES = "rules"              # "rules" / "more": the next chunk of the rules
    AGAIN = "again"              # "the message again": a writer missed the secret (G2)


_READY, _DISQUALIFIED, _NO_GUESS, _RULES = Said.READY, Said.DISQUALIFIED, Said.NO_GUESS, Said.RULES
_AGAIN = Said.AGAIN


class Phase(enum.Enum):
    """The phases of a ROFL! game (the machine's states)."""

    SETUP = "setup"
    INTRO = "intro"
    DELIVER = "deliver"
    CLAIMS = "claims"
    REVEAL = "reveal"
    JUDGE = "judge"
    TURN_END = "turn_end"
    TIEBREAK_INTRO = "tiebreak"
    FINALE = "final"
    GAME_OVER = "game_over"


P = Phase
TRANSITIONS = [
    {"trigger": "start", "source": P.SETUP, "dest": P.TIEBREAK_INTRO, "conditions": "tiebreak_starts"},
    {"trigger": "start", "source": P.SETUP, "dest": P.INTRO, "unless": "tiebreak_starts"},
    {"trigger": "begin", "source": P.INTRO, "dest": P.DELIVER},
    {"trigger": "tiebreak_begin", "source": P.TIEBREAK_INTRO, "dest": P.DELIVER},
    {"trigger": "delivered", "source": P.DELIVER, "dest": P.CLAIMS},
    {"trigger": "claims_closed", "source": P.CLAIMS, "dest": P.REVEAL, "conditions": "more_to_reveal"},
    {"trigger": "claims_closed", "source": P.CLAIMS, "dest": P.TURN_END, "unless": "more_to_reveal"},
    {"trigger": "heard_guess", "source": P.REVEAL, "dest": P.JUDGE},
    {"trigger": "message_done", "source": [P.REVEAL, P.JUDGE], "dest": P.REVEAL, "conditions": "more_to_reveal"},
    {"trigger": "message_done", "source": [P.REVEAL, P.JUDGE], "dest": P.TURN_END, "unless": "more_to_reveal"},
    {"trigger": "scored", "source": P.TURN_END, "dest": P.FINALE, "conditions": "game_finished"},
    {"trigger": "scored", "source": P.TURN_END, "dest": P.TIEBREAK_INTRO, "conditions": "tiebreak_starts"},
    {"trigger": "scored", "source": P.TURN_END, "dest": P.DELIVER, "conditions": "turns_remain"},
    {"trigger": "finish", "source": P.FINALE, "dest": P.GAME_OVER},
]


# ---------------------------------------------------------------------- CLI contract
def add_arguments(parser) -> None:
    """ROFL!'s command-line options (R1, R7)."""
    parser.add_argument("--players", default=None,
                        help="3 to 7 colours in seat order, comma-separated "
                             f"(default {','.join(DEFAULT_PLAYERS)}); the first is the first guesser")
    parser.add_argument("--stacking", action="store_true", help="several tokens may share a board space")
    parser.add_argument("--lenient", action="store_true", help="forgive a missing or extra a, an, the")
    parser.add_argument("--hard", action="store_true", help="hard mode: the category is not told")
    parser.add_argument("--own-message", action="store_true",
                        help="a writer makes up each message; the writers judge the guesses")
    parser.add_argument("--deck", default=None, help="a custom message deck (category | message | category | message)")
    parser.add_argument("--region", default=None, metavar="TAG",
                        help="also deal the cards known in this region: es-ES, es-419 (Spanish), nl-NL, nl-BE "
                             "(Dutch); default: only the cards every table of the language knows")


def options_from_args(args) -> dict:
    """The JSON-serialisable game options of ``args``; without ``--players`` the default seats,
    and ``seats_named`` false: the opening says them (nobody named them)."""
    players, named = players_option(args.players, DEFAULT_PLAYERS)
    return {**({} if named else {"seats_named": False}), "players": players, "stacking": bool(args.stacking),
            "lenient": bool(args.lenient), "hard": bool(args.hard), "own_message": bool(args.own_message),
            "deck": str(Path(args.deck).resolve()) if args.deck else None,
            "region": getattr(args, "region", None)}


def validate(settings) -> None:
    """Check the players and load the deck (once, before the game).

    Players are 3 to 7 distinct colours (G3, R1): keys ("blue") or colour words of the
    table's language ("azul"), in any case; stored as keys. Names are refused: a speaker
    names themselves by colour. A custom deck's cards go into ``options["deck_cards"]``
    so a resumed game never needs the file again.

    :raises ValueError: one sentence about the players, in the table's language.
    :raises DeckError: the deck is malformed (names the file and line).
    """
    opts = settings.options
    players = list(opts.get("players") or DEFAULT_PLAYERS)
    u = understanding(settings.lang)
    prompts = Prompts.load(settings.lang)
    keys = [_colour_key(u, p) for p in players]
    bad = [p for p, key in zip(players, keys) if key is None]
    if bad:
        known = [u.colour_name(k) for k in u.colour_words]
        raise ValueError(prompts.text("rofl.errors.players_not_colours", colours=", ".join(known),
                                      bad=", ".join(bad)))
    if len(set(keys)) != len(keys):
        raise ValueError(prompts.text("rofl.errors.players_twice", players=",".join(players)))
    players = keys
    if not rules.MIN_PLAYERS <= len(players) <= rules.MAX_PLAYERS:
        raise ValueError(prompts.text("rofl.errors.players_count", min=rules.MIN_PLAYERS, max=rules.MAX_PLAYERS,
                                      count=len(players)))
    opts["players"] = players
    region = opts.get("region")
    if region and region not in REGIONS.get(settings.lang, ()):
        raise ValueError(prompts.text("rofl.errors.region", region=region,
                                      regions=", ".join(REGIONS.get(settings.lang, ())) or "-"))
    cards = load_deck(opts.get("deck"), settings.lang, region)
    if opts.get("deck"):
        opts["deck_cards"] = [c.to_list() + [c.line] for c in cards]


def _colour_key(u, word: str) -> str | None:
    """The colour key of a ``--players`` entry, or ``None`` when it is not a colour."""
    said = normalise(word)
    if said in u.colour_words:
        return said
    return next((key for key, phrases in u.colour_words.items() if said in phrases), None)


# ---------------------------------------------------------------------- the host
class Host:
    """Runs one game of ROFL! at a :class:`~voicegame.engine.table.Table`.

    The constructor shuffles the deck (the table's rng, a chance step) and never listens.
    """

    def __init__(self, table: Table):
        self.table = table
        opts = table.settings.options
        self.lang = table.settings.lang
        self.options = RoflOptions(stacking=bool(opts.get("stacking")), lenient=bool(opts.get("lenient")),
                                   hard=bool(opts.get("hard")), own_message=bool(opts.get("own_message")))
        self.words = rofl_understanding(self.lang)
        if opts.get("deck_cards"):
            self.cards = [Card.from_list(c[:4], c[4] if len(c) > 4 else 0) for c in opts["deck_cards"]]
        else:
            self.cards = load_deck(opts.get("deck"), self.lang, opts.get("region"))
        self.game = rules.new_game(list(opts.get("players") or DEFAULT_PLAYERS), self.options)
        self.game = dataclasses.replace(self.game, pile=rules.shuffle_pile(len(self.cards), table.chance()))
        self.turn_no = 0
        self.turn = rules.Turn((), ())
        self.message: str | None = None
        self.category: str | None = None
        self.guess: str | None = None  # the guess on show, as heard
        self.record_turn: dict[str, Any] = {}
        self.tips: set[str] = set()  # moments whose first-time tip was said
        self.rules_at = -1  # the chunk of the rules said last
        self.told: tuple | None = None  # the secret told this turn, its writers and guessers (G2)
        #: the opening's choice (:meth:`opening`): the first claim prompt has its example
        self.first_example = True
        self.machine = Machine(model=self, states=Phase, initial=Phase.SETUP, transitions=TRANSITIONS,
                               auto_transitions=False, queued=True)
        table.score_callback = lambda: self.say_standings(remember=False)
        #: the autosave's state of finished, frozen parts (turns, questions) converted once
        self.snapshot_memo = SnapshotMemo()
        table.snapshot_callback = self.snapshot
        table.where_we_are = self.where_we_are

    # ------------------------------------------------------------------ driver
    def play(self) -> None:
        """Run the whole game; returns when it is over.

        :raises PhaseError: the machine stopped before the end (a trigger could not fire).
        """
        phases.play(self, "start", Phase.GAME_OVER)

    def fire(self, trigger: str) -> None:
        """Fire ``trigger`` (queued). :raises PhaseError: no transition of it can fire now."""
        phases.fire(self, trigger)

    def _enter(self) -> None:
        """Mark the phase for undo and the autosave: the state, this turn (G4).

        The claims and the messages shown before any guess is heard are one step, so a
        silent pass or a "no guess" can be taken back once the host has moved on; a heard
        guess ends the step (JUDGE), so undo never grants a second guess (R4)."""
        self.table.enter_phase(f"{self.state.value}:{self.turn_no}")

    # ------------------------------------------------------------------ conditions (pure rules)
    def more_to_reveal(self) -> bool:
        return rules.more_to_reveal(self.turn)

    def turns_remain(self) -> bool:
        p = rules.phase(self.game)
        return p == "turn" or (p == "tiebreak" and self.game.tiebreak.turns_played > 0)

    def tiebreak_starts(self) -> bool:
        return rules.phase(self.game) == "tiebreak" and self.game.tiebreak.turns_played == 0

    def game_finished(self) -> bool:
        return rules.phase(self.game) == "finished"

    # ------------------------------------------------------------------ helpers
    def snapshot(self) -> dict:
        """JSON-able state for the autosave (informative: resume replays the log)."""
        return {"game": self.snapshot_memo.asdict(self.game), "turn_state": self.snapshot_memo.asdict(self.turn),
                "turn": self.turn_no}

    def name(self, colour: str) -> str:
        """A player's colour in the table's language as a proper name (G3): "Blue", "Azul"."""
        word = self.table.name(colour)
        return word[:1].upper() + word[1:]

    def names(self, colours) -> list[str]:
        return [self.name(c) for c in colours]

    def number(self, value: int | float) -> str:
        """A number as written for the table ("7.5"; "7,5" in Spanish and Dutch)."""
        return str(value).replace(".", self.table.understanding.numbers.decimal_mark)

    def points_text(self, n: int) -> str:
        return self.table.text("rofl.points_one" if n == 1 else "rofl.points_many", n=n)

    def in_tiebreak(self) -> bool:
        return rules.phase(self.game) == "tiebreak"

    def example_writer(self, turn: rules.Turn | None = None) -> str:
        """A colour for "for example: Blue, seven": a writer of ``turn`` (default this turn;
        before the first turn: the second player in seat order)."""
        ws = (turn or self.turn).writers or self.game.players[1:2] or self.game.players
        return self.name(ws[0])

    def claim_question(self, example: str, tipped: bool) -> tuple[str, str | None]:
        """The claim moment's question and its timer sentence (``None`` with ``--timer off``),
        as CLAIMS says them and the opening counts them.

        :param example: the writer of the example claim. :param tipped: the first-time tip
            (with the example) is said."""
        t = self.table
        seconds = t.settings.timer_s
        if seconds:
            key = "rofl.tip_writing" if tipped else "rofl.writing_question"
            return t.text(key, example=example), t.text("rofl.timer_start_all", seconds=int(seconds))
        return t.text("rofl.tip_writing_no_timer" if tipped else "rofl.writing_no_timer", example=example), None

    def _time_passed(self) -> None:
        """The silence that just ended a listening window only let time pass: not an input
        "undo" takes back (G4)."""
        self.table.not_undoable()

    def _say_question(self, question: str, timing: str | None = None) -> None:
        """Say a moment's question (and its timer sentence); only the question is kept for
        "repeat", which never restarts a timer."""
        t = self.table
        t.say_text(f"{question} {timing}" if timing else question, remember=False)
        t.remember(question)

    def standings(self) -> list[tuple[str, int]]:
        """Players by points (highest first), seat order among equals."""
        seat = {p: i for i, p in enumerate(self.game.players)}
        return sorted(self.game.scores.items(), key=lambda kv: (-kv[1], seat[kv[0]]))

    def say_standings(self, key: str = "rofl.standings", remember: bool = True, top: int | None = None) -> None:
        """The standings, highest first (also the "score" command); no points said in words.
        ``top``: only the first few (a spoken list of at most three)."""
        t = self.table
        zero = "rofl.final_standing_item_zero" if key == "rofl.final_standings" else "rofl.standing_item_zero"
        ranked = self.standings()
        if top is not None and len(ranked) > top:
            ranked, key = ranked[:top], "rofl.final_top"
        items = [t.text(zero, name=self.name(p)) if s == 0 else
                 t.text("rofl.standing_item", name=self.name(p), points=self.points_text(s))
                 for p, s in ranked]
        t.say_text(t.text(key, items=items), remember=remember)

    # ------------------------------------------------------------------ the public view
    def show(self, hint_key: str | None = None) -> None:
        """Publish the public view of the table (VIEWS.md, game "rofl"); never the message
        before the turn's end. Also while a log is replayed (undo, resume): the last view
        is the table as it now is."""
        t = self.table
        board_claims = {}
        for c in self.turn.board.claims:
            board_claims.setdefault(c.space, []).append(c.writer)
        current = self.turn.current
        judgement = None
        if current is not None and current.guessed and self.guess is not None:
            correct = current.correct if current.correct is not None else current.host_says
            pts = rules.points_for_position(self.turn.position) if correct else 0
            judgement = {"guess": self.guess, "correct": correct, "settled": current.correct is not None,
                         "points": {"guesser": pts, "writer": pts}}
        data = {
            "lang": self.lang,
            "players": [{"id": p, "name": self.name(p)} for p in self.game.players],
            "scores": dict(self.game.scores),
            "turn": self.turn_no or None,
            "active": self.turn.guessers[0] if len(self.turn.guessers) == 1 else None,
            "hint": t.text(hint_key, example=self.example_writer()) if hint_key else None,
            "round_total": rules.ROUNDS * len(self.game.players),
            "round": self.game.round,
            "category": None if self.options.hard or self.category is None
            else t.text(f"rofl.category.{self.category}"),
            "board": [{"space": s, "claimed_by": board_claims.get(s, [None])[0], "tokens": board_claims.get(s, [])}
                      for s in range(rules.FIRST_SPACE, rules.LAST_SPACE + 1)],
            "reveal_order": [w for w, _ in self.turn.order],
            "revealed": [{"player": r.writer, "space": r.space, "clue": None, "disqualified": r.disqualified}
                         for r in self.turn.reveals],
            "judgement": judgement,
            "message": self.message if self.state is Phase.TURN_END else None,
        }
        t.show(self.state.value, data)

    # ------------------------------------------------------------------ tips, rules, resume
    def tip(self, moment: str) -> bool:
        """True the first time ``moment`` comes up in this game: then its one-sentence tip is
        said; later turns say only the short prompt (a replay rebuilds the same set)."""
        if moment in self.tips:
            return False
        self.tips.add(moment)
        return True

    def ask(self, key: str | None, parse, **kw):
        """``table.ask`` where "rules" / "more" also say the next chunk of the rules, and "the
        message again" (a claim moment's ``Said.AGAIN``) tells the secret again, then asks the
        same again; neither is an input undo takes back."""
        t = self.table
        while True:
            got = t.ask(key, self._with_rules(parse), **kw)
            if got is _AGAIN:
                self.tell_again()
            elif got is _RULES:
                self._rules_asked()
                key = None
            else:
                return got

    def _with_rules(self, parse):
        """``parse`` where "rules" / "more" is ``Said.RULES``."""
        def with_rules(text: str):
            if self.words.rules_request(text):
                return _RULES
            return parse(text)

        return with_rules

    def _rules_asked(self) -> None:
        """"rules" / "more" was heard: the next chunk of the rules; not an input to undo (G4)."""
        self.table.not_undoable()
        self.say_rules(self.words.rules_more(self.table.last_heard()))

    def say_rules(self, more: bool) -> None:
        """The next chunk of the rules ("more"), or the first ("rules"); after the last, the
        options that are on."""
        t = self.table
        chunks = [k for k in (f"rofl.rules.{i}" for i in range(1, 20)) if t.prompts.has(k)]
        self.rules_at = self.rules_at + 1 if more and self.rules_at + 1 < len(chunks) else 0
        sentence = t.text(chunks[self.rules_at])
        if self.rules_at + 1 < len(chunks):
            sentence += " " + t.text("rofl.rules_more")
        else:
            on = [t.text(f"rofl.option.{f}") for f in ("stacking", "lenient", "hard", "own_message")
                  if getattr(self.options, f)]
            if on:
                sentence += " " + t.text("rofl.rules_options", options=on)
        t.say_text(sentence, remember=False)

    def where_we_are(self) -> list[str]:
        """A resumed game's first words: where the game is (turn, guesser, leaders), then
        what is pending (the board so far, the message on show, the guess to judge)."""
        t = self.table
        if self.state in (Phase.SETUP, Phase.INTRO) or not self.turn.guessers:
            return []
        guessers = self.names(self.turn.guessers)
        if self.turn.tiebreak:
            said = [t.text("rofl.resume_where_tiebreak", guessers=guessers)]
        else:
            said = [t.text("rofl.resume_where", round=self.game.round, turn=self.game.turn + 1, guessers=guessers)]
        said += self.leaders_text()
        if self.state is Phase.CLAIMS:
            claims = [t.text("rofl.token_item", writer=self.name(c.writer), space=c.space)
                      for c in self.turn.board.claims]
            tokens = t.text("rofl.resume_tokens", tokens=claims) if claims else ""
            said.append(t.text("rofl.resume_claims", tokens=tokens).strip())
        elif self.state is Phase.REVEAL and self.turn.current is not None:
            said.append(t.text("rofl.resume_reveal", writer=self.name(self.turn.current.writer)))
        elif self.state is Phase.JUDGE and self.guess is not None:
            said.append(t.text("rofl.resume_judge", guess=self.guess))
        return said

    def leaders_text(self) -> list[str]:
        """Who leads, at most three names (the full scores on request: "score"); nothing
        while nobody has points."""
        t = self.table
        top = rules.leaders(self.game)
        points = self.game.scores[top[0]]
        if points == 0 or len(top) > 3:
            return []
        if len(top) == 1:
            return [t.text("rofl.leader", name=self.name(top[0]), points=self.points_text(points))]
        return [t.text("rofl.leaders", names=self.names(top), points=self.points_text(points))]

    # ------------------------------------------------------------------ phases
    def on_enter_INTRO(self) -> None:
        self._enter()
        t = self.table
        t.check_vocabulary(self.words.all_words(list(self.game.players)))
        welcome, seats, self.first_example = self.opening()
        if welcome:
            t.say(welcome)
        if seats:
            t.say_text(seats)
        self.show()
        self.fire("begin")

    def opening(self) -> tuple[str | None, str | None, bool]:
        """The opening's parts, the richest that keep the words before the first claim within
        :data:`OPENING_WORDS` (tests/test_voice_budget.py): ``(welcome key or None, the seats
        sentence or None, whether the first claim prompt has its example)``. The first turn is
        counted as the host then says it (:meth:`first_turn_lines`), the secret's second telling
        (G2) left out: it is the same sentence again, for writers who missed it. Given up in
        this order until it fits: the welcome's gist (then only "ROFL!"), the claim example
        (its tip comes on the next turn), the title.
        The seats are said when the table did not name the players (``seats_named`` false),
        in pairs ("Red and Blue, Green and Yellow"), the first guesser first."""
        t = self.table
        seats = None
        if t.settings.options.get("seats_named") is False:
            seats = t.text("rofl.seats", seats=in_pairs(self.names(self.game.players), t.prompts.join))
        choices = [("rofl.welcome", True), ("rofl.welcome_title", True), ("rofl.welcome_title", False)]
        for welcome, example in choices:
            said = (words(t.text(welcome)) if welcome else 0) + words(seats or "")
            if said + heard_words(self.first_turn_lines(example)) <= OPENING_WORDS:
                return welcome, seats, example
        return (None, seats, False)

    def first_turn_lines(self, example: bool) -> list[tuple[str, str]]:
        """The first turn's words up to its first claim, as ``(how, text)`` of
        :meth:`Table.private_lines`: made by :meth:`delivery_lines`, :meth:`secret_delivery` and
        :meth:`claim_question`, as DELIVER and CLAIMS then say them (the first card of the pile).

        :param example: the claim prompt has its example (:meth:`opening`'s choice)."""
        t = self.table
        turn = rules.start_turn(self.game)
        msg = None
        if not self.options.own_message and self.game.pile:
            index, side = self.game.pile[0]
            msg = self.cards[index].sides[side]
        lines: list[tuple[str, str]] = []
        for how, text in self.delivery_lines(turn, msg, tip_hard=True):
            lines += (t.private_lines(*self.secret_delivery(text, turn.writers, turn.guessers)) if how == "secret"
                      else [("say", text)])
        question, timing = self.claim_question(self.example_writer(turn), tipped=example)
        return lines + [("say", question)] + ([("say", timing)] if timing else [])

    def on_enter_TIEBREAK_INTRO(self) -> None:
        self._enter()
        self.show()
        tb = self.game.tiebreak
        points = self.game.scores[tb.writers[0]]
        self.table.say("rofl.tie_announce", tied=self.names(tb.writers), points=self.points_text(points))
        self.fire("tiebreak_begin")

    def on_enter_DELIVER(self) -> None:
        t = self.table
        self.turn_no += 1
        self._enter()
        n = self.turn_no
        self.turn = rules.start_turn(self.game)
        self.message = self.category = self.guess = None
        self.show()
        ws, guessers = list(self.turn.writers), list(self.turn.guessers)
        tiebreak = self.turn.tiebreak
        self.record_turn = {
            "turn": n, "round": self.game.round, "tiebreak": tiebreak,
            "turn_in_round": None if tiebreak else self.game.turn + 1,
            "tiebreak_turn": self.game.tiebreak.turns_played + 1 if tiebreak else None,
            "guesser": None if tiebreak else guessers[0], "guessers": guessers, "writers": ws,
            "own_message": self.options.own_message, "author": None, "category": None,
            "message": None, "card_line": None, "card_side": None, "claims": [], "passes": [], "disqualified": [],
            "reveals": [], "scorer": None, "position": None, "points": {}, "winner": None}
        msg = None
        if self.options.own_message:
            self.record_turn["author"] = ws[0]
        else:
            self.game, (index, side) = rules.draw(self.game, len(self.cards), t.chance())
            card = self.cards[index]
            msg = card.sides[side]
            self.message, self.category = msg.text, msg.category
            self.record_turn.update(category=msg.category, message=msg.text, card_line=card.line,
                                    card_side=side + 1)
        for how, text in self.delivery_lines(self.turn, msg, tip_hard=self.options.hard and not self.options.own_message
                                                 and self.tip("hard")):
            if how == "secret":
                self.tell_writers(text, ws, guessers)
                self.told = (text, ws, guessers)  # "the message again" while claiming
            else:
                t.say_text(text)
        self.show()
        self.fire("delivered")

    def delivery_lines(self, turn: rules.Turn, msg, tip_hard: bool) -> list[tuple[str, str]]:
        """What DELIVER says, in order, as ``(how, text)``: ``"say"`` aloud, ``"secret"`` told the
        writers (G2, :meth:`tell_writers`); the opening counts the first turn with it.

        :param turn: the turn starting (``rules.start_turn``). :param msg: its card's message
            (``None`` with own messages). :param tip_hard: hard mode's tip is said (its first time)."""
        t = self.table
        guessers = self.names(turn.guessers)
        author = self.name(turn.writers[0])
        lines: list[tuple[str, str]] = []
        if turn.tiebreak:
            if self.game.tiebreak.turns_played:
                lines.append(("say", t.text("rofl.tiebreak_start", n=self.game.tiebreak.turns_played + 1)))
        else:
            if self.game.turn == 0 and self.game.round > 1:
                lines.append(("say", t.text("rofl.round_start", round=self.game.round)))
            if not (t.settings.private == "ears" and not self.options.own_message):
                lines.append(("say", t.text("rofl.start", guesser=guessers[0])))
        if self.options.own_message:
            lines.append(("say", t.text("rofl.own_author", author=author, guessers=guessers)))
            if not self.options.hard:
                lines.append(("say", t.text("rofl.own_category", author=author, guessers=guessers)))
            return lines
        category = t.text(f"rofl.category.{msg.category}")
        # hard mode (R7): only the writers hear the category, with the message
        lines.append(("secret", t.text("rofl.secret_hard", message=msg.text, category=category) if self.options.hard
                      else t.text("rofl.secret", message=msg.text)))
        if not self.options.hard:
            lines.append(("say", t.text("rofl.category_told", guessers=guessers, category=category)))
        elif tip_hard:
            lines.append(("say", t.text("rofl.tip_hard")))
        return lines

    def secret_delivery(self, secret: str, writers, guessers) -> tuple[str, str, str, str | None]:
        """The arguments of :meth:`Table.tell_private` for the writers' secret (G2): in "ears"
        mode the guesser (tiebreak: the guessers, R6) is asked by name to cover their ears."""
        t = self.table
        cover = None
        if t.settings.private == "ears":
            cover = (t.text("rofl.cover_ears_one", guesser=self.name(guessers[0])) if len(guessers) == 1
                     else t.text("rofl.cover_ears_many", guessers=self.names(guessers)))
        return "writers", secret, t.prompts.join(self.names(writers)), cover

    def tell_writers(self, secret: str, writers: list[str], guessers: list[str]) -> None:
        """The message to the writers only (G2, :meth:`secret_delivery`)."""
        t = self.table
        t.show(Phase.DELIVER.value, {"message": self.message}, audience="writers")
        t.tell_private(*self.secret_delivery(secret, writers, guessers))

    def tell_again(self) -> None:
        """The secret told again, as the first time (G2), for a writer who missed it; not an
        input undo takes back (the writing timer counts only listening: it stands still)."""
        self.table.not_undoable()
        self.tell_writers(*self.told)

    # ---------------------------------------------------------------- claims
    def _refusal(self, exc: Exception, colour: str) -> NotAllowed:
        t = self.table
        if isinstance(exc, SpaceOutOfRange):
            return NotAllowed(t.text("rofl.refuse_off_board", space=exc.space))
        if isinstance(exc, SpaceTaken):
            free = exc.nearest_free
            key = {0: "rofl.refuse_taken_none", 1: "rofl.refuse_taken_one"}.get(len(free), "rofl.refuse_taken_two")
            return NotAllowed(t.text(key, space=exc.space, free=free))
        if isinstance(exc, AlreadyClaimed):
            return NotAllowed(t.text("rofl.refuse_already", colour=self.name(exc.writer), space=exc.space))
        return NotAllowed(self._not_writer_text(colour))

    def _not_writer_text(self, colour: str) -> str:
        t = self.table
        if colour not in self.game.players:
            return t.text("rofl.refuse_not_playing", colour=self.name(colour))
        if self.in_tiebreak():
            return t.text("rofl.refuse_tiebreak_guesser", colour=self.name(colour))
        return t.text("rofl.refuse_guesser", colour=self.name(colour))

    def _parse_claim(self, text: str, default: str | None = None, ready_ok: bool = False):
        """A claim or pass the rules allow now → the :class:`ClaimIntent`; or ``Said.READY``.

        :raises NotUnderstood: not a claim. :raises NotAllowed: the rules refuse it (said why).
        """
        if ready_ok and self.words.is_ready(text):
            return _READY
        if self.told is not None and self.words.message_again(text):
            return _AGAIN
        intent = self.words.claim(text, default)
        if isinstance(intent.space, float):
            raise NotAllowed(self.table.text("rofl.refuse_off_board", space=self.number(intent.space)))
        self._claimed(intent)  # checked only: the turn changes when the moment accepts it
        return intent

    def _claimed(self, intent) -> rules.Turn:
        """The turn after ``intent`` (R2). :raises NotAllowed: the rules refuse it."""
        try:
            if intent.is_pass:
                return rules.pass_turn(self.turn, intent.colour)
            return rules.claim_space(self.turn, intent.colour, intent.space, self.options.stacking)
        except (SpaceOutOfRange, SpaceTaken, UnknownWriter, AlreadyClaimed) as exc:
            raise self._refusal(exc, intent.colour) from None

    def _accept_claim(self, intent) -> None:
        self.turn = self._claimed(intent)
        if intent.is_pass:
            self.table.say_text(self.table.text("rofl.passed", writer=self.name(intent.colour)), remember=False)
        else:
            self.table.say_text(self.table.text("rofl.claimed", writer=self.name(intent.colour),
                                                space=intent.space), remember=False)
        self.show("rofl.hint_claims")

    def on_enter_CLAIMS(self) -> None:
        """R2: claims while the writing timer runs (a timed moment of the table, G1: "pause"
        stops it); the phase ends at once when every writer has claimed or passed; after the
        timer, each writer still missing is asked by name (silence is a pass)."""
        self._enter()
        t = self.table
        example = self.example_writer()
        phrases = self.words.claim_phrases(self.game.players)
        seconds = t.settings.timer_s
        ask = dict(phrases=phrases, moment="claim", silence_limit=1, example=example)
        self.show("rofl.hint_claims")
        first_tip = self.first_example or self.turn_no > 1  # the opening may leave it to turn 2
        tipped = first_tip and self.tip("writing" if seconds else "writing_no_timer")
        self._say_question(*self.claim_question(example, tipped))
        if seconds:

            def claimed(got) -> None:
                if got is SILENT:  # the window ended: time passed, nothing to undo
                    self._time_passed()
                elif got is _RULES:
                    self._rules_asked()
                elif got is _AGAIN:
                    self.tell_again()  # only listening counts against the timer: it stands still meanwhile
                else:
                    self._accept_claim(got)

            t.timed_moment(None, self._with_rules(self._parse_claim), done=lambda: rules.claims_complete(self.turn),
                           on_answer=claimed, phrases=phrases, help_key="rofl.help_claims", moment="claim",
                           silence_limit=1, start_key=None, warning_key="rofl.writing_warning",
                           end_key="rofl.writing_end", all_done_key=None, example=example)
        else:
            while not rules.claims_complete(self.turn):
                got = self.ask(None, lambda text: self._parse_claim(text, ready_ok=True),
                               help_key="rofl.help_claims_no_timer", timeout_s=None, **ask)
                if got is _READY:
                    break
                if got is SILENT:
                    self._time_passed()
                else:
                    self._accept_claim(got)
        # after the writing time: every writer who has not claimed is asked by name; silence is a pass
        while not rules.claims_complete(self.turn):
            writer = rules.waiting(self.turn)[0]
            got = self.ask("rofl.ask_writer", lambda text, w=writer: self._parse_claim(text, w),
                           help_key="rofl.help_writer", timeout_s=DEFAULT_LISTEN_S, writer=self.name(writer), **ask)
            if got is SILENT:
                self.turn = rules.pass_turn(self.turn, writer)
                self.record_turn["passes"].append({"writer": writer, "silent": True})
                t.say_text(t.text("rofl.silent_pass", writer=self.name(writer)), remember=False)
                self.show()
            else:
                self._accept_claim(got)
        self.turn = rules.close_claims(self.turn)
        silent = {p["writer"] for p in self.record_turn["passes"]}
        self.record_turn["claims"] = [{"writer": c.writer, "space": c.space, "order": i + 1}
                                      for i, c in enumerate(self.turn.board.claims)]
        self.record_turn["passes"] = [{"writer": w, "silent": w in silent} for w in self.turn.board.passed]
        if not self.turn.order:
            t.say("rofl.no_tokens")
        self.show()
        self.fire("claims_closed")

    # ---------------------------------------------------------------- reveal
    def _parse_guess(self, text: str, writer: str):
        """A guess is free text; "disqualified" (R3) and "pass" are not guesses, and neither is a
        writers' verdict ("agreed", "blue, correct"): a late one from the last message is table
        talk here, never the guesser's one try (R4)."""
        try:
            d = self.words.disqualify(text)
        except NotUnderstood:
            d = None
        try:
            self.words.verdict(text)
        except NotUnderstood:
            pass
        else:
            raise NotUnderstood
        if d is not None:
            if d.colour is not None and d.colour != writer:
                raise NotAllowed(self.table.text("rofl.refuse_disqualify_other", writer=self.name(writer)))
            return _DISQUALIFIED
        if self.words.guess_pass(text):
            return _NO_GUESS
        return text

    def _listen_guess(self, writer: str):
        """The guess at ``writer``'s message: its text, ``Said.DISQUALIFIED`` or ``None`` (no guess).

        "Disqualified" (R3) is confirmed first. With a timer see :meth:`_timed_guess`; without
        one the guesser may say pass, and nothing heard three times is no guess.
        """
        t = self.table
        who = self.names(self.turn.guessers)
        several = len(who) > 1  # tiebreak: any one of the guessers may guess (R6)
        pre = "rofl.tiebreak_" if several else "rofl."
        help_key = "rofl.help_tiebreak_guess" if several else "rofl.help_guess"
        values = dict(guessers=who, writer=self.name(writer))
        first = self.tip("tiebreak_guess" if several else "guess")
        question = t.text(pre + ("tip_guess" if first else "guess_question"), **values)
        if t.settings.timer_s:
            return self._timed_guess(writer, question, pre, help_key, values)
        self._say_question(question, t.text("rofl.tip_guess_untimed") if self.tip("guess_untimed") else None)
        nothing = 0  # guesses heard as nothing so far
        while True:
            got = self.ask(None, lambda text: self._parse_guess(text, writer), free=True, help_key=help_key,
                           moment="guess", timeout_s=None, silence_limit=1, **values)
            if got is _DISQUALIFIED:
                if self._disqualify_confirmed(writer, question):
                    return _DISQUALIFIED
                continue
            if got is _NO_GUESS:
                t.say("rofl.guess_passed", **values)
                return None
            if got is not SILENT and _heard_words(got):
                return got
            nothing += 1
            if nothing >= UNTIMED_GUESS_TRIES:  # this "nothing" decides: no guess (undo can take it back)
                t.say("rofl.no_guess", **values)
                return None
            self._time_passed()  # it only leads to asking again: not an input to undo
            again = "guess_last_try" if nothing == UNTIMED_GUESS_TRIES - 1 else "guess_again"
            t.say_text(t.text(pre + again, **values), remember=False)

    def _timed_guess(self, writer: str, question: str, pre: str, help_key: str, values: dict):
        """The guess on the guessing timer (G1, R4), a timed moment of the table.

        The timer warns at 10 s left by asking again ("Ten seconds. Red, your guess?"). A guess
        heard as nothing (noise) is asked for once more; the second nothing is no guess; a
        silence never ends the guessing before the time is up. The disqualify confirmation
        and "pause" stop the clock.
        """
        t = self.table
        seconds = t.settings.timer_s
        # the timer's length is said at the turn's first message; later ones have the same
        timing = None if len(self.turn.reveals) > 1 else t.text(
            "rofl.timer_start_all" if len(self.turn.guessers) > 1 else "rofl.timer_start_one", seconds=int(seconds))
        self._say_question(question, timing)
        result: list = []  # [the guess, Said.DISQUALIFIED or None] once decided
        nothing = 0  # guesses heard as nothing so far (silences included)

        def decide(value, key: str | None = None) -> None:
            if key is not None:
                t.say(key, **values)
            result.append(value)

        def answered(got) -> None:
            nonlocal nothing
            left = t.timer_left() or 0.0
            if got is _RULES:
                self._rules_asked()
            elif got is _DISQUALIFIED:
                if self._disqualify_confirmed(writer, question):
                    decide(_DISQUALIFIED)
            elif got is _NO_GUESS:
                decide(None, "rofl.guess_passed")
            elif got is not SILENT and _heard_words(got):
                if left < -1e-9:  # typed after the time was up
                    decide(None, "rofl.no_guess_time")
                else:
                    decide(got)
            else:
                nothing += 1
                if left <= 1e-9:  # this "nothing" decides (undo can take it back)
                    decide(None, "rofl.no_guess_time")
                elif got is not SILENT and nothing >= TIMED_GUESS_TRIES:
                    decide(None, "rofl.no_guess")
                else:
                    self._time_passed()  # it only leads to asking again: not an input to undo
                    again = "guess_again_timer" if left <= WARNING_S + 1e-9 else "guess_again"
                    t.say_text(t.text(pre + again, **values), remember=False)

        t.timed_moment(None, self._with_rules(lambda text: self._parse_guess(text, writer)), done=lambda: bool(result),
                       on_answer=answered, free=True, help_key=help_key, moment="guess", silence_limit=1,
                       start_key=None, warning_key=None, end_key=None, all_done_key=None, **values)
        if not result:  # the time ran out on something that decided nothing (a command)
            decide(None, "rofl.no_guess_time")
        return result[0]

    def _disqualify_confirmed(self, writer: str, question: str) -> bool:
        """"Disqualified" (R3) is confirmed; on no, the message stays and the question is asked again."""
        t = self.table
        if t.ask_yes_no("rofl.confirm_disqualify", moment="disqualify", writer=self.name(writer)):
            return True
        t.say_text(t.text("rofl.disqualify_declined", writer=self.name(writer)), remember=False)
        self._say_question(question)
        return False

    def on_enter_REVEAL(self) -> None:
        if any(r.guessed for r in self.turn.reveals):
            self._enter()  # after a guess: a new step (R4, one guess)
        t = self.table
        self.turn = rules.show_next(self.turn)
        writer, space = self.turn.current.writer, self.turn.current.space
        self.guess = None
        t.say("rofl.show", writer=self.name(writer), space=space)
        self.show("rofl.hint_guess")
        entry: dict[str, Any] = {"writer": writer, "space": space, "position": None, "disqualified": False,
                                 "guess": None, "judgement": None, "verdict": None, "overruled": False,
                                 "correct": False}
        self.record_turn["reveals"].append(entry)
        got = self._listen_guess(writer)
        if got is _DISQUALIFIED:
            self.turn = rules.disqualify(self.turn)
            entry["disqualified"] = True
            self.record_turn["disqualified"].append(writer)
            t.say("rofl.disqualified", writer=self.name(writer))
        elif got is None:
            self.turn = rules.no_guess(self.turn)
            entry["position"] = self.turn.position
        else:
            entry["position"] = self.turn.position
            entry["guess"] = self.guess = got
            if self.options.own_message:
                self.turn = rules.guessed(self.turn, None)
            else:
                j = judge.judge_guess(got, self.message, self.options.lenient, self.lang)
                entry["judgement"] = dataclasses.asdict(j)
                entry["correct"] = j.correct
                self.turn = rules.guessed(self.turn, j.correct)
            self.show()
            self.fire("heard_guess")
            return
        self.show()
        self.fire("message_done")

    # ---------------------------------------------------------------- judgement (R4, R7)
    def _parse_overrule(self, text: str, judgement: bool | None) -> Verdict:
        """A writer's verdict on a guess (R4, R7).

        :param judgement: the host's judgement, or ``None`` with own messages (a writer must judge).
        :returns: ``Verdict(colour, correct)``; ``correct`` is ``None`` when the judgement
            stands ("agreed", "yes", or a colourless "correct"/"wrong" that says what the host said).
        :raises NotAllowed: an overrule without a colour, by the guesser or a colour not
            playing; agreement when the host cannot judge.
        :raises NotUnderstood: not a verdict.
        """
        t = self.table
        v = self.words.verdict(text)
        example = self.name(self.turn.writers[0])
        if judgement is None:  # own message: only a writer's "correct"/"wrong" (or "blue, yes")
            if v.correct is None and v.yes and v.colour is not None:
                v = Verdict(v.colour, True)
            if v.correct is None:
                raise NotAllowed(t.text("rofl.refuse_agree_own", example=example))
        elif v.correct is None:
            return v
        elif v.colour is None:
            if v.correct == judgement:  # "correct" after "That's right!": agreement
                return Verdict(None, None)
            raise NotAllowed(t.text("rofl.refuse_no_colour", example=example))
        if v.colour is None:
            raise NotAllowed(t.text("rofl.refuse_no_colour", example=example))
        try:
            rules.overrule(self.turn, v.colour, bool(v.correct), self.game.players)
        except NotAWriter as exc:
            key = "rofl.refuse_guesser_judges" if exc.playing else "rofl.refuse_not_playing"
            raise NotAllowed(t.text(key, colour=self.name(v.colour))) from None
        return v

    def on_enter_JUDGE(self) -> None:
        """R4: the host judges, then the writers agree or overrule; a spoken word is needed:
        after a silence the host says that its judgement stands. R7: the writers judge."""
        self._enter()
        t = self.table
        entry = self.record_turn["reveals"][-1]
        got = self.guess
        phrases = self.words.verdict_phrases(self.game.players)
        example = self.name(self.turn.writers[0])
        host_says = self.turn.current.host_says
        if host_says is None:  # own messages (R7): a writer judges
            key = "rofl.tip_own_verdict" if self.tip("own_verdict") else "rofl.own_verdict_prompt"
            v = self.ask(key, lambda text: self._parse_overrule(text, None),
                         phrases=phrases, help_key="rofl.help_verdict", moment="verdict", guess=got, example=example)
            self.turn = rules.overrule(self.turn, v.colour, bool(v.correct), self.game.players)
            entry["verdict"] = {"by": v.colour, "correct": bool(v.correct)}
            t.say("rofl.own_verdict_correct" if v.correct else "rofl.own_verdict_wrong", colour=self.name(v.colour))
        else:
            # read back what was heard where a writer may need it: a wrong one, or a slip forgiven
            slip = (entry["judgement"] or {}).get("reason") == judge.SLIP
            key = "rofl.judged_wrong" if not host_says else "rofl.judged_right_heard" if slip else "rofl.judged_right"
            t.say(key, guess=got)
            key = "rofl.tip_overrule" if self.tip("overrule") else "rofl.overrule_prompt"
            v = self.ask(key, lambda text: self._parse_overrule(text, host_says),
                         phrases=phrases, help_key="rofl.help_overrule", moment="overrule", silence_limit=1,
                         example=example)
            if v is SILENT:
                t.say("rofl.judgement_stands")
                self.turn = rules.settle(self.turn)
            elif v.correct is not None:
                self.turn = rules.overrule(self.turn, v.colour, v.correct, self.game.players)
                entry["verdict"] = {"by": v.colour, "correct": v.correct}
                entry["overruled"] = v.correct != host_says
                if entry["overruled"]:
                    t.say("rofl.overrule_correct" if v.correct else "rofl.overrule_wrong", colour=self.name(v.colour))
                else:
                    t.say("rofl.confirm_correct" if v.correct else "rofl.confirm_wrong", colour=self.name(v.colour))
            else:
                self.turn = rules.settle(self.turn)
        entry["correct"] = bool(self.turn.current.correct)
        self.show()
        self.fire("message_done")

    # ---------------------------------------------------------------- scoring
    def on_enter_TURN_END(self) -> None:
        self._enter()
        t = self.table
        n = self.turn_no
        rec = self.record_turn
        if self.message is not None and not rules.guessed_right(self.turn):
            t.say("rofl.message_was", message=self.message)
        if self.turn.tiebreak:
            self.game, outcome = rules.score_tiebreak_turn(self.game, self.turn.results)
            rec["scorer"] = rec["winner"] = outcome.winner
            if outcome.winner is not None:
                rec["position"] = next(r["position"] for r in rec["reveals"] if r["writer"] == outcome.winner)
            t.record_turn(rec)
            if outcome.winner is None:
                t.say("rofl.tiebreak_none")
            else:
                t.say("rofl.tiebreak_won", writer=self.name(outcome.winner))
        else:
            last_in_round = self.game.turn == len(self.game.players) - 1
            self.game, score = rules.score_turn(self.game, self.turn.results)
            if score.writer is not None:
                rec.update(scorer=score.writer, position=score.position,
                           points={score.guesser: score.points, score.writer: score.points})
                t.award(score.guesser, score.points, "points", "guess", n)
                t.award(score.writer, score.points, "points", "writer", n)
                t.say("rofl.scored", writer=self.name(score.writer), guesser=self.name(score.guesser),
                      points=self.points_text(score.points))
            else:
                t.say("rofl.not_scored")
            t.record_turn(rec)
            if last_in_round and not self.game_finished() and not self.tiebreak_starts():
                for sentence in self.leaders_text():
                    t.say_text(sentence, remember=False)
        self.show()
        self.fire("scored")

    def on_enter_FINALE(self) -> None:
        self._enter()
        self.show()
        t = self.table
        won = list(rules.winners(self.game))
        tb = self.game.tiebreak
        points = self.points_text(self.game.scores[won[0]])
        if tb is not None and tb.shared:
            t.say("rofl.shared_win", players=self.names(won), points=points)
        elif tb is not None:
            t.say("rofl.tiebreak_winner", winner=self.name(won[0]), points=points)
        else:
            t.say("rofl.winner", winner=self.name(won[0]), points=points)
        if not (tb is not None and tb.shared):
            self.say_standings("rofl.final_standings", top=3)
        turns = [x for x in t.recorded_turns() if not x["tiebreak"]]
        if turns:
            t.say("rofl.recap", turns=len(turns), guessed=sum(1 for x in turns if x["scorer"] is not None))
        t.note_record(standings=[{"name": p, "points": s} for p, s in self.standings()], winners=won)
        t.say("common.game_over")
        self.fire("finish")


def _heard_words(text: str) -> bool:
    """True when a transcript holds a word (a recognizer's noise is ``""`` or ``[unk]``)."""
    return any(w not in ("[unk]", "unk") for w in text.replace("[unk]", " ").split())


# ---------------------------------------------------------------------- the lobby
def progress(save: dict, prompts) -> str:
    """Where an autosaved game stopped, for the lobby's resume offer ("round 2, turn 3").

    :param save: an autosave: ``"phase"`` and the ``"state"`` of :meth:`Host.snapshot`.
    :param prompts: anything with ``text(key, **values)``.
    """
    phase = str(save.get("phase") or "intro")
    game = (save.get("state") or {}).get("game") or {}
    if phase.startswith("intro") or phase.startswith("setup") or not game:
        return prompts.text("rofl.progress.start")
    if game.get("tiebreak"):
        return prompts.text("rofl.progress.tiebreak")
    return prompts.text("rofl.progress.turn", round=int(game.get("round", 1)), turn=int(game.get("turn", 0)) + 1)
