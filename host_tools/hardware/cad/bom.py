"""The bill of materials, generated with the design: ``hardware/bom.csv``.

Quantities that follow from the board (panel sizes, pieces, magnets, screw
length) come from ``hardware/board.json``; the electronics follow
docs/hardware.md. The ``option`` column says which build a row belongs to:
``all``, ``matrix`` (option A), ``shift`` (option B) or ``2a`` (the 5 V 2 A
wall supply). The ``kind`` column says part, material or tool; tools are
listed but not counted in the totals.

Costs are rough single-unit estimates in US dollars as of December 2026
(common distributors and hobby shops, rounded), not quotes: they are there to
say what a board costs to the nearest few dollars.
"""

import csv
import io
import math

from . import layout, pieces
from .drawing import fmt

COST_DATE = "2026-12"
FIELDS = ("item", "qty", "option", "kind", "description", "manufacturer", "mpn", "notes",
          "unit_usd_est_%s" % COST_DATE.replace("-", "_"),
          "line_usd_est_%s" % COST_DATE.replace("-", "_"))
OPTIONS = ("all", "matrix", "shift", "2a")

PLYWOOD_USD_PER_M2_PER_MM = 7.0     # birch plywood, about 21 USD/m^2 at 3 mm
ACRYLIC_USD_PER_M2 = 40.0           # 1 mm opal acrylic sheet
PLA_G_PER_CM3 = 1.24
PLA_USD_PER_G = 0.025               # 25 USD/kg filament; pieces printed solid
SCREW_LENGTHS = (10, 12, 16, 20, 25, 30, 35, 40)
SPARE_REEDS = 3
SPARE_MAGNETS = 4


def _row(qty, option, kind, description, maker, mpn, notes, unit):
    return {"qty": qty, "option": option, "kind": kind, "description": description,
            "manufacturer": maker, "mpn": mpn, "notes": notes, "unit": unit}


def _xh_connectors(option, count, pins, wires, use, costs):
    """The switch wiring's plug between the bottom panel and the perfboard:
    JST XH headers, housings and a crimp contact per pin."""
    header, housing = costs
    return [
        _row(count, option, "part", "Wire-to-board header, %d-pin, 2.5 mm pitch" % pins, "JST",
             "B%dB-XH-A(LF)(SN)" % pins, "JST XH; %s" % use, header),
        _row(count, option, "part", "Connector housing, %d-pin, 2.5 mm pitch" % pins, "JST",
             "XHP-%d" % pins, "Mates with B%dB-XH-A" % pins, housing),
        _row(count * pins, option, "part", "Crimp contact for XH housings, 22-28 AWG", "JST",
             "SXH-001T-P0.6", "%d wires, %d spare" % (wires, count * pins - wires), 0.05),
    ]


def electronics(board):
    n = 2 * board.pieces["count"]
    return [
        _row(1, "all", "part", "Microcontroller board, RP2040, with 2 x 20 pin headers",
             "Raspberry Pi", "SC0915", "Raspberry Pi Pico; Pico H (pre-soldered headers) "
             "also fits", 4.00),
        _row(30, "all", "part", "Reed switch, normally open, glass, 10-15 AT pull-in, "
             "about %s mm body" % fmt(board.reed["glass_length"]), "Littelfuse (Hamlin)",
             "MDSR-7 (10-15 AT band)", "Equivalent: Standex-Meder KSK-1A66 in the 10-15 AT "
             "band; one per square", 1.20),
        _row(SPARE_REEDS, "all", "part", "Reed switch, spares (same part)",
             "Littelfuse (Hamlin)", "MDSR-7 spare", "The glass breaks if a lead is bent too "
             "near it", 1.20),
        _row(n, "all", "part", "Neodymium disc magnet, %s mm x %s mm, N42, axially "
             "magnetised" % (fmt(board.magnet["diameter"]), fmt(board.magnet["height"])),
             "K&J Magnetics", "D52", "5/16 x 1/8 in (7.9 x 3.2 mm), N42; any 8 x 3 mm N42 "
             "disc fits; one per piece, %d pieces for long Senet" % n, 0.30),
        _row(SPARE_MAGNETS, "all", "part", "Neodymium disc magnet, spares (same part)",
             "K&J Magnetics", "D52 spare", "For a lost piece or a wrongly-poled one", 0.30),
        _row(1, "all", "part", "WS2812B addressable RGB LED strip, 60 LEDs/m, 5 V, 1 m, "
             "cut to 36 single pixels", "Worldsemi", "WS2812B", "Sold on strips by many "
             "vendors; 36 pixels needed, the rest are spares", 8.00),
        _row(1, "all", "part", "Quad buffer, 3.3 V to 5 V level shifter, TTL-level inputs, "
             "DIP-14", "Texas Instruments", "SN74AHCT125N", "Drives the LED data line at "
             "5 V", 0.60),
        _row(1, "all", "part", "Resistor 330 ohm, 1/4 W, 1 %, through-hole", "Yageo",
             "MFR-25FBF52-330R", "Series resistor in the LED data line", 0.10),
        _row(1, "all", "part", "Electrolytic capacitor 1000 uF, 10 V, radial", "Panasonic",
             "EEU-FR1A102", "Across +5V and GND at the strip input; any 1000 uF >= 6.3 V",
             0.50),
        _row(1, "all", "part", "Ceramic capacitor 100 nF, 50 V, X7R, through-hole", "KEMET",
             "C320C104K5R5TA", "Decoupling at the 74AHCT125", 0.15),
        _row(1, "all", "part", "Momentary push button, normally open, panel mount, "
             "%s mm hole" % fmt(board.button["hole"]), "any", "-", "Any %s mm panel-mount "
             "button for a %s mm panel; the top panel has the hole"
             % (fmt(board.button["hole"]), fmt(board.top_t)), 1.50),
        _row(1, "all", "part", "Wire-to-wire connector set, 3-pin, for the LED strip",
             "JST", "SMR-03V-B + SMP-03V-BC", "JST SM series, with contacts; the top panel "
             "(LEDs) comes off the base", 0.60),
        _row(1, "all", "part", "Wire-to-wire connector set, 2-pin, for the button", "JST",
             "SMR-02V-B + SMP-02V-BC", "JST SM series, with contacts; the top panel "
             "(button) comes off the base", 0.50),
        _row(1, "all", "part", "Perfboard, about %s x %s mm"
             % (fmt(board.perfboard_size[0]), fmt(board.perfboard_size[1])), "any", "-",
             "Carries the Pico and the chips; hangs under the bottom panel", 3.00),
        _row(1, "all", "part", "Hook-up wire, 22 AWG solid, three colours, 10 m",
             "Alpha Wire", "3051 series", "Signals and switch wiring", 15.00),
        _row(1, "all", "part", "Hook-up wire, 20 AWG stranded, red and black, 2 m",
             "Alpha Wire", "3053 series", "+5 V and GND to the strip", 5.00),
        _row(1, "all", "part", "USB cable, USB-A (or USB-C) to micro-USB B, data lines, "
             "1.5 m", "any", "-", "Power and the laptop link; a charge-only cable will "
             "not do", 4.00),
        # Option A: 6 row + 5 column wires from the bottom panel to the perfboard.
        _row(30, "matrix", "part", "Signal diode, 1N4148, DO-35", "onsemi", "1N4148",
             "One in series with every reed switch; band towards the row", 0.05),
        _row(5, "matrix", "part", "Resistor 10 kohm, 1/4 W, 1 %, through-hole", "Yageo",
             "MFR-25FBF52-10K", "Column pull-ups to 3V3", 0.05),
    ] + _xh_connectors("matrix", 2, 6, 11, "one for the 6 row wires, one for the 5 "
                       "column wires (one pin spare)", (0.25, 0.10)) + [
        # Option B: one wire per switch (30) plus their common GND, 31 wires.
        _row(4, "shift", "part", "8-bit parallel-in serial-out shift register, DIP-16",
             "Texas Instruments", "SN74HC165N", "Powered from 3V3", 0.80),
        _row(32, "shift", "part", "Resistor 10 kohm, 1/4 W, 1 %, through-hole", "Yageo",
             "MFR-25FBF52-10K", "Pull-up on every 74HC165 input, two unused inputs "
             "included", 0.05),
        _row(4, "shift", "part", "Ceramic capacitor 100 nF, 50 V, X7R, through-hole",
             "KEMET", "C320C104K5R5TA", "Decoupling, one per 74HC165", 0.15),
        _row(4, "shift", "part", "DIP-16 IC socket", "any", "-", "Optional", 0.30),
    ] + _xh_connectors("shift", 4, 8, 31, "one per 74HC165, its 8 inputs: chip 1 squares "
                       "1-8, chip 2 9-16, chip 3 17-24, chip 4 25-30 and the switches' GND",
                       (0.30, 0.12)) + [
        _row(1, "2a", "part", "Power supply 5 V 2 A, wall plug, 2.1 mm barrel", "Adafruit",
             "276", "UL-listed; for museums and full brightness", 8.00),
        _row(1, "2a", "part", "DC barrel jack 2.1 mm, panel or PCB mount",
             "CUI Devices (Same Sky)", "PJ-002A", "Supply input", 0.80),
        _row(1, "2a", "part", "Schottky diode 1 A 20 V, DO-41", "onsemi", "1N5817",
             "Supply +5 V into the Pico's VSYS, band towards the Pico", 0.20),
    ]


def screw_length(board):
    """The shortest stock M3 screw through the stack with 5 mm into a foot."""
    need = board.stack + 5
    return next((n for n in SCREW_LENGTHS if n >= need), SCREW_LENGTHS[-1])


def _panel_row(board, name):
    t = {"top": board.top_t, "frame": board.frame_t, "bottom": board.bottom_t,
         "cover": board.base["cover"], "walls": board.base["wall"]}[name]
    area = board.width * board.height / 1e6
    size = "%s x %s mm" % (fmt(board.width), fmt(board.height))
    if name == "walls":
        depth = board.base["depth"]
        area = 2 * (board.width + board.height) * depth / 1e6
        size = "%s mm high, round a %s x %s mm board" % (fmt(depth), fmt(board.width),
                                                         fmt(board.height))
    what = {"top": "playing surface: squares engraved, LED windows and button hole cut",
            "frame": "spacer: a rim and the bars cut from its middle",
            "bottom": "base: reed switch slots, perfboard and cable holes",
            "cover": "under the compartment: standoff, mounting and cable holes",
            "walls": "the compartment's four walls: USB opening in front, vents behind"}[name]
    material = board.base["material"] if name in ("cover", "walls") else board.materials[name]
    return _row(1, "all", "material", "%s panel, %s mm %s, %s"
                % (name.capitalize(), fmt(t), material, size), "any", "-",
                "Laser-cut from hardware/cad/%s.dxf (or .svg); %s" % (name, what),
                area * t * PLYWOOD_USD_PER_M2_PER_MM)


def _piece_row(board, kind):
    p = pieces.shape(board, kind)
    grams = pieces.volume(board, p) / 1000 * PLA_G_PER_CM3
    colour = "black" if kind == "spool" else "white"
    count = board.pieces["count"]
    return _row(count, "all", "part", "%s playing piece (%s), %s mm across, %s mm high, "
                "%s mm magnet pocket" % (colour.capitalize(), kind, fmt(p["diameter"]),
                                         fmt(p["height"]), fmt(board.pocket_diameter)),
                "3D-printed or turned", "hardware/cad/%s.stl" % kind,
                "%s PLA, about %s g each printed solid; 5 for Senet, %d for long Senet; "
                "or turned in wood with the same pocket" % (colour.capitalize(),
                                                             fmt(round(grams, 1)), count),
                grams * PLA_USD_PER_G)


def _diffuser_row(board):
    """The diffuser strips, cut from one sheet of opal acrylic."""
    strips = layout.diffuser_pieces(board)
    area = sum(s[3] * s[4] for s in strips) / 1e6
    return _row(1, "all", "material", "Diffuser strips for the LED windows, %s mm %s, %d "
                "strips" % (fmt(board.diffuser_t), board.materials["diffuser"], len(strips)),
                "any", "-", "Laser-cut from hardware/cad/diffuser.dxf (CO2 laser; a diode "
                "laser does not cut opal acrylic); glued under the top panel inside the "
                "channels, never over a bar", max(2.0, area * ACRYLIC_USD_PER_M2))


def solid_names(board):
    """The name each generated part has in the parts list (its description up
    to the first comma), by the part's file name, for the drawings."""
    rows = {name: _panel_row(board, name) for name in ("top", "frame", "bottom", "cover",
                                                        "walls")}
    rows["diffuser"] = _diffuser_row(board)
    rows.update((kind, _piece_row(board, kind)) for kind in pieces.KINDS)
    return {key: row["description"].split(",")[0] for key, row in rows.items()}


def materials(board):
    n = 2 * board.pieces["count"]
    length = screw_length(board)
    return [
        _panel_row(board, "top"), _panel_row(board, "frame"), _panel_row(board, "bottom"),
        _panel_row(board, "cover"), _panel_row(board, "walls"),
        _piece_row(board, "spool"), _piece_row(board, "cone"),
        _row(4, "all", "material", "Machine screw M3 x %d, pan head" % length, "any", "-",
             "Through the three panels into the standoffs", 0.10),
        _row(4, "all", "material", "Standoff M3 x %s mm, female-female, the compartment's "
             "corner pillars" % fmt(board.base["depth"]), "any", "-", "Stand on the cover; "
             "the corner screws go into their tops", 0.35),
        _row(4, "all", "material", "Machine screw M3 x 8, countersunk", "any", "-",
             "From under the cover into the standoffs; countersink the cover's corner "
             "holes", 0.08),
        _row(4, "all", "material", "Self-adhesive rubber foot, about 10 mm", "any", "-",
             "Under the cover, over the countersunk screws", 0.15),
        _row(4, "all", "material", "Wood screw 4 x 20 mm, countersunk", "any", "-",
             "Only for an exhibit: through the cover's mounting holes into the furniture "
             "(docs/museum-hardware.md)", 0.05),
        _row(4, "all", "material", "Standoff M3 x 12 mm, female-female", "any", "-",
             "Hold the perfboard under the bottom panel", 0.25),
        _row(8, "all", "material", "Machine screw M3 x 6, pan head", "any", "-",
             "Perfboard standoffs", 0.05),
        _row(n, "all", "material", "Self-adhesive felt pad, round, about %s mm, 1 mm"
             % fmt(round(board.piece_diameter * 0.7)), "any", "-", "Optional, under each "
             "piece; adds 1 mm between magnet and switch, so test with it on", 0.05),
        _diffuser_row(board),
        _row(1, "all", "material", "Hot glue sticks and wood glue", "any", "-",
             "Reed switches by their leads; panels are screwed, not glued", 2.00),
    ]


TOOLS = (
    ("Laser cutter, or a maker space or cutting service", "For the three panels"),
    ("3D printer (PLA), or a printing service; or a wood lathe", "For the pieces"),
    ("Soldering iron and solder", "Electronics"),
    ("Multimeter with continuity and diode test", "Testing each square before assembly"),
    ("Wire stripper and flush cutter", "Electronics"),
    ("Crimp tool for JST XH and SM contacts", "Or buy pre-crimped leads"),
    ("Hot glue gun", "Fixing the reed switches"),
    ("Screwdriver for M3 screws", "Assembly"),
)


def rows(board):
    """Every BOM row with its item number and its cost."""
    out = electronics(board) + materials(board)
    out += [_row(1, "all", "tool", name, "-", "-", note, None) for name, note in TOOLS]
    for i, row in enumerate(out, 1):
        row["item"] = i
        if row["unit"] is not None:     # whole cents, so the lines add up
            row["unit"] = math.floor(row["unit"] * 100 + 0.5) / 100
    return out


def totals(board):
    """(build, estimated cost) for each way to build the board."""
    counted = [r for r in rows(board) if r["kind"] != "tool"]

    def cost(options):
        return sum(r["qty"] * r["unit"] for r in counted if r["option"] in options)

    return [
        ("A: diode matrix, USB power", cost(("all", "matrix"))),
        ("B: 74HC165 chain, USB power", cost(("all", "shift"))),
        ("A with the 5 V 2 A supply", cost(("all", "matrix", "2a"))),
        ("B with the 5 V 2 A supply", cost(("all", "shift", "2a"))),
    ]


def _money(value):
    return "%.2f" % (math.floor(value * 100 + 0.5) / 100)


def render_csv(board):
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(FIELDS)
    for r in rows(board):
        unit = "" if r["unit"] is None else _money(r["unit"])
        line = "" if r["unit"] is None else _money(r["qty"] * r["unit"])
        writer.writerow([r["item"], r["qty"], r["option"], r["kind"], r["description"],
                         r["manufacturer"], r["mpn"], r["notes"], unit, line])
    return out.getvalue()


def render_totals(board):
    """The docs/hardware.md table of what each build costs."""
    out = ["Estimated cost in US dollars, %s, single units, tools not counted:" % COST_DATE,
           "", "| build | estimated cost (USD, %s) |" % COST_DATE, "|---|---|"]
    for name, value in totals(board):
        out.append("| %s | %s |" % (name, _money(value)))
    return "\n".join(out)
