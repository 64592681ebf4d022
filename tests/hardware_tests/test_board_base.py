"""The board stands on a closed base: a compartment under the bottom panel for
the Pico and the perfboard, walled all round, with an opening in the front
wall where the Pico's USB socket is, and a cover with holes for screwing the
board to a museum's furniture.

The positions are read from the sizes table docs/hardware.md gives (the one
museum-hardware.md points to) and looked for in the files a maker cuts and in
the assembled board's STEP file; the Pico's socket is placed from the
perfboard layout, so the opening is checked to be in front of it.
"""

import json
import os
import re

import pytest

from host_tools.hardware import perfboard, wirelist
from host_tools.hardware.cad import params
import paths
from hardware_tests.cadfiles import cad_libraries

ROOT = paths.ROOT


def read(path):
    with open(os.path.join(ROOT, path), encoding="utf-8") as f:
        return f.read()


@pytest.fixture(scope="module")
def made(tmp_path_factory):
    from host_tools.hardware.cad import generate as cadgen
    cad_libraries()
    out = tmp_path_factory.mktemp("base")
    cadgen.write_all(out=str(out))
    return out / "hardware" / "cad"


def doc_row(name):
    """A row of the sizes table in docs/hardware.md, its numbers."""
    line = next(x for x in read("docs/hardware.md").splitlines()
                if x.startswith("| %s |" % name))
    return [float(v) for v in re.findall(r"-?\d+(?:\.\d+)?", line.split("|")[2])]


def circles(path):
    import ezdxf
    return [(e.dxf.center.x, e.dxf.center.y, 2 * e.dxf.radius)
            for e in ezdxf.readfile(str(path)).modelspace()
            if e.dxftype() == "CIRCLE" and e.dxf.layer == "CUT"]


def rects(path):
    import ezdxf
    out = []
    for e in ezdxf.readfile(str(path)).modelspace():
        if e.dxftype() == "LWPOLYLINE" and e.dxf.layer == "CUT":
            xs = [p[0] for p in e.get_points()]
            ys = [p[1] for p in e.get_points()]
            out.append((min(xs), min(ys), max(xs), max(ys)))
    return out


def test_the_cover_has_the_mounting_holes_the_guide_gives(made):
    """docs: '4 x 4.5 mm at (60, 50), (60, 150), (380, 50), (380, 150)'."""
    board = params.load()
    numbers = doc_row("mounting holes (cover)")
    count, hole, spots = int(numbers[0]), numbers[1], numbers[2:]
    assert count == 4 and len(spots) == 8
    spots = list(zip(spots[::2], spots[1::2]))
    kerf = board.kerf
    found = [(x, y) for x, y, d in circles(made / "cover.dxf") if abs(d + kerf - hole) < 0.01]
    assert len(found) == 4
    for (x, y), (sx, sy) in zip(sorted(found), sorted(spots)):
        assert (x, y) == pytest.approx((sx, sy), abs=0.01)
    wall = board.data["base"]["wall"]
    for x, y in spots:                       # inside the compartment, clear of the walls
        assert wall + hole < x < board.width - wall - hole
        assert wall + hole < y < board.height - wall - hole


def usb_socket(board):
    """Where the Pico's USB socket is, from the perfboard layout: the middle of
    the Pico's edge that holds it, in the board's mm."""
    left, top, right, bottom = perfboard.pico("U1").box
    return wirelist.pad_xy(board, ((left + right) / 2, bottom))


def test_the_front_wall_has_the_usb_opening_in_front_of_the_picos_socket(made):
    """docs: '14 x 12 mm, centred 246.7 mm from the left edge, its top 2 mm
    under the bottom panel'."""
    board = params.load()
    w, h, x, top = doc_row("USB opening (front wall)")
    socket_x, socket_y = usb_socket(board)
    assert abs(socket_x - x) < 0.5                 # in front of the socket
    assert socket_y < 15                           # the socket faces the front wall
    depth = board.data["base"]["depth"]
    walls = rects(made / "walls.dxf")
    front = walls[0]
    assert front[2] - front[0] == pytest.approx(board.width + board.kerf, abs=0.01)
    kerf = board.kerf
    openings = [r for r in walls[4:] if abs(r[2] - r[0] + kerf - w) < 0.01
                and abs(r[3] - r[1] + kerf - h) < 0.01]
    assert len(openings) == 1
    o = openings[0]
    assert (o[0] + o[2]) / 2 - front[0] - kerf / 2 == pytest.approx(x, abs=0.01)
    assert front[3] - kerf / 2 - (o[3] + kerf / 2) == pytest.approx(top, abs=0.01)
    assert o[1] > front[1] and o[3] < front[3]     # a closed hole, walls above and below
    assert top + h < depth


def test_the_assembled_board_is_open_only_where_the_guide_says(made):
    """In board.step the opening and the mounting holes go through; a point of
    the front wall beside the opening, and of the cover beside a hole, is solid."""
    from build123d import import_step
    board = params.load()
    shape = import_step(str(made / "board.step"))
    solids = shape.solids()
    base = board.data["base"]
    cover, wall = base["cover"], base["wall"]
    w, h, x, top = doc_row("USB opening (front wall)")
    z = cover + base["depth"] - top - h / 2

    def solid(px, py, pz):
        return any(s.is_inside((px, py, pz)) for s in solids)

    assert not solid(x, wall / 2, z)
    assert solid(x + w, wall / 2, z)
    numbers = doc_row("mounting holes (cover)")
    for hx, hy in zip(numbers[2::2], numbers[3::2]):
        assert not solid(hx, hy, cover / 2)
        assert solid(hx + numbers[1], hy, cover / 2)


def test_the_museum_guide_and_the_cad_agree():
    """No screws through holes that do not exist, no reed 'replaced from below'
    while the reeds are glued inside the stack."""
    text = read("docs/museum-hardware.md")
    assert "replaced from below" not in text
    assert "mounting holes" in text and "USB opening" in text
    assert "docs/hardware.md" in text
