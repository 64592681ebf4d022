"""The board as an unattended exhibit (config "mode": "museum").

Nobody explains the game to a museum visitor and nobody tidies up after
one, so the board does both. The App calls ``tick(now_ms)`` every step (its
``_mode_tick`` hook), after it has taken the board and the button; the
museum only watches the App and steers it through the App's own methods.

- **Attract**: after ``attract_s`` without a touch (no square changed, no
  press) the squares play a slow light travelling along the path. Only the
  LEDs change: the game, its roles (``app.roles``) and its timers are left
  exactly as they were, so the touch that ends the animation is taken by the
  game like any other (a lift is a lift, a press a throw when one is due).
- **Reset for the next visitor**: ``reset_s`` without a touch in the middle
  of a game, or ``reset_after_game_s`` after a game has ended, and the game
  is closed: a new one begins with the usual setup check, whose ``put`` and
  ``take`` lights show where the pieces go back. A fresh game is never
  reset, so a quiet night writes nothing to the flash.
- **How to play**: when a new game begins (the setup check ends on a fresh
  game) the lights show, in four short scenes, the sticks and whose turn,
  the pieces that may move, the lifted piece and where it may go, and what a
  mistake looks like. A press, or a touch of the pieces, ends it; the press
  that ends it throws nothing.
- **A visitor alone**: a press while a throw waits to be played and no
  piece has moved (so: throw, then press again) hands the side to move to
  the computer (firmware.computer) for the rest of the game.
- **The serial line only reports**: ``refuse(name)`` says why a command that
  would change the game is refused; a laptop changes a museum board in the
  maintenance mode (firmware/board.py).

Events, all ``{"event": "museum", "what": ...}``: ``attract``, ``wake``,
``howto``, ``howto_done`` (``skipped``), ``reset`` (``reason``: ``"quiet"``
or ``"game_over"``), ``computer`` (``side``), ``no_computer`` (``reason``).
docs/museum.md is for staff.
"""

import gc
import sys

try:
    from micropython import const
except ImportError:
    const = lambda x: x  # noqa: E731

from firmware import ticks_diff, unload

_SQUARES = const(30)
_SCENE_MS = const(2000)       # each scene of the how-to-play sequence
_SCENES = const(4)


# The computer opponent's code and its search take some 1,300 machine words
# of heap (10.6 KB on the 64-bit unix port, half that on the Pico): it is
# not loaded unless this much is free, with room to spare for the game. A
# load tried and failed would still leave its names interned for good.
_COMPUTER_WORDS = const(2048)


def _room_for_the_computer():
    mem_free = getattr(gc, "mem_free", None)
    if mem_free is None:                     # CPython: the simulator, the tests
        return True
    gc.collect()
    word = 8 if sys.maxsize > 0x7FFFFFFF else 4
    return mem_free() >= _COMPUTER_WORDS * word


class Museum:
    """Attract, reset, how-to-play and the computer for a lone visitor."""

    def __init__(self, app, settings):
        self.app = app
        self.attract_ms = settings["attract_s"] * 1000
        self.reset_ms = settings["reset_s"] * 1000
        self.after_game_ms = settings["reset_after_game_s"] * 1000
        self.attracting = False
        self.howto_at = None         # when the how-to began, while it plays
        self.resets = 0              # games closed for the next visitor
        self._skipping = False       # the how-to was ended by a press: wait for release
        self._touched = None         # the time of the last touch
        self._occ = None
        self._held = False
        self._pressed_in = None      # the App's state when the button went down
        self._state = None
        self._over_at = 0            # when the game ended

    def refuse(self, name):
        """Why command ``name`` is refused in museum mode, or None if it is not."""
        if name in ("state", "health", "hello"):    # the commands that only read
            return None
        return ("museum mode: the serial line only reports, %s is refused; restart "
                "the board holding the throw button (maintenance mode) to change it"
                % (name,))

    # -- the hook -----------------------------------------------------------

    def tick(self, now_ms):
        app = self.app
        if self._touched is None:
            self._touched = now_ms
            self._occ = app._occ
            self._state = app._state
        touched = app._occ != self._occ
        self._occ = app._occ
        held = app._button.held
        if held != self._held:
            self._held = held
            if held:
                self._pressed_in = app._state
            elif self._pressed_in == "move":
                self._released()
        if held:
            touched = True
        state = app._state
        if state != self._state:
            self._entered(state, now_ms)
        if touched:
            self._touched = now_ms
            if self.attracting:
                self._wake()
        if self.howto_at is not None:
            self._howto(now_ms, touched)
            return
        if app._state == "game_over":
            if ticks_diff(now_ms, self._over_at) >= self.after_game_ms:
                self._reset("game_over", now_ms)
        elif ticks_diff(now_ms, self._touched) >= self.reset_ms and self._in_progress():
            self._reset("quiet", now_ms)
        elif not self.attracting and ticks_diff(now_ms, self._touched) >= self.attract_ms:
            self.attracting = True
            app._emit({"event": "museum", "what": "attract"})
            app._dirty = True
        if self.attracting and app._dirty:
            app._compose()
            self._attract_lights()

    # -- what happened --------------------------------------------------------

    def _entered(self, state, now_ms):
        app = self.app
        old = self._state
        self._state = state
        if state == "game_over":
            self._over_at = now_ms
        elif state == "opening" and old == "setup":
            # The setup check ended on a fresh game (the App only enters the
            # opening then): show how to play before the first throw.
            self._let_go_of_the_computer()
            app._state = "howto"          # the App's state while the how-to plays
            self._state = "howto"
            self.howto_at = now_ms
            self._skipping = False
            app._emit({"event": "museum", "what": "howto"})
            app._dirty = True

    def _released(self):
        """A press that began and ended with a throw waiting and no piece
        moved asks the board to play that side (a visitor alone)."""
        app = self.app
        if app._state != "move" or app._computer is not None:
            return
        if app._occ != app._recogniser.base or app._recogniser.lifted:
            return
        side = app.game.position.turn
        if not _room_for_the_computer():
            app._emit({"event": "museum", "what": "no_computer", "reason": "no room"})
            return
        try:
            from firmware.computer import Computer
            import engine.ai         # noqa: F401  its search: a full heap says no here
            app._computer = Computer(app, side, app.config["computer"]["level"])
        except (ImportError, MemoryError) as e:   # no computer on this board, or no room:
            Computer = None                  # what did load goes back to the heap
            self._let_go_of_the_computer()
            app._emit({"event": "museum", "what": "no_computer",
                       "reason": "no room" if isinstance(e, MemoryError) else "not installed"})
            return
        app._emit({"event": "museum", "what": "computer", "side": side})

    def _let_go_of_the_computer(self):
        """The lone visitor's opponent leaves with the game, and its code
        (the search is the largest module the board loads) with it; also
        whatever part of it a failed load left behind."""
        self.app._computer = None
        unload("firmware.computer")
        unload("engine.ai")

    def _in_progress(self):
        game = self.app.game
        return bool(game.ply_count or game.opening or game.throw is not None)

    # -- attract ------------------------------------------------------------

    def _wake(self):
        self.attracting = False
        self.app._dirty = True       # the game's own lights, composed again
        self.app._emit({"event": "museum", "what": "wake"})

    def _attract_lights(self):
        led = self.app._led_roles
        for i in range(len(led)):
            led[i] = "attract" if i < _SQUARES else ""
        self.app._animated = True

    # -- reset --------------------------------------------------------------

    def _reset(self, reason, now_ms):
        app = self.app
        self.resets += 1
        self._touched = now_ms
        if self.attracting:
            self.attracting = False
        self._let_go_of_the_computer()
        app._emit({"event": "museum", "what": "reset", "reason": reason})
        app._new_game(app._next_rs)
        self._state = "setup"
        if app._state != "setup":             # the pieces stood at the start
            self._entered(app._state, now_ms)

    # -- how to play --------------------------------------------------------

    def _howto(self, now_ms, touched):
        app = self.app
        if self._held or self._skipping:
            # A press ends it; the game starts once the button is up again, so
            # the press throws nothing.
            self._skipping = True
            if not self._held:
                self._end_howto(True)
            return
        if touched:
            self._end_howto(True)
            return
        elapsed = ticks_diff(now_ms, self.howto_at)
        if elapsed >= _SCENE_MS * _SCENES:
            self._end_howto(False)
            return
        scene = elapsed // _SCENE_MS
        if app._dirty or scene != self._scene:
            app._compose()
            self._scene = scene
            self._howto_lights(scene)

    _scene = -1

    def _end_howto(self, skipped):
        app = self.app
        self.howto_at = None
        self._skipping = False
        self._scene = -1
        app._emit({"event": "museum", "what": "howto_done", "skipped": skipped})
        app._enter_opening()
        self._state = app._state
        app._check_now()            # a piece moved meanwhile: judged at once

    def _howto_lights(self, scene):
        """The game's real first move, as the board will show it: scene 0,
        the sticks show a 1 (one flat side) and the light of the side that
        starts (K4: white, H4: black); 1, that side's pieces, on the even
        squares 2..10 in both rulesets, may all move; 2, the piece on 10
        lifted and its one destination, 11; 3, that piece put on 12 instead:
        a wrong square and a missing piece."""
        app = self.app
        led = app._led_roles
        for i in range(len(led)):
            led[i] = ""
        if scene == 0:
            leds = app.config["leds"]
            s = leds["sticks"]
            led[s] = "stick_white"
            led[s + 1] = "stick_black"
            led[s + 2] = "stick_black"
            led[s + 3] = "stick_black"
            side = "side_black" if app.game.position.turn == "B" else "side_white"
            led[leds[side]] = "turn"
        elif scene == 1:
            for i in range(1, 10, 2):
                led[i] = "movable"
        elif scene == 2:
            led[9] = "lifted"
            led[10] = "target"
        else:
            led[11] = "error"
            led[9] = "missing"
        app._animated = True
