"""Move generation speed, CPython or MicroPython, with a Pico-equivalent figure.

    python tests/bench/engine_bench.py
    micropython -X heapsize=192k tests/bench/engine_bench.py

A 100,000-iteration ``s += i`` loop takes 1,008 ms on a 125 MHz RP2040 under
MicroPython 1.28; the same loop is timed here, so
Pico-equivalent ms = measured ms x 1008 / calibration ms.
The last line is one JSON object.
"""

import sys

sys.path.insert(0, ".")

try:
    from time import ticks_ms, ticks_diff
except ImportError:
    from time import time

    def ticks_ms():
        return int(time() * 1000)

    def ticks_diff(a, b):
        return a - b

from engine import ruleset
from engine.game import play_game

PICO_CALIBRATION_MS = 1008


def calibrate():
    start = ticks_ms()
    s = 0
    for i in range(100000):
        s += i
    return max(1, ticks_diff(ticks_ms(), start))


def positions(rs, games, every=3):
    """Every third position of a few random games (a Pico-sized sample)."""
    found = []
    for seed in range(games):
        game = play_game(rs, seed)
        n = 0
        for _, _, _, position in game.plies():
            if n % every == 0:
                found.append(position)
            n += 1
        game = None
    return found


def main():
    calibration = calibrate()
    report = {"calibration_ms": calibration}
    for name in ("kendall", "hungarian"):
        rs = ruleset(name)
        sample = positions(rs, 3)
        start = ticks_ms()
        calls = 0
        for position in sample:
            for throw in rs.throw_values:
                rs.legal_moves(position, throw)
                calls += 1
        elapsed = ticks_diff(ticks_ms(), start)
        per_call = elapsed / calls
        pico = per_call * PICO_CALIBRATION_MS / calibration
        print("%-9s %5d legal_moves calls in %5d ms: %.3f ms a call, Pico-equivalent %.2f ms"
              % (name, calls, elapsed, per_call, pico))
        report["%s_ms_per_call" % name] = round(per_call, 4)
        report["%s_pico_ms_per_call" % name] = round(pico, 3)
        sample = None
    print("calibration loop: %d ms" % calibration)
    import json
    print(json.dumps(report))


main()
