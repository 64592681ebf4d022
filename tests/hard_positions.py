"""Positions that are hard for a move generator on purpose, from a seed.

Dense runs of one colour (pairs, triples, fours) next to each other, pieces on
the House of Rebirth (15) and the last houses (26..30), and walls: the side to
move packed behind an enemy group it can neither pass nor take, so that it has
no forward move and backward moves are forced (K15, H13).  Every position is
one the rulesets accept (pieces per side, nothing on the water, nothing on 30
in the Hungarian rules).

Plain Python that also runs on the MicroPython unix port (the same seed gives
the same positions there only through ``random.Random``, which MicroPython
lacks; so MicroPython is given the positions as text).
"""

import random

SPECS = ("kendall", "kendall:pieces=7", "hungarian", "hungarian:no_move=end",
         "hungarian:own_groups_block=true")


def _pieces(spec):
    return 7 if "pieces=7" in spec else 5


def _forbidden(spec):
    # K12, H10: nothing stands on the water; H11: nothing on 30
    return (27,) if spec.startswith("kendall") else (27, 30)


class _Builder:
    def __init__(self, spec, rnd):
        self.spec = spec
        self.rnd = rnd
        self.cells = ["."] * 31          # index 1..30
        self.left = {"B": _pieces(spec), "W": _pieces(spec)}
        self.forbidden = _forbidden(spec)

    def put(self, square, colour):
        if (1 <= square <= 30 and square not in self.forbidden
                and self.cells[square] == "." and self.left[colour] > 0):
            self.cells[square] = colour
            self.left[colour] -= 1
            return True
        return False

    def run(self, start, colour, length):
        """A run of ``length`` pieces of ``colour`` from ``start``; the square
        after it (where the next run begins)."""
        square = start
        for _ in range(length):
            self.put(square, colour)
            square += 1
        return square

    def text(self, side):
        return "".join(self.cells[1:]) + " " + side


def _runs(b, start):
    """Runs of alternating colours packed one after another."""
    rnd = b.rnd
    colour = rnd.choice("BW")
    square = start
    while square <= 30 and (b.left["B"] or b.left["W"]):
        square = b.run(square, colour, rnd.choice((1, 2, 2, 3, 3, 4)))
        square += rnd.choice((0, 0, 0, 1, 2))
        colour = "W" if colour == "B" else "B"


def _dense(b, side):
    _runs(b, b.rnd.randrange(1, 24))
    if b.rnd.random() < 0.5:
        _runs(b, b.rnd.randrange(1, 12))


def _houses(b, side):
    rnd = b.rnd
    for square in (15, 26, 28, 29, 30, 14, 16, 25):
        if rnd.random() < 0.6:
            b.put(square, rnd.choice("BW"))
    _runs(b, rnd.randrange(10, 24))
    _runs(b, rnd.randrange(1, 10))


def _walled(b, side):
    """``side`` packed behind an enemy group it can neither pass nor take."""
    rnd = b.rnd
    enemy = "W" if side == "B" else "B"
    kendall = b.spec.startswith("kendall")
    size = rnd.choice((4, 4, 5)) if kendall else rnd.choice((3, 3, 4))
    wall = rnd.randrange(4, 25 - size)
    b.run(wall, enemy, size)
    b.run(wall - rnd.choice((1, 2, 3)), side, rnd.choice((1, 2, 3)))
    if kendall:
        for square in (28, 29, 30):      # K13: stuck there unless the exact throw
            if rnd.random() < 0.5:
                b.put(square, side)
    if rnd.random() < 0.7:
        b.run(wall - rnd.randrange(4, 8), side, rnd.choice((1, 2)))
    _runs(b, rnd.randrange(wall + size, 27))


_KINDS = (_dense, _houses, _walled)


def hard_positions(count, seed):
    """``count`` (spec, position text) pairs, every spec and kind in turn."""
    rnd = random.Random(seed)
    found = []
    while len(found) < count:
        i = len(found)
        spec = SPECS[i % len(SPECS)]
        side = rnd.choice("BW")
        b = _Builder(spec, rnd)
        _KINDS[(i // len(SPECS)) % len(_KINDS)](b, side)
        if side in b.cells:
            found.append((spec, b.text(side)))
        else:
            found.append((spec, b.text("W" if side == "B" else "B")))
    return found
