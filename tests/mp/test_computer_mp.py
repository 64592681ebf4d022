"""Playing against the computer on the MicroPython unix port, plain asserts.

Run from the repository root (STORE_DIR must hold empty folders a and b):

    micropython -X heapsize=180k tests/mp/test_computer_mp.py [STORE_DIR]

Prints the time of the step in which the computer chose its move (raw and
Pico-equivalent, through the calibration loop of tests/bench/calibration.py),
one line per failure, and ends with "N passed, N failed".
"""

import gc
import sys
import time

for _p in ("", ".", "tests", "tests/bench"):
    if _p not in sys.path:
        sys.path.append(_p)

import engine.movegen  # noqa: E402,F401  (imported lazily otherwise: compile it first)
import engine.ai  # noqa: E402,F401  (the same: the computer imports it on its first move)
from board_sim import BoardSim, board_at, throws  # noqa: E402
from calibration import calibrate, pico_ms  # noqa: E402
from engine.sticks import XorShift  # noqa: E402
from runner import check, done  # noqa: E402

STORE = sys.argv[1] if len(sys.argv) > 1 else None
TWO_WAYS = "..B.W..W.............B......W. B"
# the slowest level-4 position of tests/bench/ai_bench.py, black to move
BUSY = "WBB...B..W.....W..B.W.B....... B"


def computer(level):
    return {"mode": "computer", "computer": {"side": "B", "level": level}}


def timed_until(board, kind, ms=5000):
    """Step until an event ``kind``; return (event, ms of the slowest step)."""
    end = board.t + ms
    slowest = 0
    while board.t < end:
        start = time.ticks_us()
        out = board.step()
        took = time.ticks_diff(time.ticks_us(), start) / 1000
        if took > slowest:
            slowest = took
        for e in out:
            if e["event"] == kind:
                return e, slowest
    return None, slowest


def shown_and_carried_out(store):
    board = board_at(TWO_WAYS, store, rng=throws(2), config=computer(2))
    throw, _ = timed_until(board, "throw")
    assert throw["by"] == "computer", throw
    chosen, _ = timed_until(board, "computer")
    assert chosen["move"] == "3-5", chosen
    assert board.squares_with("computer_from") == [3]
    assert board.squares_with("computer_to") == [5]
    board.move(22, 24)                              # not its move
    assert board.events_of("move") == [] and board.last("mismatch") is not None
    board.move(24, 22)
    board.swap(3, 5)                                # C6
    assert board.last("move")["move"] == "3-5", board.last("move")


def a_whole_game():
    """Level 2 against random moves to the end; only counts are kept (a
    game's worth of event dicts would not fit the heap)."""
    seed = 5
    board = BoardSim(config=computer(2), rng=XorShift(seed))
    pick = XorShift(seed + 1)
    board.setup()
    shown = None
    counts = {"move": 0, "computer": 0, "mismatch": 0, "same": 0}
    over = None
    for _ in range(3000):
        for e in board.events:
            kind = e["event"]
            if kind in counts:
                counts[kind] += 1
            if kind == "computer":
                shown = e["move"]
            elif kind == "move" and e["side"] == "B" and e["move"] == shown:
                counts["same"] += 1
            elif kind == "game_over":
                over = e
        board.clear()
        app = board.app
        state = app.state
        if state == "game_over":
            break
        if state == "opening":
            if app.led_roles[app.config["leds"]["side_white"]] == "turn":
                board.press()
            else:
                board.wait(100)
        elif state == "throw":
            if app.turn == "B":
                board.wait(100)
            else:
                board.press()
        elif state == "move" and app.turn == "B":
            if board.squares_with("computer_from"):
                board.play(app.moves[0])            # its one expected move
            else:
                board.wait(100)
        elif state == "move":
            moves = app.moves
            board.play(moves[pick.randrange(len(moves))])
        else:
            board.wait(200)
    assert over is not None, app.state
    assert counts["mismatch"] == 0 and counts["computer"] > 10, counts
    assert counts["same"] == counts["computer"], counts     # it played what it showed
    gc.collect()
    print("game: %d moves, winner %s, heap free %d" % (counts["move"], over["winner"],
                                                       gc.mem_free()))


def idle_steps_allocate_nothing(store):
    """Waiting for a person to carry out the computer's move, and its pause
    before it throws: once the App has no job due (``busy``), steps within
    one frame period allocate nothing."""
    import micropython
    board = board_at(TWO_WAYS, store, rng=throws(1), config=computer(2))
    chosen, _ = timed_until(board, "computer")
    origin, to = [int(s) for s in chosen["move"].split("-")]
    app = board.app
    for wait in (0, 1):
        t = board.t + (1000 if wait == 0 else 100)
        app.step(t, board.occ, False)            # a redraw is due: draw it now
        while app.busy:                          # and the jobs the loop runs at once
            t += 1
            app.step(t, board.occ, False)
        gc.collect()
        micropython.heap_lock()
        try:
            for dt in (5, 10, 15, 20, 25, 30):
                app.step(t + dt, board.occ, False)
        finally:
            micropython.heap_unlock()
        if wait == 0:
            board.t = t + 30
            board.move(origin, to)               # its move; a 1: it throws again
            assert app.turn == "B" and app.state == "throw", app.state


def a_museum_keeps_its_opponent_loaded():
    """A museum board loads the lone visitor's opponent and its search at
    start-up (firmware/computer.py ``ready``), from .mpy files as on the
    Pico, so the step that takes a side loads no module; a game closed for
    the next visitor keeps them."""
    board = BoardSim(config={"mode": "museum", "museum": {"attract_s": 10, "reset_s": 60,
                                                          "reset_after_game_s": 30}},
                     rng=throws(2, 1, 2, 2, 3))
    assert sys.modules["engine.ai"].__file__.endswith(".mpy")
    search = sys.modules["engine.ai"]
    board.setup()
    board.press()                         # ends the how-to; throws nothing
    board.press().press()                 # opening: 2, then 1 (K4): white starts
    board.move(10, 11)                    # the 1 throws again (K5)
    board.press()                         # a 2 for white
    board.move(11, 13)
    assert board.app.state == "throw" and board.app.turn == "B", board.app.state
    loaded = sorted(sys.modules)
    board.clear()
    taken = None
    for _ in range(300):                  # the offer at 5 s, the takeover 10 s later
        board.wait(100)
        for e in board.events:
            if e["event"] == "museum" and e["what"] in ("computer", "no_computer"):
                taken = e
        board.clear()
        if taken is not None:
            break
    assert taken == {"event": "museum", "what": "computer", "side": "B"}, taken
    assert sorted(sys.modules) == loaded, [m for m in sys.modules if m not in loaded]
    board.wait(70000)                     # quiet: the game is closed for the next visitor
    assert board.app.computer is None and board.app.museum.resets == 1
    assert sys.modules.get("engine.ai") is search


def decision_time(store):
    cal = calibrate()
    for level in (2, 4):
        gc.collect()
        board = board_at(BUSY, store, rng=throws(5, 5), config=computer(level))
        chosen, slowest = timed_until(board, "computer")
        assert chosen is not None and chosen["level"] == level
        print("decision step, level %d: %.0f ms here, %.0f ms Pico-equivalent (calibration %.0f ms)"
              % (level, slowest, pico_ms(slowest, cal), cal))


check("shown_and_carried_out", shown_and_carried_out, STORE + "/a" if STORE else None)
check("a_whole_game", a_whole_game)
check("idle_steps_allocate_nothing", idle_steps_allocate_nothing, STORE + "/c" if STORE else None)
check("a_museum_keeps_its_opponent_loaded", a_museum_keeps_its_opponent_loaded)
check("decision_time", decision_time, STORE + "/b" if STORE else None)
sys.exit(done())
