"""Fitting the winning-chance model to self-play games (host_tools/analysis/chance.py).

    python -m host_tools.analysis.fit --games N [--workers N] [--only SPEC]

plays N seeded games in each ruleset variant, both sides playing as the
computer at level 2, fits the logistic weights to who went on to win,
scales them on N/2 other games so that the chances given with a throw in
hand come true, measures the calibration error left on N/2 games neither
step saw, and writes
host_tools/analysis/fitted.py. Deterministic: the same seeds give the same
games and the same weights. Plain Python (a Newton fit of six weights), so
it needs nothing the package does not already have.
"""

import argparse
import math
import multiprocessing
import os
import sys

from engine.ai import choose_move
from engine.position import BLACK
from engine.rules import parse_ruleset
from engine.sticks import XorShift, throw, opening

from host_tools.analysis.chance import FEATURES, Model, features, move_chances

VARIANTS = ("kendall", "kendall:pieces=7", "hungarian", "hungarian:no_move=end",
            "hungarian:own_groups_block=true")
FIT_SEEDS = 1000000            # games the weights are fitted to start at this seed
SCALE_SEEDS = 2000000          # games the weights are scaled on
CHECK_SEEDS = 3000000          # games that measure the calibration error
MAX_PLIES = 3000
POLICY_LEVEL = 2               # the computer level both sides play in the games fitted to


def self_play(rs, seed, model=None):
    """One game, both sides playing as the computer at level 2 (the move
    that goes furthest in the race, engine/ai.py). Return (samples,
    winner): a sample per position between throws, (side to throw, the
    chance ``model`` gives it with the throw it then got, or None without a
    model, features); ``winner`` "B", "W" or None for a draw (H14's literal
    option)."""
    rng = XorShift(seed)
    position = rs.start()
    opening(rs, rng)                   # K4, H4: the first 1 moves first
    value = 1
    samples = []
    for _ in range(MAX_PLIES):
        side = position.turn
        given = None
        if model is not None:
            given = move_chances(model, rs, position, value)[0][1][0]
        samples.append((side, given, features(rs, position)))
        move = choose_move(rs, position, value, level=POLICY_LEVEL)
        if move is None:
            if rs.no_move == "end":
                return samples, _scored_winner(rs, position)
            position = rs.pass_position(position, value)
        else:
            position = move.after
            winner = rs.winner(position)
            if winner is not None:
                return samples, winner
        value = throw(rs, rng).value
    raise RuntimeError("self-play game %d of %s did not end in %d plies" % (seed, rs.name, MAX_PLIES))


def _scored_winner(rs, position):
    black, white = rs.points(position, BLACK), rs.points(position, "W")
    if black == white:
        return None
    return BLACK if black > white else "W"


def won(side, winner):
    """1 for a win, 0 for a loss, a half for a draw."""
    if winner is None:
        return 0.5
    return 1.0 if winner == side else 0.0


def _game(job):
    spec, seed, fitted = job
    model = Model(spec, fitted) if fitted else None
    return self_play(parse_ruleset(spec), seed, model)


def play_many(spec, seeds, fitted, workers):
    """Self-play games of ``spec`` from ``seeds``, played by the weights
    ``fitted`` (None: computer level 2), on ``workers`` processes."""
    jobs = [(spec, s, fitted) for s in seeds]
    if workers > 1:
        with multiprocessing.Pool(workers) as pool:
            return pool.map(_game, jobs, chunksize=8)
    return [_game(j) for j in jobs]


# -- the logistic fit ------------------------------------------------------------

def fit(games, every=2, iterations=12):
    """Weights and their covariance (games as clusters) from ``games``
    (lists of (samples, winner)). Newton's method on the log-likelihood."""
    n = len(FEATURES)
    rows = []
    for g, (samples, winner) in enumerate(games):
        for i in range(0, len(samples), every):
            side, _, x = samples[i]
            rows.append((g, x, won(side, winner)))
    w = [0.0] * n
    for _ in range(iterations):
        grad, hess = _derivatives(rows, w, n)
        step = _solve(hess, grad)
        w = [a + b for a, b in zip(w, step)]
        if max(abs(b) for b in step) < 1e-7:
            break
    return w, _clustered_cov(rows, w, n, len(games))


def _derivatives(rows, w, n):
    grad = [0.0] * n
    hess = [[0.0] * n for _ in range(n)]
    for _, x, y in rows:
        p = _p(w, x)
        r = y - p
        v = p * (1.0 - p)
        for i in range(n):
            grad[i] += r * x[i]
            vi = v * x[i]
            row = hess[i]
            for j in range(i, n):
                row[j] += vi * x[j]
    for i in range(n):
        for j in range(i):
            hess[i][j] = hess[j][i]
    return grad, hess


def _clustered_cov(rows, w, n, count):
    """H^-1 (sum of each game's score outer product) H^-1: the sandwich."""
    _, hess = _derivatives(rows, w, n)
    inv = _inverse(hess)
    scores = [[0.0] * n for _ in range(count)]
    for g, x, y in rows:
        r = y - _p(w, x)
        s = scores[g]
        for i in range(n):
            s[i] += r * x[i]
    meat = [[sum(s[i] * s[j] for s in scores) for j in range(n)] for i in range(n)]
    return _mul(_mul(inv, meat), inv)


def _p(w, x):
    eta = sum(a * b for a, b in zip(w, x))
    eta = max(-40.0, min(40.0, eta))
    return 1.0 / (1.0 + math.exp(-eta))


def _solve(a, b):
    """x with a x = b (Gaussian elimination; a is small and positive definite)."""
    n = len(b)
    m = [list(a[i]) + [b[i]] for i in range(n)]
    for c in range(n):
        pivot = max(range(c, n), key=lambda r: abs(m[r][c]))
        m[c], m[pivot] = m[pivot], m[c]
        if abs(m[c][c]) < 1e-12:
            m[c][c] = 1e-12          # a feature always zero (no points in kendall)
        for r in range(n):
            if r != c:
                f = m[r][c] / m[c][c]
                m[r] = [u - f * v for u, v in zip(m[r], m[c])]
    return [m[i][n] / m[i][i] for i in range(n)]


def _inverse(a):
    n = len(a)
    cols = [_solve(a, [1.0 if i == j else 0.0 for i in range(n)]) for j in range(n)]
    return [[cols[j][i] for j in range(n)] for i in range(n)]


def _mul(a, b):
    return [[sum(a[i][k] * b[k][j] for k in range(len(b))) for j in range(len(b[0]))]
            for i in range(len(a))]


# -- calibration -------------------------------------------------------------------

def calibration(pairs, bins=10):
    """Per bin of the chance given (0-10 %, ..., 90-100 %): (count, mean
    chance given, fraction won); ``pairs`` are (chance, outcome)."""
    table = [[0, 0.0, 0.0] for _ in range(bins)]
    for p, y in pairs:
        b = min(int(p * bins), bins - 1)
        table[b][0] += 1
        table[b][1] += p
        table[b][2] += y
    return [(c, (s / c if c else 0.0), (y / c if c else 0.0)) for c, s, y in table]


def brier(pairs, constant=None):
    """Mean squared error of the chances (or of a ``constant`` chance)."""
    total = 0.0
    for p, y in pairs:
        q = p if constant is None else constant
        total += (q - y) ** 2
    return total / len(pairs)


def calibration_error(pairs):
    """The mean distance between the chance given and the fraction won, over
    the positions (the expected calibration error)."""
    table = calibration(pairs)
    count = sum(c for c, _, _ in table)
    return sum(c * abs(m - f) for c, m, f in table) / count


def given_pairs(games):
    """(chance given with the throw, outcome) of every ply of ``games``."""
    out = []
    for samples, winner in games:
        for side, given, _ in samples:
            if given is not None:
                out.append((given, won(side, winner)))
    return out


# -- the command ---------------------------------------------------------------------

def fit_variant(spec, games, workers, out=sys.stdout):
    """Fit ``spec``'s weights to ``games`` self-play games; scale them so
    that the chances given with a throw in hand come true on half as many
    other games (``temperature``); measure the calibration error left on
    half as many again, unseen by either step."""
    played = play_many(spec, range(FIT_SEEDS, FIT_SEEDS + games), None, workers)
    weights, cov = fit(played)
    fitted = {"weights": weights, "cov": cov, "widen": 0.0, "games": games}
    scaling = play_many(spec, range(SCALE_SEEDS, SCALE_SEEDS + games // 2), fitted, workers)
    t = temperature(given_pairs(scaling))
    fitted["weights"] = [t * v for v in weights]
    fitted["cov"] = [[t * t * v for v in row] for row in cov]
    out.write("%s: weights %s (scaled by %.3f)\n" % (
        spec, " ".join("%.3f" % v for v in fitted["weights"]), t))
    checks = play_many(spec, range(CHECK_SEEDS, CHECK_SEEDS + games // 2), fitted, workers)
    fitted["widen"] = round(calibration_error(given_pairs(checks)), 4)
    out.write("%s: calibration error on %d unseen games %.4f\n" % (spec, games // 2, fitted["widen"]))
    out.flush()
    return fitted


def temperature(pairs, iterations=20):
    """The factor ``t`` for the logit that makes the chances ``pairs``
    ((chance, outcome)) come true most often: the chance given with a throw
    in hand is the best of several moves' chances, which the fit to
    positions between throws does not see."""
    rows = []
    for p, y in pairs:
        p = min(max(p, 1e-6), 1 - 1e-6)
        rows.append((math.log(p / (1 - p)), y))
    t = 1.0
    for _ in range(iterations):
        grad = hess = 0.0
        for z, y in rows:
            q = 1.0 / (1.0 + math.exp(-max(-40.0, min(40.0, t * z))))
            grad += (y - q) * z
            hess += q * (1 - q) * z * z
        step = grad / hess
        t += step
        if abs(step) < 1e-9:
            break
    return t


def _current():
    from host_tools.analysis import fitted
    return fitted.MODELS


def write_models(models, path):
    lines = ['"""The winning-chance model\'s weights, written by host_tools/analysis/fit.py',
             '(``python -m host_tools.analysis.fit``); features in chance.FEATURES order."""',
             "", "MODELS = {"]
    for spec in sorted(models):
        m = models[spec]
        lines.append("    %r: {" % spec)
        lines.append('        "games": %d, "widen": %r,' % (m["games"], m["widen"]))
        lines.append('        "weights": [%s],' % ", ".join("%.6g" % v for v in m["weights"]))
        lines.append('        "cov": [')
        for row in m["cov"]:
            lines.append("            [%s]," % ", ".join("%.6g" % v for v in row))
        lines.append("        ]},")
    lines.append("}")
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m host_tools.analysis.fit",
                                     description="fit the winning-chance model to self-play games")
    parser.add_argument("--games", type=int, required=True,
                        help="games per variant (docs/computer.md says how many were used)")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--only", metavar="SPEC", help="one ruleset variant, e.g. kendall")
    args = parser.parse_args(argv)
    if args.games < 20:
        parser.error("--games must be at least 20")
    specs = [args.only] if args.only else list(VARIANTS)
    models = dict(_current())
    for spec in specs:
        parse_ruleset(spec)
        models[spec] = fit_variant(spec, args.games, args.workers)
        write_models(models, os.path.join(os.path.dirname(__file__), "fitted.py"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
