"""The calibration loop that turns a time measured here into a Pico figure.

A 100,000-iteration ``for i in range(n): s ^= i`` loop takes 966 ms on an
emulated 125 MHz RP2040 running MicroPython 1.28's rp2 port (the chip's own
time, so a conservative figure for a real Pico). The loop keeps ``s`` a small
integer on every port: ``s ^= i`` never exceeds 2**17. The earlier
``s += i`` did not do the same work everywhere: on the Pico's 32-bit port
``s`` passes the small-int limit (2**30 - 1) at i = 46,341 and every later
addition allocates a long integer, which the 64-bit unix port never does, so
it made every Pico-equivalent figure about 1.57 times too high.

The loop is run at module level (the REPL or a script's top level, where
``s`` and ``i`` are globals, as when the Pico figure was taken), through
``exec``. The fastest of a few runs is kept, as with every measurement in the
benchmarks: other work on the machine only ever adds time.

    Pico-equivalent ms = measured ms x 966 / calibration ms

The benchmarks import this module from the fixed relative path
``tests/bench`` (run them from the repository's root), because on a Pico
through a raw REPL (``mpremote run``) a script's ``__file__`` is not its
path. On a Pico itself::

    mpremote mount . run tests/bench/engine_bench.py

(``mount .`` makes the repository the board's current folder, so ``engine``,
``firmware`` and ``tests/bench`` are found; the figures are then the Pico's
own, and the calibration loop should take about 966 ms.)
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
