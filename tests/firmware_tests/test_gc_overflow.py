"""The firmware's collections never overflow MicroPython's mark stack: counted
in a real run of the board loop, under gdb.

MicroPython's collector (py/gc.c) marks depth first on a stack of 64
entries. When the stack is full it notes an overflow and, once marking
ends, ``gc_collect_end`` walks the whole allocation table and scans every
marked block again, one such pass per overflow: a collection then costs 2 to
20 times as much. tests/firmware_tests/test_gc_mark_stack.py replays the
marking on a copy of the heap (a model); here the real collector is watched.

The unix port we run (the ``micropython_run`` extension of the MicroPython
package) keeps its symbols, so gdb can break on ``gc_collect_end`` (once per
collection) and on the instruction that starts each overflow pass (it clears
the overflow flag: the first ``movl $0x0`` in ``gc_collect_end``, found in
the library's own code, not assumed). Breakpoints count; nothing is timed,
so the verdict does not depend on the host's speed (``HANG_S`` only catches
a hang).

The run is tests/bench/loop_bench.py: firmware/board.py ``run`` itself on
the fake machine, started from a shim as the Pico's main.py starts it,
players' hands playing seeded games of kendall and then hungarian, asking
for hints now and then, each game saved to files, the clock simulated. A second test runs the same counter on
a script that must overflow, so a count of 0 is a finding, not a blind
counter.
"""

import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys

import pytest

from mpyhelp import ROOT, compile_lib, tool

pytestmark = pytest.mark.micropython

HEAP = "480K"                  # the Pico's number of blocks (docs/dev/firmware-modules.md)
MINUTES = 120                  # simulated: whole games of both rulesets
HANG_S = 600                   # only a hang takes this long (the run takes some 20 s)
BENCH = os.path.join(ROOT, "tests", "bench", "loop_bench.py")
FIRMWARE_BENCH = os.path.join("tests", "bench", "firmware_bench.py")    # run from ROOT

COUNTER = """
set pagination off
set $n = 0
set $ov = 0
catch load micropython_run
run
delete
break gc_collect_end
commands
silent
set $n = $n + 1
continue
end
break *(gc_collect_end+%d)
commands
silent
set $ov = $ov + 1
continue
end
continue
printf "COLLECTIONS %%d OVERFLOW_PASSES %%d\\n", $n, $ov
"""

# Every block points to the next, built from the far end: the marking goes
# down a chain whose every link also holds an unmarked 80-byte buffer, so
# the stack fills with buffers until it overflows.
CHAIN = """
import gc
node = None
for i in range(1700):
    node = (bytearray(80), node)
for i in range(5):
    gc.collect()
print("CHAIN DONE")
"""


def gdb():
    """gdb, or the test fails saying how to get it (never a skip)."""
    found = shutil.which("gdb")
    if not found:
        pytest.fail("gdb is not installed, so the collector cannot be watched: install "
                    "Debian's gdb (apt-get install gdb; scripts/test.sh does it as root)")
    return found


def collector_library():
    spec = importlib.util.find_spec("micropython_run")
    if spec is None or not spec.origin:
        pytest.fail("the MicroPython unix port's library (micropython_run) is not installed: "
                    "run scripts/test.sh, or pip install -e '.[test]'")
    return spec.origin


def overflow_pass_offset():
    """Where, in ``gc_collect_end``, each overflow pass begins: the first
    instruction that writes 0 to the overflow flag (gc.c:
    ``MP_STATE_MEM(gc_stack_overflow) = 0`` at the top of its loop)."""
    out = subprocess.run([gdb(), "-batch", "-ex", "disassemble gc_collect_end",
                          collector_library()], capture_output=True, text=True,
                         timeout=HANG_S).stdout
    found = re.search(r"<\+(\d+)>:\s+movl\s+\$0x0,(0x[0-9a-f]+)\(%r\w+\)", out)
    if not found:
        pytest.fail("no 'movl $0x0,...' in gc_collect_end: this MicroPython build is not "
                    "one the overflow counter knows; gdb said:\n" + out[:2000])
    flag = found.group(2)
    before = out[:found.start()]
    if not re.search(r"mov\s+%s\(%%r\w+\),%%\w+" % flag, before):
        pytest.fail("gc_collect_end does not read the flag at %s before clearing it: not the "
                    "overflow loop the counter knows; gdb said:\n%s" % (flag, out[:2000]))
    return int(found.group(1))


def counted(tmp_path, args, cwd=None):
    """Run the unix port with ``args`` under gdb (in ``cwd``, else
    ``tmp_path``): (collections, overflow passes, the program's output)."""
    script = tmp_path / "count.gdb"
    script.write_text(COUNTER % overflow_pass_offset())
    result = subprocess.run(
        [gdb(), "-batch", "-x", str(script), "--args", sys.executable, tool("micropython"),
         "-X", "heapsize=" + HEAP] + args, cwd=cwd or str(tmp_path), capture_output=True,
        text=True, timeout=HANG_S)
    out = result.stdout
    found = re.search(r"COLLECTIONS (\d+) OVERFLOW_PASSES (\d+)", out)
    assert found and "exited normally" in out, (
        "the run under gdb did not end normally:\n" + out[-3000:] + result.stderr[-3000:])
    return int(found.group(1)), int(found.group(2)), out


def test_the_counter_sees_the_overflow_of_a_chain_built_backwards(tmp_path):
    chain = tmp_path / "chain.py"
    chain.write_text(CHAIN)
    collections, passes, out = counted(tmp_path, [str(chain)])
    assert "CHAIN DONE" in out, out[-2000:]
    assert collections >= 5, collections
    assert passes > 0, (
        "a chain of 1,700 links, each with a buffer of its own, must overflow the mark "
        "stack, yet gdb counted no overflow pass in %d collections: the counter is blind"
        % collections)


def test_the_board_loop_never_overflows_the_mark_stack(tmp_path):
    lib = compile_lib(tmp_path / "lib")
    flash = tmp_path / "flash"
    flash.mkdir()
    collections, passes, out = counted(tmp_path, [BENCH, lib, str(flash), str(MINUTES)])
    report = json.loads([line for line in out.splitlines() if line.startswith("{\"")][-1])
    played = report["played"]
    for ruleset in ("kendall", "hungarian"):
        assert played[ruleset]["games"] >= 1, ("no %s game was played to its end" % ruleset,
                                               played)
    assert report["collections"] > 100, report["collections"]      # the App's own
    assert collections >= report["collections"], (collections, report["collections"])
    assert passes == 0, (
        "the collector's mark stack overflowed %d times in %d collections of the board "
        "loop: each overflow walks the whole heap again, so those collections took "
        "several times as long as they need (docs/dev/firmware-modules.md, 'The "
        "collector's mark stack')" % (passes, collections))
    steps = report["steps"]
    for kind in ("save", "throw", "move", "hint", "board", "redraw", "quiet"):
        assert steps[kind]["count"] > 0 and steps[kind]["max_us"] >= steps[kind]["median_us"], (
            kind, steps[kind])
    assert steps["save"]["median_us"] > 0 and report["collect_us"] > 0, report
    assert steps["save"]["count"] >= played["kendall"]["moves"], steps    # a save a move


def test_the_firmware_benchmark_measures_the_firmware_not_itself(tmp_path):
    """tests/bench/firmware_bench.py's collection and save step are the
    firmware's: its own objects do not overflow the mark stack (they did in
    every one of its collections, and its ``collect_us`` and save step
    carried that cost), and its collection is timed 40 moves into a game."""
    lib = compile_lib(tmp_path / "lib")
    store = tmp_path / "store"
    store.mkdir()
    collections, passes, out = counted(tmp_path, [FIRMWARE_BENCH, lib, str(store)], cwd=ROOT)
    report = json.loads([line for line in out.splitlines() if line.startswith("{\"")][-1])
    assert collections > 1000, collections
    assert passes == 0, (
        "the mark stack overflowed %d times in the firmware benchmark's %d collections: "
        "its figures carry the benchmark's own cost" % (passes, collections))
    assert report.get("collect_moves") == 40, report.get("collect_moves")
