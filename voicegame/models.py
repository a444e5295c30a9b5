"""Where Vosk speech models are found, and how one is installed.

Search order (first match wins), see :func:`search_dirs`:

1. an explicit ``--model DIR`` (taken as-is when it is itself a model folder);
2. ``$VOICEGAME_MODEL_DIR``;
3. ``<project>/models/`` (the folder beside the ``voicegame`` package; in a checkout only);
4. the user data folder, ``platformdirs.user_data_dir("voicegame")/models``;
5. Vosk's own folders (``vosk.MODEL_DIRS``: ``$VOSK_MODEL_PATH``, ``/usr/share/vosk``,
   ``~/.cache/vosk`` …).

A model for language L is a folder named ``vosk-model-small-L-…`` or
``vosk-model-L-…`` holding ``am/final.mdl`` or ``conf/model.conf``. Small models
are preferred: they load fast and accept a grammar (big models with a static graph
ignore it). A folder that cannot be used (:func:`model_problem`) is never found; it is
listed by :func:`broken_models`. Nothing is downloaded unless :func:`install` is called
(:mod:`voicegame.models_install`).
"""

from __future__ import annotations

import json
import os
import re
import sys
from pathlib import Path
from typing import Mapping

from voicegame.ports import DeviceError

ENV_VAR = "VOICEGAME_MODEL_DIR"
#: Written by ``models install`` into a model folder once Vosk has loaded it: every file's size.
MANIFEST = ".voicegame-model.json"
LANGUAGE_NAMES = {"en": "English", "es": "Spanish", "nl": "Dutch", "ko": "Korean"}
_NAME = re.compile(r"^vosk-model-(?:(small)-)?([a-z]{2,3})(?:-|$)")


def language_name(lang: str) -> str:
    """The English name of a language code (``"es"`` → ``"Spanish"``), else the code."""
    return LANGUAGE_NAMES.get(lang, lang)


def looks_like_model(path: str | Path) -> bool:
    """True when ``path`` is an unpacked Vosk model folder (``am/final.mdl`` or ``conf/model.conf``)."""
    p = Path(path)
    return (p / "am" / "final.mdl").is_file() or (p / "conf" / "model.conf").is_file()


def project_models_dir() -> Path:
    """``<project>/models``: the folder beside the ``voicegame`` package folder."""
    return Path(__file__).resolve().parent.parent / "models"


def in_checkout() -> bool:
    """True when the package runs from a source checkout (``pyproject.toml`` beside it), not an install."""
    return (Path(__file__).resolve().parent.parent / "pyproject.toml").is_file()


def user_models_dir() -> Path:
    """``platformdirs.user_data_dir("voicegame")/models``: where :func:`install` puts models."""
    import platformdirs

    return Path(platformdirs.user_data_dir("voicegame")) / "models"


def _vosk_dirs(env: Mapping[str, str]) -> list[Path]:
    home = Path.home()
    try:
        import vosk

        fixed = [Path(d) for d in vosk.MODEL_DIRS[1:] if d is not None]
    except (ImportError, OSError, AttributeError):
        fixed = [Path("/usr/share/vosk"), home / "AppData/Local/vosk", home / ".cache/vosk"]
    # Vosk lists its folders of every platform; keep this platform's
    if sys.platform == "win32":
        fixed = [d for d in fixed if d != Path("/usr/share/vosk")]
    else:
        fixed = [d for d in fixed if "AppData" not in d.parts]
    # vosk.MODEL_DIRS[0] is $VOSK_MODEL_PATH read at import; read it from ``env`` instead.
    first = [Path(env["VOSK_MODEL_PATH"])] if env.get("VOSK_MODEL_PATH") else []
    return first + fixed


def search_dirs(explicit: str | Path | None = None, env: Mapping[str, str] = os.environ) -> list[Path]:
    """The folders searched for models, in order (missing folders included, no duplicates).

    :param explicit: the ``--model DIR`` argument, if any.
    :param env: environment variables (``VOICEGAME_MODEL_DIR``, ``VOSK_MODEL_PATH``).
    """
    dirs: list[Path] = []
    if explicit:
        dirs.append(Path(explicit).expanduser())
    if env.get(ENV_VAR):
        dirs.append(Path(env[ENV_VAR]).expanduser())
    if in_checkout():
        dirs.append(project_models_dir())
    dirs.append(user_models_dir())
    dirs.extend(_vosk_dirs(env))
    unique: list[Path] = []
    for d in dirs:
        if d not in unique:
            unique.append(d)
    return unique


def model_language(path: str | Path) -> str | None:
    """The language code in a model folder's name (``vosk-model-small-en-us-0.15`` → ``"en"``)."""
    m = _NAME.match(Path(path).name)
    return m.group(2) if m else None


def _models_in(directory: Path) -> list[Path]:
    try:
        entries = list(directory.iterdir())
    except OSError:
        return []
    found = [e for e in entries if e.is_dir() and _NAME.match(e.name) and looks_like_model(e)
             and model_problem(e) is None]
    # small models first; within each, the name sorting last (newest version) first
    found.sort(key=lambda e: e.name, reverse=True)
    return sorted(found, key=lambda e: _NAME.match(e.name).group(1) != "small")


def find_model(lang: str, explicit: str | Path | None = None,
               env: Mapping[str, str] = os.environ) -> Path | None:
    """The model folder for ``lang``, or ``None`` when none is installed.

    :param lang: a language code (``"en"``).
    :param explicit: ``--model DIR``: returned as-is when it is a model folder,
        otherwise searched first like the other folders.
    :param env: environment variables.
    """
    if explicit and looks_like_model(Path(explicit).expanduser()):
        return Path(explicit).expanduser()
    for d in search_dirs(explicit, env):
        for m in _models_in(d):
            if model_language(m) == lang:
                return m
    return None


def list_models(env: Mapping[str, str] = os.environ, explicit: str | Path | None = None) -> list[tuple[str, Path]]:
    """Every installed model as ``(language, folder)``, in search order."""
    out: list[tuple[str, Path]] = []
    if explicit and looks_like_model(Path(explicit).expanduser()):
        p = Path(explicit).expanduser()
        out.append((model_language(p) or "?", p))
    for d in search_dirs(explicit, env):
        for m in _models_in(d):
            if all(m != p for _, p in out):
                out.append((model_language(m), m))
    return out


def model_problem(path: str | Path) -> str | None:
    """Why a folder named like a model cannot be used, or ``None`` when it looks whole.

    A folder installed by ``models install`` is checked against its manifest (every file
    there with its size); any other one by its shape: a model file that is empty, or an
    acoustic model (``am/final.mdl``) without a decoding graph (``graph/HCLG.fst`` or
    ``graph/HCLr.fst``; small models also have ``graph/Gr.fst``).
    """
    p = Path(path)
    manifest = p / MANIFEST
    if manifest.is_file():
        try:
            files = json.loads(manifest.read_text(encoding="utf-8"))["files"]
            for name, size in files.items():
                f = p / name
                if not f.is_file():
                    return f"{name} is missing"
                if f.stat().st_size != size:
                    return f"{name} is cut short" if f.stat().st_size < size else f"{name} has changed"
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            return f"its {MANIFEST} cannot be read"
        return None
    if not looks_like_model(p):
        return "it has no am/final.mdl or conf/model.conf"
    for name in ("am/final.mdl", "conf/model.conf", "conf/mfcc.conf", "graph/HCLG.fst", "graph/HCLr.fst",
                 "graph/Gr.fst"):
        f = p / name
        if f.is_file() and f.stat().st_size == 0:
            return f"{name} is empty"
    if (p / "am" / "final.mdl").is_file() and not any((p / "graph" / g).is_file() for g in ("HCLG.fst", "HCLr.fst")):
        return "it has no decoding graph (graph/HCLG.fst or graph/HCLr.fst)"
    return None


def broken_models(env: Mapping[str, str] = os.environ, explicit: str | Path | None = None) -> list[tuple[Path, str]]:
    """Folders named like a model (``vosk-model-…``) that cannot be used, each with the reason
    (:func:`model_problem`), in search order; they are never found or listed as installed."""
    out: list[tuple[Path, str]] = []
    for d in search_dirs(explicit, env):
        try:
            entries = sorted(d.iterdir())
        except OSError:
            continue
        for e in entries:
            if e.is_dir() and _NAME.match(e.name):
                problem = model_problem(e)
                if problem is not None and all(e != p for p, _ in out):
                    out.append((e, problem))
    return out


def install_hint(lang: str) -> str:
    """One sentence telling a person how to get a speech model for ``lang``."""
    return (
        f"No speech model for {language_name(lang)}: run `voicegame models install {lang}` "
        "(needs internet once), or play with --input keyboard."
    )
