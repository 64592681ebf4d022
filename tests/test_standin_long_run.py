"""The stand-in Pico left on for days: its memory stays bounded, and a
firmware that dies comes back, as the Pico's watchdog brings it back.

A newcomer follows docs/deploy.md, starts the stand-in and leaves it running.
The fake strip (tests/fakes/neopixel.py) once kept every frame sent and the
stand-in died of a MemoryError after some nine minutes; the firmware, which
then asked for a reset, was never started again. Time here is simulated
(the stand-in's ``clock="sim"``: a sleep advances the clock at once), so many
minutes of the board's life take seconds, and no verdict hangs on how fast
the machine is: a wall-clock deadline only catches a hang.
"""

import json
import os
import subprocess
import sys
import time
import tracemalloc

import pytest

from host_tools import build
from standin.device import FAKES, StandIn, micropython_binary

HANG_S = 300                   # only a stand-in that hangs takes this long


def fresh_neopixel():
    sys.path.insert(0, FAKES)
    try:
        import neopixel
    finally:
        sys.path.remove(FAKES)
    return neopixel


def test_a_fake_strip_written_100k_times_keeps_a_bounded_memory():
    neopixel = fresh_neopixel()
    strip = neopixel.NeoPixel(None, 36)
    tracemalloc.start()
    try:
        for i in range(1000):
            strip[i % 36] = (i & 255, 0, 0)
            strip.write()
        early = tracemalloc.get_traced_memory()[0]
        for i in range(99000):
            strip[i % 36] = (0, i & 255, 1)
            strip.write()
        late = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
        neopixel.reset()
    assert late - early < 20000, "the fake strip grew by %d bytes" % (late - early)
    assert len(strip.writes) == 100000                 # every frame is still counted
    assert strip.colours()[98998 % 36] == (0, 98998 & 255, 1)     # the last one is kept
    assert strip.writes[-1] == bytes(strip.buf)


def test_a_fake_strip_written_100k_times_fits_a_small_micropython_heap():
    code = ("import sys\nsys.path.insert(0, %r)\nimport neopixel\n"
            "s = neopixel.NeoPixel(None, 36)\n"
            "for i in range(100000):\n"
            "    s[i %% 36] = (i & 255, 1, 2)\n"
            "    s.write()\n"
            "print('frames', len(s.writes), s.colours()[99999 %% 36])\n" % FAKES)
    result = subprocess.run([micropython_binary(), "-X", "heapsize=48k", "-c", code],
                            capture_output=True, text=True, timeout=HANG_S)
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.strip() == "frames 100000 (159, 1, 2)"
