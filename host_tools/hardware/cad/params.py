"""Read and check ``hardware/board.json``, the one parameter file of the board.

Every length is in millimetres. The file holds only what a maker chooses; what
follows from it (the panel size, a piece's diameter, the magnet pocket) is
worked out here, so the panels, the pieces, the drawing and the parts list all
come from the same numbers. This module needs no CAD library.
"""

import difflib
import json
import os
import subprocess

from host_tools import ROOT

BOARD_PATH = os.path.join("hardware", "board.json")

ROWS = 3                        # C1: 30 squares, 3 rows of 10
COLUMNS = 10
SQUARES = ROWS * COLUMNS
STICKS = 4                      # C3: four throw sticks, one light each

# Every number the file must hold, as (dotted key, smallest allowed value).
NUMBERS = (
    ("pitch", 20), ("margin", 10), ("strip", 24),
    ("panels.top.thickness", 1), ("panels.frame.thickness", 2),
    ("panels.bottom.thickness", 1), ("panels.frame.rim", 8), ("panels.frame.bar", 4),
    ("screw_hole", 2), ("screw_inset", 4),
    ("reed.glass_length", 5), ("reed.glass_diameter", 1), ("reed.lead_room", 1),
    ("reed.slot_clearance", 0),
    ("magnet.diameter", 2), ("magnet.height", 1), ("magnet.fit", 0),
    ("magnet.depth_clearance", 0),
    ("led.window", 2), ("led.from_edge", 1), ("led.chip", 1),
    ("sticks.length", 4), ("sticks.width", 2), ("sticks.spacing", 4),
    ("side_lights.window", 2), ("side_lights.distance", 10),
    ("button.hole", 4), ("button.clearance", 0), ("button.from_right", 10),
    ("perfboard.hole", 2),
    ("pieces.diameter_per_pitch", 0.3), ("pieces.spool_height_per_pitch", 0.2),
    ("pieces.cone_height_per_pitch", 0.2), ("pieces.wall", 0.8),
    ("reed.actuation_distance", 1),
    ("panels.frame.clearance", 0), ("panels.diffuser.thickness", 0.1),
    ("led.strip_width", 4), ("led.pixel_length", 4), ("kerf", 0),
    ("base.depth", 20), ("base.wall", 2), ("base.cover", 2), ("base.usb_top", 0),
    ("base.mounting_hole", 3), ("base.mounting_inset", 10), ("base.vent", 2),
    ("base.vents", 0), ("base.cable_exit", 4),
)
# The settings that are not a length: a text, a count or a pair of lengths.
OTHERS = ("panels.top.material", "panels.frame.material", "panels.bottom.material",
          "panels.diffuser.material",
          "reed.actuation_source", "base.material", "base.usb_opening", "cable_hole", "perfboard.size", "perfboard.holes",
          "pieces.count")
KNOWN = tuple(k for k, _ in NUMBERS) + OTHERS


def _flat(data, prefix=""):
    """Every setting of a parsed board file as dotted key -> value."""
    out = {}
    for key in sorted(data):
        dotted = prefix + str(key)
        if isinstance(data[key], dict):
            out.update(_flat(data[key], dotted + "."))
        else:
            out[dotted] = data[key]
    return out


def _refuse_unknown(data):
    """A key the board does not read is most likely a misspelt one the maker
    meant to change: name it and the nearest key beside it that exists."""
    names = set(KNOWN) | {k.rsplit(".", i)[0] for k in KNOWN for i in (1, 2) if "." in k}
    for dotted in _flat(data):
        parts = dotted.split(".")
        prefixes = [".".join(parts[:i]) for i in range(1, len(parts) + 1)]
        if any(p in KNOWN for p in prefixes):
            continue                            # known; its value is checked later
        key = next(p for p in prefixes if p not in names)
        parent = key.rsplit(".", 1)[0] if "." in key else ""
        siblings = [n for n in names
                    if (n.rsplit(".", 1)[0] if "." in n else "") == parent]
        near = difflib.get_close_matches(key, siblings, n=1, cutoff=0)
        raise ValueError("%s is not a setting of the board file: did you mean %s?"
                         % (key, near[0] if near else "one of %s" % ", ".join(sorted(KNOWN))))


def _get(data, dotted):
    value = data
    for part in dotted.split("."):
        if not isinstance(value, dict) or part not in value:
            raise ValueError("%s is missing." % dotted)
        value = value[part]
    return value


def _number(data, dotted, smallest):
    value = _get(data, dotted)
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ValueError("%s must be a number of millimetres." % dotted)
    if value < smallest:
        raise ValueError("%s must be at least %s." % (dotted, smallest))
    return value


def _pair(data, dotted):
    value = _get(data, dotted)
    if (not isinstance(value, list) or len(value) != 2
            or not all(isinstance(v, (int, float)) and not isinstance(v, bool) and v > 0
                       for v in value)):
        raise ValueError("%s must be two positive numbers [x, y]." % dotted)
    return value


class Board:
    """The checked parameters and every size that follows from them."""

    def __init__(self, data, reference=None):
        """``reference``: the file as it was before the maker changed it (the
        committed one), so that a refusal names the key that was changed."""
        if not isinstance(data, dict):
            raise ValueError("the board file must hold a JSON object.")
        _refuse_unknown(data)
        for dotted, smallest in NUMBERS:
            _number(data, dotted, smallest)
        self.data = data
        self.reference = _flat(reference) if isinstance(reference, dict) else None
        self.pitch = data["pitch"]
        self.margin = data["margin"]
        self.strip = data["strip"]
        panels = data["panels"]
        self.top_t = panels["top"]["thickness"]
        self.frame_t = panels["frame"]["thickness"]
        self.bottom_t = panels["bottom"]["thickness"]
        self.rim = panels["frame"]["rim"]
        self.bar = panels["frame"]["bar"]
        self.diffuser_t = panels["diffuser"]["thickness"]
        self.clearance = panels["frame"]["clearance"]
        self.kerf = data["kerf"]
        self.materials = {name: panels[name].get("material", "plywood")
                          for name in ("top", "frame", "bottom", "diffuser")}
        self.screw_hole = data["screw_hole"]
        self.screw_inset = data["screw_inset"]
        self.reed = data["reed"]
        self.magnet = data["magnet"]
        self.led = data["led"]
        self.sticks = data["sticks"]
        self.side_lights = data["side_lights"]
        self.button = data["button"]
        self.cable_hole = _pair(data, "cable_hole")
        self.base = data["base"]
        _pair(data, "base.usb_opening")
        self.perfboard = data["perfboard"]
        self.perfboard_size = _pair(data, "perfboard.size")
        self.perfboard_holes = _pair(data, "perfboard.holes")
        self.pieces = data["pieces"]
        count = data["pieces"].get("count")
        if count not in (5, 7):
            raise ValueError("pieces.count must be 5 (Senet) or 7 (long Senet).")
        self.width = COLUMNS * self.pitch + 2 * self.margin
        self.height = ROWS * self.pitch + self.strip + 2 * self.margin
        self._check()

    # --- derived sizes ------------------------------------------------------

    @property
    def piece_diameter(self):
        return round(self.pitch * self.pieces["diameter_per_pitch"], 3)

    def piece_height(self, kind):
        return round(self.pitch * self.pieces["%s_height_per_pitch" % kind], 3)

    @property
    def pocket_diameter(self):
        """The magnet pocket: the magnet plus the press-fit allowance."""
        return self.magnet["diameter"] + self.magnet["fit"]

    @property
    def pocket_depth(self):
        """Deep enough that a magnet pressed in flush never stands proud."""
        return self.magnet["height"] + self.magnet["depth_clearance"]

    @property
    def piece_play(self):
        """How far a piece's centre can stand from its square's centre."""
        return (self.pitch - self.piece_diameter) / 2

    @property
    def slot_size(self):
        """The reed's slot: its glass, room at each end to bend the leads up at
        least 1 mm from the glass, and a clearance all round."""
        reed, clearance = self.reed, self.reed["slot_clearance"]
        return (reed["glass_length"] + 2 * reed["lead_room"] + clearance,
                reed["glass_diameter"] + clearance)

    @property
    def stack(self):
        return self.top_t + self.frame_t + self.bottom_t

    def _check(self):
        """Refuse a set of numbers that would not make a board, naming the
        key the maker changed among those the failed rule reads."""
        for keys, broken, why in self._rules():
            if broken:
                raise ValueError(self._refusal(keys, why))

    def _refusal(self, keys, why):
        flat = _flat(self.data)
        changed = [k for k in keys if self.reference is not None
                   and flat.get(k) != self.reference.get(k)]
        key = (changed or list(keys))[0]
        value = flat.get(key)
        shown = fmt_number(value) if isinstance(value, (int, float)) else value
        return "%s = %s: %s." % (key, shown, why)

    def _rules(self):
        """(the keys a rule reads, whether it is broken, why), most basic first."""
        led, reed, f = self.led, self.reed, fmt_number
        corner = (self.pitch / 2 - led["from_edge"]) * 2 ** 0.5
        span = (STICKS - 1) * self.sticks["spacing"] + self.sticks["width"]
        gap = self.top_t + self.frame_t
        return [
            (("panels.frame.rim", "margin"), self.rim + 1 > self.margin,
             "the rim must be at least 1 mm less than margin, so it stays clear of the "
             "squares"),
            (("screw_inset", "screw_hole", "panels.frame.rim"),
             self.screw_inset + self.screw_hole / 2 + 1 > self.rim,
             "the screw holes would not lie inside the frame's rim"),
            (("pieces.diameter_per_pitch", "pitch", "magnet.diameter", "magnet.fit",
              "pieces.wall"),
             self.pocket_diameter + 2 * self.pieces["wall"] > self.piece_diameter,
             "a %s mm piece leaves no wall around the magnet" % f(self.piece_diameter)),
            (("pieces.diameter_per_pitch", "pitch", "reed.glass_length"),
             self.piece_play >= reed["glass_length"] / 2 - 0.5,
             "the pieces are too small for the squares: a piece could stand over the "
             "middle of its reed switch, where it does not close it (make "
             "pieces.diameter_per_pitch larger)"),
            (("led.from_edge", "led.window"), led["from_edge"] < led["window"] / 2 + 1,
             "the LED window would stand over the square's edge"),
            (("led.from_edge", "pitch", "led.window", "pieces.diameter_per_pitch"),
             corner - led["window"] / 2 < self.piece_diameter / 2,
             "the LED window, %s mm in from the square's edges, would lie under a piece "
             "standing in the middle of the square (the pieces are %s mm across)"
             % (f(led["from_edge"]), f(self.piece_diameter))),
            (("reed.glass_length", "reed.lead_room", "pitch"),
             reed["glass_length"] + 2 * reed["lead_room"] + 4 > self.pitch,
             "the reed switch is too long: it would touch the next square's"),
            (("panels.top.thickness", "panels.frame.thickness", "reed.actuation_distance"),
             gap > reed["actuation_distance"],
             "the magnet would be %s mm above the reed's glass (top + frame), beyond the "
             "%s mm at which it closes the reed (reed.actuation_distance)"
             % (f(gap), f(reed["actuation_distance"]))),
            (("panels.frame.rim", "margin", "led.from_edge", "led.pixel_length",
              "panels.frame.clearance"),
             self.rim > self.margin + led["from_edge"] - led["pixel_length"] / 2
             - self.clearance,
             "the pixel under the last square of each row would stand less than %s mm "
             "from the frame's rim" % f(self.clearance)),
            (("led.strip_width", "sticks.spacing", "panels.frame.clearance"),
             self.sticks["spacing"] - led["strip_width"] < self.clearance,
             "the pixels under the stick windows, lying across the strip, would stand "
             "less than %s mm apart" % f(self.clearance)),
            (("panels.diffuser.thickness", "panels.frame.thickness"),
             self.diffuser_t + 2 > self.frame_t,
             "the diffuser would leave less than 2 mm under it for the pixels"),
            (("base.usb_top", "base.usb_opening", "base.depth"),
             self.base["usb_top"] + self.base["usb_opening"][1] + 2 > self.base["depth"],
             "the USB opening would leave less than 2 mm of the front wall under it"),
            (("base.mounting_inset", "base.wall", "base.mounting_hole"),
             self.base["mounting_inset"] < self.base["wall"] + self.base["mounting_hole"]
             + 4, "the mounting holes would be under the walls"),
            (("side_lights.distance", "sticks.spacing", "sticks.width", "side_lights.window"),
             span / 2 + self.side_lights["window"] / 2 + 1 > self.side_lights["distance"],
             "the side lights would stand on the sticks"),
            (("strip", "sticks.length", "button.hole", "button.clearance",
              "side_lights.window"),
             max(self.sticks["length"], self.button["hole"] + 2 * self.button["clearance"],
                 self.side_lights["window"]) + 2 > self.strip,
             "the control strip is too narrow for the sticks and the button"),
        ]


def fmt_number(value):
    """A number as the maker wrote it: 20, 0.675, never 20.0."""
    return ("%.3f" % value).rstrip("0").rstrip(".")


def committed(path):
    """The board file as last committed, the reference a refusal compares
    with; None outside a git clone."""
    try:
        done = subprocess.run(["git", "show", "HEAD:" + BOARD_PATH.replace(os.sep, "/")],
                              cwd=ROOT, capture_output=True, text=True, timeout=20)
    except (OSError, subprocess.SubprocessError):
        done = None
    if done is not None and done.returncode == 0:
        try:
            return json.loads(done.stdout)
        except ValueError:
            pass
    shipped = os.path.join(ROOT, BOARD_PATH)
    if os.path.abspath(path) != os.path.abspath(shipped) and os.path.isfile(shipped):
        with open(shipped, encoding="utf-8") as f:
            return json.load(f)
    return None


def load(path=None):
    """The checked Board from a parameter file (default: the shipped one)."""
    path = path or os.path.join(ROOT, BOARD_PATH)
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
    except UnicodeDecodeError:
        raise ValueError("%s is not UTF-8 text." % path) from None
    except json.JSONDecodeError as exc:
        raise ValueError("%s is not valid JSON (line %d): %s"
                         % (path, exc.lineno, exc.msg)) from None
    reference = committed(path)
    return Board(data, reference)
