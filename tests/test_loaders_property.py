"""Every file the appliance reads, fed arbitrary bytes and arbitrary shapes (hypothesis):
``config.toml``, the Wavelength deck, the ROFL! message deck, the Wits question banks (CSV
and TOML) and a script (``--input PATH``: encodings, byte-order marks, odd characters).
A loader returns what it promises or raises the project's own error naming the file;
through the command line the same files give one sentence naming the file, never a
traceback. (The prompts are package data: no user file overrides them.)"""

from __future__ import annotations

import math
import tomllib

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.playthrough import run_cli
from voicegame import config as kiosk_config
from voicegame.adapters.headless import ScriptError, read_script
from voicegame.games.decks import DeckError
from voicegame.games.rofl.deck import load_deck as load_rofl_deck
from voicegame.games.wavelength.deck import load_deck as load_wavelength_deck
from voicegame.games.wits.deck import load_bank

ENCODINGS = ["utf-8", "utf-8-sig", "utf-16", "utf-16-le", "utf-16-be", "utf-32", "latin-1", "cp1252"]
#: characters that have broken parsers before: line and paragraph separators, NUL, BOMs, RTL
#: marks, combining accents, superscript and circled digits, full-width, emoji, surrogates' neighbours
ODD = "\u2028\u2029\x85\x0c\x0b\x00\ufeff\u200f\u202e\u0301²③１🙂\uffff|,#=\"'[]{}\\"
odd_text = st.text(st.characters(codec="utf-8") | st.sampled_from(list(ODD)), max_size=40)


def encoded(texts) -> st.SearchStrategy[bytes]:
    """Text of ``texts`` in any of :data:`ENCODINGS` (unencodable characters replaced)."""
    return st.tuples(texts, st.sampled_from(ENCODINGS)).map(lambda p: p[0].encode(p[1], errors="replace"))


def lines_of(field: st.SearchStrategy[str], sep: str, fields=(1, 7)) -> st.SearchStrategy[str]:
    """Lines of ``fields`` fields joined by ``sep``, some comments and blank lines among them."""
    line = st.lists(field, min_size=fields[0], max_size=fields[1]).map(sep.join)
    return st.lists(line | st.sampled_from(["", "# a comment", "   "]), max_size=8).map("\n".join)


toml_scalar = (st.integers(min_value=-(2 ** 63), max_value=2 ** 63 - 1) | st.floats() | st.booleans() | odd_text)
toml_value = st.recursive(toml_scalar, lambda inner: st.lists(inner, max_size=3), max_leaves=6)


def toml_doc(keys: list[str]) -> st.SearchStrategy[str]:
    """A TOML document with keys from ``keys`` (and others) and values of any type."""
    key = st.sampled_from(keys) | st.from_regex(r"[a-z_]{1,10}", fullmatch=True)
    return st.dictionaries(key, toml_value, max_size=6).map(kiosk_config.toml_document)


def any_bytes(shaped: st.SearchStrategy[str]) -> st.SearchStrategy[bytes]:
    """Plain random bytes, or a nearly right file in any encoding."""
    return st.binary(max_size=400) | encoded(shaped) | encoded(odd_text)


def file_with(tmp_path_factory, name: str, data: bytes):
    path = tmp_path_factory.mktemp("f") / name
    path.write_bytes(data)
    return path


SETTINGS = settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])

CONFIG_KEYS = ["lang", "rate_wpm", "volume", "input_device", "output_device", "private", "timer", "barge_in"]
card_field = st.sampled_from(["spectrum", "hot", "cold", "good", "bad", "region = es-419", ""]) | odd_text
wits_field = st.sampled_from(["id", "question", "answer", "unit", "source", "year", "q1", "42", "1e400",
                              "9" * 400, "nan", "-0", "²", ""]) | odd_text


@SETTINGS
@given(any_bytes(toml_doc(CONFIG_KEYS)))
def test_any_config_file_loads_or_is_named_in_a_config_error(tmp_path_factory, data):
    path = file_with(tmp_path_factory, "config.toml", data)
    try:
        config = kiosk_config.load(path=path)
    except kiosk_config.ConfigError as exc:
        assert str(path) in str(exc)
    else:
        assert isinstance(config, kiosk_config.Config)
        kiosk_config.check(config, path)  # what it loaded is what it accepts


@SETTINGS
@given(any_bytes(lines_of(card_field, " | ")))
def test_any_wavelength_deck_loads_or_is_named_in_a_deck_error(tmp_path_factory, data):
    path = file_with(tmp_path_factory, "deck.txt", data)
    try:
        cards = load_wavelength_deck(path)
    except DeckError as exc:
        assert str(path) in str(exc)
    else:
        assert cards and all(c.left1 and c.right1 for c in cards)


@SETTINGS
@given(any_bytes(lines_of(card_field, " | ")))
def test_any_rofl_deck_loads_or_is_named_in_a_deck_error(tmp_path_factory, data):
    path = file_with(tmp_path_factory, "messages.txt", data)
    try:
        cards = load_rofl_deck(path, every_region=True)
    except DeckError as exc:
        assert str(path) in str(exc)
    else:
        assert cards


def _check_bank(path) -> None:
    try:
        bank = load_bank(path)
    except DeckError as exc:
        assert str(path) in str(exc)
    else:
        assert bank and all(math.isfinite(q.answer) and abs(q.answer) <= 10 ** 15 for q in bank)


@SETTINGS
@given(any_bytes(lines_of(wits_field, ",", fields=(1, 8)).map(lambda t: "id,question,answer,unit,source,year\n" + t)))
def test_any_csv_question_bank_loads_or_is_named_in_a_deck_error(tmp_path_factory, data):
    _check_bank(file_with(tmp_path_factory, "bank.csv", data))


question_entry = st.dictionaries(st.sampled_from(["id", "question", "answer", "unit", "source", "year", "odd"]),
                                 toml_value | wits_field, max_size=7)


def _bank_toml(entries: list[dict]) -> str:
    return "\n".join("[[question]]\n" + kiosk_config.toml_document(e) for e in entries)


@SETTINGS
@given(any_bytes(st.lists(question_entry, max_size=4).map(_bank_toml)))
def test_any_toml_question_bank_loads_or_is_named_in_a_deck_error(tmp_path_factory, data):
    _check_bank(file_with(tmp_path_factory, "bank.toml", data))


@SETTINGS
@given(any_bytes(lines_of(odd_text, " ", fields=(1, 3))))
def test_any_script_reads_or_is_named_in_a_script_error(tmp_path_factory, data):
    path = file_with(tmp_path_factory, "script.txt", data)
    try:
        lines = read_script(path)
    except ScriptError as exc:
        assert str(path) in str(exc)
    else:
        assert all(isinstance(n, int) and isinstance(t, str) and "\n" not in t for n, t in lines)


def test_the_toml_writer_of_these_tests_writes_toml():
    """The generated documents are TOML (else the config test would only test syntax errors)."""
    doc = kiosk_config.toml_document({"lang": "es", "volume": 0.5, "odd": ["a\u2028b", 3]})
    assert tomllib.loads(doc)["odd"] == ["a\u2028b", 3]


# ------------------------------------------------------------------ the same files through the command line
BAD = {
    "binary": b"\x00\xff\xfe\x81" * 20,
    "utf16": "kind | a | b | c | d\n".encode("utf-16"),
    "latin1": "spectrum | caf\xe9 | th\xe9 | x | y\n".encode("latin-1"),
    "separators": "spectrum | hot\u2028cold | x | y\n".encode("utf-8"),
    "toml": b"[[question]]\nid = 3\nanswer = 1e400\n",
    "empty": b"",
}


@pytest.mark.parametrize("kind", sorted(BAD))
@pytest.mark.parametrize("argv, name", [
    (["play", "wavelength", "--deck"], "deck.txt"),
    (["play", "rofl", "--deck"], "messages.txt"),
    (["play", "wits", "--questions"], "bank.csv"),
    (["play", "wits", "--questions"], "bank.toml"),
    (["play", "wits", "--input"], "script.txt"),
])
def test_a_bad_file_on_the_command_line_is_one_sentence_naming_it(tmp_path, kind, argv, name):
    path = tmp_path / name
    path.write_bytes(BAD[kind])
    empty = tmp_path / "empty-script.txt"
    empty.write_text("")
    extra = [] if argv[-1] == "--input" else ["--input", str(empty)]
    status, out, err = run_cli([*argv, str(path), *extra, "--output", "text"],
                               environ={"VOICEGAME_DATA_DIR": str(tmp_path / "data")})
    assert "Traceback" not in out + err and "went wrong" not in out
    refused = {"binary", "utf16", "latin1"} | (set() if argv[-1] == "--input" else {"empty"})
    if kind in refused:
        assert status == 2 and str(path) in err and len(err.strip().splitlines()) == 1, err
    elif status != 0:  # a file of the wrong shape: named too
        assert str(path) in err and len(err.strip().splitlines()) == 1, err


@pytest.mark.parametrize("kind", sorted(BAD))
def test_a_bad_kiosk_config_is_said_and_the_kiosk_starts_with_the_defaults(tmp_path, kind):
    config = tmp_path / "config.toml"
    config.write_bytes(BAD[kind])
    script = tmp_path / "script.txt"
    script.write_text("switch off\nyes\n")
    status, out, err = run_cli(["kiosk", "--config", str(config), "--input", str(script), "--output", "text"],
                               environ={"VOICEGAME_DATA_DIR": str(tmp_path / "data"),
                                        "VOICEGAME_CONFIG_DIR": str(tmp_path)})
    assert status == 0 and "Traceback" not in out + err
    if kind not in ("empty", "toml"):  # a valid TOML file of unknown keys is kept as it is
        assert str(config) in err
