"""The App on the MicroPython unix port: a short scripted game, plain asserts.

Run from the repository root:

    micropython -X heapsize=200k tests/mp/test_app_mp.py [STORE_DIR]

Prints one line per failure and ends with "N passed, N failed".
"""

import gc
import sys

for _p in ("", ".", "tests"):
    if _p not in sys.path:
        sys.path.append(_p)

import engine.movegen  # noqa: E402,F401  (imported lazily otherwise: compile it first)
import firmware.protocol  # noqa: E402,F401
from board_sim import BoardSim, board_at, throws  # noqa: E402
from engine.sticks import XorShift  # noqa: E402
from runner import check, done  # noqa: E402

STORE = sys.argv[1] if len(sys.argv) > 1 else None


def opening_and_plain_move():
    board = BoardSim(rng=throws(2, 1))
    board.setup()
    assert board.last("ready") is not None
    board.press().press()
    assert board.last("start")["player"] == 2
    board.move(10, 11)
    move = board.last("move")
    assert move["move"] == "10-11", move
    assert board.app.state == "throw"


def capture_and_water(store):
    board = board_at("B.W........W.B..........W..... W", store, rng=throws(2, 2, 2))
    board.press()
    board.swap(12, 14)                           # C6
    assert board.last("move")["move"] == "12-14"
    assert board.app.turn == "B"
    board.press()
    moves = [m.text for m in board.app.moves]
    assert moves, moves


def water_by_hand(store):
    board = board_at("B.B.W...................W..... W", store, rng=throws(2))
    board.press()
    board.lift(25).place(27).wait()
    assert board.squares_with("put") == [15]
    board.lift(27).place(15).wait()
    assert board.last("move")["move"] == "25-27"


def resume(store):
    board = BoardSim(store_dir=store, rng=throws(1))
    board.setup().press().move(10, 11)
    again = BoardSim(store_dir=store, rng=throws())
    again.setup()
    assert again.last("ready")["resumed"] is True
    assert again.app.position == board.app.position


def whole_game():
    rng = XorShift(4)
    board = BoardSim(config={"ruleset": "hungarian"}, rng=rng)
    board.setup()

    def forget(b):
        b.events = []                  # the heap is small: forget what was said
        gc.collect()

    board.play_to_the_end(rng, 3000, forget)
    assert board.app.state == "game_over"


def idle_steps_allocate_nothing():
    import micropython
    board = BoardSim(rng=throws(1))
    board.setup().press()
    app = board.app
    t = board.t + 1000
    for dt in range(6):                      # the throw's boards on the way, a move a pass
        app.step(t - 500 + dt * 10, board.occ, False)
    app.step(t, board.occ, False)            # a redraw is due: draw it now
    gc.collect()
    micropython.heap_lock()
    try:
        for dt in (5, 10, 15, 20, 25, 30):   # within one frame period: idle
            app.step(t + dt, board.occ, False)
    finally:
        micropython.heap_unlock()


def garbage_command():
    from firmware.protocol import parse_command
    board = BoardSim(rng=throws(1))
    board.setup()
    before = board.app.position
    for line in ("nope", "[1]", '{"cmd": "fly"}', '{"cmd": "new", "ruleset": "chess"}'):
        cmd, err = parse_command(line)
        assert cmd is None and err["event"] == "error"
    assert board.app.position == before


check("opening_and_plain_move", opening_and_plain_move)
check("garbage_command", garbage_command)
check("idle_steps_allocate_nothing", idle_steps_allocate_nothing)
if STORE:
    check("capture_and_water", lambda: capture_and_water(STORE + "/a"))
    check("water_by_hand", lambda: water_by_hand(STORE + "/b"))
    check("resume", lambda: resume(STORE + "/c"))
check("whole_game", whole_game)
gc.collect()
sys.exit(done())
