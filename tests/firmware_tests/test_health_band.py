"""The health event's memory figure is steady over hours of play.

On an emulated Pico the ``mem_free`` of the health event swung from 178,752
bytes at power-on to 10,752 at five minutes and back to 117,040: it was read
as the heap stood, garbage and all, and staff watching ``monitor`` would
have read a board about to run out of memory. Now it is measured after a
collection, at a quiet moment, with the lowest since boot beside it.

Here the real board loop (firmware/board.py) runs on the MicroPython unix
port from .mpy files, in a heap with the Pico's number of blocks, on the
fake machine (tests/fakes), its clock simulated (tests/loop_hands.py: each
loop pass takes 20 ms), so two hours of the board's life take seconds, and
nothing here depends on how fast the host is. Scripted hands play game after
game through the loop's scanner and button, pausing to think between actions
as players do, and start a new game with a long press at each end. Every
health event the loop prints (one at power-on, one every five minutes) is
read back.
"""

import json
import os
import subprocess

import pytest

from mpyhelp import ROOT, compile_lib, tool

pytestmark = pytest.mark.micropython

HOURS = 2
HEAP = "480K"                  # the Pico's number of blocks (docs/dev/firmware-modules.md)
BAND = 8 * 1024                # every figure within 8 KB of every other
HANG_S = 300                   # only a hang takes this long (a run takes some 20 s)

SCRIPT = """
import sys
sys.path.insert(0, %(fakes)r)
sys.path.insert(0, %(tests)r)
sys.path.insert(0, %(lib)r)
from firmware.app import App
import loop_hands

clock = loop_hands.Clock(%(hours)d * 3600000)
hands = loop_hands.Hands(clock)
loop_hands.watch(App, hands)
loop_hands.run_board(hands, clock, '{"ruleset": "kendall"}', ".")
print("GAMES %%d" %% hands.games)
"""


def health_events(tmp_path):
    lib = compile_lib(tmp_path / "lib")
    flash = tmp_path / "flash"
    flash.mkdir()
    script = SCRIPT % {"fakes": os.path.join(ROOT, "tests", "fakes"), "lib": lib,
                       "tests": os.path.join(ROOT, "tests"), "hours": HOURS}
    result = subprocess.run([tool("micropython"), "-X", "heapsize=" + HEAP, "-c", script],
                            cwd=str(flash), capture_output=True, text=True, timeout=HANG_S)
    out = result.stdout
    assert result.returncode == 0 and "GAMES" in out, out[-3000:] + result.stderr[-3000:]
    events = []
    for line in out.splitlines():
        if line.startswith("{"):
            events.append(json.loads(line))
    games = int(out.split("GAMES")[-1].split()[0])
    return events, games


def test_the_free_memory_reported_stays_in_a_band_over_hours_of_play(tmp_path):
    events, games = health_events(tmp_path)
    health = [e for e in events if e["event"] == "health"]
    moves = [e for e in events if e["event"] == "move"]
    assert games >= 2 and len(moves) > 200, (games, len(moves))   # the hands really played
    assert len(health) >= HOURS * 12, len(health)                   # one every five minutes
    assert not [e for e in events if e["event"] == "error"]
    free = [e.get("mem_free") for e in health]
    assert None not in free, "a health event without mem_free: %s" % health[:2]
    spread = max(free) - min(free)
    assert spread <= BAND, (
        "mem_free swings by %d bytes over %d hours (band %d): %s"
        % (spread, HOURS, BAND, free))
    low = [e["mem_low"] for e in health]   # the lowest of every measurement since boot
    for i in range(len(health)):
        assert low[i] <= free[i] and (i == 0 or low[i] <= low[i - 1]), (low, free)
    assert max(free) - min(low) <= BAND, (low, free)
    assert health[0]["mem_free"] > 0 and health[-1]["uptime_s"] >= HOURS * 3600 - 300
