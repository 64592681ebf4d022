"""config "debounce_scans": how many scans in a row a square must read
changed before the App believes it, told through the App contract only.

A reed switch chatters as a magnet slides past it; a board whose switches
chatter longer is given a higher count (docs/config.md), and CircuitPython's
keypad, which debounces in C, sets it to 1. Time advances one 10 ms scan a
step, as on the Pico.
"""

import pytest

from board_sim import BoardSim, throws
from firmware.recognise import bit


def white_to_move_with_a_1(scans):
    """Kendall after the opening (2, then 1: K4): white moves 10 with its 1."""
    board = BoardSim(config={"debounce_scans": scans}, rng=throws(2, 1))
    board.setup().press().press()
    assert board.app.state == "move" and board.squares_with("movable")
    board.clear()
    return board


def scans_of(board, n):
    for _ in range(n):
        board.step()


@pytest.mark.parametrize("scans", [1, 2, 5, 20])
def test_a_lift_counts_after_debounce_scans_scans_and_a_shorter_flicker_never(scans):
    board = white_to_move_with_a_1(scans)
    before = list(board.app.roles)
    # A flicker one scan short of the count, twice: nothing happened.
    for _ in range(2):
        board.occ &= ~bit(10)
        scans_of(board, scans - 1)
        board.occ |= bit(10)
        scans_of(board, 3)
    assert board.app.roles == before and board.events == []
    # Held for the whole count: the piece on 10 is in the hand at that scan.
    board.occ &= ~bit(10)
    scans_of(board, scans - 1)
    assert board.squares_with("lifted") == []
    board.step()
    assert board.squares_with("lifted") == [10] and board.squares_with("target") == [11]


@pytest.mark.parametrize("scans", [2, 6])
def test_a_piece_brushing_a_square_on_its_way_is_believed_only_after_the_count(scans):
    board = white_to_move_with_a_1(scans)
    board.lift(10)
    assert board.squares_with("target") == [11]
    for brush in (scans - 1, scans):          # the piece brushes square 12...
        board.occ |= bit(12)
        scans_of(board, brush)
        seen = board.app.occupancy & bit(12)  # the board as the App believes it
        board.occ &= ~bit(12)                 # ...on its way back to 11
        scans_of(board, scans + 1)
        assert bool(seen) == (brush == scans), brush
    board.place(11).wait()
    assert board.last("move")["move"] == "10-11"
