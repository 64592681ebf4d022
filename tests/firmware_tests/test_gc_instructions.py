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


@pytest.fixture(scope="module")
def pairs():
    return bench_module("gc_instructions").main([MINUTES, "--romfs", "--pairs"])


def test_each_save_and_the_collection_after_it_are_counted_alone(pairs, counts):
    """--pairs: callgrind dumps its count at marks around each save step and
    each of the App's collections (loop_bench.py --marks), so a dump holds
    one of them alone: a collection as long as the whole run's average one,
    a save step much shorter, and the benchmark's second copy of its own
    code shows in the collection only."""
    _, rom = counts
    assert pairs["pairs"] >= 15 and pairs["collections"] >= pairs["pairs"], pairs
    assert pairs["collections"] == rom["app_collections"], (pairs, rom)
    collection = pairs["collection"]["median"]
    average = rom["gc_collect_per_collection"]
    assert 0.8 * average < collection < 1.2 * average, (collection, average)
    assert 20000 < pairs["save"]["median"] < collection / 2, pairs["save"]
    assert pairs["copies_share"] > 20000, pairs["copies_share"]
    # the figures: Pico ms = instructions x 966 / the calibration loop's
    assert pairs["collection"]["pico_median_ms"] == round(
        collection * 966 / pairs["calibration_loop"], 2)
    assert pairs["pair"]["pico_median_ms"] > pairs["pair_own"]["pico_median_ms"]


def test_the_marked_parts_of_a_run_are_paired_save_then_collection():
    """The pure helper: every second dump is a marked part; a save pairs with
    the first collection after it, and a collection with no save before it
    (a board's start) stands alone."""
    pairs_of = bench_module("gc_instructions").pairs_of
    dumps = [(1, 900, False), (2, 50, True),            # a collection alone
             (3, 800, True), (4, 10, False),            # (the loop between: odd)
             (5, 700, False), (6, 20, False),           # two saves, then
             (7, 600, False), (8, 300, True),           # one collection
             (9, 500, False), (10, 11, False)]          # a save left unpaired
    saves, collections, pairs = pairs_of(dumps)
    assert saves == [10, 20, 11] and collections == [50, 300]
    assert pairs == [(20, 300)]
