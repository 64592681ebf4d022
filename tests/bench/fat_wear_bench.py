"""Flash wear of saving the game on CircuitPython's CIRCUITPY drive.

    python tests/bench/fat_wear_bench.py [MODE ...]

The firmware benchmark's two games (tests/bench/firmware_bench.py: kendall
with seed 3, 128 moves; hungarian with seed 4, 220 moves) are played by
hand through the App, which saves as it does on a board (after the
opening's 1, every throw, every move or lost turn), each game on a freshly
deployed drive modelled by tests/fat_flash.py: ChaN's FatFs on the RP2040's
flash with CircuitPython's one-block cache. Printed per MODE of
firmware/store.py's Store ("files": game.json and game.log, as on
MicroPython; "ring": game.sav, CircuitPython's; default: both): the erases
over both games, the hottest 4 KB block and its erases per move, per day at
home (50 moves) and in a museum (2,150 moves), and the years until it has
been erased 100,000 times. The last line is one JSON object.
"""

import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
sys.path.insert(0, os.path.dirname(os.path.dirname(HERE)))

from engine.position import Position  # noqa: E402
from engine.sticks import XorShift  # noqa: E402
from fat_flash import Flash, mount  # noqa: E402
from hand import carry  # noqa: E402

GAMES = (("kendall", 3), ("hungarian", 4))
# Printed figures are over ten rounds of the two games: the ring's blocks
# take their turns over many games, not two.
HOME_MOVES = 50                  # a day
MUSEUM_MOVES = 2150
CYCLES = 100000                  # the flash's rated erases per block
TICK_MS = 10


class Hands:
    """A clock, a button and the pieces, stepping one App (as the firmware
    benchmark's hands do); a second of the App's clock lets CircuitPython
    write its block cache back."""

    def __init__(self, app, flash):
        self.app = app
        self.flash = flash
        self.t = 0
        self.occ = 0
        self.button = False

    def step(self):
        self.t += TICK_MS
        self.flash.clock_s = self.t // 1000
        self.app.step(self.t, self.occ, self.button)
        self.flash.idle()

    def wait(self, ms):
        end = self.t + ms
        while self.t < end:
            self.step()

    def rest(self):
        self.wait(self.app.config["settle_ms"] + 60)

    def lift(self, square):
        self.occ &= ~(1 << (square - 1))
        self.wait(60)

    def place(self, square):
        self.occ |= 1 << (square - 1)
        self.wait(60)

    def press(self):
        self.button = True
        self.wait(120)
        self.button = False
        self.wait(60)

    def play(self, move):
        """The move by the one hand (tests/hand.py), water and happiness
        straight to the final square, then the board at rest."""
        carry(self, move, via=lambda: False)
        self.rest()


def saving_app(ruleset, seed, fs, mode, config=None):
    """An App whose Store saves on ``fs`` (the drive's root) in ``mode``."""
    import firmware.app
    from firmware.app import App
    from firmware.store import Store
    real = firmware.app.Store
    firmware.app.Store = lambda folder: Store(folder, fs=fs, mode=mode)
    try:
        cfg = {"ruleset": ruleset}
        cfg.update(config or {})
        return App(config=cfg, store_dir="/", rng=XorShift(seed))
    finally:
        firmware.app.Store = real


def play_game(hands, seed, moves=None, max_actions=3000):
    """Set up, play to the end (or ``moves`` moves); return the moves played."""
    app = hands.app
    rng = XorShift(seed)
    hands.occ = Position.parse(app.position).occupancy()
    hands.rest()
    played = 0
    for _ in range(max_actions):
        state = app.state
        if state == "game_over" or (moves is not None and played >= moves):
            return played
        if state in ("opening", "throw"):
            hands.press()
        elif state == "move":
            legal = app.moves
            hands.play(legal[rng.randrange(len(legal))])
            played += 1
        else:
            hands.wait(500)
    raise RuntimeError("the game did not end (state %s)" % app.state)


def wear(mode, rounds=1, games=GAMES, store=None):
    """The games, ``rounds`` times over, on one freshly deployed drive (each
    game after the first begun by a long press, as a player or the museum's
    reset begins one); the erases per block. ``store``, if given, makes the
    Store instead (a planted change). game.sav is made before the counting
    starts: a board makes it once in its life (``made``: what that cost)."""
    from firmware.store import Store
    flash = Flash()
    fs = mount(flash)
    made = 0
    if mode == "ring" and store is None:
        before = flash.total_erases()
        Store("/", fs=fs, mode="ring")._ring.make()
        flash.idle()
        made = flash.total_erases() - before
    start = list(flash.erases)
    programs = flash.programs
    moves = 0
    for _ in range(rounds):
        for ruleset, seed in games:
            if store is not None:
                app = planted_app(ruleset, seed, fs, store)
            else:
                app = saving_app(ruleset, seed, fs, mode)
            hands = Hands(app, flash)
            hands.occ = Position.parse(app.position).occupancy()
            hands.rest()
            if app.state == "game_over":
                hands.button = True
                hands.wait(app.config["long_press_ms"] + 100)
                hands.button = False
                hands.wait(60)
            moves += play_game(hands, seed)
    flash.idle()
    erases = [a - b for a, b in zip(flash.erases, start)]
    out = figures(erases, flash.programs - programs, moves)
    out["made_erases"] = made
    return out


def planted_app(ruleset, seed, fs, store):
    import firmware.app
    from firmware.app import App
    real = firmware.app.Store
    firmware.app.Store = lambda folder: store(folder, fs)
    try:
        return App(config={"ruleset": ruleset}, store_dir="/", rng=XorShift(seed))
    finally:
        firmware.app.Store = real


def figures(erases, programs, moves):
    """The report: totals, the hottest block, its life at home and in a museum."""
    hottest = max(range(len(erases)), key=lambda b: erases[b])
    per_move = erases[hottest] / moves
    out = {"moves": moves, "erases": sum(erases), "page_programs": programs,
           "erases_per_move": round(sum(erases) / moves, 3),
           "hottest_block": hottest, "hottest_erases": erases[hottest],
           "hottest_per_move": round(per_move, 4),
           "blocks_erased": sum(1 for e in erases if e)}
    for place, daily in (("home", HOME_MOVES), ("museum", MUSEUM_MOVES)):
        per_day = per_move * daily
        out[place + "_hottest_per_day"] = round(per_day, 1)
        out[place + "_years"] = round(CYCLES / per_day / 365, 2) if per_day else None
    return out


def main(modes, rounds=10):
    report = {}
    for mode in modes:
        r = wear(mode, rounds)
        report[mode] = r
        print("%-8s %d moves: %d erases (%d page programs), %.2f a move; hottest block %d: "
              "%d erases, %.3f a move; home %.1f a day (%s years), museum %.1f a day "
              "(%s years)" % (mode, r["moves"], r["erases"], r["page_programs"],
                              r["erases_per_move"], r["hottest_block"], r["hottest_erases"],
                              r["hottest_per_move"], r["home_hottest_per_day"],
                              r["home_years"], r["museum_hottest_per_day"], r["museum_years"]))
    print(json.dumps(report))


if __name__ == "__main__":
    main(sys.argv[1:] or ["files", "ring"])
