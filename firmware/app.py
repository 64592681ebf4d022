"""The board's game flow: one App, stepped with the time and the raw inputs.

    app = App(config=None, store_dir=None, rng=None)
    events = app.step(now_ms, occupancy, button)
    app.roles, app.frame, app.frame_changed
    app.busy        # a job is due: step again at once (the next scan)

The hardware loop on the Pico, the browser simulator and the tests all drive
this same object; only where the occupancy and the button level come from
differs. Everything the App knows about the rules comes from the engine
(``engine.rules``, ``engine.game``); everything about reading moves off the
board from ``firmware.recognise``; everything about colours from
``firmware.lights``.

States (``app.state``):

    setup      the board is checked against the position (power-on, new game,
               resumed game): ``put`` / ``take`` until it matches
    opening    the players throw in turn; the first 1 starts (K4, H4)
    throw      waiting for the side to move to press the throw button
    move       a throw is pending: lift a piece, its destinations light up
    nomove     the throw has no legal move: shown, then the turn is lost
               (K15, H14) or the game ends (H14 option ``no_move="end"``)
    takeback   a long press took the last move back: restore the board
    mismatch   the board does not match anything legal (during opening,
               throw or move); the game goes on once it does
    game_over  the winner is shown (K16, H15); a long press starts a new game

Time comes only from ``now_ms``; intervals are differences, through
``time.ticks_diff`` where it exists, so the Pico's wrapping ms counter is fine.
An idle step (nothing changed, no timer due, no blink phase to draw) returns
the same empty list and allocates nothing, but for the few passes after a
save that write the saved game again in the background (firmware/store.py:
a few plies' text a pass, collected with the next save's garbage).
"""

import gc
import os
import sys

try:
    from micropython import const
except ImportError:
    const = lambda x: x  # noqa: E731

from firmware import ticks_diff

from engine.game import Game
from engine.position import BLACK, WHITE
from engine.rules import ruleset as make_ruleset, ruleset_spec
from engine.sticks import throw_from_bits
from firmware import unload
from firmware import recognise as rec
from firmware.lights import Lights, STYLES, PATTERNS, side_colours
from firmware.scan import Debouncer, Button
from firmware.store import Store

_SQUARES = const(30)
_NOMOVE_MS = const(2000)     # how long "no legal move" is shown before the pass
_FRAME_MS = const(40)        # redraw period while something blinks or swells
_HINT_MS = const(600)        # two short presses this close while a throw waits: the hint


_NO_EVENTS = []              # returned by every step that has nothing to say


def _collect():
    """Collect the garbage on MicroPython, at a quiet moment, so the next
    big allocation finds the heap in one piece; CPython frees as it goes.
    The board loop then keeps MicroPython's allocator from scanning the
    whole heap at every allocation (firmware/board.py ``_SPARE``)."""
    if sys.implementation.name == "micropython":
        gc.collect()

# Roles whose look changes with time: the frame is redrawn while one shows.
_ANIMATED = {}
for _role in STYLES:
    if PATTERNS[STYLES[_role][1]][0] != 0:
        _ANIMATED[_role] = True


def _checked(config):
    """config.json's settings checked (firmware/config.py, let go by the App
    once it has them)."""
    from firmware.config import validate
    return validate(config)


def default_rng():
    """``random.getrandbits``, seeded from os.urandom where the port has it."""
    import random
    urandom = getattr(os, "urandom", None)
    if urandom is not None and hasattr(random, "seed"):
        try:
            b = urandom(4)
            random.seed(b[0] | (b[1] << 8) | (b[2] << 16) | (b[3] << 24))
        except Exception:   # no entropy source: the port's own seed will do
            pass
    return random.getrandbits


def sticks_for(value, rs):
    """Stick faces that make ``value`` (C3), for a throw known only by value."""
    whites = 0 if value == rs.zero_value else value
    return tuple(1 if i < whites else 0 for i in range(4))


# The App is built in four parts, each a subclass of the part before and
# all named App (a new name would be interned for good): the board and what
# it shows; what the modes use; the step and the turn flow; the rest. A
# collection marks what it finds on a stack of 64 entries; one class table of
# some 60 methods, met with part of that stack in use, overflowed it, and
# MicroPython then walks the whole heap again: a collection twice as long
# (tests/firmware_tests/test_gc_mark_stack.py). Tables of about 20 do not.
class App:

    def __init__(self, config=None, store_dir=None, rng=None):
        cfg, messages = _checked(config)
        unload("firmware.config")        # the checks are needed only here
        unload("firmware.config_base")
        _collect()                       # their room back before the App is built
        self.config = cfg
        # Every attribute is made here, first, while the heap is in one
        # piece: an instance's attribute table grows by reallocation, and
        # grown late (after a long saved game has been read) it can find no
        # block big enough. The objects come after.
        self._events = None              # events for the caller of step/command
        self._thinking = None            # a search worked out a slice a pass (think)
        self._collect_due = False        # the save's garbage, for the next quiet pass
        self._state = "setup"
        self._occ = 0                    # the board as debounced...
        self._changed_at = None          # ...when it last changed...
        self._settled = False            # ...and whether it has been at rest
        self._now = 0
        self.sticks = None               # stick faces on the extra LEDs
        self._player = 1                 # opening: whose throw it is (1 or 2)
        self._mismatch = None            # (extra, missing) reported, or None
        self._reported = None            # last setup check reported
        self._nomove_at = 0
        self._target = 0                 # setup / takeback: the wanted occupancy
        self._swaps = 0                  # takeback of a capture: squares to swap
        self._lifted = 0                 # takeback: squares lifted since it began
        self._dirty = True
        self._animated = False
        self._frame_at = 0
        self._resumed = False
        self._save_due = 0               # 1: a save is due, 2: of the whole game
        # A pass does one thing the game changed, and what follows waits for
        # the next pass (the loop runs it at once: ``busy``): the lights of
        # a change, a move recognised and to be played, a throw's moves, the
        # save; so no pass holds the scan up for long (docs/dev/firmware-modules.md).
        self._draw_due = False           # the lights of the last pass's change
        self._play_due = None            # a move the board shows, played next pass
        self._moves_due = 0              # 1: a throw's moves, then 3: its event; 2: moves only
        self._entering = None            # those moves, for the move state next pass
        self._told = None                # a move played or a turn lost: said next pass
        self._throw_by = None            # who threw, for that throw event
        self._pressed_at = None          # the last short press while a throw waited
        self.mode = cfg["mode"]          # "two_players"; see _mode_tick
        self._computer = None            # firmware.computer.Computer in "computer" mode
        self._museum = None              # firmware.museum.Museum in "museum" mode
        self._rng = rng if rng is not None else default_rng()
        self._debouncer = None
        self._button = None
        self._lights = None
        self._recogniser = None
        self._store = None
        self._next_rs = None
        self.game = None
        leds = cfg["leds"]
        self._led_roles = [""] * leds["count"]
        self.roles = [""] * _SQUARES
        self.frame = None
        self.frame_changed = True        # the last step drew a frame unlike the one before

        if messages:
            self._emit({"event": "config", "messages": messages})
        self._lights = Lights(leds, cfg["brightness_cap"])
        unload("firmware.pins")          # its numbers are in the lights now
        # The saved game next: its reader (firmware/resume.py) is loaded for
        # it and let go, and the room it leaves is whole again before the
        # App's own objects are made.
        self._store = Store(store_dir) if store_dir else None
        game = None
        if self._store is not None:
            _collect()
            game, reason = self._store.load()
            if reason is not None:
                self._emit({"event": "notice",
                            "message": "saved game unreadable, new game started",
                            "reason": reason})
        self._next_rs = make_ruleset(cfg["ruleset"], **cfg["options"])
        self._resumed = game is not None
        self.game = game if game is not None else Game(self._next_rs)
        # What the game keeps for good is made now, low in a fresh heap: the
        # rulesets' move-generation plans. Made later, in the middle of a
        # game, such an object lands wherever that move's garbage had pushed
        # the heap to, and every collection after sweeps up to it
        # (docs/dev/firmware-modules.md, "The sweep").
        self.game.ruleset.plan()
        self._next_rs.plan()
        _collect()

        self._debouncer = Debouncer(_SQUARES, cfg["debounce_scans"])
        self._button = Button(long_ms=cfg["long_press_ms"], ticks_diff=ticks_diff)
        self.frame = self._lights.render(0, self._led_roles)
        self._recogniser = rec.Recogniser()
        if self.mode == "computer":
            from firmware.computer import Computer
            self._computer = Computer(self, cfg["computer"]["side"], cfg["computer"]["level"])
        if self.mode == "museum":
            from firmware.museum import Museum
            self._museum = Museum(self, cfg["museum"])
        if self._computer is not None or self.hint_on or self._museum is not None:
            # A board that may search (its computer, a hint, a museum's
            # opponent for a lone visitor) loads the search now, low in the
            # heap, and not in a pass of the loop: its import is some 20-40
            # ms on a Pico (firmware/computer.py ``ready``).
            from firmware.computer import ready
            ready(self)
        self._enter_setup()
        if self.game.throw is not None:
            self.sticks = sticks_for(self.game.throw, self.game.ruleset)

    # -- what a simulator or the serial line reads --------------------------

    @property
    def position(self):
        return self.game.position.text()

    @property
    def ruleset(self):
        return self.game.ruleset.name

    @property
    def state(self):
        if self._mismatch is not None and self._state in ("opening", "throw", "move"):
            return "mismatch"
        return self._state

    @property
    def throw(self):
        return self.game.throw

    @property
    def turn(self):
        return self.game.position.turn

    @property
    def led_roles(self):
        """The role of every LED in strip order (squares, sticks, sides)."""
        return self._led_roles

    @property
    def moves(self):
        """The legal moves of the pending throw (engine Move objects)."""
        return self._recogniser.moves if self._state == "move" else []


class App(App):  # noqa: F811  (the second part: what the modes use)

    # -- what the modes use (firmware/computer.py, museum.py, commands.py) ----
    # The modes see the App only through these members, so its internals can
    # change without breaking them (tests/test_firmware_imports.py checks it).
    # Those that change the game first finish what the passes before left
    # due (``_finish``): a mode never meets a move half played.

    @property
    def hint_on(self):
        """The config allows the hint: on, but off in museum mode unless it
        says so (its "hint" absent: null)."""
        hint = self.config.get("hint")
        return self.mode != "museum" if hint is None else hint

    @property
    def phase(self):
        """The state of the game flow, a mismatch or not ("move" while the
        board shows a wrong square in the middle of a move)."""
        return self._state

    @property
    def occupancy(self):
        """The board as debounced: a 30-bit int, bit 0 = square 1."""
        return self._occ

    @property
    def at_rest(self):
        """The board has been still for the settle time, shows the game's
        position (before any move of the pending throw) and nothing wrong."""
        return (self._settled and self._mismatch is None
                and self._occ == self.game.position.occupancy())

    @property
    def player(self):
        """In the opening (K4, H4): whose throw it is, 1 or 2."""
        return self._player

    @property
    def button_held(self):
        """The throw button is down (debounced)."""
        return self._button.held

    @property
    def next_ruleset(self):
        """The ruleset a new game is played by."""
        return self._next_rs

    @property
    def computer(self):
        """The computer's side of the game (firmware.computer.Computer), or None."""
        return self._computer

    @computer.setter
    def computer(self, computer):
        self._computer = computer
        self._dirty = True

    @property
    def museum(self):
        """The exhibit's keeper (firmware.museum.Museum), or None."""
        return self._museum

    @property
    def lights_changed(self):
        """The roles changed since the LEDs were last composed from them."""
        return self._dirty

    def redraw(self):
        """Compose the LEDs from the roles again before the next frame."""
        self._dirty = True

    def compose(self):
        """The LED roles composed from the game now, for a mode to draw over
        (the museum's attract light, its how-to scenes, its offer) before
        the frame is drawn; every frame is drawn while it does."""
        self._compose()
        self._animated = True
        return self._led_roles

    def emit(self, event):
        """Report ``event`` (a dict with an "event" key) with this step's."""
        self._emit(event)

    def press(self):
        """A short press of the throw button (the "throw" command)."""
        self._finish()
        self._short_press()

    def take_back(self):
        """A long press in the middle of a game (the "undo" command)."""
        self._finish()
        self._takeback()

    def play_throw(self, by=None, bits=None):
        """Throw the sticks for the side (or, in the opening, the player)
        whose throw it is; ``by`` names who threw in the throw event.
        ``bits``: the sticks as thrown on another board (a remote
        opponent's throw, firmware/room.py), instead of this board's rng."""
        self._finish()
        rng = self._rng
        if bits is not None:
            self._rng = lambda n: bits
        self._throw_by = by
        try:
            if self._state == "opening":
                self._opening_throw()
            else:
                self._throw()
        finally:
            self._rng = rng

    def think(self, job):
        """Work out ``job`` a slice a quiet pass (a pass with no input to
        take and nothing to draw), with the board scanned between the
        slices: ``job.step(app)`` is called until it returns True (the
        search for a hint or a computer's move, firmware/computer.py). The
        App is ``busy`` meanwhile; a later job takes the place of this one."""
        self._thinking = job

    def expect(self, moves):
        """The moves the board takes for the pending throw: ``moves`` (engine
        Moves; [] for none yet) or, for None, every legal one. The hints on
        the squares are worked out again."""
        self._finish()
        r = self._recogniser
        r.begin(r.base, self.game.legal_moves() if moves is None else moves)
        r.classify(self._occ, self.roles)
        self._dirty = True

    def new_game(self, rs=None):
        """Close this game and begin one by ``rs`` (which is then the next
        ruleset too) or by the next ruleset; the setup check comes first."""
        self._finish()
        if rs is not None:
            self._next_rs = rs
        self._new_game(self._next_rs)

    def adopt(self, game):
        """Play on from ``game`` instead of this one (the room's record of a
        remote game, firmware/room.py, when this board fell behind): it is
        saved whole, then the board is checked against it as on power-on."""
        self._finish()
        self._recogniser.end()
        self.game = game
        self.sticks = None if game.throw is None else sticks_for(game.throw, game.ruleset)
        self._resumed = True
        self._save(True)
        self._enter_setup()
        self._check_now()

    def pause(self, state):
        """Hold the game flow in a state of the mode's own (the museum's
        "howto"): no throw, no move, until ``start_opening``."""
        self._state = state
        self._dirty = True

    def start_opening(self):
        """Begin the opening throws (K4, H4) and judge the board at once."""
        self._enter_opening()
        self._check_now()


class App(App):  # noqa: F811  (the third part: the step and the turn flow)

    # -- the step ------------------------------------------------------------

    def step(self, now_ms, occupancy, button):
        """Feed one scan and the button level at ``now_ms``; return events.

        The returned list belongs to the caller when it holds events; an
        empty result is one shared list, not to be changed. A pass that
        leaves work due (``busy``) takes no input: the next takes it.
        """
        self._now = now_ms
        self.frame_changed = False
        if self._due_now():
            self._due(now_ms)
        else:
            self._inputs(now_ms, occupancy, button)
        events = self._events
        if events is None:
            return _NO_EVENTS
        self._events = None
        return events

    @property
    def busy(self):
        """Work is due that the next pass does (lights to draw, a move to
        play, a throw's moves, a save, the boards a move may pass through,
        the save's collection, a slice of a search): the board loop runs it
        at once."""
        return (self._due_now() or self._thinking is not None or self._collect_due
                or (self._state == "move" and self._recogniser.listing))

    def _due_now(self):
        """A job the next pass does before it takes any input."""
        return (self._draw_due or self._play_due is not None or self._told is not None
                or self._moves_due != 0 or self._entering is not None or self._save_due != 0)

    def _due(self, now_ms):
        """One job the pass before left, in the order a player needs them:
        a move the board shows is played (the next throw's lights made),
        those lights drawn, then it is said (its event); a lost turn is said
        and its lights drawn; a throw's moves are worked out (its sticks
        already lit), then said, the squares told what they may do, and
        those lit; then the save."""
        if self._play_due is not None:
            move = self._play_due
            self._play_due = None
            self._commit(move)
            self._draw_due = self._dirty
        elif self._draw_due:
            self._draw_due = False
            self._render(now_ms)
        elif self._told is not None:
            self._tell()
            self._draw_due = self._dirty
        elif self._moves_due:
            self._throw_moves()
        elif self._entering is not None:
            moves = self._entering
            self._entering = None
            self._enter_move(moves)
            self._mode_tick(now_ms)      # a computer's or remote throw: theirs to light
            self._draw_due = self._dirty
        else:
            self._save_now()             # what the passes before showed, saved now

    def _finish(self):
        """The game's jobs left due, done at once (a command's answer, a
        caller that stops stepping the App)."""
        while (self._play_due is not None or self._told is not None or self._moves_due
               or self._entering is not None):
            self._due(self._now)

    def _inputs(self, now_ms, occupancy, button):
        """The board, the button, the timers and the modes; the lights now
        only if nothing was worked out (a blink), else in the next pass."""
        worked = False
        if self._changed_at is None:
            self._changed_at = now_ms
            self._frame_at = now_ms - _FRAME_MS
        occ = self._debouncer.update(occupancy)
        if occ != self._occ:
            old = self._occ
            self._occ = occ
            self._changed_at = now_ms
            self._settled = False
            self._board_changed(old, occ)
            worked = True
        elif not self._settled and ticks_diff(now_ms, self._changed_at) >= self.config["settle_ms"]:
            self._settled = True
            self._board_settled()
            worked = True
        press = self._button.update(now_ms, button)
        if press is not None:
            if press == "long":
                self._long_press()
            else:
                self._short_press()
            worked = True
        if self._state == "nomove" and ticks_diff(now_ms, self._nomove_at) >= _NOMOVE_MS:
            self._lose_turn()
            worked = True
        self._mode_tick(now_ms)
        if self._play_due is not None or self._told is not None:
            return                       # its lights come after it is said
        if self._dirty and (worked or self._moves_due):
            self._draw_due = True
            return
        if self._dirty or (self._animated and ticks_diff(now_ms, self._frame_at) >= _FRAME_MS):
            self._render(now_ms)
            return
        # a pass with nothing to show: one move's boards on the way, or else
        # a slice of the saved game's rewrite
        if worked or (self._state == "move" and self._recogniser.work()):
            return
        if self._collect_due:            # the last save's garbage, in a pass of its own
            self._collect_due = False
            _collect()
            return
        job = self._thinking
        if job is not None:              # a slice of a search (``think``)
            if job.step(self):
                if self._thinking is job:
                    self._thinking = None
                self._draw_due = self._dirty     # what it found, lit in the next pass
            return
        if self._events is None and self._settled and self._store is not None:
            self._store.work()

    def command(self, cmd):
        """Carry out a serial command (a dict from protocol.parse_command).
        Commands are rare: their code (firmware/commands.py) is loaded with
        the first one."""
        from firmware.commands import command
        self._finish()                   # the game as the passes before left it
        command(self, cmd)
        self._finish()
        if self._dirty:
            self._render(self._now)
            self._draw_due = False
        events = self._events or []
        self._events = None
        return events

    def flush(self):
        """The save left due, made now, for a caller that stops stepping the
        App (the self-test); returns the events, as ``command`` does."""
        self._finish()
        if self._save_due:
            self._save_now()
        events = self._events or []
        self._events = None
        return events

    # -- inputs ---------------------------------------------------------------

    def _board_changed(self, old, occ):
        """A debounced change: follow the hands at once, judge only at rest,
        but for a put-down that can only be one legal move: played now."""
        state = self._state
        if state == "move":
            r = self._recogniser
            r.record(old, occ)
            if self._mismatch is None:
                verdict = r.classify(occ, self.roles)
                if verdict == rec.DONE and not self._debouncer.changed and r.ready(occ):
                    self._play_due = r.move       # nothing else it could become
                    return
                if verdict == rec.MISMATCH or verdict == rec.DONE:
                    r.classify(r.base, self.roles)    # judged when at rest
            self._dirty = True
        elif state == "setup" or state == "takeback":
            self._lifted |= old & ~occ
            self._show_restore()

    def _board_settled(self):
        state = self._state
        occ = self._occ
        if state == "setup" or state == "takeback":
            if self._show_restore():
                self._board_ready()
            else:
                self._report_setup()
        elif state == "opening" or state == "throw":
            expected = self.game.position.occupancy()
            if occ == expected:
                self._resolve()
            else:
                self._report_mismatch(occ & ~expected, expected & ~occ)
        elif state == "move":
            r = self._recogniser
            verdict = r.classify(occ, self.roles)
            self._dirty = True
            if verdict == rec.DONE:
                self._mismatch = None
                self._play_due = r.move           # played in the next pass
            elif verdict == rec.MISMATCH:
                self._report_mismatch(r.extra, r.missing)
            else:
                self._resolve()

    def _short_press(self):
        state = self._state
        if self._museum is not None and self._museum.pressed():
            return                        # a side handed back by the museum
        if self._computer is not None and self._computer.throws_now():
            self._emit({"event": "notice", "message": "throw ignored: " + getattr(
                self._computer, "why", "the computer throws for itself")})
            return
        if state == "opening" or state == "throw":
            if self._occ != self.game.position.occupancy() or self._mismatch is not None:
                self._emit({"event": "notice",
                            "message": "throw ignored: the board does not match the game"})
                return
            if state == "opening":
                self._opening_throw()
            else:
                self._throw()
        elif state == "move":
            # Two short presses this close: the hint (firmware/computer.py).
            last = self._pressed_at
            self._pressed_at = self._now
            if last is not None and ticks_diff(self._now, last) <= _HINT_MS:
                if "firmware.computer" not in sys.modules:
                    _collect()           # its code, kept from now on, goes low (see __init__)
                from firmware.computer import pressed
                if pressed(self):
                    self._pressed_at = None  # a third press begins a new pair
                    return
            # A throw is never split or replaced (C4): finish the move first.
            self._emit({"event": "notice", "message": "throw ignored: finish the move first"})
        elif state == "nomove":
            self._lose_turn()             # acknowledged: no need to wait

    def _long_press(self):
        if self._state == "game_over" or self._state == "setup":
            self._new_game(self._next_rs)
        else:
            self._takeback()

    # -- setup check and takeback ---------------------------------------------

    def _enter_setup(self, later=False):
        """The board checked against the game; ``later``: its lights worked
        out in the next pass (a new game: the game made and said in this)."""
        self._state = "setup"
        self._target = self.game.position.occupancy()
        self._swaps = 0
        self._lifted = 0
        self._mismatch = None
        self._reported = None
        self._settled = False
        if later:
            self._told = ("setup", None, None)
        else:
            self._show_restore()

    def _takeback(self):
        """Take back the last move (a lost turn has nothing to take back on the
        board, so it goes too); the board then shows how to restore it."""
        game = self.game
        has_move = False
        for entry in game.turns():          # read from the log: no replay
            if entry[2] is not None:
                has_move = True
                break
        if not has_move or self._state in ("setup", "game_over"):
            self._emit({"event": "notice", "message": "nothing to take back"})
            return
        before = game.position
        self._recogniser.end()
        entry = game.undo()
        while entry[2] is None:
            entry = game.undo()
        game.set_throw(entry[1])           # the same throw, played again
        self.sticks = sticks_for(entry[1], game.ruleset)
        self._save()                       # a U line in the log (firmware/store.py)
        self._emit({"event": "undo", "side": entry[0], "move": entry[2],
                    "position": self.position, "throw": entry[1]})
        self._state = "takeback"
        after = game.position
        self._target = after.occupancy()
        swaps = 0
        for s in range(1, _SQUARES + 1):
            if before.cells[s] != after.cells[s] and before.at(s) != "." and after.at(s) != ".":
                swaps |= rec.bit(s)
        self._swaps = swaps
        self._lifted = 0
        self._mismatch = None
        self._reported = None
        self._settled = False
        self._show_restore()

    def _show_restore(self):
        done = rec.restore_roles(self.roles, self._target, self._occ, self._swaps,
                                 self._lifted)
        self._dirty = True
        return done

    def _report_setup(self):
        extra = self._occ & ~self._target
        missing = (self._target & ~self._occ) | (self._swaps & ~self._lifted)
        if self._reported != (extra, missing):
            self._reported = (extra, missing)
            self._emit({"event": "setup", "extra": rec.squares_of(extra),
                        "missing": rec.squares_of(missing), "position": self.position})

    def _board_ready(self):
        """The board matches the game: carry on where it stands."""
        game = self.game
        self._emit({"event": "ready", "position": self.position, "ruleset": self.ruleset,
                    "resumed": self._resumed or bool(game.ply_count) or game.throw is not None})
        self._resumed = False
        if game.is_over():
            self._enter_game_over()
        elif game.throw is not None:
            self._moves_due = 2              # the resumed throw's moves, next pass
        elif not game.ply_count and (not game.opening or game.opening[-1] != 1):
            self._enter_opening()            # K4, H4: the opening goes on where it stood
            self._player = len(game.opening) % 2 + 1
        else:
            self._enter_throw()

    # -- the opening (K4, H4) ------------------------------------------------

    def _enter_opening(self):
        self._state = "opening"
        self._player = 1
        self.sticks = None
        rec.clear(self.roles)
        self._dirty = True

    def _opening_throw(self):
        t = self._roll()
        game = self.game
        game.opening.append(t.value)
        event = {"event": "throw", "side": None, "player": self._player,
                 "value": t.value, "sticks": list(t.sticks), "opening": True}
        if self._throw_by is not None:
            event["by"] = self._throw_by
            self._throw_by = None
        self._emit(event)
        if t.value == 1:
            # K4, H4: the first to throw a 1 takes the side that starts and
            # moves with that throw.
            side = game.position.turn
            self._emit({"event": "start", "side": side, "player": self._player})
            game.set_throw(1)
            self._save()
            self._moves_due = 2              # its moves in the next pass
        else:
            self._player = 3 - self._player
            self._dirty = True

    # -- throwing and moving -------------------------------------------------

    def _roll(self):
        t = throw_from_bits(self.game.ruleset, self._rng(4))
        self.sticks = t.sticks
        self._dirty = True
        return t

    def _enter_throw(self):
        self._state = "throw"
        self._mismatch = None
        rec.clear(self.roles)
        self._dirty = True
        self._check_now()

    def _throw(self):
        """The sticks fall: shown in the next pass, the moves after them."""
        t = self._roll()
        self.game.set_throw(t.value)
        self._moves_due = 1

    def _throw_moves(self):
        """The pending throw's legal moves (1, 2), or its event (3); the move
        state (or no move) comes in the pass after."""
        game = self.game
        if self._moves_due != 3:
            self._entering = game.legal_moves()
            self._moves_due = 3 if self._moves_due == 1 else 0
            return
        event = {"event": "throw", "side": game.position.turn, "value": game.throw,
                 "sticks": list(self.sticks), "moves": [m.text for m in self._entering]}
        if self._throw_by is not None:
            event["by"] = self._throw_by
        self._emit(event)
        self._save()          # after the lights: a cut before it loses only this throw
        self._moves_due = 0

    def _enter_move(self, moves=None):
        """A throw is pending: the legal moves are worked out once, here."""
        game = self.game
        if moves is None:
            moves = game.legal_moves()
        self._throw_by = None
        if not moves:
            self._state = "nomove"
            self._nomove_at = self._now
            rec.clear(self.roles)
            self._dirty = True
            return
        self._state = "move"
        self._mismatch = None
        self._recogniser.begin(game.position.occupancy(), moves)
        self._dirty = True
        if self._settled:
            self._board_settled()        # judges the board, hints and all
        else:
            self._recogniser.classify(self._occ, self.roles)

    def _check_now(self):
        """Judge the board at once if it is already at rest."""
        if self._settled:
            self._board_settled()

    def _commit(self, move):
        """The board shows a legal move: play it in the engine and make the
        next throw's lights; it is said and saved in the passes after."""
        game = self.game
        side = game.position.turn
        game.play(move)
        self._recogniser.end()
        self._told = ("move", side, move)
        if not game.is_over():
            self._enter_throw()          # the end is shown once the move is said

    def _lose_turn(self):
        """No legal move (K15, H14): the turn is lost, or the game ends."""
        game = self.game
        told = ("pass", game.position.turn, game.throw)
        game.pass_turn()
        self._told = told

    def _tell(self):
        """The move played or the turn lost in a pass before: its event, the
        save made due, and the next throw (for a lost turn) or the end. Or a
        new game's setup lights ("setup")."""
        kind, side, what = self._told
        self._told = None
        if kind == "setup":              # a new game's lights: the pieces to set out
            self._show_restore()
            return
        game = self.game
        if kind == "move":
            self._emit({"event": "move", "side": side, "move": what.text,
                        "after": game.position.text(), "again": what.again})
        elif not game.is_over():
            self._emit({"event": "pass", "side": side, "throw": what,
                        "next": game.position.turn})
            self._enter_throw()
        self._save()
        if game.is_over():
            self._announce_end()         # (a lost turn: H14 option no_move="end", H15)

    def _announce_end(self):
        game = self.game
        rs = game.ruleset
        pos = game.position
        self._emit({"event": "game_over", "winner": game.winner, "score": game.score,
                    "points": {BLACK: rs.points(pos, BLACK), WHITE: rs.points(pos, WHITE)}})
        self._enter_game_over()

    def _enter_game_over(self):
        self._state = "game_over"
        self._mismatch = None
        rec.clear(self.roles)
        # H15: the winner's score, shown as that many lit squares from square 1.
        score = self.game.score or 0
        for i in range(min(score, _SQUARES)):
            self.roles[i] = "winner"
        self._dirty = True


class App(App):  # noqa: F811  (the last part)
    """The Senet board: turns scans and button presses into a game."""

    # -- mistakes --------------------------------------------------------------

    def _report_mismatch(self, extra, missing):
        if self._mismatch != (extra, missing):
            self._mismatch = (extra, missing)
            rec.show_mismatch(self.roles, extra, missing)
            self._dirty = True
            self._emit({"event": "mismatch", "extra": rec.squares_of(extra),
                        "missing": rec.squares_of(missing)})

    def _resolve(self):
        if self._mismatch is not None:
            self._mismatch = None
            if self._state != "move":
                rec.clear(self.roles)
            self._dirty = True
            self._emit({"event": "resolved"})

    # -- new games ----------------------------------------------------------

    def _new_game(self, rs):
        # The old game's room comes back at the collection after this new
        # game's whole save (_save_now): a collection here made this pass
        # some 15 ms on a Pico.
        self.game = Game(rs)
        self._resumed = False
        self.sticks = None
        self._save(True)
        event = {"event": "new", "ruleset": ruleset_spec(rs), "position": self.position,
                 "mode": self.mode}
        if self._computer is not None:   # a page or mirror knows its opponent at once
            event["computer"] = self._computer.side
        self._emit(event)
        self._enter_setup(True)
        self._check_now()

    # -- extension point -------------------------------------------------------

    def _mode_tick(self, now_ms):
        """The modes of config["mode"] other than "two_players", called every
        step after the board and the button have been taken: the computer
        opponent (firmware/computer.py: throws for its side, lights its
        chosen move) and the museum (firmware/museum.py: attract light,
        resets, how-to, the lone visitor's opponent). Each is made only in
        its mode and uses the App's public members only."""
        if self._computer is not None:
            self._computer.tick(now_ms)      # firmware/computer.py
        if self._museum is not None:
            self._museum.tick(now_ms)        # firmware/museum.py
        return None

    # -- output -----------------------------------------------------------------

    def _emit(self, event):
        if self._events is None:
            self._events = []
        self._events.append(event)

    def _save(self, whole=False):
        """Show first, save after: the save is made at the start of the next
        step, once the caller has sent this step's events and lights (a cut
        in between loses only this throw or move, as a cut a moment earlier
        would). ``whole``: a new game, the whole file."""
        if self._store is not None:
            if whole:
                self._save_due = 2
            elif not self._save_due:
                self._save_due = 1

    def _save_now(self):
        whole = self._save_due == 2
        self._save_due = 0
        try:
            self._store.save(self.game, whole)
        except Exception as e:   # a full or failing flash must not stop the game
            self._emit({"event": "notice", "message": "could not save the game (%s)" % (e,)})
        # The garbage of the throw or move goes next, in a pass of its own:
        # a collection is most of a save's time (some 15 ms on a Pico), and
        # the write and it together made the longest pass of a move.
        self._collect_due = self._store is not None

    def _render(self, now_ms):
        """Let the lights turn every LED's role into colours; the roles are
        composed again only when something changed, not for a blink."""
        if self._dirty:
            self._compose()
        self.frame = self._lights.render(now_ms, self._led_roles)
        self.frame_changed = self._lights.changed
        self._frame_at = now_ms

    def _compose(self):
        led = self._led_roles
        leds = self.config["leds"]
        roles = self.roles
        animated = False
        for i in range(_SQUARES):
            role = roles[i]
            led[i] = role
            if role in _ANIMATED:
                animated = True
        if self._state == "setup" or self._state == "takeback":
            side_colours(led, self.position)     # which colour goes where
        sticks = self.sticks
        for i in range(4):
            if sticks is None:
                role = ""
            else:
                role = "stick_white" if sticks[i] else "stick_black"
            led[leds["sticks"] + i] = role
        black, white = self._side_roles()
        led[leds["side_black"]] = black
        led[leds["side_white"]] = white
        if black in _ANIMATED or white in _ANIMATED:
            animated = True
        self._animated = animated
        self._dirty = False

    def _side_roles(self):
        """The two side LEDs: whose throw, no move, the winner."""
        state = self._state
        if state == "setup":
            return "", ""
        if state == "opening":
            # The opening has players, not colours yet: player 1 throws at
            # the black light, player 2 at the white one (K4, H4).
            return ("turn", "") if self._player == 1 else ("", "turn")
        if state == "game_over":
            winner = self.game.winner
            if winner is None:
                return "winner", "winner"          # H14/H15 drawn score
            return ("winner", "") if winner == BLACK else ("", "winner")
        role = "nomove" if state == "nomove" else "turn"
        turn = self.game.position.turn
        return (role, "") if turn == BLACK else ("", role)

