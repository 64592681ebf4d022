"""The pin rules of the Senet board: which GPIOs a pin map may use, and how.

One place for the host's checks of a pin map or a config.json's wiring
("scanner", "pins", "leds"), used by ``python -m host_tools.hardware check``
and by everything that draws or tabulates the wiring. A config.json may be
partial, as the firmware reads it: what it leaves out is taken from the
defaults (:func:`with_defaults`).

The rules themselves come from firmware/pinrules.py, the one source the
firmware also checks config.json with when the board starts; the functions
here only word the host's messages. The files are read here too: a pin map
(:func:`load_pinmap`) or a config.json (:func:`check_config`), each checked.
"""

import copy
import json
import os
import sys

from firmware.pinrules import (LED_ORDERS, LIST_LENGTHS, PIN_KEYS, RESERVED, SCANNER_PINS,
                               SQUARES, gpio_problem, labelled_pins, led_problem,
                               pin_clashes, whole, wired_keys)
from host_tools import ROOT

PINMAP_PATH = os.path.join("hardware", "pinmap.json")


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


def header_pin(gpio):
    """Physical header pin of a GPIO, because builders solder to pin numbers."""
    name = "GP%d" % gpio
    for pin, label in HEADER.items():
        if label == name:
            return pin
    raise ValueError("GP%d is not on the Pico's header." % gpio)


# --- The host's messages ---------------------------------------------------------

def _pin_values(key, value):
    """The pins behind one key, each checked: ValueError naming the first bad one."""
    if key in LIST_LENGTHS and (not isinstance(value, list)
                                or len(value) != LIST_LENGTHS[key]):
        raise ValueError("pins.%s must be a list of %d GPIO numbers."
                         % (key, LIST_LENGTHS[key]))
    for label, gpio in labelled_pins(key, value):
        problem = gpio_problem(gpio)
        if problem:
            raise ValueError("pins.%s: %s%s." % (label, problem, "; choose another pin"
                                                 if whole(gpio) in RESERVED else ""))


def check_pins(scanner, pins):
    """Check the "pins" part: every pin exists, none reserved, none shared.

    Collisions are only looked for among the pins the chosen scanner wires,
    because the other scanner's pins are not connected to anything.
    """
    if scanner not in SCANNER_PINS:
        raise ValueError("scanner: %r is not one of %s."
                         % (scanner, ", ".join(sorted(SCANNER_PINS))))
    if not isinstance(pins, dict):
        raise ValueError("pins must be an object mapping names to GPIO numbers.")
    for key in pins:
        if key not in PIN_KEYS:
            raise ValueError("pins.%s is not a known pin name (known: %s)."
                             % (key, ", ".join(PIN_KEYS)))
    for key in wired_keys(scanner):
        if key not in pins:
            raise ValueError("pins.%s is missing; the %s scanner needs it."
                             % (key, scanner))
    for key in PIN_KEYS:
        if key in pins:
            _pin_values(key, pins[key])
    for gpio, first, second in pin_clashes(scanner, pins)[:1]:
        raise ValueError("pins.%s: GP%d is already used by pins.%s; "
                         "each pin can have one job only." % (second, gpio, first))


def _led_int(leds, key):
    """Read one LED layout number, naming the key when it is wrong."""
    value = whole(leds.get(key))
    if value is None or value < 0:
        raise ValueError("leds.%s must be a non-negative whole number." % key)
    return value


def check_leds(leds):
    """Check the LED layout: 30 square LEDs first, then 4 sticks and 2 sides."""
    if not isinstance(leds, dict):
        raise ValueError("leds must be an object describing the LED strip.")
    layout = {key: _led_int(leds, key) for key in ("count", "squares", "sticks",
                                                   "side_black", "side_white")}
    if layout["squares"] != SQUARES:
        raise ValueError("leds.squares must be %d, one LED per square." % SQUARES)
    if leds.get("order") not in LED_ORDERS:
        raise ValueError("leds.order must be one of %s." % ", ".join(LED_ORDERS))
    problem = led_problem(layout)
    if problem:
        label, index, what = problem
        if what == "past the end":
            raise ValueError("leds.%s: LED %d is past the end of a %d-LED strip."
                             % (label, index, layout["count"]))
        raise ValueError("leds.%s: LED %d already shows %s." % (label, index, what))


def check_pinmap(data):
    """Check a pin map (with its "boards" table) or a config.json's
    "scanner"/"pins"/"leds" part.

    Raises ValueError with one sentence naming the bad key; returns the data
    unchanged when it is fine, so callers can chain it after loading.
    """
    if not isinstance(data, dict):
        raise ValueError("the pin map must be a JSON object.")
    if "scanner" not in data:
        raise ValueError("scanner is missing; choose one of %s."
                         % ", ".join(sorted(SCANNER_PINS)))
    if "pins" not in data:
        raise ValueError("pins is missing.")
    check_pins(data["scanner"], data["pins"])
    if "leds" in data:
        check_leds(data["leds"])
    if "boards" in data:
        check_boards(data["boards"])
    return data


def _board_pins(board_id, entry):
    """Check one entry of the "boards" table (see :func:`check_boards`)."""
    where = "boards.%s" % board_id
    if not isinstance(entry, dict) or not isinstance(entry.get("name"), str):
        raise ValueError("%s must be an object with the board's \"name\" and \"pins\"."
                         % where)
    unavailable = entry.get("unavailable", [])
    if not isinstance(unavailable, list) or any(whole(n) is None for n in unavailable):
        raise ValueError("%s.unavailable must be a list of GPIO numbers." % where)
    pins = entry.get("pins")
    for scanner in sorted(SCANNER_PINS):
        try:
            check_pins(scanner, pins)
        except ValueError as exc:
            raise ValueError("%s.%s" % (where, exc))
    unavailable = set(whole(n) for n in unavailable)
    for key in PIN_KEYS:
        for label, gpio in labelled_pins(key, pins[key]):
            if whole(gpio) in unavailable:
                raise ValueError("%s.pins.%s: GPIO%d is not free on the %s (it is not brought "
                                 "out, or the board uses it itself); choose another pin."
                                 % (where, label, whole(gpio), entry["name"]))


def check_boards(boards):
    """Check the "boards" table: CircuitPython's board id -> the default wiring
    of an RP2040 board other than the Pico ("name", "note", "unavailable",
    "pins"), used on CircuitPython while config.json names no pins.

    Every RP2040 board numbers its pins by the chip's GPIO, as the Pico does,
    so a board's pins pass the same rules as the Pico's, for both scanners
    (the entry gives the whole "pins" block, and config.json chooses the
    scanner). Those rules are stricter than some boards need (the Feather
    RP2040 brings out GPIO24, 25 and 29), never looser. Besides, no pin may be
    one of the board's "unavailable" GPIOs: not brought out, or used by the
    board itself (the Feather's own NeoPixel on GPIO16).
    """
    if not isinstance(boards, dict):
        raise ValueError("boards must be an object mapping CircuitPython board ids "
                         "to their wiring.")
    for board_id, entry in boards.items():
        _board_pins(board_id, entry)


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


# --- The files ----------------------------------------------------------------------

def read_json(path):
    """The JSON in ``path``; ValueError with one sentence when it is not."""
    name = os.path.basename(path)
    with open(path, "rb") as f:
        data = f.read()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ValueError("%s is not UTF-8 text (byte %d); save it as UTF-8." % (name, exc.start))
    try:
        return json.loads(text)
    except ValueError as exc:
        raise ValueError("%s is not valid JSON: %s." % (name, exc))


def load_pinmap(path=None):
    """Load and check a complete pin map file (the repository's by default,
    else, in an installed copy, the firmware's defaults generated from it)."""
    if path is None:
        path = os.path.join(ROOT, PINMAP_PATH)
        if not os.path.isfile(path):
            from firmware.pins import PINMAP
            return check_pinmap(copy.deepcopy(PINMAP))
    return check_pinmap(read_json(path))


def check_config(data):
    """Check a pin map or a config.json as the board would read it; return the
    wiring it gives (completed from the defaults)."""
    if not isinstance(data, dict):
        raise ValueError("the file must hold a JSON object.")
    wiring = check_pinmap(with_defaults(data, load_pinmap()))
    if ROOT not in sys.path:
        sys.path.insert(0, ROOT)
    from firmware.config import validate
    _, messages = validate({k: data[k] for k in data if k != "boards"})  # a pin map's own table
    if messages:
        raise ValueError("; ".join(m.replace("config.json: ", "") for m in messages) + ".")
    return wiring
