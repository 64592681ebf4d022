"""The controller a maker solders: the perfboard for each sensing option, the
wire list and the connector pinouts, all generated from hardware/pinmap.json
and hardware/board.json.

A pin dropped or doubled anywhere between the pin map and the connectors is
found; the parts sit on the perfboard's holes, clear of each other and of the
standoffs; every wire is at least as long as the straight line it spans in the
CAD geometry; and the committed drawings and docs are what the generator
gives.
"""

import copy
import json
import math
import os
import re

import pytest

from host_tools.hardware.cad.layout import (button_centre, cable_hole_centre, led_positions,
                                            reed_slot_centre)
from host_tools.hardware.cad.params import Board
from host_tools.hardware.cad.params import load as load_board
from host_tools.hardware.controller import controller_files
from host_tools.hardware.perfboard import (COLS, KEEP_OUT, PITCH, ROWS, Layout, option_pins,
                                           pin_problems, pin_uses)
from host_tools.hardware.pins import header_pin, load_pinmap
from host_tools.hardware.wirelist import STANDOFF, pad_xy, table_pinouts, wire_list
import paths

ROOT = paths.ROOT
OPTIONS = ("matrix", "shift")


@pytest.fixture(scope="module")
def board():
    return load_board()


@pytest.fixture(scope="module")
def pinmap():
    return load_pinmap()


def read(path):
    with open(os.path.join(ROOT, path), encoding="utf-8") as f:
        return f.read()


# -- every pin once ---------------------------------------------------------------------

@pytest.mark.parametrize("option", OPTIONS)
def test_every_pin_of_the_pin_map_is_on_exactly_one_pad_and_reaches_its_place(
        option, pinmap, board):
    layout = Layout(option, pinmap, board)
    assert pin_problems(layout) == []
    uses = pin_uses(layout)
    for function, gpio in option_pins(pinmap, option).items():
        assert len(uses[gpio]) == 1, (function, uses[gpio])
        assert ("U1", header_pin(gpio)) in layout.nets[uses[gpio][0]]
    wired = {g for g, nets in uses.items() if nets}
    assert wired == set(option_pins(pinmap, option).values())


@pytest.mark.parametrize("option", OPTIONS)
def test_every_pin_that_leaves_the_perfboard_is_on_exactly_one_connector_pin(
        option, pinmap, board):
    """Rows, columns, the button and the buffered LED line each name their GPIO
    once in the pinouts; option B's chain pins stay on the perfboard."""
    text = table_pinouts(Layout(option, pinmap, board))
    leaving = {f: g for f, g in option_pins(pinmap, option).items()
               if not f.startswith("sr_")}
    for function, gpio in leaving.items():
        rows = [line for line in text.splitlines() if re.search(r"\bGP%d\b" % gpio, line)]
        assert len(rows) == 1, (function, gpio, rows)
    for function in ("sr_load", "sr_clock", "sr_data"):
        assert "GP%d" % pinmap["pins"][function] not in text


def test_a_pin_dropped_or_doubled_is_found(pinmap, board):
    """The check itself, broken on purpose: a row's Pico pad taken out of its
    net, a column's pad put in a second net, a button wired twice."""
    layout = Layout("matrix", pinmap, board)
    dropped = copy.deepcopy(layout)
    row2 = "row 2 (GP%d)" % pinmap["pins"]["matrix_rows"][2]
    dropped.nets[row2].remove(("U1", header_pin(pinmap["pins"]["matrix_rows"][2])))
    assert any("row 2" in p for p in pin_problems(dropped))
    doubled = copy.deepcopy(layout)
    doubled.nets[row2].append(("U1", header_pin(pinmap["pins"]["matrix_cols"][0])))
    problems = pin_problems(doubled)
    assert any("column 0" in p for p in problems)
    assert any("in 2 nets" in p for p in problems)
    twice = copy.deepcopy(layout)
    twice.nets["button (GP%d)" % pinmap["pins"]["button"]].append(("J1", 1))
    assert any("2 connector pins" in p for p in pin_problems(twice))


def test_the_layout_follows_a_moved_pin(pinmap, board):
    """Move the button to GP18: its Pico pad is pin 24, and GP17's is empty."""
    moved = json.loads(json.dumps(pinmap))
    moved["pins"]["button"] = 18
    layout = Layout("matrix", moved, board)
    assert pin_problems(layout) == []
    assert pin_uses(layout)[18] == ["button (GP18)"]
    assert pin_uses(layout)[17] == []
    assert ("U1", 24) in layout.nets["button (GP18)"]


# -- the parts fit ------------------------------------------------------------------------

def overlap(a, b):
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


@pytest.mark.parametrize("option", OPTIONS)
def test_every_part_sits_on_the_holes_clear_of_the_others_and_the_standoffs(
        option, pinmap, board):
    layout = Layout(option, pinmap, board)
    holes = {}
    for ref, part in layout.parts.items():
        for pin, (i, j) in part.pads.items():
            assert 0 <= i < COLS and 0 <= j < ROWS, (ref, pin)
            assert (i, j) not in holes, (ref, pin, holes.get((i, j)))
            holes[(i, j)] = (ref, pin)
            for mx, my in layout.mounts:
                assert math.hypot(i - mx, j - my) * PITCH > KEEP_OUT, (ref, pin)
    parts = sorted(layout.parts.values(), key=lambda p: p.ref)
    for a in parts:
        for b in parts:
            if a.ref < b.ref:
                assert not overlap(a.box, b.box), (a.ref, b.ref)
        for mx, my in layout.mounts:
            nearest = (min(max(mx, a.box[0]), a.box[2]), min(max(my, a.box[1]), a.box[3]))
            assert math.hypot(mx - nearest[0], my - nearest[1]) * PITCH > KEEP_OUT, a.ref
    assert len(layout.mounts) == 4


@pytest.mark.parametrize("option", OPTIONS)
def test_every_net_is_joined_by_wires_from_pad_to_pad(option, pinmap, board):
    layout = Layout(option, pinmap, board)
    for name, net in layout.nets.items():
        pads = set(layout.pads_of(net))
        ends = {p for path in layout.links[name] for p in (path[0], path[-1])}
        assert ends == (pads if len(pads) > 1 else set()), name
        assert len(layout.links[name]) == max(0, len(pads) - 1), name


# -- the wire list ------------------------------------------------------------------------

def straight(board, a, b, drop):
    return math.sqrt((a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2 + drop ** 2)


@pytest.mark.parametrize("option", OPTIONS)
def test_every_wire_is_at_least_the_straight_line_it_spans(option, pinmap, board):
    layout = Layout(option, pinmap, board)
    wires, joins = wire_list(board, layout)
    by_ref = {w.ref: w for w in wires}
    depth = board.bottom_t + STANDOFF
    for square in range(1, 31):
        assert len(joins[square]) == 2, square        # a wire each side of the switch
        for ref, mm in joins[square]:
            pin = by_ref[ref].start                       # "J3 pin 5"
            jack, n = pin.split()[0], int(pin.split()[-1])
            pad = pad_xy(board, layout.pad(jack, n))
            assert mm >= straight(board, reed_slot_centre(board, square), pad, depth) - 1
            assert by_ref[ref].route >= mm
    led0 = led_positions(board, pinmap["leds"])[0]
    assert by_ref["L"].route >= straight(board, led0, pad_xy(board, layout.pad("J5", 1)),
                                         depth + board.frame_t)
    assert by_ref["B"].route >= straight(board, button_centre(board),
                                         pad_xy(board, layout.pad("J6", 1)), depth)
    assert all(w.length == w.route + 40 and w.total == w.length * w.conductors for w in wires)
    hole = cable_hole_centre(board)
    assert by_ref["L"].route > abs(led0[1] - hole[1])
    leds = sum(w.conductors for w in wires if w.ref.startswith("L"))
    assert leds == 3 * len(led_positions(board, pinmap["leds"]))   # cable + 35 runs
    print("%s: %d wires, %.2f m" % (option, sum(w.conductors for w in wires),
                                     sum(w.total for w in wires) / 1000.0))


# -- the committed files --------------------------------------------------------------------

def test_the_committed_drawings_and_docs_are_what_the_generator_gives(pinmap, board):
    from host_tools.hardware.text import render_doc
    files, doc = controller_files(pinmap, board, render_doc(read("docs/hardware.md"), pinmap))
    assert sorted(files) == ["hardware/perfboard-matrix.svg", "hardware/perfboard-shift.svg"]
    for path, text in files.items():
        assert read(path) == text, "%s is out of date: python -m host_tools.hardware generate" % path
    assert read("docs/hardware.md") == doc, "docs/hardware.md's controller tables are out of date"
    for path in files:
        assert "](../%s)" % path in doc


def test_a_perfboard_too_small_for_the_layout_is_refused_naming_the_key(pinmap):
    data = json.loads(read("hardware/board.json"))
    data["perfboard"]["size"] = [88, 60]
    small = Board(data)
    with pytest.raises(ValueError, match="perfboard.size"):
        controller_files(pinmap, small, read("docs/hardware.md"))
