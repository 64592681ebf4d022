"""A fake of MicroPython's ``neopixel`` module that records what was sent.

Same shape as the real driver (``NeoPixel(pin, n, bpp=3, timing=1)``, ``buf``,
``ORDER``, item access, ``fill``, ``write``), but ``write()`` keeps a copy of
the bytes instead of clocking them out. Every strip made is in ``strips``.

    import neopixel
    strip = neopixel.strips[-1]
    len(strip.writes)          # how many frames were sent
    strip.writes[-1]           # the bytes of the last one
    strip.colours()            # the last frame sent, as (r, g, b) per LED

Only the last ``KEEP`` frames are kept, in buffers made once: a stand-in
board left on for days sends millions of frames, and its heap is small.
"""

KEEP = 16                      # frames kept for a test to look back at

strips = []


class Frames:
    """The frames a strip sent: ``len()`` counts all of them, indexing
    reaches the last ``keep`` (negative indexes count from the newest)."""

    def __init__(self, size, keep=KEEP):
        self.count = 0
        self._ring = [bytearray(size) for _ in range(keep)]

    def append(self, data):
        # a byte at a time: no bytes or slice object a frame, so that a
        # benchmark's collections sweep the firmware's garbage, not the
        # fake's (a Pico's driver sends its buffer and makes nothing)
        ring = self._ring[self.count % len(self._ring)]
        for i in range(len(data)):
            ring[i] = data[i]
        self.count += 1

    def __len__(self):
        return self.count

    def __getitem__(self, index):
        if index < 0:
            index += self.count
        if not self.count - len(self._ring) <= index < self.count:
            raise IndexError("frame %d is not kept (%d sent, the last %d kept)"
                             % (index, self.count, len(self._ring)))
        return bytes(self._ring[index % len(self._ring)])


class NeoPixel:
    ORDER = (1, 0, 2, 3)           # GRB on the wire, like WS2812B

    def __init__(self, pin, n, bpp=3, timing=1):
        self.pin = pin
        self.n = n
        self.bpp = bpp
        self.timing = timing
        self.buf = bytearray(n * bpp)
        self.writes = Frames(n * bpp)   # the frames sent (the last KEEP of them)
        strips.append(self)

    def __len__(self):
        return self.n

    def __setitem__(self, i, v):
        offset = i * self.bpp
        for k in range(self.bpp):
            self.buf[offset + self.ORDER[k]] = v[k]

    def __getitem__(self, i):
        offset = i * self.bpp
        return tuple(self.buf[offset + self.ORDER[k]] for k in range(self.bpp))

    def fill(self, v):
        for i in range(self.n):
            self[i] = v

    def write(self):
        self.writes.append(self.buf)

    def colours(self, order="GRB", index=-1):
        """Frame number ``index`` as sent, decoded as (r, g, b) per LED."""
        data = self.writes[index]
        r = order.index("R")
        g = order.index("G")
        b = order.index("B")
        return [(data[3 * i + r], data[3 * i + g], data[3 * i + b]) for i in range(self.n)]


def reset():
    """Forget every strip (between tests)."""
    while strips:
        strips.pop()
