"""The reed-switch scanners: a diode matrix, or a chain of 74HC165 shift registers.

Nothing here imports ``machine``: the scanners take ready-made pin-like objects
(anything with ``.value()`` and ``.value(v)``), so the same code reads a real
board, the browser simulator's fake one and the tests' fake one. Only
firmware/hal.py needs them, so the App's heap does not hold them; they are
also importable from ``firmware.scan`` as before.

Occupancy is an int, bit 0 = square 1, bit 29 = square 30. Reed switches
close when a piece's magnet stands above them; a closed switch reads as 0 (it
pulls its line down against a pull-up), and the scanners turn that into a 1 bit.
"""

try:
    from micropython import const
except ImportError:
    const = lambda x: x  # noqa: E731

SQUARES = const(30)
SQUARE_MASK = const(0x3FFFFFFF)       # 30 bits, still a small int on the Pico


class MatrixScanner:
    """A diode matrix of reed switches: rows driven low one at a time, columns
    read with pull-ups.

    Square s sits at row (s-1) // len(cols), column (s-1) % len(cols): with
    6 rows of 5 columns, row 0 holds squares 1-5, row 5 squares 26-30.
    ``row.value(0)`` must pull the row low and ``row.value(1)`` let it go (on
    the Pico an open-drain pin with its pull-up: an idle row is an input, see
    docs/hardware.md), so two rows shorted by a wiring slip never fight. The
    diode in series with each switch keeps closed switches on other rows from
    showing up as ghosts. ``sleep_us`` (for example ``time.sleep_us``) waits
    ``settle_us`` after pulling a row low so the columns a closed switch held
    low on the previous row have risen again; None skips the wait.
    """

    def __init__(self, rows, cols, settle_us=10, sleep_us=None):
        if len(rows) * len(cols) < SQUARES:
            raise ValueError("a matrix needs rows x cols >= 30")
        self.rows = list(rows)
        self.cols = list(cols)
        self.settle_us = settle_us
        self._sleep_us = sleep_us
        for row in self.rows:
            row.value(1)

    def scan(self):
        """Read every switch once; return the occupancy (bit 0 = square 1)."""
        result = 0
        i = 0
        sleep_us = self._sleep_us
        for row in self.rows:
            row.value(0)
            if sleep_us is not None:
                sleep_us(self.settle_us)
            for col in self.cols:
                if i < SQUARES and not col.value():
                    result |= 1 << i
                i += 1
            row.value(1)
        return result & SQUARE_MASK


class Shift165Scanner:
    """A chain of 74HC165 parallel-in shift registers on three pins.

    A low pulse on SH/LD (``load``) copies every input into the chain at once;
    then the data line shows one input per ``clock`` rising edge, the first bit
    out being square 1. Four chips give 32 inputs; the last two are ignored.
    A closed switch pulls its input low (the inputs have pull-ups), so
    ``closed=0``; pass ``closed=1`` for a board wired the other way round.
    ``sleep_us`` (for example ``time.sleep_us``) holds each pulse and clock
    level ``pulse_us``; None relies on the time a pin write takes anyway.
    """

    def __init__(self, load, clock, data, inputs=32, closed=0, pulse_us=1, sleep_us=None):
        if inputs < SQUARES:
            raise ValueError("a 74HC165 chain needs at least 30 inputs")
        self.load = load
        self.clock = clock
        self.data = data
        self.inputs = inputs
        self.closed = 1 if closed else 0
        self.pulse_us = pulse_us
        self._sleep_us = sleep_us
        clock.value(0)
        load.value(1)

    def scan(self):
        """Latch and shift out the whole chain; return the occupancy."""
        load = self.load
        clock = self.clock
        data = self.data
        closed = self.closed
        sleep_us = self._sleep_us
        us = self.pulse_us
        load.value(0)                     # SH/LD low: latch the inputs
        if sleep_us is not None:
            sleep_us(us)
        load.value(1)                     # back to shifting; input 0 is on QH
        result = 0
        for i in range(self.inputs):
            if i < SQUARES and data.value() == closed:
                result |= 1 << i
            clock.value(1)                # rising edge: the next input onto QH
            if sleep_us is not None:
                sleep_us(us)
            clock.value(0)
            if sleep_us is not None:
                sleep_us(us)
        return result & SQUARE_MASK
