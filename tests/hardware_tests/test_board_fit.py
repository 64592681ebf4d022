"""The parts fit together as the build guide says: measured on the files a
maker cuts and prints, not on the generator's own numbers.

The 4 mm layer between the panels holds the frame's rim and bars, the cut
WS2812B pixels (sold 10 mm and 12 mm wide, 60 to the metre) and the 1 mm opal
diffuser. Every pixel must lie clear of every bar and of the rim, for both
strip widths, and the diffuser must lie in the channels only: a diffuser over
a bar would hold the top 1 mm higher there than on the rim.
"""

import json
import math
import os

import pytest

import paths

ROOT = paths.ROOT
PIXEL_LENGTH = 1000 / 60            # a strip of 60 LEDs a metre, cut at its pads
STRIP_WIDTHS = (10, 12)             # the two widths WS2812B strips are sold in


def leds():
    with open(os.path.join(ROOT, "hardware", "pinmap.json"), encoding="utf-8") as f:
        return json.load(f)["leds"]




def dxf_rects(path, layer="CUT"):
    """Closed rectangles as (x0, y0, x1, y1)."""
    import ezdxf
    out = []
    for e in ezdxf.readfile(str(path)).modelspace():
        if e.dxftype() == "LWPOLYLINE" and e.dxf.layer == layer:
            xs = [p[0] for p in e.get_points()]
            ys = [p[1] for p in e.get_points()]
            out.append((min(xs), min(ys), max(xs), max(ys)))
    return out


def c1_centre(data, square):
    p, m, strip = data["pitch"], data["margin"], data["strip"]
    row, k = divmod(square - 1, 10)
    col = 9 - k if row == 1 else k
    return m + (col + 0.5) * p, m + strip + (2.5 - row) * p


def pixels(data, width):
    """Each cut pixel's footprint: under its square's window, lying along the
    row; under the stick and side-light windows, lying across the strip (four
    16.7 mm pixels do not fit along a row of windows 14 mm apart)."""
    strip = leds()
    corner = data["pitch"] / 2 - data["led"]["from_edge"]
    out = []
    for square in range(1, 31):
        x, y = c1_centre(data, square)
        out.append(box(x + corner, y + corner, PIXEL_LENGTH, width))
    cx, cy = c1_centre(data, 1)[0] - data["pitch"] / 2 + 5 * data["pitch"], \
        data["margin"] + data["strip"] / 2
    spacing = data["sticks"]["spacing"]
    for i in range(4):
        out.append(box(cx + (i - 1.5) * spacing, cy, width, PIXEL_LENGTH))
    for side in (-1, 1):
        out.append(box(cx + side * data["side_lights"]["distance"], cy, width, PIXEL_LENGTH))
    assert len(out) == strip["side_white"] + 1
    return out


def box(x, y, w, h):
    return (x - w / 2, y - h / 2, x + w / 2, y + h / 2)


def gap(a, b):
    """How far apart two rectangles are; negative when they overlap."""
    dx = max(b[0] - a[2], a[0] - b[2])
    dy = max(b[1] - a[3], a[1] - b[3])
    if dx < 0 and dy < 0:
        return max(dx, dy)
    return math.hypot(max(dx, 0), max(dy, 0))


def inside(a, opening):
    """How far a rectangle stays inside an opening; negative when it pokes out."""
    return min(a[0] - opening[0], a[1] - opening[1], opening[2] - a[2], opening[3] - a[3])


def grow(r, d):
    return (r[0] - d, r[1] - d, r[2] + d, r[3] + d)


def frame(made):
    """The frame's cut paths: outline, the rim's opening, the bars."""
    rects = dxf_rects(made["cad"] / "frame.dxf")
    return rects[0], rects[1], rects[2:]


def frame_as_cut(made):
    """The rim's opening and the bars as the laser leaves them: it burns half
    a kerf either side of each path, so a part ends half a kerf inside its
    path and a hole half a kerf outside."""
    kerf = made["data"]["kerf"]
    _, opening, bars = frame(made)
    return grow(opening, kerf / 2), [grow(b, -kerf / 2) for b in bars]


@pytest.mark.parametrize("width", STRIP_WIDTHS)
def test_every_pixel_lies_clear_of_the_bars_the_rim_and_its_neighbours(made, width):
    data = made["data"]
    opening, bars = frame_as_cut(made)
    footprints = pixels(data, width)
    clear = [gap(p, b) for p in footprints for b in bars]
    clear += [inside(p, opening) for p in footprints]
    clear += [gap(a, b) for i, a in enumerate(footprints) for b in footprints[i + 1:]]
    least = min(clear)
    print("%s mm strip at a %s mm pitch: %.2f mm clearance" % (width, data["pitch"], least))
    assert least >= data["panels"]["frame"]["clearance"] - 1e-6, least


def test_the_diffuser_lies_in_the_channels_and_covers_every_window(made):
    data = made["data"]
    opening, bars = frame_as_cut(made)
    pieces = [grow(p, -data["kerf"] / 2) for p in dxf_rects(made["cad"] / "diffuser.dxf")]
    assert pieces
    for piece in pieces:
        assert inside(piece, opening) > 0, piece
        for bar in bars:
            assert gap(piece, bar) > 0, (piece, bar)
    kerf = data["kerf"]
    windows = [grow(b, kerf / 2) for b in dxf_rects(made["cad"] / "top.dxf")][1:] + [
        box(x, y, d + kerf, d + kerf) for x, y, d in top_circles(made)]
    for window in windows:
        assert any(inside(window, piece) > 0 for piece in pieces), window


def top_circles(made):
    """The top panel's LED windows and side lights (not the screw or button holes)."""
    import ezdxf
    data = made["data"]
    sizes = (data["led"]["window"] - data["kerf"],
             data["side_lights"]["window"] - data["kerf"])
    out = []
    for e in ezdxf.readfile(str(made["cad"] / "top.dxf")).modelspace():
        if e.dxftype() == "CIRCLE" and e.dxf.layer == "CUT":
            d = 2 * e.dxf.radius
            if any(abs(d - s) < 0.01 for s in sizes):
                out.append((e.dxf.center.x, e.dxf.center.y, d))
    assert len(out) == 32
    return out


def dxf_circles(path):
    import ezdxf
    return [(e.dxf.center.x, e.dxf.center.y, 2 * e.dxf.radius)
            for e in ezdxf.readfile(str(path)).modelspace()
            if e.dxftype() == "CIRCLE" and e.dxf.layer == "CUT"]


def test_the_cut_paths_allow_for_the_lasers_kerf(made):
    """The laser burns away half its kerf either side of the path: a part's
    outline is cut half a kerf outside it, a hole's half a kerf inside, so
    both come out at their drawn size."""
    data = made["data"]
    kerf = data["kerf"]
    assert kerf > 0
    width = 10 * data["pitch"] + 2 * data["margin"]
    height = 3 * data["pitch"] + data["strip"] + 2 * data["margin"]
    outline, opening, bars = frame(made)
    assert outline == pytest.approx((-kerf / 2, -kerf / 2, width + kerf / 2,
                                     height + kerf / 2), abs=1e-3)
    rim = data["panels"]["frame"]["rim"]
    assert opening == pytest.approx((rim + kerf / 2, rim + kerf / 2, width - rim - kerf / 2,
                                     height - rim - kerf / 2), abs=1e-3)
    first = bars[0]                                        # a part: it grows
    assert first[0] == pytest.approx(rim + 10 - kerf / 2, abs=1e-3)
    screws = [c for c in dxf_circles(made["cad"] / "bottom.dxf")
              if abs(c[2] - (data["screw_hole"] - kerf)) < 1e-3]
    assert len(screws) == 4                                # holes shrink


def test_the_drawing_gives_every_bars_glue_position(made):
    """A maker glues each bar where the drawing says: its edges measured from
    the board's front edge (y) and its left edge (x), as the frame file cuts it."""
    import re
    text = (made["cad"] / "board-drawing.svg").read_text()
    said = [tuple(float(v) for v in m) for m in re.findall(
        r"bar \d: y ([\d.]+) to ([\d.]+) mm, x ([\d.]+) to ([\d.]+) mm", text)]
    _, bars = frame_as_cut(made)
    assert len(said) == len(bars) >= 3
    for (y0, y1, x0, x1), bar in zip(said, sorted(bars, key=lambda b: b[1])):
        assert (x0, y0, x1, y1) == pytest.approx(bar, abs=0.05)


def overhangs(mesh):
    """Each downward face's tilt from vertical, in degrees, and its lowest
    height: a wall is 0, a flat ceiling 90. Faces on the bed are left out."""
    import numpy
    normals = mesh.face_normals
    low = mesh.vertices[mesh.faces][:, :, 2].min(axis=1)
    down = (normals[:, 2] < -1e-9) & (low > 1e-6)
    tilt = numpy.degrees(numpy.arcsin(numpy.clip(-normals[down, 2], 0, 1)))
    return tilt, low[down]


@pytest.mark.parametrize("kind", ("spool", "cone"))
def test_the_pieces_print_base_down_without_supports(made, kind):
    """No face of a piece that faces down, other than its base on the bed,
    leans more than 45 degrees from vertical: an FDM printer builds it with no
    support, the magnet pocket's roof included."""
    import trimesh
    mesh = trimesh.load(str(made["cad"] / ("%s.stl" % kind)))
    tilt, low = overhangs(mesh)
    worst = float(tilt.max()) if len(tilt) else 0.0
    print("%s at a %s mm pitch: worst overhang %.2f degrees from vertical"
          % (kind, made["data"]["pitch"], worst))
    assert worst <= 45.0 + 0.01, sorted(zip(tilt, low))[-3:]
