"""The firmware benchmark runs on a CircuitPython board as docs/circuitpython.md
says to run it: its files copied to the drive, executed from the REPL. There
``time`` has neither ``perf_counter`` nor ``ticks_us``, and ``tempfile`` is
absent; the benchmark must time itself with ``time.monotonic_ns`` (or
``supervisor.ticks_ms``) and still end with its JSON figures.

Emulated under CPython by tests/cp/bench_cp.py, which takes those names away
and runs the benchmark from a drive filled by ``deploy --circuitpython``.
Timings are not judged (the host is shared): only that every figure is
there, comes from a whole game, and names the clock it was taken with.
"""

import json
import os
import shutil
import subprocess
import sys

import pytest

from cphelp import ROOT, filled_drive

BENCH = ("calibration.py", "pairs.py", "firmware_bench.py")
RUNNER = os.path.join(ROOT, "tests", "cp", "bench_cp.py")


def drive_with_the_benchmarks(tmp_path):
    """A CIRCUITPY drive filled by deploy, the benchmarks copied as the docs say."""
    drive = filled_drive(tmp_path / "CIRCUITPY", {})
    folder = os.path.join(drive, "tests", "bench")
    os.makedirs(folder)
    for name in BENCH:
        shutil.copy(os.path.join(ROOT, "tests", "bench", name), folder)
    return drive


def run_on_circuitpython(drive, *flags):
    result = subprocess.run([sys.executable, "-S", RUNNER, drive,
                             "tests/bench/firmware_bench.py"] + list(flags),
                            capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-3000:]
    print(result.stdout)
    return json.loads(result.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("flags, clock", [((), "monotonic_ns"),
                                          (("--no-monotonic-ns",), "supervisor.ticks_ms")])
def test_the_firmware_benchmark_runs_as_on_a_circuitpython_board(tmp_path, flags, clock):
    report = run_on_circuitpython(drive_with_the_benchmarks(tmp_path), *flags)
    assert report["implementation"] == "circuitpython"
    assert report["clock"] == clock
    assert report["clock_step_us"] > 0
    if clock == "supervisor.ticks_ms":
        assert report["clock_step_us"] % 1000 == 0     # whole milliseconds
    assert report["calibration_ms"] > 0
    assert report["settle_steps"] > 100              # a whole game of each ruleset
    for key in ("idle_step_us", "redraw_step_us", "pico_settle_step_ms"):
        assert key in report, key
    assert "settle_save_step_us" not in report       # no temporary folder on a board


HIDE_TIME = """
import sys, time
class CircuitPythonTime:
    pass
cp = CircuitPythonTime()
cp.monotonic_ns = time.time_ns
cp.sleep = time.sleep
cp.time = time.time
sys.modules['time'] = cp
__file__ = '<stdin>'
exec(open('tests/bench/firmware_bench.py').read())
"""


@pytest.mark.micropython
def test_the_firmware_benchmark_runs_on_a_micropython_vm_with_circuitpythons_time():
    """The same on the MicroPython unix port (CircuitPython's VM is
    MicroPython's), ``time`` stripped of ``ticks_us``, ``ticks_ms`` and
    ``ticks_diff``: the heap figures are taken too, as on a board. From
    source, with the search loaded at start-up: 288K failed at the report's
    last 4 KB allocation, 320K passes."""
    from mpyhelp import tool
    result = subprocess.run([tool("micropython"), "-X", "heapsize=320K", "-c", HIDE_TIME],
                            cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-2000:]
    report = json.loads(result.stdout.strip().splitlines()[-1])
    assert report["clock"] == "monotonic_ns"
    assert report["settle_steps"] > 100
    assert report["peak_heap_bytes"] >= report["heap_at_start_bytes"] > 0
