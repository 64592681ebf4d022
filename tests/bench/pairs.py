"""The save step and its collection as one figure, for the benchmarks
(tests/bench/firmware_bench.py, tests/bench/loop_bench.py).

The App writes a save in one pass and collects that move's garbage in the
next quiet pass (firmware/app.py, ``_collect_due``): two steps, with a scan
between them. The goal they are held to is "the save step at most 15 ms
including its collection", so the benchmarks add each save to the collection
that follows it. A module of its own, with the report's key names, imported
once the play is over: the benchmarks' own tables of constants are near the
width MicroPython's mark stack takes (docs/dev/firmware-modules.md, "The
collector's mark stack").
"""

from calibration import PICO_MS, pico_ms

GOAL_MS = 15                      # Pico ms: the save step with its collection


def save_pairs(steps, save_kind, gc_kind):
    """Each save's time plus its collection's, in order, from ``steps``:
    (kind, us) of every noted step in the order they ran. A collection
    belongs to the last save before it; a save with none after it (the
    run ended first) counts alone."""
    pairs = []
    pending = None
    for kind, us in steps:
        if kind == save_kind:
            if pending is not None:
                pairs.append(pending)
            pending = us
        elif kind == gc_kind and pending is not None:
            pairs.append(pending + us)
            pending = None
    if pending is not None:
        pairs.append(pending)
    return pairs


def summary(pairs, limit_us):
    """(median, maximum, how many over ``limit_us``) of ``pairs``; zeros
    for none."""
    if not pairs:
        return 0, 0, 0
    ordered = sorted(pairs)
    over = 0
    for us in ordered:
        if us > limit_us:
            over += 1
    return ordered[len(ordered) // 2], ordered[-1], over


def into(report, steps, save_kind, gc_kind, calibration_ms):
    """Put the pairs' figures in ``report``: ``save_gc_us`` (median),
    ``save_gc_max_us``, their Pico-equivalents ``pico_save_gc_ms`` and
    ``pico_save_gc_max_ms``, ``save_gc_pairs`` and ``save_gc_over_15ms``
    (how many pairs are over the goal, Pico-equivalent). ``calibration_ms``:
    the calibration loop here (calibration.py)."""
    pairs = save_pairs(steps, save_kind, gc_kind)
    limit = GOAL_MS * calibration_ms * 1000 / PICO_MS
    middle, top, over = summary(pairs, limit)
    report["save_gc_pairs"] = len(pairs)
    report["save_gc_us"] = middle
    report["save_gc_max_us"] = top
    report["pico_save_gc_ms"] = round(pico_ms(middle / 1000, calibration_ms), 2)
    report["pico_save_gc_max_ms"] = round(pico_ms(top / 1000, calibration_ms), 2)
    report["save_gc_over_15ms"] = over
    return report


def line(report, share_us=None):
    """The pairs' figures for people; with ``share_us`` (what the
    benchmark's own code adds to a collection, tests/bench/loop_bench.py),
    the median less that too."""
    scale = report["pico_save_gc_ms"] / report["save_gc_us"] if report["save_gc_us"] else 0
    text = ("the save with its collection (the quiet pass after it): %d us median, %d us max"
            " over %d saves (Pico %.2f ms, %.2f ms); %d over %d ms (Pico)" % (
                report["save_gc_us"], report["save_gc_max_us"], report["save_gc_pairs"],
                report["pico_save_gc_ms"], report["pico_save_gc_max_ms"],
                report["save_gc_over_15ms"], GOAL_MS))
    if share_us is not None:
        less = report["save_gc_us"] - share_us
        text += "; less the benchmark's own code: %d us (Pico %.2f ms)" % (less, less * scale)
    return text
