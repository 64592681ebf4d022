"""Small helpers for writing hand-worked positions in engine tests."""

from engine import Position, ruleset


def P(turn, B=(), W=()):
    """A position from square lists: P("W", B=[14], W=[12])."""
    squares = ["."] * 30
    for s in B:
        squares[s - 1] = "B"
    for s in W:
        squares[s - 1] = "W"
    return Position.from_squares(squares, turn)


def moves(rs, position, throw):
    """{move text: position text after} for every legal move."""
    if isinstance(rs, str):
        rs = ruleset(rs)
    return {m.text: m.after.text() for m in rs.legal_moves(position, throw)}


def texts(rs, position, throw):
    if isinstance(rs, str):
        rs = ruleset(rs)
    return [m.text for m in rs.legal_moves(position, throw)]
