"""The whole games of tests/mp/test_scenarios_mp.py, loaded by it once
the single stories are done and forgotten."""

import gc
import json
import os

import scenario_hands

from board_sim import BoardSim, throws
from firmware.app import App
from engine.sticks import XorShift
from scenario_hands import Hands, _quiet, folder, identity, play_game

# -- whole games ----------------------------------------------------------------

RULESETS = [
    ({"ruleset": "kendall"}, 3),
    ({"ruleset": "hungarian"}, 4),
    ({"ruleset": "hungarian", "options": {"no_move": "end"}}, 5),
]


def label(config):
    """"kendall", "hungarian", "hungarian:no_move=end": a name per ruleset."""
    options = config.get("options") or {}
    return config["ruleset"] + "".join(":%s=%s" % (k, options[k]) for k in sorted(options))


def a_whole_game_saved_after_every_move_and_throw(config, seed):
    """Every save of a whole game succeeds (a failed one is a notice, which
    play_game turns into a failure), and the last one resumes."""
    store = folder()
    want = played(config, seed, store_dir=store)
    gc.collect()
    if scenario_hands.APART:
        # the board is switched off: tests/mp/scenario_power.py resumes it
        f = open(store + "/want.json", "w")
        f.write(json.dumps({"config": config, "game": list(want), "state": None}))
        f.close()
        print("POWER-ON", store)
        return
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


def whole_games_with_chatter_follow_the_clean_game(config, seed, slide=False):
    want = played(config, seed)
    gc.collect()
    got, bounces = played(config, seed, chatter=XorShift(seed + 7), slide=slide)
    assert bounces > 500, bounces
    assert got == want, (got, want)


def power_cuts_through_a_whole_game(config, seed, every):
    """The plug is pulled after every ``every``-th action of a whole game (a
    throw, a move, a wait for the lights), as on the board: the App is gone
    and a new one starts on the same folder. It resumes exactly the game
    that was being played, asks for the pieces (they stand where they were),
    and the game goes on from there to its end. Then a torn game.tmp beside
    game.json and its log gives the game before, and a torn game.tmp alone
    (the first save of a fresh board, cut short) starts a new game without a
    notice."""
    store = folder()
    rng = XorShift(seed)
    board = BoardSim(config=config, store_dir=store, rng=rng)
    cuts = [0, 0]

    def cut(board):
        _quiet(board)
        cuts[0] += 1
        # A cut in the opening only loses throws nobody has to keep (the
        # players throw again); everywhere else the game must come back.
        if cuts[0] % every or board.app.state == "opening":
            return
        want = identity(board.app.game)
        board.app = None               # the power is off: this App is gone
        gc.collect()
        board.app = App(config=config, store_dir=store, rng=rng)
        got = identity(board.app.game)
        assert got == want, (cuts[0], got, want)
        board.wait()                   # the setup check finds every piece in place
        assert board.app.state != "setup", board.app.state
        if board.app.state == "nomove":
            board.wait(2500)           # shown again in full, then the turn is lost
        cuts[1] += 1

    board.setup()
    board.play_to_the_end(XorShift(seed + 1000), 3000, cut)
    assert cuts[1] > 50, cuts
    last = identity(board.app.game)
    board = None
    gc.collect()
    # torn: a rewrite of the save cut short beside the game it replaces
    f = open(store + "/game.json")
    new = f.read()
    f.close()
    torn = new[:len(new) // 2]
    new = None
    f = open(store + "/game.tmp", "w")
    f.write(torn)
    f.close()
    assert resumed(config, store) == last
    os.remove(store + "/game.json")
    f = open(store + "/game.tmp", "w")
    f.write(torn)
    f.close()
    got = BoardSim(config=config, store_dir=store, rng=throws())
    assert got.app.position == got.app.game.start.text()       # nothing saved: new game
    assert got.step() == [] and got.events_of("notice") == []


def run(check):
    for config, seed in RULESETS:
        check("whole_game_with_chatter %s" % label(config),
              whole_games_with_chatter_follow_the_clean_game, False, (config, seed))
    check("whole_game_slid_with_chatter",
          lambda: whole_games_with_chatter_follow_the_clean_game({"ruleset": "kendall"}, 3, True))
    for config, seed in RULESETS[:2]:
        check("whole_game_saved %s" % label(config),
              a_whole_game_saved_after_every_move_and_throw, True, (config, seed))
    for config, seed in RULESETS[:2]:
        check("power_cuts %s" % label(config),
              power_cuts_through_a_whole_game, True, (config, seed, 2))
