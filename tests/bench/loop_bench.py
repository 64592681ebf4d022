"""The real board loop's steps and the App's collections, timed on the
MicroPython unix port, with Pico-equivalent figures.

    python tests/bench/loop_bench.py [MINUTES] [--runs N] [--romfs]
    micropython -X heapsize=480K tests/bench/loop_bench.py LIB FOLDER [MINUTES [--copies]
        [--marks | --mark-steps]]
    micropython -X heapsize=480K tests/bench/loop_bench.py LIB FOLDER MINUTES --fastest RUN...

The first compiles the engine and firmware to .mpy files in a temporary
folder, runs the second N times (default 3) as it is and N times with
``--copies``, then the third on each set of records. ``--copies`` holds a
second copy of the benchmark's own code for the run (its fake machine and
strip, its players and the calibration: tests/bench/loop_more.py): the
App's collections there less the plain runs' are what that code costs a
collection, none of which a Pico's heap holds; the first form prints the
collection less that too. LIB is that folder (put first on sys.path, as
the Pico's lib/); FOLDER an empty folder, the board's flash: each game is saved there to
files, as on the Pico (the host's file writes are timed as if they were
Python work, so the first puts it in memory, /dev/shm, where there is one:
on a disk a rename can take a millisecond). MINUTES is the simulated span
(default 60: several games), its first half a kendall board, its second a
hungarian one. ``--romfs`` runs the firmware as a Pico built with a ROMFS
partition holds it: that folder becomes an image (``mpremote romfs build``),
every run goes through tests/romfs_run.py with LIB ``/rom``, and the
firmware's bytecode and strings stay out of the heap the collector walks.

The runs are the same run: the clock is simulated and every random source
seeded, so the steps come in the same order with the same work each time
(the third form checks that they do, kind by kind). ``--fastest`` gives
each step the fastest of its times in the runs (the FOLDERs of the second
form, each holding its steps.bin): a step that the host's scheduler
interrupted in one run is seldom interrupted at the same place in the
others, so the figures are the firmware's work, not the host's load. Each
single run's figures are printed too.

The board is firmware/board.py ``run`` itself on the fake machine
(tests/fakes), its clock simulated, and players' hands scripted from what
the App shows (tests/loop_hands.py, as tests/firmware_tests/test_health_band.py
drives it). Every ``App.step`` the loop makes is timed with the real
``time.ticks_us`` and sorted by what it did, from the App's events, lights
and public state:

- ``save``: the step that saved the game (a save was due before it and none
  after): the flash write (the App collects in a later pass, ``gc``);
- ``throw``, ``move``, ``pass``, ``start``, ``new``, ``undo``: a step that
  committed one (its event);
- ``hint``: the step that showed the best move asked for with two short
  presses (the players ask before about a third of their choices): the
  last slice of the computer's level-4 search;
- ``think``: a slice of that search before it (firmware/computer.py,
  ``Choosing``: a node a pass, the board scanned between);
- ``event``: a step with other events (ready, mismatch, game over, hint...);
- ``work``: a quiet step in which the store wrote part of game.json again in
  the background (firmware/store.py ``work``);
- ``board``: the first step after the pieces moved that took the change:
  it lit it (a lift lighting its targets, a piece put down) or left the
  lights to the next pass (``App.busy``);
- ``redraw``: a step that only drew the next frame of a blink;
- ``due``: a step that did work left from the pass before (``App.busy``)
  and showed nothing yet;
- ``quiet``: nothing to do;
- ``gc``: the quiet pass after a save in which the App collected the
  garbage of the throw or move (the save step itself only writes).

Per kind: how many, the median and the maximum, and how many took over 5 ms
Pico-equivalent. The first form also gives the goal's own figure: each save
with the collection's pass after it (tests/bench/pairs.py), and that less
what the benchmark's own code adds to a collection. The collections are the
App's own (its module-level ``_collect``), each timed inside firmware.app's
globals: the collector's first roots are the globals of the function that
calls it, so these are the firmware's collections, not the benchmark's
(docs/dev/firmware-modules.md, "The collector's mark stack"). The maximum of a kind is mostly the host's
scheduler on a busy host; the medians are the App's.

A 100,000-iteration ``s ^= i`` loop takes 966 ms on a 125 MHz RP2040 under
MicroPython 1.28 (calibration.py); the same loop is timed here, the fastest
of a few runs before and after the play, so Pico-equivalent ms = measured
ms x 966 / calibration ms. Run in a 480K heap: the Pico's number of blocks.
The board's events go by first, one JSON line each, as on its serial line;
then the figures; the last line is one JSON object.
"""

import sys

if sys.implementation.name == "cpython":
    import json
    import os
    import subprocess
    import tempfile
    here = os.path.dirname(os.path.abspath(__file__))
    sys.path.insert(0, os.path.dirname(here))
    sys.path.insert(0, here)
    from mpyhelp import compile_lib, tool
    from calibration import PICO_MS
    args = sys.argv[1:]
    runs = 3
    romfs = "--romfs" in args
    if romfs:
        args.remove("--romfs")
    if "--runs" in args:
        at = args.index("--runs")
        runs = int(args[at + 1])
        del args[at:at + 2]
    minutes = args[0] if args else "60"
    memory = "/dev/shm" if os.path.isdir("/dev/shm") else None

    def combine(command, flashes, name, folders):
        folder = os.path.join(flashes, name)
        os.mkdir(folder)
        out = subprocess.run(command + [folder, minutes, "--fastest"] + folders,
                             capture_output=True, text=True)
        if out.returncode:
            sys.exit("loop_bench: combining the runs failed:\n" + out.stdout + out.stderr)
        return out.stdout

    with tempfile.TemporaryDirectory() as tmp, tempfile.TemporaryDirectory(dir=memory) as flashes:
        lib = compile_lib(os.path.join(tmp, "lib"))
        command = [tool("micropython"), "-X", "heapsize=480K", os.path.abspath(__file__), lib]
        if romfs:
            import romfs_run
            from host_tools.board.build import romfs_image
            image = os.path.join(tmp, "firmware.romfs")
            romfs_image(lib, image)
            command = romfs_run.command(image, command[1:4] + [romfs_run.MOUNT])
            print("the firmware in a ROMFS image (%d bytes), imported in place from /rom"
                  % os.path.getsize(image), flush=True)
        plain, copied = [], []
        for run in range(runs):
            for folders, extra in ((plain, []), (copied, ["--copies"])):
                flash = os.path.join(flashes, "run%d%s" % (run, "c" if extra else ""))
                os.mkdir(flash)
                folders.append(flash)
                print("run %d of %d%s" % (run + 1, runs, " (a second copy of the benchmark's"
                                          " code)" if extra else ""), flush=True)
                if subprocess.call(command + [flash, minutes] + extra):
                    sys.exit("loop_bench: run %d failed" % (run + 1))
        print("each step the fastest of the %d runs:" % runs, flush=True)
        text = combine(command, flashes, "fastest", plain)
        print(text, end="")
        with_copy = combine(command, flashes, "fastest_copied", copied)
        report = json.loads(text.strip().splitlines()[-1])
        other = json.loads(with_copy.strip().splitlines()[-1])
        share = other["collect_us"] - report["collect_us"]
        scale = PICO_MS / report["calibration_ms"] / 1000
        print("the benchmark's own code (its fake machine and strip, players and calibration; "
              "a Pico's heap holds none of it): a second copy of it made the App's collection "
              "%d us longer (%.2f ms Pico); the collection less that: %d us (%.2f ms Pico)" % (
                  share, share * scale, report["collect_us"] - share,
                  (report["collect_us"] - share) * scale))
        import pairs
        print(pairs.line(report, share))
    sys.exit(0)

import gc  # noqa: E402
import json  # noqa: E402
import os  # noqa: E402
from array import array  # noqa: E402

HERE = __file__.rsplit("/", 1)[0] if "/" in __file__ else "."
TESTS = HERE + "/.."
sys.path.insert(0, HERE)
sys.path.insert(0, TESTS + "/fakes")
sys.path.insert(0, TESTS)
if sys.argv[1] == "/rom":        # run through tests/romfs_run.py: the firmware in a ROMFS image
    import romfs_mount  # noqa: E402,F401
sys.path.insert(0, sys.argv[1])
FOLDER = sys.argv[2]
MINUTES = int(sys.argv[3]) if len(sys.argv) > 3 else 60
RUNS = sys.argv[5:] if len(sys.argv) > 4 and sys.argv[4] == "--fastest" else None
COPIES = not RUNS and "--copies" in sys.argv[4:]
MARKS = not RUNS and "--marks" in sys.argv[4:]     # tests/bench/gc_instructions.py --pairs
STEP_MARKS = not RUNS and "--mark-steps" in sys.argv[4:]   # gc_instructions.py --steps
MARKED = 0x40                     # in a record's kind byte: a step marked (--marks, --mark-steps)

import calibration  # noqa: E402
from calibration import ticks_us, ticks_diff  # noqa: E402
import firmware.app  # noqa: E402
from firmware.app import App  # noqa: E402
from firmware.store import Store  # noqa: E402
import loop_hands  # noqa: E402

KINDS = ("save", "throw", "move", "pass", "start", "new", "undo", "hint", "event", "work",
         "think", "board", "redraw", "due", "quiet", "gc", "collect")
COMMITS = KINDS[1:8]                # the hint too: an event named after its kind
EVENT = 8
WORK = 9
THINK = 10
BOARD = 11
REDRAW = 12
DUE = 13
QUIET = 14
GC = 15
COLLECT = 16
LIMIT = 1 << 24                   # us: a record is kind << 24 | us
MEDIAN_LIMIT = 16383              # us: medians are counted up to here
_calibrations = []


def calibrate():
    """One more run of the calibration loop; the fastest so far (the run
    that other processes on the host disturbed least)."""
    _calibrations.append(calibration.calibrate(1))
    return min(_calibrations)


class Records:
    """Every timing, written to a file in blocks: an hour is some 180,000
    steps, more than the heap holds. The block is made once, and written
    between steps, never inside one."""

    def __init__(self, path):
        self.path = path
        self.file = open(path, "wb")
        self.block = array("I", range(1024))
        self.n = 0
        self.missed = 0

    def note(self, kind, us):
        if self.n == len(self.block):
            self.missed += 1
            return
        if us >= LIMIT:
            us = LIMIT - 1
        self.block[self.n] = (kind << 24) | us
        self.n += 1

    def flush(self, margin=64):
        """Write the block out once it is nearly full (``margin`` 0: all)."""
        if self.n > len(self.block) - margin or (margin == 0 and self.n):
            self.file.write(memoryview(self.block)[:self.n])
            self.n = 0

    def close(self):
        self.flush(0)
        self.file.close()

    def each(self):
        """Every record, in order (a generator over the file's blocks)."""
        block = self.block
        f = open(self.path, "rb")
        try:
            while True:
                got = f.readinto(block) // 4
                if not got:
                    return
                for i in range(got):
                    yield block[i]
        finally:
            f.close()


class Watch:
    """Times every App.step and sorts it by what it did (the module's
    docstring); ``work`` is set by the store when a background rewrite was
    under way in a quiet step."""

    def __init__(self, records, hands):
        self.records = records
        self.hands = hands
        self.last_occ = None
        self.board_moved = False
        self.work = False
        self.thinking = False
        self.collected = [0]             # the App collected in this step
        self.n = 0                       # steps, for --mark-steps

    def kind(self, app, out, due_before, busy_before, occupancy):
        due_after = getattr(app, "_save_due", 0)
        if due_before and not due_after:
            return 0
        for e in out:
            name = e["event"]
            if name in COMMITS:
                return COMMITS.index(name) + 1
        if self.collected[0]:
            return GC
        if out:
            return EVENT
        if self.work:
            return WORK
        if self.thinking:
            return THINK
        left_work = getattr(app, "busy", False) and not busy_before
        if self.board_moved and (app.frame_changed or left_work):
            return BOARD
        if app.frame_changed:
            return REDRAW
        return DUE if busy_before else QUIET

    def step(self, app, real_step, now_ms, occupancy, button):
        due_before = getattr(app, "_save_due", 0)
        busy_before = getattr(app, "busy", False)
        self.work = False
        self.thinking = getattr(app, "_thinking", None) is not None
        self.collected[0] = 0
        mark = MARKS and due_before
        if STEP_MARKS:
            # every step with a job due, a board change or a press, and every
            # 20th other one (a redraw, a rewrite's pass, a quiet pass)
            self.n += 1
            mark = (busy_before or occupancy != self.last_occ or button
                    or self.n % 20 == 0)
        if mark:
            gc.isenabled()               # callgrind dumps its count here (--marks)
        start = ticks_us()
        out = real_step(app, now_ms, occupancy, button)
        took = ticks_diff(ticks_us(), start)
        if mark:
            gc.isenabled()
        kind = self.kind(app, out, due_before, busy_before, occupancy)
        if kind == BOARD or out:
            self.board_moved = False
        if occupancy != self.last_occ:
            self.board_moved = self.last_occ is not None
            self.last_occ = occupancy
        self.records.note(kind | MARKED if mark else kind, took)
        self.records.flush()
        self.hands.look(app)
        return out


TIMED_COLLECT = """
_bench_collect = _collect


def _collect():
    start = _bench_ticks_us()
    _bench_collect()
    _bench_note(%d, _bench_ticks_diff(_bench_ticks_us(), start))
    _bench_collected[0] = 1
""" % COLLECT

# --marks: gc.isenabled() called just before and after the save steps and the
# App's collections, where tests/bench/gc_instructions.py --pairs has callgrind
# dump its counts (the collection itself, without the timing around it)
MARKED_COLLECT = """
_bench_collect = _collect


def _collect():
    _bench_mark()
    _bench_collect()
    _bench_mark()
    _bench_note(%d, 0)
    _bench_collected[0] = 1
""" % COLLECT


def install(records, hands):
    """Time App.step, the App's collections (inside firmware.app's own
    globals, as the App calls its module-level ``_collect``) and note the
    store's background rewrites."""
    module = firmware.app.__dict__
    if "_collect" not in module:
        raise SystemExit("firmware.app has no _collect: the App's collections cannot be timed")
    module["_bench_ticks_us"] = ticks_us
    module["_bench_ticks_diff"] = ticks_diff
    module["_bench_note"] = records.note
    watch = Watch(records, hands)
    module["_bench_collected"] = watch.collected
    module["_bench_mark"] = gc.isenabled
    exec(MARKED_COLLECT if MARKS else TIMED_COLLECT, module)
    real_step = App.step

    def step(app, now_ms, occupancy, button):
        return watch.step(app, real_step, now_ms, occupancy, button)

    App.step = step
    real_work = Store.work

    def work(store):
        if getattr(store, "_job", None) is not None:     # a rewrite under way
            watch.work = True
        return real_work(store)

    Store.work = work


def median_of(records, kind, count, counts):
    """The median of one kind's timings, from a count of each microsecond
    in ``counts`` (the file is read once per kind; the heap holds no list of
    them). A median past the last count would read as that count's us."""
    size = len(counts)
    for us in range(size):
        counts[us] = 0
    for r in records.each():
        if (r >> 24) & (MARKED - 1) == kind:
            us = r & (LIMIT - 1)
            counts[us if us < size else size - 1] += 1
    half = count // 2
    seen = 0
    for us in range(size):
        seen += counts[us]
        if seen > half:
            return us
    return size - 1


def pico_ms(us, calibration_ms):
    return us / 1000 * calibration.PICO_MS / calibration_ms


def figures(records, calibration_ms):
    """Per kind: {count, median_us, max_us, over_5ms, pico_median_ms,
    pico_max_ms}."""
    five = 5 * calibration_ms * 1000 / calibration.PICO_MS
    count = [0] * len(KINDS)
    top = [0] * len(KINDS)
    over = [0] * len(KINDS)
    for r in records.each():
        kind = (r >> 24) & (MARKED - 1)
        us = r & (LIMIT - 1)
        count[kind] += 1
        if us > top[kind]:
            top[kind] = us
        if us > five:
            over[kind] += 1
    out = {}
    counts = array("I", range(min(max(top), MEDIAN_LIMIT) + 1))
    for kind in range(len(KINDS)):
        if count[kind]:
            middle = median_of(records, kind, count[kind], counts)
            out[KINDS[kind]] = {
                "count": count[kind], "median_us": middle, "max_us": top[kind],
                "over_5ms": over[kind],
                "pico_median_ms": round(pico_ms(middle, calibration_ms), 2),
                "pico_max_ms": round(pico_ms(top[kind], calibration_ms), 2)}
    return out


def play(records):
    """The span: a kendall board, then a hungarian one, each powered on
    with an empty flash of its own."""
    end = MINUTES * 60000
    clock = loop_hands.Clock(end // 2)
    hands = loop_hands.Hands(clock, hints=True)
    install(records, hands)
    played = {}
    for ruleset, seed in (("kendall", 3), ("hungarian", 4)):
        folder = FOLDER + "/" + ruleset
        os.mkdir(folder)
        games, moves = hands.games, hands.moves
        loop_hands.run_board(hands, clock, '{"ruleset": "%s"}' % ruleset, folder, seed)
        played[ruleset] = {"games": hands.games - games, "moves": hands.moves - moves}
        clock.end_ms = end
    return played


def main():
    for _ in range(3):
        calibrate()
    records = Records(FOLDER + "/steps.bin")
    if RUNS:
        from loop_more import fastest
        played = fastest(records, RUNS, _calibrations)
    else:
        if COPIES:
            from loop_more import copies
            kept = copies(TESTS)                 # noqa: F841  (held for the run)
        played = play(records)
        for _ in range(3):
            calibrate()
        f = open(FOLDER + "/played.json", "w")
        f.write(json.dumps({"kendall": played["kendall"], "hungarian": played["hungarian"],
                            "calibration_ms": calibrate()}))
        f.close()
    records.close()
    for _ in range(3):
        calibrate()
    calibration_ms = calibrate()
    kinds = figures(records, calibration_ms)
    report = {"implementation": sys.implementation.name, "minutes": MINUTES,
              "played": played, "calibration_ms": round(calibration_ms, 2),
              "not_noted": records.missed}
    heap = gc.mem_free() + gc.mem_alloc()
    report["heap_bytes"] = heap
    print("heap: %d bytes: %s" % (heap, calibration.heap_advice(heap)))
    print("calibration loop: %.2f ms (fastest of %d runs; %d ms on a Pico)" % (
        calibration_ms, len(_calibrations), calibration.PICO_MS))
    for ruleset in ("kendall", "hungarian"):
        print("%s: %d games ended, %d moves in %d minutes" % (
            ruleset, played[ruleset]["games"], played[ruleset]["moves"], MINUTES // 2))
    print("%-8s %7s %9s %9s %9s %9s %s" % ("step", "count", "median", "(Pico)", "max",
                                          "(Pico)", "over 5 ms (Pico)"))
    for name in KINDS:
        if name in kinds:
            k = kinds[name]
            print("%-8s %7d %6d us %6.2f ms %6d us %6.2f ms %d" % (
                name, k["count"], k["median_us"], k["pico_median_ms"], k["max_us"],
                k["pico_max_ms"], k["over_5ms"]))
    collect = kinds.pop("collect", {"count": 0, "median_us": 0, "max_us": 0,
                                    "pico_median_ms": 0, "pico_max_ms": 0})
    report["steps"] = kinds
    report["collections"] = collect["count"]
    report["collect_us"] = collect["median_us"]
    report["collect_max_us"] = collect["max_us"]
    report["pico_collect_ms"] = collect["pico_median_ms"]
    report["pico_collect_max_ms"] = collect["pico_max_ms"]
    # the save's and the collection's passes are the goal's own figures
    report["steps_over_5ms"] = sum(kinds[k]["over_5ms"] for k in kinds
                                   if k != "save" and k != "gc")
    if RUNS:            # and each save with its collection, from the combined runs:
        #                 a plain run never loads loop_more (compiled after the
        #                 play, it overflowed the mark stack 40 times)
        report["fastest_of"] = len(RUNS)
        from loop_more import pair_figures
        pair_figures(report, records, GC, calibration_ms)
    print(json.dumps(report))


main()
