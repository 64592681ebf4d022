"""Winning chances: the engine's evaluation, calibrated against played games.

A chance here is a number a player can take at its word: of the positions
given 65 %, about 65 in 100 went on to be won (docs/computer.md, "Winning
chances on the laptop", shows the table). It comes from a logistic model
over a few features of the position (the race, the engine's own judgement
of it, pieces off, H15's points), fitted (host_tools/analysis/fit.py) to the
outcomes of thousands of self-play games in each ruleset variant, both sides
playing as the computer at level 2. So "62 %" means: if both sides play on
from here about as well as the computer's level 2, the side wins 62 games
in 100. A draw (H14's literal option) counts half a win.

The model is a position's chance *between* throws, for the side that throws
next (``position.turn``). What a throw is worth follows from it: with a
throw in hand, the side's chance is that of its best move's result (a lost
turn's, when it has none).

Uncertainty: the weights were fitted to a finite number of games, so the
chance has a spread; ``low`` and ``high`` are its 90 % interval, from the
weights' covariance with the games as clusters (the positions of one game
are not independent), widened by the calibration error measured on games the
fit never saw.
"""

import math

from engine.ai import evaluate
from engine.position import BLACK, WHITE
from engine.rules import ruleset, ruleset_spec

from host_tools.analysis.fitted import MODELS

FEATURES = ("bias", "race", "race_share", "judgement", "off", "points")
_Z90 = 1.6449                # a normal variable is within 1.645 sd 90 % of the time


def other(side):
    return WHITE if side == BLACK else BLACK


def _to_go(cells, code):
    """Squares the side's pieces still have to travel (K13, H11: off at 31)."""
    total = 0
    s = cells.find(code, 1)
    while 0 < s <= 30:
        total += 31 - s
        s = cells.find(code, s + 1)
    return total


def features(rs, position):
    """The model's inputs, for the side that throws next in ``position``."""
    me = position.turn
    you = other(me)
    cells = position.cells
    mine = _to_go(cells, me.encode())
    yours = _to_go(cells, you.encode())
    race = (yours - mine) / 10.0
    share = (yours - mine) / math.sqrt(mine + yours + 10.0)
    judgement = evaluate(rs, position, me) / 1000.0
    off = (rs.off(position, me) - rs.off(position, you)) / 1.0
    points = (rs.points(position, me) - rs.points(position, you)) / 10.0
    return (1.0, race, share, judgement, off, points)


class Model:
    """The fitted weights of one ruleset (with its options)."""

    def __init__(self, spec, fitted):
        self.spec = spec
        self.weights = fitted["weights"]
        self.cov = fitted["cov"]
        self.widen = fitted.get("widen", 0.0)
        self.games = fitted.get("games", 0)

    def logit(self, x):
        return sum(w * v for w, v in zip(self.weights, x))

    def spread(self, x):
        """The standard deviation of the logit, from the weights' covariance."""
        var = 0.0
        for i, row in enumerate(self.cov):
            var += x[i] * sum(c * v for c, v in zip(row, x))
        return math.sqrt(max(var, 0.0))

    def turn_chance(self, rs, position):
        """(chance, low, high) that the side to throw next wins."""
        winner = rs.winner(position)
        if winner is not None:
            p = 1.0 if winner == position.turn else 0.0
            return p, p, p
        x = features(rs, position)
        eta = self.logit(x)
        sd = self.spread(x)
        p = _sigmoid(eta)
        low = max(0.0, _sigmoid(eta - _Z90 * sd) - self.widen)
        high = min(1.0, _sigmoid(eta + _Z90 * sd) + self.widen)
        return p, low, high

    def chance(self, rs, position, side):
        """(chance, low, high) that ``side`` wins from ``position`` (between
        throws)."""
        p, low, high = self.turn_chance(rs, position)
        if position.turn == side:
            return p, low, high
        return 1.0 - p, 1.0 - high, 1.0 - low


def model_for(rs):
    """The Model fitted for ``rs``; raise ValueError naming the rulesets
    that have one."""
    spec = _spec(rs)
    fitted = MODELS.get(spec)
    if fitted is None:
        raise ValueError("no winning-chance model for ruleset %s (there is one for: %s)"
                         % (spec, ", ".join(sorted(MODELS)) or "none yet"))
    return Model(spec, fitted)


def _spec(rs):
    """The ruleset's name with the options that differ from its defaults:
    ``hungarian:no_move=pass`` plays as ``hungarian``."""
    base = ruleset(rs.name)
    plain = ruleset(rs.name)
    for key in rs.options:
        if getattr(base, key) != rs.options[key]:
            plain.set_option(key, rs.options[key])
    return ruleset_spec(plain)


def move_chances(model, rs, position, throw):
    """Each legal move for ``throw`` with the mover's (chance, low, high)
    after it, best first (ties keep the engine's order: the rearmost piece,
    as the computer levels do). A lost turn is one entry with move None."""
    side = position.turn
    moves = rs.legal_moves(position, throw)
    if not moves:
        if rs.no_move == "end":
            return [(None, _ended(rs, position, side))]
        return [(None, model.chance(rs, rs.pass_position(position, throw), side))]
    scored = [(m, model.chance(rs, m.after, side)) for m in moves]
    order = sorted(range(len(scored)), key=lambda i: (-scored[i][1][0], i))
    return [scored[i] for i in order]


def _ended(rs, position, side):
    """H14, literal option: no move ends the game and H15's points decide."""
    mine, yours = rs.points(position, side), rs.points(position, other(side))
    p = 1.0 if mine > yours else 0.0 if mine < yours else 0.5
    return p, p, p


def _sigmoid(x):
    if x >= 0:
        return 1.0 / (1.0 + math.exp(-x))
    e = math.exp(x)
    return e / (1.0 + e)
