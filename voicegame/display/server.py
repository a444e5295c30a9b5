"""The screen's web server: aiohttp in a thread of its own (``voicegame[display]``).

aiohttp is an established asyncio HTTP server with streaming responses, which is all
Server-Sent Events need (no ASGI server beside it). The game thread only encodes each
public event and hands it to the server's loop (``call_soon_threadsafe``, never waits):
the host's timing never depends on a browser. Each page has a bounded queue
(:data:`QUEUE_EVENTS`); a slow page loses its oldest events, a vanished one is dropped.

Routes (GET only — the page only reads): ``/`` the page, ``/static/*`` its files,
``/labels.json`` the page's words in every language, ``/events`` the event stream.
Any address but loopback needs ``?token=…`` (a new one at every start).
"""

from __future__ import annotations

import asyncio
import hmac
import logging
import secrets
import threading
from importlib import resources
from pathlib import Path

from voicegame.display import is_loopback
from voicegame.display.events import ScreenState, encode, line
from voicegame.engine.observer import PUBLIC, Observers

log = logging.getLogger(__name__)

#: Events kept per page before the oldest are dropped (a page that cannot keep up).
QUEUE_EVENTS = 64
#: Seconds between keep-alive comments on an idle stream (a vanished page is noticed).
KEEPALIVE_S = 15.0
#: The page's files (package data).
STATIC_DIR = Path(str(resources.files("voicegame.display").joinpath("static")))


class DisplayUnavailable(RuntimeError):
    """The screen cannot start (aiohttp missing, the address is taken); ``str()`` is one sentence."""


def labels() -> dict:
    """The page's words per language: ``{lang: {key: text}}`` from ``prompts/<lang>/screen.toml``."""
    from voicegame.language.prompts import SUPPORTED, load_toml

    return {lang: load_toml(lang, "screen") for lang in SUPPORTED}


class Display:
    """The screen of one run: subscribe it to a table's :class:`Observers` (public audience).

    :param host, port: where to listen (port 0: a free port; :attr:`port` is the real one).
    :param token: required in the URL (``?token=``); default: none on loopback, a new
        random one on any other address.
    """

    def __init__(self, host: str = "127.0.0.1", port: int = 0, token: str | None = None):
        self.host, self.port = host, port
        self.token = token if token is not None else (None if is_loopback(host) else secrets.token_urlsafe(12))
        self.state = ScreenState()
        self.observers: Observers | None = None
        self._clients: set[asyncio.Queue] = set()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._runner = None
        self.dropped = 0  # events a slow page never got (the oldest of its queue)

    # ------------------------------------------------------------------ the game thread's side
    def attach(self, observers: Observers) -> None:
        """Show the public events of ``observers`` (the last view at once)."""
        self.observers = observers
        observers.subscribe(self.on_event, PUBLIC)

    def detach(self) -> None:
        if self.observers is not None:
            self.observers.unsubscribe(self.on_event, PUBLIC)
            self.observers = None

    def on_event(self, event) -> None:
        """Encode a public event and hand it to the server (quick, never blocks, never raises)."""
        obj = encode(event)
        text = line(obj)
        self.state.remember(obj["kind"], text)
        loop = self._loop
        if loop is not None:
            try:
                loop.call_soon_threadsafe(self._fan_out, text)
            except RuntimeError:  # the loop has closed: the screen is stopping
                pass

    @property
    def url(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}/" + (f"?token={self.token}" if self.token else "")

    # ------------------------------------------------------------------ start and stop
    def start(self, timeout_s: float = 10.0) -> "Display":
        """Start the server thread and wait until it listens.

        :raises DisplayUnavailable: aiohttp is not installed, or the address cannot be used.
        """
        try:
            import aiohttp  # noqa: F401
        except ImportError:
            raise DisplayUnavailable("The screen needs aiohttp: pip install 'voicegame[display]'.") from None
        ready = threading.Event()
        failure: list[BaseException] = []

        def serve() -> None:
            loop = asyncio.new_event_loop()
            asyncio.set_event_loop(loop)
            try:
                loop.run_until_complete(self._start_site())
            except BaseException as exc:  # noqa: BLE001 - reported to start()
                failure.append(exc)
                ready.set()
                loop.close()
                return
            self._loop = loop
            ready.set()
            try:
                loop.run_forever()
            finally:
                loop.run_until_complete(self._runner.cleanup())
                loop.close()

        self._thread = threading.Thread(target=serve, name="voicegame-display", daemon=True)
        self._thread.start()
        if not ready.wait(timeout_s) or failure:
            reason = failure[0] if failure else "it did not start in time"
            raise DisplayUnavailable(f"The screen cannot listen on {self.host}:{self.port}: {reason}.")
        return self

    def stop(self, timeout_s: float = 5.0) -> None:
        """End every page's stream and the server thread (the game has ended)."""
        self.detach()
        loop = self._loop
        if loop is None:
            return
        self._loop = None

        def end() -> None:
            for queue in list(self._clients):
                _put_dropping_oldest(queue, None)
            loop.call_later(0.05, loop.stop)

        try:
            loop.call_soon_threadsafe(end)
        except RuntimeError:
            return
        if self._thread is not None:
            self._thread.join(timeout_s)

    # ------------------------------------------------------------------ the server's side
    async def _start_site(self) -> None:
        from aiohttp import web

        app = web.Application()
        app.router.add_get("/", self._page)
        app.router.add_get("/events", self._events)
        app.router.add_get("/labels.json", self._labels)
        app.router.add_get("/static/{name}", self._static)
        self._runner = web.AppRunner(app, handle_signals=False, access_log=None, shutdown_timeout=1.0)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, self.port)
        await site.start()
        sockets = getattr(site._server, "sockets", None) or []
        if sockets:
            self.port = sockets[0].getsockname()[1]

    def _allowed(self, request) -> bool:
        if self.token is None:
            return True
        return hmac.compare_digest(request.query.get("token", ""), self.token)

    def _refuse(self):
        from aiohttp import web

        return web.Response(status=403, text="This screen needs the address with its token, "
                                             "as printed when voicegame started.\n")

    async def _page(self, request):
        from aiohttp import web

        if not self._allowed(request):
            return self._refuse()
        return web.FileResponse(STATIC_DIR / "index.html", headers={"Cache-Control": "no-store"})

    async def _static(self, request):
        from aiohttp import web

        if not self._allowed(request):
            return self._refuse()
        name = request.match_info["name"]
        path = STATIC_DIR / name
        if "/" in name or name.startswith(".") or not path.is_file():
            raise web.HTTPNotFound()
        return web.FileResponse(path, headers={"Cache-Control": "no-store"})

    async def _labels(self, request):
        from aiohttp import web

        if not self._allowed(request):
            return self._refuse()
        return web.json_response(labels())

    async def _events(self, request):
        from aiohttp import web

        if not self._allowed(request):
            return self._refuse()
        response = web.StreamResponse(headers={"Content-Type": "text/event-stream", "Cache-Control": "no-store",
                                               "X-Accel-Buffering": "no"})
        queue: asyncio.Queue = asyncio.Queue(maxsize=QUEUE_EVENTS)
        for text in self.state.snapshot():  # the current state at once (no await before joining:
            _put_dropping_oldest(queue, text)  # no event falls between the snapshot and the stream)
        self._clients.add(queue)
        try:
            await response.prepare(request)
            await response.write(b"retry: 1000\n\n")
            while True:
                try:
                    text = await asyncio.wait_for(queue.get(), KEEPALIVE_S)
                except asyncio.TimeoutError:
                    await response.write(b": keep-alive\n\n")
                    continue
                if text is None:
                    break
                await response.write(f"data: {text}\n\n".encode("utf-8"))
        except (ConnectionResetError, asyncio.CancelledError):
            pass
        finally:
            self._clients.discard(queue)
        return response

    def _fan_out(self, text: str) -> None:
        for queue in list(self._clients):
            if _put_dropping_oldest(queue, text):
                self.dropped += 1


def _put_dropping_oldest(queue: asyncio.Queue, item) -> bool:
    """Put ``item``; when full, drop the oldest first. :returns: True when one was dropped."""
    dropped = False
    if queue.full():
        try:
            queue.get_nowait()
            dropped = True
        except asyncio.QueueEmpty:
            pass
    queue.put_nowait(item)
    return dropped


def start_display(address: str | None, observers: Observers, say=None) -> Display | None:
    """Start the screen of ``address`` (``--display``/config ``display``) on ``observers``.

    Prints the page's address once with ``say`` (the console) and logs it (the journal).
    :returns: the running :class:`Display`, or ``None`` when ``address`` is empty or ``off``.
    :raises voicegame.display.AddressError: a malformed address.
    :raises DisplayUnavailable: aiohttp missing or the address taken.
    """
    from voicegame.display import parse_address

    parsed = parse_address(address or "")
    if parsed is None:
        return None
    display = Display(*parsed).start()
    display.attach(observers)
    message = f"The table's screen is at {display.url}"
    if display.token:
        message += " (this address holds this start's token; only it opens the page)"
    log.info("%s", message)
    if say is not None:
        say(message)
    return display


def open_display(address: str | None, observers, env):
    """The running screen of ``address`` on ``observers``, or ``None`` (no address, or it cannot
    start: then one sentence on the console and the game goes on without it).

    :param env: the :class:`voicegame.env.Env` whose stderr is the console (and the journal).
    """
    from voicegame.display import AddressError, parse_address

    if not address or parse_address(address) is None:
        return None
    try:
        return start_display(address, observers, say=lambda text: env.stderr.write(text + "\n"))
    except (DisplayUnavailable, AddressError) as exc:
        log.warning("%s", exc)
        env.stderr.write(f"voicegame: {exc} The game goes on without the screen.\n")
        return None
