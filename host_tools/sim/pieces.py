"""The physical pieces of the virtual board and the hand that moves them.

A reed-switch board only knows *where* something stands, never *what*. The
simulator keeps what the sensors cannot: one ``Piece`` per physical piece,
with its colour and the square it stands on or the tray beside the board it
lies in, and the hand holding the pieces lifted and not yet put down.
``Pieces`` makes from them the occupancy a scan would read. It knows no rule,
no App and no clock; every move checks everything first, then changes the board.
"""

from host_tools.sim import checks
from host_tools.sim.checks import SimError


class Piece:
    """One physical piece: its colour and where it is.

    ``square`` is 1..30 while it stands on the board, None while it is off it
    (in its tray). ``held`` marks a piece lifted and not yet put down;
    ``knocked`` one that fell off by accident.
    """

    def __init__(self, pid, side, square=None):
        self.id = pid
        self.side = side
        self.square = square
        self.held = False
        self.knocked = False

    def as_dict(self):
        return {"id": self.id, "side": self.side, "square": self.square,
                "held": self.held, "knocked": self.knocked}


class Pieces:
    """Every piece of both sides, and ``hand``: the ids of held pieces, in
    lifting order. Iterating gives the pieces, black ones first."""

    def __init__(self, position, n):
        """``n`` pieces a side (more if ``position`` stands more), standing
        where ``position`` (an engine Position) says; the rest in their trays."""
        self.pieces = []
        self.hand = []
        for side in "BW":
            squares = position.squares_of(side)
            for i in range(max(n, len(squares))):
                square = squares[i] if i < len(squares) else None
                self.pieces.append(Piece(len(self.pieces), side, square))

    def __iter__(self):
        return iter(self.pieces)

    def at(self, square):
        """The piece standing on ``square``, or None."""
        for piece in self.pieces:
            if piece.square == square:
                return piece
        return None

    def get(self, pid):
        """The piece with id ``pid``."""
        if isinstance(pid, bool) or not isinstance(pid, int):
            raise SimError("piece must be a piece id (a whole number), got %r" % (pid,))
        for piece in self.pieces:
            if piece.id == pid:
                return piece
        raise SimError("there is no piece %d" % pid)

    def occupancy(self):
        """The squares with a piece on them as bits, square 1 the lowest."""
        bits = 0
        for piece in self.pieces:
            if piece.square is not None:
                bits |= 1 << (piece.square - 1)
        return bits

    def resize(self, n):
        """Have ``n`` pieces a side: add to the tray, or take away (tray first)."""
        for side in "BW":
            mine = [p for p in self.pieces if p.side == side]
            while len(mine) < n:
                piece = Piece(max([p.id for p in self.pieces] + [-1]) + 1, side)
                self.pieces.append(piece)
                mine.append(piece)
            extra = len(mine) - n
            if extra > 0:
                order = sorted(mine, key=lambda p: (p.square is not None, -p.id))
                for piece in order[:extra]:
                    self.pieces.remove(piece)
                    if piece.id in self.hand:
                        self.hand.remove(piece.id)

    def lift(self, square):
        """Lift the piece standing on ``square`` into the hand; return it."""
        square, piece = self._take(square, "lift", held=True)
        self.hand.append(piece.id)
        return piece

    def place(self, square, pid=None):
        """Put a piece that is off the board on ``square`` (1..30), or into its
        tray (``"off"``); ``pid`` defaults to the piece lifted last. Return it."""
        if square == "off":
            target = None
        elif isinstance(square, str):
            raise SimError('square must be 1..30 or "off", got %r' % (square,))
        else:
            target = checks.square(square)
        if pid is None:
            if not self.hand:
                raise SimError("no piece in hand: lift one first or name a piece")
            item = self.get(self.hand[-1])
        else:
            item = self.get(pid)
        if item.square is not None:
            raise SimError("piece %d stands on square %d: lift it first" % (item.id, item.square))
        if target is not None and self.at(target) is not None:
            raise SimError("square %d is occupied: lift that piece first" % target)
        item.square = target
        item.held = False
        item.knocked = False
        if item.id in self.hand:
            self.hand.remove(item.id)
        return item

    def knock(self, square, choose):
        """A piece falls off ``square`` into its tray; with ``square`` None,
        ``choose`` (like random.choice) picks one of the occupied squares.
        Return the square and the piece."""
        if square is None:
            standing = sorted(p.square for p in self.pieces if p.square is not None)
            if not standing:
                raise SimError("no piece stands on the board to knock off")
            square = choose(standing)
        return self._take(square, "knock off", held=False)

    def _take(self, square, verb, held):
        """The piece on ``square`` leaves it: lifted (``held``) or knocked off."""
        square = checks.square(square)
        piece = self.at(square)
        if piece is None:
            raise SimError("square %d is empty: there is no piece to %s" % (square, verb))
        piece.square = None
        piece.held = held
        piece.knocked = not held
        return square, piece

    def arrange(self, position):
        """Stand the pieces as ``position`` (an engine Position) says, the
        hand emptied, as a player setting up the board would."""
        for side in "BW":
            have = len([p for p in self.pieces if p.side == side])
            if position.count(side) > have:
                raise SimError("position needs %d %s pieces; the board has %d" % (
                    position.count(side), "black" if side == "B" else "white", have))
        for piece in self.pieces:
            piece.square = None
            piece.held = False
            piece.knocked = False
        self.hand = []
        for side in "BW":
            free = [p for p in self.pieces if p.side == side]
            for square in position.squares_of(side):
                free.pop(0).square = square
