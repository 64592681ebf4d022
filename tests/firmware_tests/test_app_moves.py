"""Recognising moves the way people make them: lifts, slides, swaps and the
squares that send a piece on (C6, K11, K12, H10), through the App contract."""

from board_sim import board_at, throws

# kendall, white to throw: W on 3 and 12, B on 1 and 14 (lone), so a 2 gives
# 3-5 and the capture 12-14 (K7, C6).
CAPTURE = "B.W........W.B................ W"
# W on 3, 12 and 16; B on 1, 14 and 18: with a 2, two captures (12-14, 16-18)
# end on the same occupancy as the board before.
TWO_CAPTURES = "B.W........W.B.W.B............ W"
# W on 5 and 25: with a 2, 25 lands on the water (K12) and goes back to 15.
WATER = "B.B.W...................W..... W"
# W on 5 and 24: with a 2, 24 lands on the House of Happiness and goes on to 29 (K11).
HAPPINESS = "B.B.W..................W...... W"


def test_lifting_a_piece_lights_its_legal_destinations(tmp_path):
    board = board_at(CAPTURE, tmp_path, rng=throws(2))
    board.press()
    assert board.squares_with("movable") == [3, 12]
    board.lift(3).wait()
    assert board.squares_with("lifted") == [3]
    assert board.squares_with("target") == [5]
    assert board.app.state == "move"
    board.place(3).wait()
    assert board.squares_with("movable") == [3, 12]
    board.lift(12).wait()
    assert board.squares_with("target") == [14]          # the capture (K7)


def test_a_throw_is_ignored_while_a_move_is_unfinished(tmp_path):
    board = board_at(CAPTURE, tmp_path, rng=throws(2, 3))
    board.press()
    assert board.app.throw == 2
    board.lift(3).press()
    assert board.app.throw == 2 and board.app.sticks == (1, 1, 0, 0)
    assert len(board.events_of("throw")) == 1
    assert "finish the move" in board.last("notice")["message"]


def test_a_capture_swap_is_recognised_from_two_lifts_c6(tmp_path):
    board = board_at(CAPTURE, tmp_path, rng=throws(2))
    board.press()
    board.lift(12).lift(14)
    board.place(14)                                       # the mover on 14
    board.wait()
    assert board.events_of("move") == []
    assert board.squares_with("put") == [12]              # the captured piece goes here
    board.place(12).wait()
    move = board.last("move")
    assert move["move"] == "12-14"
    assert move["after"] == "B.W........B.W................ B"


def test_a_capture_with_the_captured_piece_lifted_first(tmp_path):
    board = board_at(CAPTURE, tmp_path, rng=throws(2))
    board.press()
    board.lift(14).wait()                                 # the wrong piece first
    assert board.app.state == "move" and board.events_of("mismatch") == []
    assert board.squares_with("movable") == [12] and board.squares_with("target") == [14]
    board.lift(12).wait()
    assert board.squares_with("put") == [12] and board.squares_with("target") == [14]
    board.place(14).place(12).wait()
    assert board.last("move")["move"] == "12-14"


def test_touching_two_pieces_and_putting_each_back_is_no_capture(tmp_path):
    board = board_at(CAPTURE, tmp_path, rng=throws(2))
    board.press()
    board.lift(14).place(14).lift(12).place(12).wait()
    assert board.events_of("move") == []
    assert board.app.state == "move"


def test_two_legal_moves_with_the_same_result_are_told_apart_by_the_lifted_squares(tmp_path):
    board = board_at(TWO_CAPTURES, tmp_path, rng=throws(2))
    board.press()
    board.swap(16, 18)
    assert board.last("move")["move"] == "16-18"


def test_the_water_trap_is_finished_by_hand_onto_27_then_to_15_k12(tmp_path):
    board = board_at(WATER, tmp_path, rng=throws(2))
    board.press()
    board.lift(25).wait()
    assert board.squares_with("target") == [15, 27]
    board.place(27).wait()
    assert board.events_of("move") == [] and board.events_of("mismatch") == []
    assert board.squares_with("take") == [27] and board.squares_with("put") == [15]
    board.lift(27).place(15).wait()
    move = board.last("move")
    assert move["move"] == "25-27"
    assert move["after"] == "B.B.W.........W............... B"


def test_straight_to_15_is_accepted_too_k12(tmp_path):
    board = board_at(WATER, tmp_path, rng=throws(2))
    board.press()
    board.move(25, 15)
    assert board.last("move")["move"] == "25-27"


def test_the_water_trap_in_hungarian_h10(tmp_path):
    board = board_at("W.B.B...................B..... B", tmp_path, ruleset="hungarian",
                     rng=throws(2))
    board.press()
    board.lift(25).place(27).wait()
    assert board.squares_with("put") == [15]
    board.lift(27).place(15).wait()
    assert board.last("move")["move"] == "25-27"


def test_house_of_happiness_26_then_29_k11(tmp_path):
    board = board_at(HAPPINESS, tmp_path, rng=throws(2))
    board.press()
    board.lift(24).place(26).wait()
    assert board.squares_with("take") == [26] and board.squares_with("put") == [29]
    assert board.events_of("move") == []
    board.lift(26).place(29).wait()
    assert board.last("move")["move"] == "24-26"
    assert board.app.position == "B.B.W.......................W. B"


def test_house_of_happiness_straight_to_29_k11(tmp_path):
    board = board_at(HAPPINESS, tmp_path, rng=throws(2))
    board.press()
    board.move(24, 29)
    assert board.last("move")["move"] == "24-26"


def test_sliding_a_piece_across_three_squares(tmp_path):
    # kendall, W on 5 and 20, throw 3: 20-23, slid over 21 and 22 on the way.
    board = board_at("B.B.W..............W.......... W", tmp_path, rng=throws(3))
    board.press()
    board.lift(20)
    for s in (21, 22):
        board.place(s, ms=40).lift(s, ms=40)
    board.place(23).wait()
    assert [e["move"] for e in board.events_of("move")] == ["20-23"]


def test_lifting_the_wrong_piece_first_and_putting_it_back(tmp_path):
    board = board_at(CAPTURE, tmp_path, rng=throws(2))
    board.press()
    board.lift(1).wait()                                  # an enemy piece, no move
    assert board.last("mismatch")["missing"] == [1]
    board.place(1).wait()
    assert board.last("resolved") is not None
    board.move(3, 5)
    assert board.last("move")["move"] == "3-5"


def test_bearing_off_from_30_on_a_1_k13(tmp_path):
    board = board_at("B.B.W........................W W", tmp_path, rng=throws(1))
    board.press()
    board.lift(30).wait()
    assert board.last("move")["move"] == "30-off"
    assert board.app.position == "B.B.W......................... W"


def test_bearing_off_in_hungarian_h11(tmp_path):
    board = board_at("B.B.........................W. W", tmp_path, ruleset="hungarian",
                     rng=throws(2))
    board.press()
    board.lift(29).wait()
    assert board.last("move")["move"] == "29-off"
