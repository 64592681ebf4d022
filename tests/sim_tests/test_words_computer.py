"""Whose throw it is, against the computer and after it, in words.

"The computer throws for black" is said only while the computer plays black
and it is black's throw. A person's throw is the person's, against the
computer too; and once a new game is begun with another opponent (the page's
opponent selector, or the ``new`` command on the serial line of a board that
`senet-board show` mirrors) the computer of the game before is gone from the
words. In the opening the computer throws at its own side light (black:
player 1, white: player 2; docs/playing.md section 8).

The games here are driven through the simulator with a manual clock and
scripted sticks (tests/board_sim.py), and the mirror is fed the simulator's
own events as the serial line would carry them.
"""

import json
import os

import pytest

from firmware.app import App
from host_tools.words import explain as ex
from host_tools.board.show import Mirror
from host_tools.sim.board import Sim

from board_sim import throws
from chromium import CHROMIUM, browser  # noqa: F401  (a module's own browser)
from test_sim_browser import wait_log
from test_sim_words import hand, open_page, served, words  # noqa: F401

COMPUTER_B = {"mode": "computer", "computer": {"side": "B", "level": 1}}


def computer_sim(*values, config=COMPUTER_B):
    """Kendall against the computer, the sticks throwing ``values`` in turn."""
    rng = throws(*values)
    return Sim(config=dict(config), app_factory=lambda **kw: App(**dict(kw, rng=rng)))


def said(sim):
    return sim.snapshot()["explain"]


def computer_threw(sim):
    """The computer plays black: it throws a 2 at the black light, the
    person at the white light a 1 (white starts, K4); white plays 10-11,
    throws again (K5) a 2 and plays 11-13; then the computer throws a 2 for
    black and shows its move. Four throws: 2, 1, 2, 2."""
    sim.advance(1000)                 # the setup check: the opening
    sim.advance(1500)                 # the computer throws after a second at rest
    sim.press()
    sim.advance(400)
    hand(sim, ("lift", 10), ("place", 11))
    sim.press()
    sim.advance(400)
    hand(sim, ("lift", 11), ("place", 13))
    assert (sim.app.state, sim.app.turn) == ("throw", "B")
    sim.advance(2500)                 # its throw, then its choice
    thrown = [e["data"] for e in sim.log if e["data"].get("event") == "throw"]
    assert thrown[-1].get("by") == "computer" and thrown[-1]["side"] == "B", thrown[-1]
    assert said(sim)["kind"] == "computer"
    return sim


def blacks_throw_in_a_new_two_player_game(sim):
    """The pieces set up again; the opening 2, 1 (white starts), white's 10-11,
    its extra throw a 2, 11-13: black's throw is due. Three throws: 2, 1, 2."""
    sim.arrange()
    sim.advance(1000)
    assert sim.app.state == "opening"
    for _ in range(2):
        sim.press()
        sim.advance(400)
    hand(sim, ("lift", 10), ("place", 11))
    sim.press()
    sim.advance(400)
    hand(sim, ("lift", 11), ("place", 13))
    assert (sim.app.state, sim.app.turn, sim.app.mode) == ("throw", "B", "two_players")
    return sim


class Fed:
    """A mirror fed the simulator's events, then its state, as `show` reads
    a board's serial line."""

    def __init__(self, sim):
        self.sim = sim
        self.mirror = Mirror("/dev/null")
        self.fed = 0

    def words(self):
        for entry in self.sim.log:
            if entry["kind"] == "app" and entry["seq"] > self.fed:
                self.mirror.line(json.dumps(entry["data"]).encode())
        self.fed = self.sim.seq
        self.mirror.line(json.dumps(self.sim.app.command({"cmd": "state"})[0]).encode())
        return self.mirror.snapshot()["explain"]


# -- explain() fed the events ------------------------------------------------------------


def test_a_new_game_forgets_the_computer_of_the_game_before():
    story = ex.Story()
    story.event({"event": "throw", "side": "B", "value": 2, "sticks": [1, 1, 0, 0],
                 "moves": ["3-5"], "by": "computer"})
    black = {"state": "throw", "turn": "B", "throw": None, "roles": [""] * 30}
    assert ex.explain(black, story)["instruction"] == [["do.computer_throws.B", {}]]
    story.event({"event": "new", "ruleset": "kendall", "position": "x"})
    words = ex.explain(black, story)
    assert words["kind"] == "turn" and words["instruction"] == [["do.throw.B", {}]]


def test_the_persons_throw_is_the_persons_when_the_computer_changes_side():
    """A new game whose computer plays white: its opening throw at the white
    light tells its side; black's throw is then the person's."""
    story = ex.Story()
    story.event({"event": "computer", "side": "B", "move": "3-5", "throw": 2, "level": 1})
    story.event({"event": "new", "ruleset": "kendall", "position": "x"})
    story.event({"event": "throw", "side": None, "player": 1, "value": 3, "opening": True})
    story.event({"event": "throw", "side": None, "player": 2, "value": 2, "opening": True,
                 "by": "computer"})
    turn = {"throw": None, "roles": [""] * 30}
    assert ex.explain(dict(turn, state="throw", turn="B"), story)["instruction"] == [
        ["do.throw.B", {}]]
    assert ex.explain(dict(turn, state="throw", turn="W"), story)["instruction"] == [
        ["do.computer_throws.W", {}]]


# -- the simulator: the page's opponent selector -----------------------------------------


def test_a_two_player_game_after_the_computer_has_no_computer_in_its_words():
    sim = computer_threw(computer_sim(2, 1, 2, 2, 2, 1, 2))
    sim.new_game("kendall", mode="two_players")      # what the page's selector asks
    blacks_throw_in_a_new_two_player_game(sim)
    words = said(sim)
    assert words["kind"] == "turn" and words["instruction"] == [["do.throw.B", {}]]
    assert words["status"] == [["status.turn.B", {}]]


def test_the_computer_throws_for_its_own_side_only_from_the_opening_on():
    """Playing black, the computer throws first, at the black light; the
    person at the white light throws next, a 1: white starts (K4). White's
    throws are the person's, black's the computer's."""
    sim = computer_sim(2, 1, 2)
    sim.advance(1000)
    assert sim.app.state == "opening"
    words = said(sim)
    assert words["kind"] == "computer" and words["instruction"] == [["do.computer_throws.B", {}]]
    sim.advance(1500)                 # its 2
    assert said(sim)["instruction"] == [["do.opening.W", {}]]
    sim.press()                       # the person's 1
    sim.advance(400)
    hand(sim, ("lift", 10), ("place", 11))
    assert (sim.app.state, sim.app.turn) == ("throw", "W")
    words = said(sim)
    assert words["kind"] == "turn" and words["instruction"] == [["do.throw.W", {}]]
    sim.press()                       # white's extra throw (K5): a 2
    sim.advance(400)
    hand(sim, ("lift", 11), ("place", 13))
    assert (sim.app.state, sim.app.turn) == ("throw", "B")
    assert said(sim)["instruction"] == [["do.computer_throws.B", {}]]


# -- the mirror: a board switched over its serial line -----------------------------------


def test_the_mirror_of_a_board_switched_to_two_players_over_serial():
    sim = computer_threw(computer_sim(2, 1, 2, 2, 2, 1, 2))
    fed = Fed(sim)
    assert fed.words()["instruction"][0][0] == "do.computer"
    sim.command_line('{"cmd": "new", "mode": "two_players"}')
    blacks_throw_in_a_new_two_player_game(sim)
    words = fed.words()
    assert words["kind"] == "turn" and words["instruction"] == [["do.throw.B", {}]]


def test_the_mirror_of_a_board_whose_computer_changed_side_over_serial():
    """The computer played black; the new game's computer plays white, and
    black, the person, throws the first 1 (hungarian: black starts, H4),
    plays 10-11 and throws again (H5): black's throw is the person's."""
    sim = computer_threw(computer_sim(2, 1, 2, 2, 1))
    fed = Fed(sim)
    fed.words()
    sim.command_line('{"cmd": "new", "ruleset": "hungarian", "mode": "computer", "side": "W"}')
    sim.arrange()
    sim.advance(1000)
    sim.press()
    sim.advance(400)
    hand(sim, ("lift", 10), ("place", 11))
    assert (sim.app.state, sim.app.turn) == ("throw", "B")
    words = fed.words()
    assert words["kind"] == "turn" and words["instruction"] == [["do.throw.B", {}]]


# -- the page -------------------------------------------------------------------------------


@pytest.mark.browser
@pytest.mark.slow
def test_the_pages_opponent_selector_ends_the_computers_words(browser, served):  # noqa: F811
    sim = served.use(computer_sim(2, 1, 2, 2, 2, 1, 2))
    context, page, errors = open_page(browser, served.server.url)
    try:
        words(page, "Opening: the first to throw a 1 starts", None)
        sim.advance(1500)
        sim.press()
        sim.advance(400)
        hand(sim, ("lift", 10), ("place", 11))
        sim.press()
        sim.advance(400)
        hand(sim, ("lift", 11), ("place", 13))
        words(page, "Black’s turn", "The computer throws for black", "computer")
        sim.advance(2500)
        words(page, None, None, "computer")
        page.select_option("#opponent", "two_players")
        page.click("#new-game")
        words(page, "Setting up the board", None, "setup")
        page.click("#arrange")                       # the pieces stood as the App asks
        wait_log(page, "# arrange")
        with sim.lock:
            assert sim.app.mode == "two_players"
        sim.advance(1000)
        words(page, None, "Player at the black light: press the button to throw", "opening")
        for _ in range(2):
            sim.press()
            sim.advance(400)
        hand(sim, ("lift", 10), ("place", 11))
        sim.press()
        sim.advance(400)
        hand(sim, ("lift", 11), ("place", 13))
        words(page, "Black’s turn", "Black: press the button to throw", "turn")
    finally:
        context.close()
    assert not errors, errors


def test_a_new_game_against_the_computer_is_known_before_its_first_throw():
    """The new event names the computer's side: on its turn the page says the
    computer throws, though it has not thrown yet in this game."""
    story = ex.Story()
    story.event({"event": "new", "ruleset": "kendall", "position": "x", "mode": "computer",
                 "computer": "W"})
    turn = {"state": "throw", "throw": None, "roles": [""] * 30}
    assert ex.explain(dict(turn, turn="W"), story)["instruction"] == [
        ["do.computer_throws.W", {}]]
    assert ex.explain(dict(turn, turn="B"), story)["instruction"] == [["do.throw.B", {}]]
