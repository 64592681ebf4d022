"""firmware/usage.py on the MicroPython unix port: the figures counted from
a museum game's events, saved, read back after a "restart", and a damaged
file counted afresh. Plain asserts; run from the repository root as

    micropython -X heapsize=112k tests/mp/usage_mp.py [scratch folder]

tests/firmware_tests/test_usage.py runs it from pytest.
"""

import os
import sys
import time

sys.path.insert(0, ".")
sys.path.insert(0, "tests/mp")
SCRATCH = sys.argv[1] if len(sys.argv) > 1 else "/tmp"

from firmware.usage import FILE, Usage  # noqa: E402
from runner import check, done  # noqa: E402

GAME = ({"event": "museum", "what": "attract"}, {"event": "museum", "what": "wake"},
        {"event": "start", "side": "W"}, {"event": "move", "side": "W", "move": "10-11"},
        {"event": "museum", "what": "offer", "side": "B"},
        {"event": "museum", "what": "computer", "side": "B"},
        {"event": "mismatch", "extra": [3], "missing": []}, {"event": "undo"})


def a_game_is_counted_saved_and_read_back():
    usage = Usage(SCRATCH)
    t = time.ticks_add(0, -100000)        # the ms counter wraps during the game
    for event in GAME:
        assert usage.see(event, t, "hungarian") is False
        t = time.ticks_add(t, 30000)
    assert usage.see({"event": "game_over", "winner": "W"}, t, "hungarian") is True
    assert usage.save() is True
    got = Usage(SCRATCH).report()
    assert got["games"]["hungarian"]["finished"] == 1
    assert got["games"]["hungarian"]["started"] == 1
    assert got["moves"] == 1 and got["takeovers"] == 1 and got["offers"] == 1
    assert got["attract_s"] == 30 and got["play_s"] == 180


def a_damaged_file_counts_afresh():
    f = open(SCRATCH + "/" + FILE, "w")
    f.write('{"moves": 3, "games": ')
    f.close()
    assert Usage(SCRATCH).report()["moves"] == 0
    os.remove(SCRATCH + "/" + FILE)


check("a_game_is_counted_saved_and_read_back", a_game_is_counted_saved_and_read_back)
check("a_damaged_file_counts_afresh", a_damaged_file_counts_afresh)
sys.exit(done())
