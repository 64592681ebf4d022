"""Soak test: a museum board left to the public for a day of simulated time.

    python tests/bench/soak.py [HOURS] [SEED] [STORE_DIR]
    cd LIB && micropython -X heapsize=96k -c "import sys; sys.path[:0] = ['.']; import soak; soak.main(3)"

(LIB: the engine, the firmware and this file compiled to .mpy, as
tests/firmware_tests/test_soak.py makes it.)

Visitors come and go at random. A visitor mostly plays legal moves (read off
``app.moves`` and the App's roles, the way a person reads the lights), and
sometimes errs: a piece on a wrong square, a piece knocked onto its
neighbour, a press at the wrong moment, two presses in a row (which give
nothing away), waiting alone for the other side's throw (the board then offers
to play that side and takes it, if its heap has room for the computer), a press
on the computer's turn (the side is handed back), a long press (takeback), a
skipped how-to, and
walking away mid-move with a piece in the hand or on a wrong square. The
App is stepped every STEP_MS while a visitor is at the board and every
IDLE_MS while nobody is, and again 1 ms later while it has a job due
(``busy``), as the board loop does.

Checked: no exception; every game either finished or was reset for the next
visitor (none lost); no heap growth between the first and the last hour
(``gc.mem_alloc()`` after a collect on MicroPython, allocated blocks on
CPython, sampled each time a new game starts, when the App holds the same
kind of state). The last line is one JSON object with the figures.
"""

import gc
import sys

for _p in ("", ".", "tests"):
    if _p not in sys.path:
        sys.path.append(_p)

from engine.sticks import XorShift  # noqa: E402
from hand import carry  # noqa: E402  (the one hand, tests/hand.py)
from firmware.app import App  # noqa: E402
import firmware.museum  # noqa: E402,F401

if not hasattr(gc, "mem_alloc"):
    # CPython: what the computer loads when a visitor is alone is imported
    # first, so that it is not counted as growth. On MicroPython it is loaded
    # (and may meet a full heap) as on the Pico.
    import engine.ai  # noqa: E402,F401
    import firmware.computer  # noqa: E402,F401

try:
    import json
except ImportError:       # pragma: no cover
    json = None

STEP_MS = 40              # a visitor at the board: a scan every 40 ms
IDLE_MS = 1000            # nobody there: larger jumps
HOUR_MS = 3600000


def heap():
    gc.collect()
    if hasattr(gc, "mem_alloc"):
        return gc.mem_alloc()
    return sys.getallocatedblocks()       # CPython: live blocks


def bit(s):
    return 1 << (s - 1)


class Soak:
    def __init__(self, hours, seed=1, store=None):
        self.rnd = XorShift(seed)
        self.app = App({"mode": "museum"}, store_dir=store, rng=XorShift(seed + 7))
        self.t = 0
        self.end = hours * HOUR_MS
        self.occ = 0
        self.button = False
        self.tray = 10           # pieces beside the board (a new board: all of them)
        self.hand = 0            # pieces a visitor holds
        self.games = 0           # games begun (every "new" and the first ready)
        self.finished = 0
        self.resets = 0
        self.visitors = 0
        self.moves = 0
        self.mistakes = 0
        self.computer = 0
        self.no_computer = 0
        self.hand_back = 0
        self.first_computer = False  # the computer joined for the first time since the last sample
        self.steps = 0
        self.in_game = False     # a begun game is neither finished nor reset yet
        # Each hour's lowest and highest heap at a new game (0: none yet),
        # made now for every hour, so that a sample taken later allocates
        # nothing: the harness must not grow the heap it measures.
        self.low = [0] * (hours + 2)
        self.high = [0] * (hours + 2)
        self.max_events = 0
        self.modules = len(sys.modules)
        self.from_hour = 0

    # -- time ---------------------------------------------------------------

    def step(self, ms=STEP_MS):
        self.t += ms
        self._pass()
        for _ in range(8):               # the board loop runs the App's next job
            if not self.app.busy:        # (lights, a move, a save) at once
                break
            self.t += 1
            self._pass()

    def _pass(self):
        self.steps += 1
        events = self.app.step(self.t, self.occ, self.button)
        if events:
            if len(events) > self.max_events:
                self.max_events = len(events)
            for e in events:
                self.seen(e)

    def wait(self, ms, every=STEP_MS):
        end = self.t + ms
        while self.t < end:
            self.step(every)

    def seen(self, e):
        name = e["event"]
        if name == "ready" and not e["resumed"] and not self.in_game:
            self.games += 1
            self.in_game = True
            self.sample()
        elif name == "game_over":
            self.finished += 1
            self.in_game = False
        elif name == "museum":
            what = e["what"]
            if what == "reset" and self.in_game:
                self.resets += 1                 # a finished game is not counted twice
                self.in_game = False
            elif what == "computer":
                if not self.computer:
                    self.first_computer = True
                self.computer += 1
            elif what == "no_computer":
                self.no_computer += 1            # asked for, but the heap had no room
            elif what == "hand_back":
                self.hand_back += 1
        elif name == "move":
            self.moves += 1

    def _hour(self):
        return min(self.t // HOUR_MS, len(self.low) - 1)

    def sample(self):
        hour = self._hour()
        h = heap()
        low = self.low
        high = self.high
        if len(sys.modules) != self.modules or self.first_computer:
            # A module was loaded since, or the computer joined for the first
            # time (its code leaves with each game, but the names it interned
            # stay for good, and may have needed a new name pool): code, not
            # growth. Heap growth is measured from the first hour with every
            # module in and every name interned.
            self.first_computer = False
            self.modules = len(sys.modules)
            for i in range(len(low)):
                low[i] = 0
                high[i] = 0
            self.from_hour = hour
        if not low[hour] or h < low[hour]:
            low[hour] = h
        if h > high[hour]:
            high[hour] = h

    # -- hands ----------------------------------------------------------------

    def lift(self, s, ms=120):
        if self.occ & bit(s):
            self.occ &= ~bit(s)
            self.hand += 1
        self.wait(ms)

    def place(self, s, ms=120):
        if not self.occ & bit(s):
            if self.hand == 0:
                if self.tray == 0:
                    return
                self.tray -= 1
                self.hand += 1
            self.occ |= bit(s)
            self.hand -= 1
        self.wait(ms)

    def drop_hand(self):
        """Whatever the visitor holds goes back beside the board."""
        self.tray += self.hand
        self.hand = 0

    def press(self, ms=150):
        self.button = True
        self.wait(ms)
        self.button = False
        self.wait(80)

    def think(self, low=300, high=3000):
        self.wait(low + self.rnd.randrange(high - low))

    def chance(self, percent):
        return self.rnd.randrange(100) < percent

    def empty_square(self):
        for _ in range(60):
            s = 1 + self.rnd.randrange(30)
            if not self.occ & bit(s):
                return s
        return 0

    def full_square(self):
        for _ in range(60):
            s = 1 + self.rnd.randrange(30)
            if self.occ & bit(s):
                return s
        return 0

    # -- a visitor --------------------------------------------------------------

    def visitor(self):
        """One visit: a few minutes of playing, then walking away."""
        self.visitors += 1
        if self.chance(40):
            leave = self.t + 90 * 60000              # stays to the end of the game
        else:
            leave = self.t + 60000 * (1 + self.rnd.randrange(20))
        while self.t < leave and self.t < self.end:
            state = self.app.state
            if state == "game_over":
                if self.chance(30):
                    self.press(2300)               # a new game, at once
                else:
                    break                          # done: walk away
            elif state == "howto":
                if self.chance(50):
                    self.press()
                else:
                    self.wait(2000)
            elif state == "throw" and self.computer_to_move():
                self.wait(500)                     # the board throws for its side...
                if self.chance(5):
                    self.press()                   # ...or a person takes the side back
            elif state in ("opening", "throw"):
                if state == "throw" and self.chance(4):
                    self.wait(27000)               # alone: nobody throws for the other side
                    continue
                self.think(200, 1500)
                if self.chance(3):
                    self.knock()
                self.press()
            elif state == "move":
                self.play_move()
            elif state == "nomove":
                self.wait(500)
                if self.chance(50):
                    self.press()
            else:                                  # setup, takeback, mismatch
                self.fix()
        # walking away, sometimes mid-move
        if self.chance(15) and self.app.state == "move":
            o = self.full_square()
            if o:
                self.lift(o)
                if self.chance(50):
                    t = self.empty_square()
                    if t:
                        self.place(t)
        self.drop_hand()

    def knock(self):
        """A sleeve brushes a piece onto its neighbour."""
        s = self.full_square()
        if s and s < 30 and not self.occ & bit(s + 1):
            self.mistakes += 1
            self.occ &= ~bit(s)
            self.occ |= bit(s + 1)
            self.wait(500)

    def play_move(self):
        app = self.app
        self.think(300, 2500)
        if app.state != "move":
            return
        if self.computer_to_move():
            self.follow_computer()
            return
        moves = app.moves
        r = self.rnd.randrange(100)
        if r < 3:
            self.press()                           # twice in a row: ignored
            return
        if r < 6:
            self.press(2300)                       # a long press: take back
            return
        if r < 12 or not moves:
            self.mistakes += 1                     # a wrong square
            o = self.full_square()
            t = self.empty_square()
            if o and t:
                self.lift(o)
                self.place(t)
                self.wait(600)
            return
        self.carry(moves[self.rnd.randrange(len(moves))])
        self.wait(500)

    def carry(self, m):
        """The move by hand (tests/hand.py), via the water or the House of
        Happiness one time in two."""
        carry(self, m, self.half_the_time)
        self.drop_hand()                            # a piece borne off: beside the board

    def half_the_time(self):
        return self.chance(50)

    def computer_to_move(self):
        computer = self.app.computer
        return computer is not None and self.app.turn == computer.side

    def follow_computer(self):
        """The purple lights show the board's move: carry it out for it."""
        m = self.app.computer.move
        if m is None or "computer_from" not in self.app.roles:
            self.wait(500)                           # it is still choosing
            return
        self.carry(m)
        self.wait(500)
        if self.app.state == "mismatch":
            self.fix()

    def fix(self):
        """Read the lights: fill put/missing squares, clear take/error ones."""
        roles = self.app.roles
        need = 0
        extra = 0
        for i in range(30):
            role = roles[i]
            if role == "put" or role == "missing":
                need |= 1 << i
            elif role == "take" or role == "error":
                extra |= 1 << i
        if not need and not extra:
            self.wait(400)
            return
        s = 1
        while extra:
            if extra & 1:
                self.lift(s, 80)
            extra >>= 1
            s += 1
        s = 1
        while need:
            if need & 1:
                if self.occ & bit(s):                # a swap to undo: lift it first
                    self.lift(s, 80)
                self.place(s, 80)
            need >>= 1
            s += 1
        self.drop_hand()
        self.wait(600)

    # -- the day ----------------------------------------------------------------

    def run(self):
        # the first visitor finds the pieces beside the board
        while self.t < self.end:
            self.visitor()
            gap = 1000 * (5 + self.rnd.randrange(1800))      # up to half an hour
            if self.chance(5):
                gap += 1000 * self.rnd.randrange(3 * 3600)     # a quiet spell
            stop = self.t + gap
            if stop > self.end:
                stop = self.end
            while self.t < stop:
                self.step(IDLE_MS)
            if not self.low[self._hour()] and self.app.state in ("setup", "opening"):
                self.sample()
        # The day is over and the board switched off: its heap is not the
        # report's to share.
        self.app = None
        gc.collect()
        return self.report()

    def report(self):
        hours = [i for i in range(len(self.low)) if self.low[i]]
        first = (self.low[hours[0]], self.high[hours[0]]) if hours else (0, 0)
        last = (self.low[hours[-1]], self.high[hours[-1]]) if hours else (0, 0)
        lost = self.games - self.finished - self.resets - (1 if self.in_game else 0)
        return {"hours": self.end // HOUR_MS, "visitors": self.visitors, "games": self.games,
                "finished": self.finished, "resets": self.resets, "lost": lost,
                "in_progress": self.in_game, "moves": self.moves, "mistakes": self.mistakes,
                "computer": self.computer, "no_computer": self.no_computer,
                "hand_back": self.hand_back,
                "steps": self.steps,
                "heap_from_hour": self.from_hour,
                "heap_first_hour": first[0], "heap_last_hour": last[0],
                "heap_first_hour_max": first[1], "heap_last_hour_max": last[1],
                "unit": "bytes" if hasattr(gc, "mem_alloc") else "blocks"}


def main(hours=24, seed=1, store=None):
    soak = Soak(hours, seed, store)
    result = soak.run()
    print("%d simulated hours: %d visitors, %d games completed, %d reset for the next "
          "visitor, %d lost; heap at a new game %d -> %d %s (hour %d to the last)" % (
              result["hours"], result["visitors"], result["finished"], result["resets"],
              result["lost"], result["heap_first_hour"], result["heap_last_hour"],
              result["unit"], result["heap_from_hour"]))
    print(json.dumps(result))
    return result


if __name__ == "__main__":
    args = sys.argv[1:]
    main(int(args[0]) if args else 24, int(args[1]) if len(args) > 1 else 1,
         args[2] if len(args) > 2 else None)
