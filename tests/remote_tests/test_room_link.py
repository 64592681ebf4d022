"""`senet-board link`: a USB board plays a whole game against another board
through a real broker, the laptop carrying its room's messages both ways
over the serial line. The USB board is a stand-in: the real App behind the
real serial command path (firmware/board.py's ``app_command``), its lines
handed to link's Bridge as a cable would."""

import io
import json
import random
import time

from mqtt_broker import broker  # noqa: F401  (the fixture)
from board_sim import BoardSim
from firmware.board import app_command
from firmware.protocol import encode
from firmware.room import actions
from host_tools.remote.link import Bridge
from host_tools.remote.seat import connect
from remote_tests.pair import Hang, PASSPHRASE, ROOM, Board, one_pass, words


class Settings:
    room, side, passphrase = ROOM, "B", PASSPHRASE
    tls, ca, username, password, host = False, None, None, None, "127.0.0.1"

    def __init__(self, port):
        self.port = port


class UsbBoard(BoardSim):
    """A board on a USB cable: command lines in, event lines out."""

    def __init__(self, port, seed):
        self.lines = []               # what the laptop wrote, not yet read
        self.printed = io.StringIO()
        self.bridge = None
        BoardSim.__init__(self, config={"ruleset": "kendall"},
                          rng=random.Random(seed * 2).getrandbits)
        self.seat = "B"
        self.hand = random.Random(seed * 7)
        self.carry = random.Random(seed * 11)     # the other side's moves (pair.Board)
        self.bridge = Bridge(Settings(port), self.lines.append, out=self.printed,
                             connect=lambda s, room, client_id: connect(
                                 s, room, client_id, retry_s=(0.05, 0.5)))
        self.bridge.join()

    @property
    def room(self):
        return self.app.computer.room

    def step(self):
        out = BoardSim.step(self)
        if self.bridge is None:
            return out
        self._cable(out)
        while self.lines:
            events = app_command(self.app, self.lines.pop(0))
            self.events.extend(events)
            self._cable(events)
        self.bridge.poll()
        return out

    def _cable(self, events):
        for e in events:
            self.bridge.feed((encode(e) + "\n").encode())

    act = Board.act

    def close(self):
        self.bridge.close()


def test_a_usb_board_plays_a_whole_game_through_link(broker):  # noqa: F811
    usb = UsbBoard(broker.port, seed=41)
    other = Board("W", broker.port, seed=41)
    try:
        usb.setup()
        other.setup()
        hang = Hang("the USB board's game")
        for _ in range(20000):
            if usb.app.state == "game_over" and other.app.state == "game_over":
                break
            if not one_pass(usb, other, hang):
                time.sleep(0.001)
        assert [w for s, w in actions(usb.app.game)] == words(other)
        printed = usb.printed.getvalue()
        assert '"event": "throw"' in printed and '"event": "room"' not in printed
        assert PASSPHRASE not in printed
        for e in usb.events:
            assert PASSPHRASE not in json.dumps(e)
    finally:
        usb.close()
        other.close()


def test_a_bad_join_is_refused_in_words_and_never_repeats_the_passphrase():
    board = BoardSim()
    line = json.dumps({"cmd": "join", "room": ROOM, "passphrase": "short", "side": "B"})
    events = app_command(board.app, line)
    assert events == [{"event": "error", "message": "join: passphrase must be 8 to 128 characters"}]
    assert board.app.computer is None
    events = app_command(board.app, json.dumps({"cmd": "room", "online": True}))
    assert events == [{"event": "error", "message": "room: join a room first"}]
