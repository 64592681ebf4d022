"""`senet-board stats FILE.csv`: the usage figures as a picture staff would
rather look at than read: games per day, finished against abandoned, and the
typical length of a game, plus a few lines of summary.

The week here is simulated the whole way: the board's own counter
(firmware/usage.py) sees each day's games as the App reports them, its
health events are kept by the laptop's CSV (host_tools/board/usage_csv.py)
one row a day, and stats reads that file.
"""

import xml.etree.ElementTree as ET

import pytest

from firmware.usage import Usage
from host_tools import cli
from host_tools.board.usage_csv import UsageLog

# Each day of the simulated week: (games finished, games abandoned, minutes a finished game)
WEEK = [(12, 3, 9), (20, 6, 8), (7, 1, 11), (0, 0, 0), (25, 10, 7), (30, 8, 8), (16, 4, 10)]
DATES = ["2026-11-%02d" % d for d in range(23, 30)]
SVG = "{http://www.w3.org/2000/svg}"


def play_day(usage, t, finished, abandoned, minutes):
    """One museum day as the App's events tell it; returns the clock after."""
    for g in range(finished + abandoned):
        usage.see({"event": "museum", "what": "attract"}, t, "kendall")
        t += 120000                        # two minutes of the travelling light
        usage.see({"event": "museum", "what": "wake"}, t, "kendall")
        usage.see({"event": "start", "side": "W"}, t, "kendall")
        t += minutes * 60000 if g < finished else 4 * 60000
        end = {"event": "game_over", "winner": "W"} if g < finished else {"event": "new"}
        usage.see({"event": "move"}, t, "kendall")
        if usage.see(end, t, "kendall"):
            usage.save()
        t += 60000
    return t


def a_week(tmp_path):
    path = str(tmp_path / "usage.csv")
    usage = Usage(None)
    day = ["2026-11-22"]
    log = UsageLog(path, today=lambda: day[0])
    health = {"event": "health", "boots": 1, "crashes": 0}
    log.health(dict(health, usage=usage.report()))            # installed: the evening before
    t = 0
    for date, (finished, abandoned, minutes) in zip(DATES, WEEK):
        day[0] = date
        log.health(dict(health, usage=usage.report()))        # the morning's report
        t = play_day(usage, t, finished, abandoned, minutes)
        log.health(dict(health, usage=usage.report()))        # the evening's
    return path


def test_the_summary_counts_the_week(tmp_path, capsys):
    path = a_week(tmp_path)
    out = str(tmp_path / "week.svg")
    assert cli.main(["stats", path, "--out", out]) == 0
    text = capsys.readouterr().out
    assert "7 days, 2026-11-23 to 2026-11-29" in text
    assert "142 games: 110 finished, 32 abandoned" in text
    assert "busiest day: 2026-11-28, 38 games" in text
    finished_minutes = sum(f * m for f, _, m in WEEK)
    assert "a finished game takes %.1f minutes" % (finished_minutes / 110) in text
    assert out in text
    # the time in games against the time the board waited with its travelling light
    in_games = sum((f * m + a * 4) * 60 for f, a, m in WEEK) / 3600
    assert "in games %.1f h, in the travelling light %.1f h" % (in_games, 142 * 2 / 60) in text


def test_the_picture_has_a_bar_pair_a_day_in_proportion(tmp_path):
    path = a_week(tmp_path)
    out = tmp_path / "week.svg"
    assert cli.main(["stats", path, "--out", str(out)]) == 0
    root = ET.parse(str(out)).getroot()
    assert root.tag == SVG + "svg"
    bars = {}
    for rect in root.iter(SVG + "rect"):
        kind, date = rect.get("data-kind"), rect.get("data-date")
        if kind in ("finished", "abandoned"):
            bars[(kind, date)] = float(rect.get("height"))
    assert len(bars) == 14
    per_game = bars[("finished", "2026-11-28")] / 30
    for date, (finished, abandoned, _) in zip(DATES, WEEK):
        assert bars[("finished", date)] == pytest.approx(finished * per_game, abs=0.01)
        assert bars[("abandoned", date)] == pytest.approx(abandoned * per_game, abs=0.01)
    lengths = {c.get("data-date"): float(c.get("data-minutes"))
               for c in root.iter(SVG + "circle") if c.get("data-kind") == "length"}
    assert sorted(lengths) == [d for d, w in zip(DATES, WEEK) if w[0]]
    assert lengths["2026-11-25"] == pytest.approx(11)
    texts = " ".join(t.text or "" for t in root.iter(SVG + "text"))
    assert "finished" in texts and "abandoned" in texts and "minutes" in texts


def test_a_counter_that_starts_again_counts_from_zero_not_below(tmp_path, capsys):
    """A board replaced (or its flash erased) reports small figures again."""
    path = str(tmp_path / "usage.csv")
    day = ["2026-12-01"]
    log = UsageLog(path, today=lambda: day[0])

    def report(finished):
        return {"event": "health", "boots": 1, "crashes": 0,
                "usage": {"games": {"kendall": {"started": finished, "finished": finished,
                                                "abandoned": 0}}, "moves": 0}}
    log.health(report(50))
    day[0] = "2026-12-02"
    log.health(report(60))
    day[0] = "2026-12-03"
    log.health(report(4))                    # a new board: 4 games since it came
    assert cli.main(["stats", path, "--out", str(tmp_path / "s.svg")]) == 0
    assert "14 games: 14 finished, 0 abandoned" in capsys.readouterr().out


@pytest.mark.parametrize("content, says", [
    (None, "no such file"),
    ("date,visitors\n2026-11-30,12\n", "not a usage CSV"),
    ("", "not a usage CSV"),
])
def test_bad_files_get_one_line_and_no_picture(tmp_path, capsys, content, says):
    path = tmp_path / "usage.csv"
    if content is not None:
        path.write_text(content)
    out = tmp_path / "s.svg"
    assert cli.main(["stats", str(path), "--out", str(out)]) == 1
    err = capsys.readouterr().err.strip()
    assert says in err and "\n" not in err and err.startswith("senet-board stats: ")
    assert not out.exists()


def test_one_row_is_not_yet_a_day(tmp_path, capsys):
    path = str(tmp_path / "usage.csv")
    UsageLog(path, today=lambda: "2026-12-01").health(
        {"event": "health", "usage": {"games": {}, "moves": 0}})
    assert cli.main(["stats", path, "--out", str(tmp_path / "s.svg")]) == 1
    assert "one row" in capsys.readouterr().err


def test_a_png_is_refused_with_what_to_do(tmp_path, capsys):
    path = a_week(tmp_path)
    assert cli.main(["stats", path, "--out", str(tmp_path / "s.png")]) == 1
    assert ".svg" in capsys.readouterr().err
