"""Prompts cut into clauses (a pure function), and the gapless queue that plays them.

The queue runs against a fake ``sounddevice`` whose output stream is pulled by the test,
block by block, as PortAudio's callback thread would: the samples that come out are exact.
"""

from __future__ import annotations

import sys

import numpy as np
import pytest

from voicegame.adapters.audio import Playback
from voicegame.language.clauses import clauses, sentences_and_clauses


# ---------------------------------------------------------------------- the splitter
@pytest.mark.parametrize("text, want", [
    ("Red team, turn the dial to where the target is.", ["Red team,", "turn the dial to where the target is."]),
    ("Round 3 is over; the scores are 7 to 5.", ["Round 3 is over;", "the scores are 7 to 5."]),
    ("Two teams: red and blue.", ["Two teams:", "red and blue."]),
    ("The target is hidden - spin the dial.", ["The target is hidden -", "spin the dial."]),
    ("Blue leads — by two points.", ["Blue leads —", "by two points."]),
    ("Blue leads—by two points.", ["Blue leads—", "by two points."]),
    ("Red team, spin the dial. Blue team, wait!", ["Red team,", "spin the dial.", "Blue team, wait!"]),
])
def test_english_sentences_are_cut_at_commas_semicolons_colons_and_dashes(text, want):
    assert clauses(text) == want


@pytest.mark.parametrize("text, want", [
    ("Yes, that is right.", ["Yes, that is right."]),  # no "Yes," alone
    ("Psychic, look at the target.", ["Psychic, look at the target."]),
    ("Three, two, one, go!", ["Three, two,", "one, go!"]),
    ("Turn the dial to the left, Ana.", ["Turn the dial to the left, Ana."]),  # a short last clause joins the one before
    ("Okay.", ["Okay."]),
])
def test_a_clause_of_one_word_is_joined_to_its_neighbour(text, want):
    assert clauses(text) == want


def test_the_shortest_clause_is_a_setting():
    assert clauses("Red team, turn the dial.", min_words=3) == ["Red team, turn the dial."]
    assert clauses("Yes, go.", min_words=1) == ["Yes,", "go."]


@pytest.mark.parametrize("text, want", [
    ("You have 1,500 points, Red team.", ["You have 1,500 points,", "Red team."]),
    ("Het is 3,5 graden, zegt hij.", ["Het is 3,5 graden,", "zegt hij."]),  # the decimal comma
    ("Scores 3-5, then 2–4 again.", ["Scores 3-5,", "then 2–4 again."]),  # ranges are no dashes
    ("Tenéis 1.500 puntos, equipo rojo.", ["Tenéis 1.500 puntos,", "equipo rojo."]),
])
def test_numbers_are_never_cut(text, want):
    assert clauses(text) == want


@pytest.mark.parametrize("text, want", [
    ('She said "lock it in, now" and left.', ['She said "lock it in, now" and left.']),
    ("The message was “left, right” twice.", ["The message was “left, right” twice."]),
    ("He said (quietly, slowly) go.", ["He said (quietly, slowly) go."]),
    ('An unclosed "quote, here it is.', ['An unclosed "quote,', "here it is."]),
])
def test_nothing_is_cut_inside_quotes_or_brackets(text, want):
    assert clauses(text) == want


def test_spanish_questions_exclamations_and_guillemets_stay_whole():
    assert sentences_and_clauses("¿Listos, equipo rojo? «Vale, sí», dijo: veintiún puntos.") == [
        ["¿Listos, equipo rojo?"], ["«Vale, sí»,", "dijo: veintiún puntos."]]
    assert clauses("¡Muy bien, equipo azul! Ahora, girad el dial.") == [
        "¡Muy bien, equipo azul!", "Ahora, girad el dial."]
    assert clauses("Equipo rojo, ¿estáis listos?") == ["Equipo rojo,", "¿estáis listos?"]


def test_dutch_quotes_and_punctuation():
    assert clauses("Goed zo, team blauw — nu tweeduizend punten.") == ["Goed zo,", "team blauw —",
                                                                      "nu tweeduizend punten."]
    assert clauses("Hij zegt „links, rechts” en 's avonds: niets meer.") == [
        "Hij zegt „links, rechts” en 's avonds:", "niets meer."]


def test_white_space_is_made_single_and_blank_text_has_no_clauses():
    assert clauses("  Red   team,\nturn  it. ") == ["Red team,", "turn it."]
    assert clauses("   ") == [] and sentences_and_clauses("") == []


def test_the_clauses_are_the_whole_text_in_order():
    text = "Red team, you said left; the target was right — so close. ¿Otra vez, sí? Yes, again: go!"
    assert " ".join(clauses(text)) == text


# ---------------------------------------------------------------------- the gapless queue
class _Stop(Exception):
    pass


class _Out:
    latency = 0.0

    def __init__(self, callback, finished_callback):
        self.callback, self.finished_callback = callback, finished_callback
        self.started = self.aborted = self.done = False

    def start(self):
        self.started = True

    def pull(self, frames: int) -> np.ndarray:
        """One block, as PortAudio asks for it."""
        out = np.full((frames, 1), 7, dtype=np.int16)  # junk the callback must overwrite
        try:
            self.callback(out, frames, None, None)
        except _Stop:
            self.done = True
            self.finished_callback()
        return out[:, 0].copy()

    def abort(self):
        self.aborted = True

    def close(self):
        pass


class LineDevice:
    """The part of ``sounddevice`` that :meth:`Playback.queue` uses."""

    CallbackStop = _Stop
    PortAudioError = OSError

    def __init__(self):
        self.streams: list[_Out] = []

    def OutputStream(self, samplerate, device, channels, dtype, callback, finished_callback):
        assert (channels, dtype) == (1, "int16")
        self.streams.append(_Out(callback, finished_callback))
        return self.streams[-1]


@pytest.fixture
def device(monkeypatch):
    fake = LineDevice()
    monkeypatch.setitem(sys.modules, "sounddevice", fake)
    return fake


def _piece(n: int, value: int) -> np.ndarray:
    return np.full(n, value, dtype=np.int16)


def test_queued_pieces_play_back_to_back_on_one_stream(device):
    playback = Playback()
    playback.queue(_piece(300, 1), 16000)
    first_until = playback.speaking_until()
    out = [device.streams[0].pull(256)]
    playback.queue(_piece(200, 2), 16000)  # made while the first plays
    playback.queue(_piece(100, 3), 16000)
    assert len(device.streams) == 1 and device.streams[0].started
    assert playback.speaking_until() == pytest.approx(first_until + 300 / 16000)
    out += [device.streams[0].pull(256) for _ in range(3)]
    sound = np.concatenate(out)
    assert sound[:600].tolist() == [1] * 300 + [2] * 200 + [3] * 100  # no gap, nothing lost
    assert not sound[600:].any() and device.streams[0].done  # then silence, and the stream ends
    assert playback.reference(first_until - 300 / 16000, 600)[:590].min() > 0  # the echo reference is whole
    playback.queue(_piece(100, 4), 16000)  # after the end: a new stream
    assert len(device.streams) == 2


def test_a_stop_inside_a_piece_drops_the_queued_rest(device):
    playback = Playback()
    playback.queue(_piece(300, 1), 16000)
    playback.queue(_piece(300, 2), 16000)
    head = device.streams[0].pull(256)
    playback.stop()  # a player cut in
    assert device.streams[0].aborted and not device.streams[0].pull(256).any()
    assert head.tolist() == [1] * 256
    playback.wait()
    assert playback.speaking_until() is None


def test_a_piece_at_another_rate_waits_for_the_stream_before_it(device):
    playback = Playback()
    playback.queue(_piece(100, 1), 16000)
    device.streams[0].pull(128)  # ran short: the stream ends
    playback.queue(_piece(100, 2), 22050)
    assert len(device.streams) == 2
