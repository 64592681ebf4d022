"""Why a move is refused: an IllegalMoveError naming the rule, in words.

Loaded only when a move is refused (``Ruleset.find_move``), so the board's
firmware, which plays generated moves, never holds this code.

    >>> from engine import ruleset, Position
    >>> rs = ruleset("kendall")
    >>> rs.find_move(Position.parse("..BB.......................... B"), 2, "3-6")
    Traceback (most recent call last):
    ...
    engine.position.IllegalMoveError: 3-6 is not a legal move for B with a throw of 2 in ..BB.......................... B: K8: it would have to pass a piece it cannot jump
"""

from engine.position import IllegalMoveError, OFF, parse_move_text, square_name
from engine.movegen import walk, exit_blocked, REFUSED

# what ``walk`` returns when it refuses, from REFUSED up (see engine/movegen.py)
_WALK_REFUSALS = ("below", "beyond", "own", "safe", "group", "jump")

# the words for each reason; the rule id comes from the ruleset (Ruleset.cites)
_WORDS = {
    "piece": "there is no piece of the side to move on %(origin)d",
    "backward": "a backward move is allowed only when no forward move exists",
    "count": "with a throw of %(throw)d the piece on %(origin)d ends on %(end)s",
    "below": "it would go below square 1",
    "beyond": "it would go beyond square 30",
    "own": "it would land on a piece of its own side",
    "safe": "the piece it would land on stands on a safe square",
    "group": "the piece it would land on is protected by its group",
    "jump": "it would have to pass a piece it cannot jump",
    "exit": "a piece on %(origin)d only leaves, on its exact throw",
    "home": "no piece leaves while one of its side stands on squares 1 to %(home)d",
    "throw": "it was made for a throw of %(made)d, and the throw is %(throw)d",
}


def cite(rs, reason):
    """The id of the rule of ``rs`` behind ``reason``, or None."""
    words = rs.cites.split()
    for i in range(0, len(words) - 1, 2):
        if words[i] == reason:
            return words[i + 1]
    return None


def illegal(rs, position, throw, text, reason, **facts):
    """The IllegalMoveError for ``reason``, citing the ruleset's rule for it."""
    rule = cite(rs, reason)
    facts["throw"] = throw
    facts["home"] = rs.home_row_blocks_exit
    words = _WORDS[reason] % facts
    if rule:
        words = rule + ": " + words
    error = IllegalMoveError("%s is not a legal move for %s with a throw of %d in %s: %s" % (
        text, position.turn, throw, position.text(), words))
    error.rule = rule
    return error


def refusal(rs, position, origin, throw, step):
    """Why the piece on ``origin`` has no move with ``throw`` going ``step``
    (1 forward, -1 backward): a reason of ``_WORDS``, or None when it has one.
    The same walk as the move generator's, read for its reason."""
    if origin in rs.exits:
        return None if step > 0 and rs.exits[origin] == throw else "exit"   # K13
    plan = rs.plan()
    mover = position.cells[origin]
    to = walk(plan, position.cells, mover, origin, throw, step,
              rs.leave_at if step > 0 else 0)
    if to >= REFUSED:
        return _WALK_REFUSALS[to - REFUSED]
    if to == OFF and rs.home_row_blocks_exit and exit_blocked(plan, position.cells, mover):
        return "home"                                                     # H12
    return None


def refuse(rs, position, throw, text):
    """The error for a well-formed move ``text`` that is not legal."""
    origin, to = parse_move_text(text)
    if position.at(origin) != position.turn:
        return illegal(rs, position, throw, text, "piece", origin=origin)
    legal = rs.legal_moves(position, throw)
    backward = to != OFF and to < origin
    if backward and legal and not legal[0].backward:
        return illegal(rs, position, throw, text, "backward")        # K15, H13
    reason = refusal(rs, position, origin, throw, -1 if backward else 1)
    if reason is not None:
        return illegal(rs, position, throw, text, reason, origin=origin)
    for move in legal:
        if move.origin == origin:
            # K6, H6: the piece can move, but the throw takes it elsewhere
            return illegal(rs, position, throw, text, "count", origin=origin,
                           end=square_name(move.to))
    # the piece's forward move exists only when backward moves are forced: not here
    return illegal(rs, position, throw, text, "backward")
