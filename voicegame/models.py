"""Where Vosk speech models are found, and how one is installed.

Search order (first match wins), see :func:`search_dirs`:

1. an explicit ``--model DIR`` (taken as-is when it is itself a model folder);
2. ``$VOICEGAME_MODEL_DIR``;
3. ``<project>/models/`` (the folder beside the ``voicegame`` package);
4. the user data folder, ``platformdirs.user_data_dir("voicegame")/models``;
5. Vosk's own folders (``vosk.MODEL_DIRS``: ``$VOSK_MODEL_PATH``, ``/usr/share/vosk``,
   ``~/.cache/vosk`` …).

A model for language L is a folder named ``vosk-model-small-L-…`` or
``vosk-model-L-…`` holding ``am/final.mdl`` or ``conf/model.conf``. Small models
are preferred: they load fast and accept a grammar (big models with a static graph
ignore it). Nothing is downloaded unless :func:`install` is called.
"""

from __future__ import annotations

import contextlib
import io
import os
import re
from pathlib import Path
from typing import Mapping

from voicegame.ports import DeviceError

ENV_VAR = "VOICEGAME_MODEL_DIR"
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


def user_models_dir() -> Path:
    """``platformdirs.user_data_dir("voicegame")/models``: where :func:`install` puts models."""
    import platformdirs

    return Path(platformdirs.user_data_dir("voicegame")) / "models"


def _vosk_dirs(env: Mapping[str, str]) -> list[Path]:
    try:
        import vosk

        fixed = [Path(d) for d in vosk.MODEL_DIRS[1:] if d is not None]
    except (ImportError, OSError, AttributeError):
        home = Path.home()
        fixed = [Path("/usr/share/vosk"), home / "AppData/Local/vosk", home / ".cache/vosk"]
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
    found = [e for e in entries if e.is_dir() and _NAME.match(e.name) and looks_like_model(e)]
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


def install_hint(lang: str) -> str:
    """One sentence telling a person how to get a speech model for ``lang``."""
    return (
        f"No speech model for {language_name(lang)}: run `voicegame models install {lang}` "
        "(needs internet once), or play with --input keyboard."
    )


def _fetch_model_list() -> list[dict]:
    """Vosk's published model list (``vosk.MODEL_LIST_URL``); the one network read before a download."""
    import requests
    import vosk

    response = requests.get(vosk.MODEL_LIST_URL, timeout=10)
    response.raise_for_status()
    return response.json()


def _pick(models: list[dict], lang: str) -> str | None:
    """The model Vosk itself would pick for ``lang``: small, not obsolete (as ``get_model_by_lang``)."""
    names = [m.get("name", "") for m in models
             if m.get("lang") == lang and m.get("type") == "small" and str(m.get("obsolete")) == "false"]
    if not names:  # list languages are like "en-us"; accept that for "en"
        names = [m.get("name", "") for m in models
                 if str(m.get("lang", "")).split("-")[0] == lang and m.get("type") == "small"
                 and str(m.get("obsolete")) == "false"]
    names = [n for n in names if n]
    return sorted(names)[-1] if names else None


class _VoskDownloader:
    """Borrows Vosk's own downloader (zip download with a tqdm bar, unzip, delete zip)."""

    def __init__(self, vosk):
        self.download_model = vosk.Model.download_model.__get__(self)
        self.download_progress_hook = vosk.Model.download_progress_hook.__get__(self)


def install(lang: str, dest_dir: str | Path | None = None, progress: bool = True) -> Path:
    """Download and unpack the small Vosk model for ``lang`` with Vosk's own downloader.

    :param lang: a language code (``"en"``).
    :param dest_dir: where to unpack; ``None`` is :func:`user_models_dir`.
    :param progress: show Vosk's tqdm progress bar.
    :returns: the model folder (already there → returned without downloading).
    :raises DeviceError: offline, unknown language, or a broken download (one sentence).
    """
    dest = Path(dest_dir) if dest_dir else user_models_dir()
    try:
        import vosk
    except (ImportError, OSError) as exc:
        raise DeviceError("The Vosk speech recognizer is missing: run `pip install vosk`.") from exc
    offline = DeviceError(
        f"Could not download the {language_name(lang)} speech model (no internet?): connect "
        f"once and run `voicegame models install {lang}` again, or unpack a model into {dest}."
    )
    try:
        models = _fetch_model_list()
    except (Exception, SystemExit) as exc:  # requests errors, bad JSON
        raise offline from exc
    name = _pick(models, lang)
    if name is None:
        raise DeviceError(
            f"Vosk offers no small speech model for the language code {lang!r}: see "
            "https://alphacephei.com/vosk/models for the codes it has."
        )
    target = dest / name
    if looks_like_model(target):
        return target
    sink = contextlib.nullcontext() if progress else contextlib.redirect_stderr(io.StringIO())
    try:
        dest.mkdir(parents=True, exist_ok=True)
        with sink:
            _VoskDownloader(vosk).download_model(target)
    except (Exception, SystemExit) as exc:  # URLError, OSError, BadZipFile, Vosk's sys.exit
        with contextlib.suppress(OSError):
            Path(str(target) + ".zip").unlink()
        raise offline from exc
    if not looks_like_model(target):
        raise DeviceError(
            f"The downloaded {language_name(lang)} model in {target} is incomplete: delete "
            f"that folder and run `voicegame models install {lang}` again."
        )
    return target
