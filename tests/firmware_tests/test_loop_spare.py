"""The board loop's block of garbage a pass (firmware/board.py ``_SPARE``).

After a collection MicroPython's allocator looks for room from the heap's
first block, and only a one-block allocation moves that start on; without
one a pass, every larger allocation of the App's steps scanned the heap's
live objects again (tests/bench/loop_bench.py: a search slice 37 us instead
of 23). Timing is the benchmark's; here, that the loop makes it every pass,
and that it is one block on the MicroPython unix port (two blocks would not
move the allocator on)."""

import subprocess

import pytest

from test_health import pico  # noqa: F401  (the fixture: a board mid-game on the fake machine)
from test_loop_timing import run_for
from firmware import board as board_loop  # noqa: E402
from firmware.app import App  # noqa: E402
from mpyhelp import ROOT, tool


def test_every_loop_pass_makes_a_new_spare_before_the_apps_step(pico, monkeypatch):  # noqa: F811
    seen = []
    real_step = App.step

    def step(app, now_ms, occupancy, button):
        seen.append(board_loop._SPARE[0])
        return real_step(app, now_ms, occupancy, button)
    monkeypatch.setattr(App, "step", step)
    run_for(pico, monkeypatch, 40, work=1)
    assert len(seen) == 40
    assert all(type(s) is tuple and len(s) == 1 for s in seen), seen[:3]
    starts = [s[0] for s in seen]                # each pass's own start: a new one a pass
    assert all(a < b for a, b in zip(starts, starts[1:])), starts


ONE_BLOCK = """
import gc, sys
def made(n):
    gc.collect()
    gc.disable()
    before = gc.mem_alloc()
    spare = (n,)
    after = gc.mem_alloc()
    gc.enable()
    return after - before
size = made(123456)
block = 4 * (8 if sys.maxsize > 2 ** 32 else 4)     # a block is four words
print("SPARE", size, "BLOCK", block)
"""


@pytest.mark.micropython
def test_the_spare_is_one_block_of_the_micropython_heap():
    result = subprocess.run([tool("micropython"), "-X", "heapsize=480K", "-c", ONE_BLOCK],
                            cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
    words = result.stdout.split()
    size, block = int(words[1]), int(words[3])
    assert size == block, ("the loop's spare takes %d bytes of the heap, not one block of %d: "
                           "it would not move MicroPython's allocator on" % (size, block))
