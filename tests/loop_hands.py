"""Players at a board, and the board's hardware edge on a simulated clock,
for running the real board loop (firmware/board.py ``run``) on the
MicroPython unix port on the fake machine (tests/fakes).

Each loop pass takes ``PASS_MS`` of simulated time, so hours of a board's
life take seconds and nothing depends on how fast the host is. The hands
plan what the switches and the button show from what the App shows (its
public contract): they set the pieces up, throw, play a move chosen from the
legal ones (a capture as a swap, C6), pausing to think as players do, and
start a new game with a long press when one ends.

    import loop_hands
    clock = loop_hands.Clock(end_ms)
    hands = loop_hands.Hands(clock)
    loop_hands.watch(App, hands)          # or call ``hands.look(app)`` after each step
    loop_hands.run_board(hands, clock, '{"ruleset": "kendall"}', ".")

Used by tests/firmware_tests/test_health_band.py and tests/bench/loop_bench.py
(both put tests/fakes, the compiled firmware and tests/ on sys.path).
"""

import firmware.hal as real_hal
from engine.position import Position
from engine.sticks import XorShift

PASS_MS = 20                     # a loop pass: 5 ms of scan period and 15 of work


def bit(square):
    return 1 << (square - 1)


class Stop(KeyboardInterrupt):
    """The simulated span is over: raised out of the loop's sleep, as
    Ctrl-C from a laptop would be (the loop lets nothing else out)."""


class Clock:
    """Simulated milliseconds; the loop's sleep moves them on by the sleep
    and the pass's work, and ends the run at ``end_ms``."""

    def __init__(self, end_ms, pass_ms=PASS_MS):
        self.now = 0
        self.end_ms = end_ms
        self.pass_ms = pass_ms

    def sleep(self, ms):
        self.now += max(ms, 0) + self.pass_ms - 5
        if self.now >= self.end_ms:
            raise Stop()


class Hands:
    """What the switches and the button show at each moment: a plan of
    (until ms, occupancy, button) made from what the App shows."""

    def __init__(self, clock, think_seed=7, choose_seed=3, hints=False):
        self.clock = clock
        self.hints = hints               # ask for a hint before some moves
        self.hints_asked = 0
        self.occ = 0
        self.pressed = False
        self.plan = []
        self.think = XorShift(think_seed)
        self.choose = XorShift(choose_seed)
        self.games = 0                   # games ended
        self.moves = 0                   # moves made by hand

    def add(self, ms, occ, pressed=False):
        start = self.plan[-1][0] if self.plan else self.clock.now
        self.plan.append((start + ms, occ, pressed))

    def look(self, app):
        """After a step: once the plan is carried out, plan what comes next
        from what the App shows. The hands keep no hold on the App, so that
        only the loop does, as on the Pico (the collector reaches it from the
        loop's frame, not through the hands: tests/firmware_tests/test_gc_overflow.py)."""
        self._expire()
        if not self.plan:
            self.decide(app)

    def _expire(self):
        now = self.clock.now
        while self.plan and self.plan[0][0] <= now:
            self.plan.pop(0)

    def scan(self):
        self._expire()
        if self.plan:
            self.occ = self.plan[0][1]
            self.pressed = self.plan[0][2]
        return self.occ

    def button(self):
        return self.pressed

    def decide(self, app):
        state = app.state
        occ = self.occ
        thought = 1000 + 1000 * self.think.randrange(8)     # 1 to 8 s
        if state == "setup":
            self.add(1500, Position.parse(app.position).occupancy())
        elif state == "opening" or state == "throw":
            self.add(thought, occ)
            self.add(150, occ, True)
            self.add(150, occ)
        elif state == "move" and app.moves:
            self.add(thought, occ)
            if self.hints and len(app.moves) > 1 and self.think.randrange(3) == 0:
                self.ask_hint(occ)
            self.play(app, app.moves[self.choose.randrange(len(app.moves))], occ)
        elif state == "game_over":
            self.games += 1
            self.add(thought, occ)
            self.add(2500, occ, True)    # a long press: a new game
            self.add(200, occ)
        else:
            self.add(500, occ)

    def ask_hint(self, occ):
        """Two short presses, close together, while the throw waits: the
        board lights its best move (docs/playing.md); a look at it, then
        the player moves as they like."""
        self.hints_asked += 1
        self.add(120, occ, True)
        self.add(150, occ)
        self.add(120, occ, True)
        self.add(1500, occ)

    def play(self, app, move, occ):
        """Lift the origin, put the piece on its final square; a capture
        swaps the two pieces (C6); a piece borne off leaves the board."""
        self.moves += 1
        occ &= ~bit(move.origin)
        self.add(200, occ)
        if move.capture:
            occ &= ~bit(move.to)
            self.add(200, occ)
            if move.final != 31:
                occ |= bit(move.final)
                self.add(200, occ)
            occ |= bit(move.origin)
            self.add(200, occ)
        elif move.final != 31:
            occ |= bit(move.final)
            self.add(200, occ)
        self.add(app.config["settle_ms"] + 300, occ)


class Hal:
    """firmware.hal on the fake machine, with the simulated clock, and the
    hands for the switches and the button."""

    def __init__(self, hands, clock):
        self.hands = hands
        self.clock = clock
        self.watchdog = real_hal.watchdog
        self.watchdog_stop = real_hal.watchdog_stop
        self.reset = real_hal.reset

    def ticks_ms(self):
        return self.clock.now

    def ticks_diff(self, a, b):
        return a - b

    def sleep_ms(self, ms):
        self.clock.sleep(ms)

    def make_button(self, config):
        return self.hands.button

    def build(self, config):
        hw = real_hal.build(config)
        hw.scanner.scan = self.hands.scan
        hw.button = self.hands.button
        return hw


def watch(app_class, hands):
    """Let the hands see the App the loop steps (the loop makes it)."""
    real_step = app_class.step

    def step(app, now_ms, occupancy, button):
        events = real_step(app, now_ms, occupancy, button)
        hands.look(app)
        return events

    app_class.step = step


def run_board(hands, clock, config_text, folder, seed=None):
    """Power the board on with ``config_text`` as its config.json in
    ``folder`` (its flash) and run the loop until the clock's end. With a
    ``seed`` the sticks fall as they did in every run before (else from the
    board's own random source), so the same games are played.

    The loop is started as the Pico's main.py starts it, from a two-line
    shim: the code running at module level names the collector's first
    roots (its namespace, then the calling function's module), so a test's
    own globals there would be marked before the firmware's and could
    overflow the mark stack in a way the Pico's never does."""
    from firmware import board
    if seed is not None:
        board._rng = lambda: XorShift(seed)
    path = folder + "/config.json"
    f = open(path, "w")
    f.write(config_text)
    f.close()
    hands.plan = []
    hands.occ = 0                    # an empty board, the button up, at power-on
    hands.pressed = False
    try:
        exec("run(path, folder, hal=hal)",
             {"run": board.run, "path": path, "folder": folder, "hal": Hal(hands, clock)})
    except Stop:
        pass
