"""The wooden board a maker cuts and prints is what hardware/board.json says.

The generator is run twice, at the shipped 40 mm pitch and at 30 mm, into
temporary folders; the files it writes are then measured the way a maker would
use them: the DXF files read back with ezdxf, the STL meshes with trimesh,
the STEP files with build123d. Positions are checked against the square
centres worked out here from C1 (the snake) and the LED order from
hardware/pinmap.json, not against the generator's own layout code.

Committed files are compared with a regeneration: the text files (SVG, CSV,
docs) byte for byte; the DXF files entity by entity (ezdxf writes its version
into the header); the STL and STEP files by their geometry (volume, area,
bounds), since another OpenCASCADE build may order triangles differently.
"""

import copy
import csv
import io
import json
import math
import os
import subprocess
import sys

import pytest

from host_tools.hardware.cad import bom, layout, params, pieces
from host_tools.hardware.cad import generate as cadgen
import paths
from hardware_tests.cadfiles import cad_libraries

ROOT = paths.ROOT
CAD = os.path.join(ROOT, "hardware", "cad")
PANELS = ("top", "frame", "bottom")


def read(path):
    with open(os.path.join(ROOT, path), encoding="utf-8") as f:
        return f.read()


def shipped():
    return json.loads(read("hardware/board.json"))


def leds():
    return json.loads(read("hardware/pinmap.json"))["leds"]


# --- C1, worked out independently of the generator ---------------------------

def c1_centre(data, square):
    """Square centre in mm on the panel, y up, row 1 furthest from the players:
    row 1 runs 1..10 left to right, row 2 11..20 right to left, row 3 21..30."""
    p, m, strip = data["pitch"], data["margin"], data["strip"]
    row = (square - 1) // 10
    k = (square - 1) % 10
    col = 9 - k if row == 1 else k
    return m + (col + 0.5) * p, m + strip + (2.5 - row) * p


def test_c1_snake_corners():
    data = shipped()
    p = data["pitch"]
    x1, y1 = c1_centre(data, 1)
    assert c1_centre(data, 10) == (x1 + 9 * p, y1)
    assert c1_centre(data, 11) == (x1 + 9 * p, y1 - p)       # 11 under 10
    assert c1_centre(data, 21) == (x1, y1 - 2 * p)           # 21 under 20
    board = params.Board(data)
    for square in range(1, 31):
        assert layout.square_centre(board, square) == c1_centre(data, square)


# --- generating ----------------------------------------------------------------



def dxf_entities(path, layer=None):
    import ezdxf
    doc = ezdxf.readfile(str(path))
    return [e for e in doc.modelspace() if layer is None or e.dxf.layer == layer]


def rects(entities):
    """Closed rectangles as (centre x, centre y, width, height)."""
    out = []
    for e in entities:
        if e.dxftype() == "LWPOLYLINE":
            pts = [(p[0], p[1]) for p in e.get_points()]
            xs, ys = [p[0] for p in pts], [p[1] for p in pts]
            out.append(((min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2,
                        max(xs) - min(xs), max(ys) - min(ys)))
    return out


def circles(entities):
    return [(e.dxf.center.x, e.dxf.center.y, 2 * e.dxf.radius)
            for e in entities if e.dxftype() == "CIRCLE"]


def test_generation_writes_every_file(made):
    names = sorted(os.path.basename(p) for p in made["written"])
    assert names == sorted(["top.dxf", "top.svg", "frame.dxf", "frame.svg", "bottom.dxf",
                            "bottom.svg", "board-drawing.svg", "board.step", "spool.stl",
                            "spool.step", "cone.stl", "cone.step", "bom.csv",
                            "hardware.md", "diffuser.dxf", "diffuser.svg", "cover.dxf",
                            "cover.svg", "walls.dxf", "walls.svg", "exploded.svg"]
                           + ["board-drawing-a4-%d.svg" % n for n in range(1, 7)])
    for path in made["written"]:
        assert (made["out"] / path).stat().st_size > 0, path


# --- the DXF files -----------------------------------------------------------

@pytest.mark.parametrize("name", PANELS)
def test_dxf_holds_only_closed_cut_paths_in_millimetres(made, name):
    import ezdxf
    doc = ezdxf.readfile(str(made["out"] / "hardware" / "cad" / ("%s.dxf" % name)))
    assert doc.units == ezdxf.units.MM
    assert doc.layers.get("CUT").color == 1          # red: cut
    assert doc.layers.get("ENGRAVE").color == 5      # blue: engrave
    cut = [e for e in doc.modelspace() if e.dxf.layer == "CUT"]
    assert cut
    for e in cut:
        assert e.dxftype() in ("CIRCLE", "LWPOLYLINE"), e.dxftype()
        if e.dxftype() == "LWPOLYLINE":
            assert e.closed
    assert {e.dxf.layer for e in doc.modelspace()} <= {"CUT", "ENGRAVE"}


def test_every_reed_slot_has_its_glass_end_under_its_squares_centre(made):
    """The reed lies along its row with the end of its glass under the square's
    centre, where the disc magnet's field runs along the reed (see
    docs/hardware.md, section 7); its middle, where it would not close, lies
    beyond the reach of a piece standing anywhere in the square."""
    data, board = made["data"], made["board"]
    glass, dia = data["reed"]["glass_length"], data["reed"]["glass_diameter"]
    slots = [r for r in rects(dxf_entities(made["out"] / "hardware/cad/bottom.dxf", "CUT"))
             if abs(r[3] - (dia + data["reed"]["slot_clearance"] - data["kerf"])) < 0.01]
    assert len(slots) == 30
    play = (data["pitch"] - board.piece_diameter) / 2
    for square in range(1, 31):
        cx, cy = c1_centre(data, square)
        near = [s for s in slots if abs(s[1] - cy) < 0.5 and abs(s[0] - cx) < data["pitch"] / 2]
        assert len(near) == 1, square
        x, y, w, h = near[0]
        assert w > h                                  # along the row
        glass_end = x - glass / 2
        assert math.hypot(glass_end - cx, y - cy) <= 0.5, square
        assert x - cx > play + 0.5                    # the reed's middle, out of reach


def test_every_led_window_is_over_its_led(made):
    """LED i shows square i+1 (pinmap.json); its window is in that square's far
    right corner, clear of a piece standing in the middle; then the four stick
    lights in a row in the control strip, black's side light left of them and
    white's right."""
    data, board, strip = made["data"], made["board"], leds()
    entities = dxf_entities(made["out"] / "hardware/cad/top.dxf", "CUT")
    round_ = circles(entities)
    window, edge = data["led"]["window"], data["led"]["from_edge"]
    kerf = data["kerf"]                                  # holes are cut a kerf smaller
    squares = [c for c in round_ if abs(c[2] - (window - kerf)) < 0.01]
    assert len(squares) == 30
    corner = data["pitch"] / 2 - edge
    for index in range(strip["squares"]):
        cx, cy = c1_centre(data, index + 1)
        lx, ly = cx + corner, cy + corner
        assert min(math.hypot(x - lx, y - ly) for x, y, _ in squares) <= 0.5, index
        assert math.hypot(corner, corner) - window / 2 > board.piece_diameter / 2
    sticks = [r for r in rects(entities)
              if (round(r[2], 3), round(r[3], 3)) == (data["sticks"]["width"] - kerf,
                                                      data["sticks"]["length"] - kerf)]
    assert len(sticks) == 4
    xs = sorted(s[0] for s in sticks)
    assert [round(b - a, 3) for a, b in zip(xs, xs[1:])] == [data["sticks"]["spacing"]] * 3
    sides = sorted(c for c in round_
                   if abs(c[2] - (data["side_lights"]["window"] - kerf)) < 0.01)
    assert len(sides) == 2
    assert sides[0][0] < xs[0] and sides[1][0] > xs[-1]
    middle = board.width / 2
    assert abs(sides[0][0] - (middle - data["side_lights"]["distance"])) < 0.5   # black
    assert abs(sides[1][0] - (middle + data["side_lights"]["distance"])) < 0.5   # white
    # The windows' positions are the layout the build guide gives the strip.
    positions = layout.led_positions(board, strip)
    assert positions[strip["side_black"]][0] < positions[strip["sticks"]][0]
    assert positions[strip["side_white"]][0] > positions[strip["sticks"] + 3][0]


def test_the_frame_bars_leave_every_led_switch_and_screw_clear(made):
    data, board = made["data"], made["board"]
    frame = dxf_entities(made["out"] / "hardware/cad/frame.dxf", "CUT")
    inner = [r for r in rects(frame)][1]                 # the rim's opening
    bars = [r for r in rects(frame)][2:]
    assert len(bars) >= 2
    for x, y, w, h in bars:                              # inside the opening
        assert x - w / 2 > inner[0] - inner[2] / 2 and x + w / 2 < inner[0] + inner[2] / 2
    chip = data["led"]["chip"]
    things = [(x, y, chip, chip) for x, y in layout.led_positions(board, leds()).values()]
    things += [r for r in rects(dxf_entities(made["out"] / "hardware/cad/bottom.dxf", "CUT"))
               if r[2] < board.width / 2]
    things += [(x, y, d + 2.5, d + 2.5) for x, y, d in      # screw heads: 5.5 mm
               circles(dxf_entities(made["out"] / "hardware/cad/bottom.dxf", "CUT"))]
    for bx, by, bw, bh in bars:
        for x, y, w, h in things:
            apart = abs(bx - x) >= (bw + w) / 2 or abs(by - y) >= (bh + h) / 2
            assert apart, ((bx, by, bw, bh), (x, y, w, h))
    ix, iy, iw, ih = inner                               # and none under the rim
    for x, y, w, h in things[:36 + 30]:                  # LEDs and reed slots
        assert abs(x - ix) + w / 2 <= iw / 2 and abs(y - iy) + h / 2 <= ih / 2, (x, y)


def test_the_button_hole_and_screw_holes(made):
    data, board = made["data"], made["board"]
    top = circles(dxf_entities(made["out"] / "hardware/cad/top.dxf", "CUT"))
    kerf = data["kerf"]                                  # holes are cut a kerf smaller
    assert sum(1 for c in top if abs(c[2] - (data["button"]["hole"] - kerf)) < 0.01) == 1
    for name in PANELS:
        holes = [c for c in circles(dxf_entities(made["out"] / "hardware/cad" / (
            "%s.dxf" % name), "CUT")) if abs(c[2] - (data["screw_hole"] - kerf)) < 0.01]
        i = data["screw_inset"]
        assert sorted((x, y) for x, y, _ in holes) == sorted(
            [(i, i), (i, board.height - i), (board.width - i, i),
             (board.width - i, board.height - i)])


SEVEN = {"abcdef": "0", "bc": "1", "abdeg": "2", "abcdg": "3", "bcfg": "4",
         "acdfg": "5", "acdefg": "6", "abc": "7", "abcdefg": "8", "abcdfg": "9"}


def read_number(lines, height):
    """Read the seven-segment number drawn by the engraved lines in a box."""
    lines = sorted(lines, key=lambda ln: min(ln[0], ln[2]))
    digits, cluster = [], []
    for line in lines:
        right = max(max(ln[0], ln[2]) for ln in cluster) if cluster else 0
        if cluster and min(line[0], line[2]) > right + 0.2 * height:
            digits.append(cluster)
            cluster = []
        cluster.append(line)
    if cluster:
        digits.append(cluster)
    text = ""
    for d in digits:
        x0 = min(min(ln[0], ln[2]) for ln in d)
        x1 = max(max(ln[0], ln[2]) for ln in d)
        y0 = min(min(ln[1], ln[3]) for ln in d)
        mid = y0 + height / 2
        segs = set()
        for ax, ay, bx, by in d:
            if abs(ay - by) < 1e-6:                              # horizontal
                segs.add("d" if abs(ay - y0) < 0.1 else "g" if abs(ay - mid) < 0.1 else "a")
            else:
                upper = min(ay, by) >= mid - 0.1
                right = abs(ax - x1) < 0.1 and x1 - x0 > 0.1 or x1 - x0 < 0.1
                segs.add(("b" if upper else "c") if right else ("f" if upper else "e"))
        text += SEVEN.get("".join(sorted(segs)), "?")
    return text


def engraved_lines(path):
    return [(e.dxf.start.x, e.dxf.start.y, e.dxf.end.x, e.dxf.end.y)
            for e in dxf_entities(path, "ENGRAVE") if e.dxftype() == "LINE"]


def test_every_square_and_every_reed_slot_is_engraved_with_its_c1_number(made):
    """The path order a maker follows: the number in each square's lower-left
    corner on the top panel, and the number beside each slot on the bottom
    panel, is the square C1 puts there."""
    data = made["data"]
    p = data["pitch"]
    h = round(p * 0.14, 2)
    top = engraved_lines(made["out"] / "hardware/cad/top.dxf")
    bottom = engraved_lines(made["out"] / "hardware/cad/bottom.dxf")
    glass = data["reed"]["glass_length"]

    def inside(lines, x0, y0, x1, y1):
        return [ln for ln in lines if min(ln[0], ln[2]) >= x0 and max(ln[0], ln[2]) <= x1
                and min(ln[1], ln[3]) >= y0 and max(ln[1], ln[3]) <= y1]

    for square in range(1, 31):
        cx, cy = c1_centre(data, square)
        corner = inside(top, cx - p / 2, cy - p / 2, cx, cy - p / 2 + 0.08 * p + h + 0.5)
        assert read_number(corner, h) == str(square), square
        beside = inside(bottom, cx, cy, cx + glass, cy + p / 2 - 1)
        assert read_number(beside, h) == str(square), square


# --- the pieces ------------------------------------------------------------------

@pytest.mark.parametrize("kind", pieces.KINDS)
def test_each_piece_is_a_watertight_solid_that_fits_a_square(made, kind):
    import trimesh
    board = made["board"]
    mesh = trimesh.load(str(made["out"] / "hardware/cad" / ("%s.stl" % kind)))
    assert mesh.is_watertight and mesh.volume > 0
    # The mesh's chords cut a little inside the true surface.
    expected = pieces.volume(board, pieces.shape(board, kind))
    assert abs(mesh.volume - expected) / expected < 0.01
    (x0, y0, z0), (x1, y1, z1) = mesh.bounds
    across = max(x1 - x0, y1 - y0)
    assert across + 2 * 2 <= made["data"]["pitch"]      # 2 mm clear of each edge at least
    assert z0 == pytest.approx(0, abs=1e-6)


@pytest.mark.parametrize("kind", pieces.KINDS)
def test_the_magnet_pocket_holds_the_magnet_at_the_base(made, kind):
    """The pocket opens at the base: a pressed-in magnet has no material under
    it, and at most depth_clearance (0.2 mm) of air; it is a press fit."""
    import numpy
    import trimesh
    data = made["data"]
    mesh = trimesh.load(str(made["out"] / "hardware/cad" / ("%s.stl" % kind)))
    v = mesh.vertices
    r = numpy.hypot(v[:, 0], v[:, 1])
    magnet_r = data["magnet"]["diameter"] / 2
    pocket = v[(r < magnet_r + 1) & (v[:, 2] < data["magnet"]["height"] + 1)]
    radius = numpy.hypot(pocket[:, 0], pocket[:, 1])
    assert len(pocket) > 8
    fit = 2 * (radius.min() - magnet_r)                  # diameter allowance
    assert 0 < fit <= 0.3
    ceiling, floor = pocket[:, 2].max(), pocket[:, 2].min()
    assert floor == pytest.approx(0, abs=1e-6)           # open at the base
    assert ceiling >= data["magnet"]["height"]           # the whole magnet goes in
    under = ceiling - data["magnet"]["height"]           # magnet up against the ceiling
    assert 0 <= under <= 2


def test_committed_pieces_and_board_match_a_regeneration(made):
    if made["data"]["pitch"] != 40:
        pytest.skip("the committed files are at the shipped pitch")
    import trimesh
    from build123d import import_step
    for kind in pieces.KINDS:
        new = trimesh.load(str(made["out"] / "hardware/cad" / ("%s.stl" % kind)))
        old = trimesh.load(os.path.join(CAD, "%s.stl" % kind))
        assert new.volume == pytest.approx(old.volume, rel=1e-4), kind
        assert new.area == pytest.approx(old.area, rel=1e-4), kind
        assert new.bounds.flatten().tolist() == pytest.approx(old.bounds.flatten().tolist(),
                                                              abs=1e-3)
    for name in ("spool.step", "cone.step", "board.step"):
        new = import_step(str(made["out"] / "hardware/cad" / name))
        old = import_step(os.path.join(CAD, name))
        assert new.volume == pytest.approx(old.volume, rel=1e-6), name
        nb, ob = new.bounding_box(), old.bounding_box()
        assert tuple(nb.min) == pytest.approx(tuple(ob.min), abs=1e-3), name
        assert tuple(nb.max) == pytest.approx(tuple(ob.max), abs=1e-3), name


def test_board_step_holds_the_panels_and_the_pieces(made):
    from build123d import import_step
    board = made["board"]
    shape = import_step(str(made["out"] / "hardware/cad/board.step"))
    box = shape.bounding_box()
    assert box.max.X - box.min.X == pytest.approx(board.width, abs=0.01)
    assert box.max.Y - box.min.Y == pytest.approx(board.height, abs=0.01)
    tallest = max(board.piece_height(k) for k in pieces.KINDS)
    under = board.base["cover"] + board.base["depth"]      # the base it stands on
    assert box.min.Z == pytest.approx(0, abs=0.01)
    assert box.max.Z == pytest.approx(under + board.stack + tallest, abs=0.01)


def test_committed_dxf_files_match_a_regeneration(made):
    if made["data"]["pitch"] != 40:
        pytest.skip("the committed files are at the shipped pitch")

    def entities(path):
        out = []
        for e in dxf_entities(path):
            if e.dxftype() == "CIRCLE":
                geo = (round(e.dxf.center.x, 3), round(e.dxf.center.y, 3),
                       round(e.dxf.radius, 3))
            elif e.dxftype() == "LWPOLYLINE":
                geo = tuple((round(p[0], 3), round(p[1], 3)) for p in e.get_points())
            else:
                geo = (round(e.dxf.start.x, 3), round(e.dxf.start.y, 3),
                       round(e.dxf.end.x, 3), round(e.dxf.end.y, 3))
            out.append((e.dxftype(), e.dxf.layer, geo))
        return out

    for name in PANELS:
        path = "%s.dxf" % name
        assert entities(made["out"] / "hardware/cad" / path) == entities(
            os.path.join(CAD, path)), "%s is out of date: run senet-board hardware" % path


# --- the committed text files, no CAD library needed -------------------------------

def test_committed_text_files_are_what_the_parameters_generate():
    for path, text in cadgen.text_files(ROOT).items():
        assert read(path) == text, "%s is out of date: run senet-board hardware" % path


def test_a_second_pitch_changes_every_text_file_consistently():
    data = shipped()
    data["pitch"] = 30
    files = cadgen.text_files(ROOT, params.Board(data))
    assert 'viewBox="0 0 340 170"' in files["hardware/cad/top.svg"]
    assert "| square pitch | 30 mm |" in files["docs/hardware.md"]
    assert "340 x 170 mm" in files["hardware/bom.csv"]


# --- parameters are checked --------------------------------------------------------

def board_with(**changes):
    data = shipped()
    for dotted, value in changes.items():
        target = data
        keys = dotted.split("__")
        for k in keys[:-1]:
            target = target[k]
        target[keys[-1]] = value
    return params.Board(data)


def test_shipped_parameters_make_a_board():
    board = params.load()
    assert (board.width, board.height) == (440, 200)
    pieces.check(board)


@pytest.mark.parametrize("change, words", [
    ({"pitch": 19}, "pitch must be at least 20"),
    ({"pitch": "40"}, "pitch must be a number"),
    ({"led__from_edge": 3.9}, "over the square's edge"),
    ({"led__from_edge": 12}, "under a piece"),
    ({"panels__frame__rim": 19.5}, "rim must be at least 1 mm less than margin"),
    ({"pieces__count": 6}, "pieces.count must be 5"),
    ({"reed__glass_length": 37}, "too long"),
])
def test_bad_parameters_are_refused_with_a_message(change, words):
    with pytest.raises(ValueError, match=words.replace(".", r"\.")):
        board_with(**change)


def test_a_missing_parameter_is_named():
    data = shipped()
    del data["magnet"]["height"]
    with pytest.raises(ValueError, match=r"magnet\.height is missing"):
        params.Board(data)


def test_pieces_too_small_to_cover_the_reeds_dead_middle_are_refused_at_the_boundary():
    """A piece whose centre could reach the middle of its reed (half a glass
    length from the square's centre, less 0.5 mm) would not be seen there."""
    # play = pitch * (1 - share) / 2; at 40 mm and a 14 mm glass the limit is 6.5 mm.
    board_with(pieces__diameter_per_pitch=0.676)                     # play 6.48
    with pytest.raises(ValueError, match="over the middle of its reed"):
        board_with(pieces__diameter_per_pitch=0.675)                 # play 6.5


def test_a_piece_too_slim_for_its_magnet_is_refused():
    # 8.15 mm pocket + 2 x 1.2 mm wall = 10.55 mm, on 20 mm squares
    small = {"pitch": 20, "led__from_edge": 4, "reed__lead_room": 1,
             "panels__frame__rim": 14}
    board_with(pieces__diameter_per_pitch=0.528, **small)            # 10.56 mm
    with pytest.raises(ValueError, match="no wall around the magnet"):
        board_with(pieces__diameter_per_pitch=0.52, **small)         # 10.4 mm


def test_an_unreadable_parameter_file_is_one_line(tmp_path):
    bad = tmp_path / "board.json"
    bad.write_bytes(b"\xff\xfe{")
    with pytest.raises(ValueError, match="not UTF-8"):
        params.load(str(bad))
    bad.write_text("{")
    with pytest.raises(ValueError, match="not valid JSON"):
        params.load(str(bad))


# --- the command ----------------------------------------------------------------

def test_without_the_cad_extra_the_command_says_so_in_one_line(tmp_path):
    code = ("import sys; sys.modules['build123d'] = None\n"
            "from host_tools import cli\n"
            "sys.exit(cli.main(['hardware', '--out', %r]))" % str(tmp_path))
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=ROOT)
    assert done.returncode == 1
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "pip install -e '.[cad]'" in lines[0]
    assert "Traceback" not in done.stderr


def test_a_bad_parameter_file_given_to_the_command_is_one_line(tmp_path):
    cad_libraries()
    data = shipped()
    data["pitch"] = 10
    path = tmp_path / "board.json"
    path.write_text(json.dumps(data))
    done = subprocess.run([sys.executable, "-m", "host_tools.cli", "hardware",
                           "--board", str(path), "--out", str(tmp_path)],
                          capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 2
    assert done.stderr.strip() == "senet-board hardware: pitch must be at least 20."


# --- the BOM -----------------------------------------------------------------------

def bom_rows(text=None):
    """The BOM as generated (the committed file is the same, see above)."""
    return list(csv.DictReader(io.StringIO(text or bom.render_csv(params.load()))))


def test_bom_connectors_carry_each_options_switch_wires():
    """Option A brings 6 row and 5 column wires to the perfboard; option B one
    wire per switch plus their common ground: 31. No switch connector is
    marked "all"."""
    pins = {"matrix": 0, "shift": 0}
    for r in bom_rows():
        if "Wire-to-board header" in r["description"]:
            assert r["option"] in pins, r["description"]
            pins[r["option"]] += int(r["qty"]) * int(r["description"].split("-pin")[0]
                                                     .split()[-1])
    assert pins["matrix"] >= 6 + 5
    assert pins["shift"] >= 30 + 1


def test_bom_has_the_board_pieces_cable_spares_and_tools():
    board = params.load()
    rows = bom_rows()
    text = " ".join(r["description"] for r in rows)
    assert "440 x 200 mm" in text
    for name in PANELS:
        assert "%s panel" % name.capitalize() in text
    assert "USB cable" in text
    magnets = sum(int(r["qty"]) for r in rows if r["mpn"].startswith("D52"))
    assert magnets > 2 * board.pieces["count"]                    # spares
    reeds = sum(int(r["qty"]) for r in rows if r["mpn"].startswith("MDSR-7"))
    assert reeds > 30
    kinds = {r["kind"] for r in rows}
    assert kinds == {"part", "material", "tool"}
    pieces_rows = [r for r in rows if " playing piece (" in r["description"]]
    assert sorted(int(r["qty"]) for r in pieces_rows) == [7, 7]


def test_bom_costs_add_up_to_the_totals_in_the_guide():
    rows = bom_rows()
    cost = [k for k in rows[0] if k.startswith("line_usd_est_2026_12")]
    assert cost
    for r in rows:
        if r["kind"] == "tool":
            assert r[cost[0]] == ""
        else:
            unit = float(r["unit_usd_est_2026_12"])
            assert float(r[cost[0]]) == pytest.approx(int(r["qty"]) * unit, abs=0.01)

    def total(options):
        return sum(float(r[cost[0]]) for r in rows
                   if r["kind"] != "tool" and r["option"] in options)

    doc = read("docs/hardware.md")
    for name, options in (("A: diode matrix, USB power", ("all", "matrix")),
                          ("B: 74HC165 chain, USB power", ("all", "shift")),
                          ("B with the 5 V 2 A supply", ("all", "shift", "2a"))):
        line = next(x for x in doc.splitlines() if x.startswith("| %s |" % name))
        assert float(line.split("|")[2]) == pytest.approx(total(options), abs=0.05)
    assert "2026-12" in doc


def test_bom_screws_reach_through_the_stack():
    board = board_with(panels__bottom__thickness=12)
    assert bom.screw_length(board) >= board.stack + 5
    assert bom.screw_length(params.load()) == 16


def test_bom_follows_the_pieces_count():
    data = shipped()
    data["pieces"]["count"] = 5
    rows = bom_rows(bom.render_csv(params.Board(data)))
    magnets = next(r for r in rows if r["mpn"] == "D52")
    assert magnets["qty"] == "10"


def test_layout_uses_the_led_numbers_from_the_pin_map():
    strip = copy.deepcopy(leds())
    strip["side_black"], strip["side_white"] = strip["side_white"], strip["side_black"]
    positions = layout.led_positions(params.load(), strip)
    assert positions[35][0] < positions[34][0]
