"""What the CircuitPython edge (firmware/hal_cp.py) costs the board's loop, in
Pico-equivalent milliseconds, measured on the MicroPython unix port (or
CPython) with the fakes of tests/fakes/circuitpython and Adafruit's real
NeoPixel and pure-Python pixelbuf libraries.

    micropython tests/bench/cp_edge_bench.py LIB
    python tests/bench/cp_edge_bench.py LIB

LIB is the folder holding neopixel.py and adafruit_pixelbuf.py (the tests
fill .cache/circuitpython-lib). Run from the repository root. Figures are
the best of five runs, turned into Pico-equivalent ms by the calibration
loop of tests/bench/calibration.py, timed in the same process. A real
CircuitPython board may have pixelbuf built in (in C), which is cheaper than
the pure-Python one timed here: these are upper bounds for the strip.

- ``scan_idle``: KeyScanner.scan() with no keypad event waiting: every loop.
- ``scan_lift``: scan() taking one event (a piece lifted or put down).
- ``strip_same``: Strip.write() of the frame already shown: most loops.
- ``strip_one``: Strip.write() with one LED changed (a blink step).
- ``strip_all``: Strip.write() with all 36 LEDs changed (a new position).
"""

import sys

sys.path.insert(0, "tests/fakes/circuitpython")
sys.path.insert(0, sys.argv[1] if len(sys.argv) > 1 else ".cache/circuitpython-lib")
for _p in ("", "."):
    if _p not in sys.path:
        sys.path.append(_p)

from calibration import PICO_MS, calibrate, pico_ms, ticks_diff, ticks_us  # noqa: E402
import _cpworld as world  # noqa: E402
from firmware import hal_cp  # noqa: E402
from firmware.config import validate  # noqa: E402


def best_us(setup, func, count=200, repeats=5):
    best = None
    for _ in range(repeats):
        total = 0
        for _ in range(count):
            setup()
            start = ticks_us()
            func()
            total += ticks_diff(ticks_us(), start)
        us = total / count
        if best is None or us < best:
            best = us
    return best


def main():
    config, _ = validate({})
    world.wire_matrix(["GPIO%d" % n for n in config["pins"]["matrix_rows"]],
                      ["GPIO%d" % n for n in config["pins"]["matrix_cols"]])
    hw = hal_cp.build(config)
    scanner = hw.scanner
    strip = hw.strip
    frames = [[(0, 0, 0)] * 36, [(0, 0, 0)] * 36]
    frames[1][10] = (0, 20, 10)
    full = [[(i, 2 * i, 3 * i) for i in range(36)], [(3 * i, i, 2 * i) for i in range(36)]]
    state = [0]

    def quiet():
        world.strips.clear()                 # the fake keeps every frame: not here

    def one_event():
        quiet()
        world.occupancy ^= 1 << 12           # a piece lifted or put down...
        world.advance(20)                    # ...and seen by keypad's scans

    def flip():
        quiet()
        state[0] ^= 1

    def write_one():
        strip.write(frames[state[0]])

    def write_all():
        strip.write(full[state[0]])

    strip.write(frames[0])
    figures = {
        "scan_idle": best_us(quiet, scanner.scan),
        "scan_lift": best_us(one_event, scanner.scan, count=50),
        "strip_same": best_us(quiet, lambda: strip.write(frames[0])),
        "strip_one": best_us(flip, write_one),
        "strip_all": best_us(flip, write_all, count=50),
    }
    cal = calibrate()
    impl = sys.implementation.name
    print("implementation %s, calibration loop %.1f ms (%d ms on the Pico)"
          % (impl, cal, PICO_MS))
    for name in ("scan_idle", "scan_lift", "strip_same", "strip_one", "strip_all"):
        us = figures[name]
        print("%-11s %8.1f us here  %6.2f Pico-equivalent ms" % (name, us, pico_ms(us / 1000, cal)))


main()
