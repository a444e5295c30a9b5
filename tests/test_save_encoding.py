"""The saves encoded in parts (group 3's fixes, docs/performance.md section 3) are byte for byte
what encoding them whole gives: the autosave and record JSON (``Recorder.save_text`` /
``record_text``: ``ListJson``, ``dict_json``) and the hosts' snapshots (``SnapshotMemo``)."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

import pytest

from voicegame import bench
from voicegame.engine import journal
from voicegame.engine.journal import ListJson, dict_json, to_json
from voicegame.engine.snapshot import SnapshotMemo


def test_list_json_equals_to_json_through_appends_changes_cuts_and_replacements():
    log: list[dict] = []
    enc = ListJson()
    seen = []

    def check():
        text = enc.encode(log)
        assert text == to_json(log)
        seen.append(text)

    check()  # empty
    for i in range(6):
        log.append({"text": f"één {i}", "accepted": False, "alternatives": [], "confidence": 0.5 + i / 10})
        check()
        log[-1]["accepted"] = True  # the newest entry changes after it was saved once
        log[-1]["intent"] = {"type": "int", "args": i}
        check()
    log.pop()  # a crash's unaccepted input, or a record input taken back
    check()
    log[2] = {"text": "replaced", "accepted": True}  # another object at an older index
    check()
    del log[3:]  # cut (quit)
    check()
    log.append({"text": None, "elapsed": 1.5})
    check()
    log[0]["accepted"] = False  # an older entry changed after all: saved as it is now
    log[1]["speaker"] = "red"
    check()
    assert len(set(seen)) > 10


def test_dict_json_equals_to_json_with_known_parts():
    data = {"format": "x/1", "settings": {"lang": "es", "options": {"deck": ["ñ", 1.25, None]}},
            "log": [{"a": True}], "state": None, "finished": False}
    known = {"settings": to_json(data["settings"]), "log": to_json(data["log"])}
    assert dict_json(data, known) == to_json(data)
    assert dict_json(data, {}) == to_json(data)
    assert dict_json({}, {}) == to_json({})
    with pytest.raises(TypeError):
        dict_json({1: "a"}, {})


@dataclass(frozen=True)
class _Leaf:
    value: int
    names: tuple[str, ...] = ()


@dataclass(frozen=True)
class _Result:
    number: int
    guesses: dict  # a dict in a frozen dataclass: may change, so never kept
    leaves: tuple[_Leaf, ...]


@dataclass
class _Open:
    score: int
    history: tuple[_Result, ...] = ()
    notes: list = field(default_factory=list)


def test_snapshot_memo_equals_asdict_and_sees_every_change():
    memo = SnapshotMemo()
    state = _Open(0)
    for n in range(1, 5):
        result = _Result(n, {"red": n}, tuple(_Leaf(i, ("a", "b")) for i in range(3)))
        state.history += (result,)
        state.score += n
        state.notes.append(n)
        assert memo.asdict(state) == dataclasses.asdict(state)
        assert to_json(memo.asdict(state)) == to_json(dataclasses.asdict(state))
    state.history[0].guesses["red"] = 99  # a dict inside a frozen instance changed in place
    state.notes[0] = "changed"
    assert memo.asdict(state) == dataclasses.asdict(state)
    assert memo.asdict(state)["history"][0]["guesses"] == {"red": 99}
    leaf = state.history[1].leaves[0]
    assert memo.asdict(leaf) is memo.asdict(leaf)  # a frozen instance of frozen values: kept
    holder = _Open(1, notes=[(1, 2), ([3],)])  # a tuple holding a list may change: never kept
    assert memo.asdict(holder) == dataclasses.asdict(holder)
    holder.notes[1][0].append(4)
    assert memo.asdict(holder) == dataclasses.asdict(holder) and memo.asdict(holder)["notes"][1] == ([3, 4],)
    with pytest.raises(TypeError):
        memo.asdict({"not": "a dataclass"})


def test_snapshot_memo_restarts_beyond_its_limit():
    memo = SnapshotMemo(limit=3)
    leaves = [_Leaf(i) for i in range(10)]
    for leaf in leaves:
        assert memo.asdict(leaf) == dataclasses.asdict(leaf)
    assert len(memo._memo) <= 4


@pytest.mark.parametrize("script", ["wits_es.txt", "rofl_es.txt", "wavelength_es.txt", "wits_full.txt"])
def test_every_save_of_a_golden_game_is_what_encoding_it_whole_gives(script, tmp_path, monkeypatch):
    """Whole golden games with undos (replays: new tables, cut logs): at every phase save the
    autosave and record texts equal ``to_json`` of the same live data, and every snapshot
    equals ``dataclasses.asdict``."""
    checked = {"save": 0, "record": 0, "snapshot": 0}
    save_text, record_text, memo_asdict = (journal.Recorder.save_text, journal.Recorder.record_text,
                                           SnapshotMemo.asdict)

    def checked_save(self, save):
        text = save_text(self, save)
        assert text == to_json(save)
        checked["save"] += 1
        return text

    def checked_record(self):
        text = record_text(self)
        assert text == to_json(self.record)
        checked["record"] += 1
        return text

    def checked_asdict(self, obj):
        data = memo_asdict(self, obj)
        assert data == dataclasses.asdict(obj) and to_json(data) == to_json(dataclasses.asdict(obj))
        checked["snapshot"] += 1
        return data

    monkeypatch.setattr(journal.Recorder, "save_text", checked_save)
    monkeypatch.setattr(journal.Recorder, "record_text", checked_record)
    monkeypatch.setattr(SnapshotMemo, "asdict", checked_asdict)
    path = bench.SCRIPTS_DIR / script
    game = script.split("_")[0]
    with bench._quiet_data_dir(tmp_path):
        argv, _ = bench.script_argv(path, tmp_path)
        outcome, probe = bench.play_scripted(game, argv, path, tmp_path)
    assert outcome == "finished"
    assert probe.undone, "the script undoes a step (a replay into a new table)"
    assert min(checked.values()) > 5, checked


def test_plain_data_is_asdict_and_shares_nothing():
    from voicegame.engine.session import Settings
    from voicegame.engine.snapshot import plain_data

    settings = Settings("rofl", "es", 3, options={"deck_cards": [["book", "Cien años", 13]], "players": ("a", "b")},
                        record="r.json")
    first, second = plain_data(settings), plain_data(settings)
    assert first == dataclasses.asdict(settings) and to_json(first) == to_json(dataclasses.asdict(settings))
    first["options"]["deck_cards"][0][0] = "changed"
    assert settings.options["deck_cards"][0][0] == "book" and second["options"]["deck_cards"][0][0] == "book"
    # one frozen instance twice in the object: two dicts, as asdict gives (changing one leaves the other)
    @dataclass(frozen=True)
    class Pair:
        left: _Leaf
        right: _Leaf

    leaf = _Leaf(1, ("a",))
    pair = plain_data(Pair(leaf, leaf))
    pair["left"]["value"] = 2
    assert pair["right"]["value"] == 1
    recorder = journal.Recorder(settings, journal.NoStorage(), lambda exc: None)
    recorder.record["settings"]["options"]["players"] = ["x"]  # the record's copy is its own
    assert recorder._settings_dict["options"]["players"] == ("a", "b")


def test_wavelength_deck_kept_until_the_file_changes(tmp_path):
    import os

    from voicegame.games.decks import DeckError
    from voicegame.games.wavelength.deck import load_deck

    deck = tmp_path / "deck.txt"
    deck.write_text("everyday | hot | cold | wet | dry\n", encoding="utf-8")
    first = load_deck(deck)
    first.append("not a card")  # the caller's own list
    assert [c.sides for c in load_deck(deck)] == [(("hot", "cold"), ("wet", "dry"))]
    stat = deck.stat()
    deck.write_text("everyday | big | tiny | wet | dry\n", encoding="utf-8")  # same size
    os.utime(deck, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000))
    assert [c.sides for c in load_deck(deck)] == [(("big", "tiny"), ("wet", "dry"))]
    deck.write_text("everyday | big | tiny | wet | dry\nodd | up | down | in | out\n", encoding="utf-8")
    assert len(load_deck(deck)) == 2
    other = tmp_path / "other.txt"
    other.write_text("odd | sun | moon | day | night\n", encoding="utf-8")
    assert load_deck(other)[0].sides[0] == ("sun", "moon")
    deck.write_text("everyday | same | same | wet | dry\n", encoding="utf-8")
    with pytest.raises(DeckError):
        load_deck(deck)
    with pytest.raises(DeckError):
        load_deck(deck)  # an error is never kept as a deck
