"""The one move generator, an interpreter of a Ruleset's options.

It never asks a ruleset's name: every difference between Kendall's rules and
the Hungarian book is an option read here (see ``Ruleset``).  The mover is
lifted off its origin before the walk, as on the real board: a piece that has
been picked up neither protects its neighbours nor blocks its own path.
"""

from engine.position import Move, Position, OFF, SQUARES, E, WALL, other


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


def _lone(cells, square):
    """C5: no piece of its own colour on either adjacent square."""
    code = cells[square]
    return cells[square - 1] != code and cells[square + 1] != code


def _can_pass(rs, cells, square, mover, step):
    """May the moving piece go past the piece on ``square``?"""
    code = cells[square]
    if rs.jump == "lone_then_empty":
        # K8 decision: only a lone piece with an empty square after it.
        return _lone(cells, square) and cells[square + step] == E
    # H8: lone pieces and small blocks are jumped, big blocks are not; own
    # pieces never block unless the own_groups_block option is on.
    if code == mover and not rs.own_groups_block:
        return True
    return _group_size(cells, square) < rs.big_block


def _first_of_triple(cells, square, step):
    """K9: ``square`` starts, in the direction of travel, a group of exactly three."""
    code = cells[square]
    return (_cell(cells, square + step) == code
            and _cell(cells, square + 2 * step) == code
            and _cell(cells, square - step) != code
            and _cell(cells, square + 3 * step) != code)


def _landing(rs, cells, square, mover):
    """Can the count end on ``square``?  Returns (legal, capture)."""
    code = cells[square]
    if code == E:
        return True, False
    if code == mover:
        return False, False                      # K7, H7: never on an own piece
    if square in rs.safe:
        return False, False                      # K10, H9
    size = _group_size(cells, square)
    if size == 1:
        return True, True                        # K7, H7: a lone enemy is swapped (C6)
    if rs.triple_break and size == 3 and cells[square - 1] == code:
        return True, True                        # K9: the middle of a triple
    return False, False                          # K8, H7: groups protect


def _walk(rs, cells, mover, origin, throw, step):
    """Follow the path from ``origin``; return (to, capture) or None if illegal.

    K6 (formal decision): at each square, if this step completes the count the
    piece lands; otherwise an empty square counts 1, a passable piece counts 1
    under H6 and 0 under K6, and anything else stops the move.
    """
    every = rs.counting == "every_square"
    count = 0
    square = origin
    while True:
        square += step
        if square < 1:
            return None                          # K15, H13: never below square 1
        if step > 0 and rs.leave_at and square >= rs.leave_at:
            return OFF, False                    # H11: reaching 30 or beyond leaves
        if square > SQUARES:
            return None                          # K13: no move passes beyond 30
        if count + 1 == throw:
            legal, capture = _landing(rs, cells, square, mover)
            return (square, capture) if legal else None
        if cells[square] == E:
            count += 1
        elif _can_pass(rs, cells, square, mover, step):
            if every:
                count += 1
        elif (rs.triple_break and cells[square] != mover and count + 2 == throw
              and _first_of_triple(cells, square, step)):
            count += 1                           # K9 decision: step onto the middle next
        else:
            return None


def _water_square(rs, cells):
    """Where a piece landing on the water goes (K12, H10)."""
    if cells[rs.water_to] == E:
        return rs.water_to
    if rs.water_fallback == "before":
        squares = range(rs.water_to - 1, 0, -1)  # K12: nearest free before 15
    else:
        squares = range(1, SQUARES + 1)          # H10: square 1, then upwards
    for square in squares:
        if cells[square] == E:
            return square
    return rs.water_to                           # unreachable with 30 squares


def _make_move(rs, position, lifted, mover, origin, to, capture, throw):
    after = bytearray(lifted)
    side = position.turn
    if capture:
        after[origin] = position.cells[to]       # C6: the captured piece takes the origin
        after[to] = E                            # ... and the mover may move on (K11)
    final = to
    if to != OFF:
        onward = rs.happiness.get(to)
        if onward and after[onward] == E:
            final = onward                       # K11: on to the House of Two Judges
        elif to == rs.water:
            final = _water_square(rs, after)     # K12, H10
        after[final] = mover
    again = throw in rs.again_values or (rs.rebirth and to == rs.rebirth)   # K5, H5, K10
    turn = side if again else other(side)
    return Move(side, throw, origin, to, final, capture, position,
                Position(bytes(after), turn), bool(again))


def _exit_blocked(rs, cells, mover):
    """H12: no piece leaves while the side has a piece on squares 1..10."""
    for square in range(1, rs.home_row_blocks_exit + 1):
        if cells[square] == mover:
            return True
    return False


def _moves(rs, position, throw, step):
    cells = position.cells
    mover = ord(position.turn)
    moves = []
    for origin in range(1, SQUARES + 1):
        if cells[origin] != mover:
            continue
        if origin in rs.exits:
            # K13: a piece in the last houses leaves on its exact throw, or stays.
            if step > 0 and rs.exits[origin] == throw:
                lifted = bytearray(cells)
                lifted[origin] = E
                moves.append(_make_move(rs, position, lifted, mover, origin, OFF, False, throw))
            continue
        lifted = bytearray(cells)
        lifted[origin] = E
        result = _walk(rs, lifted, mover, origin, throw, step)
        if result is None:
            continue
        to, capture = result
        if to == OFF and _exit_blocked(rs, cells, mover):
            continue
        moves.append(_make_move(rs, position, lifted, mover, origin, to, capture, throw))
    return moves


def legal_moves(rs, position, throw):
    """Forward moves; if there are none, backward moves (K15, H13)."""
    moves = _moves(rs, position, throw, 1)
    if not moves:
        moves = _moves(rs, position, throw, -1)
    return moves
