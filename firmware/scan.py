"""Reading the board: the scan debouncer and the throw button, and (from
firmware/scanners.py, loaded only when asked for) the reed-switch scanners.

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

_SQUARES = const(30)


class Debouncer:
    """Electrical debounce of the whole board, one counter per square.

    A square's debounced bit changes only after ``scans`` consecutive raw reads
    that disagree with it, so a switch chattering for a millisecond or two as a
    piece slides over it never reaches the App. State is one int and one
    bytearray made here; ``update`` allocates nothing but small ints.
    """

    def __init__(self, bits=_SQUARES, scans=3):
        if bits < 1 or bits > _SQUARES:
            raise ValueError("bits must be 1..30")
        if scans < 1 or scans > 255:
            raise ValueError("scans must be 1..255")
        self.bits = bits
        self.scans = scans
        self.mask = (1 << bits) - 1
        self.stable = 0                   # the debounced occupancy
        self.changed = 0                  # squares whose counter is running: 0 when
        #                                   the last scan agreed with the board everywhere
        self._count = bytearray(bits)     # consecutive disagreeing reads per bit

    def reset(self, stable=0):
        """Forget the counters and take ``stable`` as the debounced state."""
        self.stable = stable & self.mask
        self.changed = 0
        for i in range(self.bits):
            self._count[i] = 0

    def update(self, raw):
        """Feed one raw scan; return the debounced occupancy."""
        differ = (raw ^ self.stable) & self.mask
        work = differ | self.changed
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
        self.changed = pending
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


def __getattr__(name):
    """``MatrixScanner`` and ``Shift165Scanner`` live in firmware/scanners.py
    (only hal.py needs them); they are still importable from here."""
    if name == "MatrixScanner" or name == "Shift165Scanner":
        from firmware import scanners
        return getattr(scanners, name)
    raise AttributeError(name)
