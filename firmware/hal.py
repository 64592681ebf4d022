"""The hardware edge: the only firmware module that imports machine or neopixel.

Everything the Pico needs is built here from a checked config (firmware.config):
the switch scanner, the LED strip writer, the throw button, time, the watchdog.
The rest of the firmware takes these as plain objects and callables, which is
why the browser simulator and the tests can run the same App. Tests put fake
``machine`` and ``neopixel`` modules (tests/fakes) on sys.path.
"""

import machine
import neopixel

from firmware.scanners import MatrixScanner, Shift165Scanner

# -- time ---------------------------------------------------------------------

# MicroPython's own clock, as firmware/__init__.py takes its ticks_diff; off
# the Pico (CPython, under test) firmware/compat.py's. compat.py is never
# loaded on MicroPython: its code would cost the Pico's heap and flash.
try:
    from time import sleep_ms, sleep_us as _sleep_us, ticks_add, ticks_diff, ticks_ms
except ImportError:                         # (the stubs type the two clocks apart)
    from firmware.compat import (  # type: ignore[no-redef]
        sleep_ms, sleep_us as _sleep_us, ticks_add, ticks_diff, ticks_ms)


# -- sensing ------------------------------------------------------------------

def make_scanner(config):
    """The switch scanner the config names: "matrix" or "shift" (74HC165).

    Pins are set up as docs/hardware.md's scan order says. Matrix: columns are
    inputs with pull-ups; rows are open-drain with pull-ups, so an idle row is
    an input and only the row being read is driven (low). Shift: SH/LD and CLK
    outputs, load high and clock low; the data line an input.
    """
    # firmware/pins.py read here only, not held: the App lets it go once its
    # lights are made, and a module-level name here kept the module in the
    # heap all game, for every collection to mark (its pin table stays with
    # the config either way)
    from firmware import pins as figures
    Pin = machine.Pin
    pins = config["pins"]
    if config["scanner"] == "matrix":
        rows = [Pin(n, Pin.OPEN_DRAIN, Pin.PULL_UP, value=1) for n in pins["matrix_rows"]]
        cols = [Pin(n, Pin.IN, Pin.PULL_UP) for n in pins["matrix_cols"]]
        return MatrixScanner(rows, cols, settle_us=figures.MATRIX_SETTLE_US,
                             sleep_us=_sleep_us)
    load = Pin(pins["sr_load"], Pin.OUT, value=1)
    clock = Pin(pins["sr_clock"], Pin.OUT, value=0)
    data = Pin(pins["sr_data"], Pin.IN)
    return Shift165Scanner(load, clock, data, inputs=figures.SR_BITS,
                           pulse_us=figures.SR_PULSE_US, sleep_us=_sleep_us)


def make_button(config):
    """A zero-argument callable, True while the throw button is held.

    The button connects its GPIO to ground; the internal pull-up holds it
    high otherwise, so pressed reads 0.
    """
    pin = machine.Pin(config["pins"]["button"], machine.Pin.IN, machine.Pin.PULL_UP)

    def pressed():
        return pin.value() == 0
    return pressed


# -- lights -------------------------------------------------------------------

class Strip:
    """The WS2812 strip; ``write(frame)`` sends a frame only if it changed.

    ``frame`` is a list of (r, g, b), strip order, as firmware.lights renders
    it; ``order`` is the byte order the LEDs expect ("GRB" for WS2812B). The
    driver's buffer always holds the frame last sent, so comparing against it
    costs no extra memory. ``writes`` counts the frames actually sent.
    """

    def __init__(self, pin, count, order="GRB"):
        self.count = count
        self._np = neopixel.NeoPixel(machine.Pin(pin, machine.Pin.OUT), count)
        # micropython-lib's driver (frozen into the rp2 firmware) keeps the
        # bytes on the wire in .buf; the rp2 stubs do not list it.
        self._buf = getattr(self._np, "buf")
        self._r = order.index("R")
        self._g = order.index("G")
        self._b = order.index("B")
        self._sent = False
        self.writes = 0

    def write(self, frame):
        """Send ``frame`` unless it equals the last one sent; return True if sent."""
        buf = self._buf
        ro = self._r
        go = self._g
        bo = self._b
        changed = not self._sent
        n = len(frame)
        if n > self.count:
            n = self.count
        for i in range(n):
            c = frame[i]
            o = 3 * i
            if buf[o + ro] != c[0] or buf[o + go] != c[1] or buf[o + bo] != c[2]:
                buf[o + ro] = c[0]
                buf[o + go] = c[1]
                buf[o + bo] = c[2]
                changed = True
        if changed:
            self._np.write()
            self._sent = True
            self.writes += 1
        return changed

    def off(self):
        """Dark strip, sent at once (before a reset, say)."""
        buf = self._buf
        for i in range(len(buf)):
            buf[i] = 0
        self._np.write()
        self._sent = True
        self.writes += 1


def make_strip(config):
    """The strip writer for config["pins"]["led"] and config["leds"]."""
    leds = config["leds"]
    return Strip(config["pins"]["led"], leds["count"], leds.get("order", "GRB"))


class Hardware:
    """Everything a board loop needs, built from one checked config."""

    def __init__(self, config):
        self.scanner = make_scanner(config)
        self.strip = make_strip(config)
        self.button = make_button(config)


def build(config):
    """Hardware(config): .scanner.scan(), .strip.write(frame), .button()."""
    return Hardware(config)


# -- the Pico itself ----------------------------------------------------------

class _NoWatchdog:
    def feed(self):
        pass


def watchdog(timeout_ms=8000):
    """Start the watchdog: the Pico resets unless ``.feed()`` is called within
    ``timeout_ms`` (at most 8388 on the RP2040). Once started it cannot be
    stopped. ``None`` or 0 gives an object whose feed() does nothing."""
    if not timeout_ms:
        return _NoWatchdog()
    if timeout_ms > 8388:
        timeout_ms = 8388
    try:
        return machine.WDT(timeout=timeout_ms)
    except (AttributeError, ValueError, OSError):
        return _NoWatchdog()


_WATCHDOG_CTRL_CLEAR = 0x40058000 + 0x3000   # RP2040 WATCHDOG CTRL, atomic-clear alias
_WATCHDOG_ENABLE = 1 << 30


def watchdog_stop():
    """Disarm the RP2040 watchdog (MicroPython's WDT has no deinit): for when
    a laptop has stopped the game on purpose and wants the prompt. Does
    nothing where there is no RP2040 (tests, the unix port)."""
    mem32 = getattr(machine, "mem32", None)
    if mem32 is None:
        return False
    try:
        mem32[_WATCHDOG_CTRL_CLEAR] = _WATCHDOG_ENABLE
    except (OSError, ValueError, TypeError, IndexError):
        return False
    return True


def reset():
    """Hard reset of the Pico."""
    machine.reset()


def unique_id():
    """The board's serial number (from its flash chip) as a hex string."""
    uid = machine.unique_id()
    return "".join("%02x" % b for b in uid)
