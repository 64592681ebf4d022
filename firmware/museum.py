"""The board as an unattended exhibit (config "mode": "museum").

Nobody explains the game to a museum visitor and nobody tidies up after
one, so the board does both. The App calls ``tick(now_ms)`` every step (its
``_mode_tick`` hook), after it has taken the board and the button, and
lets it see each short press first (``pressed``); the museum only watches
the App and steers it through the App's public members.

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
- **A visitor alone**: when one side has just played (moved or passed) and
  the other side's throw then waits untouched for ``offer_ms`` (15 s, or
  half of ``attract_s`` if that is shorter), the board offers to play the
  waiting side: that side's light shows ``offer``. Any touch or press ends
  the offer (a press then throws for a person, as always). Left alone for
  ``_TAKE_MS`` (10 s) more, the board takes the side: the computer
  (firmware.computer, loaded with its search at start-up and kept) throws
  and chooses for it, and a person carries its moves out. A board whose
  start-up had no room for the search offers nothing (``no_computer``).
  A press on that side's turn (before its throw, or while its move is
  shown) gives the side back to the person who pressed; the pending throw,
  if any, is theirs to play. Nothing is handed over by a
  press, so two impatient presses never give a side away.
- **The serial line only reports**: ``refuse(name)`` says why a command that
  would change the game is refused; a laptop changes a museum board in the
  maintenance mode (firmware/board.py).

Events, all ``{"event": "museum", "what": ...}``: ``attract``, ``wake``,
``howto``, ``howto_done`` (``skipped``), ``reset`` (``reason``: ``"quiet"``
or ``"game_over"``), ``offer`` (``side``), ``offer_withdrawn`` (``side``),
``computer`` (``side``), ``hand_back`` (``side``), ``no_computer``
(``reason``). The museum steers the App through its public members only.
docs/museum.md is for staff.
"""

import sys

try:
    from micropython import const
except ImportError:
    const = lambda x: x  # noqa: E731

from firmware import ticks_diff

_SQUARES = const(30)
_SCENE_MS = const(2000)       # each scene of the how-to-play sequence
_SCENES = const(4)
_OFFER_MS = const(15000)      # a quiet turn this long after the other side played: the offer
_TAKE_MS = const(10000)       # the offer shows this long before the board takes the side


def _search_loaded():
    """The computer opponent's search was loaded at start-up (the App's
    ``ready``, firmware/computer.py) and is kept: taking a side then costs
    the step no import. Without it (no room at start-up) nothing is
    offered: loading it in the middle of a game was a pass of 20-40 ms on a
    Pico, in a heap a long game may have cut up."""
    return "engine.ai" in sys.modules


class Museum:
    """Attract, reset, how-to-play and the computer for a lone visitor."""

    def __init__(self, app, settings):
        self.app = app
        self.attract_ms = settings["attract_s"] * 1000
        self.reset_ms = settings["reset_s"] * 1000
        self.after_game_ms = settings["reset_after_game_s"] * 1000
        self.offer_ms = min(_OFFER_MS, self.attract_ms // 2)   # before the attract light
        self.attracting = False
        self.howto_at = None         # when the how-to began, while it plays
        self.resets = 0              # games closed for the next visitor
        self.offer = None            # the side the board offers to play, while it does
        self._offered_at = 0
        self._weighed = False        # this quiet turn was weighed for an offer
        self._mover = None           # the side that last had a throw to play
        self._skipping = False       # the how-to was ended by a press: wait for release
        self._touched = None         # the time of the last touch
        self._occ = None
        self._held = False
        self._state = None
        self._over_at = 0            # when the game ended

    def refuse(self, name):
        """Why command ``name`` is refused in museum mode, or None if it is not."""
        if name in ("state", "game", "health", "hello"):    # the commands that only read
            return None
        return ("museum mode: the serial line only reports, %s is refused; restart "
                "the board holding the throw button (maintenance mode) to change it"
                % (name,))

    # -- the hooks ----------------------------------------------------------

    def tick(self, now_ms):
        app = self.app
        if self._touched is None:
            self._touched = now_ms
            self._occ = app.occupancy
            self._state = app.phase
        touched = app.occupancy != self._occ
        self._occ = app.occupancy
        held = app.button_held
        self._held = held
        if held:
            touched = True
        state = app.phase
        if state != self._state:
            self._entered(state, now_ms)
        if state == "move" or state == "nomove":
            self._mover = app.turn
        if touched:
            self._touched = now_ms
            self._weighed = False
            if self.attracting:
                self._wake()
            if self.offer is not None:
                self._withdraw()
        if self.howto_at is not None:
            self._howto(now_ms, touched)
            return
        quiet = ticks_diff(now_ms, self._touched)
        if app.phase == "game_over":
            if ticks_diff(now_ms, self._over_at) >= self.after_game_ms:
                self._reset("game_over", now_ms)
        elif quiet >= self.reset_ms and self._in_progress():
            self._reset("quiet", now_ms)
        elif self.offer is not None:
            self._offering(now_ms)
        elif quiet >= self.offer_ms and not self._weighed and self._turn_waits():
            self._weighed = True
            self._offer(now_ms)
        elif not self.attracting and quiet >= self.attract_ms:
            self.attracting = True
            app.emit({"event": "museum", "what": "attract"})
            app.redraw()
        if self.attracting and app.lights_changed:
            self._attract_lights()
        elif self.offer is not None and app.lights_changed:
            led = app.compose()
            leds = app.config["leds"]
            led[leds["side_black"] if self.offer == "B" else leds["side_white"]] = "offer"

    def pressed(self):
        """A short press, before the App takes it: on the turn of the side
        the computer plays, it gives that side back to a person (True: the
        press is used up). Any other press is the game's (False)."""
        app = self.app
        computer = app.computer
        if computer is None or app.turn != computer.side:
            return False
        phase = app.phase
        if phase != "throw" and phase != "move":
            return False
        side = computer.side
        self._let_go_of_the_computer()
        if phase == "move":
            app.expect(None)         # the pending throw is the person's to play
        app.emit({"event": "museum", "what": "hand_back", "side": side})
        return True

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
            self._mover = None
            app.pause("howto")            # the App's state while the how-to plays
            self._state = "howto"
            self.howto_at = now_ms
            self._skipping = False
            app.emit({"event": "museum", "what": "howto"})

    def _in_progress(self):
        game = self.app.game
        return bool(game.ply_count or game.opening or game.throw is not None)

    # -- a visitor alone ------------------------------------------------------

    def _turn_waits(self):
        """A person's side is to throw, just after the other side played,
        with the board at rest as the game stands and its lights in view."""
        app = self.app
        return (app.phase == "throw" and app.computer is None and app.at_rest
                and self._mover is not None and self._mover != app.turn
                and not self.attracting)

    def _offer(self, now_ms):
        app = self.app
        if not _search_loaded():
            app.emit({"event": "museum", "what": "no_computer", "reason": "no room"})
            return
        self.offer = app.turn
        self._offered_at = now_ms
        app.emit({"event": "museum", "what": "offer", "side": self.offer})
        app.redraw()

    def _withdraw(self):
        side = self.offer
        self.offer = None
        self.app.emit({"event": "museum", "what": "offer_withdrawn", "side": side})
        self.app.redraw()

    def _offering(self, now_ms):
        app = self.app
        if not self._turn_waits() or app.turn != self.offer:
            self._withdraw()
        elif ticks_diff(now_ms, self._offered_at) >= _TAKE_MS:
            self.offer = None
            self._touched = now_ms            # quiet is counted from the takeover
            self._take(app.turn)
            app.redraw()

    def _take(self, side):
        """The board plays ``side`` for the rest of the game, or until a
        person presses on its turn."""
        app = self.app
        try:
            from firmware.computer import Computer    # loaded at start-up with its search
            app.computer = Computer(app, side, app.config["computer"]["level"])
        except MemoryError:
            app.emit({"event": "museum", "what": "no_computer", "reason": "no room"})
            return
        app.emit({"event": "museum", "what": "computer", "side": side})

    def _let_go_of_the_computer(self):
        """The lone visitor's opponent leaves with the game. Its code and
        the search stay loaded, low in the heap where start-up put them,
        for the next lone visitor."""
        self.app.computer = None

    # -- attract ------------------------------------------------------------

    def _wake(self):
        self.attracting = False
        self.app.redraw()            # the game's own lights, composed again
        self.app.emit({"event": "museum", "what": "wake"})

    def _attract_lights(self):
        led = self.app.compose()
        for i in range(len(led)):
            led[i] = "attract" if i < _SQUARES else ""

    # -- reset --------------------------------------------------------------

    def _reset(self, reason, now_ms):
        app = self.app
        self.resets += 1
        self._touched = now_ms
        if self.attracting:
            self.attracting = False
        self.offer = None
        self._let_go_of_the_computer()
        app.emit({"event": "museum", "what": "reset", "reason": reason})
        app.new_game()
        self._state = "setup"
        if app.phase != "setup":              # the pieces stood at the start
            self._entered(app.phase, now_ms)

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
        if app.lights_changed or scene != self._scene:
            self._scene = scene
            self._howto_lights(scene)

    _scene = -1

    def _end_howto(self, skipped):
        app = self.app
        self.howto_at = None
        self._skipping = False
        self._scene = -1
        app.emit({"event": "museum", "what": "howto_done", "skipped": skipped})
        app.start_opening()          # a piece moved meanwhile: judged at once
        self._state = app.phase

    def _howto_lights(self, scene):
        """The game's real first move, as the board will show it: scene 0,
        the sticks show a 1 (one flat side) and the light of the side that
        starts (K4: white, H4: black); 1, that side's pieces, on the even
        squares 2..10 in both rulesets, may all move; 2, the piece on 10
        lifted and its one destination, 11; 3, that piece put on 12 instead:
        a wrong square and a missing piece."""
        app = self.app
        led = app.compose()
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
