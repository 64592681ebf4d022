"""The defaults of config.json, shared by firmware/config.py and
firmware/config_check.py.

The config modules import in one direction only: firmware/config.py (the
entry: ``validate``, ``load``) loads firmware/config_check.py for a config
that needs more than a glance, which asks firmware/pinrules.py about the
wiring; both use this module, which imports neither.
"""

from firmware.pins import PINMAP, BRIGHTNESS_CAP

MODES = ("two_players", "computer", "museum")
SCANNERS = ("matrix", "shift")                # firmware/pinrules.py SCANNER_PINS
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
# "remote" (a Pico W's remote play) is in a config only when it is asked for
# and right (firmware/config_check.py): a plain board's config stays as small.
OPTIONAL = ("remote",)

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
