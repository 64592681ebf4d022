"""`senet-board stats FILE.csv`: the board's usage figures as a picture.

The CSV is the one `senet-board show --usage` or `monitor --usage` keeps
(host_tools/board/usage_csv.py): a row a day of the running totals the
board counts (firmware/usage.py). A day's own figures are its row less the
row before, so the first row is where the counting on this laptop began; a
total that falls (a new board, an erased flash) counts again from zero.

The picture is an SVG, drawn here without a plotting library: for every
day a bar of the games finished with the games abandoned on top, and a dot
for the typical length of a finished game that day (the day's time in
finished games over their number). The summary names the days, the games,
the busiest day, the typical length over them all, and the hours in games
against the hours of the travelling light (a board waiting for visitors).
"""

import csv
import os
import sys

from host_tools.board.usage_csv import columns

WIDTH, HEIGHT = 900, 520
LEFT, RIGHT = 70, 30
BARS_TOP, BARS_BOTTOM = 60, 300          # games per day
DOTS_TOP, DOTS_BOTTOM = 350, 470         # minutes a finished game
FINISHED, ABANDONED, LENGTH = "#0072b2", "#e69f00", "#009e73"   # Okabe-Ito
NEEDED = ("date", "games_finished", "games_abandoned", "finished_s")
TIMES = ("play_s", "attract_s")          # read when there, else 0


class StatsError(Exception):
    """A file stats cannot read, said in one sentence."""


def read_days(path):
    """[(date, finished, abandoned, finished_s, play_s, attract_s)] a day,
    from the CSV at ``path``."""
    try:
        with open(path, encoding="utf-8", newline="") as f:
            reader = csv.DictReader(f)
            rows = list(reader)
            header = reader.fieldnames or []
    except FileNotFoundError:
        raise StatsError("%s: no such file (name the CSV that show or monitor --usage keeps)"
                         % path)
    except (OSError, UnicodeDecodeError, csv.Error) as e:
        raise StatsError("%s cannot be read: %s" % (path, e))
    if not header or any(name not in header for name in NEEDED):
        raise StatsError("%s is not a usage CSV: its columns should be %s"
                         % (path, ",".join(columns()[:6]) + ",..."))
    if len(rows) < 2:
        raise StatsError("%s holds one row, where counting began: a day's figures are "
                         "its row less the one before, so come back after a day" % path)
    days = []
    for before, row in zip(rows, rows[1:]):
        figures = [_since(before, row, name) for name in NEEDED[1:] + TIMES]
        days.append((row["date"],) + tuple(figures))
    return days


def _number(row, name):
    try:
        value = int(row.get(name) or 0)
    except ValueError:
        raise StatsError("the row of %s has %r for %s, not a count"
                         % (row.get("date"), row.get(name), name))
    return max(value, 0)


def _since(before, row, name):
    """The day's own figure: the growth of a running total, or the whole
    total when it fell (it began again from zero)."""
    now, then = _number(row, name), _number(before, name)
    return now - then if now >= then else now


def summary(days, out_path):
    finished = sum(d[1] for d in days)
    abandoned = sum(d[2] for d in days)
    busiest = max(days, key=lambda d: (d[1] + d[2], d[0]))
    lines = ["%d days, %s to %s" % (len(days), days[0][0], days[-1][0]),
             "%d games: %d finished, %d abandoned" % (finished + abandoned, finished, abandoned),
             "%.1f games a day; busiest day: %s, %d games"
             % ((finished + abandoned) / len(days), busiest[0], busiest[1] + busiest[2])]
    if finished:
        lines.append("a finished game takes %.1f minutes"
                     % (sum(d[3] for d in days) / finished / 60))
    lines.append("in games %.1f h, in the travelling light %.1f h"
                 % (sum(d[4] for d in days) / 3600, sum(d[5] for d in days) / 3600))
    lines.append("picture: %s" % out_path)
    return "\n".join(lines)


def _scale(top):
    """A round step for an axis reaching ``top``."""
    for step in (1, 2, 5, 10, 20, 25, 50, 100, 200, 500, 1000):
        if top / step <= 6:
            return step
    return 1000


def draw(days):
    """The SVG text: bars of games per day, dots of a finished game's minutes."""
    n = len(days)
    slot = (WIDTH - LEFT - RIGHT) / n
    most = max([d[1] + d[2] for d in days] + [1])
    step = _scale(most)
    top = -(-most // step) * step
    per_game = (BARS_BOTTOM - BARS_TOP) / top
    minutes = [(d[3] / d[1] / 60) if d[1] else None for d in days]
    longest = max([m for m in minutes if m is not None] + [1])
    mstep = _scale(longest)
    mtop = -(-int(longest + 0.999) // mstep) * mstep
    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" '
           'viewBox="0 0 %d %d" font-family="sans-serif" font-size="13">'
           % (WIDTH, HEIGHT, WIDTH, HEIGHT),
           '<rect width="%d" height="%d" fill="white"/>' % (WIDTH, HEIGHT),
           '<text x="%d" y="28" font-size="18" font-weight="bold">Senet board: games a day, '
           '%s to %s</text>' % (LEFT, days[0][0], days[-1][0])]
    out += _axis(BARS_TOP, BARS_BOTTOM, top, step, "games")
    out += _axis(DOTS_TOP, DOTS_BOTTOM, mtop, mstep, "minutes a finished game")
    for i, (date, finished, abandoned) in enumerate(d[:3] for d in days):
        x = LEFT + i * slot + slot * 0.15
        w = slot * 0.7
        h_f, h_a = finished * per_game, abandoned * per_game
        out.append('<rect data-kind="finished" data-date="%s" x="%.2f" y="%.2f" width="%.2f" '
                   'height="%.2f" fill="%s"/>' % (date, x, BARS_BOTTOM - h_f, w, h_f, FINISHED))
        out.append('<rect data-kind="abandoned" data-date="%s" x="%.2f" y="%.2f" '
                   'width="%.2f" height="%.2f" fill="%s"/>'
                   % (date, x, BARS_BOTTOM - h_f - h_a, w, h_a, ABANDONED))
        if n <= 31 or i % (n // 15 + 1) == 0:
            out.append('<text x="%.2f" y="%d" text-anchor="middle" font-size="11">%s</text>'
                       % (x + w / 2, DOTS_BOTTOM + 20, date[5:]))
        if minutes[i] is not None:
            y = DOTS_BOTTOM - minutes[i] / mtop * (DOTS_BOTTOM - DOTS_TOP)
            out.append('<circle data-kind="length" data-date="%s" data-minutes="%.2f" '
                       'cx="%.2f" cy="%.2f" r="5" fill="%s"/>'
                       % (date, minutes[i], x + w / 2, y, LENGTH))
    out += _legend()
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _axis(y_top, y_bottom, top, step, label):
    parts = ['<text x="%d" y="%d" font-size="12">%s</text>' % (LEFT, y_top - 10, label)]
    value = 0
    while value <= top:
        y = y_bottom - value / top * (y_bottom - y_top)
        parts.append('<line x1="%d" x2="%d" y1="%.2f" y2="%.2f" stroke="#ccc"/>'
                     % (LEFT, WIDTH - RIGHT, y, y))
        parts.append('<text x="%d" y="%.2f" text-anchor="end">%d</text>'
                     % (LEFT - 8, y + 4, value))
        value += step
    return parts


def _legend():
    x = WIDTH - RIGHT - 330
    parts = []
    for i, (colour, text) in enumerate(((FINISHED, "finished"), (ABANDONED, "abandoned"),
                                        (LENGTH, "minutes a finished game"))):
        parts.append('<rect x="%d" y="40" width="12" height="12" fill="%s"/>'
                     % (x + i * 95, colour))
        parts.append('<text x="%d" y="51">%s</text>' % (x + i * 95 + 16, text))
    return parts


def add_arguments(parser):
    parser.add_argument("csv", metavar="FILE.csv",
                        help="the CSV that `show --usage` or `monitor --usage` keeps")
    parser.add_argument("--out", metavar="FILE.svg",
                        help="where to write the picture (default: beside the CSV, .svg)")


def run(args):
    out_path = args.out or os.path.splitext(args.csv)[0] + ".svg"
    try:
        if not out_path.lower().endswith(".svg"):
            raise StatsError("the picture is an SVG: name a file ending in .svg")
        days = read_days(args.csv)
        text = draw(days)
        try:
            with open(out_path, "w", encoding="utf-8") as f:
                f.write(text)
        except OSError as e:
            raise StatsError("%s cannot be written: %s" % (out_path, e.strerror or e))
    except StatsError as e:
        print("senet-board stats: %s" % e, file=sys.stderr)
        return 1
    print(summary(days, out_path))
    return 0
