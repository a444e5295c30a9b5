"""Every adapter implements its port: the same methods with the same parameters, and the
methods do what the port says (not only that their names exist)."""

import io

from tests.port_check import port_problems
from voicegame.adapters.headless import (KeyboardListener, NullVoice, RealClock, ScriptListener, TextVoice,
                                         VirtualClock)
from voicegame.engine.observer import CaptionedVoice, Observers
from voicegame.ports import Clock, Expected, Heard, Listener, Silence, Voice


def test_the_check_catches_a_method_with_the_wrong_parameters():
    class Deaf:
        def listen(self):  # no expected, no timeout
            return Silence(0.0)

    class Mumbling:
        def say(self, text, to="everyone"):  # another default for "everyone"
            pass

        def tone(self, frequency_hz, duration_s=0.12, label=""):
            pass

    assert isinstance(Deaf(), Listener)  # what isinstance alone accepts
    assert port_problems(Deaf(), Listener) == ["listen: no parameter expected", "listen: no parameter timeout_s"]
    assert port_problems(Mumbling(), Voice) == ["say: to defaults to 'everyone', the port says None",
                                                "adjust: missing"]


def test_script_and_keyboard_listeners_implement_the_port():
    clock = VirtualClock()
    script = ScriptListener([(1, "yes"), (2, "<silence>")], clock=clock)
    keyboard = KeyboardListener(io.StringIO("blue\n"), out=io.StringIO())
    expected = Expected(("yes", "blue"), False, "test")
    for listener in (script, keyboard):
        assert port_problems(listener, Listener) == []
    assert script.listen(expected, 5.0) == Heard("yes")
    assert isinstance(script.listen(expected, 5.0), Silence)
    assert keyboard.listen(expected, None).text == "blue"


def test_text_null_and_captioned_voices_implement_the_port():
    out = io.StringIO()
    bus = Observers()
    for voice in (TextVoice(out), NullVoice(), CaptionedVoice(TextVoice(out), lambda: bus)):
        assert port_problems(voice, Voice) == []
        voice.say("Hello.")
        voice.tone(440.0, 0.1, "ding")
        voice.adjust(rate_step=1)
    assert port_problems(TextVoice(out), Voice) == []
    assert out.getvalue().count("Hello.") == 2


def test_clocks_implement_the_port():
    for clock in (VirtualClock(), RealClock()):
        assert port_problems(clock, Clock) == []
    clock = VirtualClock(5.0)
    clock.sleep(2.5)
    assert clock.now() == 7.5
