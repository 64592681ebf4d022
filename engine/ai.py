"""The computer player: expectiminimax over the stick throws.

    >>> from engine import ruleset, Position
    >>> from engine.ai import choose_move
    >>> rs = ruleset("kendall")
    >>> position = Position.parse("..B.B..W...........W..BW...... W")
    >>> move = choose_move(rs, position, 3, level=4)
    >>> move.text, move.capture
    ('20-23', True)

A turn in Senet is a throw followed by a move, so the search tree alternates
*decision* nodes (the side to move picks one of its legal moves for the throw
it has) and *chance* nodes (the next throw: 1, 2, 3, 4 and 5 or 6 with 4, 6,
4, 1 and 1 chances in 16, C3).  The side at a chance node is always
``position.turn``: after a move that earns another throw (K5, K10, H5) it is
the mover again, otherwise the opponent, so extra throws need no special case.
A lost turn (K15, H14) follows ``Ruleset.pass_position``; under the literal
H14 option (``no_move="end"``) it ends the game and H15's points decide.

Levels (``choose_move(..., level)``):

1. beginner: a random move, but it takes a piece off the board, a capture or
   a safe square when it sees one and avoids the water when it can;
2. one ply judged by the race alone (``RACE_WEIGHTS``): the move whose
   resulting position has come furthest;
3. two plies judged by the race: every move, every answering throw, the
   opponent's best answer;
4. two plies judged by the full evaluation (``WEIGHTS``: safety, blocks,
   threats, readiness as well), deepened best-first inside a node budget
   (``BUDGET``) that bounds its time on the Pico.

Everything is deterministic: equal moves go to the rearmost piece, and only
level 1 uses the random source (``rng``, like ``random.getrandbits``; default
a fixed-seed ``XorShift``).

The recursion is two frames per ply plus two per extra throw searched (under
ten frames for the levels as set), well inside the Pico's C stack.  No
transposition table: the heap stays small.
"""

from engine.position import SQUARES, B, W, BLACK, WHITE
from engine.sticks import probabilities, XorShift

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

_WIN = const(100000)        # a won game, far beyond any evaluation
BUDGET = const(300)        # level 4 default: nodes (move lists + evaluations)
_MAX_DEPTH = const(2)       # level 4: plies (not counting extra throws)
_EXTRA = const(0)           # level 4: extra throws (K5, H5) that do not use up a ply

# The evaluation's weights, one per named feature, in tenths of a square of
# progress along the path.  The features read the ruleset's options (safe
# squares, water, exits, blocking sizes), never its name.
WEIGHTS = {
    "progress": 10,        # per square a piece has come along the path
    "off": 40,             # per piece off the board, beyond reaching square 30
    "group": 6,            # a piece with an own neighbour cannot be captured (K8, H7)
    "safe": 6,             # a piece on a safe square (K10, H9)
    "hit": 8,              # x expected squares lost to a capture swap (C6)
    "block": 14,           # per enemy piece behind a group it cannot pass (K8, H8)
    "water": 30,           # x chance that a throw lands the piece on the water (K12, H10)
    "ready": 30,           # x chance a throw takes a piece off (K13) / may leave (H11, H12)
    "home": 6,             # per piece still on the first row when exits need it empty (H12)
}

# The race alone: how far the pieces have come, pieces off, the water and the
# exits, with no judgement of safety, blocks or threats.  Levels 2 and 3 judge
# positions by this; level 4 by the full table.
RACE_WEIGHTS = {}
for _key in WEIGHTS:
    RACE_WEIGHTS[_key] = 0
for _key in ("progress", "off", "water", "ready"):
    RACE_WEIGHTS[_key] = WEIGHTS[_key]


class _Tables:
    """Per-ruleset numbers the evaluation looks up instead of recomputing."""

    def __init__(self, rs, weights):
        self.rs = rs
        self.weights = weights
        w = weights
        ways = probabilities(rs)
        self.throws = []                       # (value, ways out of 16)
        max_throw = 0
        for value in rs.throw_values:
            self.throws.append((value, ways[value]))
            if value > max_throw:
                max_throw = value
        # a capture swap (C6) sends the victim back by the throw: expected
        # squares lost, in 16ths, per throw that can reach it
        self.hit_loss = []
        for value, n in self.throws:
            self.hit_loss.append((value, n * value))
        # K8: under "lone_then_empty" two adjacent pieces cannot be jumped;
        # H8: only a group of big_block or more stops an enemy.
        self.block_size = 2 if rs.jump == "lone_then_empty" else rs.big_block
        self.safe = rs.safe
        self.w_group = w["group"]
        self.w_hit = w["hit"]
        self.w_block = w["block"]
        self.w_ready = w["ready"]
        self.w_home = w["home"]
        self.home = rs.home_row_blocks_exit
        self.pieces = rs.pieces
        self.ready_from = 0
        if rs.leave_at:
            self.ready_from = rs.leave_at - max_throw
        # The static value of a piece per square. Made with each new
        # ruleset's first search, so the lookups are hoisted out of the loop
        # (a Pico is slow at them).
        progress = w["progress"]
        square = [progress * s for s in range(SQUARES + 2)]
        square[0] = square[SQUARES + 1] = 0
        for s in rs.safe:
            square[s] += w["safe"]
        # exposure to the water: the chance that a throw ends exactly there
        exits = rs.exits
        for value, n in self.throws:
            s = rs.water - value
            if s >= 1 and s not in exits:
                square[s] -= w["water"] * n // 16
        # K13: a piece on an exit house leaves with its exact throw
        for s in exits:
            square[s] += w["ready"] * ways[exits[s]] // 16
        self.square = square
        # a piece off is worth more than one on the last square, ready to go
        self.off_value = w["progress"] * (SQUARES + 1) + w["off"] + w["ready"]


_cache = []


def tables(rs, weights=None):
    """The evaluation tables for ruleset ``rs`` and ``weights`` (the last few
    combinations used are kept)."""
    weights = weights or WEIGHTS
    for t in _cache:
        if t.rs is rs and t.weights is weights:
            return t
    t = _Tables(rs, weights)
    if len(_cache) >= 4:
        _cache.pop(0)
    _cache.append(t)
    return t


_NEEDLE = {B: b"B", W: b"W"}


def _side_score(t, cells, code, enemy, to_move):
    """The features of one side's pieces, summed with their weights.

    It walks the side's pieces only (``bytes.find`` runs at C speed on both
    CPython and MicroPython), so it costs about ten steps, not thirty.
    """
    needle = _NEEDLE[code]
    square = t.square
    safe = t.safe
    score = 0
    count = 0
    lowest = 0
    ready = 0
    hit = 0
    s = cells.find(needle, 1)
    while s > 0:
        count += 1
        if not lowest:
            lowest = s
        if t.ready_from and s >= t.ready_from:
            ready += 1
        score += square[s]
        if cells[s - 1] == code or cells[s + 1] == code:
            score += t.w_group                 # K8, H7: a group protects
            if cells[s - 1] != code:
                # the first piece of a run: does the run stop the enemy?
                run = 2
                while cells[s + run] == code:
                    run += 1
                if run >= t.block_size:
                    score += t.w_block * cells.count(_NEEDLE[enemy], 1, s)
        elif s not in safe:
            # a lone piece: the chance an enemy behind lands on it (C6)
            for value, loss in t.hit_loss:
                if s > value and cells[s - value] == enemy:
                    hit += loss
        s = cells.find(needle, s + 1)
    if hit:
        # the side to move can still run away; the other faces the next throw
        score -= (t.w_hit // 2 if to_move else t.w_hit) * hit // 16
    score += (t.pieces - count) * t.off_value
    if t.home and count:
        if lowest > t.home:
            score += t.w_ready * ready         # H11, H12: free to leave
        elif ready:
            # H12: pieces on the first row hold back those waiting to leave
            score -= t.w_home * ready * cells.count(needle, 1, t.home + 1)
    return score


def evaluate(rs, position, side, weights=None):
    """How good ``position`` is for ``side``: its features minus the enemy's."""
    t = tables(rs, weights)
    return _evaluate(t, position, side)


def _evaluate(t, position, side):
    cells = position.cells
    if side == BLACK:
        me, you = B, W
    else:
        me, you = W, B
    turn = position.turn == side
    return (_side_score(t, cells, me, you, turn)
            - _side_score(t, cells, you, me, not turn))


class BudgetExceeded(Exception):
    """The node budget ran out in the middle of a search."""


class Search:
    """One expectiminimax search for ``side`` (values are ``side``'s gain).

    ``nodes`` counts the move lists generated and the positions evaluated;
    with a ``budget`` the search stops before it would pass it.
    """

    def __init__(self, rs, side, budget=None, weights=None):
        self.rs = rs
        self.side = side
        self.budget = budget
        self.nodes = 0
        self.t = tables(rs, weights)
        # one-byte needles: "is any piece of this colour left?" at C speed
        self.me = b"B" if side == BLACK else b"W"
        self.you = b"W" if side == BLACK else b"B"

    def _count(self):
        if self.budget is not None and self.nodes >= self.budget:
            raise BudgetExceeded()
        self.nodes += 1

    def leaf(self, position):
        self._count()
        return _evaluate(self.t, position, self.side)

    def terminal(self, position):
        """_WIN/-_WIN if the game is over (K16, H15), else None."""
        cells = position.cells
        if self.me not in cells:
            return _WIN
        if self.you not in cells:
            return -_WIN
        return None

    def ended_by_no_move(self, position):
        """H14 literal option: the game ends and H15's points decide."""
        rs = self.rs
        mine = rs.points(position, self.side)
        theirs = rs.points(position, _other(self.side))
        if mine > theirs:
            return _WIN // 2
        if mine < theirs:
            return -_WIN // 2
        return 0

    def chance(self, position, depth, extra=0):
        """Expected value over the next throw of the side ``position.turn``."""
        end = self.terminal(position)
        if end is not None:
            return end
        if depth <= 0:
            return self.leaf(position)
        total = 0
        for value, ways in self.t.throws:
            total += ways * self.decide(position, value, depth, extra)
        return total // 16

    def decide(self, position, throw, depth, extra=0):
        """The best value the side to move reaches with ``throw``."""
        self._count()
        moves = self.rs.legal_moves(position, throw)
        if not moves:
            if self.rs.no_move == "end":
                return self.ended_by_no_move(position)
            moves = (None,)
        maximise = position.turn == self.side
        best = None
        for move in moves:
            if move is None:
                after = self.rs.pass_position(position, throw)     # K15, H14
            else:
                after = move.after
            if extra > 0 and after.turn == position.turn:
                v = self.chance(after, depth, extra - 1)
            else:
                v = self.chance(after, depth - 1, extra)
            if best is None or (v > best if maximise else v < best):
                best = v
        return best

    def root(self, move, depth, extra):
        """The value of a root move searched ``depth`` plies in all."""
        if extra > 0 and move.again:
            return self.chance(move.after, depth, extra - 1)
        return self.chance(move.after, depth - 1, extra)


def _other(side):
    return WHITE if side == BLACK else BLACK


def search_moves(rs, moves, depth_limit, budget=None, extra=0, weights=None):
    """Deepen one ply at a time; return (best move, values, depth, nodes).

    Each depth scores the root moves best-first (in the previous depth's
    order).  When the budget runs out part-way through a depth, the moves
    already scored at that depth compete among themselves if there are at
    least two of them (they were the most promising ones); otherwise the
    previous depth's choice stands.
    """
    side = moves[0].side
    search = Search(rs, side, budget, weights)
    # equal values go to the first move in the engine's order (by origin:
    # the rearmost piece), so stragglers are not left behind
    order = list(range(len(moves)))
    best = order[0]
    values = None
    reached = 0
    for depth in range(1, depth_limit + 1):
        scored = []
        try:
            for i in order:
                scored.append((search.root(moves[i], depth, extra), i))
        except BudgetExceeded:
            if len(scored) >= 2:
                best = _best(scored)
                reached = depth
            break
        # best-first order for the next depth: higher value, then the
        # engine's move order
        scored = _sort(scored)
        order = [i for _, i in scored]
        best = order[0]
        values = scored
        reached = depth
    return moves[best], values, reached, search.nodes


_CHANCE = const(0)          # a Thinking frame: the mean over the next throw
_DECIDE = const(1)          # a Thinking frame: the best move for one throw


class Thinking:
    """``search_moves`` in slices, for a board that must keep scanning while
    it thinks (firmware/computer.py's hint): ``step(nodes)`` goes on for
    about that many nodes (``Search`` counts them) and is True once the
    search is over; ``result`` is then what ``search_moves`` returns for the
    same arguments: the same move, values, depth and node count
    (tests/engine_tests/test_thinking.py holds it to that).

    The recursion of ``Search.chance`` and ``Search.decide`` is a stack of
    frames here, lists of [_CHANCE, position, depth, extra, throw index,
    total] and [_DECIDE, position, depth, extra, moves, index, best,
    maximise, throw]; a value found goes to the frame below (``_give``), or, with
    none below, is the value of the root move being searched."""

    def __init__(self, rs, moves, depth_limit, budget=None, extra=0, weights=None):
        self.rs = rs
        self.moves = moves
        self.limit = depth_limit
        self.extra = extra
        self.search = Search(rs, moves[0].side, budget, weights)
        self.order = list(range(len(moves)))
        self.best = 0
        self.values = None
        self.reached = 0
        self.depth = 1
        self.at = 0                  # the next root move: an index into order
        self.scored = []             # (value, index) at this depth
        self.stack = []
        self.result = None

    def step(self, nodes):
        """About ``nodes`` more nodes of the search; True once it is over."""
        if self.result is not None:
            return True
        search = self.search
        stack = self.stack
        stop = search.nodes + nodes
        throws = search.t.throws
        try:
            while search.nodes < stop and self.result is None:
                if not stack:
                    self._next_root()
                    continue
                frame = stack[-1]
                if frame[0] == _CHANCE:
                    i = frame[4]
                    if i < len(throws):
                        self._decide(frame[1], throws[i][0], frame[2], frame[3])
                    else:
                        stack.pop()
                        self._give(frame[5] // 16)
                else:
                    moves = frame[4]
                    i = frame[5]
                    if i < len(moves):
                        position = frame[1]
                        move = moves[i]
                        if move is None:                       # K15, H14
                            after = self.rs.pass_position(position, frame[8])
                        else:
                            after = move.after
                        if frame[3] > 0 and after.turn == position.turn:
                            self._chance(after, frame[2], frame[3] - 1)
                        else:
                            self._chance(after, frame[2] - 1, frame[3])
                    else:
                        stack.pop()
                        self._give(frame[6])
        except BudgetExceeded:
            # as search_moves: the moves scored at this depth compete if
            # there are two, else the depth before stands
            del stack[:]
            if len(self.scored) >= 2:
                self.best = _best(self.scored)
                self.reached = self.depth
            self._done()
        return self.result is not None

    def _next_root(self):
        """The next root move's search begun, or this depth ended."""
        order = self.order
        if self.at < len(order):
            move = self.moves[order[self.at]]
            depth = self.depth
            if self.extra > 0 and move.again:
                self._chance(move.after, depth, self.extra - 1)
            else:
                self._chance(move.after, depth - 1, self.extra)
            return
        scored = _sort(self.scored)
        order = self.order = [i for _, i in scored]
        self.best = order[0]
        self.values = scored
        self.reached = self.depth
        if self.depth >= self.limit:
            self._done()
            return
        self.depth += 1
        self.at = 0
        self.scored = []

    def _done(self):
        self.result = (self.moves[self.best], self.values, self.reached, self.search.nodes)

    def _chance(self, position, depth, extra):
        """Search.chance begun: a value at once, or a frame."""
        search = self.search
        end = search.terminal(position)
        if end is not None:
            self._give(end)
        elif depth <= 0:
            self._give(search.leaf(position))
        else:
            self.stack.append([_CHANCE, position, depth, extra, 0, 0])

    def _decide(self, position, throw, depth, extra):
        """Search.decide begun: a value at once, or a frame."""
        search = self.search
        search._count()
        moves = self.rs.legal_moves(position, throw)
        if not moves:
            if self.rs.no_move == "end":
                self._give(search.ended_by_no_move(position))
                return
            moves = (None,)
        self.stack.append([_DECIDE, position, depth, extra, moves, 0, None,
                           position.turn == search.side, throw])

    def _give(self, value):
        """A value found: to the frame below, or the root move's."""
        stack = self.stack
        if not stack:
            self.scored.append((value, self.order[self.at]))
            self.at += 1
            return
        frame = stack[-1]
        if frame[0] == _CHANCE:
            frame[5] += self.search.t.throws[frame[4]][1] * value
            frame[4] += 1
        else:
            best = frame[6]
            if best is None or (value > best if frame[7] else value < best):
                frame[6] = value
            frame[5] += 1


class _Chosen:
    """A ``thinking`` with nothing to search: over from the start."""

    def __init__(self, move):
        self.result = (move, None, 0, 0)

    def step(self, nodes):
        return True


def thinking(rs, position, throw, level=4, budget=None, rng=None, moves=None):
    """``choose_move`` in slices: a ``Thinking`` whose ``result[0]`` is the
    move ``choose_move`` gives for the same arguments (None: no legal move).
    Where nothing is searched (no move, one move, level 1) it is over from
    the start. ``moves``: the legal moves for ``throw``, if already known."""
    if moves is None:
        moves = rs.legal_moves(position, throw)
    if not moves:
        return _Chosen(None)
    if len(moves) == 1:
        return _Chosen(moves[0])
    if level <= 1:
        return _Chosen(_beginner(rs, moves, rng if rng is not None else XorShift(1)))
    depth, extra, default_budget, weights = LEVELS.get(level, LEVELS[4])
    return Thinking(rs, moves, depth, default_budget if budget is None else budget,
                    extra, weights)


def _best(scored):
    best_v, best_i = scored[0]
    for v, i in scored:
        if v > best_v or (v == best_v and i < best_i):
            best_v, best_i = v, i
    return best_i


def _sort(scored):
    # insertion sort: at most a handful of moves, no key functions needed
    out = []
    for v, i in scored:
        k = len(out)
        while k > 0 and (out[k - 1][0] < v or (out[k - 1][0] == v and out[k - 1][1] > i)):
            k -= 1
        out.insert(k, (v, i))
    return out


def _beginner(rs, moves, rng):
    """Level 1: random, but not absurd (takes what is obvious, avoids the water)."""
    wanted = []
    for move in moves:
        if move.to == rs.water:
            continue
        if move.leaves or move.capture or move.final in rs.safe:
            wanted.append(move)
    if wanted:
        return wanted[rng.randrange(len(wanted))]
    dry = []
    for move in moves:
        if move.to != rs.water:
            dry.append(move)
    if dry:
        moves = dry
    return moves[rng.randrange(len(moves))]


LEVELS = {
    # level: (plies, extra throws searched without using up a ply, budget,
    #         evaluation weights)
    2: (1, 0, None, RACE_WEIGHTS),
    3: (2, 0, None, RACE_WEIGHTS),
    4: (_MAX_DEPTH, _EXTRA, BUDGET, WEIGHTS),
}


def choose_move(rs, position, throw, level=3, rng=None, budget=None):
    """The computer's move for ``position`` and ``throw`` at ``level`` 1..4.

    Returns None when there is no legal move (the turn is lost, K15, H14).
    ``budget`` (nodes) overrides the level's default; ``rng`` is only used by
    level 1.
    """
    moves = rs.legal_moves(position, throw)
    if not moves:
        return None
    if len(moves) == 1:
        return moves[0]
    if level <= 1:
        if rng is None:
            rng = XorShift(1)
        return _beginner(rs, moves, rng)
    depth, extra, default_budget, weights = LEVELS.get(level, LEVELS[4])
    if budget is None:
        budget = default_budget
    return search_moves(rs, moves, depth, budget, extra, weights)[0]


def analyse(rs, position, throw, level=4, budget=None):
    """Like ``choose_move`` but returns (move, values, depth, nodes) for tools."""
    moves = rs.legal_moves(position, throw)
    if not moves:
        return None, None, 0, 0
    if len(moves) == 1:
        return moves[0], None, 0, 0
    depth, extra, default_budget, weights = LEVELS.get(level, LEVELS[4])
    if budget is None:
        budget = default_budget
    return search_moves(rs, moves, depth, budget, extra, weights)
