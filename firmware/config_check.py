"""The full check of config.json, key by key, with a message for every
problem. firmware/config.py's ``validate`` loads this only for a config that
needs more than a glance, and lets it go afterwards. The wiring ("pins" and
"leds") is checked by the rules of firmware/pinrules.py, which the laptop
tools share, and falls back to the default wiring where they fail."""

from firmware import unload
from firmware.config_base import (DEFAULTS, LED_KEYS, MODES, OPTIONAL, RULESETS, SCANNERS,
                                  SIDES, copy)
from firmware.pinrules import (LED_ORDERS, LIST_LENGTHS, MAX_GPIO, MAX_LEDS, PIN_KEYS,
                               SQUARES, STICKS, gpio_problem, led_problem, pin_clashes,
                               whole)

# key: (lowest, highest, what it counts) for the plain whole-number settings
_NUMBERS = {
    "brightness_cap": (0, 255, ""),
    "settle_ms": (20, 5000, " of milliseconds"),
    "debounce_scans": (1, 20, " of scans"),
    "long_press_ms": (500, 10000, " of milliseconds"),
    "computer.level": (1, 4, ""),
    "museum.attract_s": (10, 3600, " of seconds"),
    "museum.reset_s": (30, 86400, " of seconds"),
    "museum.reset_after_game_s": (10, 86400, " of seconds"),
    "leds.count": (SQUARES + STICKS + 2, MAX_LEDS, " of LEDs"),
    "leds.squares": (SQUARES, SQUARES, ""),
    "leds.sticks": (0, MAX_LEDS - STICKS, " (an LED index)"),
    "leds.side_black": (0, MAX_LEDS - 1, " (an LED index)"),
    "leds.side_white": (0, MAX_LEDS - 1, " (an LED index)"),
    "leds.supply_ma": (100, 10000, " of milliamps"),
}
_GPIO_RULE = "0 to %d but not 23, 24 or 25" % MAX_GPIO


def _say(messages, text):
    messages.append("config.json: " + text)


def _number(key, value, default, messages):
    low, high, unit = _NUMBERS[key]
    n = whole(value)
    if n is None or n < low or n > high:
        if low == high:
            _say(messages, "%s must be %d; using %d" % (key, low, default))
        else:
            _say(messages, "%s must be a whole number%s from %d to %d; using %d"
                 % (key, unit, low, high, default))
        return default
    return n


def _choice(key, value, choices, default, messages):
    if value in choices and isinstance(value, str):
        return value
    _say(messages, "%s must be one of %s; using %s" % (
        key, ", ".join('"%s"' % c for c in choices), '"%s"' % default))
    return default


def _section(key, value, known, messages):
    """The dict under ``key`` with unknown keys reported; None if not a dict."""
    if not isinstance(value, dict):
        _say(messages, "%s must be an object {...}; using the defaults for it" % key)
        return None
    for k in sorted(value):
        if k not in known:
            _say(messages, 'unknown key "%s.%s" ignored' % (key, k))
    return value


def _options(value, ruleset, messages):
    if not isinstance(value, dict):
        _say(messages, "options must be an object of ruleset options {...}; using {}")
        return {}
    try:
        from engine import ruleset as make_ruleset
    except ImportError:
        return copy(value)
    try:
        make_ruleset(ruleset, **value)
    except Exception as e:  # the engine says what is wrong with the options
        _say(messages, "options are not valid for ruleset %s (%s); using {}" % (ruleset, e))
        return {}
    return copy(value)


def check(raw, messages):
    """The checked config for ``raw``; a message in ``messages`` for every problem."""
    config = copy(DEFAULTS)
    if raw is None:
        return config
    if not isinstance(raw, dict):
        _say(messages, "must hold one JSON object {...}; using the defaults")
        return config
    for key in sorted(raw):
        if key not in DEFAULTS and key not in OPTIONAL and key != "hint":
            _say(messages, 'unknown key "%s" ignored' % key)
    if "scanner" in raw:
        config["scanner"] = _choice("scanner", raw["scanner"], SCANNERS,
                                    DEFAULTS["scanner"], messages)
    if "pins" in raw:
        config["pins"] = _pins(raw["pins"], config["scanner"], messages)
    if "leds" in raw:
        config["leds"] = _leds(raw["leds"], messages)
    for key in ("brightness_cap", "settle_ms", "debounce_scans", "long_press_ms"):
        if key in raw:
            config[key] = _number(key, raw[key], DEFAULTS[key], messages)
    if "ruleset" in raw:
        config["ruleset"] = _choice("ruleset", raw["ruleset"], RULESETS,
                                    DEFAULTS["ruleset"], messages)
    if "options" in raw:
        config["options"] = _options(raw["options"], config["ruleset"], messages)
    if "mode" in raw:
        config["mode"] = _choice("mode", raw["mode"], MODES, DEFAULTS["mode"], messages)
    if "computer" in raw:
        found = _section("computer", raw["computer"], ("side", "level"), messages)
        if found is not None:
            if "side" in found:
                config["computer"]["side"] = _choice(
                    "computer.side", found["side"], SIDES, "B", messages)
            if "level" in found:
                config["computer"]["level"] = _number(
                    "computer.level", found["level"], 2, messages)
    if "museum" in raw:
        known = ("attract_s", "reset_s", "reset_after_game_s")
        found = _section("museum", raw["museum"], known, messages)
        if found is not None:
            for key in known:
                if key in found:
                    config["museum"][key] = _number(
                        "museum." + key, found[key], DEFAULTS["museum"][key], messages)
    if "hint" in raw:
        config["hint"] = _hint(raw["hint"], messages)
    if raw.get("remote") is not None:      # a Pico W: its checks only for it
        from firmware.config_remote import check as check_remote
        remote = check_remote(raw["remote"], config["mode"], messages)
        unload("firmware.config_remote")
        if remote is not None:
            config["remote"] = remote
    return config


def _hint(value, messages):
    """The two-press hint (docs/playing.md): true, false, or null for the
    mode's own (on, but off in museum mode)."""
    if value is None or value is True or value is False:
        return value
    _say(messages, "hint must be true, false or null; using null (on, but off in museum mode)")
    return None


# -- the wiring ----------------------------------------------------------------

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
        _say(messages, "pins.%s must be a list of %d GPIO numbers, each %s; using %s"
             % (key, length, _GPIO_RULE, default))
        return list(default)
    return pins


def _pins(value, scanner, messages):
    """config["pins"] from the raw ``value``: each pin checked, no pin used twice."""
    default = DEFAULTS["pins"]
    found = _section("pins", value, PIN_KEYS, messages)
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
                _say(messages, "pins.%s must be a GPIO number from %s; using %d"
                     % (key, _GPIO_RULE, default[key]))
                n = default[key]
            pins[key] = n
    # No pin may do two jobs on the board as it is wired (the chosen scanner).
    clashes = pin_clashes(scanner, pins)
    if clashes:
        _say(messages, "a pin is used twice: %s; using the default pins" % ", ".join(
            "GP%d (pins.%s and pins.%s)" % clash for clash in clashes))
        return copy(default)
    return pins


def _leds(value, messages):
    """config["leds"] from the raw ``value``: each figure checked, the extra LEDs in the strip."""
    default = DEFAULTS["leds"]
    found = _section("leds", value, LED_KEYS, messages)
    if found is None:
        return copy(default)
    leds = {}
    for key in LED_KEYS:
        if key not in found:
            leds[key] = default[key]
        elif key == "order":
            leds[key] = _choice("leds.order", found[key], LED_ORDERS, default[key], messages)
        else:
            leds[key] = _number("leds." + key, found[key], default[key], messages)
    # The extra LEDs: four sticks and the two sides, after the squares,
    # inside the strip, one job each.
    if led_problem(leds) is not None:
        _say(messages, "leds: the four stick LEDs (sticks..sticks+3), side_black and "
             "side_white must be different LEDs after the %d square LEDs and before "
             "count; using the default LED layout" % leds["squares"])
        return copy(default)
    return leds
