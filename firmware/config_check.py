"""The full check of config.json, key by key, with a message for every
problem (firmware/config.py's ``validate`` loads this only for a config
that needs more than a glance; the wiring's checks are in
firmware/config_hw.py, loaded from here only for a changed wiring)."""

from firmware import unload
from firmware.config_base import (DEFAULTS, MODES, RULESETS, SCANNERS, SIDES, choice, copy,
                                  number, same, say, section)

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


def _number(key, value, default, messages):
    return number(key, value, default, messages, _NUMBERS[key])


def _options(value, ruleset, messages):
    if not isinstance(value, dict):
        say(messages, "options must be an object of ruleset options {...}; using {}")
        return {}
    try:
        from engine import ruleset as make_ruleset
    except ImportError:
        return copy(value)
    try:
        make_ruleset(ruleset, **value)
    except Exception as e:  # the engine says what is wrong with the options
        say(messages, "options are not valid for ruleset %s (%s); using {}" % (ruleset, e))
        return {}
    return copy(value)


def check(raw, messages):
    """The checked config for ``raw``; a message in ``messages`` for every problem."""
    config = copy(DEFAULTS)
    if raw is None:
        return config
    if not isinstance(raw, dict):
        say(messages, "must hold one JSON object {...}; using the defaults")
        return config
    for key in sorted(raw):
        if key not in DEFAULTS:
            say(messages, 'unknown key "%s" ignored' % key)
    if "scanner" in raw:
        config["scanner"] = choice("scanner", raw["scanner"], SCANNERS,
                                   DEFAULTS["scanner"], messages)
    # The wiring's checks live in firmware/config_hw.py, loaded only for a
    # config that changes the wiring: the defaults need no checking.
    wiring = False
    if "pins" in raw and not same(raw["pins"], DEFAULTS["pins"]):
        from firmware.config_hw import check_pins
        config["pins"] = check_pins(raw["pins"], config["scanner"], messages)
        wiring = True
    if "leds" in raw and not same(raw["leds"], DEFAULTS["leds"]):
        from firmware.config_hw import check_leds
        config["leds"] = check_leds(raw["leds"], messages)
        wiring = True
    if wiring:
        unload("firmware.config_hw")
    for key in ("brightness_cap", "settle_ms", "debounce_scans", "long_press_ms"):
        if key in raw:
            config[key] = _number(key, raw[key], DEFAULTS[key], messages)
    if "ruleset" in raw:
        config["ruleset"] = choice("ruleset", raw["ruleset"], RULESETS,
                                   DEFAULTS["ruleset"], messages)
    if "options" in raw:
        config["options"] = _options(raw["options"], config["ruleset"], messages)
    if "mode" in raw:
        config["mode"] = choice("mode", raw["mode"], MODES, DEFAULTS["mode"], messages)
    if "computer" in raw:
        found = section("computer", raw["computer"], ("side", "level"), messages)
        if found is not None:
            if "side" in found:
                config["computer"]["side"] = choice(
                    "computer.side", found["side"], SIDES, "B", messages)
            if "level" in found:
                config["computer"]["level"] = _number(
                    "computer.level", found["level"], 2, messages)
    if "museum" in raw:
        known = ("attract_s", "reset_s", "reset_after_game_s")
        found = section("museum", raw["museum"], known, messages)
        if found is not None:
            for key in known:
                if key in found:
                    config["museum"][key] = _number(
                        "museum." + key, found[key], DEFAULTS["museum"][key], messages)
    return config

