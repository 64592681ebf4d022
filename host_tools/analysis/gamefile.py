"""What a board or the monitor leaves behind, read as one game record.

``load_game(path)`` takes either:

- a record file (docs/record.md, version 1 or 2), as ``senet-board monitor``
  writes it or the page downloads it; or
- a board's saved game, copied off with ``mpremote cp :game.json :game.log .``
  (firmware/store.py): ``game.json`` holds the game up to its last rewrite,
  ``game.log`` the plies since, one a line. Given either file's path, the
  other is looked for beside it; a ``game.json`` without a log is a whole
  game on its own (a fresh rewrite), a ``game.log`` without its
  ``game.json`` is nothing. A copy taken while the board was writing
  game.json again in the background (game.new, game.log2 beside it) is
  loaded by the board's own power-on code, so its last plies are not lost.

Both are replayed through the engine exactly as the board replays them at
power-on (firmware/resume.py), so a file that was edited, cut short or is
not a game at all gives one line saying why, never a half-read game. As on
the board, a log whose last line was cut short by a power cut ends the game
at the line before; a throw not yet played is not part of a record.
"""

import json
import os
import shutil
import tempfile

from engine.record import read, record
from firmware.resume import load_game as load_saved, replay_log

MAX_BYTES = 4 * 1024 * 1024      # a record of a very long game is some tens of kilobytes


class GameFileError(ValueError):
    """A file that holds no game this reader can replay; one line."""


def load_game(path):
    """The game in ``path`` (a record, or a board's game.json / game.log)
    as record text; raise GameFileError saying in one line why not."""
    text = _text(path)
    name = os.path.basename(path)
    if name.endswith(".log") or _looks_like_json(text):
        return _board_game(path, name)
    try:
        read(text)
    except ValueError as e:
        raise GameFileError("%s: %s" % (name, e))
    return text


def _text(path):
    if os.path.isdir(path):
        raise GameFileError("%s is a folder; name a record file or a board's game.json" % path)
    try:
        with open(path, "rb") as f:
            data = f.read(MAX_BYTES + 1)
    except OSError as e:
        raise GameFileError("cannot read %s: %s" % (path, e.strerror or e))
    if len(data) > MAX_BYTES:
        raise GameFileError("%s is over %d MB: not a game record" % (path, MAX_BYTES // 1048576))
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise GameFileError("%s is not text (not UTF-8): not a game record or a board's "
                            "game.json" % path)


def _looks_like_json(text):
    return text.lstrip().startswith("{")


def _board_game(path, name):
    """game.json and the game.log beside it, replayed as the board does."""
    folder = os.path.dirname(path)
    if name.endswith(".log"):
        saved = os.path.join(folder, name[:-4] + ".json")
        log = path
        if not os.path.isfile(saved):
            raise GameFileError("%s holds only the last plies; copy %s off the board too and "
                                "put it beside it" % (name, os.path.basename(saved)))
    else:
        saved = path
        log = os.path.join(folder, name[:-5] + ".log") if name.endswith(".json") else None
    if _mid_rewrite(folder, saved):
        return record(_as_the_board_loads_it(folder))
    game = _replayed(saved)
    if log is not None and os.path.isfile(log):
        _text(log)                                   # not text: one line, as above
        with open(log, encoding="utf-8") as f:
            replay_log(f, game)                      # -1: cut short; the game before it stands
    return record(game)


# What a board leaves for a moment every ~17 moves, while game.json is written
# again in the background (firmware/store.py): game.new, and game.log2 with
# the plies made meanwhile; game.tmp after a whole save (a new game, a
# takeback) until the next quiet passes put it in place, or one cut short.
REWRITE_FILES = ("game.new", "game.log2", "game.tmp")


def _mid_rewrite(folder, saved):
    return (os.path.basename(saved) == "game.json"
            and any(os.path.isfile(os.path.join(folder, n)) for n in REWRITE_FILES))


def _as_the_board_loads_it(folder):
    """A copy taken mid-rewrite, loaded by the board's own power-on code
    (firmware/resume.py) on a scratch copy, so the files given stay as they are."""
    from firmware.resume import load_store
    from firmware.store import Store
    with tempfile.TemporaryDirectory() as scratch:
        for name in ("game.json", "game.log") + REWRITE_FILES:
            if os.path.isfile(os.path.join(folder, name)):
                _text(os.path.join(folder, name))        # not text: one line
                shutil.copy(os.path.join(folder, name), scratch)
        game, problem = load_store(Store(scratch))
    if game is None:
        raise GameFileError("game.json: %s" % (problem or "no saved game in these files"))
    return game


def _replayed(saved):
    """The Game in a board's game.json; GameFileError naming the file."""
    name = os.path.basename(saved)
    text = _text(saved)
    try:
        json.loads(text)
    except ValueError as e:
        raise GameFileError("%s is not valid JSON (%s)" % (name, str(e).split(":")[0]))
    with open(saved, encoding="utf-8") as f:
        try:
            return load_saved(f)
        except (ValueError, KeyError, TypeError) as e:
            raise GameFileError("%s: %s" % (name, " ".join(str(e).split())))
