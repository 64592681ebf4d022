"""The hardware's two command lines, which regenerate the repository's files
and check a wiring:

    senet-board hardware [--board B.json] [--out DIR]
    python -m host_tools.hardware generate        # rewrite the generated files
    python -m host_tools.hardware check FILE      # check a pin map or a config.json

``senet-board hardware`` and ``generate`` rewrite what derives from
``hardware/pinmap.json`` (generated.py) and then the CAD files (cad/); with
``--board`` or ``--out`` only the CAD files, into ``--out``. In an installed
copy they say in one sentence to run them in a clone. Without the ``cad``
extra the CAD part says so in one line and exits 1.

``check`` exits 2 with a one-sentence message naming the bad key. A
config.json may be partial: what it leaves out is the default, as on the
board, and the rest of the file is checked by the firmware's own
``firmware.config.validate``. In an installed copy it takes the defaults from
firmware/pins.py, generated from the same pin map.
"""

import sys

from host_tools.hardware.cad.generate import generate_cad
from host_tools.hardware.generated import NotAClone, generate, require_clone
from host_tools.hardware.pins import check_config, read_json


def add_arguments(parser):
    parser.add_argument("--board", help="parameter file (default hardware/board.json)")
    parser.add_argument("--out", help="write into this folder instead of the repository")


def run(args):
    """`senet-board hardware`: regenerate everything, in a clone only."""
    try:
        require_clone()
    except NotAClone as exc:
        print("senet-board hardware: %s" % exc, file=sys.stderr)
        return 2
    if not args.out and not args.board:
        for path in generate():
            print("wrote %s" % path)
    return generate_cad(args.out, args.board)


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
        return generate_cad()                       # panels, pieces, BOM
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
