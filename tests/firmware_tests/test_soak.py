"""The museum soak (tests/bench/soak.py) from pytest: random visitors through the
App for hours of simulated time, on CPython and on the MicroPython unix port
with the engine and firmware compiled to .mpy, as the Pico runs them.

The short runs are part of the normal suite. The full day on CPython takes a
few minutes of wall time, so it runs only with SENET_SOAK_FULL=1.
"""

import json
import os
import subprocess
import sys

import pytest

from mpyhelp import compile_lib, tool
import paths

HERE = paths.TESTS
ROOT = os.path.dirname(HERE)
SCRIPT = os.path.join(HERE, "bench", "soak.py")
# On the MicroPython unix port (64-bit: its objects take about 1.75 times
# the Pico's room; the Pico's heap is 246 KB, some 171 KB of it free with a
# museum game) the soak runs three simulated hours in a 132 KB heap (it
# started in 120K, not in 112K since the changes named in
# test_scenarios_micropython.py; since a throw and a move were spread over
# passes of their own, the App's code is 1,120 bytes larger and seed 3 met a
# full heap at a takeback in 124K; since the computer's search goes a slice
# a pass (engine.ai.Thinking, firmware/computer.py Choosing, the App's
# ``think``), seed 3 met one at a takeback in 128K, and seed 5's heap after
# a new game rose 4 KB in its third hour with 13 of 15 offers refused for
# room: docs/dev/firmware-modules.md). Since the museum loads its computer
# opponent at start-up and keeps it (no step of the loop imports it), the
# heap at a new game is some 14 KB fuller (119.8 KB, not 105.5) and 132K is
# still the floor: in 128K seed 5 met a full heap. Had start-up no room for
# the search, a lone visitor's offer would say so (``no_computer``, counted).
# In 136 KB it must join; that run checks it.
TARGET_HEAP = "132k"
ROOMY_HEAP = "136k"
MP_HOURS = 3


def result_of(out):
    lines = [ln for ln in out.strip().splitlines() if ln.startswith("{")]
    assert lines, out
    return json.loads(lines[-1])


def check(result, hours):
    assert result["hours"] == hours
    assert result["lost"] == 0, result                 # every game finished or reset
    assert result["finished"] + result["resets"] >= 1, result
    assert result["moves"] > 50 * hours, result


def run_cpython(hours, seed=1):
    out = subprocess.run([sys.executable, SCRIPT, str(hours), str(seed)], cwd=ROOT,
                         capture_output=True, text=True, timeout=1800)
    assert out.returncode == 0, out.stdout + out.stderr
    return result_of(out.stdout)


def test_two_hours_of_visitors_on_cpython():
    result = run_cpython(2)
    check(result, 2)
    # allocated blocks at a new game: no growth beyond noise
    assert result["heap_last_hour"] <= result["heap_first_hour"] * 1.02, result


@pytest.mark.slow
@pytest.mark.skipif(os.environ.get("SENET_SOAK_FULL") != "1",
                    reason="the full day takes minutes: set SENET_SOAK_FULL=1")
def test_a_whole_day_of_visitors_on_cpython():
    result = run_cpython(24)
    check(result, 24)
    assert result["finished"] > 10
    assert result["heap_last_hour"] <= result["heap_first_hour"] * 1.02, result


@pytest.mark.micropython
@pytest.mark.parametrize("heap,seed", [(TARGET_HEAP, 3), (TARGET_HEAP, 5), (ROOMY_HEAP, 3)])
def test_three_hours_of_visitors_on_the_micropython_unix_port(heap, seed, tmp_path):
    lib = compile_lib(tmp_path / "lib", extra=("tests/hand.py", "tests/bench/soak.py"))
    store = tmp_path / "flash"
    store.mkdir()
    # Run in the compiled folder with short relative paths, as on the Pico
    # (an absolute temporary path would lengthen every module's __file__).
    code = ("import sys; sys.path[:0] = ['.']\nimport soak\n"
            "s = soak.Soak(%d, %d, %r)\n"
            "r = s.run()\ns = None\nimport gc, json\ngc.collect()\nprint(json.dumps(r))"
            % (MP_HOURS, seed, os.path.relpath(str(store), lib)))
    out = subprocess.run([tool("micropython"), "-X", "heapsize=" + heap, "-c", code],
                         cwd=lib, capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stdout + out.stderr
    result = result_of(out.stdout)
    print(result)
    check(result, MP_HOURS)
    assert result["unit"] == "bytes"
    # No growth: a new game in the last hour finds no more of the heap taken
    # than some new game of the first hour did (the first hours differ by
    # a kilobyte or so among themselves: what the first game interned).
    assert result["heap_last_hour"] <= result["heap_first_hour_max"] + 1024, result
    # a lone visitor's offer was made and taken, or the board said why not
    assert result["computer"] + result["no_computer"] >= 1, result
    if heap == ROOMY_HEAP:
        assert result["computer"] >= 1, result       # here it joined
