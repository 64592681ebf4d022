"""Every wire between the perfboard and the board, with its length, and the
pinout of every connector, for each sensing option.

Lengths come from the CAD geometry (host_tools/hardware/cad/layout.py): the
reed switches' slots, the LEDs' windows and the button, all from
hardware/board.json. A wire runs as the frame's channels let it: along its
row's channel, along the channel down the nearer end of the rows, along the
front channel to the cable hole, down through the bottom panel and the
standoffs, then across the perfboard to its connector pin. The button's
wires go straight down through the bottom panel's hole under it. Each wire
gets SPARE mm more: 10 mm stripped at each end and 20 mm of slack.
"""

from host_tools.hardware.cad.layout import (SIDE_CHANNEL, button_centre, cable_hole_centre,
                                            led_positions, reed_slot_centre, strip_centre_y)
from host_tools.hardware.perfboard import PITCH, hole_name, margins
from host_tools.hardware.pins import HEADER

SPARE = 40              # mm a wire: 2 x 10 mm stripped, 20 mm slack
STANDOFF = 12           # mm, the perfboard's standoffs under the bottom panel (BOM)


class Wire:
    """One wire, or a cable of ``conductors`` wires of the same length."""

    def __init__(self, ref, conductors, start, end, route):
        self.ref, self.conductors = ref, conductors
        self.start, self.end = start, end
        self.route = round(route)

    @property
    def length(self):
        return self.route + SPARE

    @property
    def total(self):
        return self.length * self.conductors


# -- the channels ---------------------------------------------------------------------

def along(board, p, q):
    """mm from p to q (both in a channel of the frame layer): straight along a
    row, or down the nearer end channel when they lie in different rows."""
    if abs(p[1] - q[1]) < 1e-6:
        return abs(p[0] - q[0])
    x_left = board.rim + SIDE_CHANNEL / 2
    x_right = board.width - x_left
    side = min(abs(p[0] - s) + abs(q[0] - s) for s in (x_left, x_right))
    return side + abs(p[1] - q[1])


def pad_xy(board, hole):
    """Where a perfboard hole lies under the board, in the board's mm (the
    perfboard is centred on the front strip, as its standoff holes are)."""
    w, h = board.perfboard_size
    mx, my = margins(board)
    cx, cy = board.width / 2, strip_centre_y(board)
    return cx - w / 2 + mx + hole[0] * PITCH, cy + h / 2 - my - hole[1] * PITCH


def to_pad(board, layout, point, ref, pin, depth):
    """mm from ``point`` in the frame layer to a connector pin: to the cable
    hole, down ``depth`` and the standoffs, across the perfboard."""
    hole = cable_hole_centre(board)
    x, y = pad_xy(board, layout.pad(ref, pin))
    return along(board, point, hole) + depth + STANDOFF + abs(x - hole[0]) + abs(y - hole[1])


def chain(board, start, points):
    """Visit ``points`` {name: xy} nearest first from ``start``: the order and
    the mm along the wire at which each is reached."""
    left, here, run, out = dict(points), start, 0.0, []
    while left:
        name = min(left, key=lambda n: (along(board, here, left[n]), n))
        run += along(board, here, left[name])
        here = left.pop(name)
        out.append((name, run))
    return out


# -- the wires --------------------------------------------------------------------------

def bus(board, layout, ref, pin, squares):
    """A wire from a connector pin joining several switches: its route and
    how far along it each square is reached."""
    hole = cable_hole_centre(board)
    head = to_pad(board, layout, hole, ref, pin, board.bottom_t)
    order = chain(board, hole, {s: reed_slot_centre(board, s) for s in squares})
    return head + order[-1][1], [(s, round(head + d)) for s, d in order]


def switch_wires(board, layout):
    """(wires, {square: [(wire ref, mm along it), ...]}) of the switches."""
    pins = layout.pinmap["pins"]
    out, joins = [], {}
    if layout.option == "matrix":
        for r in range(len(pins["matrix_rows"])):
            squares = list(range(5 * r + 1, 5 * r + 6))
            route, at = bus(board, layout, "J1", r + 1, squares)
            out.append(Wire("R%d" % r, 1, "J1 pin %d" % (r + 1), "diode cathodes, squares "
                            "%d-%d" % (squares[0], squares[-1]), route))
            for s, d in at:
                joins.setdefault(s, []).append(("R%d" % r, d))
        for c in range(len(pins["matrix_cols"])):
            squares = list(range(c + 1, 31, 5))
            route, at = bus(board, layout, "J2", c + 1, squares)
            out.append(Wire("C%d" % c, 1, "J2 pin %d" % (c + 1), "reeds, squares "
                            + ", ".join(map(str, squares)), route))
            for s, d in at:
                joins.setdefault(s, []).append(("C%d" % c, d))
        return out, joins
    for s in range(1, 31):
        chip, k = divmod(s - 1, 8)
        ref = "J%d" % (chip + 1)
        route = to_pad(board, layout, reed_slot_centre(board, s), ref, k + 1, board.bottom_t)
        out.append(Wire("S%d" % s, 1, "%s pin %d" % (ref, k + 1), "reed, square %d" % s, route))
        joins[s] = [("S%d" % s, round(route))]
    route, at = bus(board, layout, "J4", 7, list(range(1, 31)))
    out.append(Wire("G", 1, "J4 pin 7", "the other lead of every reed", route))
    for s, d in at:
        joins[s].append(("G", d))
    return out, joins


def led_wires(board, layout):
    """The LED cable to LED 0, then the pixel-to-pixel runs along the snake,
    runs of one length grouped: (ref, 3 wires, ...)."""
    spots = led_positions(board, layout.pinmap["leds"])
    first = to_pad(board, layout, spots[0], "J5", 1, board.bottom_t + board.frame_t)
    out = [Wire("L", 3, "J5 pins 1-3", "LED 0 (square 1): +5V, DIN, GND", first)]
    runs = []
    for i in range(len(spots) - 1):
        mm = round(along(board, spots[i], spots[i + 1]))
        if runs and runs[-1][2] == mm and runs[-1][1] == i:
            runs[-1][1] = i + 1
        else:
            runs.append([i, i + 1, mm])
    for a, b, mm in runs:
        count = b - a
        name = "L%d-%d" % (a, b)
        what = ("LED %d to %d" % (a, b) if count == 1
                else "LED %d to %d, each to the next (%d runs)" % (a, b, count))
        out.append(Wire(name, 3 * count, "LED %d: DO, +5V, GND" % a, what, mm))
    return out


def button_wires(board, layout):
    bx, by = button_centre(board)
    x, y = pad_xy(board, layout.pad("J6", 1))
    depth = board.top_t + board.frame_t + board.bottom_t + STANDOFF
    return [Wire("B", 2, "J6 pins 1-2", "throw button", depth + abs(x - bx) + abs(y - by))]


def wire_list(board, layout):
    """Every wire of the option, and where each square's switch joins them."""
    switches, joins = switch_wires(board, layout)
    return switches + led_wires(board, layout) + button_wires(board, layout), joins


# -- the doc tables ----------------------------------------------------------------------

def table_wires(board, layout):
    wires, joins = wire_list(board, layout)
    lines = ["| wire | from | to | route, mm | cut, mm | wires | total, mm |",
             "|---|---|---|---|---|---|---|"]
    for w in wires:
        lines.append("| %s | %s | %s | %d | %d | %d | %d |" % (
            w.ref, w.start, w.end, w.route, w.length, w.conductors, w.total))
    total = sum(w.total for w in wires)
    lines.append("")
    lines.append("Cut length = route + %d mm (10 mm stripped at each end, 20 mm slack). "
                 "In all: %d wires, %.1f m (the 5 V supply's two wires, as long as the "
                 "jack is from the perfboard, not counted)."
                 % (SPARE, sum(w.conductors for w in wires), total / 1000.0))
    lines.append("")
    lines.append("Where each square's switch joins its wires (mm from the connector):")
    lines.append("")
    lines.append("| square | " + " | ".join(["wire, mm"] * len(joins[1])) + " |")
    lines.append("|---|" + "---|" * len(joins[1]))
    for s in range(1, 31):
        lines.append("| %d | %s |" % (s, " | ".join("%s at %d" % j for j in joins[s])))
    return "\n".join(lines)


def far_end(layout, ref, pin, net):
    """What the wire on a connector pin reaches at the board's end."""
    if net is None:
        return "nothing (spare)"
    if net.startswith("row"):
        r = int(net.split()[1])
        return "diode cathodes (band) of squares %d-%d" % (5 * r + 1, 5 * r + 5)
    if net.startswith("column"):
        c = int(net.split()[1])
        return "reed leads of squares " + ", ".join(map(str, range(c + 1, 31, 5)))
    if net.startswith("square"):
        return "reed of %s" % net
    return {("J4", 7): "the other lead of every reed (wire G)",
            ("J5", 1): "LED 0 +5V, and the 1000 uF capacitor's +",
            ("J5", 2): "LED 0 DIN, through the 330 ohm resistor",
            ("J5", 3): "LED 0 GND, and the 1000 uF capacitor's stripe",
            ("J6", 1): "throw button, one terminal", ("J6", 2): "throw button, the other",
            ("J7", 1): "the 2.1 mm jack's centre (+5 V)",
            ("J7", 2): "the 2.1 mm jack's sleeve (GND)"}.get((ref, pin), net)


def near_end(layout, ref, pin, net):
    """What the connector pin is wired to on the perfboard."""
    if net is None:
        return "-"
    out = []
    for other, p in layout.nets[net]:
        if (other, p) == (ref, pin):
            continue
        part = layout.parts[other]
        if part.kind == "pico":
            out.append("Pico pin %d (%s)" % (p, net.split("(")[-1].rstrip(")")
                                            if "(GP" in net else HEADER[p]))
        elif part.kind == "dip" and net == "LED data":
            out.append("%s %s pin %d (1Y: GP%d buffered)"
                       % (other, part.value, p, layout.pinmap["pins"]["led"]))
        elif part.kind == "dip":
            out.append("%s %s pin %d" % (other, part.value, p))
        if len(out) == 3:
            break
    return ", ".join(out) or net


def table_pinouts(layout):
    lines = ["| connector | pin | perfboard end | signal | wire | far end |",
             "|---|---|---|---|---|---|"]
    names = {"J1": "R%d", "J2": "C%d"} if layout.option == "matrix" else {}
    for ref, pin, net in layout.connector_pins():
        part = layout.parts[ref]
        wire = "-"
        if net is not None:
            if ref in names:
                wire = names[ref] % (pin - 1)
            elif net.startswith("square"):
                wire = "S" + net.split()[1]
            elif (ref, pin) == ("J4", 7):
                wire = "G"
            elif ref in ("J5", "J6"):
                wire = "L" if ref == "J5" else "B"
        lines.append("| %s %s | %d (%s) | %s | %s | %s | %s |" % (
            ref, part.value, pin, hole_name(part.pads[pin]), near_end(layout, ref, pin, net),
            net or "-", wire, far_end(layout, ref, pin, net)))
    return "\n".join(lines)
