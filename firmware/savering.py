"""game.sav: the saved game on CircuitPython's FAT drive, one erase a save.

CircuitPython's CIRCUITPY drive is FAT, which has no wear levelling: every
file written, created, renamed or removed rewrites its directory sector
(size and time) and often the FAT, a 4 KB flash block erased each time, the
same one or two blocks all day (measured on a model of the drive:
tests/fat_flash.py, tests/bench/fat_wear_bench.py). So there the game goes
to ``game.sav`` (firmware/store.py's mode "ring", its default on
CircuitPython): a file made once, ``RING`` 4 KB slots and a 4 KB guard at
each end, never grown, renamed or closed while the board runs.

Each save writes the whole game as one record (a header line, then the game
in two characters a ply: about 230 plies a sector) over whole 512-byte
sectors at the start of the next slot, and ``os.sync()`` writes
CircuitPython's block cache back: one 4 KB erase a save, on a block that
takes its turn once every ``RING`` saves; FatFs writes whole sectors
straight through, so the directory entry and the FAT are never touched.
Consecutive records go two slots apart, so the block a power cut may leave
half erased never holds the record before: a cut loses at most the save
being made. A record that would pass 4 KB (a game of some 2,000 plies) is
not written there: the game goes to game.json and game.log and the ring
says so in a one-letter record. A throw is kept in RAM and saved with its
move (or lost turn): a cut between the sticks and the move loses that
throw, and the board asks for a new one; the deciding 1 of the opening is
saved at once, as it starts the game. Ring.load reads it back.

This module is loaded only in that mode, so MicroPython's build, which
saves to littlefs, carries none of it.
"""

import os
import sys

try:
    from micropython import const
except ImportError:
    const = lambda x: x  # noqa: E731

from engine.game import Game
from engine.position import Position
from engine.rules import parse_ruleset, ruleset_spec

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


def _head(f, slot):
    """(seq, length, crc, bytes of the head) of the record at ``slot``, or
    None: no record."""
    f.seek((1 + slot) * SLOT)
    head = f.read(40)
    end = head.find(b"\n")
    if end < 0:
        return None
    try:
        parts = head[:end].decode().split()
        if len(parts) != 4 or parts[0] != MAGIC:
            return None
        return int(parts[1]), int(parts[2]), int(parts[3]), end + 1
    except (UnicodeError, ValueError):   # zeros, or a record half written
        return None


def _body(f, slot, head):
    """The record's text if its length and CRC hold, else None."""
    seq, length, crc, skip = head
    if length < 1 or length > SLOT:
        return None
    f.seek((1 + slot) * SLOT + skip)
    data = f.read(length + 1)
    if len(data) != length + 1 or data[-1:] != b"\n" or checksum(data[:length]) != crc:
        return None
    return data[:length].decode()


def _game(body):
    """The game a record holds: ``spec squares side opening throw -plies``."""
    parts = body.split(" ")
    if len(parts) != 6:
        raise ValueError("saved game record has %d fields" % len(parts))
    game = Game(parse_ruleset(parts[0]), position=Position.parse(parts[1] + " " + parts[2]))
    if parts[3] != "-":
        game.opening = [int(c) for c in parts[3]]
    plies = parts[5]
    for i in range(1, len(plies) - 1, 2):
        n = DIGITS.index(plies[i]) * 94 + DIGITS.index(plies[i + 1])
        if n >= 4800:
            game.set_throw(n - 4799)
            game.pass_turn()
        else:
            to = n % 32 + 1
            game.set_throw(n // 32 // 30 + 1)
            game.play("%d-%s" % (n // 32 % 30 + 1, "off" if to == 31 else to))
    if parts[4] != "-":
        game.set_throw(int(parts[4]))
    return game


class Ring:
    """game.sav's writer for a firmware.store.Store in mode "ring"."""

    def __init__(self, store):
        self.store = store
        self.f = None                    # game.sav, open for good once written
        self.seq = 0                     # the newest record's number
        self.in_files = False            # the newest record says "F": game.json holds it

    def save(self, game, whole):
        """The whole game as game.sav's next record; False if game.sav
        cannot be made (no room: the store saves to its two files). A save
        that only adds the pending throw is not made: the throw is saved
        with its move."""
        store = self.store
        if not whole and store.holds(game):
            return True
        store.forget()
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
            store.rewrite(game)
            self.write("F")
            self.in_files = True
            return True
        if not self.write(body):
            return False
        self.in_files = False
        store.mark(game, 0)
        return True

    def write(self, body):
        """``body`` as the next record, in whole sectors, then the drive's
        cache written back. False if game.sav cannot be made."""
        store = self.store
        f = self.f
        if f is None:
            if not store.exists(store.ring):
                try:
                    self.make()
                except OSError:
                    store.remove(store.ring)
                    return False
            f = self.f = store.open(store.ring, "r+b")
        data = body.encode()
        seq = self.seq + 1
        head = "%s %d %d %d\n" % (MAGIC, seq, len(data), checksum(data))
        data = head.encode() + data + b"\n"
        f.seek((1 + (2 * seq) % RING) * SLOT)
        f.write(data + b" " * (-len(data) % SECTOR))   # whole sectors: straight to the flash
        data = None
        if store.fs is os and (not _CIRCUITPYTHON or hasattr(f, "raw")):
            f.flush()                    # a host's buffered file, littlefs: out of its buffer
        if store.fs is not os or _CIRCUITPYTHON:
            store.fs.sync()              # CircuitPython: os.sync(), the block cache written
            #                              back (f.flush() would stamp the directory too)
        self.seq = seq
        return True

    def make(self):
        """game.sav, whole, once (at the first save): (RING + 2) slots of
        zeros, no record yet."""
        zeros = bytes(SECTOR)
        f = self.store.open(self.store.ring, "wb")
        try:
            for _ in range((RING + 2) * (SLOT // SECTOR)):
                f.write(zeros)
        finally:
            f.close()

    def load(self):
        """game.sav's newest whole record: ``(game, reason)``, or None if
        there is none or it says the game is in game.json. A record the
        power cut short fails its length or CRC and the one before is used;
        its plies are replayed two characters at a time."""
        store = self.store
        f = store.open(store.ring, "rb")
        try:
            below = None
            while True:
                best = None
                for slot in range(RING):
                    head = _head(f, slot)
                    if head is not None and (below is None or head[0] < below) and (
                            best is None or head[0] > best[1][0]):
                        best = (slot, head)
                if best is None:
                    return None
                body = _body(f, best[0], best[1])
                if body is not None:
                    break
                below = best[1][0]       # cut short: the record before it
        finally:
            f.close()
        self.found(best[1][0], body == "F")
        if body == "F":
            return None
        try:
            game = _game(body)
        except MemoryError:
            raise
        except Exception as e:           # ValueError, PositionError, IndexError...
            return None, "game.sav: saved game is damaged (%s)" % (e,)
        store.mark(game, 0)
        return game, None

    def found(self, seq, in_files):
        """game.sav's newest record is number ``seq`` (``in_files``: it says
        the game is in game.json); the next goes after it."""
        self.seq = seq
        self.in_files = in_files

    def close(self):
        """Let game.sav go."""
        f = self.f
        self.f = None
        if f is not None:
            f.close()
