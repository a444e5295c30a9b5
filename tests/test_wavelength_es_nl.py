"""Wavelength games in Spanish and Dutch: golden playthroughs in both languages re-scored from
their records by an independent function; the team names (colour keys spoken in the table's
language, G3), decimal commas, prompts and vocabulary. The phrases of the dial, the call and
the turn words are language rows of tests/test_understanding_wavelength.py.

The golden files under ``tests/playthroughs/`` are regenerated with
``VOICEGAME_REGEN=1 python -m pytest tests/test_wavelength_es_nl.py``.
"""

from __future__ import annotations

from functools import partial

import io
import json
import random
import string
import tomllib
from pathlib import Path

import pytest

from tests.playthrough import frozen_deck, SCRIPTS, check_golden, run_cli
from voicegame.adapters.headless import ScriptListener, TextVoice, VirtualClock
from voicegame.games.wavelength.deck import load_deck
from voicegame.games.wavelength import host
from voicegame.engine.table import Session, Settings
from voicegame.ports import Heard, InputEnded, Silence
from voicegame.language.prompts import PROMPTS_DIR
from voicegame.language.speakable import speakable
from voicegame.games.wavelength.intents import wavelength_understanding

UNDERSTANDING = {lang: wavelength_understanding(lang) for lang in ("en", "es", "nl")}

ES_ARGS = ["--lang", "es", "--seed", "7", "--players", "3", "2"]
NL_ARGS = ["--lang", "nl", "--seed", "8", "--accessible", "--target-score", "7"]


# ---------------------------------------------------------------------- prompts
def _placeholders(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def _flat(table: dict, prefix: str = "") -> dict[str, str]:
    out = {}
    for key, value in table.items():
        if isinstance(value, dict):
            out.update(_flat(value, f"{prefix}{key}."))
        else:
            out[f"{prefix}{key}"] = value
    return out


@pytest.mark.parametrize("lang", ["es", "nl"])
def test_prompts_have_every_english_key_and_placeholder(lang):
    en = _flat(tomllib.loads((PROMPTS_DIR / "en" / "wavelength.toml").read_text("utf-8")))
    other = _flat(tomllib.loads((PROMPTS_DIR / lang / "wavelength.toml").read_text("utf-8")))
    assert sorted(set(en) ^ set(other)) == []
    assert {k: _placeholders(v) for k, v in other.items()} == {k: _placeholders(v) for k, v in en.items()}


@pytest.mark.parametrize("lang, taught", [
    ("en", ["left", "a little left", "way right", "where is it", "lock it in"]),
    ("es", ["izquierda", "un poco a la izquierda", "mucho a la derecha", "dónde está", "fijadlo"]),
    ("nl", ["links", "een beetje naar links", "een stuk naar rechts", "waar staat hij", "vastzetten"]),
])
def test_what_the_instructions_teach_is_understood(lang, taught):
    """Every dial phrase the first dial prompt, the rules and the dial help teach appears there and works."""
    prompts = tomllib.loads((PROMPTS_DIR / lang / "wavelength.toml").read_text("utf-8"))
    text = (prompts["dial_start_first"] + prompts["rules_team_2"] + prompts["help_dial"]).lower()
    w = UNDERSTANDING[lang]
    for phrase in taught:
        assert phrase in text, phrase
        assert w.dial_command(phrase, "Xenon", "Yttrium") is not None, phrase  # concepts that clash with no word


def test_degrees_are_whole_and_spoken_in_words():
    """Angles are said in whole degrees (W1); the speakable form of a decimal still works."""
    assert host.fmt_degrees(70.94, ",") == "71" and host.fmt_degrees(75.0, ",") == "75"
    assert host.fmt_degrees(70.4) == "70" and host.fmt_degrees(180.0) == "180"
    assert speakable("El objetivo está en 70,9 grados.", "es") == "El objetivo está en setenta coma nueve grados."
    assert speakable("Het doel staat op 70,9 graden.", "nl") == "Het doel staat op zeventig komma negen graden."


# ---------------------------------------------------------------------- options (G3)
def _settings(lang: str, **options) -> Settings:
    return Settings(game="wavelength", lang=lang, options=dict(options))


@pytest.mark.parametrize("lang", ["es", "nl"])
def test_default_teams_are_colour_keys(lang):
    settings = _settings(lang)
    host.validate(settings)
    assert settings.options["teams"] == ["red", "blue"]


@pytest.mark.parametrize("lang, teams, words", [
    ("es", ["Izquierda", "Azul"], "no pueden llevar las palabras izquierda:"),
    ("es", ["Los del centro", "Azul"], "no pueden llevar las palabras centro:"),
    ("nl", ["Links", "Blauw"], "mogen de woorden links niet bevatten"),
    ("nl", ["Helemaal Top", "Blauw"], "mogen de woorden helemaal niet bevatten"),
])
def test_team_names_cannot_hold_dial_words(lang, teams, words):
    """The error is printed before the game, in the table's language (one sentence)."""
    with pytest.raises(ValueError, match=words):
        host.validate(_settings(lang, teams=teams))


def test_team_names_must_not_share_a_word():
    with pytest.raises(ValueError, match="no pueden compartir ninguna palabra"):
        host.validate(_settings("es", teams=["Gatos negros", "Gatos"]))
    host.validate(_settings("es", teams=["Gatos", "Perros"]))  # fine


# ---------------------------------------------------------------------- independent re-scoring
def wedge(dial: float, target: float) -> int:
    """W2 from scratch: 4 within 4.5°, 3 within 13.5°, 2 within 22.5°; boundaries score better."""
    d = abs(dial - target)
    return 4 if d <= 4.5 + 1e-9 else 3 if d <= 13.5 + 1e-9 else 2 if d <= 22.5 + 1e-9 else 0


def rescore(record: dict) -> dict[str, int]:
    """Totals of a team game from its record alone: wedge points, calls (W5), no call after a 4."""
    scores = dict(record["start_scores"])
    for turn in record["turns"]:
        team = turn["team"]
        other = next(t for t in record["teams"] if t != team)
        points = wedge(turn["dial"], turn["target"])
        scores[team] += points
        if turn["call"] is not None and points != 4:
            right_side = turn["target"] > turn["dial"] if turn["call"] == "right" else turn["target"] < turn["dial"]
            scores[other] += right_side
        assert turn["scores_after"] == scores, f"turn {turn['turn']}"
    return scores


FIXTURES = Path(__file__).resolve().parent / "fixtures"


mechanics_deck = partial(frozen_deck, "wavelength")  # the frozen deck, as every scripted game deals


def _play(args: list[str], script: Path, record: Path) -> tuple[int, str, str]:
    return run_cli(["play", "wavelength", "--input", str(script), "--output", "text", "--record", str(record),
                    *mechanics_deck(args), *args])


# ---------------------------------------------------------------------- golden playthroughs
def test_spanish_team_game_golden_and_rescored(tmp_path):
    record_path = tmp_path / "es.json"
    status, out, err = _play(ES_ARGS, SCRIPTS / "wavelength_es.txt", record_path)
    assert status == 0, err
    check_golden("wavelength_es", out)
    record = json.loads(record_path.read_text("utf-8"))
    assert record["finished"] and record["teams"] == ["red", "blue"]  # colour keys in the record…
    assert "HOST: Equipo Rojo, empezáis. Psíquico: jugador 1." in out  # …said in Spanish (G3)
    standings = {s["name"]: s["points"] for s in record["standings"]}
    assert rescore(record) == standings == {"red": 14, "blue": 12}
    assert record["winners"] == ["red"]
    turns = record["turns"]
    assert [t["team"] for t in turns] == ["red", "blue", "red", "red", "blue", "red", "blue", "red"]
    assert turns[3]["catch_up"] and turns[2]["catch_up_follows"]  # W6
    assert [t["sudden_death"] for t in turns] == [False] * 6 + [True, True]  # W4
    assert turns[0]["card"]["side"] == 2 and turns[0]["card"]["left"] == "Rana"  # "otro lado"
    assert turns[6]["call"] is None  # "rojo paso"
    assert len(record["redos"]) == 1 and record["redos"][0]["team"] == "blue"  # W8
    assert "PRIVATE psychic: 12 grados, bastante hacia Maldición de bruja." in out
    assert "HOST: Objetivo: 12 grados." in out  # whole degrees (W1)
    assert "HOST: El dial no baja de 0 grados." in out  # "derecha menos veinte"
    assert "PLAYER: paso\nHOST: Primero el equipo: Rojo, izquierda." in out  # a bare "paso"
    assert "Un número: podéis rehacer." in out
    assert "TONE 61°" in out and "HOST: Turno 2 de nuevo, mismo Psíquico." in out
    assert "PLAYER: plátano\nPLAYER: (silence)" in out  # table talk in the dial gets no answer


def test_dutch_team_game_golden_and_rescored(tmp_path):
    record_path = tmp_path / "nl.json"
    status, out, err = _play(NL_ARGS, SCRIPTS / "wavelength_nl.txt", record_path)
    assert status == 0, err
    check_golden("wavelength_nl", out)
    record = json.loads(record_path.read_text("utf-8"))
    assert record["finished"] and record["teams"] == ["red", "blue"]
    standings = {s["name"]: s["points"] for s in record["standings"]}
    assert rescore(record) == standings == {"red": 6, "blue": 8}
    assert record["winners"] == ["blue"] and record["target_score"] == 7
    turns = record["turns"]
    assert [t["team"] for t in turns] == ["red", "blue", "red", "blue"]
    assert turns[0]["card"]["left"] == "Botermes" and turns[0]["dial"] == 130.0
    assert turns[1]["call"] is None and turns[1]["clue"] == "een zwitsers zakmes"
    assert turns[3]["dial"] == 102.0  # "tweeëntwintig graden naar rechts" then 5 and 5 back
    assert len(record["redos"]) == 1 and record["redos"][0]["phase"] == "dial"  # W8 "nieuwe kaart"
    assert "HOST: 150 graden, ver richting Slagzwaard.\nPLAYER: ongedaan maken" in out
    # --accessible: every move is said; the words of where it is when it enters another band
    assert "HOST: 135 graden, richting Slagzwaard.\nPLAYER: een beetje naar links\nTONE 130°\nHOST: 130 graden." in out
    assert "PRIVATE psychic: 129 graden, richting Keukengadget." in out
    # no --players: the Psychic is chosen, then passes to the left; the same after a redo (W8)
    turn_lines = [line for line in out.splitlines() if line.startswith(("HOST: Beurt ", "HOST: Team Rood begint"))][:5]
    assert [line.split(". ", 1)[-1] for line in turn_lines] == [
        "Kies jullie Helderziende.", "Kies jullie Helderziende.",
        "HOST: Beurt 2 opnieuw, zelfde Helderziende.",
        "Helderziende: de volgende links.", "Helderziende: de volgende links.",
    ]
    assert "Vast op 150 graden?" in out
    assert "PLAYER: links\nHOST: Begin met de naam van je team, zo: Blauw, links." in out  # a bare "links"
    assert out.rstrip().endswith("HOST: Dat was Wavelength. Bedankt voor het meespelen!")  # not a calque
    # undo passes over "waar staat hij" and says where the dial is now
    assert "HOST: Ongedaan gemaakt. We doen die stap opnieuw.\nHOST: 135 graden" in out


@pytest.mark.parametrize("lang, words, points, band", [
    ("es", ["pista", "mucho a la izquierda", "fijadlo", "sí"], 9, "De 7 a 9 puntos: probad a darle un buen meneo"),
    ("nl", ["hint", "een stuk naar links", "vastzetten", "ja"], 2, "Van 0 tot 3 punten: staat het apparaat"),
])
def test_coop_game_ends_with_the_rating_in_the_language(tmp_path, lang, words, points, band):
    """W9 in both languages: 7 cards plus bonus cards, no call phase, the rating band at the end."""
    clue, move, lock, yes = words
    script = tmp_path / "coop.txt"
    script.write_text("".join(f"{clue} {i}\n{move}\n{lock}\n{yes}\n" for i in range(12)), encoding="utf-8")
    record_path = tmp_path / "coop.json"
    status, out, err = _play(["--lang", lang, "--coop", "--seed", "11", "--players", "4"], script, record_path)
    assert status == 0, err
    record = json.loads(record_path.read_text("utf-8"))
    assert record["finished"] and record["mode"] == "coop"
    total = sum(3 if abs(t["dial"] - t["target"]) <= 4.5 else wedge(t["dial"], t["target"]) for t in record["turns"])
    assert total == record["standings"][0]["points"] == points
    assert len(record["turns"]) == 7 + sum(t["bonus_card"] for t in record["turns"])
    assert all(t["call"] is None for t in record["turns"])
    assert band in out
    assert " 1 cartas" not in out and " 1 kaarten" not in out
    last = {"es": "Carta 9, la última.", "nl": "Kaart 9, de laatste."}[lang] if len(record["turns"]) == 9 else \
        {"es": ", la última.", "nl": ", de laatste."}[lang]
    one_left = {"es": "puntos; queda 1 carta.", "nl": "punten, nog 1 kaart."}[lang]
    assert last in out and one_left in out


def test_spanish_game_resumes_after_a_stop(tmp_path):
    lines = (SCRIPTS / "wavelength_es.txt").read_text("utf-8").splitlines()
    cut = lines.index("nueve grados a la izquierda") + 1  # in the dial phase of turn 3
    first, rest = tmp_path / "first.txt", tmp_path / "rest.txt"
    first.write_text("\n".join(lines[:cut]) + "\n", encoding="utf-8")
    rest.write_text("\n".join(lines[cut:]) + "\n", encoding="utf-8")
    record_path = tmp_path / "resumed.json"
    status, out, err = _play(ES_ARGS, first, record_path)
    assert status == 0, err
    assert out.rstrip().endswith("El guion se ha terminado, así que la partida se detiene aquí. "
                                 "El registro de la partida está guardado.")
    status, out2, err = run_cli(["resume", "--input", str(rest), "--output", "text"])
    assert status == 0, err
    assert "Bienvenidos de nuevo" in out2
    resumed = json.loads(record_path.read_text("utf-8"))
    assert resumed["finished"] and rescore(resumed) == {"red": 14, "blue": 12}


# ---------------------------------------------------------------------- vocabulary check
class VocabularyListener(ScriptListener):
    """A script listener whose "model" lacks some words (like a small Vosk model)."""

    def __init__(self, lines, missing):
        super().__init__([(i + 1, t) for i, t in enumerate(lines)])
        self.missing = set(missing)
        self.asked: set[str] = set()

    def missing_words(self, words):
        self.asked.update(words)
        return [w for w in words if w in self.missing]


def test_missing_words_are_reported_in_spanish(tmp_path):
    settings = Settings(game="wavelength", lang="es", seed=1, record=str(tmp_path / "r.json"))
    host.validate(settings)
    listener = VocabularyListener(["una pista"], missing={"fíjalo", "pelín"})
    voice = TextVoice(io.StringIO())
    assert Session(host.Host, listener, voice, VirtualClock(), settings).run() == "input_ended"
    out = voice.out.getvalue()
    assert "Aviso: el modelo de voz no conoce estas palabras, así que puede que no las oiga: fíjalo y pelín." in out
    assert {"rojo", "azul", "izquierda", "poquito", "dónde"} <= listener.asked  # team names as said, accents kept


# ---------------------------------------------------------------------- random play
BOT_WORDS = {
    "es": {"clue": ["una cosa", "otro lado", "algo raro"], "yes": "sí", "no": "no", "pass": "paso",
           "dial": ["izquierda", "derecha", "un poco a la izquierda", "mucho a la derecha", "un pelín a la izquierda",
                    "centro", "del todo a la izquierda", "dónde está", "fíjalo", "fíjalo", "rehacer"],
           "teams": ["rojo", "azul", "los azules"], "sides": ["izquierda", "derecha"]},
    "nl": {"clue": ["een ding", "andere kant", "iets vreemds"], "yes": "ja", "no": "nee", "pass": "pas",
           "dial": ["links", "rechts", "een beetje naar links", "een stuk naar rechts", "een tikje naar links",
                    "midden", "helemaal naar links", "waar staat hij", "vastzetten", "vastzetten", "overdoen"],
           "teams": ["rood", "blauw", "team blauw"], "sides": ["links", "rechts"]},
}


class BotListener:
    """Answers every listening moment with a random but legal-looking utterance in one language."""

    def __init__(self, seed: int, lang: str):
        self.rng = random.Random(seed)
        self.words = BOT_WORDS[lang]
        self.count = 0

    def listen(self, expected, timeout_s):
        self.count += 1
        if self.count > 3000:
            raise InputEnded("bot")
        r, w, m = self.rng, self.words, expected.moment
        if r.random() < 0.05:
            return Silence(timeout_s or 0.0)
        if m == "clue":
            return Heard(r.choice(w["clue"]))
        if m == "dial":
            return Heard(r.choice(w["dial"]))
        if m == "call":
            return Heard(f"{r.choice(w['teams'])} {r.choice(w['sides'])}" if r.random() < 0.8 else w["pass"])
        if m.startswith("confirm"):
            return Heard(w["yes"] if r.random() < 0.8 else w["no"])
        return Heard("plátano")


@pytest.mark.parametrize("lang, seed", [(lang, seed) for lang in ("es", "nl") for seed in range(4)])
def test_random_games_end_and_rescore(lang, seed, tmp_path):
    coop = seed == 3
    settings = Settings(game="wavelength", lang=lang, seed=seed, options={"coop": coop, "target_score": 6},
                        record=str(tmp_path / "rec.json"))
    host.validate(settings)
    session = Session(host.Host, BotListener(seed, lang), TextVoice(io.StringIO()), VirtualClock(), settings)
    assert session.run() == "finished"
    record = json.loads((tmp_path / "rec.json").read_text("utf-8"))
    if coop:
        assert len(record["turns"]) == 7 + sum(t["bonus_card"] for t in record["turns"])
    else:
        assert rescore(record) == {s["name"]: s["points"] for s in record["standings"]}
        assert set(record["teams"]) == {"red", "blue"}


# ---------------------------------------------------------------------- fixes after the playtest
def test_spanish_deck_spells_calientabanquillos():
    cards = load_deck(None, "es")
    concepts = {c for card in cards for side in card.sides for c in side}
    assert "Calientabanquillos" in concepts and "Calienta banquillo" not in concepts


# ---------------------------------------------------------------------- fixes after the second playtest
import re  # noqa: E402

from voicegame.language.prompts import Prompts  # noqa: E402


def test_spanish_prompts_tell_the_table_fijadlo_never_fijalo():
    """Every sentence to the table says "fijadlo" (vosotros), none says "fíjalo" (tú)."""
    prompts = _flat(tomllib.loads((PROMPTS_DIR / "es" / "wavelength.toml").read_text("utf-8")))
    assert not [k for k, v in prompts.items() if re.search(r"\bf[ií]jal[oa]\b", v.lower())]
    assert all("fijadlo" in prompts[k] for k in ("rules_team_2", "dial_start_first", "dial_start_coop_first",
                                                  "help_dial", "dial_nudge", "dial_silence_centre",
                                                  "dial_silence_moved"))


#: The word that goes before a team's name in each language ("el equipo Chicas", "team Meiden").
TEAM_WORDS = {"en": ("team", "Team"), "es": ("equipo", "Equipo"), "nl": ("team", "Team")}
TEAM_PLACEHOLDERS = re.compile(r"\{(team|caller|first|second|other|psychic_team)\}")


@pytest.mark.parametrize("lang", ["en", "es", "nl"])
def test_team_names_never_stand_alone_as_a_subject(lang):
    """A team name may be plural ("--teams chicas chicos"): every sentence says "el equipo
    Chicas", "team Meiden", "team Girls", so the verb agrees whatever the name. A bare name is
    only allowed in a list (the welcome, the score), in the example of what to say ("Azul, izquierda")
    and where the team is spoken to ("Rojo, girad el dial"; "Azul: ¿izquierda o derecha?")."""
    prompts = _flat(tomllib.loads((PROMPTS_DIR / lang / "wavelength.toml").read_text("utf-8")))
    side = {"en": "left", "es": "izquierda", "nl": "links"}[lang]
    bare = []
    for key, template in prompts.items():
        if key in ("welcome_team", "score_item") or key.startswith("errors."):
            continue
        for m in TEAM_PLACEHOLDERS.finditer(template):
            before = template[:m.start()].rstrip().rsplit(" ", 1)[-1] if template[:m.start()].strip() else ""
            example = template[m.end():].startswith(f", {side}.")
            # a name spoken to or as a label at a sentence start ("Red, turn the dial", "Blue: left?")
            starts = not template[:m.start()].strip() or template[:m.start()].rstrip()[-1] in ".!?¿¡"
            vocative = starts and template[m.end():m.end() + 1] in (",", ":")
            if before not in TEAM_WORDS[lang] and not example and not vocative:
                bare.append((key, m.group(0)))
    assert bare == []


def _bare_name_followers(out: str, name: str, lang: str) -> set[str]:
    """What follows each mention of ``name`` that is not preceded by the language's team word."""
    followers = set()
    for m in re.finditer(rf"(\S+ )?{name}\b(\S*)( \S+)?", out):
        if m.group(1) and m.group(1).strip() in TEAM_WORDS[lang]:
            continue
        after = m.group(2) or (m.group(3) or "").strip().rstrip(".,;:!?")
        followers.add(after)
    return followers


@pytest.mark.parametrize("lang, teams, lines, said", [
    ("es", ["chicas", "chicos"], ["una pista", "mucho a la izquierda", "fijadlo", "sí", "chicos izquierda", "sí",
                                   "otra pista", "fijadlo", "sí", "chicas paso", "sí"],
     ["HOST: Equipo Chicas, empezáis.", "HOST: Chicos: izquierda.", "para el equipo Chicas.",
      "equipo Chicos", "HOST: El equipo Chicas pasa"]),
    ("nl", ["meiden", "jongens"], ["een hint", "een stuk naar links", "vastzetten", "ja", "jongens links", "ja",
                                    "nog een hint", "vastzetten", "ja", "meiden pas", "ja"],
     ["HOST: Team Meiden begint.", "HOST: Jongens: links.", "HOST: Team Jongens raadde",
      "HOST: Team Meiden past"]),
])
def test_plural_team_names_read_well(tmp_path, lang, teams, lines, said):
    """Issue: "Chicas empieza", "Chicas se lleva 3 puntos", "Chicos dice izquierda"."""
    script = tmp_path / "s.txt"
    script.write_text("\n".join(lines) + "\n", encoding="utf-8")
    status, out, err = _play(["--lang", lang, "--seed", "1", "--teams", *teams], script, tmp_path / "r.json")
    assert status == 0, err
    for sentence in said:
        assert sentence in out, sentence
    host_lines = "\n".join(line for line in out.splitlines() if not line.startswith("PLAYER"))
    for name in (t.capitalize() for t in teams):
        # bare names only in lists ("Chicas y Chicos", "Chicas 0"), spoken to ("Chicos, girad", "Chicos: ¿izquierda?")
        assert _bare_name_followers(host_lines, name, lang) <= {",", ":", "y", "en", "0", "1", "2", "3", "4"}, name


@pytest.mark.parametrize("lang, argv, sentence", [
    ("es", ["--teams", "Izquierda", "Azul"], "Los nombres de equipo no pueden llevar las palabras izquierda: "
                                             "son palabras del juego, así que elegid otros nombres."),
    ("es", ["--teams", "Gatos negros", "Gatos"], "Los dos nombres de equipo no pueden compartir ninguna palabra"),
    ("es", ["--coop", "--teams", "a", "b"], "--teams es para el juego por equipos"),
    ("es", ["--target-score", "1"], "--target-score tiene que ser un número entero de al menos 2"),
    ("es", ["--players", "1"], "--players lleva los jugadores de cada equipo"),
    ("nl", ["--teams", "Links", "Blauw"], "Teamnamen mogen de woorden links niet bevatten"),
    ("nl", ["--teams", "rood", "Rood"], "--teams heeft twee verschillende teamnamen van letters nodig."),
    ("nl", ["--coop", "--players", "1"], "Met --coop krijgt --players één getal"),
])
def test_option_errors_are_printed_in_the_tables_language(lang, argv, sentence):
    """validate() errors are printed before the game, one sentence, in the game's language."""
    status, _, err = run_cli(["play", "wavelength", "--lang", lang, "--input", "keyboard", "--output", "text", *argv])
    assert status == 2 and sentence in err
    assert "Traceback" not in err


@pytest.mark.parametrize("lang", ["en", "es", "nl"])
def test_every_option_error_has_its_sentence_in_each_language(lang):
    errors = {k for k in Prompts.load(lang).templates if k.startswith("wavelength.errors.")}
    assert errors == {f"wavelength.errors.{k}" for k in ("teams_in_coop", "target_score", "teams_letters",
                                                         "teams_reserved", "teams_share", "players_coop",
                                                         "players_team")}


def _sentence_starts(out: str) -> list[str]:
    """The first word of every sentence the host says (HOST and PRIVATE lines)."""
    starts = []
    for line in out.splitlines():
        if not line.startswith(("HOST: ", "PRIVATE ")):
            continue
        text = line.split(": ", 1)[1]
        for sentence in re.split(r"(?<=[.!?]) +", text):
            word = sentence.lstrip("¡¿\"«'")
            if word:
                starts.append(word)
    return starts


@pytest.mark.parametrize("lang, teams, lines", [
    ("es", ["chicas", "los tiburones"], ["una pista", "fijadlo", "sí", "tiburones izquierda", "sí"]),
    ("nl", ["meiden", "de haaien"], ["een hint", "vastzetten", "ja", "haaien links", "ja"]),
    ("en", ["girls", "the sharks"], ["a clue", "lock it in", "yes", "sharks left", "yes"]),
])
def test_names_are_capitalised_at_every_sentence_start(tmp_path, lang, teams, lines):
    script = tmp_path / "s.txt"
    script.write_text("\n".join(lines) + "\n", encoding="utf-8")
    status, out, err = _play(["--lang", lang, "--seed", "3", "--teams", *teams], script, tmp_path / "r.json")
    assert status == 0, err
    starts = _sentence_starts(out)
    assert starts and [w for w in starts if w[:1].islower()] == []
