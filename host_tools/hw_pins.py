"""The pin rules of the Senet board: which GPIOs a pin map may use, and how.

One place for the host's checks of a pin map or a config.json's wiring
("scanner", "pins", "leds"), used by ``python -m host_tools.hardware check``
and by everything that draws or tabulates the wiring. The firmware checks the
same config.json when it starts (firmware/config_hw.py); the two are kept in
step by tests/test_hardware.py, which runs every documented example through
both. A config.json may be partial, as the firmware reads it: what it leaves
out is taken from the defaults (:func:`with_defaults`).
"""

# --- The Raspberry Pi Pico's header (Pico datasheet, "Pinout") -------------

# Physical header pin -> what it carries. GP23, GP24, GP25 and GP29 are not on
# the header: the Pico board uses them for the regulator's power-save mode,
# VBUS sensing, the on-board LED and measuring VSYS.
HEADER = {
    1: "GP0", 2: "GP1", 3: "GND", 4: "GP2", 5: "GP3", 6: "GP4", 7: "GP5",
    8: "GND", 9: "GP6", 10: "GP7", 11: "GP8", 12: "GP9", 13: "GND",
    14: "GP10", 15: "GP11", 16: "GP12", 17: "GP13", 18: "GND", 19: "GP14",
    20: "GP15", 21: "GP16", 22: "GP17", 23: "GND", 24: "GP18", 25: "GP19",
    26: "GP20", 27: "GP21", 28: "GND", 29: "GP22", 30: "RUN", 31: "GP26",
    32: "GP27", 33: "AGND", 34: "GP28", 35: "ADC_VREF", 36: "3V3(OUT)",
    37: "3V3_EN", 38: "GND", 39: "VSYS", 40: "VBUS",
}
RESERVED = {
    23: "the regulator's power-save control",
    24: "VBUS sensing",
    25: "the on-board LED",
    29: "measuring VSYS",
}
HEADER_GPIOS = tuple(range(0, 23)) + (26, 27, 28)


def header_pin(gpio):
    """Physical header pin of a GPIO, because builders solder to pin numbers."""
    name = "GP%d" % gpio
    for pin, label in HEADER.items():
        if label == name:
            return pin
    raise ValueError("GP%d is not on the Pico's header." % gpio)


# --- Pin map checks --------------------------------------------------------

# Which pin keys each scanner needs; the LED data pin and the button are common.
SCANNERS = {
    "matrix": ("matrix_rows", "matrix_cols"),
    "shift": ("sr_load", "sr_clock", "sr_data"),
}
COMMON_PINS = ("led", "button")
LIST_LENGTHS = {"matrix_rows": 6, "matrix_cols": 5}
ALL_PIN_KEYS = ("matrix_rows", "matrix_cols", "sr_load", "sr_clock", "sr_data",
                "led", "button")
LED_ORDERS = ("GRB", "RGB", "BRG", "RBG", "GBR", "BGR")
SQUARES = 30


def _check_gpio(key, value):
    """One pin must be a header GPIO with no other duty on the Pico board."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError("pins.%s: %r is not a GPIO number." % (key, value))
    if value in RESERVED:
        raise ValueError("pins.%s: GP%d is reserved on the Pico board for %s; "
                         "choose another pin." % (key, value, RESERVED[value]))
    if value not in HEADER_GPIOS:
        raise ValueError("pins.%s: GP%s is not a GPIO on the Pico's header "
                         "(GP0..GP22, GP26..GP28)." % (key, value))


def _pin_values(key, value):
    """The GPIOs behind one key, as (label, gpio) pairs, checked one by one."""
    if key in LIST_LENGTHS:
        if not isinstance(value, list) or len(value) != LIST_LENGTHS[key]:
            raise ValueError("pins.%s must be a list of %d GPIO numbers."
                             % (key, LIST_LENGTHS[key]))
        pairs = [("%s[%d]" % (key, i), v) for i, v in enumerate(value)]
    else:
        pairs = [(key, value)]
    for label, gpio in pairs:
        _check_gpio(label, gpio)
    return pairs


def active_pin_keys(scanner):
    """Keys wired on a board with this scanner; the other scanner's are unused."""
    return SCANNERS[scanner] + COMMON_PINS


def check_pins(scanner, pins):
    """Check the "pins" part: every pin exists, none reserved, none shared.

    Collisions are only looked for among the pins the chosen scanner wires,
    because the other scanner's pins are not connected to anything.
    """
    if scanner not in SCANNERS:
        raise ValueError("scanner: %r is not one of %s."
                         % (scanner, ", ".join(sorted(SCANNERS))))
    if not isinstance(pins, dict):
        raise ValueError("pins must be an object mapping names to GPIO numbers.")
    for key in pins:
        if key not in ALL_PIN_KEYS:
            raise ValueError("pins.%s is not a known pin name (known: %s)."
                             % (key, ", ".join(ALL_PIN_KEYS)))
    for key in active_pin_keys(scanner):
        if key not in pins:
            raise ValueError("pins.%s is missing; the %s scanner needs it."
                             % (key, scanner))
    owner = {}
    for key in ALL_PIN_KEYS:
        if key not in pins:
            continue
        pairs = _pin_values(key, pins[key])
        if key not in active_pin_keys(scanner):
            continue
        for label, gpio in pairs:
            if gpio in owner:
                raise ValueError("pins.%s: GP%d is already used by pins.%s; "
                                 "each pin can have one job only."
                                 % (label, gpio, owner[gpio]))
            owner[gpio] = label


def _led_int(leds, key):
    """Read one LED layout number, naming the key when it is wrong."""
    value = leds.get(key)
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError("leds.%s must be a non-negative whole number." % key)
    return value


def check_leds(leds):
    """Check the LED layout: 30 square LEDs first, then 4 sticks and 2 sides."""
    if not isinstance(leds, dict):
        raise ValueError("leds must be an object describing the LED strip.")
    count = _led_int(leds, "count")
    if _led_int(leds, "squares") != SQUARES:
        raise ValueError("leds.squares must be %d, one LED per square." % SQUARES)
    if leds.get("order") not in LED_ORDERS:
        raise ValueError("leds.order must be one of %s." % ", ".join(LED_ORDERS))
    sticks = _led_int(leds, "sticks")
    used = {}
    for i in range(SQUARES):
        used[i] = "square %d" % (i + 1)
    for i in range(4):
        _claim_led(used, sticks + i, "leds.sticks", count)
    for key in ("side_black", "side_white"):
        _claim_led(used, _led_int(leds, key), "leds." + key, count)


def _claim_led(used, index, key, count):
    """One LED shows one thing: refuse an index past the strip or taken."""
    if index >= count:
        raise ValueError("%s: LED %d is past the end of a %d-LED strip."
                         % (key, index, count))
    if index in used:
        raise ValueError("%s: LED %d already shows %s." % (key, index, used[index]))
    used[index] = key


def check_pinmap(data):
    """Check a pin map or a config.json's "scanner"/"pins"/"leds" part.

    Raises ValueError with one sentence naming the bad key; returns the data
    unchanged when it is fine, so callers can chain it after loading.
    """
    if not isinstance(data, dict):
        raise ValueError("the pin map must be a JSON object.")
    if "scanner" not in data:
        raise ValueError("scanner is missing; choose one of %s."
                         % ", ".join(sorted(SCANNERS)))
    if "pins" not in data:
        raise ValueError("pins is missing.")
    check_pins(data["scanner"], data["pins"])
    if "leds" in data:
        check_leds(data["leds"])
    return data



def with_defaults(data, defaults):
    """A config.json's wiring completed from ``defaults``, as the firmware does it.

    A missing "scanner" is the default's; each missing key of "pins" and of
    "leds" is the default's; keys that are not wiring are left out. Anything
    that is not an object is returned as it is, for :func:`check_pinmap` to
    refuse with its own sentence.
    """
    if not isinstance(data, dict):
        return data
    merged = {"scanner": data.get("scanner", defaults["scanner"])}
    for part in ("pins", "leds"):
        given = data.get(part, {})
        if isinstance(given, dict):
            merged[part] = dict(defaults[part], **given)
        else:
            merged[part] = given
    return merged
