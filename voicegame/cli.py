"""The ``voicegame`` command line: ``main(argv, env) -> exit status``.

Subcommands: ``play``, ``resume``, ``kiosk``, ``hear``, ``say``, ``doctor``, ``models``, ``bench``;
no subcommand starts the spoken lobby (``kiosk``, :mod:`voicegame.lobby.host`), with the
lobby's options when some are given (``voicegame --input keyboard --output text``). Every
process dependency (streams, environment, clock, devices) comes through
:class:`Env`, so tests replace it; nothing is built at import time.
"""

from __future__ import annotations

import argparse
import contextlib
import traceback
import os
import sys
from pathlib import Path
from typing import Mapping

from voicegame import appliance, logs, models, models_install
from voicegame import bench as bench_module
from voicegame.adapters.headless import VirtualClock
from voicegame.display import add_argument as add_display_argument
from voicegame.doctor import run_doctor
from voicegame.engine.journal import data_dir, environment, journal_path, load_autosave
from voicegame.engine.session import Settings
from voicegame.env import CliError, Env, PortChoice, make_listener
from voicegame.games.registry import GAMES, host_module
from voicegame.language.prompts import Prompts
from voicegame.language.speakable import format_number
from voicegame.language.words import understanding
from voicegame.lobby.host import add_arguments as kiosk_arguments
from voicegame.lobby.host import run_kiosk
from voicegame.hear import describe
from voicegame.play import (LANGS, add_device_arguments, add_io_arguments, add_play_arguments, play_settings,
                            run_session, setup_problem)
from voicegame.ports import DeviceError, Expected, Heard, InputEnded

__all__ = ["CliError", "Env", "build_parser", "describe", "format_number", "main"]


def build_parser(environ: Mapping[str, str] | None = None) -> argparse.ArgumentParser:
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("-v", "--verbose", action="count", default=argparse.SUPPRESS,
                        help="log more, to stderr as well as the log file (-vv: debug)")
    parser = argparse.ArgumentParser(
        prog="voicegame", description="An offline, voice-hosted party-game host.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=f"log file: {logs.log_path(environ)}\n"
               "exit status: 0 success, 1 the command could not do its work, 2 a wrong command line\n"
               "settings, folders and environment variables: docs/configuration.md")
    parser.add_argument("-v", "--verbose", action="count", default=0,
                        help="log more, to stderr as well as the log file (-vv: debug)")
    parser.add_argument("--version", action="version", version=f"%(prog)s {version()}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    def add(name: str, **kwargs):
        return sub.add_parser(name, parents=[common], **kwargs)

    play = add("play", help="play a game")
    games = play.add_subparsers(dest="game", metavar="GAME", required=True)
    for name in GAMES:
        add_play_arguments(games.add_parser(name, help=f"play {name}", parents=[common]), name)

    resume = add("resume", help="continue the last (or given) unfinished game")
    resume.add_argument("path", nargs="?", default=None, help="autosave file (default: the latest)")
    add_io_arguments(resume, lang_default=None)
    add_display_argument(resume)

    kiosk = add("kiosk", help="the spoken lobby: choose, set up and play games by voice (the default)")
    kiosk_arguments(kiosk)

    hear = add("hear", help="microphone check: print each utterance and what it means")
    add_io_arguments(hear, lang_default=None)
    hear.add_argument("--free", action="store_true", help="free-text recognition instead of the command grammar")
    from voicegame.hear import add_arguments as hear_arguments

    hear_arguments(hear)

    doctor = add("doctor", help="check devices, voices and models")
    doctor.add_argument("--lang", default=None, choices=LANGS)
    add_device_arguments(doctor)
    from voicegame import engines

    engines.add_arguments(doctor)

    say = add("say", help="speaker check: speak TEXT with the chosen engine, or write it to a WAV")
    say.add_argument("text", help="what to say (numbers are read as words)")
    say.add_argument("--lang", default=None, choices=LANGS, help="language (default: the configuration's)")
    engines.add_arguments(say, asr=False)
    say.add_argument("--wav", default=None, metavar="PATH", help="write the speech to this WAV file instead")
    say.add_argument("--speaker", default=None, metavar="DEVICE",
                     help="speaker: an index or a part of its name (default: config.toml's, else the system's)")

    bench = add("bench", help="measure response gap, recognition cost, speech start-up and memory")
    bench_module.add_arguments(bench)
    from voicegame import bench_engines

    bench_engines.add_arguments(bench)

    models_parser = add("models", help="list, install or locate speech models")
    models_parser.add_argument("action", choices=("list", "install", "path"))
    models_parser.add_argument("lang", nargs="?", default="en")
    models_parser.add_argument("--model", default=None, help="also look in this model folder (list, path)")
    models_parser.add_argument("--from", dest="source", default=None, metavar="FILE|URL",
                               help="install: this model zip (a file, or an http(s) URL of a mirror) "
                                    "instead of the model list")
    return parser


# ---------------------------------------------------------------------- commands
def cmd_play(args, env: Env) -> int:
    appliance.apply_config(args, env)
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


def saved_language(save, fallback: str) -> str:
    """The language an autosave names (``settings.lang``), else ``fallback``."""
    lang = save.get("settings", {}).get("lang") if isinstance(save, dict) and \
        isinstance(save.get("settings"), dict) else None
    return lang if lang in LANGS else fallback


def cmd_resume(args, env: Env) -> int:
    """``voicegame resume [PATH]``: what stops it is said in the save's language, else in
    ``--lang`` (or the configuration's language) (``common.resume_*``, ``lobby.resume_broken``)."""
    appliance.apply_config(args, env)  # the language of the sentences below, before the save names its own
    prompts = Prompts.load(args.lang)
    unreadable: list[Path] = []
    path = Path(args.path) if args.path else latest_autosave(env.environ, unreadable)
    for bad in unreadable:
        env.say(prompts.text("lobby.resume_broken", path=bad))
    if path is None:
        raise logs.Failure(prompts.text("common.resume_none"))
    try:
        save = load_autosave(path)
    except ValueError as exc:
        raise CliError(str(exc)) from None
    try:
        settings = Settings.from_dict(save["settings"])
        log = list(save["log"])
        module = host_module(settings.game)
    except (KeyError, TypeError, ValueError, AttributeError):
        lang = saved_language(save, args.lang)
        raise CliError(Prompts.load(lang).text("common.resume_not_a_save", path=path)) from None
    if save.get("finished"):
        lang = settings.lang if settings.lang in LANGS else args.lang
        raise CliError(Prompts.load(lang).text("common.resume_finished", path=path))
    settings.autosave = str(path)
    try:
        module.validate(settings)
    except ValueError as exc:
        reason = setup_problem(exc, settings.lang)
        raise CliError(Prompts.load(settings.lang).text("common.saved_game_stuck", reason=reason)) from None
    args.lang = settings.lang
    return run_session(settings, PortChoice.from_args(args), env, log=log)


def cmd_kiosk(args, env: Env) -> int:
    return run_kiosk(args, env)


def cmd_hear(args, env: Env) -> int:
    """``voicegame hear``: print each utterance, its confidence and its meaning, in ``--lang``
    (lines from ``prompts/<lang>/hear.toml``, numbers with the language's decimal mark);
    ``--input PATH.wav`` listens to a recording instead (:mod:`voicegame.hear`)."""
    from voicegame.hear import is_wav_input, run_wav

    aloud = args.tts is not None  # --tts on the command line: the prompt is spoken (config.toml's is not)
    appliance.apply_config(args, env)
    if is_wav_input(args):
        return run_wav(args, env)
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
    if aloud and args.output == "speaker":
        _say_aloud(args, env, prompts.text("hear.listening"))
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


def _say_aloud(args, env: Env, sentence: str) -> None:
    """``hear --tts ENGINE``: its one prompt spoken with that engine on ``--speaker`` (then the
    microphone opens). :raises logs.Failure: the engine or the speaker is missing."""
    from voicegame import engines
    from voicegame.env import device

    try:
        voice, note = engines.make_voice(args.tts, args.lang, env.environ, output_device=device(args.speaker))
        if note:
            env.say(note)
        voice.say(sentence)
        voice.wait()
    except DeviceError as exc:
        raise logs.Failure(str(exc)) from None


def cmd_doctor(args, env: Env) -> int:
    engines_args = argparse.Namespace(tts=args.tts, asr=args.asr)
    appliance.apply_config(engines_args, env)  # config.toml's tts and asr where none is given
    return run_doctor(lang=args.lang, out=env.say, env=env.environ, mic=args.mic, speaker=args.speaker,
                      tts=engines_args.tts, asr=engines_args.asr)


def cmd_say(args, env: Env) -> int:
    """``voicegame say TEXT``: ``hear``'s twin — TEXT spoken with ``--tts`` (config.toml's, else
    espeak-ng) on the speaker, or written to ``--wav PATH`` (16-bit mono at the voice's rate)."""
    import wave

    from voicegame import engines
    from voicegame.env import device

    appliance.apply_config(args, env)
    player = None
    if args.wav:
        player = lambda samples, rate, output: None  # noqa: E731 (synthesis only: nothing is played)
    try:
        voice, note = engines.make_voice(args.tts, args.lang, env.environ, rate_wpm=args.rate_wpm,
                                         volume=args.volume, output_device=device(args.speaker), player=player)
        if note:
            env.say(note)
        if args.wav:
            samples, rate = voice.synthesize(args.text)
            path = Path(args.wav)
            if path.is_dir():
                raise CliError(f"--wav {path} is a folder: give a file name, such as {path / 'say.wav'}.")
            with wave.open(str(path), "wb") as wf:
                wf.setnchannels(1)
                wf.setsampwidth(2)
                wf.setframerate(int(rate))
                wf.writeframes(samples.astype("<i2").tobytes())
            env.say(f"Wrote {len(samples) / rate:.1f} seconds of speech ({voice.voice_id}) to {path}.")
        else:
            voice.say(args.text)
            voice.wait()
    except DeviceError as exc:
        raise logs.Failure(str(exc)) from None
    except OSError as exc:
        raise logs.Failure(f"The WAV file {args.wav} cannot be written ({exc.strerror or exc}).") from None
    return 0


def cmd_models(args, env: Env) -> int:
    if args.action == "path":
        target = models_install.install_dir(env.environ)
        for d in models.search_dirs(args.model, env.environ):
            env.say(f"{d}  (voicegame models install writes here)" if d == target else str(d))
        if target not in models.search_dirs(args.model, env.environ):
            env.say(f"{target}  (voicegame models install writes here)")
        return 0
    if args.action == "list":
        found = models.list_models(env=env.environ, explicit=args.model)
        broken = models.broken_models(env=env.environ, explicit=args.model)
        if not found:
            env.say("No speech models installed. " + models.install_hint(args.lang))
        for lang, path in found:
            env.say(f"{lang}: {path}")
        for path, problem in broken:
            env.say(f"BROKEN: {path} ({problem}): delete it, or run `voicegame models install "
                    f"{models.model_language(path) or 'LANG'}` again.")
        return 0
    progress = _progress_printer(env.stderr) if env.stderr.isatty() else None
    try:
        result = models_install.install(args.lang, source=args.source, env=env.environ, progress=progress,
                                        say=env.say)
    except models_install.InstallError as exc:
        env.stderr.write(f"voicegame: {exc}\n")
        return 1
    if result.already:
        env.say(f"The {models.language_name(args.lang)} model is already installed in {result.path}.")
    else:
        env.say(f"Installed the {models.language_name(args.lang)} model in {result.path}.")
    return 0


def _progress_printer(stream):
    """A download progress line (percent and MB) rewritten in place on a terminal."""
    def show(done: int, total: int | None) -> None:
        text = f"{done / 1e6:.0f} MB" + (f" of {total / 1e6:.0f} MB ({100 * done // total}%)" if total else "")
        stream.write("\r  " + text)
        if total and done >= total:
            stream.write("\n")
        stream.flush()
    return show


def cmd_bench(args, env: Env) -> int:
    if getattr(args, "engines", False):  # groups 9-10 (voicegame.bench_engines)
        from voicegame import bench_engines

        return bench_engines.run_from_args(args, env.stdout, env.stderr)
    return bench_module.run_from_args(args, env.stdout, env.stderr)


COMMANDS = {"bench": cmd_bench, "play": cmd_play, "resume": cmd_resume, "kiosk": cmd_kiosk, "hear": cmd_hear, "doctor": cmd_doctor,
            "models": cmd_models, "say": cmd_say}


def version() -> str:
    """The installed package's version (the source's when not installed)."""
    from importlib import metadata

    try:
        return metadata.version("voicegame")
    except metadata.PackageNotFoundError:
        from voicegame import __version__

        return __version__


def main(argv: list[str] | None = None, env: Env | None = None) -> int:
    """Run the command line; returns the exit status (:mod:`voicegame.logs`: 0 success,
    1 runtime failure, 2 usage error; 130 after Ctrl-C)."""
    env = env or Env()
    parser = build_parser(env.environ)
    argv = list(sys.argv[1:] if argv is None else argv)
    flags = [a for a in argv[:1] if a in ("-v", "-vv", "--verbose")]
    rest = argv[len(flags):]
    if rest and rest[0].startswith("-") and rest[0] not in ("-h", "--help", "--version", "-v", "-vv", "--verbose"):
        argv = [*flags, "kiosk", *rest]  # `voicegame --input keyboard --output text`: the lobby with those options
    try:  # help, version and usage errors go to this run's streams
        with contextlib.redirect_stdout(env.stdout), contextlib.redirect_stderr(env.stderr):
            args = parser.parse_args(argv)
    except SystemExit as exc:  # argparse: 2 for a usage error, 0 after --help / --version
        return int(exc.code or 0)
    if args.command is None:  # plain `voicegame`: the spoken lobby
        verbose = args.verbose
        args = parser.parse_args(["kiosk"])
        args.verbose = verbose
    run = logs.setup(args.verbose, env.stderr, env.environ)
    logs.logging.getLogger(logs.LOGGER).info("voicegame %s: %s", version(),
                                             " ".join(argv) or "kiosk")
    try:
        with environment(env.environ):  # records, autosaves, the bank position: this run's folders
            return COMMANDS[args.command](args, env)
    except CliError as exc:
        env.stderr.write(f"voicegame: {exc}\n")
        return logs.USAGE
    except logs.Failure as exc:
        env.stderr.write(f"voicegame: {exc}\n")
        return logs.FAILURE
    except KeyboardInterrupt:
        env.say("Stopped.")
        return 130
    except BrokenPipeError:
        raise
    except Exception as exc:  # a bug: one sentence here, the traceback in the log file
        path = logs.crash(traceback.format_exc(), env.environ)
        env.stderr.write(f"voicegame: internal error ({type(exc).__name__}); the details are in {path}.\n")
        return logs.FAILURE
    finally:
        run.close()


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
