"""``voicegame kiosk`` unattended: no microphone, model or speaker at first; it says so once
(aloud when a speaker exists, and once on stderr for the journal), never falls back to the
keyboard, never exits, checks again on the injected clock, and starts by itself (greeting
once) when the device or model appears. ``play`` keeps its keyboard fallback."""

from __future__ import annotations

import io
import sys

import pytest

from tests.fake_sounddevice import FakeSoundDevice, mic, speaker
from voicegame import appliance
from voicegame.adapters import devices
from voicegame.adapters.headless import ScriptListener, VirtualClock
from voicegame.cli import Env, main
from voicegame.language.prompts import Prompts

EN = Prompts.load("en")
GREETING = EN.text("lobby.greeting")
#: what the journal gets (the keyboard and text fallbacks of `play` are not offered)
NO_MICROPHONE = "voicegame kiosk: No microphone found: plug one in. Waiting"
NO_SPEAKER = "voicegame kiosk: No speaker found: plug in speakers or headphones. Waiting"


class Recorder:
    """A voice that keeps every sentence (stands for pyttsx3; the speaker check stays real)."""

    def __init__(self, said: list):
        self.said = said
        self.output_device = None
        self.private_devices = {}

    def say(self, text, to=None):
        self.said.append(text)

    def tone(self, *args, **kwargs):
        pass

    def adjust(self, rate_step=0, volume_step=0):
        pass


class Clock(VirtualClock):
    """A virtual clock that runs ``at(t)`` after every sleep (plugging things in on time)."""

    def __init__(self, at=lambda t: None):
        super().__init__()
        self.at = at
        self.sleeps = 0

    def sleep(self, seconds):
        super().sleep(seconds)
        self.sleeps += 1
        self.at(self.t)


@pytest.fixture
def rig(monkeypatch, tmp_path):
    """A model folder, a recording voice, a scripted recogniser on the real microphone source."""
    model = tmp_path / "models" / "vosk-model-small-en-us-0.15"
    (model / "conf").mkdir(parents=True)
    (model / "conf" / "model.conf").write_text("--beam=10.0\n")
    monkeypatch.setenv("VOICEGAME_MODEL_DIR", str(tmp_path / "models"))
    said: list[str] = []
    sources = []
    monkeypatch.setattr(appliance, "speaker_voice", lambda lang, config, output, private: Recorder(said))

    def recogniser(model_path, source):
        sources.append((model_path, source))
        script = tmp_path / "script.txt"
        script.write_text("rules of rofl\n")
        return ScriptListener(script, clock=VirtualClock())
    monkeypatch.setattr(appliance, "recogniser", recogniser)
    return {"said": said, "sources": sources, "model": model, "tmp": tmp_path}


def run_kiosk(monkeypatch, sd: FakeSoundDevice, clock: Clock, argv=()):
    monkeypatch.setitem(sys.modules, "sounddevice", sd)
    out, err = io.StringIO(), io.StringIO()
    env = Env(stdin=io.StringIO("this must never be read\n"), stdout=out, stderr=err, clock_factory=lambda: clock)
    status = main(["kiosk", "--seed", "1", *argv], env)
    return status, out.getvalue(), err.getvalue()


def test_waits_for_a_microphone_and_starts_by_itself(monkeypatch, rig):
    clock = Clock()
    sd = FakeSoundDevice(lambda: [speaker(0, "Speaker")] + ([mic(1, "USB Mic")] if clock.now() >= 60 else []))
    status, out, err = run_kiosk(monkeypatch, sd, clock)
    said = rig["said"]
    assert said[0] == EN.text("lobby.waiting.no_microphone")
    assert said.count(said[0]) == 1 and said.count(GREETING) == 1 and said[1] == GREETING
    assert err.count(NO_MICROPHONE) == 1 and "Waiting: checking again every 5 seconds." in err
    assert clock.now() == 60 and clock.sleeps == 60 / devices.RECHECK_S  # checked every 5 s, no sooner
    assert sd.opened == [("input", None)] and rig["sources"][0][0] == rig["model"]  # the default microphone
    assert "this must never be read" not in out and "keyboard" not in (out + err).lower()
    assert EN.lines("lobby.rules.rofl")[0] in said  # the lobby then runs on what the microphone heard (the rules, in parts)
    assert status == 0  # only because the scripted recogniser's input ended


def test_waits_for_the_model_then_for_nothing_else(monkeypatch, rig):
    import shutil

    model, keep = rig["model"], rig["tmp"] / "kept-model"
    shutil.move(model, keep)

    def plug(t):
        if t >= 30 and not model.exists():
            shutil.move(keep, model)  # someone ran `voicegame models install en`
    clock = Clock(plug)
    sd = FakeSoundDevice([mic(0, "USB Mic"), speaker(1, "Speaker")])
    status, out, err = run_kiosk(monkeypatch, sd, clock)
    said = rig["said"]
    no_model = EN.text("lobby.waiting.no_model", language="English", lang="en")
    assert said[:2] == [no_model, GREETING] and said.count(no_model) == 1
    assert err.count("No speech model for English") == 1 and clock.now() == 30


def test_without_a_speaker_nothing_is_said_until_one_appears(monkeypatch, rig):
    clock = Clock()
    sd = FakeSoundDevice(lambda: ([speaker(0, "Speaker")] if clock.now() >= 20 else [])
                         + ([mic(1, "USB Mic")] if clock.now() >= 45 else []))
    status, out, err = run_kiosk(monkeypatch, sd, clock)
    said = rig["said"]
    # nothing could be said before t=20; then the missing microphone, once; at t=45 the lobby
    assert said[:2] == [EN.text("lobby.waiting.no_microphone"), GREETING]
    assert err.count(NO_SPEAKER) == 1 and err.count(NO_MICROPHONE) == 1
    assert clock.now() == 45 and said.count(GREETING) == 1


def test_a_configured_microphone_is_waited_for_by_name(monkeypatch, rig, tmp_path):
    clock = Clock()
    sd = FakeSoundDevice(lambda: [mic(0, "Built-in"), speaker(1, "Speaker")]
                         + ([mic(4, "Jabra Speak 510")] if clock.now() >= 10 else []))
    status, out, err = run_kiosk(monkeypatch, sd, clock, ["--mic", "jabra"])
    assert rig["said"][:2] == [EN.text("lobby.waiting.missing_microphone", device="jabra"), GREETING]
    assert 'No microphone has "jabra" in its name' in err and ("input", 4) in sd.opened


def test_voicegame_without_arguments_starts_the_lobby(monkeypatch, rig):
    monkeypatch.setitem(sys.modules, "sounddevice", FakeSoundDevice([mic(0, "Mic"), speaker(1, "Speaker")]))
    out, err = io.StringIO(), io.StringIO()
    status = main([], Env(stdin=io.StringIO(""), stdout=out, stderr=err, clock_factory=Clock))
    assert rig["said"][0] == GREETING and EN.lines("lobby.rules.rofl")[0] in rig["said"]
    assert status == 0 and err.getvalue() == ""


def test_play_keeps_its_keyboard_fallback(monkeypatch, rig):
    monkeypatch.setitem(sys.modules, "sounddevice", FakeSoundDevice([speaker(0, "Speaker")]))
    out, err = io.StringIO(), io.StringIO()
    env = Env(stdin=io.StringIO(""), stdout=out, stderr=err)
    status = main(["play", "wavelength", "--output", "text", "--seed", "1"], env)
    assert "No microphone found" in out.getvalue() and "Using the keyboard instead." in out.getvalue()
    assert status == 0


def test_wait_until_reports_each_problem_once():
    from voicegame.ports import DeviceError

    clock = VirtualClock()
    results = iter([DeviceError("a"), DeviceError("a"), DeviceError("b"), DeviceError("a"), "ok"])
    reported = []

    def attempt():
        r = next(results)
        if isinstance(r, Exception):
            raise r
        return r
    assert devices.wait_until(attempt, clock, on_problem=lambda e: reported.append(str(e)), interval_s=2) == "ok"
    assert reported == ["a", "b"] and clock.now() == 8
    stop = devices.wait_until(lambda: (_ for _ in ()).throw(DeviceError("x")), clock,
                              on_problem=lambda e: None, give_up=lambda: True)
    assert stop is None


def test_a_waiting_kiosk_captions_what_it_waits_for_on_its_screen(monkeypatch, rig):
    """The screen is served while the kiosk waits: with no speaker it shows the journal's line,
    then, once a speaker is there, the waiting sentence exactly as it is said."""
    from voicegame.engine.observer import PUBLIC, Caption
    from voicegame.lobby import host as lobby_host

    public: list = []

    def open_display(address, observers, env):  # stands for the web page: the public audience only
        observers.subscribe(public.append, PUBLIC)
        return None

    monkeypatch.setattr(lobby_host, "open_display", open_display)
    clock = Clock()
    sd = FakeSoundDevice(lambda: ([speaker(0, "Speaker")] if clock.now() >= 20 else [])
                         + ([mic(1, "USB Mic")] if clock.now() >= 45 else []))
    status, out, err = run_kiosk(monkeypatch, sd, clock)
    captions = [e.text for e in public if isinstance(e, Caption)]
    no_speaker = NO_SPEAKER.removeprefix("voicegame kiosk: ").removesuffix(" Waiting")
    no_microphone = NO_MICROPHONE.removeprefix("voicegame kiosk: ").removesuffix(" Waiting")
    assert captions[:2] == [no_speaker, no_microphone]  # nothing can say them yet: shown once each
    assert captions[2] == EN.text("lobby.waiting.no_microphone") == rig["said"][0]  # then said, and shown
    assert captions.count(no_speaker) == 1 and captions[3] == GREETING
