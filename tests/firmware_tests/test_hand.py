"""One hand carries out an engine move, for the App's scenario board
(tests/board_sim.py) and the museum soak (tests/bench/soak.py): the same
lifts and places in the same order from the same move, whether a capture
swap (C6), a piece put on the water and carried back to 15 (K12), or a
piece borne off."""

import os
import sys

from engine import Position, ruleset

from board_sim import BoardSim
from hand import carry
import paths

sys.path.insert(0, os.path.join(paths.TESTS, "bench"))
import soak  # noqa: E402

CAPTURE = "B.W........W.B................ W"
WATER = "B.B.W...................W..... W"
BEAR_OFF = "B.B.W........................W W"


def the_move(position, throw, text):
    moves = ruleset("kendall").legal_moves(Position.parse(position), throw)
    return next(m for m in moves if m.text == text)


class Recorder:
    def __init__(self):
        self.done = []

    def lift(self, square):
        self.done.append(("lift", square))

    def place(self, square):
        self.done.append(("place", square))


def carried(move, via=True):
    hands = Recorder()
    carry(hands, move, lambda: via)
    return hands.done


def test_a_capture_is_two_lifts_and_two_places():
    assert carried(the_move(CAPTURE, 2, "12-14")) == [
        ("lift", 12), ("lift", 14), ("place", 14), ("place", 12)]


def test_the_water_is_stopped_on_or_gone_past():
    move = the_move(WATER, 2, "25-27")
    assert carried(move, via=True) == [("lift", 25), ("place", 27), ("lift", 27),
                                       ("place", 15)]
    assert carried(move, via=False) == [("lift", 25), ("place", 15)]


def test_a_piece_borne_off_stays_in_the_hand():
    move = the_move(BEAR_OFF, 1, "30-off")
    assert carried(move) == [("lift", 30)]


class RecordingBoard(BoardSim):
    def __init__(self):
        BoardSim.__init__(self)
        self.done = []

    def lift(self, *squares, ms=60):
        self.done += [("lift", s) for s in squares]
        return BoardSim.lift(self, *squares, ms=ms)

    def place(self, *squares, ms=60):
        self.done += [("place", s) for s in squares]
        return BoardSim.place(self, *squares, ms=ms)


class RecordingSoak(soak.Soak):
    def __init__(self, via):
        soak.Soak.__init__(self, 1)
        self.done = []
        self.via = via

    def half_the_time(self):
        return self.via

    def lift(self, s, ms=120):
        self.done.append(("lift", s))
        soak.Soak.lift(self, s, ms)

    def place(self, s, ms=120):
        self.done.append(("place", s))
        soak.Soak.place(self, s, ms)


def test_the_scenario_board_and_the_soak_carry_a_move_alike():
    for position, throw, text in ((CAPTURE, 2, "12-14"), (WATER, 2, "25-27"),
                                  (BEAR_OFF, 1, "30-off")):
        move = the_move(position, throw, text)
        for via in (True, False):
            board = RecordingBoard()
            board.play(move, via=via)
            visitor = RecordingSoak(via)
            visitor.carry(move)
            assert board.done == visitor.done == carried(move, via), (text, via)
