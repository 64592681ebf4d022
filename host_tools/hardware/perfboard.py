"""The controller's perfboard, hole by hole, for each sensing option.

The perfboard (hardware/board.json ``perfboard``, 90 x 70 mm) hangs under the
bottom panel on 12 mm standoffs, components facing the panel; seen from above,
as here, its left edge faces the cable hole that brings the switch and LED
wires down, its bottom edge the players. Holes are on a 2.54 mm grid, counted
from the top left corner: columns 1, 2, 3 ... to the right, rows A, B, C ...
downwards ("E12": row E, column 12). Parts stand on the component side; every
connection is an insulated wire on the solder side, drawn as if the board
were glass. A pad-per-hole perfboard has no tracks, so nothing is cut.

What is where follows hardware/pinmap.json: a Pico pad carries the function
the pin map gives its GPIO, and each function reaches exactly one connector
pin (:func:`pin_uses` proves it). Both options share the Pico, the LED buffer,
the power parts and the LED and button connectors; option A adds two JST XH
headers and the column pull-ups (its diodes sit at the reed switches, section
3 of docs/hardware.md, so 11 wires come down instead of 36), option B the
four 74HC165 with their pull-ups, capacitors and headers.
"""

from host_tools.hardware.pins import HEADER, header_pin
from host_tools.hardware.wiring import SR_INPUTS

PITCH = 2.54
COLS, ROWS = 35, 27             # the holes of a 90 x 70 mm perfboard
KEEP_OUT = 3.5                  # mm around a standoff hole: an M3 standoff's hex
PX, PY = 24, 6                  # the Pico's pin 40 column and pin 21 row


class Part:
    """A part on the grid: its pads {pin: (column, row)} and its outline
    (left, top, right, bottom) in holes, for drawing and collision checks."""

    def __init__(self, ref, kind, value, pads, box, note=""):
        self.ref, self.kind, self.value = ref, kind, value
        self.pads, self.box, self.note = pads, box, note
        self.label = "%s %s" % (ref, value)     # "" in a row of like parts but the first


def hole_name(hole):
    """"E12" for column 12, row E (both counted from 1 at the top left)."""
    col, row = hole
    letters = ""
    row += 1
    while row:
        row, rest = divmod(row - 1, 26)
        letters = chr(65 + rest) + letters
    return "%s%d" % (letters, col + 1)


# -- footprints ----------------------------------------------------------------------

def pico(ref):
    """Upright, USB at the bottom edge: pins 1-20 up the right column, 21-40
    down the left one (the Pico datasheet's pinout turned half a turn)."""
    pads = {}
    for n in range(1, 21):
        pads[n] = (PX + 7, PY + 20 - n)
    for n in range(21, 41):
        pads[n] = (PX, PY + n - 21)
    return Part(ref, "pico", "Raspberry Pi Pico", pads,
                (PX - 0.63, PY - 0.54, PX + 7.63, PY + 19.54),
                "USB at the bottom edge")


def dip(ref, value, pins, col, top):
    """A DIP, notch on the left: pin 1 bottom left, the last pin top left."""
    half = pins // 2
    pads = {}
    for k in range(half):
        pads[k + 1] = (col + k, top + 3)
        pads[pins - k] = (col + k, top)
    # the body lies between the pin rows; the pins' shoulders reach just past them
    return Part(ref, "dip", value, pads, (col - 0.4, top - 0.3, col + half - 0.6, top + 3.3))


def header(ref, value, pins, col, row, latch_down=True):
    """A JST XH header (2.5 mm pitch: its pins take 2.54 mm holes), pin 1 on the left."""
    pads = {k + 1: (col + k, row) for k in range(pins)}
    near, far = (0.93, 1.34) if latch_down else (1.34, 0.93)
    return Part(ref, "xh", value, pads, (col - 0.95, row - near, col + pins - 0.05, row + far))


def wire_pads(ref, value, pins, col, row, note):
    """Holes where a cable's wires are soldered in (the LED and button cables)."""
    pads = {k + 1: (col + k, row) for k in range(pins)}
    return Part(ref, "wires", value, pads, (col - 0.45, row - 0.45, col + pins - 0.55, row + 0.45),
                note)


def two_leads(ref, kind, value, a, b):
    """A resistor, capacitor, diode or wire link from hole a to hole b."""
    box = (min(a[0], b[0]) - 0.45, min(a[1], b[1]) - 0.45,
           max(a[0], b[0]) + 0.45, max(a[1], b[1]) + 0.45)
    return Part(ref, kind, value, {1: a, 2: b}, box)


# -- the two boards ------------------------------------------------------------------

def common_parts():
    """What both options carry: the Pico, the LED data buffer, power, cables."""
    return [
        pico("U1"),
        dip("U2", "74AHCT125", 14, 26, 1),
        two_leads("C1", "cap", "100 nF", (25, 1), (25, 3)),
        wire_pads("J5", "LED cable", 3, 0, 12, "to the strip's JST SM 3-pin"),
        wire_pads("J6", "button cable", 2, 33, 12, "to the button's JST SM 2-pin"),
        two_leads("JP1", "link", "USB power link", (21, 22), (21, 24)),
        two_leads("D1", "diode", "1N5817", (22, 19), (22, 23)),
        wire_pads("J7", "5 V supply", 2, 21, 26, "to the 2.1 mm jack: +5 V, GND"),
    ]


def matrix_parts():
    """Option A: rows and columns on two 6-pin XH headers, column pull-ups."""
    parts = [header("J1", "XH 6-pin: rows", 6, 2, 1),
             header("J2", "XH 6-pin: columns", 6, 11, 1)]
    for c in range(5):
        parts.append(two_leads("R%d" % (c + 1), "res", "10k", (11 + c, 4), (11 + c, 5)))
        parts[-1].label = "R1-R5 10k" if c == 0 else ""
    return parts


def chip_place(chip):
    """(column of pin 16, row of the top pins) of 74HC165 number ``chip``."""
    return (3 if chip in (1, 3) else 13), (5 if chip <= 2 else 15)


def shift_parts():
    """Option B: four 74HC165, a 10k pull-up standing beside every input, a
    100 nF capacitor at each chip, an 8-pin XH header per chip."""
    parts = []
    for chip in range(1, 5):
        col, top = chip_place(chip)
        parts.append(dip("U%d" % (chip + 2), "74HC165", 16, col, top))
        parts.append(two_leads("C%d" % (chip + 1), "cap", "100 nF", (col - 1, top - 1),
                               (col - 1, top + 1)))
        for k, (letter, pin) in enumerate(SR_INPUTS):
            i = col + (16 - pin if pin > 8 else pin - 1)
            signal, rail = (top - 1, top - 2) if pin > 8 else (top + 4, top + 5)
            parts.append(two_leads("R%d%s" % (chip, letter), "res", "10k", (i, signal),
                                   (i, rail)))
            parts[-1].label = {"D": "R%dD-A 10k" % chip, "E": "R%dE-H 10k" % chip}.get(letter, "")
        row = 1 if chip <= 2 else 25
        parts.append(header("J%d" % chip, "XH 8-pin: chip %d" % chip, 8, col - 1, row,
                            latch_down=chip <= 2))
    return parts


# -- what connects to what -------------------------------------------------------------

def _gp(pinmap, gpio):
    return ("U1", header_pin(gpio))


def common_nets(pinmap):
    """Nets of the shared parts: {name: [(ref, pin), ...]}, the Pico's pad first."""
    pins = pinmap["pins"]
    gnd = [("U1", 38), ("U1", 23), ("U2", 7), ("U2", 1), ("U2", 5), ("U2", 9), ("U2", 12),
           ("C1", 2), ("J5", 3), ("J6", 2), ("J7", 2)]
    return {
        "led (GP%d)" % pins["led"]: [_gp(pinmap, pins["led"]), ("U2", 2)],
        "LED data": [("U2", 3), ("J5", 2)],
        "button (GP%d)" % pins["button"]: [_gp(pinmap, pins["button"]), ("J6", 1)],
        "+5V": [("J5", 1), ("U2", 14), ("U2", 4), ("U2", 10), ("U2", 13), ("C1", 1),
                ("JP1", 2), ("D1", 1), ("J7", 1)],
        "VBUS": [("U1", 40), ("JP1", 1)],
        "VSYS": [("U1", 39), ("D1", 2)],
        "GND": gnd,
        "3V3": [("U1", 36)],
    }


def matrix_nets(pinmap):
    pins = pinmap["pins"]
    nets = common_nets(pinmap)
    for r, gpio in enumerate(pins["matrix_rows"]):
        nets["row %d (GP%d)" % (r, gpio)] = [_gp(pinmap, gpio), ("J1", r + 1)]
    for c, gpio in enumerate(pins["matrix_cols"]):
        nets["column %d (GP%d)" % (c, gpio)] = [_gp(pinmap, gpio), ("R%d" % (c + 1), 1),
                                                 ("J2", c + 1)]
        nets["3V3"].append(("R%d" % (c + 1), 2))
    return nets


def shift_nets(pinmap):
    pins = pinmap["pins"]
    nets = common_nets(pinmap)
    chips = ["U%d" % (chip + 2) for chip in range(1, 5)]
    nets["sr_load (GP%d)" % pins["sr_load"]] = [_gp(pinmap, pins["sr_load"])] + [(u, 1) for u in chips]
    nets["sr_clock (GP%d)" % pins["sr_clock"]] = [_gp(pinmap, pins["sr_clock"])] + [(u, 2) for u in chips]
    nets["sr_data (GP%d)" % pins["sr_data"]] = [_gp(pinmap, pins["sr_data"]), ("U3", 9)]
    for n in range(3):
        nets["chain %d-%d" % (n + 1, n + 2)] = [(chips[n], 10), (chips[n + 1], 9)]
    nets["3V3"] += [(u, 16) for u in chips] + [("U6", 10)]
    nets["GND"] += [(u, p) for u in chips for p in (8, 15)] + [("J4", 7)]
    for chip in range(1, 5):
        u = chips[chip - 1]
        nets["3V3"].append(("C%d" % (chip + 1), 1))
        nets["GND"].append(("C%d" % (chip + 1), 2))
        for k, (letter, pin) in enumerate(SR_INPUTS):
            square = (chip - 1) * 8 + k + 1
            name = "square %d" % square if square <= 30 else "chip %d %s unused" % (chip, letter)
            net = [(u, pin), ("R%d%s" % (chip, letter), 1)]
            if square <= 30:
                net.append(("J%d" % chip, k + 1))
            nets[name] = net
            nets["3V3"].append(("R%d%s" % (chip, letter), 2))
    return nets


class Layout:
    """One option's perfboard: its parts, its nets and the wires joining them."""

    def __init__(self, option, pinmap, board=None):
        self.option = option
        self.pinmap = pinmap
        extra, nets = ((matrix_parts(), matrix_nets(pinmap)) if option == "matrix"
                       else (shift_parts(), shift_nets(pinmap)))
        self.parts = {p.ref: p for p in common_parts() + extra}
        self.nets = nets
        self.mounts = mounting_holes(board) if board else []
        self.links = {name: wires(self.pads_of(net)) for name, net in nets.items()}

    def pad(self, ref, pin):
        return self.parts[ref].pads[pin]

    def pads_of(self, net):
        return [self.pad(ref, pin) for ref, pin in net]

    def connector_pins(self):
        """(ref, pin, net name or None) of every connector pin, in order."""
        where = {(ref, pin): name for name, net in self.nets.items() for ref, pin in net}
        for ref in sorted(self.parts, key=_ref_order):
            part = self.parts[ref]
            if part.kind in ("xh", "wires"):
                for pin in sorted(part.pads):
                    yield ref, pin, where.get((ref, pin))


def _ref_order(ref):
    letters = ref.rstrip("0123456789ABCDEFGH") or ref
    return (letters, len(ref), ref)


def wires(holes):
    """Solder-side wires joining ``holes`` in a chain, nearest next, each as an
    L: along the row first, then along the column."""
    if len(holes) < 2:
        return []
    left = list(holes[1:])
    chain = [holes[0]]
    while left:
        last = chain[-1]
        nxt = min(left, key=lambda h: (abs(h[0] - last[0]) + abs(h[1] - last[1]), h))
        left.remove(nxt)
        chain.append(nxt)
    return [[a, (b[0], a[1]), b] for a, b in zip(chain, chain[1:])]


def mounting_holes(board):
    """The four standoff holes, in holes from the top left (board.json's
    ``perfboard.holes``: a rectangle centred on the perfboard)."""
    w, h = board.perfboard_size
    hx, hy = board.perfboard_holes[0] / 2, board.perfboard_holes[1] / 2
    mx, my = margins(board)
    return [((w / 2 + sx * hx - mx) / PITCH, (h / 2 + sy * hy - my) / PITCH)
            for sx, sy in ((-1, -1), (1, -1), (-1, 1), (1, 1))]


def margins(board):
    """The perfboard's edge to its first hole, in mm, for a grid centred on it."""
    w, h = board.perfboard_size
    return (w - (COLS - 1) * PITCH) / 2, (h - (ROWS - 1) * PITCH) / 2


def pin_uses(layout):
    """{GPIO: the nets its Pico pad is in} for every GPIO on the header: each
    of the pin map's pins for this option must be in exactly one, named after
    its function, and every other GPIO in none."""
    uses = {}
    for pin, label in HEADER.items():
        if label.startswith("GP"):
            uses[int(label[2:])] = [name for name, net in layout.nets.items()
                                    if ("U1", pin) in net]
    return uses


def pin_problems(layout):
    """One sentence for each pin-map pin that is not on exactly one Pico pad,
    in exactly one net named after it, reaching one connector pin or chip
    input; and for each other GPIO the layout wires."""
    wanted = option_pins(layout.pinmap, layout.option)
    uses = pin_uses(layout)
    out = []
    for function, gpio in sorted(wanted.items()):
        nets = uses.get(gpio, [])
        if len(nets) != 1 or not nets[0].startswith(function + " "):
            out.append("GP%d (%s) is in %d nets: %s" % (gpio, function, len(nets), nets))
            continue
        others = [(ref, pin) for ref, pin in layout.nets[nets[0]] if ref != "U1"]
        if not others:
            out.append("GP%d (%s) reaches nothing" % (gpio, function))
        ends = [(ref, pin) for ref, pin in others if layout.parts[ref].kind in ("xh", "wires")]
        if len(ends) > 1:
            out.append("GP%d (%s) reaches %d connector pins" % (gpio, function, len(ends)))
    for gpio, nets in sorted(uses.items()):
        if gpio not in wanted.values() and nets:
            out.append("GP%d is wired (%s) but not in the pin map's %s pins"
                       % (gpio, nets, layout.option))
    pads = [("U1", pin) for net in layout.nets.values() for ref, pin in net if ref == "U1"]
    for pad in set(pads):
        if pads.count(pad) > 1:
            out.append("Pico pin %d is in %d nets" % (pad[1], pads.count(pad)))
    return out


def option_pins(pinmap, option):
    """{function: GPIO} the option wires: its sensing pins, the LEDs, the button."""
    pins = pinmap["pins"]
    out = {"led": pins["led"], "button": pins["button"]}
    if option == "matrix":
        out.update(("row %d" % r, g) for r, g in enumerate(pins["matrix_rows"]))
        out.update(("column %d" % c, g) for c, g in enumerate(pins["matrix_cols"]))
    else:
        out.update((k, pins[k]) for k in ("sr_load", "sr_clock", "sr_data"))
    return out
