"""`senet-board monitor`: a board watched live, its game written down.

A scripted pseudo-terminal plays the part of the board: it waits for the
monitor's first request, then sends the events of a whole game with noise in
between (boot text, a traceback, half a line, binary garbage). The record the
monitor writes must replay to the same game.
"""

import io
import json
import os
import pty
import re
import threading
import time
import tty

import pytest

from engine import ruleset
from engine.game import Game, play_game
from engine.record import read
from host_tools.board import monitor
from standin.boards import deployed
from standin.scenario import KENDALL_START, hook
import paths

GARBAGE = [b"MPY: soft reboot", b"Traceback (most recent call last):",
           b'  File "main.py", line 2', b"\xff\xfe\x00garbage\x80", b'{"event": ',
           b'{"event": 42}', b"[1, 2, 3]", b'{"no": "event"}',
           b'{"event": "state", "roles": "not a list", "position": 7}']


def game_events(game):
    """The events a board sends while ``game`` is played on it (docs/protocol.md)."""
    events = [{"event": "hello", "version": "0.1.0", "ruleset": "kendall", "mode": "two_players"},
              {"event": "ready", "position": game.start.text(), "ruleset": "kendall",
               "resumed": False}]
    for i, value in enumerate(game.opening):
        events.append({"event": "throw", "side": None, "player": i % 2 + 1, "value": value,
                       "opening": True})
    replay = Game(game.ruleset, position=game.start)
    first = True
    for side, value, text, before in game.plies():
        if first:
            events.append({"event": "start", "side": side, "player": 1})
            first = False
        else:
            events.append({"event": "throw", "side": side, "value": value})
        replay.set_throw(value)
        if text is None:
            replay.pass_turn()
            events.append({"event": "pass", "side": side, "throw": value})
        else:
            replay.play(text)
            events.append({"event": "move", "side": side, "move": text,
                           "after": replay.position.text(), "again": False})
    events.append({"event": "game_over", "winner": game.winner, "score": game.score})
    return events


class ScriptedBoard:
    """A pty that answers like a board: waits for a command, then plays lines."""

    def __init__(self, lines):
        self.master, self.slave = pty.openpty()
        tty.setraw(self.slave)
        self.port = os.ttyname(self.slave)
        self.lines = lines
        self.heard = b""
        self.thread = threading.Thread(target=self.play, daemon=True)
        self.thread.start()

    def play(self):
        while b'"cmd"' not in self.heard:
            self.heard += os.read(self.master, 1024)
        for line in self.lines:
            os.write(self.master, line + b"\r\n")
            time.sleep(0.001)

    def close(self):
        os.close(self.master)
        os.close(self.slave)


def test_a_whole_game_is_recorded_through_noise(tmp_path):
    game = play_game(ruleset("kendall"), seed=7)
    lines = []
    for i, event in enumerate(game_events(game)):
        lines.append(json.dumps(event).encode())
        if i % 7 == 3:
            lines.append(GARBAGE[(i // 7) % len(GARBAGE)])
    lines += GARBAGE
    board = ScriptedBoard(lines)
    record = tmp_path / "game.txt"
    out = io.StringIO()
    try:
        assert monitor.monitor(board.port, str(record), plain=True, seconds=3, out=out) == 0
    finally:
        board.close()
    text = out.getvalue()
    assert "(not an event) Traceback" in text
    assert "game over: %s wins" % game.winner in text
    replayed = read(record.read_text()).game
    assert replayed.record() == game.record()
    assert replayed.winner == game.winner
    # the final view shows the board as the game ended
    final = game.position.text()
    assert "\n".join(monitor.draw_board(final, None)) in text
    assert "record: %s" % record in text


def test_the_board_is_drawn_along_the_path():
    position = "B" + "." * 9 + "W" + "." * 9 + "B" + "." * 9 + " W"
    roles = [""] * 30
    roles[0] = "movable"
    roles[14] = "target"
    rows = monitor.draw_board(position, roles)
    assert len(rows) == 3
    assert rows[0].split("|")[0].strip() == "->   1 B*"
    assert rows[1].split("|")[-1].strip() == "11 W"          # 11 ends the second row
    assert rows[1].split("|")[0].strip() == "<-  20 ."        # 20 starts it
    assert "15 .+" in rows[1]
    assert rows[2].split("|")[0].strip() == "->  21 B"


def test_a_live_board_on_the_stand_in(tmp_path):
    """The deployed firmware answers the monitor: version, pieces, lights."""
    with deployed(tmp_path / "flash", hook([(0, "place", KENDALL_START)])) as board:
        out = io.StringIO()
        record = tmp_path / "live.txt"
        monitor.monitor(board.port, str(record), plain=True, seconds=2.5, out=out)
    text = out.getvalue()
    assert "hello" in text
    assert "Senet board on %s: firmware 0.1.0, kendall" % board.port in text
    assert "->   1 B" in text and "10 W" in text
    lines = record.read_text().splitlines()
    assert lines[:2] == ["senet-game 2", "ruleset kendall"]
    assert re.match(r"date \d{4}-\d\d-\d\d$", lines[2]), lines[2]
    assert "start BWBWBWBWBW.................... W" in lines


# -- a board that goes silent ------------------------------------------------------------

class QuietBoard(ScriptedBoard):
    """Says hello and where the pieces stand, then nothing more: a board
    whose firmware has stopped. ``done`` is set once it has spoken."""

    def __init__(self, lines):
        self.done = threading.Event()
        ScriptedBoard.__init__(self, lines)

    def play(self):
        ScriptedBoard.play(self)
        self.done.set()


def test_a_board_that_goes_silent_is_named_silent_not_left_as_question_marks(tmp_path):
    """The monitor's clock is the test's: it stands still until the board has
    spoken, then runs a quarter second per look, so the silence is measured
    in the monitor's own time, whatever the machine's speed."""
    hello = {"event": "hello", "version": "0.1.0", "ruleset": "kendall", "mode": "two_players"}
    board = QuietBoard([json.dumps(hello).encode()])
    ticks = [0.0]

    def clock():
        if board.done.is_set():
            ticks[0] += 0.25
        return ticks[0]

    out = io.StringIO()
    try:
        assert monitor.monitor(board.port, str(tmp_path / "r.txt"), plain=True, seconds=40,
                               out=out, clock=clock) == 0
    finally:
        board.close()
    lines = out.getvalue().splitlines()
    silent = [n for n, text in enumerate(lines) if "board is silent" in text]
    assert silent, out.getvalue()
    hello_at = next(n for n, text in enumerate(lines) if text.startswith("hello "))
    assert hello_at < silent[0]
    # said once as it happens, once more in the final view, which counts the seconds
    assert len(silent) == 2
    assert "nothing heard for %d s" % monitor.SILENT_S in lines[silent[0]]
    final = lines[silent[1]]
    seconds = int(final.split("nothing heard for ")[1].split(" s")[0])
    assert 30 <= seconds <= 40


def test_the_view_says_the_board_is_silent_only_once_it_is():
    view = monitor.View("/dev/ttyACM0", monitor.Record(os.devnull), now=100.0)
    view.line(b'{"event": "hello", "version": "0.1.0"}', now=101.0)
    assert "silent" not in view.render(now=101.0 + monitor.SILENT_S - 0.5)
    text = view.render(now=101.0 + monitor.SILENT_S + 2)
    assert "The board is silent: nothing heard for %d s" % (monitor.SILENT_S + 2) in text


# -- where the record goes ---------------------------------------------------------------

def test_without_record_the_game_goes_to_the_users_data_folder_not_the_current_one(
        tmp_path, monkeypatch):
    """Run from a clone of the repository, the monitor once left senet-*.txt
    files in it. Now they go to the user's data folder, and it says where."""
    here = tmp_path / "clone"
    here.mkdir()
    monkeypatch.chdir(here)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    game = play_game(ruleset("kendall"), seed=3)
    board = ScriptedBoard([json.dumps(e).encode() for e in game_events(game)])
    out = io.StringIO()
    try:
        assert monitor.monitor(board.port, None, plain=True, seconds=2, out=out) == 0
    finally:
        board.close()
    assert os.listdir(str(here)) == []
    folder = monitor.records_folder()
    assert folder.startswith(str(tmp_path))
    records = os.listdir(folder)
    assert len(records) == 1 and records[0].startswith("senet-")
    path = os.path.join(folder, records[0])
    assert out.getvalue().splitlines()[0] == "Recording the game in %s" % path
    assert read(open(path).read()).game.record() == game.record()


def test_records_left_in_a_clone_are_ignored_by_git():
    import fnmatch
    root = paths.ROOT
    with open(os.path.join(root, ".gitignore")) as f:
        patterns = [p.strip() for p in f if p.strip() and not p.startswith("#")]
    assert any(fnmatch.fnmatch("senet-20260101-120000.txt", p) for p in patterns)
    assert any(fnmatch.fnmatch("senet-20260101-120000-2.txt", p) for p in patterns)


def test_a_record_in_a_folder_that_does_not_exist_is_refused_in_one_sentence(tmp_path):
    with pytest.raises(monitor.DeployError, match="not a file in an existing folder"):
        monitor.monitor("/dev/null", str(tmp_path / "no" / "game.txt"), plain=True,
                        seconds=1, out=io.StringIO())
