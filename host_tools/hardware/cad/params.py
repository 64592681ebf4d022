"""Read and check ``hardware/board.json``, the one parameter file of the board.

Every length is in millimetres. The file holds only what a maker chooses; what
follows from it (the panel size, a piece's diameter, the magnet pocket) is
worked out here, so the panels, the pieces, the drawing and the parts list all
come from the same numbers. This module needs no CAD library.
"""

import json
import os

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
)


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

    def __init__(self, data):
        if not isinstance(data, dict):
            raise ValueError("the board file must hold a JSON object.")
        for dotted, smallest in NUMBERS:
            _number(data, dotted, smallest)
        self.data = data
        self.pitch = data["pitch"]
        self.margin = data["margin"]
        self.strip = data["strip"]
        panels = data["panels"]
        self.top_t = panels["top"]["thickness"]
        self.frame_t = panels["frame"]["thickness"]
        self.bottom_t = panels["bottom"]["thickness"]
        self.rim = panels["frame"]["rim"]
        self.bar = panels["frame"]["bar"]
        self.materials = {name: panels[name].get("material", "plywood")
                          for name in ("top", "frame", "bottom")}
        self.screw_hole = data["screw_hole"]
        self.screw_inset = data["screw_inset"]
        self.reed = data["reed"]
        self.magnet = data["magnet"]
        self.led = data["led"]
        self.sticks = data["sticks"]
        self.side_lights = data["side_lights"]
        self.button = data["button"]
        self.cable_hole = _pair(data, "cable_hole")
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
        """Refuse a set of numbers that would not make a board."""
        if self.rim + 1 > self.margin:
            raise ValueError("panels.frame.rim must be at least 1 mm less than margin, "
                             "so the rim stays clear of the squares.")
        if self.screw_inset + self.screw_hole / 2 + 1 > self.rim:
            raise ValueError("screw_inset must put the screw holes inside the frame's rim.")
        if self.pocket_diameter + 2 * self.pieces["wall"] > self.piece_diameter:
            raise ValueError("pieces.diameter_per_pitch leaves no wall around the magnet "
                             "at a pitch of %s mm." % self.pitch)
        if self.piece_play >= self.reed["glass_length"] / 2 - 0.5:
            raise ValueError("the pieces are too small for the squares: a piece could "
                             "stand over the middle of its reed switch, where it does "
                             "not close it (make pieces.diameter_per_pitch larger).")
        if self.led["from_edge"] < self.led["window"] / 2 + 1:
            raise ValueError("led.from_edge puts the LED window over the square's edge.")
        corner = (self.pitch / 2 - self.led["from_edge"]) * 2 ** 0.5
        if corner - self.led["window"] / 2 < self.piece_diameter / 2:
            raise ValueError("led.from_edge puts the LED window under a piece standing "
                             "in the middle of the square.")
        if self.reed["glass_length"] + 2 * self.reed["lead_room"] + 4 > self.pitch:
            raise ValueError("reed.glass_length is too long: a reed switch would touch "
                             "the next square's.")
        span = (STICKS - 1) * self.sticks["spacing"] + self.sticks["width"]
        if span / 2 + self.side_lights["window"] / 2 + 1 > self.side_lights["distance"]:
            raise ValueError("side_lights.distance puts the side lights on the sticks.")
        if max(self.sticks["length"], self.button["hole"] + 2 * self.button["clearance"],
               self.side_lights["window"]) + 2 > self.strip:
            raise ValueError("strip is too narrow for the sticks and the button.")


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
    return Board(data)
