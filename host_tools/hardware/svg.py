"""hardware/wiring.svg: the wiring diagram, drawn from the pin map.

A tiny SVG writer and one function per part of the drawing: the Pico with its
header, option A's matrix, option B's chain, the LED strip with the power and
the button. Pure: the pin map in, the SVG text out.
"""

from firmware.pinrules import SQUARES
from host_tools.hardware.pins import HEADER
from host_tools.hardware.wiring import sr_input

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

