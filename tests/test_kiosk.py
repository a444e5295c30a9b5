"""The spoken lobby, set-up by voice and kiosk mode (issue 6): golden tours through
`voicegame kiosk`, resume offers, idle tables, settings saved by voice, the lobby's
understanding, the configuration file and the systemd unit. Spanish and Dutch are a `lang`
parameter of the same tests; what only they have (golden kiosk playthroughs per language, their
word tables, vosotros/jullie) is in the section "Spanish and Dutch"."""

from __future__ import annotations

import configparser
import io
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.playthrough import SCRIPTS, check_golden, run_cli
from voicegame import config as kiosk_config
from voicegame.language import prompts as prompts_module
from voicegame.games.rofl import host as rofl
from voicegame.games.wavelength import host as wavelength
from voicegame.games.wits import host as wits
from voicegame.adapters.headless import ScriptListener, TextVoice, VirtualClock
from voicegame.engine.phases import PhaseError
from voicegame.lobby.host import Kiosk, Phase, Ports, Setup, build_settings, language_available, timer_for
from voicegame.language.prompts import Prompts, load_toml
from voicegame.engine.journal import data_dir, read_json
from voicegame.language.words import understanding
from voicegame.lobby.intents import OptionChange, lobby_understanding

ROOT = Path(__file__).resolve().parent.parent
UNIT = ROOT / "scripts" / "voicegame-kiosk.service"


def kiosk(script: Path | str, *extra: str, seed: int = 3, stdin_text: str = ""):
    return run_cli(["kiosk", "--input", str(script), "--output", "text", "--seed", str(seed), *extra],
                   stdin_text=stdin_text)


def write_script(tmp_path: Path, name: str, lines: list[str]) -> Path:
    path = tmp_path / f"{name}.txt"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def host_lines(out: str) -> list[str]:
    """What the host said, in order (a keyboard's "> " prompt stripped)."""
    lines = (line.removeprefix("> ") for line in out.splitlines())
    return [line[6:] for line in lines if line.startswith("HOST: ")]


def records() -> list[dict]:
    folder = data_dir() / "records"
    found = [read_json(p) for p in folder.glob("*.json")]
    return sorted(found, key=lambda r: r["settings"]["started"])


def unfinished_autosaves() -> list[Path]:
    folder = data_dir() / "autosave"
    return [p for p in folder.glob("*.json") if not read_json(p)["finished"]] if folder.is_dir() else []


def script_lines(path: Path) -> list[str]:
    return [line for line in path.read_text(encoding="utf-8").splitlines()
            if line.strip() and not line.lstrip().startswith("#")]


# --------------------------------------------------------------------------- the golden tour


def test_golden_tour_lobby_setup_every_game_play_again_resume_and_back_to_idle():
    status, out, err = kiosk(SCRIPTS / "kiosk_tour.txt")
    assert status == 0, err
    check_golden("kiosk_tour", out)
    said = host_lines(out)
    # the lobby names the three games in one breath, and the script ends while it listens
    assert "Wavelength, Wits and Wagers, or ROFL" in said[0] and len(said[0].split()) <= 25
    assert said[-2].startswith("Back in the lobby.")
    assert said[-1] == "The input has ended, so the lobby closes. Goodbye!"
    # four games were played to the end: Wits, Wits again (stopped and resumed), ROFL, Wavelength
    recs = records()
    assert [r["game"] for r in recs] == ["wits", "wits", "rofl", "wavelength"]
    assert all(r["finished"] for r in recs)
    assert not unfinished_autosaves()
    first, again, rofl_rec, wl = recs
    assert first["settings"]["options"]["players"] == ["red", "blue"] == again["settings"]["options"]["players"]
    assert first["settings"]["options"]["count"] == 2 == len(first["turns"]) == len(again["turns"])
    # "play again" draws new questions and a new seed
    assert {t["id"] for t in first["turns"]}.isdisjoint({t["id"] for t in again["turns"]})
    assert first["seed"] != again["seed"]
    assert first["chips"] == {"red": 23, "blue": 9} and again["chips"] == {"red": 33, "blue": 4}
    # the stopped game was resumed into the same autosave and record: its inputs have no "stop"
    assert all(i["text"] != "stop" for i in again["inputs"])
    assert rofl_rec["settings"]["options"]["players"] == ["red", "blue", "green"]
    assert rofl_rec["settings"]["options"]["lenient"] is True
    assert rofl_rec["winners"] == ["red"]
    assert sum(a["amount"] for a in rofl_rec["awards"] if a["to"] == "red") == 17
    assert wl["settings"]["options"]["coop"] is True and wl["settings"]["options"]["players"] == [4]
    assert wl["standings"] == [{"name": wl["teams"][0], "points": 25}]
    # slower and softer, said in the lobby, are in the configuration file
    saved = kiosk_config.load()
    assert (saved.rate_wpm, saved.volume, saved.lang) == (155, 0.9, "en")


def test_table_talk_in_the_lobby_gets_a_short_nudge_and_the_games_on_request(tmp_path):
    script = write_script(tmp_path, "lobby", ["banana", "hello", "what is the time", "what can we play"])
    # "what is" asks for rules only with a game's name
    status, out, _ = kiosk(script)
    said = host_lines(out)
    games = "The games are Wavelength, Wits and Wagers, and ROFL."
    assert not any(s.startswith("I heard") for s in said)  # never a lecture
    assert said.count("Say a game's name, or help.") == 1  # the second miss: a nudge of a few words
    assert said[-2].startswith(games)  # asked for: the list
    assert status == 0


def test_three_answers_start_a_game(tmp_path):
    script = write_script(tmp_path, "three", ["let's play wits and wagers", "three", "yes", "start"])
    status, out, _ = kiosk(script)
    said = host_lines(out)
    assert "3 players." in said
    # the players' colours are names: capitalised in every read-back
    assert "In seat order, your colours will be Red, Blue and Green. Say yes, or say your own colours in " \
           "seat order." in said
    assert "Seat order: Red, Blue and Green." in said
    assert "Starting Wits and Wagers for Red, Blue and Green." in said
    assert any(s.startswith("Wits and Wagers: guess the number") for s in said)
    assert status == 0


def test_three_silences_at_every_setup_question_take_the_defaults_and_say_so(tmp_path):
    script = write_script(tmp_path, "silent", ["let's play rofl"] + ["<silence>"] * 9)
    status, out, _ = kiosk(script)
    said = host_lines(out)
    assert "I didn't hear an answer, so I'll use the default: 4 players." in said
    assert "I didn't hear an answer, so I'll use the default colours: Red, Blue, Green and Yellow." in said
    assert "I didn't hear an answer, so we start with these settings." in said
    assert "Starting ROFL for Red, Blue, Green and Yellow." in said
    # each silence re-asks the question in a few words: two per question
    for again in ("How many are playing?", "Say yes, or say your own colours in seat order.",
                  "I didn't hear anything. Please say it again."):
        assert said.count(again) == 2, again
    assert any(s.startswith("ROFL! Writers shrink a message") for s in said)
    assert status == 0


def test_wavelength_mode_silences_default_to_two_teams_and_colours_can_be_said(tmp_path):
    script = write_script(tmp_path, "wl", ["wavelength", "<silence>", "<silence>", "<silence>",
                                           "blue blue", "green", "blue and pink", "play to five points",
                                           "six players", "start"])
    status, out, _ = kiosk(script)
    said = host_lines(out)
    assert "I didn't hear an answer, so I'll use the default: two teams." in said
    # the default teams are those of `voicegame play wavelength`: Red and Blue
    assert "The teams will be Red and Blue, and Red starts. Say yes, or say two other colours." in said
    assert "I heard Blue twice: everyone needs a different colour." in said
    assert "Wavelength needs two different colours, one for each team, such as Green and Yellow." in said
    assert "The teams are Blue and Pink; Blue starts." in said
    assert "Starting Wavelength for Blue and Pink." in said
    # a head count is known: the card follows at once, so the welcome is one word (40-word opening)
    assert "Wavelength!" in said and "Team Blue starts; team Pink has 1 point. Psychic: player 1." in said
    assert status == 0


def test_quit_during_setup_goes_back_to_the_lobby_and_quit_in_the_lobby_asks_first(tmp_path):
    script = write_script(tmp_path, "quit", ["rofl", "quit", "quit", "no", "switch off", "yes", "wavelength"])
    status, out, _ = kiosk(script)
    said = host_lines(out)
    assert said[2] == "Set-up cancelled."
    assert said[3].startswith("Back in the lobby.")
    assert "All right, I'm staying." in said
    assert said[-1] == "Goodbye, and thanks for playing!"
    assert "PLAYER: wavelength" not in out  # nothing is heard after switching off
    assert status == 0


def test_option_changes_are_read_back_and_refused_with_a_reason(tmp_path):
    script = write_script(tmp_path, "opts", ["rofl with five players", "yes", "hard mode and no timer",
                                             "twenty questions", "stacking", "no stacking", "change players",
                                             "three", "green blue red", "own messages", "start"])
    status, out, _ = kiosk(script)
    said = host_lines(out)
    assert "5 players." in said
    assert "Now: no timer and hard mode. Say start to play, or change another setting." in said
    assert any(s.startswith("That is not a setting of ROFL.") for s in said)
    assert "Now: no timer, hard mode and stacking tokens. Say start to play, or change another setting." in said
    assert "Seat order: Green, Blue and Red." in said
    assert "Starting ROFL for Green, Blue and Red." in said
    assert status == 0


def test_a_setting_said_for_the_players_is_kept_for_the_settings_not_taken_as_players(tmp_path):
    script = write_script(tmp_path, "questions", ["let's play wits and wagers with three questions", "two", "yes",
                                                  "start", "stop the game", "yes, stop the game",
                                                  "wits and wagers", "five questions", "hard mode", "two", "yes",
                                                  "start"])
    status, out, _ = kiosk(script)
    said = host_lines(out)
    # said with the game's name: the number of questions, and the players are still asked
    assert "3 players." not in said
    assert said[1] == "Wits and Wagers for 2 to 7 players. How many are playing? Say a number, or default for 4."
    assert "Settings: a 30-second timer and 3 questions. Say start to play, or change a setting: relaxed timer, " \
           "no timer, or a number of questions." in said
    assert "Starting Wits and Wagers for Red and Blue." in said
    # said instead of a number of players: noted, and the question asked again; another game's setting is refused
    assert "5 players." not in said
    assert "Noted: I'll set that with the other settings in a moment. How many are playing?" in said
    assert any(s.startswith("That is not a setting of Wits and Wagers.") for s in said)
    second = said.index("Noted: I'll set that with the other settings in a moment. How many are playing?")
    assert len(said) - 1 - said[::-1].index("Starting Wits and Wagers for Red and Blue.") > second
    assert status == 0


@pytest.mark.parametrize("lang, answers, asked_and_read, not_heard", [
    ("en", ["let's play rofl", "three", "no", "green blue red", "start", "stop the game", "yes, stop the game",
            "wavelength", "teams", "no", "purple and pink", "start"],
     ["Then say your 3 colours in seat order, such as Yellow, Orange and Purple.",
      "Seat order: Green, Blue and Red.",
      "Then say two colours, one for each team, such as Green and Yellow. The first one starts.",
      "The teams are Purple and Pink; Purple starts."], 'I heard "no"'),
    ("es", ["rofl", "tres", "no", "verde azul rojo"],
     ["Entonces decid vuestros 3 colores por orden de asiento, por ejemplo Amarillo, Naranja y Morado.",
      "Orden de asiento: Verde, Azul y Rojo."], None),
    ("nl", ["rofl", "drie", "nee", "groen blauw rood"],
     ["Noem dan jullie 3 kleuren in zitvolgorde, bijvoorbeeld Geel, Oranje en Paars.",
      "Zitvolgorde: Groen, Blauw en Rood."], None),
], ids=["en", "es", "nl"])
def test_no_to_the_offered_colours_asks_for_the_colours(tmp_path, lang, answers, asked_and_read, not_heard):
    status, out, _ = kiosk(write_script(tmp_path, "no", answers), "--lang", lang)
    said = host_lines(out)
    assert [s for s in asked_and_read if s not in said] == []
    if not_heard:
        assert not any(s.startswith(not_heard) for s in said)
    assert status == 0


def test_the_colour_examples_have_as_many_colours_as_are_needed(tmp_path):
    script = write_script(tmp_path, "help", ["wavelength", "teams", "help", "banana", "banana", "banana", "quit",
                                             "wits", "two", "help"])
    status, out, _ = kiosk(script)
    said = host_lines(out)
    team_help = ("Say yes to keep these colours, or say two colours, one for each team, such as Green and Yellow; "
                 "the first one starts. Say quit to go back to the lobby.")
    assert said.count(team_help) == 1
    # answers not understood get no lecture: nothing, then a nudge of at most 8 words (the question
    # and "or say help" would be 10 here)
    assert said.count("Say help to hear what fits here.") == 1
    assert not any(s.startswith('I heard "banana"') for s in said)
    assert not any("red, blue and green" in s.lower() for s in said)
    assert ("Say yes to keep these colours, or say each player's colour in seat order, such as Green and Yellow. "
            "Say quit to go back to the lobby.") in said
    assert status == 0


def test_the_lobbys_wavelength_teams_are_those_of_voicegame_play_wavelength(tmp_path):
    from voicegame.engine.table import Settings
    from voicegame.lobby.host import Kiosk, Ports

    for lang in ("en", "es", "nl"):
        played = Settings(game="wavelength", lang=lang, seed=1, timer_s=30.0, private="ears",
                          options=wavelength.options_from_args(_wavelength_args()))
        wavelength.validate(played)
        k = Kiosk(Ports(None, None, None), kiosk_config.Config(), None, lang=lang)
        assert [t.lower() for t in played.options["teams"]] == k.default_teams() == ["red", "blue"], lang
    status, out, _ = kiosk(write_script(tmp_path, "wl", ["wavelength", "teams", "yes", "start"]))
    said = host_lines(out)
    assert "The teams will be Red and Blue, and Red starts. Say yes, or say two other colours." in said
    assert "The teams are Red and Blue; Red starts." in said
    assert records()[0]["settings"]["options"]["teams"] == ["red", "blue"]


def _wavelength_args():
    import argparse

    parser = argparse.ArgumentParser()
    wavelength.add_arguments(parser)
    return parser.parse_args([])


@pytest.mark.parametrize("lang, answers, again, default", [
    ("en", ["yes", "no", "default", "quit"],
     "Which one? Say teams for two teams against each other, or cooperative to play together as one team.",
     "Two teams, the default."),
    ("es", ["sí", "no", "por defecto"],
     "¿Cuál de los dos? Decid equipos para jugar dos equipos enfrentados, o cooperativo para jugar todos juntos "
     "como un solo equipo.", "Dos equipos, lo de por defecto."),
    ("nl", ["ja", "nee", "standaard"],
     "Welke van de twee? Zeg teams voor twee teams tegen elkaar, of coöperatief om samen als één team te spelen.",
     "Twee teams, de standaard."),
], ids=["en", "es", "nl"])
def test_yes_or_no_to_teams_or_cooperative_is_asked_again_and_default_is_said(tmp_path, lang, answers, again, default):
    status, out, _ = kiosk(write_script(tmp_path, "mode", ["wavelength", *answers]), "--lang", lang)
    said = host_lines(out)
    assert said.count(again) == 2
    assert default in said
    assert status == 0


# --------------------------------------------------------------------------- resuming


def test_an_unfinished_game_found_at_start_is_offered_and_resumed_with_the_same_result(tmp_path, monkeypatch):
    part1, part2 = SCRIPTS / "kiosk_power_cut_1.txt", SCRIPTS / "kiosk_power_cut_2.txt"
    status, out1, _ = kiosk(part1, seed=5)
    assert status == 0 and not records()[0]["finished"]
    assert len(unfinished_autosaves()) == 1
    status, out2, _ = kiosk(part2, seed=5)
    assert status == 0
    check_golden("kiosk_power_cut", out2)
    # the offer says which game, who plays and where it stopped
    assert host_lines(out2)[0] == ("I found an unfinished Wits and Wagers game with Red and Blue. Resume it "
                                   "from question 1? Say yes or no.")
    resumed = records()[0]
    assert resumed["finished"] and not unfinished_autosaves()
    # the same inputs in one uninterrupted kiosk session give the same game
    whole = script_lines(part1) + script_lines(part2)[2:]
    monkeypatch.setenv("VOICEGAME_DATA_DIR", str(tmp_path / "fresh"))
    status, _, _ = kiosk(write_script(tmp_path, "whole", whole), seed=5)
    other = records()[0]
    assert other["finished"] and other["chips"] == resumed["chips"] == {"red": 9, "blue": 0}
    assert other["inputs"] == resumed["inputs"]


def test_a_declined_offer_keeps_the_game_and_resume_in_the_lobby_offers_it_again(tmp_path):
    kiosk(SCRIPTS / "kiosk_power_cut_1.txt", seed=5)
    script = write_script(tmp_path, "declined", ["no", "resume", "yes", "both on 700", "both on too high", "no",
                                                 "lobby", "resume"])
    status, out, _ = kiosk(script, seed=5)
    said = host_lines(out)
    assert said[1] == "All right. The game stays saved: say resume whenever you want to continue it."
    assert said[2].startswith("Hello, I'm your game host!")
    assert said[3] == "Resume the Wits and Wagers game with Red and Blue from question 1? Say yes or no."
    assert any("Red wins with 9 chips!" in s for s in said)
    assert "There is no saved game to resume." in said
    assert status == 0


def test_an_idle_table_is_saved_returns_to_the_lobby_and_resumes(tmp_path):
    kiosk_config.config_path().parent.mkdir(parents=True, exist_ok=True)
    kiosk_config.config_path().write_text("idle_minutes = 0.5\n", encoding="utf-8")
    status, out, _ = kiosk(SCRIPTS / "kiosk_idle.txt", seed=5)
    said = host_lines(out)
    idle = said.index("Nobody has spoken for a while, so I saved the game. Say resume in the lobby to continue it.")
    assert said[idle + 1].startswith("Back in the lobby.")
    assert said[idle + 2] == "A Wits and Wagers game is saved: say resume to continue it."
    assert said[idle + 3] == "Resume the Wits and Wagers game with Red and Blue from question 1? Say yes or no."
    assert any("Red wins with 9 chips!" in s for s in said)
    recs = records()
    assert len(recs) == 1 and recs[0]["finished"] and recs[0]["settings"]["idle_s"] == 30.0
    assert status == 0


@pytest.mark.parametrize("answer", ["resume", "continue", "carry on", "resume it", "let's continue"])
def test_resume_or_continue_at_the_resume_offer_means_yes(answer, tmp_path):
    kiosk(SCRIPTS / "kiosk_power_cut_1.txt", seed=5)
    status, out, _ = kiosk(write_script(tmp_path, "resume", [answer, "both on 700", "both on too high", "no"]), seed=5)
    said = host_lines(out)
    assert "No game is running, so that does nothing here." not in said
    assert said[1] == "Welcome back. Resuming the saved game."
    assert records()[0]["inputs"][-1]["text"] == "no"  # the resumed game went on with what was said
    assert status == 0


def test_resume_in_the_lobby_then_resume_at_the_offer(tmp_path):
    kiosk(SCRIPTS / "kiosk_power_cut_1.txt", seed=5)
    status, out, _ = kiosk(write_script(tmp_path, "twice", ["no", "resume", "continue"]), seed=5)
    said = host_lines(out)
    assert said[3] == "Resume the Wits and Wagers game with Red and Blue from question 1? Say yes or no."
    assert said[4] == "Welcome back. Resuming the saved game."
    assert "No game is running, so that does nothing here." not in said


def test_progress_says_where_each_game_stopped():
    p = Prompts.load("en")
    assert wits.progress({"phase": "bets:4"}, p) == "question 4"
    assert wits.progress({"phase": "intro"}, p) == "the start"
    assert wits.progress({"phase": "final"}, p) == "the final scores"
    coop = {"phase": "dial:6", "state": {"game": {"turns": [{}] * 4}}, "settings": {"options": {"coop": True}}}
    assert wavelength.progress(coop, p) == "card 5"
    team = {"phase": "call:3", "state": {"game": {"turns": [{}, {}]}}, "settings": {"options": {"coop": False}}}
    assert wavelength.progress(team, p) == "turn 3"
    assert wavelength.progress({"phase": "setup", "state": None}, p) == "the start"
    assert rofl.progress({"phase": "claims:5", "state": {"game": {"round": 2, "turn": 1, "tiebreak": None}}},
                         p) == "round 2, turn 2"
    assert rofl.progress({"phase": "deliver:10", "state": {"game": {"round": 3, "turn": 0,
                                                                     "tiebreak": {"writers": ["red"]}}}},
                         p) == "the tiebreaker"


# --------------------------------------------------------------------------- settings said by voice


def test_rate_and_volume_limits_and_unknown_keys_survive_saving(tmp_path):
    path = kiosk_config.config_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("rate_wpm = 80\nvolume = 1.0\nscreen_name = \"hall\"\n", encoding="utf-8")
    script = write_script(tmp_path, "voice", ["speak slower", "louder", "speed up", "quieter", "speak english"])
    status, out, _ = kiosk(script)
    said = host_lines(out)
    assert "I'm already speaking as slowly as I can." in said
    assert "I'm already speaking as loudly as I can." in said
    assert "I'll speak faster from now on: 100 words a minute." in said
    assert "I'll speak more softly from now on: volume 90 percent." in said
    assert "I'm already speaking English." in said
    saved = kiosk_config.load()
    assert (saved.rate_wpm, saved.volume) == (100, 0.9)
    assert saved.extra == {"screen_name": "hall"}
    assert status == 0


def test_a_malformed_config_is_said_the_defaults_are_used_and_the_file_is_kept(tmp_path, caplog):
    path = kiosk_config.config_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("rate_wpm = 175\nvolume = \n", encoding="utf-8")
    script = write_script(tmp_path, "bad", ["slower"])
    status, out, err = kiosk(script)
    said = host_lines(out)
    # one plain sentence naming the file and the line, never the TOML parser's own words
    assert said[0] == f"The settings file {path} has a mistake on line 2, so I'm using the default settings."
    assert "Invalid value" not in out and "column" not in out
    assert f"{path}, line 2: not valid TOML (Invalid value)." in caplog.text  # the details are in the log
    assert "I couldn't write the settings file, so this lasts only until I restart." in said
    assert path.read_text(encoding="utf-8") == "rate_wpm = 175\nvolume = \n"
    assert status == 0


@pytest.mark.parametrize("body, sentence", [
    ('lang = "en"\nrate_wpm = 500\n',
     "The setting rate_wpm on line 2 of the settings file {path} can't be used, so I'm using the default settings."),
    ('volume = 1.0\ntimer = "soon"\n',
     "The setting timer on line 2 of the settings file {path} can't be used, so I'm using the default settings."),
    ("timer = 10000\n",
     "The setting timer on line 1 of the settings file {path} can't be used, so I'm using the default settings."),
    ("\nidle_minutes = true\n",
     "The setting idle_minutes on line 2 of the settings file {path} can't be used, so I'm using the default "
     "settings."),
    ("a = 1\nb = \"unterminated\n",
     "The settings file {path} has a mistake on line 2, so I'm using the default settings."),
    (None, "The settings file {path} is a folder, not a file, so I'm using the default settings."),
    (b"rate_wpm = 175\n\xff\n", "I can't read the settings file {path}, so I'm using the default settings."),
])
def test_a_config_that_cannot_be_used_is_named_in_one_plain_sentence(tmp_path, body, sentence):
    path = tmp_path / "bad.toml"
    if body is None:
        path.mkdir()
    elif isinstance(body, bytes):
        path.write_bytes(body)
    else:
        path.write_text(body, encoding="utf-8")
    status, out, _ = kiosk(write_script(tmp_path, "quiet", ["<silence>"]), "--config", str(path))
    said = host_lines(out)
    assert said[0] == sentence.format(path=path)
    assert not any(word in out for word in ("Errno", "Invalid value", "column", "should be like", "must be"))
    assert said[1].startswith("Hello, I'm your game host!")  # then the lobby, on the defaults
    assert status == 0


def test_the_config_sentence_is_in_the_lobbys_language(tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text("rate_wpm = 175\nvolume = \n", encoding="utf-8")
    for lang, sentence in (("es", "El archivo de ajustes {path} tiene un error en la línea 2, así que uso los "
                                  "ajustes de siempre."),
                           ("nl", "In het instellingenbestand {path} staat een fout op regel 2, dus ik gebruik de "
                                  "standaardinstellingen.")):
        status, out, _ = kiosk(write_script(tmp_path, "quiet", ["<silence>"]), "--config", str(path), "--lang", lang)
        assert host_lines(out)[0] == sentence.format(path=path) and status == 0


@pytest.fixture
def spanish_prompts(tmp_path, monkeypatch):
    """A prompts folder with English and Spanish only (Dutch is not installed there; any file
    Spanish lacks is copied from English), the Spanish greeting marked."""
    root = tmp_path / "prompts"
    shutil.copytree(prompts_module.PROMPTS_DIR / "en", root / "en")
    shutil.copytree(prompts_module.PROMPTS_DIR / "es", root / "es")
    for f in (root / "en").glob("*.toml"):
        if not (root / "es" / f.name).exists():
            shutil.copy(f, root / "es" / f.name)
    lobby = root / "es" / "lobby.toml"
    lobby.write_text(lobby.read_text(encoding="utf-8").replace('greeting = "¡Hola,', 'greeting = "HOLA. ¡Hola,'),
                     encoding="utf-8")

    def clear():
        for cached in (prompts_module.load_toml, Prompts.load, understanding, lobby_understanding):
            cached.cache_clear()

    clear()
    monkeypatch.setattr(prompts_module, "PROMPTS_DIR", root)
    yield root
    monkeypatch.undo()
    clear()


def test_a_language_said_in_the_lobby_is_switched_and_saved(tmp_path, spanish_prompts):
    script = write_script(tmp_path, "lang", ["speak dutch", "español"])
    status, out, _ = kiosk(script)
    said = host_lines(out)
    assert "Sorry, I can't speak Dutch yet: its sentences are not installed." in said
    assert said[-2] == "Vale, a partir de ahora hablo español."
    assert kiosk_config.load().lang == "es"
    # the next start speaks the saved language
    status, out, _ = kiosk(write_script(tmp_path, "next", ["<silence>"]))
    assert host_lines(out)[0].startswith("HOLA.")
    assert status == 0


@pytest.mark.parametrize("lang, answers, sentence", [
    ("en", ["let's play rofl", "three", "yes", "start"],
     "{deck}, line 1: expected 'category | message | category | message' (4 fields separated by |), found 3 field(s)."),
    ("es", ["juguemos a rofl", "tres", "sí", "empezar"],
     "{deck}, línea 1: se esperaban 4 campos 'category | message | category | message' separados por |, y hay 3."),
    ("nl", ["laten we rofl spelen", "drie", "ja", "start"],
     "{deck}, regel 1: 4 velden verwacht, 'category | message | category | message' gescheiden door |, gevonden: 3."),
])
def test_a_broken_deck_is_said_in_the_tables_language_and_the_lobby_goes_on(tmp_path, monkeypatch, lang, answers,
                                                                             sentence):
    """The kiosk's own deck cannot be read: the waiting kiosk says which file and line, in its
    language, and is back in the lobby (no traceback, no game started)."""
    from voicegame.games.rofl import deck as rofl_deck

    broken = tmp_path / "rofl_messages.txt"
    broken.write_text("movie | Jaws | saying\n", encoding="utf-8")
    monkeypatch.setattr(rofl_deck, "default_path", lambda lang, name: broken)
    status, out, err = kiosk(write_script(tmp_path, "broken", answers), "--lang", lang)
    said = host_lines(out)
    p = Prompts.load(lang)
    where = said.index(sentence.format(deck=broken))
    assert said[where + 1].startswith(p.text("lobby.back").split(".")[0])
    assert status == 0 and "Traceback" not in out + err and records() == [] and unfinished_autosaves() == []


# --------------------------------------------------------------------------- the command line


# `voicegame` without arguments starting the (unattended) lobby: tests/test_headless_kiosk.py


def test_kiosk_refuses_an_unreadable_script(tmp_path):
    status, _, err = run_cli(["kiosk", "--input", str(tmp_path / "missing.txt"), "--output", "text"])
    assert status == 2 and "missing.txt" in err


# =========================================================================== Spanish and Dutch
# The lobby and the set-up by voice in Spanish and Dutch: the tests with no English twin. Where the
# same test holds in every language, the English test elsewhere in this file takes a `lang`
# parameter instead; the tables LOBBY, LANGUAGE and OPTIONS here also feed the English tests
# under "pieces" below (test_lobby_phrases, test_language_requests, test_setup_options).

LANGS = ("es", "nl")


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


LANGUAGE = [
    ("en", "speak spanish", "es"), ("en", "español", "es"), ("en", "in dutch", "nl"),
    ("en", "switch to english", "en"), ("en", "spanish omelette", None),
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


HEARD = [r[:2] for r in LOBBY + LANGUAGE if r[0] != "en" and r[2] is not None and r[1] not in NEAR_MISSES]


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


# --------------------------------------------------------------------------- pieces


@pytest.mark.parametrize("lang, text, kind, game, count", [
    ("en", "let's play wavelength", "play", "wavelength", None),
    ("en", "Wits and Wagers", "play", "wits", None),
    ("en", "ROFL", "play", "rofl", None),
    ("en", "wit an wagers", "play", "wits", None),          # a near miss snaps to the name
    ("en", "play rofl with three players", "play", "rofl", 3),
    ("en", "let's play wits and wagers with three questions", "play", "wits", None),
    ("en", "wavelength to six points", "play", "wavelength", None),
    ("en", "rules of wavelength", "rules", "wavelength", None),
    ("en", "how do you play wits and wagers", "rules", "wits", None),
    ("en", "rules", "rules_which", None, None),
    ("en", "what can we play", "list", None, None),
    *LOBBY,
], ids=lambda v: v if isinstance(v, str) else None)
def test_lobby_phrases(lang, text, kind, game, count):
    intent = lobby_understanding(lang).lobby(text)
    assert (intent.kind, intent.game, intent.count) == (kind, game, count)


def test_settings_said_with_the_games_name_are_kept():
    lu = lobby_understanding("en")
    assert lu.lobby("let's play wits and wagers with three questions").options == (OptionChange("questions", 3),)
    assert lu.lobby("rofl with four players hard mode").options == (OptionChange("hard", True),)


NONSENSE = {"en": ["banana", "the spanish inquisition", "hello there", ""],
            "es": ["plátano", "hola", "qué hora es", "la inquisición española", ""],
            "nl": ["banaan", "hallo", "hoe laat is het", "spaanse peper", ""]}


@pytest.mark.parametrize("lang, text", [(lang, text) for lang, texts in NONSENSE.items() for text in texts])
def test_lobby_nonsense_is_not_understood(lang, text):
    assert lobby_understanding(lang).lobby(text) is None




@pytest.mark.parametrize("lang, text, changes", [
    ("en", "hard mode and no timer", [("hard", True), ("timer", "off")]),
    ("en", "no stacking", [("stacking", False)]),
    ("en", "relaxed timer", [("timer", "relaxed")]),
    ("en", "lenient articles please", [("lenient", True)]),
    ("en", "five questions", [("questions", 5)]),
    ("en", "play to six points", [("points", 6)]),
    ("en", "four players", [("players", 4)]),
    ("en", "start", []),
    *OPTIONS,
], ids=lambda v: v if isinstance(v, str) else None)
def test_setup_options(lang, text, changes):
    assert lobby_understanding(lang).options(text) == [OptionChange(n, v) for n, v in changes]


def test_setup_answers():
    lu = lobby_understanding("en")
    assert [lu.player_count(t) for t in ("three", "3", "we are five", "six players", "banana")] == [3, 3, 5, 6, None]
    # a number that belongs to a setting is not a number of players
    assert [lu.player_count(t) for t in ("three questions", "play to six points", "thirty seconds")] == [None] * 3
    assert lu.count_in("wits with three players and two questions") == 3
    assert [lu.is_resume(t) for t in ("resume", "continue", "carry on", "resume the game", "don't resume", "x")] == \
        [True, True, True, True, False, False]
    assert [lu.wavelength_mode(t) for t in ("cooperative", "co op", "two teams", "one team", "2", "x")] == \
        ["coop", "coop", "teams", "coop", "teams", None]
    assert lu.colours("red, blue and violet") == ["red", "blue", "purple"]
    assert [lu.after_game(t) for t in ("play again", "another game", "back to the lobby", "no", "x")] == \
        ["again", "another", "lobby", "lobby", None]
    assert lu.is_start("let's go") and lu.is_start("yes") and not lu.is_start("no")


def test_a_voice_setup_becomes_the_games_own_options():
    common = dict(lang="en", seed=7, timer_s=30.0, private="ears", idle_s=600.0)
    r = build_settings(Setup("rofl", players=["green", "blue", "red"], timer="relaxed",
                             switches={"hard": True, "lenient": True}), **common)
    assert r.timer_s == 60.0 and r.idle_s == 600.0
    assert (r.options["players"], r.options["hard"], r.options["lenient"], r.options["stacking"]) == \
        (["green", "blue", "red"], True, True, False)
    wl = build_settings(Setup("wavelength", players=["blue", "pink"], number=6, headcount=5), **common)
    assert (wl.options["teams"], wl.options["target_score"], wl.options["players"]) == (["blue", "pink"], 6, [3, 2])
    w = build_settings(Setup("wits", players=["red", "orange"], timer="off", number=2), **common)
    assert w.timer_s is None and w.options["count"] == 2
    # a resumed game's settings give back the same set-up ("play again")
    assert Setup.from_settings(w, 30.0) == Setup("wits", players=["red", "orange"], timer="off", number=2)
    assert Setup.from_settings(wl, 30.0).headcount == 5
    assert timer_for("normal", None) is None and timer_for("relaxed", None) == 60.0


@pytest.mark.parametrize("body, words, kind, line, key", [
    ("rate_wpm = 500\n", "rate_wpm must be a whole number of words a minute from 80 to 300, not 500.", "value",
     1, "rate_wpm"),
    ("lang = \"en\"\n\nvolume = 0.05\n", "volume must be a number from 0.2 to 1.0, not 0.05.", "value", 3, "volume"),
    ('timer = "soon"\n', 'timer must be a number of seconds from 5 to 600, or "off", not "soon".', "value", 1, "timer"),
    ('private = "telepathy"\n', "private must be", "value", 1, "private"),
    ("idle_minutes = -1\n", "idle_minutes must be a number of minutes from 0 to 1440", "value", 1, "idle_minutes"),
    ("volume = 1.0\nrate_wpm = \"fast\"\n", 'rate_wpm must be a whole number of words a minute from 80 to 300, '
     'not "fast".', "value", 2, "rate_wpm"),
    # a timer of almost three hours, or of 2 seconds, is a typo: 5 to 600 seconds (or "off")
    ("timer = 10000\n", 'timer must be a number of seconds from 5 to 600, or "off", not 10000.', "value", 1, "timer"),
    ("timer = 2\n", 'timer must be a number of seconds from 5 to 600, or "off", not 2.', "value", 1, "timer"),
    # a boolean is no number, and the message says what is wanted in plain words
    ("lang = \"en\"\nidle_minutes = true\n", "idle_minutes must be a number of minutes from 0 to 1440 (0 never "
     "returns to the lobby), not true.", "value", 2, "idle_minutes"),
    ("timer = false\n", "timer must be a number of seconds", "value", 1, "timer"),
    ("volume = true\n", "volume must be a number from 0.2 to 1.0, not true.", "value", 1, "volume"),
    ("lang = [\n", "not valid TOML", "syntax", 1, None),
    ("volume = 1.0\nrate_wpm = = 3\n", "line 2: not valid TOML", "syntax", 2, None),
])
def test_config_errors_name_the_file_and_key(tmp_path, body, words, kind, line, key):
    path = tmp_path / "config.toml"
    path.write_text(body, encoding="utf-8")
    with pytest.raises(kiosk_config.ConfigError) as caught:
        kiosk_config.load(path=path)
    error = caught.value
    assert words in str(error) and str(path) in str(error)
    assert (error.path, error.kind, error.line, error.key) == (path, kind, line, key)
    assert "should be like" not in str(error) and "True" not in str(error) and "False" not in str(error)


def test_a_folder_or_unreadable_config_is_a_config_error(tmp_path):
    with pytest.raises(kiosk_config.ConfigError) as caught:
        kiosk_config.load(path=tmp_path)
    assert caught.value.kind == "folder" and "Errno" not in str(caught.value)
    path = tmp_path / "latin1.toml"
    path.write_bytes(b"lang = \"espa\xf1ol\"\n")
    with pytest.raises(kiosk_config.ConfigError) as caught:
        kiosk_config.load(path=path)
    assert caught.value.kind == "unreadable" and "not UTF-8" in str(caught.value)


def test_config_round_trip(tmp_path):
    path = tmp_path / "config.toml"
    config = kiosk_config.Config(lang="en", timer="off", rate_wpm=140, volume=0.7, input_device="2",
                                 private="earpiece:USB", idle_minutes=5.0, extra={"kiosk_name": "hall"})
    kiosk_config.save(config, path=path)
    again = kiosk_config.load(path=path)
    assert again == config and again.extra == {"kiosk_name": "hall"} and again.timer_s is None


# --------------------------------------------------------------------------- the systemd unit


def test_systemd_unit_starts_the_kiosk_at_boot_and_restarts_it():
    unit = configparser.ConfigParser(strict=False, interpolation=None)
    unit.optionxform = str
    unit.read(UNIT, encoding="utf-8")
    service = unit["Service"]
    assert service["Restart"] == "always"
    assert service["ExecStart"].split()[-2:] == ["voicegame", "kiosk"]
    assert service["User"] not in ("root", "0")
    assert "audio" in service["SupplementaryGroups"].split()
    assert unit["Install"]["WantedBy"] == "multi-user.target"
    assert unit["Unit"]["StartLimitIntervalSec"] == "0"


def test_systemd_unit_passes_systemd_analyze_verify():
    tool = shutil.which("systemd-analyze")
    if tool is None:
        pytest.skip("systemd-analyze is not installed here")
    done = subprocess.run([tool, "verify", str(UNIT)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stderr.strip() == "", done.stderr  # verify reports parse problems as warnings only


class _NoRoflModel:
    """A listener whose speech model lacks every word of ROFL's names but one phrase's."""

    def __init__(self, known_rofl_phrase: bool):
        self.lacks = {"rofl", "roffle", "r", "o", "f", "l", "rolling", "español"}
        if not known_rofl_phrase:
            self.lacks |= {"message"}

    def missing_words(self, words):
        return sorted(w for w in words if w in self.lacks)

    def listen(self, expected, timeout_s):
        raise AssertionError("not listening in this test")


@pytest.mark.parametrize("known_rofl_phrase, spoken", [(True, False), (False, True)])
def test_missing_lobby_words_are_said_only_when_a_game_cannot_be_named(known_rofl_phrase, spoken, caplog):
    import io

    from voicegame.adapters.headless import TextVoice, VirtualClock
    from voicegame.lobby.host import Kiosk, Ports

    out = io.StringIO()
    k = Kiosk(Ports(_NoRoflModel(known_rofl_phrase), TextVoice(out), VirtualClock()), kiosk_config.Config(), None)
    missing = k.check_vocabulary()
    assert "rofl" in missing and "español" in missing
    assert "lobby words missing from the speech model" in caplog.text
    said = host_lines(out.getvalue())
    assert bool(said) is spoken
    if spoken:
        assert said[0].startswith("Note: the speech model does not know these words") and "rofl" in said[0]


def test_two_teams_with_fewer_than_four_players_do_not_crash(tmp_path):
    """Wavelength teams of 1 are refused by the game: the lobby drops the headcount and says why."""
    script = tmp_path / "s.txt"
    script.write_text("let's play wavelength, three players\ntwo teams\nyes\nthree players\nstart\n")
    status, out, err = run_cli(["kiosk", "--input", str(script), "--output", "text"])
    assert "Traceback" not in out + err and "need at least 4 players" in out
    assert "Wavelength is for 4 to 20 players, not 3." in out
    assert "Wavelength: find the Psychic's hidden target" in out


def test_lobby_resume_keeps_the_silences_that_decided_something(tmp_path):
    """Blue's silent no-guess before the stop is part of the game: resuming keeps it."""
    script = tmp_path / "s.txt"
    script.write_text("let's play wits and wagers with two players\nyes\nstart\nred 500\n<silence>\n<silence>\n"
                      "<silence>\n<silence>\nstop the game\nyes, stop the game\nresume\nyes\n")
    status, out, err = run_cli(["kiosk", "--seed", "3", "--input", str(script), "--output", "text"])
    before, resumed = out.split("Resuming the saved game.", 1)
    assert "Blue: no guess." in before
    assert "Any guess to fix?" in resumed and "Blue, your guess?" not in resumed


# --------------------------------------------------------------------------- second playtest

#: A Wits and Wagers game of one question for Red and Blue that ends (seed 5): Red 9 chips, Blue none.
ONE_QUESTION = ["let's play wits and wagers with two players", "yes", "one question", "start", "<silence>",
                "<silence>", "700", "750", "no", "<silence>", "<silence>", "both on 700", "both on too high", "no"]
AFTER_GAME = ("Say play again for another Wits and Wagers game with the same players, another game to choose a "
              "different one, or lobby to go back.")


def test_rules_of_a_game_after_a_game_are_read_not_a_new_setup(tmp_path):
    """The rules come in short parts: silence goes on, "got it" ends them; no set-up starts."""
    p = Prompts.load("en")
    parts = p.lines("lobby.rules.wavelength")
    script = write_script(tmp_path, "rules", ONE_QUESTION + ["rules of wavelength"] + ["<silence>"] * (len(parts) - 1)
                          + ["rules of rofl", "got it", "rules", "play again"])
    status, out, _ = kiosk(script, seed=5)
    said = host_lines(out)
    end = said.index(AFTER_GAME)
    rest = said[end:]
    assert all(part in rest for part in parts)
    assert "To play it, say let's play Wavelength. Or ask for the rules of another game." in rest
    rofl = p.lines("lobby.rules.rofl")
    assert rofl[0] in rest and rofl[1] not in rest and "Okay." in rest  # "got it" ended them
    assert p.text("lobby.rules_which") in rest
    # no set-up was started: the after-game question is asked again after each summary
    assert not any(s.startswith((p.text("lobby.ask_mode"), "ROFL for 3 to 7 players")) for s in rest)
    assert rest.count(AFTER_GAME) == 4
    assert any(line.startswith("Same again: Wits and Wagers for Red and Blue") for line in rest)
    assert status == 0


def test_start_after_the_rules_never_reads_them_again_and_teach_me_teaches(tmp_path):
    p = Prompts.load("en")
    parts = p.lines("lobby.rules.rofl")
    script = write_script(tmp_path, "teach", ["teach me rofl", "three", "yes", "start", "got it"])
    status, out, _ = kiosk(script)
    said = host_lines(out)
    assert parts[0] in said and parts[1] not in said  # the rules in parts, "got it" ends them
    assert "Starting ROFL for Red, Blue and Green." in said
    assert "Let's learn ROFL as we play: I'll tell you what to say when it matters." in said
    save = next(read_json(p) for p in unfinished_autosaves())
    assert save["settings"]["teach"] is True and save["settings"]["rules_heard"] is True


@pytest.mark.parametrize("lang, answers, read, asked", [
    ("en", ["let's play wavelength cooperative", "quit"], "Cooperative: you all play as one team, with 7 cards.",
     "Settings: 7 cards."),
    ("en", ["let's play wavelength in teams", "quit"], "Two teams.", "The teams will be Red and Blue"),
    ("en", ["let's play wavelength with two teams", "quit"], "Two teams.", "The teams will be Red and Blue"),
    ("en", ["wavelength, one team, five players", "quit"], "Cooperative: you all play as one team, with 7 cards.",
     "Settings: 5 players and 7 cards."),
    ("es", ["juguemos a wavelength con dos equipos"], "Dos equipos.", None),
    ("nl", ["laten we wavelength coöperatief spelen"],
     "Coöperatief: jullie spelen allemaal als één team, met 7 kaarten.", None),
], ids=lambda v: v[0] if isinstance(v, list) else None)
def test_a_wavelength_mode_said_with_the_game_is_taken(tmp_path, lang, answers, read, asked):
    status, out, _ = kiosk(write_script(tmp_path, "mode", answers), "--lang", lang)
    lines = host_lines(out)
    assert Prompts.load(lang).text("lobby.ask_mode") not in lines  # not asked again
    assert lines[1] == read
    if asked:
        assert lines[2].startswith(asked)
        # "two" in "two teams" counts teams, not players
        assert not any("need at least 4 players" in line or "not 2" in line for line in lines)
    assert status == 0


def test_lobby_understands_the_mode_and_resume_with_the_games_name():
    lu = lobby_understanding("en")
    assert (lu.lobby("let's play wavelength with two teams").mode, lu.lobby("let's play wavelength with two teams")
            .count) == ("teams", None)
    assert lu.lobby("let's play wavelength cooperative").mode == "coop"
    assert lu.lobby("wavelength in teams with six players").count == 6
    assert lu.lobby("let's all play wavelength together").mode is None  # too vague to choose the mode
    assert lu.lobby("rofl in teams").mode is None
    assert lu.count_in("rofl with two teams") is None
    intent = lu.lobby("resume wits and wagers")
    assert (intent.kind, intent.game) == ("resume", "wits")
    assert lu.lobby("resume the game").kind == "resume" and lu.lobby("resume the game").game is None
    assert [lu.is_forget(t) for t in ("forget it", "not now", "none of them", "no", "yes")] == \
        [True, True, True, False, False]


def _stopped_wits_and_rofl(tmp_path) -> tuple[Path, Path]:
    """A stopped Wits and Wagers game and, saved later, a stopped ROFL game: their autosaves."""
    script = write_script(tmp_path, "two", ["let's play wits and wagers with two players", "yes", "one question",
                                            "start", "<silence>", "<silence>", "700", "750", "no", "<silence>",
                                            "<silence>", "stop the game",
                                            "yes, stop the game", "let's play rofl with three players", "yes",
                                            "start", "stop the game", "yes, stop the game"])
    kiosk(script, seed=5)
    saves = {read_json(p)["settings"]["game"]: p for p in unfinished_autosaves()}
    for path in (saves["wits"], Path(str(saves["wits"]) + ".journal")):  # saved an hour before the ROFL game
        if path.exists():
            os.utime(path, (path.stat().st_mtime - 3600, path.stat().st_mtime - 3600))
    return saves["wits"], saves["rofl"]


def test_every_unfinished_game_is_offered_newest_first_and_declined_ones_stay_saved(tmp_path):
    _stopped_wits_and_rofl(tmp_path)
    status, out, _ = kiosk(write_script(tmp_path, "offers", ["no", "no", "resume", "forget it"]), seed=5)
    said = host_lines(out)
    rofl_offer = "Resume the ROFL game with Red, Blue and Green from round 1, turn 1? Say yes or no."
    wits_offer = "Resume the Wits and Wagers game with Red and Blue from question 1? Say yes or no."
    assert said[:4] == ["I found 2 unfinished games: ROFL and Wits and Wagers. I'll offer them one at a time, "
                        "the newest first.", rofl_offer, wits_offer,
                        "All right. The games stay saved: say resume, or resume and a game's name, whenever you "
                        "want to continue one."]
    # "resume" in the lobby offers them again; "forget it" offers no more
    again = said.index(rofl_offer, 4)
    assert said[again + 1].startswith("All right. The games stay saved")
    assert wits_offer not in said[again:]
    assert len(unfinished_autosaves()) == 2
    assert status == 0


def test_resume_and_a_games_name_reaches_an_older_saved_game(tmp_path):
    wits_save, _ = _stopped_wits_and_rofl(tmp_path)
    script = write_script(tmp_path, "named", ["forget it", "resume wits and wagers", "no", "resume", "wits and wagers",
                                              "yes", "both on 700", "both on too high", "no", "lobby", "resume rofl",
                                              "no", "resume wits", "resume"])
    status, out, _ = kiosk(script, seed=5)
    said = host_lines(out)
    wits_offer = "Resume the Wits and Wagers game with Red and Blue from question 1? Say yes or no."
    # "resume wits and wagers" offers only that game, then "no" keeps it
    first = said.index(wits_offer)
    assert said[first + 1] == "All right. The game stays saved: say resume whenever you want to continue it."
    # at the ROFL offer, naming Wits and Wagers offers its saved game instead; yes resumes it
    second = said.index(wits_offer, first + 1)
    assert said[second - 1].startswith("Resume the ROFL game")
    assert said[second + 1] == "Welcome back. Resuming the saved game."
    assert any("Red wins with 9 chips!" in s for s in said)
    assert not wits_save.exists()  # finished: its record is written, so the autosave is gone
    # the ROFL game is still saved (offered at start, at "resume", "resume rofl" and "resume" again);
    # no Wits and Wagers game is left to resume
    assert said.count("Resume the ROFL game with Red, Blue and Green from round 1, turn 1? Say yes or no.") == 4
    assert "There is no saved Wits and Wagers game to resume." in said
    assert said[said.index("There is no saved Wits and Wagers game to resume.") + 1] == \
        "A ROFL game is saved: say resume to continue it."
    assert [read_json(p)["settings"]["game"] for p in unfinished_autosaves()] == ["rofl"]
    assert status == 0


def test_a_saved_game_in_another_language_says_it_goes_on_in_that_language(tmp_path, monkeypatch):
    from voicegame.lobby import host as kiosk_module

    kiosk(SCRIPTS / "kiosk_power_cut_1.txt", seed=5)  # an English game
    relanged: list[str] = []
    real = kiosk_module.build_ports

    def spy(*args, **kwargs):
        ports = real(*args, **kwargs)
        inner = ports.relang
        ports.relang = lambda code: (relanged.append(code), inner(code))[1]
        return ports

    monkeypatch.setattr(kiosk_module, "build_ports", spy)
    status, out, _ = kiosk(write_script(tmp_path, "es", ["sí", "both on 700", "both on too high", "no", "menú"]),
                           "--lang", "es", seed=5)
    said = host_lines(out)
    assert said[1] == "Esta partida se jugó en inglés, así que sigue en inglés."
    assert said[2] == "Welcome back. Resuming the saved game."
    assert any("Red wins with 9 chips!" in s for s in said)
    # the game listens and speaks in English, then the lobby goes back to Spanish
    assert relanged == ["en", "es"]
    assert said[-2].startswith("Volvemos al menú.")
    assert status == 0


@pytest.mark.parametrize("lang, sentence", [
    ("en", "This game was played in Spanish, so it continues in Spanish."),
    ("nl", "Dit spel werd in het Spaans gespeeld, dus het gaat verder in het Spaans."),
])
def test_the_language_sentence_names_the_games_language_in_the_lobbys(tmp_path, lang, sentence):
    spanish = write_script(tmp_path, "es", ["vamos a jugar a wits and wagers con dos jugadores", "sí", "una pregunta",
                                            "empezar", "700"])
    kiosk(spanish, "--lang", "es", seed=5)
    yes = {"en": "yes", "nl": "ja"}[lang]
    status, out, _ = kiosk(write_script(tmp_path, "other", [yes]), "--lang", lang, seed=5)
    said = host_lines(out)
    assert said[1] == sentence
    assert said[2] == Prompts.load("es").text("common.resuming")
    assert status == 0


def test_score_after_a_game_says_its_final_standings(tmp_path):
    script = write_script(tmp_path, "score", ONE_QUESTION + ["score", "lobby", "score", "let's play rofl", "quit",
                                                             "score"])
    status, out, _ = kiosk(script, seed=5)
    said = host_lines(out)
    final = "Final score of the last Wits and Wagers game: Red 9 chips and Blue no chips."
    assert said.count(final) == 3  # after the game, in the lobby, and after a cancelled set-up
    assert said[said.index(final) - 1] == AFTER_GAME
    assert "No game is running, so that does nothing here." not in said
    assert status == 0


def test_final_score_of_each_game_from_its_records_standings():
    from voicegame.lobby.host import Kiosk

    k = Kiosk(Ports(None, None, None), kiosk_config.Config(), None)
    k.last_result = ("rofl", [{"name": "red", "points": 17}, {"name": "orange", "points": 1}], False)
    assert k.final_score() == "Final score of the last ROFL game: Red 17 points and Orange 1 point."
    k.last_result = ("wavelength", [{"name": "blue", "points": 10}, {"name": "red", "points": 7}], False)
    assert k.final_score() == "Final score of the last Wavelength game: Blue 10 points and Red 7 points."
    k.last_result = ("wavelength", [{"name": "Everyone", "points": 25}], True)
    assert k.final_score() == "The last Wavelength game ended with 25 points for everyone together."
    k.last_result = ("wits", [{"rank": 1, "player": "red", "chips": 1}, {"rank": 2, "player": "orange", "chips": 0}],
                     False)
    assert k.final_score() == "Final score of the last Wits and Wagers game: Red 1 chip and Orange no chips."


def test_an_unreadable_autosave_is_named_once_then_the_lobby_goes_on(tmp_path):
    kiosk(SCRIPTS / "kiosk_power_cut_1.txt", seed=5)
    good = unfinished_autosaves()[0]
    broken = good.with_name("rofl-20200101-000000-000000.json")
    broken.write_text(good.read_text(encoding="utf-8")[:100], encoding="utf-8")  # cut off mid-write
    status, out, _ = kiosk(write_script(tmp_path, "broken", ["no", "resume", "no"]), seed=5)
    said = host_lines(out)
    sentence = f"The saved game in {broken} can't be read, so it can't be resumed."
    assert said[0] == sentence
    assert said[1] == ("I found an unfinished Wits and Wagers game with Red and Blue. Resume it from question 1? "
                       "Say yes or no.")
    assert said.count(sentence) == 1  # said once, not at every offer
    assert broken.exists() and good.exists()
    # with only the unreadable one left, "resume" names it instead of "there is no saved game"
    good.unlink()
    status, out, _ = kiosk(write_script(tmp_path, "only", ["resume"]), seed=5)
    said = host_lines(out)
    assert said[0] == sentence and said.count(sentence) == 2
    assert "There is no saved game to resume." not in said
    assert status == 0


def test_a_voice_change_keeps_the_owners_tables_comments_and_ints(tmp_path):
    path = kiosk_config.config_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    body = ('# the hall kiosk\nlang = "en"   # English for now\nidle_minutes = 10\ntimer = 45\n'
            'rate_wpm = 175  # words\n\n[screen]\nname = "hall"\nsize = [800, 480]\n')
    path.write_text(body, encoding="utf-8")
    status, out, _ = kiosk(write_script(tmp_path, "slower", ["slower", "softer"]))
    assert "I'll speak more slowly from now on: 155 words a minute." in host_lines(out)
    text = path.read_text(encoding="utf-8")
    assert text == body.replace("rate_wpm = 175  # words", "rate_wpm = 155  # words").replace(
        "rate_wpm = 155  # words\n", "rate_wpm = 155  # words\nvolume = 0.9\n")
    saved = kiosk_config.load()
    assert saved.idle_minutes == 10 and isinstance(saved.idle_minutes, int) and saved.timer == 45
    assert saved.extra == {"screen": {"name": "hall", "size": [800, 480]}}
    assert status == 0


def test_config_save_edits_only_its_keys_and_falls_back_to_a_whole_document(tmp_path):
    path = tmp_path / "config.toml"
    kiosk_config.save(kiosk_config.Config(), path=path)  # a new file: every key, ints as ints
    assert "idle_minutes = 10\n" in path.read_text(encoding="utf-8") and "10.0" not in path.read_text()
    # a value spread over lines cannot be edited in place: the whole file is written from its data
    path.write_text('lang = """en"""\n[a.b]\nc = 1\n', encoding="utf-8")
    config = kiosk_config.load(path=path)
    config.lang = "nl"
    kiosk_config.save(config, path=path, keys=("lang",))
    again = kiosk_config.load(path=path)
    assert again.lang == "nl" and again.extra == {"a": {"b": {"c": 1}}}
    # a file broken since it was read is not overwritten
    path.write_text("lang = [\n", encoding="utf-8")
    with pytest.raises(kiosk_config.ConfigError):
        kiosk_config.save(config, path=path, keys=("lang",))
    assert path.read_text(encoding="utf-8") == "lang = [\n"


# --------------------------------------------------------------------------- phases
def _stack_depth() -> int:
    frame, depth = sys._getframe(), 0
    while frame is not None:
        frame, depth = frame.f_back, depth + 1
    return depth


class _DepthKiosk(Kiosk):
    """A kiosk that notes the depth of the Python stack each time the lobby is entered."""

    def __init__(self, *args, **kwargs):
        self.depths: list[int] = []
        super().__init__(*args, **kwargs)

    def on_enter_LOBBY(self) -> None:  # noqa: N802
        self.depths.append(_stack_depth())
        super().on_enter_LOBBY()


def test_fifty_games_in_a_row_never_deepen_the_stack():
    """A kiosk plays for weeks: the queued machine runs each phase from one loop, so the
    fiftieth game starts at the depth of the first (a machine firing inside its callbacks
    without a queue would nest every phase in the one before)."""
    game = ["wits and wagers", "two", "yes", "start", "stop the game", "yes, stop the game"]
    clock = VirtualClock()
    lines = list(enumerate(game * 50, start=1))
    out = io.StringIO()
    k = _DepthKiosk(Ports(ScriptListener(lines, clock), TextVoice(out), clock), kiosk_config.Config(), None,
                    seed=3, lang="en")
    assert k.run() == 0
    said = host_lines(out.getvalue())
    assert said.count("The game is stopped and saved, so you can resume it later.") == 50
    assert said[-1] == "The input has ended, so the lobby closes. Goodbye!"
    assert len(k.depths) == 51 and set(k.depths) == {k.depths[0]}
    assert k.state is Phase.LOBBY  # the input ended while the lobby listened


def test_a_trigger_that_cannot_fire_raises_never_a_silent_rerun():
    k = _kiosk("en")
    assert k.state is Phase.START
    with pytest.raises(PhaseError):  # no such transition from the start
        k.fire("setup_done")
    k.machine.set_state(Phase.LOBBY)
    assert k.setup is None
    with pytest.raises(PhaseError):  # its condition fails: no game was chosen
        k.fire("game_chosen")
    assert k.state is Phase.LOBBY


def test_a_lobby_phase_bug_is_one_sentence_and_its_traceback_goes_to_the_log(tmp_path, monkeypatch):
    """The kiosk's bug handling (voicegame.cli.main): a PhaseError ends the run with status 1,
    one sentence on stderr, the traceback in the log; nothing of it is said or printed to players."""
    monkeypatch.setattr(Kiosk, "lobby_reply", lambda self, intent: "setup_done")  # not from the lobby
    status, out, err = kiosk(write_script(tmp_path, "bug", ["rules"]))
    log = data_dir() / "voicegame.log"
    assert status == 1 and err == f"voicegame: internal error (PhaseError); the details are in {log}.\n"
    assert "Traceback" not in out + err
    assert "Traceback" in log.read_text() and "'setup_done' cannot fire in phase Phase.LOBBY" in log.read_text()


@pytest.mark.parametrize("answer", ["start", "let's go", "ready"])
def test_start_at_the_colours_keeps_them(tmp_path, answer):
    """Playtest: a table that says "start" when offered the colours wants them (and the game);
    it was left with "Say help to hear what fits here"."""
    script = write_script(tmp_path, "colours", ["let's play wavelength", "teams", answer, "start"])
    status, out, _ = kiosk(script)
    assert status == 0
    assert f"PLAYER: {answer}\nHOST: The teams are Red and Blue; Red starts." in out
    assert "HOST: Starting Wavelength for Red and Blue." in out
