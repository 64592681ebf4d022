"""The version-1 game record, and whole games played from a seed.

    >>> from engine import ruleset
    >>> from engine.game import Game, play_game
    >>> game = play_game(ruleset("kendall"), 7)
    >>> Game.from_record(game.record()).record() == game.record()
    True

Version 1 ("senet-game 1": ruleset, start, opening, one ``W 3 10-13`` line a
ply, end) is what ``Game.record`` writes and ``Game.from_record`` reads; the
board's monitor keeps its files in it. The documented format other tools
read and write, version 2 with headers, turn numbers and marks, is
``engine.record`` (docs/record.md), which reads this version too.

Kept apart from ``engine.game`` so the board's firmware, which never writes a
record, does not hold this code in its heap: ``Game.record``,
``Game.from_record`` and ``engine.game.play_game`` load it when first asked,
and hand it the ``Game`` class, so that this module never imports
``engine.game`` back.
"""

from engine.position import Position, PositionError, BLACK, WHITE
from engine.rules import parse_ruleset
from engine import sticks as _sticks

RECORD_HEADER = "senet-game 1"


def record(game):
    """Plain-text game record that ``from_record`` reads back."""
    rs = game.ruleset
    spec = rs.name
    if rs.options:
        spec += ":" + ",".join("%s=%s" % (k, _opt_text(rs.options[k]))
                               for k in sorted(rs.options))
    lines = [RECORD_HEADER, "ruleset " + spec, "start " + game.start.text()]
    if game.opening:
        lines.append("opening " + " ".join(str(v) for v in game.opening))
    for side, value, text in game.turns():
        lines.append("%s %d %s" % (side, value, text or "pass"))
    if game.ended:
        lines.append("end %s %d" % (game.ended[0] or "draw", game.ended[1]))
    return "\n".join(lines) + "\n"


def from_record(cls, text):
    """Replay a record as a ``cls`` (engine.game.Game), checking every move
    against the rules."""
    lines = [l.strip() for l in text.splitlines() if l.strip() and not l.startswith("#")]
    if lines and lines[0].startswith("senet-game ") and lines[0] != RECORD_HEADER:
        raise PositionError("%r: Game.from_record reads version 1; engine.record.read reads "
                            "every version (docs/record.md)" % lines[0])
    if not lines or lines[0] != RECORD_HEADER:
        raise PositionError("not a Senet game record (first line must be %r)" % RECORD_HEADER)
    game = None
    for number, line in enumerate(lines[1:], 2):
        word, _, rest = line.partition(" ")
        try:
            game = _read_line(cls, game, word, rest)
        except PositionError as exc:
            raise PositionError("record line %d: %s" % (number, exc))
    if game is None:
        raise PositionError("record has no ruleset line")
    return game


def _opt_text(value):
    if value is True:
        return "true"
    if value is False:
        return "false"
    return str(value)


def _read_line(cls, game, word, rest):
    if word == "ruleset":
        return cls(parse_ruleset(rest))
    if game is None:
        raise PositionError("the ruleset line must come first")
    if word == "start":
        position = Position.parse(rest)
        game.ruleset.check_position(position)
        game.start = game.position = position
    elif word == "opening":
        game.opening = [int(v) for v in rest.split()]
    elif word in (BLACK, WHITE):
        value, _, move = rest.partition(" ")
        if word != game.position.turn:
            raise PositionError("%s moves here but it is %s's turn" % (word, game.position.turn))
        try:
            game.set_throw(int(value))
        except ValueError:
            raise PositionError("throw must be a number, got %r" % value)
        if move == "pass":
            game.pass_turn()
        else:
            game.play(move)
    elif word == "end":
        if not game.is_over():
            raise PositionError("the record says the game ended, but it has not")
    else:
        raise PositionError("unknown record line %r" % word)
    return game


def play_game(cls, rs, seed, choose=None, max_plies=5000):
    """Play a whole game from ``seed`` as a ``cls`` (engine.game.Game);
    ``choose(game, moves, rng)`` picks a move (default: a random one).  Raise
    PositionError if it never ends.

    The same seed and chooser give the same game on CPython and MicroPython.
    """
    rng = _sticks.XorShift(seed)
    game = cls(rs, rng)
    game.play_opening()
    while not game.is_over():
        if game.ply_count >= max_plies:
            raise PositionError("game with seed %d did not end within %d plies" % (seed, max_plies))
        if game.throw is None:
            game.throw_sticks()
        moves = game.legal_moves()
        if not moves:
            game.pass_turn()
        elif choose is None:
            game.play(moves[rng.randrange(len(moves))])
        else:
            game.play(choose(game, moves, rng))
    return game
