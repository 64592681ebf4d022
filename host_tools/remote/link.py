"""`senet-board link --room ROOM --side S`: a USB board in a remote game.

The laptop is the board's network card. It sends the board ``join`` with
the room, the passphrase (from the environment, over the cable only) and
the side; the board runs the room's protocol itself (firmware/usbroom.py)
and says what to publish in ``room`` events. The laptop publishes those on
the broker and hands every message it hears to the board as ``room``
commands, in pieces that fit a command line. Every other event the board
sends is printed, one JSON line each, as `senet-board monitor` prints them.

The passphrase and the broker's password appear in no line printed.
"""

import json
import sys
import time

from host_tools.board.serialport import add_port_argument, connect, parse_event
from host_tools.remote.seat import Settings, add_room_arguments, ask_passphrase
from host_tools.remote.seat import connect as connect_broker

PIECE = 240              # characters of a message per command line (JSON-escaped, < 512)
JOIN_S = 10              # how long the board may take to answer join


def add_arguments(parser):
    add_port_argument(parser)
    add_room_arguments(parser, required=True)


class BoardRoom:
    """The Room as the laptop sees it: on the board, reached over serial.
    It offers the Connection what a firmware.room.Room does."""

    def __init__(self, write, joined):
        self.write = write
        self.send = None
        self._topics = joined["topics"]
        self._will = joined["will"]

    def topics(self):
        return self._topics

    def will(self):
        return self._will[0], self._will[1].encode()

    def online(self):
        self._command({"cmd": "room", "online": True})    # the board answers in events
        return None

    def offline(self):
        self._command({"cmd": "room", "online": False})

    def on_message(self, topic, payload):
        text = payload.decode("utf-8", "replace")
        pieces = [text[i:i + PIECE] for i in range(0, len(text), PIECE)] or [""]
        for i, piece in enumerate(pieces):
            self._command({"cmd": "room", "topic": topic, "payload": piece,
                           "more": i < len(pieces) - 1})

    def _command(self, cmd):
        self.write((json.dumps(cmd) + "\n").encode())


class Bridge:
    """Serial lines in, broker messages out, and back: one pass at a time."""

    def __init__(self, settings, write, out=None, connect=connect_broker):
        self.settings = settings
        self.write = write
        self.out = out or sys.stdout
        self.connect = connect
        self.room = None
        self.conn = None
        self._buf = b""

    def join(self):
        s = self.settings
        self.write((json.dumps({"cmd": "join", "room": s.room, "passphrase": s.passphrase,
                                "side": s.side}) + "\n").encode())

    def feed(self, data):
        """Bytes from the board: each whole line handled."""
        self._buf += data
        while b"\n" in self._buf:
            line, self._buf = self._buf.split(b"\n", 1)
            event = parse_event(line)
            if event is not None:
                self.event(event)

    def event(self, event):
        if event["event"] != "room":
            self.out.write(json.dumps(event) + "\n")
            self.out.flush()
        elif event.get("what") == "joined":
            self.room = BoardRoom(self.write, event)
            self.conn = self.connect(self.settings, self.room,
                                     client_id="senet-link-%s" % self.settings.side)
            self.out.write(json.dumps({"event": "link", "room": self.settings.room,
                                       "side": self.settings.side}) + "\n")
        elif self.conn is not None and "topic" in event:
            self.conn.send(event["topic"], event["payload"].encode(), bool(event.get("retain")))

    def poll(self, wait_s=0):
        if self.conn is not None:
            self.conn.drain(wait_s)

    def close(self):
        if self.conn is not None:
            self.conn.stop()


def run(args):
    settings = Settings(args, ask=ask_passphrase)
    if settings.problem:
        print("senet-board link: %s" % settings.problem, file=sys.stderr)
        return 2
    try:
        port, ser = connect(args.port)
    except Exception as e:       # DeployError: the port's sentence
        print("senet-board link: %s" % e, file=sys.stderr)
        return 1
    bridge = Bridge(settings, ser.write)
    bridge.join()
    started = time.monotonic()
    try:
        while True:
            bridge.feed(ser.read(ser.in_waiting or 1))
            if bridge.conn is None and time.monotonic() - started > JOIN_S:
                print("senet-board link: the board on %s did not join the room; "
                      "deploy the firmware again (it needs firmware/usbroom.py)" % port,
                      file=sys.stderr)
                return 1
            bridge.poll()
    except KeyboardInterrupt:
        return 0
    finally:
        bridge.close()
        ser.close()
