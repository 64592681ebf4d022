"""The calibration loop that turns a time measured here into a Pico figure.

A 100,000-iteration ``for i in range(n): s += i`` loop takes 1,008 ms on a
125 MHz RP2040 under MicroPython 1.28.  That figure matches the loop run at
module level (the REPL or a script's top level, where ``s`` and ``i`` are
globals), so the loop is run the same way here, through ``exec``.  The fastest
of a few runs is kept, as with every measurement in the benchmarks: other work
on the machine only ever adds time.

    Pico-equivalent ms = measured ms x 1008 / calibration ms
"""

try:
    from time import ticks_us, ticks_diff
except ImportError:
    from time import perf_counter

    def ticks_us():
        return int(perf_counter() * 1000000)

    def ticks_diff(a, b):
        return a - b

PICO_MS = 1008
LOOP = "s = 0\nn = 100000\nfor i in range(n):\n    s += i\n"


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
