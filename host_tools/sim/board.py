"""The virtual board behind `senet-board sim`: pieces, hands, a clock and faults.

The simulator keeps what a reed-switch board's sensors cannot, one object per
physical piece (host_tools/sim/pieces.py), makes from them the raw occupancy
a scan would read, and feeds it, with the throw button and the time, to the
real ``firmware.app.App`` at a hand's pace (host_tools/sim/pace.py). Nothing
here knows a rule or a light: what the board shows is the App's ``frame``,
told to the page as host_tools/sim/view.py reads it.

Faults: a knocked piece falls into its tray unseen by the player; switch
chatter flips single scans of random switches; a power cut throws the App
away and boots a new one on the same saved-game folder, the pieces staying
where they stand. A request with a bad argument raises ``SimError``
(host_tools/sim/checks.py) and changes nothing.

The clock is either real time (``Clock``, host_tools/sim/clock.py: a thread
steps the App every ``tick_ms``) or manual (``advance(ms)``), which makes
tests exact.
"""

import collections
import random
import threading

from engine import rules
from engine.position import Position, PositionError
from engine.sticks import XorShift
from host_tools.sim import checks
from host_tools.sim.checks import SimError
from host_tools.sim.moves import MoveList
from host_tools.sim.pace import Chatter, Pace
from host_tools.sim.pieces import Pieces
from host_tools.sim.view import (app_state, app_value, board_words, brightness_cap, can_take_back,
                                 leds_layout, ruleset_name)
from host_tools.words.explain import Story, sticks_live

TICK_MS = 10            # one scan and one App step, as the board's main loop
MAX_CHATTER_MS = 600000
LOG_SIZE = 2000


def _default_app_factory():
    from firmware.app import App
    return App


class Sim:
    """A virtual Senet board running the real App.

    ``config`` goes to the App as config.json would; ``ruleset`` overrides its
    "ruleset". ``seed`` makes the sticks (and the chatter) repeat exactly.
    ``store_dir`` is where the App saves its game. ``app_factory`` builds the
    App (default ``firmware.app.App``). Every public method takes the lock, so
    the HTTP threads and the clock thread can share one Sim.
    """

    def __init__(self, config=None, ruleset=None, store_dir=None, seed=None,
                 app_factory=None, tick_ms=TICK_MS):
        self.config = dict(config or {})
        if ruleset is not None:
            self.config["ruleset"] = ruleset
        self.store_dir = store_dir
        self.seed = seed
        self.rng = XorShift(seed) if seed is not None else random.SystemRandom().getrandbits
        self._noise = random.Random(seed)
        self.tick_ms = tick_ms
        self.app_factory = app_factory or _default_app_factory()
        self.leds = leds_layout()
        self.lock = threading.RLock()
        self.changed = threading.Condition(self.lock)
        self.closed = False
        self.now_ms = 0
        self.version = 0
        self.boots = 0
        self.log = collections.deque(maxlen=LOG_SIZE)
        self.seq = 0
        self.story = Story()                # what the events told, for the page's words
        self.moves = MoveList()             # the App's game as the page lists it
        self.pieces = None                  # the pieces and the hand (host_tools/sim/pieces.py)
        self.chatter = Chatter(self._noise)
        self.pace = None                    # what the App's scan reads (host_tools/sim/pace.py)
        self.raw = 0                        # the last scan, chatter included
        self.frame = []
        self.roles = []
        self.app = None
        with self.lock:
            self._boot()
            self._make_pieces(self._app_value("position"))
            self.pace = Pace(self.occupancy())
            self._refresh()

    # -- the App -----------------------------------------------------------------

    def _boot(self):
        self.app = self.app_factory(config=dict(self.config), store_dir=self.store_dir, rng=self.rng)
        self.boots += 1
        self.display_gain = 255.0 / brightness_cap(self.app, self.config)
        scans = (getattr(self.app, "config", None) or {}).get("debounce_scans", 3)
        self._min_scans = (scans if isinstance(scans, int) else 3) + 1

    @property
    def button(self):
        """The throw button as the App sees it."""
        return self.pace.button

    def _app_value(self, name):
        return app_value(self.app, name)

    def _ruleset_name(self):
        return ruleset_name(self.app, self.config)

    def _record(self, kind, data):
        self.seq += 1
        self.log.append({"seq": self.seq, "t": self.now_ms, "kind": kind, "data": data})

    def _events(self, events):
        for event in events or ():
            self._record("app", event)
            self.story.event(event)

    def _refresh(self):
        frame = [tuple(int(c) for c in rgb) for rgb in (self._app_value("frame") or ())]
        roles = list(self._app_value("roles") or ())
        self.frame = frame
        self.roles = roles
        self.version += 1
        self.changed.notify_all()

    # -- the pieces ---------------------------------------------------------------

    def _pieces_per_side(self):
        """Pieces a side in the App's game (its ruleset may carry a "pieces" option)."""
        game = self._app_value("game")
        n = getattr(getattr(game, "ruleset", None), "pieces", None)
        if isinstance(n, int) and n > 0:
            return n
        try:
            return rules.ruleset(self._ruleset_name()).pieces
        except PositionError:
            return 5

    def _make_pieces(self, position_text):
        """One piece per physical piece, standing where the App's position says."""
        position = None
        if isinstance(position_text, str):
            try:
                position = Position.parse(position_text)
            except PositionError:
                position = None
        if position is None:
            position = rules.ruleset(self._ruleset_name()).start()
        self.pieces = Pieces(position, self._pieces_per_side())

    def piece_at(self, square):
        """The piece standing on ``square``, or None."""
        return self.pieces.at(square)

    def occupancy(self):
        """What a scan of the switches reads, chatter aside."""
        return self.pieces.occupancy()

    def _board_changed(self):
        self.pace.board_to(self.occupancy())
        self._refresh()

    # -- requests (each checks everything first, then changes the board) ---------

    def lift(self, square):
        """Lift the piece standing on ``square`` into the hand."""
        with self.lock:
            piece = self.pieces.lift(square)
            self._record("sim", {"sim": "lift", "square": square, "piece": piece.id, "side": piece.side})
            self._board_changed()
            return piece.id

    def place(self, square, piece=None):
        """Put a piece that is off the board on ``square`` (1..30), or into its
        tray (``"off"``). ``piece`` defaults to the piece lifted last."""
        with self.lock:
            item = self.pieces.place(square, piece)
            self._record("sim", {"sim": "place", "square": "off" if item.square is None else item.square,
                                 "piece": item.id, "side": item.side})
            self._board_changed()
            return item.id

    def knock(self, square=None):
        """A piece falls off its square into its tray (a fault, unannounced)."""
        with self.lock:
            square, piece = self.pieces.knock(square, self._noise.choice)
            self._record("sim", {"sim": "knock", "square": square, "piece": piece.id, "side": piece.side})
            self._board_changed()
            return square
    def set_button(self, down):
        """The throw button goes down or up (held down at least MIN_PRESS_MS)."""
        with self.lock:
            down = checks.flag(down, "down")
            if self.pace.button_to(down):
                self._record("sim", {"sim": "button", "down": down})
                self._refresh()

    def press(self, ms=100):
        """A whole press of ``ms`` milliseconds, then a release."""
        with self.lock:
            ms = checks.whole(ms, "ms", 1, 60000)
            self.pace.press(ms)
            self._record("sim", {"sim": "press", "ms": ms})
            self._refresh()

    def set_chatter(self, on, ms=None):
        """Switch chatter on (for ``ms``, or until switched off) or off."""
        with self.lock:
            on = checks.flag(on, "on")
            if ms is not None:
                ms = checks.whole(ms, "ms", 1, MAX_CHATTER_MS)
            self.chatter.switch(on, self.now_ms, ms)
            self._record("sim", {"sim": "chatter", "on": on, "ms": ms})
            self._refresh()

    def power_cut(self):
        """Throw the App away and boot a new one on the same saved-game folder."""
        with self.lock:
            self._record("sim", {"sim": "power_cut", "store": self.store_dir is not None})
            self.pace.let_go()
            self.story = Story()
            self._boot()
            self._refresh()

    def command(self, cmd):
        """Hand a serial command (a dict) to the App; return its events."""
        with self.lock:
            if not isinstance(cmd, dict):
                raise SimError("command must be a JSON object, got %r" % (cmd,))
            self._record("sim", {"sim": "command", "command": cmd})
            events = self.app.command(cmd) or []
            self._events(events)
            self._after_command()
            return events

    def command_line(self, line):
        """A serial line typed in, read by the firmware's own protocol module."""
        with self.lock:
            if not isinstance(line, str) or not line.strip() or "\n" in line.strip():
                raise SimError("line must be one line of text")
            try:
                from firmware import protocol
            except ImportError:
                protocol = None
            self._record("sim", {"sim": "serial", "line": line.strip()})
            if protocol is not None:
                cmd, error = protocol.parse_command(line.strip())
                events = [error] if cmd is None else (self.app.command(cmd) or [])
            else:
                import json
                events = self.app.command(json.loads(line)) or []
            self._events(events)
            self._after_command()
            return events

    def new_game(self, ruleset, mode=None, side=None, level=None):
        """Start a new game of ``ruleset`` through the App's own ``new`` command;
        ``mode``, ``side`` and ``level`` (the opponent) go with it when given.
        The App checks them; if it refuses, nothing changed and this says why."""
        with self.lock:
            if not isinstance(ruleset, str):
                raise SimError("ruleset must be a name, one of: %s" % ", ".join(sorted(rules.RULESETS)))
            try:
                rules.ruleset(ruleset)
            except PositionError as exc:
                raise SimError(str(exc))
            cmd = {"cmd": "new", "ruleset": ruleset}
            for key, value in (("mode", mode), ("side", side), ("level", level)):
                if value is not None:
                    cmd[key] = value
            events = self.app.command(cmd) or []
            refused = [e for e in events if e.get("event") == "error"]
            if refused:
                raise SimError(refused[0].get("message", "the App refused the new game"))
            self._record("sim", dict(cmd, sim="new"))
            self._events(events)
            self.config["ruleset"] = ruleset
            self.pieces.resize(self._pieces_per_side())
            self._board_changed()
            self._after_command()
            return events

    def _after_command(self):
        self._refresh()

    def arrange(self, position=None):
        """Stand the pieces as ``position`` (default: the App's position) says,
        as a player setting up the board by hand would."""
        with self.lock:
            text = position if position is not None else self._app_value("position")
            if not isinstance(text, str):
                raise SimError("position must be position text, e.g. 'BWBWBWBWBW.................... W'")
            try:
                wanted = Position.parse(text)
            except PositionError as exc:
                raise SimError(str(exc))
            self.pieces.arrange(wanted)
            self._record("sim", {"sim": "arrange", "position": wanted.text()})
            self._board_changed()

    # -- the clock ----------------------------------------------------------------

    def _chatter_bits(self):
        bits, ended = self.chatter.bits(self.now_ms)
        if ended:
            self._record("sim", {"sim": "chatter", "on": False, "ms": None})
        return bits

    def _step(self):
        self.pace.feed(self.now_ms, self._min_scans)
        self.raw = self.pace.board ^ self._chatter_bits()
        events = self.app.step(self.now_ms, self.raw, self.button)
        for _ in range(8):               # as the board loop: the App's next job at once
            if not getattr(self.app, "busy", False):
                break
            events = events + self.app.step(self.now_ms, self.raw, self.button)
        self._events(events)
        frame = self._app_value("frame") or ()
        roles = self._app_value("roles") or ()
        if events or len(frame) != len(self.frame) or list(roles) != self.roles or any(
                tuple(a) != b for a, b in zip(frame, self.frame)) or self.chatter.on:
            self._refresh()
        return events

    def step_to(self, now_ms):
        """One scan and App step at ``now_ms`` (real-time clock)."""
        with self.lock:
            if now_ms > self.now_ms:
                self.now_ms = now_ms
            return self._step()

    def advance(self, ms):
        """Let ``ms`` milliseconds pass, one step every tick (manual clock)."""
        with self.lock:
            ms = checks.whole(ms, "ms", 1, 3600000)
            events = []
            end = self.now_ms + ms
            while self.now_ms < end:
                self.now_ms = min(self.now_ms + self.tick_ms, end)
                events.extend(self._step())
            return events

    def idle(self):
        """True when every queued input has reached the App."""
        with self.lock:
            return self.pace.idle()

    def report_error(self, exc):
        """Log what broke a step of the clock thread, so the page shows it."""
        with self.lock:
            self._record("sim", {"sim": "error", "message": "%s: %s" % (type(exc).__name__, exc)})
            self._refresh()

    def close(self):
        with self.lock:
            self.closed = True
            self.changed.notify_all()

    # -- what the page shows ------------------------------------------------------

    def record_game(self):
        """The App's game (the engine Game its record is written from)."""
        with self.lock:
            return self._app_value("game")

    def snapshot(self, since=0):
        """Everything the page draws, and the log entries after ``since``."""
        with self.lock:
            app = app_state(self.app, self.config)
            log = [entry for entry in self.log if entry["seq"] > since]
            words = board_words(app, self.roles, self.app, self.story)
            return {
                "version": self.version,
                "now_ms": self.now_ms,
                "frame": [list(rgb) for rgb in self.frame],
                "roles": list(self.roles),
                "leds": dict(self.leds),
                "display_gain": round(self.display_gain, 3),
                "pieces": [p.as_dict() for p in self.pieces],
                "hand": list(self.pieces.hand),
                "occupancy": self.occupancy(),
                "raw": self.raw,
                "button": self.button,
                "chatter": self.chatter.on,
                "boots": self.boots,
                "rulesets": sorted(rules.RULESETS),
                "app": app,
                "explain": words,
                "sticks_live": sticks_live(app["state"], app["throw"]),
                "moves": self.moves.of(self._app_value("game")),
                "take_back": can_take_back(self.app, app["state"]),
                "seq": self.seq,
                "log": log,
            }
