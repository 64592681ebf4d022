"""`senet-board show` plugged into a board after it joined a room through
`link`: the page names the opponent far away from its first picture, not
the computer, though it never saw the `room` event of the join nor a throw
of theirs. The board says its seat in its `state` reply (docs/protocol.md),
which show asks for as it connects.

The board is the CPython stand-in of test_room_link.py (the real App and
serial command path, its room carried by link's Bridge through a real
Mosquitto); show's own Reader reads it through a cable in its own thread.
Real-time waits only catch a hang.
"""

import json

from mqtt_broker import broker  # noqa: F401  (the fixture)
from host_tools.board.show import Mirror
from remote_tests.pair import Hang, PASSPHRASE, Board, one_pass
from remote_tests.showcable import Cable, plug_in
from remote_tests.test_room_link import UsbBoard

HELLO = {"event": "hello", "version": "test", "ruleset": "kendall", "mode": "two_players"}


class CabledBoard(UsbBoard):
    """The USB board, with show's cable beside link's once it is plugged in."""

    cable = None

    def step(self):
        out = UsbBoard.step(self)
        if self.cable is not None:
            self.cable.say(out)
            self.events.extend(self.cable.serve(self.app, HELLO))
        return out



def test_show_opened_after_the_join_names_the_far_opponent_from_the_start(broker):  # noqa: F811
    usb = CabledBoard(broker.port, seed=41)
    other = Board("W", broker.port, seed=41)
    reader = None
    try:
        usb.setup()
        other.setup()
        hang = Hang("the boards until white's throw")
        while not (usb.app.state == "throw" and usb.app.turn == "W" and usb.events_of("start")):
            one_pass(usb, other, hang)
        mirror = Mirror("/dev/ttyACM0")
        usb.cable = Cable()
        reader = plug_in(mirror, usb.cable)
        hang = Hang("show's first picture of the board")
        while mirror.board["state"] is None:
            hang.check(mirror.received)
            usb.wait(20)
        words = mirror.snapshot()["explain"]
        said = json.dumps(words)
        assert words["instruction"] == [["do.remote_throws.W", {}]], said
        keys = [key for key, args in words["status"] + words["instruction"]]
        assert not [key for key in keys if "computer" in key], said
        seats = [e for e in usb.events_of("state") if "remote" in e]
        assert seats and seats[0]["remote"]["side"] == "W", seats
        for e in usb.events_of("state"):
            assert PASSPHRASE not in json.dumps(e)
            assert usb.room.root not in json.dumps(e)      # nor the topics' key
    finally:
        if reader is not None:
            reader.stop()
        usb.close()
        other.close()
