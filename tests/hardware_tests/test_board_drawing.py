"""The board drawing prints on an ordinary printer: beside the full sheet
(A2 size), a set of A4 pages that tile it with a marked overlap, so a maker
prints them at 100 %, lays each page's overlap over its neighbour's matching
crosses and tapes them into the whole drawing. No CAD library is needed."""

import re

from host_tools.hardware.cad import generate as cadgen
import paths

ROOT = paths.ROOT
A4 = (210, 297)


def files():
    return cadgen.text_files(ROOT)


def size(svg):
    w, h = re.search(r'<svg[^>]* width="([\d.]+)mm" height="([\d.]+)mm"', svg).groups()
    return float(w), float(h)


def tiles(out):
    names = sorted(p for p in out if re.search(r"board-drawing-a4-\d+\.svg$", p))
    return [out[p] for p in sorted(names, key=lambda p: int(re.findall(r"\d+", p)[-1]))]


def window(svg):
    """The part of the full sheet a tile shows: its nested viewBox."""
    x, y, w, h = re.search(r'<svg x="[\d.]+" y="[\d.]+" width="[\d.]+" height="[\d.]+" '
                           r'viewBox="([-\d.]+) ([-\d.]+) ([\d.]+) ([\d.]+)"', svg).groups()
    return float(x), float(y), float(x) + float(w), float(y) + float(h)


def test_the_a4_tiles_cover_the_whole_sheet_with_an_overlap():
    out = files()
    full = out["hardware/cad/board-drawing.svg"]
    fw, fh = size(full)
    assert fw > A4[0] and fh > A4[1]                    # the full sheet needs tiling
    pages = tiles(out)
    assert len(pages) >= 4
    boxes = [window(p) for p in pages]
    for page in pages:
        assert size(page) == A4
    # every point of the full sheet lies on some tile
    for x in range(0, int(fw) + 1, 5):
        for y in range(0, int(fh) + 1, 5):
            assert any(b[0] <= x <= b[2] and b[1] <= y <= b[3] for b in boxes), (x, y)
    # neighbours share a strip at least 10 mm wide, marked on both
    xs = sorted({b[0] for b in boxes})
    ys = sorted({b[1] for b in boxes})
    for edges, along in ((xs, 2), (ys, 3)):
        for a, b in zip(edges, edges[1:]):
            left = next(box for box in boxes if box[along - 2] == a)
            assert left[along] - b >= 10
    for page in pages:
        assert "overlap" in page and page.count('class="reg"') >= 2
        assert full.split("<style>")[1].split("</style>")[0] in page   # same drawing
