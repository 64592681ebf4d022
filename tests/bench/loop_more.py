"""The loop benchmark's helpers (tests/bench/loop_bench.py): each step's
fastest time over identical runs, a second copy of the benchmark's own
code, and each save with its collection. A module of their own:
loop_bench.py's one table of constants is near the width MicroPython's mark
stack takes (docs/dev/firmware-modules.md, "The collector's mark stack")."""

import json
import os
import sys
from array import array

LIMIT = 1 << 24                   # us: a record is kind << 24 | us (as loop_bench)


def fastest(records, folders, calibrations):
    """Into ``records``: each step's fastest time in the runs' records (the
    ``--fastest`` form); their played games. A SystemExit if the runs did
    not make the same steps."""
    files = [open(folder + "/steps.bin", "rb") for folder in folders]
    blocks = [array("I", range(1024)) for _ in folders]
    try:
        while True:
            got = [f.readinto(b) // 4 for f, b in zip(files, blocks)]
            if min(got) != max(got):
                raise SystemExit("loop_bench: the runs made different numbers of steps")
            if not got[0]:
                break
            first = blocks[0]
            for i in range(got[0]):
                kind = first[i] >> 24
                us = first[i] & (LIMIT - 1)
                for b in blocks:
                    if b[i] >> 24 != kind:
                        raise SystemExit("loop_bench: the runs differ at a step: not the same run")
                    if b[i] & (LIMIT - 1) < us:
                        us = b[i] & (LIMIT - 1)
                records.note(kind, us)
                records.flush()
    finally:
        for f in files:
            f.close()
    played = None
    for folder in folders:           # the runs' calibrations count too
        f = open(folder + "/played.json")
        try:
            run = json.loads(f.read())
        finally:
            f.close()
        calibrations.append(run.pop("calibration_ms"))
        if played is None:
            played = run
    return played


BENCH_SOURCES = ("/fakes/machine.py", "/fakes/neopixel.py", "/loop_hands.py",
                 "/bench/calibration.py")


def copies(tests):
    """One more copy of the benchmark's own code, none of which a Pico's heap
    holds (machine and neopixel are built into its MicroPython): the fake
    machine and strip, the players and the calibration, compiled again into
    namespaces of their own. The caller keeps them for the run: the
    ``--copies`` runs' collections less the plain runs' are what that code
    costs a collection."""
    kept = []
    for name in BENCH_SOURCES:
        f = open(tests + name)
        try:
            source = f.read()
        finally:
            f.close()
        space = {"__name__": "copy"}
        exec(source, space)
        kept.append(space)
    return kept


def pair_figures(report, records, gc_kind, calibration_ms):
    """Into ``report`` and printed: each save (kind 0) with the collection's
    pass after it (``gc_kind``), from ``records`` in the order the steps ran
    (tests/bench/pairs.py)."""
    import pairs
    steps = ((r >> 24, r & (LIMIT - 1)) for r in records.each())
    pairs.into(report, steps, 0, gc_kind, calibration_ms)
    print(pairs.line(report))

