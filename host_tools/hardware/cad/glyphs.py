"""Line drawings engraved on the top panel: square numbers, the signs of the
special squares and the path arrows.

Everything is straight strokes (and a few circles), so a laser cutter engraves
them as vector lines and no font is needed. A glyph is a list of shapes in the
same form as the panels use: ``("line", x1, y1, x2, y2)`` and
``("circle", x, y, diameter)``; y points up.
"""

import math

# Seven-segment digits: the lit segments of each digit.
#   a: top, b: upper right, c: lower right, d: bottom, e: lower left,
#   f: upper left, g: middle.
SEGMENTS = {
    "0": "abcdef", "1": "bc", "2": "abged", "3": "abgcd", "4": "fgbc",
    "5": "afgcd", "6": "afgedc", "7": "abc", "8": "abcdefg", "9": "abcdfg",
}


def _segment(name, x, y, w, h):
    """One segment of a digit whose lower-left corner is (x, y)."""
    top, mid = y + h, y + h / 2
    return {
        "a": (x, top, x + w, top), "b": (x + w, top, x + w, mid),
        "c": (x + w, mid, x + w, y), "d": (x, y, x + w, y),
        "e": (x, mid, x, y), "f": (x, top, x, mid), "g": (x, mid, x + w, mid),
    }[name]


def number(text, x, y, height):
    """Strokes of a number whose lower-left corner is (x, y)."""
    width = height / 2
    out = []
    for i, digit in enumerate(text):
        left = x + i * width * 1.6
        out.extend(("line",) + _segment(s, left, y, width, height) for s in SEGMENTS[digit])
    return out


def number_width(text, height):
    return (len(text) * 1.6 - 0.6) * height / 2


def _polyline(points):
    return [("line", a[0], a[1], b[0], b[1]) for a, b in zip(points, points[1:])]


def _oval(cx, cy, rx, ry, steps=16):
    pts = [(cx + rx * math.cos(2 * math.pi * i / steps),
            cy + ry * math.sin(2 * math.pi * i / steps)) for i in range(steps + 1)]
    return _polyline(pts)


def ankh(cx, cy, s):
    """Square 15, the House of Rebirth: an ankh, the sign of life."""
    return (_oval(cx, cy + 0.25 * s, 0.17 * s, 0.22 * s)
            + [("line", cx - 0.35 * s, cy, cx + 0.35 * s, cy),
               ("line", cx, cy + 0.03 * s, cx, cy - 0.5 * s)])


def nefer(cx, cy, s):
    """Square 26, the House of Happiness: nfr, "good, beautiful" (heart and windpipe)."""
    return (_oval(cx, cy - 0.22 * s, 0.2 * s, 0.26 * s)
            + [("line", cx, cy + 0.04 * s, cx, cy + 0.5 * s),
               ("line", cx - 0.15 * s, cy + 0.3 * s, cx + 0.15 * s, cy + 0.3 * s)])


def water(cx, cy, s):
    """Square 27, the House of Water: three zigzag lines of water."""
    out = []
    for k in (-1, 0, 1):
        y = cy + k * 0.25 * s
        pts = [(cx - 0.45 * s + i * 0.1125 * s, y + (0.06 * s if i % 2 else -0.06 * s))
               for i in range(9)]
        out.extend(_polyline(pts))
    return out


def strokes(cx, cy, s, n):
    """Squares 28 and 29: three and two strokes (Three Truths, Two Judges)."""
    gap = 0.25 * s
    first = cx - gap * (n - 1) / 2
    return [("line", first + i * gap, cy - 0.4 * s, first + i * gap, cy + 0.4 * s)
            for i in range(n)]


def sun(cx, cy, s):
    """Square 30, the House of Horus: the sun disc."""
    return [("circle", cx, cy, 0.7 * s), ("circle", cx, cy, 0.14 * s)]


def sign(square, cx, cy, s):
    """The engraved sign of a special square (K10-K13), or [] for a plain one."""
    if square == 15:
        return ankh(cx, cy, s)
    if square == 26:
        return nefer(cx, cy, s)
    if square == 27:
        return water(cx, cy, s)
    if square in (28, 29):
        return strokes(cx, cy, s, 31 - square)
    if square == 30:
        return sun(cx, cy, s)
    return []


SIGNED = (15, 26, 27, 28, 29, 30)


def arrow(points, head):
    """A path arrow along points, with its head at the last point."""
    (x1, y1), (x2, y2) = points[-2], points[-1]
    angle = math.atan2(y2 - y1, x2 - x1)
    out = _polyline(points)
    for turn in (2.6, -2.6):
        out.append(("line", x2, y2, x2 + head * math.cos(angle + turn),
                    y2 + head * math.sin(angle + turn)))
    return out


def spool(cx, cy, s):
    """A small spool outline (black's pieces) beside black's side light."""
    w, h = 0.5 * s, 0.5 * s
    return _polyline([(cx - w, cy + h), (cx + w, cy + h), (cx + 0.4 * w, cy + 0.3 * h),
                      (cx + 0.4 * w, cy - 0.3 * h), (cx + w, cy - h), (cx - w, cy - h),
                      (cx - 0.4 * w, cy - 0.3 * h), (cx - 0.4 * w, cy + 0.3 * h),
                      (cx - w, cy + h)])


def cone(cx, cy, s):
    """A small cone outline (white's pieces) beside white's side light."""
    return _polyline([(cx - 0.45 * s, cy - 0.5 * s), (cx + 0.45 * s, cy - 0.5 * s),
                      (cx, cy + 0.5 * s), (cx - 0.45 * s, cy - 0.5 * s)])
