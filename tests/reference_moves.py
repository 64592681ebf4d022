"""A second move generator, written from the rules document and nothing else.

It exists to check ``engine/movegen.py``: written to be obviously right rather
than fast, square by square, one small function per rule id, sharing no code
with the engine (it even reads position text and ruleset options itself).
``moves(spec, text, throw)`` answers exactly what ``python -m engine moves``
prints, as Python objects: a list of ``{"move", "after", "again"}`` ordered by
origin square, then destination (``off`` last).

    >>> moves("kendall", "BWBWBWBWBW.................... W", 2)
    [{'move': '10-12', 'after': 'BWBWBWBWB..W.................. B', 'again': False}]

CPython only (tests run it beside the engine; the Pico never sees it).
"""

FIRST, LAST = 1, 30
EMPTY = "."


# -- reading the text -------------------------------------------------------

class Rules:
    """What a ruleset spec says: ``"kendall"``, ``"hungarian:own_groups_block=true"``."""

    def __init__(self, spec):
        name, _, rest = spec.partition(":")
        options = dict(item.split("=") for item in rest.split(",") if item)
        self.kendall = name == "kendall"
        if not self.kendall and name != "hungarian":
            raise ValueError("unknown ruleset %r" % name)
        self.own_groups_block = options.get("own_groups_block") == "true"


def read_position(text):
    """{square: "B" | "W" | "."} for squares 1..30, and the side to move."""
    board, side = text.split(" ")
    assert len(board) == LAST and side in "BW"
    return {square: board[square - 1] for square in range(FIRST, LAST + 1)}, side


def write_position(board, side):
    return "".join(board[square] for square in range(FIRST, LAST + 1)) + " " + side


def opponent(side):
    return "W" if side == "B" else "B"


# -- common ground (C1..C6) ---------------------------------------------------

def C1_on_board(square):
    return FIRST <= square <= LAST


def C5_piece(board, square):
    """The colour on ``square``, "." if empty, None off the path."""
    return board[square] if C1_on_board(square) else None


def C5_group(board, square):
    """The squares of the group through ``square``: its own colour, consecutive."""
    colour = board[square]
    low = square
    while C5_piece(board, low - 1) == colour:
        low -= 1
    high = square
    while C5_piece(board, high + 1) == colour:
        high += 1
    return list(range(low, high + 1))


def C5_lone(board, square):
    return len(C5_group(board, square)) == 1


def C6_swap(board, origin, target):
    """The captured piece on ``target`` goes to the mover's origin."""
    board[origin] = board[target]
    board[target] = EMPTY


# -- kendall ------------------------------------------------------------------

def K5_again(throw):
    return throw in (1, 4, 5)


def K7_landing(board, square, side):
    """Where the count ends: "land", "capture" or None (illegal)."""
    piece = board[square]
    if piece == EMPTY:
        return "land"
    if piece == side:
        return None                      # never on an own piece
    if K10_safe(square):
        return None
    if C5_lone(board, square):
        return "capture"
    if K9_middle_of_triple(board, square):
        return "capture"
    return None                          # K8: a group protects itself


def K8_jumpable(board, square, direction):
    """A lone piece with an empty square after it, in the direction of travel.
    The board is the one the move began on: the mover is still on it."""
    return C5_lone(board, square) and C5_piece(board, square + direction) == EMPTY


def K9_middle_of_triple(board, square):
    group = C5_group(board, square)
    return len(group) == 3 and group[1] == square


def K9_first_of_enemy_triple(board, square, direction, side):
    """``square`` is the first piece, in the direction of travel, of an enemy
    group of exactly three."""
    if board[square] in (side, EMPTY):
        return False
    group = C5_group(board, square)
    first = group[0] if direction > 0 else group[-1]
    return len(group) == 3 and first == square


def K6_walk(board, origin, throw, direction, side):
    """Count square by square from ``origin``: (target square, "land" or
    "capture"), or None when the move is illegal."""
    count = 0
    square = origin
    while True:
        square += direction
        if square < FIRST:
            return None                  # K15: never below square 1
        if square > LAST:
            return None                  # K13: no move passes beyond 30
        if count + 1 == throw:
            how = K7_landing(board, square, side)
            return (square, how) if how else None
        if board[square] == EMPTY:
            count += 1
        elif K8_jumpable(board, square, direction):
            pass                         # a jumped piece is not counted
        elif count + 2 == throw and K9_first_of_enemy_triple(board, square, direction, side):
            count += 1                   # K9: its square counts, the middle comes next
        else:
            return None


def K10_safe(square):
    return square == 15


def K10_rebirth_again(target):
    return target == 15


def K11_happiness(board, target):
    if target == 26 and board[29] == EMPTY:
        return 29
    return target


def K12_water(board, target):
    if target != 27:
        return target
    for square in range(15, 0, -1):
        if board[square] == EMPTY:
            return square
    raise AssertionError("no free square before 15")


K13_EXITS = {28: 3, 29: 2, 30: 1}


def kendall_move(board, side, origin, throw, direction):
    """The move of the piece on ``origin``: (text, after board, again) or None."""
    if origin in K13_EXITS:
        if direction > 0 and K13_EXITS[origin] == throw:
            after = dict(board)
            after[origin] = EMPTY
            return "%d-off" % origin, after, K5_again(throw)
        return None                      # K13: otherwise it never moves
    walked = K6_walk(board, origin, throw, direction, side)
    if walked is None:
        return None
    target, how = walked
    after = dict(board)
    after[origin] = EMPTY
    if how == "capture":
        C6_swap(after, origin, target)
    final = K12_water(after, K11_happiness(after, target))
    after[final] = side
    again = K5_again(throw) or K10_rebirth_again(target)
    return "%d-%d" % (origin, target), after, again


# -- hungarian ----------------------------------------------------------------

H3_VALUES = (1, 2, 3, 4, 6)


def H5_again(throw):
    return throw in (1, 4, 6)


def H7_landing(board, square, side):
    piece = board[square]
    if piece == EMPTY:
        return "land"
    if piece == side:
        return None
    if H9_safe(square):
        return None
    if C5_lone(board, square):
        return "capture"
    return None                          # a small (or big) block is not captured


def H8_passable(rules, board, square, side):
    """Lone pieces and small blocks can be jumped, big blocks (three or more)
    cannot; own pieces never block unless ``own_groups_block`` (then their
    groups of three, the mover included, do)."""
    piece = board[square]
    if piece == EMPTY:
        return True
    if piece == side and not rules.own_groups_block:
        return True
    return len(C5_group(board, square)) < 3


def H9_safe(square):
    return square in (26, 28, 29)


def H10_water(board, target):
    if target != 27:
        return target
    if board[15] == EMPTY:
        return 15
    for square in range(1, LAST + 1):
        if board[square] == EMPTY:
            return square
    raise AssertionError("no free square")


def H11_leaves(square):
    return square >= 30


def H12_may_leave(board, side):
    return all(board[square] != side for square in range(1, 11))


def H6_walk(rules, board, origin, throw, direction, side):
    """Every square passed counts: (target or "off", "land"/"capture") or None."""
    for step in range(1, throw + 1):
        square = origin + direction * step
        if square < FIRST:
            return None                  # H13: never below square 1
        if direction > 0 and H11_leaves(square):
            return ("off", "land") if H12_may_leave(board, side) else None
        if step == throw:
            how = H7_landing(board, square, side)
            return (square, how) if how else None
        if not H8_passable(rules, board, square, side):
            return None


def hungarian_move(rules, board, side, origin, throw, direction):
    walked = H6_walk(rules, board, origin, throw, direction, side)
    if walked is None:
        return None
    target, how = walked
    after = dict(board)
    after[origin] = EMPTY
    if target == "off":
        return "%d-off" % origin, after, H5_again(throw)
    if how == "capture":
        C6_swap(after, origin, target)
    after[H10_water(after, target)] = side
    return "%d-%d" % (origin, target), after, H5_again(throw)


# -- both: forward, else backward (K15, H13) -----------------------------------

def one_direction(rules, board, side, throw, direction):
    found = []
    for origin in range(FIRST, LAST + 1):
        if board[origin] != side:
            continue
        if rules.kendall:
            move = kendall_move(board, side, origin, throw, direction)
        else:
            move = hungarian_move(rules, board, side, origin, throw, direction)
        if move is not None:
            text, after, again = move
            found.append({"move": text,
                          "after": write_position(after, side if again else opponent(side)),
                          "again": again})
    return found


def moves(spec, text, throw):
    """Every legal move, as ``python -m engine moves`` prints it (parsed)."""
    rules = Rules(spec)
    board, side = read_position(text)
    forward = one_direction(rules, board, side, throw, +1)
    if forward:
        return forward
    return one_direction(rules, board, side, throw, -1)   # K15, H13


def throws(spec):
    """The throw values of the ruleset (K3, H3)."""
    return (1, 2, 3, 4, 5) if Rules(spec).kendall else H3_VALUES
