"""Playing against the computer on the board (config "mode": "computer").

The computer has no hands. On its turn it throws by itself, after a short
pause at rest so the players see it coming; the stick lights show its throw.
Once the throw has been shown and the board stands still, it chooses its move
at the configured level, once per throw, as ``engine.ai.choose_move`` would,
but a node a quiet pass (``Choosing``, through the App's
``think``: the board keeps scanning while it thinks, no pass over about 5 ms
on a Pico). Then it lights its chosen
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
search (``engine.ai``) is imported at start-up (``ready``) by a board that
may search, or else on its first decision, so a two-player board with the
hint off never loads it.
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
_NODES = const(1)         # the search's nodes a pass: a node (a move list or
#                           an evaluation) is about 1.6 ms on a Pico
#                           (tests/bench/loop_bench.py: the hint's slices)

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
        self._choosing = None       # this throw's search (Choosing), once begun

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
            self._choosing = None
            app.expect(self._expected)
            return
        if self.move is None:
            if (self._choosing is None and app.at_rest
                    and ticks_diff(now_ms, self._thrown_at) >= _SHOW_MS):
                self._choosing = Choosing(app, self.level, self._decided, self._rng, self)
                app.think(self._choosing)
            return
        if app.lights_changed:
            self._show()

    def _decided(self, app, move, level):
        """Its move for the throw, chosen (``Choosing``; None: no room for
        the search): expected, said and lit."""
        game = app.game
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


def ready(app):
    """At start-up, for a board that may search (its computer, a hint, a
    museum's opponent for a lone visitor): the search's code (engine.ai)
    and its tables for the game's ruleset and the next game's at the levels
    it may use, made now, low in a fresh heap, and not in a pass of the
    loop: loaded for the first hint, the import was a pass of 20-40 ms on a
    Pico (tests/bench/loop_bench.py, ``think``), and the tables, made in a
    heap a game has cut up, would stay wherever they land. No room for
    them: a hint or a computer's move loads them with its first search, as
    before; a museum offers no opponent."""
    try:
        import engine.ai     # noqa: F401  (a level-1 computer has no tables, but searches)
        levels = [4] if app.hint_on else []
        if app.computer is not None:
            levels.append(app.computer.level)
        elif app.museum is not None:
            levels.append(app.config["computer"]["level"])
        for rs in (app.game.ruleset, app.next_ruleset):
            for level in levels:
                _tables(rs, level)
    except MemoryError:
        unload("engine.ai")


def _tables(rs, level):
    """The search's evaluation tables for ``rs`` at ``level`` (level 1 has
    none), made now if not made yet; imports the search."""
    if level > 1:
        from engine.ai import tables, LEVELS
        tables(rs, LEVELS[level][3])


def pressed(app):
    """The second of two short presses while a throw waits (the App keeps
    the first one's time; this module is loaded only for the second): the
    hint, if the config allows it (on, but off in museum mode unless it
    says so: ``App.hint_on``). True: the presses were the hint's. The
    search then goes on a slice a quiet pass (``Choosing``). This module
    and the search are loaded at start-up on a board that allows the hint
    or may play a side (``ready``), and stay. A two-player board that does
    not allow the hint lets this module go again."""
    allowed = app.hint_on
    if allowed:
        _hint_begun(app, 4)
    elif app.computer is None and app.museum is None:
        unload("firmware.computer")
    return allowed


def _hint_begun(app, level):
    """The best move for the throw at ``level`` (4, the strongest), worked
    out a slice a quiet pass and then lit as the computer's move is lit,
    until the board changes. Refused, with a notice, on the computer's own
    turn and while the board is not at rest as the game stands. True: the
    search is under way."""
    computer = app.computer
    if computer is not None and app.turn == computer.side:
        app.emit({"event": "notice", "message": "no hint: the board plays this side"})
        return False
    if not app.at_rest:
        app.emit({"event": "notice", "message": "no hint: put the pieces as the game stands"})
        return False
    app.think(Choosing(app, level, _show_hint))
    return True


def _show_hint(app, move, level):
    """The hint's move found (None: no room to think): lit, and said. A hand
    on the board while it was found has moved on: nothing is shown."""
    if not app.at_rest:
        return
    if move is None:
        app.emit({"event": "notice", "message": "no hint: no room to think"})
        return
    game = app.game
    roles = app.roles
    for i in range(_SQUARES):
        roles[i] = ""
    roles[move.origin - 1] = "computer_from"
    if move.final != OFF:
        roles[move.final - 1] = "computer_to"
    app.redraw()
    app.emit({"event": "hint", "side": game.position.turn, "move": move.text,
              "throw": game.throw, "level": level})


class Choosing:
    """The search for the pending throw's move at ``level``, a slice of
    _NODES nodes a quiet pass (the App's ``think``: the board keeps scanning
    while it goes on), then ``chosen(app, move, level)``: the move, or None
    when the heap had no room for the search. A game that moved on (a move,
    a takeback, a new game), or a computer (``owner``) that is no longer the
    App's (a museum visitor took its side back), ends it with nothing
    chosen."""

    def __init__(self, app, level, chosen, rng=None, owner=None):
        self.owner = owner
        game = app.game
        self.game = game
        self.position = game.position
        self.throw = game.throw
        self.level = level
        self.chosen = chosen
        self.rng = rng
        self.ready = 0                   # passes spent readying the search (step)
        self.moves = None
        self.thinking = None

    def step(self, app):
        """One slice; True once over. The first four ready the search, a
        pass each: its code (loaded at start-up, ``ready``, or else for the
        board's first hint or its computer's first move, then kept), the
        throw's legal moves, the level's tables for the ruleset (made at
        start-up too; for another ruleset, chosen by the ``new`` command,
        here: about 1 ms of a Pico), the search's state."""
        game = app.game
        if (game is not self.game or game.position is not self.position
                or game.throw != self.throw
                or (self.owner is not None and app.computer is not self.owner)):
            self.moves = self.thinking = None
            return True
        try:
            if self.ready < 4:
                self.ready += 1
                if self.ready == 1:
                    import engine.ai     # noqa: F401
                elif self.ready == 2:
                    self.moves = game.ruleset.legal_moves(self.position, self.throw)
                elif self.ready == 3:
                    _tables(game.ruleset, self.level)
                else:
                    from engine.ai import thinking
                    self.thinking = thinking(game.ruleset, self.position, self.throw,
                                             self.level, rng=self.rng, moves=self.moves)
                    self.moves = None
                return False
            if not self.thinking.step(_NODES):
                return False
            move = self.thinking.result[0]
        except MemoryError:      # no room for the search: the game goes on
            move = None
        self.thinking = None
        self.chosen(app, move, self.level)
        return True
