"""The board's hardware as data: check a pin map or a config.json, and
generate everything that is derived from ``hardware/pinmap.json``.

``hardware/pinmap.json`` is the single source of truth for the default wiring.
From it :func:`generate` writes ``firmware/pins.py`` (the firmware's defaults),
``firmware/boards.py`` (the default wiring of other RP2040 boards, read on
CircuitPython), ``hardware/wiring.svg`` (the wiring diagram) and the tables between
``<!-- NAME:begin -->`` / ``<!-- NAME:end -->`` markers in
``docs/hardware.md``, so the diagram, the docs and the firmware cannot drift
apart from the wiring a builder follows. The parts live in their own modules:
the pin rules (hw_pins), the power budget (hw_power), where each square is
wired (hw_wiring), the text of pins.py, boards.py and the doc tables (hw_text)
and the diagram (hw_svg); this module reads and writes the files and runs the
command line.

Usage::

    python -m host_tools.hardware generate        # rewrite the generated files
    python -m host_tools.hardware check FILE      # check a pin map or a config.json

``check`` exits 2 with a one-sentence message naming the bad key. A
config.json may be partial: what it leaves out is the default, as on the
board, and the rest of the file is checked by the firmware's own
``firmware.config.validate``.

An installed copy (``pip install .``, not ``-e``) holds no hardware/ or docs/
folder. ``check`` then takes the defaults from firmware/pins.py, generated
from the same pin map; ``generate`` and ``senet-board hardware``, which
rewrite the repository's files, say in one sentence to run them in a clone.
"""

import copy
import json
import os
import sys

from host_tools.hw_pins import check_pinmap, with_defaults  # noqa: F401
from host_tools.hw_svg import render_svg
from host_tools.hw_text import (render_boards_py, render_doc, render_pins_py,  # noqa: F401
                               splice)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PINMAP_PATH = os.path.join("hardware", "pinmap.json")
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


def read_json(path):
    """The JSON in ``path``; ValueError with one sentence when it is not."""
    name = os.path.basename(path)
    with open(path, "rb") as f:
        data = f.read()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ValueError("%s is not UTF-8 text (byte %d); save it as UTF-8." % (name, exc.start))
    try:
        return json.loads(text)
    except ValueError as exc:
        raise ValueError("%s is not valid JSON: %s." % (name, exc))


def load_pinmap(path=None):
    """Load and check a complete pin map file (the repository's by default,
    else, in an installed copy, the firmware's defaults generated from it)."""
    if path is None:
        path = os.path.join(ROOT, PINMAP_PATH)
        if not os.path.isfile(path):
            from firmware.pins import PINMAP
            return check_pinmap(copy.deepcopy(PINMAP))
    return check_pinmap(read_json(path))


def check_config(data):
    """Check a pin map or a config.json as the board would read it; return the
    wiring it gives (completed from the defaults)."""
    if not isinstance(data, dict):
        raise ValueError("the file must hold a JSON object.")
    wiring = check_pinmap(with_defaults(data, load_pinmap()))
    if ROOT not in sys.path:
        sys.path.insert(0, ROOT)
    from firmware.config import validate
    _, messages = validate({k: data[k] for k in data if k != "boards"})  # a pin map's own table
    if messages:
        raise ValueError("; ".join(m.replace("config.json: ", "") for m in messages) + ".")
    return wiring


# --- Generate and check ----------------------------------------------------

def generated_files(root=ROOT, pinmap=None):
    """Every generated file's path and expected text, computed, not written."""
    pinmap = pinmap or load_pinmap(os.path.join(root, PINMAP_PATH))
    with open(os.path.join(root, DOC_PATH)) as f:
        doc = f.read()
    return {
        PINS_PY_PATH: render_pins_py(pinmap),
        BOARDS_PY_PATH: render_boards_py(pinmap),
        SVG_PATH: render_svg(pinmap),
        DOC_PATH: render_doc(doc, pinmap),
    }


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


def add_arguments(parser):
    """`senet-board hardware`'s options (host_tools/cad/generate.py's)."""
    from host_tools.cad.generate import add_arguments as cad_arguments
    cad_arguments(parser)


def run(args):
    """`senet-board hardware`: regenerate everything, in a clone only."""
    try:
        require_clone()
    except NotAClone as exc:
        print("senet-board hardware: %s" % exc, file=sys.stderr)
        return 2
    from host_tools.cad.generate import run as cad_run
    return cad_run(args)


def main(argv=None):
    """`generate` or `check FILE`; exit 2 with the message on a bad pin map."""
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["generate"] and len(argv) == 1:
        try:
            require_clone()
        except NotAClone as exc:
            print("python -m host_tools.hardware generate: %s" % exc, file=sys.stderr)
            return 2
        for path in generate():
            print("wrote %s" % path)
        from host_tools.cad.generate import generate_cad  # panels, pieces, BOM
        return generate_cad()
    if argv[:1] == ["check"] and len(argv) == 2:
        try:
            wiring = check_config(read_json(argv[1]))
        except (ValueError, OSError) as exc:
            print("%s: %s" % (argv[1], getattr(exc, "strerror", None) or exc), file=sys.stderr)
            return 2
        print("%s: pin map OK (scanner %s)" % (argv[1], wiring["scanner"]))
        return 0
    print("usage: python -m host_tools.hardware generate | check FILE", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
