"""How long the board stands still while the computer decides, inside the App.

The computer chooses its move in one App step (firmware/computer.py); this
times that step, on the position set of tests/bench/ai_bench.py, for every
level: the App resumes each position with the computer to throw, throws for
it, and the step that emits the ``computer`` event is timed (the fastest of
``--repeats`` boards). Runs unchanged on CPython and the MicroPython unix port:

    python tests/bench/computer_bench.py [--quick] [STORE_DIR]
    micropython -X heapsize=180k tests/bench/computer_bench.py [--quick] [STORE_DIR]

Pico-equivalent ms = measured ms x 966 / calibration ms (tests/bench/calibration.py).
Run it from the repository's root; on a Pico, ``mpremote mount . run
tests/bench/computer_bench.py``.
The last line is one JSON object with ``pico_ms_level_N_max`` for each level N.
"""

import gc
import json
import sys

for _p in (".", "tests", "tests/bench"):
    if _p not in sys.path:
        sys.path.append(_p)

import engine.ai  # noqa: E402,F401  (compiled first, while the heap is empty)
from ai_bench import POSITIONS, QUICK  # noqa: E402
gc.collect()  # noqa: E402  room for compiling the App in a small heap
from board_sim import board_at, bits_for  # noqa: E402
from calibration import PICO_MS, calibrate, pico_ms, ticks_us, ticks_diff  # noqa: E402


def decision_ms(ruleset, position, throw, level, store):
    """Ms of the App step in which the computer chose, for one fresh board."""
    side = position[-1]
    queue = [bits_for(throw)]

    def rng(n):
        return queue.pop() if queue else 0

    board = board_at(position, store, ruleset=ruleset, rng=rng,
                     config={"mode": "computer", "computer": {"side": side, "level": level}})
    gc.collect()
    end = board.t + 5000
    while board.t < end:
        board.t += board.tick_ms
        start = ticks_us()
        out = board.app.step(board.t, board.occ, board.button)
        took = ticks_diff(ticks_us(), start) / 1000
        for e in out:
            if e["event"] == "computer":
                return took
    raise RuntimeError("no decision for %s %d at level %d" % (position, throw, level))


def main(argv):
    quick = "--quick" in argv
    rest = [a for a in argv if not a.startswith("--")]
    store = rest[0] if rest else "/tmp"
    repeats = 1 if quick else 3
    cal = calibrate()
    impl = sys.implementation.name
    print("computer_bench on %s, calibration %.2f ms (Pico: %d ms)" % (impl, cal, PICO_MS))
    print("#   ruleset    position                            t   L1 pico   L2 pico   L3 pico   L4 pico")
    worst = {1: 0, 2: 0, 3: 0, 4: 0}
    for i in range(len(POSITIONS)):
        if quick and i not in QUICK:
            continue
        ruleset, position, throw, why = POSITIONS[i]
        row = []
        for level in (1, 2, 3, 4):
            best = None
            for _ in range(repeats):
                ms = decision_ms(ruleset, position, throw, level, store)
                if best is None or ms < best:
                    best = ms
            if best > worst[level]:
                worst[level] = best
            row.append(pico_ms(best, cal))
        print("%-3d %-10s %s %d %9.1f %9.1f %9.1f %9.1f" % (
            i, ruleset, position, throw, row[0], row[1], row[2], row[3]))
    result = {"implementation": impl, "calibration_ms": round(cal, 3)}
    for level in (1, 2, 3, 4):
        result["raw_ms_level_%d_max" % level] = round(worst[level], 3)
        result["pico_ms_level_%d_max" % level] = round(pico_ms(worst[level], cal), 1)
    print(json.dumps(result))


if __name__ == "__main__":
    main(sys.argv[1:])
