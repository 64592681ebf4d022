"""The board's health and usage figures on the laptop: a line and a CSV.

Every ``health`` event carries ``usage``, the visitors' figures the board
has counted since it was installed (firmware/usage.py, docs/protocol.md).
``senet-board monitor --usage FILE.csv`` and ``show --usage FILE.csv`` keep
one row a day: the day's last figures, rewritten as each health event comes
(every 5 minutes), so the file holds a row for every day the laptop heard
the board. The counts in a row are the running totals; a day's own figures
are a row less the row before (``senet-board stats`` works them out).

The columns are fixed, so a spreadsheet opens every file the same way: the
date, boots and crashes, games started, finished and abandoned in all and by
ruleset, then the other counters in firmware/usage.py's order.
"""

import csv
import datetime
import io
import os

from engine.rules import RULESETS
from firmware.usage import COUNTERS, GAMES


def columns(rulesets=None):
    """The CSV's header, in order."""
    names = ["date", "boots", "crashes"] + ["games_" + how for how in GAMES]
    for rs in sorted(RULESETS if rulesets is None else rulesets):
        names += ["%s_%s" % (how, rs) for how in GAMES]
    return names + list(COUNTERS)


def _count(value):
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def row_of(event, date):
    """The CSV row (a dict by column) of one ``health`` event on ``date``,
    or None when it carries no sound figures (an older firmware, a garbled
    line): such an event changes nothing."""
    usage = event.get("usage")
    if not isinstance(usage, dict) or not isinstance(usage.get("games"), dict):
        return None
    row = {"date": date}
    for key in ("boots", "crashes"):
        row[key] = event.get(key) if _count(event.get(key)) else ""
    for name in COUNTERS:
        if not _count(usage.get(name, 0)):
            return None
        row[name] = usage.get(name, 0)
    for how in GAMES:
        row["games_" + how] = 0
    for rs, counts in usage["games"].items():
        if not isinstance(counts, dict) or not all(_count(counts.get(h, 0)) for h in GAMES):
            return None
        for how in GAMES:
            row["games_" + how] += counts.get(how, 0)
            if rs in RULESETS:
                row["%s_%s" % (how, rs)] = counts.get(how, 0)
    return row


class UsageLog:
    """One CSV row a day from the board's health events. ``today``: the
    laptop's date as ``YYYY-MM-DD`` (a callable; tests set their own).
    ``problem`` says in one sentence why the last event wrote nothing."""

    def __init__(self, path, today=None):
        self.path = path
        self.today = today or (lambda: datetime.date.today().isoformat())
        self.problem = None

    def health(self, event):
        """Keep ``event``'s figures as today's row. True if written."""
        row = row_of(event, self.today())
        if row is None:
            self.problem = "a health event without usage figures was left out"
            return False
        header = columns()
        try:
            lines = self._lines()
        except (OSError, UnicodeDecodeError) as e:
            self.problem = "%s cannot be read (%s): no row written" % (self.path, e)
            return False
        if lines and lines[0].rstrip("\r\n") != ",".join(header):
            self.problem = ("%s has other columns: name a new file for --usage"
                            % self.path)
            return False
        if not lines:
            lines = [",".join(header) + "\n"]
        if len(lines) > 1 and lines[-1].split(",", 1)[0] == row["date"]:
            lines.pop()              # today's row so far: the new figures replace it
        text = io.StringIO()
        csv.DictWriter(text, header, restval="", lineterminator="\n").writerow(row)
        lines.append(text.getvalue())
        try:
            self._write("".join(lines))
        except OSError as e:
            self.problem = "%s cannot be written (%s)" % (self.path, e.strerror or e)
            return False
        self.problem = None
        return True

    def _lines(self):
        if not os.path.exists(self.path):
            return []
        with open(self.path, encoding="utf-8", newline="") as f:
            return [line if line.endswith("\n") else line + "\n" for line in f]

    def _write(self, text):
        """A whole new file renamed over the old: a laptop switched off in
        the middle leaves yesterday's file, not half of it."""
        tmp = self.path + ".tmp"
        with open(tmp, "w", encoding="utf-8", newline="") as f:
            f.write(text)
        os.replace(tmp, self.path)


def add_usage_argument(parser):
    """The ``--usage FILE.csv`` option of ``monitor`` and ``show``."""
    parser.add_argument("--usage", metavar="FILE.csv",
                        help="keep the board's usage figures in this CSV, one row a day "
                        "(senet-board stats draws it)")


def health_line(event):
    """A ``health`` event in one line: boots, uptime, memory free after a
    collection (and the lowest since boot: one that keeps falling is a leak)."""
    up = event.get("uptime_s") if isinstance(event.get("uptime_s"), int) else 0
    text = "health: boot %s, up %dh%02dm" % (event.get("boots"), up // 3600, up // 60 % 60)
    free, low = event.get("mem_free"), event.get("mem_low")
    if isinstance(free, int):
        text += ", %.1f KB free" % (free / 1024) + (
            " (lowest %.1f KB)" % (low / 1024) if isinstance(low, int) else "")
    text += ", %s crash(es) logged" % (event.get("crashes"),)
    last = event.get("last_crash")
    if isinstance(last, dict):
        text += "; last in boot %s after %ss: %s" % (last.get("boot"), last.get("uptime_s"),
                                                     last.get("error"))
    return text


def usage_line(event):
    """The visitors' figures of a ``health`` event in one line, or None for
    a board that counts none (older firmware)."""
    row = row_of(event, "")
    if row is None:
        return None
    return ("visitors: %d games started, %d finished, %d abandoned; %d moves, %d mistakes, "
            "%d takebacks; the board offered %d times, took %d side(s), gave %d back"
            % (row["games_started"], row["games_finished"], row["games_abandoned"],
               row["moves"], row["mistakes"], row["takebacks"], row["offers"],
               row["takeovers"], row["hand_backs"]))
