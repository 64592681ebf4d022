"""hardware/perfboard-matrix.svg and perfboard-shift.svg: the perfboard drawn
twice real size on an A4 landscape page, hole by hole.

Printed at 100 % the holes are 5.08 mm apart, so labels stay readable; the
rulers name every column and row as the parts list and the pinouts do
("E12"). Pure: a Layout in, the SVG text out.
"""

from host_tools.hardware.perfboard import COLS, KEEP_OUT, PITCH, ROWS, hole_name
from host_tools.hardware.pins import HEADER

SCALE = 2.0                 # drawing mm per real mm
PAGE = (297, 210)           # A4 landscape, mm
ORIGIN = (12, 22)           # the perfboard's top left corner on the page
STEP = PITCH * SCALE

STYLE = """\
text { font-family: DejaVu Sans, Arial, sans-serif; fill: #111; }
.h { font-size: 5px; font-weight: bold; }
.t { font-size: 3px; }
.s { font-size: 2.4px; fill: #333; }
.ruler { font-size: 1.9px; fill: #666; }
.ref { font-size: 2.6px; font-weight: bold; }
.pinl { font-size: 1.8px; fill: #0a4f9e; }
.edge { fill: #f3ead2; stroke: #6d5a2a; stroke-width: 0.4; }
.hole { fill: #fff; stroke: #b8a878; stroke-width: 0.15; }
.pad { fill: #c08a2c; stroke: #6d4a10; stroke-width: 0.2; }
.part { fill: #ffffff; fill-opacity: 0.55; stroke: #222; stroke-width: 0.35; }
.pico { fill: #e6f2e6; fill-opacity: 0.6; stroke: #1b5e20; stroke-width: 0.4; }
.mount { fill: #fff; stroke: #222; stroke-width: 0.3; }
.keep { fill: none; stroke: #c62828; stroke-width: 0.25; stroke-dasharray: 1 0.8; }
.wire { fill: none; stroke-width: 0.7; stroke-linejoin: round; stroke-linecap: round;
        stroke-opacity: 0.85; }"""

COLOURS = (("GND", "#222222"), ("+5V", "#e65100"), ("3V3", "#c62828"), ("VBUS", "#7b1fa2"),
           ("VSYS", "#7b1fa2"), ("row", "#8d4a1d"), ("column", "#1565c0"),
           ("square", "#2e7d32"), ("chip", "#9e9e9e"), ("sr_", "#1565c0"),
           ("chain", "#546e7a"), ("led", "#00838f"), ("LED", "#00838f"),
           ("button", "#ad1457"))


def colour(net):
    for start, value in COLOURS:
        if net.startswith(start):
            return value
    return "#444444"


def xy(hole):
    """A hole's centre on the page."""
    return ORIGIN[0] + (hole[0] + 0.72) * STEP, ORIGIN[1] + (hole[1] + 0.78) * STEP


def _esc(text):
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


class Page:
    def __init__(self):
        self.out = []

    def add(self, fmt, *args):
        self.out.append(fmt % args)

    def text(self, x, y, s, cls="t", anchor="start"):
        self.add('<text class="%s" x="%.2f" y="%.2f" text-anchor="%s">%s</text>',
                 cls, x, y, anchor, _esc(s))

    def render(self):
        head = ('<svg xmlns="http://www.w3.org/2000/svg" width="%dmm" height="%dmm" '
                'viewBox="0 0 %d %d">\n<style>\n%s\n</style>\n'
                '<rect x="0" y="0" width="%d" height="%d" fill="white"/>\n'
                % (PAGE[0], PAGE[1], PAGE[0], PAGE[1], STYLE, PAGE[0], PAGE[1]))
        return head + "\n".join(self.out) + "\n</svg>\n"


def _board(page, layout, size):
    w, h = size[0] * SCALE, size[1] * SCALE
    page.add('<rect class="edge" x="%.2f" y="%.2f" width="%.2f" height="%.2f" rx="1"/>',
             ORIGIN[0], ORIGIN[1], w, h)
    for i in range(COLS):
        x, _ = xy((i, 0))
        page.text(x, ORIGIN[1] - 1.2, str(i + 1), "ruler", "middle")
        for j in range(ROWS):
            page.add('<circle class="hole" cx="%.2f" cy="%.2f" r="0.45"/>', *xy((i, j)))
    for j in range(ROWS):
        _, y = xy((0, j))
        page.text(ORIGIN[0] - 1.2, y + 0.7, hole_name((0, j))[:-1], "ruler", "end")
    for mount in layout.mounts:
        x, y = xy(mount)
        page.add('<circle class="mount" cx="%.2f" cy="%.2f" r="%.2f"/>', x, y, 1.6 * SCALE)
        page.add('<circle class="keep" cx="%.2f" cy="%.2f" r="%.2f"/>', x, y, KEEP_OUT * SCALE)


def _parts(page, layout):
    for ref, part in sorted(layout.parts.items()):
        x0, y0 = xy((part.box[0], part.box[1]))
        x1, y1 = xy((part.box[2], part.box[3]))
        cls = "pico" if part.kind == "pico" else "part"
        page.add('<rect class="%s" x="%.2f" y="%.2f" width="%.2f" height="%.2f" rx="0.6"/>',
                 cls, x0, y0, x1 - x0, y1 - y0)
        label = part.label
        if part.kind in ("res", "cap", "link", "diode"):
            if label and part.kind == "res":
                page.text(x0, y0 - 0.6 if part.pads[1][1] > part.pads[2][1] else y1 + 2.4,
                          label, "s")
            elif label and part.box[0] < COLS / 3:
                page.text(x1 + 0.5, (y0 + y1) / 2 + 0.9, label, "s")
            elif label:            # left of it, clear of the Pico's pin names
                page.text(x0 - 0.5, (y0 + y1) / 2 + 0.9, label, "s", "end")
        elif part.kind == "dip":           # inside the body, between the pin rows
            page.text((x0 + x1) / 2, (y0 + y1) / 2 + 1, label, "ref", "middle")
        elif part.kind == "pico":
            page.text((x0 + x1) / 2, (y0 + y1) / 2, label, "ref", "middle")
            page.text((x0 + x1) / 2, y1 - 1.5, "USB", "s", "middle")
        else:
            page.text(x0 + 0.6, y0 - 0.8 if y0 > ORIGIN[1] + 4 else y1 + 2.8, label, "ref")
        for pin, hole in part.pads.items():
            x, y = xy(hole)
            if pin == 1:
                page.add('<rect class="pad" x="%.2f" y="%.2f" width="2" height="2"/>',
                         x - 1, y - 1)
            else:
                page.add('<circle class="pad" cx="%.2f" cy="%.2f" r="0.95"/>', x, y)


def _pico_labels(page, layout):
    """The Pico's used pins named beside their pads, outside its body."""
    used = {pin for net in layout.nets.values() for ref, pin in net if ref == "U1"}
    for pin in sorted(used):
        x, y = xy(layout.pad("U1", pin))
        left = pin > 20
        page.text(x + (-1.6 if left else 1.6), y + 0.6, "%d %s" % (pin, HEADER[pin]),
                  "pinl", "end" if left else "start")


def _wires(page, layout):
    for name in sorted(layout.links):
        for path in layout.links[name]:
            pts = " ".join("%.2f,%.2f" % xy(h) for h in path)
            page.add('<polyline class="wire" stroke="%s" points="%s"/>', colour(name), pts)


def _legend(page, layout, title, notes):
    x, y = ORIGIN[0] + 90 * SCALE + 8, ORIGIN[1] + 1
    page.text(x, y, "Nets (wires on the solder side)", "t")
    y += 1.5
    shown = []
    for start, value in COLOURS:
        names = [n for n in layout.nets if n.startswith(start) and layout.links[n]]
        if not names or value in [v for _, v in shown]:
            continue
        shown.append((start, value))
        y += 3.6
        page.add('<line x1="%.2f" y1="%.2f" x2="%.2f" y2="%.2f" stroke="%s" stroke-width="0.9"/>',
                 x, y - 0.9, x + 6, y - 0.9, value)
        page.text(x + 8, y, _legend_name(start, names), "s")
    y += 6
    page.text(x, y, "Parts (pin 1: square pad)", "t")
    for ref, part in sorted(layout.parts.items(), key=lambda p: _order(p[0])):
        if ref.startswith("R") and len(ref) > 2 and ref[-1].isalpha() and ref[-1] != "A":
            continue
        y += 3.3
        page.text(x, y, "%s  %s, pin 1 at %s" % (_group(ref), part.value,
                                                hole_name(part.pads[1])), "s")
    for line in notes:
        y += 3.3
        page.text(x, y, line, "s")


def _legend_name(start, names):
    if len(names) == 1:
        return names[0]
    return {"row": "matrix rows", "column": "matrix columns", "square": "switch inputs",
            "chip": "unused inputs (pull-up only)", "chain": "QH to SER down the chain",
            "sr_": "sr_load, sr_clock, sr_data"}.get(start, ", ".join(sorted(names)))


def _group(ref):
    if ref.startswith("R") and ref[-1] == "A" and len(ref) == 3:
        return "R%sA-H" % ref[1]
    return ref


def _order(ref):
    return (ref[0], len(ref), ref)


def _at_a_square(page, layout):
    """What is soldered at each square, under the board: option A's diode sits
    there, in series with the reed, band towards the row wire."""
    x, y = ORIGIN[0], ORIGIN[1] + 70 * SCALE + 12
    first, last = ("column wire C", "row wire R") if layout.option == "matrix" else (
        "input wire S (its square)", "common wire G (GND)")
    page.text(x, y, "At every square, on the bottom panel (the reed lies in its slot):", "t")
    y += 8
    page.add('<line x1="%.2f" y1="%.2f" x2="%.2f" y2="%.2f" stroke="#1565c0" '
             'stroke-width="0.7"/>', x, y, x + 30, y)
    page.text(x, y - 2, first, "s")
    page.add('<rect x="%.2f" y="%.2f" width="28" height="5" rx="2.5" fill="#eef6ff" '
             'stroke="#555" stroke-width="0.3"/>', x + 30, y - 2.5)
    page.text(x + 44, y + 0.9, "reed switch", "s", "middle")
    end = x + 58
    if layout.option == "matrix":
        page.add('<line x1="%.2f" y1="%.2f" x2="%.2f" y2="%.2f" stroke="#222" '
                 'stroke-width="0.5"/>', end, y, end + 8, y)
        page.add('<polygon points="%.2f,%.2f %.2f,%.2f %.2f,%.2f" fill="#222"/>',
                 end + 8, y - 3, end + 8, y + 3, end + 13, y)
        page.add('<rect x="%.2f" y="%.2f" width="1.2" height="6" fill="#222"/>', end + 13, y - 3)
        page.text(end + 10.5, y + 7, "1N4148, band towards the row", "s", "middle")
        end += 14.2
    page.add('<line x1="%.2f" y1="%.2f" x2="%.2f" y2="%.2f" stroke="#8d4a1d" '
             'stroke-width="0.7"/>', end, y, end + 30, y)
    page.text(end + 2, y - 2, last, "s")


def render(layout, size, title, notes):
    """The page: rulers, holes, parts, wires, the legend."""
    page = Page()
    page.text(ORIGIN[0], 10, title, "h")
    page.text(ORIGIN[0], 14.5, "Generated from hardware/pinmap.json and hardware/board.json "
              "(python -m host_tools.hardware generate).", "s")
    page.text(ORIGIN[0], 18, "Seen from above (component side, facing the bottom panel); "
              "twice real size: print at 100 %. Left edge: the cable hole. Bottom edge: "
              "the players.", "s")
    _board(page, layout, size)
    _parts(page, layout)
    _wires(page, layout)
    _pico_labels(page, layout)
    _legend(page, layout, title, notes)
    _at_a_square(page, layout)
    return page.render()
