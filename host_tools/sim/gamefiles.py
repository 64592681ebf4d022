"""Game records in and out of the page: the download, the load, the analysis.

The record is the engine's own format (engine/record.py); this module only
names the file, hands the engine what the page sent and turns its one-line
complaints into ``SimError`` so the server answers 400 and changes nothing.
None of it touches the App: a loaded game is replayed on the page alone.
"""

import datetime
import os
import tempfile

from engine.rules import ruleset_spec
from host_tools.sim.checks import SimError

MAX_RECORD = 1024 * 1024       # a record of a very long game is some tens of kilobytes


def record_name(when):
    """The download's file name, with the date and time of ``when``."""
    return when.strftime("senet-%Y-%m-%d-%H%M.txt")


def record_text(game, when):
    """The engine's record of ``game``, its date in the headers."""
    from engine import record
    if game is None:
        raise SimError("there is no game to write down yet")
    return record.record(game, headers={"date": when.strftime("%Y-%m-%d %H:%M")})


def now():
    return datetime.datetime.now()


def replay_data(text):
    """What the page replays: the record read back through the engine, every
    ply with its positions before and after."""
    from engine.record import read
    try:
        rec = read(text)
    except ValueError as exc:
        raise SimError(str(exc))
    game = rec.game
    result = {"winner": game.winner, "score": game.score} if game.is_over() else None
    return {"record": text, "headers": dict(rec.headers), "ruleset": ruleset_spec(game.ruleset),
            "start": game.start.text(), "plies": [ply.as_dict() for ply in rec.plies],
            "result": result}


def load_files(files):
    """The game in the files the page sent (``[{"name", "text"}]``): a record,
    or a board's game.json with its game.log. Record text, or SimError with
    the reader's one line."""
    if not isinstance(files, list) or not files or len(files) > 2:
        raise SimError('load needs "files": one record file, or a board\'s game.json '
                       'and game.log, as [{"name": ..., "text": ...}]')
    with tempfile.TemporaryDirectory(prefix="senet-load-") as folder:
        paths = [_write(folder, f) for f in files]
        return _load(_main_file(paths))


def load_path(path):
    """The game in the file at ``path`` (as load_files), for `replay FILE`."""
    return _load(path)


def _load(path):
    try:
        from host_tools.analysis.gamefile import load_game
    except ImportError as exc:            # an install without the laptop's analysis
        raise SimError("reading game files needs host_tools.analysis: %s" % exc)
    try:
        return load_game(path)
    except ValueError as exc:
        raise SimError(str(exc))


def _write(folder, item):
    if not isinstance(item, dict) or not isinstance(item.get("name"), str) \
            or not isinstance(item.get("text"), str):
        raise SimError('each file is {"name": text, "text": text}')
    name = os.path.basename(item["name"].replace("\\", "/")) or "record.txt"
    if name.startswith("."):
        name = "record.txt"
    path = os.path.join(folder, name)
    with open(path, "w", encoding="utf-8") as f:
        f.write(item["text"])
    return path


def _main_file(paths):
    """A board's game.json is read with the game.log beside it; else the record."""
    for path in paths:
        if path.endswith(".json"):
            return path
    return paths[0]


def analysis(text, sim):
    """host_tools/analysis on ``text``, or on the game on ``sim``'s board
    when None: for each ply the best move for its throw and the chances.
    Runs on the laptop, in the request's own thread; the board plays on."""
    try:
        from host_tools.analysis import analyse
    except ImportError as exc:
        raise SimError("the analysis needs host_tools.analysis: %s" % exc)
    if text is None:
        with sim.lock:
            text = record_text(sim.record_game(), now())
    if not isinstance(text, str):
        raise SimError('"record" must be the text of a game record')
    try:
        return analyse(text)
    except ValueError as exc:
        raise SimError(str(exc))
