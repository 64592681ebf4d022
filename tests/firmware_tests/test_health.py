"""Unattended robustness: the crash log, the boot counter, the watchdog, and a
crash that restarts the board into the saved game (firmware.health and the
board loop, firmware/board.py, on the fake machine)."""

import json
import os
import sys

import pytest

import paths

HERE = paths.TESTS
sys.path.insert(0, os.path.join(HERE, "fakes"))

import machine  # noqa: E402  (tests/fakes/machine.py)
import neopixel  # noqa: E402

from engine import Position  # noqa: E402
from engine.game import Game  # noqa: E402
from engine.rules import ruleset  # noqa: E402
from firmware import board as board_loop  # noqa: E402
from firmware import hal  # noqa: E402
from firmware.app import App  # noqa: E402
from firmware.health import Health, MAX_ENTRIES, MAX_TEXT, describe  # noqa: E402
from firmware.store import Store  # noqa: E402

MID_GAME = "B.W........W.B................ W"


def events_in(text):
    out = []
    for line in text.splitlines():
        try:
            event = json.loads(line)
        except ValueError:
            continue
        if isinstance(event, dict) and "event" in event:
            out.append(event)
    return out


def test_every_boot_is_counted_and_kept_on_the_flash(tmp_path):
    assert Health(str(tmp_path)).boots == 1
    assert Health(str(tmp_path)).boots == 2
    health = Health(str(tmp_path))
    assert health.boots == 3 and health.crashes == 0
    assert json.loads((tmp_path / "health.json").read_text()) == {"boots": 3, "crashes": 0}


def test_a_damaged_count_file_starts_counting_again(tmp_path):
    (tmp_path / "health.json").write_text("{\"boots\": ")
    assert Health(str(tmp_path)).boots == 1
    (tmp_path / "health.json").write_text('{"boots": -4, "crashes": "x"}')
    health = Health(str(tmp_path))
    assert health.boots == 1 and health.crashes == 0


def test_uptime_adds_up_the_loop_time():
    health = Health(None, count_boot=False)
    for t in range(1000, 3_601_000, 5000):
        health.tick(t)
    assert health.event()["uptime_s"] == 3595
    assert health.due(0) and not health.due(1000) and health.due(300000)


def test_the_power_on_report_counts_as_the_periodic_one():
    health = Health(None, count_boot=False)
    assert health.report(5000)["event"] == "health"
    assert not health.due(5000) and not health.due(304999)
    assert health.due(305000)


def test_a_full_crash_log_never_grows_beyond_its_bound(tmp_path):
    health = Health(str(tmp_path))
    sizes = []
    for i in range(3 * MAX_ENTRIES + 5):
        health.tick(i * 1000)
        health.crash("crash %d: " % i + "x" * (MAX_TEXT * 3))
        sizes.append((tmp_path / "crash.log").stat().st_size)
    assert max(sizes) <= Health.max_bytes()
    assert sizes[-1] == sizes[-2]                       # full: it stays the same size
    log = Health(str(tmp_path)).log()
    assert len(log) == MAX_ENTRIES
    assert log[-1]["error"].endswith("x") and len(log[-1]["error"]) <= MAX_TEXT
    assert log[-1]["boot"] == 1
    assert json.loads((tmp_path / "health.json").read_text())["crashes"] == 3 * MAX_ENTRIES + 5
    event = Health(str(tmp_path)).event()
    assert event["event"] == "health" and event["crashes"] == 3 * MAX_ENTRIES + 5
    assert event["last_crash"] == log[-1] and event["boots"] == 3
    assert len(json.dumps(event)) < 4096                 # one serial line, bounded


def test_a_damaged_crash_log_keeps_its_good_lines(tmp_path):
    (tmp_path / "crash.log").write_text('{"boot": 1, "uptime_s": 2, "error": "a"}\n'
                                        'garbage\n[1]\n')
    health = Health(str(tmp_path))
    assert health.log() == [{"boot": 1, "uptime_s": 2, "error": "a"}]
    health.crash("b")
    assert [e["error"] for e in health.log()] == ["a", "b"]


def test_a_crash_is_described_by_the_end_of_its_traceback():
    def deep():
        raise RuntimeError("sensor on fire")
    try:
        deep()
    except RuntimeError as e:
        text = describe(e)
    assert text.endswith("RuntimeError: sensor on fire")
    assert "deep" in text and "\n" not in text and len(text) <= MAX_TEXT


# -- the board loop on the fake machine -------------------------------------------

@pytest.fixture
def pico(tmp_path, monkeypatch):
    """A board folder with a game saved mid-play and its pieces on the squares."""
    machine.board.reset()
    neopixel.reset()
    game = Game(ruleset("kendall"), position=Position.parse(MID_GAME))
    game.opening = [1]
    Store(str(tmp_path)).save(game)
    (tmp_path / "config.json").write_text(json.dumps({"ruleset": "kendall"}))
    machine.board.wire_matrix([2, 3, 4, 5, 6, 7], [8, 9, 10, 11, 12])
    for s in range(1, 31):
        if MID_GAME[s - 1] != ".":
            machine.board.place(s)
    monkeypatch.setattr(hal, "sleep_ms", lambda ms: None)
    monkeypatch.setattr(board_loop.SerialLines, "lines", lambda self: [])
    return tmp_path


def stop_after(monkeypatch, steps, exc):
    real = App.step
    count = [0]

    def step(self, now_ms, occupancy, button):
        count[0] += 1
        if count[0] >= steps:
            raise exc
        return real(self, now_ms, occupancy, button)
    monkeypatch.setattr(App, "step", step)


def run_board(pico):
    return board_loop.run(str(pico / "config.json"), str(pico))


def test_an_exception_in_a_step_is_logged_and_the_board_restarts_into_the_saved_game(
        pico, monkeypatch, capsys):
    stop_after(monkeypatch, 400, ZeroDivisionError("injected"))
    with pytest.raises(machine.Reset):
        run_board(pico)
    out = events_in(capsys.readouterr().out)
    assert machine.board.resets == 1
    assert machine.board.watchdog.timeout == 8000 and machine.board.watchdog.feeds > 300
    crashed = [e for e in out if e["event"] == "error"]
    assert crashed and "injected" in crashed[-1]["message"]
    health = [e for e in out if e["event"] == "health"]
    assert health[0]["boots"] == 1 and health[0]["crashes"] == 0      # at boot
    assert health[-1]["crashes"] == 1
    assert "ZeroDivisionError: injected" in health[-1]["last_crash"]["error"]
    log = Health(str(pico), count_boot=False).log()
    assert len(log) == 1 and log[0]["boot"] == 1
    assert "injected" in log[0]["error"] and "step" in log[0]["error"]
    # After the restart: the same game, checked against the pieces, goes on.
    monkeypatch.undo()
    monkeypatch.setattr(hal, "sleep_ms", lambda ms: None)
    monkeypatch.setattr(board_loop.SerialLines, "lines", lambda self: [])
    stop_after(monkeypatch, 400, KeyboardInterrupt())
    with pytest.raises(KeyboardInterrupt):
        run_board(pico)
    out = events_in(capsys.readouterr().out)
    ready = [e for e in out if e["event"] == "ready"]
    assert ready == [{"event": "ready", "position": MID_GAME, "ruleset": "kendall",
                      "resumed": True}]
    health = [e for e in out if e["event"] == "health"]
    assert health[0]["boots"] == 2 and health[0]["crashes"] == 1
    assert [e for e in out if e["event"] == "hello"][0]["watchdog"] is False


def test_power_on_sends_one_health_event_and_the_next_five_minutes_later(pico, monkeypatch,
                                                                        capsys):
    clock = [1000]

    def ticks_ms():
        return clock[0]

    def sleep_ms(ms):
        clock[0] += 100                  # one loop: 100 ms (its pause ends each one)
    monkeypatch.setattr(hal, "ticks_ms", ticks_ms)
    monkeypatch.setattr(hal, "sleep_ms", sleep_ms)
    stop_after(monkeypatch, 2990, KeyboardInterrupt())    # 299 s of loops
    with pytest.raises(KeyboardInterrupt):
        run_board(pico)
    out = events_in(capsys.readouterr().out)
    names = [e["event"] for e in out]
    assert names[:2] == ["hello", "health"]
    assert names.count("health") == 1    # not a second one from the loop's first turn
    monkeypatch.undo()
    monkeypatch.setattr(hal, "sleep_ms", sleep_ms)
    monkeypatch.setattr(board_loop.SerialLines, "lines", lambda self: [])
    monkeypatch.setattr(hal, "ticks_ms", ticks_ms)
    clock[0] = 1000
    stop_after(monkeypatch, 3010, KeyboardInterrupt())    # just past 300 s
    with pytest.raises(KeyboardInterrupt):
        run_board(pico)
    out = events_in(capsys.readouterr().out)
    assert [e["event"] for e in out].count("health") == 2


def test_the_next_app_resumes_the_game_saved_before_the_crash(tmp_path):
    from board_sim import BoardSim, board_at, throws
    board = board_at(MID_GAME, tmp_path, rng=throws(2))
    board.press()
    board.swap(12, 14)
    after = board.app.position
    board.lift(16)                       # a hand on a piece when the crash comes
    with pytest.raises(ZeroDivisionError):
        board.app._board_changed = lambda old, occ: 1 / 0
        board.lift(14)
    again = BoardSim(config={"ruleset": "kendall"}, store_dir=str(tmp_path), rng=throws())
    again.setup()
    assert again.last("ready") == {"event": "ready", "position": after,
                                   "ruleset": "kendall", "resumed": True}


def test_the_health_command_answers_on_the_serial_line():
    assert board_loop._board_command('{"cmd": "health"}') == {"cmd": "health"}


def test_the_monitor_shows_boots_uptime_and_the_last_crashes(tmp_path):
    from host_tools.board import monitor
    health = Health(str(tmp_path))
    health.tick(0)
    health.tick(3 * 3600 * 1000 + 125 * 1000)
    health.crash("ZeroDivisionError: injected")
    view = monitor.View("/dev/ttyACM0", monitor.Record(str(tmp_path / "rec.txt")))
    view.line(json.dumps(health.event()).encode())
    screen = view.render()
    assert "health: boot 1, up 3h02m" in screen and "1 crash(es) logged" in screen
    assert "crash in boot 1 after 10925s: ZeroDivisionError: injected" in screen
    assert monitor.describe(health.event()).startswith("health: boot 1")


def test_the_monitor_shows_free_memory_and_the_lowest_since_boot():
    from host_tools.board import monitor
    line = monitor.health_line({"event": "health", "boots": 2, "uptime_s": 61,
                                "mem_free": 180224, "mem_low": 150528, "crashes": 0})
    assert line == ("health: boot 2, up 0h01m, 176.0 KB free (lowest 147.0 KB), "
                    "0 crash(es) logged")
    older = monitor.health_line({"event": "health", "boots": 2, "uptime_s": 61, "crashes": 0})
    assert older == "health: boot 2, up 0h01m, 0 crash(es) logged"


def test_a_throw_shown_just_before_the_self_test_is_saved_before_it(pico, monkeypatch):
    """Show first, save after: the save comes with the App's next step. In
    the self-test the App is not stepped, so a throw (or move) shown in the
    pass that began it must be saved before the self-test starts; a power cut
    during the self-test then gives it back."""
    passes = [0]

    def serial_lines(self):
        passes[0] += 1
        if passes[0] == 100:         # the resumed game is at rest by then: W throws
            return ['{"cmd": "throw"}', '{"cmd": "selftest"}']
        return []
    monkeypatch.setattr(board_loop.SerialLines, "lines", serial_lines)
    thrown = []
    real_command = App.command

    def command(app, cmd):
        out = real_command(app, cmd)
        thrown.extend(e for e in out if e["event"] == "throw")
        return out
    monkeypatch.setattr(App, "command", command)
    clock = [1000]
    count = [0]

    def sleep_ms(ms):                # the loop's pace, counted: a cut after 200 passes
        count[0] += 1
        if count[0] >= 200:
            raise KeyboardInterrupt()
        clock[0] += ms
    monkeypatch.setattr(hal, "ticks_ms", lambda: clock[0])
    monkeypatch.setattr(hal, "sleep_ms", sleep_ms)
    with pytest.raises(KeyboardInterrupt):
        run_board(pico)
    assert len(thrown) == 1 and thrown[0]["side"] == "W"
    game, reason = Store(str(pico)).load()
    assert reason is None and game.throw == thrown[0]["value"]
