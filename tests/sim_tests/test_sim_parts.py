"""The parts of the virtual board at their edges, without an App or a clock:
the request checks, the pieces and the hand, the hand's pace, switch chatter,
and the clock thread reporting a step that broke."""

import random
import threading

import pytest

from engine.position import Position
from host_tools.sim import checks
from host_tools.sim.checks import SimError
from host_tools.sim.clock import Clock
from host_tools.sim.pace import HOLD_MS, MIN_GAP_MS, MIN_PRESS_MS, Chatter, Pace
from host_tools.sim.pieces import Pieces
from host_tools.sim.view import app_state, brightness_cap

START = "BWBWBWBWBW.................... W"
HANG_S = 60             # real seconds: only a hung clock thread takes this long


def test_a_square_is_1_to_30_and_nothing_else():
    assert checks.square(1) == 1 and checks.square(30) == 30
    for bad in (0, 31, True, 2.0, "3", None):
        with pytest.raises(SimError):
            checks.square(bad)


def test_a_whole_number_is_checked_at_both_ends():
    assert checks.whole(1, "ms", 1, 60000) == 1
    assert checks.whole(60000, "ms", 1, 60000) == 60000
    with pytest.raises(SimError, match="ms must be from 1 to 60000, got 60001"):
        checks.whole(60001, "ms", 1, 60000)
    with pytest.raises(SimError, match="got 0"):
        checks.whole(0, "ms", 1, 60000)


def test_a_flag_is_true_or_false_not_one_or_zero():
    assert checks.flag(True, "on") is True and checks.flag(False, "on") is False
    with pytest.raises(SimError, match="on must be true or false"):
        checks.flag(1, "on")


def test_the_pieces_stand_as_the_position_says_and_the_rest_lie_in_the_tray():
    pieces = Pieces(Position.parse(START), 7)
    assert pieces.occupancy() == (1 << 10) - 1          # squares 1..10
    assert [p.square for p in pieces if p.side == "B"] == [1, 3, 5, 7, 9, None, None]
    assert pieces.at(2).side == "W" and pieces.at(11) is None


def test_a_lift_and_a_place_move_one_piece_through_the_hand():
    pieces = Pieces(Position.parse(START), 5)
    piece = pieces.lift(10)
    assert (piece.square, piece.held, pieces.hand) == (None, True, [piece.id])
    assert pieces.occupancy() == (1 << 9) - 1
    assert pieces.place(30) is piece
    assert (piece.square, piece.held, pieces.hand) == (30, False, [])
    assert pieces.occupancy() == (1 << 9) - 1 | 1 << 29


def test_a_bad_lift_or_place_changes_nothing():
    pieces = Pieces(Position.parse(START), 5)
    before = [p.as_dict() for p in pieces]
    with pytest.raises(SimError, match="square 11 is empty"):
        pieces.lift(11)
    with pytest.raises(SimError, match="no piece in hand"):
        pieces.place(11)
    with pytest.raises(SimError, match="piece 0 stands on square 1"):
        pieces.place(11, 0)
    pieces.lift(1)
    with pytest.raises(SimError, match="square 2 is occupied"):
        pieces.place(2)
    with pytest.raises(SimError, match='"off"'):
        pieces.place("of")
    pieces.place(1)
    assert [p.as_dict() for p in pieces] == before


def test_a_knocked_piece_lies_in_its_tray_marked_knocked():
    pieces = Pieces(Position.parse(START), 5)
    square, piece = pieces.knock(None, lambda squares: squares[-1])
    assert (square, piece.square, piece.knocked, piece.side) == (10, None, True, "W")
    with pytest.raises(SimError, match="square 10 is empty"):
        pieces.knock(10, None)


def test_fewer_pieces_a_side_go_from_the_tray_first():
    pieces = Pieces(Position.parse(START), 7)
    pieces.resize(5)
    assert sorted(p.square for p in pieces if p.side == "B") == [1, 3, 5, 7, 9]
    pieces.resize(4)                                     # then the newest standing one
    assert sorted(p.square for p in pieces if p.side == "B") == [1, 3, 5, 7]


def test_arranging_needs_enough_pieces_and_empties_the_hand():
    pieces = Pieces(Position.parse(START), 5)
    pieces.lift(1)
    with pytest.raises(SimError, match="needs 6 black pieces; the board has 5"):
        pieces.arrange(Position.parse("BBBBBB..................WWWWW. W"))
    assert pieces.hand == [0]
    pieces.arrange(Position.parse("..........BWBWBWBWBW.......... B"))
    assert pieces.hand == [] and pieces.occupancy() == ((1 << 10) - 1) << 10


def _steps(pace, start, end, min_scans=4, tick=10):
    seen = []
    for now in range(start, end, tick):
        pace.feed(now, min_scans)
        seen.append((now, pace.board, pace.button))
    return seen


def test_a_board_change_lasts_hold_ms_and_enough_scans_before_the_next():
    pace = Pace(0b11)
    pace.board_to(0b10)                 # a capture swap: lift one...
    pace.board_to(0b00)                 # ...lift the other...
    pace.board_to(0b11)                 # ...and put both down, all at once
    seen = _steps(pace, 0, 400)
    changes = [(now, board) for (now, board, _), (_, before, _) in zip(seen[1:], seen) if board != before]
    assert [board for _, board in changes] == [0b10, 0b00, 0b11]
    assert all(b[0] - a[0] > HOLD_MS for a, b in zip(changes, changes[1:]))
    assert pace.idle()


def test_a_press_released_at_once_is_held_down_at_least_min_press_ms():
    pace = Pace(0)
    assert pace.button_to(True) and not pace.button_to(True)
    assert pace.button_to(False)
    seen = _steps(pace, 0, 300)
    down = [now for now, _, button in seen if button]
    assert down and down[-1] - down[0] + 10 > MIN_PRESS_MS
    assert not seen[-1][2] and pace.idle()


def test_a_press_while_the_button_is_held_down_is_refused():
    pace = Pace(0)
    pace.button_to(True)
    with pytest.raises(SimError, match="already held down"):
        pace.press(100)
    pace.let_go()                       # the power went: nothing pending, button up
    assert pace.idle() and not pace.button


def test_two_presses_at_once_are_two_throws_with_a_gap_between():
    pace = Pace(0)
    pace.press(1)
    pace.press(1)
    seen = _steps(pace, 0, 600)
    edges = [(now, button) for (now, _, button), (_, _, before) in zip(seen[1:], seen) if button != before]
    assert [button for _, button in edges] == [True, False, True, False]
    assert edges[2][0] - edges[1][0] > MIN_GAP_MS
    assert edges[1][0] - edges[0][0] >= 20             # each press lasts two App steps


def test_chatter_never_flips_a_switch_two_scans_in_a_row_and_stops_by_itself():
    chatter = Chatter(random.Random(4))
    chatter.switch(True, 0, 500)
    last, flipped = 0, 0
    for now in range(0, 500, 10):
        bits, ended = chatter.bits(now)
        assert not ended and bits & last == 0 and bits < 1 << 30
        flipped |= bits
        last = bits
    assert flipped                      # it did flip switches
    assert chatter.bits(500) == (0, True) and not chatter.on
    assert chatter.bits(510) == (0, False)


def test_the_brightness_cap_is_a_whole_number_from_1_to_255():
    class App:
        config = {"brightness_cap": 64}
    assert brightness_cap(App(), {}) == 64
    assert brightness_cap(None, {"brightness_cap": 255}) == 255
    assert brightness_cap(None, {"brightness_cap": 256}) == 255
    assert brightness_cap(None, {"brightness_cap": 0}) == 255


def test_an_app_property_that_fails_is_shown_as_unknown():
    class App:
        state = "throw"
        config = {"computer": {"side": "B", "level": 2}}

        @property
        def position(self):
            raise RuntimeError("half-made")
    state = app_state(App(), {"ruleset": "hungarian"})
    assert state["position"] is None and state["state"] == "throw"
    assert state["ruleset"] == "hungarian" and state["computer"] == {"side": "B", "level": 2}


def test_a_step_that_breaks_is_reported_and_the_clock_keeps_going():
    class Broken:
        now_ms = 0
        tick_ms = 10

        def __init__(self):
            self.reported = []
            self.told = threading.Event()

        def step_to(self, now_ms):
            raise KeyError("frame")

        def report_error(self, exc):
            self.reported.append(exc)
            self.told.set()
    sim = Broken()
    clock = Clock(sim).start()
    try:
        sim.told.wait(HANG_S)
    finally:
        clock.stop()
        clock._thread.join(HANG_S)
    assert isinstance(clock.error, KeyError) and sim.reported[0] is clock.error
    assert not clock._thread.is_alive()
