"""Which wiring a Senet board may have: the one source of the pin and LED rules.

The firmware checks config.json's "pins" and "leds" with these rules
(firmware/config_check.py), and the laptop tools check a pin map or a config with
the same ones before flashing, so the two can never disagree. Plain data and
small pure functions that say what is wrong (or None): each user words its own
message. Runs on MicroPython and CPython alike; imports nothing.

The GPIO facts are the Raspberry Pi Pico datasheet's ("Pinout"): GP0..GP22 and
GP26..GP28 are on the header; the Pico board keeps GP23, GP24, GP25 and GP29
for itself.
"""

SQUARES = 30          # one LED per square, first along the strip (LED i = square i+1)
STICKS = 4            # the four stick LEDs follow one another
MAX_LEDS = 300

# GPIO -> what the Pico board uses it for; none of them is on the header.
RESERVED = {
    23: "the regulator's power-save control",
    24: "VBUS sensing",
    25: "the on-board LED",
    29: "measuring VSYS",
}
HEADER_GPIOS = tuple(range(0, 23)) + (26, 27, 28)
MAX_GPIO = 28

# The pins each scanner wires; the LED data pin and the button are common.
SCANNER_PINS = {
    "matrix": ("matrix_rows", "matrix_cols"),
    "shift": ("sr_load", "sr_clock", "sr_data"),
}
COMMON_PINS = ("led", "button")
PIN_KEYS = ("matrix_rows", "matrix_cols", "sr_load", "sr_clock", "sr_data", "led", "button")
# The keys that hold a list of pins, and its length: a 6 x 5 diode matrix.
LIST_LENGTHS = {"matrix_rows": 6, "matrix_cols": 5}

LED_ORDERS = ("RGB", "RBG", "GRB", "GBR", "BRG", "BGR")
# The LED layout's keys that name one LED of the strip besides the squares.
EXTRA_LED_KEYS = ("sticks", "side_black", "side_white")


def whole(value):
    """``value`` as an int if it is a whole number (not a bool), else None.

    JSON written by hand may say 16.0 for 16; true is not 1 here.
    """
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value == int(value):
        return int(value)
    return None


def gpio_problem(value):
    """Why ``value`` cannot be a pin of the board, or None when it can.

    The reason reads after the pin's name: "pins.led: GP25 is reserved ...".
    """
    n = whole(value)
    if n is None:
        return "%r is not a GPIO number" % (value,)
    if n in RESERVED:
        return "GP%d is reserved on the Pico board for %s" % (n, RESERVED[n])
    if n not in HEADER_GPIOS:
        return "GP%d is not a GPIO on the Pico's header (GP0..GP22, GP26..GP28)" % n
    return None


def wired_keys(scanner):
    """The pin keys a board with this scanner wires; the other scanner's are
    left unconnected, so they may be anything."""
    return SCANNER_PINS[scanner] + COMMON_PINS


def labelled_pins(key, value):
    """The pins behind one key as (label, value) pairs: "led" gives one,
    "matrix_rows" one per list item, labelled "matrix_rows[0]" and so on."""
    if key in LIST_LENGTHS:
        return [("%s[%d]" % (key, i), value[i]) for i in range(len(value))]
    return [(key, value)]


def pin_clashes(scanner, pins):
    """The pins given two jobs among those ``scanner`` wires, as
    (gpio, first label, second label) in key order; [] when each pin has
    one job. ``pins`` holds valid GPIO numbers (see ``gpio_problem``)."""
    owner = {}
    clashes = []
    for key in wired_keys(scanner):
        if key not in pins:
            continue
        for label, n in labelled_pins(key, pins[key]):
            n = whole(n)
            if n in owner:
                clashes.append((n, owner[n], label))
            else:
                owner[n] = label
    return clashes


def extra_leds(leds):
    """The LEDs after the squares as (label, index): the four sticks, then
    the two side lights, in strip order of the keys."""
    out = []
    for i in range(STICKS):
        out.append(("sticks+%d" % i if i else "sticks", leds["sticks"] + i))
    out.append(("side_black", leds["side_black"]))
    out.append(("side_white", leds["side_white"]))
    return out


def led_problem(leds):
    """The first extra LED that is not a separate LED after the squares and
    inside the strip, as (label, index, what it clashes with), else None.

    ``what`` is "past the end" for an index at or beyond ``leds["count"]``,
    "square N" for one of the square LEDs, or the label of the extra LED
    that took that index first. ``leds`` holds whole numbers.
    """
    taken = {}
    for label, index in extra_leds(leds):
        if index >= leds["count"]:
            return (label, index, "past the end")
        if index < leds["squares"]:
            return (label, index, "square %d" % (index + 1))
        if index in taken:
            return (label, index, taken[index])
        taken[index] = label
    return None
