"""The firmware's edge modules on the MicroPython unix port, with fake hardware.

Plain asserts, no pytest: run as

    micropython -X heapsize=200k tests/mp/test_firmware_mp.py [scratch folder]

from the repository root. Exercises scan, lights, config and hal with the fake
machine and neopixel modules of tests/fakes, checks that the scan, debounce,
render and strip-write paths allocate nothing (micropython.heap_lock), and
ends with one line "N passed, N failed". tests/firmware_tests/test_firmware_micropython.py runs
it from pytest.
"""

import gc
import os
import sys

try:
    _here = __file__.rsplit("/", 1)[0] if "/" in __file__ else "."
except NameError:
    _here = "tests/mp"
ROOT = _here + "/../.."
sys.path.insert(0, ROOT)
sys.path.insert(0, ROOT + "/tests/fakes")
SCRATCH = sys.argv[1] if len(sys.argv) > 1 else "/tmp"

import machine  # noqa: E402  (the fake)
import neopixel  # noqa: E402  (the fake)

from firmware import config, hal, lights, pins  # noqa: E402
from firmware.scan import Button, Debouncer, MatrixScanner, Shift165Scanner  # noqa: E402
from runner import check, done  # noqa: E402  (beside this file)

CASES = []


def case(f):
    CASES.append(f)
    return f


def sq(*squares):
    bits = 0
    for s in squares:
        bits |= 1 << (s - 1)
    return bits


def fresh():
    machine.board.reset()
    neopixel.reset()


class Level:
    """A pin-like object with a fixed level and no bookkeeping: allocation-free."""

    def __init__(self, level=1):
        self.level = level

    def value(self, v=None):
        if v is None:
            return self.level
        return None


def no_allocation(f):
    """Call f() with the heap locked: any allocation raises MemoryError."""
    import micropython
    micropython.heap_lock()
    try:
        return f()
    finally:
        micropython.heap_unlock()


# -- scan -----------------------------------------------------------------------

@case
def a_chattering_switch_does_not_reach_the_app():
    d = Debouncer(scans=3)
    for raw in (sq(12), 0, sq(12), 0, sq(12), sq(12), 0, 0):
        assert d.update(raw) == 0
    for _ in range(3):
        stable = d.update(sq(12))
    assert stable == sq(12)


@case
def square_30_and_nothing_beyond():
    d = Debouncer(scans=2)
    d.update(sq(30) | (1 << 30))
    assert d.update(sq(30) | (1 << 31)) == sq(30)


@case
def debouncing_allocates_nothing():
    d = Debouncer(scans=3)
    d.update(sq(1, 2, 3))
    raw = sq(1, 2, 3, 29, 30)
    step = lambda: d.update(raw)  # noqa: E731
    no_allocation(step)
    no_allocation(step)
    assert no_allocation(step) == raw
    assert no_allocation(step) == raw


def presses(button, start, stop, step, held, clock=None):
    """Drive ``button`` from ``start`` to ``stop`` ms; held(t) says if it is down.
    Return [(t, result)] for the steps that returned something."""
    out = []
    for t in range(start, stop, step):
        now = t if clock is None else clock(t)
        r = button.update(now, held(t))
        if r:
            out.append((t, r))
    return out


@case
def a_long_press_fires_once_while_held_and_a_short_one_on_release():
    got = presses(Button(debounce_ms=30, long_ms=2000), 0, 3500, 10, lambda t: t < 3000)
    assert len(got) == 1 and got[0][1] == "long" and got[0][0] < 2100
    got = presses(Button(debounce_ms=30, long_ms=2000), 0, 600, 5, lambda t: 100 <= t < 400)
    assert len(got) == 1 and got[0][1] == "short" and got[0][0] >= 400


@case
def the_button_survives_the_tick_counter_wrapping():
    import time
    b = Button(debounce_ms=30, long_ms=2000, ticks_diff=time.ticks_diff)
    start = time.ticks_add(0, -1000)           # the press straddles the wrap
    got = presses(b, 0, 4000, 10, lambda i: i < 3000, lambda i: time.ticks_add(start, i))
    assert len(got) == 1 and got[0][1] == "long" and got[0][0] < 2100


@case
def the_matrix_reads_every_square():
    fresh()
    board = machine.board
    rows = [2, 3, 4, 5, 6, 7]
    cols = [8, 9, 10, 11, 12]
    board.wire_matrix(rows, cols)
    scanner = MatrixScanner(
        [machine.Pin(n, machine.Pin.OPEN_DRAIN, machine.Pin.PULL_UP, value=1) for n in rows],
        [machine.Pin(n, machine.Pin.IN, machine.Pin.PULL_UP) for n in cols])
    for s in range(1, 31):
        board.occupancy = sq(s)
        assert scanner.scan() == sq(s)


@case
def scanning_allocates_nothing():
    m = MatrixScanner([Level() for _ in range(6)], [Level(0) for _ in range(5)])
    every = sq(*range(1, 31))
    assert no_allocation(m.scan) == every
    s = Shift165Scanner(Level(), Level(), Level(0))
    assert no_allocation(s.scan) == every


# -- lights ---------------------------------------------------------------------

LEDS = {"count": 36}


@case
def every_role_is_told_apart_without_colour():
    seen = {}
    for role in lights.STYLES:
        colour, pattern, level = lights.STYLES[role]
        key = pattern + ":" + str(level)
        assert key not in seen
        seen[key] = role


@case
def nothing_blinks_faster_than_three_hertz():
    one = [""]
    for role in lights.STYLES:
        light = lights.Lights({"count": 1}, 255)
        one[0] = role
        peak = 0
        for t in range(0, 4000, 10):
            peak = max(peak, max(light.render(t, one)[0]))
        if not peak:
            continue
        was_on = True
        last_rise = None
        for t in range(0, 6000, 3):
            on = max(light.render(t, one)[0]) > peak // 2
            if on and not was_on:
                if last_rise is not None:
                    assert t - last_rise >= 333, role
                last_rise = t
            was_on = on


@case
def the_worst_frame_stays_within_500_ma():
    for cap in (pins.BRIGHTNESS_CAP, 100, 255):
        light = lights.Lights(LEDS, cap)
        for role in lights.STYLES:
            for t in range(0, 2400, 100):
                frame = light.render(t, [role] * 36)
                assert lights.estimate_ma(frame) <= 400
                for c in frame:
                    assert max(c) <= cap


@case
def a_steady_frame_renders_without_allocating():
    light = lights.Lights(LEDS, 37)
    roles = ["movable"] * 6 + ["target"] * 2 + [""] * 22 + ["stick_white"] * 2 \
        + ["stick_black"] * 2 + ["turn", ""]
    light.render(0, roles)
    light.render(40, roles)       # "turn" breathes: let it settle on one step
    frame = no_allocation(lambda: light.render(41, roles))
    assert not light.changed and len(frame) == 36
    bright = lights.Lights(LEDS, 255)                # limited for power, still steady
    white = ["stick_white"] * 36
    bright.render(0, white)
    no_allocation(lambda: bright.render(10, white))
    assert bright.limited


# -- config ---------------------------------------------------------------------

@case
def an_invalid_config_names_the_bad_key_and_keeps_a_safe_default():
    cfg, messages = config.validate({"settle_ms": 3, "ruleset": "hungarian", "nope": 1})
    assert cfg["settle_ms"] == 250 and cfg["ruleset"] == "hungarian"
    assert "config.json: settle_ms must be a whole number of milliseconds from 20 to 5000; using 250" in messages
    assert 'config.json: unknown key "nope" ignored' in messages
    assert len(messages) == 2


@case
def bools_are_not_numbers_and_pins_are_checked():
    cfg, messages = config.validate({"brightness_cap": True, "pins": {"led": 25, "button": 8}})
    assert cfg["brightness_cap"] == pins.BRIGHTNESS_CAP
    assert cfg["pins"] == config.DEFAULTS["pins"]
    assert len(messages) == 3


@case
def config_load_handles_missing_broken_and_good_files():
    path = SCRATCH + "/senet_config_mp_test.json"
    assert config.load(SCRATCH + "/no_such_config.json") == (config.DEFAULTS, [])
    with open(path, "w") as f:
        f.write('{"settle_ms": ')
    cfg, messages = config.load(path)
    assert cfg == config.DEFAULTS and len(messages) == 1
    with open(path, "w") as f:
        f.write('{"mode": "museum", "museum": {"attract_s": 30}}')
    cfg, messages = config.load(path)
    assert messages == [] and cfg["mode"] == "museum" and cfg["museum"]["attract_s"] == 30
    os.remove(path)


@case
def anything_at_all_never_raises():
    for raw in ([], "x", 5, {"pins": None}, {"leds": {"count": "x"}}, {"options": [1]},
                {"computer": {"level": 1.5}}, {"museum": {"reset_s": -4}},
                {"pins": {"matrix_rows": [1, 2, 3, 4, 5, 99]}}):
        cfg, messages = config.validate(raw)
        assert len(cfg) == len(config.DEFAULTS) and messages


# -- hal ------------------------------------------------------------------------

@case
def hal_builds_a_matrix_scanner_that_reads_the_fake_board():
    fresh()
    cfg, _ = config.validate({})
    p = cfg["pins"]
    machine.board.wire_matrix(p["matrix_rows"], p["matrix_cols"])
    hw = hal.build(cfg)
    machine.board.place(1, 2, 3, 30)
    assert hw.scanner.scan() == sq(1, 2, 3, 30)
    assert hw.button() is False
    machine.board.set_input(p["button"], 0)
    assert hw.button() is True


@case
def hal_builds_a_74hc165_scanner():
    fresh()
    cfg, _ = config.validate({"scanner": "shift"})
    p = cfg["pins"]
    machine.board.wire_shift165(p["sr_load"], p["sr_clock"], p["sr_data"])
    hw = hal.build(cfg)
    machine.board.place(4, 16, 29)
    assert hw.scanner.scan() == sq(4, 16, 29)


@case
def the_strip_is_written_only_when_the_frame_changes():
    fresh()
    cfg, _ = config.validate({})
    strip = hal.make_strip(cfg)
    light = lights.Lights(cfg["leds"], cfg["brightness_cap"])
    roles = ["target"] * 3 + [""] * 33
    assert strip.write(light.render(0, roles))
    frame = light.render(100, roles)
    assert not no_allocation(lambda: strip.write(frame))
    roles[5] = "movable"
    assert strip.write(light.render(200, roles))
    np = neopixel.strips[-1]
    assert len(np.writes) == 2
    assert np.colours()[5] == light.frame[5]


@case
def watchdog_reset_and_id():
    fresh()
    dog = hal.watchdog(8000)
    dog.feed()
    assert machine.board.watchdog.feeds == 1
    hal.watchdog(0).feed()
    try:
        hal.reset()
        assert False
    except machine.Reset:
        pass
    assert len(hal.unique_id()) == 16


# -- run ------------------------------------------------------------------------

def main():
    for f in CASES:
        if check(f.__name__, f):
            print("ok  ", f.__name__)
    gc.collect()
    print("heap in use after the run: %d bytes" % gc.mem_alloc())
    return done()


if __name__ == "__main__":     # not when pytest on CPython imports this file
    sys.exit(main())
