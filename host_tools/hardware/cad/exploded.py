"""The exploded assembly drawing (``hardware/cad/exploded.svg``): every part
a maker cuts or prints, projected from its solid, the layers pulled apart
upwards in the order they go together, each named as the parts list names
it.

The view looks at the board from the players' left, in front and above. Each
part's visible edges come from the CAD kernel's hidden-line projection of
that part alone, so a part drawn higher up does not hide the one under it:
the drawing shows how the layers stack, not a photograph. Imported only
when the files are generated (it needs build123d).
"""

import math

from build123d import Compound, Edge, GeomType, Pos

from . import bom, layout, pieces, solids
from .drawing import fmt

GAP = 60                        # mm between two layers, pulled apart
SCALE = 0.5                     # drawing mm per board mm
LOOK_FROM = (-0.55, -1.0, 0.9)  # the direction the viewer looks from
LABEL_ROOM = 120                # mm of page right of the drawing, for the names
LINE = 6                        # mm between two names at least


def layers(board, panel_list):
    """(bom key, the part's solids in place) from the cover up."""
    by_name = {p.name: p for p in panel_list}
    lift = board.base["cover"] + board.base["depth"]
    z = {"cover": 0, "bottom": lift, "frame": lift + board.bottom_t,
         "diffuser": lift + board.bottom_t + board.frame_t - board.diffuser_t,
         "top": lift + board.bottom_t + board.frame_t}
    out = [("cover", [Pos(0, 0, z["cover"]) * solids.panel_solid(by_name["cover"])]),
           ("walls", solids.wall_solids(board))]
    for name in ("bottom", "frame", "diffuser", "top"):
        out.append((name, [Pos(0, 0, z[name]) * solids.panel_solid(by_name[name])]))
    surface = lift + board.stack
    for i, kind in enumerate(pieces.KINDS):
        x, y = layout.square_centre(board, i + 1)
        out.append((kind, [Pos(x, y, surface) * solids.piece_solid(board, kind)]))
    return out


def _camera(board):
    centre = (board.width / 2, board.height / 2, 0)
    far = 3000 / math.sqrt(sum(c * c for c in LOOK_FROM))
    origin = tuple(c + far * d for c, d in zip(centre, LOOK_FROM))
    return origin, centre


def _points(edge):
    """An edge as the points of a polyline: a straight one by its ends, a
    curve by sixteen points along it."""
    n = 2 if edge.geom_type == GeomType.LINE else 16
    return [edge.position_at(i / (n - 1)) for i in range(n)]


def _project(shape, origin, centre):
    visible, _ = shape.project_to_viewport(origin, (0, 0, 1), centre)
    return [[(p.X, p.Y) for p in _points(e)] for e in visible]


def _anchor(shapes, origin, centre):
    """Where a part's name points: the middle of its right-hand edge, on top,
    in the view's plane."""
    box = Compound(shapes).bounding_box()
    x, y, z = box.max.X, (box.min.Y + box.max.Y) / 2, box.max.Z
    mark = Edge.make_line((x, y, z), (x + 0.01, y, z))
    visible, hidden = mark.project_to_viewport(origin, (0, 0, 1), centre)
    p = (visible + hidden)[0].position_at(0)
    return p.X, p.Y


def drawn_parts(board, panel_list):
    """(name, polylines in the view's plane, where its name points) for every
    part, exploded."""
    origin, centre = _camera(board)
    names = bom.solid_names(board)
    out = []
    for k, (key, shapes) in enumerate(layers(board, panel_list)):
        moved = [Pos(0, 0, k * GAP) * shape for shape in shapes]
        lines = []
        for shape in moved:
            lines += _project(shape, origin, centre)
        out.append((names[key], lines, _anchor(moved, origin, centre)))
    return out


def exploded_svg(board, panel_list):
    """The drawing as SVG text, in mm."""
    parts = drawn_parts(board, panel_list)
    xs = [x for _, lines, _ in parts for line in lines for x, _ in line]
    ys = [y for _, lines, _ in parts for line in lines for _, y in line]
    x0, y1 = min(xs), max(ys)
    width = (max(xs) - x0) * SCALE + 20
    height = (y1 - min(ys)) * SCALE + 30

    def at(x, y):
        return 10 + (x - x0) * SCALE, 20 + (y1 - y) * SCALE

    body, labels = [], []
    for name, lines, anchor in parts:
        body.append('<g class="part" data-name="%s">' % name)
        for line in lines:
            body.append('<polyline points="%s"/>' % " ".join(
                "%s,%s" % tuple(fmt(v) for v in at(x, y)) for x, y in line))
        body.append("</g>")
        labels.append([at(*anchor), name])
    body += _labels(labels, width + 20)
    page_w = width + LABEL_ROOM
    head = ['<?xml version="1.0" encoding="UTF-8"?>',
            '<svg xmlns="http://www.w3.org/2000/svg" width="%smm" height="%smm" '
            'viewBox="0 0 %s %s">' % (fmt(page_w), fmt(height), fmt(page_w), fmt(height)),
            "<title>Senet board, exploded: the parts from the cover up, named as in "
            "hardware/bom.csv</title>",
            "<style>polyline{fill:none;stroke:#000;stroke-width:0.2}"
            ".lead{stroke:#666;stroke-width:0.15}"
            ".label{font:3.5px sans-serif;fill:#000}</style>",
            '<rect x="0" y="0" width="%s" height="%s" fill="#fff"/>' % (fmt(page_w),
                                                                        fmt(height)),
            '<text x="10" y="10" style="font:bold 5px sans-serif">Senet board, exploded '
            "(the layers %s mm apart, drawn at 1:%s)</text>" % (GAP, fmt(1 / SCALE))]
    return "\n".join(head + body + ["</svg>"]) + "\n"


def _labels(labels, column):
    """Each name in a column right of the drawing, at its part's height but
    at least LINE apart, with a leader to the part."""
    out = []
    last = None
    for (px, py), name in sorted(labels, key=lambda item: item[0][1]):
        y = py if last is None else max(py, last + LINE)
        last = y
        out.append('<line class="lead" x1="%s" y1="%s" x2="%s" y2="%s"/>'
                   % (fmt(px), fmt(py), fmt(column - 1), fmt(y - 1)))
        out.append('<text class="label" x="%s" y="%s">%s</text>' % (fmt(column), fmt(y),
                                                                   name))
    return out


def write_exploded(board, panel_list, path):
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write(exploded_svg(board, panel_list))

