"""Player's-story scenarios of the App on the MicroPython unix port, plain asserts.

Run from the repository root (LIB: the engine and firmware compiled to .mpy,
as on the Pico; STORE: an empty folder for saved games):

    micropython -X heapsize=96K tests/mp/test_scenarios_mp.py [STORE [LIB]]

or, as tests/test_scenarios_micropython.py does, compiled to .mpy in LIB
itself (a script compiled at run time leaves its heap more fragmented):

    cd LIB && micropython -X heapsize=96K -m test_scenarios_mp STORE LIB

The same stories as tests/test_app_scenarios.py and a part of the other App
tests: the opening, a capture swap, the water trap both ways, the House of
Happiness, bearing off, a knocked piece, a wrong square, a takeback, a slide
across three squares, contact chatter of 1-8 ms on every lift and place of a
whole game, whole games of each ruleset, and power cuts after the steps of a
game, and a whole game saved after every move and throw. Prints the heap
live after the imports, one line per failure, the heap's high-water mark
seen between tests, and ends with "N passed, N failed".
"""

import gc
import os
import sys

STORE = sys.argv[1] if len(sys.argv) > 1 else None
LIB = sys.argv[2] if len(sys.argv) > 2 else None
for _p in ("tests", "."):
    if _p not in sys.path:
        sys.path.append(_p)
if LIB:
    sys.path.insert(0, LIB)

from board_sim import OFF, BoardSim, board_at, throws  # noqa: E402
from engine.sticks import XorShift  # noqa: E402
from firmware.recognise import bit  # noqa: E402

gc.collect()
print("heap after imports: %d bytes" % gc.mem_alloc())
results = [0, 0]
peak = [0]
_dirs = [0]


def folder():
    """A fresh empty folder under STORE for one test's saved game."""
    _dirs[0] += 1
    path = "%s/s%d" % (STORE, _dirs[0])
    os.mkdir(path)
    return path


def check(name, fn, needs_store=False, args=()):
    if needs_store and not STORE:
        return
    gc.collect()
    try:
        fn(*args)
        results[0] += 1
    except Exception as e:
        results[1] += 1
        print("FAIL", name, repr(e))
        sys.print_exception(e)
    gc.collect()
    used = gc.mem_alloc()
    if used > peak[0]:
        peak[0] = used


class Hands(BoardSim):
    """Chattering switches (1-8 ms, scanned every ms) and sliding pieces."""

    def __init__(self, chatter=None, slide=False, **kwargs):
        BoardSim.__init__(self, **kwargs)
        self.chatter = chatter
        self.slide = slide
        self.bounces = 0

    def _switch(self, square, closed):
        rnd = self.chatter
        if rnd is not None:
            tick = self.tick_ms
            self.tick_ms = 1
            left = 1 + rnd.randrange(8)
            while left > 0:
                self.occ ^= bit(square)
                self.bounces += 1
                d = min(1 + rnd.randrange(3), left)
                self.wait(d)
                left -= d
            self.tick_ms = tick
        if closed:
            self.occ |= bit(square)
        else:
            self.occ &= ~bit(square)

    def lift(self, *squares, ms=60):
        for s in squares:
            self._switch(s, False)
            self.wait(ms)
        return self

    def place(self, *squares, ms=60):
        for s in squares:
            self._switch(s, True)
            self.wait(ms)
        return self

    def play(self, move, via=True):
        if self.slide and not move.capture and move.to != OFF:
            self.lift(move.origin)
            step = 1 if move.to > move.origin else -1
            for s in range(move.origin + step, move.to, step):
                if not self.occ & bit(s):
                    self.place(s, ms=30).lift(s, ms=30)
            if via and move.to != move.final:
                self.place(move.to).lift(move.to)
            if move.final != OFF:
                self.place(move.final)
            return self.wait()
        return BoardSim.play(self, move, via)


def play_game(board, seed, max_actions=3000):
    choose = XorShift(seed + 1000)
    board.setup()
    for action in range(max_actions):
        state = board.app.state
        if state == "game_over":
            return
        if state == "opening" or state == "throw":
            board.press()
        elif state == "move":
            moves = board.app.moves
            board.play(moves[choose.randrange(len(moves))], via=action % 2 == 0)
        else:
            board.wait(500)
        for e in board.events:
            if e["event"] == "mismatch" or e["event"] == "notice":
                raise AssertionError("%r" % (e,))
        board.events = []              # the heap is small: forget what was said
    raise AssertionError("the game did not end: %s" % board.app.state)


# -- single stories ---------------------------------------------------------

CAPTURE = "B.W........W.B................ W"


def opening_and_a_plain_move():
    board = BoardSim(rng=throws(2, 1))
    board.setup()
    assert board.last("ready") is not None
    board.press().press()
    assert board.last("start")["player"] == 2
    board.move(10, 11)
    assert board.last("move")["move"] == "10-11"
    assert board.app.state == "throw"


def a_capture_swap_is_recognised_from_two_lifts():
    board = board_at(CAPTURE, folder(), rng=throws(2))
    board.press()
    board.swap(12, 14)                                 # C6
    assert board.last("move")["move"] == "12-14"
    assert board.app.position == "B.W........B.W................ B"


def the_water_trap_both_ways():
    water = "B.B.W...................W..... W"
    board = board_at(water, folder(), rng=throws(2))
    board.press()
    board.lift(25).place(27).wait()                    # K12: onto the water...
    assert board.squares_with("put") == [15]
    board.lift(27).place(15).wait()                    # ...then back to 15
    assert board.last("move")["move"] == "25-27"
    board = None                                       # one board at a time
    board = board_at(water, folder(), rng=throws(2))
    board.press()
    board.move(25, 15)                                 # straight to 15
    assert board.last("move")["move"] == "25-27"


def the_house_of_happiness():
    board = board_at("B.B.W..................W...... W", folder(), rng=throws(2))
    board.press()
    board.lift(24).place(26).wait().lift(26).place(29).wait()   # K11
    assert board.last("move")["move"] == "24-26"
    assert board.app.position[28] == "W"


def bearing_off():
    board = board_at("B.B.W........................W W", folder(), rng=throws(1))
    board.press()
    board.lift(30).wait()                              # K13
    assert board.last("move")["move"] == "30-off"


def a_knocked_piece_and_a_wrong_square():
    board = board_at(CAPTURE, folder(), rng=throws(2))
    board.press()
    board.lift(3).place(6).wait()                      # a 2 from 3 is 5, not 6
    assert board.last("mismatch")["extra"] == [6]
    assert board.events_of("move") == []
    board.lift(6).place(5).wait()
    assert board.last("move")["move"] == "3-5"
    board.lift(1).wait()                               # knocked while waiting
    assert board.last("mismatch")["missing"] == [1]
    board.press()
    assert board.events_of("throw")[-1]["side"] == "W"     # the one before: ignored
    board.place(1).wait()
    assert board.last("resolved") is not None


def a_takeback():
    board = board_at(CAPTURE, folder(), rng=throws(2, 2))
    board.press().move(3, 5)
    assert board.app.turn == "B"
    board.hold()
    assert board.last("undo")["move"] == "3-5"
    board.move(5, 3)
    assert board.app.state == "move" and board.app.throw == 2
    board.swap(12, 14)
    assert board.last("move")["move"] == "12-14"


def a_slide_across_three_squares_with_chatter():
    board = board_at("B.B.W..............W.......... W", folder(), rng=throws(4))
    hands = Hands(chatter=XorShift(9), slide=True, app=board.app, t=board.t)
    hands.occ = board.occ
    board = None
    hands.press()
    hands.lift(20)
    for s in (21, 22, 23):
        hands.place(s, ms=40).lift(s, ms=40)
    hands.place(24).wait()
    assert [e["move"] for e in hands.events_of("move")] == ["20-24"]
    assert hands.events_of("mismatch") == []


def thrown(store):
    """A game that has thrown a 3 after its first move, saved in ``store``
    (its board made in a frame of its own, gone once this returns)."""
    board = BoardSim(store_dir=store, rng=throws(1, 3))
    board.setup().press().move(10, 11)
    board.press()


def a_throw_survives_a_power_cut():
    store = folder()
    thrown(store)
    again = BoardSim(store_dir=store, rng=throws())
    again.setup()
    assert again.app.state == "move" and again.app.throw == 3


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


check("opening_and_a_plain_move", opening_and_a_plain_move)
check("a_capture_swap_is_recognised_from_two_lifts",
      a_capture_swap_is_recognised_from_two_lifts, True)
check("the_water_trap_both_ways", the_water_trap_both_ways, True)
check("the_house_of_happiness", the_house_of_happiness, True)
check("bearing_off", bearing_off, True)
check("a_knocked_piece_and_a_wrong_square", a_knocked_piece_and_a_wrong_square, True)
check("a_takeback", a_takeback, True)
check("a_slide_across_three_squares_with_chatter",
      a_slide_across_three_squares_with_chatter, True)
check("a_throw_survives_a_power_cut", a_throw_survives_a_power_cut, True)
for _config, _seed in RULESETS:
    check("whole_game_with_chatter %s" % _config["ruleset"],
          whole_games_with_chatter_follow_the_clean_game, False, (_config, _seed))
check("whole_game_slid_with_chatter",
      lambda: whole_games_with_chatter_follow_the_clean_game({"ruleset": "kendall"}, 3, True))
for _config, _seed in RULESETS[:2]:
    check("whole_game_saved %s" % _config["ruleset"],
          a_whole_game_saved_after_every_move_and_throw, True, (_config, _seed))
check("power_cuts kendall",
      lambda: power_cuts_after_the_steps_of_a_game({"ruleset": "kendall"}, 3, 200), True)
print("heap high-water mark between tests: %d bytes" % peak[0])
print("%d passed, %d failed" % (results[0], results[1]))
