"""The spoken lobby, set-up by voice and kiosk mode (issue 6): golden tours through
`voicegame kiosk`, resume offers, idle tables, settings saved by voice, the lobby's
understanding, the configuration file and the systemd unit."""

from __future__ import annotations

import configparser
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.playthrough import SCRIPTS, check_golden, run_cli
from voicegame import config as kiosk_config
from voicegame import prompts as prompts_module
from voicegame.host import rofl, wavelength, wits
from voicegame.kiosk import Setup, build_settings, replayable, timer_for
from voicegame.prompts import Prompts
from voicegame.storage import data_dir, read_json
from voicegame.understanding import understanding
from voicegame.understanding.lobby import OptionChange, lobby_understanding

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
    assert "Wavelength, Wits and Wagers, and ROFL" in said[0]
    assert said[-2].startswith("Back in the lobby.")
    assert said[-1] == "The input has ended, so the lobby closes. Goodbye!"
    # four games were played to the end: Wits, Wits again (stopped and resumed), ROFL, Wavelength
    recs = records()
    assert [r["game"] for r in recs] == ["wits", "wits", "rofl", "wavelength"]
    assert all(r["finished"] for r in recs)
    assert not unfinished_autosaves()
    first, again, rofl_rec, wl = recs
    assert first["settings"]["options"]["players"] == ["red", "orange"] == again["settings"]["options"]["players"]
    assert first["settings"]["options"]["count"] == 2 == len(first["turns"]) == len(again["turns"])
    # "play again" draws new questions and a new seed
    assert {t["id"] for t in first["turns"]}.isdisjoint({t["id"] for t in again["turns"]})
    assert first["seed"] != again["seed"]
    assert first["chips"] == {"red": 23, "orange": 9} and again["chips"] == {"red": 33, "orange": 4}
    # the stopped game was resumed into the same autosave and record: its inputs have no "stop"
    assert all(i["text"] != "stop" for i in again["inputs"])
    assert rofl_rec["settings"]["options"]["players"] == ["red", "orange", "yellow"]
    assert rofl_rec["settings"]["options"]["lenient"] is True
    assert rofl_rec["winners"] == ["red"]
    assert sum(a["amount"] for a in rofl_rec["awards"] if a["to"] == "red") == 17
    assert wl["settings"]["options"]["coop"] is True and wl["settings"]["options"]["players"] == [4]
    assert wl["standings"] == [{"name": wl["teams"][0], "points": 25}]
    # slower and softer, said in the lobby, are in the configuration file
    saved = kiosk_config.load()
    assert (saved.rate_wpm, saved.volume, saved.lang) == (155, 0.9, "en")


def test_not_understood_in_the_lobby_gets_the_list_of_games_each_time(tmp_path):
    script = write_script(tmp_path, "lobby", ["banana", "hello", "what is the time", "what can we play"])
    # "what is" asks for rules only with a game's name
    status, out, _ = kiosk(script)
    said = host_lines(out)
    games = "The games are Wavelength, Wits and Wagers, and ROFL."
    for heard in ("banana", "hello", "what is the time"):
        sentence = next(s for s in said if s.startswith(f'I heard "{heard}"'))
        assert games in sentence
    assert said[-2].startswith(games)
    assert status == 0


# --------------------------------------------------------------------------- set-up by voice


def test_three_answers_start_a_game(tmp_path):
    script = write_script(tmp_path, "three", ["let's play wits and wagers", "three", "yes", "start"])
    status, out, _ = kiosk(script)
    said = host_lines(out)
    assert "3 players." in said
    assert "Seat order: red, orange and yellow." in said
    assert "Starting Wits and Wagers for red, orange and yellow, with a 30-second timer and 7 questions." in said
    assert any(s.startswith("Welcome to Wits and Wagers! Players: red, orange and yellow.") for s in said)
    assert status == 0


def test_three_silences_at_every_setup_question_take_the_defaults_and_say_so(tmp_path):
    script = write_script(tmp_path, "silent", ["let's play rofl"] + ["<silence>"] * 9)
    status, out, _ = kiosk(script)
    said = host_lines(out)
    assert "I didn't hear an answer, so I'll use the default: 4 players." in said
    assert "I didn't hear an answer, so I'll use the default colours: red, orange, yellow and green." in said
    assert "I didn't hear an answer, so we start with these settings." in said
    assert "Starting ROFL for red, orange, yellow and green, with a 30-second timer." in said
    assert said.count("I didn't hear anything. Please say it again.") == 6  # two per question
    assert any(s.startswith("Welcome to ROFL!") for s in said)
    assert status == 0


def test_wavelength_mode_silences_default_to_two_teams_and_colours_can_be_said(tmp_path):
    script = write_script(tmp_path, "wl", ["wavelength", "<silence>", "<silence>", "<silence>",
                                           "blue blue", "green", "blue and pink", "play to five points",
                                           "six players", "start"])
    status, out, _ = kiosk(script)
    said = host_lines(out)
    assert "I didn't hear an answer, so I'll use the default: two teams." in said
    assert "The teams will be red and orange, and red starts. Say yes, or say two other colours." in said
    assert "I heard blue twice: everyone needs a different colour." in said
    assert "Wavelength needs two different colours, one for each team." in said
    assert "The teams are blue and pink; blue starts." in said
    assert "Starting Wavelength for blue and pink, with 6 players and a target of 5 points." in said
    assert any(s.startswith("Welcome to Wavelength! Two teams, blue and pink") for s in said)
    assert status == 0


def test_quit_during_setup_goes_back_to_the_lobby_and_quit_in_the_lobby_asks_first(tmp_path):
    script = write_script(tmp_path, "quit", ["rofl", "quit", "quit", "no", "stop", "yes", "wavelength"])
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
    assert "Seat order: green, blue and red." in said
    assert "Starting ROFL for green, blue and red, with no timer, hard mode and your own messages." in said
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
    assert host_lines(out2)[0] == ("I found an unfinished game. Resume the Wits and Wagers game from question 1? "
                                   "Say yes or no.")
    resumed = records()[0]
    assert resumed["finished"] and not unfinished_autosaves()
    # the same inputs in one uninterrupted kiosk session give the same game
    whole = script_lines(part1) + script_lines(part2)[2:]
    monkeypatch.setenv("VOICEGAME_DATA_DIR", str(tmp_path / "fresh"))
    status, _, _ = kiosk(write_script(tmp_path, "whole", whole), seed=5)
    other = records()[0]
    assert other["finished"] and other["chips"] == resumed["chips"] == {"red": 9, "orange": 0}
    assert other["inputs"] == resumed["inputs"]


def test_a_declined_offer_keeps_the_game_and_resume_in_the_lobby_offers_it_again(tmp_path):
    kiosk(SCRIPTS / "kiosk_power_cut_1.txt", seed=5)
    script = write_script(tmp_path, "declined", ["no", "resume", "yes", "both on 700", "both on too high", "no",
                                                 "lobby", "resume"])
    status, out, _ = kiosk(script, seed=5)
    said = host_lines(out)
    assert said[1] == "All right. The game stays saved: say resume whenever you want to continue it."
    assert said[2].startswith("Hello, I'm your game host!")
    assert said[3] == "Resume the Wits and Wagers game from question 1? Say yes or no."
    assert "Red wins with 9 chips! Congratulations!" in said
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
    assert said[idle + 3] == "Resume the Wits and Wagers game from question 1? Say yes or no."
    assert "Red wins with 9 chips! Congratulations!" in said
    recs = records()
    assert len(recs) == 1 and recs[0]["finished"] and recs[0]["settings"]["idle_s"] == 30.0
    assert status == 0


def test_replayable_drops_only_the_trailing_silences():
    heard = {"text": "700"}
    silence = {"text": None}
    assert replayable([heard, silence, heard, silence, silence]) == [heard, silence, heard]
    assert replayable([silence]) == []
    assert replayable([]) == []


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


def test_a_malformed_config_is_said_the_defaults_are_used_and_the_file_is_kept(tmp_path):
    path = kiosk_config.config_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("rate_wpm = 175\nvolume = \n", encoding="utf-8")
    script = write_script(tmp_path, "bad", ["slower"])
    status, out, err = kiosk(script)
    said = host_lines(out)
    assert said[0].startswith("The settings file can't be read, so I'm using the default settings:")
    assert str(path) in said[0]
    assert "I couldn't write the settings file, so this lasts only until I restart." in said
    assert path.read_text(encoding="utf-8") == "rate_wpm = 175\nvolume = \n"
    assert status == 0


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
    lobby.write_text(lobby.read_text(encoding="utf-8").replace('greeting = "¡Hola!', 'greeting = "HOLA. ¡Hola!'),
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


def test_voicegame_without_arguments_starts_the_lobby(monkeypatch):
    from voicegame import models
    from voicegame.adapters import audio
    from voicegame.ports import DeviceError

    def no_speaker(device=None):
        raise DeviceError("No speaker found.")

    monkeypatch.setattr(models, "find_model", lambda *a, **k: None)
    monkeypatch.setattr(audio, "require_output", no_speaker)
    status, out, _ = run_cli([], stdin_text="quit\nyes\n")
    assert "No speaker found. Printing the host's words instead." in out
    said = host_lines(out)
    assert said[0].startswith("Hello, I'm your game host!")
    assert said[-1] == "Goodbye, and thanks for playing!"
    assert status == 0


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
    ("rules of wavelength", "rules", "wavelength", None),
    ("how do you play wits and wagers", "rules", "wits", None),
    ("rules", "rules_which", None, None),
    ("what can we play", "list", None, None),
])
def test_lobby_phrases(text, kind, game, count):
    intent = lobby_understanding("en").lobby(text)
    assert (intent.kind, intent.game, intent.count) == (kind, game, count)


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
    assert w.timer_s is None and len(w.options["question_set"]) == 2
    # a resumed game's settings give back the same set-up ("play again")
    assert Setup.from_settings(w, 30.0) == Setup("wits", players=["red", "orange"], timer="off", number=2)
    assert Setup.from_settings(wl, 30.0).headcount == 5
    assert timer_for("normal", None) is None and timer_for("relaxed", None) == 60.0


@pytest.mark.parametrize("body, words", [
    ("rate_wpm = 500\n", "rate_wpm must be from 80 to 300"),
    ("volume = 0.05\n", "volume must be from 0.2 to 1"),
    ('timer = "soon"\n', "timer must be a number of seconds"),
    ('private = "telepathy"\n', "private must be"),
    ("idle_minutes = -1\n", "idle_minutes must be from 0"),
    ("rate_wpm = \"fast\"\n", "rate_wpm should be like 175"),
    ("lang = [\n", "config.toml"),
])
def test_config_errors_name_the_file_and_key(tmp_path, body, words):
    path = tmp_path / "config.toml"
    path.write_text(body, encoding="utf-8")
    with pytest.raises(kiosk_config.ConfigError) as caught:
        kiosk_config.load(path=path)
    assert words in str(caught.value) and str(path) in str(caught.value)


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
    from voicegame.kiosk import Kiosk, Ports

    out = io.StringIO()
    k = Kiosk(Ports(_NoRoflModel(known_rofl_phrase), TextVoice(out), VirtualClock()), kiosk_config.Config(), None)
    missing = k.check_vocabulary()
    assert "rofl" in missing and "español" in missing
    assert "lobby words missing from the speech model" in caplog.text
    said = host_lines(out.getvalue())
    assert bool(said) is spoken
    if spoken:
        assert said[0].startswith("Note: the speech model does not know these words") and "rofl" in said[0]
