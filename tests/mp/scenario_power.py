"""One power-on of a board, on the MicroPython unix port: the stories of
tests/mp/scenario_games.py whose point is a power cut, with every power-on
in a fresh interpreter, as on the board (a cut empties the Pico's heap).

    micropython -X heapsize=96K -m scenario_power STORE LIB resume
    micropython -X heapsize=96K -m scenario_power STORE LIB cuts RULESET SEED EVERY

``resume``: a new App on STORE resumes exactly the game in STORE/want.json
(written by the story that played it).

``cuts``: the board is switched on, resumes the game in STORE (the first
time: starts one), finds the pieces where they stood, and plays on, a
visitor's random choice at a time, until the plug is pulled after every
EVERY-th action (a throw, a move, a wait for the lights; never during the
opening, whose throws nobody has to keep). What the hands were about to do
next (the random sources' states) and the game that was being played are
written to STORE/hands.json for the next power-on. Prints "cut N" or, at
the end of the game, "over N".

The last line is the count of tests/mp/runner.py's harness: "1 passed, 0 failed",
or, after the failure, "0 passed, 1 failed".
"""

import json
import sys

STORE = sys.argv[1]
LIB = sys.argv[2]
sys.path.insert(0, LIB)

from board_sim import BoardSim  # noqa: E402
from engine.position import Position  # noqa: E402
from engine.sticks import XorShift  # noqa: E402
from runner import check, done  # noqa: E402
from scenario_hands import _quiet, identity  # noqa: E402


def read(name):
    try:
        f = open(STORE + "/" + name)
    except OSError:
        return None
    try:
        return json.loads(f.read())
    finally:
        f.close()


def write(name, data):
    f = open(STORE + "/" + name, "w")
    f.write(json.dumps(data))
    f.close()


def config_of(label):
    name, _, option = label.partition(":")
    config = {"ruleset": name}
    if option:
        key, _, value = option.partition("=")
        config["options"] = {key: value}
    return config


def resume():
    want = read("want.json")
    board = BoardSim(config=want["config"], store_dir=STORE, rng=XorShift(1))
    got = json.loads(json.dumps(identity(board.app.game)))    # tuples as lists
    assert got == want["game"], (got, want["game"])
    if want.get("state"):
        board.setup()                  # the pieces put where the game says
        assert board.app.state == want["state"], board.app.state


class Cut(Exception):
    pass


def cuts(label, seed, every):
    config = config_of(label)
    hands = read("hands.json")
    rng = XorShift(seed)
    choose = XorShift(seed + 1000)
    if hands is None:
        board = BoardSim(config=config, store_dir=STORE, rng=rng)
        board.setup()
        done = 0
    else:
        rng.state = hands["rng"]
        choose.state = hands["choose"]
        done = hands["actions"]
        board = BoardSim(config=config, store_dir=STORE, rng=rng, t=hands["t"])
        got = json.loads(json.dumps(identity(board.app.game)))
        assert got == hands["game"], (done, got, hands["game"])
        # the pieces stand where they stood when the power went
        board.set_board(Position.parse(board.app.position).occupancy())
        assert board.app.state != "setup", board.app.state
        if board.app.state == "nomove":
            board.wait(2500)           # shown again in full, then the turn is lost
    count = [done]

    def after_action(board):
        _quiet(board)
        count[0] += 1
        if count[0] % every == 0 and board.app.state != "opening":
            raise Cut()

    try:
        board.play_to_the_end(choose, 3000, after_action)
    except Cut:
        write("hands.json", {"rng": rng.state, "choose": choose.state, "actions": count[0],
                             "t": board.t, "game": identity(board.app.game)})
        print("cut %d" % count[0])
        return
    print("over %d" % count[0])


if sys.argv[3] == "resume":
    check(sys.argv[3:], resume)
else:
    check(sys.argv[3:], cuts, sys.argv[4], int(sys.argv[5]), int(sys.argv[6]))
sys.exit(done())
