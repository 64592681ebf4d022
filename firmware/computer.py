"""Playing against the computer on the board (config "mode": "computer").

The computer has no hands. On its turn it throws by itself, after a short
pause at rest so the players see it coming; the stick lights show its throw.
Once the throw has been shown and the board stands still, it chooses its move
with ``engine.ai.choose_move`` at the configured level, once per throw, in one
step (up to about 1.5 s on the Pico at level 4). Then it lights its chosen
piece (``computer_from``) and where it goes (``computer_to``), and waits for a
person to carry the move out. The recogniser then knows that one move only:
the settled board must show it, side effects and all (the capture swap C6,
the water K12/H10, the House of Happiness K11, guided by the usual ``put`` and
``take``); anything else is a mismatch, shown as usual, and nothing is played.

Between the throw and the choice the recogniser knows no move at all, so no
move can be played for the computer before it has chosen.

A throw without a legal move is shown and passed by the App as for a person
(K15, H14). The colours are set by the config (``computer.side``): in the
opening (K4, H4) the computer throws at its own side light (black: player 1,
white: player 2), and the side that starts moves with the first 1 thrown.

The App calls ``tick(now_ms)`` every step (its ``_mode_tick`` hook) and asks
``throws_now()`` before it takes a press of the throw button; the computer
steers the App through its public members only (``play_throw``, ``expect``,
``at_rest``, ...). The engine's
search (``engine.ai``) is imported on the first decision, so a board in the
two-player mode never loads it.
"""

try:
    from micropython import const
except ImportError:
    const = lambda x: x  # noqa: E731

from firmware import ticks_diff, unload

from engine.position import BLACK, WHITE, OFF
from engine.sticks import XorShift

_SQUARES = const(30)
_PAUSE_MS = const(1000)   # the computer rests this long before it throws
_SHOW_MS = const(700)     # its throw is shown this long before it chooses

MODES = ("two_players", "computer")   # what the "new" command may switch to
SIDES = (BLACK, WHITE)
LEVELS = (1, 2, 3, 4)


class Computer:
    """The computer's side of the game, steered through the App's hook."""

    def __init__(self, app, side=BLACK, level=2, seed=1):
        self.app = app
        self.side = side
        self.level = level
        self.move = None            # the chosen move, shown and expected
        self._rng = XorShift(seed)  # level 1's random choices, repeatable
        self._expected = None       # the move list handed to the recogniser
        self._since = None          # since when the board has been ready for its throw
        self._thrown_at = 0         # when the pending throw was taken over
        self._choose = None         # engine.ai.choose_move, once imported

    @property
    def player(self):
        """The computer's seat in the opening: 1 throws at black's light."""
        return 1 if self.side == BLACK else 2

    # -- the hook -------------------------------------------------------------

    def throws_now(self):
        """Is the next throw the computer's own (a press is not taken then)?"""
        app = self.app
        state = app.phase
        if state == "opening":
            return app.player == self.player
        return state == "throw" and app.turn == self.side

    def tick(self, now_ms):
        """Called by the App every step, after the board and the button."""
        app = self.app
        state = app.phase
        if state == "opening" or state == "throw":
            self.move = None
            if not self.throws_now() or not self._at_rest():
                self._since = None
                return
            if self._since is None:
                self._since = now_ms
                return
            if ticks_diff(now_ms, self._since) < _PAUSE_MS:
                return
            self._since = None
            app.play_throw(by="computer")
            state = app.phase
        if state == "move" and app.turn == self.side:
            self._move_tick(now_ms)
        else:
            self.move = None
            self._expected = None
            if state != "opening" and state != "throw":
                self._since = None

    # -- throwing -------------------------------------------------------------

    def _at_rest(self):
        """Settled, matching the game, nothing wrong reported."""
        return self.app.at_rest

    # -- choosing and showing the move -------------------------------------

    def _move_tick(self, now_ms):
        app = self.app
        if app.moves is not self._expected:
            # The App began a throw of the computer's (its own throw, a
            # resumed game, a takeback): no move counts until it has chosen.
            self.move = None
            self._expected = []
            self._since = None
            self._thrown_at = now_ms
            app.expect(self._expected)
            return
        if self.move is None:
            if app.at_rest and ticks_diff(now_ms, self._thrown_at) >= _SHOW_MS:
                self._decide()
            return
        if app.lights_changed:
            self._show()

    def _decide(self):
        app = self.app
        game = app.game
        rs = game.ruleset
        if self._choose is None:
            from engine.ai import choose_move
            self._choose = choose_move
        try:
            move = self._choose(rs, game.position, game.throw, self.level, self._rng)
        except MemoryError:
            move = None
        if move is None:    # no memory for the search: the first legal move
            moves = game.legal_moves()
            if not moves:
                return
            move = moves[0]
        self.move = move
        self._expected = [move]
        app.expect(self._expected)
        app.emit({"event": "computer", "side": self.side, "move": move.text,
                  "throw": game.throw, "level": self.level})
        self._show()

    def _show(self):
        """The recogniser's hints, in the computer's roles: its piece is
        ``computer_from`` (also while in the hand), where it goes
        ``computer_to``; ``put``/``take`` for side effects stay as they are."""
        roles = self.app.roles
        only_origin = False
        for i in range(_SQUARES):
            role = roles[i]
            if role == "movable" or role == "lifted" or role == "computer_from":
                roles[i] = "computer_from"
                only_origin = True
        for i in range(_SQUARES):
            role = roles[i]
            if role == "target":
                roles[i] = "computer_to"
                only_origin = False
            elif role and role != "computer_from":
                only_origin = False
        final = self.move.final
        if only_origin and final != OFF and not roles[final - 1]:
            roles[final - 1] = "computer_to"


def set_mode(app, cmd):
    """The ``new`` command's ``mode``, ``side`` and ``level``: checked first,
    then applied to ``app``; returns None, or why nothing was changed."""
    mode = cmd.get("mode", app.mode)
    section = app.config["computer"]
    side = cmd.get("side", section["side"])
    level = cmd.get("level", section["level"])
    if mode not in MODES:
        return "mode must be one of: %s" % ", ".join(MODES)
    if side not in SIDES:
        return "side must be \"B\" or \"W\""
    if not isinstance(level, int) or isinstance(level, bool) or level not in LEVELS:
        return "level must be a whole number from 1 to 4"
    app.mode = mode
    app.config["mode"] = mode
    app.config["computer"] = {"side": side, "level": level}
    app.computer = Computer(app, side, level) if mode == "computer" else None
    return None


def pressed(app):
    """The second of two short presses while a throw waits (the App keeps
    the first one's time; this module is loaded only for the second): the
    hint, if the config allows it (on, but off in museum mode unless it
    says so). True: the presses were the hint's. A board with no computer
    playing lets this module and the search go again afterwards."""
    allowed = app.config.get("hint")     # absent: null
    if allowed is None:
        allowed = app.mode != "museum"
    if allowed:
        _show_hint(app, 4)
    if app.computer is None:
        unload("engine.ai")
        unload("firmware.computer")
    return allowed


def _show_hint(app, level):
    """The best move for the throw at ``level`` (4, the strongest, decides
    in under a second on the Pico, docs/computer.md), lit as the computer's
    move is lit, until the board changes. Refused, with a notice, on the
    computer's own turn and while the board is not at rest as the game
    stands."""
    computer = app.computer
    if computer is not None and app.turn == computer.side:
        app.emit({"event": "notice", "message": "no hint: the board plays this side"})
        return None
    if not app.at_rest:
        app.emit({"event": "notice", "message": "no hint: put the pieces as the game stands"})
        return None
    game = app.game
    from engine.ai import choose_move
    try:
        move = choose_move(game.ruleset, game.position, game.throw, level)
    except MemoryError:      # no room for the search: no hint, the game goes on
        move = None
    if move is None:
        app.emit({"event": "notice", "message": "no hint: no room to think"})
        return None
    roles = app.roles
    for i in range(_SQUARES):
        roles[i] = ""
    roles[move.origin - 1] = "computer_from"
    if move.final != OFF:
        roles[move.final - 1] = "computer_to"
    app.redraw()
    app.emit({"event": "hint", "side": game.position.turn, "move": move.text,
              "throw": game.throw, "level": level})
    return move
