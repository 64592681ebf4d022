"""The checks of config.json's wiring ("pins" and "leds"), apart from
firmware/config_check.py so a board on its default wiring never loads them.
The rules themselves are firmware/pinrules.py's, shared with the laptop
tools; this module words them as config.json messages and falls back to the
default wiring where they fail."""

from firmware.config_base import DEFAULTS, LED_KEYS, choice, copy, number, say, section
from firmware.pinrules import (LED_ORDERS, LIST_LENGTHS, MAX_GPIO, MAX_LEDS, PIN_KEYS,
                               SQUARES, STICKS, gpio_problem, led_problem, pin_clashes,
                               whole)

# key: (lowest, highest, what it counts)
_LED_NUMBERS = {
    "count": (SQUARES + STICKS + 2, MAX_LEDS, " of LEDs"),
    "squares": (SQUARES, SQUARES, ""),
    "sticks": (0, MAX_LEDS - STICKS, " (an LED index)"),
    "side_black": (0, MAX_LEDS - 1, " (an LED index)"),
    "side_white": (0, MAX_LEDS - 1, " (an LED index)"),
    "supply_ma": (100, 10000, " of milliamps"),
}
_GPIO_RULE = "0 to %d but not 23, 24 or 25" % MAX_GPIO


def _pin(value):
    return None if gpio_problem(value) else whole(value)


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
        say(messages, "pins.%s must be a list of %d GPIO numbers, each %s; using %s"
            % (key, length, _GPIO_RULE, default))
        return list(default)
    return pins


def check_pins(value, scanner, messages):
    """config["pins"] from the raw ``value``: each pin checked, no pin used twice."""
    default = DEFAULTS["pins"]
    found = section("pins", value, PIN_KEYS, messages)
    if found is None:
        return copy(default)
    pins = {}
    for key in PIN_KEYS:
        if key not in found:
            pins[key] = copy(default[key])
        elif key in LIST_LENGTHS:
            pins[key] = _pin_list(key, found[key], LIST_LENGTHS[key], default[key], messages)
        else:
            n = _pin(found[key])
            if n is None:
                say(messages, "pins.%s must be a GPIO number from %s; using %d"
                    % (key, _GPIO_RULE, default[key]))
                n = default[key]
            pins[key] = n
    # No pin may do two jobs on the board as it is wired (the chosen scanner).
    clashes = pin_clashes(scanner, pins)
    if clashes:
        say(messages, "a pin is used twice: %s; using the default pins" % ", ".join(
            "GP%d (pins.%s and pins.%s)" % clash for clash in clashes))
        return copy(default)
    return pins


def check_leds(value, messages):
    """config["leds"] from the raw ``value``: each figure checked, the extra LEDs in the strip."""
    default = DEFAULTS["leds"]
    found = section("leds", value, LED_KEYS, messages)
    if found is None:
        return copy(default)
    leds = {}
    for key in LED_KEYS:
        if key not in found:
            leds[key] = default[key]
        elif key == "order":
            leds[key] = choice("leds.order", found[key], LED_ORDERS, default[key], messages)
        else:
            leds[key] = number("leds." + key, found[key], default[key], messages,
                               _LED_NUMBERS[key])
    # The extra LEDs: four sticks and the two sides, after the squares,
    # inside the strip, one job each.
    if led_problem(leds) is not None:
        say(messages, "leds: the four stick LEDs (sticks..sticks+3), side_black and "
            "side_white must be different LEDs after the %d square LEDs and before "
            "count; using the default LED layout" % leds["squares"])
        return copy(default)
    return leds
