"""The engine and the App on the MicroPython unix port, with firmware/compat.py
in its CircuitPython branch: the ``supervisor`` module of
tests/fakes/circuitpython is on the path, so compat takes CircuitPython's
clock (2**29 wrap), and the firmware's ``ticks_diff`` is switched to compat's
before the App is loaded, as firmware/__init__.py does by itself on
CircuitPython (whose ``time`` has no ``ticks_diff``; the unix port's has).
The modules are loaded from their .py sources, as CircuitPython loads them.

    micropython -X heapsize=200k tests/mp/cp_app_mp.py [STORE_DIR]

Run from the repository root; ends with "N passed, N failed".
"""

import gc
import sys

sys.path.insert(0, "tests/fakes/circuitpython")
for _p in ("", ".", "tests"):
    if _p not in sys.path:
        sys.path.append(_p)

gc.collect()
_free = gc.mem_free()
import firmware  # noqa: E402
from firmware import compat  # noqa: E402
firmware.ticks_diff = compat.ticks_diff     # the shim switched, before the App loads
from board_sim import BoardSim  # noqa: E402
from engine.sticks import XorShift  # noqa: E402
from runner import check, done  # noqa: E402

STORE = sys.argv[1] if len(sys.argv) > 1 else None
PERIOD = 1 << 29


class WrappingBoard(BoardSim):
    """BoardSim with a clock like supervisor.ticks_ms: it wraps at 2**29."""

    def step(self):
        self.t = compat.ticks_add(self.t, self.tick_ms)
        out = self.app.step(self.t, self.occ, self.button)
        self.events.extend(out)
        return out

    def wait(self, ms=None):
        if ms is None:
            ms = self.settle_ms + 100
        end = compat.ticks_add(self.t, ms)
        while compat.ticks_diff(end, self.t) > 0:
            self.step()
        return self


def the_circuitpython_branch_is_taken():
    assert compat.CIRCUITPYTHON, "compat did not see supervisor.ticks_ms"
    import firmware.app
    assert firmware.app.ticks_diff is compat.ticks_diff
    assert compat.ticks_diff(0, PERIOD - 1) == 1
    assert compat.ticks_add(PERIOD - 1, 1) == 0
    import supervisor
    t = supervisor.ticks_ms()
    assert 0 <= t < PERIOD


def a_whole_game_across_the_wrap():
    # the clock starts 3 s before the wrap, as a board's does 65.5 s after power-on
    board = WrappingBoard(config={"ruleset": "hungarian"}, store_dir=STORE, rng=XorShift(7),
                          t=PERIOD - 3000)
    board.setup()
    assert board.app.state == "opening", board.app.state
    moves = board.play_to_the_end(XorShift(8), 3000)
    assert board.app.state == "game_over"
    assert moves > 20, moves
    assert board.t < PERIOD
    print("game of %d moves, clock ended at %d" % (moves, board.t))


def a_long_press_is_long_across_the_wrap():
    board = WrappingBoard(config={"ruleset": "kendall"}, t=PERIOD - 1000)
    board.setup()
    board.press()                       # a short press throws (opening)
    assert board.last("throw") is not None
    n = len(board.events)
    board.hold()                        # long_press_ms + 200 across the wrap
    assert board.t < 5000, board.t
    assert len(board.events) >= n


check("the CircuitPython branch is taken", the_circuitpython_branch_is_taken)
check("a whole game across the wrap", a_whole_game_across_the_wrap)
check("a long press across the wrap", a_long_press_is_long_across_the_wrap)

gc.collect()
print("heap held after a game, from .py sources: %d bytes" % (_free - gc.mem_free()))
sys.exit(done())
