"""A remote game stopped because the two boards hold different games has a
sentence of its own on the page: what happened and what the players can do,
in each of the page's languages, as long as the game is stopped; and what it
asks them to do brings the game back.

The page (`sim --room`, white) plays a few plies against a board; that
board's line is cut, and a board holding another game (saved from a game
in another room) joins in its seat. The boards compare their games through
a real Mosquitto and stop; headless Chromium reads the page. The page's Sim
runs on a manual clock; real-time waits only catch a hang.
"""

import pytest

from mqtt_broker import broker  # noqa: F401  (the fixture)
from chromium import browser  # noqa: F401  (a module's own browser)
from firmware.room import actions
from remote_tests.pair import Hang, Board, play, joined, words
from remote_tests.roompage import RoomPage, sentence, wait_text

pytestmark = [pytest.mark.browser, pytest.mark.slow]

PLIES = 4


def another_game(port, store_dir):
    """A black board's saved game of a few plies, played in another room."""
    black = Board("B", port, store_dir=store_dir, seed=9, room="another room")
    white = Board("W", port, seed=9, room="another room")
    try:
        black.setup()
        white.setup()
        joined(black, white)
        play(black, white, until=lambda: len(words(black)) >= PLIES and black.app.state == "throw")
        black.wait(1000)                         # its saves done
    finally:
        black.close()
        white.close()
    return words(black)


def test_the_page_says_the_game_stopped_and_what_to_do(browser, broker, tmp_path):  # noqa: F811
    theirs = another_game(broker.port, str(tmp_path))
    room = RoomPage(browser, broker.port)
    sim, seat = room.sim, room.seat
    black = Board("B", broker.port, seed=5)
    late = None
    try:
        black.setup()
        room.play_until(black, lambda: len(actions(sim.app.game)) >= PLIES
                        and sim.app.state == "throw")
        black.conn.drop()                        # that board gone: its last will
        ours = [w for s, w in actions(sim.app.game)]
        assert ours[:PLIES] != theirs[:PLIES]
        late = Board("B", broker.port, store_dir=str(tmp_path), seed=9)    # another game
        hang = Hang("the boards never compared their games")
        while seat.room.problem is None:
            hang.check(seat.room.peer, late.room.problem)
            late.wait(20)
            sim.advance(20)
        sim.advance(20)
        tabs = []
        for lang in ("en", "hu", "ru"):
            pg = room.open(lang)
            tabs.append(pg)
            wait_text(pg, "status", sentence(lang, "status.remote_stopped"))
            wait_text(pg, "instruction", sentence(lang, "do.remote_stopped"))
        sim.advance(5000)                        # still stopped, still said
        english = tabs[0]
        assert sentence("en", "status.remote_stopped") in english.text_content("#status")

        # What the words ask: one board's game kept (here the black board's),
        # a new game on the other (the page's New game), that one switched
        # off and on (the page's power cut) takes the kept game from the room;
        # then the first switched off and on too, and play goes on.
        kept = words(late)
        sim.new_game("kendall")
        sim.advance(500)
        assert list(sim.app.game.turns()) == []
        sim.power_cut()
        hang = Hang("the page never took the kept game")
        while [w for s, w in actions(sim.app.game)] != kept:
            hang.check(len(actions(sim.app.game)))
            late.wait(20)
            sim.advance(20)
        late.close()
        late = Board("B", broker.port, store_dir=str(tmp_path), seed=9)
        more = len(kept) + 2
        room.play_until(late, lambda: len(words(late)) >= more
                        and len(actions(sim.app.game)) >= more)
        assert seat.room.problem is None and late.room.problem is None
        assert words(late)[:len(kept)] == kept
        assert [w for s, w in actions(sim.app.game)][:more] == words(late)[:more]
        sim.advance(20)
        english.wait_for_function(
            "(t) => !document.getElementById('status').textContent.includes(t)",
            arg=sentence("en", "status.remote_stopped"), timeout=60000)
    finally:
        room.close()
        black.close()
        if late is not None:
            late.close()
