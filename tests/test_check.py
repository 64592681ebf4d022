"""`senet-board check`: the wiring test finds a dead switch, a stuck one, a dark LED.

The stand-in runs the deployed firmware on a fake board where square 13's
switch never closes and square 20's is stuck closed from power-on. When the
firmware enters its self-test, the script sweeps a magnet over every square
in turn; the maker's answer about dark LEDs comes from stdin.
"""

import io

import pytest

from host_tools import check
from host_tools.deploy import DeployError
from standin import StandIn
from standin.boards import deployed
from standin.scenario import hook

DEAD = 13
STUCK = 20


def sweep(step_ms=120, start_ms=300):
    """A magnet over each square in turn, except the dead and the stuck one."""
    script = []
    t = start_ms
    for square in range(1, 31):
        if square in (DEAD, STUCK):
            continue
        script.append((t, "place", (square,)))
        script.append((t + step_ms * 2 // 3, "lift", (square,)))
        t += step_ms
    return script


@pytest.fixture(scope="module")
def board(tmp_path_factory):
    flash = tmp_path_factory.mktemp("flash")
    with deployed(flash, hook(sweep(), initial=(STUCK,), on_selftest=True)) as dev:
        yield dev


def test_auto_check_names_the_dead_switch_the_stuck_one_and_the_dark_led(board):
    out = io.StringIO()
    problems = check.check(board.port, auto=True, timeout=4.5, led_ms=5,
                           answers=io.StringIO("5\n"), out=out)
    text = out.getvalue()
    assert problems == 3, text
    assert "Switches: 28 of 30 work." in text
    assert "square 13: never seen closed" in text
    assert "square 20: stuck closed" in text
    assert "LEDs: 35 of 36 light." in text
    assert "dark: 5" in text


def test_the_board_goes_back_to_the_game_after_the_check(board):
    from test_deploy import read_events
    events = read_events(board.port, 3, until="state", send={"cmd": "state"})
    assert [e for e in events if e["event"] == "state"], events


def test_switch_bookkeeping_tells_strays_from_stuck_switches():
    found = check.Switches([4])
    found.take({"event": "switch", "square": 7, "closed": True}, expected=6)
    found.take({"event": "switch", "square": 7, "closed": False})
    found.take({"event": "switch", "square": "x", "closed": True})     # garbage: ignored
    assert found.strays == [(6, 7)]
    assert found.stuck() == [4]
    assert 7 not in found.never_closed() and 6 in found.never_closed()
    assert check.parse_numbers("3 7-9, 12 x 99", 36) == [3, 7, 8, 9, 12]


def test_a_board_without_the_firmware_is_named(tmp_path):
    with StandIn(str(tmp_path / "flash")) as dev:
        with pytest.raises(DeployError, match="does not answer the self-test"):
            check.check(dev.port, auto=True, timeout=1, answers=io.StringIO(""),
                        out=io.StringIO())
