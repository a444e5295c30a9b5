"""The ``voicegame`` command line: ``main(argv, env) -> exit status``.

Subcommands: ``play``, ``resume``, ``kiosk``, ``hear``, ``doctor``, ``models``, ``bench``;
no subcommand starts the spoken lobby (``kiosk``, :mod:`voicegame.lobby.host`), with the
lobby's options when some are given (``voicegame --input keyboard --output text``). Every
process dependency (streams, environment, clock, devices) comes through
:class:`Env`, so tests replace it; nothing is built at import time.
"""

from __future__ import annotations

import argparse
import contextlib
import logging
import os
import sys
from pathlib import Path

from voicegame import bench as bench_module
from voicegame import models
from voicegame.adapters.headless import VirtualClock
from voicegame.doctor import run_doctor
from voicegame.engine.journal import data_dir, journal_path, load_autosave
from voicegame.engine.session import Settings
from voicegame.env import CliError, Env, PortChoice, make_listener
from voicegame.games.registry import GAMES, host_module
from voicegame.language.prompts import Prompts
from voicegame.language.speakable import format_number
from voicegame.language.words import understanding
from voicegame.lobby.host import add_arguments as kiosk_arguments
from voicegame.lobby.host import run_kiosk
from voicegame.play import LANGS, add_io_arguments, add_play_arguments, play_settings, run_session
from voicegame.ports import DeviceError, Expected, Heard, InputEnded

__all__ = ["CliError", "Env", "build_parser", "describe", "format_number", "main"]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="voicegame", description="An offline, voice-hosted party-game host.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    play = sub.add_parser("play", help="play a game")
    games = play.add_subparsers(dest="game", metavar="GAME", required=True)
    for name in GAMES:
        add_play_arguments(games.add_parser(name, help=f"play {name}"), name)

    resume = sub.add_parser("resume", help="continue the last (or given) unfinished game")
    resume.add_argument("path", nargs="?", default=None, help="autosave file (default: the latest)")
    add_io_arguments(resume)

    kiosk = sub.add_parser("kiosk", help="the spoken lobby: choose, set up and play games by voice (the default)")
    kiosk_arguments(kiosk)

    hear = sub.add_parser("hear", help="microphone check: print each utterance and what it means")
    add_io_arguments(hear)
    hear.add_argument("--free", action="store_true", help="free-text recognition instead of the command grammar")

    doctor = sub.add_parser("doctor", help="check devices, voices and models")
    doctor.add_argument("--lang", default=None, choices=LANGS)

    bench = sub.add_parser("bench", help="measure response gap, recognition cost, speech start-up and memory")
    bench_module.add_arguments(bench)

    models = sub.add_parser("models", help="list, install or locate speech models")
    models.add_argument("action", choices=("list", "install", "path"))
    models.add_argument("lang", nargs="?", default="en")
    models.add_argument("--model", default=None)
    return parser


# ---------------------------------------------------------------------- commands
def cmd_play(args, env: Env) -> int:
    settings = play_settings(args.game, args)
    return run_session(settings, PortChoice.from_args(args), env)


def latest_autosave(environ, unreadable: list[Path] | None = None) -> Path | None:
    """The newest unfinished autosave in the user data dir, else ``None``.

    :param unreadable: if given, autosaves that cannot be read are appended to it.
    """
    folder = data_dir(environ) / "autosave"

    def last_saved(path: Path) -> float:  # the journal is newer than the autosave mid-phase
        journal = journal_path(path)
        return max(path.stat().st_mtime, journal.stat().st_mtime if journal.exists() else 0.0)

    candidates = sorted(folder.glob("*.json"), key=last_saved, reverse=True) if folder.is_dir() else []
    for path in candidates:
        try:
            if not load_autosave(path).get("finished"):
                return path
        except ValueError:
            if unreadable is not None:
                unreadable.append(path)
    return None


def cmd_resume(args, env: Env) -> int:
    unreadable: list[Path] = []
    path = Path(args.path) if args.path else latest_autosave(env.environ, unreadable)
    for bad in unreadable:
        env.say(f"The saved game in {bad} can't be read, so it can't be resumed.")
    if path is None:
        raise CliError("There is no unfinished game to resume; start one with: voicegame play wavelength")
    try:
        save = load_autosave(path)
    except ValueError as exc:
        raise CliError(str(exc)) from None
    try:
        settings = Settings.from_dict(save["settings"])
        log = list(save["log"])
        module = host_module(settings.game)
    except (KeyError, TypeError, ValueError, AttributeError):
        raise CliError(f"{path} is not a voicegame autosave: it has no game settings and input log.") from None
    if save.get("finished"):
        raise CliError(f"The game in {path} is already finished.")
    settings.autosave = str(path)
    try:
        module.validate(settings)
    except ValueError as exc:
        raise CliError(f"The saved game cannot continue: {exc}") from None
    args.lang = settings.lang
    return run_session(settings, PortChoice.from_args(args), env, log=log)


def cmd_kiosk(args, env: Env) -> int:
    return run_kiosk(args, env)


def cmd_hear(args, env: Env) -> int:
    """``voicegame hear``: print each utterance, its confidence and its meaning, in ``--lang``
    (lines from ``prompts/<lang>/hear.toml``, numbers with the language's decimal mark)."""
    u = understanding(args.lang)
    prompts = Prompts.load(args.lang)
    listener = make_listener(PortChoice.from_args(args), env, VirtualClock())
    phrases = u.grammar(u.number_words(), u.yes_no_phrases(), u.side_phrases(), u.colour_phrases())
    expected = Expected.free_text("hear") if args.free else Expected(phrases, False, "hear")
    checker = getattr(listener, "missing_words", None)
    if checker and not args.free:
        missing = checker(sorted(expected.words()))
        if missing:
            env.say(prompts.text("hear.missing_words", words=", ".join(missing)))
    env.say(prompts.text("hear.listening"))
    try:
        while True:
            heard = listener.listen(expected, 30.0)
            if not isinstance(heard, Heard):
                env.say(prompts.text("hear.silence"))
                continue
            alts = prompts.text("hear.alternatives", alternatives="; ".join(heard.alternatives)) \
                if heard.alternatives else ""
            env.say(prompts.text("hear.heard", text=repr(heard.text), meaning=describe(u, heard.text, prompts),
                                 confidence=format_number(round(heard.confidence, 2), u.numbers.decimal_mark, 2),
                                 alternatives=alts))
    except (InputEnded, KeyboardInterrupt):
        env.say(prompts.text("hear.done"))
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


def cmd_doctor(args, env: Env) -> int:
    return run_doctor(lang=args.lang, out=env.say, env=env.environ)


def cmd_models(args, env: Env) -> int:
    if args.action == "path":
        for d in models.search_dirs(args.model, env.environ):
            env.say(str(d))
        return 0
    if args.action == "list":
        found = models.list_models(env=env.environ)
        if not found:
            env.say("No speech models installed. " + models.install_hint(args.lang))
        for lang, path in found:
            env.say(f"{lang}: {path}")
        return 0
    try:
        path = models.install(args.lang)
    except DeviceError as exc:
        raise CliError(str(exc)) from None
    env.say(f"Installed the {args.lang} model in {path}.")
    return 0


def cmd_bench(args, env: Env) -> int:
    return bench_module.run_from_args(args, env.stdout, env.stderr)


COMMANDS = {"bench": cmd_bench, "play": cmd_play, "resume": cmd_resume, "kiosk": cmd_kiosk, "hear": cmd_hear, "doctor": cmd_doctor,
            "models": cmd_models}


def main(argv: list[str] | None = None, env: Env | None = None) -> int:
    """Run the command line; returns the exit status (0 ok, 1 failure, 2 usage)."""
    env = env or Env()
    logging.basicConfig(level=logging.WARNING, stream=env.stderr, format="voicegame: %(message)s")
    parser = build_parser()
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0].startswith("-") and argv[0] not in ("-h", "--help"):
        argv = ["kiosk", *argv]  # `voicegame --input keyboard --output text`: the lobby with those options
    try:  # usage errors and --help go to the command's own streams, not the process's
        with contextlib.redirect_stderr(env.stderr), contextlib.redirect_stdout(env.stdout):
            args = parser.parse_args(argv)
    except SystemExit as exc:
        return int(exc.code or 0)
    if args.command is None:  # plain `voicegame`: the spoken lobby
        args = parser.parse_args(["kiosk"])
    try:
        return COMMANDS[args.command](args, env)
    except CliError as exc:
        env.stderr.write(f"voicegame: {exc}\n")
        return 2
    except KeyboardInterrupt:
        env.say("Stopped.")
        return 130


def entry() -> None:
    """Console-script entry point (a closed output pipe, e.g. ``| head``, ends quietly)."""
    try:
        status = main()
        sys.stdout.flush()
    except BrokenPipeError:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())  # no second error when Python flushes at exit
        status = 0
    sys.exit(status)
