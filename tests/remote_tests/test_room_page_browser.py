"""`senet-board sim --room` in a real browser: the page (white) plays a
board (black, a CPython scenario board) through a real Mosquitto. The page
shows the far opponent's throw on its sticks and in words that name them as
a player far away, never the computer; when the other board's line is cut
the page says "opponent away" in each of its languages; and the room's
passphrase is nowhere in the page or in what the server tells it.

The page's Sim runs on a manual clock stepped by this test, so the game goes
as the seeds say; only the network and the browser run in real time, behind
generous deadlines that catch a hang and decide nothing else.
"""

import json
import time
import urllib.request

import pytest

from mqtt_broker import broker  # noqa: F401  (the fixture)
from chromium import browser  # noqa: F401  (a module's own browser)
from remote_tests.pair import Hang, PASSPHRASE, Board
from remote_tests.roompage import RoomPage, sentence, wait_text

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def far_throw_shown(sim, seat):
    """The black board's throw after the opening is on the page, and its
    move lit for the person at the page to carry out."""
    app = sim.app
    if app.state != "move" or app.turn != "B" or seat.room.opponent.move is None:
        return None
    if sim.story.start is not None:          # the opening's last 1: the start's own words
        return None
    thrown = [e["data"] for e in sim.log if e["kind"] == "app"
              and e["data"].get("event") == "throw"]
    last = thrown[-1] if thrown else {}
    return last if last.get("by") == "remote" and not last.get("opening") else None


def test_the_page_in_a_room_shows_the_far_throw_and_the_opponent_away(browser, broker):  # noqa: F811
    room = RoomPage(browser, broker.port)
    sim, seat = room.sim, room.seat
    black = Board("B", broker.port, seed=5)
    try:
        black.setup()
        thrown = room.play_until(black, lambda: far_throw_shown(sim, seat))
        move = seat.room.opponent.move.text
        origin, to = move.split("-")
        pg = room.open("en")
        wait_text(pg, "instruction", "Your opponent far away threw %d and moved %s to %s: "
                  "move their piece for them" % (thrown["value"], origin, to))
        wait_text(pg, "status", "Your opponent far away threw %d" % thrown["value"])
        words = pg.text_content("#words")
        assert "computer" not in words.lower(), words
        flat = " ".join("flat" if v else "round" for v in thrown["sticks"])
        wait_text(pg, "throw-value", "%d  [%s]" % (thrown["value"], flat))

        with urllib.request.urlopen(room.server.url + "api/state", timeout=30) as r:
            state = r.read().decode()
        for text in (pg.content(), state, json.dumps(list(sim.log))):
            assert PASSPHRASE not in text

        black.conn.drop()                    # the black board's line cut: its last will
        hang = Hang("the page never heard the last will")
        while seat.room.peer != "away":
            hang.check(seat.room.peer)
            sim.advance(20)
            time.sleep(0.01)
        sim.advance(20)
        wait_text(pg, "status", sentence("en", "status.remote_away"))
        for lang in ("hu", "ru"):
            other = room.open(lang)
            wait_text(other, "status", sentence(lang, "status.remote_away"))
            assert PASSPHRASE not in other.content()
    finally:
        room.close()
        black.close()                        # after a cut line too: nothing to say


def test_the_page_says_which_rules_each_board_plays_in_its_language(browser, broker):  # noqa: F811
    """The other board plays Hungarian rules and the page Kendall's: no throw
    on either, and the page says which rules each plays, named as its
    language names them."""
    room = RoomPage(browser, broker.port)
    sim, seat = room.sim, room.seat
    black = Board("B", broker.port, seed=5, ruleset="hungarian")
    try:
        sim.arrange()                        # the pieces set up: the opening
        hang = Hang("the page never heard the other board")
        while seat.room.opponent.why.startswith("waiting"):
            hang.check(seat.room.opponent.why)
            black.wait(20)
            sim.advance(20)
            time.sleep(0.01)
        sim.advance(1500)                    # the pieces at rest: the setup is checked
        assert sim.app.state == "opening", sim.app.state
        for lang in ("en", "hu", "ru"):
            pg = room.open(lang)
            want = sentence(lang, "status.remote_rules").replace(
                "{theirs}", sentence(lang, "ruleset.hungarian")).replace(
                "{ours}", sentence(lang, "ruleset.kendall"))
            wait_text(pg, "status", want)
            wait_text(pg, "instruction", sentence(lang, "do.remote_rules"))
    finally:
        room.close()
        black.close()
