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
import threading
import time
import tty

import pytest

from engine import ruleset
from engine.game import Game, play_game
from host_tools import monitor
from standin.boards import deployed
from standin.scenario import KENDALL_START, hook

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
    replayed = Game.from_record(record.read_text())
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
    assert record.read_text().splitlines()[:3] == [
        "senet-game 1", "ruleset kendall", "start BWBWBWBWBW.................... W"]
