"""What a player waits for after a move or a throw, and the idle loop's work,
on the MicroPython unix port (or CPython), with Pico-equivalent figures.

    micropython -X heapsize=1M tests/bench/commit_bench.py SRC STORE

SRC is the folder with engine/ and firmware/ to measure (this one, or an
older commit's checked out elsewhere); STORE an empty folder for the saves
(a host folder: its writes cost what they cost here, not what the Pico's
flash costs; tests/bench/flash_bench.py counts those).

- ``commit``: the step in which a throw or a move is committed (its event
  comes out of it): the time before the lights and the event answer.
- ``after``: the step after it (where the firmware now saves).
  Medians over a whole kendall game played by scripted hands, and over its
  first and last ten commits, and the maximum.
- ``idle_step``: a step with nothing to do; ``strip_write``: firmware/hal.py's
  ``Strip.write`` of a frame equal to the one sent (what every idle pass cost
  before the loop skipped it), on the fake neopixel.

Pico-equivalent ms = measured x 966 / the time of ``for i in range(100000):
s ^= i`` at module level in this process (966 ms on a 125 MHz RP2040 under
MicroPython 1.28). The last line is one JSON object.
"""

import gc
import json
import sys

SRC = sys.argv[1]
STORE = sys.argv[2]
HERE = __file__.rsplit("/", 1)[0] if "/" in __file__ else "."
sys.path.insert(0, HERE)
sys.path.insert(0, HERE + "/../fakes")
sys.path.insert(0, HERE + "/..")
sys.path.insert(0, SRC)

from calibration import PICO_MS, calibrate, ticks_diff, ticks_us  # noqa: E402
from board_sim import BoardSim  # noqa: E402
from engine.sticks import XorShift  # noqa: E402

COMMITS = ("throw", "move", "pass", "start")


def median(values):
    values = sorted(values)
    return values[len(values) // 2]


class Timed(BoardSim):
    """BoardSim timing every step, noting the commits and the step after."""

    def __init__(self, **kw):
        BoardSim.__init__(self, **kw)
        self.commit_us = []
        self.after_us = []
        self._was_commit = False

    def step(self):
        self.t += self.tick_ms
        start = ticks_us()
        out = self.app.step(self.t, self.occ, self.button)
        took = ticks_diff(ticks_us(), start)
        if self._was_commit:
            self.after_us.append(took)
        self._was_commit = False
        for e in out:
            if e["event"] in COMMITS and e.get("side", 1) is not None:
                self.commit_us.append(took)
                self._was_commit = True
                break
        return out


def idle_figures():
    board = BoardSim(config={"ruleset": "kendall"}, rng=XorShift(1))
    board.setup()
    while board.app.state != "move":
        board.press()
    board.wait(300)
    app = board.app
    t = board.t
    best_step = None
    for _ in range(5):
        start = ticks_us()
        for i in range(200):
            t += 1                        # within a blink frame: nothing to draw
            app.step(t - (t % 40) + 1, board.occ, False)
        took = ticks_diff(ticks_us(), start) / 200
        best_step = took if best_step is None or took < best_step else best_step
    from firmware import hal
    strip = hal.Strip(16, len(app.frame))
    frame = list(app.frame)
    strip.write(frame)
    best_write = None
    for _ in range(5):
        start = ticks_us()
        for i in range(200):
            strip.write(frame)
        took = ticks_diff(ticks_us(), start) / 200
        best_write = took if best_write is None or took < best_write else best_write
    return best_step, best_write


def main():
    calibration = calibrate()
    board = Timed(config={"ruleset": "kendall"}, store_dir=STORE, rng=XorShift(3))
    board.setup()
    board.play_to_the_end(XorShift(1003), 3000)
    commit, after = board.commit_us, board.after_us
    board = None
    gc.collect()
    idle_step, strip_write = idle_figures()
    calibration = min(calibration, calibrate())

    def pico(us):
        return round(us / 1000 * PICO_MS / calibration, 2)
    report = {"implementation": sys.implementation.name, "calibration_ms": round(calibration, 1),
              "commits": len(commit)}
    for name, values in (("commit", commit), ("after", after)):
        for part, sample in (("", values), ("_first10", values[:10]), ("_last10", values[-10:])):
            report[name + part + "_us"] = median(sample)
            report["pico_" + name + part + "_ms"] = pico(median(sample))
        report[name + "_max_us"] = max(values)
        report["pico_" + name + "_max_ms"] = pico(max(values))
    report["idle_step_us"] = round(idle_step, 1)
    report["pico_idle_step_ms"] = pico(idle_step)
    report["strip_write_us"] = round(strip_write, 1)
    report["pico_strip_write_ms"] = pico(strip_write)
    print("calibration %.1f ms; %d commits" % (calibration, len(commit)))
    for name in ("commit", "after"):
        print("%-6s step: median %d us (Pico %.2f ms), first 10 %.2f, last 10 %.2f, max %.2f ms"
              % (name, report[name + "_us"], report["pico_" + name + "_ms"],
                 report["pico_" + name + "_first10_ms"], report["pico_" + name + "_last10_ms"],
                 report["pico_" + name + "_max_ms"]))
    print("idle step %.1f us (Pico %.2f ms); strip write of an unchanged frame %.1f us "
          "(Pico %.2f ms)" % (idle_step, report["pico_idle_step_ms"], strip_write,
                              report["pico_strip_write_ms"]))
    print(json.dumps(report))


main()
