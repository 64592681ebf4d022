"""The full check of config.json, key by key, with a message for every
problem (firmware/config.py's ``validate`` loads this only for a config
that needs more than a glance; the wiring's checks are in
firmware/config_hw.py)."""

import json

from firmware import unload
from firmware.config import DEFAULTS, MODES, RULESETS, SCANNERS, SIDES, _copy, _same, validate

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
}


def _say(messages, text):
    messages.append("config.json: " + text)


def _whole(value):
    """``value`` as an int if it is a whole number (not a bool), else None."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value == int(value):
        return int(value)
    return None


def _number(key, value, default, messages, limits=None):
    low, high, unit = limits or _NUMBERS[key]
    n = _whole(value)
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
        return _copy(value)
    try:
        make_ruleset(ruleset, **value)
    except Exception as e:  # the engine says what is wrong with the options
        _say(messages, "options are not valid for ruleset %s (%s); using {}" % (ruleset, e))
        return {}
    return _copy(value)


def check(raw, messages):
    """The checked config for ``raw``; a message in ``messages`` for every problem."""
    config = _copy(DEFAULTS)
    if raw is None:
        return config
    if not isinstance(raw, dict):
        _say(messages, "must hold one JSON object {...}; using the defaults")
        return config
    for key in sorted(raw):
        if key not in DEFAULTS:
            _say(messages, 'unknown key "%s" ignored' % key)
    if "scanner" in raw:
        config["scanner"] = _choice("scanner", raw["scanner"], SCANNERS,
                                    DEFAULTS["scanner"], messages)
    # The wiring's checks live in firmware/config_hw.py, loaded only for a
    # config that changes the wiring: the defaults need no checking.
    wiring = False
    if "pins" in raw and not _same(raw["pins"], DEFAULTS["pins"]):
        from firmware.config_hw import check_pins
        config["pins"] = check_pins(raw["pins"], config["scanner"], messages)
        wiring = True
    if "leds" in raw and not _same(raw["leds"], DEFAULTS["leds"]):
        from firmware.config_hw import check_leds
        config["leds"] = check_leds(raw["leds"], messages)
        wiring = True
    if wiring:
        unload("firmware.config_hw")
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
        section = _section("computer", raw["computer"], ("side", "level"), messages)
        if section is not None:
            if "side" in section:
                config["computer"]["side"] = _choice(
                    "computer.side", section["side"], SIDES, "B", messages)
            if "level" in section:
                config["computer"]["level"] = _number(
                    "computer.level", section["level"], 2, messages)
    if "museum" in raw:
        known = ("attract_s", "reset_s", "reset_after_game_s")
        section = _section("museum", raw["museum"], known, messages)
        if section is not None:
            for key in known:
                if key in section:
                    config["museum"][key] = _number(
                        "museum." + key, section[key], DEFAULTS["museum"][key], messages)
    return config


def read(path):
    """``firmware.config.load``: read and check config.json."""
    try:
        f = open(path)
    except OSError as e:
        if e.args and e.args[0] == 2:          # ENOENT: no config.json yet
            return _copy(DEFAULTS), []
        return _copy(DEFAULTS), ["config.json: could not be opened (%s); using the defaults" % e]
    try:
        try:
            text = f.read()
        finally:
            f.close()
        raw = json.loads(text)
    except Exception as e:
        return _copy(DEFAULTS), [
            "config.json: is not valid JSON (%s); using the defaults" % (e,)]
    return validate(raw)
