"""The wiring self-test of maintenance work: every switch lights its square
and reports each change, and any LED can be lit on request.

Loaded by firmware/board.py on the serial command ``{"cmd": "selftest"}``
and let go on ``{"cmd": "run"}``: a board in play has no use for it.
docs/deploy.md describes the commands.
"""

from firmware.version import VERSION

try:
    from micropython import const
except ImportError:
    const = lambda x: x  # noqa: E731

SQUARES = const(30)
_COLOURS = {"white": (1, 1, 1), "red": (1, 0, 0), "green": (0, 1, 0), "blue": (0, 0, 1)}


class SelfTest:
    """Wiring self-test: switches light their square and report each change.

    The raw scan goes through the same electrical debounce the game uses, so a
    chattering switch shows as the game would see it. LED ``led`` (set by the
    "led" command) lights on top of the switches: one LED by index, or all of
    them in one colour, at the brightness cap.
    """

    def __init__(self, config, strip_count):
        from firmware.scan import Debouncer
        self._debouncer = Debouncer(SQUARES, config.get("debounce_scans", 3))
        self.count = strip_count
        cap = config.get("brightness_cap", 37)
        self.level = cap if cap > 0 else 1
        self.occupancy = None
        self.led = None
        self.colour = (1, 1, 1)
        self._frame = [(0, 0, 0)] * strip_count

    def start(self, raw):
        """Take the board as it is now; return the selftest event."""
        self._debouncer.reset(raw)
        self.occupancy = raw
        return {"event": "selftest", "version": VERSION, "squares": SQUARES,
                "leds": self.count, "closed": _squares(raw)}

    def step(self, raw):
        """Feed one raw scan; return the switch events of this scan."""
        stable = self._debouncer.update(raw)
        changed = stable ^ self.occupancy
        self.occupancy = stable
        events = []
        square = 1
        while changed:
            if changed & 1:
                events.append({"event": "switch", "square": square,
                               "closed": bool(stable >> (square - 1) & 1)})
            changed >>= 1
            square += 1
        return events

    def command(self, cmd):
        """Handle an "led" command; return its reply event."""
        index = cmd.get("index")
        colour = cmd.get("colour", "white")
        if colour not in _COLOURS:
            return {"event": "error", "message": "led: unknown colour %r" % (colour,)}
        if index is not None and index != "all":
            if not isinstance(index, int) or isinstance(index, bool) \
                    or index < 0 or index >= self.count:
                return {"event": "error", "message": "led: no LED %r" % (index,)}
        self.led = index
        self.colour = _COLOURS[colour]
        return {"event": "led", "index": index, "colour": colour}

    def frame(self):
        """Every LED's colour now: closed squares white, plus the requested LED."""
        level = self.level
        on = (level, level, level)
        frame = self._frame
        occupancy = self.occupancy or 0
        c = self.colour
        lit = (c[0] * level, c[1] * level, c[2] * level)
        for i in range(self.count):
            if self.led == "all" or self.led == i:
                frame[i] = lit
            elif i < SQUARES and occupancy >> i & 1:
                frame[i] = on
            else:
                frame[i] = (0, 0, 0)
        return frame


def _squares(occupancy):
    """Square numbers whose bit is set, in order."""
    result = []
    for i in range(SQUARES):
        if occupancy >> i & 1:
            result.append(i + 1)
    return result
