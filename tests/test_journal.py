"""The journal cannot lose a line: odd characters stay inside their line, a torn tail is cut
back before anything is appended, a failed write leaves whole lines, a damaged line is named."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from voicegame.engine import journal
from voicegame.engine.journal import (JournalFile, append_journal, journal_line, journal_path, load_autosave,
                                      open_journal, read_journal, write_journal_line)

LINE_ENDS = ["\n", "\r", "\r\n", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029"]


def _autosave(tmp_path, log=()):
    path = tmp_path / "game.json"
    path.write_text(json.dumps({"settings": {"game": "wits", "lang": "en"}, "generation": "g1", "journal_seq": 0, "log": list(log)}), encoding="utf-8")
    return path


@pytest.mark.parametrize("end", LINE_ENDS)
def test_every_line_end_character_stays_inside_its_line(tmp_path, end):
    save = _autosave(tmp_path)
    texts = [f"red{end}seven", "blue four", f"{end}"]
    for i, text in enumerate(texts):
        append_journal(save, i, {"text": text}, "g1", i + 1)
    assert [e["text"] for e in load_autosave(save)["log"]] == texts
    assert journal_path(save).read_bytes().count(b"\n") == len(texts)


def test_a_torn_tail_is_cut_back_before_the_next_line_is_appended(tmp_path):
    save = _autosave(tmp_path)
    append_journal(save, 0, {"text": "one"}, "g1", 1)
    whole = journal_line(1, {"text": "two"}, "g1", 2)
    with journal_path(save).open("ab") as fh:
        fh.write(whole[: len(whole) // 2])  # killed mid-write
    append_journal(save, 1, {"text": "two again"}, "g1", 2)
    items, problems = read_journal(journal_path(save))
    assert problems == []
    assert [i["entry"]["text"] for i in items] == ["one", "two again"]
    assert [e["text"] for e in load_autosave(save)["log"]] == ["one", "two again"]


class _DiskFull:
    """A file object that writes half of what it is given, then fails like a full disk."""

    def __init__(self, fh):
        self.fh = fh

    def write(self, data):
        self.fh.write(data[: len(data) // 2])
        raise OSError(28, "No space left on device")

    def __getattr__(self, name):
        return getattr(self.fh, name)


def test_a_write_that_fails_half_way_leaves_only_whole_lines(tmp_path):
    save = _autosave(tmp_path)
    fh = open_journal(save)
    write_journal_line(fh, 0, {"text": "bet red two"}, "g1", 1)
    real = fh._fh
    fh._fh = _DiskFull(real)
    with pytest.raises(OSError):
        write_journal_line(fh, 1, {"text": "lost"}, "g1", 2)
    fh._fh = real
    write_journal_line(fh, 1, {"text": "bet blue three"}, "g1", 2)  # the disk has room again
    fh.close()
    assert [e["text"] for e in load_autosave(save)["log"]] == ["bet red two", "bet blue three"]


def test_a_damaged_line_in_the_middle_is_named_with_its_line(tmp_path):
    save = _autosave(tmp_path)
    for i, text in enumerate(["a", "b", "c"]):
        append_journal(save, i, {"text": text}, "g1", i + 1)
    path = journal_path(save)
    lines = path.read_bytes().split(b"\n")
    lines[1] = lines[1].replace(b'"b"', b'"x"')  # checksum no longer matches
    path.write_bytes(b"\n".join(lines))
    loaded = load_autosave(save)
    assert [e["text"] for e in loaded["log"]] == ["a"]  # never guesses past a gap
    problems = loaded["journal_problems"]
    assert any(f"{path}, line 2: damaged" in p for p in problems)
    assert any("missing" in p for p in problems)


def test_older_journals_without_checksums_still_load(tmp_path):
    save = _autosave(tmp_path)
    old = [json.dumps({"g": "g1", "n": n + 1, "i": n, "entry": {"text": t}}, ensure_ascii=False)
           for n, t in enumerate(["señal", "dos"])]
    journal_path(save).write_text("\n".join(old) + "\n", encoding="utf-8")
    assert [e["text"] for e in load_autosave(save)["log"]] == ["señal", "dos"]


def test_a_new_journal_is_private(tmp_path):
    save = _autosave(tmp_path)
    append_journal(save, 0, {"text": "x"}, "g1", 1)
    assert journal_path(save).stat().st_mode & 0o777 == 0o600


@settings(max_examples=60, deadline=None)
@given(st.lists(st.text(max_size=40), min_size=1, max_size=6))
def test_any_text_round_trips(tmp_path_factory, texts):
    save = _autosave(tmp_path_factory.mktemp("j"))
    fh = open_journal(save)
    for i, text in enumerate(texts):
        write_journal_line(fh, i, {"text": text}, "g1", i + 1)
    fh.close()
    assert [e["text"] for e in load_autosave(save)["log"]] == texts


@settings(max_examples=80, deadline=None)
@given(st.binary(max_size=300))
def test_any_bytes_in_a_journal_never_raise(tmp_path_factory, blob):
    folder = tmp_path_factory.mktemp("b")
    save = _autosave(folder)
    journal_path(save).write_bytes(blob)
    loaded = load_autosave(save)
    assert isinstance(loaded["log"], list)
    assert isinstance(JournalFile(journal_path(save)), JournalFile)  # opening cuts any torn tail
    assert journal_path(save).read_bytes().endswith(b"\n") or journal_path(save).read_bytes() == b""


def test_a_journal_line_the_disk_takes_only_part_of_is_finished_or_cut_back(tmp_path):
    """An unbuffered write may take part of a line and report it (a disk filling up); the rest
    is written, and when the disk refuses it the half line is cut back, so the next line is
    never glued onto it."""
    import errno

    from voicegame.engine.journal import JournalFile, journal_line, read_journal

    path = tmp_path / "save.json.journal"
    journal = JournalFile(path)
    journal.write(journal_line(0, {"text": "five"}))

    class Disk:  # takes 7 bytes of each write, then ``room`` more writes, then is full
        def __init__(self, fh, room):
            self.fh, self.room = fh, room

        def write(self, data):
            if self.room <= 0:
                raise OSError(errno.ENOSPC, "No space left on device")
            self.room -= 1
            return self.fh.write(bytes(data[:7]))

        def __getattr__(self, name):
            return getattr(self.fh, name)

    real = journal._fh
    journal._fh = Disk(real, room=1000)
    journal.write(journal_line(1, {"text": "six"}))  # in many short writes, all of it
    journal._fh = Disk(real, room=3)
    with pytest.raises(OSError):
        journal.write(journal_line(2, {"text": "seven"}))  # a few bytes taken, then the disk is full
    journal._fh = real
    journal.write(journal_line(2, {"text": "eight"}))  # space again
    journal.close()
    items, problems = read_journal(path)
    assert problems == [] and [i["entry"]["text"] for i in items] == ["five", "six", "eight"]
