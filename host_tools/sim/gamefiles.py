"""Game records in and out of the page: the download, the load, the analysis.

The record is the engine's own format (engine/record.py); this module only
names the file, hands the engine what the page sent and turns its one-line
complaints into ``SimError`` so the server answers 400 and changes nothing.
None of it touches the App: a loaded game is replayed on the page alone.
"""

import datetime

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
