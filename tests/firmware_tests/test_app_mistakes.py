"""Mistakes and recovery: wrong squares, knocked pieces, chatter, takeback."""

import random

from board_sim import BoardSim, board_at, throws
from firmware.recognise import bit

CAPTURE = "B.W........W.B................ W"


def test_a_piece_put_on_a_wrong_square_is_shown_and_nothing_is_committed(tmp_path):
    board = board_at(CAPTURE, tmp_path, rng=throws(2))
    board.press()
    board.move(3, 6)                                      # 3-5 is the legal one
    assert board.events_of("move") == []
    assert board.last("mismatch") == {"event": "mismatch", "extra": [6], "missing": [3]}
    assert board.app.state == "mismatch"
    assert board.squares_with("error") == [6] and board.squares_with("missing") == [3]
    board.lift(6).place(5).wait()                         # fixed: the game goes on
    assert board.last("move")["move"] == "3-5"
    assert board.app.state == "throw"


def test_a_wrong_square_then_back_to_the_start_waits_for_the_move(tmp_path):
    board = board_at(CAPTURE, tmp_path, rng=throws(2))
    board.press()
    board.move(3, 7)
    assert board.app.state == "mismatch"
    board.move(7, 3)
    assert board.last("resolved") is not None
    assert board.app.state == "move" and board.squares_with("movable") == [3, 12]


def test_a_knocked_piece_while_waiting_is_shown_as_missing(tmp_path):
    board = board_at(CAPTURE, tmp_path, rng=throws(2))
    board.lift(12).wait()
    assert board.app.state == "mismatch"
    assert board.last("mismatch")["missing"] == [12]
    assert board.squares_with("missing") == [12]
    board.press()                                         # no throw on a wrong board
    assert board.events_of("throw") == []
    board.place(13).wait()
    assert board.last("mismatch") == {"event": "mismatch", "extra": [13], "missing": [12]}
    board.lift(13).place(12).wait()
    assert board.app.state == "throw" and board.app.roles == [""] * 30
    board.press()
    assert board.last("throw")["value"] == 2


NOT_MATCHING = {"event": "notice", "message": "throw ignored: the board does not match the game"}


def test_a_press_with_a_piece_off_its_square_is_ignored_with_a_notice(tmp_path):
    board = board_at(CAPTURE, tmp_path, rng=throws(3, 2))
    board.lift(12).wait()                                 # shown as missing
    board.clear()
    board.press()
    assert board.events_of("notice") == [NOT_MATCHING]
    assert board.events_of("throw") == [] and board.app.throw is None
    # Still in the hand, before the board has come to rest: ignored all the same.
    board.place(12).wait()
    board.lift(12, ms=40)
    board.clear()
    board.press(ms=60)
    assert board.events_of("notice") == [NOT_MATCHING] and board.events_of("throw") == []
    board.place(12).wait()
    board.clear()
    board.press()                                         # the board matches: a throw
    assert board.events_of("notice") == [] and board.last("throw")["value"] == 3


def test_an_opening_throw_on_a_wrong_board_is_ignored_with_a_notice():
    board = BoardSim(rng=throws(2))
    board.setup()
    board.lift(1).wait()
    board.clear()
    board.press()
    assert board.events_of("notice") == [NOT_MATCHING] and board.events_of("throw") == []
    board.place(1).wait()
    board.press()
    assert board.last("throw") == {"event": "throw", "side": None, "player": 1, "value": 2,
                                   "sticks": [1, 1, 0, 0], "opening": True}


def test_a_chattering_switch_does_not_make_a_move(tmp_path):
    board = board_at(CAPTURE, tmp_path, rng=throws(2))
    board.press()
    board.tick_ms = 2
    rnd = random.Random(5)
    resting = board.occ
    for _ in range(200):                                  # the piece on 12 rattles
        board.occ = resting & ~bit(12)
        board.wait(rnd.choice((2, 4, 6, 8)))
        board.occ = resting
        board.wait(rnd.choice((10, 20, 40)))
    board.wait()
    assert board.events_of("move") == [] and board.events_of("mismatch") == []
    assert board.app.state == "move"


def test_contact_chatter_on_every_transition_still_gives_one_move(tmp_path):
    board = board_at(CAPTURE, tmp_path, rng=throws(2))
    board.press()
    board.tick_ms = 1
    rnd = random.Random(7)

    def chatter(square, on):
        for _ in range(rnd.randint(2, 6)):                # bounces of 1..8 ms
            board.occ ^= bit(square)
            board.wait(rnd.randint(1, 8))
        if on:
            board.occ |= bit(square)
        else:
            board.occ &= ~bit(square)
        board.wait(80)

    chatter(12, False)
    chatter(14, False)
    chatter(14, True)
    chatter(12, True)
    board.wait()
    assert [e["move"] for e in board.events_of("move")] == ["12-14"]


def test_takeback_by_long_press_shows_how_to_restore_and_continues(tmp_path):
    board = board_at(CAPTURE, tmp_path, rng=throws(2, 3))
    board.press()
    board.move(3, 5)
    assert board.app.turn == "B"
    board.hold()
    undo = board.last("undo")
    assert undo["move"] == "3-5" and undo["position"] == CAPTURE
    assert board.app.state == "takeback"
    assert board.squares_with("put") == [3] and board.squares_with("take") == [5]
    board.move(5, 3)
    assert board.last("ready")["position"] == CAPTURE
    # the game continues from the position before, with the same throw
    assert board.app.state == "move" and board.app.throw == 2 and board.app.turn == "W"
    board.swap(12, 14)
    assert board.last("move")["move"] == "12-14"


def test_takeback_of_a_capture_asks_for_both_pieces_to_swap_back(tmp_path):
    board = board_at(CAPTURE, tmp_path, rng=throws(2))
    board.press()
    board.swap(12, 14)
    board.hold()
    assert board.app.state == "takeback"
    assert board.squares_with("put") == [12, 14]           # same occupancy, colours swap
    ready = len(board.events_of("ready"))
    board.wait()
    assert len(board.events_of("ready")) == ready          # the board looks right, but
    assert board.app.state == "takeback"                   # the colours are not yet
    board.swap(14, 12)
    assert board.app.state == "move" and board.app.position == CAPTURE


def test_nothing_to_take_back_at_the_first_move():
    board = BoardSim(rng=throws(1))
    board.setup().press()
    board.hold()
    assert board.last("notice")["message"] == "nothing to take back"
    assert board.app.state == "move" and board.app.throw == 1
