"""A hint on the board: two short presses of the throw button while a throw
waits for its move light the best move for it (the computer's level 4),
never confused with the long press (takeback, a new game) or the museum's
press that hands a side back (docs/playing.md)."""

from board_sim import BoardSim, SearchSlices, board_at, throws
from engine.ai import choose_move
from engine.position import Position
from engine.rules import ruleset

# kendall, white to throw: W on 3 and 12, B on 1 and 14 (lone), so a 2 gives
# the plain 3-5 and the capture 12-14 (K7, C6).
CAPTURE = "B.W........W.B................ W"


def double_press(board):
    """Two short presses, then the passes the hint's search takes (a node a
    pass, the board scanned between: firmware/computer.py ``Choosing``)."""
    board.press().press()
    end = board.t + 2000
    while board.app.busy and board.t < end:
        board.step()
    return board


def lit_squares(board):
    return dict((i + 1, board.app.led_roles[i]) for i in range(30) if board.app.led_roles[i])


def test_two_short_presses_light_the_best_move_for_the_throw(tmp_path):
    board = board_at(CAPTURE, tmp_path, rng=throws(2))
    board.press()
    assert board.app.state == "move"
    double_press(board)
    best = choose_move(ruleset("kendall"), Position.parse(CAPTURE), 2, 4)
    hint = board.last("hint")
    assert hint == {"event": "hint", "side": "W", "move": best.text, "throw": 2, "level": 4}
    origin, final = best.origin, best.final
    assert lit_squares(board) == {origin: "computer_from", final: "computer_to"}
    assert board.app.state == "move" and board.events_of("move") == []


def test_the_hint_goes_when_the_piece_is_lifted_and_any_move_still_counts(tmp_path):
    board = board_at(CAPTURE, tmp_path, rng=throws(2))
    board.press()
    double_press(board)
    assert board.last("hint")
    board.lift(3).wait()
    assert "computer_from" not in board.app.roles and board.squares_with("target") == [5]
    board.place(5).wait()
    assert board.last("move")["move"] == "3-5"


def test_the_gesture_is_ignored_when_the_hint_is_off(tmp_path):
    board = board_at(CAPTURE, tmp_path, rng=throws(2), config={"hint": False})
    board.press()
    double_press(board)
    assert board.events_of("hint") == []
    assert board.squares_with("movable") == [3, 12]


def test_one_press_or_two_far_apart_is_no_hint(tmp_path):
    board = board_at(CAPTURE, tmp_path, rng=throws(2))
    board.press()
    board.press()
    assert board.last("notice")["message"] == "throw ignored: finish the move first"
    board.wait(1000)
    board.press()
    assert board.events_of("hint") == []
    assert board.squares_with("movable") == [3, 12]


def test_the_long_press_takes_back_and_gives_no_hint(tmp_path):
    board = board_at(CAPTURE, tmp_path, rng=throws(2, 3, 2))
    board.press()
    board.move(3, 5)                              # white plays 3-5 with the 2
    board.press()                                 # black's 3
    board.hold()                                  # the long press: takeback
    assert board.last("undo")["move"] == "3-5"
    assert board.events_of("hint") == []
    board.press().hold()                          # a short press, then a long one
    assert board.events_of("hint") == []


def test_no_hint_while_a_piece_is_in_the_hand(tmp_path):
    board = board_at(CAPTURE, tmp_path, rng=throws(2))
    board.press()
    board.lift(3)
    double_press(board)
    assert board.events_of("hint") == []
    assert board.squares_with("target") == [5]


def test_a_museum_board_gives_no_hint_unless_its_config_asks():
    board = BoardSim(config={"mode": "museum"}, rng=throws(2, 1))
    board.setup()
    board.press()                                 # ends the how-to; throws nothing
    board.press().press()                         # opening: 2, then 1 (K4)
    assert board.app.state == "move"
    double_press(board)
    assert board.events_of("hint") == []


def test_the_museum_press_that_hands_a_side_back_is_no_half_of_a_hint():
    times = {"attract_s": 90, "reset_s": 600, "reset_after_game_s": 180}
    board = BoardSim(config={"mode": "museum", "museum": times, "hint": True},
                     rng=throws(2, 1, 2, 1))
    board.setup()
    board.press()                                 # ends the how-to
    board.press().press()                         # opening: 2, then 1: white starts
    board.move(10, 11)
    board.press()
    board.move(11, 13)                            # white has played; black waits alone
    board.wait(25100)                             # the board takes black, throws a 1
    board.wait(2000)
    assert board.last("computer") is not None
    double_press(board)                           # the first press hands black back
    assert board.last("museum")["what"] == "hand_back"
    assert board.events_of("hint") == []
    double_press(board)                           # now a person's double press: the hint
    assert board.last("hint")["side"] == "B"


def test_a_hint_setting_that_is_not_true_false_or_null_gets_a_message_and_the_default():
    from firmware.config import validate
    config, messages = validate({"hint": "yes"})
    assert config["hint"] is None
    assert messages == ["config.json: hint must be true, false or null; "
                        "using null (on, but off in museum mode)"]
    config, messages = validate({"hint": False})
    assert config["hint"] is False and messages == []


def test_the_hint_is_worked_out_a_slice_a_pass(tmp_path, monkeypatch):
    from firmware.computer import _NODES
    watch = SearchSlices(monkeypatch)
    # kendall, white to throw a 1: five white pieces, five black, a real choice
    start = "BWBWBW.B.W.B.W................ W"
    board = board_at(start, tmp_path, rng=throws(1))
    board.press()
    double_press(board)
    best = choose_move(ruleset("kendall"), Position.parse(start), 1, 4)
    assert board.last("hint")["move"] == best.text
    slices = watch.per_step
    assert sum(slices) > 3 * _NODES, "a search this small proves nothing: %r" % slices
    assert max(slices) <= _NODES and len(slices) >= sum(slices) // _NODES


def test_a_hand_on_the_board_while_the_hint_is_worked_out_drops_it(tmp_path):
    start = "BWBWBW.B.W.B.W................ W"      # kendall, white throws a 1
    plain = [m for m in ruleset("kendall").legal_moves(Position.parse(start), 1)
             if not m.capture][0]
    board = board_at(start, tmp_path, rng=throws(1))
    board.press()
    board.press()                                 # the first of the two
    board.button = True
    board.wait(120)
    board.button = False
    for _ in range(20):                           # the second, once debounced
        board.step()
        if board.app.busy:
            break
    board.step()
    board.step()
    assert board.app.busy and board.events_of("hint") == []     # thinking
    board.occ &= ~(1 << (plain.origin - 1))       # white lifts a piece meanwhile
    board.wait()
    assert board.events_of("hint") == [] and not board.app.busy
    assert "computer_from" not in board.app.roles
    assert board.squares_with("target") == [plain.final]
    board.place(plain.final).wait()
    assert board.last("move")["move"] == plain.text
