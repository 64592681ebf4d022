"""A collection in the board loop costs fewer instructions with the firmware
in a ROMFS image than from .mpy files (tests/bench/gc_instructions.py).

callgrind counts the instructions the unix port runs: the same count (to a
few instructions) in every run of the same binary and input, so the
comparison holds whatever the host is doing (timed, the two differ by less
than the host's own wander).
Both runs play the same seeded games with the simulated clock, so they make
the same collections.
"""

import pytest

from mpyhelp import bench_module

pytestmark = [pytest.mark.micropython, pytest.mark.slow]

MINUTES = "3"


@pytest.fixture(scope="module")
def counts():
    bench = bench_module("gc_instructions")
    return bench.main([MINUTES]), bench.main([MINUTES, "--romfs"])


def test_both_runs_make_the_same_collections(counts):
    files, rom = counts
    assert files["app_collections"] == rom["app_collections"] >= 20, (files, rom)
    assert files["collections"] == rom["collections"]
    # one calibration loop is some 88 million instructions on x86-64
    assert 50e6 < files["calibration_loop"] < 150e6, files["calibration_loop"]


def test_a_collection_from_the_image_marks_and_sweeps_less(counts):
    files, rom = counts
    # measured: 483,105 against 374,817 (-22 %); marking 277,976 against 202,704
    assert rom["gc_collect_per_collection"] < 0.9 * files["gc_collect_per_collection"], (
        files, rom)
    assert rom["mark_per_collection"] < 0.85 * files["mark_per_collection"], (files, rom)
    assert rom["sweep_per_collection"] < files["sweep_per_collection"], (files, rom)
    assert rom["alloc_share"] < files["alloc_share"], (files, rom)
