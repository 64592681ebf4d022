"""A pretend board for App scenario tests: hands, a button and a clock.

    board = BoardSim(rng=throws(1, 3))      # scripted stick throws by value
    board.setup()                           # pieces on the start squares, at rest
    board.press()                           # a short press of the throw button
    board.move(10, 11)                      # lift 10, put it on 11, let it rest
    board.events_of("move")

Only the App contract is used: ``App(config, store_dir, rng)``,
``step(now_ms, occupancy, button)``, ``roles``, ``frame``, ``command``.
Time advances in scan ticks of ``tick_ms`` (10 ms, as on the Pico).
"""

from firmware.app import App
from firmware.recognise import bit, squares_of
from hand import carry


def bits_for(value):
    """Stick bits that make ``value`` (C3): 1..4 white sides, or none for 5/6."""
    whites = 0 if value in (5, 6) else value
    return (1 << whites) - 1


def throws(*values):
    """A scripted rng: each rng(4) call gives the next throw's stick bits."""
    queue = [bits_for(v) for v in values]

    def rng(n):
        if not queue:
            raise AssertionError("the test ran out of scripted throws")
        return queue.pop(0)
    rng.queue = queue
    return rng


def board_at(position, store_dir, ruleset="kendall", options=None, rng=None,
             config=None, setup=True):
    """A board resuming a game that stands at ``position`` (opening done).

    The game is handed over the way a power cut would: as the saved game in
    ``store_dir``, which the App resumes, checking the pieces first.
    """
    _save_at(position, store_dir, ruleset, options)
    cfg = {"ruleset": ruleset}
    if options:
        cfg["options"] = options
    cfg.update(config or {})
    board = BoardSim(config=cfg, store_dir=str(store_dir), rng=rng)
    if setup:
        board.setup()
    return board


def _save_at(position, store_dir, ruleset, options):
    """Save a game standing at ``position`` in ``store_dir``, in a frame of
    its own: the game is gone before the App that resumes it is made (a
    small heap has no room for both)."""
    from engine import Position
    from engine.game import Game
    from engine.rules import ruleset as make_ruleset
    from firmware.store import Store
    game = Game(make_ruleset(ruleset, **(options or {})), position=Position.parse(position))
    game.opening = [1]
    Store(str(store_dir)).save(game)


BUSY_PASS_MS = 1                  # a scan and a short step on the Pico, about


class BoardSim:
    def __init__(self, config=None, store_dir=None, rng=None, app=None, t=0):
        self.app = app if app is not None else App(config=config, store_dir=store_dir, rng=rng)
        self.t = t
        self.occ = 0
        self.button = False
        self.tick_ms = 10
        self.events = []          # everything the App said, in order
        self.settle_ms = self.app.config["settle_ms"]

    # -- time ---------------------------------------------------------------

    def step(self):
        # The board loop scans every tick, but runs the App's next job (the
        # lights of a change, a move to play, a save) at once: 1 ms later.
        self.t += BUSY_PASS_MS if getattr(self.app, "busy", False) else self.tick_ms
        out = self.app.step(self.t, self.occ, self.button)
        self.events.extend(out)
        return out

    def wait(self, ms=None):
        """Let time pass with the board as it is (default: long enough to settle)."""
        if ms is None:
            ms = self.settle_ms + 100
        end = self.t + ms
        while self.t < end:
            self.step()
        return self

    # -- hands ----------------------------------------------------------------

    def lift(self, *squares, ms=60):
        for s in squares:
            self.occ &= ~bit(s)
            self.wait(ms)
        return self

    def place(self, *squares, ms=60):
        for s in squares:
            self.occ |= bit(s)
            self.wait(ms)
        return self

    def move(self, origin, to, settle=True):
        """Lift a piece and put it down elsewhere ("off": keep it in the hand)."""
        self.lift(origin)
        if to != "off":
            self.place(to)
        if settle:
            self.wait()
        return self

    def swap(self, origin, to):
        """A capture (C6): the mover onto ``to``, the captured piece onto ``origin``."""
        self.lift(origin).lift(to).place(to).place(origin).wait()
        return self

    def play(self, move, via=True):
        """Make an engine move by hand (``carry``), with ``via`` a piece
        whose count ends on the water or the House of Happiness put there
        first; then let the board rest."""
        carry(self, move, lambda: via)
        return self.wait()

    def play_to_the_end(self, choose, max_actions=3000, after_action=None):
        """Play the whole game by hand: press to throw, make a move ``choose``
        (anything with ``randrange``) picks, alternately straight to the final
        square and via 27 / 26; call ``after_action(self)`` after each action.
        Returns the number of moves made; raises if the game does not end."""
        played = 0
        for action in range(max_actions):
            state = self.app.state
            if state == "game_over":
                return played
            if state == "opening" or state == "throw":
                self.press()
            elif state == "move":
                moves = self.app.moves
                self.play(moves[choose.randrange(len(moves))], via=action % 2 == 0)
                played += 1
            else:
                self.wait(500)
            if after_action is not None:
                after_action(self)
        raise AssertionError("the game did not end: %s" % self.app.state)

    def set_board(self, occupancy, settle=True):
        self.occ = occupancy
        if settle:
            self.wait()
        return self

    def setup(self, position=None):
        """Put pieces where the App's position has them and let the board rest."""
        from engine import Position
        text = position if position is not None else self.app.position
        return self.set_board(Position.parse(text).occupancy())

    # -- the button -------------------------------------------------------------

    def press(self, ms=120):
        self.button = True
        self.wait(ms)
        self.button = False
        self.wait(60)
        return self

    def hold(self, ms=None):
        if ms is None:
            ms = self.app.config["long_press_ms"] + 200
        return self.press(ms)

    # -- what happened ------------------------------------------------------------

    def events_of(self, kind):
        return [e for e in self.events if e["event"] == kind]

    def last(self, kind):
        found = self.events_of(kind)
        return found[-1] if found else None

    def clear(self):
        self.events = []
        return self

    def squares_with(self, role):
        return [i + 1 for i, r in enumerate(self.app.roles) if r == role]

    def occupied(self):
        return squares_of(self.occ)


class SearchSlices:
    """The search's nodes in each App step that worked on it
    (engine.ai.Thinking.step and App.step wrapped): the search must go a
    slice a pass, never in one piece."""

    def __init__(self, monkeypatch):
        import engine.ai
        from firmware.app import App
        self.per_step = []
        self.nodes = 0
        thinking_step = engine.ai.Thinking.step
        app_step = App.step
        watch = self

        def counted(thinking, nodes):
            before = thinking.search.nodes
            try:
                return thinking_step(thinking, nodes)
            finally:
                watch.nodes += thinking.search.nodes - before

        def step(app, *args):
            watch.nodes = 0
            try:
                return app_step(app, *args)
            finally:
                if watch.nodes:
                    watch.per_step.append(watch.nodes)

        monkeypatch.setattr(engine.ai.Thinking, "step", counted)
        monkeypatch.setattr(App, "step", step)
