"""The board drawing cut into A4 pages, for a maker without a large-format
printer.

The full drawing needs an A2 sheet. Each A4 page shows a window of it at
full size, inside a 10 mm margin that ordinary printers leave blank, and
neighbouring windows share a 10 mm strip. The strip is marked on both pages
with dashed edges and registration crosses drawn in the drawing's own
coordinates, so the crosses of two pages fall on each other when the pages
are laid over one another. Print at 100 % ("actual size"), trim one page
along its dashed line, lay it over its neighbour's strip with the crosses
matching, and tape.
"""

import math
import re

from .drawing import fmt

PAGE = (210, 297)       # A4 portrait, mm
MARGIN = 10             # left blank round the page: most printers cannot print there
OVERLAP = 10            # the strip two neighbouring pages share
MARK_STYLE = (".reg{fill:none;stroke:#000;stroke-width:0.2}"
              ".lap{fill:none;stroke:#000;stroke-width:0.2;stroke-dasharray:2 1.5}")


def sheet_parts(svg):
    """The full drawing's size and its content (everything inside <svg>)."""
    head = re.search(r'<svg[^>]* width="([\d.]+)mm" height="([\d.]+)mm"[^>]*>', svg)
    body = svg[head.end():svg.rindex("</svg>")]
    return float(head.group(1)), float(head.group(2)), body


def grid(length, window):
    """Where each page's window starts along one side of the sheet."""
    step = window - OVERLAP
    count = max(1, math.ceil((length - OVERLAP) / step))
    return [i * step for i in range(count)]


def marks(width, height, xs, ys, window):
    """The shared strips' dashed edges and crosses, in sheet coordinates."""
    out = []
    for x in xs[1:]:
        out += ['<line class="lap" x1="%s" y1="0" x2="%s" y2="%s"/>' % (fmt(e), fmt(e), fmt(height))
                for e in (x, x + OVERLAP)]
        out += _crosses([(x + OVERLAP / 2, y) for y in _along(height)])
    for y in ys[1:]:
        out += ['<line class="lap" x1="0" y1="%s" x2="%s" y2="%s"/>' % (fmt(e), fmt(width), fmt(e))
                for e in (y, y + OVERLAP)]
        out += _crosses([(x, y + OVERLAP / 2) for x in _along(width)])
    return out


def _along(length):
    """Cross positions along a shared strip: every 60 mm, ends included."""
    count = max(2, int(length // 60) + 1)
    return [length * (i + 0.5) / count for i in range(count)]


def _crosses(points):
    out = []
    for x, y in points:
        out.append('<circle class="reg" cx="%s" cy="%s" r="2"/>' % (fmt(x), fmt(y)))
        out.append('<line class="reg" x1="%s" y1="%s" x2="%s" y2="%s"/>'
                   % (fmt(x - 4), fmt(y), fmt(x + 4), fmt(y)))
        out.append('<line class="reg" x1="%s" y1="%s" x2="%s" y2="%s"/>'
                   % (fmt(x), fmt(y - 4), fmt(x), fmt(y + 4)))
    return out


def a4_pages(svg):
    """The full drawing as a list of A4 SVG pages, left to right, then down."""
    width, height, body = sheet_parts(svg)
    view_w, view_h = PAGE[0] - 2 * MARGIN, PAGE[1] - 2 * MARGIN
    xs, ys = grid(width, view_w), grid(height, view_h)
    extra = "\n".join(["<style>%s</style>" % MARK_STYLE] + marks(width, height, xs, ys, view_w))
    pages = []
    for row, y in enumerate(ys):
        for col, x in enumerate(xs):
            n = row * len(xs) + col + 1
            label = ("Senet board drawing, A4 page %d of %d (row %d, column %d): print at "
                     "100 %%; the dashed strips and crosses mark the overlap with the next "
                     "page" % (n, len(xs) * len(ys), row + 1, col + 1))
            pages.append("\n".join([
                '<?xml version="1.0" encoding="UTF-8"?>',
                '<svg xmlns="http://www.w3.org/2000/svg" width="%smm" height="%smm" '
                'viewBox="0 0 %s %s">' % (PAGE[0], PAGE[1], PAGE[0], PAGE[1]),
                '<rect x="0" y="0" width="%s" height="%s" fill="#fff"/>' % PAGE,
                '<text x="%s" y="%s" style="font:3px sans-serif">%s</text>'
                % (MARGIN, MARGIN - 3, label),
                '<svg x="%s" y="%s" width="%s" height="%s" viewBox="%s %s %s %s">'
                % (MARGIN, MARGIN, view_w, view_h, fmt(x), fmt(y), view_w, view_h),
                body, extra, "</svg>",
                '<rect x="%s" y="%s" width="%s" height="%s" fill="none" stroke="#999" '
                'stroke-width="0.1"/>' % (MARGIN, MARGIN, view_w, view_h),
                "</svg>"]) + "\n")
    return pages
