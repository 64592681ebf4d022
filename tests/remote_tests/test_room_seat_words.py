"""The seat a USB board in a room puts in its `state` reply (docs/protocol.md)
tells a `show` page plugged in late what it missed: the opponent far away,
the other board away, this board off the broker, a game already stopped."""

from host_tools.words import explain as ex

START = "BWBWBWBWBW.................... W"


def late_page(seat, state="throw", turn="W"):
    """A Story that saw nothing but the board's first state reply."""
    story = ex.Story()
    event = {"event": "state", "position": START, "ruleset": "kendall", "state": state,
             "turn": turn, "throw": None, "sticks": None, "roles": [""] * 30, "remote": seat}
    story.event(event)
    board = {"state": state, "turn": turn, "throw": None, "roles": [""] * 30}
    return ex.explain(board, story)


def test_a_late_page_hears_what_it_missed_from_the_seat():
    here = late_page({"side": "W", "online": True, "peer": "here", "stopped": False})
    assert here["instruction"] == [["do.remote_throws.W", {}]]
    away = late_page({"side": "W", "online": True, "peer": "away", "stopped": False})
    assert ["status.remote_away", {}] in away["status"]
    offline = late_page({"side": "W", "online": False, "peer": None, "stopped": False})
    assert ["status.remote_offline", {}] in offline["status"]
    stopped = late_page({"side": "W", "online": True, "peer": "here", "stopped": True}, turn="B")
    assert stopped["status"][-1] == ["status.remote_stopped", {}]
    assert stopped["instruction"] == [["do.remote_stopped", {}]]
