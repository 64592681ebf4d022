"""The board's hardware as data: check a pin map, work out the power budget, and
generate everything that is derived from ``hardware/pinmap.json``.

``hardware/pinmap.json`` is the single source of truth for the default wiring.
From it this module writes ``firmware/pins.py`` (the firmware's defaults),
``hardware/wiring.svg`` (the wiring diagram) and the tables between
``<!-- NAME:begin -->`` / ``<!-- NAME:end -->`` markers in
``docs/hardware.md``, so the diagram, the docs and the firmware cannot drift
apart from the wiring a builder follows.

Usage::

    python -m host_tools.hardware generate        # rewrite the generated files
    python -m host_tools.hardware check FILE      # check a pin map or a config.json

``check`` exits 2 with a one-sentence message naming the bad key.
"""

import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PINMAP_PATH = os.path.join("hardware", "pinmap.json")
PINS_PY_PATH = os.path.join("firmware", "pins.py")
SVG_PATH = os.path.join("hardware", "wiring.svg")
DOC_PATH = os.path.join("docs", "hardware.md")

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
RESERVED = {
    23: "the regulator's power-save control",
    24: "VBUS sensing",
    25: "the on-board LED",
    29: "measuring VSYS",
}
HEADER_GPIOS = tuple(range(0, 23)) + (26, 27, 28)


def header_pin(gpio):
    """Physical header pin of a GPIO, because builders solder to pin numbers."""
    name = "GP%d" % gpio
    for pin, label in HEADER.items():
        if label == name:
            return pin
    raise ValueError("GP%d is not on the Pico's header." % gpio)


# --- Pin map checks --------------------------------------------------------

# Which pin keys each scanner needs; the LED data pin and the button are common.
SCANNERS = {
    "matrix": ("matrix_rows", "matrix_cols"),
    "shift": ("sr_load", "sr_clock", "sr_data"),
}
COMMON_PINS = ("led", "button")
LIST_LENGTHS = {"matrix_rows": 6, "matrix_cols": 5}
ALL_PIN_KEYS = ("matrix_rows", "matrix_cols", "sr_load", "sr_clock", "sr_data",
                "led", "button")
LED_ORDERS = ("GRB", "RGB", "BRG", "RBG", "GBR", "BGR")
SQUARES = 30


def _check_gpio(key, value):
    """One pin must be a header GPIO with no other duty on the Pico board."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError("pins.%s: %r is not a GPIO number." % (key, value))
    if value in RESERVED:
        raise ValueError("pins.%s: GP%d is reserved on the Pico board for %s; "
                         "choose another pin." % (key, value, RESERVED[value]))
    if value not in HEADER_GPIOS:
        raise ValueError("pins.%s: GP%s is not a GPIO on the Pico's header "
                         "(GP0..GP22, GP26..GP28)." % (key, value))


def _pin_values(key, value):
    """The GPIOs behind one key, as (label, gpio) pairs, checked one by one."""
    if key in LIST_LENGTHS:
        if not isinstance(value, list) or len(value) != LIST_LENGTHS[key]:
            raise ValueError("pins.%s must be a list of %d GPIO numbers."
                             % (key, LIST_LENGTHS[key]))
        pairs = [("%s[%d]" % (key, i), v) for i, v in enumerate(value)]
    else:
        pairs = [(key, value)]
    for label, gpio in pairs:
        _check_gpio(label, gpio)
    return pairs


def active_pin_keys(scanner):
    """Keys wired on a board with this scanner; the other scanner's are unused."""
    return SCANNERS[scanner] + COMMON_PINS


def check_pins(scanner, pins):
    """Check the "pins" part: every pin exists, none reserved, none shared.

    Collisions are only looked for among the pins the chosen scanner wires,
    because the other scanner's pins are not connected to anything.
    """
    if scanner not in SCANNERS:
        raise ValueError("scanner: %r is not one of %s."
                         % (scanner, ", ".join(sorted(SCANNERS))))
    if not isinstance(pins, dict):
        raise ValueError("pins must be an object mapping names to GPIO numbers.")
    for key in pins:
        if key not in ALL_PIN_KEYS:
            raise ValueError("pins.%s is not a known pin name (known: %s)."
                             % (key, ", ".join(ALL_PIN_KEYS)))
    for key in active_pin_keys(scanner):
        if key not in pins:
            raise ValueError("pins.%s is missing; the %s scanner needs it."
                             % (key, scanner))
    owner = {}
    for key in ALL_PIN_KEYS:
        if key not in pins:
            continue
        pairs = _pin_values(key, pins[key])
        if key not in active_pin_keys(scanner):
            continue
        for label, gpio in pairs:
            if gpio in owner:
                raise ValueError("pins.%s: GP%d is already used by pins.%s; "
                                 "each pin can have one job only."
                                 % (label, gpio, owner[gpio]))
            owner[gpio] = label


def _led_int(leds, key):
    """Read one LED layout number, naming the key when it is wrong."""
    value = leds.get(key)
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError("leds.%s must be a non-negative whole number." % key)
    return value


def check_leds(leds):
    """Check the LED layout: 30 square LEDs first, then 4 sticks and 2 sides."""
    if not isinstance(leds, dict):
        raise ValueError("leds must be an object describing the LED strip.")
    count = _led_int(leds, "count")
    if _led_int(leds, "squares") != SQUARES:
        raise ValueError("leds.squares must be %d, one LED per square." % SQUARES)
    if leds.get("order") not in LED_ORDERS:
        raise ValueError("leds.order must be one of %s." % ", ".join(LED_ORDERS))
    sticks = _led_int(leds, "sticks")
    used = {}
    for i in range(SQUARES):
        used[i] = "square %d" % (i + 1)
    for i in range(4):
        _claim_led(used, sticks + i, "leds.sticks", count)
    for key in ("side_black", "side_white"):
        _claim_led(used, _led_int(leds, key), "leds." + key, count)


def _claim_led(used, index, key, count):
    """One LED shows one thing: refuse an index past the strip or taken."""
    if index >= count:
        raise ValueError("%s: LED %d is past the end of a %d-LED strip."
                         % (key, index, count))
    if index in used:
        raise ValueError("%s: LED %d already shows %s." % (key, index, used[index]))
    used[index] = key


def check_pinmap(data):
    """Check a pin map or a config.json's "scanner"/"pins"/"leds" part.

    Raises ValueError with one sentence naming the bad key; returns the data
    unchanged when it is fine, so callers can chain it after loading.
    """
    if not isinstance(data, dict):
        raise ValueError("the pin map must be a JSON object.")
    if "scanner" not in data:
        raise ValueError("scanner is missing; choose one of %s."
                         % ", ".join(sorted(SCANNERS)))
    if "pins" not in data:
        raise ValueError("pins is missing.")
    check_pins(data["scanner"], data["pins"])
    if "leds" in data:
        check_leds(data["leds"])
    return data


def load_pinmap(path=None):
    """Load and check a pin map file (the shipped one by default)."""
    path = path or os.path.join(ROOT, PINMAP_PATH)
    with open(path) as f:
        try:
            data = json.load(f)
        except ValueError as exc:
            raise ValueError("%s is not valid JSON: %s." % (os.path.basename(path), exc))
    return check_pinmap(data)


# --- Power budget ----------------------------------------------------------

# WS2812B: about 20 mA per colour channel at 255, about 1 mA per LED when dark
# (Worldsemi WS2812B datasheet; the Adafruit NeoPixel Uberguide budgets 60 mA
# per pixel at full white). BOARD_MA is an allowance for the Pico running
# MicroPython (tens of mA, Pico datasheet power chapter), the 74AHCT125's extra
# supply current with a 3.3 V input, and the sensing pull-ups.
LED_MA_PER_CHANNEL = 20
LED_IDLE_MA = 1
CHANNELS = 3
BOARD_MA = 50
DERATE_PERCENT = 80  # plan to 80 % of a supply's rating
USB_LIMIT_MA = 500   # USB 2.0 port after configuration
SUPPLY_2A_MA = 2000


def budget_ma(limit_ma):
    """The current we plan to: a supply's rating less a 20 % margin."""
    return limit_ma * DERATE_PERCENT // 100


def fixed_ma(count):
    """Current drawn whatever the frame: dark LEDs plus the board itself."""
    return count * LED_IDLE_MA + BOARD_MA


def worst_frame_ma(count, cap):
    """Worst frame: every LED full white, each channel at the cap."""
    return fixed_ma(count) + count * CHANNELS * LED_MA_PER_CHANNEL * cap / 255.0


def max_cap(limit_ma, count):
    """Largest 8-bit channel cap whose worst frame stays within the budget."""
    spare = budget_ma(limit_ma) - fixed_ma(count)
    cap = spare * 255 // (count * CHANNELS * LED_MA_PER_CHANNEL)
    return max(0, min(255, cap))


def channel_sum_max(limit_ma, count):
    """Largest sum of all channel values in one frame that fits the budget.

    The light module can scale any frame down to this, so a frame stays in
    budget even when config.json raises the brightness cap.
    """
    spare = budget_ma(limit_ma) - fixed_ma(count)
    return max(0, spare * 255 // LED_MA_PER_CHANNEL)


def power_figures(count):
    """Every number the docs and firmware/pins.py quote, from one place."""
    figures = {}
    for name, limit in (("usb", USB_LIMIT_MA), ("2a", SUPPLY_2A_MA)):
        cap = max_cap(limit, count)
        figures[name] = {
            "limit_ma": limit, "budget_ma": budget_ma(limit), "cap": cap,
            "worst_ma": worst_frame_ma(count, cap),
            "channel_sum_max": channel_sum_max(limit, count),
        }
    figures["uncapped_ma"] = worst_frame_ma(count, 255)
    return figures


# Scan timing the firmware follows (docs/hardware.md explains both numbers).
MATRIX_SETTLE_US = 50
SR_PULSE_US = 1


# --- firmware/pins.py ------------------------------------------------------

def _py_literal(pinmap):
    """A dict literal laid out one key a line, readable in a diff."""
    pins, leds = pinmap["pins"], pinmap["leds"]
    lines = ["PINMAP = {", '    "scanner": %s,' % json.dumps(pinmap["scanner"]),
             '    "pins": {']
    for key in ALL_PIN_KEYS:
        if key in pins:
            lines.append('        "%s": %s,' % (key, json.dumps(pins[key])))
    lines.append("    },")
    lines.append('    "leds": {')
    for key in ("count", "order", "squares", "sticks", "side_black", "side_white"):
        lines.append('        "%s": %s,' % (key, json.dumps(leds[key])))
    lines.append("    },")
    lines.append("}")
    return "\n".join(lines)


def render_pins_py(pinmap):
    """firmware/pins.py: the default pin map and power numbers for the Pico."""
    count = pinmap["leds"]["count"]
    power = power_figures(count)
    usb, two = power["usb"], power["2a"]
    return '''\
# GENERATED from hardware/pinmap.json by `python -m host_tools.hardware generate`.
# Do not edit: change hardware/pinmap.json, regenerate, and commit both.
"""Default pin map and power-budget numbers of the Senet board.

The wiring, the scan order and the arithmetic behind these numbers are in
docs/hardware.md. Plain data, so it runs on MicroPython and CPython alike.
"""

%s

# Matrix scan: wait this long after pulling a row low before reading columns.
MATRIX_SETTLE_US = %d
# 74HC165 chain: hold SH/LD low and each clock level at least this long.
SR_PULSE_US = %d
# Bits shifted out of the 74HC165 chain per scan (inputs 31 and 32 unused).
SR_BITS = 32

# Power budget of a %d-LED strip (docs/hardware.md, "Power budget").
LED_MA_PER_CHANNEL = %d
LED_IDLE_MA = %d
BOARD_MA = %d
# On USB (%d mA less a 20 %% margin): the default cap, and the largest sum of
# all channel values of one frame that stays within the budget.
BUDGET_MA = %d
BRIGHTNESS_CAP = %d
FRAME_CHANNEL_SUM_MAX = %d
# On a 5 V 2 A supply (%d mA less a 20 %% margin).
BUDGET_MA_2A = %d
BRIGHTNESS_CAP_2A = %d
FRAME_CHANNEL_SUM_MAX_2A = %d
''' % (_py_literal(pinmap), MATRIX_SETTLE_US, SR_PULSE_US, count,
       LED_MA_PER_CHANNEL, LED_IDLE_MA, BOARD_MA, usb["limit_ma"],
       usb["budget_ma"], usb["cap"], usb["channel_sum_max"], two["limit_ma"],
       two["budget_ma"], two["cap"], two["channel_sum_max"])


# --- Tables in docs/hardware.md -------------------------------------------

def _pin_row(function, gpio, note):
    return "| %s | GP%d | %d | %s |" % (function, gpio, header_pin(gpio), note)


def _matrix_squares(row=None, col=None):
    """Squares on one matrix row or column: square s is at ((s-1)//5, (s-1)%5)."""
    return [s for s in range(1, SQUARES + 1)
            if (row is None or (s - 1) // 5 == row) and (col is None or (s - 1) % 5 == col)]


def table_pinmap(pinmap):
    """Every wired GPIO with its header pin, for soldering from the table."""
    pins = pinmap["pins"]
    out = ["| function | GPIO | header pin | wiring |", "|---|---|---|---|"]
    for r, gpio in enumerate(pins["matrix_rows"]):
        sq = _matrix_squares(row=r)
        out.append(_pin_row("matrix row %d" % r, gpio, "matrix: diode cathodes of "
                            "squares %d-%d" % (sq[0], sq[-1])))
    for c, gpio in enumerate(pins["matrix_cols"]):
        sq = ", ".join(str(s) for s in _matrix_squares(col=c))
        out.append(_pin_row("matrix column %d" % c, gpio, "matrix: reed switches of "
                            "squares %s; 10 kohm pull-up to 3V3" % sq))
    out.append(_pin_row("sr_load", pins["sr_load"], "74HC165: SH/LD (pin 1) of all four chips"))
    out.append(_pin_row("sr_clock", pins["sr_clock"], "74HC165: CLK (pin 2) of all four chips"))
    out.append(_pin_row("sr_data", pins["sr_data"], "74HC165: QH (pin 9) of chip 1"))
    out.append(_pin_row("led", pins["led"], "74AHCT125 1A (pin 2); 1Y -> 330 ohm -> LED 0 DIN"))
    out.append(_pin_row("button", pins["button"], "throw button to GND; internal pull-up"))
    out.append("")
    out.append("Default scanner: `%s`. Power and ground: 3V3(OUT) is header pin 36, "
               "VSYS 39, VBUS 40, GND 3, 8, 13, 18, 23, 28, 38." % pinmap["scanner"])
    return "\n".join(out)


def table_leds(pinmap):
    """The LED strip laid over the board: it snakes exactly along the path."""
    leds = pinmap["leds"]
    out = ["Board seen from the players' side; each cell is `square/LED`.", "", "```"]
    rows = [range(1, 11), range(20, 10, -1), range(21, 31)]
    arrows = ["->", "<-", "->"]
    for n, squares in enumerate(rows):
        cells = " ".join("%2d/%-2d" % (s, s - 1) for s in squares)
        out.append(("row %d %s  %s" % (n + 1, arrows[n], cells)).rstrip())
    out.append("```")
    out.append("")
    out.append("| LED | shows |")
    out.append("|---|---|")
    out.append("| 0..%d | squares 1..%d (LED i under square i+1) |"
               % (leds["squares"] - 1, leds["squares"]))
    out.append("| %d..%d | the four sticks |" % (leds["sticks"], leds["sticks"] + 3))
    out.append("| %d | black to move |" % leds["side_black"])
    out.append("| %d | white to move |" % leds["side_white"])
    out.append("")
    out.append("%d LEDs in all, colour order %s." % (leds["count"], leds["order"]))
    return "\n".join(out)


def table_matrix(pinmap):
    """Which square sits at each crossing of the 6 x 5 matrix."""
    pins = pinmap["pins"]
    head = "| row \\ column | " + " | ".join(
        "col %d (GP%d)" % (c, g) for c, g in enumerate(pins["matrix_cols"])) + " |"
    out = [head, "|---" * 6 + "|"]
    for r, gpio in enumerate(pins["matrix_rows"]):
        cells = " | ".join("sq %d" % s for s in _matrix_squares(row=r))
        out.append("| row %d (GP%d) | %s |" % (r, gpio, cells))
    out.append("")
    out.append("Square s is at row (s-1)//5, column (s-1)%5; its switch closing sets "
               "occupancy bit s-1.")
    return "\n".join(out)


SR_INPUTS = (("H", 6), ("G", 5), ("F", 4), ("E", 3), ("D", 14), ("C", 13),
             ("B", 12), ("A", 11))


def sr_input(k):
    """Chip (1-4), input letter and chip pin of chain input k (k=0 shifts out first)."""
    chip = k // 8 + 1
    letter, pin = SR_INPUTS[k % 8]
    return chip, letter, pin


def table_sr(pinmap):
    """Which square each 74HC165 input reads, in the order bits shift out."""
    out = ["| chip | " + " | ".join("%s (pin %d)" % lp for lp in SR_INPUTS) + " |",
           "|---" * 9 + "|"]
    for chip in range(1, 5):
        cells = []
        for i in range(8):
            k = (chip - 1) * 8 + i
            cells.append("sq %d" % (k + 1) if k < SQUARES else "unused, pull-up")
        out.append("| %d | %s |" % (chip, " | ".join(cells)))
    out.append("")
    out.append("Input k (k = 0 is the first bit out, on QH right after the load) reads "
               "square k+1. Chip 1's QH (pin 9) goes to GP%d; chip n's SER (pin 10) "
               "takes chip n+1's QH; chip 4's SER is tied to 3V3."
               % pinmap["pins"]["sr_data"])
    return "\n".join(out)


def table_power(pinmap):
    """The power arithmetic, printed from the same numbers the firmware gets."""
    count = pinmap["leds"]["count"]
    p = power_figures(count)
    full = CHANNELS * LED_MA_PER_CHANNEL
    fixed = fixed_ma(count)
    out = [
        "| figure | value |", "|---|---|",
        "| LEDs | %d |" % count,
        "| one LED, full white (255, 255, 255) | %d x %d mA = %d mA |"
        % (CHANNELS, LED_MA_PER_CHANNEL, full),
        "| one LED, dark | %d mA |" % LED_IDLE_MA,
        "| Pico, level shifter and sensing | %d mA |" % BOARD_MA,
        "| fixed part: %d x %d mA + %d mA | %d mA |" % (count, LED_IDLE_MA, BOARD_MA, fixed),
        "",
        "Worst frame with every channel of every LED at the cap C:",
        "",
        "    I(C) = %d x (%d + %d x C / 255) + %d mA = %d mA + %d mA x C / 255"
        % (count, LED_IDLE_MA, full, BOARD_MA, fixed, count * full),
        "",
        "The cap is the largest C with I(C) within the budget (the supply's rating "
        "less 20 %):",
        "",
        "    C = floor((budget - %d mA) x 255 / %d mA)" % (fixed, count * full),
        "",
        "| supply | rating | budget | cap C | worst frame I(C) | frame channel sum max |",
        "|---|---|---|---|---|---|",
    ]
    for label, key in (("USB port", "usb"), ("5 V 2 A supply", "2a")):
        f = p[key]
        out.append("| %s | %d mA | %d mA | %d | %.1f mA | %d |"
                   % (label, f["limit_ma"], f["budget_ma"], f["cap"], f["worst_ma"],
                      f["channel_sum_max"]))
    out.append("")
    out.append("Without a cap (C = 255) the worst frame would draw %.1f mA: more than "
               "even the 2 A supply gives." % p["uncapped_ma"])
    out.append("")
    out.append("The firmware's default `BRIGHTNESS_CAP` is %d (USB). The frame channel "
               "sum max is (budget - %d mA) x 255 / %d mA: the light module scales "
               "down any frame whose channel values add up to more."
               % (p["usb"]["cap"], fixed, LED_MA_PER_CHANNEL))
    return "\n".join(out)


DOC_TABLES = {
    "pinmap": table_pinmap,
    "leds": table_leds,
    "matrix": table_matrix,
    "sr": table_sr,
    "power": table_power,
}


def splice(text, name, body):
    """Replace what lies between a pair of markers, leaving the prose alone."""
    begin, end = "<!-- %s:begin -->" % name, "<!-- %s:end -->" % name
    start = text.find(begin)
    stop = text.find(end)
    if start < 0 or stop < start:
        raise ValueError("docs/hardware.md lacks the %s ... %s markers." % (begin, end))
    return text[:start + len(begin)] + "\n" + body + "\n" + text[stop:]


def render_doc(text, pinmap):
    """docs/hardware.md with every generated table brought up to date."""
    for name, table in DOC_TABLES.items():
        text = splice(text, name, table(pinmap))
    return text


# --- hardware/wiring.svg ---------------------------------------------------

class Svg:
    """A tiny SVG writer: elements in drawing order, text escaped."""

    def __init__(self, width, height):
        self.width, self.height = width, height
        self.parts = []

    def line(self, x1, y1, x2, y2, cls="w"):
        self.parts.append('<line class="%s" x1="%g" y1="%g" x2="%g" y2="%g"/>'
                          % (cls, x1, y1, x2, y2))

    def rect(self, x, y, w, h, cls="box"):
        self.parts.append('<rect class="%s" x="%g" y="%g" width="%g" height="%g"/>'
                          % (cls, x, y, w, h))

    def dot(self, x, y):
        self.parts.append('<circle class="dot" cx="%g" cy="%g" r="2.5"/>' % (x, y))

    def poly(self, points, cls="sym"):
        pts = " ".join("%g,%g" % p for p in points)
        self.parts.append('<polygon class="%s" points="%s"/>' % (cls, pts))

    def text(self, x, y, s, cls="t", anchor="start"):
        s = s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
        self.parts.append('<text class="%s" x="%g" y="%g" text-anchor="%s">%s</text>'
                          % (cls, x, y, anchor, s))

    def render(self):
        head = ('<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" '
                'viewBox="0 0 %d %d">\n<style>\n%s\n</style>\n'
                '<rect x="0" y="0" width="%d" height="%d" fill="white"/>\n'
                % (self.width, self.height, self.width, self.height, SVG_STYLE,
                   self.width, self.height))
        return head + "\n".join(self.parts) + "\n</svg>\n"


SVG_STYLE = """\
text { font-family: DejaVu Sans, Arial, sans-serif; font-size: 12px; fill: #111; }
.h { font-size: 16px; font-weight: bold; }
.s { font-size: 10px; fill: #444; }
.fn { font-size: 11px; font-weight: bold; fill: #0a4f9e; }
.box { fill: #fafafa; stroke: #222; stroke-width: 1.5; }
.pico { fill: #e6f2e6; stroke: #1b5e20; stroke-width: 2; }
.pin { fill: #fff; stroke: #1b5e20; stroke-width: 1; }
.used { fill: #0a4f9e; stroke: #0a4f9e; stroke-width: 1; }
.w { stroke: #222; stroke-width: 1.2; fill: none; }
.row { stroke: #b23c17; stroke-width: 1.6; }
.col { stroke: #0a4f9e; stroke-width: 1.6; }
.pwr { stroke: #c62828; stroke-width: 2; }
.gnd { stroke: #222; stroke-width: 2; }
.sym { fill: #222; stroke: #222; stroke-width: 1; }
.reed { fill: #fff; stroke: #555; stroke-width: 1; }
.dot { fill: #222; }"""


def _pin_functions(pinmap):
    """GPIO -> the job the pin map gives it, as printed beside the Pico."""
    pins = pinmap["pins"]
    jobs = {}
    for r, g in enumerate(pins["matrix_rows"]):
        jobs[g] = "matrix row %d" % r
    for c, g in enumerate(pins["matrix_cols"]):
        jobs[g] = "matrix col %d" % c
    jobs[pins["sr_load"]] = "165 SH/LD"
    jobs[pins["sr_clock"]] = "165 CLK"
    jobs[pins["sr_data"]] = "165 QH (data)"
    jobs[pins["led"]] = "LED data"
    jobs[pins["button"]] = "throw button"
    return jobs


def _svg_pico(svg, pinmap, x, y):
    """The Pico seen from above, USB at the top, every header pin labelled."""
    jobs = _pin_functions(pinmap)
    step, w = 24, 170
    svg.rect(x, y, w, 20 * step + 20, "pico")
    svg.text(x + w / 2, y - 8, "Raspberry Pi Pico (top view, USB up)", "t", "middle")
    power = {"VBUS": "5 V (USB)", "VSYS": "5 V in (2 A option)", "3V3(OUT)": "3.3 V out"}
    for pin, label in sorted(HEADER.items()):
        left = pin <= 20
        py = y + 20 + ((pin - 1) if left else (40 - pin)) * step
        px = x if left else x + w
        gpio = int(label[2:]) if label.startswith("GP") else None
        svg.rect(px - 5, py - 5, 10, 10, "used" if gpio in jobs else "pin")
        inner = "%d %s" % (pin, label) if left else "%s %d" % (label, pin)
        svg.text(px + (9 if left else -9), py + 4, inner, "s", "start" if left else "end")
        job = jobs.get(gpio) or power.get(label)
        if job:
            svg.text(px + (-10 if left else 10), py + 4, job, "fn", "end" if left else "start")


def _svg_reed(svg, x, y1, y2):
    """A reed switch drawn vertically: glass tube with two overlapping blades."""
    svg.rect(x - 5, y1, 10, y2 - y1, "reed")
    svg.line(x - 1.5, y1, x - 1.5, (y1 + y2) / 2 + 3)
    svg.line(x + 1.5, y2, x + 1.5, (y1 + y2) / 2 - 3)


def _svg_diode_down(svg, x, y):
    """A diode pointing down (anode above, cathode bar below at y+10)."""
    svg.poly([(x - 5, y), (x + 5, y), (x, y + 9)])
    svg.line(x - 5, y + 10, x + 5, y + 10, "w")


def _svg_resistor_v(svg, x, y1, y2):
    """A resistor as a small box on a vertical wire."""
    svg.line(x, y1, x, y1 + 6)
    svg.rect(x - 4, y1 + 6, 8, y2 - y1 - 12)
    svg.line(x, y2 - 6, x, y2)


def _svg_matrix(svg, pinmap, x, y):
    """Option A: the 6 x 5 matrix, one switch and diode at every crossing."""
    pins = pinmap["pins"]
    dx, dy = 78, 62
    top, left = y + 80, x + 90
    bottom = top + 6 * dy
    svg.text(x, y, "Option A: 6 x 5 reed-switch matrix with diodes%s"
             % (" (default)" if pinmap["scanner"] == "matrix" else ""), "h")
    svg.text(x, y + 18, "Columns: inputs with pull-up (internal + 10 k to 3V3). Rows: the "
             "scanned row is driven low, idle rows are inputs.", "s")
    svg.text(x, y + 32, "Each square: column -> reed switch -> 1N4148 anode; cathode "
             "(band) -> row. Closed switch reads 0 on its column.", "s")
    svg.line(left - 10, y + 50, left + 4 * dx + 30, y + 50, "pwr")
    svg.text(left + 4 * dx + 34, y + 54, "3V3", "t")
    for c, g in enumerate(pins["matrix_cols"]):
        cx = left + c * dx
        _svg_resistor_v(svg, cx, y + 50, top - 4)
        svg.dot(cx, y + 50)
        svg.text(cx + 6, y + 66, "10k", "s")
        svg.line(cx, top - 4, cx, bottom - 20, "col")
        svg.text(cx, bottom + 2, "col %d" % c, "t", "middle")
        svg.text(cx, bottom + 16, "GP%d" % g, "fn", "middle")
    for r, g in enumerate(pins["matrix_rows"]):
        ry = top + r * dy + 40
        svg.line(left - 40, ry, left + 4 * dx + 30, ry, "row")
        svg.text(left - 44, ry - 2, "row %d" % r, "t", "end")
        svg.text(left - 44, ry + 12, "GP%d" % g, "fn", "end")
        for c in range(5):
            cx = left + c * dx
            sx = cx + 24
            svg.dot(cx, ry - 34)
            svg.line(cx, ry - 34, sx, ry - 34)
            _svg_reed(svg, sx, ry - 34, ry - 14)
            _svg_diode_down(svg, sx, ry - 12)
            svg.line(sx, ry - 2, sx, ry)
            svg.dot(sx, ry)
            svg.text(sx + 8, ry - 18, "%d" % (r * 5 + c + 1), "s")


def _svg_shift(svg, pinmap, x, y):
    """Option B: four 74HC165s in a chain, one input per square."""
    pins = pinmap["pins"]
    w, h, gap = 150, 150, 50
    svg.text(x, y, "Option B: four 74HC165 in a chain%s"
             % (" (default)" if pinmap["scanner"] == "shift" else ""), "h")
    svg.text(x, y + 18, "Powered from 3V3. Every input: 10 k pull-up to 3V3, reed switch "
             "to GND (closed reads 0). CLK INH (15) to GND; 100 nF at VCC (16) of each chip.",
             "s")
    top = y + 40
    for chip in range(1, 5):
        bx = x + 60 + (chip - 1) * (w + gap)
        svg.rect(bx, top, w, h)
        svg.text(bx + w / 2, top + 16, "74HC165 #%d" % chip, "t", "middle")
        for i in range(8):
            k = (chip - 1) * 8 + i
            _, letter, pin = sr_input(k)
            what = "sq %d" % (k + 1) if k < SQUARES else "pull-up only"
            svg.text(bx + 8, top + 32 + i * 13, "%s (%d): %s" % (letter, pin, what), "s")
        svg.text(bx + 4, top + h - 6, "QH 9", "s")
        svg.text(bx + w - 4, top + h - 6, "10 SER", "s", "end")
        svg.line(bx, top + h - 10, bx - 12, top + h - 10)
        if chip > 1:
            svg.line(bx - 12, top + h - 10, bx - gap + 12, top + h - 10, "col")
            svg.poly([(bx - gap + 12, top + h - 10), (bx - gap + 20, top + h - 14),
                      (bx - gap + 20, top + h - 6)])
        svg.line(bx + w, top + h - 10, bx + w + 12, top + h - 10)
        svg.line(bx + 30, top + h, bx + 30, top + h + 20)
        svg.dot(bx + 30, top + h + 20)
        svg.line(bx + 60, top + h, bx + 60, top + h + 38)
        svg.dot(bx + 60, top + h + 38)
        svg.text(bx + 34, top + h + 14, "SH/LD 1", "s")
        svg.text(bx + 64, top + h + 32, "CLK 2", "s")
    last = x + 60 + 3 * (w + gap) + w
    svg.text(last + 14, top + h - 6, "3V3", "t")
    svg.line(x + 60 - 12, top + h - 10, x + 20, top + h - 10, "col")
    svg.text(x + 16, top + h - 6, "QH: GP%d" % pins["sr_data"], "fn", "end")
    svg.line(x + 20, top + h + 20, last - w + 30, top + h + 20, "col")
    svg.line(x + 20, top + h + 38, last - w + 60, top + h + 38, "col")
    svg.text(x + 16, top + h + 24, "SH/LD: GP%d" % pins["sr_load"], "fn", "end")
    svg.text(x + 16, top + h + 42, "CLK: GP%d" % pins["sr_clock"], "fn", "end")


def _svg_leds(svg, pinmap, x, y):
    """The NeoPixel data path, the supply, the capacitor and the button."""
    pins, leds = pinmap["pins"], pinmap["leds"]
    svg.text(x, y, "LED strip, power and button", "h")
    dy = y + 50
    svg.text(x, dy + 4, "GP%d" % pins["led"], "fn")
    svg.line(x + 36, dy, x + 70, dy)
    svg.rect(x + 70, dy - 30, 120, 70)
    svg.text(x + 130, dy - 14, "74AHCT125", "t", "middle")
    svg.text(x + 76, dy + 4, "1A 2", "s")
    svg.text(x + 184, dy + 4, "3 1Y", "s", "end")
    svg.text(x + 76, dy + 20, "1OE 1: GND", "s")
    svg.text(x + 76, dy + 34, "VCC 14: 5 V, GND 7", "s")
    svg.line(x + 190, dy, x + 210, dy)
    svg.rect(x + 210, dy - 5, 30, 10)
    svg.text(x + 225, dy - 10, "330 ohm", "s", "middle")
    svg.line(x + 240, dy, x + 262, dy)
    svg.rect(x + 262, dy - 20, 180, 130)
    svg.text(x + 268, dy + 4, "DIN  LED 0", "t")
    svg.text(x + 268, dy + 24, "%d x WS2812B, %s" % (leds["count"], leds["order"]), "s")
    svg.text(x + 268, dy + 38, "0..%d: squares 1..%d" % (leds["squares"] - 1,
                                                        leds["squares"]), "s")
    svg.text(x + 268, dy + 52, "%d..%d: the four sticks" % (leds["sticks"],
                                                           leds["sticks"] + 3), "s")
    svg.text(x + 268, dy + 66, "%d: black, %d: white to move" % (leds["side_black"],
                                                                leds["side_white"]), "s")
    svg.text(x + 268, dy + 86, "+5V", "t")
    svg.text(x + 268, dy + 102, "GND", "t")
    py, gy = dy + 150, dy + 200
    svg.line(x, py, x + 337, py, "pwr")
    svg.line(x, gy, x + 337, gy, "gnd")
    svg.line(x + 337, py, x + 337, dy + 82, "pwr")
    svg.line(x + 400, gy, x + 400, dy + 98, "gnd")
    svg.line(x + 337, gy, x + 400, gy, "gnd")
    svg.text(x, py - 6, "+5 V: VBUS (pin 40) on USB, or the 5 V 2 A supply", "t")
    svg.text(x, gy + 16, "GND: Pico GND, supply GND and strip GND joined", "t")
    cx = x + 300
    svg.line(cx, py, cx, py + 18)
    svg.line(cx - 10, py + 18, cx + 10, py + 18)
    svg.line(cx - 10, py + 24, cx + 10, py + 24)
    svg.line(cx, py + 24, cx, gy)
    svg.dot(cx, py)
    svg.dot(cx, gy)
    svg.text(cx - 14, py + 28, "1000 uF", "s", "end")
    svg.text(cx - 14, py + 40, "at the strip", "s", "end")
    sy = gy + 60
    svg.text(x, sy, "2 A option: supply +5 V -> 1N5817 (band towards the Pico) -> VSYS (pin 39)",
             "s")
    svg.text(x, sy + 14, "3.3 V chips (74HC165, pull-ups) from 3V3(OUT), pin 36; "
             "100 nF at every chip's VCC", "s")
    by = sy + 60
    svg.text(x, by + 4, "GP%d" % pins["button"], "fn")
    svg.line(x + 36, by, x + 90, by)
    svg.line(x + 90, by, x + 100, by - 10)
    svg.line(x + 96, by - 14, x + 112, by - 14)
    svg.line(x + 104, by - 14, x + 104, by - 22)
    svg.line(x + 110, by, x + 160, by)
    svg.text(x + 164, by + 4, "GND", "t")
    svg.text(x, by + 24, "Throw button (normally open); internal pull-up, pressed reads 0",
             "s")


def render_svg(pinmap):
    """The wiring diagram, drawn from the pin map so it matches the firmware."""
    svg = Svg(1480, 940)
    svg.text(20, 28, "Senet board wiring: generated from hardware/pinmap.json "
             "(python -m host_tools.hardware generate)", "h")
    _svg_pico(svg, pinmap, 130, 90)
    _svg_matrix(svg, pinmap, 470, 80)
    _svg_leds(svg, pinmap, 1010, 80)
    _svg_shift(svg, pinmap, 110, 680)
    return svg.render()


# --- Generate and check ----------------------------------------------------

def generated_files(root=ROOT, pinmap=None):
    """Every generated file's path and expected text, computed, not written."""
    pinmap = pinmap or load_pinmap(os.path.join(root, PINMAP_PATH))
    with open(os.path.join(root, DOC_PATH)) as f:
        doc = f.read()
    return {
        PINS_PY_PATH: render_pins_py(pinmap),
        SVG_PATH: render_svg(pinmap),
        DOC_PATH: render_doc(doc, pinmap),
    }


def generate(root=ROOT):
    """Rewrite the generated files; returns the paths that changed."""
    changed = []
    for path, text in generated_files(root).items():
        full = os.path.join(root, path)
        old = None
        if os.path.exists(full):
            with open(full) as f:
                old = f.read()
        if old != text:
            with open(full, "w") as f:
                f.write(text)
            changed.append(path)
    return changed


def main(argv=None):
    """`generate` or `check FILE`; exit 2 with the message on a bad pin map."""
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["generate"] and len(argv) == 1:
        for path in generate():
            print("wrote %s" % path)
        from host_tools.cad.generate import generate_cad  # panels, pieces, BOM
        return generate_cad()
    if argv[:1] == ["check"] and len(argv) == 2:
        try:
            data = load_pinmap(argv[1])
        except (ValueError, OSError) as exc:
            print("%s: %s" % (argv[1], exc), file=sys.stderr)
            return 2
        print("%s: pin map OK (scanner %s)" % (argv[1], data["scanner"]))
        return 0
    print("usage: python -m host_tools.hardware generate | check FILE", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
