"""Senet rules engine: pure Python for CPython and MicroPython alike.

    >>> from engine import ruleset
    >>> rs = ruleset("kendall")
    >>> start = rs.start()
    >>> [m.text for m in rs.legal_moves(start, 2)]
    ['10-12']
    >>> move = rs.legal_moves(start, 2)[0]
    >>> move.after.text(), move.again
    ('BWBWBWBWB..W.................. B', False)
"""

from engine.position import (
    Position, Move, PositionError, IllegalMoveError, OFF, BLACK, WHITE, EMPTY, other, parse_move_text)
from engine.rules import Ruleset, ruleset, parse_ruleset, RULESETS
