"""How long the App's step takes, CPython or MicroPython, with Pico-equivalent
figures, and on MicroPython how much heap a whole game needs.

    python tests/bench/firmware_bench.py
    micropython -X heapsize=192K tests/bench/firmware_bench.py [LIB [STORE]]
    mpremote mount . run tests/bench/firmware_bench.py      # on a Pico
    >>> exec(open("tests/bench/firmware_bench.py").read())  # CircuitPython's REPL

Run from the repository's root (``firmware``, ``engine`` and ``tests/bench``
are found by fixed relative paths: on a Pico through a raw REPL there is no
``__file__``), or on a CircuitPython board from the drive's root, with
``tests/bench/`` copied onto it and the engine and firmware in its ``lib/``
(docs/circuitpython.md). On the unix port give it the Pico's heap, 192K: a garbage
collection sweeps the whole heap, so the recognising step's figure grows with
the heap (with the default 2 MB heap it comes out several times the Pico's).
The output says which heap it ran in.

LIB, if given, is a folder put first on sys.path: the engine and firmware
compiled to .mpy with mpy-cross, as the Pico runs them ("." for none).
STORE, if given, is an empty folder: a kendall game is then played once more
with the game saved after every throw and move, as on the Pico, and the
recognising step timed with its save (CPython uses a temporary folder;
CircuitPython has none, and its drive is the laptop's while the benchmark
runs, so there it is timed without saving).

A 100,000-iteration ``s ^= i`` loop takes 966 ms on a 125 MHz RP2040 under
MicroPython 1.28 (calibration.py); the same loop is timed here, in this
process, so Pico-equivalent ms = measured ms x 966 / calibration ms.

- ``idle_step_us``: a step where nothing changes (the board at rest, no timer
  due, no blink frame to draw): what the Pico's loop costs between events.
- ``redraw_step_us``: a step that only draws the next frame of a blink.
- ``settle_step_us``: the step at which the board has rested for the settle
  time, the move is recognised, played in the engine and the new frame is
  rendered (no saving: the bench has no store); the median over every move of
  a kendall and a hungarian game. The mean and the maximum are given too: on a
  busy host the maximum is mostly the scheduler, not the App.

Step timings are medians and the calibration is the fastest of five runs
spread over the bench, so that other processes on a busy host disturb the
figures as little as possible; on a quiet host the runs agree.
- ``settle_save_step_us``, ``pico_settle_save_step_ms`` (with STORE): the
  same step when it also saves the game, median and maximum over the game.
  The host's file writes are scaled as if they were Python work, so this
  Pico figure says little about the Pico's flash; it shows the save's cost
  growing with the game.
- ``clock``, ``clock_step_us``: what the times were taken with
  (calibration.py's CLOCK) and its smallest step. On a clock as coarse as
  ``supervisor.ticks_ms`` (1000 us) a single step's figure is mostly 0 or
  one step; the calibration and the means are still good.
- ``peak_heap_bytes`` (MicroPython and CircuitPython): the high-water mark of
  ``gc.mem_alloc()`` during a whole hungarian game (not saved), everything
  imported included. The heap is collected before every step and read after it, so the
  figure is what was live before the step plus all that the step allocated
  (an upper bound: garbage made in the step counts too). The unix port is
  64-bit, so its objects are larger than the Pico's.

The game is played by scripted hands through the App contract only (lift the
origin, put the piece on its final square; a capture is a swap), with seeded
stick throws, so every run plays the same game. The last line is one JSON
object.
"""

import gc
import sys

sys.path.insert(0, ".")
sys.path.insert(0, "tests/bench")
import calibration as _calibration  # noqa: E402
ARGS = getattr(sys, "argv", [])
if len(ARGS) > 1 and ARGS[1] != ".":
    sys.path.insert(0, ARGS[1])
STORE = ARGS[2] if len(ARGS) > 2 else None
if STORE is None and sys.implementation.name == "cpython":
    import tempfile
    STORE = tempfile.mkdtemp()

from calibration import CLOCK, ticks_us, ticks_diff  # noqa: E402

from engine.sticks import XorShift
from firmware.app import App

PICO_CALIBRATION_MS = _calibration.PICO_MS
OFF = 31                                 # engine.position.OFF
TICK_MS = 10
MICROPYTHON = sys.implementation.name == "micropython"
HEAP = hasattr(gc, "mem_alloc")          # MicroPython and CircuitPython


_calibrations = []


def calibrate():
    """Time the calibration loop once more (calibration.py: at module level,
    as the Pico's 1,008 ms figure was); return the fastest run so far. It runs
    between the parts of the bench; the fastest run is the one that other
    processes on the host disturbed least."""
    _calibrations.append(_calibration.calibrate(1))
    return min(_calibrations)


def median(values):
    values = sorted(values)
    return values[len(values) // 2]


def bit(square):
    return 1 << (square - 1)


class Hands:
    """A clock, a button and the pieces, stepping one App and timing it."""

    def __init__(self, app, track_heap=False):
        self.app = app
        self.t = 0
        self.occ = 0
        self.button = False
        self.settle_us = []
        self.track_heap = track_heap
        self.peak_heap = 0
        self.steps = 0

    def step(self):
        self.t += TICK_MS
        app = self.app
        if self.track_heap:
            gc.collect()
        start = ticks_us()
        out = app.step(self.t, self.occ, self.button)
        took = ticks_diff(ticks_us(), start)
        if self.track_heap:
            used = gc.mem_alloc()
            if used > self.peak_heap:
                self.peak_heap = used
        self.steps += 1
        for e in out:
            if e["event"] == "move":
                self.settle_us.append(took)
        return out

    def wait(self, ms):
        end = self.t + ms
        while self.t < end:
            self.step()

    def rest(self):
        self.wait(self.app.config["settle_ms"] + 60)

    def lift(self, square):
        self.occ &= ~bit(square)
        self.wait(60)

    def place(self, square):
        self.occ |= bit(square)
        self.wait(60)

    def press(self):
        self.button = True
        self.wait(120)
        self.button = False
        self.wait(60)

    def play(self, move):
        """Make an engine move by hand: a capture swaps the two pieces (C6);
        water and happiness go straight to the final square."""
        o = move.origin
        to = move.to
        final = move.final
        self.lift(o)
        if move.capture:
            self.lift(to)
            if final != OFF:
                self.place(final)
            self.place(o)
        elif final != OFF:
            self.place(final)
        self.rest()


def play_game(hands, seed, max_actions=3000):
    """Set the pieces up and play to the end; return the moves played."""
    from engine.position import Position
    app = hands.app
    rng = XorShift(seed)
    hands.occ = Position.parse(app.position).occupancy()
    hands.rest()
    played = 0
    for _ in range(max_actions):
        state = app.state
        if state == "game_over":
            return played
        if state == "opening" or state == "throw":
            hands.press()
        elif state == "move":
            moves = app.moves
            hands.play(moves[rng.randrange(len(moves))])
            played += 1
        else:
            hands.wait(500)
    raise RuntimeError("the game did not end (state %s)" % app.state)


def idle_figures(app, now, occ, rounds=200):
    """(idle us, redraw us), medians over ``rounds`` frame periods: steps
    within one frame period change nothing; the first step of each period
    draws the blink's next frame."""
    period = 40                                # firmware.app.FRAME_MS
    per_round = len(range(1, period, 3))
    idle = []
    redraw = []
    for r in range(rounds):
        t = now + r * period
        start = ticks_us()
        app.step(t, occ, False)
        redraw.append(ticks_diff(ticks_us(), start))
        start = ticks_us()
        for dt in range(1, period, 3):
            app.step(t + dt, occ, False)
        idle.append(ticks_diff(ticks_us(), start) / per_round)
    return median(idle), median(redraw)


def pico_ms(us, calibration):
    return us / 1000 * PICO_CALIBRATION_MS / calibration


def main():
    calibrate()
    report = {"implementation": sys.implementation.name, "clock": CLOCK,
              "clock_step_us": _calibration.clock_step_us()}

    # a whole game of each ruleset, timing the step that recognises each move
    settle = []
    for name, seed in (("kendall", 3), ("hungarian", 4)):
        hands = Hands(App(config={"ruleset": name}, rng=XorShift(seed)))
        played = play_game(hands, seed)
        settle.extend(hands.settle_us)
        print("%-9s game: %d moves in %d steps" % (name, played, hands.steps))
        hands = None
        gc.collect()
        calibrate()
    settle.sort()
    settle_median = median(settle)
    settle_mean = sum(settle) / len(settle)
    settle_max = settle[-1]

    # idle: a throw is pending and the board is at rest (the side light
    # breathes, so every 40 ms a frame is drawn)
    hands = Hands(App(config={"ruleset": "kendall"}, rng=XorShift(1)))
    hands.occ = 0x3FF
    hands.rest()
    while hands.app.state != "move":
        hands.press()
    hands.rest()
    idle, redraw = idle_figures(hands.app, hands.t + 1000, hands.occ)
    hands = None
    gc.collect()
    calibrate()
    calibration = calibrate()
    report["calibration_ms"] = round(calibration, 2)

    if STORE is not None:
        hands = Hands(App(config={"ruleset": "kendall"}, store_dir=STORE, rng=XorShift(3)))
        play_game(hands, 3)
        saving = hands.settle_us
        hands = None
        gc.collect()
        report["settle_save_step_us"] = median(saving)
        report["settle_save_step_max_us"] = max(saving)
        report["pico_settle_save_step_ms"] = round(pico_ms(median(saving), calibration), 2)
        report["pico_settle_save_step_max_ms"] = round(pico_ms(max(saving), calibration), 2)

    report["idle_step_us"] = round(idle, 1)
    report["redraw_step_us"] = round(redraw, 1)
    report["settle_step_us"] = settle_median
    report["settle_step_mean_us"] = round(settle_mean, 1)
    report["settle_step_max_us"] = settle_max
    report["settle_steps"] = len(settle)
    report["pico_idle_step_ms"] = round(pico_ms(idle, calibration), 4)
    report["pico_redraw_step_ms"] = round(pico_ms(redraw, calibration), 3)
    report["pico_settle_step_ms"] = round(pico_ms(settle_median, calibration), 3)
    report["pico_settle_step_max_ms"] = round(pico_ms(settle_max, calibration), 3)

    if HEAP:
        # the heap's high-water mark over a whole hungarian game
        gc.collect()
        report["heap_at_start_bytes"] = gc.mem_alloc()
        hands = Hands(App(config={"ruleset": "hungarian"}, rng=XorShift(4)), track_heap=True)
        play_game(hands, 4)
        report["peak_heap_bytes"] = hands.peak_heap
        hands = None
        gc.collect()

    if HEAP:
        heap = gc.mem_free() + gc.mem_alloc()
        report["heap_bytes"] = heap
        if not MICROPYTHON:                   # a board's own heap
            hint = ""
        elif heap <= 200 * 1024:
            hint = " (-X heapsize=192K: about the Pico's)"
        else:
            hint = (": larger than the Pico's, so every collection takes longer; "
                    "run with -X heapsize=192K")
        print("heap: %d bytes%s" % (heap, hint))
    print("calibration loop: %.2f ms (fastest of %d runs: %s; %d ms on a Pico)" % (
        calibration, len(_calibrations), " ".join("%.1f" % c for c in _calibrations),
        PICO_CALIBRATION_MS))
    print("idle step %.1f us (Pico %.3f ms), blink redraw %.1f us (Pico %.2f ms)" % (
        idle, report["pico_idle_step_ms"], redraw, report["pico_redraw_step_ms"]))
    print("settle step %d us median, %.1f us mean, %d us max over %d moves"
          " (Pico %.2f ms median, %.2f ms max)" % (
              settle_median, settle_mean, settle_max, len(settle),
              report["pico_settle_step_ms"], report["pico_settle_step_max_ms"]))
    if "peak_heap_bytes" in report:
        print("heap: %d bytes live before the game, %d bytes at the peak of a whole game" % (
            report["heap_at_start_bytes"], report["peak_heap_bytes"]))
    if "settle_save_step_us" in report:
        print("settle step with the save: %d us median, %d us max (Pico %.1f ms median, "
              "%.1f ms max)" % (report["settle_save_step_us"], report["settle_save_step_max_us"],
                                report["pico_settle_save_step_ms"],
                                report["pico_settle_save_step_max_ms"]))
    import json
    print(json.dumps(report))


main()
