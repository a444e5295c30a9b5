"""Secrets never reach the screen: every golden playthrough is played as its golden test plays
it, and every public event (as the page would get it) is scanned for the secrets of the moment —
the Psychic's target before the reveal, a ROFL! message before its turn's end (issue 16)."""

from __future__ import annotations

import re

import pytest

from voicegame.engine.observer import PUBLIC, Caption, View
from voicegame.language.prompts import Prompts
from tests.display_harness import golden_names, play_golden, record_events


def plain(text: str) -> str:
    return " ".join(re.sub(r"[^\w\s]", " ", text.lower()).split())


@pytest.mark.parametrize("name", golden_names())
def test_no_public_event_of_a_golden_game_holds_a_secret(name, tmp_path, monkeypatch):
    events = record_events(monkeypatch)
    status, out, err = play_golden(name, tmp_path)
    assert status == 0, err
    publics = [e for a, _, e in events if a == PUBLIC]
    assert publics and any(isinstance(e, Caption) for e in publics)
    target = None           # the Psychic's target while it is hidden
    private_sentences: set[str] = set()
    message = None          # the ROFL! message while the guessers have not heard it
    lang = "en"
    secrets_seen = 0
    dial = None             # the dial's public position (a team that dials the target exactly
                            # hears its position, which then reads like the Psychic's sentence)
    for audience, text, event in events:
        if audience == "psychic":
            if isinstance(event, View):
                target = event.data["target_deg"]
                secrets_seen += 1
            else:
                private_sentences.add(event.text)
            continue
        if audience == "writers":
            if isinstance(event, View) and event.data.get("message"):
                message = plain(event.data["message"])
                turn_end = plain(Prompts.load(lang).text("rofl.message_was", message=event.data["message"]))
                secrets_seen += 1
            continue
        if isinstance(event, View) and event.game == "wavelength" and event.data.get("reveal"):
            assert event.data["reveal"]["target_deg"] == target
            target = None
            private_sentences.clear()  # the next turn's secret is another target
        elif target is not None:
            assert "target_deg" not in text, f"{name}: the target is in a public event before the reveal: {text}"
            assert dial == target or not (isinstance(event, Caption) and event.text in private_sentences), \
                f"{name}: a sentence for the Psychic alone was captioned publicly: {event.text}"
        if isinstance(event, View):
            lang = event.data.get("lang") or lang
            dial = event.data.get("dial_deg", dial)
        if isinstance(event, Caption) and message is not None and plain(event.text) == turn_end:
            message = None  # the host says it at the turn's end (R4)
        if isinstance(event, View) and event.game == "rofl":
            judgement = event.data.get("judgement")
            if event.phase == "turn_end" or (judgement and plain(judgement["guess"]) == message):
                message = None  # the turn ended, or a guesser said it aloud: no longer a secret
        if message is not None:
            assert message not in plain(text), f"{name}: the message is public before the turn's end: {text}"
    if name.startswith(("wavelength", "rofl")) and "own_messages" not in name:
        assert secrets_seen, f"{name}: the game published no secret to check against"
