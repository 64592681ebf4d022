"""The firmware benchmark (tests/bench/firmware_bench.py) runs on CPython and
on the MicroPython unix port (from .mpy files, as on the Pico) and ends with
its JSON figures. Timing targets are not asserted here: a shared host is too
noisy for that; the figures are printed (pytest -s) for the record."""

import json
import os
import subprocess
import sys

import pytest

from mpyhelp import ROOT, compile_lib, tool

SCRIPT = os.path.join("tests", "bench", "firmware_bench.py")
KEYS = ("calibration_ms", "idle_step_us", "settle_step_us", "pico_idle_step_ms",
        "pico_settle_step_ms")


def figures(result):
    assert result.returncode == 0, result.stdout + result.stderr
    lines = result.stdout.strip().splitlines()
    report = json.loads(lines[-1])
    print(result.stdout)
    return report


def test_the_firmware_benchmark_runs_on_cpython_and_ends_with_its_figures():
    report = figures(subprocess.run([sys.executable, SCRIPT], cwd=ROOT,
                                    capture_output=True, text=True, timeout=300))
    for key in KEYS + ("settle_save_step_us",):
        assert report[key] > 0, key
    assert "peak_heap_bytes" not in report
    assert report["settle_steps"] > 100          # a whole game of each ruleset


@pytest.mark.micropython
def test_the_firmware_benchmark_runs_on_micropython_from_mpy_files(tmp_path):
    lib = compile_lib(tmp_path / "lib")
    store = tmp_path / "store"
    store.mkdir()
    result = subprocess.run(
        [tool("micropython"), "-X", "heapsize=192K", SCRIPT, lib, str(store)], cwd=ROOT,
        capture_output=True, text=True, timeout=300)
    report = figures(result)
    out = result.stdout
    assert report["implementation"] == "micropython"
    for key in KEYS + ("peak_heap_bytes", "settle_save_step_us", "pico_settle_save_step_ms"):
        assert report[key] > 0, key
    assert report["peak_heap_bytes"] >= report["heap_at_start_bytes"]
    assert report["heap_bytes"] <= 192 * 1024                # a Pico-sized heap
    assert "(-X heapsize=192K: about the Pico's)" in out
