"""The side panel of the page in a room (`senet-board sim --room`) names the
opponent as the player far away, never "a second player": the page sits in
the white seat, so the opponent list says the black side is played far away,
in each of the page's languages, and offers no other opponent while the
room is the game.

A real Mosquitto and headless Chromium; the page's Sim runs on a manual
clock, and the only real-time waits are generous deadlines that catch a hang.
"""

import time

import pytest

from mqtt_broker import broker  # noqa: F401  (the fixture)
from chromium import browser  # noqa: F401  (a module's own browser)
from remote_tests.pair import Hang
from remote_tests.roompage import WAIT_MS, RoomPage, sentence

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def chosen(pg):
    """The opponent list's chosen entry, as a player reads it."""
    return pg.evaluate("() => { const s = document.getElementById('opponent');"
                       " return s.options[s.selectedIndex].textContent; }")


def test_the_opponent_list_names_the_far_opponent_in_each_language(browser, broker):  # noqa: F811
    room = RoomPage(browser, broker.port)
    try:
        room.sim.advance(20)
        for lang in ("en", "hu", "ru"):
            pg = room.open(lang)
            want = sentence(lang, "panel.remote_B")
            try:
                pg.wait_for_function(
                    "(t) => { const s = document.getElementById('opponent');"
                    " return s.selectedIndex >= 0 && s.options[s.selectedIndex].textContent === t; }",
                    arg=want, timeout=WAIT_MS)
            except Exception:
                raise AssertionError("the opponent list never said %r; it says %r"
                                     % (want, chosen(pg)))
            offered = pg.evaluate("() => Array.from(document.getElementById('opponent').options)"
                                  ".filter((o) => !o.hidden).map((o) => o.textContent)")
            assert offered == [want], offered
            assert pg.is_disabled("#opponent")
    finally:
        room.close()


def test_a_new_game_by_other_rules_keeps_the_far_opponent(browser, broker):  # noqa: F811
    """What the page asks when the two boards' rules differ (a new game on one
    of them, by the other's rules) is done with the side panel's ruleset
    list: the new game stays in the room, its opponent still the player far
    away (the list once sent "a second player" with it, and the App let the
    room's seat go)."""
    room = RoomPage(browser, broker.port)
    sim = room.sim
    try:
        sim.advance(20)
        pg = room.open("en")
        pg.wait_for_function("() => document.getElementById('opponent').disabled", timeout=WAIT_MS)
        pg.select_option("#ruleset", "hungarian")
        pg.wait_for_function("() => document.getElementById('ruleset').value === 'hungarian'",
                             timeout=WAIT_MS)
        hang = Hang("the page's new game never came")
        while sim.app.ruleset != "hungarian":
            hang.check(sim.app.ruleset)
            sim.advance(20)
            time.sleep(0.01)
        assert sim.app.computer is room.seat.room.opponent, sim.app.computer
        assert sim.app.mode != "computer"
    finally:
        room.close()
