"""A fake of MicroPython's ``machine`` module, for CPython and the unix port.

Put tests/fakes on sys.path (before anything that imports machine) and the
firmware's hal.py builds its pins from this module instead of the Pico's.

One shared ``board`` object stands for the wooden board and its wiring:

    import machine
    board = machine.board
    board.reset()                                  # fresh board between tests
    board.wire_matrix([2, 3, 4, 5, 6, 7], [8, 9, 10, 11, 12])
    board.place(1, 3, 5)                           # magnets over squares 1, 3, 5
    board.lift(3)
    board.set_input(17, 0)                         # the throw button pressed

Rows are outputs the scanner drives; a column input reads 0 while a driven-low
row has a closed switch (a piece) on that column, else its pull-up reads 1.
``wire_shift165(load, clock, data)`` wires a 74HC165 chain instead: a low
level on load latches the squares (a piece reads 0), each rising clock edge
moves the next input onto data, square 1 first. Unwired inputs read their
``set_input`` level, else 1 with a pull-up, else 0.
"""

_SQUARES = 30


class Reset(Exception):
    """Raised by reset(): the real Pico would restart here."""


class FakeBoard:
    """The switches, the wiring and every pin made, shared by all fake pins."""

    def __init__(self):
        self.reset()

    def reset(self):
        self.pins = {}            # pin number -> the last Pin made for it
        self.inputs = {}          # pin number -> level set by the test
        self.occupancy = 0        # bit 0 = square 1: a magnet above the switch
        self.matrix = None        # (row pins, column pins)
        self.chain = None         # (load, clock, data, inputs)
        self._latched = []
        self._position = 0
        self.watchdog = None      # the last WDT made
        self.resets = 0
        self.reads = 0            # input reads, to see that scanning happened

    # -- the pieces -------------------------------------------------------------
    def place(self, *squares):
        for s in squares:
            self.occupancy |= 1 << (s - 1)

    def lift(self, *squares):
        for s in squares:
            self.occupancy &= ~(1 << (s - 1))

    def closed(self, square):
        return bool(self.occupancy >> (square - 1) & 1)

    # -- the wiring -------------------------------------------------------------
    def wire_matrix(self, rows, cols):
        self.matrix = (list(rows), list(cols))

    def wire_shift165(self, load, clock, data, inputs=32):
        self.chain = (load, clock, data, inputs)

    def set_input(self, pin, level):
        self.inputs[pin] = 1 if level else 0

    def output(self, pin):
        p = self.pins.get(pin)
        return None if p is None else p._out

    # -- what an input pin reads --------------------------------------------------
    def read(self, pin):
        self.reads += 1
        if self.matrix is not None and pin.id in self.matrix[1]:
            rows, cols = self.matrix
            c = cols.index(pin.id)
            for r in range(len(rows)):
                row = self.pins.get(rows[r])
                if row is not None and row._out == 0:
                    square = r * len(cols) + c + 1
                    if square <= _SQUARES and self.closed(square):
                        return 0
            return 1
        if self.chain is not None and pin.id == self.chain[2]:
            if self._position < len(self._latched):
                return self._latched[self._position]
            return 0                           # the chain's serial input, grounded
        if pin.id in self.inputs:
            return self.inputs[pin.id]
        return 1 if pin._pull == Pin.PULL_UP else 0

    def _driven(self, pin, old, new):
        if self.chain is None:
            return
        load, clock, data, inputs = self.chain
        if pin.id == load and new == 0:        # SH/LD low: latch every input
            self._latched = [0 if (k < _SQUARES and self.closed(k + 1)) else 1
                             for k in range(inputs)]
            self._position = 0
        elif pin.id == clock and old == 0 and new == 1:
            load_pin = self.pins.get(load)
            if load_pin is None or load_pin._out:
                self._position += 1


board = FakeBoard()


class Pin:
    IN = 0
    OUT = 1
    OPEN_DRAIN = 2
    PULL_UP = 1
    PULL_DOWN = 2
    IRQ_FALLING = 4
    IRQ_RISING = 8

    def __init__(self, id, mode=-1, pull=-1, value=None):
        self.id = id
        self._mode = self.IN
        self._pull = None
        self._out = 0
        self.init(mode, pull, value=value)
        board.pins[id] = self

    def init(self, mode=-1, pull=-1, value=None):
        if mode != -1:
            self._mode = mode
        if pull != -1:
            self._pull = pull
        if value is not None:
            self.value(value)

    def value(self, v=None):
        if v is None:
            if self._mode == self.OUT:
                return self._out
            return board.read(self)
        old = self._out
        self._out = 1 if v else 0
        board._driven(self, old, self._out)
        return None

    def on(self):
        self.value(1)

    def off(self):
        self.value(0)

    def __call__(self, v=None):
        return self.value(v)

    def __repr__(self):
        return "Pin(%d)" % self.id


class WDT:
    """The RP2040 watchdog: armed once made; only a write to its control
    register (``mem32``, as firmware/hal.py's watchdog_stop does) disarms it.
    The stand-in (tests/standin) resets a board left with one armed."""

    def __init__(self, id=0, timeout=5000):
        self.timeout = timeout
        self.feeds = 0
        self.armed = True
        board.watchdog = self

    def feed(self):
        self.feeds += 1


_WATCHDOG_CTRL_CLEAR = 0x40058000 + 0x3000   # WATCHDOG CTRL, atomic-clear alias
_WATCHDOG_ENABLE = 1 << 30


class _Mem32:
    """The few 32-bit registers a test cares about: writing the watchdog's
    enable bit to its clear alias disarms it."""

    def __init__(self):
        self.written = {}

    def __setitem__(self, address, value):
        self.written[address] = value
        dog = board.watchdog
        if address == _WATCHDOG_CTRL_CLEAR and value & _WATCHDOG_ENABLE and dog is not None:
            dog.armed = False

    def __getitem__(self, address):
        return self.written.get(address, 0)


mem32 = _Mem32()


def reset():
    board.resets += 1
    raise Reset("machine.reset()")


def soft_reset():
    reset()


def unique_id():
    return b"\xe6\x61\x41\x04\x03\x2b\x5c\x2f"


def freq(hz=None):
    return 125000000


def idle():
    pass
