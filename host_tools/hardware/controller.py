"""The controller's generated files: the two perfboard drawings and their
tables in docs/hardware.md ("Soldering the controller"): the parts with the
hole of their pin 1, the wire list and the connector pinouts, for each
sensing option. Everything comes from hardware/pinmap.json and
hardware/board.json; generated.py writes it with the rest.
"""

import os

from host_tools.hardware import perfboard_svg
from host_tools.hardware.perfboard import Layout, hole_name
from host_tools.hardware.text import splice
from host_tools.hardware.wirelist import table_pinouts, table_wires

OPTIONS = (("matrix", "Option A, the diode matrix"), ("shift", "Option B, the 74HC165 chain"))
SVG_PATH = os.path.join("hardware", "perfboard-%s.svg")
SIZE_NOTE = ("perfboard.size in hardware/board.json is %s mm: the layout needs at least "
             "90 x 70 mm (35 x 27 holes).")


def notes(layout):
    """What the drawing cannot show by itself."""
    d1 = layout.parts["D1"]
    out = ["USB power: fit the link JP1; leave D1 and J7 out.",
           "5 V 2 A supply: no JP1; D1 with its band at %s (VSYS), J7 to the jack."
           % hole_name(d1.pads[2]),
           "At LED 0, not here: the 330 ohm resistor in the data wire and",
           "the 1000 uF capacitor across +5V and GND (section 5).",
           "Dashed red: keep clear for the standoffs (M3, 12 mm)."]
    if layout.option == "matrix":
        out += ["The 30 diodes sit at the reed switches (section 3).",
                "J2 pin 6 is spare."]
    else:
        out += ["Pull-ups stand upright beside their inputs (R1A-H: chip 1).",
                "J4 pin 7: the reeds' common GND; pin 8 spare.",
                "Chip 4's inputs B and A: pull-up only."]
    return out


def table_parts(layout):
    """Each part once (a chip's eight pull-ups as one line), with its pin 1."""
    lines = ["| part | what | pin 1 at | note |", "|---|---|---|---|"]
    for ref in sorted(layout.parts, key=lambda r: (r[0], len(r), r)):
        part = layout.parts[ref]
        if ref.startswith("R") and len(ref) == 3 and ref[-1] != "A":
            continue
        name = "R%sA-H" % ref[1] if ref.startswith("R") and len(ref) == 3 else ref
        value = part.value + (" x 8" if name != ref else "")
        lines.append("| %s | %s | %s | %s |" % (name, value, hole_name(part.pads[1]),
                                                 part.note or "-"))
    return "\n".join(lines)


def check_size(board):
    w, h = board.perfboard_size
    if w < 90 or h < 70:
        raise ValueError(SIZE_NOTE % ("%g x %g" % (w, h)))


def controller_files(pinmap, board, doc):
    """{path: text} of the two drawings, and ``doc`` with its tables updated."""
    check_size(board)
    files = {}
    for option, title in OPTIONS:
        layout = Layout(option, pinmap, board)
        files[SVG_PATH % option] = perfboard_svg.render(
            layout, board.perfboard_size, "Senet controller perfboard: %s" % title,
            notes(layout))
        doc = splice(doc, "perfboard-%s" % option, table_parts(layout))
        doc = splice(doc, "wires-%s" % option, table_wires(board, layout))
        doc = splice(doc, "pinouts-%s" % option, table_pinouts(layout))
    return files, doc
