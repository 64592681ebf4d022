"""The single stories of tests/mp/test_scenarios_mp.py, loaded by it for
their turn and forgotten again before the whole games."""

from board_sim import BoardSim, board_at, throws
from engine.sticks import XorShift
from scenario_hands import Hands, folder, switched_off

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


WATER = "B.B.W...................W..... W"


def the_water_trap_stopping_on_it():
    board = board_at(WATER, folder(), rng=throws(2))
    board.press()
    board.lift(25).place(27).wait()                    # K12: onto the water...
    assert board.squares_with("put") == [15]
    board.lift(27).place(15).wait()                    # ...then back to 15
    assert board.last("move")["move"] == "25-27"


def the_water_trap_straight_to_15():
    board = board_at(WATER, folder(), rng=throws(2))
    board.press()
    board.move(25, 15)                                 # K12 finished in one go
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
    return board.app.game


def a_throw_survives_a_power_cut():
    store = folder()
    game = thrown(store)
    if switched_off(store, {}, game, "move"):
        return                          # a fresh interpreter switches it on
    game = None
    again = BoardSim(store_dir=store, rng=throws())
    again.setup()
    assert again.app.state == "move" and again.app.throw == 3


def run(check):
    check("opening_and_a_plain_move", opening_and_a_plain_move)
    check("a_capture_swap_is_recognised_from_two_lifts",
          a_capture_swap_is_recognised_from_two_lifts, True)
    check("the_water_trap_stopping_on_it", the_water_trap_stopping_on_it, True)
    check("the_water_trap_straight_to_15", the_water_trap_straight_to_15, True)
    check("the_house_of_happiness", the_house_of_happiness, True)
    check("bearing_off", bearing_off, True)
    check("a_knocked_piece_and_a_wrong_square", a_knocked_piece_and_a_wrong_square, True)
    check("a_takeback", a_takeback, True)
    check("a_slide_across_three_squares_with_chatter",
          a_slide_across_three_squares_with_chatter, True)
    check("a_throw_survives_a_power_cut", a_throw_survives_a_power_cut, True)
