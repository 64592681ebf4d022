"""The hardware edge on CircuitPython: what firmware/hal.py is on MicroPython.

Same interface (``build(config)`` giving ``.scanner.scan()``, ``.strip.write``,
``.button()``; ``make_button``, ``watchdog``, ``watchdog_stop``, ``reset``,
``unique_id``, ``ticks_ms``, ``ticks_diff``, ``sleep_ms``), built from
CircuitPython's own parts, so firmware/board.py runs unchanged on top
(CircuitPython's code.py calls ``board.run(hal=hal_cp)``):

- the switches through the built-in ``keypad`` module: ``KeyMatrix`` for the
  6 x 5 diode matrix (key = row * 5 + column = square - 1, diodes' anodes on
  the columns) or ``ShiftRegisterKeys`` for the 74HC165 chain (key = bit read
  = square - 1). keypad scans and debounces in the background, in C; its
  events are turned into the occupancy int the App takes. Since keypad does
  the electrical debounce (``debounce_scans`` of its scans), the App's own
  debounce is set to one scan: a lift reaches the App on the next loop;
- the throw button through ``keypad.Keys`` (pressed pulls it low);
- the strip through Adafruit's ``neopixel`` library (``auto_write=False``,
  ``brightness=1.0``: the brightness cap and the current limiter are
  firmware.lights', as on MicroPython);
- time from ``supervisor.ticks_ms`` (firmware/compat.py), the watchdog from
  ``microcontroller.watchdog``.

Pins are the same GPIO numbers as on MicroPython (config.json, hardware/
pinmap.json): ``board.GP2`` on a Pico, ``microcontroller.pin.GPIO2`` on any
other RP2040 board. A board whose own parts sit on the Pico's default pins
(the Feather RP2040's NeoPixel is GPIO16, the KB2040's GPIO17) gets its
default wiring from BOARD_PINS, keyed by CircuitPython's ``board.board_id``
and used only while config.json names no pins: firmware/boards.py, generated
from the "boards" table of hardware/pinmap.json (docs/circuitpython.md).
Only this module imports CircuitPython's hardware modules.
"""

import board
import keypad
import microcontroller

from firmware import compat
from firmware.boards import BOARD_PINS

ticks_ms = compat.ticks_ms
ticks_diff = compat.ticks_diff
ticks_add = compat.ticks_add
sleep_ms = compat.sleep_ms

SCAN_MS = 5               # keypad scans every 5 ms, as the MicroPython loop does
SCAN_S = SCAN_MS / 1000
MAX_EVENTS = 64           # keypad's default queue; a whole board changing is 30
RP2040_WATCHDOG_S = 8.388


def pin(gpio):
    """The pin object for a GPIO number: the board's ``GP<n>`` where it has
    one (Pico), else the RP2040's ``microcontroller.pin.GPIO<n>``."""
    found = getattr(board, "GP%d" % gpio, None)
    if found is None:
        found = getattr(getattr(microcontroller, "pin", None), "GPIO%d" % gpio, None)
    if found is None:
        raise ValueError("this board has no GPIO%d" % gpio)
    return found


def wiring(config):
    """config["pins"], or this board's BOARD_PINS entry when config.json left
    the pins at the Pico's defaults."""
    from firmware.pins import PINMAP       # read here only (hal.py make_scanner says why)
    pins = config["pins"]
    table = BOARD_PINS.get(getattr(board, "board_id", ""))
    if table is not None and pins == PINMAP["pins"]:
        return table
    return pins


# -- sensing ------------------------------------------------------------------

class KeyScanner:
    """A keypad scanner read as occupancy: ``scan()`` takes the events that
    came since the last call and returns the int (bit k = key k = square k+1).

    keypad reports changes only. A key already closed when its scanner is
    made (a piece left standing through a power cut, the throw button held
    at power-on) reports nothing: its debounce counter starts at zero. Only
    ``reset()`` marks every key released, so that each closed key reports a
    press within ``threshold`` scans. So the scanner is reset as soon as it
    is made, and given those scans before the first ``scan()``.

    One Event is made here and refilled (``get_into``), so a scan allocates
    nothing.

    If the queue overflowed (a stalled loop while hands were busy), events
    were lost and the board is unknown. The scanner is reset, so every
    closed switch reports again, and for ``settle_ms`` the last board known
    is given while the new one is gathered from those reports; then the new
    one. Giving the board as it stood until keypad has told it whole means
    the App never sees a board no hand made: half a board re-reported would
    look like pieces lifted, and a lift and a return of two squares is how
    a capture is recognised (C6).
    """

    def __init__(self, keys, mask=(1 << 30) - 1, threshold=1):
        self.keys = keys
        self.mask = mask
        self.occupancy = 0
        self.settle_ms = (threshold + 2) * SCAN_MS    # keypad's scans, and a margin
        self.recoveries = 0
        self._event = keypad.Event()
        self._rebuilt = 0                 # the board gathered since an overflow
        self._rebuilt_at = None           # when it is whole (ticks), None: not gathering
        keys.reset()              # every key released: the closed ones report now
        sleep_ms(self.settle_ms)

    def scan(self):
        events = self.keys.events
        if events.overflowed:
            self._start_over(events)
        if self._rebuilt_at is not None:
            self._rebuilt = self._take(events, self._rebuilt)
            if ticks_diff(ticks_ms(), self._rebuilt_at) < 0:
                return self.occupancy & self.mask     # the board as it last stood
            self._rebuilt_at = None
            self.occupancy = self._rebuilt
            return self.occupancy & self.mask
        self.occupancy = self._take(events, self.occupancy)
        return self.occupancy & self.mask

    def _take(self, events, occ):
        """``occ`` with the waiting events applied, in the order they came."""
        event = self._event
        while events.get_into(event):
            bit = 1 << event.key_number
            if event.pressed:
                occ |= bit
            else:
                occ &= ~bit
        return occ

    def _start_over(self, events):
        """Events were lost: have keypad report every closed switch again."""
        events.clear()
        self.keys.reset()
        self._rebuilt = 0
        self._rebuilt_at = ticks_add(ticks_ms(), self.settle_ms)
        self.recoveries += 1


def make_scanner(config, threshold=None):
    """keypad's scanner for config["scanner"], as a KeyScanner.

    Matrix: rows and columns as the build guide wires them, diodes' anodes on
    the columns (``columns_to_anodes=True``: columns pulled up, the row being
    read driven low). Shift: a 74HC165 chain latches when SH/LD goes high
    (``value_to_latch=True``); a closed switch reads low.
    """
    from firmware.pins import SR_BITS       # read here only (hal.py make_scanner says why)
    pins = wiring(config)
    if threshold is None:
        threshold = config["debounce_scans"]
    if config["scanner"] == "matrix":
        return KeyScanner(keypad.KeyMatrix([pin(n) for n in pins["matrix_rows"]],
                                           [pin(n) for n in pins["matrix_cols"]],
                                           columns_to_anodes=True, interval=SCAN_S,
                                           max_events=MAX_EVENTS, debounce_threshold=threshold),
                          threshold=threshold)
    return KeyScanner(keypad.ShiftRegisterKeys(clock=pin(pins["sr_clock"]),
                                               data=pin(pins["sr_data"]),
                                               latch=pin(pins["sr_load"]), value_to_latch=True,
                                               key_count=SR_BITS, value_when_pressed=False,
                                               interval=SCAN_S, max_events=MAX_EVENTS,
                                               debounce_threshold=threshold),
                      threshold=threshold)


_buttons = {}  # type: dict  # GPIO -> the button made for it (a pin is claimed once)


def make_button(config):
    """A zero-argument callable, True while the throw button is held (it
    connects its pin to ground against the internal pull-up). Made once per
    pin: CircuitPython lets only one object hold a pin."""
    gpio = wiring(config)["button"]
    made = _buttons.get(gpio)
    if made is not None:
        return made
    scanner = KeyScanner(keypad.Keys((pin(gpio),), value_when_pressed=False, pull=True,
                                     interval=SCAN_S, max_events=8), mask=1)

    def pressed():
        return scanner.scan() == 1
    _buttons[gpio] = pressed
    return pressed


# -- lights -------------------------------------------------------------------

class Strip:
    """The WS2812 strip through Adafruit's NeoPixel library; ``write(frame)``
    sends a frame only if it changed (as firmware.hal.Strip does).

    ``_sent`` keeps the last frame sent, 3 bytes an LED in (r, g, b) order,
    so a frame is compared without asking the library for tuples; only the
    LEDs that changed are handed to it. The library's own brightness stays
    1.0: firmware.lights has already capped and limited every colour.
    """

    def __init__(self, gpio, count, order="GRB"):
        import neopixel
        self.count = count
        self._np = neopixel.NeoPixel(pin(gpio), count, brightness=1.0, auto_write=False,
                                     pixel_order=order)
        self._sent = bytearray(3 * count)
        self._shown = False
        self.writes = 0

    def write(self, frame):
        """Send ``frame`` unless it equals the last one sent; return True if sent."""
        sent = self._sent
        np = self._np
        changed = not self._shown
        n = len(frame)
        if n > self.count:
            n = self.count
        for i in range(n):
            c = frame[i]
            o = 3 * i
            if sent[o] != c[0] or sent[o + 1] != c[1] or sent[o + 2] != c[2]:
                sent[o] = c[0]
                sent[o + 1] = c[1]
                sent[o + 2] = c[2]
                np[i] = c
                changed = True
        if changed:
            np.show()
            self._shown = True
            self.writes += 1
        return changed

    def off(self):
        """Dark strip, sent at once (before a reset, say)."""
        sent = self._sent
        for i in range(len(sent)):
            sent[i] = 0
        self._np.fill(0)
        self._np.show()
        self._shown = True
        self.writes += 1


def make_strip(config):
    """The strip writer for the configured LED pin and config["leds"]."""
    leds = config["leds"]
    return Strip(wiring(config)["led"], leds["count"], leds.get("order", "GRB"))


class Hardware:
    """Everything a board loop needs, built from one checked config."""

    def __init__(self, config):
        self.scanner = make_scanner(config)
        self.strip = make_strip(config)
        self.button = make_button(config)


def build(config):
    """Hardware(config): .scanner.scan(), .strip.write(frame), .button().

    keypad debounces in C over config["debounce_scans"] of its scans, so the
    App is told to take each scan as it comes (config["debounce_scans"] is
    set to 1 here, before the board loop makes the App from this config).
    """
    hw = Hardware(config)
    config["debounce_scans"] = 1
    return hw


# -- the microcontroller ----------------------------------------------------------

class _NoWatchdog:
    def feed(self):
        pass


def watchdog(timeout_ms=8000):
    """Start ``microcontroller.watchdog`` in RESET mode: the board restarts
    unless ``.feed()`` is called within ``timeout_ms`` (at most 8388 on the
    RP2040). ``None`` or 0 gives an object whose feed() does nothing."""
    if not timeout_ms:
        return _NoWatchdog()
    dog = getattr(microcontroller, "watchdog", None)
    if dog is None:
        return _NoWatchdog()
    try:
        from watchdog import WatchDogMode
        dog.timeout = min(timeout_ms / 1000, RP2040_WATCHDOG_S)
        dog.mode = WatchDogMode.RESET
        return dog
    except (ImportError, AttributeError, ValueError, NotImplementedError, RuntimeError):
        return _NoWatchdog()


def watchdog_stop():
    """Disarm the watchdog (a laptop stopped the game on purpose)."""
    dog = getattr(microcontroller, "watchdog", None)
    if dog is None:
        return False
    try:
        dog.mode = None                  # CircuitPython 9 and later
    except (ValueError, TypeError, RuntimeError):
        try:
            dog.deinit()                 # earlier releases
        except (AttributeError, RuntimeError):
            return False
    return True


def reset():
    """Hard reset of the board."""
    microcontroller.reset()


def unique_id():
    """The board's serial number (from its flash chip) as a hex string."""
    return "".join("%02x" % b for b in microcontroller.cpu.uid)
