"""What every config module shares: the defaults of config.json and the
small checks that word its messages.

The config modules import in one direction only: firmware/config.py (the
entry: ``validate``, ``load``) loads firmware/config_check.py for a config
that needs more than a glance, which loads firmware/config_hw.py for a
changed wiring, which asks firmware/pinrules.py; all of them use this module
and none of them imports one above it.
"""

from firmware.pinrules import SCANNER_PINS, whole
from firmware.pins import PINMAP, BRIGHTNESS_CAP

MODES = ("two_players", "computer", "museum")
SCANNERS = tuple(sorted(SCANNER_PINS))        # "matrix", "shift"
SIDES = ("B", "W")

try:
    from engine import RULESETS as _RULESETS
    RULESETS = tuple(sorted(_RULESETS))
except ImportError:
    RULESETS = ("hungarian", "kendall")


def copy(value):
    """A deep copy of plain JSON data, so nobody edits DEFAULTS by accident."""
    if isinstance(value, dict):
        return {k: copy(value[k]) for k in value}
    if isinstance(value, list):
        return [copy(v) for v in value]
    return value


DEFAULTS = {
    "scanner": PINMAP["scanner"],
    "pins": copy(PINMAP["pins"]),
    "leds": copy(PINMAP["leds"]),             # plus "supply_ma", below
    "brightness_cap": BRIGHTNESS_CAP,
    "ruleset": "kendall",
    "options": {},
    "mode": "two_players",
    "computer": {"side": "B", "level": 2},
    "settle_ms": 250,
    "debounce_scans": 3,
    "long_press_ms": 2000,
    "museum": {"attract_s": 90, "reset_s": 600, "reset_after_game_s": 180},
}
DEFAULTS["leds"]["supply_ma"] = 500           # USB; the lights plan to 80 % of it

LED_KEYS = ("count", "order", "squares", "sticks", "side_black", "side_white", "supply_ma")


def same(value, default):
    """``value`` is ``default`` exactly: the same keys, items and types."""
    if type(value) is not type(default):
        return False
    if isinstance(value, dict):
        if len(value) != len(default):
            return False
        for k in value:
            if k not in default or not same(value[k], default[k]):
                return False
        return True
    if isinstance(value, list):
        if len(value) != len(default):
            return False
        for i in range(len(value)):
            if not same(value[i], default[i]):
                return False
        return True
    return value == default


def say(messages, text):
    """Add one message about config.json to ``messages``."""
    messages.append("config.json: " + text)


def number(key, value, default, messages, limits):
    """``value`` if it is a whole number within ``limits`` (lowest, highest,
    what it counts), else ``default`` and a message naming ``key``."""
    low, high, unit = limits
    n = whole(value)
    if n is None or n < low or n > high:
        if low == high:
            say(messages, "%s must be %d; using %d" % (key, low, default))
        else:
            say(messages, "%s must be a whole number%s from %d to %d; using %d"
                % (key, unit, low, high, default))
        return default
    return n


def choice(key, value, choices, default, messages):
    """``value`` if it is one of the strings ``choices``, else ``default``
    and a message naming ``key``."""
    if value in choices and isinstance(value, str):
        return value
    say(messages, "%s must be one of %s; using %s" % (
        key, ", ".join('"%s"' % c for c in choices), '"%s"' % default))
    return default


def section(key, value, known, messages):
    """The dict under ``key`` with unknown keys reported; None if not a dict."""
    if not isinstance(value, dict):
        say(messages, "%s must be an object {...}; using the defaults for it" % key)
        return None
    for k in sorted(value):
        if k not in known:
            say(messages, 'unknown key "%s.%s" ignored' % (key, k))
    return value
