"""A whole game: throws, moves, passes, history, undo, the end, the record.

    >>> from engine import ruleset
    >>> from engine.game import Game
    >>> g = Game(ruleset("kendall"))
    >>> g.set_throw(1)
    >>> g.play("10-11").text
    '10-11'
    >>> g.position.text()
    'BWBWBWBWB.W................... W'
"""

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

from engine.position import Position, PositionError, BLACK, WHITE, OFF, E
from engine import sticks as _sticks


class Game:
    def __init__(self, rs, rng=None, position=None):
        self.ruleset = rs
        self.rng = rng
        self.start = position if position is not None else rs.start()
        rs.check_position(self.start)
        self.position = self.start
        self._plies = PlyLog()    # five bytes a move or pass, see PlyLog
        self.opening = []         # opening throw values (K4, H4)
        self.throw = None         # the pending throw value, if any
        self.ended = None         # (winner or None for a draw, points) once over

    # -- throwing ---------------------------------------------------------

    def throw_sticks(self):
        """Throw the four sticks with the injected rng; return the Throw."""
        if self.rng is None:
            raise PositionError("this game has no random source; use set_throw")
        t = _sticks.throw(self.ruleset, self.rng)
        self.set_throw(t.value)
        return t

    def set_throw(self, value):
        if self.is_over():
            raise PositionError("the game is over")
        if self.throw is not None:
            raise PositionError("a throw of %d is still to be played" % self.throw)
        self.ruleset.check_throw(value)
        self.throw = value

    def play_opening(self):
        """Throw until a 1 (K4, H4); the starting side then moves with it."""
        throws = _sticks.opening(self.ruleset, self.rng)
        self.opening = [t.value for t in throws]
        self.throw = 1
        return throws

    # -- moving -----------------------------------------------------------

    def legal_moves(self):
        if self.throw is None or self.is_over():
            return []
        return self.ruleset.legal_moves(self.position, self.throw)

    def play(self, move):
        """Play a legal move (a Move or its text) for the pending throw."""
        if self.throw is None:
            raise PositionError("throw the sticks before moving")
        if isinstance(move, str):
            found = self.ruleset.find_move(self.position, self.throw, move)
        elif move.throw != self.throw:
            # C4: a move is worked out for its throw; the same squares under
            # another throw would be another move, so it is refused, not looked up
            from engine.explain import illegal
            raise illegal(self.ruleset, self.position, self.throw, move.text, "throw",
                          made=move.throw)
        elif move.before is self.position or move.before == self.position:
            found = move          # generated for this very position and throw
        else:
            found = self.ruleset.find_move(self.position, self.throw, move.text)
        self._plies.append(self.position.turn, self.throw, found.origin, found.to,
                           found.final, found.capture)
        self.position = found.after
        self.throw = None
        winner = self.ruleset.winner(self.position)
        if winner is not None:
            self.ended = (winner, self.ruleset.points(self.position, winner))   # K16, H15
        return found

    def pass_turn(self):
        """No legal move: the turn is lost (K15, H14), or the game ends (H14 option)."""
        if self.throw is None:
            raise PositionError("throw the sticks before passing")
        if self.legal_moves():
            raise PositionError("a legal move exists; passing is not allowed")
        self._plies.append(self.position.turn, self.throw, 0, 0, 0, False)
        if self.ruleset.no_move == "end":
            self.ended = self._scored_end()
        else:
            self.position = self.ruleset.pass_position(self.position, self.throw)
        self.throw = None

    def _scored_end(self):
        """H14 literal reading: each side scores for the other's pieces left (H15)."""
        rs, pos = self.ruleset, self.position
        black, white = rs.points(pos, BLACK), rs.points(pos, WHITE)
        if black == white:
            return (None, black)
        return (BLACK, black) if black > white else (WHITE, white)

    def undo(self):
        """Take back the last move or pass; return its history entry
        (side, throw, move text or None, position before).

        The move is reversed from the log (where the piece came to rest, and
        whether it captured): no replay, so a takeback late in a long game
        costs the Pico's heap nothing but the new position.
        """
        if not self._plies:
            raise PositionError("nothing to undo")
        side, throw, origin, to = self._plies[-1]
        final, capture = self._plies.rest(-1)
        cells = self.position.cells
        if origin:
            cells = bytearray(cells)
            if final != OFF:
                cells[final] = E                 # the mover leaves where it came to rest
            if capture:
                cells[to] = cells[origin]        # C6 undone: the captured piece goes back
            cells[origin] = ord(side)
            cells = bytes(cells)
        self._plies.pop()
        self.position = Position(cells, side)
        self.throw = None
        self.ended = None
        return side, throw, _move_text(origin, to), self.position

    def turns(self, start=0):
        """Yield (side, throw, move text or None) for each move and pass so far
        (from ply ``start`` on), straight from the log (no replay)."""
        for i in range(start, len(self._plies)):
            side, throw, origin, to = self._plies[i]
            yield side, throw, _move_text(origin, to)

    def plies(self):
        """Yield each move and pass so far, one at a time, as
        (side, throw, move text or None, position before); replays the game."""
        rs = self.ruleset
        position = self.start
        for side, throw, text in self.turns():
            before = position
            if text is None:
                position = rs.pass_position(position, throw)
            else:
                position = rs.find_move(position, throw, text).after
            yield side, throw, text, before

    @property
    def history(self):
        """Every move and pass so far: (side, throw, move text or None, position before)."""
        return list(self.plies())

    @property
    def ply_count(self):
        return len(self._plies)

    # -- the end ----------------------------------------------------------

    def is_over(self):
        return self.ended is not None

    @property
    def winner(self):
        return self.ended[0] if self.ended else None

    @property
    def score(self):
        return self.ended[1] if self.ended else None

    # -- the record (engine/record1.py, loaded only when asked) ---------------

    def record(self):
        """Plain-text game record that ``Game.from_record`` reads back."""
        from engine.record1 import record
        return record(self)

    @classmethod
    def from_record(cls, text):
        """Replay a record, checking every move against the rules."""
        from engine.record1 import from_record
        return from_record(cls, text)


_PLIES_PER_CHUNK = const(32)
_PLY_BYTES = const(5)


class PlyLog:
    """The plies of a game, five bytes each: side, throw, origin, ``to``
    (origin 0 for a pass), and where the mover came to rest with bit 7 set for
    a capture (what undo needs to reverse the move).  Kept in fixed 160-byte
    chunks: a long game needs neither much memory nor one large contiguous
    block on a fragmented Pico heap."""

    def __init__(self):
        # the first chunk now, with the game, while a fresh heap has room
        self.chunks = [bytearray(_PLY_BYTES * _PLIES_PER_CHUNK)]
        self.count = 0

    def __len__(self):
        return self.count

    def append(self, side, throw, origin, to, final, capture):
        slot = self.count % _PLIES_PER_CHUNK
        if slot == 0 and self.count:
            self.chunks.append(bytearray(_PLY_BYTES * _PLIES_PER_CHUNK))
        chunk = self.chunks[-1]
        start = _PLY_BYTES * slot
        chunk[start] = ord(side)
        chunk[start + 1] = throw
        chunk[start + 2] = origin
        chunk[start + 3] = to
        chunk[start + 4] = final | (0x80 if capture else 0)
        self.count += 1

    def _at(self, index):
        if index < 0:
            index += self.count
        if not 0 <= index < self.count:
            raise IndexError("ply index out of range")
        return self.chunks[index // _PLIES_PER_CHUNK], _PLY_BYTES * (index % _PLIES_PER_CHUNK)

    def __getitem__(self, index):
        """(side, throw, origin, to) of ply ``index``."""
        chunk, start = self._at(index)
        return chr(chunk[start]), chunk[start + 1], chunk[start + 2], chunk[start + 3]

    def rest(self, index):
        """(final square, captured?) of ply ``index``."""
        chunk, start = self._at(index)
        return chunk[start + 4] & 0x7F, bool(chunk[start + 4] & 0x80)

    def pop(self):
        entry = self[-1]
        self.count -= 1
        if self.count % _PLIES_PER_CHUNK == 0 and self.count:
            self.chunks.pop()
        return entry


def _move_text(origin, to):
    if origin == 0:
        return None
    return "%d-%s" % (origin, "off" if to == OFF else to)


def play_game(rs, seed, choose=None, max_plies=5000):
    """Play a whole game from ``seed``; ``choose(game, moves, rng)`` picks a move
    (default: a random one).  Raise PositionError if it never ends.
    (engine/record1.py, loaded only when asked.)"""
    from engine.record1 import play_game as play
    return play(Game, rs, seed, choose, max_plies)
