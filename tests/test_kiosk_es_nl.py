"""The spoken lobby and the set-up by voice in Spanish and Dutch (issues 6 and 8): the lobby
prompts match English key for key, the lobby understands each language (table-driven), the
settings are read back in the language, a language said in the lobby is switched and saved,
and a golden kiosk playthrough per language goes from the lobby through set-up into a short
Wits and Wagers game and back to the lobby."""

from __future__ import annotations

import io
import re

import pytest

from tests.playthrough import SCRIPTS, check_golden, run_cli
from tests.test_kiosk import host_lines, records, unfinished_autosaves, write_script
from voicegame import config as kiosk_config
from voicegame.adapters.headless import TextVoice, VirtualClock
from voicegame.lobby.host import Kiosk, Ports, Setup, language_available
from voicegame.language.prompts import Prompts, load_toml
from voicegame.lobby.intents import OptionChange, lobby_understanding

LANGS = ("es", "nl")


def kiosk(script, *extra: str, seed: int = 3):
    return run_cli(["kiosk", "--input", str(script), "--output", "text", "--seed", str(seed), *extra])


# --------------------------------------------------------------------------- prompts and words files


def test_lobby_prompt_keys_and_placeholders_match_english():
    english = Prompts.load("en")
    keys = {k for k in english.templates if k.startswith("lobby.")}
    for lang in LANGS:
        prompts = Prompts.load(lang)
        assert {k for k in prompts.templates if k.startswith("lobby.")} == keys, lang
        for key in keys:
            assert prompts.placeholders(key) == english.placeholders(key), (lang, key)
        assert language_available(lang)


@pytest.mark.parametrize("lang", LANGS)
def test_rules_summaries_come_in_short_parts_and_name_the_games_terms(lang):
    # at most a minute at the default 175 words a minute, in parts of one breath each
    prompts = Prompts.load(lang)
    terms = {"es": {"wavelength": "Psíquico", "wits": "tapete", "rofl": "adivino"},
             "nl": {"wavelength": "Helderziende", "wits": "mat", "rofl": "rader"}}[lang]
    for game, term in terms.items():
        summary = prompts.text(f"lobby.rules.{game}")
        assert 60 <= len(summary.split()) <= 175, (game, len(summary.split()))
        assert all(len(part.split()) <= 30 for part in prompts.lines(f"lobby.rules.{game}")), game
        assert term in summary and prompts.text(f"lobby.names.{game}") in summary


@pytest.mark.parametrize("lang", LANGS)
def test_words_files_have_every_table_and_option_of_english(lang):
    english, words = load_toml("en", "words_lobby"), load_toml(lang, "words_lobby")
    for table in ("games", "lobby", "languages", "setup", "options", "after"):
        missing = set(english[table]) - set(words[table])
        assert not missing, (lang, table, missing)
        assert all(words[table][key] for key in english[table]), (lang, table)


# --------------------------------------------------------------------------- the lobby understood

LOBBY = [
    # choosing a game, as players say it
    ("es", "vamos a jugar a wavelength", "play", "wavelength", None),
    ("es", "juguemos a wits and wagers", "play", "wits", None),
    ("es", "wits y wagers", "play", "wits", None),
    ("es", "rofl", "play", "rofl", None),
    ("es", "quiero jugar a la longitud de onda", "play", "wavelength", None),
    ("es", "el juego de las apuestas", "play", "wits", None),
    ("es", "wit an wagers", "play", "wits", None),                     # a near miss snaps to the name
    ("es", "juguemos una partida de rofl", "play", "rofl", None),      # "una" is an article, not a count
    ("es", "vamos a jugar a rofl con tres jugadores", "play", "rofl", 3),
    ("es", "somos cinco y queremos jugar a wits", "play", "wits", 5),
    # the rules, the list of games
    ("es", "reglas de wavelength", "rules", "wavelength", None),
    ("es", "cómo se juega a rofl", "rules", "rofl", None),
    ("es", "explícame wits and wagers", "rules", "wits", None),
    ("es", "de qué va wavelength", "rules", "wavelength", None),
    ("es", "reglas", "rules_which", None, None),
    ("es", "cuáles son las reglas", "rules_which", None, None),
    ("es", "a qué podemos jugar", "list", None, None),
    ("es", "qué juegos hay", "list", None, None),
    ("nl", "laten we wavelength spelen", "play", "wavelength", None),
    ("nl", "laten we wits and wagers spelen", "play", "wits", None),
    ("nl", "wits en wagers", "play", "wits", None),
    ("nl", "rofl", "play", "rofl", None),
    ("nl", "ik wil het quizspel", "play", "wits", None),
    ("nl", "wit and wages", "play", "wits", None),
    ("nl", "laten we een potje rofl spelen", "play", "rofl", None),     # "een" is an article, not a count
    ("nl", "laten we rofl spelen met z'n vieren", "play", "rofl", 4),
    ("nl", "we spelen wavelength met zes spelers", "play", "wavelength", 6),
    ("nl", "regels van wavelength", "rules", "wavelength", None),
    ("nl", "hoe speel je rofl", "rules", "rofl", None),
    ("nl", "leg wits and wagers uit", "rules", "wits", None),
    ("nl", "wat is wavelength", "rules", "wavelength", None),
    ("nl", "regels", "rules_which", None, None),
    ("nl", "wat zijn de regels", "rules_which", None, None),
    ("nl", "wat kunnen we spelen", "list", None, None),
    ("nl", "welke spellen zijn er", "list", None, None),
    # a saved game of a named game
    ("es", "continuar wits and wagers", "resume", "wits", None),
    ("es", "seguir con rofl", "resume", "rofl", None),
    ("es", "retomar la partida", "resume", None, None),
    ("nl", "hervat wits and wagers", "resume", "wits", None),
    ("nl", "verder met rofl", "resume", "rofl", None),
    ("nl", "verder", "resume", None, None),
]

MODES = [
    # Wavelength's mode said with its name; "dos"/"twee" in "two teams" counts teams, not players
    ("es", "vamos a jugar a wavelength cooperativo", "coop", None),
    ("es", "juguemos a wavelength en equipos", "teams", None),
    ("es", "juguemos a wavelength con dos equipos", "teams", None),
    ("es", "wavelength en un solo equipo con cinco jugadores", "coop", 5),
    ("es", "juguemos todos juntos a wavelength", None, None),
    ("nl", "laten we wavelength coöperatief spelen", "coop", None),
    ("nl", "laten we wavelength in teams spelen", "teams", None),
    ("nl", "wavelength met twee teams", "teams", None),
    ("nl", "wavelength als één team met vijf spelers", "coop", 5),
    ("nl", "laten we samen wavelength spelen", None, None),
]


@pytest.mark.parametrize("lang, text, mode, count", MODES, ids=[f"{r[0]}:{r[1]}" for r in MODES])
def test_wavelength_mode_said_with_the_game(lang, text, mode, count):
    intent = lobby_understanding(lang).lobby(text)
    assert (intent.kind, intent.game, intent.mode, intent.count) == ("play", "wavelength", mode, count)


@pytest.mark.parametrize("lang, forget, no", [("es", ["dejadlo", "ahora no", "ninguna"], "no"),
                                              ("nl", ["laat maar", "nu niet", "geen van allen"], "nee")])
def test_forget_words_at_the_resume_offer(lang, forget, no):
    lu = lobby_understanding(lang)
    assert all(lu.is_forget(w) for w in forget)
    assert not lu.is_forget(no) and not lu.is_forget("banana")


@pytest.mark.parametrize("lang, text, kind, game, count", LOBBY, ids=[f"{r[0]}:{r[1]}" for r in LOBBY])
def test_lobby_phrases(lang, text, kind, game, count):
    intent = lobby_understanding(lang).lobby(text)
    assert (intent.kind, intent.game, intent.count) == (kind, game, count)


@pytest.mark.parametrize("lang, text", [
    ("es", "plátano"), ("es", "hola"), ("es", "qué hora es"), ("es", "la inquisición española"), ("es", ""),
    ("nl", "banaan"), ("nl", "hallo"), ("nl", "hoe laat is het"), ("nl", "spaanse peper"), ("nl", ""),
])
def test_lobby_nonsense_is_not_understood(lang, text):
    assert lobby_understanding(lang).lobby(text) is None


LANGUAGE = [
    ("es", "habla inglés", "en"), ("es", "en neerlandés por favor", "nl"), ("es", "cambia el idioma a inglés", "en"),
    ("es", "holandés", "nl"), ("es", "habla español", "es"), ("es", "speak english", "en"),
    ("es", "spreek nederlands", "nl"), ("es", "tortilla española", None), ("es", "inglés y español", None),
    ("nl", "spreek spaans", "es"), ("nl", "in het engels graag", "en"), ("nl", "schakel over naar het spaans", "es"),
    ("nl", "nederlands", "nl"), ("nl", "habla español", "es"), ("nl", "speak english", "en"),
    ("nl", "spaanse peper", None), ("nl", "engels en spaans", None),
]


@pytest.mark.parametrize("lang, text, code", LANGUAGE, ids=[f"{r[0]}:{r[1]}" for r in LANGUAGE])
def test_language_requests(lang, text, code):
    lu = lobby_understanding(lang)
    assert lu.language(text) == code
    if code:
        assert lu.lobby(text).kind == "language"


NEAR_MISSES = {"wit an wagers", "wit and wages"}


HEARD = [r[:2] for r in LOBBY + LANGUAGE if r[2] is not None and r[1] not in NEAR_MISSES]


@pytest.mark.parametrize("lang, text", HEARD, ids=[f"{r[0]}:{r[1]}" for r in HEARD])
def test_every_word_of_a_lobby_phrase_is_in_the_vocabulary_check(lang, text):
    """What the lobby understands can be heard: its words are in the phrases given to the recognizer."""
    lu = lobby_understanding(lang)
    known = lu.all_words() | set(lu.u.number_words())
    assert [w for w in text.split() if w not in known and not lu.u._is_number_word(w)] == [], (lang, text)


# --------------------------------------------------------------------------- set-up answers

COUNTS = [
    ("es", "tres", 3), ("es", "3", 3), ("es", "somos cinco", 5), ("es", "seis jugadores", 6),
    ("es", "pues somos cuatro en total", 4), ("es", "veintiún", 21), ("es", "plátano", None),
    ("nl", "drie", 3), ("nl", "3", 3), ("nl", "we zijn met vijf", 5), ("nl", "zes spelers", 6),
    ("nl", "met z'n vieren", 4), ("nl", "we zijn met z'n drieën", 3), ("nl", "met z'n drieen", 3),
    ("nl", "banaan", None),
]


@pytest.mark.parametrize("lang, text, count", COUNTS, ids=[f"{r[0]}:{r[1]}" for r in COUNTS])
def test_numbers_of_players(lang, text, count):
    assert lobby_understanding(lang).player_count(text) == count


@pytest.mark.parametrize("lang, answers", [
    ("es", {"cooperativo": "coop", "todos juntos": "coop", "un solo equipo": "coop", "1": "coop",
            "equipos": "teams", "dos equipos": "teams", "unos contra otros": "teams", "2": "teams", "plátano": None}),
    ("nl", {"coöperatief": "coop", "cooperatief": "coop", "allemaal samen": "coop", "één team": "coop",
            "teams": "teams", "twee teams": "teams", "tegen elkaar": "teams", "2": "teams", "banaan": None}),
])
def test_wavelength_mode(lang, answers):
    lu = lobby_understanding(lang)
    assert {text: lu.wavelength_mode(text) for text in answers} == answers


@pytest.mark.parametrize("lang, text, colours", [
    ("es", "rojo, azul y morada", ["red", "blue", "purple"]), ("es", "verde amarillo naranja rosa",
                                                               ["green", "yellow", "orange", "pink"]),
    ("es", "la roja y la violeta", ["red", "purple"]), ("es", "plátano", []),
    ("nl", "rood, blauw en paars", ["red", "blue", "purple"]), ("nl", "groen geel oranje roze",
                                                               ["green", "yellow", "orange", "pink"]),
    ("nl", "banaan", []),
])
def test_colours_in_seat_order(lang, text, colours):
    assert lobby_understanding(lang).colours(text) == colours


OPTIONS = [
    ("es", "modo difícil y sin temporizador", [("hard", True), ("timer", "off")]),
    ("es", "sin apilar", [("stacking", False)]),
    ("es", "fichas apiladas", [("stacking", True)]),
    ("es", "temporizador relajado", [("timer", "relaxed")]),
    ("es", "un temporizador normal", [("timer", "normal")]),
    ("es", "artículos flexibles por favor", [("lenient", True)]),
    ("es", "sin modo difícil", [("hard", False)]),
    ("es", "mensajes propios", [("own_message", True)]),
    ("es", "dial en palabras", [("accessible", True)]),
    ("es", "cinco preguntas", [("questions", 5)]),
    ("es", "una pregunta", [("questions", 1)]),
    ("es", "a seis puntos", [("points", 6)]),
    ("es", "cuatro jugadores", [("players", 4)]),
    ("es", "empezar", []),
    ("nl", "moeilijke variant en geen timer", [("hard", True), ("timer", "off")]),
    ("nl", "niet stapelen", [("stacking", False)]),
    ("nl", "stapelen", [("stacking", True)]),
    ("nl", "een ruime timer", [("timer", "relaxed")]),
    ("nl", "normale timer", [("timer", "normal")]),
    ("nl", "soepele lidwoorden graag", [("lenient", True)]),
    ("nl", "geen moeilijke variant", [("hard", False)]),
    ("nl", "eigen berichten", [("own_message", True)]),
    ("nl", "wijzer in woorden", [("accessible", True)]),
    ("nl", "vijf vragen", [("questions", 5)]),
    ("nl", "een vraag", [("questions", 1)]),
    ("nl", "tot zes punten", [("points", 6)]),
    ("nl", "vier spelers", [("players", 4)]),
    ("nl", "beginnen", []),
]


@pytest.mark.parametrize("lang, text, changes", OPTIONS, ids=[f"{r[0]}:{r[1]}" for r in OPTIONS])
def test_setup_options(lang, text, changes):
    assert lobby_understanding(lang).options(text) == [OptionChange(n, v) for n, v in changes]


@pytest.mark.parametrize("lang, start, default, no, change, after", [
    ("es", ["empezar", "vamos", "venga", "sí", "estamos listos"], ["por defecto", "lo de siempre", "sí"], "no",
     ["cambiar jugadores", "otros colores"],
     {"otra partida": "again", "otra vez": "again", "otro juego": "another", "volver al menú": "lobby",
      "no": "lobby", "plátano": None}),
    ("nl", ["beginnen", "start", "kom op", "ja", "we zijn klaar"], ["standaard", "prima zo", "ja"], "nee",
     ["spelers wijzigen", "andere kleuren"],
     {"nog een keer": "again", "nog een potje": "again", "een ander spel": "another", "terug naar de lobby": "lobby",
      "nee": "lobby", "banaan": None}),
])
def test_yes_no_start_default_change_and_after_game(lang, start, default, no, change, after):
    lu = lobby_understanding(lang)
    assert all(lu.is_start(t) for t in start) and not lu.is_start(no)
    assert all(lu.is_default(t) for t in default) and not lu.is_default(no)
    assert lu.u.yes_no(default[-1]) is True and lu.u.yes_no(no) is False
    assert all(lu.wants_player_change(t) for t in change) and not lu.wants_player_change(start[0])
    assert {t: lu.after_game(t) for t in after} == after


# --------------------------------------------------------------------------- read-backs in the language


class _Deaf:
    def listen(self, expected, timeout_s):
        raise AssertionError("not listening in this test")


def _kiosk(lang: str) -> Kiosk:
    return Kiosk(Ports(_Deaf(), TextVoice(io.StringIO()), VirtualClock()), kiosk_config.Config(), None, lang=lang)


@pytest.mark.parametrize("lang, expected", [
    ("es", ["temporizador relajado de 60 segundos, modo difícil y fichas apiladas",
            "sin temporizador y 1 pregunta",
            "5 jugadores y partida a 6 puntos",
            "4 jugadores, 7 cartas y dial en palabras"]),
    ("nl", ["een ruime timer van 60 seconden, de moeilijke variant en pionnen stapelen",
            "geen timer en 1 vraag",
            "5 spelers en spelen tot 6 punten",
            "4 spelers, 7 kaarten en de wijzer in woorden"]),
])
def test_settings_are_read_back_in_the_language(lang, expected):
    k = _kiosk(lang)
    setups = [Setup("rofl", players=["red", "blue", "green"], timer="relaxed", switches={"hard": True, "stacking": True}),
              Setup("wits", players=["red", "blue"], timer="off", number=1),
              Setup("wavelength", players=["red", "blue"], number=6, headcount=5),
              Setup("wavelength", coop=True, headcount=4, switches={"accessible": True})]
    said = [k.prompts.join(k.settings_items(s)) for s in setups]
    assert said == expected
    assert k.players_words(setups[3]) == k.text("lobby.everyone")
    # the players' colours are names: capitalised in the read-backs
    assert k.players_words(setups[0]) == {"es": ["Rojo", "Azul", "Verde"], "nl": ["Rood", "Blauw", "Groen"]}[lang]


# --------------------------------------------------------------------------- golden playthroughs


def test_golden_spanish_kiosk_from_the_lobby_through_a_stopped_and_resumed_game_back_to_the_lobby():
    status, out, err = kiosk(SCRIPTS / "kiosk_es.txt", "--lang", "es")
    assert status == 0, err
    check_golden("kiosk_es", out)
    said = host_lines(out)
    assert said[0].startswith("¡Hola, soy vuestro presentador!") and "Wavelength, Wits and Wagers o ROFL" in said[0]
    assert said[-1] == "Se ha terminado la entrada, así que cierro el menú. ¡Adiós!"
    assert said[-2] == "Muy bien, me quedo."
    assert "A Wits and Wagers se juega de 2 a 7 jugadores, no con 8. ¿Cuántos sois?" in said
    assert "Empezamos Wits and Wagers con Azul y Verde." in said  # the settings were read back once already
    assert "¿Seguimos la partida de Wits and Wagers con Azul y Verde desde la pregunta 1? Decid sí o no." in said
    assert not any("I " in s or "Say " in s for s in said)  # no English left in the lobby
    (rec,) = records()
    assert rec["game"] == "wits" and rec["finished"] and not unfinished_autosaves()
    assert rec["settings"]["lang"] == "es" and rec["settings"]["options"]["players"] == ["blue", "green"]
    assert rec["settings"]["options"]["count"] == 2 == len(rec["turns"])
    assert rec["chips"] == {"blue": 33, "green": 0}
    assert all(i["text"] != "salir" for i in rec["inputs"])  # resumed into the same record
    saved = kiosk_config.load()
    assert (saved.rate_wpm, saved.lang) == (155, "en")  # --lang is for this run only; "más despacio" is kept


def test_golden_dutch_kiosk_through_a_game_without_timer_then_switched_to_spanish_and_saved(tmp_path):
    status, out, err = kiosk(SCRIPTS / "kiosk_nl.txt", "--lang", "nl")
    assert status == 0, err
    check_golden("kiosk_nl", out)
    said = host_lines(out)
    assert said[0].startswith("Hallo, ik ben jullie spelleider!")
    assert "2 spelers." in said  # "met z'n tweeën" said with the game's name
    assert "We beginnen Wits and Wagers met Rood en Blauw." in said  # the settings were read back once already
    assert any(s.startswith("Dat is geen instelling van Wits and Wagers.") for s in said)
    assert said[-3:] == ["Vale, a partir de ahora hablo español.",
                         "Los juegos son Wavelength, Wits and Wagers y ROFL. Decid, por ejemplo, vamos a jugar a "
                         "ROFL, o reglas de Wavelength.",
                         "Se ha terminado la entrada, así que cierro el menú. ¡Adiós!"]
    (rec,) = records()
    assert rec["finished"] and rec["settings"]["timer_s"] is None and rec["settings"]["lang"] == "nl"
    assert rec["settings"]["options"]["players"] == ["red", "blue"] and rec["chips"] == {"red": 30, "blue": 0}
    saved = kiosk_config.load()
    assert (saved.lang, saved.volume) == ("es", 0.9)
    # the next start, without --lang, speaks the saved language
    status, out, _ = kiosk(write_script(tmp_path, "next", ["<silence>"]))
    assert host_lines(out)[0].startswith("¡Hola,") and status == 0


@pytest.mark.parametrize("start, said, lang, sentence", [
    (None, "habla español", "es", "Vale, a partir de ahora hablo español."),
    ("es", "spreek nederlands", "nl", "Goed, vanaf nu spreek ik Nederlands."),
    ("nl", "speak english", "en", "From now on I'll speak English."),
    ("es", "en español", "en", "Ya estoy hablando español."),
])
def test_a_language_said_in_any_language_is_switched_and_saved(tmp_path, start, said, lang, sentence):
    extra = ("--lang", start) if start else ()
    status, out, _ = kiosk(write_script(tmp_path, "lang", [said]), *extra)
    assert sentence in host_lines(out) and status == 0
    assert kiosk_config.load().lang == lang


# --------------------------------------------------------------------------- the playtest's reports


@pytest.mark.parametrize("lang, answers, again, default", [
    ("es", ["sí", "no", "por defecto"],
     "¿Cuál de los dos? Decid equipos para jugar dos equipos enfrentados, o cooperativo para jugar todos juntos "
     "como un solo equipo.", "Dos equipos, lo de por defecto."),
    ("nl", ["ja", "nee", "standaard"],
     "Welke van de twee? Zeg teams voor twee teams tegen elkaar, of coöperatief om samen als één team te spelen.",
     "Twee teams, de standaard."),
])
def test_yes_to_teams_or_cooperative_is_asked_again_and_the_default_is_said(tmp_path, lang, answers, again, default):
    status, out, _ = kiosk(write_script(tmp_path, "mode", ["wavelength", *answers]), "--lang", lang)
    said = host_lines(out)
    assert said.count(again) == 2
    assert default in said
    assert status == 0


@pytest.mark.parametrize("lang, answers, which, read", [
    ("es", ["rofl", "tres", "no", "verde azul rojo"],
     "Entonces decid vuestros 3 colores por orden de asiento, por ejemplo Amarillo, Naranja y Morado.",
     "Orden de asiento: Verde, Azul y Rojo."),
    ("nl", ["rofl", "drie", "nee", "groen blauw rood"],
     "Noem dan jullie 3 kleuren in zitvolgorde, bijvoorbeeld Geel, Oranje en Paars.",
     "Zitvolgorde: Groen, Blauw en Rood."),
])
def test_no_to_the_offered_colours_asks_for_them(tmp_path, lang, answers, which, read):
    status, out, _ = kiosk(write_script(tmp_path, "no", answers), "--lang", lang)
    said = host_lines(out)
    assert which in said and read in said
    assert status == 0


@pytest.mark.parametrize("lang, answers", [("es", ["continuar", "seguimos", "sigamos", "retomar"]),
                                           ("nl", ["verder", "doorgaan", "hervatten", "verder spelen"])])
def test_resume_words_answer_the_resume_offer(lang, answers):
    lu = lobby_understanding(lang)
    assert all(lu.is_resume(a) for a in answers)
    assert not lu.is_resume(lu.u.no_words[0]) and not lu.is_resume("banana")


@pytest.mark.parametrize("lang, word, offer", [
    ("es", "continuar", "He encontrado una partida de Wits and Wagers sin terminar, con Rojo y Azul. "
                        "¿La seguimos desde la pregunta 1? Decid sí o no."),
    ("nl", "verder", "Ik heb een potje Wits and Wagers gevonden dat nog niet af is, met Rood en Blauw. "
                     "Verder vanaf vraag 1? Zeg ja of nee."),
])
def test_continue_at_the_resume_offer_resumes_the_game(tmp_path, lang, word, offer):
    kiosk(SCRIPTS / "kiosk_power_cut_1.txt", seed=5)
    status, out, _ = kiosk(write_script(tmp_path, "resume", [word]), "--lang", lang, seed=5)
    said = host_lines(out)
    assert said[0] == offer
    assert Prompts.load(lang).text("lobby.not_now") not in said
    # the saved game goes on in its own language (en), and the lobby says so in its own
    assert said[1] == Prompts.load(lang).text("lobby.resume_language",
                                              language=Prompts.load(lang).text("lobby.language_names.en"))
    assert said[1] == {"es": "Esta partida se jugó en inglés, así que sigue en inglés.",
                       "nl": "Dit spel werd in het Engels gespeeld, dus het gaat verder in het Engels."}[lang]
    assert said[2] == "Welcome back. Resuming the saved game."
    assert status == 0


@pytest.mark.parametrize("lang, mode, read", [
    ("es", "juguemos a wavelength con dos equipos", "Dos equipos."),
    ("nl", "laten we wavelength coöperatief spelen",
     "Coöperatief: jullie spelen allemaal als één team, met 7 kaarten."),
])
def test_a_wavelength_mode_said_with_the_game_is_not_asked_again(tmp_path, lang, mode, read):
    status, out, _ = kiosk(write_script(tmp_path, "mode", [mode]), "--lang", lang)
    said = host_lines(out)
    assert said[1] == read
    assert Prompts.load(lang).text("lobby.ask_mode") not in said
    assert status == 0


@pytest.mark.parametrize("lang, answers, offers, kept", [
    ("es", ["no", "no"], ["¿Seguimos la partida de ROFL con Rojo, Azul y Verde desde la ronda 1, turno 1? "
                          "Decid sí o no.",
                          "¿Seguimos la partida de Wits and Wagers con Rojo y Azul desde la pregunta 1? "
                          "Decid sí o no."],
     "De acuerdo. Las partidas siguen guardadas: decid continuar, o continuar y el nombre de un juego, cuando queráis "
     "retomar una."),
    ("nl", ["laat maar"], ["Het potje ROFL van Rood, Blauw en Groen hervatten vanaf ronde 1, beurt 1? Zeg ja of nee."],
     "Goed. De spellen blijven bewaard: zeg verder, of hervat en de naam van een spel, wanneer jullie er een willen "
     "hervatten."),
])
def test_several_saved_games_are_offered_newest_first_in_the_language(tmp_path, lang, answers, offers, kept):
    from tests.test_kiosk import _stopped_wits_and_rofl

    _stopped_wits_and_rofl(tmp_path)
    status, out, _ = kiosk(write_script(tmp_path, "offers", answers), "--lang", lang, seed=5)
    said = host_lines(out)
    assert said[0] == Prompts.load(lang).text("lobby.resume_several", count=2, games=["ROFL", "Wits and Wagers"])
    assert said[1:len(offers) + 1] == offers
    assert said[len(offers) + 1] == kept
    assert len(unfinished_autosaves()) == 2
    assert status == 0



def test_the_lobby_speaks_to_the_table_as_vosotros_and_jullie():
    es, nl = Prompts.load("es"), Prompts.load("nl")
    assert "para cambiar de idioma, decid habla y el idioma, por ejemplo habla inglés" in es.text("lobby.help")
    tu = re.compile(r"\b(tú|tu|tus|te|ti|contigo|tienes|puedes|quieres|sabes|juegas|estás|eres)\b")
    je = re.compile(r"(?<!')\b(je|jij|jou|jouw)\b", re.IGNORECASE)  # not the diminutive of "sms'je"
    for key in (k for k in es.templates if k.startswith("lobby.")):
        assert not tu.search(es.text(key, **_dummy(es, key))), key
    for key in (k for k in nl.templates if k.startswith("lobby.")):
        assert not je.search(nl.text(key, **_dummy(nl, key))), key


def _dummy(prompts, key):
    return {name: "X" for name in prompts.placeholders(key)}


@pytest.mark.parametrize("lang, expected", [
    ("es", ["Escuchando: cada frase que oiga aparecerá aquí. Ctrl-C para terminar.",
            "oído: 'tres coma cinco' | confianza 1,00 | entendido como: número 3,5",
            "(silencio)",
            "oído: 'sí' | confianza 1,00 | entendido como: sí",
            "oído: 'a la izquierda' | confianza 1,00 | entendido como: lado izquierda",
            "oído: 'azul' | confianza 1,00 | entendido como: color azul",
            "oído: 'repite' | confianza 1,00 | entendido como: orden repetir",
            "oído: 'plátano' | confianza 1,00 | entendido como: nada conocido",
            "Hecho."]),
    ("nl", ["Ik luister. Zeg iets; druk op Ctrl-C om te stoppen.",
            "gehoord: 'drie komma vijf' | vertrouwen 1,00 | begrepen als: getal 3,5",
            "(stilte)",
            "gehoord: 'ja' | vertrouwen 1,00 | begrepen als: ja",
            "gehoord: 'naar links' | vertrouwen 1,00 | begrepen als: kant links",
            "gehoord: 'blauw' | vertrouwen 1,00 | begrepen als: kleur blauw",
            "gehoord: 'herhaal' | vertrouwen 1,00 | begrepen als: commando herhalen",
            "gehoord: 'banaan' | vertrouwen 1,00 | begrepen als: niets bekends",
            "Klaar."]),
])
def test_hear_prints_in_the_language_with_its_decimal_comma(tmp_path, lang, expected):
    said = {"es": ["tres coma cinco", "<silence>", "sí", "a la izquierda", "azul", "repite", "plátano"],
            "nl": ["drie komma vijf", "<silence>", "ja", "naar links", "blauw", "herhaal", "banaan"]}[lang]
    status, out, err = run_cli(["hear", "--lang", lang, "--input", str(write_script(tmp_path, "hear", said))])
    assert status == 0, err
    assert out.splitlines() == expected


def test_hear_numbers_are_written_as_in_the_language():
    from voicegame.cli import format_number

    assert [format_number(v, ",") for v in (3.5, 1984, -0.25, 1e-05, 2.0)] == ["3,5", "1984", "-0,25", "0,00001", "2"]
    assert format_number(0.876, ",", 2) == "0,88" and format_number(1, ".", 2) == "1.00"
