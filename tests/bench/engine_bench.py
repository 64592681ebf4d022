"""Move generation and whole-game speed, on CPython or MicroPython.

    python tests/bench/engine_bench.py
    micropython -X heapsize=192k tests/bench/engine_bench.py
    mpremote mount . run tests/bench/engine_bench.py      # on a Pico

Run from the repository's root: ``engine`` and ``tests/bench`` are found by
fixed relative paths, since on a Pico through a raw REPL there is no
``__file__``.

Prints its figures, then as its last line one JSON object with
``calibration_ms``, ``legal_moves_us`` (mean per call over a fixed set of
mid-game positions of both rulesets, every throw), ``random_game_ms`` (mean for
one whole random game, throws and moves), their Pico-equivalents
``pico_legal_moves_ms`` and ``pico_random_game_ms``, and on MicroPython
``peak_heap_bytes`` (the most gc.mem_alloc() reached, collecting after every
ply, while playing one game of each ruleset).
See calibration.py for how a Pico figure is made.
"""

import gc
import sys

sys.path.insert(0, ".")
sys.path.insert(0, "tests/bench")

from calibration import PICO_MS, calibrate, pico_ms, best_us, ticks_us, ticks_diff  # noqa: E402
from engine import ruleset, Position  # noqa: E402
from engine.game import Game  # noqa: E402
from engine.sticks import XorShift  # noqa: E402

RULESETS = ("kendall", "hungarian")
POSITIONS_PER_RULESET = 120      # 240 positions, each with every throw
GAMES_PER_RULESET = 6
MICROPYTHON = sys.implementation.name == "micropython"


def mid_game_positions(rs, count, seed):
    """Every 4th position from ply 12 on of seeded random games: a fixed set."""
    found = []
    game_seed = seed
    while len(found) < count:
        rng = XorShift(game_seed)
        game = Game(rs, rng)
        game.play_opening()
        ply = 0
        while not game.is_over() and len(found) < count:
            if game.throw is None:
                game.throw_sticks()
            moves = game.legal_moves()
            if ply >= 12 and ply % 4 == 0:
                found.append(game.position.text())
            if moves:
                game.play(moves[rng.randrange(len(moves))])
            else:
                game.pass_turn()
            ply += 1
        game_seed += 1
    return found


def random_game(rs, seed, each_ply=None):
    """Play a whole seeded random game; call ``each_ply()`` after every ply."""
    rng = XorShift(seed)
    game = Game(rs, rng)
    game.play_opening()
    while not game.is_over():
        if game.throw is None:
            game.throw_sticks()
        moves = game.legal_moves()
        if moves:
            game.play(moves[rng.randrange(len(moves))])
        else:
            game.pass_turn()
        moves = None
        if each_ply is not None:
            each_ply()
    return game.ply_count


def live_peak():
    """Most live heap (collected each ply) while playing one game of each ruleset."""
    most = [0]

    def sample():
        gc.collect()
        most[0] = max(most[0], gc.mem_alloc())

    for name in RULESETS:
        random_game(ruleset(name), 1, sample)
        gc.collect()
    return most[0]


def main():
    calibration = calibrate()
    report = {}

    calls = 0
    total_us = 0.0
    for name in RULESETS:
        rs = ruleset(name)
        texts = mid_game_positions(rs, POSITIONS_PER_RULESET, 100)
        positions = [Position.parse(t) for t in texts]
        texts = None
        for throw in rs.throw_values:
            def every_position():
                for position in positions:
                    rs.legal_moves(position, throw)
            # one timed pass over the whole set, best of 5: no timer per call
            total_us += best_us(every_position, 1, repeats=5)
            calls += len(positions)
        positions = None
        gc.collect()
    legal_us = total_us / calls
    calibration = min(calibration, calibrate())
    print("legal_moves: %d calls (%d positions x 5 throws), %.1f us a call" % (
        calls, calls // 5, legal_us))

    games = 0
    plies = 0
    best_game_ms = 0.0
    for name in RULESETS:
        rs = ruleset(name)
        for seed in range(GAMES_PER_RULESET):
            best = None
            for _ in range(3):
                start = ticks_us()
                n = random_game(rs, seed)
                took = ticks_diff(ticks_us(), start) / 1000
                best = took if best is None or took < best else best
            best_game_ms += best
            plies += n
            games += 1
            gc.collect()
    game_ms = best_game_ms / games
    # calibrate again: the fastest of all runs is the machine's unloaded speed
    calibration = min(calibration, calibrate())
    report["calibration_ms"] = round(calibration, 2)
    print("random games: %d, %.0f plies on average, %.1f ms a game" % (games, plies / games, game_ms))
    print("calibration loop: %.1f ms here (%d ms on a Pico)" % (calibration, PICO_MS))

    report["legal_moves_us"] = round(legal_us, 2)
    report["random_game_ms"] = round(game_ms, 2)
    report["pico_legal_moves_ms"] = round(pico_ms(legal_us / 1000, calibration), 3)
    report["pico_random_game_ms"] = round(pico_ms(game_ms, calibration), 1)
    if MICROPYTHON:
        report["peak_heap_bytes"] = live_peak()
    print("Pico-equivalent: legal_moves %.2f ms a call, a random game %.0f ms" % (
        report["pico_legal_moves_ms"], report["pico_random_game_ms"]))
    import json
    print(json.dumps(report))


main()
