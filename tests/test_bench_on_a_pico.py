"""The benchmarks run as on a Pico through a raw REPL (`mpremote mount .` then
`mpremote run tests/bench/X.py`): there a script's ``__file__`` is
``"<stdin>"``, not its path, so each benchmark must find ``calibration`` and
the code it times by fixed paths from the repository's root. Emulated on the
MicroPython unix port by setting ``__file__`` so and executing the script's
text, in a Pico-sized heap: from source the compiler needs room beside the
code it times, and 304K on this 64-bit port holds about what 174 KB would on
the Pico (objects are about 1.75x as large here), inside its 246 KB heap
(256K until a board that may give a hint loaded the search at start-up;
288K until the opening's log line and the whole save's quiet passes: the
firmware benchmark then needed 292K)."""

import json
import os
import subprocess

import pytest

from mpyhelp import ROOT, tool

pytestmark = pytest.mark.micropython


@pytest.mark.parametrize("bench", ["engine_bench", "ai_bench", "firmware_bench",
                                   "computer_bench"])
def test_a_benchmark_runs_without_its_file_name(bench, tmp_path):
    # computer_bench saves its boards in a folder (/tmp unless given one):
    # each run gets its own, so two runs side by side never share a game
    args = [bench, str(tmp_path)] if bench == "computer_bench" else [bench]
    script = ("import sys\nsys.argv[:] = %r\n__file__ = '<stdin>'\n"
              "exec(open('tests/bench/%s.py').read())\n" % (args, bench))
    result = subprocess.run([tool("micropython"), "-X", "heapsize=304K", "-c", script],
                            cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-2000:]
    report = json.loads(result.stdout.strip().splitlines()[-1])
    assert report["calibration_ms"] > 0
    assert "966 ms" in result.stdout or bench != "engine_bench"


def test_the_pico_figure_of_the_yardstick_is_the_s_xor_i_loop():
    """966 ms is the time of `s ^= i`, the loop that stays in small ints on a
    32-bit port (calibration.py says why `s += i` was not)."""
    import sys
    sys.path.insert(0, os.path.join(ROOT, "tests", "bench"))
    try:
        import calibration
    finally:
        sys.path.pop(0)
    assert calibration.PICO_MS == 966
    assert "s ^= i" in calibration.LOOP and "range(n)" in calibration.LOOP
    space = {}
    exec(calibration.LOOP, space)
    assert space["s"] < 2 ** 30 - 1      # never leaves the small ints of a 32-bit port
    assert calibration.pico_ms(7.5, 7.5) == 966
