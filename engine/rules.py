"""Rulesets as data: one object of named options per ruleset.

The move generator in ``movegen.py`` reads these options and never asks a
ruleset's name.  Rule ids (K.., H.., C..) refer to the project's rules
document, which quotes the two source texts.
"""

from engine.position import (
    Position, PositionError, BLACK, WHITE, EMPTY, SQUARES, other, parse_move_text)
from engine.movegen import legal_moves as _legal_moves, plan as _plan


# The options a player may set, with the values each may take.
_ALLOWED = {"pieces": (5, 7), "no_move": ("pass", "end"), "own_groups_block": (True, False)}


class Ruleset:
    """The options that define a Senet ruleset.

    counting        "skip_occupied": squares with a jumped piece do not count (K6);
                    "every_square": every square passed counts (H6)
    jump            "lone_then_empty": a lone piece with an empty square after
                    it can be jumped (K8); "blocks": lone pieces and small blocks
                    can be jumped, big blocks cannot (H8)
    big_block       size of an enemy group that can be neither jumped nor
                    passed (H8: 3; K9: 4, a triple can be broken)
    own_groups_block  own groups of ``big_block`` or more block the mover (H8 option)
    triple_break    an enemy group of exactly three can be broken on its middle (K9)
    safe            squares whose piece cannot be captured (K10: 15; H9: 26, 28, 29)
    rebirth         a move ending on this square by its own count throws again (K10)
    happiness       {square: square}: a piece landing on the first moves on to
                    the second if it is free (K11)
    water           the water square (K12, H10) and ``water_to`` its return square
    water_fallback  "before": nearest free square before ``water_to`` (K12);
                    "start": square 1, then the first free square up from 1 (H10)
    exits           {square: throw}: a piece there leaves only with that exact
                    throw and never moves otherwise (K13); empty for H11
    leave_at        a piece reaching this square or going past it leaves (H11:
                    30); 0 when leaving is only by ``exits``
    home_row_blocks_exit  no piece may leave while the side has a piece on
                    squares 1..this (H12: 10; 0 = no restriction)
    zero_value      value of a throw with no white side up (C3: 5 or 6)
    again_values    throws after which the mover throws again (K5, H5)
    no_move         "pass": the turn is lost (K15, H14); "end": the game ends (H14 literal)
    scoring         points per enemy piece left, by square range (H15), or None
    setup_first     the colour standing on square 1 at the start (K2, H2)
    cites           "reason id reason id ...": which of the ruleset's rules
                    refuses a move for each reason ``engine.explain`` knows
                    (words for messages only; the move generator never reads
                    it; one string costs the Pico less than a dict)
    """

    def __init__(self, name, **options):
        self.name = name
        self.pieces = 5
        self.counting = "every_square"
        self.jump = "blocks"
        self.big_block = 3
        self.own_groups_block = False
        self.triple_break = False
        self.safe = ()
        self.rebirth = 0
        self.happiness = {}
        self.water = 27
        self.water_to = 15
        self.water_fallback = "start"
        self.exits = {}
        self.leave_at = 30
        self.home_row_blocks_exit = 10
        self.zero_value = 6
        self.again_values = (1, 4, 6)
        self.no_move = "pass"
        self.scoring = None
        self.setup_first = WHITE
        self.cites = ""
        self.options = {}
        self._plan = None
        self._start = None
        for key in options:
            self.set_option(key, options[key])

    def set_option(self, key, value):
        if not hasattr(self, key) or key in ("name", "options", "_plan", "_start", "cites"):
            raise PositionError("unknown option %r for ruleset %s" % (key, self.name))
        allowed = _ALLOWED.get(key)
        if allowed is not None and value not in allowed:
            raise PositionError("option %s=%r is not allowed for ruleset %s" % (key, value, self.name))
        setattr(self, key, value)
        self._plan = None
        self._start = None
        if allowed is not None:
            self.options[key] = value

    def plan(self):
        """The options as one tuple, read once per move generation (fast on the
        Pico); its layout belongs to ``engine.movegen``.  Built on first use:
        set options before generating moves."""
        if self._plan is None:
            self._plan = _plan(self)
        return self._plan

    # -- the sticks and the throw (C3) --------------------------------------

    @property
    def throw_values(self):
        return (1, 2, 3, 4, self.zero_value)

    def winner(self, position):
        """The side with every piece off the board (K16, H15), or None."""
        cells = position.cells
        if b"B" not in cells:
            return BLACK
        if b"W" not in cells:
            return WHITE
        return None

    def throw_value(self, whites):
        """Value of a throw with ``whites`` flat sides up (C3, K3, H3)."""
        return self.zero_value if whites == 0 else whites

    # -- setup and positions --------------------------------------------------

    def start(self):
        """The start position (K1, K2, H1, H2): pieces alternate from square 1,
        and the side of the frontmost piece moves first (K4, H4). Made once
        (positions are immutable values): each new game on a board took
        some 2.5 ms of a Pico to parse it again."""
        if self._start is None:
            second = other(self.setup_first)
            row = (self.setup_first + second) * self.pieces
            self._start = Position.parse(row + EMPTY * (SQUARES - len(row)) + " " + second)
        return self._start

    def starting_side(self):
        return self.start().turn

    def check_position(self, position):
        """Raise PositionError if ``position`` cannot occur under these rules."""
        for side in (BLACK, WHITE):
            n = position.count(side)
            if n > self.pieces:
                raise PositionError("position has %d %s pieces; %s has %d a side" % (
                    n, "black" if side == BLACK else "white", self.name, self.pieces))
        if position.at(self.water) != EMPTY:
            raise PositionError("square %d (the water) never holds a piece" % self.water)
        if self.leave_at and position.at(self.leave_at) != EMPTY:
            raise PositionError("square %d never holds a piece: reaching it leaves the board" % self.leave_at)

    def check_throw(self, throw):
        if throw not in (1, 2, 3, 4, self.zero_value):
            raise PositionError("throw must be one of %s in %s, got %r" % (
                ", ".join(str(v) for v in self.throw_values), self.name, throw))

    def off(self, position, side):
        """How many of ``side``'s pieces have left the board."""
        return self.pieces - position.count(side)

    def points(self, position, side):
        """Points ``side`` scores for the enemy pieces still on the board (H15)."""
        if not self.scoring:
            return 0
        total = 0
        for square in position.squares_of(other(side)):
            for low, high, value in self.scoring:
                if low <= square <= high:
                    total += value
        return total

    # -- moves ------------------------------------------------------------

    def legal_moves(self, position, throw):
        """Every legal move for the side to move with ``throw``.

        Ordered by origin square, then destination (``off`` last).
        """
        return _legal_moves(self, position, throw)

    def find_move(self, position, throw, text):
        """The legal move written ``text``; raise IllegalMoveError naming the
        rule that refuses it (PositionError if ``text`` is not a move at all)."""
        parse_move_text(text)
        for move in self.legal_moves(position, throw):
            if move.text == text.strip():
                return move
        from engine.explain import refuse      # loaded only when a move is refused
        raise refuse(self, position, throw, text.strip())

    def pass_position(self, position, throw):
        """The position after a lost turn (K15, H14): who throws next."""
        if throw in self.again_values:
            return position
        return position.with_turn(other(position.turn))

    def __repr__(self):
        return "Ruleset(%r, %r)" % (self.name, self.options)


def kendall(**options):
    """Timothy Kendall's reconstruction (K1..K16)."""
    rs = Ruleset("kendall")
    rs.counting = "skip_occupied"      # K6
    rs.jump = "lone_then_empty"        # K8
    rs.big_block = 4                   # K9: fours and more never break
    rs.triple_break = True             # K9
    rs.safe = (15,)                    # K10
    rs.rebirth = 15                    # K10
    rs.happiness = {26: 29}            # K11
    rs.water_fallback = "before"       # K12
    rs.exits = {28: 3, 29: 2, 30: 1}   # K13
    rs.leave_at = 0                    # K13: only the houses lead off
    rs.home_row_blocks_exit = 0
    rs.zero_value = 5                  # K3
    rs.again_values = (1, 4, 5)        # K5
    rs.setup_first = BLACK             # K2
    rs.cites = ("count K6 own K7 group K8 jump K8 safe K10 exit K13 beyond K13 "
                "below K15 backward K15 throw C4")
    return _set_options(rs, options, ("pieces",))


def hungarian(**options):
    """The Hungarian game-book rules (H1..H15)."""
    rs = Ruleset("hungarian")
    rs.safe = (26, 28, 29)             # H9
    rs.scoring = ((1, 20, 3), (21, 30, 1))   # H15
    rs.cites = ("count H6 own H7 group H7 jump H8 safe H9 home H12 below H13 "
                "backward H13 throw C4")
    return _set_options(rs, options, ("no_move", "own_groups_block"))


def _set_options(rs, options, names):
    for key in options:
        if key not in names:
            raise PositionError("unknown option %r for ruleset %s (it has: %s)" % (
                key, rs.name, ", ".join(names)))
        rs.set_option(key, options[key])
    return rs


RULESETS = {"kendall": kendall, "hungarian": hungarian}


def ruleset(name, **options):
    """The ruleset called ``name`` with ``options``; raise PositionError if unknown."""
    factory = RULESETS.get(name)
    if factory is None:
        raise PositionError("unknown ruleset %r; choose one of: %s" % (
            name, ", ".join(sorted(RULESETS))))
    return factory(**options)


def ruleset_spec(rs):
    """``"hungarian:no_move=end"``: the ruleset with its options as text,
    what parse_ruleset reads back."""
    spec = rs.name
    keys = sorted(rs.options)
    if keys:
        parts = []
        for k in keys:
            v = rs.options[k]
            if v is True:
                v = "true"
            elif v is False:
                v = "false"
            parts.append("%s=%s" % (k, v))
        spec += ":" + ",".join(parts)
    return spec


def parse_ruleset(spec):
    """``"kendall"`` or ``"kendall:pieces=7"`` or ``"hungarian:no_move=end"``."""
    name, _, rest = spec.partition(":")
    options = {}
    if rest:
        for item in rest.split(","):
            key, eq, value = item.partition("=")
            if not eq:
                raise PositionError("ruleset option must be key=value, got %r" % item)
            if value in ("true", "false"):
                value = value == "true"
            elif value.isdigit():
                value = int(value)
            options[key.strip()] = value
    return ruleset(name.strip(), **options)
