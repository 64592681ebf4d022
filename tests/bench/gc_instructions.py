"""The board loop's collections counted in instructions, not timed.

    python tests/bench/gc_instructions.py [MINUTES] [--romfs]
    python tests/bench/gc_instructions.py [MINUTES] [--romfs] --pairs
    python tests/bench/gc_instructions.py [MINUTES] [--romfs] --steps

Runs tests/bench/loop_bench.py (MINUTES simulated, default 10) on the
MicroPython unix port under valgrind's callgrind, which counts the
instructions each function runs: the same count, to a few instructions, in
every run of the same binary and input, whatever else the host is doing.
Timings on a shared host wander by a quarter between runs
(docs/dev/firmware-modules.md, "Code out of the heap"); these counts do not,
so two versions of the firmware, or the firmware from .mpy files and from a
ROMFS image (``--romfs``, through tests/romfs_run.py), compare exactly.

Printed, then as one JSON line: the collections (``gc_collect`` calls: the
App's and the benchmark's own), the instructions of one on average, of its
marking (``gc_collect_start``, which marks from the roots), of its sweep
(``gc_collect_end``) and of the stack's scan; the allocator's (``gc_alloc``)
share of every instruction run; and the instructions of one calibration
loop (calibration.py), to set a collection against. An x86-64 instruction
count is not a Pico's time: on the emulated RP2040 a collection took about
2.6 times as long, against the calibration loop, as these counts say.

``--pairs`` counts issue 29's own figure instead: each save step and the
App's collection after it (the pair the goal holds to 15 ms on a Pico).
loop_bench.py ``--marks`` calls ``gc.isenabled()`` just before and after
each save step and each of the App's collections, and callgrind dumps its
count at every such call (``--dump-before``), so each dump between two marks
is one save step or one collection, counted alone. It runs twice, the second
time with a second copy of the benchmark's own code (``--copies``): the
collection's count less what that copy added is the firmware's own. Printed
per figure: the median and the maximum in instructions and as Pico ms,
``instructions x 966 / the calibration loop's instructions`` (a step of
bytecode like the calibration's), and the collection also times
``GC_RATIO``, as the one comparison with an emulated RP2040 found.
``--steps`` counts the loop's other steps the same way (``--mark-steps``):
every step that had a job due, a board change or a press, and every 20th
other step (redraws, the background rewrite's passes, quiet passes; marking
all of them would make some 200,000 dumps an hour), each sorted by what it
did as loop_bench.py sorts them; per kind the count, median and maximum in
instructions and Pico ms (no ratio: the collection's pass holds one).
Host timings of these steps (loop_bench.py) read two to five times higher:
there a step that runs once a move finds the host's caches cold, while the
calibration loop runs from them.
"""

import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
TESTS = os.path.dirname(HERE)
sys.path.insert(0, TESTS)
sys.path.insert(0, HERE)

FUNCTIONS = {"gc_collect": "gccollect.c:gc_collect", "mark": "gc.c:gc_collect_start",
             "sweep": "gc.c:gc_collect_end",
             "stack": "gchelper_generic.c:gc_helper_collect_regs_and_stack",
             "alloc": "gc.c:gc_alloc"}
NAMES = {name: key for key, name in FUNCTIONS.items()}
GC_RATIO = 2.6          # an emulated RP2040's collection against these counts (above)
PICO_MS = 966           # the calibration loop on a Pico (calibration.py)
KINDS = ("save", "throw", "move", "pass", "start", "new", "undo", "hint", "event", "work",
         "think", "board", "redraw", "due", "quiet", "gc", "collect")   # loop_bench.py's
MARKED = 0x40           # loop_bench.py: a marked step's record
CALIBRATE = ("import sys\nsys.path.insert(0, %r)\nimport calibration\n"
             "calibration.calibrate(%d)\n")


def valgrind():
    import shutil
    found = shutil.which("valgrind")
    if not found:
        raise SystemExit("valgrind is not installed, so nothing can be counted: install "
                         "Debian's valgrind (apt-get install valgrind; scripts/test.sh does "
                         "it as root)")
    return found


def counted(command, out_file):
    """Run ``command`` under callgrind into ``out_file``; its stdout."""
    run = subprocess.run([valgrind(), "--tool=callgrind", "--callgrind-out-file=" + out_file]
                         + command, capture_output=True, text=True)
    if run.returncode != 0:
        raise SystemExit("the run under callgrind failed:\n" + run.stdout[-2000:]
                         + run.stderr[-2000:])
    return run.stdout


def inclusive(out_file):
    """{key of FUNCTIONS: inclusive instructions} and the run's total."""
    text = subprocess.run(["callgrind_annotate", "--inclusive=yes", "--threshold=100",
                           out_file], capture_output=True, text=True).stdout
    found = {}
    total = None
    for line in text.splitlines():
        m = re.match(r"\s*([\d,]+) .*PROGRAM TOTALS", line)
        if m:
            total = int(m.group(1).replace(",", ""))
            continue
        m = re.match(r"\s*([\d,]+) \(\s*[\d.]+%\)\s+(\S+)", line)
        key = NAMES.get(m.group(2).rsplit("/", 1)[-1]) if m else None
        if key and key not in found:
            found[key] = int(m.group(1).replace(",", ""))
    if total is None or "gc_collect" not in found:
        raise SystemExit("callgrind_annotate did not name gc_collect: not the unix port "
                         "this counts\n" + text[:2000])
    return found, total


def calls(out_file, name):
    """How many times the function ``name`` was called (callgrind's calls= lines)."""
    ids = set()
    total = 0
    current = None
    with open(out_file) as f:
        for line in f:
            m = re.match(r"c?fn=\((\d+)\)(?: (.*))?", line)
            if m:
                if m.group(2) and m.group(2).strip() == name:
                    ids.add(m.group(1))
                current = m.group(1) if line.startswith("cfn=") else None
                continue
            m = re.match(r"calls=(\d+)", line)
            if m and current in ids:
                total += int(m.group(1))
                current = None
    return total


def calibration_instructions(tmp, micropython):
    """The instructions of one calibration loop: two runs of calibrate(),
    one loop apart."""
    counts = []
    for runs in (1, 2):
        script = os.path.join(tmp, "cal%d.py" % runs)
        with open(script, "w") as f:
            f.write(CALIBRATE % (HERE, runs))
        out = os.path.join(tmp, "cal%d.out" % runs)
        counted([micropython, script], out)
        counts.append(inclusive_total(out))
    return counts[1] - counts[0]


def inclusive_total(out_file):
    with open(out_file) as f:
        for line in f:
            if line.startswith("summary:") or line.startswith("totals:"):
                return int(line.split()[1])
    raise SystemExit("%s has no total" % out_file)


def bench_command(tmp, minutes, romfs, micropython, extra=()):
    """The loop benchmark's command: the firmware compiled into ``tmp``, from
    .mpy files or (``romfs``) an image of them, its flash a folder there."""
    from mpyhelp import compile_lib
    lib = compile_lib(os.path.join(tmp, "lib"))
    flash = os.path.join(tmp, "flash")
    os.mkdir(flash)
    bench = [os.path.join(HERE, "loop_bench.py"), lib, flash, minutes] + list(extra)
    if not romfs:
        return [micropython, "-X", "heapsize=480K"] + bench
    import romfs_run
    from host_tools.board.build import romfs_image
    image = os.path.join(tmp, "firmware.romfs")
    romfs_image(lib, image)
    return romfs_run.command(image, ["-X", "heapsize=480K", bench[0], romfs_run.MOUNT]
                             + bench[2:])


def dumped(folder):
    """The counts of callgrind's dumps in ``folder`` (cg.out.N), in order:
    [(N, instructions, a collection in it)]."""
    found = []
    for name in os.listdir(folder):
        m = re.match(r"cg\.out\.(\d+)$", name)
        if not m:
            continue
        total = None
        collected = False
        with open(os.path.join(folder, name)) as f:
            for line in f:
                if line.startswith("summary:") or line.startswith("totals:"):
                    total = int(line.split()[1])
                elif "gc_collect_start" in line:
                    collected = True
        found.append((int(m.group(1)), total, collected))
    found.sort()
    return found


def pairs_of(dumps, kinds):
    """The marked parts of a run (every second dump: the ones a mark ended),
    as (saves, collections, pairs): each collection paired with the last
    save step before it, if no other collection came between. ``kinds``:
    what each marked step did, in order (a step is marked while a save is
    due, and the save may wait for the lights and the event before it), so
    only the save steps are taken."""
    saves, collections, pairs = [], [], []
    pending = None
    steps = iter(kinds)
    for n, total, collected in dumps:
        if n % 2:
            continue                     # the loop between two marked parts
        if collected:
            collections.append(total)
            if pending is not None:
                pairs.append((pending, total))
                pending = None
        elif next(steps, None) == "save":
            saves.append(total)
            pending = total
    if next(steps, None) is not None:
        raise SystemExit("more steps marked than counted: the marks and the dumps disagree")
    return saves, collections, pairs


def marked_kinds(steps_file):
    """What each step loop_bench.py marked did, in order (its steps.bin)."""
    from array import array
    records = array("I")
    with open(steps_file, "rb") as f:
        records.frombytes(f.read())
    return [KINDS[(r >> 24) & (MARKED - 1)] for r in records if (r >> 24) & MARKED]


def median_max(values):
    values = sorted(values)
    return values[len(values) // 2], values[-1]


def pico_ms(instructions, calibration, ratio=1.0):
    """Pico ms for a count: the calibration loop's count is 966 ms there."""
    return instructions * PICO_MS * ratio / calibration


def count_pairs(minutes, romfs, copies, micropython, tmp):
    """One marked run under callgrind: (saves, collections, pairs)."""
    extra = ["--copies", "--marks"] if copies else ["--marks"]
    command = bench_command(tmp, minutes, romfs, micropython, extra)
    dumps = counted_at_marks(command, tmp)
    return pairs_of(dumps, marked_kinds(os.path.join(tmp, "flash", "steps.bin")))


def counted_at_marks(command, tmp):
    """Run ``command`` under callgrind, a dump at every gc.isenabled() call
    (loop_bench.py's marks), into tmp/dumps: their counts (``dumped``)."""
    dumps = os.path.join(tmp, "dumps")
    os.mkdir(dumps)
    out_file = os.path.join(dumps, "cg.out")
    run = subprocess.run([valgrind(), "--tool=callgrind", "--dump-before=gc_isenabled",
                          "--dump-instr=no", "--callgrind-out-file=" + out_file]
                         + command, capture_output=True, text=True)
    if run.returncode != 0:
        raise SystemExit("the marked run under callgrind failed:\n" + run.stdout[-2000:]
                         + run.stderr[-2000:])
    return dumped(dumps)


def main_pairs(minutes, romfs):
    from mpyhelp import tool
    micropython = tool("micropython")
    with tempfile.TemporaryDirectory() as tmp:
        calibration = calibration_instructions(tmp, micropython)
        runs = []
        for copies in (False, True):
            folder = os.path.join(tmp, "copies" if copies else "plain")
            os.mkdir(folder)
            runs.append(count_pairs(minutes, romfs, copies, micropython, folder))
    (saves, collections, pairs), (_, copied, _) = runs
    if not pairs:
        raise SystemExit("no save was followed by a collection: no marks in the run?")
    share = median_max(copied)[0] - median_max(collections)[0]
    result = {"minutes": int(minutes), "romfs": romfs, "calibration_loop": calibration,
              "saves": len(saves), "collections": len(collections), "pairs": len(pairs),
              "copies_share": share}
    figures = (("save", saves, 1.0), ("collection", collections, 1.0),
               ("collection_ratio", collections, GC_RATIO))
    for name, values, ratio in figures:
        middle, top = median_max(values)
        result[name] = {"median": middle, "max": top,
                        "pico_median_ms": round(pico_ms(middle, calibration, ratio), 2),
                        "pico_max_ms": round(pico_ms(top, calibration, ratio), 2)}
    for name, less in (("pair", 0), ("pair_own", share)):
        # the save as bytecode, its collection (less the benchmark's code) x GC_RATIO
        ms = [pico_ms(save, calibration) + pico_ms(collect - less, calibration, GC_RATIO)
              for save, collect in pairs]
        middle, top = median_max(ms)
        result[name] = {"pico_median_ms": round(middle, 2), "pico_max_ms": round(top, 2),
                        "over_15ms": len([m for m in ms if m > 15])}
    print("the firmware from %s, %s simulated minutes: %d saves, %d of the App's collections, "
          "%d pairs (a save and the collection after it)" % (
              source(romfs), minutes, len(saves),
              len(collections), len(pairs)))
    print("one calibration loop: %d instructions (%d ms on a Pico)" % (calibration, PICO_MS))
    for name, label in (("save", "a save step"), ("collection", "a collection"),
                        ("collection_ratio", "a collection x %.1f" % GC_RATIO)):
        f = result[name]
        print("%-22s median %9d (%5.2f ms Pico)  max %9d (%5.2f ms Pico)" % (
            label, f["median"], f["pico_median_ms"], f["max"], f["pico_max_ms"]))
    print("the benchmark's own code (a second copy of it) added %d instructions "
          "(%.2f ms Pico x %.1f) to a collection" % (share, pico_ms(share, calibration, GC_RATIO),
                                                      GC_RATIO))
    for name, label in (("pair", "the pair"), ("pair_own", "less the benchmark's code")):
        f = result[name]
        print("%-26s median %5.2f ms, max %5.2f ms Pico; %d of %d over 15 ms" % (
            label, f["pico_median_ms"], f["pico_max_ms"], f["over_15ms"], len(pairs)))
    print(json.dumps(result))
    return result


def marked_steps(steps_file, dumps):
    """{kind: [instructions, ...]}: the records loop_bench.py --mark-steps
    flagged, in order, each given the count of its dump."""
    kinds = marked_kinds(steps_file)
    counts = [total for n, total, _ in dumps if n % 2 == 0]
    if len(kinds) != len(counts):
        raise SystemExit("%d steps marked, %d counted: the marks and the dumps disagree"
                         % (len(kinds), len(counts)))
    by_kind = {}
    for kind, total in zip(kinds, counts):
        by_kind.setdefault(kind, []).append(total)
    return by_kind


def main_steps(minutes, romfs):
    from mpyhelp import tool
    micropython = tool("micropython")
    with tempfile.TemporaryDirectory() as tmp:
        calibration = calibration_instructions(tmp, micropython)
        command = bench_command(tmp, minutes, romfs, micropython, ["--mark-steps"])
        by_kind = marked_steps(os.path.join(tmp, "flash", "steps.bin"),
                               counted_at_marks(command, tmp))
    result = {"minutes": int(minutes), "romfs": romfs, "calibration_loop": calibration,
              "steps": {}}
    print("the firmware from %s, %s simulated minutes: %d steps counted" % (
        source(romfs), minutes,
        sum(len(v) for v in by_kind.values())))
    print("%-8s %6s %10s %9s %10s %9s %s" % ("step", "count", "median", "(Pico)", "max",
                                            "(Pico)", "over 5 ms"))
    for name in KINDS:
        if name not in by_kind:
            continue
        values = by_kind[name]
        middle, top = median_max(values)
        over = len([v for v in values if pico_ms(v, calibration) > 5])
        result["steps"][name] = {"count": len(values), "median": middle, "max": top,
                                 "pico_median_ms": round(pico_ms(middle, calibration), 2),
                                 "pico_max_ms": round(pico_ms(top, calibration), 2),
                                 "over_5ms": over}
        print("%-8s %6d %10d %6.2f ms %10d %6.2f ms %d" % (
            name, len(values), middle, pico_ms(middle, calibration), top,
            pico_ms(top, calibration), over))
    print(json.dumps(result))
    return result


def main(args):
    romfs = "--romfs" in args
    rest = [a for a in args if not a.startswith("--")]
    minutes = rest[0] if rest else "10"
    if "--steps" in args:
        return main_steps(minutes, romfs)
    if "--pairs" in args:
        return main_pairs(minutes, romfs)
    return main_collections(minutes, romfs)


def source(romfs):
    return "a ROMFS image" if romfs else ".mpy files"


def main_collections(minutes, romfs):
    """The whole run's collections (the module's first form)."""
    from mpyhelp import tool
    micropython = tool("micropython")
    with tempfile.TemporaryDirectory() as tmp:
        command = bench_command(tmp, minutes, romfs, micropython)
        out_file = os.path.join(tmp, "loop.out")
        printed = counted(command, out_file)
        report = json.loads(printed.strip().splitlines()[-1])
        found, total = inclusive(out_file)
        n = calls(out_file, "gc_collect")
        calibration = calibration_instructions(tmp, micropython)
    result = {"minutes": int(minutes), "romfs": romfs, "collections": n,
              "app_collections": report["collections"], "instructions": total,
              "calibration_loop": calibration}
    for key in ("gc_collect", "mark", "sweep", "stack"):
        result["%s_per_collection" % key] = found.get(key, 0) // max(n, 1)
    result["alloc_share"] = round(found.get("alloc", 0) / total, 4)
    print("the firmware from %s, %s simulated minutes: %d collections (%d the App's)" % (
        source(romfs), minutes, n, report["collections"]))
    print("a collection: %d instructions (marking %d, sweeping %d, the stack %d)" % (
        result["gc_collect_per_collection"], result["mark_per_collection"],
        result["sweep_per_collection"], result["stack_per_collection"]))
    print("the allocator: %.1f %% of all %d instructions; one calibration loop: %d" % (
        100 * result["alloc_share"], total, calibration))
    print(json.dumps(result))
    return result


if __name__ == "__main__":
    main(sys.argv[1:])
