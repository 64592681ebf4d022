"""Reading the board: reed switches through the scanners, the debouncer and the button.

Stories a player would recognise: a piece sliding over a square makes the
switch chatter, and the App must not see it; a long press on the throw button
asks for a takeback once, however long it is held.
"""

import os
import sys

import pytest

import paths

sys.path.insert(0, os.path.join(paths.TESTS, "fakes"))

import machine  # noqa: E402  (the fake, from tests/fakes)

from firmware.scan import Button, Debouncer, MatrixScanner, Shift165Scanner  # noqa: E402


def sq(*squares):
    """Occupancy with pieces on ``squares``."""
    bits = 0
    for s in squares:
        bits |= 1 << (s - 1)
    return bits


# -- the debouncer --------------------------------------------------------------

def test_a_chattering_switch_does_not_reach_the_app():
    d = Debouncer(scans=3)
    # A piece slides across square 12: the reed switch bounces on and off.
    for raw in (sq(12), 0, sq(12), 0, sq(12), sq(12), 0, 0, sq(12), 0):
        assert d.update(raw) == 0
    # Nothing there any more: still nothing.
    for _ in range(5):
        assert d.update(0) == 0


def test_a_placed_piece_counts_after_three_equal_scans_and_a_lift_too():
    d = Debouncer(scans=3)
    assert d.update(sq(5)) == 0
    assert d.update(sq(5)) == 0
    assert d.update(sq(5)) == sq(5)
    assert d.update(0) == sq(5)
    assert d.update(0) == sq(5)
    assert d.update(0) == 0


def test_a_chattering_lift_does_not_lose_the_piece():
    d = Debouncer(scans=3)
    d.reset(sq(1, 3, 5))
    for raw in (sq(1, 5), sq(1, 3, 5), sq(1, 5), sq(1, 5), sq(1, 3, 5)):
        assert d.update(raw) == sq(1, 3, 5)


def test_squares_are_debounced_each_on_its_own():
    d = Debouncer(scans=2)
    d.update(sq(1))
    assert d.update(sq(1, 30)) == sq(1)       # square 30 has one read so far
    assert d.update(sq(1, 30)) == sq(1, 30)


def test_bits_beyond_square_30_are_ignored():
    d = Debouncer()
    for _ in range(5):
        stable = d.update((1 << 30) | (1 << 31) | sq(30))
    assert stable == sq(30)


@pytest.mark.parametrize("chatter_ms", [1, 2, 3, 5, 8])
def test_contact_chatter_of_a_few_ms_settles_to_the_true_state(chatter_ms):
    # Scans every 2 ms; the switch chatters for chatter_ms after the piece lands.
    d = Debouncer(scans=3)
    seen = []
    for t in range(0, 40, 2):
        if t < chatter_ms:
            raw = sq(9) if (t // 1) % 2 == 0 else 0
        else:
            raw = sq(9)
        seen.append(d.update(raw))
    assert seen[-1] == sq(9)
    # Once on, it never went off again: one clean change for the App.
    first = seen.index(sq(9))
    assert all(s == sq(9) for s in seen[first:])


def test_debouncer_refuses_impossible_settings():
    with pytest.raises(ValueError):
        Debouncer(scans=0)
    with pytest.raises(ValueError):
        Debouncer(bits=31)


# -- the throw button -----------------------------------------------------------

def press(button, start, held_ms, step=5, bounce_ms=0):
    """Drive ``button`` through one press; return [(time, result)] of non-None results."""
    out = []
    t = start
    while t < start + held_ms:
        level = True
        if t - start < bounce_ms:
            level = (t - start) // 1 % 2 == 0
        r = button.update(t, level)
        if r:
            out.append((t, r))
        t += step
    end = t
    while t < end + 200:
        level = False
        if t - end < bounce_ms:
            level = (t - end) // 1 % 2 == 1
        r = button.update(t, level)
        if r:
            out.append((t, r))
        t += step
    return out


def test_a_short_press_throws_once_on_release():
    b = Button(debounce_ms=30, long_ms=2000)
    got = press(b, 1000, 200)
    assert [r for _, r in got] == ["short"]
    assert got[0][0] >= 1200          # on release, not on press


def test_a_long_press_fires_once_while_held():
    b = Button(debounce_ms=30, long_ms=2000)
    got = press(b, 0, 5000)
    assert [r for _, r in got] == ["long"]
    assert 2000 <= got[0][0] < 2100   # while the button is still down


def test_held_tells_the_debounced_state():
    b = Button(debounce_ms=30)
    b.update(0, False)
    b.update(10, True)
    assert not b.held
    b.update(45, True)
    assert b.held


@pytest.mark.parametrize("bounce_ms", [1, 4, 8])
def test_a_bouncing_button_gives_one_press(bounce_ms):
    b = Button(debounce_ms=30, long_ms=2000)
    got = press(b, 500, 300, step=1, bounce_ms=bounce_ms)
    assert [r for _, r in got] == ["short"]


def test_a_tap_shorter_than_the_debounce_time_is_ignored():
    b = Button(debounce_ms=30)
    got = press(b, 0, 20, step=5)
    assert got == []


def test_a_long_press_seen_only_at_release_still_counts_as_long():
    # The loop was busy: the last update while held came at 1.9 s, the next after release.
    b = Button(debounce_ms=30, long_ms=2000)
    assert b.update(0, True) is None
    assert b.update(40, True) is None
    assert b.update(1900, True) is None
    results = [b.update(2600, False), b.update(2640, False), b.update(2700, False)]
    assert [r for r in results if r] == ["long"]


def test_a_press_released_just_before_the_long_time_is_short():
    b = Button(debounce_ms=30, long_ms=2000)
    results = [b.update(t, t < 1990) for t in range(0, 2100, 5)]
    assert [r for r in results if r] == ["short"]


def feed(button, levels, start=0):
    """One update a millisecond from ``start``; ``levels`` says the raw level
    at each. Returns {time: result} of the non-None results."""
    out = {}
    for i, level in enumerate(levels):
        r = button.update(start + i, level)
        if r:
            out[start + i] = r
    return out


def test_the_press_counts_exactly_when_it_has_lasted_the_debounce_time():
    b = Button(debounce_ms=30, long_ms=2000)
    b.update(0, False)
    assert b.update(100, True) is None and not b.held
    assert b.update(129, True) is None and not b.held      # 29 ms: not yet
    assert b.update(130, True) is None and b.held          # 30 ms: pressed


def test_a_tap_one_ms_short_of_the_debounce_time_is_nothing_and_one_that_lasts_it_throws():
    # Down from 0 to 29 (30 updates, 29 ms held) then up: never pressed.
    b = Button(debounce_ms=30, long_ms=2000)
    assert feed(b, [True] * 30 + [False] * 100) == {}
    # Down from 0 to 30 (30 ms held): pressed at 30, "short" once the release
    # has lasted the debounce time too (31 + 30).
    b = Button(debounce_ms=30, long_ms=2000)
    assert feed(b, [True] * 31 + [False] * 100) == {61: "short"}


def test_the_long_press_fires_at_exactly_the_long_time():
    b = Button(debounce_ms=30, long_ms=2000)
    assert feed(b, [True] * 2001 + [False] * 100) == {2000: "long"}
    # Let go at 2000 (held 2000 ms): long, as the release is seen.
    b = Button(debounce_ms=30, long_ms=2000)
    assert feed(b, [True] * 2000 + [False] * 100) == {2000: "long"}
    # Let go at 1999 (held 1999 ms): short, once the release is debounced.
    b = Button(debounce_ms=30, long_ms=2000)
    assert feed(b, [True] * 1999 + [False] * 100) == {2029: "short"}


def test_the_debouncer_takes_a_square_on_exactly_the_nth_equal_scan():
    for scans in (1, 3, 5):
        d = Debouncer(bits=30, scans=scans)
        for _ in range(scans - 1):
            assert d.update(1 << 29) == 0                  # square 30: not yet
        assert d.update(1 << 29) == 1 << 29
        for _ in range(scans - 1):
            assert d.update(0) == 1 << 29
        assert d.update(0) == 0


def test_button_timing_survives_the_tick_counter_wrapping():
    period = 1 << 30                         # MicroPython's ticks_ms wraps here

    def ticks_diff(a, b):
        return ((a - b + period // 2) % period) - period // 2

    b = Button(debounce_ms=30, long_ms=2000, ticks_diff=ticks_diff)
    start = period - 1000                    # the press straddles the wrap
    results = []
    for i in range(0, 4000, 10):
        r = b.update((start + i) % period, i < 3000)
        if r:
            results.append((i, r))
    assert [r for _, r in results] == ["long"]
    assert 2000 <= results[0][0] < 2100

    b = Button(debounce_ms=30, long_ms=2000, ticks_diff=ticks_diff)
    results = [b.update((start + i) % period, 900 <= i < 1300) for i in range(0, 2000, 10)]
    assert [r for r in results if r] == ["short"]


# -- the matrix -----------------------------------------------------------------

ROWS = [2, 3, 4, 5, 6, 7]
COLS = [8, 9, 10, 11, 12]


@pytest.fixture
def board():
    machine.board.reset()
    return machine.board


def matrix_scanner(board, sleep_us=None):
    board.wire_matrix(ROWS, COLS)
    rows = [machine.Pin(n, machine.Pin.OPEN_DRAIN, machine.Pin.PULL_UP, value=1) for n in ROWS]
    cols = [machine.Pin(n, machine.Pin.IN, machine.Pin.PULL_UP) for n in COLS]
    return MatrixScanner(rows, cols, settle_us=50, sleep_us=sleep_us)


def test_every_square_has_its_own_switch_in_the_matrix(board):
    scanner = matrix_scanner(board)
    assert scanner.scan() == 0
    for s in range(1, 31):
        board.occupancy = 0
        board.place(s)
        assert scanner.scan() == sq(s), s


def test_the_start_position_reads_back_from_the_matrix(board):
    scanner = matrix_scanner(board)
    board.place(*range(1, 11))
    assert scanner.scan() == sq(*range(1, 11))
    board.lift(10)
    board.place(14)
    assert scanner.scan() == sq(*range(1, 10), 14)


class RecordingPin:
    """A pin that logs what happens to it, for checking the scan order."""

    def __init__(self, name, log, level=1):
        self.name = name
        self.log = log
        self.level = level

    def value(self, v=None):
        if v is None:
            self.log.append(("read", self.name))
            return self.level
        self.log.append(("set", self.name, v))
        return None


def test_the_matrix_pulls_one_row_low_at_a_time_and_waits_before_reading():
    log = []
    rows = [RecordingPin("r%d" % r, log) for r in range(6)]
    cols = [RecordingPin("c%d" % c, log) for c in range(5)]
    waits = []
    scanner = MatrixScanner(rows, cols, settle_us=50,
                            sleep_us=lambda us: (waits.append(us), log.append(("wait", us))))
    assert log == [("set", "r%d" % r, 1) for r in range(6)]   # every row released
    del log[:]
    scanner.scan()
    expected = []
    for r in range(6):
        expected.append(("set", "r%d" % r, 0))
        expected.append(("wait", 50))
        expected.extend(("read", "c%d" % c) for c in range(5))
        expected.append(("set", "r%d" % r, 1))
    assert log == expected
    assert waits == [50] * 6


def test_a_matrix_needs_thirty_crossings():
    with pytest.raises(ValueError):
        MatrixScanner([RecordingPin("r", [])] * 5, [RecordingPin("c", [])] * 5)


# -- the 74HC165 chain ----------------------------------------------------------

def shift_scanner(board, **kw):
    board.wire_shift165(13, 14, 15)
    load = machine.Pin(13, machine.Pin.OUT, value=1)
    clock = machine.Pin(14, machine.Pin.OUT, value=0)
    data = machine.Pin(15, machine.Pin.IN)
    return Shift165Scanner(load, clock, data, **kw)


def test_every_square_has_its_own_input_in_the_74hc165_chain(board):
    scanner = shift_scanner(board)
    assert scanner.scan() == 0
    for s in range(1, 31):
        board.occupancy = sq(s)
        assert scanner.scan() == sq(s), s


def test_the_chain_is_latched_first_and_clocked_32_times():
    log = []
    load = RecordingPin("load", log)
    clock = RecordingPin("clock", log)
    data = RecordingPin("data", log, level=0)      # every input closed
    waits = []
    scanner = Shift165Scanner(load, clock, data, pulse_us=1, sleep_us=waits.append)
    del log[:]
    occupancy = scanner.scan()
    assert occupancy == sq(*range(1, 31))          # inputs 31 and 32 are not squares
    assert log[:2] == [("set", "load", 0), ("set", "load", 1)]
    assert log.count(("set", "clock", 1)) == 32
    assert log[2] == ("read", "data")               # square 1 is on QH before any clock
    assert waits == [1] * (1 + 2 * 32)


def test_a_chain_wired_active_high_can_be_read_too():
    log = []
    data = RecordingPin("data", log, level=1)
    scanner = Shift165Scanner(RecordingPin("l", log), RecordingPin("c", log), data, closed=1)
    assert scanner.scan() == sq(*range(1, 31))
