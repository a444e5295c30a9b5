"""``--mic`` / ``--speaker`` / ``--private earpiece:DEVICE`` by index or part of a name, through a
fake ``sounddevice`` device list; ``config.toml`` honoured by ``play``; ``doctor`` opens the
chosen devices and marks the defaults."""

from __future__ import annotations

import io
import sys

import pytest

from tests.fake_sounddevice import FakeSoundDevice, mic, speaker
from voicegame.adapters import devices
from voicegame.adapters.headless import ScriptListener
from voicegame.cli import Env, main

ROOM = [mic(0, "HDA Intel PCH: ALC3246 Analog"), speaker(1, "HDA Intel PCH: HDMI 0"),
        mic(2, "Jabra SPEAK 510 USB: Audio"), speaker(3, "Jabra SPEAK 510 USB: Audio"),
        speaker(4, "Bluetooth earbud")]


@pytest.fixture
def sd(monkeypatch):
    fake = FakeSoundDevice(ROOM, default_input=0, default_output=1)
    monkeypatch.setitem(sys.modules, "sounddevice", fake)
    return fake


@pytest.fixture
def voices(monkeypatch):
    """Pyttsx3Voice replaced by a recorder of its options and of what goes where."""
    made = []

    class Voice:
        def __init__(self, lang="en", rate_wpm=None, volume=1.0, output_device=None, private_devices=None, **kw):
            self.options = {"lang": lang, "rate_wpm": rate_wpm, "volume": volume, "output_device": output_device,
                            "private_devices": dict(private_devices or {})}
            self.said = []
            made.append(self)

        def say(self, text, to=None):
            self.said.append((to, text))

        def verify(self):  # the espeak voice checks its language voice exists
            pass

        def tone(self, *a, **k):
            pass

        def adjust(self, rate_step=0, volume_step=0):
            pass

    from voicegame.adapters import tts

    monkeypatch.setattr(tts, "Pyttsx3Voice", Voice)
    return made


@pytest.fixture
def model(monkeypatch, tmp_path):
    """A model folder and a recogniser replaced by an empty script (the microphone is opened for real)."""
    folder = tmp_path / "models" / "vosk-model-small-en-us-0.15" / "conf"
    folder.mkdir(parents=True)
    (folder / "model.conf").write_text("--beam=10.0\n")
    monkeypatch.setenv("VOICEGAME_MODEL_DIR", str(tmp_path / "models"))
    from voicegame.adapters import vosk_listener

    empty = tmp_path / "empty.txt"
    empty.write_text("")
    monkeypatch.setattr(vosk_listener, "load_model", lambda path: "model")
    monkeypatch.setattr(vosk_listener, "VoskListener", lambda m, source, **options: ScriptListener(empty))


def run(argv, stdin=""):
    out, err = io.StringIO(), io.StringIO()
    import os

    status = main(argv, Env(stdin=io.StringIO(stdin), stdout=out, stderr=err, environ=dict(os.environ)))
    return status, out.getvalue(), err.getvalue()


# -- choosing ----------------------------------------------------------------------


def test_resolve_by_index_name_part_and_kind(sd):
    found = devices.list_devices()
    assert devices.resolve("2", "input", found) == 2 and devices.resolve(3, "output", found) == 3
    assert devices.resolve("jabra", "input", found) == 2 and devices.resolve("JABRA", "output", found) == 3
    assert devices.resolve("earbud", "output", found) == 4
    assert devices.resolve("", "input", found) is None and devices.resolve(None, "output", found) is None
    with pytest.raises(devices.DeviceChoiceError) as info:
        devices.resolve("3", "input", found)  # a speaker's number given as a microphone
    assert str(info.value) == ('There is no microphone number 3; the microphones are: 0 "HDA Intel PCH: ALC3246 '
                               'Analog" (default), 2 "Jabra SPEAK 510 USB: Audio" (`voicegame doctor` lists them).')
    with pytest.raises(devices.DeviceChoiceError) as info:
        devices.resolve("hda intel", "output", found + [devices.Device(5, "HDA Intel PCH: HDMI 1", 0, 2, 44100.0)])
    assert "More than one speaker" in str(info.value) and "give its number" in str(info.value)
    with pytest.raises(devices.DeviceChoiceError) as info:
        devices.resolve("usb headset", "output", found)
    assert 'No speaker has "usb headset" in its name' in str(info.value) and '4 "Bluetooth earbud"' in str(info.value)


def test_play_uses_mic_and_speaker_by_name(sd, voices, model):
    status, out, err = run(["play", "wavelength", "--mic", "jabra", "--speaker", "jabra", "--seed", "1"])
    assert status == 0, err
    assert sd.opened == [("input", 2)]
    assert voices[0].options["output_device"] == 3 and voices[0].options["private_devices"] == {}


def test_play_honours_the_configuration(sd, voices, model, tmp_path):
    import os

    config = tmp_path / "config" / "config.toml"
    config.parent.mkdir(parents=True, exist_ok=True)
    assert os.environ["VOICEGAME_CONFIG_DIR"] == str(config.parent)
    config.write_text('lang = "es"\nrate_wpm = 200\nvolume = 0.5\ninput_device = "2"\noutput_device = "earbud"\n')
    model_es = tmp_path / "models" / "vosk-model-small-es-0.42" / "conf"
    model_es.mkdir(parents=True)
    (model_es / "model.conf").write_text("--beam=10.0\n")
    status, out, err = run(["play", "rofl", "--seed", "1"])
    assert status == 0, err
    assert sd.opened == [("input", 2)]
    assert voices[0].options == {"lang": "es", "rate_wpm": 200, "volume": 0.5, "output_device": 4,
                                 "private_devices": {}}
    # the command line wins over the file
    status, out, err = run(["play", "rofl", "--seed", "1", "--lang", "en", "--mic", "0", "--speaker", "1"])
    assert sd.opened[-1] == ("input", 0) and voices[-1].options["output_device"] == 1
    assert voices[-1].options["lang"] == "en"


def test_earpiece_by_name_or_index(sd, voices, model):
    for asked in ("earbud", "4"):
        status, out, err = run(["play", "wavelength", "--private", f"earpiece:{asked}", "--seed", "1"])
        assert status == 0, err
        assert voices[-1].options["private_devices"] == {"psychic": 4, "writers": 4}


def test_a_missing_earpiece_is_refused_with_the_list_and_no_secret_is_printed(sd, voices, model):
    status, out, err = run(["play", "wavelength", "--private", "earpiece:headset", "--seed", "1"])
    assert status == 2 and not voices
    assert err == ('voicegame: The earpiece for secrets is not available, so the game does not start: No speaker '
                   'has "headset" in its name; the speakers are: 1 "HDA Intel PCH: HDMI 0" (default), 3 "Jabra '
                   'SPEAK 510 USB: Audio", 4 "Bluetooth earbud" (`voicegame doctor` lists them).\n')
    assert "PRIVATE" not in out and "HOST" not in out


def test_an_earpiece_game_without_any_speaker_refuses_instead_of_printing(monkeypatch, voices, model):
    monkeypatch.setitem(sys.modules, "sounddevice", FakeSoundDevice([mic(0, "Mic")]))
    status, out, err = run(["play", "wavelength", "--private", "earpiece:1", "--seed", "1"])
    assert status == 2 and "There is no speaker number 1" in err and "PRIVATE" not in out


def test_an_unknown_microphone_in_play_falls_back_to_the_keyboard_with_the_list(sd, voices, model):
    status, out, err = run(["play", "wavelength", "--mic", "webcam", "--seed", "1"], stdin="")
    assert 'No microphone has "webcam" in its name; the microphones are: 0 ' in out
    assert "Using the keyboard instead." in out and status == 0


# -- a missing device, said in the table's language -----------------------------------

#: What ``play --lang L`` prints for each missing device, and its fallback (written out, not read from prompts/).
SAID = {
    "en": {"no_mic": "No microphone found: plug one in, or play with --input keyboard. Using the keyboard instead.",
           "no_speaker": "No speaker found: plug in speakers or headphones, or play with --output text. "
                         "Printing the host's words instead.",
           "secrets": "The game does not start: printing the host's words would show the secrets.",
           "earpiece": "The earpiece for secrets is not available, so the game does not start: ",
           "default": "(default)"},
    "es": {"no_mic": "No encuentro ningún micrófono: conectad uno o jugad con --input keyboard. "
                     "Usaremos el teclado en su lugar.",
           "no_speaker": "No encuentro ningún altavoz: conectad altavoces o auriculares, o jugad con --output text. "
                         "En su lugar, las palabras del presentador se mostrarán por escrito.",
           "secrets": "La partida no empieza: mostrar por escrito las palabras del presentador revelaría los secretos.",
           "earpiece": "El auricular de los secretos no está disponible, así que la partida no empieza: ",
           "default": "(predeterminado)"},
    "nl": {"no_mic": "Geen microfoon gevonden: sluit er een aan, of speel met --input keyboard. "
                     "We gebruiken in plaats daarvan het toetsenbord.",
           "no_speaker": "Geen luidspreker gevonden: sluit luidsprekers of een koptelefoon aan, of speel met "
                         "--output text. In plaats daarvan verschijnen de woorden van de presentator als tekst.",
           "secrets": "Het spel begint niet: de woorden van de presentator als tekst tonen zou de geheimen verraden.",
           "earpiece": "Het oortje voor de geheimen is niet beschikbaar, dus het spel begint niet: ",
           "default": "(standaard)"},
}


@pytest.fixture
def models(model, tmp_path):
    """:func:`model`, with a Spanish and a Dutch model folder beside the English one."""
    for name in ("vosk-model-small-es-0.42", "vosk-model-small-nl-0.22"):
        (tmp_path / "models" / name / "conf").mkdir(parents=True)
        (tmp_path / "models" / name / "conf" / "model.conf").write_text("--beam=10.0\n")


@pytest.mark.parametrize("lang", ["en", "es", "nl"])
def test_no_microphone_is_said_in_the_table_language_and_the_keyboard_takes_over(monkeypatch, voices, models, lang):
    monkeypatch.setitem(sys.modules, "sounddevice", FakeSoundDevice([speaker(1, "Speaker")]))
    status, out, err = run(["play", "wavelength", "--lang", lang, "--seed", "1"], stdin="")
    assert out.startswith(SAID[lang]["no_mic"] + "\n") and status == 0
    assert "Traceback" not in out + err and err == ""


@pytest.mark.parametrize("lang", ["en", "es", "nl"])
def test_no_speaker_is_said_in_the_table_language_and_the_words_are_printed(monkeypatch, voices, models, lang):
    monkeypatch.setitem(sys.modules, "sounddevice", FakeSoundDevice([mic(0, "Mic")]))
    status, out, err = run(["play", "wavelength", "--lang", lang, "--input", "keyboard", "--seed", "1"])
    assert out.startswith(SAID[lang]["no_speaker"] + "\nHOST: ") and status == 0 and not voices
    assert "Traceback" not in out + err


@pytest.mark.parametrize("lang", ["en", "es", "nl"])
def test_an_earpiece_game_without_its_speaker_refuses_in_the_table_language(sd, voices, models, lang):
    status, out, err = run(["play", "wavelength", "--lang", lang, "--private", "earpiece:4", "--speaker", "9",
                            "--input", "keyboard", "--seed", "1"])
    assert status == 2 and out == "" and not voices
    assert err.startswith("voicegame: ") and err.endswith(" " + SAID[lang]["secrets"] + "\n")
    assert f'1 "HDA Intel PCH: HDMI 0" {SAID[lang]["default"]}' in err and "Traceback" not in err


@pytest.mark.parametrize("lang", ["es", "nl"])
def test_a_missing_earpiece_is_refused_in_the_table_language_with_the_list(sd, voices, models, lang):
    status, out, err = run(["play", "wavelength", "--lang", lang, "--private", "earpiece:headset", "--seed", "1"])
    assert status == 2 and not voices and "PRIVATE" not in out and "HOST" not in out
    assert err.startswith("voicegame: " + SAID[lang]["earpiece"]) and '"headset"' in err
    assert f'1 "HDA Intel PCH: HDMI 0" {SAID[lang]["default"]}, 3 "Jabra SPEAK 510 USB: Audio"' in err


def test_an_unknown_microphone_is_listed_in_dutch(sd, voices, models):
    status, out, err = run(["play", "wavelength", "--lang", "nl", "--mic", "webcam", "--seed", "1"], stdin="")
    assert out.startswith('Geen enkele microfoon heeft "webcam" in zijn naam; de microfoons zijn: 0 '
                          '"HDA Intel PCH: ALC3246 Analog" (standaard), 2 "Jabra SPEAK 510 USB: Audio" '
                          '(`voicegame doctor` toont ze). We gebruiken in plaats daarvan het toetsenbord.\n')
    assert status == 0


def test_an_adapter_error_without_a_key_keeps_the_whole_line_english(monkeypatch, sd, voices, models):
    """piper, Wyoming, Vosk and the VAD raise DeviceErrors without a key yet: one line, one language."""
    from voicegame.adapters import audio
    from voicegame.ports import DeviceError

    def broken(device=None):
        raise DeviceError("The speaker broke.")

    monkeypatch.setattr(audio, "require_output", broken)
    status, out, err = run(["play", "wavelength", "--lang", "es", "--input", "keyboard", "--seed", "1"])
    assert out.startswith("The speaker broke. Printing the host's words instead.\nHOST: ") and status == 0


@pytest.mark.parametrize("lang, said", [
    ("es", "Falta la voz en español: ejecutad `sudo apt install espeak-ng-data`, o jugad con --output text. "
           "En su lugar, las palabras del presentador se mostrarán por escrito."),
    ("nl", "De stem voor het Nederlands ontbreekt: voer `sudo apt install espeak-ng-data` uit, of speel met "
           "--output text. In plaats daarvan verschijnen de woorden van de presentator als tekst."),
])
def test_a_missing_espeak_voice_is_named_in_the_table_language(monkeypatch, sd, models, lang, said):
    from voicegame.adapters import tts

    def no_voice(lang="en", **options):
        raise tts.MissingVoice(lang)

    monkeypatch.setattr(tts, "Pyttsx3Voice", no_voice)
    status, out, err = run(["play", "wavelength", "--lang", lang, "--input", "keyboard", "--seed", "1"])
    assert out.startswith(said + "\nHOST: ") and status == 0


def test_a_missing_model_is_said_in_the_table_language(sd, voices, model):
    status, out, err = run(["play", "wavelength", "--lang", "es", "--seed", "1"], stdin="")
    assert out.startswith("No hay modelo de voz para el español: ejecutad `voicegame models install es` (necesita "
                          "internet una vez), o jugad con --input keyboard.\n") and status == 0


def test_a_device_error_is_english_for_the_log_and_keyed_for_the_table():
    from voicegame.language.prompts import Prompts
    from voicegame.ports import DeviceError

    error = DeviceError("The microphone 2 could not be opened (busy): check that no other program uses it.",
                        key="common.devices.microphone_busy", device="2", reason="busy")
    assert str(error) == "The microphone 2 could not be opened (busy): check that no other program uses it."
    assert error.has_sentence(Prompts.load("es"))
    assert error.sentence(Prompts.load("es")) == ("No se pudo abrir el micrófono 2 (busy): comprobad que ningún "
                                                  "otro programa lo use.")
    assert error.sentence(Prompts.load("en")) == str(error)  # the English prompt is the log's sentence
    plain = DeviceError("Something else.")
    assert not plain.has_sentence(Prompts.load("nl")) and plain.sentence(Prompts.load("nl")) == "Something else."


def test_hear_takes_mic(sd, model):
    status, out, err = run(["hear", "--mic", "2"])
    assert status == 0 and sd.opened == [("input", 2)]


# -- doctor ------------------------------------------------------------------------


def test_doctor_opens_the_chosen_devices_and_marks_the_defaults(sd, model):
    status, out, err = run(["doctor", "--lang", "en", "--mic", "jabra", "--speaker", "earbud"])
    assert "  microphone 0: HDA Intel PCH: ALC3246 Analog (48000 Hz) — the default" in out
    assert "  speaker 1: HDA Intel PCH: HDMI 0 — the default" in out
    assert "  opened the chosen microphone 2: Jabra SPEAK 510 USB: Audio: ok" in out
    assert "  opened the chosen speaker 4: Bluetooth earbud: ok" in out
    assert sd.opened == [("input", 2), ("output", 4)] and status == 0
    status, out, err = run(["doctor", "--lang", "en", "--mic", "webcam"])
    assert status == 1 and 'MISSING: No microphone has "webcam" in its name' in out


def test_play_honours_the_barge_in_key_and_the_command_line_wins(sd, voices, model, tmp_path, monkeypatch):
    import os

    from voicegame.adapters import vosk_listener

    seen = []
    listener = vosk_listener.VoskListener
    monkeypatch.setattr(vosk_listener, "VoskListener",
                        lambda m, source, **options: seen.append(options["barge_in"]) or listener(m, source))
    config = tmp_path / "config" / "config.toml"
    config.parent.mkdir(parents=True, exist_ok=True)
    assert os.environ["VOICEGAME_CONFIG_DIR"] == str(config.parent)
    config.write_text("barge_in = false\n")
    assert run(["play", "rofl", "--seed", "1"])[0] == 0
    assert run(["play", "rofl", "--seed", "1", "--barge-in"])[0] == 0
    config.write_text("barge_in = true\n")
    assert run(["play", "rofl", "--seed", "1"])[0] == 0
    assert run(["play", "rofl", "--seed", "1", "--no-barge-in"])[0] == 0
    assert seen == [False, True, True, False]
