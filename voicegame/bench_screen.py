"""``voicegame bench`` group 8: the table's screen (:mod:`voicegame.display`).

- **Latency** — a caption's ``say()`` (a :class:`~voicegame.engine.observer.CaptionedVoice`
  over a null voice, the table's own wrapper) to the page's event handler in headless
  Chromium (``performance.timeOrigin + performance.now()`` against ``time.time()``: one
  machine, one wall clock), over the real server and ``/events``; median and p95 in ms.
- **Host overhead with the screen** — the golden games of group 3 played with the screen
  on (a Chromium page reading every event) and off, in alternation; the median
  host overhead per listening moment of each (group 3's gap) and the difference, ms.

Skipped (with the reason) where aiohttp or Chromium is missing.
"""

from __future__ import annotations

import statistics
import time
from typing import Callable

#: Captions measured for the latency (full run, quick run) and the pause between two (s).
CAPTIONS = {False: 60, True: 15}
PAUSE_S = 0.03
#: Games per screen setting (full, quick) — each setting alternates with the other.
REPS = {False: 3, True: 1}


class _NullVoice:
    def say(self, text: str, to: str | None = None) -> None:
        pass


def _ms(values: list[float]) -> dict:
    ordered = sorted(values)
    return {"n": len(values), "median": round(statistics.median(values) * 1000, 3),
            "p95": round(ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))] * 1000, 3),
            "max": round(ordered[-1] * 1000, 3)} if values else {"n": 0}


def latency(browser, quick: bool, log: Callable[[str], None]) -> dict:
    """Captions from ``say()`` to the page's handler (see the module docstring)."""
    from voicegame.display.server import Display
    from voicegame.engine.observer import CaptionedVoice, Observers

    observers = Observers()
    display = Display("127.0.0.1", 0).start()
    display.attach(observers)
    voice = CaptionedVoice(_NullVoice(), lambda: observers)
    delays = []
    try:
        browser.open(display.url)
        browser.wait_for("window.voicegameScreen && window.voicegameScreen.connected")
        log(f"screen latency: {CAPTIONS[quick]} captions")
        for n in range(CAPTIONS[quick]):
            browser.evaluate("window.voicegameScreen.received.length = 0")
            said = time.time()
            voice.say(f"Caption number {n}: the host says a sentence of ordinary length here.")
            seen = browser.wait_for("window.voicegameScreen.received.length && "
                                    "window.voicegameScreen.received[0].seen", timeout_s=10)
            delays.append(seen - said)
            time.sleep(PAUSE_S)
    finally:
        display.stop()
    return _ms(delays)


def overhead(browser, quick: bool, games: list, play: Callable, log: Callable[[str], None]) -> dict:
    """Median host overhead per listening moment with the screen on and off (ms).

    :param games: ``[(game, argv, script)]`` of group 3's golden scripts.
    :param play: ``play(game, argv, script, observers) -> [gap_s]`` (group 3's scripted game,
        the gaps of its moments without an undo).
    """
    from voicegame.display.server import Display
    from voicegame.engine.observer import Observers

    gaps: dict[str, list[float]] = {"off": [], "on": []}
    display = Display("127.0.0.1", 0).start()
    try:
        browser.open(display.url)
        browser.wait_for("window.voicegameScreen && window.voicegameScreen.connected")
        for game, argv, script in games:
            if not quick:
                play(game, argv, script, Observers())  # warm: imports and first loads
            log(f"screen overhead: {game} × {REPS[quick]} on and off")
            for _ in range(REPS[quick]):
                for setting in ("off", "on"):
                    observers = Observers()
                    if setting == "on":
                        display.attach(observers)
                    gaps[setting] += play(game, argv, script, observers)
                    display.detach()
    finally:
        display.stop()
    off, on = _ms(gaps["off"]), _ms(gaps["on"])
    return {"games": [g for g, _, _ in games], "off_ms": off, "on_ms": on,
            "difference_ms": round(on["median"] - off["median"], 3), "dropped_events": display.dropped}


def run(quick: bool, games: list, play: Callable, log: Callable[[str], None]) -> dict:
    """Group 8, or ``{"skipped": reason}`` (``games``, ``play``: see :func:`overhead`)."""
    from voicegame.display.chromium import Chromium, chromium_path

    try:
        import aiohttp  # noqa: F401
    except ImportError:
        return {"skipped": "the screen needs aiohttp: pip install 'voicegame[display]'"}
    if chromium_path() is None:
        return {"skipped": "Chromium is not installed (apt-get install chromium)"}
    with Chromium(1280, 720) as browser:
        return {"latency_ms": latency(browser, quick, log), "overhead": overhead(browser, quick, games, play, log)}


def format_lines(result: dict) -> list[str]:
    if "skipped" in result:
        return [f"8 Screen: skipped: {result['skipped']}"]
    lat, over = result["latency_ms"], result["overhead"]
    return [f"8 Screen: say() → page handler (ms): median {lat['median']:.2f}, p95 {lat['p95']:.2f}, "
            f"max {lat['max']:.2f} ({lat['n']} captions, headless Chromium)",
            f"  host overhead per moment (median ms): screen off {over['off_ms']['median']:.3f}, on "
            f"{over['on_ms']['median']:.3f}, difference {over['difference_ms']:.3f} ({', '.join(over['games'])})"]
