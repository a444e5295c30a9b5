"""``voicegame hear --input PATH.wav``: the listener on a recording, as the host uses it.

The WAV file (any rate, mono or the first channel) is played as the microphone — at
real-time pace, or as fast as possible with ``--fast`` (timing is audio time either
way) — and the listener listens again and again, as the host does, until the file
ends. ``--phrases FILE`` (UTF-8, one phrase a line) is the grammar of every moment
instead of the language's words. ``--json`` prints one JSON object per line for
every result: ``text`` (``null`` when nothing was accepted), ``confidence``,
``alternatives``, ``returned_s`` (seconds of the file consumed when the result was
returned), plus ``result`` (``heard``, ``rejected`` or ``silence``), ``endpoint``,
``gain_db`` (the input gain the listener has learned from the voices so far: a quiet
recording shows it rising) and, for rejected talk, ``reason``.

Also :func:`connect`, which tells a listener about the voice it must not hear.
"""

from __future__ import annotations

import argparse
import json
import os
from pathlib import Path

import numpy as np

from voicegame.env import CliError, Env, no_model
from voicegame.language.prompts import Prompts
from voicegame.language.speakable import format_number


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The options ``hear`` has beyond the common ones (``--input PATH.wav`` among them)."""
    p.add_argument("--phrases", default=None, metavar="FILE",
                   help="UTF-8 file, one phrase a line: the grammar of every moment (with --input PATH.wav)")
    p.add_argument("--fast", action="store_true", help="read the WAV as fast as possible (audio time)")
    p.add_argument("--json", action="store_true", help="one JSON object per line for every result")


def is_wav_input(args) -> bool:
    """True when ``--input`` names a WAV recording."""
    return str(getattr(args, "input", "")).lower().endswith(".wav")


def open_recording(path: Path, realtime: bool):
    """The recording as the microphone: a :class:`~voicegame.adapters.audio.WavSource` of its
    first channel (any rate; 8–32-bit PCM or float, plain or extensible header, any channels:
    what recorders and microphone arrays write; read chunk by chunk, never whole).

    :raises CliError: the file is missing, is no sound file, or needs libsndfile and it is missing.
    """
    from voicegame.adapters.audio import WavSource

    if not path.is_file():
        raise CliError(f"There is no recording at {path}: give the path of a WAV file.")
    if not os.access(path, os.R_OK):
        raise CliError(f"The recording {path} cannot be read by this user: `chmod a+r {path}`, or copy it.")
    try:
        return WavSource(path, realtime=realtime, trailing_silence_s=1.0, first_channel=True)
    except ValueError as exc:
        raise CliError(f"{exc}: record one with `arecord -f S16_LE -r 16000 room.wav`.") from None
    except (OSError, ImportError):  # no libsndfile for the wheel, or a venv set up before it
        raise CliError(f"{path} is not a plain 16-bit mono WAV, and reading it needs libsndfile: "
                       f"`sudo apt-get install libsndfile1`, or `sox {path} -b 16 -c 1 out.wav`.") from None


def read_phrases(path: str) -> tuple[str, ...]:
    """The phrases of a ``--phrases`` file (lower-case, blank lines and ``#`` lines skipped).

    :raises CliError: unreadable file, or no phrase in it.
    """
    try:
        lines = Path(path).read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise CliError(f"The phrases file {path} cannot be read ({exc.__class__.__name__}): give a UTF-8 text file.") from None
    phrases = tuple(dict.fromkeys(" ".join(line.lower().split()) for line in lines
                                  if line.strip() and not line.lstrip().startswith("#")))
    if not phrases:
        raise CliError(f"The phrases file {path} has no phrase in it: write one phrase a line.")
    return phrases


def result_record(result, listener, position_s: float) -> dict:
    """The JSON object of one result (see the module docstring)."""
    from voicegame.ports import Heard, Rejected

    record = {"text": result.text if isinstance(result, Heard) else None,
              "confidence": round(result.confidence, 4) if isinstance(result, Heard) else None,
              "alternatives": list(result.alternatives) if isinstance(result, Heard) else [],
              "returned_s": round(position_s, 3),
              "result": "heard" if isinstance(result, Heard) else
                        "rejected" if isinstance(result, Rejected) else "silence",
              "endpoint": getattr(listener, "last_endpoint", None),
              "gain_db": round(float(getattr(listener, "gain_db", 0.0)), 1)}
    if isinstance(result, Rejected):
        record["reason"] = result.reason
        record["heard_as"] = result.text
    return record


def run_wav(args, env: Env) -> int:
    """``voicegame hear --input PATH.wav``: listen to a recording until it ends.

    :returns: 0. :raises CliError: no model, unreadable WAV or phrases file.
    """
    from voicegame import models
    from voicegame.adapters.vosk_listener import VoskListener, load_model
    from voicegame.language.speakable import format_number
    from voicegame.language.prompts import Prompts
    from voicegame.language.words import understanding
    from voicegame.ports import DeviceError, Expected, Heard, InputEnded, Rejected

    u = understanding(args.lang)
    prompts = Prompts.load(args.lang)
    model_path = models.find_model(args.lang, args.model, env.environ)
    if model_path is None:
        raise CliError(no_model(args.lang))
    if args.phrases:
        expected = Expected(read_phrases(args.phrases), False, "hear")
    elif args.free:
        expected = Expected.free_text("hear")
    else:
        phrases = u.grammar(u.number_words(), u.yes_no_phrases(), u.side_phrases(), u.colour_phrases())
        expected = Expected(phrases, False, "hear", open_words=tuple(u.number_words()))
    source = open_recording(Path(args.input), realtime=not args.fast)
    try:
        try:
            listener = VoskListener(load_model(model_path), source)
        except (ValueError, DeviceError) as exc:
            raise CliError(str(exc)) from None
        if not expected.free:
            missing = listener.missing_words(sorted(expected.words()))
            if missing and not args.json:
                env.say(prompts.text("hear.missing_words", words=", ".join(missing)))
        if not args.json:
            env.say(prompts.text("hear.listening"))
        try:
            while True:
                result = listener.listen(expected, 30.0)
                if args.json:
                    env.say(json.dumps(result_record(result, listener, source.position_s), ensure_ascii=False))
                elif isinstance(result, Heard):
                    alts = prompts.text("hear.alternatives", alternatives="; ".join(result.alternatives)) \
                        if result.alternatives else ""
                    env.say(prompts.text("hear.heard", text=repr(result.text),
                                         meaning=describe(u, result.text, prompts),
                                         confidence=format_number(round(result.confidence, 2),
                                                                  u.numbers.decimal_mark, 2),
                                         alternatives=alts))
                elif isinstance(result, Rejected):
                    env.say(prompts.text("hear.rejected"))
                else:
                    env.say(prompts.text("hear.silence"))
        except (InputEnded, KeyboardInterrupt):
            if not args.json:
                env.say(prompts.text("hear.done"))
    finally:
        source.close()
    return 0


def describe(u, text: str, prompts=None) -> str:
    """What the understanding module makes of ``text`` (for ``voicegame hear``), in the
    language of ``prompts`` (default: the understanding's)."""
    p = prompts or Prompts.load(u.lang)
    parts = []
    if (c := u.command(text)) is not None:
        parts.append(p.text("hear.meaning.command", name=p.text(f"hear.commands.{c}")))
    if (n := u.number(text)) is not None:
        parts.append(p.text("hear.meaning.number", number=format_number(n, u.numbers.decimal_mark)))
    if (yn := u.yes_no(text)) is not None:
        parts.append(p.text("hear.meaning.yes" if yn else "hear.meaning.no"))
    if (s := u.side(text)) is not None:
        parts.append(p.text("hear.meaning.side", name=u.side_words[s][0]))
    if (col := u.colour(text)) is not None:
        parts.append(p.text("hear.meaning.colour", name=u.colour_name(col)))
    return ", ".join(parts) or p.text("hear.meaning.nothing")
