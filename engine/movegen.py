"""The one move generator, an interpreter of a Ruleset's options.

It never asks a ruleset's name: every difference between Kendall's rules and
the Hungarian book is an option read here (see ``Ruleset``).

The mover still counts (K8, H8 decisions): groups are judged on the board as
it stands when the move begins, the moving piece included.  So a piece beside
the mover, of its colour, is in a pair with it and cannot be jumped; a lone
enemy piece beside it stays lone.  Only where the piece comes to rest (the
House of Happiness, the water) is the origin already empty.

    >>> from engine import ruleset, Position
    >>> kendall = ruleset("kendall")
    >>> def moves(rs, text, throw):
    ...     return [m.text for m in rs.legal_moves(Position.parse(text), throw)]

K8: black on 3 and 4 are a pair, so 3 cannot jump 4; white on 3 jumps the lone
black on 4:

    >>> moves(kendall, "..BB.......................... B", 2)
    ['4-6']
    >>> moves(kendall, "..WB.......................... W", 2)
    ['3-6']

K9: only the middle of a triple is taken, forward or backward.  White on 21
and 22 with a throw of 1 may not take the near end of black's 18, 19, 20:

    >>> moves(kendall, ".........W.BBB................ W", 3)
    ['10-13']
    >>> moves(kendall, ".................BBBWWBB...... W", 1)
    []

H8 with ``own_groups_block``: 3, 4 and 5 are a group of three, mover included:

    >>> moves(ruleset("hungarian", own_groups_block=True), "..BBB.......................W. B", 4)
    ['5-9']

Speed matters on the Pico (the computer player calls this thousands of times a
decision), so the options are read once per call from one tuple, the plan,
pieces are found with ``bytes.find``, and a move allocates only its Move.
"""

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

from engine.position import Move, OFF, SQUARES, E, WALL

# The plan: a ruleset's options as one tuple (see ``plan``), read by these
# names.  Constants with a leading underscore cost MicroPython no RAM.
_EVERY = const(0)          # H6: every square passed counts
_LONE_JUMP = const(1)      # K8: only a lone piece with an empty square after it
_BIG = const(2)            # H8, K9: size of a group that is never passed
_TRIPLE = const(3)         # K9: a triple breaks on its middle
_SAFE = const(4)           # K10, H9: squares whose piece cannot be captured
_OWN_BLOCK = const(5)      # H8 option: own groups block too
_EXITS = const(6)          # K13: {square: exact throw that leaves}
_HAPPINESS = const(7)      # K11: {square: square it moves on to}
_WATER_TO = const(8)       # K12, H10: where the water sends a piece
_BEFORE = const(9)         # K12: nearest free square before ``_WATER_TO``
_HOME_ROW = const(10)      # H12: no piece leaves while one stands on 1..this
_LEAVE_AT = const(11)      # H11: reaching this square or beyond leaves
_AGAIN = const(12)         # K5, H5: throws after which the mover throws again
_WATER = const(13)         # K12, H10: the water square
_REBIRTH = const(14)       # K10: ending here by the count throws again

# Why a walk refuses a move: returned in place of a square, so all above OFF.
REFUSED = const(32)        # the first of them: ``walk(...) >= REFUSED``
_BELOW = const(32)         # K15, H13: below square 1
_BEYOND = const(33)        # K13: beyond square 30
_OWN = const(34)           # K7, H7: the count ends on an own piece
_SAFE_SQUARE = const(35)   # K10, H9: on a piece that cannot be captured
_GROUP = const(36)         # K8, H7: on a piece its group protects
_JUMP = const(37)          # K8, H8: past a piece that cannot be jumped


def plan(rs):
    """The options of Ruleset ``rs`` as one tuple, indexed by the constants
    above (one tuple read per call is what keeps this fast on the Pico)."""
    return (
        rs.counting == "every_square",
        rs.jump == "lone_then_empty",
        rs.big_block,
        rs.triple_break,
        tuple(rs.safe),
        rs.own_groups_block,
        rs.exits,
        rs.happiness,
        rs.water_to,
        rs.water_fallback == "before",
        rs.home_row_blocks_exit,
        rs.leave_at,
        tuple(rs.again_values),
        rs.water,
        rs.rebirth or -1,
    )


NEEDLE = {"B": b"B", "W": b"W"}


def _cell(cells, i):
    if 0 <= i < len(cells):
        return cells[i]
    return WALL


def _group_size(cells, square):
    """Size of the run of same-coloured pieces through ``square`` (C5)."""
    code = cells[square]
    low = square
    while cells[low - 1] == code:
        low -= 1
    high = square
    while cells[high + 1] == code:
        high += 1
    return high - low + 1


def _first_of_triple(cells, square, step):
    """K9: ``square`` starts, in the direction of travel, a group of exactly three."""
    code = cells[square]
    return (_cell(cells, square + step) == code
            and _cell(cells, square + 2 * step) == code
            and _cell(cells, square - step) != code
            and _cell(cells, square + 3 * step) != code)


def walk(plan, cells, mover, origin, throw, step, leave_at):
    """Follow the path from ``origin``; return ``to`` (negative for a capture),
    or, if the move is illegal, why (a reason above OFF).

    K6 (formal decision): at each square, if this step completes the count the
    piece lands; otherwise an empty square counts 1, a passable piece counts 1
    under H6 and 0 under K6, and anything else stops the move.  This is the
    innermost loop of the computer player, so it is written flat.
    """
    every, lone_jump, big, triple = plan[_EVERY], plan[_LONE_JUMP], plan[_BIG], plan[_TRIPLE]
    count = 0
    last = throw - 1
    square = origin
    while True:
        square += step
        if square < 1:
            return _BELOW                        # K15, H13: never below square 1
        if leave_at and square >= leave_at:
            return OFF                           # H11: reaching 30 or beyond leaves
        if square > SQUARES:
            return _BEYOND                       # K13: no move passes beyond 30
        code = cells[square]
        if count == last:
            # the count ends here
            if code == E:
                return square
            if code == mover:
                return _OWN                      # K7, H7: never an own piece
            if square in plan[_SAFE]:
                return _SAFE_SQUARE              # K10, H9: a safe square
            if cells[square - 1] != code and cells[square + 1] != code:
                return -square                   # K7, H7: a lone enemy is swapped (C6)
            if (triple and cells[square - 1] == code and cells[square + 1] == code
                    and _group_size(cells, square) == 3):
                return -square                   # K9: the middle of a triple, never an end
            return _GROUP                        # K8, H7: groups protect
        if code == E:
            count += 1
        elif lone_jump:
            # K8 decision: only a lone piece with an empty square after it.
            if cells[square - 1] != code and cells[square + 1] != code and cells[square + step] == E:
                continue
            if triple and code != mover and count + 2 == throw and _first_of_triple(cells, square, step):
                count += 1                       # K9 decision: step onto the middle next
                continue
            return _JUMP
        elif (code == mover and not plan[_OWN_BLOCK]) or _group_size(cells, square) < big:
            # H8: lone pieces and small blocks are jumped, big blocks are not;
            # own pieces never block unless own_groups_block is on.
            if every:
                count += 1
        else:
            return _JUMP


def _water_square(plan, cells):
    """Where a piece landing on the water goes (K12, H10)."""
    water_to = plan[_WATER_TO]
    if cells[water_to] == E:
        return water_to
    if plan[_BEFORE]:
        squares = range(water_to - 1, 0, -1)     # K12: nearest free before 15
    else:
        squares = range(1, SQUARES + 1)          # H10: square 1, then upwards
    for square in squares:
        if cells[square] == E:
            return square
    return water_to                              # unreachable with 30 squares


def exit_blocked(plan, cells, mover):
    """H12: no piece leaves while the side has a piece on squares 1..10."""
    for square in range(1, plan[_HOME_ROW] + 1):
        if cells[square] == mover:
            return True
    return False


def _moves(plan, position, throw, step):
    cells = position.cells
    side = position.turn
    mover = ord(side)
    needle = NEEDLE[side]
    exits = plan[_EXITS]
    leave_at = plan[_LEAVE_AT] if step > 0 else 0
    again = throw in plan[_AGAIN]                # K5, H5
    work = bytearray(cells)
    moves = []
    origin = cells.find(needle, 1)
    while 0 < origin <= SQUARES:
        if origin in exits:
            # K13: a piece in the last houses leaves on its exact throw, or stays.
            if step > 0 and exits[origin] == throw:
                moves.append(Move(position, (side, throw, origin, OFF, OFF, False, again)))
            origin = cells.find(needle, origin + 1)
            continue
        # K8, H8: the walk reads the board as the move begins, mover included
        to = walk(plan, cells, mover, origin, throw, step, leave_at)
        if to <= OFF:
            work[origin] = E                     # where it comes to rest, it has left
            capture = to < 0
            if capture:
                to = -to
            final = to
            if to == OFF:
                if plan[_HOME_ROW] and exit_blocked(plan, cells, mover):
                    final = 0
            else:
                onward = plan[_HAPPINESS].get(to)
                if onward and work[onward] == E:
                    final = onward               # K11: on to the House of Two Judges
                elif to == plan[_WATER]:
                    final = _water_square(plan, work)   # K12, H10
            if final:
                extra = again or (to == plan[_REBIRTH])       # K10: ending on 15 by the count
                moves.append(Move(position, (side, throw, origin, to, final, capture, extra)))
            work[origin] = mover
        origin = cells.find(needle, origin + 1)
    return moves


def legal_moves(rs, position, throw):
    """Forward moves; if there are none, backward moves (K15, H13)."""
    plan = rs.plan()
    moves = _moves(plan, position, throw, 1)
    if not moves:
        moves = _moves(plan, position, throw, -1)
    return moves

