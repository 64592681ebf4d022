"""The three laser-cut panels as flat geometry: what to cut and what to engrave.

Seen from the players' side, y pointing away from them: row 1 of the squares
is the far row, row 3 the near one, and the control strip with the stick
lights, the side lights and the throw button runs along the near edge. The
origin is the panel's lower-left corner. All three panels share the outline
and the four corner screw holes, so they stack exactly.

Shapes (lengths in mm):

- ``("circle", x, y, diameter)``
- ``("rect", x, y, width, height)``: centred on (x, y), axis-aligned
- ``("line", x1, y1, x2, y2)``: engraving only

Cut shapes are closed by construction. This module needs no CAD library: the
DXF/SVG writers and the solid modeller all read these lists.
"""

from . import glyphs
from .params import COLUMNS, ROWS, SQUARES, STICKS

REED_CHANNEL = 8        # mm across, room for a reed's leads and its diode
SIDE_CHANNEL = 10       # mm, the channel down each end of the rows
DIFFUSER_MARGIN = 2     # mm the diffuser reaches beyond its windows


def square_row_col(square):
    """C1: the snake. Row 0 runs 1..10 left to right, row 1 runs 11..20 right
    to left (11 under 10), row 2 runs 21..30 left to right."""
    row, k = divmod(square - 1, COLUMNS)
    return row, (COLUMNS - 1 - k if row == 1 else k)


def square_centre(board, square):
    row, col = square_row_col(square)
    x = board.margin + (col + 0.5) * board.pitch
    y = board.margin + board.strip + (ROWS - row - 0.5) * board.pitch
    return x, y


def reed_slot_centre(board, square):
    """The reed lies along the row with the end of its glass under the square's
    centre (docs/hardware.md, "Reed switches and magnets"): the slot's centre is
    half a glass length to the right of the square's centre."""
    x, y = square_centre(board, square)
    return x + board.reed["glass_length"] / 2, y


def led_positions(board, leds):
    """Where every LED of the strip sits, by its index in the strip: LED
    i under square i+1, in the square's far right corner, where a piece
    standing on the square does not hide it, the four stick LEDs in a row in the middle of the
    control strip, black's and white's side lights either side of them."""
    out = {}
    for square in range(1, SQUARES + 1):
        x, y = square_centre(board, square)
        offset = led_offset(board)
        out[square - 1] = (x + offset, y + offset)
    cx, cy = board.width / 2, strip_centre_y(board)
    spacing = board.sticks["spacing"]
    for i in range(STICKS):
        out[leds["sticks"] + i] = (cx + (i - (STICKS - 1) / 2) * spacing, cy)
    distance = board.side_lights["distance"]
    out[leds["side_black"]] = (cx - distance, cy)
    out[leds["side_white"]] = (cx + distance, cy)
    return out


def led_offset(board):
    """How far a square's LED sits from its centre, in x and in y."""
    return board.pitch / 2 - board.led["from_edge"]


def strip_centre_y(board):
    return board.margin + board.strip / 2


def button_centre(board):
    return board.width - board.button["from_right"], strip_centre_y(board)


def screw_holes(board):
    i, w, h = board.screw_inset, board.width, board.height
    return [("circle", x, y, board.screw_hole) for x, y in ((i, i), (w - i, i), (i, h - i),
                                                           (w - i, h - i))]


def outline(board):
    return ("rect", board.width / 2, board.height / 2, board.width, board.height)


class Panel:
    """One flat part: its outline and holes to cut, its marks to engrave."""

    def __init__(self, name, board, thickness, material):
        self.name = name
        self.width = board.width
        self.height = board.height
        self.thickness = thickness
        self.material = material
        self.cuts = [outline(board)] + screw_holes(board)
        self.outer = [self.cuts[0]]  # cut paths round a part; the others are holes
        self.engraves = []
        self.parts = 1          # how many separate pieces the cut gives
        self.led_windows = {}   # LED index -> its window (top panel)
        self.reed_slots = {}    # square -> its reed slot (bottom panel)
        self.bars = []          # the frame's bars


def top_panel(board, leds):
    """The playing surface: squares, signs and path engraved; windows for the
    36 LEDs and the button hole cut."""
    panel = Panel("top", board, board.top_t, board.materials["top"])
    positions = led_positions(board, leds)
    window = board.led["window"]
    for index in range(SQUARES):
        panel.led_windows[index] = ("circle",) + positions[index] + (window,)
    for i in range(STICKS):
        x, y = positions[leds["sticks"] + i]
        panel.led_windows[leds["sticks"] + i] = ("rect", x, y, board.sticks["width"],
                                                 board.sticks["length"])
    for key in ("side_black", "side_white"):
        panel.led_windows[leds[key]] = (("circle",) + positions[leds[key]]
                                        + (board.side_lights["window"],))
    panel.cuts.extend(panel.led_windows[i] for i in sorted(panel.led_windows))
    panel.cuts.append(("circle",) + button_centre(board) + (board.button["hole"],))
    panel.engraves = top_engraving(board, positions, leds)
    return panel


def top_engraving(board, positions, leds):
    p = board.pitch
    out = []
    for square in range(1, SQUARES + 1):
        x, y = square_centre(board, square)
        out.append(("rect", x, y, p, p))
        h = round(p * 0.14, 2)
        out.extend(glyphs.number(str(square), x - p / 2 + p * 0.08, y - p / 2 + p * 0.08, h))
        out.extend(glyphs.sign(square, x, y, p * 0.5))
    out.extend(path_arrows(board))
    s = board.strip * 0.4
    bx, by = positions[leds["side_black"]]
    wx, wy = positions[leds["side_white"]]
    gap = board.side_lights["window"] / 2 + s * 0.8
    out.extend(glyphs.spool(bx - gap, by, s))
    out.extend(glyphs.cone(wx + gap, wy, s))
    return out


def path_arrows(board):
    """C1's snake drawn in the margins: in at square 1, the two turns, out after 30."""
    m, p, head = board.margin, board.pitch, board.margin * 0.25
    x1, y1 = square_centre(board, 1)
    x10, _ = square_centre(board, 10)
    _, y11 = square_centre(board, 11)
    _, y21 = square_centre(board, 21)
    x30, _ = square_centre(board, 30)
    left, right = x1 - p / 2, x10 + p / 2
    inner_l, inner_r = left - m * 0.3, right + m * 0.3
    out = []
    out.extend(glyphs.arrow([(left - m * 0.8, y1), (left - m * 0.15, y1)], head))
    out.extend(glyphs.arrow([(right + m * 0.15, y1), (inner_r + m * 0.3, y1),
                             (inner_r + m * 0.3, y11), (right + m * 0.15, y11)], head))
    out.extend(glyphs.arrow([(left - m * 0.15, y11), (inner_l - m * 0.3, y11),
                             (inner_l - m * 0.3, y21), (left - m * 0.15, y21)], head))
    out.extend(glyphs.arrow([(x30 + p / 2 + m * 0.15, y21), (x30 + p / 2 + m * 0.8, y21)],
                            head))
    return out


def pixel_footprints(board, leds, width=None):
    """Each cut WS2812B pixel as it lies in the frame's layer, by LED index.
    A pixel is a piece of strip one LED long (``led.pixel_length``) and as
    wide as the strip (``led.strip_width``, the widest the layer makes room
    for). Under the squares it lies along the row, where the wires run on to
    the next square; under the stick windows, 14 mm apart, four pixels only
    fit lying across the strip, and the side lights lie the same way."""
    width = width or board.led["strip_width"]
    length = board.led["pixel_length"]
    out = {}
    for index, (x, y) in led_positions(board, leds).items():
        along = index < SQUARES
        out[index] = ("rect", x, y, length if along else width, width if along else length)
    return out


def row_channel(board, row):
    """The wiring channel of a row of squares, as (y from, y to): from just
    below the reed switches (on the square's centre line) to a clearance
    beyond the pixels (near the square's far edge). The pixels and the switch
    wiring run along it."""
    _, y = square_centre(board, row * COLUMNS + 1)
    led_y = y + led_offset(board)
    half, clear = board.led["strip_width"] / 2, board.clearance
    return (min(y - REED_CHANNEL / 2, led_y - half - clear),
            max(led_y + (board.led["chip"] + 4) / 2, led_y + half + clear))


def strip_channel(board):
    """The control strip's channel: the stick and side lights, the button,
    and the pixels under them lying across the strip."""
    half = max(board.sticks["length"], board.side_lights["window"],
               board.button["hole"] + 2 * board.button["clearance"]) / 2
    pixel = board.led["pixel_length"] / 2 + board.clearance
    return board.rim, strip_centre_y(board) + max(half + 4, pixel)


def frame_bars(board):
    """The bars between the channels, cut from the frame's middle and glued
    in place: they hold the top panel up between the rows. They stop short of
    the rim at both ends, leaving a channel down each side where the wires
    pass from row to row and to the electronics."""
    channels = sorted([strip_channel(board)] + [row_channel(board, r) for r in range(ROWS)])
    channels.append((board.height - board.rim, board.height))
    x0 = board.rim + SIDE_CHANNEL
    x1 = board.width - board.rim - SIDE_CHANNEL
    bars = []
    for (_, y0), (y1, _) in zip(channels, channels[1:]):
        if y1 - y0 >= board.bar:
            bars.append(("rect", (x0 + x1) / 2, (y0 + y1) / 2, x1 - x0, y1 - y0))
    return bars


def frame_panel(board):
    """The spacer: a rim that carries the screws, and bars cut from its
    middle that hold the top up; the gaps between them are the wiring
    channels."""
    panel = Panel("frame", board, board.frame_t, board.materials["frame"])
    rim = board.rim
    panel.cuts.append(("rect", board.width / 2, board.height / 2,
                       board.width - 2 * rim, board.height - 2 * rim))
    panel.bars = frame_bars(board)
    panel.cuts.extend(panel.bars)
    panel.outer.extend(panel.bars)
    panel.parts = 1 + len(panel.bars)
    return panel


def diffuser_pieces(board, leds=None):
    """The opal diffuser, cut in strips that each cover one channel's windows
    and lie inside that channel: glued under the top panel, a strip never
    comes between the top and a bar, so the top rests at the same height on
    the bars as on the rim. The strips do not depend on the LEDs' order."""
    leds = leds or {"sticks": SQUARES, "side_black": SQUARES + STICKS,
                    "side_white": SQUARES + STICKS + 1}
    windows = top_panel(board, leds).led_windows
    groups = [[i for i in range(SQUARES) if i // COLUMNS == row] for row in range(ROWS)]
    groups.append([i for i in windows if i >= SQUARES])
    channels = [row_channel(board, r) for r in range(ROWS)] + [strip_channel(board)]
    out = []
    for group, (c0, c1) in zip(groups, channels):
        boxes = [_extent(windows[i]) for i in group]
        x0 = min(b[0] for b in boxes) - DIFFUSER_MARGIN
        x1 = max(b[2] for b in boxes) + DIFFUSER_MARGIN
        y0 = max(min(b[1] for b in boxes) - DIFFUSER_MARGIN, c0 + board.clearance)
        y1 = min(max(b[3] for b in boxes) + DIFFUSER_MARGIN, c1 - board.clearance)
        out.append(("rect", (x0 + x1) / 2, (y0 + y1) / 2, x1 - x0, y1 - y0))
    return out


def _extent(shape):
    """A window's bounding box (x0, y0, x1, y1)."""
    if shape[0] == "circle":
        _, x, y, d = shape
        return x - d / 2, y - d / 2, x + d / 2, y + d / 2
    _, x, y, w, h = shape
    return x - w / 2, y - h / 2, x + w / 2, y + h / 2


def diffuser_panel(board, leds):
    """The diffuser strips, laid out where they go under the top panel."""
    panel = Panel("diffuser", board, board.diffuser_t, board.materials["diffuser"])
    panel.cuts = diffuser_pieces(board, leds)
    panel.outer = list(panel.cuts)
    panel.parts = len(panel.cuts)
    return panel


def perfboard_holes(board):
    cx, cy = board.width / 2, strip_centre_y(board)
    hx, hy = board.perfboard_holes[0] / 2, board.perfboard_holes[1] / 2
    return [("circle", cx + sx * hx, cy + sy * hy, board.perfboard["hole"])
            for sx, sy in ((-1, -1), (1, -1), (-1, 1), (1, 1))]


def cable_hole_centre(board):
    return (board.width / 2 - board.perfboard_size[0] / 2 - board.cable_hole[0],
            strip_centre_y(board))


def bottom_panel(board):
    """The base: a slot for every reed switch, the perfboard's standoff holes
    (the perfboard hangs underneath), a hole for the top's wires to come down,
    a clearance hole under the button; each slot's square number engraved."""
    panel = Panel("bottom", board, board.bottom_t, board.materials["bottom"])
    length, width = board.slot_size
    for square in range(1, SQUARES + 1):
        x, y = reed_slot_centre(board, square)
        panel.reed_slots[square] = ("rect", x, y, length, width)
        panel.cuts.append(panel.reed_slots[square])
        h = round(board.pitch * 0.14, 2)
        text = str(square)
        panel.engraves.extend(glyphs.number(text, x - glyphs.number_width(text, h) / 2,
                                            y + width / 2 + 2, h))
    panel.cuts.extend(perfboard_holes(board))
    panel.cuts.append(("rect",) + cable_hole_centre(board) + tuple(board.cable_hole))
    panel.cuts.append(("circle",) + button_centre(board)
                      + (board.button["hole"] + 2 * board.button["clearance"],))
    return panel


def panels(board, leds):
    """The three panels of the stack, top first."""
    return [top_panel(board, leds), frame_panel(board), bottom_panel(board)]


def sheets(board, leds):
    """Every flat part a maker cuts: the three panels and the diffuser."""
    return panels(board, leds) + [diffuser_panel(board, leds)]
