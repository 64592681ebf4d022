"""`senet-board check`: the wiring test finds a dead switch, a stuck one, a dark LED.

The stand-in runs the deployed firmware on a fake board where square 13's
switch never closes and square 20's is stuck closed from power-on. When the
firmware enters its self-test, the script sweeps a magnet over every square
in turn; the maker's answer about dark LEDs comes from stdin.
"""

import io
import os
import re
import time

import pytest

from host_tools.board import check
from host_tools.board.messages import DeployError
from host_tools.board.serialport import parse_event
from host_tools.hardware.pins import load_pinmap
from standin import StandIn
from standin.boards import deployed
from standin.scenario import hook
import paths

DEAD = 13
STUCK = 20
HANG_S = 120          # real seconds: only a board that hangs takes this long


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


class SweepClock:
    """The check's clock in this test: time stands still until the check has
    read the sweep's last lift (square 30 opening), then leaps an hour, so the
    watch window closes when the scripted magnet is done, however slow the
    machine is. A board that hangs ends it too, after HANG_S real seconds."""

    def __init__(self):
        self.began = time.monotonic()
        self.leapt_at = None
        self.read = b""

    def reading(self, opened):
        """Wrap ``connect``'s port so the clock sees what the check has read."""
        name, ser = opened
        read = ser.read

        def recorded(n):
            data = read(n)
            self.read += data
            return data
        ser.read = recorded
        return name, ser

    def swept(self):
        return any(parse_event(line) == {"event": "switch", "square": 30, "closed": False}
                   for line in self.read.split(b"\n")[:-1])

    def __call__(self):
        real = time.monotonic()
        if self.leapt_at is None and (real - self.began > HANG_S or self.swept()):
            self.leapt_at = real
        if self.leapt_at is None:
            return 0.0
        return 3600.0 + real - self.leapt_at


@pytest.fixture(scope="module")
def board(tmp_path_factory):
    flash = tmp_path_factory.mktemp("flash")
    with deployed(flash, hook(sweep(), initial=(STUCK,), on_selftest=True)) as dev:
        yield dev


def test_auto_check_names_the_dead_switch_the_stuck_one_and_the_dark_led(board, monkeypatch):
    out = io.StringIO()
    clock = SweepClock()
    connect = check.connect
    monkeypatch.setattr(check, "connect", lambda port: clock.reading(connect(port)))
    problems = check.check(board.port, auto=True, timeout=4.5, led_ms=5,
                           answers=io.StringIO("5\n"), out=out, clock=clock)
    text = out.getvalue()
    assert problems == 3, text
    assert "Switches: 28 of 30 work." in text
    assert "square 13: never seen closed" in text
    assert "square 20: stuck closed" in text
    assert "LEDs: 35 of 36 light." in text
    assert "dark: 5" in text


def test_the_board_goes_back_to_the_game_after_the_check(board):
    from test_deploy import read_events
    events = read_events(board.port, HANG_S, until="state", send={"cmd": "state"})
    assert [e for e in events if e["event"] == "state"], events


def test_switch_bookkeeping_tells_strays_from_stuck_switches():
    found = check.Switches([4])
    found.take({"event": "switch", "square": 7, "closed": True}, expected=6)
    found.take({"event": "switch", "square": 7, "closed": False})
    found.take({"event": "switch", "square": "x", "closed": True})     # garbage: ignored
    assert found.strays == [(6, 7)]
    assert found.stuck() == [4]
    assert 7 not in found.never_closed() and 6 in found.never_closed()


# -- the numbers a maker types and reads ------------------------------------------------

ROOT = paths.ROOT


def test_led_numbers_are_read_as_the_docs_number_them_0_to_35():
    assert check.parse_numbers("3 7-9, 12 x 99", 36) == [3, 7, 8, 9, 12]
    assert check.parse_numbers("0", 36) == [0]              # the first LED
    assert check.parse_numbers("35", 36) == [35]            # the last LED
    assert check.parse_numbers("36 -1 100", 36) == []       # past either end
    assert check.parse_numbers("33-40", 36) == [33, 34, 35]
    assert check.parse_numbers("2-0", 36) == [0, 1, 2]
    assert check.parse_numbers("", 36) == []


def doc_matrix():
    """{square: (row, row GPIO, column, column GPIO)} from docs/hardware.md's table."""
    with open(os.path.join(ROOT, "docs", "hardware.md")) as f:
        doc = f.read()
    table = doc[doc.index("<!-- matrix:begin -->"):doc.index("<!-- matrix:end -->")]
    lines = [l for l in table.splitlines() if l.startswith("|")]
    cols = [(int(c), int(g)) for c, g in re.findall(r"col (\d+) \(GP(\d+)\)", lines[0])]
    found = {}
    for line in lines[2:]:
        row, gpio = map(int, re.match(r"\| row (\d+) \(GP(\d+)\)", line).groups())
        for (col, cgpio), square in zip(cols, re.findall(r"sq (\d+)", line)):
            found[int(square)] = (row, gpio, col, cgpio)
    return found


def report_of(never_closed, stuck, dark, wiring=None):
    """What check prints for a board with these faults."""
    out = io.StringIO()
    run = check.Check(None, out, io.StringIO(), True, 0, 0, 0,
                      wiring or load_pinmap())
    run.leds = 36
    found = check.Switches(stuck)
    found.seen_closed = set(range(1, 31)) - set(never_closed)
    run.report(found, dark)
    return out.getvalue()


@pytest.mark.parametrize("square", [1, 4, 5, 6, 13, 26, 30])
def test_check_names_a_square_by_the_row_column_and_gpios_of_the_docs(square):
    row, gpio, col, cgpio = doc_matrix()[square]
    text = report_of([square], [], [])
    assert ("square %d: never seen closed (its reed switch, diode or joints; "
            "matrix row %d (GP%d), column %d (GP%d))" % (square, row, gpio, col, cgpio)
            in text), text
    assert doc_matrix()[4] == (0, 2, 3, 11)          # the docs' own example


def test_a_shift_register_board_is_named_by_chip_and_input():
    wiring = load_pinmap()
    wiring["scanner"] = "shift"
    # docs/hardware.md, the 74HC165 table: square 4 is chip 1's input E (pin 3),
    # square 30 chip 4's input C (pin 13)
    text = report_of([4], [30], [], wiring)
    assert "74HC165 #1 input E (pin 3)" in text
    assert "square 30: stuck closed" in text and "74HC165 #4 input C (pin 13)" in text


def test_dark_leds_are_named_as_the_docs_number_them():
    text = report_of([], [], [0, 1])
    assert "LEDs: 34 of 36 light." in text
    assert "dark: 0, 1 (the data line usually breaks just before LED 0" in text
    assert "GP16" in text                            # LED 0 is fed from the led pin
    text = report_of([], [], [35])
    assert "just before LED 35: check its joints and the wire from LED 34's DOUT" in text


def test_a_board_without_the_firmware_is_named(tmp_path):
    with StandIn(str(tmp_path / "flash")) as dev:
        with pytest.raises(DeployError, match="does not answer the self-test"):
            check.check(dev.port, auto=True, timeout=1, answers=io.StringIO(""),
                        out=io.StringIO())


class QuietLink:
    """A board whose switches never close."""

    def poll(self, seconds=0.0):
        return []


def test_the_guided_check_names_a_silent_square_as_the_docs_do():
    out = io.StringIO()
    run = check.Check(QuietLink(), out, io.StringIO(), False, 0, 0, 0,
                      load_pinmap())
    found = run.switches({"closed": []})
    assert found.never_closed() == list(range(1, 31))
    assert "square 4: nothing seen (matrix row 0 (GP2), column 3 (GP11))" in out.getvalue()
