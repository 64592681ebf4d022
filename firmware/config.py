"""config.json: the board's settings, checked so a typo never bricks a board.

``validate(raw)`` and ``load(path)`` never raise. Every key that is unknown,
of the wrong type or out of range gives one message naming the key, and that
key alone falls back to its safe default; the rest of the file still counts.
docs/config.md describes every key.
"""

import json

from firmware import unload
from firmware.config_base import DEFAULTS, MODES, RULESETS, copy, same

FILE = "config.json"


def validate(raw):
    """Check a config as read from config.json; return (config, messages).

    ``config`` is complete (every key of DEFAULTS) and safe to use; ``messages``
    is a list of one-line explanations, empty when all was well. Never raises.
    A config of defaults, a ruleset and its options, or a mode needs no more
    than this module; any other is checked by firmware/config_check.py
    (with the wiring rules of firmware/pinrules.py), loaded for that and let
    go afterwards.
    """
    messages = []
    try:
        config = _plain(raw)
        if config is None:
            from firmware.config_check import check
            config = check(raw, messages)
            unload("firmware.config_check")
            unload("firmware.pinrules")
        return config, messages
    except Exception as e:   # a bug here must not stop the board from starting
        messages.append("config.json: could not be checked (%s); using the defaults" % e)
        return copy(DEFAULTS), messages


def _plain(raw):
    """The config for ``raw`` when it plainly needs no message, else None."""
    config = copy(DEFAULTS)
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
        elif key not in DEFAULTS or not same(value, DEFAULTS[key]):
            return None
        config[key] = copy(value)
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
    that cannot be read or is not valid JSON: defaults and a message.
    """
    try:
        f = open(path)
    except OSError as e:
        if e.args and e.args[0] == 2:          # ENOENT: no config.json yet
            return copy(DEFAULTS), []
        return copy(DEFAULTS), ["config.json: could not be opened (%s); using the defaults" % e]
    try:
        try:
            text = f.read()
        finally:
            f.close()
        raw = json.loads(text)
    except Exception as e:
        return copy(DEFAULTS), [
            "config.json: is not valid JSON (%s); using the defaults" % (e,)]
    return validate(raw)
