"""The panels and pieces as parametric solids (build123d), exported as STEP for
editing in FreeCAD or Fusion and the pieces as STL for printing.

Imported only when the files are generated: a player who installs the
simulator never needs the CAD kernel.
"""

import math
import re
import struct

from build123d import Align, Box, Color, Compound, Cone, Cylinder, Pos, Rot, export_step

from . import layout, pieces

BASE = (Align.CENTER, Align.CENTER, Align.MIN)
# STL: chord error and angle of the triangles; fine enough to print, small files.
STL_TOLERANCE = 0.05
STL_ANGLE = 0.2
# OpenCASCADE stamps the time into a STEP file's header; the files are given a
# fixed one so that regenerating changes nothing.
STEP_STAMP = "2026-12-01T00:00:00"


def _tool(shape, thickness):
    """The solid a cut shape removes from (or a bar adds to) a panel."""
    kind, v = shape[0], shape[1:]
    if kind == "circle":
        return Pos(v[0], v[1], -1) * Cylinder(v[2] / 2, thickness + 2, align=BASE)
    return Pos(v[0], v[1], -1) * Box(v[2], v[3], thickness + 2, align=BASE)


def panel_solid(panel):
    """A panel as a solid: its outline, less its holes; the frame's bars are
    separate solids cut from its middle and are added back in place."""
    t = panel.thickness
    if panel.name == "diffuser":                        # separate strips, no outline
        return Compound([Pos(s[1], s[2], 0) * Box(s[3], s[4], t, align=BASE)
                         for s in panel.cuts])
    _, x, y, w, h = panel.cuts[0]
    body = Pos(x, y, 0) * Box(w, h, t, align=BASE)
    holes = [_tool(s, t) for s in panel.cuts[1:] if s not in panel.bars]
    body = body.cut(*holes)
    bars = [Pos(s[1], s[2], 0) * Box(s[3], s[4], t, align=BASE) for s in panel.bars]
    return Compound([body] + bars) if bars else body


def piece_solid(board, kind):
    """A spool or a cone standing on z = 0, with the magnet pocket in its base."""
    p = pieces.shape(board, kind)
    r, h = p["diameter"] / 2, p["height"]
    if kind == "spool":
        f, w, c = p["flange"], p["waist"] / 2, p["chamfer"]
        body = (Cylinder(r, f, align=BASE)
                + Pos(0, 0, f) * Cylinder(w, h - 2 * f - c, align=BASE)
                + Pos(0, 0, h - f - c) * Cone(w, r, c, align=BASE)
                + Pos(0, 0, h - f) * Cylinder(r, f, align=BASE))
    else:
        plinth = p["plinth"]
        body = (Cylinder(r, plinth, align=BASE)
                + Pos(0, 0, plinth) * Cone(r, p["tip"] / 2, h - plinth, align=BASE))
    bore = board.pocket_diameter / 2
    pocket = (Pos(0, 0, -1) * Cylinder(bore, board.pocket_depth + 1, align=BASE)
              + Pos(0, 0, board.pocket_depth) * Cone(bore, 0, bore * pieces.RISE,
                                                     align=BASE))
    return body - pocket


def board_assembly(board, panel_list):
    """The three panels stacked, with the pieces on their start squares (K2:
    alternating from square 1, black's spools first)."""
    lift = board.base["cover"] + board.base["depth"]        # the stack stands on the base
    z = {"cover": 0, "bottom": lift, "frame": lift + board.bottom_t,
         "top": lift + board.bottom_t + board.frame_t,
         "diffuser": lift + board.bottom_t + board.frame_t - board.diffuser_t}
    parts = wall_solids(board)
    for panel in panel_list:
        if panel.name == "walls":
            continue
        solid = Pos(0, 0, z[panel.name]) * panel_solid(panel)
        solid.label = "%s panel" % panel.name
        solid.color = Color(0.8, 0.65, 0.45)
        parts.append(solid)
    surface = lift + board.stack
    made = {kind: piece_solid(board, kind) for kind in pieces.KINDS}
    for i in range(2 * board.pieces["count"]):
        kind = pieces.KINDS[i % 2]
        x, y = layout.square_centre(board, i + 1)
        piece = Pos(x, y, surface) * made[kind]
        piece.label = "%s on square %d" % (kind, i + 1)
        piece.color = Color(0.1, 0.1, 0.1) if kind == "spool" else Color(0.95, 0.95, 0.9)
        parts.append(piece)
    return Compound(parts, label="Senet board")


def wall_solids(board):
    """The base's four walls standing on the cover, the front one with the
    USB opening, the back one with its vents."""
    from . import base
    t, depth, floor = board.base["wall"], board.base["depth"], board.base["cover"]
    out = []
    for name, length, (x, y) in base.walls(board):
        along_x = name in ("front", "back")
        size = (length, t) if along_x else (t, length)
        solid = Pos(x + size[0] / 2, y + size[1] / 2, floor) * Box(size[0], size[1], depth,
                                                                  align=BASE)
        if name == "front":
            _, ux, uz, w, h = base.usb_opening(board)
            solid = solid - Pos(ux, t / 2, floor + uz) * Box(w, t + 2, h)
        if name == "back":
            for _, vx, vz, d in base.vents(board):
                solid = solid - (Pos(vx, y + t / 2, floor + vz) * Rot(90, 0, 0)
                                 * Cylinder(d / 2, t + 2))
        solid.label = "%s wall" % name
        solid.color = Color(0.8, 0.65, 0.45)
        out.append(solid)
    return out


def write_step(shape, path):
    export_step(shape, path)
    with open(path, encoding="utf-8") as f:
        text = f.read()
    text = re.sub(r"'\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d'", "'%s'" % STEP_STAMP, text, count=1)
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write(text)


def write_stl(shape, path):
    """A binary STL of the shape's triangles. The pointed roof of the magnet
    pocket meets the axis in one point, where the kernel's mesher leaves a
    triangle with two corners in that point; slicers call such a mesh open,
    so those triangles, which have no area, are left out."""
    points, triangles = shape.tessellate(STL_TOLERANCE, STL_ANGLE)
    corners = [(p.X, p.Y, p.Z) for p in points]
    out = []
    for tri in triangles:
        a, b, c = (corners[i] for i in tri)
        if a == b or b == c or a == c:
            continue
        u = [b[k] - a[k] for k in range(3)]
        v = [c[k] - a[k] for k in range(3)]
        n = (u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0])
        size = math.sqrt(sum(x * x for x in n)) or 1.0
        out.append(struct.pack("<12fH", *([x / size for x in n] + list(a + b + c) + [0])))
    with open(path, "wb") as f:
        f.write(b"Senet board piece, binary STL, mm".ljust(80, b" "))
        f.write(struct.pack("<I", len(out)))
        f.write(b"".join(out))
