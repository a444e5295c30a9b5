"""The screen in a real browser (Debian's headless Chromium): the page is loaded during a
scripted game of each title, and its DOM is checked at key moments while the game waits —
the dial angle, the scores, the claimed board spaces, the mat's slots — and a reloaded page
shows the current state at once (issue 16). Skipped only where Chromium is not installed."""

from __future__ import annotations

import json

import pytest

from voicegame.display.chromium import Chromium, chromium_path
from voicegame.display.server import Display
from voicegame.engine.observer import Caption, Observers, Timer, View
from tests.display_harness import MAT, ScreenedGame, wits_view

pytestmark = pytest.mark.skipif(chromium_path() is None,
                                reason="Chromium is not installed (apt-get install chromium; .ci/run installs it)")


@pytest.fixture(scope="module")
def browser():
    with Chromium(1280, 720) as chromium:
        yield chromium


def js(value) -> str:
    return json.dumps(value)


def scores_on_page(browser) -> dict:
    return browser.evaluate("Object.fromEntries([...document.querySelectorAll('#scores li')]"
                            ".map(li => [li.dataset.id, Number(li.querySelector('.points').textContent)]))")


def wait_caption(browser, text: str) -> None:
    browser.wait_for(f"document.getElementById('caption').textContent === {js(text)}")


def open_connected(browser, game) -> None:
    """Open the game's page, wait until its event stream is connected, then let the game go on."""
    browser.open(game.display.url)
    browser.wait_for("window.voicegameScreen && window.voicegameScreen.connected")
    game.gate.release()


def is_view(game, phase=None, test=lambda d: True):
    return lambda e: isinstance(e, View) and e.game == game and (phase is None or e.phase == phase) and test(e.data)


def test_wavelength_dial_needle_scores_reveal_and_a_reloaded_page(browser, tmp_path, monkeypatch):
    moved = {}

    def first_move(d):
        if d["dial_deg"] != 90:
            moved["deg"] = d["dial_deg"]
            return True
        return False

    game = ScreenedGame("wavelength_team", tmp_path, monkeypatch, [
        ("start", lambda e: True),
        ("dial", is_view("wavelength", "dial", first_move)),
        ("dial again", is_view("wavelength", "dial", lambda d: d["dial_deg"] != moved["deg"])),
        ("reveal", is_view("wavelength", None, lambda d: d.get("reveal") is not None)),
    ])
    try:
        name, event, _ = game.gate.next()
        open_connected(browser, game)
        for expected in ("dial", "dial again"):
            name, event, caption = game.gate.next()
            assert name == expected
            deg = event.data["dial_deg"]
            browser.wait_for(f"document.querySelector('#needle') && Number(document.querySelector('#needle')"
                             f".dataset.deg) === {deg}")
            assert f"rotate({deg:g} 100 100)" == browser.evaluate(
                "document.querySelector('#needle').getAttribute('transform')")
            card = event.data["card"]
            assert browser.evaluate("document.getElementById('left-concept').textContent").endswith(card["left"])
            assert browser.evaluate("document.getElementById('right-concept').textContent").startswith(card["right"])
            assert event.data["clue"] in browser.evaluate("document.getElementById('clue').textContent")
            assert scores_on_page(browser) == event.data["scores"]
            wait_caption(browser, caption)
            game.gate.release()
        name, event, caption = game.gate.next()
        reveal = event.data["reveal"]
        for page in ("live", "reloaded"):  # a reconnecting page gets the current state at once
            if page == "reloaded":
                browser.open(game.display.url)
            browser.wait_for("document.querySelectorAll('#dial .wedge').length === 5")
            assert browser.evaluate("[...document.querySelectorAll('#dial .wedge')].map(w => Number(w.dataset.points))") \
                == [2, 3, 4, 3, 2]
            assert browser.evaluate("Number(document.getElementById('reveal-points').dataset.points)") == reveal["points"]
            assert scores_on_page(browser) == event.data["scores"]
            wait_caption(browser, caption)
    finally:
        status, out, err = game.end()
    assert status == 0 and "The table's screen is at" in err


def test_rofl_board_claims_judgement_and_message_at_the_turns_end(browser, tmp_path, monkeypatch):
    claimed = lambda d: any(s["claimed_by"] for s in d["board"])  # noqa: E731
    game = ScreenedGame("rofl_four_players", tmp_path, monkeypatch, [
        ("start", lambda e: True),
        ("claimed", is_view("rofl", "claims", claimed)),
        ("judged", is_view("rofl", None, lambda d: d["judgement"] is not None)),
        ("turn end", is_view("rofl", "turn_end")),
    ])
    try:
        game.gate.next()
        open_connected(browser, game)
        _, event, _ = game.gate.next()
        board = {s["space"]: s["claimed_by"] or "" for s in event.data["board"]}
        browser.wait_for("document.querySelectorAll('#board .space.claimed').length === "
                         f"{sum(1 for v in board.values() if v)}")
        assert browser.evaluate("Object.fromEntries([...document.querySelectorAll('#board .space')]"
                                ".map(s => [s.dataset.space, s.dataset.claimedBy]))") == \
            {str(k): v for k, v in board.items()}
        assert len(board) == 20
        # colour is never the only cue: a claimed space names its colour in words
        first = next(k for k, v in board.items() if v)
        name = next(p["name"] for p in event.data["players"] if p["id"] == board[first])
        assert name in browser.evaluate(f"document.querySelector('[data-space=\"{first}\"]').textContent")
        assert event.data["category"] in browser.evaluate("document.getElementById('category').textContent")
        game.gate.release()
        _, event, _ = game.gate.next()
        judgement = event.data["judgement"]
        browser.wait_for("document.getElementById('judgement') !== null")
        assert browser.evaluate("document.getElementById('judgement').className").endswith(
            "right" if judgement["correct"] else "wrong")
        assert browser.evaluate("document.getElementById('message')") is None  # not before the turn's end
        assert browser.evaluate("[...document.querySelectorAll('#reveal-order li')].map(li => li.dataset.player)") \
            == event.data["reveal_order"]
        game.gate.release()
        _, event, _ = game.gate.next()
        browser.wait_for("document.getElementById('message') !== null")
        assert event.data["message"] in browser.evaluate("document.getElementById('message').textContent")
        assert scores_on_page(browser) == event.data["scores"]
    finally:
        status, _, _ = game.end()
    assert status == 0


def test_the_lobby_shows_the_games_and_the_set_up_being_chosen(browser, tmp_path, monkeypatch):
    game = ScreenedGame("kiosk_tour", tmp_path, monkeypatch, [
        ("menu", is_view("lobby")),
        ("set-up", is_view("lobby", None, lambda d: d["setup"] is not None)),
        ("a game", lambda e: isinstance(e, View) and e.game != "lobby"),
    ])
    try:
        _, event, _ = game.gate.next()
        browser.open(game.display.url)
        browser.wait_for("document.querySelectorAll('#games li').length === 3")
        assert browser.evaluate("[...document.querySelectorAll('#games li')].map(li => li.textContent)") == \
            [g["name"] for g in event.data["games"]]
        game.gate.release()
        _, event, _ = game.gate.next()
        browser.wait_for(f"document.querySelector('#games li.chosen') && document.querySelector('#games li.chosen')"
                         f".dataset.game === {js(event.data['setup']['game'])}")
        game.gate.release()
        _, event, _ = game.gate.next()  # the lobby's screen goes on with the game it started
        browser.wait_for(f"document.getElementById('stage').dataset.game === {js(event.game)}")
    finally:
        status, _, _ = game.end()
    assert status == 0


def test_wits_question_guesses_mat_bets_and_payout_from_a_stream_that_follows_the_contract(browser):
    observers = Observers()
    display = Display("127.0.0.1", 0).start()
    display.attach(observers)
    try:
        observers.publish(wits_view("guessing", guesses=[{"player": "red", "value": 1969},
                                                         {"player": "blue", "value": None}]))
        observers.publish(Timer(30.0, 20.0, False))
        browser.open(display.url)
        browser.wait_for("document.querySelectorAll('#guesses li').length === 2")
        assert browser.evaluate("document.documentElement.lang") == "es"
        assert browser.evaluate("document.getElementById('scores-title').textContent") == "Fichas"
        assert "1969" in browser.evaluate("document.querySelector('#guesses [data-player=red]').textContent")
        assert "aún sin respuesta" in browser.evaluate("document.querySelector('#guesses [data-player=blue]').textContent")
        assert "Apolo 11" in browser.evaluate("document.getElementById('question').textContent")
        browser.wait_for("document.getElementById('timer').dataset.left === '20'")
        assert browser.evaluate("document.getElementById('timer-unit').textContent") == "en pausa"
        bets = [{"player": "red", "slot": 4, "token": "1", "chips": 2}, {"player": "blue", "slot": 3, "token": "2",
                                                                       "chips": 1}]
        observers.publish(wits_view("betting", mat=MAT, bets=bets, guesses=[
            {"player": "red", "value": 1969}, {"player": "blue", "value": 1972}, {"player": "green", "value": 1959}]))
        browser.wait_for("document.querySelectorAll('#mat .slot').length === 8")
        slots = browser.evaluate("[...document.querySelectorAll('#mat .slot')].map(s => [Number(s.dataset.slot), "
                                 "Number(s.dataset.odds), s.querySelector('.value').textContent])")
        assert [s[:2] for s in slots] == [[m["slot"], m["odds"]] for m in MAT]
        assert slots[4][2] == "1969" and slots[1][2] == "—" and slots[0][2] == "Menor que la respuesta más pequeña"
        assert browser.evaluate("document.querySelector('[data-slot=\"4\"] .bets [data-player=red]').dataset.chips") == "2"
        assert "Azul" in browser.evaluate("document.querySelector('[data-slot=\"3\"] .bets').textContent")
        observers.publish(wits_view("payout", mat=MAT, bets=bets, scores={"red": 9, "blue": 1, "green": 2},
                                    payout={"answer": 1969, "unit": None, "winning_slot": 4, "paid": {"red": 7}}))
        observers.publish(Caption("Rojo gana siete fichas."))
        browser.wait_for("document.querySelector('#mat .slot.win') !== null")
        assert browser.evaluate("document.querySelector('#mat .slot.win').dataset.slot") == "4"
        assert "1969" in browser.evaluate("document.getElementById('answer').textContent")
        assert scores_on_page(browser) == {"red": 9, "blue": 1, "green": 2}
        wait_caption(browser, "Rojo gana siete fichas.")
        browser.open(display.url)  # reloaded: the payout at once
        browser.wait_for("document.querySelector('#mat .slot.win') !== null")
        wait_caption(browser, "Rojo gana siete fichas.")
    finally:
        display.stop()


def test_the_larger_text_switch_and_the_browsers_zoom_scale_the_page(browser):
    observers = Observers()
    display = Display("127.0.0.1", 0).start()
    display.attach(observers)
    try:
        observers.publish(Caption("Hello, table."))
        browser.open(display.url)
        wait_caption(browser, "Hello, table.")
        size = "parseFloat(getComputedStyle(document.getElementById('caption')).fontSize)"
        before = browser.evaluate(size)
        browser.evaluate("document.getElementById('larger').click()")
        assert browser.evaluate(size) > before * 1.2
        assert browser.evaluate("document.getElementById('larger').getAttribute('aria-pressed')") == "true"
        browser.evaluate("document.getElementById('larger').click()")
        browser.viewport(640, 360, scale=2.0)  # 200 % zoom of a 1280×720 screen: nothing is cut off
        assert browser.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    finally:
        browser.viewport(1280, 720)
        display.stop()


def wits_publishes_views() -> bool:
    from voicegame.games.wits import host

    return callable(getattr(host.Host, "show", None))


@pytest.mark.skipif(not wits_publishes_views(), reason="this Wits & Wagers host publishes no public view yet")
def test_wits_real_game_guesses_mat_bets_and_the_winning_slot(browser, tmp_path, monkeypatch):
    game = ScreenedGame("wits_full", tmp_path, monkeypatch, [
        ("start", lambda e: True),
        ("guessed", is_view("wits", "guesses", lambda d: any(g["value"] is not None for g in d["guesses"]))),
        ("bet", is_view("wits", "bets", lambda d: bool(d["mat"]) and bool(d["bets"]))),
        ("reveal", is_view("wits", "reveal", lambda d: d["payout"] is not None)),
    ])
    try:
        game.gate.next()
        open_connected(browser, game)
        _, event, _ = game.gate.next()
        d = event.data
        browser.wait_for(f"document.querySelectorAll('#guesses li').length === {len(d['guesses'])}")
        assert d["question"]["text"] == browser.evaluate("document.getElementById('question').textContent")
        for g in d["guesses"]:
            if g["value"] is not None:
                assert str(g["value"]) in browser.evaluate(
                    f"document.querySelector('#guesses [data-player={g['player']}]').textContent")
        game.gate.release()
        _, event, _ = game.gate.next()
        d = event.data
        browser.wait_for("document.querySelectorAll('#mat .slot').length === 8")
        assert browser.evaluate("[...document.querySelectorAll('#mat .slot')].map(s => [Number(s.dataset.slot), "
                                "Number(s.dataset.odds)])") == [[m["slot"], m["odds"]] for m in d["mat"]]
        on_slot: dict = {}  # one line per player and slot: the chips of their tokens there
        for bet in d["bets"]:
            on_slot[(bet["slot"], bet["player"])] = on_slot.get((bet["slot"], bet["player"]), 0) + bet["chips"]
        assert on_slot
        for (slot, player), chips in on_slot.items():
            row = f"document.querySelector('[data-slot=\"{slot}\"] .bets [data-player={player}]')"
            # the page draws the views as they stream in: the mat may still show an earlier view's bets
            browser.wait_for(f"{row} !== null && {row}.dataset.chips === '{chips}'")
            assert browser.evaluate(f"{row}.dataset.chips") == str(chips)
        game.gate.release()
        _, event, _ = game.gate.next()
        d = event.data
        assert d["mat"] and d["bets"]  # the payout's view holds the mat it pays and the bets on it
        for reloaded in (False, True):  # a page loaded at the payout draws it on the mat at once
            if reloaded:
                browser.open(game.display.url)
            browser.wait_for("document.querySelector('#mat .slot.win') !== null")
            assert browser.evaluate("Number(document.querySelector('#mat .slot.win').dataset.slot)") == \
                d["payout"]["winning_slot"]
            assert browser.evaluate("[...document.querySelectorAll('#mat .slot')].map(s => "
                                    "s.querySelectorAll('.bets li').length)") == \
                [len({b["player"] for b in d["bets"] if b["slot"] == s["slot"]}) for s in d["mat"]]
            assert scores_on_page(browser) == d["scores"]
    finally:
        status, _, _ = game.end()
    assert status == 0
