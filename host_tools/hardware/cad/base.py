"""The closed base under the board: a compartment for the Pico and the
perfboard, and the cover it stands on.

The bottom panel sits on four walls and on the four corner standoffs, which
stand on the cover. The corner screws come down through the three panels
into the standoffs; four more, from below, hold the standoffs to the cover.
Undoing the corner screws frees the top (for the LEDs and the reed switches,
which are reached from above) and then the bottom panel with the perfboard
hanging under it; the cover and walls stay where they are, screwed to the
furniture through the cover's mounting holes.

The front wall has an opening in front of the Pico's USB socket (the
perfboard layout puts the Pico upright with its socket at the players'
edge); the back wall has round vents; the cover has a hole where a wall
supply's lead comes up out of the furniture.

Walls are laid out flat for the laser, one above the other: each wall's x
runs along it as on the board (the left and right walls from the front), its
y up from the cover.
"""

from .layout import Panel, strip_centre_y

WALL_GAP = 5            # mm between the walls on their sheet


def usb_socket(board):
    """Where the Pico's USB socket is, in the board's mm: the middle of the
    Pico's edge that holds it, as the perfboard layout places it."""
    from host_tools.hardware import perfboard, wirelist
    left, _, right, bottom = perfboard.pico("U1").box
    return wirelist.pad_xy(board, ((left + right) / 2, bottom))


def usb_opening(board):
    """The opening in the front wall, in the wall's own x (along the board)
    and height above the cover: ("rect", x, z, width, height)."""
    base = board.base
    w, h = base["usb_opening"]
    z = base["depth"] - base["usb_top"] - h / 2
    return ("rect", round(usb_socket(board)[0], 2), z, w, h)


def mounting_holes(board):
    """Four holes in the cover for screws into the furniture, inside the
    compartment, clear of the perfboard and the button hanging under the top."""
    d, inset = board.base["mounting_hole"], board.base["mounting_inset"]
    ys = (board.height / 4, board.height * 3 / 4)
    return [("circle", x, y, d) for x in (inset, board.width - inset) for y in ys]


def cable_exit(board):
    """Where a wall supply's lead comes up through the cover, beside the
    perfboard's left edge."""
    x = board.width / 2 - board.perfboard_size[0] / 2 - 15
    return ("circle", x, strip_centre_y(board), board.base["cable_exit"])


def cover_panel(board):
    """The cover: the board's outline, the standoffs' screw holes at the
    corners, the mounting holes and the supply's cable hole."""
    panel = Panel("cover", board, board.base["cover"], board.base["material"])
    panel.cuts.extend(mounting_holes(board))
    panel.cuts.append(cable_exit(board))
    return panel


def walls(board):
    """The four walls as (name, length, where it stands): the front and back
    walls run the board's whole width, the ends fit between them."""
    t = board.base["wall"]
    return [("front", board.width, (0, 0)), ("back", board.width, (0, board.height - t)),
            ("left", board.height - 2 * t, (0, t)),
            ("right", board.height - 2 * t, (board.width - t, t))]


def vents(board):
    """Round vents along the back wall, at mid-height: ("circle", x, z, d)."""
    base = board.base
    n, d = base["vents"], base["vent"]
    return [("circle", board.width * (i + 1) / (n + 1), base["depth"] / 2, d)
            for i in range(n)]


def walls_panel(board):
    """The four walls on one sheet, front at the bottom, each with its holes."""
    depth = board.base["depth"]
    panel = Panel("walls", board, board.base["wall"], board.base["material"])
    panel.height = 4 * depth + 3 * WALL_GAP
    outlines, holes = [], []
    for i, (name, length, _) in enumerate(walls(board)):
        y0 = i * (depth + WALL_GAP)
        outlines.append(("rect", length / 2, y0 + depth / 2, length, depth))
        if name == "front":
            _, x, z, w, h = usb_opening(board)
            holes.append(("rect", x, y0 + z, w, h))
        if name == "back":
            holes.extend(("circle", x, y0 + z, d) for _, x, z, d in vents(board))
    panel.cuts = outlines + holes
    panel.outer = list(outlines)
    panel.parts = len(outlines)
    return panel


def base_sheets(board):
    return [cover_panel(board), walls_panel(board)]

