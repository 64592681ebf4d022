"""`senet-board show` plugged in mid-game lists every move played before.

The stand-in Pico runs the deployed firmware on the MicroPython unix port;
its boot hook sets the pieces up and plays four moves (its sticks always
show one flat side: the opening's first 1 lets white start, K4, and every 1
throws again, K6), all before show is plugged in. Show asks the board for
its game (`{"cmd": "game"}`, docs/protocol.md) as it connects, and the move
list the page is served (/api/state) holds all four, the opening too.

Waits are for events, with a deadline that only catches a hang.
"""

import json
import urllib.request

import pytest

from host_tools.board import deploy
from host_tools.board.show import READ_ONLY_COMMANDS, Mirror, Reader
from standin.device import FAKES
from standin.scenario import KENDALL_START, hook
from served import serve
from board_tests.test_show_mirror import ONES, RecordingStandIn, unplug, wait_for

pytestmark = [pytest.mark.slow]

MOVES = ["10-11", "11-12", "12-13", "13-14"]


def script():
    """Pieces on 1..10, then for each move: a press (a 1), the piece carried."""
    steps = [(0, "place", KENDALL_START)]
    t = 5000
    for move in MOVES:
        origin, to = (int(s) for s in move.split("-"))
        steps += [(t, "press", ()), (t + 300, "release", ()),
                  (t + 1500, "lift", (origin,)), (t + 1900, "place", (to,))]
        t += 3500
    return steps


def said(dev, text):
    return any(text.encode() in data for t, data in dev.sent_at)


def test_show_plugged_in_after_four_moves_lists_all_four(tmp_path):
    dev = RecordingStandIn(str(tmp_path / "flash"), fakes=FAKES, boot_hook=ONES + hook(script()))
    dev.start()
    reader = server = thread = None
    try:
        deploy.deploy(dev.port)                       # resets the board: the script starts
        wait_for(lambda: said(dev, '"move": "13-14"'), "the stand-in's fourth move")
        dev.heard = bytearray()                       # from here on: what show sends
        mirror = Mirror(dev.port)
        reader = Reader(mirror, dev.port).start()     # show plugged in now
        server, thread = serve(mirror, read_only=True)

        def served():
            with urllib.request.urlopen(server.url + "api/state", timeout=30) as r:
                return json.loads(r.read().decode())
        wait_for(lambda: served()["app"]["state"] == "throw", "show's first picture of the board")
        wait_for(lambda: said(dev, '"event": "state"'), "the board's state reply")
        moves = served()["moves"]
        assert [p["move"] for p in moves["plies"]] == MOVES, moves
        plies = moves["plies"]
        assert [p["side"] for p in plies] == ["W"] * 4 and [p["throw"] for p in plies] == [1] * 4
        assert moves["start"] == "BWBWBWBWBW.................... W"
        lines = [line + b"\n" for line in bytes(dev.heard).split(b"\n") if line]
        assert set(lines) <= set(READ_ONLY_COMMANDS), lines    # show still only asks
    finally:
        unplug(dev, reader, server, thread)
