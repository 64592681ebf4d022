"""The board loop's collections counted in instructions, not timed.

    python tests/bench/gc_instructions.py [MINUTES] [--romfs]

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


def main(args):
    from mpyhelp import compile_lib, tool
    romfs = "--romfs" in args
    args = [a for a in args if a != "--romfs"]
    minutes = args[0] if args else "10"
    micropython = tool("micropython")
    with tempfile.TemporaryDirectory() as tmp:
        lib = compile_lib(os.path.join(tmp, "lib"))
        flash = os.path.join(tmp, "flash")
        os.mkdir(flash)
        bench = [os.path.join(HERE, "loop_bench.py"), lib, flash, minutes]
        command = [micropython, "-X", "heapsize=480K"] + bench
        if romfs:
            import romfs_run
            from host_tools.board.build import romfs_image
            image = os.path.join(tmp, "firmware.romfs")
            romfs_image(lib, image)
            command = romfs_run.command(image, ["-X", "heapsize=480K", bench[0],
                                                romfs_run.MOUNT] + bench[2:])
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
        "a ROMFS image" if romfs else ".mpy files", minutes, n, report["collections"]))
    print("a collection: %d instructions (marking %d, sweeping %d, the stack %d)" % (
        result["gc_collect_per_collection"], result["mark_per_collection"],
        result["sweep_per_collection"], result["stack_per_collection"]))
    print("the allocator: %.1f %% of all %d instructions; one calibration loop: %d" % (
        100 * result["alloc_share"], total, calibration))
    print(json.dumps(result))
    return result


if __name__ == "__main__":
    main(sys.argv[1:])
