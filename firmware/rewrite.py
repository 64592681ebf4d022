"""Writing game.json: at once (``write_game``), or again in the background,
a few plies a quiet pass (``Rewrite``).

firmware/store.py saves the game, and loads this for a whole save or a
rewrite in the background and lets it go after (a new game, a takeback, a
rewrite every ~17 moves: the heap has its room back between them); its
docstring tells the files and why a power cut at any moment leaves a whole
game. ``Rewrite``
writes ``game.new``: the game as the flash held it when the log passed its
length (ply K), in the format ``write_game`` writes, so that no step a
player waits on writes the whole game; ``settle`` puts it in place.
"""

import json
import os

try:
    from micropython import const
except ImportError:
    const = lambda x: x  # noqa: E731

from engine.rules import ruleset_spec

VERSION = 1              # the file format (firmware/store.py's docstring)
SLICE = const(2)         # plies a pass: about 2 ms on a Pico (tests/bench/firmware_bench.py)


# CPython's fsync; MicroPython has none (littlefs commits at the close).
# Looked up once: a missing attribute raised at each save made its message.
_fsync = getattr(os, "fsync", None)


def flushed(f):
    """Flush ``f`` to the disk before it is closed and renamed."""
    f.flush()
    if _fsync is not None:
        try:
            _fsync(f.fileno())
        except (AttributeError, OSError, ValueError):
            pass


def write_game(f, game):
    """Write the game as JSON to the open file ``f``, piece by piece.

    A long game's JSON is several kilobytes; built as one string it needs one
    contiguous block, which a fragmented Pico heap may not have.  Written in
    pieces, a save needs only a few small strings at a time.
    """
    write_head(f, game)
    sep = ""
    for side, throw, text in game.turns():     # from the log, no replay
        write_ply(f, sep, side, throw, text)
        sep = ", "
    write_tail(f, game.position.text(), game.throw)


# The pieces are written as json.dumps would write them, each with one
# string made: on MicroPython every string made at run time is first looked
# for among the interned names, a walk over all of them (some 10,000
# instructions on the unix port with the firmware loaded), so the pieces
# are formatted in one go and json.dumps is kept for text that needs
# escaping, which a ruleset's name and options never do.


def _quoted(text):
    """``text`` as a JSON string."""
    if '"' in text or "\\" in text:
        return json.dumps(text)
    return '"%s"' % text


def write_head(f, game):
    """game.json up to its history's opening bracket."""
    # the opening's throws as constant texts, not str(v): a string each
    texts = ("0", "1", "2", "3", "4", "5", "6")
    opening = [texts[v] if 0 <= v < 7 else str(v) for v in game.opening]
    f.write('{"version": %d, "ruleset": %s, "start": "%s", "opening": [%s], "history": [' % (
        VERSION, _quoted(ruleset_spec(game.ruleset)), game.start.text(),
        ", ".join(opening) if opening else ""))


def write_ply(f, sep, side, throw, text):
    """One entry of the history (``sep``: "" for the first, else ", ")."""
    if text:
        f.write('%s["%s", %d, "%s"]' % (sep, side, throw, text))
    else:
        f.write('%s["%s", %d, null]' % (sep, side, throw))


def write_tail(f, position, throw):
    """The end of game.json: the position (as text) and the pending throw."""
    if throw is None:
        f.write('], "position": "%s", "throw": null}' % (position,))
    else:
        f.write('], "position": "%s", "throw": %d}' % (position, throw))


def game_to_dict(game):
    """The saved form as a dict (for tests and tools; saving streams instead)."""
    history = []
    for side, throw, text in game.turns():
        history.append([side, throw, text])
    return {
        "version": VERSION,
        "ruleset": ruleset_spec(game.ruleset),
        "start": game.start.text(),
        "opening": list(game.opening),
        "history": history,
        "position": game.position.text(),
        "throw": game.throw,
    }


class Rewrite:
    """``game.new`` being written with ``game`` as it stood when the log
    passed its length (ply K): ``plies`` entries, then ``position`` (as text)
    and ``throw`` as they were then."""

    def __init__(self, store, game, plies, position, throw):
        self.store = store
        self.game = game
        self.plies = plies
        self.position = position
        self.throw = throw
        self.at = -2                     # next entry to write; -2: game.new not open,
        #                                  -1: open, its head not written
        self.file = None                 # game.new, open while it is written
        self.whole = False               # game.new closed whole: to be put in place
        self.settled = 0                 # settle's file operations done (a pass each)

    def step(self):
        """One bounded part, a pass each: game.new opened; its head; its next
        SLICE plies; all written, its tail and the close; then, whole, put
        in place one file operation a pass (``settle_stage``: on a Pico each
        is a commit of littlefs's directory, and three of them, or the open
        and the head, made one pass of some 7 ms in tests/bench/loop_bench.py).
        True once done: put in place, or given up (a takeback; a failing
        flash: then the next save writes the whole file)."""
        if self.game.ply_count < self.plies:
            return self._give_up()       # taken back: the whole save is due
        try:
            if self.whole:
                settle_stage(self.store, self.settled)
                self.settled += 1
                if self.settled < SETTLE_STAGES:
                    return False
                sync(self.store.fs)
                return True
            self._write()
            return False
        except OSError:
            return self._give_up()

    def _give_up(self):
        """game.new cut short; the next save writes the whole file."""
        self.close()
        self.store.forget()
        return True

    def _write(self):
        """game.new's next part (see ``step``)."""
        at = self.at
        f = self.file
        game = self.game
        if at == -2:
            self.file = self.store.open(self.store.new, "w")
            self.at = -1
            return
        if at == -1:
            write_head(f, game)
            self.at = 0
            return
        end = self.plies
        if at < end:
            if end - at > SLICE:
                end = at + SLICE
            sep = ", " if at else ""
            for side, throw, text in game.turns(at):     # from the log, no replay
                if at >= end:
                    break
                write_ply(f, sep, side, throw, text)
                sep = ", "
                at += 1
            self.at = at
            return
        write_tail(f, self.position, self.throw)
        self.file = None
        try:
            flushed(f)
        finally:
            f.close()                    # littlefs commits game.new here
        self.whole = True

    def close(self):
        """Let game.new go, cut short (the rewrite given up)."""
        f = self.file
        self.file = None
        if f is not None:
            try:
                f.close()
            except OSError:
                pass


def sync(fs):
    """Let a host's file system put the renames on disk (littlefs has)."""
    call = getattr(fs, "sync", None)
    if call is not None:
        try:
            call()
        except OSError:
            pass


SETTLE_STAGES = 3


def settle(store):
    """The end of a rewrite in the background, game.new being whole, at
    once (a power-on that finds it so: firmware/resume.py): its stages in
    turn. An OSError if one fails: game.new, or the new game.json, with
    game.log2 is the game."""
    for stage in range(SETTLE_STAGES):
        settle_stage(store, stage)


def settle_stage(store, stage):
    """One file operation of putting a whole game.new in place: 0, game.log
    gone (game.new holds its plies); 1, game.new over game.json; 2,
    game.log2 (the plies since) renamed game.log. Between two stages the
    saves still append to game.log2, and a power cut leaves what a cut
    inside ``settle`` did: a whole game.new with game.log2, or the new
    game.json with game.log2 (firmware/store.py's docstring). A game.new
    that is not there at stage 0 (another store on the same files has put
    it in place: a test's power-on) is an OSError before anything is
    removed: the plies in game.log may be the only copy."""
    if stage == 0:
        store.fs.stat(store.new)
        store.drop(store.log)
    elif stage == 1:
        store.replace(store.new, store.path)
    elif store.exists(store.log2):
        store.fs.rename(store.log2, store.log)
