"""What tests/mp/test_scenarios_mp.py's two halves share: the folder for
each test's saved game, chattering and sliding hands, and a whole game
played by random choice. Stays loaded while the halves come and go."""

import json
import os

from board_sim import BoardSim
from engine.sticks import XorShift
from firmware.recognise import bit
from hand import OFF

STORE = None                 # set by tests/mp/test_scenarios_mp.py
APART = False                # True: a power-on after a story is a fresh interpreter's
_dirs = [0]


def folder():
    """A fresh empty folder under STORE for one test's saved game."""
    _dirs[0] += 1
    path = "%s/s%d" % (STORE, _dirs[0])
    os.mkdir(path)
    return path


def switched_off(store, config, game, state=None):
    """With APART, a story whose point is the next power-on ends here: what
    that power-on must find (the game, and the App's state once the pieces
    stand) goes to STORE/want.json for tests/mp/scenario_power.py, which
    switches a fresh interpreter on. Returns True if it did."""
    if not APART:
        return False
    f = open(store + "/want.json", "w")
    f.write(json.dumps({"config": config, "game": list(identity(game)), "state": state}))
    f.close()
    print("POWER-ON", store)
    return True


class Hands(BoardSim):
    """A board whose player slides pieces and whose switches chatter (used by
    the CPython scenarios too).

    ``chatter``: a source of random numbers with ``randrange`` (random.Random
    or XorShift); every lift and place then flickers the switch for 1 to 8 ms
    (scanned every millisecond meanwhile) before it rests in its new state.
    ``slide``: a plain move is slid along the path, each empty square on the
    way closing and opening under the magnet.
    """

    def __init__(self, chatter=None, slide=False, **kwargs):
        BoardSim.__init__(self, **kwargs)
        self.chatter = chatter
        self.slide = slide
        self.bounces = 0

    def _switch(self, square, closed):
        rnd = self.chatter
        if rnd is not None:
            tick = self.tick_ms
            self.tick_ms = 1
            left = 1 + rnd.randrange(8)
            while left > 0:
                self.occ ^= bit(square)
                self.bounces += 1
                d = min(1 + rnd.randrange(3), left)
                self.wait(d)
                left -= d
            self.tick_ms = tick
        if closed:
            self.occ |= bit(square)
        else:
            self.occ &= ~bit(square)

    def lift(self, *squares, ms=60):
        for s in squares:
            self._switch(s, False)
            self.wait(ms)
        return self

    def place(self, *squares, ms=60):
        for s in squares:
            self._switch(s, True)
            self.wait(ms)
        return self

    def slide_over(self, origin, to):
        """The magnet passes over the empty squares between origin and to."""
        step = 1 if to > origin else -1
        for s in range(origin + step, to, step):
            if not self.occ & bit(s):
                self.place(s, ms=30).lift(s, ms=30)

    def play(self, move, via=True):
        if self.slide and not move.capture and move.to != OFF:
            self.lift(move.origin)
            self.slide_over(move.origin, move.to)
            if via and move.to != move.final:
                self.place(move.to).lift(move.to)
            if move.final != OFF:
                self.place(move.final)
            return self.wait()
        return BoardSim.play(self, move, via)


def _quiet(board):
    for e in board.events:
        if e["event"] == "mismatch" or e["event"] == "notice":
            raise AssertionError("%r" % (e,))
    board.events = []              # the heap is small: forget what was said


def play_game(board, seed, max_actions=3000):
    board.setup()
    board.play_to_the_end(XorShift(seed + 1000), max_actions, _quiet)


def identity(game):
    """The game in a few small numbers and strings (a whole record would be
    one big string, which a small heap may not have room for): the moves
    and passes as a checksum over the plies, one at a time."""
    check = 0
    n = 0
    for ply in game.plies():            # (side, throw, move text or None, ...)
        n += 1
        check = (check * 31 + hash("%s%d%s" % (ply[0], ply[1], ply[2]))) & 0x3FFFFFFF
    return (game.ruleset.name, game.start.text(), len(game.opening), n, check,
            game.position.text(), game.throw, game.ended)
