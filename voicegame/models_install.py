"""``voicegame models install LANG``: fetch, verify and unpack a Vosk model without ever
leaving a broken folder behind.

The steps, each failing with an :class:`InstallError` that names its cause:

1. the model list (``<base>/model-list.json``; ``$VOICEGAME_MODEL_BASE_URL`` replaces
   the base ``https://alphacephei.com/vosk/models/`` for the list and the zips) gives
   the name, size (bytes) and md5 of the language's small model — English is
   ``vosk-model-small-en-us-*`` by name, the highest version;
2. an installed, healthy model of that name is the answer at once; with no network, an
   installed healthy model of the language is too (an offline re-run succeeds);
3. free space in the models folder is checked for the download plus at least as much
   again for unpacking;
4. the zip is downloaded to ``.<name>.zip.part`` beside the target, resumed with an HTTP
   ``Range`` request when a cut transfer left a part file;
5. its size and md5 are compared with the list's;
6. it is unpacked (after an exact free-space check from the zip's directory) into a
   temporary folder beside the target, and must hold a Vosk model;
7. a child process loads it with Vosk (a crash there kills only the child);
8. a manifest of its files (``.voicegame-model.json``) is written and the folder is
   renamed into place atomically (a broken folder of the same name is replaced).

``--from FILE|URL`` skips the list: a local zip is unpacked from where it is, a URL is
downloaded (with resume) first; size and md5 cannot be checked then, the load check still
runs. Network reads use ``urllib`` (stdlib), 30 s socket timeout.
"""

from __future__ import annotations

import errno
import hashlib
import http.client
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import urllib.error
import urllib.parse
import urllib.request
import zipfile
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Mapping

from voicegame import models

BASE_URL_VAR = "VOICEGAME_MODEL_BASE_URL"
DEFAULT_BASE_URL = "https://alphacephei.com/vosk/models/"
LIST_NAME = "model-list.json"
TIMEOUT_S = 30.0
CHUNK = 1 << 20
#: Spare bytes kept free beyond what the files need (the filesystem's own bookkeeping).
MARGIN_BYTES = 8 << 20
#: Models picked by name for a language (the list's language codes are like "en-us").
PREFERRED = {"en": re.compile(r"^vosk-model-small-en-us-\d[\d.]*$")}
#: Run in a child process by :func:`load_check`: exit 0 when Vosk loads the model.
LOAD_CHECK = "import sys, vosk; vosk.SetLogLevel(-1); vosk.Model(sys.argv[1])"
LOAD_TIMEOUT_S = 600.0


class InstallError(Exception):
    """An install step failed; ``str()`` is one sentence naming the cause and the fix.

    :param cause: ``"offline"``, ``"http"``, ``"cut"``, ``"size"``, ``"checksum"``,
        ``"disk_full"``, ``"not_a_zip"``, ``"not_a_model"``, ``"wrong_language"``,
        ``"load_failed"``, ``"unknown_language"``, ``"io"``.
    """

    def __init__(self, cause: str, message: str):
        super().__init__(message)
        self.cause = cause


@dataclass(frozen=True)
class Offer:
    """One model of the list: ``name``, zip ``url``, ``size`` in bytes and ``md5`` (hex), when known."""

    name: str
    url: str
    size: int | None = None
    md5: str | None = None


def base_url(env: Mapping[str, str] = os.environ) -> str:
    """The folder URL of the list and the zips (always ending in ``/``)."""
    url = (env.get(BASE_URL_VAR) or DEFAULT_BASE_URL).strip()
    return url if url.endswith("/") else url + "/"


def install_dir(env: Mapping[str, str] = os.environ) -> Path:
    """Where ``models install`` writes: ``$VOICEGAME_MODEL_DIR``, else :func:`models.user_models_dir`."""
    return Path(env["VOICEGAME_MODEL_DIR"]).expanduser() if env.get("VOICEGAME_MODEL_DIR") \
        else models.user_models_dir()


def _mb(n: int | float) -> str:
    return f"{n / 1e6:.0f} MB" if n >= 1e6 else f"{n / 1e6:.1f} MB"


# ---------------------------------------------------------------------- network
def _network_error(url: str, exc: BaseException) -> InstallError:
    """The :class:`InstallError` for a failed request of ``url``."""
    if isinstance(exc, urllib.error.HTTPError):
        return InstallError("http", f"The server answered HTTP {exc.code} ({exc.reason}) for {url}: "
                                    f"check the address or the mirror ({BASE_URL_VAR}).")
    host = urllib.parse.urlsplit(url).netloc or url
    return InstallError("offline", f"Could not reach {host} (no internet connection?): connect once and run "
                                   "the same command again, or install from a file with --from FILE.")


def _open(url: str, headers: dict | None = None):
    request = urllib.request.Request(url, headers={"User-Agent": "voicegame", **(headers or {})})
    return urllib.request.urlopen(request, timeout=TIMEOUT_S)


def fetch_list(env: Mapping[str, str] = os.environ) -> list[dict]:
    """The model list at :func:`base_url`.

    :raises InstallError: offline, an HTTP error, or not a JSON list.
    """
    url = base_url(env) + LIST_NAME
    try:
        with _open(url) as response:
            data = json.loads(response.read().decode("utf-8"))
    except urllib.error.URLError as exc:
        raise _network_error(url, exc) from exc
    except (OSError, http.client.HTTPException) as exc:
        raise _network_error(url, exc) from exc
    except ValueError as exc:
        raise InstallError("http", f"{url} is not a model list (not JSON): check the mirror ({BASE_URL_VAR}).") from exc
    if not isinstance(data, list):
        raise InstallError("http", f"{url} is not a model list: check the mirror ({BASE_URL_VAR}).")
    return [e for e in data if isinstance(e, dict)]


def version_key(name: str) -> tuple[int, ...]:
    """The version numbers at the end of a model name (``…-0.15`` → ``(0, 15)``), for sorting."""
    found = re.search(r"-(\d+(?:\.\d+)*)$", name)
    return tuple(int(p) for p in found.group(1).split(".")) if found else ()


def pick(entries: list[dict], lang: str, base: str = DEFAULT_BASE_URL) -> Offer | None:
    """The small, current model of ``lang`` in the list, highest version first.

    English is picked by name (``vosk-model-small-en-us-<version>``), others by the list's
    language code (``"es"``; else one starting ``"es-"``). The zip URL is ``base + name + ".zip"``.
    """
    usable = [e for e in entries if isinstance(e.get("name"), str) and e.get("type") == "small"
              and str(e.get("obsolete", "false")).lower() == "false"]
    if lang in PREFERRED:
        chosen = [e for e in usable if PREFERRED[lang].match(e["name"])]
    else:
        chosen = [e for e in usable if e.get("lang") == lang] or \
                 [e for e in usable if str(e.get("lang", "")).startswith(lang + "-")]
    if not chosen:
        return None
    best = max(chosen, key=lambda e: version_key(e["name"]))
    size = best.get("size")
    md5 = best.get("md5")
    return Offer(best["name"], base + best["name"] + ".zip",
                 int(size) if isinstance(size, (int, str)) and str(size).isdigit() else None,
                 md5.lower() if isinstance(md5, str) and re.fullmatch(r"[0-9a-fA-F]{32}", md5) else None)


def download(url: str, part: Path, expected_size: int | None = None,
             progress: Callable[[int, int | None], None] | None = None) -> Path:
    """Download ``url`` into ``part``, continuing a part file left by a cut transfer.

    :param expected_size: bytes of the whole file, when known (a complete part is not fetched again).
    :param progress: ``progress(bytes_so_far, total_or_None)`` after each chunk.
    :raises InstallError: offline, HTTP status, cut transfer (the part file is kept, a re-run
        resumes), disk full.
    """
    have = part.stat().st_size if part.exists() else 0
    if expected_size is not None and have > expected_size:
        part.unlink()
        have = 0
    if expected_size is not None and have == expected_size:
        return part
    try:
        response = _open(url, {"Range": f"bytes={have}-"} if have else None)
    except urllib.error.HTTPError as exc:
        if exc.code == 416 and have and expected_size is None:
            return part  # the part file already holds everything the server has
        raise _network_error(url, exc) from exc
    except (urllib.error.URLError, OSError, http.client.HTTPException) as exc:
        raise _network_error(url, exc) from exc
    with response:
        total: int | None = None
        if response.status == 206:
            found = re.match(r"bytes (\d+)-\d+/(\d+|\*)", response.headers.get("Content-Range", ""))
            if not found or int(found.group(1)) != have:
                have, mode = 0, "wb"  # an answer we cannot append: start again
                response.close()
                return download(url, _fresh(part), expected_size, progress)
            mode = "ab"
            total = int(found.group(2)) if found.group(2) != "*" else None
        else:
            have, mode = 0, "wb"
            length = response.headers.get("Content-Length")
            total = int(length) if length and length.isdigit() else None
        total = total if total is not None else expected_size
        got = have
        try:
            with part.open(mode) as fh:
                while True:
                    try:
                        chunk = response.read(CHUNK)
                    except (http.client.IncompleteRead, OSError, http.client.HTTPException) as exc:
                        if isinstance(exc, OSError) and exc.errno == errno.ENOSPC:
                            raise
                        break
                    if not chunk:
                        break
                    fh.write(chunk)
                    got += len(chunk)
                    if progress:
                        progress(got, total)
                fh.flush()
                os.fsync(fh.fileno())
        except OSError as exc:
            if exc.errno == errno.ENOSPC:
                raise _disk_full(part.parent, total or got) from exc
            raise InstallError("io", f"Cannot write {part}: {exc.strerror or exc}.") from exc
    if total is not None and got < total:
        raise InstallError("cut", f"The download stopped after {_mb(got)} of {_mb(total)}: run the same "
                                  "command again to continue where it stopped.")
    return part


def _fresh(part: Path) -> Path:
    part.unlink(missing_ok=True)
    return part


# ---------------------------------------------------------------------- checks
def md5_of(path: Path) -> str:
    """The md5 of a file, hex."""
    digest = hashlib.md5()
    with path.open("rb") as fh:
        for chunk in iter(lambda: fh.read(CHUNK), b""):
            digest.update(chunk)
    return digest.hexdigest()


def free_bytes(folder: Path) -> int:
    """Free bytes for an unprivileged writer on the filesystem of ``folder`` (or its nearest existing parent)."""
    p = folder
    while not p.exists() and p != p.parent:
        p = p.parent
    return shutil.disk_usage(p).free


def _disk_full(folder: Path, needed: int) -> InstallError:
    return InstallError("disk_full", f"Not enough free space in {folder}: the model needs about {_mb(needed)} "
                                     f"and {_mb(free_bytes(folder))} is free; free some space and run the "
                                     "same command again.")


def require_space(folder: Path, needed: int) -> None:
    """:raises InstallError: ``disk_full`` when ``folder`` has less than ``needed`` bytes (plus a margin) free."""
    if free_bytes(folder) < needed + MARGIN_BYTES:
        raise _disk_full(folder, needed)


def load_check(folder: Path) -> None:
    """Load the model with Vosk in a child process (:data:`LOAD_CHECK`).

    :raises InstallError: ``load_failed``: Vosk refused it, crashed (a signal) or hung.
    """
    try:
        proc = subprocess.run([sys.executable, "-c", LOAD_CHECK, str(folder)], stdin=subprocess.DEVNULL,
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=LOAD_TIMEOUT_S)
    except subprocess.TimeoutExpired as exc:
        raise InstallError("load_failed", f"Vosk did not finish loading the model in {LOAD_TIMEOUT_S:.0f} s: "
                                          "the files may be damaged; the model was not installed.") from exc
    if proc.returncode < 0:
        try:
            name = signal.Signals(-proc.returncode).name
        except ValueError:
            name = f"signal {-proc.returncode}"
        raise InstallError("load_failed", f"Vosk crashed ({name}) while loading the model: its files are "
                                          "damaged or not for this Vosk version; the model was not installed.")
    if proc.returncode != 0:
        raise InstallError("load_failed", "Vosk cannot load the model (its files are damaged or not for this "
                                          "Vosk version); the model was not installed.")


# ---------------------------------------------------------------------- unpacking
def _members(zf: zipfile.ZipFile, fallback: str) -> tuple[str, list[tuple[zipfile.ZipInfo, str]]]:
    """The model's folder name and each file member with its path inside the model folder.

    A zip whose files all sit in one top folder names the model after it; otherwise the
    model is named ``fallback``. Absolute paths and ``..`` are refused.
    """
    files = [i for i in zf.infolist() if not i.is_dir()]
    parts = []
    for info in files:
        path = info.filename.replace("\\", "/")
        pieces = [p for p in path.split("/") if p not in ("", ".")]
        if path.startswith("/") or ".." in pieces or not pieces:
            raise InstallError("not_a_model", f"The zip holds an unsafe path ({info.filename}), so it was not unpacked.")
        parts.append(pieces)
    tops = {p[0] for p in parts if len(p) > 1}
    if len(tops) == 1 and all(len(p) > 1 for p in parts):
        top = tops.pop()
        return top, [(i, "/".join(p[1:])) for i, p in zip(files, parts)]
    return fallback, [(i, "/".join(p)) for i, p in zip(files, parts)]


def unpack(zip_path: Path, dest: Path, lang: str, fallback: str) -> tuple[str, Path]:
    """Unpack ``zip_path`` into a new temporary folder in ``dest``.

    :returns: the model's name and the temporary folder (the caller renames or removes it).
    :raises InstallError: not a zip / corrupt, not a Vosk model, another language, disk full.
    """
    try:
        zf = zipfile.ZipFile(zip_path)
    except (zipfile.BadZipFile, OSError) as exc:
        raise InstallError("not_a_zip", f"{zip_path.name} is not a readable zip file (a damaged or unfinished "
                                        "download); the model was not installed.") from exc
    with zf:
        name, members = _members(zf, fallback)
        if models.model_language(name) is None:
            name = f"vosk-model-{lang}-{re.sub(r'[^A-Za-z0-9.]+', '-', name).strip('-') or 'local'}"
        found = models.model_language(name)
        if found != lang:
            raise InstallError("wrong_language", f"{zip_path.name} holds {name}, a model for "
                                                 f"{models.language_name(found)}, not for {models.language_name(lang)}.")
        require_space(dest, sum(i.file_size for i, _ in members))
        tmp = Path(tempfile.mkdtemp(prefix=f".{name}.unpacking-", dir=dest))
        try:
            for info, inside in members:
                target = tmp / inside
                target.parent.mkdir(parents=True, exist_ok=True)
                with zf.open(info) as src, target.open("wb") as out:
                    shutil.copyfileobj(src, out, CHUNK)
        except (zipfile.BadZipFile, EOFError, zlib.error) as exc:
            shutil.rmtree(tmp, ignore_errors=True)
            raise InstallError("not_a_zip", f"{zip_path.name} is damaged ({exc}); the model was not installed.") from exc
        except OSError as exc:
            shutil.rmtree(tmp, ignore_errors=True)
            if exc.errno == errno.ENOSPC:
                raise _disk_full(dest, sum(i.file_size for i, _ in members)) from exc
            raise InstallError("io", f"Cannot unpack into {dest}: {exc.strerror or exc}.") from exc
    if not models.looks_like_model(tmp):
        shutil.rmtree(tmp, ignore_errors=True)
        raise InstallError("not_a_model", f"{zip_path.name} holds no Vosk model (no am/final.mdl or "
                                          "conf/model.conf); the model was not installed.")
    return name, tmp


def write_manifest(folder: Path, name: str, source: str, md5: str | None) -> None:
    """Write :data:`models.MANIFEST` (every file's size) into ``folder``."""
    files = {str(p.relative_to(folder)).replace(os.sep, "/"): p.stat().st_size
             for p in sorted(folder.rglob("*")) if p.is_file()}
    manifest = {"name": name, "source": source, "md5": md5, "files": files}
    with (folder / models.MANIFEST).open("w", encoding="utf-8") as fh:
        json.dump(manifest, fh, indent=1)
        fh.flush()
        os.fsync(fh.fileno())


def put_in_place(tmp: Path, target: Path) -> None:
    """Rename ``tmp`` to ``target`` (a broken folder there is moved aside first, then removed)."""
    old = None
    if target.exists():
        old = target.with_name(f".{target.name}.old-{os.getpid()}")
        shutil.rmtree(old, ignore_errors=True)
        os.rename(target, old)
    os.rename(tmp, target)
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)
    try:
        fd = os.open(target.parent, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
    except OSError:
        pass


def _healthy(folder: Path) -> bool:
    return folder.is_dir() and models.looks_like_model(folder) and models.model_problem(folder) is None


def installed(lang: str, dest: Path) -> Path | None:
    """A healthy installed model of ``lang`` in ``dest`` (English: ``vosk-model-small-en-us-*``), highest version."""
    try:
        entries = [e for e in dest.iterdir() if e.is_dir() and models.model_language(e) == lang]
    except OSError:
        return None
    if lang in PREFERRED:
        entries = [e for e in entries if e.name.startswith("vosk-model-small-en-us-")] or entries
    entries = [e for e in entries if _healthy(e)]
    return max(entries, key=lambda e: (e.name.startswith("vosk-model-small-"), version_key(e.name)), default=None)


# ---------------------------------------------------------------------- the whole install
@dataclass
class Result:
    """What :func:`install` did: the model folder and whether it was there already."""

    path: Path
    already: bool = False


def install(lang: str, source: str | None = None, env: Mapping[str, str] = os.environ,
            dest_dir: Path | None = None, progress: Callable[[int, int | None], None] | None = None,
            say: Callable[[str], None] = lambda s: None) -> Result:
    """Install the small Vosk model of ``lang`` (see the module docstring for the steps).

    :param source: ``--from``: a zip file path or an ``http(s)://`` URL; ``None`` uses the list.
    :param dest_dir: the models folder (default :func:`install_dir`).
    :param say: one line for the person at the terminal per step.
    :raises InstallError: every failure, with its cause; nothing broken is left in ``dest_dir``
        (only a download's ``.part`` file, for a resume).
    """
    dest = Path(dest_dir) if dest_dir else install_dir(env)
    try:
        dest.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        if exc.errno == errno.ENOSPC:
            raise _disk_full(dest, 0) from exc
        raise InstallError("io", f"Cannot create {dest}: {exc.strerror or exc}.") from exc
    if source and not re.match(r"^https?://", source):
        return _install_file(lang, Path(source).expanduser(), dest, say)
    if source:
        stem = Path(urllib.parse.urlsplit(source).path).name
        stem = stem[:-4] if stem.lower().endswith(".zip") else stem
        offer = Offer(stem or f"vosk-model-{lang}", source)
        if offer.name and _healthy(dest / offer.name) and models.model_language(offer.name) == lang:
            return Result(dest / offer.name, already=True)
    else:
        try:
            entries = fetch_list(env)
        except InstallError as exc:
            have = installed(lang, dest)
            if exc.cause == "offline" and have is not None:
                return Result(have, already=True)
            raise
        offer = pick(entries, lang, base_url(env))
        if offer is None:
            raise InstallError("unknown_language", f"The model list offers no small speech model for the language "
                                                   f"code {lang!r}: see https://alphacephei.com/vosk/models.")
        if _healthy(dest / offer.name):
            return Result(dest / offer.name, already=True)
    part = dest / f".{offer.name}.zip.part"
    have = part.stat().st_size if part.exists() else 0
    if offer.size is not None:
        require_space(dest, max(0, offer.size - have) + offer.size)
    say(f"Downloading {offer.name}{f' ({_mb(offer.size)})' if offer.size else ''} from {offer.url}"
        + (f", continuing after {_mb(have)}" if have else "") + ".")
    download(offer.url, part, offer.size, progress)
    size = part.stat().st_size
    if offer.size is not None and size != offer.size:
        part.unlink(missing_ok=True)
        raise InstallError("size", f"The download is {size} bytes but the model list says {offer.size}: the "
                                   "file was not installed; run the same command again.")
    digest = md5_of(part)
    if offer.md5 is not None and digest != offer.md5:
        part.unlink(missing_ok=True)
        raise InstallError("checksum", f"The download's checksum (md5 {digest}) is not the model list's "
                                       f"({offer.md5}): the file was not installed; run the same command again.")
    say("Checking and unpacking the model.")
    try:
        name, tmp = unpack(part, dest, lang, offer.name)
    except InstallError as exc:
        if exc.cause in ("not_a_zip", "not_a_model", "wrong_language"):
            part.unlink(missing_ok=True)  # a re-run must download it again, not resume it
        raise
    try:
        result = _finish(tmp, dest / name, offer.url, digest, say)
    except InstallError as exc:
        if exc.cause == "load_failed":
            part.unlink(missing_ok=True)  # a verified download that Vosk cannot load: nothing to resume
        raise
    part.unlink(missing_ok=True)
    return result


def _install_file(lang: str, path: Path, dest: Path, say) -> Result:
    if not path.is_file():
        raise InstallError("io", f"{path} is not a file: give the path of a model zip to --from.")
    stem = path.name[:-4] if path.name.lower().endswith(".zip") else path.name
    try:
        with zipfile.ZipFile(path) as zf:
            name, _ = _members(zf, stem)
    except (zipfile.BadZipFile, OSError) as exc:
        raise InstallError("not_a_zip", f"{path.name} is not a readable zip file; the model was not installed.") from exc
    if models.model_language(name) == lang and _healthy(dest / name):
        return Result(dest / name, already=True)
    say(f"Checking and unpacking {path.name}.")
    name, tmp = unpack(path, dest, lang, stem)
    return _finish(tmp, dest / name, str(path), None, say)


def _finish(tmp: Path, target: Path, source: str, md5: str | None, say) -> Result:
    try:
        say("Checking that Vosk can load it.")
        load_check(tmp)
        write_manifest(tmp, target.name, source, md5)
        put_in_place(tmp, target)
    except OSError as exc:
        shutil.rmtree(tmp, ignore_errors=True)
        if exc.errno == errno.ENOSPC:
            raise _disk_full(target.parent, 0) from exc
        raise InstallError("io", f"Cannot move the model into {target}: {exc.strerror or exc}.") from exc
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return Result(target)
