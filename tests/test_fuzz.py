"""A seeded slice of the fuzz harness (tests/fuzz.py; the full run is scripts/fuzz.py):
random input in every listening moment of every game and the lobby, in en/es/nl, never
crashes a game and never breaks a record's arithmetic; a killed game resumes to the same record."""

from __future__ import annotations

import random

import pytest

from tests.fuzz import GAMES, LANGS, full_disk_and_resume, kill_and_resume, make_case, play


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game", GAMES)
def test_random_input_never_crashes_a_game(tmp_path, game, lang):
    for seed in (101, 202):
        outcome = play(make_case(game, lang, seed), tmp_path / str(seed))
        assert outcome.problems == [], (seed, outcome.problems, outcome.out[-1500:])


@pytest.mark.parametrize("game, seed", [("wits", 7), ("rofl", 8), ("wavelength", 9)])
def test_a_killed_fuzzed_game_resumes_to_the_same_record(tmp_path, game, seed):
    problems, resumed = kill_and_resume(make_case(game, "en", seed, length=80), tmp_path, random.Random(seed))
    assert problems == [] and resumed


@pytest.mark.parametrize("game, lang, seed, cut", [
    ("wavelength", "en", 10036, 62),  # a locked dial and its confirmation, then the kill
    ("wavelength", "en", 10183, 60),
    ("wits", "nl", 10074, 37),        # the uninterrupted game must not draw from the caller's bank position
])
def test_kills_that_once_differed_resume_to_the_same_record(tmp_path, game, lang, seed, cut):
    from voicegame.games.wits.deck import draw_questions, load_bank

    # the calling process has played Wits before: its own bank position is not at the start
    draw_questions(load_bank(None, "nl"), 14, "default:nl", rng=random.Random(seed))
    problems, resumed = kill_and_resume(make_case(game, lang, seed, length=100), tmp_path / "k", cut=cut)
    assert problems == [] and resumed


@pytest.mark.parametrize("game, lang, seed, full_at, free_at, cut", [
    ("wits", "en", 5, 10, 20, 21),
    ("wavelength", "nl", 7, 12, 30, 31),
])
def test_a_full_disk_mid_game_then_a_kill_loses_no_accepted_input(tmp_path, game, lang, seed, full_at, free_at, cut):
    """Every write fails (autosave, journal, record, log file) from input ``full_at`` to
    ``free_at``: the game goes on and says so once; killed just after, it resumes to the
    uninterrupted game's record (the first write after the full disk is the whole log)."""
    problems, resumed = full_disk_and_resume(make_case(game, lang, seed, length=100), tmp_path,
                                             full_at, free_at, cut)
    assert problems == [] and resumed


@pytest.fixture
def small_disk(tmp_path):
    """A real 1 MB tmpfs (needs the right to mount: root, as on the project's test machine)."""
    import subprocess

    mount = tmp_path / "disk"
    mount.mkdir()
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", str(mount)],
                      capture_output=True).returncode != 0:
        pytest.skip("cannot mount a tmpfs here (not root)")
    try:
        yield mount
    finally:
        subprocess.run(["umount", str(mount)], capture_output=True)


def test_a_real_full_disk_mid_game_then_a_kill_loses_no_accepted_input(tmp_path, small_disk):
    """The same on a real full file system: a journal line the disk cut short is never glued
    onto (an unbuffered write that took part of a line is finished or cut back)."""
    problems, resumed = full_disk_and_resume(make_case("rofl", "es", 6, length=100), tmp_path, 8, 15, 16,
                                             tmpfs=small_disk)
    assert problems == [] and resumed
