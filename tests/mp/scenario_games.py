"""The whole games of tests/mp/test_scenarios_mp.py, loaded by it once
the single stories are done and forgotten."""

import gc
import os

from board_sim import BoardSim, throws
from engine.sticks import XorShift
from scenario_hands import Hands, folder, play_game

# -- whole games ----------------------------------------------------------------

RULESETS = [
    ({"ruleset": "kendall"}, 3),
    ({"ruleset": "hungarian"}, 4),
    ({"ruleset": "hungarian", "options": {"no_move": "end"}}, 5),
]


def a_whole_game_saved_after_every_move_and_throw(config, seed):
    """Every save of a whole game succeeds (a failed one is a notice, which
    play_game turns into a failure), and the last one resumes."""
    store = folder()
    want = played(config, seed, store_dir=store)
    gc.collect()
    assert resumed(config, store) == want


def played(config, seed, chatter=None, slide=False, store_dir=None):
    """The identity of a whole game played from ``seed`` (and, with chatter,
    how many bounces), made in a frame of its own: once it returns, nothing
    of the game's board is left for the garbage collector to find in a
    stale stack slot while the next App is made."""
    if chatter is None and not slide:
        board = BoardSim(config=config, store_dir=store_dir, rng=XorShift(seed))
    else:
        board = Hands(chatter=chatter, slide=slide, config=config, store_dir=store_dir,
                      rng=XorShift(seed))
    play_game(board, seed)
    if chatter is None:
        return identity(board.app.game)
    return identity(board.app.game), board.bounces


def resumed(config, store):
    """The identity of the game a new App resumes from ``store``."""
    return identity(BoardSim(config=config, store_dir=store, rng=throws()).app.game)


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


def whole_games_with_chatter_follow_the_clean_game(config, seed, slide=False):
    want = played(config, seed)
    gc.collect()
    got, bounces = played(config, seed, chatter=XorShift(seed + 7), slide=slide)
    assert bounces > 500, bounces
    assert got == want, (got, want)


def commits(events):
    for e in events:
        kind = e["event"]
        if kind in ("start", "move", "pass", "game_over", "new", "undo"):
            return True
        if kind == "throw" and e["side"] is not None:
            return True
    return False


def power_cuts_after_the_steps_of_a_game(config, seed, every):
    """After every step that commits and every ``every``-th other step, a
    new App on the same folder resumes exactly the game last committed; a
    torn game.tmp beside game.json gives the game before."""
    store = folder()
    board = BoardSim(config=config, store_dir=store, rng=XorShift(seed))
    last = [identity(board.app.game), None, 0]
    step = board.step

    def step_and_cut():
        out = step()
        last[2] += 1
        committed = commits(out)
        if committed:
            last[0] = identity(board.app.game)
        if committed or last[2] % every == 0:
            got = resumed(config, store)
            assert got == last[0], (last[2], got, last[0], out)
            last[1] = (last[1] or 0) + 1
        return out

    board.step = step_and_cut
    play_game(board, seed)
    assert last[1] > 100, last[1]
    # torn: the finished game's save half written beside the one before it
    f = open(store + "/game.json")
    new = f.read()
    f.close()
    f = open(store + "/game.tmp", "w")
    f.write(new[:len(new) // 2])
    f.close()
    got = resumed(config, store)
    assert got == last[0]
    os.remove(store + "/game.json")
    got = BoardSim(config=config, store_dir=store, rng=throws())
    assert got.app.position == got.app.game.start.text()       # unreadable: new game
    assert got.step()[0]["message"] == "saved game unreadable, new game started"


def run(check):
    for config, seed in RULESETS:
        check("whole_game_with_chatter %s" % config["ruleset"],
              whole_games_with_chatter_follow_the_clean_game, False, (config, seed))
    check("whole_game_slid_with_chatter",
          lambda: whole_games_with_chatter_follow_the_clean_game({"ruleset": "kendall"}, 3, True))
    for config, seed in RULESETS[:2]:
        check("whole_game_saved %s" % config["ruleset"],
              a_whole_game_saved_after_every_move_and_throw, True, (config, seed))
    check("power_cuts kendall",
          lambda: power_cuts_after_the_steps_of_a_game({"ruleset": "kendall"}, 3, 200), True)
