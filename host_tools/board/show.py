"""`senet-board show`: the simulator's page, fed from a real board on USB.

A screen beside a museum exhibit, or a player's laptop, shows the board as
it stands: the pieces, every light, the sticks, whose turn and what the
board asks, in words. The page is the simulator's (host_tools/sim/web), served
read-only: a request that would change anything is refused.

The board is read as `senet-board monitor` reads it: JSON events a line
(docs/protocol.md); on connecting ``{"cmd": "game"}`` asks for the game so far
(the move list), after each event ``{"cmd": "state"}`` for the squares' roles.
Only ``READ_ONLY_COMMANDS`` are ever written: they report and change nothing,
and a museum board answers them too. When the cable is pulled the page says
so, and the mirror opens the port again by itself until the board is back; a
``--port`` that can never be a board (a file, /dev/null) is refused at once.

The lights are drawn by the firmware's own ``firmware.lights.Lights`` from
the roles the board reports, so colours and blinking are the board's.
"""

import collections
import sys
import threading
import time

from engine import rules
from engine.position import Position, PositionError
from host_tools.sim.board import LOG_SIZE
from host_tools.sim.checks import SQUARES
from host_tools.sim.moves import Follower, MoveList
from host_tools.sim.view import leds_layout
from host_tools.board.usage_csv import UsageLog, add_usage_argument
from firmware.lights import side_colours
from host_tools.words import LANGUAGES
from host_tools.words.explain import Story, explain, sticks_live

HELLO = b'{"cmd": "hello"}\n'
STATE = b'{"cmd": "state"}\n'
GAME = b'{"cmd": "game"}\n'
READ_ONLY_COMMANDS = (HELLO, GAME, STATE)   # everything show ever sends
STATE_EVERY_S = 2.0                   # ask for the state this often when all is quiet
STATE_AFTER_S = 0.0                   # ...and at once after any other event
RETRY_S = 0.5                         # try the port again this often while it is away
FRAME_MS = 40                         # redraw period while a light blinks


class Mirror:
    """What the page draws, followed from a board's events. It has the
    Sim's ``snapshot()`` and lock, so host_tools/sim/server.py serves it."""

    def __init__(self, port=None):
        from firmware.lights import Lights
        try:
            from firmware.pins import BRIGHTNESS_CAP as cap
        except ImportError:
            cap = 255
        self.port = port
        self.leds = leds_layout()
        self.lights = Lights({"count": self.leds["count"]}, cap)
        self.display_gain = 255.0 / cap
        self.lock = threading.RLock()
        self.changed = threading.Condition(self.lock)
        self.closed = False
        self.connected = False
        self.version = 0
        self.seq = 0
        self.log = collections.deque(maxlen=LOG_SIZE)
        self.story = Story()
        self.follower = Follower()   # the game as its events told it, for the move list
        self.moves = MoveList()
        self.start_ms = time.monotonic()
        self.hello = {}
        self.position = None
        self.ruleset = "kendall"
        self.board = {"state": None, "turn": None, "throw": None, "sticks": None,
                      "roles": [""] * SQUARES}
        self.winner = None
        self.led_roles = [""] * self.leds["count"]
        self.frame = self.lights.render(0, self.led_roles)
        self.received = 0            # events taken
        self.usage = None            # a UsageLog (--usage): the day's figures to a CSV
        self.shown_at = {}           # "move" text -> monotonic time it was taken (for tests)

    def now_ms(self):
        return int((time.monotonic() - self.start_ms) * 1000)

    # -- the board's lines ----------------------------------------------------------

    def set_connected(self, connected, port=None):
        with self.lock:
            if port is not None:
                self.port = port
            if connected != self.connected:
                self.connected = connected
                self._record("sim", {"sim": "connected" if connected else "disconnected",
                                     "port": self.port})
                self._changed()

    def line(self, raw):
        """One line from the board; returns its event, or None for anything else."""
        from host_tools.board.serialport import parse_event
        event = parse_event(raw)
        if event is None:
            return None
        with self.lock:
            try:
                self._take(event)
            except (TypeError, ValueError, KeyError, AttributeError):
                pass                  # a confused board: keep watching
            self._record("app", event)
            self.received += 1
            self._changed()
        return event

    def _take(self, event):
        name = event["event"]
        self.story.event(event)
        self.follower.event(event)
        board = self.board
        if name == "hello":
            self.hello = event
        if name == "health" and self.usage is not None:
            self.usage.health(event)
        if isinstance(event.get("ruleset"), str):
            self.ruleset = event["ruleset"].split(":")[0]
        for key in ("position", "after"):
            text = event.get(key)
            if isinstance(text, str) and len(text) == SQUARES + 2:
                self.position = text
                board["turn"] = text[-1] if text[-1] in "BW" else board["turn"]
        if name == "state":
            for key in ("state", "turn", "throw"):
                board[key] = event.get(key)
            sticks = event.get("sticks")
            board["sticks"] = list(sticks) if isinstance(sticks, list) else None
            roles = event.get("roles")
            if isinstance(roles, list) and len(roles) == SQUARES:
                board["roles"] = [r if isinstance(r, str) else "" for r in roles]
        elif name == "throw":
            board["throw"] = event.get("value")
            if isinstance(event.get("sticks"), list):
                board["sticks"] = list(event["sticks"])
        elif name == "move":
            self.shown_at[str(event.get("move"))] = time.monotonic()
        elif name == "game_over":
            board["state"] = "game_over"
            self.winner = event.get("winner")
        self._compose()

    def _compose(self):
        """Every LED's role, as the board composes it (squares, sticks, sides)."""
        led = self.led_roles
        board = self.board
        roles = board["roles"]
        for i in range(SQUARES):
            led[i] = roles[i]
        if board["state"] in ("setup", "takeback"):
            side_colours(led, self.position)      # each square's colour, as the board's
        sticks = board["sticks"]
        for i in range(4):
            led[self.leds["sticks"] + i] = "" if not sticks else (
                "stick_white" if sticks[i] else "stick_black")
        black = white = ""
        state = board["state"]
        if state == "opening":
            black, white = ("turn", "") if self.story.player == 1 else ("", "turn")
        elif state == "game_over":
            black = "winner" if self.winner in ("B", None) else ""
            white = "winner" if self.winner in ("W", None) else ""
        elif state not in (None, "setup", "howto"):
            role = "nomove" if state == "nomove" else "turn"
            if state == "throw" and self.story.offer == board["turn"]:
                role = "offer"            # a museum board offers to play this side
            black, white = (role, "") if board["turn"] == "B" else ("", role)
        led[self.leds["side_black"]] = black
        led[self.leds["side_white"]] = white

    def tick(self):
        """Redraw the lights at the present time; a changed frame is pushed."""
        with self.lock:
            frame = self.lights.render(self.now_ms(), self.led_roles)
            frame = [tuple(int(c) for c in rgb) for rgb in frame]
            if frame != self.frame:
                self.frame = frame
                self._changed()

    def _record(self, kind, data):
        self.seq += 1
        self.log.append({"seq": self.seq, "t": self.now_ms(), "kind": kind, "data": data})

    def _changed(self):
        self.version += 1
        self.changed.notify_all()

    def close(self):
        with self.lock:
            self.closed = True
            self.changed.notify_all()

    # -- what the page shows ---------------------------------------------------------

    def record_game(self):
        """The game as the board's events told it, for the record."""
        with self.lock:
            return self.follower.game

    def _pieces(self):
        """The pieces where the board's position puts them, corrected by what
        its lights say stands or not: a lifted piece, a missing one and a
        square asking for a piece are empty; a piece to take away or on a
        wrong square stands there (the switches cannot tell its colour: it
        is drawn as the side to move's, whose hands are on the board)."""
        try:
            position = Position.parse(self.position) if self.position else None
        except PositionError:
            position = None
        try:
            per_side = rules.ruleset(self.ruleset).pieces
        except PositionError:
            per_side = 5
        roles = self.board["roles"]
        where = {"B": [], "W": []}
        for square in range(1, SQUARES + 1):
            role = roles[square - 1]
            side = position.at(square) if position is not None else "."
            if role in ("lifted", "missing", "put"):
                side = "."
            elif role in ("error", "take") and side == ".":
                side = self.board["turn"] if self.board["turn"] in ("B", "W") else "W"
            if side in where:
                where[side].append(square)
        pieces = []
        for side in "BW":
            squares = where[side]
            for i in range(max(per_side, len(squares))):
                pieces.append({"id": len(pieces), "side": side,
                               "square": squares[i] if i < len(squares) else None,
                               "held": False, "knocked": False})
        return pieces

    def snapshot(self, since=0):
        with self.lock:
            board = self.board
            app = {"position": self.position, "ruleset": self.ruleset,
                   "state": board["state"], "turn": board["turn"], "throw": board["throw"],
                   "sticks": board["sticks"], "mode": self.hello.get("mode"), "computer": None}
            words_in = dict(board)
            if board["state"] == "game_over":
                over = self.story.over or {}
                words_in["winner"] = over.get("winner")
                words_in["score"] = over.get("score")
            pieces = self._pieces()
            occupancy = 0
            for p in pieces:
                if p["square"] is not None:
                    occupancy |= 1 << (p["square"] - 1)
            return {
                "version": self.version,
                "now_ms": self.now_ms(),
                "frame": [list(rgb) for rgb in self.frame],
                "roles": list(board["roles"]),
                "leds": dict(self.leds),
                "display_gain": round(self.display_gain, 3),
                "pieces": pieces,
                "hand": [],
                "occupancy": occupancy,
                "raw": occupancy,
                "button": False,
                "chatter": False,
                "boots": 1,
                "rulesets": sorted(rules.RULESETS),
                "app": app,
                "explain": explain(words_in, self.story),
                "sticks_live": sticks_live(board["state"], board["throw"]),
                "mirror": {"connected": self.connected, "port": self.port},
                "moves": self.moves.of(self.follower.game),
                "take_back": False,                # the mirror only shows
                "seq": self.seq,
                "log": [entry for entry in self.log if entry["seq"] > since],
            }


class Reader:
    """Reads the board in a thread: opens the port, takes its lines, asks for
    the state, and opens it again whenever it goes away."""

    def __init__(self, mirror, port=None, opener=None):
        if opener is None:           # the board's port, opened as monitor opens it
            from host_tools.board.serialport import connect as opener
        self.mirror = mirror
        self.port = port
        self.opener = opener
        self.problem = None          # why the port is not open, for the terminal
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="show-reader", daemon=True)
        self._ticker = threading.Thread(target=self._tick, name="show-lights", daemon=True)

    def start(self):
        self._thread.start()
        self._ticker.start()
        return self

    def stop(self):
        self._stop.set()
        for thread in (self._thread, self._ticker):
            if thread.is_alive():
                thread.join(2.0)

    def _tick(self):
        while not self._stop.wait(FRAME_MS / 1000.0):
            self.mirror.tick()

    def _run(self):
        while not self._stop.is_set():
            try:
                name, ser = self.opener(self.port)
            except Exception as e:        # no board yet: say why, try again
                self._say(str(e))
                self._stop.wait(RETRY_S)
                continue
            self._say(None)
            self.mirror.set_connected(True, name)
            try:
                self._follow(ser)
            finally:
                try:
                    ser.close()
                except Exception:
                    pass
                self.mirror.set_connected(False)
            self._stop.wait(RETRY_S)

    def _say(self, problem):
        if problem != self.problem:
            self.problem = problem
            if problem:
                print("senet-board show: %s (trying again)" % problem, file=sys.stderr, flush=True)
            else:
                print("senet-board show: board connected", flush=True)

    def _follow(self, ser):
        """Read lines until the port fails; ask only what changes nothing."""
        buf = b""
        asked = 0.0
        want = True
        try:
            ser.write(HELLO + GAME)           # the game so far, for the move list
            while not self._stop.is_set():
                now = time.monotonic()
                if (want and now - asked > STATE_AFTER_S) or now - asked > STATE_EVERY_S:
                    ser.write(STATE)
                    asked = now
                    want = False
                chunk = ser.read(512)
                if not chunk:
                    continue
                buf += chunk
                while b"\n" in buf:
                    raw, buf = buf.split(b"\n", 1)
                    event = self.mirror.line(raw)
                    if event is not None and event["event"] != "state":
                        want = True
                if len(buf) > 65536:          # a line that never ends (a game's is long): drop it
                    buf = b""
        except Exception:                     # unplugged: the port is gone
            return


def add_arguments(parser):
    from host_tools.board.serialport import add_port_argument
    add_port_argument(parser)
    parser.add_argument("--http-port", type=int, default=8738, metavar="P",
                        help="the page's port on 127.0.0.1 (default 8738; 0 picks a free one)")
    parser.add_argument("--lang", choices=LANGUAGES,
                        help="the page's language (default: the browser's, else English)")
    parser.add_argument("--view", choices=("full", "kiosk"), default="full",
                        help="kiosk: the board, sticks, whose turn and the instruction only")
    parser.add_argument("--no-browser", action="store_true",
                        help="print the address but do not open a browser")
    add_usage_argument(parser)


def run(args):
    from host_tools.board.serialport import never_a_board
    from host_tools.sim.server import SimServer, serve

    problem = never_a_board(args.port)       # waiting for it would be for ever
    if problem:
        print("senet-board show: %s" % problem, file=sys.stderr)
        return 1
    mirror = Mirror(args.port)
    mirror.usage = UsageLog(args.usage) if getattr(args, "usage", None) else None
    try:
        server = SimServer(mirror, "127.0.0.1", args.http_port, lang=args.lang, read_only=True)
    except OSError as exc:
        print("senet-board show: cannot listen on 127.0.0.1:%d: %s" % (args.http_port, exc),
              file=sys.stderr)
        return 1
    reader = Reader(mirror, args.port).start()
    return serve(server, "Senet board mirror, read-only", args.lang, args.view,
                 not args.no_browser, on_stop=reader.stop)
