"""Reading a saved game back: the other half of firmware/store.py.

Loaded by ``Store.load`` at start-up and forgotten again afterwards (the
board reads its saved game once). The file is parsed as a stream, a few
characters at a time, and each entry of ``history`` is replayed through the
engine as soon as it is read: a long game's history never stands in the
heap as one list of lists, which a Pico heap has no room for. A file whose
keys come in another order than ``write_game`` writes them (edited by hand)
is read whole first, with the same checks. Scalars go through ``json.loads``,
so the file must be JSON exactly as before. ``replay_log`` then plays the
lines of ``game.log`` (firmware/store.py) on top, one line at a time.
CircuitPython's game.sav is read by firmware/savering.py.
"""

import gc
import json
import sys

from engine.game import Game
from engine.position import Position
from engine.rules import parse_ruleset

VERSION = 1
_MICROPYTHON = sys.implementation.name == "micropython"   # CPython frees as it goes
_SPACE = " \t\r\n"
_LONGEST = 96                # no value of a saved game is longer (a position: 34)
_SCALAR = "+-.0123456789eEtrufalsn"


def _begin(data, _=None):
    if not isinstance(data, dict):
        raise ValueError("not a saved game object")
    if data.get("version") != VERSION:
        raise ValueError("saved game version %r, this firmware reads %d" % (
            data.get("version"), VERSION))
    rs = parse_ruleset(data["ruleset"])
    game = Game(rs, position=Position.parse(data["start"]))
    opening = data.get("opening") or []
    for v in opening:
        if not isinstance(v, int):
            raise ValueError("opening throws must be numbers")
    game.opening = list(opening)
    return game


def _replay(game, entry):
    side, value, text = entry[0], entry[1], entry[2]
    if side != game.position.turn:
        raise ValueError("history says %s moved, but it was %s's turn" % (
            side, game.position.turn))
    game.set_throw(value)
    if text is None:
        game.pass_turn()
    else:
        game.play(text)


def _finish(game, data):
    if game.position.text() != data["position"]:
        raise ValueError("history does not lead to the saved position")
    if data.get("throw") is not None:
        game.set_throw(data["throw"])
    return game


def _checked(step, a, b=None):
    """``step(a, b)``, any failure but a ValueError saying the save is damaged."""
    try:
        return step(a, b)
    except (ValueError, MemoryError):    # a full heap is not a damaged file
        raise
    except Exception as e:   # KeyError, TypeError, IndexError...
        raise ValueError("saved game is damaged (%s)" % (e,))


def game_from_dict(data):
    """Replay a saved game through the engine; raise ValueError saying why not."""
    game = _checked(_begin, data)
    history = _checked(lambda d, _: d["history"], data)
    for entry in history:
        _checked(_replay, game, entry)
    return _checked(_finish, game, data)


class _Reader:
    """JSON from a text stream, read in small pieces."""

    def __init__(self, f):
        self.f = f
        self.buf = ""
        self.i = 0

    def peek(self):
        """The next character that is not white space ("" at the end)."""
        while True:
            if self.i >= len(self.buf):
                self.buf = self.f.read(64)
                self.i = 0
                if not self.buf:
                    return ""
            c = self.buf[self.i]
            if c not in _SPACE:
                return c
            self.i += 1

    def take(self, wanted):
        c = self.peek()
        if c == "" or c not in wanted:
            raise ValueError("saved game is not valid JSON (%r where %s was expected)"
                             % (c, " or ".join(wanted)))
        self.i += 1
        return c

    def value(self):
        c = self.peek()
        if c == "{":
            return self.obj(None)
        if c == "[":
            return self.array(None)
        return self.scalar()

    def scalar(self):
        """A string, number, true, false or null, read by ``json.loads``."""
        quoted = self.peek() == '"'
        token = ""
        escaped = False
        while True:
            if self.i >= len(self.buf):
                self.buf = self.f.read(64)
                self.i = 0
                if not self.buf:
                    break
            c = self.buf[self.i]
            if len(token) >= _LONGEST:
                raise ValueError("saved game is damaged (a value longer than %d characters)"
                                 % _LONGEST)
            if quoted:
                self.i += 1
                token += c
                if escaped:
                    escaped = False
                elif c == "\\":
                    escaped = True
                elif c == '"' and len(token) > 1:
                    break
            elif c in _SCALAR:
                self.i += 1
                token += c
            else:
                break
        if not token:
            self.take('"')                   # says what is wrong
        return json.loads(token)

    def array(self, each):
        """A list; or, with ``each``, every item handed to ``each`` and None."""
        self.take("[")
        out = [] if each is None else None
        if self.peek() == "]":
            self.i += 1
            return out
        while True:
            item = self.value()
            if each is None:
                out.append(item)
            else:
                each(item)
            if self.take(",]") == "]":
                return out

    def obj(self, history):
        """A dict; the value of a "history" key goes to ``history(dict)`` if given."""
        self.take("{")
        out = {}
        if self.peek() == "}":
            self.i += 1
            return out
        while True:
            if self.peek() != '"':
                self.take('"')
            key = self.scalar()
            self.take(":")
            if key == "history" and history is not None:
                out[key] = history(out)
            else:
                out[key] = self.value()
            if self.take(",}") == "}":
                return out


def load_game(f):
    """The game saved in the open text file ``f``; raise ValueError saying why not."""
    reader = _Reader(f)
    streamed = []

    def history(data):
        # Everything the replay starts from comes before "history" when
        # write_game wrote the file: replay each entry as it is read.
        if (reader.peek() == "[" and not streamed and "version" in data
                and "ruleset" in data and "start" in data and "opening" in data):
            game = _checked(_begin, data)
            streamed.append(game)
            reader.array(lambda entry: _checked(_replay, game, entry))
            return None
        return reader.value()

    if reader.peek() == "{":
        data = reader.obj(history)
    else:
        data = reader.value()
    if reader.peek() != "":
        raise ValueError("saved game is not valid JSON (more after the end)")
    if streamed:
        return _checked(_finish, streamed[0], data)
    return game_from_dict(data)


def _record(game, line):
    """One log line: ``W 3 10-13`` (a move), ``B 2 -`` (a lost turn),
    ``W 4`` (a throw still to be played), ``O 3 2 1`` (the opening's
    throws, K4 and H4: first in a game with none, and ended by its only 1)
    or ``U 2 3`` (a takeback: the last two plies and any throw still to be
    played taken back, then a 3 to play again; ``U 1`` with no throw)."""
    parts = line.split()
    if parts and parts[0] == "O":
        _opening(game, line, parts)
        return
    if parts and parts[0] == "U":
        _takeback(game, line, parts)
        return
    if len(parts) < 2 or len(parts) > 3 or parts[0] != game.position.turn:
        raise ValueError("log line %r does not follow the game" % line)
    value = int(parts[1])
    before = game.throw
    if before is None:
        game.set_throw(value)
    elif before != value:
        raise ValueError("log line %r: the throw was %d" % (line, before))
    if len(parts) == 3:
        try:
            if parts[2] == "-":
                game.pass_turn()
            else:
                game.play(parts[2])
        except Exception:
            game.throw = before          # the game as it was before the line
            raise


def _takeback(game, line, parts):
    # checked whole before the game changes: a line left out leaves it as it was
    if len(parts) not in (2, 3):
        raise ValueError("log line %r does not follow the game" % line)
    undone = int(parts[1])
    if undone < 1 or undone > game.ply_count:
        raise ValueError("log line %r: the game has %d plies" % (line, game.ply_count))
    throw = int(parts[2]) if len(parts) == 3 else None
    if throw is not None:
        game.ruleset.check_throw(throw)
    for _ in range(undone):
        game.undo()
    if throw is not None:
        game.set_throw(throw)


def _opening(game, line, parts):
    if game.opening or game.ply_count or game.throw is not None or len(parts) < 2:
        raise ValueError("log line %r does not follow the game" % line)
    values = [int(p) for p in parts[1:]]
    for v in values:
        game.ruleset.check_throw(v)
    if 1 not in values or values.index(1) != len(values) - 1:
        raise ValueError("log line %r: the opening ends at its first 1" % line)
    game.opening = values


def replay_log(f, game):
    """Play the lines of the open log ``f`` on ``game``; return the bytes
    read, or -1 if the log ends in a line cut short (the save the power
    stopped) or a line that is not a legal next ply (the game stays at the
    line before)."""
    size = 0
    while True:
        line = f.readline()
        if not line:
            return size
        if line[-1] != "\n":
            return -1
        try:
            _record(game, line)
        except MemoryError:
            raise
        except Exception:   # ValueError from int() or the rules, PositionError
            return -1
        size += len(line)


def load_store(store):
    """``Store.load`` (firmware/store.py): game.sav's newest record in mode
    "ring"; else game.tmp if it reads back whole; else game.new if it reads
    back whole, with game.log2 on top; else game.json with game.log and
    game.log2 on top; see there."""
    ring = store.ring_writer()
    if ring is not None and store.exists(store.ring):
        found = ring.load()
        if found is not None:
            return found
    game = _whole(store, store.temp, ())
    if game is not None:
        try:
            store.finish()               # the rewrite the cut stopped
        except OSError:                  # game.tmp stays the game; the
            pass                         # next save finishes it first
        return game, None
    game = _whole(store, store.new, (store.log2,))
    if game is not None:
        try:
            from firmware.rewrite import settle
            settle(store)                # the rewrite in the background, put in place
        except OSError:
            store.forget()               # the next save writes the whole file
        return game, None
    if not store.exists(store.path):
        return None, None
    try:
        game = _retried(store, store.path, (store.log, store.log2))
    except MemoryError:
        raise
    except Exception as e:   # ValueError from json or the replay, OSError
        _set_aside(store)
        return None, "game.json: %s" % (e,)
    if store.exists(store.log2):
        if store.exists(store.log):
            store.forget()               # a rewrite in the background cut short:
        else:                            # the next save writes the whole file
            try:
                store.fs.rename(store.log2, store.log)   # game.json is the new one
            except OSError:
                store.forget()
    return game, None


def _whole(store, path, logs):
    """The game in ``path`` (a rewrite's file), with ``logs`` on top, if it
    reads back whole; else None, and the file (a rewrite cut short) removed."""
    if not store.exists(path):
        return None
    try:
        return _retried(store, path, logs)
    except MemoryError:
        raise
    except Exception:        # cut short while it was written: not a save
        store.remove(path)
        return None


def _retried(store, path, logs):
    try:
        return _read(store, path, logs)
    except MemoryError:
        gc.collect()
        return _read(store, path, logs)


def _read(store, path, logs):
    """The game in ``path``, the ``logs`` that are there replayed on top in
    turn (up to a line cut short or damaged: the rest is not replayed)."""
    f = store.open(path)
    try:
        game = load_game(f)              # replayed while it is read
    finally:
        f.close()
    size = 0
    for log in logs:
        if size < 0 or not store.exists(log):
            continue
        if _MICROPYTHON:
            gc.collect()                 # the reading's garbage gone first
        f = store.open(log)
        try:
            size = replay_log(f, game)   # -1: a line cut short or damaged
        finally:
            f.close()
    store.mark(game, size)
    return game


def _set_aside(store):
    """Keep the unreadable game.json as game.bad (replacing an older one);
    its logs mean nothing without it."""
    bad = store.path[:-4] + "bad"        # game.json -> game.bad, in the same folder
    store.remove(bad)
    try:
        store.fs.rename(store.path, bad)
    except OSError:
        pass
    store.remove(store.log)
    store.remove(store.log2)
