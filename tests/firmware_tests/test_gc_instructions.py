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
    """The pure helper: every second dump is a marked part, a collection
    (it ran gc_collect_start) or a marked step, whose kinds come in order
    from steps.bin; only a save step is a save (a step is marked while a
    save is due), and it pairs with the first collection after it; a
    collection with no save before it (a board's start) stands alone."""
    pairs_of = bench_module("gc_instructions").pairs_of
    dumps = [(1, 900, False), (2, 50, True),            # a collection alone
             (3, 800, True), (4, 10, False),            # (odd: the loop between)
             (5, 700, False), (6, 20, False),           # the save, then its lights' redraw
             (7, 600, False), (8, 300, True),           # the collection
             (9, 500, False), (10, 11, False)]          # a save left unpaired
    saves, collections, pairs = pairs_of(dumps, ["save", "redraw", "save"])
    assert saves == [10, 11] and collections == [50, 300]
    assert pairs == [(10, 300)]
    with pytest.raises(SystemExit):
        pairs_of(dumps, ["save", "redraw", "save", "save"])


@pytest.fixture(scope="module")
def steps():
    return bench_module("gc_instructions").main([MINUTES, "--romfs", "--steps"])["steps"]


def test_every_kind_of_step_is_counted_alone(steps, pairs, counts):
    """--steps: the marked steps, each its own dump, sorted as loop_bench.py
    sorts them: as many saves and collections' passes as --pairs counted,
    a quiet pass far shorter than a save, and the collection's pass the
    longest kind (it holds a collection)."""
    _, rom = counts
    for kind in ("save", "throw", "move", "think", "redraw", "quiet", "gc"):
        assert steps[kind]["count"] > 0, (kind, steps)
    assert steps["save"]["count"] == pairs["saves"], (steps["save"], pairs["saves"])
    # each save's collection has a pass of its own; a board's start-up
    # collects outside any step
    assert pairs["pairs"] <= steps["gc"]["count"] <= rom["app_collections"], (
        steps["gc"], pairs["pairs"], rom["app_collections"])
    assert steps["quiet"]["median"] < steps["save"]["median"] / 2, steps
    assert steps["gc"]["median"] > pairs["collection"]["median"], (steps["gc"], pairs)
    assert max(s["median"] for s in steps.values()) == steps["gc"]["median"], steps


def test_marked_steps_are_given_their_dumps_in_order(tmp_path):
    from array import array
    bench = bench_module("gc_instructions")
    save, quiet, gc = (bench.KINDS.index(k) for k in ("save", "quiet", "gc"))
    marked = bench.MARKED
    records = array("I", [(quiet << 24) | 5, ((save | marked) << 24) | 40,
                          (quiet << 24) | 6, ((gc | marked) << 24) | 90,
                          ((quiet | marked) << 24) | 7])
    path = tmp_path / "steps.bin"
    path.write_bytes(records.tobytes())
    dumps = [(1, 999, False), (2, 100, False), (3, 999, False), (4, 400, True),
             (5, 999, False), (6, 30, False)]
    assert bench.marked_steps(str(path), dumps) == {"save": [100], "gc": [400],
                                                    "quiet": [30]}
    with pytest.raises(SystemExit):
        bench.marked_steps(str(path), dumps[:4])
