"""Are the analysis's winning chances true? And how long does a game take?

    python tests/bench/analysis_bench.py [--games 1000] [--workers 2]

Plays ``--games`` seeded self-play games in each ruleset (kendall and
hungarian; seeds no fit has seen), both sides playing the move the analysis
rates best, and notes at every ply the chance the analysis gives the side to
move with its throw (host_tools.analysis: ``chance``), then who won. Prints:

- the calibration table by bins of the chance given (0-10 %, ..., 90-100 %):
  positions, mean chance given, fraction actually won; the 60-70 % bin must
  come out won 60-70 % of the time (exit status 1 if not);
- the Brier score beside that of a constant 50 %;
- how often the analysis's best move is the computer's at levels 2, 3, 4;
- the time ``analyse()`` takes over a whole game of about 150 plies.

docs/computer.md ("Winning chances") quotes its output.
"""

import argparse
import multiprocessing
import os
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, ROOT)

from engine import ruleset                                      # noqa: E402
from engine.ai import choose_move                               # noqa: E402
from engine.game import play_game                               # noqa: E402
from engine.record import record                                # noqa: E402
from host_tools.analysis import analyse                         # noqa: E402
from host_tools.analysis.chance import model_for, move_chances  # noqa: E402
from host_tools.analysis.fit import (                           # noqa: E402
    self_play, calibration, brier, given_pairs)

BENCH_SEEDS = 5000000
RULESETS = ("kendall", "hungarian")


def _game(job):
    spec, seed = job
    rs = ruleset(spec)
    return self_play(rs, seed, model_for(rs))


def play(spec, count, workers):
    jobs = [(spec, BENCH_SEEDS + s) for s in range(count)]
    if workers > 1:
        with multiprocessing.Pool(workers) as pool:
            return pool.map(_game, jobs, chunksize=8)
    return [_game(j) for j in jobs]


def print_table(title, pairs, out):
    out.write("%s: %d positions\n" % (title, len(pairs)))
    out.write("  chance given   positions   mean given   fraction won\n")
    for b, (count, given, won) in enumerate(calibration(pairs)):
        out.write("  %3d-%3d %%     %9d   %9.1f %%   %10.1f %%\n" % (
            10 * b, 10 * b + 10, count, 100 * given, 100 * won))
    out.write("  Brier score %.4f; a constant 50 %% scores %.4f\n" % (
        brier(pairs), brier(pairs, constant=0.5)))


def agreement(spec, games, out, positions=300):
    """How often the analysis's best move is each computer level's choice,
    over positions with at least two legal moves, from seeded random games."""
    rs = ruleset(spec)
    model = model_for(rs)
    same = {2: 0, 3: 0, 4: 0}
    seen = 0
    seed = BENCH_SEEDS + 900000
    while seen < positions:
        game = play_game(rs, seed)
        seed += 1
        for side, throw, move, before in game.history[::7]:
            if len(rs.legal_moves(before, throw)) < 2:
                continue
            best = move_chances(model, rs, before, throw)[0][0].text
            for level in same:
                same[level] += choose_move(rs, before, throw, level=level).text == best
            seen += 1
    out.write("  best move = the computer's, over %d positions with a choice: %s\n" % (
        seen, ", ".join("level %d %d %%" % (lv, round(100.0 * same[lv] / seen)) for lv in (2, 3, 4))))


def timing(spec, out, plies=150):
    """analyse() over a seeded game of about ``plies`` plies: the fastest of three."""
    rs = ruleset(spec)
    seed = 1
    while True:
        game = play_game(rs, seed)
        if abs(game.ply_count - plies) <= 5:
            break
        seed += 1
    text = record(game)
    best = None
    for _ in range(3):
        started = time.perf_counter()
        result = analyse(text)
        took = time.perf_counter() - started
        best = took if best is None else min(best, took)
    out.write("  analyse(): %d plies (seeded game %d) in %.2f s (fastest of 3; %d marked as "
              "mistakes)\n" % (len(result["plies"]), seed, best, len(result["mistakes"])))
    return best


def main(argv=None, out=sys.stdout):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=1000, help="games per ruleset (1000)")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args(argv)
    started = time.perf_counter()
    everything = []
    for spec in RULESETS:
        games = play(spec, args.games, args.workers)
        pairs = given_pairs(games)
        everything += pairs
        print_table("%s, %d self-play games" % (spec, len(games)), pairs, out)
        agreement(spec, games, out)
        timing(spec, out)
    print_table("both rulesets, %d games" % (args.games * len(RULESETS)), everything, out)
    count, given, won = calibration(everything)[6]
    ok = count > 0 and 0.6 <= won < 0.7
    out.write("60-70 %% bin: %d positions, won %.1f %%: %s\n" % (
        count, 100 * won, "within 60-70 %" if ok else "OUTSIDE 60-70 %"))
    out.write("run time %.0f s on %d worker(s)\n" % (time.perf_counter() - started, args.workers))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
