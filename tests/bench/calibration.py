"""The calibration loop that turns a time measured here into a Pico figure.

``for i in range(100000): s ^= i``, run at module level through ``exec``,
takes 966 ms on an emulated 125 MHz RP2040 under MicroPython 1.28:

    Pico-equivalent ms = measured ms x 966 / calibration ms

``s ^= i`` stays a small int on every port; ``s += i`` (the loop before)
outgrows a 32-bit port's small ints at i = 46,341, so it cost the Pico long
integers the unix port never makes. The fastest of a few runs is kept.
docs/computer.md ("Reproducing") says how to run the benchmarks on a Pico,
docs/circuitpython.md on a CircuitPython board.

The clock, ``ticks_us()`` and ``ticks_diff()`` in microseconds, is the best
each port has (``CLOCK`` names it): MicroPython's ``time.ticks_us``;
CPython's ``time.perf_counter``; on CircuitPython, whose ``time`` has
neither, ``time.monotonic_ns``, else ``supervisor.ticks_ms`` (1 ms steps,
wrapping at 2**29 ms). ``clock_step_us()`` measures the clock's smallest
step: a figure smaller than a few steps is noise, and the benchmarks that
time single calls say so through it.
"""

try:
    from time import ticks_us, ticks_diff
    CLOCK = "ticks_us"
except ImportError:
    try:
        from time import perf_counter
        CLOCK = "perf_counter"

        def ticks_us():
            return int(perf_counter() * 1000000)
    except ImportError:
        try:
            from time import monotonic_ns
            CLOCK = "monotonic_ns"

            def ticks_us():
                return monotonic_ns() // 1000
        except ImportError:
            from supervisor import ticks_ms as _ticks_ms
            CLOCK = "supervisor.ticks_ms"

            def ticks_us():
                return _ticks_ms() * 1000

    def ticks_diff(a, b):
        """``a - b``; across supervisor.ticks_ms's wrap at 2**29 ms too."""
        d = a - b
        if CLOCK == "supervisor.ticks_ms":
            period = (1 << 29) * 1000
            d %= period
            if d >= period // 2:
                d -= period
        return d

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


def clock_step_us(tries=5):
    """The smallest step the clock takes, in microseconds (best of ``tries``)."""
    best = None
    for _ in range(tries):
        start = ticks_us()
        now = ticks_us()
        while now == start:
            now = ticks_us()
        step = ticks_diff(now, start)
        if best is None or step < best:
            best = step
    return best


PICO_HEAP = 245888              # bytes: MicroPython 1.28's rp2 port on a Pico
PICO_BLOCKS = PICO_HEAP // 16    # the collector's blocks of 4 words (4 bytes each)


def pico_like_heap(word_bytes):
    """The unix-port heap (bytes) with as many blocks as the Pico's: a
    collection walks the heap block by block, so this is the heap whose
    collections take the Pico's share of work. Objects there are about 1.75
    times as large on a 64-bit port, so they fill about the Pico's share of
    it too."""
    return PICO_BLOCKS * 4 * word_bytes


def heap_advice(heap, platform=None, implementation=None, word_bytes=None):
    """What a heap of ``heap`` bytes means for the figures, in a few words.

    On a board (the Pico's rp2 port, CircuitPython) the heap is the board's
    own, nothing to change. On the unix port the heap is chosen with
    ``-X heapsize=``: the Pico-like one has the Pico's number of blocks
    (``pico_like_heap``: 480K on a 64-bit port, 240K on a 32-bit one)."""
    import sys
    if platform is None:
        platform = sys.platform
    if implementation is None:
        implementation = sys.implementation.name
    if word_bytes is None:
        word_bytes = 8 if sys.maxsize > 2 ** 32 else 4
    if implementation != "micropython" or platform not in ("linux", "darwin", "freebsd"):
        return "this board's own heap"
    like = pico_like_heap(word_bytes)
    flag = "-X heapsize=%dK" % (like // 1024)
    if abs(heap - like) <= like // 20:
        return "about the Pico's: as many blocks to collect (%s)" % flag
    if heap < like:
        return ("smaller than the Pico's in blocks: collections come out shorter and "
                "memory runs out sooner; run with %s" % flag)
    return ("larger than the Pico's in blocks: every collection takes longer; "
            "run with %s" % flag)


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
