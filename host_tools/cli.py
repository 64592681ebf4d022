"""`senet-board`: one console script, one subcommand per job.

Each subcommand lives in its own module, which provides
``add_arguments(parser)`` and ``run(args) -> int``. Modules are imported only
when their subcommand runs, so a missing optional dependency of one tool never
breaks the others.
"""

import argparse
import importlib
import sys

# name: (module, one-line help)
COMMANDS = {
    "sim": ("host_tools.sim.command", "run the real firmware in a browser as a virtual board"),
    "build": ("host_tools.board.deploy", "stage what goes on the Pico (compiled with mpy-cross)"),
    "deploy": ("host_tools.board.deploy", "build, copy to a connected Pico and verify"),
    "monitor": ("host_tools.board.monitor", "watch a connected board live"),
    "show": ("host_tools.board.show", "show a connected board on the simulator's page, read-only"),
    "link": ("host_tools.remote.link", "play a USB board in a remote game through an MQTT broker"),
    "replay": ("host_tools.sim.replay", "step through a recorded game on the simulator's page"),
    "kiosk": ("host_tools.board.kiosk", "the systemd units that start a museum's screen by itself"),
    "check": ("host_tools.board.check", "guided wiring self-test of a connected board"),
    "card": ("host_tools.words.card", "the printable A5 exhibit card in each language (SVG)"),
    "stats": ("host_tools.board.stats", "draw a board's usage figures from its CSV (SVG)"),
    "tournament": ("host_tools.tournament", "play computer levels against each other"),
    "hardware": ("host_tools.hardware.command", "regenerate the board's CAD files, drawing and BOM"),
}


def _load(name):
    module_name = COMMANDS[name][0]
    try:
        return importlib.import_module(module_name)
    except ImportError as exc:
        raise SystemExit("senet-board %s is not available: %s" % (name, exc))


def build_parser(argv):
    parser = argparse.ArgumentParser(prog="senet-board", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    wanted = next((a for a in argv if not a.startswith("-")), None)
    for name, (_, help_text) in COMMANDS.items():
        p = sub.add_parser(name, help=help_text, description=help_text)
        if name == wanted:
            module = _load(name)
            adder = getattr(module, "add_%s_arguments" % name, None) or module.add_arguments
            adder(p)
    return parser


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    args = build_parser(argv).parse_args(argv)
    module = _load(args.command)
    runner = getattr(module, "run_%s" % args.command, None) or module.run
    try:
        return runner(args) or 0
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
