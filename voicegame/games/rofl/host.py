"""The spoken ROFL! host: a ``transitions`` machine over :class:`Host` (issue 5).

One turn (R1–R5, G1, G2)::

    deliver  → the guesser is named; the message goes privately to the writers
               (G2: in "ears" mode the host tells the guesser, by name, to cover
               their ears — the guesser is the one who must not hear); the category
               is told (not in hard mode, R7)
    claims   → writing timer (G1); writers claim board spaces by voice, "blue, seven",
               during and after the timer (R2); after it, each writer who has not
               claimed is asked by name, and silence is a pass. With ``--timer off``
               the writers claim once they have finished writing and the reveal starts
               as soon as every writer has claimed or passed (R2); "ready" stops the
               waiting: each writer still missing is asked by name
    reveal   → once per token, lowest space first (R4): "blue, show your message";
               "disqualified", once confirmed, skips it (R3); guessing timer; the guess is heard as
               free text and judged (:func:`voicegame.rules.rofl.judge_guess`);
               writers may overrule ("blue says correct"); stops at the first correct
    turn_end → score (R5), standings; next turn, tiebreak (R6) or the end

Speakers name themselves by colour: a recognizer cannot tell voices apart, so a
claim or an overrule must carry the speaker's colour ("blue, seven", "green says
wrong"); when the host has just asked one writer by name, the colour may be left
out. An overrule from the guesser (or a tiebreak guesser) is refused and ignored:
only writers judge (R4). The guess itself carries no colour: in a tiebreak the
guesser who guessed stays unnamed (``GuessResult.guesser`` is ``None``; it scores
nothing, R6).

With ``--own-message`` (R7) the writer left of the guesser makes up each message:
the host delivers nothing, knows no category and cannot judge, so a writer must
say "correct" or "wrong" after every guess.

"Undo" (G4) works within a turn: the claims, guesses and verdicts of a turn are one
undo phase (:meth:`Host.turn_phase`), so a silent pass, a "no guess" after silence or a
disqualification can be taken back after the host has moved on to the next message.
A silence that only lets a timer run on is not an input undo takes back.

Options: ``--players`` (3–7 colours, seat order, R1/G3), ``--stacking``,
``--lenient``, ``--hard``, ``--own-message`` (R7) and ``--deck PATH``.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

from transitions import Machine

from voicegame.games.rofl.deck import Card, load_deck
from voicegame.engine.table import DEFAULT_LISTEN_S, SILENT, NotAllowed, Table, understood
from voicegame.language.prompts import Prompts
from voicegame.games.rofl import judge, rules
from voicegame.games.rofl.rules import (AlreadyClaimed, Board, GuessResult, RoflOptions, SpaceOutOfRange,
                                  SpaceTaken, UnknownWriter)
from voicegame.language.words import normalise, understanding
from voicegame.games.rofl.intents import Verdict, rofl_understanding

#: Default players in seat order (G3), when ``--players`` is not given.
DEFAULT_PLAYERS = ("red", "blue", "green", "yellow")
#: Seconds before the end of a timer when the warning is said (G1).
WARNING_S = 10.0
#: Guesses heard as nothing before a message counts as not guessed, with a guessing timer:
#: the guesser is asked once more within the timer (issue 5).
TIMED_GUESS_TRIES = 2
#: The same without a timer (``--timer off``): nothing limits the time, so the guesser is
#: asked twice more (the last time with a warning) before "no guess". A live recognizer
#: waits for speech without end here; only noise or an empty typed line counts as nothing.
UNTIMED_GUESS_TRIES = 3

STATES = ["intro", "deliver", "claims", "reveal", "turn_end", "tiebreak_intro", "finale", "game_over"]

_READY = object()
_DISQUALIFIED = object()
_NO_GUESS = object()


# ---------------------------------------------------------------------- CLI contract
def add_arguments(parser) -> None:
    """ROFL!'s command-line options (R1, R7)."""
    parser.add_argument("--players", default=",".join(DEFAULT_PLAYERS),
                        help="3 to 7 colours in seat order, comma-separated "
                             f"(default {','.join(DEFAULT_PLAYERS)}); the first is the first guesser")
    parser.add_argument("--stacking", action="store_true", help="several tokens may share a board space")
    parser.add_argument("--lenient", action="store_true", help="forgive a missing or extra a, an, the")
    parser.add_argument("--hard", action="store_true", help="hard mode: the category is not told")
    parser.add_argument("--own-message", action="store_true",
                        help="a writer makes up each message; the writers judge the guesses")
    parser.add_argument("--deck", default=None, help="a custom message deck (category | message | category | message)")


def options_from_args(args) -> dict:
    """The JSON-serialisable game options of ``args``."""
    players = [p.strip() for p in str(args.players).split(",") if p.strip()]  # as typed: errors quote them
    return {"players": players, "stacking": bool(args.stacking), "lenient": bool(args.lenient),
            "hard": bool(args.hard), "own_message": bool(args.own_message),
            "deck": str(Path(args.deck).resolve()) if args.deck else None}


def validate(settings) -> None:
    """Check the players and load the deck (once, before the game).

    Players must be 3 to 7 distinct colours (G3, R1): colour keys ("blue", "Blue") or colour
    words of the table's language ("azul", "Blauw"), in any case; they are stored as keys.
    Names ("Ana") are refused: a speaker names themselves with every claim and overrule
    ("blue, seven"), and colours are the short, distinct words a grammar hears well (G3).
    The refusal quotes the names as typed.
    A custom deck's cards are stored in ``settings.options["deck_cards"]`` so that a
    resumed game never depends on the file again. The errors are printed before the game
    starts, in the table's language (``rofl.errors.*`` of ``prompts/<lang>/rofl.toml``).

    :raises ValueError: one sentence about the players.
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
    cards = load_deck(opts.get("deck"), settings.lang)
    if opts.get("deck"):
        opts["deck_cards"] = [c.to_list() + [c.line] for c in cards]


def _colour_key(u, word: str) -> str | None:
    """The colour key of a ``--players`` entry: a key ("blue", "Blue") or a colour word of
    the table's language ("azul", "Blauw", "roja"); ``None`` for anything else."""
    said = normalise(word)
    if said in u.colour_words:
        return said
    return next((key for key, phrases in u.colour_words.items() if said in phrases), None)


# ---------------------------------------------------------------------- the host
class Host:
    """Runs one game of ROFL! at a :class:`~voicegame.host.base.Table`.

    The constructor draws nothing but the deck order (``table.rng``) and never listens.
    """

    def __init__(self, table: Table):
        self.table = table
        opts = table.settings.options
        self.lang = table.settings.lang
        self.options = RoflOptions(stacking=bool(opts.get("stacking")), lenient=bool(opts.get("lenient")),
                                   hard=bool(opts.get("hard")), own_message=bool(opts.get("own_message")))
        self.game = rules.new_game(list(opts.get("players") or DEFAULT_PLAYERS), self.options)
        self.words = rofl_understanding(self.lang)
        if opts.get("deck_cards"):
            self.cards = [Card.from_list(c[:4], c[4] if len(c) > 4 else 0) for c in opts["deck_cards"]]
        else:
            self.cards = load_deck(opts.get("deck"), self.lang)
        self.draw_pile: list[tuple[int, int]] = []
        self._refill_pile()
        self.turn_no = 0
        self.turn: dict[str, Any] = {}
        self.board = Board()
        self.message: str | None = None
        self.category: str | None = None
        self.order: list[tuple[str, int]] = []
        self.reveal_index = 0
        self.results: list[GuessResult] = []
        self.disqualified: list[str] = []
        self.guessed = False
        self.machine = Machine(model=self, states=STATES, initial="intro", auto_transitions=False,
                               transitions=[
                                   {"trigger": "begin", "source": "intro", "dest": "deliver"},
                                   {"trigger": "delivered", "source": "deliver", "dest": "claims"},
                                   {"trigger": "close_claims", "source": "claims", "dest": "reveal",
                                    "conditions": "claims_complete"},
                                   {"trigger": "next_message", "source": "reveal", "dest": "reveal",
                                    "conditions": "more_to_reveal"},
                                   {"trigger": "reveals_done", "source": "reveal", "dest": "turn_end"},
                                   {"trigger": "next_turn", "source": "turn_end", "dest": "deliver",
                                    "conditions": "turns_remain"},
                                   {"trigger": "tie_found", "source": "turn_end", "dest": "tiebreak_intro",
                                    "conditions": "tiebreak_starts"},
                                   {"trigger": "game_decided", "source": "turn_end", "dest": "finale",
                                    "conditions": "game_finished"},
                                   {"trigger": "tiebreak_begin", "source": "tiebreak_intro", "dest": "deliver"},
                                   {"trigger": "finish", "source": "finale", "dest": "game_over"},
                               ])
        table.score_callback = lambda: self.say_standings(remember=False)
        table.snapshot_callback = self.snapshot
        # the Table says help sentences without values: fill their {example} with a colour
        # that is playing (a writer of this turn)
        table.prompts = _HelpExamples(table.prompts, self.example_writer)

    # ------------------------------------------------------------------ driver
    def play(self) -> None:
        """Run the whole game; returns when it is over."""
        while self.state != "game_over":
            getattr(self, "run_" + self.state)()

    # ------------------------------------------------------------------ conditions (pure rules)
    def claims_complete(self) -> bool:
        return rules.all_done(self.board, self.writer_names())

    def more_to_reveal(self) -> bool:
        return not self.guessed and self.reveal_index < len(self.order)

    def turns_remain(self) -> bool:
        p = rules.phase(self.game)
        return p == "turn" or (p == "tiebreak" and self.game.tiebreak.turns_played > 0)

    def tiebreak_starts(self) -> bool:
        return rules.phase(self.game) == "tiebreak" and self.game.tiebreak.turns_played == 0

    def game_finished(self) -> bool:
        return rules.phase(self.game) == "finished"

    # ------------------------------------------------------------------ helpers
    def snapshot(self) -> dict:
        """JSON-able state for the autosave (informative)."""
        return {"game": dataclasses.asdict(self.game), "board": dataclasses.asdict(self.board),
                "turn": self.turn_no, "reveal_index": self.reveal_index}

    def _refill_pile(self) -> None:
        """Shuffle every card (and pick a side of each) with the table's seeded rng."""
        order = list(range(len(self.cards)))
        self.table.rng.shuffle(order)
        self.draw_pile = [(i, self.table.rng.randrange(2)) for i in order]

    def draw(self) -> tuple[Card, int]:
        """The next card and side; the pile is reshuffled when it runs out."""
        if not self.draw_pile:
            self._refill_pile()
        index, side = self.draw_pile.pop(0)
        return self.cards[index], side

    def name(self, colour: str) -> str:
        """How a player is called aloud: the colour in the table's language as a proper
        name (G3): "Blue", "Azul", "Blauw"."""
        word = self.table.name(colour)
        return word[:1].upper() + word[1:]

    def number(self, value: int | float) -> str:
        """A number as the host writes it for the table: "7.5" in English, "7,5" in
        Spanish and Dutch (the language's decimal mark from ``words.toml``)."""
        return str(value).replace(".", self.table.understanding.numbers.decimal_mark)

    def names(self, colours) -> list[str]:
        return [self.name(c) for c in colours]

    def points_text(self, n: int) -> str:
        return self.table.text("rofl.points_one" if n == 1 else "rofl.points_many", n=n)

    def in_tiebreak(self) -> bool:
        return rules.phase(self.game) == "tiebreak"

    def turn_phase(self) -> str:
        """The undo phase of the current turn (G4): ``"turn:<n>"``.

        One phase covers a whole turn, from the claims to the last guess and overrule,
        because that is the step players think of: "undo" right after the last writer's
        pass (or silence), after a disqualification, or after a guess or its judgement
        takes that input back even though the host has moved on to the reveal or to the
        next message. The scoring and the next turn start new phases: once the points
        are announced, the turn is settled.
        """
        return f"turn:{self.turn_no}"

    def example_writer(self) -> str:
        """A colour for "for example: Blue, seven": a writer of this turn (before the first
        turn: the second player in seat order, a writer of turn 1)."""
        ws = self.writer_names() or self.game.players[1:2] or self.game.players
        return self.name(ws[0])

    def _time_passed(self) -> None:
        """The silence (or noise) that just ended a listening window only let time pass (a
        writing or guessing window ran out, or nobody spoke while there is no timer): it
        decided nothing, so it is not an accepted input that "undo" would take back (G4)."""
        self.table.not_undoable()

    def _say_question(self, question: str, timing: str | None = None) -> None:
        """Say a listening moment's question, with a sentence about its timer if given.

        Only the question is kept for "repeat" (and for the prompt said again after an
        undo): the timer is not restarted by a repeat, so "You have 30 seconds, starting
        now" must not be said again.
        """
        t = self.table
        t.say_text(f"{question} {timing}" if timing else question, remember=False)
        t.last_prompt = question

    def writer_names(self) -> tuple[str, ...]:
        return tuple(self.turn.get("writers", ()))

    def guesser_names(self) -> tuple[str, ...]:
        return tuple(self.turn.get("guessers", ()))

    def standings(self) -> list[tuple[str, int]]:
        """Players by points (highest first), seat order among equals."""
        seat = {p: i for i, p in enumerate(self.game.players)}
        return sorted(self.game.scores.items(), key=lambda kv: (-kv[1], seat[kv[0]]))

    def say_standings(self, key: str = "rofl.standings", remember: bool = True) -> None:
        """Speak the standings, highest first (also the "score" command, which keeps the
        moment's prompt for "repeat"). A player without points is said as such ("Verde sin
        puntos", "Groen nog geen punten"), not "with 0 points"."""
        t = self.table
        zero = "rofl.final_standing_item_zero" if key == "rofl.final_standings" else "rofl.standing_item_zero"
        items = [t.text(zero, name=self.name(p)) if s == 0 else
                 t.text("rofl.standing_item", name=self.name(p), points=self.points_text(s))
                 for p, s in self.standings()]
        t.say_text(t.text(key, items=items), remember=remember)

    # ------------------------------------------------------------------ phases
    def run_intro(self) -> None:
        t = self.table
        t.enter_phase("intro")
        players = list(self.game.players)
        t.check_vocabulary(self.words.all_words(players))
        t.say("rofl.welcome", players=self.names(players), rounds=rules.ROUNDS)
        if self.options.own_message:
            t.say("rofl.how_turn_own")
        else:
            t.say("rofl.how_turn_ears" if t.settings.private == "ears" else "rofl.how_turn_private")
        if not self.options.hard:
            t.say("rofl.how_category")
        t.say("rofl.how_shorten")
        when = t.text("rofl.claim_when_timer" if t.settings.timer_s else "rofl.claim_when_no_timer")
        t.say("rofl.how_claim", when=when, example=self.name(players[1]))
        if not self.options.stacking:
            t.say("rofl.rule_one_token")
        t.say("rofl.how_guess")
        t.say("rofl.how_judge_own" if self.options.own_message else "rofl.how_judge", example=self.name(players[2]))
        for flag in ("stacking", "lenient", "hard", "own_message"):
            if getattr(self.options, flag):
                t.say(f"rofl.option_{flag}")
        t.say("rofl.how_commands")
        self.begin()

    def run_tiebreak_intro(self) -> None:
        t = self.table
        t.enter_phase("tiebreak")
        tb = self.game.tiebreak
        points = self.game.scores[tb.writers[0]]
        t.say("rofl.tie_announce", tied=self.names(tb.writers), points=self.points_text(points),
              guessers=self.names(tb.guessers))
        self.tiebreak_begin()

    def run_deliver(self) -> None:
        t = self.table
        self.turn_no += 1
        n = self.turn_no
        t.enter_phase(self.turn_phase())
        tiebreak = self.in_tiebreak()
        if tiebreak:
            tb = self.game.tiebreak
            guessers = list(tb.guessers)
            ws = list(tb.writers)
            t.say("rofl.tiebreak_turn", n=tb.turns_played + 1, writers=self.names(ws), guessers=self.names(guessers))
        else:
            guesser = rules.current_guesser(self.game)
            guessers = [guesser]
            ws = list(rules.writers(self.game))
            if self.game.turn == 0:
                t.say("rofl.round_start", round=self.game.round, rounds=rules.ROUNDS)
            t.say("rofl.turn_start", turn=self.game.turn + 1, guesser=self.name(guesser), writers=self.names(ws))
        self.board = Board()
        self.order, self.reveal_index, self.results, self.disqualified, self.guessed = [], 0, [], [], False
        self.turn = {"turn": n, "round": self.game.round, "tiebreak": tiebreak,
                     "turn_in_round": None if tiebreak else self.game.turn + 1,
                     "tiebreak_turn": self.game.tiebreak.turns_played + 1 if tiebreak else None,
                     "guesser": None if tiebreak else guessers[0], "guessers": guessers, "writers": ws,
                     "own_message": self.options.own_message, "author": None, "category": None,
                     "message": None, "card_line": None, "card_side": None, "claims": [], "passes": [], "disqualified": [],
                     "reveals": [], "scorer": None, "position": None, "points": {}, "winner": None}
        guesser_words = self.names(guessers)
        if self.options.own_message:
            author = ws[0]
            self.message = self.category = None
            self.turn["author"] = author
            t.say("rofl.own_author", author=self.name(author), guessers=guesser_words)
            if not self.options.hard:
                t.say("rofl.own_category", author=self.name(author), guessers=guesser_words)
        else:
            card, side = self.draw()
            msg = card.sides[side]
            self.message, self.category = msg.text, msg.category
            self.turn.update(category=msg.category, message=msg.text, card_line=card.line, card_side=side + 1)
            category = t.text(f"rofl.category.{msg.category}")
            self.tell_writers(t.text("rofl.secret", message=msg.text, category=category), ws, guessers)
            if not self.options.hard:
                t.say("rofl.category_told", guessers=guesser_words, category=category)
        self.delivered()

    def tell_writers(self, secret: str, writers: list[str], guessers: list[str]) -> None:
        """The message to the writers only (G2).

        In "ears" mode the one who must not hear is the guesser (in a tiebreak, the guessers,
        R6), so the host asks them by name to cover their ears ("Red, cover your ears"),
        counts down from three, says the secret twice, then says "all clear". With an
        earpiece or a screen the table's private channel is used, addressed to the writers.
        """
        t = self.table
        if t.settings.private != "ears":
            t.tell_private("writers", secret, t.prompts.join(self.names(writers)))
            return
        if len(guessers) == 1:
            t.say("rofl.cover_ears_one", guesser=self.name(guessers[0]))
        else:
            t.say("rofl.cover_ears_many", guessers=self.names(guessers))
        t.say("common.countdown")
        t.voice.say(secret, to="writers")
        t.voice.say(secret, to="writers")
        t.say("common.all_clear")

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
        """A claim or pass checked against the rules → ``(intent, new board)``; or ``_READY``."""
        if ready_ok and self.words.is_ready(text):
            return _READY
        intent = understood(self.words.claim(text, default))
        ws = self.writer_names()
        try:
            if intent.is_pass:
                board = rules.pass_writer(self.board, intent.colour, ws)
            else:
                space = intent.space
                if isinstance(space, float):
                    raise NotAllowed(self.table.text("rofl.refuse_off_board", space=self.number(space)))
                board = rules.claim(self.board, intent.colour, space, ws, self.options.stacking)
        except (SpaceOutOfRange, SpaceTaken, UnknownWriter, AlreadyClaimed) as exc:
            raise self._refusal(exc, intent.colour) from None
        return intent, board

    def _accept_claim(self, got) -> None:
        intent, board = got
        self.board = board
        if intent.is_pass:
            self.table.say_text(self.table.text("rofl.passed", writer=self.name(intent.colour)), remember=False)
        else:
            self.table.say_text(self.table.text("rofl.claimed", writer=self.name(intent.colour),
                                                space=intent.space), remember=False)

    def _waiting(self) -> list[str]:
        done = {c.writer for c in self.board.claims} | set(self.board.passed)
        return [w for w in self.writer_names() if w not in done]

    def run_claims(self) -> None:
        t = self.table
        t.enter_phase(self.turn_phase())
        ws = self.writer_names()
        example = self.name(ws[0])
        phrases = self.words.claim_phrases(self.game.players)
        seconds = t.settings.timer_s
        ask = dict(phrases=phrases, moment="claim", silence_limit=1)
        if seconds:
            self._say_question(t.text("rofl.writing_question", example=example),
                               t.text("rofl.timer_start_all", seconds=int(seconds)))
            deadline = t.clock.now() + seconds
            warned = seconds <= WARNING_S
            while True:
                now = t.clock.now()
                if not warned and now >= deadline - WARNING_S:
                    t.say_text(t.text("rofl.writing_warning"), remember=False)
                    warned = True
                if now >= deadline or self.claims_complete():
                    break
                window = (deadline - WARNING_S - now) if not warned else (deadline - now)
                got = t.ask(None, self._parse_claim, help_key="rofl.help_claims", timeout_s=window, **ask)
                if got is SILENT:
                    self._time_passed()
                else:
                    self._accept_claim(got)
            if t.clock.now() < deadline:  # every token placed: writing goes on until time is up
                t.say_text(t.text("rofl.writing_all_placed"), remember=False)
                if not warned:
                    t.clock.sleep(deadline - WARNING_S - t.clock.now())
                    t.say_text(t.text("rofl.writing_warning"), remember=False)
                t.clock.sleep(deadline - t.clock.now())
            waiting = self._waiting()
            if waiting:
                t.say("rofl.writing_end_open", waiting=self.names(waiting))
            else:
                t.say("rofl.writing_end")
        else:
            t.say("rofl.writing_no_timer", example=example)
            while not self.claims_complete():
                got = t.ask(None, lambda text: self._parse_claim(text, ready_ok=True),
                            help_key="rofl.help_claims_no_timer", timeout_s=None, **ask)
                if got is _READY:
                    break
                if got is SILENT:
                    self._time_passed()
                else:
                    self._accept_claim(got)
        # after the writing time: every writer who has not claimed is asked by name; silence is a pass
        while not self.claims_complete():
            writer = self._waiting()[0]
            got = t.ask("rofl.ask_writer", lambda text, w=writer: self._parse_claim(text, w),
                        help_key="rofl.help_writer", timeout_s=DEFAULT_LISTEN_S, writer=self.name(writer), **ask)
            if got is SILENT:
                self.board = rules.pass_writer(self.board, writer, ws)
                self.turn["passes"].append({"writer": writer, "silent": True})
                t.say_text(t.text("rofl.silent_pass", writer=self.name(writer)), remember=False)
            else:
                self._accept_claim(got)
        silent = {p["writer"] for p in self.turn["passes"]}
        self.turn["claims"] = [{"writer": c.writer, "space": c.space, "order": i + 1}
                               for i, c in enumerate(self.board.claims)]
        self.turn["passes"] = [{"writer": w, "silent": w in silent} for w in self.board.passed]
        self.order = rules.reveal_order(self.board)
        if self.order:
            tokens = [t.text("rofl.token_item", writer=self.name(w), space=s) for w, s in self.order]
            t.say("rofl.tokens", tokens=tokens)
        else:
            t.say("rofl.no_tokens")
        self.close_claims()

    # ---------------------------------------------------------------- reveal
    def _parse_guess(self, text: str, writer: str):
        d = self.words.disqualify(text)
        if d is not None:
            if d.colour is not None and d.colour != writer:
                raise NotAllowed(self.table.text("rofl.refuse_disqualify_other", writer=self.name(writer)))
            return _DISQUALIFIED
        if self.words.guess_pass(text):
            return _NO_GUESS
        return text

    def _listen_guess(self, writer: str):
        """The guess for ``writer``'s message: its text, ``_DISQUALIFIED`` or ``None`` (no guess).

        With a guessing timer (G1, R4) the first window lasts until 10 s are left; a guess
        heard as nothing (silence, noise) is asked for once more within the timer, then
        counts as no guess (issue 5: :data:`TIMED_GUESS_TRIES`). With ``--timer off``
        there is no time limit to announce: the guesser is told to say pass to give up,
        and a guess heard as nothing is asked for twice more, the second time with a
        warning, before it counts as no guess (:data:`UNTIMED_GUESS_TRIES`).

        "Disqualified" (R3) is confirmed first ("Disqualify Blue's message?"); the
        guessing timer stands still while the table answers, and a "no" goes back to
        the guess.
        """
        t = self.table
        who = self.names(self.guesser_names())
        several = len(who) > 1  # tiebreak: any one of the guessers may guess (R6)
        pre = "rofl.tiebreak_" if several else "rofl."
        help_key = "rofl.help_tiebreak_guess" if several else "rofl.help_guess"
        seconds = t.settings.timer_s
        values = dict(guessers=who, writer=self.name(writer))
        question = t.text(pre + "guess_question", **values)
        if seconds:
            self._say_question(question, t.text("rofl.timer_start_all" if several else "rofl.timer_start_one",
                                                seconds=int(seconds)))
            deadline = t.clock.now() + seconds
            tries = TIMED_GUESS_TRIES
        else:
            self._say_question(question, t.text(pre + "guess_untimed"))
            deadline = None
            tries = UNTIMED_GUESS_TRIES
        nothing = 0  # guesses heard as nothing so far
        while True:
            window = None
            if deadline is not None:
                remaining = deadline - t.clock.now()
                if remaining <= 0:  # a live clock ran out while the table spoke
                    t.say("rofl.no_guess_time", **values)
                    return None
                # the first window ends when 10 s are left, for the warning (G1)
                window = remaining - WARNING_S if nothing == 0 and remaining > WARNING_S else remaining
            got = t.ask(None, lambda text: self._parse_guess(text, writer), free=True, help_key=help_key,
                        moment="guess", timeout_s=window, silence_limit=1, **values)
            if got is _DISQUALIFIED:
                asked_at = t.clock.now()
                if t.ask_yes_no("rofl.confirm_disqualify", moment="disqualify", writer=self.name(writer)):
                    return _DISQUALIFIED
                if deadline is not None:  # the timer stood still while the table answered
                    deadline += t.clock.now() - asked_at
                t.say_text(t.text("rofl.disqualify_declined", writer=self.name(writer)), remember=False)
                self._say_question(question)
                continue
            if got is _NO_GUESS:
                t.say("rofl.guess_passed", **values)
                return None
            if got is not SILENT and _heard_words(got):
                return got
            nothing += 1
            out_of_time = deadline is not None and t.clock.now() >= deadline - 1e-9
            if nothing >= tries or out_of_time:  # this "nothing" decides: no guess (undo can take it back)
                t.say("rofl.no_guess_time" if out_of_time else "rofl.no_guess", **values)
                return None
            self._time_passed()  # it only leads to asking again: not an input to undo
            if deadline is not None:
                again = ("guess_again_timer" if deadline - t.clock.now() <= WARNING_S + 1e-9 else "guess_again")
            else:
                again = "guess_last_try" if nothing == tries - 1 else "guess_again"
            t.say_text(t.text(pre + again, **values), remember=False)

    def _parse_overrule(self, text: str, judgement: bool | None) -> Verdict:
        """A writer's verdict on a guess (R4, R7).

        :param judgement: the host's judgement (``True`` right, ``False`` wrong), or
            ``None`` with ``--own-message`` (the host cannot judge: a writer must).
        :returns: ``Verdict(colour, correct)``; ``correct`` is ``None`` when the judgement
            stands. Plain agreement ("agreed", "yes", "vale", "sí", "klopt", "ja"), and a
            "correct"/"wrong" without a colour that says what the host said, keep the
            host's judgement; an overrule must carry a writer's colour.
        :raises NotAllowed: an overrule without a colour, or by the guesser (ignored) or by
            a colour not playing; agreement when the host cannot judge.
        :raises NotUnderstood: not a verdict.
        """
        t = self.table
        v = understood(self.words.verdict(text))
        ws = self.writer_names()
        example = self.name(ws[0])
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
        if v.colour not in ws:
            if v.colour not in self.game.players:
                raise NotAllowed(t.text("rofl.refuse_not_playing", colour=self.name(v.colour)))
            raise NotAllowed(t.text("rofl.refuse_guesser_judges", colour=self.name(v.colour)))
        return v

    def run_reveal(self) -> None:
        t = self.table
        if not self.order:
            self.reveals_done()
            return
        writer, space = self.order[self.reveal_index]
        self.reveal_index += 1
        t.enter_phase(self.turn_phase())
        t.say("rofl.show", writer=self.name(writer), space=space)
        entry: dict[str, Any] = {"writer": writer, "space": space, "position": None, "disqualified": False,
                                 "guess": None, "judgement": None, "verdict": None, "overruled": False,
                                 "correct": False}
        got = self._listen_guess(writer)
        if got is _DISQUALIFIED:
            entry["disqualified"] = True
            self.disqualified.append(writer)
            self.turn["disqualified"].append(writer)
            t.say("rofl.disqualified", writer=self.name(writer))
        else:
            entry["position"] = len(self.results) + 1
            entry["guess"] = got
            correct = False
            if got is not None:
                phrases = self.words.verdict_phrases(self.game.players)
                if self.options.own_message:
                    v = t.ask("rofl.own_verdict_prompt", lambda text: self._parse_overrule(text, None),
                              phrases=phrases, help_key="rofl.help_verdict", moment="verdict",
                              guess=got, example=self.name(self.writer_names()[0]))
                    correct = bool(v.correct)
                    entry["verdict"] = {"by": v.colour, "correct": correct}
                    t.say("rofl.own_verdict_correct" if correct else "rofl.own_verdict_wrong",
                          colour=self.name(v.colour))
                else:
                    j = judge.judge_guess(got, self.message, self.options.lenient, self.lang)
                    entry["judgement"] = dataclasses.asdict(j)
                    correct = j.correct
                    t.say("rofl.judged_right" if j.correct else "rofl.judged_wrong", guess=got)
                    v = t.ask("rofl.overrule_prompt", lambda text: self._parse_overrule(text, j.correct),
                              phrases=phrases, help_key="rofl.help_overrule", moment="overrule",
                              silence_limit=1)
                    if v is not SILENT and v.correct is not None:
                        entry["verdict"] = {"by": v.colour, "correct": v.correct}
                        entry["overruled"] = v.correct != j.correct
                        if entry["overruled"]:
                            correct = v.correct
                            t.say("rofl.overrule_correct" if correct else "rofl.overrule_wrong",
                                  colour=self.name(v.colour))
                        else:
                            t.say("rofl.confirm_correct" if correct else "rofl.confirm_wrong",
                                  colour=self.name(v.colour))
            entry["correct"] = correct
            self.results.append(GuessResult(writer, correct))
            self.guessed = correct
        self.turn["reveals"].append(entry)
        if self.more_to_reveal():
            self.next_message()
        else:
            self.reveals_done()

    # ---------------------------------------------------------------- scoring
    def run_turn_end(self) -> None:
        t = self.table
        n = self.turn_no
        t.enter_phase(f"score:{n}")
        if self.message is not None:
            t.say("rofl.message_was", message=self.message)
        if self.turn["tiebreak"]:
            self.game, outcome = rules.score_tiebreak_turn(self.game, self.results)
            self.turn["scorer"] = self.turn["winner"] = outcome.winner
            if outcome.winner is not None:
                self.turn["position"] = next(r["position"] for r in self.turn["reveals"]
                                             if r["writer"] == outcome.winner)
            t.record["turns"].append(self.turn)
            if outcome.winner is None:
                t.say("rofl.tiebreak_none")
            else:
                t.say("rofl.tiebreak_won", writer=self.name(outcome.winner))
        else:
            round_no = self.game.round
            last_in_round = self.game.turn == len(self.game.players) - 1
            self.game, score = rules.score_turn(self.game, self.results)
            if score.writer is not None:
                self.turn.update(scorer=score.writer, position=score.position,
                                 points={score.guesser: score.points, score.writer: score.points})
                t.award(score.guesser, score.points, "points", "guess", n)
                t.award(score.writer, score.points, "points", "writer", n)
                t.say("rofl.scored", writer=self.name(score.writer), guesser=self.name(score.guesser),
                      ordinal=t.text(f"rofl.ordinal.{score.position}"), points=self.points_text(score.points))
            else:
                t.say("rofl.not_scored")
            t.record["turns"].append(self.turn)
            if last_in_round:
                t.say("rofl.round_end", round=round_no)
            if not self.game_finished() and not self.tiebreak_starts():
                self.say_standings()
        if self.game_finished():
            self.game_decided()
        elif self.tiebreak_starts():
            self.tie_found()
        else:
            self.next_turn()

    def run_finale(self) -> None:
        t = self.table
        t.enter_phase("final")
        self.say_standings("rofl.final_standings")
        won = list(rules.winners(self.game))
        tb = self.game.tiebreak
        if tb is not None and tb.shared:
            t.say("rofl.shared_win", players=self.names(won),
                  points=self.points_text(self.game.scores[won[0]]))
        elif tb is not None:
            t.say("rofl.tiebreak_winner", winner=self.name(won[0]),
                  points=self.points_text(self.game.scores[won[0]]))
        else:
            t.say("rofl.winner", winner=self.name(won[0]), points=self.points_text(self.game.scores[won[0]]))
        self.say_recap()
        t.record["standings"] = [{"name": p, "points": s} for p, s in self.standings()]
        t.record["winners"] = won
        t.say("common.game_over")
        self.finish()

    def say_recap(self) -> None:
        """A short recap: turns played, messages guessed, tiebreaker turns, each player's part."""
        t = self.table
        turns = [x for x in t.record["turns"] if not x["tiebreak"]]
        guessed = sum(1 for x in turns if x["scorer"] is not None)
        t.say("rofl.recap_intro", turns=len(turns), guessed=guessed)
        tiebreak_turns = len(t.record["turns"]) - len(turns)
        if tiebreak_turns == 1:
            t.say("rofl.recap_tiebreak_one")
        elif tiebreak_turns > 1:
            t.say("rofl.recap_tiebreak", n=tiebreak_turns)
        for p in self.game.players:
            as_guesser = [x for x in turns if x["guesser"] == p]
            got = sum(1 for x in as_guesser if x["scorer"] is not None)
            written = sum(1 for x in turns if x["scorer"] == p)
            points = self.game.scores[p]
            t.say("rofl.recap_line", name=self.name(p),
                  points=self.points_text(points) if points else t.text("rofl.points_none"),
                  guessed=got, guess_turns=len(as_guesser),
                  written=t.text(f"rofl.recap_written_{written if written < 2 else 'many'}", n=written))


class _HelpExamples:
    """The table's :class:`~voicegame.prompts.Prompts`, with ``{example}`` in ROFL!'s help
    sentences filled in by a colour that is playing (the Table says a help key without
    values). Everything else is passed through unchanged.

    :param prompts: the table's prompts.
    :param example: returns the example colour as said aloud ("Blue").
    """

    def __init__(self, prompts, example):
        self._prompts = prompts
        self._example = example

    def text(self, key: str, **values) -> str:
        if key.startswith("rofl.help_") and "example" not in values:
            values["example"] = self._example()
        return self._prompts.text(key, **values)

    def __getattr__(self, name):
        return getattr(self._prompts, name)


def _heard_words(text: str) -> bool:
    """True when a transcript holds a word (a recognizer's noise is ``""`` or ``[unk]``)."""
    return any(w not in ("[unk]", "unk") for w in text.replace("[unk]", " ").split())


# ---------------------------------------------------------------------- the lobby (issue 6)
def progress(save: dict, prompts) -> str:
    """Where an autosaved game stopped, in words for the lobby's resume offer ("round 2, turn 3").

    :param save: an autosave (``voicegame-autosave/1``: ``"phase"`` and the ``"state"`` of
        :meth:`Host.snapshot`, whose ``game`` holds ``round``, ``turn`` (0-based) and ``tiebreak``).
    :param prompts: anything with ``text(key, **values)`` (a :class:`~voicegame.prompts.Prompts` or a Table).
    """
    phase = str(save.get("phase") or "intro")
    game = (save.get("state") or {}).get("game") or {}
    if phase == "intro" or not game:
        return prompts.text("rofl.progress.start")
    if game.get("tiebreak"):
        return prompts.text("rofl.progress.tiebreak")
    return prompts.text("rofl.progress.turn", round=int(game.get("round", 1)), turn=int(game.get("turn", 0)) + 1)
