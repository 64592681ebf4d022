"""The calibration loop that turns a time measured here into a Pico figure.

``for i in range(100000): s ^= i``, run at module level through ``exec``,
takes 966 ms on an emulated 125 MHz RP2040 under MicroPython 1.28:

    Pico-equivalent ms = measured ms x 966 / calibration ms

``s ^= i`` stays a small int on every port; ``s += i`` (the loop before)
outgrows a 32-bit port's small ints at i = 46,341, so it cost the Pico long
integers the unix port never makes. The fastest of a few runs is kept.
docs/computer.md ("Reproducing") says how to run the benchmarks on a Pico.
"""

try:
    from time import ticks_us, ticks_diff
except ImportError:
    from time import perf_counter

    def ticks_us():
        return int(perf_counter() * 1000000)

    def ticks_diff(a, b):
        return a - b

PICO_MS = 966
LOOP = "s = 0\nn = 100000\nfor i in range(n):\n    s ^= i\n"


def calibrate(repeats=5):
    """Milliseconds for the calibration loop on this machine (best of ``repeats``)."""
    code = compile(LOOP, "calibration", "exec")
    best = None
    for _ in range(repeats):
        start = ticks_us()
        exec(code, {})
        took = ticks_diff(ticks_us(), start) / 1000
        if best is None or took < best:
            best = took
    return best


def pico_ms(measured_ms, calibration_ms):
    return measured_ms * PICO_MS / calibration_ms


def best_us(func, count, repeats=5):
    """Microseconds per call of ``func()`` over ``count`` calls, best of ``repeats``."""
    best = None
    for _ in range(repeats):
        start = ticks_us()
        for _ in range(count):
            func()
        took = ticks_diff(ticks_us(), start) / count
        if best is None or took < best:
            best = took
    return best
