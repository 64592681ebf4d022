"""What a request to the virtual board may ask for, checked before anything moves.

Every request of `senet-board sim` (a lift, a press, a stretch of chatter)
checks its arguments here first and only then changes the board, so a bad
request answers one sentence and leaves the game as it was.
"""

SQUARES = 30


class SimError(ValueError):
    """A request the virtual board cannot carry out; nothing was changed."""


def whole(value, name, low, high):
    """``value`` as a whole number from ``low`` to ``high`` (True is not one)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise SimError("%s must be a whole number from %d to %d, got %r" % (name, low, high, value))
    if value < low or value > high:
        raise SimError("%s must be from %d to %d, got %d" % (name, low, high, value))
    return value


def square(value):
    """A square of the board, 1..30."""
    return whole(value, "square", 1, SQUARES)


def flag(value, name):
    """``value`` as true or false (1 and 0 are not flags)."""
    if not isinstance(value, bool):
        raise SimError("%s must be true or false, got %r" % (name, value))
    return value
