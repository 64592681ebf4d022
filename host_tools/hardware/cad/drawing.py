"""The panels as files for a laser cutter (DXF and SVG), and the dimensioned
top-view drawing of the whole board for the build guide.

Layer and colour convention (the common one for laser cutters):

- ``CUT``: red (DXF colour 1, SVG ``#ff0000``), cut through; closed paths only.
- ``ENGRAVE``: blue (DXF colour 5, SVG ``#0000ff``), vector-engraved (scored)
  lines, not cut through.

Millimetres throughout; SVG files declare their size in mm, one user unit = 1 mm.
Nothing written depends on the date or the machine, so regenerating gives the
same files.
"""

from . import layout
from .params import SQUARES

CUT, ENGRAVE = "CUT", "ENGRAVE"
COLOURS = {CUT: ("#ff0000", 1), ENGRAVE: ("#0000ff", 5)}


def fmt(value):
    """A length as short stable text: at most 3 decimals, no trailing zeros."""
    text = "%.3f" % value
    text = text.rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def _rect_points(x, y, w, h):
    return [(x - w / 2, y - h / 2), (x + w / 2, y - h / 2), (x + w / 2, y + h / 2),
            (x - w / 2, y + h / 2)]


def as_cut(panel, kerf):
    """The panel's cut paths moved half a kerf (the width the laser burns
    away) off the drawn shapes: outward round a part, inward in a hole, so
    that the part and the hole come out at their drawn size."""
    out = []
    for shape in panel.cuts:
        d = kerf / 2 if shape in panel.outer else -kerf / 2
        if shape[0] == "circle":
            out.append(shape[:3] + (shape[3] + 2 * d,))
        else:
            out.append(shape[:3] + (shape[3] + 2 * d, shape[4] + 2 * d))
    return out


# --- DXF ----------------------------------------------------------------------

def write_dxf(panel, path, kerf=0):
    """One panel as a DXF file (R2010, millimetres, CUT and ENGRAVE layers),
    its cut paths allowing for the laser's kerf."""
    import ezdxf
    from ezdxf import units

    # ezdxf's own switch for files without a creation date or random ids.
    fixed = ezdxf.options.write_fixed_meta_data_for_testing
    ezdxf.options.write_fixed_meta_data_for_testing = True
    try:
        doc = ezdxf.new("R2010")
        doc.units = units.MM
        doc.header["$MEASUREMENT"] = 1
        for name, (_, aci) in COLOURS.items():
            doc.layers.add(name, color=aci)
        msp = doc.modelspace()
        for layer, shapes in ((CUT, as_cut(panel, kerf)), (ENGRAVE, panel.engraves)):
            attribs = {"layer": layer}
            for shape in shapes:
                kind, values = shape[0], [round(v, 3) for v in shape[1:]]
                if kind == "circle":
                    msp.add_circle(values[:2], values[2] / 2, dxfattribs=attribs)
                elif kind == "rect":
                    msp.add_lwpolyline(_rect_points(*values), close=True,
                                       dxfattribs=attribs)
                else:
                    msp.add_line(values[:2], values[2:], dxfattribs=attribs)
        # ezdxf adds the CLASS entries from a set, in an order that changes from
        # run to run: add them now and sort them, so the file is the same.
        doc.classes.add_required_classes(doc.dxfversion)
        doc.classes.classes = dict(sorted(doc.classes.classes.items()))
        doc.saveas(path)
    finally:
        ezdxf.options.write_fixed_meta_data_for_testing = fixed


# --- SVG ----------------------------------------------------------------------

def _svg_shape(shape, height, extra=""):
    """One shape as an SVG element; SVG's y points down, so y is flipped."""
    kind, v = shape[0], shape[1:]
    if kind == "circle":
        return '<circle cx="%s" cy="%s" r="%s"%s/>' % (fmt(v[0]), fmt(height - v[1]),
                                                      fmt(v[2] / 2), extra)
    if kind == "rect":
        x, y, w, h = v
        return '<rect x="%s" y="%s" width="%s" height="%s"%s/>' % (
            fmt(x - w / 2), fmt(height - y - h / 2), fmt(w), fmt(h), extra)
    return '<line x1="%s" y1="%s" x2="%s" y2="%s"%s/>' % (
        fmt(v[0]), fmt(height - v[1]), fmt(v[2]), fmt(height - v[3]), extra)


def panel_svg(panel, kerf=0):
    """One panel as an SVG file for a laser cutter: red cut (allowing for the
    kerf), blue engrave."""
    w, h = panel.width, panel.height
    out = ['<?xml version="1.0" encoding="UTF-8"?>',
           '<svg xmlns="http://www.w3.org/2000/svg" width="%smm" height="%smm" '
           'viewBox="0 0 %s %s">' % (fmt(w), fmt(h), fmt(w), fmt(h)),
           '<title>Senet board, %s panel, %s mm %s: red = cut, blue = engrave</title>'
           % (panel.name, fmt(panel.thickness), panel.material)]
    for layer, shapes in ((CUT, as_cut(panel, kerf)), (ENGRAVE, panel.engraves)):
        out.append('<g id="%s" fill="none" stroke="%s" stroke-width="0.1">'
                   % (layer.lower(), COLOURS[layer][0]))
        out.extend(_svg_shape(s, h) for s in shapes)
        out.append("</g>")
    out.append("</svg>")
    return "\n".join(out) + "\n"


# --- The dimensioned drawing --------------------------------------------------

class _Sheet:
    """A drawing sheet: the board at 1 unit = 1 mm, offset into the page."""

    def __init__(self, board, ox, oy, page_w, page_h):
        self.board, self.ox, self.oy = board, ox, oy
        self.page_w, self.page_h = page_w, page_h
        self.items = []

    def xy(self, x, y):
        """Board coordinates (y up) to page coordinates (y down)."""
        return self.ox + x, self.oy + self.board.height - y

    def shape(self, shape, cls):
        kind, v = shape[0], list(shape[1:])
        if kind == "line":
            x1, y1 = self.xy(v[0], v[1])
            x2, y2 = self.xy(v[2], v[3])
            self.line(x1, y1, x2, y2, cls)
            return
        x, y = self.xy(v[0], v[1])
        if kind == "circle":
            self.items.append('<circle class="%s" cx="%s" cy="%s" r="%s"/>'
                              % (cls, fmt(x), fmt(y), fmt(v[2] / 2)))
        else:
            self.items.append('<rect class="%s" x="%s" y="%s" width="%s" height="%s"/>'
                              % (cls, fmt(x - v[2] / 2), fmt(y - v[3] / 2), fmt(v[2]),
                                 fmt(v[3])))

    def line(self, x1, y1, x2, y2, cls):
        self.items.append('<line class="%s" x1="%s" y1="%s" x2="%s" y2="%s"/>'
                          % (cls, fmt(x1), fmt(y1), fmt(x2), fmt(y2)))

    def text(self, x, y, s, cls="t", anchor="middle", rotate=False):
        turn = ' transform="rotate(-90 %s %s)"' % (fmt(x), fmt(y)) if rotate else ""
        self.items.append('<text class="%s" x="%s" y="%s" text-anchor="%s"%s>%s</text>'
                          % (cls, fmt(x), fmt(y), anchor, turn, s))

    def dim_h(self, x1, x2, y, label):
        """A horizontal dimension between page x1 and x2 at page height y."""
        self.line(x1, y, x2, y, "dim")
        for x in (x1, x2):
            self.line(x, y - 3, x, y + 3, "dim")
        self.text((x1 + x2) / 2, y - 2, label, "d")

    def dim_v(self, y1, y2, x, label):
        self.line(x, y1, x, y2, "dim")
        for y in (y1, y2):
            self.line(x - 3, y, x + 3, y, "dim")
        self.text(x - 2, (y1 + y2) / 2, label, "d", rotate=True)

    def render(self, title):
        head = ['<?xml version="1.0" encoding="UTF-8"?>',
                '<svg xmlns="http://www.w3.org/2000/svg" width="%smm" height="%smm" '
                'viewBox="0 0 %s %s">' % (fmt(self.page_w), fmt(self.page_h),
                                          fmt(self.page_w), fmt(self.page_h)),
                '<title>%s</title>' % title,
                "<style>",
                ".cut{fill:none;stroke:#c00000;stroke-width:0.5}",
                ".eng{fill:none;stroke:#3050c0;stroke-width:0.25}",
                ".hid{fill:none;stroke:#707070;stroke-width:0.3;stroke-dasharray:1.5 1}",
                ".dim{stroke:#000;stroke-width:0.25}",
                ".t{font:4px sans-serif;fill:#000}",
                ".d{font:3.5px sans-serif;fill:#000}",
                ".h{font:bold 6px sans-serif;fill:#000}",
                "</style>",
                '<rect x="0" y="0" width="%s" height="%s" fill="#fff"/>'
                % (fmt(self.page_w), fmt(self.page_h))]
        return "\n".join(head + self.items + ["</svg>"]) + "\n"


def _section(sheet, board, left, top):
    """Section along a row through one square's centre, at 2:1: the piece and
    its magnet over the stack, the reed in its slot with the end of its glass
    under the centre."""
    from . import pieces
    scale = 2
    piece = pieces.shape(board, "spool")
    tall = piece["height"] + board.stack
    base = top + 12 + scale * tall             # page y of the board's underside
    cx = left + scale * (board.pitch / 2 + 10)

    def at(x, z):
        return cx + scale * x, base - scale * z

    def box(x0, z0, x1, z1, cls):
        (a, b), (c, d) = at(x0, z1), at(x1, z0)
        sheet.items.append('<rect class="%s" x="%s" y="%s" width="%s" height="%s"/>'
                           % (cls, fmt(a), fmt(b), fmt(c - a), fmt(d - b)))

    half = board.pitch / 2 + 8
    sheet.text(left, top, "Section along a row through a square's centre, 2:1", "t",
               anchor="start")
    t, f, b = board.top_t, board.frame_t, board.bottom_t
    box(-half, 0, half, b, "cut")                              # bottom panel
    box(-half, b + f, half, b + f + t, "cut")                  # top panel
    glass, dia = board.reed["glass_length"], board.reed["glass_diameter"]
    box(0, b - dia, glass, b, "cut")                           # the reed's glass
    for x in (0, glass):                                       # leads bent up
        out = -board.reed["lead_room"] if x == 0 else glass + board.reed["lead_room"]
        x1, y1 = at(x, b - dia / 2)
        x2, y2 = at(out, b - dia / 2)
        x3, y3 = at(out, b + 0.6)
        sheet.line(x1, y1, x2, y2, "eng")
        sheet.line(x2, y2, x3, y3, "eng")
    surface = b + f + t
    r, fl, w = piece["diameter"] / 2, piece["flange"], piece["waist"] / 2
    h, c = piece["height"], piece["chamfer"]
    side = [(r, 0), (r, fl), (w, fl), (w, h - fl - c), (r, h - fl), (r, h)]
    outline = side + [(-x, z) for x, z in reversed(side)]      # the spool, chamfer and all
    for (x1, z1), (x2, z2) in zip(outline, outline[1:] + outline[:1]):
        (a1, b1), (a2, b2) = at(x1, surface + z1), at(x2, surface + z2)
        sheet.line(a1, b1, a2, b2, "eng")
    m = board.magnet["diameter"] / 2
    box(-m, surface, m, surface + board.magnet["height"], "cut")   # the magnet
    x1, y1 = at(0, surface + h + 3)
    x2, y2 = at(0, b + 0.5)
    sheet.line(x1, y1, x2, y2, "hid")                          # the square's centre
    sheet.text(x1, y1 - 1, "square's centre", "d")
    gx, gy0 = at(-half - 4, b)
    _, gy1 = at(0, surface)
    sheet.dim_v(gy1, gy0, gx, fmt(surface - b))
    mx, my = at(glass / 2, b - dia - 1.5)
    sheet.text(mx, my + 4, "reed middle: dead spot", "d")
    tx, ty = at(half + 3, 0)
    lines = ["magnet: disc, pole axis vertical",
             "reed: lying along the row, left end of",
             "the glass under the centre, middle %s mm" % fmt(glass / 2),
             "to the right; a piece strays at most %s mm" % fmt(board.piece_play),
             "stack: top %s, frame %s, bottom %s mm" % (fmt(t), fmt(f), fmt(b))]
    for i, line in enumerate(lines):
        sheet.text(tx, base - scale * tall + 6 * i, line, "t", anchor="start")
    return base + 14

def glue_notes(sheet, bars):
    """Where each bar of the frame is glued, front to back: its edges from
    the board's front edge (y) and left edge (x); each bar is named on the
    drawing too."""
    out = ["Glue the frame's bars to the bottom panel, edges measured from the board's "
           "front and left edges (the top panel rests on them and on the rim):"]
    for i, (_, x, y, w, h) in enumerate(sorted(bars, key=lambda b: b[2]), 1):
        px, py = sheet.xy(x + w / 2 - 2, y)          # at its right end, clear of the numbers
        sheet.text(px, py + 1.5, "bar %d" % i, "d", anchor="end")
        out.append("  bar %d: y %s to %s mm, x %s to %s mm" % (
            i, fmt(y - h / 2), fmt(y + h / 2), fmt(x - w / 2), fmt(x + w / 2)))
    return out


def drawing_svg(board, panels, leds):
    """Top view of the assembled board, dimensioned: the top panel's cuts and
    engraving, with the reed slots and bars underneath dashed."""
    top, frame, bottom = panels
    page_w, page_h = board.width + 90, board.height + 120
    sheet = _Sheet(board, 50, 30, page_w, page_h)
    for shape in frame.bars + list(bottom.reed_slots.values()):
        sheet.shape(shape, "hid")
    for shape in top.engraves:
        sheet.shape(shape, "eng")
    for shape in top.cuts:
        sheet.shape(shape, "cut")
    left, top_y = sheet.xy(0, board.height)
    right, bottom_y = sheet.xy(board.width, 0)
    p, m = board.pitch, board.margin
    sheet.dim_h(left, right, top_y - 12, "%s mm" % fmt(board.width))
    sx1, _ = sheet.xy(m, 0)
    sx2, _ = sheet.xy(m + p, 0)
    sheet.dim_h(left, sx1, top_y - 4, "%s" % fmt(m))
    sheet.dim_h(sx1, sx2, top_y - 4, "pitch %s" % fmt(p))
    sheet.dim_v(top_y, bottom_y, left - 14, "%s mm" % fmt(board.height))
    _, gy1 = sheet.xy(0, board.margin + board.strip)
    _, gy0 = sheet.xy(0, board.margin)
    sheet.dim_v(gy1, gy0, left - 5, "strip %s" % fmt(board.strip))
    _, row_top = sheet.xy(0, board.height - m)
    sheet.dim_v(row_top, gy1, left - 5, "3 x %s" % fmt(p))
    # Callouts under the drawing.
    bx = layout.button_centre(board)[0]
    notes = [
        "Senet board, top view from the players' side: %s x %s mm, stack %s + %s + %s mm "
        "(top, frame, bottom)." % (fmt(board.width), fmt(board.height), fmt(board.top_t),
                                   fmt(board.frame_t), fmt(board.bottom_t)),
        "Red: cut in the top panel. Blue: engraved. Grey dashed: reed slots in the bottom "
        "panel and the frame's bars, underneath.",
        "Square LED windows %s mm, in the far right corner, %s mm in from both edges; "
        "stick windows %s x %s mm; side lights %s mm; button hole %s mm at x %s."
        % (fmt(board.led["window"]), fmt(board.led["from_edge"]), fmt(board.sticks["width"]),
           fmt(board.sticks["length"]), fmt(board.side_lights["window"]),
           fmt(board.button["hole"]), fmt(bx)),
        "Reed slots %s x %s mm along the rows, the end of the glass under the square's "
        "centre. Screw holes %s mm, %s mm from each corner."
        % (fmt(board.slot_size[0]), fmt(board.slot_size[1]), fmt(board.screw_hole),
           fmt(board.screw_inset)),
        "LEDs %d..%d: squares 1..30 along the path; %d..%d: sticks; %d: black to move "
        "(left, spool); %d: white to move (right, cone)."
        % (0, SQUARES - 1, leds["sticks"], leds["sticks"] + 3, leds["side_black"],
           leds["side_white"]),
    ]
    notes += glue_notes(sheet, frame.bars)
    y = bottom_y + 14
    for line in notes:
        sheet.text(left, y, line, "t", anchor="start")
        y += 7
    sheet.page_h = _section(sheet, board, left, y + 10)
    return sheet.render("Senet board: dimensioned top view, generated from hardware/board.json")
