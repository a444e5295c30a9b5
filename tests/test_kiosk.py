"""The spoken lobby, set-up by voice and kiosk mode (issue 6): golden tours through
`voicegame kiosk`, resume offers, idle tables, settings saved by voice, the lobby's
understanding, the configuration file and the systemd unit."""

from __future__ import annotations

import configparser
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.playthrough import SCRIPTS, check_golden, run_cli
from voicegame import config as kiosk_config
from voicegame.language import prompts as prompts_module
from voicegame.games.rofl import host as rofl
from voicegame.games.wavelength import host as wavelength
from voicegame.games.wits import host as wits
from voicegame.lobby.host import Ports, Setup, build_settings, timer_for
from voicegame.language.prompts import Prompts
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
    assert any(s.startswith("Wavelength: find the Psychic's hidden target") for s in said)
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


def test_no_to_the_offered_colours_asks_for_the_colours(tmp_path):
    script = write_script(tmp_path, "no", ["let's play rofl", "three", "no", "green blue red", "start", "stop the game", "yes, stop the game",
                                           "wavelength", "teams", "no", "purple and pink", "start"])
    status, out, _ = kiosk(script)
    said = host_lines(out)
    assert "Then say your 3 colours in seat order, such as Yellow, Orange and Purple." in said
    assert "Seat order: Green, Blue and Red." in said
    assert "Then say two colours, one for each team, such as Green and Yellow. The first one starts." in said
    assert "The teams are Purple and Pink; Purple starts." in said
    assert not any(s.startswith('I heard "no"') for s in said)
    assert status == 0


def test_the_colour_examples_have_as_many_colours_as_are_needed(tmp_path):
    script = write_script(tmp_path, "help", ["wavelength", "teams", "help", "banana", "banana", "banana", "quit",
                                             "wits", "two", "help"])
    status, out, _ = kiosk(script)
    said = host_lines(out)
    team_help = ("Say yes to keep these colours, or say two colours, one for each team, such as Green and Yellow; "
                 "the first one starts. Say quit to go back to the lobby.")
    assert said.count(team_help) == 1
    # answers not understood get no lecture: nothing, then a nudge of a few words
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


def test_yes_or_no_to_teams_or_cooperative_is_asked_again_and_default_is_said(tmp_path):
    script = write_script(tmp_path, "mode", ["wavelength", "yes", "no", "default", "quit"])
    status, out, _ = kiosk(script)
    said = host_lines(out)
    again = "Which one? Say teams for two teams against each other, or cooperative to play together as one team."
    assert said.count(again) == 2
    assert "Two teams, the default." in said
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


# --------------------------------------------------------------------------- the command line


# `voicegame` without arguments starting the (unattended) lobby: tests/test_headless_kiosk.py


def test_kiosk_refuses_an_unreadable_script(tmp_path):
    status, _, err = run_cli(["kiosk", "--input", str(tmp_path / "missing.txt"), "--output", "text"])
    assert status == 2 and "missing.txt" in err


# --------------------------------------------------------------------------- pieces


@pytest.mark.parametrize("text, kind, game, count", [
    ("let's play wavelength", "play", "wavelength", None),
    ("Wits and Wagers", "play", "wits", None),
    ("ROFL", "play", "rofl", None),
    ("wit an wagers", "play", "wits", None),          # a near miss snaps to the name
    ("play rofl with three players", "play", "rofl", 3),
    ("let's play wits and wagers with three questions", "play", "wits", None),
    ("wavelength to six points", "play", "wavelength", None),
    ("rules of wavelength", "rules", "wavelength", None),
    ("how do you play wits and wagers", "rules", "wits", None),
    ("rules", "rules_which", None, None),
    ("what can we play", "list", None, None),
])
def test_lobby_phrases(text, kind, game, count):
    intent = lobby_understanding("en").lobby(text)
    assert (intent.kind, intent.game, intent.count) == (kind, game, count)


def test_settings_said_with_the_games_name_are_kept():
    lu = lobby_understanding("en")
    assert lu.lobby("let's play wits and wagers with three questions").options == (OptionChange("questions", 3),)
    assert lu.lobby("rofl with four players hard mode").options == (OptionChange("hard", True),)


@pytest.mark.parametrize("text", ["banana", "the spanish inquisition", "hello there", ""])
def test_lobby_nonsense_is_not_understood(text):
    assert lobby_understanding("en").lobby(text) is None


@pytest.mark.parametrize("text, lang", [("speak spanish", "es"), ("español", "es"), ("in dutch", "nl"),
                                        ("switch to english", "en"), ("spanish omelette", None)])
def test_language_requests(text, lang):
    assert lobby_understanding("en").language(text) == lang


@pytest.mark.parametrize("text, changes", [
    ("hard mode and no timer", [("hard", True), ("timer", "off")]),
    ("no stacking", [("stacking", False)]),
    ("relaxed timer", [("timer", "relaxed")]),
    ("lenient articles please", [("lenient", True)]),
    ("five questions", [("questions", 5)]),
    ("play to six points", [("points", 6)]),
    ("four players", [("players", 4)]),
    ("start", []),
])
def test_setup_options(text, changes):
    assert lobby_understanding("en").options(text) == [OptionChange(n, v) for n, v in changes]


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


@pytest.mark.parametrize("said, read, asked", [
    ("let's play wavelength cooperative", "Cooperative: you all play as one team, with 7 cards.",
     "Settings: 7 cards."),
    ("let's play wavelength in teams", "Two teams.", "The teams will be Red and Blue"),
    ("let's play wavelength with two teams", "Two teams.", "The teams will be Red and Blue"),
    ("wavelength, one team, five players", "Cooperative: you all play as one team, with 7 cards.",
     "Settings: 5 players and 7 cards."),
])
def test_a_wavelength_mode_said_with_the_game_is_taken(tmp_path, said, read, asked):
    status, out, _ = kiosk(write_script(tmp_path, "mode", [said, "quit"]))
    lines = host_lines(out)
    assert Prompts.load("en").text("lobby.ask_mode") not in lines  # not asked again
    assert lines[1] == read and lines[2].startswith(asked)
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
