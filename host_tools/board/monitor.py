"""`senet-board monitor`: watch a board live and keep the game record.

The view redraws on every event: the 30 squares in three rows along the
path (1-10 left to right, 11-20 right to left, 21-30 left to right), the
pieces, what each square's light shows, whose turn it is, the throw and the
last events. Pieces come from the positions the board reports (``ready``,
``move``'s ``after``, ``state``); lights from ``state`` events, which the
monitor asks for after each event (the board answers ``{"cmd": "state"}``).

The game record (docs/record.md, read back by ``engine.record.read``, dated
the day it began) is rewritten after every move, so an unplugged cable
loses nothing. A monitor started mid-game records from the position it first
sees (the record's ``start`` line). Lines that are not events (boot messages,
tracebacks, noise) are shown, counted and otherwise ignored.

A board silent for ``SILENT_S`` seconds has stopped or lost its cable (a
running one answers every state request): the view says so, and when it is back.
"""

import collections
import json
import os
import sys
import time

from host_tools.board.messages import DeployError
from host_tools.board.serialport import add_port_argument, connect, parse_event
from host_tools.board.usage_csv import UsageLog, add_usage_argument, health_line, usage_line

SQUARES = 30
# One character per light role (docs/lights.md); "" shows nothing.
ROLE_MARKS = {
    "movable": "*", "lifted": "^", "target": "+", "put": "v", "take": "x",
    "error": "!", "missing": "?", "computer_from": "c", "computer_to": "C",
    "setup": "=", "winner": "#", "attract": "~",
}
LEGEND = ("lights: * movable  ^ lifted  + target  v put  x take  ! error  ? missing  "
          "c/C computer  = set up  # winner  ~ attract")
STATE_EVERY = 2.0              # seconds between state requests when all is quiet
SILENT_S = 10                  # no line for this long (five requests unanswered): silent


def path_rows():
    """Square numbers as drawn: three rows along the snake path."""
    return [list(range(1, 11)), list(range(20, 10, -1)), list(range(21, 31))]


def draw_board(position, roles):
    """The board as text lines: number, piece and light of every square."""
    pieces = position[:SQUARES] if position and len(position) >= SQUARES else "?" * SQUARES
    lines = []
    for row, squares in enumerate(path_rows()):
        arrow = "->" if row != 1 else "<-"
        cells = []
        for s in squares:
            mark = ROLE_MARKS.get(roles[s - 1], "") if roles else ""
            cells.append("%2d %s%-1s" % (s, pieces[s - 1], mark))
        lines.append(" %s  %s" % (arrow, " | ".join(cells)))
    return lines


def describe(event):
    """One short line for the event list."""
    name = event.get("event")
    if name == "move":
        return "%s moves %s%s" % (event.get("side"), event.get("move"),
                                  " (again)" if event.get("again") else "")
    if name == "throw":
        who = event.get("side") or "player %s" % event.get("player")
        return "%s throws %s" % (who, event.get("value"))
    if name == "pass":
        return "%s has no move with %s: pass" % (event.get("side"), event.get("throw"))
    if name == "mismatch":
        return "board mismatch: extra %s, missing %s" % (event.get("extra"),
                                                          event.get("missing"))
    if name == "game_over":
        return "game over: %s wins (%s)" % (event.get("winner"), event.get("score"))
    if name in ("error", "notice"):
        return "%s: %s" % (name, event.get("message"))
    if name == "health":
        return health_line(event)
    rest = {k: v for k, v in event.items() if k != "event"}
    text = json.dumps(rest, sort_keys=True)
    return "%s %s" % (name, text if len(text) < 70 else text[:67] + "...")


class Record:
    """The game followed through engine.game.Game, written as its record text."""

    def __init__(self, path):
        self.base = path
        self.path = path
        self.game = None
        self.throw = None
        self.games = 0
        self.problem = None

    def start(self, ruleset_spec, position):
        from engine.game import Game
        from engine.position import Position
        from engine.rules import parse_ruleset
        try:
            game = Game(parse_ruleset(ruleset_spec or "kendall"))
            pos = Position.parse(position)
            game.ruleset.check_position(pos)
            game.start = game.position = pos
        except Exception as e:              # a position the engine refuses: no record
            self.problem = "record not started: %s" % e
            return
        if self.game is not None and self.game.ply_count:
            self.games += 1
            root, ext = os.path.splitext(self.base)
            self.path = "%s-%d%s" % (root, self.games + 1, ext)
        self.game, self.throw, self.date = game, None, time.strftime("%Y-%m-%d")
        self.write()

    def event(self, event):
        """Follow one event; return True if the record changed."""
        name = event.get("event")
        if name in ("ready", "new") and isinstance(event.get("position"), str):
            if name == "new" or self.game is None or not self.game.ply_count:
                self.start(event.get("ruleset"), event["position"])
            return True
        if name == "state" and self.game is None and isinstance(event.get("position"), str):
            self.start(event.get("ruleset"), event["position"])
            return True
        game = self.game
        if game is None:
            return False
        try:
            if name == "throw":
                if event.get("opening"):
                    game.opening = list(game.opening or []) + [int(event["value"])]
                else:
                    self.throw = int(event["value"])
                return False
            if name == "start":
                # the opening's last throw (a 1) is the starting side's first throw
                self.throw = game.opening[-1] if game.opening else 1
                return False
            if name == "move":
                if self.throw is not None:
                    game.set_throw(self.throw)
                game.play(str(event["move"]))
                self.throw = None
                after = event.get("after")
                if isinstance(after, str) and game.position.text() != after:
                    self.problem = "record out of step at %s" % event["move"]
                    self.start(game.ruleset.name, after)
            elif name == "pass":
                game.set_throw(int(event.get("throw", self.throw)))
                game.pass_turn()
                self.throw = None
            elif name == "undo":
                game.undo()
            elif name != "game_over":
                return False
        except Exception as e:               # follow the board, never stop watching
            self.problem = "record: %s (%s)" % (e, name)
            return False
        self.write()
        return True

    def write(self):
        if self.game is None:
            return
        tmp = self.path + ".tmp"
        with open(tmp, "w") as f:
            from engine.record import record
            f.write(record(self.game, {"date": self.date}))
        os.replace(tmp, self.path)


def silent_line(seconds):
    """What the monitor says of a board that has stopped talking."""
    return ("The board is silent: nothing heard for %d s. Its firmware may have stopped: "
            "press its reset button or replug it; `mpremote repl` and Ctrl-D show why "
            "it stops." % seconds)


class View:
    """Everything the screen shows, updated from events."""

    def __init__(self, port, record, events=8, now=0.0, usage=None):
        self.heard_at = now            # when the board last sent a line
        self.usage = usage             # a UsageLog: the day's figures to a CSV
        self.port = port
        self.record = record
        self.position = None
        self.roles = None
        self.hello = {}
        self.health = None
        self.state = {}
        self.last = collections.deque(maxlen=events)
        self.garbage = 0

    def line(self, raw, now=None):
        """Take one line from the board, heard at ``now``; return its event (or None)."""
        if now is not None:
            self.heard_at = now
        event = parse_event(raw)
        if event is None:
            text = raw.decode("utf-8", "replace") if isinstance(raw, bytes) else str(raw)
            text = text.strip()
            if text and "soft reboot" not in text:
                self.garbage += 1
                self.last.append("(not an event) " + (text if len(text) < 60
                                                      else text[:57] + "..."))
            return None
        try:
            self.take(event)
        except Exception as e:               # odd field types from a confused board
            self.last.append("(bad event %s: %s)" % (event.get("event"), e))
        return event

    def take(self, event):
        name = event["event"]
        if name == "hello":
            self.hello = event
        elif name == "health":
            self.health = event
            if self.usage is not None:
                self.usage.health(event)
        for key in ("position", "after"):
            if isinstance(event.get(key), str) and len(event[key]) == SQUARES + 2:
                self.position = event[key]
        if name == "state":
            self.state = event
            roles = event.get("roles")
            if isinstance(roles, list) and len(roles) == SQUARES:
                self.roles = [r if isinstance(r, str) else "" for r in roles]
        else:
            self.last.append(describe(event))
        self.record.event(event)

    def silence(self, now):
        """Seconds since the board last spoke, once that makes it silent; else None."""
        quiet = now - self.heard_at
        return quiet if quiet >= SILENT_S else None

    def render(self, now=None):
        h = self.hello
        title = "Senet board on %s" % self.port
        if h:
            title += ": firmware %s, %s, %s" % (h.get("version"), h.get("ruleset"),
                                                h.get("mode"))
        turn = (self.position[-1] if self.position else "?")
        s = self.state
        status = "turn %s   state %s   throw %s   sticks %s" % (
            turn, s.get("state", "?"), s.get("throw"), s.get("sticks"))
        lines = [title, ""] + draw_board(self.position, self.roles) + ["", status, LEGEND, ""]
        quiet = self.silence(now) if now is not None else None
        if quiet is not None:
            lines += [silent_line(quiet), ""]
        if self.health:
            lines.append(health_line(self.health))
            if usage_line(self.health):
                lines.append(usage_line(self.health))
            for entry in (self.health.get("log") or [])[-3:]:
                if isinstance(entry, dict):
                    lines.append("  crash in boot %s after %ss: %s" % (
                        entry.get("boot"), entry.get("uptime_s"), entry.get("error")))
        lines.append("record: %s%s" % (self.record.path,
                                       "  (%s)" % self.record.problem
                                       if self.record.problem else ""))
        if self.usage is not None:
            lines.append("usage: %s%s" % (self.usage.path, "  (%s)" % self.usage.problem
                                          if self.usage.problem else ""))
        lines.append("last events:")
        lines += ["  " + e for e in self.last]
        if self.garbage:
            lines.append("(%d lines that were not events)" % self.garbage)
        return "\n".join(lines)


def records_folder():
    """Where game records go without --record: the user's own data folder,
    never the current one (often a clone of this repository)."""
    if sys.platform == "win32":
        base = os.environ.get("LOCALAPPDATA") or os.path.expanduser(r"~\AppData\Local")
    elif sys.platform == "darwin":
        base = os.path.expanduser("~/Library/Application Support")
    else:
        base = os.environ.get("XDG_DATA_HOME") or os.path.expanduser("~/.local/share")
    return os.path.join(base, "senet-board", "games")


def default_record_name():
    return os.path.join(records_folder(), time.strftime("senet-%Y%m%d-%H%M%S.txt"))


def record_path(path):
    """The record file to write: ``path``, else a new one in records_folder();
    DeployError (one sentence) when its folder cannot hold it."""
    if not path:
        path = default_record_name()
        try:
            os.makedirs(os.path.dirname(path), exist_ok=True)
        except OSError as e:
            raise DeployError("The folder %s for game records cannot be made (%s): name a "
                              "file with --record." % (os.path.dirname(path), e.strerror or e))
    folder = os.path.dirname(os.path.abspath(path))
    if os.path.isdir(path) or not os.path.isdir(folder):
        raise DeployError("--record %s is not a file in an existing folder: name a file "
                          "there and try again." % path)
    return path


def add_arguments(parser):
    add_port_argument(parser)
    parser.add_argument("--record", metavar="FILE",
                        help="game record file (default: senet-YYYYmmdd-HHMMSS.txt in %s)"
                        % records_folder())
    parser.add_argument("--plain", action="store_true",
                        help="print one line per event instead of redrawing the screen")
    parser.add_argument("--seconds", type=float, default=0,
                        help="stop after this many seconds (default: until Ctrl-C)")
    add_usage_argument(parser)


def monitor(port=None, record=None, plain=False, seconds=0, out=None, clock=time.monotonic,
            usage=None):
    """Watch the board until ``seconds`` have passed on ``clock`` (0: until
    Ctrl-C); 0 when it ends, 1 when the board went away."""
    out = out or sys.stdout
    path = record_path(record)
    port, ser = connect(port)
    rec = Record(path)
    view = View(port, rec, now=clock(), usage=UsageLog(usage) if usage else None)
    out.write("Recording the game in %s\n" % path)
    redraw = not plain and out.isatty()
    end = clock() + seconds if seconds else None
    buf = b""
    asked = 0.0
    want_state = True
    silent = False                 # said that the board is silent
    drawn_at = 0.0
    import serial
    try:
        ser.write(b'{"cmd": "hello"}\n{"cmd": "health"}\n')
        while end is None or clock() < end:
            now = clock()
            if want_state and now - asked > 0.3 or now - asked > STATE_EVERY:
                ser.write(b'{"cmd": "state"}\n')
                asked = now
                want_state = False
            try:
                chunk = ser.read(512)
            except (serial.SerialException, OSError):
                out.write("The board went away (unplugged?): the record so far is in %s.\n"
                          % rec.path)
                return 1
            buf += chunk
            changed = False
            if chunk:
                now = clock()
            while b"\n" in buf:
                raw, buf = buf.split(b"\n", 1)
                event = view.line(raw, now)
                changed = True
                if event is not None and event["event"] != "state":
                    want_state = True
                text = raw.decode("utf-8", "replace").strip()
                if plain and event is not None and event["event"] != "state":
                    out.write(describe(event) + "\n")
                elif plain and event is None and text:
                    out.write("(not an event) %s\n" % text[:120])
            if len(buf) > 4096:               # a line that never ends: drop it
                view.line(buf[:80], now)
                buf = b""
            quiet = view.silence(now)
            if (quiet is not None) != silent:
                silent = quiet is not None
                changed = True
                if plain:
                    out.write(silent_line(quiet) + "\n" if silent else
                              "The board is heard again.\n")
            if redraw and (changed or silent and now - drawn_at >= 1.0):
                out.write("\x1b[H\x1b[2J" + view.render(now) + "\n")
                out.flush()
                drawn_at = now
    finally:
        ser.close()
    if not redraw:
        out.write(view.render(clock()) + "\n")
    return 0


def run(args):
    try:
        return monitor(args.port, args.record, args.plain, args.seconds,
                       usage=getattr(args, "usage", None))
    except DeployError as e:
        print("senet-board monitor: %s" % e, file=sys.stderr)
        return 1
