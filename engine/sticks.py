"""The four throwing sticks (C3).

Randomness is injected: anything that behaves like ``random.getrandbits``.
Bit i of ``rng(4)`` is stick i, 1 = flat (white) side up.  ``XorShift`` is a
tiny generator that gives the same sequence on CPython and MicroPython, so a
game replays exactly from a seed on either.
"""


class Throw:
    """One throw: the four stick faces and the value they make."""

    def __init__(self, sticks, value):
        self.sticks = sticks      # tuple of 4 ints, 1 = white (flat) side up
        self.value = value

    @property
    def whites(self):
        return sum(self.sticks)

    def __repr__(self):
        return "Throw(%r, %d)" % (self.sticks, self.value)


def sticks_from_bits(bits):
    return (bits & 1, (bits >> 1) & 1, (bits >> 2) & 1, (bits >> 3) & 1)


def throw_from_bits(rs, bits):
    """The throw that four stick bits make under ruleset ``rs`` (C3, K3, H3)."""
    sticks = sticks_from_bits(bits & 15)
    return Throw(sticks, rs.throw_value(sum(sticks)))


def throw(rs, rng):
    return throw_from_bits(rs, rng(4))


# Of the 16 ways four two-sided sticks can fall, how many show 0, 1, 2, 3
# and 4 flat (white) sides: 4 choose k (C3).
_WAYS_TO_SHOW = (1, 4, 6, 4, 1)


def probabilities(rs):
    """{value: ways out of 16}: exactly 4, 6, 4, 1, 1 for 1, 2, 3, 4, 5/6 (C3).

    Counted by the number of white sides, five values, not the 16 falls
    one by one: the search's tables ask for it, and on a Pico the 16 throws
    were some 4 ms of a new ruleset's first search."""
    ways = {}
    for whites in range(5):
        value = rs.throw_value(whites)
        ways[value] = ways.get(value, 0) + _WAYS_TO_SHOW[whites]
    return ways


def opening(rs, rng):
    """K4, H4: the players throw in turn until one throws a 1.

    Returns the list of opening throws; the player who threw last (the first
    thrower if the list has odd length) takes the side that starts and moves
    with that 1.
    """
    throws = []
    while True:
        t = throw(rs, rng)
        throws.append(t)
        if t.value == 1:
            return throws


class XorShift:
    """xorshift32: a seeded source of random bits identical on every port."""

    def __init__(self, seed=1):
        self.state = (seed * 2654435761 + 0x9E3779B9) & 0xFFFFFFFF or 1

    def next32(self):
        x = self.state
        x ^= (x << 13) & 0xFFFFFFFF
        x ^= x >> 17
        x ^= (x << 5) & 0xFFFFFFFF
        self.state = x
        return x

    def getrandbits(self, n):
        return self.next32() >> (32 - n) if n else 0

    __call__ = getrandbits

    def randrange(self, n):
        return self.next32() % n
