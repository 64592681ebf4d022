"""Recognising moves on a presence-only board.

Reed switches see where pieces stand, not their colour, so the board follows
the game from the known setup: after a throw the rules engine lists the legal
moves, and this module compares the resting board (an occupancy int, bit 0 =
square 1) with what each move can look like on its way and at its end.

People do not move pieces the way a program does. They slide a piece across
other squares, lift one and put it back, lift the wrong piece first, take the
captured piece off before moving their own (C6), drop a piece on the water
(K12, H10) or the House of Happiness (K11) and only then carry it on. So for
every legal move we list, once per throw, every board the hands can make on
the way: the moving piece at its origin, in the hand, on the square where its
count ends, on its final square; a captured piece on its square, in the hand,
on the mover's origin. Each such board has its roles (what the lights ask
for next). The end board of a move is its ``after`` occupancy; a capture swap
ends on the same occupancy as it began and is told from "nothing happened" by
the squares having been lifted, in an order only a swap produces.

Everything else is a mismatch: the squares holding a piece that should not
(``extra``) and the squares missing one (``missing``), against the position
before the move, shown until the board matches a legal result or the
position before the move again.

Board state is kept in ints: each board on the way is two small ints (its
occupancy, and the rest packed, see ``_pack``), so a throw's boards cost two
lists of ints, not a tuple each; the per-square lift and place records are
preallocated, so recording a change allocates nothing.
"""

try:
    from micropython import const
except ImportError:
    const = lambda x: x  # noqa: E731

_SQUARES = const(30)
_OFF = const(31)          # engine.position.OFF: the piece leaves the board

# What ``Recogniser.classify`` found.
WAIT = const(0)          # the board is as before the move; nothing to do yet
PARTIAL = const(1)       # on the way to a legal move; roles say what next
DONE = const(2)          # a legal move is finished: ``Recogniser.move``
AMBIGUOUS = const(3)     # two legal moves fit equally well; wait for more
MISMATCH = const(4)      # nothing legal looks like this board

# Conditions that tell boards of equal occupancy apart (C6 capture swaps).
_MOVER_ON_TO = const(1)      # the mover stands where the captured piece stood
_CAPTURED_ON_ORIGIN = const(2)   # the captured piece stands on the mover's origin

# A move makes at most 8 boards on the way (mover in 4 places, a captured
# piece in 3): the lists of a throw's boards are made this long at once, for
# five pieces a side, while the heap is in one piece, rather than grown in
# the middle of a game.
_BOARDS = const(40)
_NO_MOVES = ()

# Role priorities when several hints fall on one square.
_ROLE_ORDER = ("movable", "lifted", "target", "take", "put")


def bit(square):
    """The occupancy bit of square 1..30; 0 for "off the board" and 0."""
    if 1 <= square <= _SQUARES:
        return 1 << (square - 1)
    return 0


def squares_of(mask):
    """The squares whose bits are set, in path order."""
    out = []
    s = 1
    while mask:
        if mask & 1:
            out.append(s)
        mask >>= 1
        s += 1
    return out


def move_states(move, base):
    """Every board the hands make while playing ``move`` from occupancy ``base``.

    Returns a list of ``(occupancy, done, conditions, mover_at, captured_at)``;
    ``mover_at``/``captured_at`` are squares, 0 for "in the hand" (or off the
    board), and ``captured_at`` is -1 when the move captures nothing. The
    untouched board itself is not listed (it is the WAIT state).
    """
    o = move.origin
    t = move.to if move.to != _OFF else 0
    f = move.final if move.final != _OFF else 0
    capture = move.capture
    mover_places = [o, 0]
    if t and t != f:
        mover_places.append(t)          # the water (K12, H10), Happiness (K11)
    if f:
        mover_places.append(f)
    captured_places = [t, 0, o] if capture else [-1]
    cleared = base & ~bit(o)
    if capture:
        cleared &= ~bit(t)
    states = []
    for m in mover_places:
        for c in captured_places:
            if m and m == c:
                continue                # one square, one piece (C2)
            start = m == o and (c == t or c == -1)
            if start:
                continue
            occ = cleared | bit(m)
            if c > 0:
                occ |= bit(c)
            done = m == f and (c == o or c == -1)
            cond = 0
            if capture and m == t:
                cond |= _MOVER_ON_TO
            if capture and c == o:
                cond |= _CAPTURED_ON_ORIGIN
            states.append((occ, done, cond, m, c))
    return states


class Recogniser:
    """Follows the board between a throw and the move it makes.

    ``begin(base, moves)`` once per throw; ``record(old, new)`` on every
    debounced change of the occupancy; ``classify(occupancy, roles)`` when the
    App wants to know where things stand: it returns WAIT, PARTIAL, DONE,
    AMBIGUOUS or MISMATCH, fills ``roles`` (30 strings) with what the squares
    should show, and sets ``move`` (DONE) or ``extra``/``missing`` (MISMATCH,
    as occupancy masks).
    """

    def __init__(self):
        self.base = 0
        self.moves = _NO_MOVES
        self.occs = [0] * _BOARDS        # the occupancy of every board on the way
        self.infos = [0] * _BOARDS       # the rest of each, as _pack made it
        self.count = 0                   # how many of them are this throw's
        self.origins = 0                 # squares of pieces with a legal move
        self.move = None
        self.extra = 0
        self.missing = 0
        self.lifted = 0                  # squares seen empty since the throw
        self._seq = 0
        self._first_lift = [0] * (_SQUARES + 1)   # sequence number, 0 = never
        self._last_place = [0] * (_SQUARES + 1)

    def begin(self, base, moves):
        """A new throw: ``moves`` are the legal moves from occupancy ``base``.

        Only the pieces that may move are worked out here (the lights need
        them at once); the boards on the way are listed by ``work``, one
        move's a call, in the loop's passes after the throw has been shown,
        and all at once if a touched board is judged before that."""
        self.base = base
        self.moves = moves
        origins = 0
        for k in range(len(moves)):
            origins |= bit(moves[k].origin)
        self.origins = origins
        self.count = 0
        self.move = None
        self.reset_touches()

    @property
    def listing(self):
        """Boards on the way are still to be listed (``work``)."""
        n = self.count
        return ((self.infos[n - 1] >> 15) + 1 if n else 0) < len(self.moves)

    def work(self):
        """List the boards on the way of one more move; False once all are.
        The lists are kept from throw to throw and only ever grow: a throw
        allocates nothing for them once a throw with as many boards was seen.
        (Every move has a board on the way, the piece in the hand, so the
        last board listed says whose boards come next.)"""
        n = self.count
        occs = self.occs
        infos = self.infos
        k = (infos[n - 1] >> 15) + 1 if n else 0
        moves = self.moves
        if k >= len(moves):
            return False
        for st in move_states(moves[k], self.base):
            if n == len(occs):
                occs.append(0)
                infos.append(0)
            occs[n] = st[0]
            infos[n] = _pack(k, st[1], st[2], st[3], st[4])
            n += 1
        self.count = n
        return True

    def end(self):
        """The throw is played: let go of its moves (and the positions they
        made) before the App collects, so the next throw's fill the same
        room instead of new room beside the old."""
        self.moves = _NO_MOVES
        self.count = 0
        self.move = None

    def reset_touches(self):
        self.lifted = 0
        self._seq = 0
        for i in range(_SQUARES + 1):
            self._first_lift[i] = 0
            self._last_place[i] = 0

    def record(self, old, new):
        """The debounced occupancy changed from ``old`` to ``new``."""
        changed = old ^ new
        s = 1
        while changed:
            if changed & 1:
                self._seq += 1
                if new & (1 << (s - 1)):
                    self._last_place[s] = self._seq
                else:
                    if not self._first_lift[s]:
                        self._first_lift[s] = self._seq
                    self.lifted |= 1 << (s - 1)
            changed >>= 1
            s += 1

    def _holds(self, cond, move):
        """Do the recorded lifts allow a board with these conditions (C6)?"""
        if not cond:
            return True
        o = move.origin
        t = move.to
        lift_o = self._first_lift[o]
        lift_t = self._first_lift[t]
        if not lift_o or not lift_t:
            return False
        # The mover arrived on the captured piece's square after leaving its
        # origin, and the captured piece arrived on the origin after leaving
        # its square: lifting both and putting each back in turn does not.
        if cond & _MOVER_ON_TO and self._last_place[t] < lift_o:
            return False
        if cond & _CAPTURED_ON_ORIGIN and self._last_place[o] < lift_t:
            return False
        return True

    def classify(self, occ, roles):
        """Where the board stands; fills ``roles`` and returns the verdict."""
        self.move = None
        self.extra = 0
        self.missing = 0
        if occ == self.base and not self.lifted:
            # Untouched since the throw: no board on the way is the board
            # before the move but a capture swap's end, which needs lifts.
            # The pieces that may move are shown; the boards wait for work().
            self._show_waiting(roles, self.origins)
            return WAIT
        while self.work():
            pass                         # every board on the way is needed now
        best = None                      # the matching states, most specific first
        best_cond = -1
        done_moves = None
        occs = self.occs
        for i in range(self.count):
            if occs[i] != occ:
                continue
            st = _unpack(self.infos[i], self.moves)
            move = st[5]
            if not self._holds(st[2], move):
                continue
            if st[1]:
                if done_moves is None:
                    done_moves = [move]
                elif move not in done_moves:
                    done_moves.append(move)
                continue
            cond = _bits(st[2])
            if cond > best_cond:
                best = [st]
                best_cond = cond
            elif cond == best_cond:
                best.append(st)
        if done_moves is not None:
            if len(done_moves) == 1:
                self.move = done_moves[0]
                clear(roles)
                return DONE
            self._show_waiting(roles, 0)
            for move in done_moves:
                roles[move.origin - 1] = "movable"
            return AMBIGUOUS
        if best is not None:
            self._show_partial(best, roles)
            return PARTIAL
        if occ == self.base:
            self._show_waiting(roles, self.origins)
            return WAIT
        self.extra = occ & ~self.base
        self.missing = self.base & ~occ
        show_mismatch(roles, self.extra, self.missing)
        return MISMATCH

    def ready(self, occ):
        """May the DONE board ``occ`` (``self.move``) be played without
        waiting for the settle time? Only when it cannot be a step on the way
        to anything else (docs/dev/recognition.md): not a capture swap (C6:
        the same occupancy as the board before, told only by the order of
        lifts, which two pieces lifted and put back in the other order also
        make), not a piece borne off (it may still be in the hand, on its
        way), not one of two moves of the same piece (a slide to the farther
        passes over the nearer), and not a board on the way to any legal
        move (the water K12/H10, the House of Happiness K11, a capture's
        pieces in the hand)."""
        move = self.move
        if move is None or move.capture or move.final == _OFF:
            return False
        moves = self.moves
        for k in range(len(moves)):
            if moves[k] is not move and moves[k].origin == move.origin:
                return False
        occs = self.occs
        infos = self.infos
        for i in range(self.count):
            if occs[i] == occ and not infos[i] & (1 << 14):
                return False
        return True

    def _show_waiting(self, roles, movable):
        clear(roles)
        for s in squares_of(movable):
            roles[s - 1] = "movable"

    def _show_partial(self, states, roles):
        """Roles for boards on the way to a move: what the hands do next."""
        marks = [0, 0, 0, 0, 0]          # masks in _ROLE_ORDER
        for st in states:
            move = st[5]
            m = st[3]
            c = st[4]
            o = move.origin
            t = move.to if move.to != _OFF else 0
            f = move.final if move.final != _OFF else 0
            if m == o:
                marks[0] |= bit(o)                  # the piece still to move
                marks[2] |= bit(t)
            elif m == 0:
                marks[1] |= bit(o)                  # in the hand: its squares
                marks[2] |= bit(t) | bit(f)
            elif m == t and t != f:
                marks[3] |= bit(t)                  # K11, K12, H10: carry it on
                marks[4] |= bit(f)
            if c == t and m != o and m != 0:
                marks[3] |= bit(t)                  # C6: the captured piece
                marks[4] |= bit(o)                  # goes to the origin
            elif c == 0 and m != o:
                marks[4] |= bit(o)
        clear(roles)
        for i in range(5):
            role = _ROLE_ORDER[i]
            for s in squares_of(marks[i]):
                roles[s - 1] = role


# A board on the way, but for its occupancy, in one small int (30 bits at
# most, so no long int on the Pico): the move's index in the throw's list,
# whether it is the move's end, its conditions, and the mover's and the
# captured piece's squares (63 for "captures nothing").
def _pack(k, done, cond, mover_at, captured_at):
    return (k << 15) | ((1 << 14) if done else 0) | (cond << 12) | (mover_at << 6) | (captured_at & 63)


def _unpack(info, moves):
    """(None, done, cond, mover_at, captured_at, move) of a packed board."""
    c = info & 63
    return (None, bool(info & (1 << 14)), (info >> 12) & 3, (info >> 6) & 63,
            -1 if c == 63 else c, moves[info >> 15])


def _bits(n):
    count = 0
    while n:
        count += n & 1
        n >>= 1
    return count


def clear(roles):
    for i in range(_SQUARES):
        if roles[i]:
            roles[i] = ""


def show_mismatch(roles, extra, missing):
    """A piece where none may stand is an error; an absent one is missing."""
    clear(roles)
    for s in squares_of(extra):
        roles[s - 1] = "error"
    for s in squares_of(missing):
        roles[s - 1] = "missing"


def restore_roles(roles, target, occ, swaps=0, lifted=0, correct="setup"):
    """The setup check and the takeback: bring the board to ``target``.

    ``put`` where a piece is wanted, ``take`` where one must go, ``correct``
    on squares already right. ``swaps`` are squares whose piece must change
    colour (a takeback of a capture, C6): they ask for ``put`` until lifted.
    Returns True when the board matches.
    """
    clear(roles)
    for s in squares_of(target & occ):
        roles[s - 1] = correct
    for s in squares_of(target & ~occ):
        roles[s - 1] = "put"
    for s in squares_of(occ & ~target):
        roles[s - 1] = "take"
    pending = swaps & ~lifted
    for s in squares_of(pending):
        roles[s - 1] = "put"
    return occ == target and not pending
