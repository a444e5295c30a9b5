"""The table's screen server (issue 16): addresses, the token, the event stream, the current
state for a (re)connecting page, read-only routes, a slow page never blocking the game."""

from __future__ import annotations

import http.client
import json
import socket
import threading
import time

import pytest

from voicegame import config as kiosk_config
from voicegame.display import AddressError, is_loopback, parse_address
from voicegame.display.server import QUEUE_EVENTS, Display, _put_dropping_oldest, labels, start_display
from voicegame.engine.observer import Caption, Observers, Timer, View
from tests.playthrough import SCRIPTS, check_golden, frozen_deck, run_cli

WAVELENGTH = ["--seed", "7", "--players", "3", "2"]


@pytest.mark.parametrize("value, expected", [
    ("8765", ("127.0.0.1", 8765)), ("0.0.0.0:8765", ("0.0.0.0", 8765)), ("[::1]:80", ("::1", 80)),
    ("localhost:0", ("localhost", 0)), ("", None), ("off", None)])
def test_addresses(value, expected):
    assert parse_address(value) == expected


@pytest.mark.parametrize("value", ["abc", "host:", ":8765", "1.2.3.4:70000", "8765x"])
def test_malformed_addresses_are_refused_in_one_sentence(value):
    with pytest.raises(AddressError, match=r"\[HOST:\]PORT"):
        parse_address(value)


def test_only_loopback_addresses_go_without_a_token():
    assert is_loopback("127.0.0.1") and is_loopback("::1") and is_loopback("localhost")
    assert not is_loopback("0.0.0.0") and not is_loopback("192.168.1.20")
    assert Display("127.0.0.1").token is None
    first, second = Display("0.0.0.0").token, Display("0.0.0.0").token
    assert first and second and first != second  # a new one at every start


class Stream:
    """A page's ``/events`` stream read with the standard library."""

    def __init__(self, display: Display, query: str = ""):
        self.conn = http.client.HTTPConnection("127.0.0.1", display.port, timeout=10)
        self.conn.request("GET", "/events" + query)
        self.response = self.conn.getresponse()

    def next(self) -> dict:
        while True:
            raw = self.response.readline().decode("utf-8")
            if raw.startswith("data: "):
                return json.loads(raw[6:])
            if raw == "":
                raise EOFError

    def close(self) -> None:
        self.conn.close()


@pytest.fixture
def screen():
    observers = Observers()
    display = Display("127.0.0.1", 0).start()
    display.attach(observers)
    yield display, observers
    display.stop()


def get(display: Display, path: str, method: str = "GET") -> tuple[int, bytes, str]:
    conn = http.client.HTTPConnection("127.0.0.1", display.port, timeout=10)
    conn.request(method, path)
    response = conn.getresponse()
    body = response.read()
    conn.close()
    return response.status, body, response.getheader("Content-Type") or ""


def test_the_page_its_files_and_words_are_served_and_nothing_can_be_written(screen):
    display, _ = screen
    status, body, kind = get(display, "/")
    assert status == 200 and b'src="static/screen.js"' in body and kind.startswith("text/html")
    assert b"http" not in body.replace(b"http-equiv", b"")  # nothing from the network: no CDN
    for name in ("screen.js", "screen.css"):
        status, body, _ = get(display, f"/static/{name}")
        assert status == 200 and body
    assert get(display, "/static/..%2Fserver.py")[0] == 404
    status, body, _ = get(display, "/labels.json")
    assert json.loads(body) == labels() and set(labels()) == {"en", "es", "nl"}
    for method in ("POST", "PUT", "DELETE"):
        assert get(display, "/", method)[0] == 405
        assert get(display, "/events", method)[0] == 405


def test_events_arrive_in_order_and_a_private_event_never_does(screen):
    display, observers = screen
    stream = Stream(display)
    observers.publish(Caption("Red, give a clue."))
    observers.publish(View("wavelength", "dial", {"target_deg": 71}, audience="psychic"))
    observers.publish(Caption("The target is at 71 degrees.", audience="psychic"))
    observers.publish(View("wavelength", "dial", {"dial_deg": 120, "scores": {"red": 2}}))
    observers.publish(Timer(30.0, 25.0, True))
    got = [stream.next() for _ in range(3)]
    stream.close()
    assert [g["kind"] for g in got] == ["caption", "view", "timer"]
    assert got[0]["text"] == "Red, give a clue." and got[1]["data"] == {"dial_deg": 120, "scores": {"red": 2}}
    assert got[2] == {"kind": "timer", "total_s": 30.0, "left_s": 25.0, "running": True, "at": got[2]["at"]}
    assert all("target_deg" not in json.dumps(g) and "71 degrees" not in json.dumps(g) for g in got)


def test_a_reconnecting_page_gets_the_current_state_at_once(screen):
    display, observers = screen
    observers.publish(View("rofl", "claims", {"board": [], "scores": {"red": 1}}))
    for n in range(8):
        observers.publish(Caption(f"sentence {n}"))
    observers.publish(View("rofl", "reveal", {"board": [{"space": 7, "claimed_by": "red"}], "scores": {"red": 3}}))
    observers.publish(Timer(30.0, 12.0, False))
    stream = Stream(display)
    got = [stream.next() for _ in range(8)]
    stream.close()
    assert got[0]["kind"] == "view" and got[0]["phase"] == "reveal" and got[0]["data"]["scores"] == {"red": 3}
    assert got[1]["kind"] == "timer" and got[1]["left_s"] == 12.0
    assert [g["text"] for g in got[2:]] == [f"sentence {n}" for n in range(2, 8)]


def test_a_late_screen_starts_from_the_tables_last_view():
    observers = Observers()
    observers.publish(View("lobby", "menu", {"games": [{"id": "wits", "name": "Wits and Wagers"}]}))
    display = Display("127.0.0.1", 0)
    display.attach(observers)  # Observers.subscribe hands it the last public view
    assert json.loads(display.state.snapshot()[0])["data"]["games"][0]["id"] == "wits"


def test_any_address_but_loopback_needs_this_starts_token():
    display = Display("0.0.0.0", 0).start()
    try:
        assert get(display, "/")[0] == 403 and get(display, "/events")[0] == 403
        assert get(display, "/events?token=wrong")[0] == 403
        assert get(display, "/labels.json?token=" + display.token)[0] == 200
        status, body, _ = get(display, "/?token=" + display.token)
        assert status == 200 and b"screen.js" in body
        assert f"token={display.token}" in display.url
    finally:
        display.stop()


def test_a_page_that_never_reads_loses_its_oldest_events_and_never_blocks_the_game(screen):
    display, observers = screen
    idle = socket.create_connection(("127.0.0.1", display.port))
    idle.sendall(b"GET /events HTTP/1.1\r\nHost: x\r\n\r\n")  # then never reads a byte
    try:
        deadline = time.monotonic() + 10
        while not display._clients and time.monotonic() < deadline:
            time.sleep(0.01)
        done = threading.Event()

        def game() -> None:
            for n in range(3000):
                observers.publish(Caption(f"{n} " + "words " * 200))
            done.set()

        threading.Thread(target=game, daemon=True).start()
        assert done.wait(30), "publishing blocked on a page that does not read"
        while display.dropped == 0 and time.monotonic() < deadline + 20:
            time.sleep(0.01)
        assert display.dropped > 0
        assert all(q.qsize() <= QUEUE_EVENTS for q in display._clients)
    finally:
        idle.close()


def test_the_queue_drops_its_oldest_event_when_full():
    import asyncio

    queue = asyncio.Queue(maxsize=2)
    assert not _put_dropping_oldest(queue, "a") and not _put_dropping_oldest(queue, "b")
    assert _put_dropping_oldest(queue, "c")
    assert [queue.get_nowait(), queue.get_nowait()] == ["b", "c"]


def test_start_display_names_the_page_once_and_off_means_no_screen():
    said = []
    observers = Observers()
    assert start_display("off", observers, said.append) is None and said == []
    display = start_display("127.0.0.1:0", observers, said.append)
    try:
        assert said == [f"The table's screen is at http://127.0.0.1:{display.port}/"]
    finally:
        display.stop()


def test_play_with_a_screen_says_the_same_game_and_names_the_page_on_the_console():
    deck = frozen_deck("wavelength", WAVELENGTH)
    status, out, err = run_cli(["play", "wavelength", "--input", str(SCRIPTS / "wavelength_team.txt"),
                                "--output", "text", *WAVELENGTH, *deck, "--display", "127.0.0.1:0"])
    assert status == 0
    check_golden("wavelength_team", out)
    assert err.count("The table's screen is at http://127.0.0.1:") == 1


def test_a_taken_port_is_said_once_and_the_game_goes_on_without_the_screen():
    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen()
    port = taken.getsockname()[1]
    try:
        status, out, err = run_cli(["play", "wavelength", "--input", str(SCRIPTS / "wavelength_team.txt"),
                                    "--output", "text", *WAVELENGTH, *frozen_deck("wavelength", WAVELENGTH),
                                    "--display", str(port)])
    finally:
        taken.close()
    assert status == 0 and "Team Red wins" in out
    assert f"The screen cannot listen on 127.0.0.1:{port}" in err and "goes on without the screen" in err


def test_a_malformed_display_option_is_a_usage_error():
    status, _, err = run_cli(["play", "wavelength", "--display", "screen"])
    assert status == 2 and "--display takes [HOST:]PORT" in err


def test_config_display_is_checked_and_used_by_play(tmp_path):
    path = kiosk_config.config_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text('display = "here"\n', encoding="utf-8")
    with pytest.raises(kiosk_config.ConfigError, match="display must be an address"):
        kiosk_config.load()
    path.write_text('display = "127.0.0.1:0"\n', encoding="utf-8")
    assert kiosk_config.load().display == "127.0.0.1:0"
    status, out, err = run_cli(["play", "wavelength", "--input", str(SCRIPTS / "wavelength_team.txt"),
                                "--output", "text", *WAVELENGTH, *frozen_deck("wavelength", WAVELENGTH)])
    assert status == 0 and "The table's screen is at http://127.0.0.1:" in err
    status, out, err = run_cli(["play", "wavelength", "--input", str(SCRIPTS / "wavelength_team.txt"),
                                "--output", "text", *WAVELENGTH, *frozen_deck("wavelength", WAVELENGTH),
                                "--display", "off"])
    assert status == 0 and "screen" not in err


def test_the_kiosk_serves_the_lobby_and_its_games_on_one_screen(monkeypatch):
    started = []
    original = Display.attach
    monkeypatch.setattr(Display, "attach", lambda self, obs: (started.append(self), original(self, obs)))
    status, out, err = run_cli(["kiosk", "--input", str(SCRIPTS / "kiosk_tour.txt"), "--output", "text",
                                "--seed", "3", "--display", "127.0.0.1:0"])
    assert status == 0 and len(started) == 1 and err.count("The table's screen is at") == 1
    check_golden("kiosk_tour", out)


def test_resume_with_a_screen_serves_the_resumed_game_to_its_end(tmp_path, monkeypatch):
    """``resume --display``: the screen follows the resumed game (its last view is the final score)."""
    lines = (SCRIPTS / "wavelength_team.txt").read_text(encoding="utf-8").splitlines()
    cut = lines.index("way more trusted brand") + 1  # the dial phase of turn 3
    first, rest = tmp_path / "first.txt", tmp_path / "rest.txt"
    first.write_text("\n".join(lines[:cut]) + "\n", encoding="utf-8")
    rest.write_text("\n".join(lines[cut:]) + "\n", encoding="utf-8")
    status, _, _ = run_cli(["play", "wavelength", "--input", str(first), "--output", "text", *WAVELENGTH,
                            *frozen_deck("wavelength", WAVELENGTH)])
    assert status == 0
    seen = []
    original = Display.stop
    monkeypatch.setattr(Display, "stop", lambda self, *a: (seen.extend(self.state.snapshot()), original(self, *a)))
    status, out, err = run_cli(["resume", "--input", str(rest), "--output", "text", "--display", "127.0.0.1:0"])
    assert status == 0 and "Welcome back" in out and err.count("The table's screen is at") == 1
    view = json.loads(seen[0])
    assert view["kind"] == "view" and view["game"] == "wavelength" and view["phase"] == "game_over"
    assert view["data"]["scores"] == {"red": 14, "blue": 12}


def test_the_address_with_its_token_goes_to_the_log_as_well_as_the_console(caplog):
    said = []
    with caplog.at_level("INFO"):
        display = start_display("0.0.0.0:0", Observers(), said.append)
    try:
        assert len(said) == 1 and f"?token={display.token}" in said[0]
        assert any(f"?token={display.token}" in r.getMessage() for r in caplog.records)
    finally:
        display.stop()
