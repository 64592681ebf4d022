"""`senet-board replay FILE`: a game replayed on the simulator's page.

FILE is a game record (docs/record.md: what the page downloads, or what
`senet-board monitor` writes) or a board's saved game, ``game.json`` with its
``game.log`` beside it as ``mpremote cp :game.json :game.log .`` copies them
off. The file is read through the engine before anything is served, so a
file that is not a whole legal game is refused in one line (exit 2). The
page then opens with the game in its move list, at its start, to step
through; behind it a fresh simulated board waits for "Back to the board".
"""

import shutil
import sys
import tempfile

from host_tools.words import LANGUAGES


def add_arguments(parser):
    parser.add_argument("file", metavar="FILE",
                        help="a game record, or a board's game.json (its game.log beside it)")
    parser.add_argument("--port", type=int, default=8739, metavar="P",
                        help="port on 127.0.0.1 (default 8739; 0 picks a free one)")
    parser.add_argument("--no-browser", action="store_true",
                        help="print the address but do not open a browser")
    parser.add_argument("--lang", choices=LANGUAGES,
                        help="the page's language (default: the browser's, else English)")
    parser.add_argument("--view", choices=("full", "kiosk"), default="full",
                        help="kiosk: the board, its words and the replay only")


def read_game(path):
    """The page's replay of the game in ``path``; SimError (one line) if none."""
    from host_tools.sim import gamefiles
    return gamefiles.replay_data(gamefiles.load_path(path))


def run(args):
    from host_tools.sim.board import Sim
    from host_tools.sim.checks import SimError
    from host_tools.sim.clock import Clock
    from host_tools.sim.server import SimServer, serve

    try:
        game = read_game(args.file)
    except SimError as exc:
        print("senet-board replay: %s" % exc, file=sys.stderr)
        return 2
    if not 0 <= args.port <= 65535:
        print("senet-board replay: --port must be 0..65535", file=sys.stderr)
        return 2
    store = tempfile.mkdtemp(prefix="senet-replay-")
    try:
        sim = Sim(ruleset=game["ruleset"].split(":")[0], store_dir=store)
        clock = Clock(sim)
        try:
            server = SimServer(sim, "127.0.0.1", args.port, clock=clock, lang=args.lang,
                               replay=game)
        except OSError as exc:
            print("senet-board replay: cannot listen on 127.0.0.1:%d: %s" % (args.port, exc),
                  file=sys.stderr)
            return 1
        clock.start()
        return serve(server, "Senet game replay", args.lang, args.view, not args.no_browser)
    finally:
        shutil.rmtree(store, ignore_errors=True)
