"""Positions and moves, and their text forms.

Position text (used in tests, logs, saved games and the serial protocol):
30 characters for squares 1..30 (``B`` black, ``W`` white, ``.`` empty), one
space, then the side to throw next.  Pieces not on the board have left it.

    >>> p = Position.parse("BWBWBWBWBW.................... W")
    >>> p.at(10), p.turn
    ('W', 'W')

Move text: ``<from>-<to>``, ``to`` a square number or ``off``.
"""

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

SQUARES = const(30)
OFF = const(31)          # the "square" a piece goes to when it leaves the board
BLACK = "B"
WHITE = "W"
EMPTY = "."

# Cells are kept as bytes with a wall at each end (index 0 and 31), so that the
# neighbours of any square can be read without bounds checks.
B = const(66)            # ord("B")
W = const(87)            # ord("W")
E = const(46)            # ord(".")
WALL = const(35)         # ord("#")


class PositionError(ValueError):
    """Malformed position or move text, or a position the rules cannot reach."""


class IllegalMoveError(PositionError):
    """A well-formed move the rules do not allow (python-chess's name).

    ``rule`` is the id of the rule that refuses it (``"K8"``, ``"H12"``) when
    a single rule does, else None; the message says the same in words.  A
    PositionError, so callers that catch that keep working.  (No __init__ of
    its own: a class with none costs the Pico's heap less; the rule is set on
    the raised instance.)
    """

    rule = None


def other(side):
    """The opponent of ``side`` ("B" or "W")."""
    return WHITE if side == BLACK else BLACK


class Position:
    """Who stands where, and which side throws next.

    ``cells`` is a 32-byte string: index 0 and 31 are walls, index 1..30 the
    squares.  Positions are immutable values: equal text, equal position.
    """

    def __init__(self, cells, turn):
        self.cells = cells
        self.turn = turn

    @classmethod
    def parse(cls, text):
        """Read position text; raise PositionError saying what is wrong."""
        if not isinstance(text, str):
            raise PositionError("position must be text, not %s" % type(text).__name__)
        text = text.strip()
        if len(text) != SQUARES + 2 or text[SQUARES] != " ":
            raise PositionError(
                "position must be 30 squares, a space and the side to move "
                "(e.g. 'BWBWBWBWBW.................... W'), got %r" % text)
        board, turn = text[:SQUARES], text[SQUARES + 1]
        for i in range(SQUARES):
            if board[i] not in "BW.":
                raise PositionError("square %d holds %r; use B, W or ." % (i + 1, board[i]))
        if turn not in "BW":
            raise PositionError("side to move must be B or W, got %r" % turn)
        return cls(b"#" + board.encode() + b"#", turn)

    @classmethod
    def from_squares(cls, squares, turn):
        """Build from a 30-character string or list of "B"/"W"/"."."""
        return cls.parse("".join(squares) + " " + turn)

    def text(self):
        return self.cells[1:SQUARES + 1].decode() + " " + self.turn

    __str__ = text

    def __repr__(self):
        return "Position(%r)" % self.text()

    def __eq__(self, other_position):
        return (isinstance(other_position, Position)
                and self.cells == other_position.cells
                and self.turn == other_position.turn)

    def __hash__(self):
        return hash(self.cells) ^ (1 if self.turn == WHITE else 0)

    def at(self, square):
        """"B", "W" or "." on square 1..30."""
        return chr(self.cells[square])

    def squares_of(self, side):
        """The squares holding ``side``'s pieces, in path order."""
        code = ord(side)
        return [s for s in range(1, SQUARES + 1) if self.cells[s] == code]

    def count(self, side):
        """How many of ``side``'s pieces stand on the board."""
        return self.cells.count(b"B" if side == BLACK else b"W")

    def occupancy(self):
        """What the reed switches see: a 30-bit int, bit 0 = square 1."""
        bits = 0
        for s in range(1, SQUARES + 1):
            if self.cells[s] != E:
                bits |= 1 << (s - 1)
        return bits

    def with_turn(self, turn):
        return Position(self.cells, turn)


def square_name(square):
    return "off" if square == OFF else str(square)


def parse_move_text(text):
    """``"12-15"`` -> (12, 15); ``"28-off"`` -> (28, OFF)."""
    if not isinstance(text, str):
        raise PositionError("move must be text like '12-15' or '28-off'")
    parts = text.strip().split("-")
    if len(parts) != 2:
        raise PositionError("move must be <from>-<to>, like '12-15' or '28-off', got %r" % text)
    try:
        origin = int(parts[0])
        to = OFF if parts[1] == "off" else int(parts[1])
    except ValueError:
        raise PositionError("move squares must be numbers 1..30 or 'off', got %r" % text)
    if not 1 <= origin <= SQUARES or not 1 <= to <= OFF:
        raise PositionError("move squares must be 1..30 (or 'off'), got %r" % text)
    return origin, to


_SPEC = {"side": 0, "throw": 1, "origin": 2, "to": 3, "final": 4, "capture": 5, "again": 6}


class Move:
    """One legal move with all its consequences.

    ``origin``   the square the piece starts from
    ``to``       the square where its count ends (``OFF`` when it leaves)
    ``final``    where the piece comes to rest after the square's effect
                 (House of Happiness K11, water H10/K12); ``OFF`` when it leaves
    ``capture``  True when the move swaps with an enemy piece (C6), which is
                 then put on ``origin``
    ``before``   the position the move is played from
    ``after``    the position after every side effect, the side to throw next
                 already set
    ``again``    whether the mover throws again

    Few attributes are stored (a MicroPython instance with more than four grows
    its attribute table, which costs more than the rest of move generation);
    the rest are read from one tuple, and ``after`` is built when first asked.
    """

    _after = None                 # a class default: one attribute fewer to store per move

    def __init__(self, before, spec):
        self.before = before
        self.spec = spec          # (side, throw, origin, to, final, capture, again)

    @property
    def after(self):
        """The position after the move, built on first use and kept."""
        if self._after is None:
            side, _, origin, to, final, capture, again = self.spec
            cells = bytearray(self.before.cells)
            cells[origin] = E
            if capture:
                cells[origin] = cells[to]    # C6: the captured piece takes the origin
                cells[to] = E
            if final != OFF:
                cells[final] = ord(side)
            self._after = Position(bytes(cells), side if again else other(side))
        return self._after

    def __getattr__(self, name):
        # side, throw, origin, to, final, capture, again: read from ``spec``
        # (one function instead of seven properties: less heap on the Pico)
        index = _SPEC.get(name)
        if index is None:
            raise AttributeError(name)
        return self.spec[index]

    @property
    def text(self):
        return "%d-%s" % (self.origin, square_name(self.to))

    def __str__(self):
        return self.text

    def __repr__(self):
        return "Move(%r)" % self.text

    @property
    def backward(self):
        return self.to != OFF and self.to < self.origin

    @property
    def leaves(self):
        return self.final == OFF

    def effects(self):
        """What the board's sensors will see: ``(emptied, filled)``.

        ``emptied``: squares that held a piece and end empty.
        ``filled``: ``(square, colour)`` for each square that ends holding a
        piece it did not hold before (a capture swap fills both squares with
        the other colour while the occupancy stays the same).
        """
        emptied = []
        filled = []
        a, b = self.before.cells, self.after.cells
        for s in range(1, SQUARES + 1):
            if a[s] != b[s]:
                if b[s] == E:
                    emptied.append(s)
                else:
                    filled.append((s, chr(b[s])))
        return emptied, filled

    def touched(self):
        """Squares a player's hands visit to make this move, in order."""
        seen = [self.origin]
        for s in (self.to, self.final):
            if s != OFF and s not in seen:
                seen.append(s)
        return seen
