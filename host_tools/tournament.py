"""`senet-board tournament`: computer levels against each other.

    senet-board tournament --games 1000 --pairs "4:random,4:greedy" --seed 7

Players: ``1``..``4`` (the levels of ``engine.ai``), ``random`` (a uniformly
random legal move) and ``greedy`` (the move that advances the mover's pieces
furthest: the largest gain in the sum of its pieces' squares, a piece off the
board counting as square 31, so a capture swap or the water counts against
the mover only as the squares it really loses; ties go to the frontmost
piece).

Fairness: games come in pairs with the same seed, the first player taking the
starting side (K4, H4) in one and the other side in the next, so each player
starts equally often and meets the same opening throws.  The seed of game
``k`` follows from ``--seed``, the ruleset and ``k`` only, so the results
are the same whatever ``--jobs`` is.

Win rates are printed with 95% Wilson score intervals.
"""

import math
import multiprocessing
import sys
import time

from engine import parse_ruleset
from engine.ai import choose_move
from engine.game import play_game
from engine.position import OFF

PLAYERS = ("1", "2", "3", "4", "random", "greedy")
DEFAULT_PAIRS = "4:random,4:greedy,4:3,3:2,2:1"


def add_arguments(parser):
    parser.add_argument("--games", type=int, default=200,
                        help="games per pair and ruleset, a positive even number (each "
                        "player starts in half of them; default 200)")
    parser.add_argument("--ruleset", action="append", default=None,
                        help="kendall, hungarian, or with options like "
                             "hungarian:no_move=end; repeat for several (default both)")
    parser.add_argument("--pairs", default=DEFAULT_PAIRS,
                        help="comma-separated A:B pairs of players 1-4, random, greedy "
                             "(default %s)" % DEFAULT_PAIRS)
    parser.add_argument("--seed", type=int, default=1, help="base seed (default 1)")
    parser.add_argument("--jobs", type=int, default=2,
                        help="worker processes, 1 or more (default 2)")
    parser.add_argument("--budget", type=int, default=None,
                        help="node budget for level 4 (default: the level's own)")
    parser.add_argument("--quiet", action="store_true",
                        help="no progress bar (there is none when stderr is not a terminal)")


# -- players ---------------------------------------------------------------

def progress(position, side):
    """Sum of ``side``'s squares, a piece off the board counting as OFF."""
    code = ord(side)
    cells = position.cells
    total = 0
    for s in range(1, 31):
        if cells[s] == code:
            total += s
    return total


def greedy_move(rs, moves):
    """The move that advances the mover furthest; ties: the frontmost piece."""
    best = None
    best_key = None
    for move in moves:
        side = move.side
        gain = progress(move.after, side) - progress(move.before, side)
        if move.leaves:
            gain += OFF
        key = (gain, move.origin)
        if best_key is None or key > best_key:
            best, best_key = move, key
    return best


def make_chooser(name, rs, budget=None):
    """choose(game, moves, rng) for ``play_game``."""
    if name == "random":
        return lambda game, moves, rng: moves[rng.randrange(len(moves))]
    if name == "greedy":
        return lambda game, moves, rng: greedy_move(rs, moves)
    level = int(name)

    def choose(game, moves, rng):
        if len(moves) == 1:
            return moves[0]
        return choose_move(rs, game.position, game.throw, level, rng=rng,
                           budget=budget if level == 4 else None)
    return choose


def game_seed(seed, spec, pair_index):
    """A seed per game pair, from the base seed and the ruleset only."""
    h = seed & 0xFFFFFFFF
    for ch in spec:
        h = (h * 31 + ord(ch)) & 0xFFFFFFFF
    return (h * 1000003 + pair_index * 7919 + 1) & 0x7FFFFFFF


def play_one(task):
    """Play game ``index`` of ``a`` against ``b``; return (key, result, plies).

    result: 1 if ``a`` won, 0 if ``b`` won, 0.5 for a draw (H14 option).
    """
    spec, a, b, index, seed, budget = task
    rs = parse_ruleset(spec)
    first = rs.starting_side()
    a_side = first if index % 2 == 0 else ("W" if first == "B" else "B")
    choosers = {a_side: make_chooser(a, rs, budget),
                ("W" if a_side == "B" else "B"): make_chooser(b, rs, budget)}

    def choose(game, moves, rng):
        return choosers[game.position.turn](game, moves, rng)

    game = play_game(rs, game_seed(seed, spec, index // 2), choose)
    if game.winner is None:
        result = 0.5
    else:
        result = 1 if game.winner == a_side else 0
    return (spec, a, b), result, game.ply_count, index % 2 == 0


# -- statistics ------------------------------------------------------------

def wilson(wins, n, z=1.96):
    """95% Wilson score interval for a proportion: (low, high)."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


class Tally:
    def __init__(self):
        self.games = 0
        self.wins = 0.0
        self.draws = 0
        self.wins_starting = 0.0
        self.games_starting = 0
        self.plies = 0

    def add(self, result, plies, a_started):
        self.games += 1
        self.wins += result
        if result == 0.5:
            self.draws += 1
        if a_started:
            self.games_starting += 1
            self.wins_starting += result
        self.plies += plies


def parse_pairs(text):
    pairs = []
    for item in text.split(","):
        item = item.strip()
        if not item:
            continue
        a, sep, b = item.partition(":")
        if not sep or a not in PLAYERS or b not in PLAYERS:
            raise ValueError("pair must be A:B with players from %s, got %r"
                             % (", ".join(PLAYERS), item))
        pairs.append((a, b))
    return pairs


def tasks_for(specs, pairs, games, seed, budget):
    tasks = []
    for spec in specs:
        for a, b in pairs:
            for index in range(games):
                tasks.append((spec, a, b, index, seed, budget))
    return tasks


def play_all(tasks, jobs=1, progress_to=None):
    """Play every task; return {(spec, a, b): Tally}, the same for any ``jobs``."""
    tallies = {}
    for spec, a, b, _, _, _ in tasks:
        tallies.setdefault((spec, a, b), Tally())
    bar = ProgressBar(len(tasks), progress_to)
    if jobs <= 1:
        results = map(play_one, tasks)
        for key, result, plies, started in results:
            tallies[key].add(result, plies, started)
            bar.step()
    else:
        with multiprocessing.Pool(jobs) as pool:
            for key, result, plies, started in pool.imap_unordered(play_one, tasks, chunksize=4):
                tallies[key].add(result, plies, started)
                bar.step()
    bar.done()
    return tallies


def progress_stream(stream):
    """``stream`` if someone watches it (a terminal), else None: a bar
    redrawn with carriage returns only clutters a pipe or a log file."""
    isatty = getattr(stream, "isatty", None)
    return stream if isatty is not None and isatty() else None


class ProgressBar:
    """A one-line bar on stderr, redrawn at most a few times a second."""

    def __init__(self, total, stream):
        self.total = total
        self.count = 0
        self.stream = stream
        self.started = time.time()
        self.drawn = 0.0

    def step(self):
        self.count += 1
        now = time.time()
        if self.stream is not None and (now - self.drawn > 0.25 or self.count == self.total):
            self.drawn = now
            self.draw(now)

    def draw(self, now):
        width = 30
        filled = width * self.count // max(1, self.total)
        elapsed = now - self.started
        eta = elapsed / self.count * (self.total - self.count) if self.count else 0
        self.stream.write("\r[%s%s] %d/%d games  %ds elapsed  ~%ds left " % (
            "#" * filled, "." * (width - filled), self.count, self.total, elapsed, eta))
        self.stream.flush()

    def done(self):
        if self.stream is not None:
            self.stream.write("\n")
            self.stream.flush()


def report(tallies, specs, pairs, seed, budget):
    lines = ["seed %d%s" % (seed, "" if budget is None else ", level-4 budget %d nodes" % budget),
             "%-12s %-14s %6s %8s %-17s %9s %7s" % (
                 "ruleset", "A vs B", "games", "A wins", "95% CI (Wilson)",
                 "A started", "plies")]
    for spec in specs:
        for a, b in pairs:
            t = tallies[(spec, a, b)]
            rate = t.wins / t.games if t.games else 0.0
            low, high = wilson(t.wins, t.games)
            start_rate = t.wins_starting / t.games_starting if t.games_starting else 0.0
            lines.append("%-12s %-14s %6d %7.1f%% [%5.1f%%, %5.1f%%] %8.1f%% %7.0f" % (
                spec, "%s vs %s" % (a, b), t.games, 100 * rate, 100 * low, 100 * high,
                100 * start_rate, t.plies / max(1, t.games)))
            if t.draws:
                lines.append("%-12s   (%d draws counted as half a win)" % ("", t.draws))
    return "\n".join(lines)


def check_counts(games, jobs):
    """The sentence refusing ``--games`` or ``--jobs``, or None. Games come in
    pairs of seats (each player starts one of each pair), so an odd count
    would play a game the user did not ask for."""
    if games < 2 or games % 2:
        return ("--games must be a positive even number (each player starts half of "
                "the games), not %d" % games)
    if jobs < 1:
        return "--jobs must be 1 or more, not %d" % jobs
    return None


def run(args):
    specs = args.ruleset or ["kendall", "hungarian"]
    problem = check_counts(args.games, args.jobs)
    if problem:
        sys.stderr.write("senet-board tournament: %s\n" % problem)
        return 2
    try:
        for spec in specs:
            parse_ruleset(spec)
        pairs = parse_pairs(args.pairs)
        if not pairs:
            raise ValueError("--pairs names no pair: give A:B, e.g. 4:random")
    except ValueError as exc:
        sys.stderr.write("senet-board tournament: %s\n" % exc)
        return 2
    tasks = tasks_for(specs, pairs, args.games, args.seed, args.budget)
    tallies = play_all(tasks, args.jobs, None if args.quiet else progress_stream(sys.stderr))
    print(report(tallies, specs, pairs, args.seed, args.budget))
    return 0
