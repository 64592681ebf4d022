"""Usage figures for the people who run a museum: what visitors did.

The board counts, from the events the App reports (the serial protocol's
objects, firmware/board.py hands each one to ``see``):

- games started, finished and abandoned, by ruleset (a game is abandoned
  when a new one begins before it ended: the museum's reset after a quiet
  spell, or a long press);
- moves, mistakes (a ``mismatch``), takebacks;
- the lone visitor's offers, the board's takeovers and the hand-backs;
- the seconds spent in play, in finished games, and in the travelling light.

Boots and crashes are health.json's (firmware/health.py). The figures only
ever add up: a laptop (``senet-board show`` or ``monitor``) writes the day's
row of a CSV from the ``health`` event, which carries them as ``usage``.

They are kept in ``usage.json`` beside health.json and written only when a
game ends, finished or abandoned: one small write a game, against the save
the game itself makes after every move. The file is written to a temporary
name and renamed over the old one (littlefs makes the rename all-or-nothing),
so a power cut loses at most the counts since the last game ended and never
leaves a damaged file. Its size is bounded (``max_bytes``): the rulesets
counted are at most ``MAX_RULESETS``, others are counted as ``"other"``.

    usage = Usage(folder)                 # the figures so far, from the flash
    if usage.see(event, now_ms, app.ruleset):
        usage.save()                      # a game ended: a quiet moment
    usage.report()                        # {"games": {...}, "moves": n, ...}
"""

import json
import os

from firmware import ticks_diff

FILE = "usage.json"
# The plain counters, in the order the CSV shows them.
COUNTERS = ("moves", "mistakes", "takebacks", "offers", "takeovers", "hand_backs",
            "play_s", "finished_s", "attract_s")
GAMES = ("started", "finished", "abandoned")
# The lone visitor's opponent (firmware/museum.py) by its museum events.
_MUSEUM = {"offer": "offers", "computer": "takeovers", "hand_back": "hand_backs"}
_PLAIN = {"move": "moves", "mismatch": "mistakes", "undo": "takebacks"}


def _join(folder, name):
    if not folder:
        return name
    return folder + name if folder.endswith("/") else folder + "/" + name


def _count(value):
    if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
        return value
    return 0


class Usage:
    """The figures in ``folder`` (None: kept in memory only). ``fs``: the
    file system (``open``, ``rename``, ``remove``), as firmware/store.py
    takes it; the Pico's own by default."""

    MAX_RULESETS = 6

    def __init__(self, folder=None, fs=None):
        self.folder = folder
        self._open = open if fs is None else fs.open
        self._fs = os if fs is None else fs
        self.counts = {}
        for name in COUNTERS:
            self.counts[name] = 0
        self.games = {}
        self._started = None         # when the game in play began (ms), or None
        self._attract = None         # when the travelling light began, or None
        if folder is not None:
            self._load()

    @staticmethod
    def max_bytes(max_rulesets=MAX_RULESETS):
        """The most ``usage.json`` can hold: every count at ten digits."""
        per_game = 2 * 16 + len(GAMES) * (12 + 10 + 4)
        return 16 + len(COUNTERS) * (14 + 10 + 4) + (max_rulesets + 1) * per_game

    # -- counting ------------------------------------------------------------------

    def see(self, event, now_ms, ruleset):
        """Count one event of the App at ``now_ms``, ``ruleset`` being the
        game's. True when a game has just ended: the moment to ``save``."""
        name = event.get("event")
        plain = _PLAIN.get(name)
        if plain is not None:
            self.counts[plain] += 1
        if name in ("throw", "move", "new", "start"):
            self._attract_ends(now_ms)
        if name == "start":
            self._started = now_ms
            self._game(ruleset)["started"] += 1
        elif name == "ready" and event.get("resumed") and self._started is None:
            self._started = now_ms   # a game resumed after power-on: in play again
        elif name == "game_over":
            return self._ended(now_ms, ruleset, "finished")
        elif name == "new" and self._started is not None:
            return self._ended(now_ms, ruleset, "abandoned")
        elif name == "museum":
            self._museum(event.get("what"), now_ms)
        return False

    def _museum(self, what, now_ms):
        counter = _MUSEUM.get(what)
        if counter is not None:
            self.counts[counter] += 1
        if what == "attract":
            if self._attract is None:
                self._attract = now_ms
        elif what in ("wake", "reset"):
            self._attract_ends(now_ms)

    def _ended(self, now_ms, ruleset, how):
        seconds = self._seconds(self._started, now_ms)
        self.counts["play_s"] += seconds
        if how == "finished":
            self.counts["finished_s"] += seconds
        self._started = None
        self._game(ruleset)[how] += 1
        return True

    def _attract_ends(self, now_ms):
        if self._attract is not None:
            self.counts["attract_s"] += self._seconds(self._attract, now_ms)
            self._attract = None

    @staticmethod
    def _seconds(since, now_ms):
        if since is None:
            return 0
        ms = ticks_diff(now_ms, since)
        return ms // 1000 if ms > 0 else 0

    def _game(self, ruleset):
        """The counts of ``ruleset``'s games; a ruleset beyond MAX_RULESETS
        shares "other", so the file keeps its bound."""
        name = ruleset if isinstance(ruleset, str) and ruleset else "other"
        games = self.games
        if name not in games and len(games) >= self.MAX_RULESETS:
            name = "other"
        if name not in games:
            games[name] = {"started": 0, "finished": 0, "abandoned": 0}
        return games[name]

    # -- the file ------------------------------------------------------------------

    def report(self):
        """The figures, as the ``health`` event carries them."""
        out = {"games": {}}
        for name in self.games:
            out["games"][name] = dict(self.games[name])
        for name in COUNTERS:
            out[name] = self.counts[name]
        return out

    def save(self):
        """Write the figures: to a temporary file, renamed over the old one.
        A full or failing flash loses the figures, never the game."""
        if self.folder is None:
            return False
        path = _join(self.folder, FILE)
        tmp = path + ".tmp"
        try:
            f = self._open(tmp, "w")
            try:
                f.write(json.dumps(self.report()))
            finally:
                f.close()
            try:
                self._fs.rename(tmp, path)
            except OSError:           # FAT cannot rename over a file
                self._fs.remove(path)
                self._fs.rename(tmp, path)
        except OSError:
            return False
        return True

    def _load(self):
        """The figures on the flash: ``usage.json``, or the temporary file a
        cut left between FAT's remove and rename; damaged counts as none."""
        path = _join(self.folder, FILE)
        for name in (path, path + ".tmp"):
            data = self._read(name)
            if isinstance(data, dict):
                self._take(data)
                return

    def _read(self, path):
        try:
            f = self._open(path, "r")
        except OSError:
            return None
        try:
            return json.loads(f.read())
        except (ValueError, OSError):
            return None
        finally:
            f.close()

    def _take(self, data):
        for name in COUNTERS:
            self.counts[name] = _count(data.get(name))
        games = data.get("games")
        if not isinstance(games, dict):
            return
        for ruleset in games:
            counts = games[ruleset]
            if isinstance(counts, dict):
                game = self._game(ruleset)
                for how in GAMES:
                    game[how] += _count(counts.get(how))
