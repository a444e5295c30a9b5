"""``voicegame play GAME``: its options and how they become a game's :class:`Settings`.

Shared by the command line (:mod:`voicegame.cli`) and the bench, so neither needs
the other. :func:`add_play_arguments` adds the options every game has (language,
input/output, seed, record, timer, private channel) and the game's own;
:func:`play_settings` turns parsed options into validated settings;
:func:`run_session` plays them on ports built by :mod:`voicegame.env`.
"""

from __future__ import annotations

import argparse
import math
import random
from pathlib import Path

from voicegame.display import add_argument as add_display_argument
from voicegame.display.server import open_display
from voicegame.engine.journal import Storage
from voicegame.engine.observer import Observers
from voicegame.engine.session import Settings
from voicegame.engine.table import Session
from voicegame.env import CliError, Env, PortChoice, build_ports
from voicegame.games.decks import DeckError
from voicegame.games.registry import host_module
from voicegame.language.prompts import Prompts

#: Languages with prompts, words and decks.
LANGS = ("en", "es", "nl")


def timer_seconds(value: str) -> float | None:
    """``--timer``: seconds (a finite number ≥ 1) or ``off``/``none``/``0`` (``None``).

    :raises argparse.ArgumentTypeError: anything else (one sentence).
    """
    if value.lower() in ("off", "none", "0"):
        return None
    try:
        seconds = float(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"--timer takes a number of seconds or 'off', not {value!r}") from None
    if not math.isfinite(seconds) or seconds < 1:
        raise argparse.ArgumentTypeError("--timer takes a number of seconds from 1 up, or 'off' (0 also means off)")
    return seconds


def private_mode(value: str) -> str:
    """``--private``: ``ears``, ``screen`` or ``earpiece:DEVICE``.

    :raises argparse.ArgumentTypeError: anything else.
    """
    if value in ("ears", "screen") or (value.startswith("earpiece:") and len(value) > 9):
        return value
    raise argparse.ArgumentTypeError("--private takes ears, screen or earpiece:DEVICE")


def add_io_arguments(p: argparse.ArgumentParser, lang_default: str | None = "en") -> None:
    """``--lang``, ``--input``, ``--output``, ``--model``, ``--barge-in``/``--no-barge-in``, ``--tts``, ``--asr``."""
    p.add_argument("--lang", default=lang_default, choices=LANGS,
                   help=f"language of the host (default {lang_default or 'the configuration'})")
    p.add_argument("--input", default="mic",
                   help="mic (default), keyboard, or PATH of a script file: one utterance per line")
    p.add_argument("--output", default="speaker", choices=("speaker", "text"), help="speaker (default) or text")
    p.add_argument("--model", default=None, help="directory of a Vosk model (default: searched)")
    add_device_arguments(p)
    p.add_argument("--barge-in", dest="barge_in", action="store_true", default=None,
                   help="players may cut the host short with a command (default: config.toml's barge_in, else on)")
    p.add_argument("--no-barge-in", dest="barge_in", action="store_false",
                   help="players cannot cut the host short with a command")
    from voicegame import engines

    engines.add_arguments(p)


def add_device_arguments(p: argparse.ArgumentParser) -> None:
    """``--mic`` and ``--speaker``: an index or a part of the device's name."""
    p.add_argument("--mic", default=None, metavar="DEVICE",
                   help="microphone: an index or a part of its name (default: config.toml's, else the system's)")
    p.add_argument("--speaker", default=None, metavar="DEVICE",
                   help="speaker: an index or a part of its name (default: config.toml's, else the system's)")


def add_play_arguments(p: argparse.ArgumentParser, game: str) -> None:
    """Every option of ``voicegame play GAME`` (the common ones, then the game's own).
    ``--lang`` and ``--private`` default to config.toml's, else en and ears."""
    add_io_arguments(p, lang_default=None)
    p.add_argument("--seed", type=int, default=None, help="random seed (default: random)")
    p.add_argument("--record", default=None, help="where to write the game record (JSON)")
    p.add_argument("--timer", type=timer_seconds, default=30.0, help="seconds per timer, or off (default 30)")
    p.add_argument("--private", type=private_mode, default=None,
                   help="private channel: ears (default), earpiece:DEVICE (an index or a part of its name) or screen")
    add_display_argument(p)
    host_module(game).add_arguments(p)


def play_parser(game: str) -> argparse.ArgumentParser:
    """A parser of ``voicegame play GAME``'s options alone (the bench's scripted games)."""
    parser = argparse.ArgumentParser(prog=f"voicegame play {game}", add_help=False)
    add_play_arguments(parser, game)
    return parser


def play_settings(game: str, args, **overrides) -> Settings:
    """Validated settings for parsed ``play`` options.

    :param overrides: settings fields to set instead (``seed``, ``autosave``, ``started``…).
    :raises CliError: ``--record`` is a folder, or the game refuses its options (one sentence).
    """
    module = host_module(game)
    fields = dict(game=game, lang=args.lang or "en",
                  seed=args.seed if args.seed is not None else random.SystemRandom().randrange(10**6),
                  timer_s=args.timer, private=args.private or "ears", options=module.options_from_args(args),
                  record=args.record)
    fields.update(overrides)
    settings = Settings(**fields)
    if settings.record and Path(settings.record).is_dir():
        raise CliError(Prompts.load(settings.lang).text("common.record_folder", path=settings.record,
                                                        example=Path(settings.record) / "game.json"))
    try:
        module.validate(settings)
    except ValueError as exc:
        raise CliError(setup_problem(exc, settings.lang)) from None
    return settings


def setup_problem(exc: ValueError, lang: str) -> str:
    """The sentence for a game that refuses its set-up, in ``lang``: a broken deck or bank
    (:class:`DeckError`, said from ``prompts/<lang>/``) or an option error (already one sentence)."""
    if isinstance(exc, DeckError):
        return exc.sentence(Prompts.load(lang))
    return str(exc)


def run_session(settings: Settings, choice: PortChoice, env: Env, log: list[dict] | None = None,
                storage: Storage | None = None) -> int:
    """Play ``settings`` (resuming ``log``) on the ports ``choice`` asks for.

    :returns: the exit status: 0 finished, quit or input ended; 1 an internal error.
    :raises CliError: a port cannot be built (unreadable script…).
    """
    ports = build_ports(choice, env)
    observers = Observers()
    display = open_display(choice.display, observers, env)  # the table's screen, public events only
    session = Session(host_module(settings.game).Host, ports.listener, ports.voice, ports.clock, settings,
                      log=log, screen=ports.screen, storage=storage, observers=observers)
    try:
        outcome = session.run()
    finally:
        if display is not None:
            display.stop()
    return 0 if outcome in ("finished", "quit", "input_ended") else 1
