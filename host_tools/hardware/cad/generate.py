"""Write every file the board's design generates: the panels, the pieces,
the whole board, the drawing, the parts list and their tables in
docs/hardware.md (``senet-board hardware``, host_tools/hardware/command.py,
runs it after the pin-map files). Without the ``cad`` extra
:func:`generate_cad` says so in one line and returns 1.
"""

import json
import os
import sys
import time

from host_tools import ROOT
from host_tools.hardware.pins import PINMAP_PATH
from host_tools.hardware.text import splice

from . import base, bom, drawing, layout, params, pieces, tiles

CAD_DIR = os.path.join("hardware", "cad")
BOM_PATH = os.path.join("hardware", "bom.csv")
DOC_PATH = os.path.join("docs", "hardware.md")
PANELS = ("top", "frame", "bottom")
MISSING = ("the CAD extra is not installed: run pip install -e '.[cad]' "
           "(build123d and ezdxf) and try again")


class CadMissing(Exception):
    """The ``cad`` extra (build123d, ezdxf) is not installed."""


def cad_path(name):
    return os.path.join(CAD_DIR, name)


def led_layout(root=ROOT):
    """The LED strip's layout (``leds``) from the pin map."""
    with open(os.path.join(root, PINMAP_PATH), encoding="utf-8") as f:
        return json.load(f)["leds"]


def board_table(board):
    """The docs/hardware.md table of the sizes that follow from the parameters."""
    spool, cone = pieces.spool(board), pieces.cone(board)
    f = drawing.fmt
    rows = [
        ("square pitch", "%s mm" % f(board.pitch)),
        ("board (all three panels)", "%s x %s mm" % (f(board.width), f(board.height))),
        ("stack: top, frame, bottom", "%s + %s + %s = %s mm"
         % (f(board.top_t), f(board.frame_t), f(board.bottom_t), f(board.stack))),
        ("reed slot (bottom panel)", "%s x %s mm, along the row, glass end under the "
         "square's centre" % (f(board.slot_size[0]), f(board.slot_size[1]))),
        ("square LED window (top panel)", "%s mm, in the square's far right corner, %s mm "
         "in from both edges" % (f(board.led["window"]), f(board.led["from_edge"]))),
        ("spool (black)", "%s mm across, %s mm high" % (f(spool["diameter"]),
                                                       f(spool["height"]))),
        ("cone (white)", "%s mm across, %s mm high" % (f(cone["diameter"]), f(cone["height"]))),
        ("piece's play in its square", "%s mm from the centre" % f(board.piece_play)),
        ("magnet pocket", "%s mm across, %s mm deep, for the %s x %s mm magnet"
         % (f(board.pocket_diameter), f(board.pocket_depth), f(board.magnet["diameter"]),
            f(board.magnet["height"]))),
        ("magnet face to top of the reed's glass", "%s mm (top + frame, the magnet flush "
         "with the piece's base); the reed closes up to %s mm away "
         "(reed.actuation_distance)" % (f(board.top_t + board.frame_t),
                                        f(board.reed["actuation_distance"]))),
    ] + base_rows(board)
    out = ["| | |", "|---|---|"]
    out += ["| %s | %s |" % r for r in rows]
    return "\n".join(out)


def base_rows(board):
    """The base's sizes and the positions a museum or a maker needs."""
    f, b = drawing.fmt, board.base
    _, x, _, w, h = base.usb_opening(board)
    holes = base.mounting_holes(board)
    _, cx, cy, cd = base.cable_exit(board)
    return [
        ("base (compartment)", "%s mm deep inside, walls %s mm, cover %s mm; the whole "
         "board %s mm high without the pieces" % (f(b["depth"]), f(b["wall"]), f(b["cover"]),
                                                  f(b["cover"] + b["depth"] + board.stack))),
        ("mounting holes (cover)", "%d x %s mm at %s from the front left corner, for "
         "screws into the furniture" % (len(holes), f(b["mounting_hole"]), ", ".join(
             "(%s, %s)" % (f(c[1]), f(c[2])) for c in holes))),
        ("USB opening (front wall)", "%s x %s mm, centred %s mm from the left edge, its "
         "top %s mm under the bottom panel" % (f(w), f(h), f(x), f(b["usb_top"]))),
        ("supply cable hole (cover)", "%s mm at (%s, %s)" % (f(cd), f(cx), f(cy))),
    ]


def text_files(root=ROOT, board=None):
    """Every generated text file (path -> text) that needs no CAD library."""
    board = board or params.load(os.path.join(root, params.BOARD_PATH))
    pieces.check(board)
    leds = led_layout(root)
    panel_list = layout.sheets(board, leds) + base.base_sheets(board)
    with open(os.path.join(root, DOC_PATH), encoding="utf-8") as f:
        doc = f.read()
    doc = splice(doc, "board", board_table(board))
    doc = splice(doc, "bom", bom.render_totals(board))
    out = {cad_path("%s.svg" % p.name): drawing.panel_svg(p, board.kerf) for p in panel_list}
    sheet = drawing.drawing_svg(board, panel_list[:3], leds)
    out[cad_path("board-drawing.svg")] = sheet
    for n, page in enumerate(tiles.a4_pages(sheet), 1):
        out[cad_path("board-drawing-a4-%d.svg" % n)] = page
    out[BOM_PATH] = bom.render_csv(board)
    out[DOC_PATH] = doc
    return out


def _require():
    try:
        import build123d  # noqa: F401
        import ezdxf  # noqa: F401
    except ImportError:
        raise CadMissing(MISSING) from None


def write_all(root=ROOT, out=None, board_path=None):
    """Write every generated file under out (default: the repository).
    Returns the paths written, relative to out."""
    board = params.load(board_path or os.path.join(root, params.BOARD_PATH))
    pieces.check(board)                 # bad numbers are refused before the slow part
    _require()
    from . import solids

    out = out or root
    os.makedirs(os.path.join(out, CAD_DIR), exist_ok=True)
    os.makedirs(os.path.join(out, "docs"), exist_ok=True)
    written = []
    for path, text in text_files(root, board).items():
        with open(os.path.join(out, path), "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
        written.append(path)
    panel_list = layout.sheets(board, led_layout(root)) + base.base_sheets(board)
    for panel in panel_list:
        path = cad_path("%s.dxf" % panel.name)
        drawing.write_dxf(panel, os.path.join(out, path), board.kerf)
        written.append(path)
    for kind in pieces.KINDS:
        solid = solids.piece_solid(board, kind)
        for ext, writer in (("stl", solids.write_stl), ("step", solids.write_step)):
            path = cad_path("%s.%s" % (kind, ext))
            writer(solid, os.path.join(out, path))
            written.append(path)
    from . import exploded
    path = cad_path("exploded.svg")
    exploded.write_exploded(board, panel_list, os.path.join(out, path))
    written.append(path)
    path = cad_path("board.step")
    solids.write_step(solids.board_assembly(board, panel_list), os.path.join(out, path))
    written.append(path)
    return written


def generate_cad(out=None, board_path=None):
    """Write the CAD files and report in one line; 1 without the extra."""
    start = time.perf_counter()
    try:
        written = write_all(out=out, board_path=board_path)
    except CadMissing as exc:
        print("senet-board hardware: %s" % exc, file=sys.stderr)
        return 1
    except (ValueError, OSError) as exc:
        print("senet-board hardware: %s" % exc, file=sys.stderr)
        return 2
    for path in written:
        print("wrote %s" % os.path.join(out, path) if out else "wrote %s" % path)
    print("generated %d files in %.1f s" % (len(written), time.perf_counter() - start))
    return 0

