"""The panels and pieces as parametric solids (build123d), exported as STEP for
editing in FreeCAD or Fusion and the pieces as STL for printing.

Imported only when the files are generated: a player who installs the
simulator never needs the CAD kernel.
"""

import re

from build123d import (Align, Box, Color, Compound, Cone, Cylinder, Pos, export_step,
                       export_stl)

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
        f = p["flange"]
        body = (Cylinder(r, f, align=BASE)
                + Pos(0, 0, f) * Cylinder(p["waist"] / 2, h - 2 * f, align=BASE)
                + Pos(0, 0, h - f) * Cylinder(r, f, align=BASE))
    else:
        plinth = p["plinth"]
        body = (Cylinder(r, plinth, align=BASE)
                + Pos(0, 0, plinth) * Cone(r, p["tip"] / 2, h - plinth, align=BASE))
    pocket = Pos(0, 0, -1) * Cylinder(board.pocket_diameter / 2, board.pocket_depth + 1,
                                      align=BASE)
    return body - pocket


def board_assembly(board, panel_list):
    """The three panels stacked, with the pieces on their start squares (K2:
    alternating from square 1, black's spools first)."""
    z = {"bottom": 0, "frame": board.bottom_t, "top": board.bottom_t + board.frame_t,
         "diffuser": board.bottom_t + board.frame_t - board.diffuser_t}
    parts = []
    for panel in panel_list:
        solid = Pos(0, 0, z[panel.name]) * panel_solid(panel)
        solid.label = "%s panel" % panel.name
        solid.color = Color(0.8, 0.65, 0.45)
        parts.append(solid)
    surface = board.stack
    made = {kind: piece_solid(board, kind) for kind in pieces.KINDS}
    for i in range(2 * board.pieces["count"]):
        kind = pieces.KINDS[i % 2]
        x, y = layout.square_centre(board, i + 1)
        piece = Pos(x, y, surface) * made[kind]
        piece.label = "%s on square %d" % (kind, i + 1)
        piece.color = Color(0.1, 0.1, 0.1) if kind == "spool" else Color(0.95, 0.95, 0.9)
        parts.append(piece)
    return Compound(parts, label="Senet board")


def write_step(shape, path):
    export_step(shape, path)
    with open(path, encoding="utf-8") as f:
        text = f.read()
    text = re.sub(r"'\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d'", "'%s'" % STEP_STAMP, text, count=1)
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write(text)


def write_stl(shape, path):
    export_stl(shape, path, tolerance=STL_TOLERANCE, angular_tolerance=STL_ANGLE)
