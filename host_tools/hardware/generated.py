"""Everything derived from ``hardware/pinmap.json``, the single source of
truth for the default wiring.

From it :func:`generate` writes ``firmware/pins.py`` (the firmware's
defaults), ``firmware/boards.py`` (the default wiring of other RP2040 boards,
read on CircuitPython), ``hardware/wiring.svg`` (the wiring diagram) and the
tables between ``<!-- NAME:begin -->`` / ``<!-- NAME:end -->`` markers in
``docs/hardware.md``, so the diagram, the docs and the firmware cannot drift
apart from the wiring a builder follows. With ``hardware/board.json`` it also
writes the controller's perfboard drawings (``hardware/perfboard-*.svg``),
wire lists and pinouts (controller.py). The texts come from text.py, svg.py
and controller.py; this module only compares and writes them.

An installed copy (``pip install .``, not ``-e``) holds no hardware/ or docs/
folder: :func:`require_clone` says so in one sentence, for the commands that
rewrite the repository's files.
"""

import os

from host_tools import ROOT
from host_tools.hardware.cad.params import BOARD_PATH
from host_tools.hardware.cad.params import load as load_board
from host_tools.hardware.controller import controller_files
from host_tools.hardware.pins import PINMAP_PATH, load_pinmap
from host_tools.hardware.svg import render_svg
from host_tools.hardware.text import render_boards_py, render_doc, render_pins_py

PINS_PY_PATH = os.path.join("firmware", "pins.py")
BOARDS_PY_PATH = os.path.join("firmware", "boards.py")
SVG_PATH = os.path.join("hardware", "wiring.svg")
DOC_PATH = os.path.join("docs", "hardware.md")
NOT_A_CLONE = ("this copy of senet-board, installed in %s, holds no hardware/ or docs/ "
               "folder, whose files the command regenerates: run it in a clone of the "
               "repository installed with `pip install -e .`")


class NotAClone(ValueError):
    """The repository's files are not beside this copy of the tools."""


def require_clone(root=None):
    """Raise NotAClone unless ``root`` (this copy's) is a clone of the repository."""
    root = root or ROOT
    for path in (PINMAP_PATH, DOC_PATH):
        if not os.path.isfile(os.path.join(root, path)):
            raise NotAClone(NOT_A_CLONE % root)


def generated_files(root=ROOT, pinmap=None):
    """Every generated file's path and expected text, computed, not written."""
    pinmap = pinmap or load_pinmap(os.path.join(root, PINMAP_PATH))
    with open(os.path.join(root, DOC_PATH)) as f:
        doc = f.read()
    perfboards, doc = controller_files(pinmap, load_board(os.path.join(root, BOARD_PATH)),
                                       render_doc(doc, pinmap))
    files = {
        PINS_PY_PATH: render_pins_py(pinmap),
        BOARDS_PY_PATH: render_boards_py(pinmap),
        SVG_PATH: render_svg(pinmap),
        DOC_PATH: doc,
    }
    files.update(perfboards)
    return files


def generate(root=ROOT):
    """Rewrite the generated files; returns the paths that changed."""
    changed = []
    for path, text in generated_files(root).items():
        full = os.path.join(root, path)
        old = None
        if os.path.exists(full):
            with open(full) as f:
                old = f.read()
        if old != text:
            with open(full, "w") as f:
                f.write(text)
            changed.append(path)
    return changed
