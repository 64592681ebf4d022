"""The world behind the CircuitPython fakes: the wooden board, its wiring,
the clock, the pins and the CIRCUITPY drive, shared by every fake module.

The fakes (``board``, ``microcontroller``, ``digitalio``, ``keypad``,
``supervisor``, ``neopixel_write``, ``storage``, ``watchdog``) are written
from CircuitPython's documented API; this module is what they talk to, the
way the real ones talk to the RP2040. It is not a CircuitPython module.

    import _cpworld as world
    world.power_on()                      # fresh pins, clock, scanners, mounts
    world.wire_matrix(["GPIO2", ...], ["GPIO8", ...])
    world.place(1, 3, 5); world.lift(3)
    world.set_input("GPIO17", 0)          # the throw button pressed
    world.advance(20)                     # 20 ms pass: keypad scans in the background
    world.strips["GPIO16"][-1]            # the last bytes handed to neopixel_write

Electrics: an input reads the level a driven pin or a closed switch puts on
it, else its pull (up 1, down 0), else 0. Matrix: a diode from each column
(anode) to each row (cathode) in series with the switch, so a column reads 0
while a row driven low has a closed switch on it (``columns_to_anodes``).
74HC165 chain: SH/LD low loads the squares (a piece reads 0); high freezes
them; each clock rising edge moves the next input onto the data line,
square 1 first.
"""

SQUARES = 30
TICKS_PERIOD = 1 << 29
# supervisor.ticks_ms() = (ms since power-on + 0x1fff0000) % 2**29: the first
# wrap comes 65.536 s after power-on (shared-bindings/supervisor/__init__.c).
TICKS_OFFSET = 0x1FFF0000


class Reset(BaseException):
    """microcontroller.reset(): the real board would restart here."""


def _init():
    g = globals()
    g["ms"] = 0                  # ms since power-on
    g["occupancy"] = 0           # bit 0 = square 1: a magnet above the switch
    g["matrix"] = None           # (row pin names, column pin names)
    g["chain"] = None            # (load, clock, data, inputs)
    g["inputs"] = {}             # pin name -> level set by the test
    g["strips"] = {}             # pin name -> [bytes handed to neopixel_write]
    g["serial_in"] = []          # characters typed on the serial console, not read yet
    g["resets"] = 0
    g["boots"] = 0
    g["board_id"] = "raspberry_pi_pico"
    g["drive"] = None            # the folder standing for CIRCUITPY
    power_on()


def power_on():
    """A power-on (or reset): the RAM is gone, the board and its wiring stay."""
    g = globals()
    g["ms"] = 0
    g["claimed"] = {}            # pin name -> the DigitalInOut holding it
    g["scanners"] = []           # keypad objects scanning in the background
    g["readonly"] = True         # CIRCUITPY as the program sees it (no remount yet)
    g["phase"] = "boot"          # "boot" while boot.py runs, then "code"
    g["latched"] = []
    g["position"] = 0
    g["watchdog_fired"] = False
    g["boots"] = boots + 1 if "boots" in g else 1
    from watchdog import _reset_watchdog   # a reset stops the watchdog
    _reset_watchdog()


def ticks_ms():
    return (ms + TICKS_OFFSET) % TICKS_PERIOD


# -- the pieces ------------------------------------------------------------------

def place(*squares):
    global occupancy
    for s in squares:
        occupancy |= 1 << (s - 1)


def lift(*squares):
    global occupancy
    for s in squares:
        occupancy &= ~(1 << (s - 1))


def closed(square):
    return bool(occupancy >> (square - 1) & 1)


def wire_matrix(rows, cols):
    global matrix
    matrix = (list(rows), list(cols))


def wire_shift165(load, clock, data, inputs=32):
    global chain
    chain = (load, clock, data, inputs)


def set_input(name, level):
    inputs[name] = 1 if level else 0


# -- time ----------------------------------------------------------------------

def advance(dt):
    """Let ``dt`` ms pass; every keypad scanner scans when its interval is due."""
    global ms
    end = ms + dt
    while True:
        due = None
        for s in scanners:
            if due is None or s._next < due._next:
                due = s
        if due is None or due._next > end:
            break
        ms = max(ms, due._next)
        due._scan_now()
        due._next = ms + due._interval_ms
    ms = end
    from watchdog import _check_watchdog
    _check_watchdog()


# -- the electrics -----------------------------------------------------------------

def level(dio):
    """What the input ``dio`` (a digitalio.DigitalInOut) reads."""
    name = dio._pin.name
    if matrix is not None and name in matrix[1]:
        rows, cols = matrix
        c = cols.index(name)
        for r in range(len(rows)):
            row = claimed.get(rows[r])
            if row is not None and row._output and row._value is False:
                square = r * len(cols) + c + 1
                if square <= SQUARES and closed(square):
                    return 0                 # pulled low through switch and diode
    if chain is not None and name == chain[2]:
        load = claimed.get(chain[0])
        if load is None or not load._value:  # loading: QH shows input 0 as it is
            return 0 if closed(1) else 1
        if position < len(latched):
            return latched[position]
        return 0                             # the chain's serial input, grounded
    if name in inputs:
        return inputs[name]
    return _pull_level(dio)


def _pull_level(dio):
    import digitalio
    if dio._pull is digitalio.Pull.UP:
        return 1
    return 0


def driven(dio, old, new):
    """An output changed level: the 74HC165 chain listens to SH/LD and CLK."""
    global latched, position
    if chain is None:
        return
    load, clock, data, inputs_ = chain
    name = dio._pin.name
    if name == load:
        if new and not old:                  # SH/LD back high: the inputs are frozen
            latched = [0 if (k < SQUARES and closed(k + 1)) else 1
                       for k in range(inputs_)]
            position = 0
    elif name == clock and not old and new:
        load_pin = claimed.get(load)
        if load_pin is not None and load_pin._value:
            position += 1


_init()
