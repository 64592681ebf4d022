"""Saving the game so a power cut loses nothing, at a small cost a move.

Two files hold the game:

- ``game.json``, the whole game as one small JSON object (the format below),
  written as ``game.tmp`` and renamed over ``game.json``. A rename is atomic
  on the Pico's littlefs and on POSIX, so ``game.json`` holds either the game
  before or the game after, never half of one.
- ``game.log``, the plies since: one short line a move, a pass or a throw,
  appended. littlefs commits an append when the file is closed, and a log
  under half a kilobyte lives inside the directory's own block, so an append
  programs a page or two of flash and erases nothing.

The whole file is written again only for a new game, a takeback, or when the
log passes ``_LOG_MAX`` bytes (about 17 moves); every other save is an
append, the same few bytes at ply 10 and at ply 200.

A rewrite goes: ``game.tmp`` written and closed, ``game.log`` removed,
``game.tmp`` renamed over ``game.json``. So a ``game.tmp`` that reads back
whole is always the newest save (it is used, and the rewrite finished); one
that does not is a save the power cut short, and is dropped without a word:
the game before it is still in ``game.json`` and ``game.log``, and on a fresh
board there was none. Only a damaged ``game.json`` is reported ("saved game
unreadable") and kept as ``game.bad``. A log line cut short (possible on a
host filesystem, not on littlefs) is the save being written and is left out;
the next save then writes the whole file again. Where a rename cannot replace
a file (FAT), the old file is removed first; ``game.tmp`` is whole by then.

At every moment the flash holds a whole copy of the last save made:
``game.json`` with its log, or a whole ``game.tmp``. A full or failing flash
can stop a rewrite after ``game.tmp`` is closed (the log not removed, the
rename refused, FAT's retry too): ``game.tmp`` is then the game, perhaps the
only copy, so it is never opened to be written again (``"w"`` would empty
it) before it is in place; the next save, or the next power-on, finishes
that rewrite first. And a log that cannot be removed stops the rewrite: left
beside the new ``game.json`` it would be replayed on the wrong game.
tests/test_store_faults.py makes every pair of file operations of a game's
saves fail, and cuts the power before every operation after them.

Loading (firmware/resume.py) replays the saved history through the rules
engine as it reads it, so a file that was edited, truncated or written by
another version can only ever give a legal game or a clear reason why not.
Only ``os`` and ``json`` are used, as both exist on MicroPython. A ``Store``
can be given another file system (``fs``: an object with ``open``,
``rename``, ``remove``, ``stat``), as the tests give it a littlefs image.

On CircuitPython the drive is FAT, which has no wear levelling, and every
file that is written, created, renamed or removed rewrites its directory
sector (its size and the RTC's time) and often the FAT: a 4 KB flash block
erased each time, the same one or two blocks all day (measured on a model
of the drive: tests/fat_flash.py, tests/bench/fat_wear_bench.py). So there
the game goes to ``game.sav`` instead (``mode`` "ring", the default on
CircuitPython): a file made once, ``RING`` 4 KB slots and a 4 KB guard at
each end, never grown, renamed or closed while the board runs. Each save
writes the whole game as one record (a header line, then the game in two
characters a ply: about 230 plies a sector) over whole 512-byte sectors at
the start of the next slot, and ``os.sync()`` writes CircuitPython's block
cache back: one 4 KB erase a save, on a block that takes its turn once
every ``RING`` saves; FatFs writes whole sectors straight through, so the
directory entry and the FAT are never touched. Consecutive records go two
slots apart, so the block a power cut may leave half erased never holds the
record before: a cut loses at most the save being made. A record that
would pass 4 KB (a game of some 2,000 plies) is not written there: the game
goes to the two files above and the ring says so in a one-letter record.
In this mode a throw is kept in RAM and saved with its move (or lost turn):
a cut between the sticks and the move loses that throw, and the board asks
for a new one; the deciding 1 of the opening is saved at once, as it starts
the game. Loading reads the newest whole record (firmware/resume.py).

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
"""

import json
import os
import sys

try:
    from micropython import const
except ImportError:
    const = lambda x: x  # noqa: E731

from firmware import unload

VERSION = 1
RING = const(91)        # game.sav's slots: 4 KB each, odd (they are visited two apart).
#   On CircuitPython every save erases one 4 KB block; 91 blocks take
#   turns, so a museum's 2,150 moves a day erase each about 24 times a
#   day: 100,000 times in 11 years (tests/bench/fat_wear_bench.py; 81
#   slots gave 10.1). The file is (RING + 2) * 4 KB, 372 KB.
SLOT = const(4096)
SECTOR = const(512)
MAGIC = "SENET"
DIGITS = "!\"#$%&'()*+,-./0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_`abcdefghijklmnopqrstuvwxyz{|}~"
#   the 94 printable characters but space: a ply is two of them
_LOG_MAX = const(240)   # bytes; past this the next save rewrites game.json. The
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


def ply_code(throw, text):
    """Two characters of ``DIGITS`` for one ply of game.sav: a move from its
    throw (1-5), origin (1-30) and destination (1-30, 31 off the board), a
    lost turn 4800 + throw - 1."""
    if text is None:
        n = 4799 + throw
    else:
        dash = text.index("-")
        to = text[dash + 1:]
        n = ((throw - 1) * 30 + int(text[:dash]) - 1) * 32 + (31 if to == "off" else int(to)) - 1
    return DIGITS[n // 94] + DIGITS[n % 94]


def checksum(data):
    """CRC-32 of the bytes ``data`` (binascii's where the board has it)."""
    try:
        from binascii import crc32
    except ImportError:
        crc32 = None
    if crc32 is not None:
        return crc32(data) & 0xFFFFFFFF
    crc = 0xFFFFFFFF
    for b in data:
        crc ^= b
        for _ in range(8):
            crc = (crc >> 1) ^ (0xEDB88320 if crc & 1 else 0)
    return crc ^ 0xFFFFFFFF


def ruleset_spec(rs):
    """``"hungarian:no_move=end"``: the text engine.rules.parse_ruleset reads."""
    spec = rs.name
    keys = sorted(rs.options)
    if keys:
        parts = []
        for k in keys:
            v = rs.options[k]
            if v is True:
                v = "true"
            elif v is False:
                v = "false"
            parts.append("%s=%s" % (k, v))
        spec += ":" + ",".join(parts)
    return spec


def write_game(f, game):
    """Write the game as JSON to the open file ``f``, piece by piece.

    A long game's JSON is several kilobytes; built as one string it needs one
    contiguous block, which a fragmented Pico heap may not have.  Written in
    pieces, a save needs only a few small strings at a time.
    """
    dumps = json.dumps
    f.write('{"version": %d, "ruleset": %s, "start": %s, "opening": %s, "history": [' % (
        VERSION, dumps(ruleset_spec(game.ruleset)), dumps(game.start.text()),
        dumps(list(game.opening))))
    sep = ""
    for side, throw, text in game.turns():     # from the log, no replay
        f.write('%s["%s", %d, %s]' % (sep, side, throw, '"%s"' % text if text else "null"))
        sep = ", "
    f.write('], "position": %s, "throw": %s}' % (dumps(game.position.text()), dumps(game.throw)))


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
        self._ringf = None               # game.sav, open for good once written
        self._seq = 0                    # the newest record's number
        self._in_files = False           # the ring's newest record says "F"
        self.fs = os if fs is None else fs
        self.open = open if fs is None else fs.open
        # What game.json and game.log hold together (_size -1: nothing known,
        # the next save writes the whole file).
        self._size = -1                  # bytes in game.log
        self._plies = 0                  # moves and passes saved
        self._opening = 0                # opening throws saved
        self._throw = None               # pending throw saved
        self._rs = None                  # the ruleset saved
        # A whole game.tmp not yet in place (a rewrite the flash failed at
        # its end): it may be the only copy of the game, so it is never
        # written over; the next save puts it in place first.
        self._unfinished = False

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
        """Save the game: its new plies appended to game.log, or (``whole``:
        a new game or a takeback, or the log long enough) the whole file.
        A save that fails (a full or failing flash: the OSError goes to the
        caller) may leave half a line in the log, or a newer game.tmp beside
        it: the next save then writes the whole file again (a whole game.tmp
        put in place first)."""
        if self.mode == "ring" and (whole or not self._in_files):
            self._ring_save(game, whole)
            return
        n = game.ply_count
        k = self._plies
        size = self._size
        if (whole or size < 0 or size > _LOG_MAX or self._unfinished
                or game.ruleset is not self._rs or len(game.opening) != self._opening or n < k
                or (n == k and self._throw is not None and game.throw != self._throw)):
            self._size = -1              # nothing known until it is done (mark)
            self._rewrite(game)
        elif n > k or game.throw != self._throw:
            self._size = -1
            self._append(game, k, size)

    # -- game.sav (mode "ring") ------------------------------------------------

    def _ring_save(self, game, whole):
        """The whole game as game.sav's next record. A save that only adds
        the pending throw is not made: the throw is saved with its move."""
        if (not whole and self._size >= 0 and self._rs is not None
                and ruleset_spec(game.ruleset) == ruleset_spec(self._rs)
                and len(game.opening) == self._opening and game.ply_count == self._plies):
            return
        self._size = -1                  # nothing known until it is done
        parts = [ruleset_spec(game.ruleset), " ", game.start.text(), " "]
        for v in game.opening:
            parts.append(str(v))
        parts.append(" " if game.opening else "- ")
        parts.append(str(game.throw) if game.throw is not None else "-")
        parts.append(" -")               # the plies follow the dash
        for side, throw, text in game.turns():     # from the log, no replay
            parts.append(ply_code(throw, text))
        body = "".join(parts)
        parts = None
        if len(body) > SLOT - 40:        # some 2,000 plies: the two files instead
            body = None
            self._rewrite(game)
            self._ring_write("F")
            self._in_files = True
            return
        if not self._ring_write(body):   # no room for game.sav: the two files
            self.mode = "files"
            self._rewrite(game)
            return
        self._in_files = False
        self.mark(game, 0)

    def _ring_write(self, body):
        """``body`` as the next record, in whole sectors, then the drive's
        cache written back. False if game.sav cannot be made."""
        f = self._ringf
        if f is None:
            if not self.exists(self.ring):
                try:
                    self.make_ring()
                except OSError:
                    self.remove(self.ring)
                    return False
            f = self._ringf = self.open(self.ring, "r+b")
        data = body.encode()
        seq = self._seq + 1
        head = "%s %d %d %d\n" % (MAGIC, seq, len(data), checksum(data))
        data = head.encode() + data + b"\n"
        f.seek((1 + (2 * seq) % RING) * SLOT)
        f.write(data + b" " * (-len(data) % SECTOR))   # whole sectors: straight to the flash
        data = None
        if self.fs is os and (not _CIRCUITPYTHON or hasattr(f, "raw")):
            f.flush()                    # a host's buffered file, littlefs: out of its buffer
        if self.fs is not os or _CIRCUITPYTHON:
            self.fs.sync()               # CircuitPython: os.sync(), the block cache written
            #                              back (f.flush() would stamp the directory too)
        self._seq = seq
        return True

    def make_ring(self):
        """game.sav, whole, once (at the first save): (RING + 2) slots of
        zeros, no record yet."""
        zeros = bytes(SECTOR)
        f = self.open(self.ring, "wb")
        try:
            for _ in range((RING + 2) * (SLOT // SECTOR)):
                f.write(zeros)
        finally:
            f.close()

    def found(self, seq, in_files):
        """game.sav's newest record is number ``seq`` (``in_files``: it says
        the game is in game.json); the next goes after it."""
        self._seq = seq
        self._in_files = in_files

    def layout(self):
        """(RING, SLOT, MAGIC, DIGITS, checksum): game.sav's shape, for its
        reader (firmware/resume.py imports nothing from here)."""
        return RING, SLOT, MAGIC, DIGITS, checksum

    def close(self):
        """Let game.sav go (a board never does: closing it stamps the
        directory; tests and tools do)."""
        f = self._ringf
        self._ringf = None
        if f is not None:
            f.close()

    # -- game.json and game.log (mode "files") ----------------------------------

    def _append(self, game, k, size):
        """The plies after the first ``k``, and the pending throw, as log lines
        after the ``size`` bytes already in the log."""
        f = self.open(self.log, "a")
        try:
            # only the new plies: walking the whole log cost a late save
            # some 25 ms on a Pico (tests/bench/firmware_bench.py)
            for side, throw, text in game.turns(k):     # from the log, no replay
                line = "%s %d %s\n" % (side, throw, text or "-")
                f.write(line)
                size += len(line)
            if game.throw is not None:
                line = "%s %d\n" % (game.position.turn, game.throw)
                f.write(line)
                size += len(line)
        finally:
            f.close()                    # littlefs: the append is committed here
        self.mark(game, size)

    def _rewrite(self, game):
        """The whole game to game.tmp, then game.log gone, then the rename.
        A game.tmp left whole by a rewrite that failed at its end goes in
        place first: it may be the only copy, and "w" would empty it."""
        if self._unfinished:
            self.finish()
        f = self.open(self.temp, "w")
        try:
            write_game(f, game)
            f.flush()
            try:
                os.fsync(f.fileno())          # CPython; MicroPython has no fsync
            except (AttributeError, OSError, ValueError):
                pass
        finally:
            f.close()
        self.finish()                        # game.tmp is whole: it is the game now
        sync = getattr(self.fs, "sync", None)
        if sync is not None:
            try:
                sync()
            except OSError:
                pass
        self.mark(game, 0)

    def finish(self):
        """The end of a rewrite, game.tmp being whole: game.log gone (it
        belongs to the old game.json), then game.tmp over game.json. An
        OSError if either fails: game.tmp is then still the game, and the
        next save finishes it first."""
        self._unfinished = True
        self.drop(self.log)
        try:
            self.fs.rename(self.temp, self.path)
        except OSError:
            if self.exists(self.temp):       # (else it was renamed, then the error)
                self.remove(self.path)       # FAT cannot rename over a file
                self.fs.rename(self.temp, self.path)
        self._unfinished = False

    def drop(self, path):
        """Remove ``path``; an OSError if it is still there."""
        try:
            self.fs.remove(path)
        except OSError:
            if self.exists(path):
                raise

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
        loaded for it and let go (the board reads its game once).
        """
        ring = self.mode == "ring" and self.exists(self.ring)
        if not ring and not self.exists(self.temp) and not self.exists(self.path):
            return None, None                 # a fresh board: nothing to load it for
        from firmware.resume import load_store
        try:
            return load_store(self)
        finally:
            load_store = None
            unload("firmware.resume")

    def clear(self):
        self.close()
        self.remove(self.ring)
        self._seq = 0
        self.remove(self.path)
        self.remove(self.temp)
        self.remove(self.log)
