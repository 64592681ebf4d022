"""The game's moves as the page lists them: one ply a line, numbered by turn.

The list is read from an engine ``Game``, never from the events a page
happened to see: the App's own game in the simulator (which a takeback
shortens, a new game empties and a power cut restores from the saved game),
and in `senet-board show` a Game the mirror keeps up from the board's
``game`` reply (the game so far, as show connects) and its ``move``,
``pass`` and ``undo`` events (``Follower``).

Each ply is the record's own (engine/record.py, ``plies_of``): its turn
number, side, throw, move text, marks ("pass", "backward", "capture",
"water", "happiness", "off", "again") and the positions before and after, so
the list, the download and a loaded game always say the same.
"""

from engine.game import Game
from engine.position import Position, PositionError
from engine.record import plies_of
from engine.rules import parse_ruleset, ruleset_spec


def game_list(game):
    """The whole list: ruleset, start, plies and, once over, the result."""
    if game is None:
        return None
    result = None
    if game.is_over():
        result = {"winner": game.winner, "score": game.score}
    return {"ruleset": ruleset_spec(game.ruleset), "start": game.start.text(),
            "plies": [ply.as_dict() for ply in plies_of(game)], "result": result}


class MoveList:
    """``game_list`` worked out again only when the game changed: the page's
    stream asks for it up to sixty times a second."""

    def __init__(self):
        self._key = None
        self._list = None

    def of(self, game):
        if game is None:
            return None
        key = (id(game), game.start.text(), tuple(game.turns()), game.ended)
        if key != self._key:
            self._list = game_list(game)
            self._key = key
        return self._list


class Follower:
    """A Game kept up from a real board's events, for `senet-board show`.

    The board reports each move and pass and each takeback; this plays them
    through the engine, from the whole game the board gives when asked
    (its ``game`` event, docs/protocol.md). A board that says something the rules cannot follow
    (a mirror started mid-game, a lost line) restarts the list from the
    position the board reports, so the list is always a legal game.
    """

    def __init__(self):
        self.game = None
        self._throw = None
        self._spec = None        # the board's ruleset, as its hello, state and ready name it

    def event(self, event):
        name = event.get("event")
        if isinstance(event.get("ruleset"), str):
            self._spec = event["ruleset"]
        if name == "game":
            self._load(event)
        elif name == "new" or (name in ("ready", "state") and self.game is None):
            self._restart(self._spec, event.get("position"))
            if name == "state" and self.game is not None:
                self._throw = event.get("throw")      # a mirror plugged in mid-game
        elif name == "throw" and event.get("opening"):
            if self.game is not None:
                self.game.opening.append(event.get("value"))
        elif name == "throw":
            self._throw = event.get("value")
        elif name == "start":
            self._throw = 1                  # K4, H4: the side that threw the 1 moves with it
        elif name == "move":
            self._play(event, event.get("move"))
        elif name == "pass":
            self._throw = event.get("throw", self._throw)
            self._play(event, None)
        elif name == "undo" and self.game is not None:
            self._undo(event)

    def _load(self, event):
        """The board's whole game, its answer to ``{"cmd": "game"}`` as show
        connects: the list begins with the moves played before it came."""
        try:
            game = Game.from_record(event.get("record"))
        except (PositionError, TypeError, ValueError, AttributeError):
            return                           # the state's position will do
        self.game = game
        self._spec = ruleset_spec(game.ruleset)
        self._throw = event.get("throw")

    def _restart(self, spec, position):
        spec = spec if isinstance(spec, str) else self._spec
        try:
            rs = parse_ruleset(spec) if isinstance(spec, str) else parse_ruleset("kendall")
            self.game = Game(rs, position=Position.parse(position) if position else None)
        except (PositionError, TypeError, ValueError):
            self.game = None
        self._throw = None

    def _play(self, event, text):
        game = self.game
        try:
            game.set_throw(self._throw)
            if text is None:
                game.pass_turn()
            else:
                game.play(text)
        except (PositionError, TypeError, ValueError, AttributeError):
            after = event.get("after") or event.get("position")
            spec = ruleset_spec(game.ruleset) if game is not None else None
            self._restart(spec, after if isinstance(after, str) else None)
        self._throw = None

    def _undo(self, event):
        """The board took back its last move, and any lost turns after it."""
        game = self.game
        try:
            entry = game.undo()
            while entry[2] is None:
                entry = game.undo()
        except PositionError:
            self._restart(ruleset_spec(game.ruleset), event.get("position"))
        self._throw = event.get("throw")     # the same throw is played again
