"""Stories of a game on the board, told through the App contract only:
setup check, the opening (K4, H4), throws, plain moves, extra throws."""

from board_sim import BoardSim, board_at, throws


def test_setup_check_shows_missing_and_extra_squares_until_the_board_matches():
    board = BoardSim(rng=throws())
    board.wait()
    assert board.app.state == "setup"
    assert board.squares_with("put") == list(range(1, 11))      # K2: squares 1..10
    board.set_board(0b111 | (1 << 20))                          # 1, 2, 3 and 21
    assert board.squares_with("take") == [21]
    assert board.squares_with("put") == list(range(4, 11))
    assert board.squares_with("setup") == [1, 2, 3]
    report = board.last("setup")
    assert report["extra"] == [21] and report["missing"] == list(range(4, 11))
    assert board.events_of("ready") == []
    board.setup()
    assert board.last("ready")["position"] == "BWBWBWBWBW.................... W"
    assert board.app.state == "opening"
    assert board.app.roles == [""] * 30


def test_the_opening_throws_decide_the_side_k4():
    board = BoardSim(rng=throws(2, 3, 4, 1))
    board.setup()
    for _ in range(4):
        board.press()
    opening = board.events_of("throw")
    assert [e["value"] for e in opening] == [2, 3, 4, 1]
    assert [e["player"] for e in opening] == [1, 2, 1, 2]
    assert all(e["opening"] for e in opening)
    # K4 decision: the winner takes the frontmost piece's side, white (on 10),
    # and moves with that 1.
    assert board.last("start") == {"event": "start", "side": "W", "player": 2}
    assert board.app.state == "move" and board.app.throw == 1 and board.app.turn == "W"


def test_the_opening_throws_decide_the_side_h4():
    board = BoardSim(config={"ruleset": "hungarian"}, rng=throws(6, 1))
    board.setup()
    board.press().press()
    assert board.last("start")["side"] == "B"                   # H4: black starts
    assert board.app.turn == "B" and board.app.throw == 1


def test_a_plain_move_is_recognised_as_soon_as_the_piece_is_down():
    board = BoardSim(rng=throws(1))
    board.setup()
    board.press()
    board.lift(10)
    board.place(11)                 # 60 ms: debounced, not yet at rest (docs/dev/recognition.md)
    move = board.last("move")
    assert move["move"] == "10-11" and move["side"] == "W"
    assert move["after"] == "BWBWBWBWB.W................... W"
    assert move["again"] is True                                # K5: a 1 throws again
    assert board.app.state == "throw"


def test_extra_throws_after_1_4_and_5_k5(tmp_path):
    # kendall, W on 5 and 20, B on 1 and 3
    board = board_at("B.B.W..............W.......... W", tmp_path, rng=throws(4, 5, 2))
    board.press()
    board.move(20, 24)
    assert board.last("move")["again"] is True and board.app.turn == "W"   # K5: 4
    board.press()
    assert board.last("throw")["value"] == 5
    board.move(24, 29)                                    # K11 does not apply: 29 direct
    assert board.last("move")["again"] is True and board.app.turn == "W"   # K5: 5
    board.press()
    board.move(5, 7)
    assert board.last("move")["again"] is False and board.app.turn == "B"  # K5: 2


def test_extra_throw_after_6_h5(tmp_path):
    board = board_at("B.B.W..............W.......... W", tmp_path, ruleset="hungarian",
                     rng=throws(6, 3))
    board.press()
    assert board.last("throw")["sticks"] == [0, 0, 0, 0]  # H3: all black up is 6
    board.move(20, 26)
    assert board.last("move")["again"] is True and board.app.turn == "W"
    board.press()
    board.move(5, 8)
    assert board.app.turn == "B"


def test_no_legal_move_is_shown_then_the_turn_is_lost_k15(tmp_path):
    # kendall: white's only piece on 28 leaves only on a 3 (K13); a 2 has no move.
    board = board_at("B.B........................W.. W", tmp_path, rng=throws(2))
    board.press()
    assert board.last("throw")["moves"] == []
    assert board.app.state == "nomove"
    assert board.app.led_roles[35] == "nomove"            # white's side light
    assert board.events_of("pass") == []
    board.wait(2500)
    assert board.last("pass") == {"event": "pass", "side": "W", "throw": 2, "next": "B"}
    assert board.app.state == "throw" and board.app.turn == "B"


def test_a_lost_turn_on_a_1_still_throws_again_k15(tmp_path):
    board = board_at("B.B........................W.. W", tmp_path, rng=throws(1))
    board.press().press()                                 # a press acknowledges at once
    assert board.last("pass")["next"] == "W"


def test_no_legal_move_ends_the_game_with_the_h15_score_when_no_move_is_end(tmp_path):
    # H14: white on 1, 3, 5, 7, 9, black on 2, 4, 6, 10, 11: white has no move with a 2.
    board = board_at("WBWBWBW.WBB................... W", tmp_path, ruleset="hungarian",
                     options={"no_move": "end"}, rng=throws(2))
    board.press()
    assert board.app.state == "nomove"
    board.wait(2500)
    end = board.last("game_over")
    # H15: each side scores 3 for every enemy piece on rows 1 and 2.
    assert end["points"] == {"B": 15, "W": 15}
    assert end["winner"] is None and end["score"] == 15
    assert board.app.state == "game_over"
    assert board.events_of("pass") == []


def test_bearing_off_is_not_the_end_while_a_piece_is_left_k16(tmp_path):
    board = board_at("B.B.W........................W W", tmp_path, rng=throws(1))
    board.press()
    board.move(30, "off")                                 # K13: off from 30 on a 1
    assert board.last("move")["move"] == "30-off"
    assert board.last("game_over") is None and board.app.state == "throw"


def test_the_last_piece_off_wins_k16_and_a_long_press_starts_anew(tmp_path):
    board = board_at("B.B..........................W W", tmp_path, rng=throws(1))
    board.press()
    board.lift(30).wait()
    end = board.last("game_over")
    assert end["winner"] == "W"
    assert board.app.state == "game_over"
    assert board.app.led_roles[35] == "winner" and board.app.led_roles[34] == ""
    board.press()                                         # a short press does nothing
    assert board.app.state == "game_over"
    board.hold()
    assert board.last("new")["ruleset"] == "kendall"
    assert board.app.state == "setup"
    assert board.app.position == "BWBWBWBWBW.................... W"
    assert board.squares_with("put") == [2, 4, 5, 6, 7, 8, 9, 10]
    assert board.squares_with("setup") == [1, 3]
