"""Observers: each audience gets only its own captions and views; a screen (public) never
gets a secret, and a broken subscriber never stops a game."""

from __future__ import annotations

import io

from tests.playthrough import SCRIPTS
from voicegame.adapters.headless import ScriptListener, TextVoice, VirtualClock
from voicegame.engine.observer import PUBLIC, Caption, Observers, View
from voicegame.engine.table import Session, Settings
from voicegame.games.wavelength import host


def test_publish_reaches_only_the_events_audience_and_late_subscribers_get_the_last_view():
    bus = Observers()
    public, psychic = [], []
    bus.subscribe(public.append)
    bus.subscribe(psychic.append, audience="psychic")
    bus.publish(Caption("Hello"))
    bus.publish(Caption("The target is at 70 degrees", audience="psychic"))
    bus.publish(View("wavelength", "dial", {"dial_deg": 90}))
    assert public == [Caption("Hello"), View("wavelength", "dial", {"dial_deg": 90})]
    assert psychic == [Caption("The target is at 70 degrees", audience="psychic")]
    late = []
    bus.subscribe(late.append, PUBLIC)
    assert late == [View("wavelength", "dial", {"dial_deg": 90})]


def test_a_failing_subscriber_is_dropped_and_the_others_still_get_events():
    bus = Observers()
    got = []

    def broken(event):
        raise RuntimeError("screen gone")

    bus.subscribe(broken)
    bus.subscribe(got.append)
    bus.publish(Caption("one"))
    bus.publish(Caption("two"))
    assert got == [Caption("one"), Caption("two")]


def test_a_wavelength_game_captions_everything_said_and_keeps_the_target_private(tmp_path):
    lines = [line for line in (SCRIPTS / "wavelength_team.txt").read_text("utf-8").splitlines()
             if line and not line.startswith("#")]
    settings = Settings(game="wavelength", seed=7, options={"coop": False, "players": [3, 2]},
                        record=str(tmp_path / "rec.json"))
    host.validate(settings)
    out = io.StringIO()
    bus = Observers()
    public, private = [], []
    bus.subscribe(public.append)
    bus.subscribe(private.append, audience="psychic")
    session = Session(host.Host, ScriptListener([None if l == "<silence>" else l for l in lines]),
                      TextVoice(out), VirtualClock(), settings, observers=bus)
    session.run()
    spoken = [line.removeprefix("HOST: ") for line in out.getvalue().splitlines() if line.startswith("HOST: ")]
    captions = [e.text for e in public if isinstance(e, Caption)]
    assert captions == spoken
    private_captions = [e for e in private if isinstance(e, Caption)]
    assert private_captions and all(" degrees" in e.text for e in private_captions)
    secrets = {e.text for e in private_captions}
    assert not any(c in secrets for c in captions)
