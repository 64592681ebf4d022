"""The move list of `senet-board show` from the board's `game` reply: a
mirror plugged in while a throw waits for its move lists the game so far,
then the move played with that throw (the reply carries the throw), and a
reply the engine cannot read leaves the list to the board's position."""

from host_tools.sim.moves import Follower

RECORD = ("senet-game 1\nruleset kendall\nstart BWBWBWBWBW.................... W\n"
          "opening 1\nW 1 10-11\nW 1 11-12\n")


def moves(follower):
    return [text for side, value, text in follower.game.turns()]


def test_a_mirror_plugged_in_mid_throw_lists_the_game_and_the_next_move():
    f = Follower()
    f.event({"event": "game", "record": RECORD, "throw": 1})
    f.event({"event": "state", "position": "BWBWBWBWB..W.................. W",
             "ruleset": "kendall", "state": "move", "turn": "W", "throw": 1})
    assert moves(f) == ["10-11", "11-12"]
    f.event({"event": "move", "side": "W", "move": "12-13",
             "after": "BWBWBWBWB...W................. W"})
    assert moves(f) == ["10-11", "11-12", "12-13"]
    assert f.game.opening == [1]


def test_a_reply_the_engine_cannot_read_leaves_the_list_to_the_position():
    f = Follower()
    f.event({"event": "game", "record": "senet-game 1\nruleset kendall\nW 1 10-13\n",
             "throw": None})
    f.event({"event": "state", "position": "BWBWBWBWB.W................... W",
             "ruleset": "kendall", "state": "throw", "turn": "W", "throw": None})
    assert f.game is not None and moves(f) == []
    assert f.game.start.text() == "BWBWBWBWB.W................... W"
