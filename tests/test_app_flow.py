"""Stories of a game on the board, told through the App contract only:
setup check, the opening (K4, H4), throws, plain moves, extra throws."""

from board_sim import BoardSim, throws


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


def test_a_plain_move_is_recognised_after_the_settle_time():
    board = BoardSim(rng=throws(1))
    board.setup()
    board.press()
    board.lift(10)
    board.place(11)
    assert board.events_of("move") == []                        # not at rest yet
    board.wait()
    move = board.last("move")
    assert move["move"] == "10-11" and move["side"] == "W"
    assert move["after"] == "BWBWBWBWB.W................... W"
    assert move["again"] is True                                # K5: a 1 throws again
    assert board.app.state == "throw"
