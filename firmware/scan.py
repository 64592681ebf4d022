"""Reading the board: reed-switch scanners, the scan debouncer and the throw button.

Nothing here imports ``machine``: the scanners take ready-made pin-like objects
(anything with ``.value()`` and ``.value(v)``), so the same code reads a real
board, the browser simulator's fake one and the tests' fake one.

Occupancy is always an int, bit 0 = square 1, bit 29 = square 30. Reed switches
close when a piece's magnet stands above them; a closed switch reads as 0 (it
pulls its line down against a pull-up), and the scanners turn that into a 1 bit.
"""

try:
    from micropython import const
except ImportError:
    const = lambda x: x  # noqa: E731

SQUARES = const(30)
SQUARE_MASK = const(0x3FFFFFFF)       # 30 bits, still a small int on the Pico


class Debouncer:
    """Electrical debounce of the whole board, one counter per square.

    A square's debounced bit changes only after ``scans`` consecutive raw reads
    that disagree with it, so a switch chattering for a millisecond or two as a
    piece slides over it never reaches the App. State is one int and one
    bytearray made here; ``update`` allocates nothing but small ints.
    """

    def __init__(self, bits=SQUARES, scans=3):
        if bits < 1 or bits > SQUARES:
            raise ValueError("bits must be 1..30")
        if scans < 1 or scans > 255:
            raise ValueError("scans must be 1..255")
        self.bits = bits
        self.scans = scans
        self.mask = (1 << bits) - 1
        self.stable = 0                   # the debounced occupancy
        self._pending = 0                 # bits whose counter is running
        self._count = bytearray(bits)     # consecutive disagreeing reads per bit

    def reset(self, stable=0):
        """Forget the counters and take ``stable`` as the debounced state."""
        self.stable = stable & self.mask
        self._pending = 0
        for i in range(self.bits):
            self._count[i] = 0

    def update(self, raw):
        """Feed one raw scan; return the debounced occupancy."""
        differ = (raw ^ self.stable) & self.mask
        work = differ | self._pending
        if not work:
            return self.stable
        count = self._count
        scans = self.scans
        stable = self.stable
        pending = 0
        i = 0
        while work:
            if work & 1:
                bit = 1 << i              # at most 1 << 29: a small int
                if differ & bit:
                    n = count[i] + 1
                    if n >= scans:
                        stable ^= bit
                        count[i] = 0
                    else:
                        count[i] = n
                        pending |= bit
                else:
                    count[i] = 0          # the switch went back: start again
            work >>= 1
            i += 1
        self.stable = stable
        self._pending = pending
        return stable


def _plain_diff(a, b):
    return a - b


class Button:
    """The throw button: debounced by time, telling short presses from long ones.

    ``update(now_ms, pressed)`` returns ``"long"`` once, while the button is
    still held, as soon as it has been held ``long_ms``; ``"short"`` on release
    after a shorter press; otherwise None. A press or release counts once the
    raw level has stayed put for ``debounce_ms``. Times are compared only
    through ``ticks_diff`` (pass ``time.ticks_diff`` on the Pico so the ms
    counter may wrap); the default is plain subtraction.
    """

    def __init__(self, debounce_ms=30, long_ms=2000, ticks_diff=None):
        self.debounce_ms = debounce_ms
        self.long_ms = long_ms
        self._diff = ticks_diff if ticks_diff is not None else _plain_diff
        self.held = False                 # debounced state
        self._raw = False
        self._raw_since = None            # when the raw level last changed
        self._pressed_at = 0              # when the debounced press began
        self._long_sent = False

    def update(self, now_ms, pressed):
        """Feed the raw button level at ``now_ms``; return None, "short" or "long"."""
        pressed = bool(pressed)
        diff = self._diff
        if self._raw_since is None:
            self._raw_since = now_ms
        if pressed != self._raw:
            self._raw = pressed
            self._raw_since = now_ms
        if pressed != self.held and diff(now_ms, self._raw_since) >= self.debounce_ms:
            self.held = pressed
            if pressed:
                self._pressed_at = self._raw_since
                self._long_sent = False
            elif not self._long_sent:
                # Released before "long" was sent; a press that was long in
                # fact (updates came too seldom to see it) still counts as long.
                if diff(self._raw_since, self._pressed_at) >= self.long_ms:
                    return "long"
                return "short"
            else:
                return None
        if self.held and not self._long_sent:
            # Held up to now, or up to a release that is still being debounced.
            until = now_ms if pressed else self._raw_since
            if diff(until, self._pressed_at) >= self.long_ms:
                self._long_sent = True
                return "long"
        return None


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
