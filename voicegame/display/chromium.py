"""Headless Chromium driven over its DevTools protocol (a websocket; aiohttp's client).

Used by the screen's browser tests, ``scripts/screenshots.py`` and ``voicegame bench``'s
screen group: Debian's ``chromium``, started with a fresh profile and the flags that keep it
off the network, loads the page, evaluates JavaScript and takes screenshots.
"""

from __future__ import annotations

import asyncio
import base64
import itertools
import json
import shutil
import subprocess
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

#: Flags of every start: headless, no sandbox (root in CI), nothing fetched from the network.
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-extensions", "--hide-scrollbars", "--mute-audio", "--remote-debugging-port=0")


class BrowserError(RuntimeError):
    """Chromium is missing, did not start, or a DevTools command failed; ``str()`` says which."""


def chromium_path() -> str | None:
    """The Chromium executable (``chromium``, else ``chromium-browser``), or ``None``."""
    return shutil.which("chromium") or shutil.which("chromium-browser")


class Chromium:
    """One headless Chromium with one page. Use as a context manager.

    :param width, height: the page's viewport, CSS pixels.
    :raises BrowserError: no Chromium, or it did not open its DevTools port in ``timeout_s``.
    """

    def __init__(self, width: int = 1280, height: int = 720, timeout_s: float = 30.0):
        exe = chromium_path()
        if exe is None:
            raise BrowserError("Chromium is not installed (Debian: apt-get install chromium).")
        self._profile = tempfile.TemporaryDirectory(prefix="voicegame-chromium-", ignore_cleanup_errors=True)
        self.proc = subprocess.Popen([exe, *FLAGS, f"--user-data-dir={self._profile.name}",
                                      f"--window-size={width},{height}", "about:blank"],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        port_file = Path(self._profile.name) / "DevToolsActivePort"
        deadline = time.monotonic() + timeout_s
        while not (port_file.exists() and port_file.read_text().strip()):
            if self.proc.poll() is not None or time.monotonic() > deadline:
                self.close()
                raise BrowserError("Chromium did not start (no DevTools port).")
            time.sleep(0.02)
        port = int(port_file.read_text().split()[0])
        targets = json.loads(urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list", timeout=10).read())
        page = next(t for t in targets if t.get("type") == "page")
        self._ids = itertools.count(1)
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, name="chromium-devtools", daemon=True)
        self._thread.start()
        self._ws = self._run(self._connect(page["webSocketDebuggerUrl"]))
        self.send("Page.enable")
        self.send("Runtime.enable")
        self.viewport(width, height)

    # ------------------------------------------------------------------ plumbing
    def _run(self, coro, timeout_s: float = 60.0):
        return asyncio.run_coroutine_threadsafe(coro, self._loop).result(timeout_s)

    async def _connect(self, url: str):
        import aiohttp

        self._session = aiohttp.ClientSession()
        return await self._session.ws_connect(url, max_msg_size=0)

    async def _send(self, method: str, params: dict):
        ident = next(self._ids)
        await self._ws.send_str(json.dumps({"id": ident, "method": method, "params": params}))
        while True:
            message = json.loads((await self._ws.receive()).data)
            if message.get("id") == ident:
                if "error" in message:
                    raise BrowserError(f"{method}: {message['error'].get('message')}")
                return message.get("result", {})

    def send(self, method: str, **params) -> dict:
        """One DevTools command; :returns: its result. :raises BrowserError: it failed."""
        return self._run(self._send(method, params))

    # ------------------------------------------------------------------ the page
    def viewport(self, width: int, height: int, scale: float = 1.0) -> None:
        self.send("Emulation.setDeviceMetricsOverride", width=width, height=height, deviceScaleFactor=scale,
                  mobile=False)

    def open(self, url: str, ready: str = "document.readyState === 'complete'", timeout_s: float = 30.0) -> None:
        """Load ``url`` and wait until ``ready`` (JavaScript) is true."""
        self.send("Page.navigate", url=url)
        self.wait_for(ready, timeout_s)

    def evaluate(self, expression: str):
        """The value of a JavaScript expression (promises awaited). :raises BrowserError: it threw."""
        result = self.send("Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=True)
        if "exceptionDetails" in result:
            raise BrowserError(f"{expression[:80]}: {result['exceptionDetails'].get('text')}")
        return result.get("result", {}).get("value")

    def wait_for(self, expression: str, timeout_s: float = 20.0):
        """Poll ``expression`` until it is truthy; :returns: its value.
        :raises BrowserError: still false after ``timeout_s`` (a test fails, it never hangs)."""
        deadline = time.monotonic() + timeout_s
        while True:
            value = self.evaluate(expression)
            if value:
                return value
            if time.monotonic() > deadline:
                raise BrowserError(f"still false after {timeout_s} s: {expression}")
            time.sleep(0.02)

    def screenshot(self, path: Path) -> Path:
        """A PNG of the viewport."""
        data = self.send("Page.captureScreenshot", format="png")["data"]
        Path(path).write_bytes(base64.b64decode(data))
        return Path(path)

    def close(self) -> None:
        try:
            if getattr(self, "_ws", None) is not None:
                self._run(self._ws.close(), 5)
                self._run(self._session.close(), 5)
        except Exception:  # noqa: BLE001 - closing a browser that is already gone
            pass
        if getattr(self, "_loop", None) is not None:
            self._loop.call_soon_threadsafe(self._loop.stop)
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self._profile.cleanup()

    def __enter__(self) -> "Chromium":
        return self

    def __exit__(self, *exc) -> None:
        self.close()
