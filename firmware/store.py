"""Saving the game so a power cut loses nothing.

After every committed move (and pass, takeback, new game) the App writes the
whole game as one small JSON object to ``game.tmp`` and renames it over
``game.json``. A rename is atomic on the Pico's littlefs and on POSIX, so at
any instant ``game.json`` holds either the game before the move or the game
after it, never half of one. Where a rename cannot replace a file (FAT), the
old file is removed first, and ``load`` falls back to ``game.tmp``, which at
that moment is complete.

Loading (firmware/resume.py) replays the saved history through the rules
engine as it reads it, so a file that was edited, truncated or written by
another version can only ever give a legal game or a clear reason why not. Only ``os`` and ``json`` are used, as
both exist on MicroPython.

File format (version 1)::

    {"version": 1, "ruleset": "hungarian:no_move=end",
     "start": "WBWBWBWBWB.................... B",
     "opening": [3, 2, 1],
     "history": [["B", 1, "10-11"], ["B", 2, null], ...],
     "position": "<position text now>", "throw": 4}

``history`` holds (side, throw, move text or null for a lost turn);
``throw`` is the throw still to be played, or null.
"""

import gc
import json
import os

from firmware import unload

VERSION = 1


def join(folder, name):
    """``folder/name`` without os.path, which MicroPython lacks."""
    if not folder:
        return name
    if folder.endswith("/"):
        return folder + name
    return folder + "/" + name


def exists(path):
    try:
        os.stat(path)
        return True
    except OSError:
        return False


def remove(path):
    try:
        os.remove(path)
    except OSError:
        pass


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
    """The saved game in ``folder`` (None: nothing is saved)."""

    def __init__(self, folder):
        self.folder = folder
        self.path = join(folder, "game.json")
        self.temp = join(folder, "game.tmp")

    def save(self, game):
        """Write the game atomically: temporary file, then rename over."""
        f = open(self.temp, "w")
        try:
            write_game(f, game)
            f.flush()
            try:
                os.fsync(f.fileno())          # CPython; MicroPython has no fsync
            except (AttributeError, OSError):
                pass
        finally:
            f.close()
        try:
            os.rename(self.temp, self.path)
        except OSError:
            remove(self.path)                 # FAT cannot rename over a file
            os.rename(self.temp, self.path)
        sync = getattr(os, "sync", None)
        if sync is not None:
            try:
                sync()
            except OSError:
                pass

    def load(self):
        """``(game, reason)``: the saved game, or None and why not.

        No saved game at all gives ``(None, None)``; an unreadable one gives
        ``(None, "...")`` and is kept as ``game.bad`` (the new game's first
        save would otherwise write over it). A heap too full to replay the
        game is no reason to give it up: the load is tried once more after a
        collection, and then the MemoryError goes to the caller (on the
        board, a restart with an empty heap), the file untouched.
        """
        reasons = []
        for path in (self.path, self.temp):
            if not exists(path):
                continue
            try:
                try:
                    return self._read(path), None
                except MemoryError:
                    gc.collect()
                    return self._read(path), None
            except MemoryError:
                raise
            except Exception as e:   # ValueError from json or the replay, OSError
                reasons.append("%s: %s" % (path == self.path and "game.json" or "game.tmp", e))
        if reasons:
            self._set_aside()
            return None, "; ".join(reasons)
        return None, None

    def _read(self, path):
        f = open(path)
        try:
            from firmware.resume import load_game
            return load_game(f)              # replayed while it is read
        finally:
            f.close()
            load_game = None
            unload("firmware.resume")        # read once, at start-up

    def _set_aside(self):
        """Keep the unreadable save as game.bad (replacing an older one)."""
        bad = join(self.folder, "game.bad")
        for path in (self.path, self.temp):
            if exists(path):
                remove(bad)
                try:
                    os.rename(path, bad)
                except OSError:
                    pass
                return

    def clear(self):
        remove(self.path)
        remove(self.temp)
