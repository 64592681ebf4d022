"""`senet-board sim`: the real firmware behind a browser page, a virtual board.

Starts a web server on the loopback address only, prints its address and
opens the browser. The page shows the board the firmware's App sees and
lights: drag pieces, press the throw button, inject faults. Ctrl-C stops it.
docs/sim.md explains the page.
"""

import json
import os
import shutil
import sys
import tempfile

from engine import rules
from engine.position import PositionError
from host_tools.words import LANGUAGES


def add_arguments(parser):
    parser.add_argument("--ruleset", metavar="R",
                        help="ruleset of the first game (%s; default: the config's, else "
                        "kendall; ruleset options go in the config's \"options\")"
                        % ", ".join(sorted(rules.RULESETS)))
    parser.add_argument("--port", type=int, default=8737, metavar="P",
                        help="port on 127.0.0.1 (default 8737; 0 picks a free one)")
    parser.add_argument("--no-browser", action="store_true",
                        help="print the address but do not open a browser")
    parser.add_argument("--config", metavar="FILE",
                        help="a config.json to run the firmware with (default: its defaults)")
    parser.add_argument("--store", metavar="DIR",
                        help="folder for the saved game, kept between runs "
                        "(default: a temporary folder removed at exit)")
    parser.add_argument("--computer", choices=("B", "W"), metavar="SIDE",
                        help="play against the computer, which plays SIDE (B or W); "
                        "you carry out its moves by dragging")
    parser.add_argument("--level", type=int, choices=(1, 2, 3, 4), metavar="N",
                        help="the computer's level, 1 (gentlest) to 4 (default: the config's, else 2)")
    parser.add_argument("--seed", type=int, metavar="N",
                        help="seed the sticks so a session repeats exactly")
    parser.add_argument("--lang", choices=LANGUAGES,
                        help="the page's language (default: the browser's, else English)")
    parser.add_argument("--view", choices=("full", "kiosk"), default="full",
                        help="kiosk: the board, sticks, whose turn and the instruction only")
    parser.add_argument("--verbose", action="store_true", help="log every HTTP request")
    from host_tools.remote.seat import add_room_arguments
    add_room_arguments(parser)       # --room: one seat of a remote game (docs/remote.md)


def _config(path):
    if path is None:
        return {}
    try:
        with open(path) as f:
            config = json.load(f)
    except (OSError, ValueError) as exc:     # one line, whatever went wrong
        raise SystemExit("senet-board sim: cannot read %s: %s"
                         % (path, getattr(exc, "strerror", None) or exc))
    if not isinstance(config, dict):
        raise SystemExit("senet-board sim: %s must hold a JSON object" % path)
    return config


def computer_config(config, side, level):
    """``config`` with the computer mode of ``--computer SIDE --level N``."""
    config = dict(config)
    section = config.get("computer")
    section = dict(section) if isinstance(section, dict) else {}
    if level is not None:
        section["level"] = level
    if side is not None:
        section["side"] = side
        config["mode"] = "computer"
    if section:
        config["computer"] = section
    return config


def store_problem(store):
    """Make the --store folder if missing; the sentence saying why it cannot
    hold a saved game, or None."""
    if os.path.exists(store) and not os.path.isdir(store):
        return ("--store %s is a file, not a folder: name a folder for the saved game "
                "(it is made if missing)" % store)
    try:
        os.makedirs(store, exist_ok=True)
    except OSError as e:
        return "--store %s cannot be made: %s" % (store, e.strerror or e)
    return None


def config_problems(config):
    """The firmware's own messages about ``config`` (the board would show
    them as a ``config`` event): one line each, on the terminal too."""
    from firmware.config import validate
    return validate(config)[1]


def App():
    from firmware.app import App
    return App


def _seat(args):
    """--room: the page's seat in a remote game (host_tools/remote/page.py),
    None without it, or what is wrong, in words."""
    if getattr(args, "room", None) is None:
        return None
    from host_tools.remote.page import PageSeat
    from host_tools.remote.seat import Settings, ask_passphrase
    if args.computer:
        return "--room and --computer cannot go together: the other board is the opponent"
    settings = Settings(args, ask=ask_passphrase)
    return settings.problem or PageSeat(settings)


def run(args):
    from host_tools.sim.board import Sim
    from host_tools.sim.clock import Clock
    from host_tools.sim.server import SimServer, serve

    if args.ruleset is not None:
        try:
            rules.ruleset(args.ruleset)
        except PositionError as exc:
            print("senet-board sim: %s" % exc, file=sys.stderr)
            return 2
    config = computer_config(_config(args.config), args.computer, args.level)
    for message in config_problems(config):
        print("senet-board sim: %s" % message, file=sys.stderr)
    if not 0 <= args.port <= 65535:
        print("senet-board sim: --port must be 0..65535", file=sys.stderr)
        return 2
    temporary = args.store is None
    store = tempfile.mkdtemp(prefix="senet-sim-") if temporary else args.store
    problem = store_problem(store)
    if problem:
        print("senet-board sim: %s" % problem, file=sys.stderr)
        return 2
    seat = _seat(args)
    if seat is not None and not hasattr(seat, "app_factory"):
        print("senet-board sim: %s" % seat, file=sys.stderr)
        return 2
    try:
        sim = Sim(config=config, ruleset=args.ruleset, store_dir=store, seed=args.seed,
                  app_factory=seat and seat.app_factory(App()))
        clock = Clock(sim)
        try:
            server = SimServer(sim, "127.0.0.1", args.port, clock=clock, verbose=args.verbose,
                               lang=args.lang)
        except OSError as exc:
            print("senet-board sim: cannot listen on 127.0.0.1:%d: %s" % (args.port, exc),
                  file=sys.stderr)
            return 1
        clock.start()
        return serve(server, "Senet board simulator", args.lang, args.view, not args.no_browser)
    finally:
        if seat is not None:
            seat.close()                 # the other board is told this one left
        if temporary:
            shutil.rmtree(store, ignore_errors=True)
