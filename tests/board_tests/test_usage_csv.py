"""The board's usage figures on the laptop: one CSV row a day.

The board reports its figures in every ``health`` event (at power-on,
every 5 minutes, and when asked): cumulative counts since installation
(firmware/usage.py). ``senet-board monitor --usage FILE.csv`` and ``show
--usage FILE.csv`` keep the day's last figures as that day's row, so a
laptop left beside the exhibit builds a table staff can open in a
spreadsheet, and ``senet-board stats`` draws.
"""

import csv
import os

import pytest

from host_tools.board import monitor
from host_tools.board.usage_csv import UsageLog, columns


def health(moves, finished=0, abandoned=0, started=None, boots=3, ruleset="kendall"):
    started = finished + abandoned if started is None else started
    return {"event": "health", "boots": boots, "crashes": 0, "uptime_s": 60,
            "usage": {"games": {ruleset: {"started": started, "finished": finished,
                                          "abandoned": abandoned}},
                      "moves": moves, "mistakes": 1, "takebacks": 0, "offers": 2,
                      "takeovers": 1, "hand_backs": 0, "play_s": 600 * finished,
                      "finished_s": 540 * finished, "attract_s": 100}}


def rows(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


class Day:
    """The laptop's calendar, set by the test."""

    def __init__(self, date):
        self.date = date

    def __call__(self):
        return self.date


def test_one_row_a_day_holds_the_days_last_figures(tmp_path):
    path = str(tmp_path / "usage.csv")
    day = Day("2026-12-01")
    log = UsageLog(path, today=day)
    assert log.health(health(10, finished=1))
    assert log.health(health(25, finished=2, abandoned=1))
    day.date = "2026-12-02"
    assert log.health(health(40, finished=3, abandoned=1))
    got = rows(path)
    assert [r["date"] for r in got] == ["2026-12-01", "2026-12-02"]
    assert got[0]["moves"] == "25" and got[0]["games_finished"] == "2"
    assert got[0]["finished_kendall"] == "2" and got[0]["abandoned_kendall"] == "1"
    assert got[1]["games_started"] == "4" and got[1]["boots"] == "3"
    with open(path) as f:
        assert f.readline().strip() == ",".join(columns())


def test_a_second_laptop_session_carries_on_the_same_file(tmp_path):
    path = str(tmp_path / "usage.csv")
    UsageLog(path, today=Day("2026-12-01")).health(health(5, finished=1))
    UsageLog(path, today=Day("2026-12-01")).health(health(9, finished=2))
    UsageLog(path, today=Day("2026-12-03")).health(health(12, finished=2))
    got = rows(path)
    assert [(r["date"], r["moves"]) for r in got] == [("2026-12-01", "9"), ("2026-12-03", "12")]


@pytest.mark.parametrize("event", [
    {"event": "health", "boots": 1, "crashes": 0},                     # older firmware
    {"event": "health", "usage": "lots"},
    {"event": "health", "usage": {"moves": "many", "games": {}}},
    {"event": "health", "usage": {"moves": -1, "games": {}}},
    {"event": "health", "usage": {"moves": 1, "games": {"kendall": [1, 2]}}},
])
def test_a_health_event_without_sound_figures_changes_nothing(tmp_path, event):
    path = str(tmp_path / "usage.csv")
    log = UsageLog(path, today=Day("2026-12-01"))
    log.health(health(5, finished=1))
    before = open(path).read()
    assert log.health(event) is False
    assert open(path).read() == before
    assert log.problem is None or "\n" not in log.problem


def test_a_file_with_other_columns_is_left_alone_with_one_sentence(tmp_path):
    path = tmp_path / "usage.csv"
    path.write_text("date,visitors\n2026-11-30,12\n")
    log = UsageLog(str(path), today=Day("2026-12-01"))
    assert log.health(health(5, finished=1)) is False
    assert path.read_text() == "date,visitors\n2026-11-30,12\n"
    assert "columns" in log.problem and "\n" not in log.problem


def test_the_monitor_writes_the_row_when_a_health_event_comes(tmp_path):
    path = str(tmp_path / "usage.csv")
    log = UsageLog(path, today=Day("2026-12-01"))
    view = monitor.View("/dev/ttyACM0", monitor.Record(os.devnull), now=0.0, usage=log)
    import json
    view.line(json.dumps(health(7, finished=1)).encode(), 1.0)
    assert rows(path)[0]["moves"] == "7"
    assert "usage: " + path in view.render(now=2.0)


def test_the_monitor_and_show_take_the_usage_option():
    import argparse
    from host_tools.board import show
    for module in (monitor, show):
        parser = argparse.ArgumentParser()
        module.add_arguments(parser)
        args = parser.parse_args(["--usage", "day.csv"])
        assert args.usage == "day.csv"


def test_show_keeps_the_row_from_the_health_events_it_mirrors(tmp_path):
    import json
    from host_tools.board.show import Mirror
    path = str(tmp_path / "usage.csv")
    mirror = Mirror("/dev/ttyACM0")
    mirror.usage = UsageLog(path, today=Day("2026-12-01"))
    mirror.line(json.dumps(health(11, finished=2)).encode())
    mirror.line(b'{"event": "health", "usage": "garbled"}')
    assert [r["moves"] for r in rows(path)] == ["11"]


def test_the_monitor_shows_the_visitors_figures_under_the_health_line():
    import json
    view = monitor.View("/dev/ttyACM0", monitor.Record(os.devnull), now=0.0)
    view.line(json.dumps(health(2150, finished=30, abandoned=10, started=41)).encode(), 1.0)
    text = view.render(now=2.0)
    assert ("visitors: 41 games started, 30 finished, 10 abandoned; 2150 moves, "
            "1 mistakes, 0 takebacks; the board offered 2 times, took 1 side(s), gave 0 back") in text
    view.line(b'{"event": "health", "boots": 4, "crashes": 0}', 3.0)   # an older board
    assert "visitors:" not in view.render(now=4.0)
