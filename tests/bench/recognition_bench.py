"""How fast the board answers a put-down, and whether hands that slide,
bounce and lift the wrong piece ever make it play a move they did not mean.

    micropython -X heapsize=480K tests/bench/recognition_bench.py LIB [MOVES]
    python tests/bench/recognition_bench.py . [MOVES]

Run from the repository's root. LIB is a folder put first on sys.path: the
engine and the firmware compiled to .mpy (tests/mpyhelp.py compile_lib), as
the Pico runs them ("." for the sources). MOVES (5,000 if not given) is how
many moves the hands make in each ruleset for the false-commit count.

**Put-down to lights.** Whole games of each ruleset are played by hands that
lift a piece, carry it for 60 ms and put it down, scanned every 5 ms as the
Pico's loop does (firmware/board.py LOOP_MS), and, as the loop does, again at
once while the App has a job due (``App.busy``: the move to play, to say, to
draw). For each move: from the scan that first reads the piece down to the
pass that draws the new frame once the move is played. Its Pico figure is a
whole loop period for the put-down to be read (the worst case: it happened
just after a scan), a loop period or the step's Pico time (the longer) for
each scan period before, the Pico time of each quick pass with ``SCAN_MS``
for its scan, and the Pico time of the pass that draws; each step's time is
the fastest of ``RUNS`` replays of the same game, Pico ms = measured ms x 966
/ the calibration loop's ms (tests/bench/calibration.py) in this process.
Moves that are played at once (docs/dev/recognition.md) and those that wait
the settle time are given apart. Writing the strip (36 LEDs, about 1.1 ms)
comes on top of both.

**Commits the hand did not mean.** tests/mp/scenario_hands.py's hands slide a
plain move over the empty squares on the way (each long enough to pass the
debounce) and chatter on every switch change (1 to 8 ms of flicker, scanned
every millisecond); here they also lift the wrong piece first one move in
four (held 40 to 240 ms, put back) and bounce the piece on its end square one
move in four (up 20 to 60 ms, down again). Each move event is compared with
the move the hands meant; any other is a false commit. The last line is one
JSON object.
"""

import gc
import sys

sys.path.insert(0, ".")
sys.path.insert(0, "tests")
sys.path.insert(0, "tests/mp")
sys.path.insert(0, "tests/bench")
ARGS = getattr(sys, "argv", [])
if len(ARGS) > 1 and ARGS[1] != ".":
    sys.path.insert(0, ARGS[1])

import calibration as _calibration  # noqa: E402
from calibration import ticks_us, ticks_diff  # noqa: E402
from engine.sticks import XorShift  # noqa: E402
from firmware.app import App  # noqa: E402
from scenario_hands import Hands  # noqa: E402  (tests/mp/scenario_hands.py)

LOOP_MS = 5                      # firmware/board.py: one scan every 5 ms
SCAN_MS = 1.0                    # a scan on the Pico: "well under a millisecond" (docs/hardware.md)
RUNS = 3
OFF = 31


def bit(square):
    return 1 << (square - 1)


class Timed:
    """A clock, a button and the pieces, stepping one App every LOOP_MS and
    at once again while it is busy; from each put-down to the lights of its
    move event the passes are timed: ``windows`` holds four ints a move
    (scan periods, the us by which their steps overran a Pico loop period of
    ``loop_us`` plus the us of the quick passes, the quick passes, the
    drawing pass's us), a flat list, so a game's figures are a few small
    blocks."""

    def __init__(self, app, loop_us):
        self.app = app
        self.loop_us = loop_us
        self.t = 0
        self.occ = 0
        self.button = False
        self.windows = [0] * (4 * 600)  # made whole at once: room for 600 moves
        self.filled = 0
        self._open = -1                  # the window being filled (its index), or -1
        self._ply = 0                    # plies in the game at the put-down

    def step(self):
        self.t += LOOP_MS
        out = self._pass(True)
        while getattr(self.app, "busy", False):   # the loop's next pass, at once
            self.t += 1
            out = self._pass(False)
        return out

    def _pass(self, scheduled):
        start = ticks_us()
        out = self.app.step(self.t, self.occ, self.button)
        took = ticks_diff(ticks_us(), start)
        at = self._open
        if at >= 0:
            w = self.windows
            if scheduled:
                if w[at + 3] > self.loop_us:
                    w[at + 1] += w[at + 3] - self.loop_us    # the pass before overran
                w[at] += 1
            else:
                w[at + 1] += w[at + 3]   # the quick pass before: its own time
                w[at + 2] += 1
            w[at + 3] = took
            if self.app.frame_changed and self.app.game.ply_count > self._ply:
                self._open = -1          # the move played, and its lights drawn
        return out

    def wait(self, ms):
        end = self.t + ms
        while self.t < end:
            self.step()

    def press(self):
        self.button = True
        self.wait(120)
        self.button = False
        self.wait(60)

    def _put(self):
        if self.filled + 4 <= len(self.windows):
            self._open = self.filled
            self._ply = self.app.game.ply_count
            self.filled += 4

    def play(self, move):
        """Lift, carry, put down; a capture is a swap (C6); the end square
        straight away (the water and the House of Happiness too)."""
        if move.final == OFF and not move.capture:
            self._put()                  # borne off: the lift is the last change
        self.occ &= ~bit(move.origin)
        self.wait(60)
        if move.capture:
            self.occ &= ~bit(move.to)
            self.wait(60)
            if move.final != OFF:
                self.occ |= bit(move.final)
                self.wait(60)
            self._put()
            self.occ |= bit(move.origin)
        elif move.final != OFF:
            self._put()
            self.occ |= bit(move.final)
        self.wait(self.app.config["settle_ms"] + 60)
        self._open = -1


def latency_game(ruleset, seed, loop_us):
    """One game's put-down windows (Timed.windows)."""
    from engine.position import Position
    hands = Timed(App(config={"ruleset": ruleset}, rng=XorShift(seed)), loop_us)
    app = hands.app
    rng = XorShift(seed)
    hands.occ = Position.parse(app.position).occupancy()
    hands.wait(400)
    for _ in range(3000):
        state = app.state
        if state == "game_over":
            break
        if state == "opening" or state == "throw":
            hands.press()
        elif state == "move":
            moves = app.moves
            hands.play(moves[rng.randrange(len(moves))])
        else:
            hands.wait(500)
    return hands.windows[:hands.filled]


def pico_ms(us, calibration):
    return us / 1000 * _calibration.PICO_MS / calibration


_calibrations = []


def calibrate():
    """Time the calibration loop once more; the fastest run so far (the one
    other processes on the host disturbed least), as firmware_bench.py does."""
    _calibrations.append(_calibration.calibrate(1))
    return min(_calibrations)


def windows_of(ruleset, seed):
    """One game's put-down windows, each figure the least of RUNS replays,
    the calibration loop timed between them."""
    loop_us = LOOP_MS * 1000 * calibrate() / _calibration.PICO_MS
    windows = None
    for _ in range(RUNS):
        run = latency_game(ruleset, seed, loop_us)
        if windows is None:
            windows = run
        else:
            for i in range(min(len(windows), len(run))):
                if run[i] < windows[i]:
                    windows[i] = run[i]
        run = None
        gc.collect()
        calibrate()
    return windows


def latencies(windows, calibration, fast, slow):
    """Pico ms from put-down to lights for each move of ``windows``, onto
    ``fast`` (played at once) or ``slow`` (after the settle time)."""
    settle_steps = 250 // LOOP_MS
    for k in range(0, len(windows), 4):
        steps = windows[k]
        # the put-down waits up to a loop period for its scan; each scan
        # period before the answer takes a loop period, or longer if its
        # step overran; each quick pass its own time and a scan
        ms = (LOOP_MS * steps + pico_ms(windows[k + 1] + windows[k + 3], calibration)
              + SCAN_MS * windows[k + 2])
        (fast if steps < settle_steps else slow).append(ms)


# -- hands that slide, chatter, lift the wrong piece and bounce ---------------

class Careless(Hands):
    """tests/mp/scenario_hands.py's sliding, chattering hands, scanned every
    LOOP_MS, that also lift the wrong piece first and bounce the piece on its
    end square; every move event is checked against the move meant."""

    def __init__(self, seed, **kwargs):
        Hands.__init__(self, chatter=XorShift(seed + 11), slide=True, **kwargs)
        self.tick_ms = LOOP_MS
        self.rnd = XorShift(seed + 23)
        self.meant = None                # the move text the hands are making
        self.moves = 0
        self.false = 0
        self.mistakes = 0

    def step(self):
        out = Hands.step(self)
        for e in out:
            if e["event"] == "move":
                if e["move"] != self.meant:
                    self.false += 1
                self.meant = None        # one move per intention
            elif e["event"] == "mismatch":
                self.mistakes += 1
        self.events = []                 # a long run: forget what was said
        return out

    def wrong_piece(self, move):
        """Lift a piece other than the mover, hold it, put it back."""
        for _ in range(10):
            s = 1 + self.rnd.randrange(30)
            if s != move.origin and self.occ & bit(s):
                self.lift(s, ms=40 + self.rnd.randrange(200))
                self.place(s)
                return

    def play(self, move, via=True):
        if self.rnd.randrange(4) == 0:
            self.wrong_piece(move)
        self.meant = move.text
        self.moves += 1
        bounce = move.final != OFF and not move.capture and self.rnd.randrange(4) == 0
        if bounce:
            return self._carry_and_bounce(move, via)
        return Hands.play(self, move, via)

    def _carry_and_bounce(self, move, via):
        """The move, then the piece bounces once on its end square."""
        if self.slide and move.to != OFF:
            self.lift(move.origin)
            self.slide_over(move.origin, move.to)
            if via and move.to != move.final:
                self.place(move.to).lift(move.to)
        else:
            self.lift(move.origin)
        self.place(move.final, ms=20)
        self.lift(move.final, ms=20 + self.rnd.randrange(40))
        self.place(move.final)
        return self.wait()


def false_commits(ruleset, moves, seed):
    """(moves made, false commits, mismatches) over games of ``ruleset``
    until ``moves`` moves were made."""
    made = 0
    false = 0
    mistakes = 0
    games = 0
    while made < moves:
        games += 1
        hands = Careless(seed + games, config={"ruleset": ruleset},
                         rng=XorShift(seed * 7 + games))
        hands.setup()
        hands.play_to_the_end(XorShift(seed + 1000 + games))
        made += hands.moves
        false += hands.false
        mistakes += hands.mistakes
        hands = None
        gc.collect()
    return made, false, mistakes, games


def main():
    moves = int(ARGS[2]) if len(ARGS) > 2 else 5000
    report = {"implementation": sys.implementation.name}
    calibrate()
    games = [windows_of("kendall", 3), windows_of("hungarian", 4)]
    calibration = calibrate()
    fast = []
    slow = []
    for windows in games:
        latencies(windows, calibration, fast, slow)
    games = None
    report["calibration_ms"] = round(calibration, 2)
    for name, values in (("at_once", fast), ("waited", slow)):
        values.sort()
        report[name + "_moves"] = len(values)
        if values:
            report["pico_%s_median_ms" % name] = round(values[len(values) // 2], 1)
            report["pico_%s_max_ms" % name] = round(values[-1], 1)
    print("put-down to lights, Pico-equivalent (calibration %.2f ms, fastest of %d): %d moves at once,"
          " median %s ms, max %s ms; %d moves waited the settle time, median %s ms" % (
              calibration, len(_calibrations), len(fast), report.get("pico_at_once_median_ms"),
              report.get("pico_at_once_max_ms"), len(slow),
              report.get("pico_waited_median_ms")))
    for ruleset, seed in (("kendall", 5), ("hungarian", 6)):
        made, false, mistakes, games = false_commits(ruleset, moves, seed)
        report[ruleset + "_moves"] = made
        report[ruleset + "_false_commits"] = false
        report[ruleset + "_mismatches"] = mistakes
        print("%-9s %d moves in %d games by sliding, chattering, bouncing hands that lift"
              " the wrong piece: %d commits the hand did not mean, %d mismatches shown" % (
                  ruleset, made, games, false, mistakes))
    import json
    print(json.dumps(report))
    return report


if __name__ == "__main__":
    main()
