"""Devices come and go (issue 13): a speaker that disappears while the host speaks pauses the
game (said on stderr and the screen's captions), is checked again on the table's clock, and
the game goes on from the sentence it was saying, nothing lost; the same in the lobby; a
microphone lost in the lobby waits for it. The speaker is a fake ``sounddevice``
(tests/fake_sounddevice.py) under the real espeak-ng voice."""

from __future__ import annotations

import json
import logging
import sys

import pytest

from tests.fake_sounddevice import FakeSoundDevice, mic, speaker
from tests.test_table import Counter, Pairs
from voicegame import config as kiosk_config
from voicegame.adapters.headless import ScriptListener, VirtualClock
from voicegame.adapters.tts import Pyttsx3Voice
from voicegame.engine.observer import Caption, Observers
from voicegame.engine.table import DEVICE_POLL_S, Session, Settings
from voicegame.language.prompts import Prompts
from voicegame.lobby.host import Kiosk
from voicegame.ports import DeviceError, Ports

GONE_S = 20.0


class Room:
    """A fake sound card whose speaker is unplugged for :data:`GONE_S` seconds of the clock
    from the moment :meth:`unplug` is called."""

    def __init__(self, clock: VirtualClock):
        self.clock, self.gone_at = clock, None
        self.sd = FakeSoundDevice(self.devices, default_input=0, default_output=1)

    def devices(self) -> list[dict]:
        present = self.gone_at is None or self.clock.now() >= self.gone_at + GONE_S
        return [mic(0, "USB Mic")] + ([speaker(1, "USB Speaker")] if present else [])

    def unplug(self) -> None:
        self.gone_at = self.clock.now()


class Unplugging(ScriptListener):
    """A script that unplugs the speaker just before it answers ``at`` (1-based)."""

    def __init__(self, lines, clock, room: Room, at: int):
        super().__init__([(i + 1, line) for i, line in enumerate(lines)], clock=clock)
        self.room, self.at, self.count = room, at, 0

    def listen(self, expected, timeout_s):
        self.count += 1
        if self.count == self.at:
            self.room.unplug()
        return super().listen(expected, timeout_s)


@pytest.fixture
def room(monkeypatch):
    clock = VirtualClock()
    found = Room(clock)
    monkeypatch.setitem(sys.modules, "sounddevice", found.sd)
    return found


def spoken_captions(captions: list[Caption], lang: str = "en") -> list[str]:
    """The captions of sentences the host spoke (not the device notices, which are only shown)."""
    prompts = Prompts.load(lang)
    notices = {prompts.text("common.speaker_lost"), prompts.text("common.speaker_back")}
    return [c.text for c in captions if c.text not in notices]


def test_a_lost_speaker_pauses_the_game_which_goes_on_from_that_sentence(room, tmp_path, caplog):
    clock = room.clock
    captions: list[Caption] = []
    observers = Observers()
    observers.subscribe(lambda e: captions.append(e) if isinstance(e, Caption) else None)
    settings = Settings("toy", record=str(tmp_path / "rec.json"), autosave=str(tmp_path / "save.json"))
    listener = Unplugging(["five", "six", "seven"], clock, room, at=2)
    with caplog.at_level(logging.WARNING, logger="voicegame"):
        outcome = Session(Counter, listener, Pyttsx3Voice("en"), clock, settings, observers=observers).run()
    assert outcome == "finished"
    record = json.loads((tmp_path / "rec.json").read_text())
    assert [i["text"] for i in record["inputs"]] == ["five", "six", "seven"]
    assert sum(a["amount"] for a in record["awards"]) == 18
    lost = Prompts.load("en").text("common.speaker_lost")
    assert [c.text for c in captions].count(lost) == 1  # shown once on the screen, not at every check
    assert sum("speaker lost" in r.getMessage() for r in caplog.records) == 1  # and once on stderr / the log
    assert clock.now() >= GONE_S  # the game waited on the table's clock
    # every sentence the host captioned was played, the one the loss cut included: nothing skipped
    assert len(room.sd.played) == len(spoken_captions(captions))
    assert spoken_captions(captions)[-1] == "final total 18"


def test_a_lost_speaker_during_a_game_timer_does_not_eat_the_timer(room, tmp_path):
    """The speaker lost while the timer is announced: the game waits for it, then the timer
    runs its full time (only listening counts against it)."""
    from voicegame.engine.observer import Timer
    from voicegame.engine.table import Table

    clock = room.clock
    bus, timers = Observers(), []
    bus.subscribe(lambda e: timers.append((clock.now(), e.left_s, e.running)) if isinstance(e, Timer) else None)
    settings = Settings("toy", idle_s=100.0, timer_s=30.0, record=str(tmp_path / "rec.json"),
                        autosave=str(tmp_path / "s.json"))
    table = Table(ScriptListener([(1, "<silence>"), (2, "<silence>")], clock=clock), Pyttsx3Voice("en"), clock, settings,
                  observers=bus)
    room.unplug()
    table.run_timer("common.help_ready")
    assert clock.now() >= GONE_S + 30.0  # waited for the speaker, then the whole 30 s
    started_at = timers[0][0]
    assert timers[0][1:] == (30.0, True) and started_at >= GONE_S  # the timer starts once the speaker is back
    assert (timers[-1][0] - started_at, timers[-1][1:]) == (30.0, (0.0, False))


def test_a_lost_speaker_in_the_lobby_pauses_it_and_the_lobby_goes_on(room, tmp_path):
    clock = room.clock
    captions: list[Caption] = []
    observers = Observers()
    observers.subscribe(lambda e: captions.append(e) if isinstance(e, Caption) else None)
    listener = Unplugging(["help", "switch off", "yes"], clock, room, at=1)
    kiosk = Kiosk(Ports(listener, Pyttsx3Voice("en"), clock), kiosk_config.Config(), None, seed=3, lang="en",
                  observers=observers)
    assert kiosk.run() == 0
    lost = Prompts.load("en").text("common.speaker_lost")
    assert [c.text for c in captions].count(lost) == 1 and clock.now() >= GONE_S
    assert len(room.sd.played) == len(spoken_captions(captions))


class FlakyMic(ScriptListener):
    """A microphone that is gone for the first ``gone`` listens."""

    def __init__(self, lines, clock, gone: int):
        super().__init__([(i + 1, line) for i, line in enumerate(lines)], clock=clock)
        self.gone = gone

    def listen(self, expected, timeout_s):
        if self.gone:
            self.gone -= 1
            raise DeviceError("The microphone was unplugged.")
        return super().listen(expected, timeout_s)


def test_a_lost_microphone_in_the_lobby_is_said_once_and_the_lobby_waits_for_it(room, tmp_path):
    clock = room.clock
    captions: list[Caption] = []
    observers = Observers()
    observers.subscribe(lambda e: captions.append(e) if isinstance(e, Caption) else None)
    kiosk = Kiosk(Ports(FlakyMic(["switch off", "yes"], clock, gone=3), Pyttsx3Voice("en"), clock),
                  kiosk_config.Config(), None, seed=3, lang="en", observers=observers)
    assert kiosk.run() == 0
    said = Prompts.load("en").text("lobby.waiting.no_microphone")
    assert [c.text for c in captions].count(said) == 1 and clock.now() >= 3 * DEVICE_POLL_S


def test_a_full_disk_is_said_once_a_game_even_across_an_undo(tmp_path):
    """Every write fails (ENOSPC): the game goes on to its end, every score kept in the game,
    and "saving failed" is said once, not again by the table an undo builds."""
    import errno
    import io

    from voicegame.adapters.headless import TextVoice
    from voicegame.engine.journal import Storage

    class Full(Storage):
        def write_now(self, path, data):
            raise OSError(errno.ENOSPC, "No space left on device")

        def write_later(self, path, text):
            self.error = OSError(errno.ENOSPC, "No space left on device")

        def take_error(self):
            error, self.error = getattr(self, "error", None), None
            return error

        def write_journal(self, fh, index, entry, generation, seq):
            raise OSError(errno.ENOSPC, "No space left on device")

    out, clock = io.StringIO(), VirtualClock()
    settings = Settings("toy", record=str(tmp_path / "rec.json"), autosave=str(tmp_path / "save.json"))
    lines = ["five", "six", "undo", "seven", "eight"]
    listener = ScriptListener([(i + 1, l) for i, l in enumerate(lines)], clock=clock)
    outcome = Session(Pairs, listener, TextVoice(out), clock, settings, storage=Full()).run()
    said = out.getvalue()
    assert outcome == "finished" and "values [5, 7, 8]" in said and "undone" in said.lower()  # six taken back
    assert said.count(Prompts.load("en").text("common.save_failed")) == 1
