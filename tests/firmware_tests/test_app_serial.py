"""The serial line: commands in, events out, garbage refused without harm."""

import json

from board_sim import BoardSim, throws
from firmware.protocol import encode, parse_command


def snapshot(app):
    return (app.position, app.ruleset, app.state, app.turn, app.throw, list(app.roles))


def test_a_garbage_serial_command_gets_an_error_event_and_changes_nothing():
    board = BoardSim(rng=throws(1))
    board.setup().press()
    before = snapshot(board.app)
    for line in ("hello", "[1, 2]", "42", '{"cmd": "fly"}', '{"nocmd": 1}',
                 '{"cmd": "new", "ruleset": "chess"}',
                 '{"cmd": "new", "ruleset": "kendall", "options": {"pieces": 9}}',
                 '{"cmd": "new", "ruleset": "hungarian", "options": [1]}',
                 '{"cmd": "state", "extra": 1}',
                 '{"cmd": "state"' + " " * 600 + "}", b"\xff\xfe", "", "{"):
        cmd, err = parse_command(line)
        assert cmd is None
        assert err["event"] == "error" and err["message"]
        json.loads(encode(err))
    # the App refuses a bad dict on its own too
    assert board.app.command({"cmd": "fly"})[0]["event"] == "error"
    assert board.app.command({"cmd": "new", "ruleset": "chess"})[0]["event"] == "error"
    assert board.app.command({"cmd": "new", "options": {"x": 1}})[0]["event"] == "error"
    board.wait()
    assert snapshot(board.app) == before


def test_state_command_replies_with_a_state_event():
    board = BoardSim(rng=throws(1))
    board.setup().press()
    cmd, err = parse_command('{"cmd": "state"}\n')
    assert err is None
    (event,) = board.app.command(cmd)
    assert event["event"] == "state"
    assert event["position"] == "BWBWBWBWBW.................... W"
    assert event["ruleset"] == "kendall" and event["state"] == "move"
    assert event["turn"] == "W" and event["throw"] == 1 and event["sticks"] == [1, 0, 0, 0]
    assert len(event["roles"]) == 30 and event["roles"][9] == "movable"
    line = encode(event)
    assert "\\n" not in line and json.loads(line) == event


def test_new_command_starts_a_hungarian_game_with_the_setup_check():
    board = BoardSim(rng=throws(1))
    board.setup()
    cmd, err = parse_command('{"cmd": "new", "ruleset": "hungarian", "options": {"no_move": "end"}}')
    assert err is None
    events = board.app.command(cmd)
    assert events[0] == {"event": "new", "ruleset": "hungarian:no_move=end",
                         "position": "WBWBWBWBWB.................... B", "mode": "two_players"}
    assert board.app.state == "setup" and board.app.ruleset == "hungarian"
    board.wait()
    # the same squares are full in both setups (H2): ready at once
    assert board.last("ready")["ruleset"] == "hungarian"


def test_undo_command_is_the_same_as_a_long_press():
    board = BoardSim(rng=throws(1))
    board.setup().press().move(10, 11)
    (event,) = board.app.command(parse_command('{"cmd": "undo"}')[0])
    assert event["event"] == "undo" and event["move"] == "10-11"
    assert board.app.state == "takeback"
    board.move(11, 10)
    assert board.app.state == "move" and board.app.throw == 1


def test_config_problems_become_one_config_event_on_the_first_step():
    board = BoardSim(config={"settle_ms": "soon", "ruleset": "chess"}, rng=throws())
    first = board.step()
    (event,) = [e for e in first if e["event"] == "config"]
    assert any("settle_ms" in m for m in event["messages"])
    assert any("ruleset" in m for m in event["messages"])
    assert board.app.ruleset == "kendall"                 # the safe default
    assert board.step() == []


def test_a_new_game_against_the_computer_says_its_mode_and_the_computers_side():
    """A page or mirror learns the new opponent from the event itself, before
    the computer's first throw."""
    board = BoardSim(rng=throws(1))
    board.setup()
    cmd, err = parse_command('{"cmd": "new", "mode": "computer", "side": "W", "level": 1}')
    assert err is None
    event = board.app.command(cmd)[0]
    assert (event["event"], event["mode"], event["computer"]) == ("new", "computer", "W")
    cmd, err = parse_command('{"cmd": "new", "mode": "two_players"}')
    event = board.app.command(cmd)[0]
    assert event["mode"] == "two_players" and "computer" not in event
