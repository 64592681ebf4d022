"""The benchmarks' figure for the goal "the save step at most 15 ms
including its collection" (tests/bench/pairs.py): each save added to the
collection pass that follows it, and the pairs over the limit counted."""

import pytest

from mpyhelp import bench_module

SAVE, GC, OTHER = 0, 15, 3


@pytest.fixture(scope="module")
def pairs():
    return bench_module("pairs")


def test_each_save_takes_the_collection_after_it_however_far(pairs):
    steps = [(SAVE, 30), (OTHER, 99), (GC, 150), (OTHER, 7), (SAVE, 28), (GC, 160)]
    assert pairs.save_pairs(steps, SAVE, GC) == [180, 188]


def test_a_save_without_its_collection_counts_alone(pairs):
    # the next save came first, or the run ended before the collection
    steps = [(SAVE, 30), (SAVE, 40), (GC, 100), (SAVE, 50)]
    assert pairs.save_pairs(steps, SAVE, GC) == [30, 140, 50]


def test_a_collection_with_no_save_before_it_is_no_pair(pairs):
    steps = [(GC, 100), (SAVE, 30), (GC, 120), (GC, 90)]
    assert pairs.save_pairs(steps, SAVE, GC) == [150]


def test_over_the_limit_means_strictly_over(pairs):
    assert pairs.summary([100, 150, 151], 150) == (150, 151, 1)
    assert pairs.summary([150], 150) == (150, 150, 0)
    assert pairs.summary([], 150) == (0, 0, 0)


def test_the_report_gives_pico_figures_by_the_calibration(pairs):
    # calibration 10 ms here, 966 ms on a Pico: 15 ms Pico is 155.3 us here
    report = pairs.into({}, [(SAVE, 30), (GC, 125), (SAVE, 30), (GC, 126)], SAVE, GC, 10.0)
    assert report["save_gc_pairs"] == 2
    assert report["save_gc_us"] == 156 and report["save_gc_max_us"] == 156
    assert report["pico_save_gc_ms"] == round(156 * 96.6 / 1000, 2)
    assert report["save_gc_over_15ms"] == 1              # 156 us is over, 155 us not
    report = pairs.into({}, [(SAVE, 30), (GC, 125)], SAVE, GC, 10.0)
    assert report["save_gc_over_15ms"] == 0              # 155 us: 14.97 ms
    assert "1 saves" in pairs.line(report) and "less the benchmark" not in pairs.line(report)
    assert "less the benchmark's own code: 140 us" in pairs.line(report, 15)
