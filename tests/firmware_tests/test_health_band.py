"""The health event's memory figure is steady over hours of play.

On an emulated Pico the ``mem_free`` of the health event swung from 178,752
bytes at power-on to 10,752 at five minutes and back to 117,040: it was read
as the heap stood, garbage and all, and staff watching ``monitor`` would
have read a board about to run out of memory. Now it is measured after a
collection, at a quiet moment, with the lowest since boot beside it.

Here the real board loop (firmware/board.py) runs on the MicroPython unix
port from .mpy files, in a heap with the Pico's number of blocks, on the
fake machine (tests/fakes), its clock simulated: each loop pass takes
``PASS_MS``, so two hours of the board's life take seconds, and nothing
here depends on how fast the host is. Scripted hands play game after game
through the loop's scanner and button, pausing to think between actions as
players do, and start a new game with a long press at each end. Every
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
sys.path.insert(0, %(lib)r)
import firmware.hal as real_hal
from firmware import board
from firmware.app import App
from engine.position import Position
from engine.sticks import XorShift

END_MS = %(hours)d * 3600000
PASS_MS = 20                     # a loop pass: 5 ms of scan period and 15 of work
clock = [0]


def bit(square):
    return 1 << (square - 1)


class Hands:
    \"\"\"Players at the board: what the switches and the button show at each
    moment, planned from what the App shows (its public contract).\"\"\"

    def __init__(self):
        self.app = None
        self.occ = 0
        self.pressed = False
        self.plan = []                   # (until ms, occupancy, button), in order
        self.think = XorShift(7)
        self.choose = XorShift(3)
        self.games = 0

    def add(self, ms, occ, pressed=False):
        start = self.plan[-1][0] if self.plan else clock[0]
        self.plan.append((start + ms, occ, pressed))

    def scan(self):
        now = clock[0]
        while self.plan and self.plan[0][0] <= now:
            self.plan.pop(0)
        if not self.plan and self.app is not None:
            self.decide()
        if self.plan:
            self.occ = self.plan[0][1]
            self.pressed = self.plan[0][2]
        return self.occ

    def button(self):
        return self.pressed

    def decide(self):
        app = self.app
        state = app.state
        occ = self.occ
        thought = 1000 + 1000 * self.think.randrange(8)     # 1 to 8 s
        if state == "setup":
            self.add(1500, Position.parse(app.position).occupancy())
        elif state == "opening" or state == "throw":
            self.add(thought, occ)
            self.add(150, occ, True)
            self.add(150, occ)
        elif state == "move" and app.moves:
            moves = app.moves
            move = moves[self.choose.randrange(len(moves))]
            self.add(thought, occ)
            occ &= ~bit(move.origin)
            self.add(200, occ)
            if move.capture:             # a swap (C6)
                occ &= ~bit(move.to)
                self.add(200, occ)
                if move.final != 31:
                    occ |= bit(move.final)
                    self.add(200, occ)
                occ |= bit(move.origin)
                self.add(200, occ)
            elif move.final != 31:
                occ |= bit(move.final)
                self.add(200, occ)
            self.add(app.config["settle_ms"] + 300, occ)
        elif state == "game_over":
            self.games += 1
            self.add(thought, occ)
            self.add(2500, occ, True)    # a long press: a new game
            self.add(200, occ)
        else:
            self.add(500, occ)


hands = Hands()


def ticks_ms():
    return clock[0]


def ticks_diff(a, b):
    return a - b


def sleep_ms(ms):
    clock[0] += max(ms, 0) + PASS_MS - 5
    if clock[0] >= END_MS:
        raise KeyboardInterrupt()


class Hal:
    \"\"\"firmware.hal on the fake machine, with the simulated clock and the
    hands for the switches and the button.\"\"\"
    ticks_ms = staticmethod(ticks_ms)
    ticks_diff = staticmethod(ticks_diff)
    sleep_ms = staticmethod(sleep_ms)
    watchdog = staticmethod(real_hal.watchdog)
    watchdog_stop = staticmethod(real_hal.watchdog_stop)
    reset = staticmethod(real_hal.reset)

    @staticmethod
    def make_button(config):
        return hands.button

    @staticmethod
    def build(config):
        hw = real_hal.build(config)
        hw.scanner.scan = hands.scan
        hw.button = hands.button
        return hw


real_step = App.step


def step(app, now_ms, occupancy, button):
    hands.app = app
    return real_step(app, now_ms, occupancy, button)


App.step = step
open("config.json", "w").write('{"ruleset": "kendall"}')
try:
    board.run("config.json", ".", hal=Hal())
except KeyboardInterrupt:
    pass
print("GAMES %%d" %% hands.games)
"""


def health_events(tmp_path):
    lib = compile_lib(tmp_path / "lib")
    flash = tmp_path / "flash"
    flash.mkdir()
    script = SCRIPT % {"fakes": os.path.join(ROOT, "tests", "fakes"), "lib": lib,
                       "hours": HOURS}
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
