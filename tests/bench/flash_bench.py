"""Flash wear and work of saving a game, on the Pico's own file system.

    python tests/bench/flash_bench.py [STORE_PY]

Whole games (kendall, slow players: tests/bench/flash_bench.py's
``slow_choice``) are played and saved as the App saves them (after the opening's
1, after every throw, after every move or lost turn, with ``QUIET`` quiet
passes after each save in which the store may write game.json again in the
background: ``Store.work``, if it has one) on littlefs configured
as MicroPython's rp2 port mounts it (tests/lfs_flash.py: 4096-byte blocks,
256-byte pages, 1 KB cache), and the flash chip counts the bytes programmed
and the blocks erased. Printed per move (its throw's save and its own) at
ply 10, 100 and 200: the mean over the ten plies around each (5-14, 95-104,
195-204) of every game that got there, and over whole games.

STORE_PY, if given, is another firmware/store.py to measure (say, an older
commit's: ``git show REV:firmware/store.py > store_old.py``); one
without a file-system seam is given the littlefs through its ``open`` and
``os``. The last line is one JSON object.
"""

import importlib.util
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
sys.path.insert(0, os.path.dirname(os.path.dirname(HERE)))

from engine.game import Game  # noqa: E402
from engine.rules import parse_ruleset  # noqa: E402
from engine.sticks import XorShift  # noqa: E402
from lfs_flash import Flash, PicoFs, mount  # noqa: E402

WINDOWS = {10: range(5, 15), 100: range(95, 105), 200: range(195, 205)}
GAMES = 12
QUIET = 20          # quiet passes after a save (a board at rest gives hundreds)


class _Os:
    """``os`` for a store module that has no seam: littlefs underneath."""

    def __init__(self, fs):
        self.rename = fs.rename
        self.remove = fs.remove
        self.stat = fs.stat


def make_store(path, fs):
    if path is None:
        from firmware.store import Store
        return Store("", fs=fs)
    spec = importlib.util.spec_from_file_location("store_under_test", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    try:
        return module.Store("", fs=fs)
    except TypeError:                    # no seam: the module's globals instead
        module.open = fs.open
        module.os = _Os(fs)
        return module.Store("")


def slow_choice(moves, choose):
    """Players in no hurry: three times in four the move that advances least
    (the games last 200-400 plies, as long ones do on a real board)."""
    if choose.randrange(4):
        return min(moves, key=lambda m: (m.to, m.origin))
    return moves[choose.randrange(len(moves))]


def one_game(store_py, seed):
    """[(bytes programmed, erases)] per ply of one whole game."""
    flash = Flash()
    store = make_store(store_py, PicoFs(mount(flash)))
    game = Game(parse_ruleset("kendall"), rng=XorShift(seed))
    work = getattr(store, "work", None)

    def save():
        store.save(game)
        for _ in range(QUIET if work is not None else 0):
            work()
    game.play_opening()
    save()
    choose = XorShift(seed + 1)
    per_ply = []
    while not game.is_over() and game.ply_count < 1000:
        programmed, erases = flash.programmed, flash.erases
        if game.throw is None:
            game.throw_sticks()
            save()
        moves = game.legal_moves()
        if moves:
            game.play(slow_choice(moves, choose))
        else:
            game.pass_turn()
        save()
        per_ply.append((flash.programmed - programmed, flash.erases - erases))
    store.close()
    return per_ply


def mean(values):
    return sum(values) / len(values) if values else None


def main():
    store_py = sys.argv[1] if len(sys.argv) > 1 else None
    games = [one_game(store_py, seed) for seed in range(1, GAMES + 1)]
    report = {"store": store_py or "firmware/store.py", "games": GAMES,
              "plies": [len(g) for g in games]}
    for ply, window in WINDOWS.items():
        cells = [g[i] for g in games for i in window if i < len(g)]
        report["bytes_per_move_at_%d" % ply] = round(mean([c[0] for c in cells]) or 0)
        report["erases_per_move_at_%d" % ply] = round(mean([c[1] for c in cells]) or 0, 2)
        report["moves_at_%d" % ply] = len(cells)
    every = [c for g in games for c in g]
    report["bytes_per_move"] = round(mean([c[0] for c in every]))
    report["erases_per_move"] = round(mean([c[1] for c in every]), 2)
    for ply in WINDOWS:
        print("ply %3d: %6d bytes programmed, %5.2f erases a move (%d moves)" % (
            ply, report["bytes_per_move_at_%d" % ply], report["erases_per_move_at_%d" % ply],
            report["moves_at_%d" % ply]))
    print("whole games: %d bytes, %.2f erases a move over %d moves" % (
        report["bytes_per_move"], report["erases_per_move"], len(every)))
    print(json.dumps(report))


if __name__ == "__main__":
    main()
