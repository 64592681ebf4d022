"""The checks of config.json's wiring ("pins" and "leds"), apart from
firmware/config.py so a board on its default wiring never loads them.
Used only by ``firmware.config.validate``, which unloads this afterwards."""

try:
    from micropython import const
except ImportError:
    const = lambda x: x  # noqa: E731

from firmware.config import DEFAULTS, LED_KEYS, PIN_KEYS, _copy
from firmware.config_check import _choice, _number, _say, _section, _whole

ORDERS = ("RGB", "RBG", "GRB", "GBR", "BRG", "BGR")
BAD_PINS = (23, 24, 25)        # the Pico's own: power-save, VBUS sense, LED
MAX_PIN = const(28)
MATRIX_ROWS = const(6)
MATRIX_COLS = const(5)
SQUARES = const(30)
MAX_LEDS = const(300)

# key: (lowest, highest, what it counts)
_LED_NUMBERS = {
    "count": (SQUARES + 6, MAX_LEDS, " of LEDs"),
    "squares": (SQUARES, SQUARES, ""),
    "sticks": (0, MAX_LEDS - 4, " (an LED index)"),
    "side_black": (0, MAX_LEDS - 1, " (an LED index)"),
    "side_white": (0, MAX_LEDS - 1, " (an LED index)"),
    "supply_ma": (100, 10000, " of milliamps"),
}


def _pin(value):
    n = _whole(value)
    if n is None or n < 0 or n > MAX_PIN or n in BAD_PINS:
        return None
    return n


def _pin_list(key, value, length, default, messages):
    ok = isinstance(value, list) and len(value) == length
    pins = []
    if ok:
        for v in value:
            n = _pin(v)
            if n is None:
                ok = False
                break
            pins.append(n)
    if not ok:
        _say(messages, "pins.%s must be a list of %d GPIO numbers, each 0 to 28 but "
             "not 23, 24 or 25; using %s" % (key, length, default))
        return list(default)
    return pins


def check_pins(value, scanner, messages):
    """config["pins"] from the raw ``value``: each pin checked, no pin used twice."""
    default = DEFAULTS["pins"]
    section = _section("pins", value, PIN_KEYS, messages)
    if section is None:
        return _copy(default)
    pins = {}
    for key in PIN_KEYS:
        if key not in section:
            pins[key] = _copy(default[key])
        elif key == "matrix_rows":
            pins[key] = _pin_list(key, section[key], MATRIX_ROWS, default[key], messages)
        elif key == "matrix_cols":
            pins[key] = _pin_list(key, section[key], MATRIX_COLS, default[key], messages)
        else:
            n = _pin(section[key])
            if n is None:
                _say(messages, "pins.%s must be a GPIO number from 0 to 28 but not "
                     "23, 24 or 25; using %d" % (key, default[key]))
                n = default[key]
            pins[key] = n
    # No pin may do two jobs on the board as it is wired (the chosen scanner).
    used = {}
    clash = []
    if scanner == "matrix":
        keys = ("matrix_rows", "matrix_cols", "led", "button")
    else:
        keys = ("sr_load", "sr_clock", "sr_data", "led", "button")
    for key in keys:
        numbers = pins[key] if isinstance(pins[key], list) else [pins[key]]
        for n in numbers:
            if n in used:
                clash.append("GP%d (pins.%s and pins.%s)" % (n, used[n], key))
            else:
                used[n] = key
    if clash:
        _say(messages, "a pin is used twice: %s; using the default pins"
             % ", ".join(clash))
        return _copy(default)
    return pins


def check_leds(value, messages):
    """config["leds"] from the raw ``value``: each figure checked, the extra LEDs in the strip."""
    default = DEFAULTS["leds"]
    section = _section("leds", value, LED_KEYS, messages)
    if section is None:
        return _copy(default)
    leds = {}
    for key in LED_KEYS:
        if key not in section:
            leds[key] = default[key]
        elif key == "order":
            leds[key] = _choice("leds.order", section[key], ORDERS, default[key], messages)
        else:
            leds[key] = _number("leds." + key, section[key], default[key], messages, _LED_NUMBERS[key])
    # The extra LEDs: four sticks and the two sides, after the squares,
    # inside the strip, one job each.
    extras = [leds["sticks"], leds["sticks"] + 1, leds["sticks"] + 2, leds["sticks"] + 3,
              leds["side_black"], leds["side_white"]]
    fits = True
    for i in extras:
        if i < leds["squares"] or i >= leds["count"] or extras.count(i) > 1:
            fits = False
    if not fits:
        _say(messages, "leds: the four stick LEDs (sticks..sticks+3), side_black and "
             "side_white must be different LEDs after the %d square LEDs and before "
             "count; using the default LED layout" % leds["squares"])
        return _copy(default)
    return leds
