"""The one hand that carries out an engine move on a board, for the App's
scenario board (tests/board_sim.py) and the museum soak (tests/bench/soak.py).
A module of its own: the soak's small heap has no room for the whole
scenario board."""

OFF = 31          # engine.position.OFF


def carry(hands, move, via):
    """Make an engine move by hand, the way a player would: ``hands`` lifts
    and places one square at a time (``lift(s)``, ``place(s)``).

    A capture swaps the two pieces (C6). A piece whose count ends on the
    water or the House of Happiness and goes on from there (K11, K12, H10)
    is put there first if ``via()`` says so (asked for no other move),
    otherwise it goes straight to its final square. A piece leaving the
    board stays in the hand.
    """
    o, to, final = move.origin, move.to, move.final
    hands.lift(o)
    if move.capture:
        hands.lift(to)
        hands.place(to)
        if final != to:
            hands.lift(to)
            if final != OFF:
                hands.place(final)
        hands.place(o)
    elif final != OFF:
        if to != final and via():
            hands.place(to)
            hands.lift(to)
        hands.place(final)
