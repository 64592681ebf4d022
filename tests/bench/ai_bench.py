"""Decision time of the computer player per level, in Pico-equivalent ms.

Runs unchanged on CPython and on the MicroPython unix port:

    python tests/bench/ai_bench.py [--quick]
    micropython -X heapsize=192k tests/bench/ai_bench.py [--quick]

Calibration (calibration.py): the same process times ``for i in range(100000): s ^= i``
at module level,
which takes 966 ms on a Pico running MicroPython; a measured time t becomes
``t * 966 / calibration`` Pico-equivalent ms. Run it from the repository's
root; on a Pico, ``mpremote mount . run tests/bench/ai_bench.py``.  The MicroPython unix port is
the closer model of the Pico (same interpreter, same allocation costs); the
CPython figures are given for comparison.

The last line of output is one JSON object with ``pico_ms_level_N_max`` (the
slowest position of the set, N = 1..4) plus the raw figures.

Not a pytest test (no ``test_`` prefix); tests/engine_tests/test_ai.py runs it with
``--quick`` under MicroPython.
"""

import gc
import json
import sys
import time

# From the repository's root by fixed relative paths: on a Pico through a raw
# REPL (`mpremote run`) there is no __file__ to find them from. When loaded by
# path (tests/engine_tests/test_ai.py) the root is also found from __file__.
for _p in ("tests/bench", "."):
    if _p not in sys.path:
        sys.path.insert(0, _p)
try:
    if __file__.endswith("tests/bench/ai_bench.py"):
        sys.path.append(__file__[:-len("tests/bench/ai_bench.py")] or ".")
        sys.path.append(__file__[:-len("ai_bench.py")])
except NameError:
    pass
import calibration as _calibration  # noqa: E402
from engine import ruleset, Position          # noqa: E402
from engine.ai import choose_move, analyse    # noqa: E402
from engine.sticks import XorShift             # noqa: E402

PICO_CALIBRATION_MS = _calibration.PICO_MS

# The position set.  The midgame positions are the ones where a level-3 search
# visits the most nodes among all the positions of five random games
# (engine.game.play_game seeds 1..5, default chooser) of each ruleset: five
# or so pieces a side still spread over the first two rows, every piece with
# a move, and a throw that earns another throw, so the tree is as wide as
# Senet trees get.  Then one early position per ruleset and the two endgame
# positions (five pieces or fewer on the board) with the largest searches.
POSITIONS = (
    # (ruleset, position text, throw, why)
    ("kendall", "BWBWBWBWB.W................... W", 2, "early"),
    ("kendall", "BWB.W....W..B..B...W...W...... W", 1, "busy"),
    ("kendall", "BWB...W...W.B....B.W...W...... W", 1, "busy"),
    ("kendall", "B.B.W..W.BW.W.....B....BW..... B", 1, "busy"),
    ("kendall", "BW.B.B...W...W...W.W..B.....B. W", 1, "busy"),
    ("kendall", "WBB...B..W.....W..B.W.B....... B", 5, "busy"),
    ("kendall", "BBW.WB...W..W......B..W.....B. W", 1, "busy"),
    ("kendall", "............W.BB...WB......... B", 4, "endgame"),
    ("kendall", "...............W.....W.....B.W W", 1, "endgame"),
    ("hungarian", "WBWBWBWBW.B................... B", 2, "early"),
    ("hungarian", "W.W........W....B..W.W........ W", 1, "busy"),
    ("hungarian", "WW.B....BWB...B.BW...W........ W", 6, "busy"),
    ("hungarian", "W.W...BWB....B...BW.W.......B. W", 6, "busy"),
    ("hungarian", ".BBW..W..B...BW.B..W...W...... W", 1, "busy"),
    ("hungarian", "W...BW...B.BW.WW.B.B.......... W", 6, "busy"),
    ("hungarian", "WWB..WB..B....B.BW...W........ B", 1, "busy"),
    ("hungarian", ".W............WW....W.B....... W", 4, "endgame"),
    ("hungarian", ".W...B........W.....W....W.... W", 1, "endgame"),
)

QUICK = (1, 4, 11, 16)       # indexes of the positions --quick times

if hasattr(time, "ticks_us"):
    def now_us():
        return time.ticks_us()

    def since_us(start):
        return time.ticks_diff(time.ticks_us(), start)
else:
    def now_us():
        return int(time.perf_counter() * 1000000)

    def since_us(start):
        return now_us() - start


def calibrate(repeats=3):
    """ms for the calibration loop, the best of ``repeats`` (calibration.py:
    run at module level, as the Pico's 1,008 ms figure was)."""
    gc.collect()
    return _calibration.calibrate(repeats)


def time_decision(rs, position, throw, level, repeats):
    best = None
    for _ in range(repeats):
        gc.collect()
        start = now_us()
        choose_move(rs, position, throw, level, rng=XorShift(7))
        ms = since_us(start) / 1000
        if best is None or ms < best:
            best = ms
    return best


def main(argv):
    quick = "--quick" in argv
    repeats = 1 if quick else 3
    implementation = sys.implementation.name
    rulesets = {}
    indexes = QUICK if quick else range(len(POSITIONS))
    # warm up: the engine imports its move generator on first use, and the
    # evaluation builds its tables once per ruleset
    for name in ("kendall", "hungarian"):
        rs = rulesets[name] = ruleset(name)
        choose_move(rs, rs.start(), 2, 4)
    # On a shared machine other processes steal time at random moments, so
    # every figure is the fastest of several runs: the calibration is taken
    # again before every position and the fastest one counts.
    calibration = calibrate()
    rows = []
    raw_max = {1: 0.0, 2: 0.0, 3: 0.0, 4: 0.0}
    nodes_max = 0
    for k in indexes:
        name, text, throw, kind = POSITIONS[k]
        rs = rulesets[name]
        position = Position.parse(text)
        calibration = min(calibration, calibrate(2))
        cols = []
        for level in (1, 2, 3, 4):
            ms = time_decision(rs, position, throw, level, repeats)
            if ms > raw_max[level]:
                raw_max[level] = ms
            cols.append(ms)
        nodes = analyse(rs, position, throw, 4)[3]
        if nodes > nodes_max:
            nodes_max = nodes
        rows.append((k, name, text, throw, kind, cols, nodes))
    calibration = min(calibration, calibrate(5))
    print("ai_bench on %s, calibration %.2f ms (Pico: %d ms); Pico-equivalent ms:" % (
        implementation, calibration, PICO_CALIBRATION_MS))
    print("%-3s %-10s %-34s %2s %-8s %9s %9s %9s %9s %6s" % (
        "#", "ruleset", "position", "t", "kind", "level 1", "level 2", "level 3", "level 4",
        "L4 nodes"))
    scale = PICO_CALIBRATION_MS / calibration
    for k, name, text, throw, kind, cols, nodes in rows:
        print("%-3d %-10s %-34s %2d %-8s %9.1f %9.1f %9.1f %9.1f %6d" % (
            k, name, text, throw, kind, cols[0] * scale, cols[1] * scale, cols[2] * scale,
            cols[3] * scale, nodes))
    result = {"implementation": implementation, "calibration_ms": round(calibration, 3),
              "positions": len(indexes), "level4_nodes_max": nodes_max}
    for level in (1, 2, 3, 4):
        result["raw_ms_level_%d_max" % level] = round(raw_max[level], 3)
        result["pico_ms_level_%d_max" % level] = round(
            raw_max[level] * PICO_CALIBRATION_MS / calibration, 1)
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    main(sys.argv[1:])
