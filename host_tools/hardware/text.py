"""The pin map as text: firmware/pins.py, firmware/boards.py and the tables
of docs/hardware.md.

All are generated from ``hardware/pinmap.json`` by
``python -m host_tools.hardware generate``; each table sits between
``<!-- NAME:begin -->`` / ``<!-- NAME:end -->`` markers in the doc, so the
prose around it is left alone. Pure: text in, text out.
"""

import json
import textwrap

from firmware.pinrules import PIN_KEYS, SQUARES
from host_tools.hardware.pins import header_pin
from host_tools.hardware.power import (BOARD_MA, CHANNELS, LED_IDLE_MA, LED_MA_PER_CHANNEL,
                                       fixed_ma, power_figures)
from host_tools.hardware.wiring import SR_INPUTS, matrix_squares

# Scan timing the firmware follows (docs/hardware.md explains both numbers).
MATRIX_SETTLE_US = 50
SR_PULSE_US = 1


# --- firmware/pins.py ------------------------------------------------------

GENERATED = """\
# GENERATED from hardware/pinmap.json by `python -m host_tools.hardware generate`.
# Do not edit: change hardware/pinmap.json, regenerate, and commit both.
"""


def _pins_lines(pins, indent):
    """A "pins" block's keys, one a line, in the pin rules' order."""
    return ['%s"%s": %s,' % (indent, key, json.dumps(pins[key]))
            for key in PIN_KEYS if key in pins]


def _py_literal(pinmap):
    """A dict literal laid out one key a line, readable in a diff."""
    leds = pinmap["leds"]
    lines = ["PINMAP = {", '    "scanner": %s,' % json.dumps(pinmap["scanner"]),
             '    "pins": {']
    lines += _pins_lines(pinmap["pins"], " " * 8)
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
    return GENERATED + '''\
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


# --- firmware/boards.py -----------------------------------------------------

def render_boards_py(pinmap):
    """firmware/boards.py: the "boards" table, each board's whole "pins" block
    under its CircuitPython board id, its name and note as comments."""
    lines = ["BOARD_PINS = {"]
    for board_id, entry in sorted(pinmap.get("boards", {}).items()):
        about = "%s: %s" % (entry["name"], entry.get("note", ""))
        lines += textwrap.wrap(about.strip().rstrip(":"), 84, initial_indent="    # ",
                               subsequent_indent="    # ")
        lines.append('    "%s": {' % board_id)
        lines += _pins_lines(entry["pins"], " " * 8)
        lines.append("    },")
    lines.append("}")
    return GENERATED + '''\
"""Default wiring of RP2040 boards other than the Pico, for CircuitPython.

firmware/hal_cp.py takes the entry of CircuitPython's ``board.board_id``
while config.json leaves the pins at the Pico's defaults
(docs/circuitpython.md). The numbers are the RP2040's GPIOs, checked by the
same pin rules as the Pico's. A module of its own, so that MicroPython, which
loads firmware/pins.py, never holds this table (nor finds it on its flash).
"""

%s
''' % "\n".join(lines)


# --- Tables in docs/hardware.md -------------------------------------------

def _pin_row(function, gpio, note):
    return "| %s | GP%d | %d | %s |" % (function, gpio, header_pin(gpio), note)


def table_pinmap(pinmap):
    """Every wired GPIO with its header pin, for soldering from the table."""
    pins = pinmap["pins"]
    out = ["| function | GPIO | header pin | wiring |", "|---|---|---|---|"]
    for r, gpio in enumerate(pins["matrix_rows"]):
        sq = matrix_squares(row=r)
        out.append(_pin_row("matrix row %d" % r, gpio, "matrix: diode cathodes of "
                            "squares %d-%d" % (sq[0], sq[-1])))
    for c, gpio in enumerate(pins["matrix_cols"]):
        sq = ", ".join(str(s) for s in matrix_squares(col=c))
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
        cells = " | ".join("sq %d" % s for s in matrix_squares(row=r))
        out.append("| row %d (GP%d) | %s |" % (r, gpio, cells))
    out.append("")
    out.append("Square s is at row (s-1)//5, column (s-1)%5; its switch closing sets "
               "occupancy bit s-1.")
    return "\n".join(out)


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

