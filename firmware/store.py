"""Saving the game so a power cut loses nothing, at a small cost a move.

Two files hold the game (and two more while game.json is written again in
the background, below):

- ``game.json``, the whole game as one small JSON object (the format below),
  written as ``game.tmp`` and renamed over ``game.json``. A rename is atomic
  on the Pico's littlefs and on POSIX, so ``game.json`` holds either the game
  before or the game after, never half of one.
- ``game.log``, the plies since: one short line a move, a pass or a throw,
  appended. littlefs commits an append when the file is closed, and a log
  under half a kilobyte lives inside the directory's own block, so an append
  programs a page or two of flash and erases nothing.

The whole file is written at once only for a new game; every other save
is an append (the opening's throws too, once a 1 ends them, and a takeback:
``U 2 3``, two plies taken back and a 3 to play again), the same few bytes
at ply 10 and at ply 200. When the log passes ``_LOG_MAX``
bytes (about 17 moves) game.json is written again in the background, so that
no step a player waits on writes the whole game (some 80 ms on a Pico late
in a game):

- the save that passed it notes the game as the flash now holds it, ply K;
- the App's quiet passes (``work``) open ``game.new``, write that game, its
  head and then a few plies a pass, and close it whole (firmware/rewrite.py);
- meanwhile every save appends to ``game.log2``, at once as before, so a
  move is on the flash one step after it is made;
- three last passes, one file operation each, remove ``game.log``, rename
  ``game.new`` over ``game.json`` and ``game.log2`` to ``game.log``.

Loading takes the newest whole game from what a power cut can leave: a
whole ``game.tmp`` (a rewrite at once; the logs and game.new belong to the
game before it); else a whole ``game.new`` with ``game.log2`` on top; else
``game.json`` with ``game.log`` and then ``game.log2`` on top (a
``game.new`` not whole is a rewrite cut short: dropped). ``game.log`` is
removed only once ``game.new`` is whole, so ``game.json`` without it and
with ``game.log2`` is the new one. A store that is given no quiet passes
(tools, tests of the store alone) rewrites at once, as does one whose
``game.log2`` passes ``_LOG_MAX`` before the rewrite is done, and a failing
flash gives the background rewrite up: the next save writes the whole file.

A rewrite at once goes: ``game.tmp`` written and closed, ``game.new``,
``game.log2`` and ``game.log`` removed, ``game.tmp`` renamed over
``game.json``. Given quiet passes, the save's step ends once ``game.tmp``
is closed, and the removes and the rename are a quiet pass each (``work``);
a save before they are done does the rest of them first. So a ``game.tmp`` that reads back
whole is always the newest save (it is used, and the rewrite finished); one
that does not is a save the power cut short, and is dropped without a word:
the game before it is still in ``game.json`` and ``game.log``, and on a fresh
board there was none. Only a damaged ``game.json`` is reported ("saved game
unreadable") and kept as ``game.bad``. A log line cut short (possible on a
host filesystem, not on littlefs) is the save being written and is left out;
the next save then writes the whole file again. Where a rename cannot replace
a file (FAT), the old file is removed first; ``game.tmp`` is whole by then.

At every moment the flash holds a whole copy of the last save made:
``game.json`` with its logs, a whole ``game.new`` with ``game.log2``, or a
whole ``game.tmp``. A full or failing flash
can stop a rewrite after ``game.tmp`` is closed (the log not removed, the
rename refused, FAT's retry too): ``game.tmp`` is then the game, perhaps the
only copy, so it is never opened to be written again (``"w"`` would empty
it) before it is in place; the next save, or the next power-on, finishes
that rewrite first. And a log that cannot be removed stops the rewrite: left
beside the new ``game.json`` it would be replayed on the wrong game.
tests/firmware_tests/test_store_faults.py makes every pair of file operations of a game's
saves fail, and cuts the power before every operation after them, with
rewrites at once and in the background; tests/firmware_tests/
test_store_compaction.py sets out every state a background rewrite can
leave and cuts littlefs before every flash operation of a game's.

Loading (firmware/resume.py) replays the saved history through the rules
engine as it reads it, so a file that was edited, truncated or written by
another version can only ever give a legal game or a clear reason why not.
Only ``os`` and ``json`` are used, as both exist on MicroPython (``json`` by
the writing, firmware/rewrite.py, loaded at start-up and kept: loading it
for each rewrite took a quiet pass of some 15 ms Pico-equivalent every 17
plies, and a whole save 15 ms more; and the reading, firmware/resume.py,
loaded at start-up and let go). A ``Store``
can be given another file system (``fs``: an object with ``open``,
``rename``, ``remove``, ``stat``), as the tests give it a littlefs image.

On CircuitPython the drive is FAT, which has no wear levelling: there the
game goes to ``game.sav`` instead (``mode`` "ring", the default on
CircuitPython), a file written in place, one erase a save spread over 91
blocks; firmware/savering.py writes it, loaded only in that mode, and tells
what a power cut costs there.

File format (version 1)::

    {"version": 1, "ruleset": "hungarian:no_move=end",
     "start": "WBWBWBWBWB.................... B",
     "opening": [3, 2, 1],
     "history": [["B", 1, "10-11"], ["B", 2, null], ...],
     "position": "<position text now>", "throw": 4}

``history`` holds (side, throw, move text or null for a lost turn);
``throw`` is the throw still to be played, or null.

Log format, one record a line::

    W 3 10-13      W played 10-13 with a 3
    B 2 -          B lost the turn with a 2
    W 4            W threw a 4, still to be played
    O 3 2 1        the opening's throws (K4, H4): only first, in a game with
                   none; the side that threw the 1 plays it, so the line
                   after it is ``B 1`` (or its move with the 1)
"""

import os
import sys

try:
    from micropython import const
except ImportError:
    const = lambda x: x  # noqa: E731

from engine.rules import ruleset_spec
from firmware import unload

_LOG_MAX = const(240)   # bytes; past this game.json is written again. The
#   log stays inline in littlefs (under 512 bytes with the rp2 port's 1 KB
#   cache), where each append commits the whole log again: a short log costs
#   less an append, a long one fewer rewrites. tests/bench/flash_bench.py
#   measured 744-865 bytes programmed a move over whole games for 200-448,
#   922 for 100 and 1455 for 900 (outside the inline limit: an erase an append).


def join(folder, name):
    """``folder/name`` without os.path, which MicroPython lacks."""
    if not folder:
        return name
    if folder.endswith("/"):
        return folder + name
    return folder + "/" + name


_CIRCUITPYTHON = sys.implementation.name == "circuitpython"


def _game_of(job):
    """The game a rewrite in the background writes (begun or not yet)."""
    return job[0] if type(job) is tuple else job.game


class Store:
    """The saved game in ``folder``; ``fs`` is the file system (default: the
    board's own, through ``open`` and ``os``); ``mode`` "files" (game.json
    and game.log) or "ring" (game.sav), by default "ring" on CircuitPython."""

    def __init__(self, folder, fs=None, mode=None):
        self.folder = folder
        self.path = join(folder, "game.json")
        self.temp = join(folder, "game.tmp")
        self.log = join(folder, "game.log")
        self.ring = join(folder, "game.sav")
        if mode is None:
            mode = "ring" if _CIRCUITPYTHON else "files"
        self.mode = mode
        self.fs = os if fs is None else fs
        self.open = open if fs is None else fs.open
        # What game.json and its logs hold together (_size -1: nothing known,
        # the next save writes the whole file).
        self._size = -1                  # bytes in game.log (game.log2 in a rewrite)
        self._plies = 0                  # moves and passes saved
        self._opening = 0                # opening throws saved
        self._throw = None               # pending throw saved
        self._rs = None                  # the ruleset saved
        # A whole game.tmp not yet in place (a rewrite the flash failed at
        # its end): it may be the only copy of the game, so it is never
        # written over; the next save puts it in place first.
        self._unfinished = False
        # A rewrite in the background (``work``; firmware/rewrite.py): the
        # saves made while it goes on go to game.log2.
        self._background = False         # work() is called: rewrites go there
        self._job = None                 # the rewrite under way (a Rewrite); begun
        #   in a save, not yet loaded (game, plies, position, throw); or None
        self._ring = None                # game.sav's writer, loaded only in its mode
        if mode == "ring":
            from firmware.savering import Ring
            self._ring = Ring(self)

    # game.new and game.log2, needed only now and then, are no attributes: the
    # 17th instance attribute fills the table the first 15 took (MicroPython
    # grows it by reallocation, and a small heap may have no bigger block).

    @property
    def new(self):
        """game.new's path: game.json written again in the background."""
        return join(self.folder, "game.new")

    @property
    def log2(self):
        """game.log2's path: the saves made while game.new is written."""
        return join(self.folder, "game.log2")

    def exists(self, path):
        """Is there a file at ``path`` (on this store's file system)?"""
        try:
            self.fs.stat(path)
            return True
        except OSError:
            return False

    def remove(self, path):
        """Remove ``path`` if it is there."""
        try:
            self.fs.remove(path)
        except OSError:
            pass

    def save(self, game, whole=False):
        """Save the game: its new plies appended to game.log (game.log2 while
        game.json is written again in the background), or (``whole``: a new
        game or a takeback; the log long enough in a store given no quiet
        passes) the whole file. The save that takes the log past _LOG_MAX
        begins the rewrite in the background, which ``work`` does.
        A save that fails (a full or failing flash: the OSError goes to the
        caller) may leave half a line in the log, or a newer game.tmp beside
        it: the next save then writes the whole file again (a whole game.tmp
        put in place first)."""
        ring = self._ring
        if ring is not None and (whole or not ring.in_files):
            if ring.save(game, whole):
                return
            self._ring = None            # no room for game.sav: the two files
            self.mode = "files"
            whole = True
        n = game.ply_count
        k = self._plies
        size = self._size
        job = self._job
        if self._unfinished and size >= 0:
            # a whole save's game.tmp, put in place a file a quiet pass
            # (``work``): what is left of it now, before anything is appended
            self._size = -1              # a failure: the next save is whole
            self.finish()
            self._size = size
        if (whole or size < 0 or self._unfinished
                or (size > _LOG_MAX and (job is not None or not self._background))
                or (job is not None and (game is not _game_of(job) or n < k))
                or game.ruleset is not self._rs
                or (len(game.opening) != self._opening and (self._opening or k))
                or (n == k and self._throw is not None and game.throw != self._throw)):
            self._size = -1              # nothing known until it is done (mark)
            self.rewrite(game)
        elif n != k or game.throw != self._throw:
            self._size = -1
            self._append(game, k, size)
            if self._background and job is None and self._size > _LOG_MAX:
                # the game as the flash holds it now; firmware/rewrite.py is
                # loaded for it in the next quiet pass, not in this step
                self._job = (game, game.ply_count, game.position.text(), game.throw)
                self._size = 0           # bytes in game.log2, not there yet

    def holds(self, game):
        """Does the flash hold ``game`` but perhaps its pending throw (the
        same ruleset, opening and plies, as ``mark`` noted them)?"""
        return (self._size >= 0 and self._rs is not None
                and ruleset_spec(game.ruleset) == ruleset_spec(self._rs)
                and len(game.opening) == self._opening and game.ply_count == self._plies)

    def forget(self):
        """Nothing is known of what the flash holds until the save under way
        is done (``mark``): a save that fails makes the next one whole."""
        self._size = -1

    # -- game.sav (mode "ring": firmware/savering.py) ---------------------------

    def ring_writer(self):
        """game.sav's reader and writer (firmware/savering.py) in mode
        "ring", else None."""
        return self._ring

    def close(self):
        """Let game.sav go, and game.new if it is being written (a board
        never does: closing game.sav stamps the directory; tests and tools
        do)."""
        if self._ring is not None:
            self._ring.close()
        self.give_up()

    # -- game.json and game.log (mode "files") ----------------------------------

    def _append(self, game, k, size):
        """The plies after the first ``k``, and the pending throw, as log lines
        after the ``size`` bytes already in the log; or, if the game has
        fewer than ``k`` (a takeback), one ``U`` line: how many plies were
        taken back and the throw to play again."""
        f = self.open(self.log if self._job is None else self.log2, "a")
        try:
            undone = k - game.ply_count
            if undone > 0:
                # a takeback (no plies or opening follow it): one line, so
                # that a power cut leaves all of it or none; the whole file
                # written again was some 50,000 instructions a ply (68 ms of
                # a Pico at ply 117)
                if game.throw is None:
                    line = "U %d\n" % undone
                else:
                    line = "U %d %d\n" % (undone, game.throw)
                f.write(line)
                size += len(line)
            if not k and not self._opening and game.opening:
                # the opening, ended by its 1: a line, not the whole file
                line = "O %s\n" % " ".join([str(v) for v in game.opening])
                f.write(line)
                size += len(line)
            # only the new plies: walking the whole log cost a late save
            # some 25 ms on a Pico (tests/bench/firmware_bench.py)
            for side, throw, text in game.turns(k):     # from the log, no replay
                line = "%s %d %s\n" % (side, throw, text or "-")
                f.write(line)
                size += len(line)
            if game.throw is not None and undone <= 0:  # (the U line has it)
                line = "%s %d\n" % (game.position.turn, game.throw)
                f.write(line)
                size += len(line)
        finally:
            f.close()                    # littlefs: the append is committed here
        self.mark(game, size)

    def rewrite(self, game):
        """The whole game to game.tmp, then game.log gone, then the rename.
        A game.tmp left whole by a rewrite that failed at its end goes in
        place first: it may be the only copy, and "w" would empty it."""
        from firmware.rewrite import flushed, write_game
        self.give_up()
        if self._unfinished:
            self.finish()
        f = self.open(self.temp, "w")
        try:
            write_game(f, game)
            flushed(f)
        finally:
            f.close()
        # game.tmp is whole: it is the game now (a power-on takes it first)
        if self._background:
            # the App's quiet passes put it in place, a file operation each
            # (``work``): done in this step, they took most of a new game's save
            self._unfinished = True
        else:
            self.finish()
        self.mark(game, 0)

    def finish(self, one=False):
        """The end of a rewrite, game.tmp being whole: game.new and game.log2
        gone (a rewrite in the background given up), game.log gone (it
        belongs to the old game.json), then game.tmp over game.json. ``one``:
        only the next of those file operations (a quiet pass's, ``work``);
        True once game.tmp is in place (the host's file system told to put
        the renames on disk). An OSError if one fails: game.tmp is then
        still the game, and the next save finishes it first."""
        self._unfinished = True
        for path in (self.new, self.log2, self.log):
            if self.exists(path):
                self.drop(path)
                if one:
                    return False
        self.replace(self.temp, self.path)
        self._unfinished = False
        from firmware.rewrite import sync
        sync(self.fs)
        return True

    def replace(self, path, target):
        """Rename ``path`` over ``target``."""
        try:
            self.fs.rename(path, target)
        except OSError:
            if self.exists(path):            # (else it was renamed, then the error)
                self.remove(target)          # FAT cannot rename over a file
                self.fs.rename(path, target)

    def drop(self, path):
        """Remove ``path``; an OSError if it is still there."""
        try:
            self.fs.remove(path)
        except OSError:
            if self.exists(path):
                raise

    # -- the rewrite in the background (mode "files") ---------------------------

    def work(self):
        """A bounded part of the rewrite in the background, for a pass in
        which nobody waits on the board (the App calls it then): game.new
        opened, a few more plies of it written, or it closed, or put in
        place (firmware/rewrite.py, loaded in the first of these passes)."""
        self._background = True
        if self._unfinished:
            if self._size >= 0:          # a whole save's game.tmp: a file a pass
                try:
                    self.finish(True)
                except OSError:          # game.tmp is still the game: the next
                    self._size = -1      # save writes the whole file, finishing first
            return
        job = self._job
        try:
            if type(job) is tuple:
                from firmware.rewrite import Rewrite     # kept (docstring above)
                self._job = Rewrite(self, job[0], job[1], job[2], job[3])
            elif job is not None and job.step():
                self._job = None             # in place, or given up
        except MemoryError:
            # a heap too full for the rewrite's code now: give it up, and the
            # next save writes the whole file, as a store without quiet passes
            # does; the game stays whole on the flash (game.json + the logs)
            self.give_up()

    def give_up(self):
        """Give the rewrite in the background up (a takeback, a new game, a
        failing flash): game.new is left cut short, to go with the logs at
        the next whole save, which this makes due."""
        job = self._job
        if job is not None:
            self._job = None
            self._size = -1
            if type(job) is not tuple:
                job.close()

    def mark(self, game, size):
        """Note what the files now hold: ``game``, with ``size`` bytes of log."""
        self._size = size
        self._plies = game.ply_count
        self._opening = len(game.opening)
        self._throw = game.throw
        self._rs = game.ruleset

    def load(self):
        """``(game, reason)``: the saved game, or None and why not.

        No saved game at all gives ``(None, None)``; an unreadable game.json
        gives ``(None, "...")`` and is kept as ``game.bad`` (the new game's
        first save would otherwise write over it). A game.tmp is the newest
        save if it reads back whole, else a save cut short: dropped, no
        reason given. A heap too full to replay the game is no reason to give
        it up: the load is tried once more after a collection, and then the
        MemoryError goes to the caller (on the board, a restart with an empty
        heap), the files untouched. The reading is firmware/resume.py's,
        loaded for it and let go (the board reads its game once). Then the
        writing, firmware/rewrite.py, is loaded for good (files), while the
        heap is fresh and before the App's own objects.
        """
        found = self._read()
        if self.mode == "files":
            import firmware.rewrite  # noqa: F401  (kept: see the module's docstring)
        return found

    def _read(self):
        ring = self.mode == "ring" and self.exists(self.ring)
        if (not ring and not self.exists(self.temp) and not self.exists(self.path)
                and not self.exists(self.new)):
            return None, None                 # a fresh board: nothing to load it for
        from firmware.resume import load_store
        try:
            return load_store(self)
        finally:
            load_store = None
            unload("firmware.resume")

    def clear(self):
        self.close()
        self.remove(self.new)
        self.remove(self.log2)
        self.remove(self.ring)
        if self._ring is not None:
            self._ring.found(0, False)
        self.remove(self.path)
        self.remove(self.temp)
        self.remove(self.log)
