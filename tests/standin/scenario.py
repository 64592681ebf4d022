"""Boot hooks for the stand-in: wire the fake board and script what happens on it.

``hook(script)`` returns MicroPython source for ``StandIn(boot_hook=...)``. It
runs before main.py on every boot, wires tests/fakes' board like the default
pin map (a 6x5 matrix, the throw button on GP17) and plays ``script``: a list
of ``(ms, action, squares)`` taken in order once that many milliseconds have
passed since boot. Actions: "place", "lift" (magnets over squares), "press",
"release" (the throw button). The script advances whenever the firmware reads
a pin, so it follows the firmware's own scanning. ``initial`` squares hold a
magnet from power-on; ``on_selftest=True`` starts the script's clock when the
firmware enters its self-test mode instead of at boot.

    hook([(0, "place", range(1, 11)), (2500, "press", ()), (2700, "release", ())])
"""

ROWS = [2, 3, 4, 5, 6, 7]
COLS = [8, 9, 10, 11, 12]
BUTTON = 17

GAP_READS = 300                           # pin reads between two steps: ~10 scans
KENDALL_START = tuple(range(1, 11))       # BWBWBWBWBW on squares 1-10


def hook(script=(), rows=ROWS, cols=COLS, button=BUTTON, initial=(), on_selftest=False):
    steps = [(int(ms), str(action), tuple(int(s) for s in squares))
             for ms, action, squares in script]
    return _TEMPLATE % {"rows": rows, "cols": cols, "button": button, "script": steps,
                        "initial": tuple(initial), "armed": not on_selftest, "gap": GAP_READS}


_TEMPLATE = """
import time
import machine
_b = machine.board
_b.wire_matrix(%(rows)r, %(cols)r)
_b.place(*%(initial)r)
_clock = [time.ticks_ms(), %(armed)r]
_script = %(script)r
_read = _b.read

if not _clock[1]:
    import firmware.selftest as _fs
    _start = _fs.SelfTest.start

    def _selftest_start(self, raw):
        _clock[0] = time.ticks_ms()
        _clock[1] = True
        return _start(self, raw)

    _fs.SelfTest.start = _selftest_start


_reads = [%(gap)d]                # the first step may come at once


def _play(pin):
    # One step at a time, each seen by several whole scans (a scan reads the
    # 30 switches), so a slow moment never merges a place with its lift.
    _reads[0] += 1
    now = time.ticks_diff(time.ticks_ms(), _clock[0])
    if _clock[1] and _script and _script[0][0] <= now and _reads[0] >= %(gap)d:
        _reads[0] = 0
        ms, action, squares = _script.pop(0)
        if action == "place":
            _b.place(*squares)
        elif action == "lift":
            _b.lift(*squares)
        elif action == "press":
            _b.set_input(%(button)d, 0)
        elif action == "release":
            _b.set_input(%(button)d, 1)
    return _read(pin)


_b.read = _play
"""
