"""The spoken Wavelength host: a queued ``transitions`` machine over the pure rules.

Phases (:class:`Phase`, rulings in docs/rulings.md)::

    setup → psychic → clue → dial → call → reveal → psychic … → game_over
                        ↑______↑______↑  redo (W8): back to psychic, new card and target

Each phase's ``on_enter`` callback speaks and listens, changes the rule state through
:mod:`rules` actions and fires the next trigger; co-op (W9) skips the call. The game starts in
one sentence; the rules come on request ("rules"), a tip the first time each moment comes up.
All chance (the card, the target) comes from ``table.chance()``: a game is its seed and inputs.
"""

from __future__ import annotations

import argparse
import enum
import random
from pathlib import Path

from transitions import Machine

from voicegame.engine import phases
from voicegame.engine.snapshot import SnapshotMemo
from voicegame.games.wavelength.deck import Card, load_deck
from voicegame.engine.table import SILENT, NotAllowed, NotUnderstood, Table
from voicegame.language.budget import OPENING_WORDS, heard_words
from voicegame.language.prompts import Prompts
from voicegame.games.wavelength import rules
from voicegame.games.wavelength.intents import (
    LOCK, MOVE, SET, WHERE, DialOutOfRange, concept_key, wavelength_understanding,
)

try:  # the shared tone module (foundation); the same curve is kept here as a fallback
    from voicegame.adapters.tone import dial_tone_hz
except ImportError:  # pragma: no cover - only without the adapters package
    def dial_tone_hz(angle_deg: float) -> float:
        """220 Hz at 0° (left) rising one octave per 90° to 880 Hz at 180° (right)."""
        a = max(0.0, min(180.0, float(angle_deg)))
        return 220.0 * 4.0 ** (a / 180.0)

class Phase(enum.Enum):
    """The phases of a Wavelength game (W4–W9); the machine's states."""

    SETUP = "setup"
    PSYCHIC = "psychic"
    CLUE = "clue"
    DIAL = "dial"
    CALL = "call"
    REVEAL = "reveal"
    GAME_OVER = "game_over"


P = Phase
TRANSITIONS = [
    {"trigger": "begin", "source": P.SETUP, "dest": P.PSYCHIC},
    {"trigger": "card_read", "source": P.PSYCHIC, "dest": P.CLUE},
    {"trigger": "clue_given", "source": P.CLUE, "dest": P.DIAL},
    {"trigger": "dial_locked", "source": P.DIAL, "dest": P.REVEAL, "conditions": "is_coop"},
    {"trigger": "dial_locked", "source": P.DIAL, "dest": P.CALL, "unless": "is_coop"},
    {"trigger": "call_made", "source": P.CALL, "dest": P.REVEAL, "conditions": "has_called"},
    {"trigger": "turn_redone", "source": [P.CLUE, P.DIAL, P.CALL], "dest": P.PSYCHIC},
    {"trigger": "turn_scored", "source": P.REVEAL, "dest": P.GAME_OVER, "conditions": "is_finished"},
    {"trigger": "turn_scored", "source": P.REVEAL, "dest": P.PSYCHIC, "unless": "is_finished"},
]


#: Words-of-position bands: (largest distance from the centre in degrees, prompt key suffix).
#: 0.5° or less is "the centre"; 90° is "all the way".
POSITION_BANDS = ((0.5, "centre"), (10.0, "slight"), (30.0, "little"), (55.0, "toward"),
                  (80.0, "far"), (89.5, "edge"), (90.0, "end"))
# The words a team name may not contain (dial and call words) are the words file's
# ``reserved_team_words`` (prompts/<lang>/words_wavelength.toml).


# ---------------------------------------------------------------------- CLI contract
def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Wavelength's options: ``--coop``, ``--teams``, ``--target-score``, ``--deck``, ``--players``."""
    parser.add_argument("--coop", action="store_true", help="cooperative mode: one team, 7 cards (W9)")
    parser.add_argument("--teams", nargs=2, metavar="NAME", default=None,
                        help="names of the two teams (default: red and blue)")
    parser.add_argument("--target-score", type=int, default=10, metavar="N",
                        help="points that end the team game (default 10, W4)")
    parser.add_argument("--deck", default=None, metavar="PATH",
                        help="a deck file: one card per line, 'kind | left1 | right1 | left2 | right2'")
    parser.add_argument("--players", type=int, nargs="+", default=None, metavar="N",
                        help="players per team: one number for both teams, or one per team, each at least 2; "
                             "with --coop the number at the table. Used to name the Psychic by number "
                             "(without it the Psychic passes to the left)")
    parser.add_argument("--accessible", action="store_true",
                        help="say the dial position in words after every move, not only as a tone (W7)")
    parser.epilog = ("Wavelength has no timer (its rulebook has none), so --timer has no effect in this game; "
                     "the table takes the time it needs.")


def options_from_args(args) -> dict:
    """The JSON-serialisable game options of the command line."""
    deck = getattr(args, "deck", None)
    return {
        "coop": bool(getattr(args, "coop", False)),
        "teams": list(args.teams) if getattr(args, "teams", None) else None,
        "target_score": getattr(args, "target_score", 10),
        "deck": str(Path(deck).resolve()) if deck else None,
        "players": list(args.players) if getattr(args, "players", None) else None,
        "accessible": bool(getattr(args, "accessible", False)),
    }


def validate(settings) -> None:
    """Check the options and the deck; fill in the default team names (G3).

    The errors are printed before the game starts, in the table's language
    (``wavelength.errors.*`` of ``prompts/<lang>/wavelength.toml``).

    :raises voicegame.decks.DeckError: the deck is malformed (names file and line).
    :raises ValueError: an option is out of range (one sentence).
    """
    o = settings.options
    o.setdefault("coop", False)
    o.setdefault("target_score", 10)
    o.setdefault("deck", None)
    o.setdefault("players", None)
    prompts = Prompts.load(settings.lang)

    def error(key: str, **values) -> ValueError:
        return ValueError(prompts.text(f"wavelength.errors.{key}", **values))

    load_deck(o["deck"], settings.lang)
    o["players"] = _checked_players(o.get("players"), o["coop"], prompts)
    if o["coop"]:
        if o.get("teams"):
            raise error("teams_in_coop")
        o["teams"] = None
        return
    if not isinstance(o["target_score"], int) or o["target_score"] < 2:
        raise error("target_score")
    words = wavelength_understanding(settings.lang)
    teams = list(o.get("teams") or words.default_teams)
    keys = [concept_key(t) for t in teams]
    if len(teams) != 2 or not all(keys) or keys[0] == keys[1]:
        raise error("teams_letters")
    said = [words.team_word_set(t) for t in teams]  # every word the team is called by (colour keys: G3)
    reserved = (said[0] | said[1]) & words.reserved_team_words
    if reserved:
        raise error("teams_reserved", words=sorted(reserved))
    if said[0] & said[1]:
        raise error("teams_share")
    o["teams"] = teams


#: Fewest players a team (or the co-op table) can have: a Psychic and someone to turn the dial.
MIN_PLAYERS = 2
#: Seconds of silence after "choose your Psychic" before the card is read anyway (the table has
#: had time to choose; a "ready" or "me" goes on at once).
PSYCHIC_READY_S = 15.0


def _checked_players(players, coop: bool, prompts: Prompts | None = None) -> list[int] | None:
    """``--players`` as stored: ``None``, ``[n]`` in co-op, ``[red, blue]`` in the team game
    (one number counts for both teams).

    :param prompts: the table's language, for the error (default English).
    :raises ValueError: the wrong count of numbers, or a number below :data:`MIN_PLAYERS` (one sentence).
    """
    prompts = prompts or Prompts.load("en")
    if players is None:
        return None
    counts = list(players) if isinstance(players, (list, tuple)) else [players]
    whole = all(isinstance(n, int) and not isinstance(n, bool) for n in counts)
    if coop:
        if len(counts) != 1 or not whole or counts[0] < MIN_PLAYERS:
            raise ValueError(prompts.text("wavelength.errors.players_coop", min=MIN_PLAYERS))
        return counts
    if len(counts) not in (1, 2) or not whole or min(counts) < MIN_PLAYERS:
        raise ValueError(prompts.text("wavelength.errors.players_team", min=MIN_PLAYERS))
    return counts * 2 if len(counts) == 1 else counts


# ---------------------------------------------------------------------- helpers
def fmt_degrees(value: float, decimal_mark: str = ".") -> str:
    """Degrees as said and printed: whole degrees ("75"; W1). ``decimal_mark`` is kept for
    callers that pass the table's (es, nl: ","); a whole number has none."""
    return str(int(round(float(value))))


def position_band(angle: float) -> tuple[str, int]:
    """Where an angle lies, in words: ``(band, side)``.

    :param angle: degrees, 0 = left concept, 180 = right concept (W1).
    :returns: ``band`` one of centre, slight, little, toward, far, edge, end
        (see :data:`POSITION_BANDS`) and ``side`` -1 (left), 0 (centre) or +1 (right).
    """
    off = float(angle) - rules.DIAL_START
    distance = abs(off)
    for limit, band in POSITION_BANDS:
        if distance <= limit:
            return band, 0 if band == "centre" else (1 if off > 0 else -1)
    return "end", 1 if off > 0 else -1


# ---------------------------------------------------------------------- host
class Host:
    """Runs one Wavelength game at a :class:`~voicegame.host.base.Table` (team or co-op).

    :param table: the table (its ``settings.options`` were checked by :func:`validate`).
    """

    def __init__(self, table: Table):
        self.table = table
        o = table.settings.options
        self.lang = table.settings.lang
        self.coop = bool(o.get("coop"))
        self.accessible = bool(o.get("accessible"))
        self.words = wavelength_understanding(self.lang)
        self.deck: list[Card] = load_deck(o.get("deck"), self.lang)
        #: The shuffled pile (rule state; drawing is a chance step, :func:`rules.draw_card`).
        self.pile = rules.new_deck(len(self.deck))
        players = o.get("players")
        #: The table size is known (``--players``): the Psychic is named by number.
        self.players_known = bool(players)
        if self.coop:
            self.game: rules.TeamGame | rules.CoopGame = rules.new_coop_game(
                rules.COOP_CARDS, players[0] if players else None)
            self.team_names = [table.text("wavelength.coop_team")]
        else:
            self.team_names = list(o.get("teams") or self.words.default_teams)
            self.game = rules.new_team_game(self.team_names, o.get("target_score", 10),
                                            players_per_team=players)
        #: How each team is called aloud; ``team_names`` (colour keys or given names) go in the record (G3).
        self.spoken = [self.spoken_name(n) for n in self.team_names]
        self.attempt = 0
        self.turn: rules.TurnState | None = None
        self.recap: list[dict] = []
        #: The last turn attempt was redone (W8): the same Psychic plays again.
        self.redone = False
        #: Resumed from a replayed log (``voicegame resume``), not yet at a live listening moment.
        self.replayed = table.resuming
        #: The resume's pending part was said (:meth:`say_pending`, once).
        self.recalled = False
        #: True while the table chooses its Psychic (:meth:`wait_for_psychic`)
        self.awaiting_psychic = False
        #: The first turn's sentence key (:meth:`opening`)
        self.first_turn_key = "turn_coop_first" if self.coop else "turn_team_first"
        #: The sentence that began this turn ("Team Red starts; … Choose your Psychic, then say ready.")
        self.turn_sentence = ""
        #: After a resume in the dial phase, the dial's position is still to be said.
        self.dial_pending = False
        #: What of the current turn was said live, not muted by a replay: "card", "target", "clue", "dial".
        self.said_live: set[str] = set()
        #: Moments whose just-in-time tip was said (the first time each comes up).
        self.tips: set[str] = set()
        self.machine = Machine(model=self, states=Phase, transitions=TRANSITIONS, initial=Phase.SETUP,
                               auto_transitions=False, queued=True)
        table.score_callback = self.say_standings
        #: the autosave's state of finished, frozen parts (turns, questions) converted once
        self.snapshot_memo = SnapshotMemo()
        table.snapshot_callback = self.snapshot
        table.note_record(
            mode="coop" if self.coop else "team", teams=list(self.team_names),
            start_scores={self.team_names[0]: 0} if self.coop else dict(zip(self.team_names, self.game.scores)),
            target_score=None if self.coop else self.game.target_score,
            cards=rules.COOP_CARDS if self.coop else None, redos=[])

    # ------------------------------------------------------------------ conditions
    def is_coop(self) -> bool:
        """True in the cooperative mode (W9): no left/right phase."""
        return self.coop

    def is_finished(self) -> bool:
        """True once the rules say the game is over (W4, W9)."""
        return self.game.finished

    def has_called(self) -> bool:
        """True once the other team has called or passed (W5)."""
        return self.turn is not None and self.turn.called

    # ------------------------------------------------------------------ driver
    def play(self) -> None:
        """Run the whole game; returns when it is over.

        The machine is queued: each phase's ``on_enter`` callback fires the next trigger
        (through :meth:`fire`) and the machine runs the phases one after the other.

        :raises PhaseError: the machine stopped before the end (:mod:`voicegame.engine.phases`).
        """
        self.run_setup()
        phases.play(self, "begin", Phase.GAME_OVER)

    def fire(self, trigger: str) -> None:
        """Fire ``trigger`` (queued). :raises PhaseError: no transition of it can fire now."""
        phases.fire(self, trigger)

    def enter(self) -> None:
        """Mark the phase just entered for undo and the autosave."""
        self.table.enter_phase(self.state.value)

    def on_enter_PSYCHIC(self) -> None:  # noqa: N802
        self.run_psychic()

    def on_enter_CLUE(self) -> None:  # noqa: N802
        self.run_clue()

    def on_enter_DIAL(self) -> None:  # noqa: N802
        self.run_dial()

    def on_enter_CALL(self) -> None:  # noqa: N802
        self.run_call()

    def on_enter_REVEAL(self) -> None:  # noqa: N802
        self.run_reveal()

    def on_enter_GAME_OVER(self) -> None:  # noqa: N802
        self.run_game_over()

    def snapshot(self) -> dict:
        """The JSON-able state for the autosave (informative; resume replays the log)."""
        return {"phase": self.state.value, "game": self.snapshot_memo.asdict(self.game),
                "turn": self.snapshot_memo.asdict(self.turn) if self.turn else None,
                "cards_drawn": len(self.recap)}

    # ------------------------------------------------------------------ speech helpers
    def say(self, key: str, **values) -> str:
        return self.table.say(f"wavelength.{key}", **values)

    def text(self, key: str, **values) -> str:
        return self.table.text(f"wavelength.{key}", **values)

    def say_once(self, key: str, **values) -> None:
        """Say a sentence that "repeat" does not repeat (the moment's question stays the one repeated)."""
        self.table.say_text(self.text(key, **values), remember=False)

    def spoken_name(self, name: str) -> str:
        """A team as called aloud: a colour key in the table's language ("red" → "Rojo",
        "Rood"), any other name as given (G3), capitalised as a name ("green" → "Green",
        "sharks" → "Sharks"): it often starts a sentence ("Green, turn the dial")."""
        said = self.table.name(name)
        return said[:1].upper() + said[1:]

    def degrees(self, value: float) -> str:
        """An angle as said and printed in the table's language (decimal comma in es, nl)."""
        return fmt_degrees(value, self.table.understanding.numbers.decimal_mark)

    def card(self, turn: rules.TurnState | None = None) -> Card:
        """The card of ``turn`` (default the current turn)."""
        return self.deck[(turn or self.turn).card]

    def pair(self, turn: rules.TurnState | None = None) -> tuple[str, str]:
        """``(left, right)`` concepts of the side in use in ``turn`` (default this turn)."""
        turn = turn or self.turn
        return self.card(turn).pair(turn.side)

    def position(self, angle: float, turn: rules.TurnState | None = None) -> str:
        """An angle in words for the card of ``turn`` (default this turn): "a little toward Dinner food"."""
        band, side = position_band(angle)
        left, right = self.pair(turn)
        return self.text(f"position_{band}", concept=left if side < 0 else right)

    # ------------------------------------------------------------------ views (for a screen)
    def team_id(self, index: int) -> str:
        """A team's id in the views: its colour key or given name (co-op: ``"team"``)."""
        return "team" if self.coop else concept_key(self.team_names[index])

    def scores_by_id(self) -> dict:
        if self.coop:
            return {"team": self.game.score}
        return {self.team_id(i): s for i, s in enumerate(self.game.scores)}

    def publish(self, reveal: dict | None = None) -> None:
        """Publish the public view of the table, and the Psychic's private one while a
        target is hidden (G2). The public view never holds the target before the reveal.

        :param reveal: the reveal's fields once the target is shown (VIEWS contract).
        """
        turn = self.turn
        card = None
        if turn is not None:
            left, right = self.pair()
            card = {"left": left, "right": right}
        in_turn = turn is not None and self.state not in (Phase.SETUP, Phase.GAME_OVER)
        hint_key = {Phase.CLUE: "hint_clue", Phase.DIAL: "hint_dial", Phase.CALL: "hint_call"}.get(self.state)
        data = {
            "lang": self.lang,
            "players": [{"id": self.team_id(i), "name": n} for i, n in enumerate(self.spoken)],
            "scores": self.scores_by_id(),
            "turn": len(self.game.turns) + (0 if self.state is Phase.GAME_OVER or reveal else 1),
            "active": self.team_id(turn.team) if in_turn else None,
            "hint": self.text(hint_key) if hint_key else None,
            "round_total": self.game.cards + self.game.bonus_cards if self.coop else None,
            "teams": None if self.coop else [{"id": self.team_id(i), "name": n, "players": []}
                                             for i, n in enumerate(self.spoken)],
            "card": card if in_turn else None,
            "clue": turn.clue or None if in_turn else None,
            "dial_deg": turn.dial if in_turn else rules.DIAL_START,
            "reveal": reveal,
        }
        self.table.show(self.state.value, data)
        if in_turn and reveal is None:
            self.table.show(self.state.value, {"target_deg": turn.target, "card": card}, audience="psychic")

    def reveal_view(self, points: int, call: str | None, call_correct: bool | None) -> dict:
        """The reveal's fields: target, wedges (2|3|4|3|2, co-op 2|3|3|3|2), points, call (W2, W5, W9)."""
        target = self.turn.target
        half = rules.WEDGE_WIDTH / 2
        values = (2, 3, 3, 3, 2) if self.coop else (2, 3, 4, 3, 2)
        wedges = [{"from_deg": max(rules.DIAL_MIN, target + (i - 2) * rules.WEDGE_WIDTH - half),
                   "to_deg": min(rules.DIAL_MAX, target + (i - 2) * rules.WEDGE_WIDTH + half),
                   "points": v} for i, v in enumerate(values)]
        side_call = None
        if call is not None:
            side_call = {"team": self.team_id(rules.other_team(self.turn.team)), "call": call,
                         "correct": bool(call_correct)}
        return {"target_deg": target, "wedges": wedges, "points": points,
                "team": self.team_id(self.turn.team), "side_call": side_call}

    def say_standings(self) -> None:
        """Speak the running score (the "score" command)."""
        if self.coop:
            cards = self.game.cards_left
            key = "standings_coop_one" if cards == 1 else "standings_coop"
            self.table.say_text(self.text(key, points=self.game.score, cards=cards), remember=False)
        else:
            self.table.say_text(self.text("standings", scores=self.score_items(self.game.scores),
                                          target=self.game.target_score), remember=False)

    def score_items(self, scores) -> list[str]:
        return [self.text("score_item", team=n, points=p) for n, p in zip(self.spoken, scores)]

    # ------------------------------------------------------------------ phases
    def run_setup(self) -> None:
        """The set-up: the game in one sentence (the rules come on request, "rules"), or with
        the players known the briefest that keeps the opening within 40 words
        (:meth:`opening`); then :meth:`play` fires "begin"."""
        t = self.table
        self.enter()
        welcome, self.first_turn_key = self.opening()
        if welcome:
            t.say_text(self.welcome_text(welcome))
        if not self.coop:
            for name, points in zip(self.team_names, self.game.scores):
                if points:
                    t.award(name, points, "points", "start", 0)  # W4: the second team starts at 1
        t.check_vocabulary(self.words.all_words() | self.words.team_vocabulary(self.team_names))

    #: The opening's choices, richest first: ``(welcome key or None, first turn sentence key)``.
    #: With the players known the card and the secret follow at once, so the welcome is brief,
    #: then left out ("Wavelength!": a title), then the head start said short ("1 point behind");
    #: last (long team names) it is left to "score" and "rules".
    OPENINGS = {("team", False): [("welcome_team", "turn_team_first")],
                ("coop", False): [("welcome_coop", "turn_coop_first")],
                ("team", True): [("welcome_team_brief", "turn_team_first"), (None, "turn_team_first"),
                                 (None, "turn_team_first_short"), (None, "turn_team_first_bare")],
                ("coop", True): [("welcome_coop_brief", "turn_coop_first")]}

    def opening(self) -> tuple[str | None, str]:
        """The opening's parts, the first of :data:`OPENINGS` whose words before the first
        input keep within :data:`OPENING_WORDS` (tests/test_wavelength_openings.py), the
        first turn counted as :meth:`first_turn_lines` makes it and the host then says it
        (G2's second telling of the secret left out): ``(welcome key or None, first turn key)``;
        none fits (a long deck's card, long team names): the last, the shortest."""
        choices = self.OPENINGS[("coop" if self.coop else "team", self.players_known)]
        for welcome, first in choices:
            said = [("say", self.welcome_text(welcome))] if welcome else []
            if heard_words(said + self.first_turn_lines(first)) <= OPENING_WORDS:
                return welcome, first
        return choices[-1]

    def welcome_text(self, key: str) -> str:
        """The welcome ``key`` (co-op: with its number of cards, W9)."""
        return self.text(key, cards=self.game.cards) if self.coop else self.text(key)

    def first_turn_lines(self, key: str) -> list[tuple[str, str]]:
        """The first turn's words up to its first input, as ``(how, text)`` of
        :meth:`Table.private_lines`, made by the methods :meth:`run_psychic` and
        :meth:`run_clue` say them with: the turn sentence (``key``), and with the players
        known the card, the target (:meth:`target_lines`) and the clue question. The card and
        the target are the ones the first turn will draw (a copy of the table's chance)."""
        peek = random.Random()
        peek.setstate(self.table.chance().getstate())
        index, _ = rules.draw_card(self.pile, peek)
        turn = rules.start_turn(self.game, self.attempt + 1, index, rules.draw_target(peek))
        lines = [("say", self.turn_text(turn, key))]
        if not self.players_known:  # "choose your Psychic" is the first moment
            return lines
        return [*lines, ("say", self.card_text(turn)), *self.target_lines(turn), ("say", self.text("ask_clue_first"))]

    def card_text(self, turn: rules.TurnState) -> str:
        """The card of ``turn`` as read at its start, its front side ("Dungeon to Palace.")."""
        left, right = self.card(turn).sides[0]
        return self.text("read_card", left=left, right=right)

    def first_time(self, moment: str) -> bool:
        """True the first time ``moment`` comes up in this game (its just-in-time tip is said then)."""
        if moment in self.tips:
            return False
        self.tips.add(moment)
        return True

    def run_psychic(self) -> None:
        """Draw a card, read it, spin the target, tell the Psychic privately (W3, G2)."""
        t = self.table
        self.attempt += 1
        self.enter()
        index, self.pile = rules.draw_card(self.pile, t.chance())  # chance: the card
        target = rules.draw_target(t.chance())  # chance: the spinner (W3)
        self.turn = rules.start_turn(self.game, self.attempt, index, target)
        psychic = self.turn.psychic
        card = self.card()
        if self.redone:  # W8: the same Psychic, whatever kind of turn this is
            self.say("turn_redo", turn=len(self.game.turns) + 1)
        else:
            self.turn_sentence = self.turn_text(self.turn, self.first_turn_key)
            t.say_text(self.turn_sentence)
        if not self.redone and not self.players_known and psychic == 1:
            self.wait_for_psychic()
        self.redone = False
        self.said_live = set()
        t.say_text(self.card_text(self.turn))
        self.mark_live("card")
        self.publish()
        missing = t.check_vocabulary(w for pair in card.sides for c in pair for w in concept_key(c).split())
        if missing:
            self.say("plain_words_work")
        self.tell_target()
        self.fire("card_read")

    def turn_text(self, turn: rules.TurnState, first_key: str) -> str:
        """The sentence that starts ``turn`` (not a redo): which turn, whose, who is the
        Psychic (W4, W6, W9); the game's first turn says ``first_key`` (:meth:`opening`)."""
        number = len(self.game.turns) + 1
        team, psychic = turn.team, turn.psychic
        who = self.psychic_sentence(team, psychic)
        if self.coop:
            cards = self.game.cards_left
            key = first_key if number == 1 else ("turn_coop" if cards > 1 else "turn_coop_last")
            return self.text(key, number=number, cards=cards, psychic=who)
        name = self.spoken[team]
        if self.game.sudden_death:
            return self.text("turn_sudden_death", turn=number, round=self.game.sudden_death_round, team=name, psychic=who)
        if self.game.catch_up_turn:
            return self.text("turn_catch_up", turn=number, team=name, psychic=who)
        return self.text(first_key if number == 1 else "turn_team", turn=number, team=name, psychic=who,
                         other=self.spoken[rules.other_team(team)])

    def wait_for_psychic(self) -> None:
        """After "choose your Psychic" (no ``--players``: the table has not said who), wait for
        "ready", "me" or "yes" before the card and the secret; a silence of
        :data:`PSYCHIC_READY_S` seconds goes on (the cover-your-ears sentence still comes
        before the secret, G2). Playtest: the secret followed at once while the table chose."""
        words = self.words

        def parse(text: str):
            if words.is_psychic_ready(text):
                return True
            if words.is_rules(text):  # a new table asks for the rules before its first turn
                return "rules"
            raise NotUnderstood

        def ready_in_rules(text: str):  # "ready" said in the rules ends them and is the answer
            return ("ready", True) if words.is_psychic_ready(text) else ("talk", None)

        self.awaiting_psychic = True
        try:
            prompt = None
            while True:
                answer = self.table.ask(prompt, parse, phrases=[*words.psychic_ready_grammar(), *words.rules_phrases()],
                                        help_key="wavelength.help_psychic_ready", moment="psychic_ready",
                                        timeout_s=PSYCHIC_READY_S, silence_limit=1)
                if answer != "rules" or self.tell_rules(ready_in_rules, words.psychic_ready_grammar()) is not None:
                    break
                prompt = "wavelength.ask_psychic_ready_again"
        finally:
            self.awaiting_psychic = False

    def psychic_sentence(self, team: int, psychic: int) -> str:
        """Who is the Psychic this turn (W4, W6, W9): with ``--players`` the rules' number,
        wrapped round the team; else the team chooses its first Psychic, then the role passes
        to the left (a redo keeps the Psychic, W8: see ``turn_redo``).

        :param team: the Psychic's team index (0 in co-op).
        :param psychic: the rules' Psychic number within the team (1, 2, 3…).
        """
        mode = "coop" if self.coop else "team"
        if self.players_known:
            return self.text(f"psychic_{mode}_player", psychic=psychic, team=self.spoken[team])
        if psychic == 1:
            return self.text(f"psychic_{mode}_first", team=self.spoken[team])
        return self.text(f"psychic_{mode}_next", team=self.spoken[team])

    def tell_target(self) -> None:
        """The target, in degrees and words, to the Psychic only (G2; :meth:`target_lines`)."""
        t = self.table
        if t.settings.private == "ears":  # not remembered: "repeat" repeats the question, not "all clear"
            for how, text in self.target_lines(self.turn):
                if how == "private":
                    t.say_private("psychic", text)
                else:
                    t.say_text(text, remember=False)
        else:
            t.tell_private("psychic", *self.target_secret(self.turn))
        self.mark_live("target")

    def target_secret(self, turn: rules.TurnState) -> tuple[str, str]:
        """``(the secret, how the Psychic is called)`` of ``turn``: its target in degrees and words."""
        secret = self.text("target_private", degrees=self.degrees(turn.target), position=self.position(turn.target, turn))
        return secret, self.text("audience_psychic")

    def target_lines(self, turn: rules.TurnState) -> list[tuple[str, str]]:
        """What :meth:`tell_target` says of ``turn``'s target, as ``(how, text)`` of
        :meth:`Table.private_lines`. In "ears" mode the host's own short sentences ask
        everyone but the Psychic to cover their ears (a countdown, the secret, then again in
        degrees only, "all clear"); an earpiece or a screen goes through the table's channel."""
        t = self.table
        secret, audience = self.target_secret(turn)
        if t.settings.private != "ears":
            return t.private_lines("psychic", secret, audience)
        return [("say", self.text("cover_ears", audience=audience)), ("say", t.text("common.countdown")),
                ("private", secret), ("private", self.text("target_private_again", degrees=self.degrees(turn.target))),
                ("say", self.text("all_clear"))]

    def mark_live(self, part: str) -> None:
        """Note that ``part`` of the turn ("card", "target", "clue", "dial") was just said live (not
        muted by a replay), so :meth:`recall` need not say it again."""
        if not self.table.replaying:
            self.said_live.add(part)

    def turn_words(self, text: str):
        """The words every moment of a turn knows: "redo" (W8) and "rules"."""
        if self.words.is_redo(text):
            return ("redo", None)
        if self.words.is_rules(text):
            return ("rules", None)
        if self.turn is not None and self.turn.clue and self.words.is_clue_again(text):
            return ("clue_again", None)  # turning the dial or calling: "what was the clue?"
        return None

    def say_clue_again(self) -> None:
        """The card and the clue again, on request (they were said once, before the dial)."""
        self.not_undoable()
        left, right = self.pair()
        self.table.say_text(self.text("clue_again", left=left, right=right, clue=self.turn.clue), remember=False)

    def tell_rules(self, moment_parse=None, phrases=()):
        """The rules on request, in short chunks; "got it" (or silence) ends them.

        Nothing else traps the table there: an utterance that is not about the rules ends
        them too. With ``moment_parse`` (the dial or call moment's parse) an answer of that
        moment ("way right", "blue left") is handed back; table talk (``"talk"``) is not.

        :returns: the handed-back answer of the moment, else ``None``.
        """
        t = self.table
        self.not_undoable()
        keys = [f"rules_coop_{i}" for i in (1, 2, 3)] if self.coop else [f"rules_team_{i}" for i in (1, 2, 3, 4)]

        def parse(text: str):
            more = self.words.rules_answer(text)
            if more is not None:
                return more
            if self.words.is_rules(text):
                return True
            if moment_parse is None:  # the clue (free text): it ends the rules, the clue is asked again
                if not text.strip():
                    raise NotUnderstood
                return False
            answer = moment_parse(text)  # NotAllowed and the like are said as in the moment
            if answer[0] in ("talk", "rules"):
                raise NotUnderstood
            return answer

        handed = None
        for i, key in enumerate(keys):
            t.say_text(self.text(key), remember=False)
            if i == len(keys) - 1:
                break
            more = t.ask("wavelength.rules_more", parse, phrases=[*self.words.rules_phrases(), *phrases],
                         help_key="wavelength.help_rules", moment="rules", silence_limit=1,
                         owned_commands=frozenset({"resume"}))  # "go on", "continue" ask for more
            if isinstance(more, tuple):
                handed = more
                break
            self.not_undoable()
            if more is not True:
                break
        if handed is None:  # a handed-back move or call answers for itself
            t.say_text(self.text("rules_done"), remember=False)
        return handed

    def run_clue(self) -> None:
        """Capture the Psychic's clue (free text, never judged); "other side" once; "redo" (W8);
        only hesitation or yes/no words ("hmm", "okay") are table talk, not the clue (W7)."""
        t = self.table
        self.enter()
        intro_said = [False]  # the last utterance was "my clue is" alone

        def parse(text: str):
            if self.words.is_other_side(text):
                if self.turn.side == 1:
                    raise NotAllowed(self.text("other_side_twice"))
                return ("other_side", None)
            word = self.turn_words(text)
            if word:
                return word
            if self.words.is_target_again(text):
                return ("target_again", None)
            if self.words.is_clue_intro(text):  # "my clue is" and a pause: the clue is to come
                intro_said[0] = True
                raise NotAllowed(self.text("clue_go_on"))
            if intro_said[0] and text.strip():  # what follows the intro is the clue, even "okay"
                return ("clue", text.strip())
            return ("clue", self.words.clue(text))  # "hmm", "okay": table talk (NotAClue, W7)

        # the first clue moment says only what to do; the second adds the card's other side
        key = ("ask_clue_first" if self.first_time("clue")
               else "ask_clue_other_side" if self.first_time("clue_other_side") else "ask_clue")
        while True:
            self.recall()
            kind, value = t.ask(f"wavelength.{key}", parse, free=True, phrases=self.words.clue_words(),
                                help_key="wavelength.help_clue", moment="clue", timeout_s=None)
            if kind == "other_side":
                self.turn = rules.turn_card_over(self.turn)
                self.publish()
                left, right = self.pair()
                # the target in degrees is the same on both sides: no second private message
                self.say("other_side_done", left=left, right=right)
                self.mark_live("card")
                key = "ask_clue"
                continue
            if kind == "rules":
                self.tell_rules()
                key = "ask_clue"
                continue
            if kind == "target_again":  # the Psychic missed it: told again as the first time (G2)
                self.not_undoable()
                self.tell_target()
                key = "ask_clue"
                continue
            if kind == "redo":
                if self.confirm_redo():
                    return
                key = "ask_clue_again"
                continue
            self.turn = rules.give_clue(self.turn, value)
            self.publish()
            # never judged: a number is only a reminder that the table may say redo (W8)
            self.say("clue_heard_number" if self.has_number(value) else "clue_heard", clue=value)
            self.mark_live("clue")
            self.fire("clue_given")
            return

    def has_number(self, clue: str) -> bool:
        """True when a clue holds a number (digits, or a number word other than a lone "one",
        which in Spanish and Dutch is also the article "un", "een")."""
        spans = self.table.understanding.numbers_in(clue, year=False)
        return any(ch.isdigit() for ch in clue) or any(value != 1 for _, _, value in spans)

    def where_we_are(self) -> list[str]:
        """The engine's resume hook, called as the replay ends (before the last replayed input
        is answered, so also after an input that was not taken): :meth:`say_pending` says it
        itself, the target in its place (G2); the dial follows at the next moment."""
        self.say_pending()
        return []

    def recall(self) -> None:
        """At each listening moment: the first live one after a resume says what is pending,
        unless :meth:`where_we_are` already has; a reveal after it is then live news."""
        if self.table.replaying:
            return
        if self.replayed:
            self.replayed = False
            self.say_pending()
        if self.dial_pending:  # said once the last replayed input has moved it, or not
            self.dial_pending = False
            if self.state is Phase.DIAL and "dial" not in self.said_live:
                self.say_once("recall_dial", degrees=self.degrees(self.turn.dial))

    def say_pending(self) -> None:
        """Once after a resume: where the game is (turn, team, score), then what of the turn
        is pending and was only said before the stop (muted in the replay): the card, the
        clue, the dial; in the clue phase the target again, to the Psychic only (G2). Nothing
        if the whole turn was played live."""
        if self.recalled or not self.table.resuming:
            return
        self.recalled = True
        if self.awaiting_psychic:  # stopped while the table chose its Psychic: the turn sentence again
            self.table.say_text(self.turn_sentence)  # remembered: "repeat" says it again
            return
        if self.turn is None or "card" in self.said_live or self.state not in (Phase.CLUE, Phase.DIAL, Phase.CALL):
            return
        turn = self.turn
        left, right = self.pair()
        if self.coop:
            self.say_once("recall_card_coop", number=len(self.game.turns) + 1, points=self.game.score,
                     left=left, right=right)
        else:
            self.say_once("recall_card_team", turn=len(self.game.turns) + 1, team=self.spoken[turn.team],
                     scores=self.score_items(self.game.scores), left=left, right=right)
        self.said_live.add("card")
        if self.state is Phase.CLUE:
            if "target" not in self.said_live:
                self.tell_target()
            return
        if "clue" not in self.said_live:
            self.say_once("recall_clue", clue=turn.clue)
        if "dial" in self.said_live:
            return
        if self.state is Phase.DIAL:  # the last replayed input may still move it: said at the next moment
            self.dial_pending = True
        else:
            self.say_once("recall_dial", degrees=self.degrees(turn.dial))

    def ask_yes_no(self, key: str, **values) -> bool:
        """A yes/no question of this game (after a resume, :meth:`recall` first)."""
        self.recall()
        return self.table.ask_yes_no(f"wavelength.{key}", **values)

    def not_undoable(self) -> None:
        """The input just accepted asked or decided nothing ("where is it?", table talk, a
        silence): "undo" (G4) passes over it to the last real move."""
        self.table.not_undoable()

    def confirm_redo(self) -> bool:
        """Ask the table to confirm a redo (W8); on yes restart the turn and fire ``turn_redone``."""
        t = self.table
        if not self.ask_yes_no("confirm_redo", moment="confirm_redo"):
            self.say("redo_cancelled")
            return False
        card = self.card()
        t.record_item("redos", {"attempt": self.turn.attempt, "turn": len(self.game.turns) + 1,
                                  "team": self.team_names[self.turn.team], "psychic": self.turn.psychic,
                                  "card_line": card.line, "pair": list(self.pair()),
                                  "target": self.turn.target, "phase": self.state.value})
        self.game = rules.redo_coop_turn(self.game) if self.coop else rules.redo_turn(self.game)
        self.redone = True
        self.say("redo_done")
        self.fire("turn_redone")
        return True

    def run_dial(self) -> None:
        """The team turns the dial by voice until "lock it in" is confirmed (W7).

        Table talk (what is not a dial command) gets no answer the first time and a short
        nudge after repeated misses; a silence, none; two silences in a row offer "lock it in".
        A number the dial cannot take ("set it to two hundred") is asked again and the dial
        stays; a move past an end stops there and says so (W7).
        """
        t = self.table
        self.enter()
        left, right = self.pair()
        phrases = self.words.dial_phrases(left, right)

        def parse(text: str):
            word = self.turn_words(text)
            if word:
                return word
            if self.words.is_other_side(text):
                raise NotAllowed(self.text("other_side_too_late"))
            try:
                command = self.words.dial_command(text, left, right)
            except NotUnderstood:
                return ("talk", None)
            except DialOutOfRange as exc:  # asked again, the dial stays (W7)
                raise NotAllowed(self.text("dial_negative" if exc.move else "dial_range")) from None
            return ("dial", command)

        first = self.first_time("dial")
        if self.coop:
            self.say("dial_start_coop_first" if first else "dial_start_coop")
        else:
            self.say("dial_start_first" if first else "dial_start", team=self.spoken[self.turn.team])
        t.tone(dial_tone_hz(self.turn.dial), label=f"{self.degrees(self.turn.dial)}°")
        self.publish()
        misses = silences = 0
        handed = None  # a move said after a part of the rules (tell_rules)
        said_band = position_band(self.turn.dial)  # the band the table last heard in words
        while True:
            turn = self.turn
            if handed is not None:  # already heard: no recall, no listen
                result, handed = handed, None
            else:
                self.recall()
                if t.replay_ending:
                    # undo: the next listen goes live and repeats the last prompt: make it the dial's position
                    self.say("dial_where", degrees=self.degrees(turn.dial), position=self.position(turn.dial))
                result = t.ask(None, parse, phrases=phrases, help_key="wavelength.help_dial", moment="dial",
                               silence_limit=1)
            if result is SILENT:
                self.not_undoable()
                silences += 1
                if silences % 2 == 0:
                    if turn.moved:
                        self.say("dial_silence_moved", degrees=self.degrees(turn.dial))
                    else:
                        self.say("dial_silence_centre")
                continue
            silences = 0
            kind, command = result
            if kind == "talk":
                self.not_undoable()
                misses += 1
                if misses % 3 == 2:  # nothing the first time; a short nudge after repeated misses
                    t.say_text(self.text("dial_nudge"), remember=False)
                continue
            misses = 0
            if kind == "clue_again":
                self.say_clue_again()
                continue
            if kind == "rules":
                handed = self.tell_rules(parse, phrases)
                continue
            if kind == "redo":
                if self.confirm_redo():
                    return
                continue
            if command.kind in (MOVE, SET):
                action = rules.move_dial if command.kind == MOVE else rules.set_dial
                self.turn, hit_edge = action(turn, command.degrees)
                angle = self.turn.dial
                self.publish()
                t.tone(dial_tone_hz(angle), label=f"{self.degrees(angle)}°")
                where = self.text("dial_where", degrees=self.degrees(angle), position=self.position(angle))
                if hit_edge:
                    self.say("dial_edge", degrees=self.degrees(angle),
                             concept=left if angle <= rules.DIAL_MIN else right)
                elif self.accessible:  # the words only when the dial enters another band (W7)
                    band = position_band(angle)
                    t.say_text(where if band != said_band else
                               self.text("dial_where_same", degrees=self.degrees(angle)))
                    said_band = band
                else:
                    t.remember(where)  # "repeat" says where the dial is now, not an older sentence
            elif command.kind == WHERE:
                self.not_undoable()
                self.say("dial_where", degrees=self.degrees(turn.dial), position=self.position(turn.dial))
            elif command.kind == LOCK:
                key = "confirm_lock_first" if self.first_time("confirm_lock") else "confirm_lock"
                if self.ask_yes_no(key, moment="confirm_lock", degrees=self.degrees(turn.dial),
                                   position=self.position(turn.dial)):
                    self.say("dial_locked")
                    self.mark_live("dial")
                    self.fire("dial_locked")
                    return
                self.say("keep_turning")

    def run_call(self) -> None:
        """The other team calls left or right of the dial (W5); the Psychic's team is refused."""
        t = self.table
        self.enter()
        turn = self.turn
        left, right = self.pair()
        caller = rules.other_team(turn.team)
        caller_name, psychic_name = self.spoken[caller], self.spoken[turn.team]

        def parse(text: str):
            word = self.turn_words(text)
            if word:
                return word
            try:
                call = self.words.call(text, left, right, self.team_names)
            except NotUnderstood:
                return ("talk", None)
            if not rules.may_call(turn, call.team):  # W5: only the other team calls
                raise NotAllowed(self.text("call_wrong_team", team=psychic_name, caller=caller_name))
            if call.team is None:  # one microphone cannot tell who spoke: the call must name its team
                raise NotAllowed(self.text("call_needs_team", caller=caller_name))
            return ("call", call.side)

        key = "ask_call_first" if self.first_time("call") else "ask_call"
        misses = 0
        handed = None  # a call said after a part of the rules (tell_rules)
        while True:
            if handed is not None:  # already heard: no recall, no listen
                (kind, side), handed = handed, None
            else:
                self.recall()
                kind, side = t.ask(f"wavelength.{key}" if key else None, parse,
                                   phrases=self.words.call_phrases(left, right, self.team_names),
                                   help_key="wavelength.help_call", moment="call", caller=caller_name)
            key = None
            if kind == "talk":
                self.not_undoable()
                misses += 1
                if misses % 3 == 2:
                    t.say_text(self.text("call_nudge", caller=caller_name), remember=False)
                continue
            misses = 0
            if kind == "clue_again":
                self.say_clue_again()
                continue
            if kind == "rules":
                handed = self.tell_rules(parse, self.words.call_phrases(left, right, self.team_names))
                key = None if handed is not None else "ask_call_again"
                continue
            if kind == "redo":
                if self.confirm_redo():
                    return
                key = "ask_call_again"
                continue
            if side is None:
                ok = self.ask_yes_no("confirm_pass", moment="confirm_call", caller=caller_name)
            else:
                ok = self.ask_yes_no("confirm_call", moment="confirm_call", caller=caller_name,
                                     side=self.text(f"side_{side}"), concept=left if side == rules.LEFT else right)
            if ok:
                self.turn = rules.make_call(self.turn, side, caller)
                self.publish()
                self.fire("call_made")
                return
            key = "ask_call_again"

    def run_reveal(self) -> None:
        """Reveal the target, score through the rules, record, and say what follows.

        After a resume whose replay ended just before this reveal, the players may have heard
        it before the stop: it is said once, in the past tense, with the score (never as new).
        """
        self.enter()
        t = self.table
        resumed = self.replayed and not t.replaying
        self.replayed = self.replayed and t.replaying
        if not resumed:
            self.say("reveal", target=self.degrees(self.turn.target))
        if self.coop:
            self.reveal_coop(resumed)
        else:
            self.reveal_team(resumed)
        self.fire("turn_scored")

    def card_record(self) -> dict:
        card = self.card()
        left, right = self.pair()
        return {"line": card.line, "kind": card.kind, "side": turn_side_name(self.turn.side),
                "left": left, "right": right}

    def reveal_team(self, resumed: bool = False) -> None:
        """Score a team turn (W2, W4–W6) and say it; ``resumed``: once, in the past tense."""
        t = self.table
        turn = self.turn
        caller = rules.other_team(turn.team)
        game, score = rules.score_turn(self.game, turn.dial, turn.target, turn.call,
                                       calling_team=caller if turn.call else None)
        self.game = game
        rec = score.record
        self.publish(self.reveal_view(score.wedge_points, rec.call, rec.call_correct))
        names = self.team_names
        context = "sudden_death" if rec.sudden_death else ("catch_up" if rec.catch_up else "regular")
        awards = []
        for award in rec.awards:
            reason = award.reason if context == "regular" else f"{award.reason}+{context}"
            awards.append({"team": names[award.team], "points": award.points, "reason": award.reason,
                           "context": context})
            t.award(names[award.team], award.points, "points", reason, rec.turn)
        t.record_turn({
            "turn": rec.turn, "mode": "team", "attempt": turn.attempt,
            "team": names[rec.team], "psychic": rec.psychic,
            "card": self.card_record(), "target": rec.target, "dial": rec.dial, "clue": turn.clue,
            "call": rec.call, "call_by": names[rec.calling_team] if rec.calling_team is not None else None,
            "call_correct": rec.call_correct,
            "points": {n: p for n, p in zip(names, rec.points)}, "awards": awards,
            "catch_up": rec.catch_up, "catch_up_follows": rec.catch_up_follows,
            "sudden_death": rec.sudden_death, "sudden_death_round": rec.sudden_death_round,
            "scores_after": {n: s for n, s in zip(names, rec.scores_after)},
        })
        left, right = self.pair()
        self.recap.append({"turn": rec.turn, "team": self.spoken[rec.team], "left": left, "right": right,
                           "clue": turn.clue, "points": list(rec.points), "wedge": score.wedge_points})
        team_name, caller_name = self.spoken[turn.team], self.spoken[caller]
        if resumed:
            self.say("recall_reveal_team", turn=rec.turn, team=team_name, points=score.wedge_points,
                     scores=self.score_items(score.scores))
        else:
            self.say(f"wedge_{score.wedge_points}", team=team_name)
            if rec.call is not None:  # a pass was read back when it was made: not again
                side = self.text(f"side_{rec.call}")
                if score.wedge_points == 4:
                    self.say("call_cancelled", caller=caller_name, side=side)
                elif rec.call_correct:
                    self.say("call_right", caller=caller_name, side=side)
                else:
                    self.say("call_wrong", caller=caller_name, side=side)
            self.say("score_line", scores=self.score_items(score.scores))
        if score.catch_up:
            self.say("catch_up", team=team_name)
        elif score.sudden_death_starts:
            self.say("sudden_death_starts", points=score.scores[0], target=self.game.target_score)
        elif score.sudden_death_continues:
            self.say("sudden_death_continues", round=score.sudden_death_round)
        elif score.in_sudden_death and not score.sudden_death_round_over:
            self.say("sudden_death_so_far", scores=self.score_items(self.game.sudden_death_points))
        elif score.game_over and rec.sudden_death:
            self.say("sudden_death_won", team=self.spoken[score.winner])
        elif score.game_over:
            self.say("target_reached", team=self.spoken[score.winner], target=self.game.target_score)

    def reveal_coop(self, resumed: bool = False) -> None:
        """Score a co-op turn (W9) and say it; ``resumed``: once, in the past tense."""
        t = self.table
        turn = self.turn
        game, score = rules.score_coop_turn(self.game, turn.dial, turn.target)
        self.game = game
        rec = score.record
        self.publish(self.reveal_view(rec.points, None, None))
        name = self.team_names[0]
        reason = "wedge+bonus_card" if score.bonus_card else "wedge"
        t.award(name, score.points, "points", reason, rec.turn)
        t.record_turn({
            "turn": rec.turn, "mode": "coop", "attempt": turn.attempt, "team": name, "psychic": rec.psychic,
            "card": self.card_record(), "target": rec.target, "dial": rec.dial, "clue": turn.clue,
            "call": None, "call_by": None, "call_correct": None,
            "points": {name: rec.points},
            "awards": [{"team": name, "points": rec.points, "reason": "wedge", "context": "coop"}],
            "bonus_card": rec.bonus_card, "score_after": rec.score_after, "cards_left_after": rec.cards_left_after,
        })
        left, right = self.pair()
        self.recap.append({"turn": rec.turn, "team": name, "left": left, "right": right, "clue": turn.clue,
                           "points": [rec.points], "bonus": rec.bonus_card, "wedge": rec.points})
        if resumed:
            self.say("recall_reveal_coop", number=rec.turn, points=score.points, total=score.score)
        elif score.bonus_card:
            self.say("coop_bullseye")
        else:
            self.say(f"coop_points_{score.points}")
        if score.game_over:
            self.say("coop_last_card", points=score.score)
        else:
            self.say("coop_running" if score.cards_left > 1 else "coop_running_one", points=score.score,
                     cards=score.cards_left)

    def run_game_over(self) -> None:
        """Winner (or co-op rating band, W9) and the game's best turn."""
        t = self.table
        self.enter()
        self.publish()
        if self.coop:
            low, high, band = rules.rating_band(self.game.score)
            self.say("coop_final", points=self.game.score)
            self.say(f"coop_band_{band}")
            standings = [{"name": self.team_names[0], "points": self.game.score}]
            winners = [self.team_names[0]]
            t.note_record(rating_band={"low": low, "high": high, "index": band})
        else:
            winner = self.team_names[self.game.winner]
            self.say("winner", team=self.spoken[self.game.winner], points=self.game.scores[self.game.winner],
                     other=self.spoken[1 - self.game.winner], other_points=self.game.scores[1 - self.game.winner])
            standings = sorted(({"name": n, "points": s} for n, s in zip(self.team_names, self.game.scores)),
                               key=lambda s: -s["points"])
            winners = [winner]
        best = max(self.recap, key=lambda item: item["wedge"], default=None)
        if best is not None and best["wedge"] > 0:  # one highlight, not every turn
            self.say("recap_best_coop" if self.coop else "recap_best_team", team=best["team"],
                     clue=best["clue"], points=best["wedge"])
        self.say("goodbye")
        t.note_record(standings=standings, winners=winners)


def turn_side_name(side: int) -> int:
    """Card side as recorded: 1 (front) or 2 (back)."""
    return side + 1


# ---------------------------------------------------------------------- the lobby (issue 6)
def progress(save: dict, prompts) -> str:
    """Where an autosaved game stopped, in words for the lobby's resume offer ("turn 3", "card 5").

    :param save: an autosave (``voicegame-autosave/1``: ``"phase"``, ``"settings"`` and the
        ``"state"`` of :meth:`Host.snapshot`, whose ``game.turns`` are the scored turns).
    :param prompts: anything with ``text(key, **values)`` (a :class:`~voicegame.prompts.Prompts` or a Table).
    """
    phase = str(save.get("phase") or "setup")
    game = (save.get("state") or {}).get("game") or {}
    if phase == "setup" or not game:
        return prompts.text("wavelength.progress.start")
    number = len(game.get("turns") or []) + 1
    coop = bool(((save.get("settings") or {}).get("options") or {}).get("coop"))
    return prompts.text("wavelength.progress.card" if coop else "wavelength.progress.turn", number=number)
