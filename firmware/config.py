"""config.json: the board's settings, checked so a typo never bricks a board.

``validate(raw)`` and ``load(path)`` never raise. Every key that is unknown,
of the wrong type or out of range gives one message naming the key, and that
key alone falls back to its safe default; the rest of the file still counts.
docs/config.md describes every key.
"""

from firmware import unload
from firmware.pins import PINMAP, BRIGHTNESS_CAP

FILE = "config.json"
MODES = ("two_players", "computer", "museum")
SCANNERS = ("matrix", "shift")
SIDES = ("B", "W")

try:
    from engine import RULESETS as _RULESETS
    RULESETS = tuple(sorted(_RULESETS))
except ImportError:
    RULESETS = ("hungarian", "kendall")


def _copy(value):
    """A deep copy of plain JSON data, so nobody edits DEFAULTS by accident."""
    if isinstance(value, dict):
        return {k: _copy(value[k]) for k in value}
    if isinstance(value, list):
        return [_copy(v) for v in value]
    return value


DEFAULTS = {
    "scanner": PINMAP["scanner"],
    "pins": _copy(PINMAP["pins"]),
    "leds": _copy(PINMAP["leds"]),            # plus "supply_ma", below
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

PIN_KEYS = ("matrix_rows", "matrix_cols", "sr_load", "sr_clock", "sr_data", "led", "button")
LED_KEYS = ("count", "order", "squares", "sticks", "side_black", "side_white", "supply_ma")

def _same(value, default):
    """``value`` is ``default`` exactly: the same keys, items and types."""
    if type(value) is not type(default):
        return False
    if isinstance(value, dict):
        if len(value) != len(default):
            return False
        for k in value:
            if k not in default or not _same(value[k], default[k]):
                return False
        return True
    if isinstance(value, list):
        if len(value) != len(default):
            return False
        for i in range(len(value)):
            if not _same(value[i], default[i]):
                return False
        return True
    return value == default


def validate(raw):
    """Check a config as read from config.json; return (config, messages).

    ``config`` is complete (every key of DEFAULTS) and safe to use; ``messages``
    is a list of one-line explanations, empty when all was well. Never raises.
    A config of defaults, a ruleset and its options, or a mode needs no more
    than this module; any other is checked by firmware/config_check.py,
    loaded for that and unloaded afterwards.
    """
    messages = []
    try:
        config = _plain(raw)
        if config is None:
            from firmware.config_check import check
            config = check(raw, messages)
            unload("firmware.config_check")
        return config, messages
    except Exception as e:   # a bug here must not stop the board from starting
        messages.append("config.json: could not be checked (%s); using the defaults" % e)
        return _copy(DEFAULTS), messages


def _plain(raw):
    """The config for ``raw`` when it plainly needs no message, else None."""
    config = _copy(DEFAULTS)
    if raw is None:
        return config
    if not isinstance(raw, dict):
        return None
    for key in raw:
        value = raw[key]
        if key == "ruleset" or key == "mode":
            if not isinstance(value, str) or value not in (RULESETS if key == "ruleset" else MODES):
                return None
        elif key == "options":
            if not isinstance(value, dict):
                return None
        elif key not in DEFAULTS or not _same(value, DEFAULTS[key]):
            return None
        config[key] = _copy(value)
    if config["options"]:
        try:
            from engine import ruleset as make_ruleset
        except ImportError:
            return config
        try:
            make_ruleset(config["ruleset"], **config["options"])
        except Exception:     # firmware/config_check.py says what is wrong
            return None
    return config


def load(path=FILE):
    """Read and check config.json; return (config, messages). Never raises.

    A missing file is normal (a fresh board): defaults, no message. A file
    that cannot be read or is not valid JSON: defaults and a message. The
    reading is firmware/config_check.py's, loaded for it (once, at start-up).
    """
    from firmware.config_check import read
    try:
        return read(path)
    finally:
        read = None
        unload("firmware.config_check")
