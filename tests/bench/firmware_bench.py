"""How long the App's step takes, CPython or MicroPython, with Pico-equivalent
figures, and on MicroPython how much heap a whole game needs.

    python tests/bench/firmware_bench.py
    micropython -X heapsize=480K tests/bench/firmware_bench.py [LIB [STORE]]
    mpremote mount . run tests/bench/firmware_bench.py      # on a Pico
    >>> exec(open("tests/bench/firmware_bench.py").read())  # CircuitPython's REPL

Run from the repository's root (``firmware``, ``engine`` and ``tests/bench``
are found by fixed relative paths: on a Pico through a raw REPL there is no
``__file__``), or on a CircuitPython board from the drive's root, with
``tests/bench/`` copied onto it and the engine and firmware in its ``lib/``
(docs/circuitpython.md). On the 64-bit unix port give it 480K: the Pico's
245,888-byte heap is 15,368 blocks of 16 bytes, and 480K is as many blocks of
32, so a collection walks as many blocks (a smaller heap makes collections
look shorter than the Pico's, a larger one longer), and the objects, some
1.75 times larger here, fill about the same share of it. The output says
what the heap it ran in means (calibration.heap_advice): on a board, the
board's own heap; on the unix port, how it compares with that.

LIB, if given, is a folder put first on sys.path: the engine and firmware
compiled to .mpy with mpy-cross, as the Pico runs them ("." for none).
STORE, if given, is an empty folder: a kendall game is then played once more
with the game saved after every throw and move, as on the Pico, and the
recognising step timed with its save (CPython uses a temporary folder;
CircuitPython has none, and its drive is the laptop's while the benchmark
runs, so there it is timed without saving).

A 100,000-iteration ``s ^= i`` loop takes 966 ms on a 125 MHz RP2040 under
MicroPython 1.28 (calibration.py); the same loop is timed here, in this
process, so Pico-equivalent ms = measured ms x 966 / calibration ms.

- ``idle_step_us``: a step where nothing changes (the board at rest, no timer
  due, no blink frame to draw): what the Pico's loop costs between events.
- ``redraw_step_us``: a step that only draws the next frame of a blink.
- ``settle_step_us``: the step at which the board has rested for the settle
  time, the move is recognised, played in the engine and the new frame is
  rendered (no saving: the bench has no store); the median over every move of
  a kendall and a hungarian game. The mean and the maximum are given too: on a
  busy host the maximum is mostly the scheduler, not the App.

Step timings are medians and the calibration is the fastest of five runs
spread over the bench, so that other processes on a busy host disturb the
figures as little as possible; on a quiet host the runs agree.
- ``settle_save_step_us``, ``pico_settle_save_step_ms`` (with STORE): the
  same step when it also saves the game, median and maximum over the game.
  The host's file writes are scaled as if they were Python work, so this
  Pico figure says little about the Pico's flash; it shows the save's cost
  growing with the game.
- ``collect_us``, ``pico_collect_ms``: one ``gc.collect()`` (the median of
  21) with a saved kendall game ``collect_moves`` (40) moves in, called from
  firmware.app's globals as the App's own collection is.
- ``save_step_us``, ``save_step_max_us``, ``pico_...``: the step that saves
  the game (a save was due before it and none after; median, maximum: a
  whole-file rewrite at once, if any), saved to files in RAM: the Pico's
  flash time comes on top (tests/bench/flash_bench.py).
- ``gc_steps``, ``gc_step_us``, ``gc_step_max_us``, ``pico_...``: the quiet
  pass after a save in which the App collects that throw's or move's
  garbage (before, the save step held it).
- ``work_steps``, ``work_step_us``, ``work_step_max_us``, ``pico_...``: the
  quiet steps in which the store wrote part of game.json again in the
  background (firmware/store.py ``work``): how many, median, maximum.
- ``max_step_us``, ``max_step_kind``, ``pico_max_step_ms``: the longest
  other step and what it did ("other": a lift, a redraw); ``steps_over_5ms``
  and ``steps_over_5ms_kinds`` (how many of each kind).
  That game is played three times, each step timed by its fastest run.
  Every save, collection and rewrite step is kept; of the others, the ones
  over 4 ms Pico-equivalent, up to 300 (``steps_not_noted`` counts the rest:
  on a host that runs bytecode fast against the rest, many steps come out
  long, and they once crowded out saves; ``save_steps_not_noted`` is 0).
- ``hint_step_us``, ``hint_step_max_us``, ``pico_hint_step_ms``,
  ``pico_hint_step_max_ms``: the longest step of the answer to two short
  presses (the computer's level 4 choosing the best move, docs/playing.md,
  a node a pass: firmware/computer.py ``Choosing``), median and maximum
  over every throw of a kendall game that has a choice, each throw's the
  fastest of three asks; ``hint_total_us``, ``pico_hint_total_ms``: all of
  a hint's passes together, median.
- ``clock``, ``clock_step_us``: what the times were taken with
  (calibration.py's CLOCK) and its smallest step. On a clock as coarse as
  ``supervisor.ticks_ms`` (1000 us) a single step's figure is mostly 0 or
  one step; the calibration and the means are still good.
- ``peak_heap_bytes`` (MicroPython and CircuitPython): the high-water mark of
  ``gc.mem_alloc()`` during a whole hungarian game (not saved), everything
  imported included. The heap is collected before every step and read after it, so the
  figure is what was live before the step plus all that the step allocated
  (an upper bound: garbage made in the step counts too). The unix port is
  64-bit, so its objects are larger than the Pico's.

The game is played by scripted hands through the App contract only (lift the
origin, put the piece on its final square; a capture is a swap), with seeded
stick throws, so every run plays the same game. The last line is one JSON
object.

The collection and the save step are the firmware's, not the benchmark's.
MicroPython's collector marks on a stack of 64 entries and walks the whole
heap again each time it overflows; its first roots are the namespace of the
code running at module level and the module of the function that calls it.
So ``main`` is started from a namespace of one name, as the Pico's main.py
starts the firmware, the collection is timed from firmware.app's globals,
the files in RAM keep their pieces few, and a hint is asked in a heap with
room (a collection falling inside an import walked this module's table of
constants late and overflowed). tests/firmware_tests/test_gc_overflow.py
counts the overflows of a whole run under gdb: none (before: every one of
its collections overflowed, and ``collect_us`` was about 2.7 times the
firmware's own).
"""

import gc
import sys

sys.path.insert(0, ".")
sys.path.insert(0, "tests/bench")
import calibration as _calibration  # noqa: E402
ARGS = getattr(sys, "argv", [])
if len(ARGS) > 1 and ARGS[1] != ".":
    if ARGS[1] == "/rom":       # run through tests/romfs_run.py: the firmware in a ROMFS image
        sys.path.insert(0, "tests")
        import romfs_mount  # noqa: E402,F401
        sys.path.pop(0)
    sys.path.insert(0, ARGS[1])
STORE = ARGS[2] if len(ARGS) > 2 else None
if STORE is None and sys.implementation.name == "cpython":
    import tempfile
    STORE = tempfile.mkdtemp()

from calibration import CLOCK, ticks_us, ticks_diff  # noqa: E402

from engine.sticks import XorShift
from firmware.app import App

PICO_CALIBRATION_MS = _calibration.PICO_MS
OFF = 31                                 # engine.position.OFF
TICK_MS = 10
# What a noted step did: the save (the step after a commit, where the App
# saves it), a commit of each kind, none of these, a quiet pass's part of
# game.json written again in the background (firmware/store.py), or the
# quiet pass after a save in which the App collects.
_KINDS = ("save", "throw", "move", "pass", "start", "new", "undo", "other", "work", "gc")
_COMMITS = _KINDS[1:7]
_SAVE = 0
_QUIET = 7
_WORK = 8
_GC = 9                  # the quiet pass after a save, in which the App collects
RUNS = 3                                 # saved games played, for the fastest of each step
MICROPYTHON = sys.implementation.name == "micropython"
HEAP = hasattr(gc, "mem_alloc")          # MicroPython and CircuitPython


_calibrations = []


def calibrate():
    """Time the calibration loop once more (calibration.py: at module level,
    as the Pico's 1,008 ms figure was); return the fastest run so far. It runs
    between the parts of the bench; the fastest run is the one that other
    processes on the host disturbed least."""
    _calibrations.append(_calibration.calibrate(1))
    return min(_calibrations)


class MemoryFlash:
    """Files in RAM for Store(fs=...): the save's own work is timed, not the
    host's disk (its renames and os.sync() are nothing like the Pico's)."""

    def __init__(self):
        self.files = {}
        self.changes = 0                 # opens to write, writes, renames, removes

    def open(self, path, mode="r"):
        return _MemoryFile(self, path, mode)

    def _has(self, path):
        if path not in self.files:
            raise OSError(2)

    def rename(self, old, new):
        self._has(old)
        self.changes += 1
        self.files[new] = self.files.pop(old)

    def remove(self, path):
        self._has(path)
        self.changes += 1
        del self.files[path]

    def stat(self, path):
        self._has(path)
        return (0, 0, 0, 0, 0, 0, len(self.files[path]))


class _MemoryFile:
    def __init__(self, flash, path, mode):
        if mode[0] == "r":
            flash._has(path)
        elif mode[0] == "w":
            flash.files[path] = ""
        if mode[0] != "r":
            flash.changes += 1
        self.flash = flash
        self.path = path
        self.parts = []

    def write(self, text):
        """Keep the pieces written few (joined every 8): a long list of
        small strings, as a whole-file rewrite writes them, would be a
        block the collector must push every piece of at once, and overflow
        its mark stack, a cost of the benchmark's, not of the Pico's flash."""
        parts = self.parts
        parts.append(text)
        if len(parts) == 8:
            self.parts = ["".join(parts)]
        self.flash.changes += 1
        return len(text)

    def read(self, size=-1):
        return self.flash.files[self.path]

    def flush(self):
        pass

    def close(self):
        if self.parts:
            files = self.flash.files
            files[self.path] = files.get(self.path, "") + "".join(self.parts)
            self.parts = []


def saving_app(seed):
    """A kendall App saving its game to a MemoryFlash: (app, flash)."""
    import firmware.app
    from firmware.store import Store
    flash = MemoryFlash()
    real = firmware.app.Store
    firmware.app.Store = lambda folder: Store(folder, fs=flash)
    try:
        app = App(config={"ruleset": "kendall"}, store_dir="flash", rng=XorShift(seed))
        return app, flash
    finally:
        firmware.app.Store = real


class Steps:
    """The long and the save steps of one game played several times, each
    with its fastest run (a step is long only if long in every run: other
    processes on the host do not make one so). The first run lists them
    (step * 16 + kind) in arrays of 32-bit numbers made whole at the start,
    ``size`` long, so the heap they take does not depend on the host's load
    and is half a list's on a 64-bit port (``missed`` counts what did not
    fit); later runs lower their times or drop them."""

    def __init__(self, size=1200):
        from array import array
        self.keys = array("i", range(size))      # one block each, sized at once
        self.took = array("i", range(size))
        self.count = 0
        self.missed = 0
        self.runs = 0
        self._at = 0

    def begin(self):
        self.runs += 1
        self._at = 0
        took = self.took
        for i in range(self.count):
            took[i] = -took[i]           # not yet seen in this run

    def note(self, key, us):
        if self.runs == 1:
            if self.count == len(self.keys):
                self.missed += 1
                return
            self.keys[self.count] = key
            self.took[self.count] = us
            self.count += 1
            return
        keys = self.keys
        at = self._at
        while at < self.count and keys[at] < key:
            at += 1
        self._at = at
        if at < self.count and keys[at] == key and self.took[at] < 0:
            self.took[at] = min(-self.took[at], us)

    def end(self):
        took = self.took
        for i in range(self.count):
            if took[i] < 0:
                took[i] = 0              # not long in this run


_TIMED_COLLECT = """
def _bench_collect(took, ticks_us, ticks_diff):
    for i in range(len(took)):
        start = ticks_us()
        gc.collect()
        took[i] = ticks_diff(ticks_us(), start)
"""


def collection_us(repeats=21):
    """Median microseconds of one ``gc.collect()`` in the heap as it is,
    called from firmware.app's own globals as the App's collection is: the
    collector's first roots are the running code's namespace and the calling
    function's module, so from here the benchmark's own would be marked
    first."""
    import firmware.app
    module = firmware.app.__dict__
    exec(_TIMED_COLLECT, module)
    took = [0] * repeats
    try:
        module["_bench_collect"](took, ticks_us, ticks_diff)
    finally:
        del module["_bench_collect"]
    return median(took)


def median(values):
    """The middle value; ``values`` is sorted in place (a copy needs a block
    as long as the list, which a cut-up small heap may not have)."""
    values.sort()
    return values[len(values) // 2]


def bit(square):
    return 1 << (square - 1)


class Hands:
    """A clock, a button and the pieces, stepping one App and timing it."""

    def __init__(self, app, track_heap=False, long_us=None, flash=None):
        self.app = app
        self.flash = flash               # a MemoryFlash: a quiet step that wrote is "work"
        self.t = 0
        self.occ = 0
        self.button = False
        self.settle_us = []
        self.track_heap = track_heap
        self.peak_heap = 0
        self.steps = 0
        # long_us: every step over it is noted, and every save step, in
        # ``steps`` (a Steps, shared by the runs of one game)
        self.long_us = long_us
        self.steps_seen = None           # the save, collection and rewrite steps (Steps)
        self.long_seen = None            # the other steps over long_us (Steps)
        self._committed = False
        self.hint_us = None              # a list: ask for a hint before each move, time it
        self.hint_passes = []            # the passes of the hint under way (its search's slices)
        self.hint_total_us = []          # per hint: all its passes together
        self.spare = None                # a block of garbage a pass (step)

    def step(self):
        self.t += TICK_MS
        app = self.app
        if self.track_heap:
            gc.collect()
        flash = self.flash
        changes = flash.changes if flash is not None else 0
        due = getattr(app, "_save_due", None)
        thinking = getattr(app, "_thinking", None) is not None
        collect_due = getattr(app, "_collect_due", False)
        self.spare = (self.t,)           # a block of garbage a pass, as the board loop
        start = ticks_us()               # makes (firmware/board.py _SPARE)
        out = app.step(self.t, self.occ, self.button)
        took = ticks_diff(ticks_us(), start)
        if thinking and self.hint_us is not None:
            self.hint_passes.append(took)
        if self.track_heap:
            used = gc.mem_alloc()
            if used > self.peak_heap:
                self.peak_heap = used
        self.steps += 1
        if due is None:                  # an App that does not say: the step after a commit
            kind = _SAVE if self._committed else _QUIET
        else:                            # the step that made the save due
            kind = _SAVE if due and not app._save_due else _QUIET
        if kind == _QUIET and flash is not None and flash.changes != changes:
            kind = _WORK
        if kind == _QUIET and collect_due and not app._collect_due:
            kind = _GC
        self._committed = False
        for e in out:
            name = e["event"]
            if name == "move":
                self.settle_us.append(took)
            elif name == "hint" and self.hint_us is not None:
                # the hint's longest pass: its search goes a slice a pass
                # (firmware/computer.py Choosing); an App that chooses in
                # one step has only this one
                passes = self.hint_passes
                if not passes:
                    passes.append(took)
                self.hint_us.append(max(passes))   # play_game keeps each throw's fastest
                self.hint_total_us.append(sum(passes))
                self.hint_passes = []
            if name in _COMMITS and kind != _SAVE:
                kind = _KINDS.index(name)
                self._committed = True   # the App saves it at its next step
        if self.long_us is not None:     # the goal's steps apart: a host on which many
            if kind == _SAVE or kind == _WORK or kind == _GC:   # steps are long must not
                self.steps_seen.note(self.steps * 16 + kind, took)  # crowd them out
            elif took > self.long_us:
                self.long_seen.note(self.steps * 16 + kind, took)
        return out

    def wait(self, ms):
        end = self.t + ms
        while self.t < end:
            self.step()

    def rest(self):
        self.wait(self.app.config["settle_ms"] + 60)

    def lift(self, square):
        self.occ &= ~bit(square)
        self.wait(60)

    def place(self, square):
        self.occ |= bit(square)
        self.wait(60)

    def press(self):
        self.button = True
        self.wait(120)
        self.button = False
        self.wait(60)

    def play(self, move):
        """Make an engine move by hand: a capture swaps the two pieces (C6);
        water and happiness go straight to the final square."""
        o = move.origin
        to = move.to
        final = move.final
        self.lift(o)
        if move.capture:
            self.lift(to)
            if final != OFF:
                self.place(final)
            self.place(o)
        elif final != OFF:
            self.place(final)
        self.rest()


def play_game(hands, seed, max_actions=3000, moves=None):
    """Set the pieces up and play to the end (or ``moves`` moves); return
    the moves played."""
    from engine.position import Position
    app = hands.app
    rng = XorShift(seed)
    hands.occ = Position.parse(app.position).occupancy()
    hands.rest()
    played = 0
    for _ in range(max_actions):
        state = app.state
        if state == "game_over" or played == moves:
            return played
        if state == "opening" or state == "throw":
            hands.press()
        elif state == "move":
            legal = app.moves
            if hands.hint_us is not None and len(legal) > 1:
                asked = len(hands.hint_us)
                for _ in range(3):       # two short presses: the hint, asked 3 times
                    # in a heap with room, as on a board, where the save that
                    # followed the throw collected: a collection falling
                    # inside the step would be timed with the hint
                    gc.collect()
                    hands.press()
                    hands.press()
                    for _ in range(2000):    # its search's passes, back to back
                        if not getattr(app, "busy", False):
                            break
                        hands.step()
                    hands.wait(700)
                if len(hands.hint_us) > asked:
                    fastest = min(hands.hint_us[asked:])
                    del hands.hint_us[asked:]
                    hands.hint_us.append(fastest)
            hands.play(legal[rng.randrange(len(legal))])
            played += 1
        else:
            hands.wait(500)
    raise RuntimeError("the game did not end (state %s)" % app.state)


def idle_figures(app, now, occ, rounds=200):
    """(idle us, redraw us), medians over ``rounds`` frame periods: steps
    within one frame period change nothing; the first step of each period
    draws the blink's next frame."""
    period = 40                                # firmware.app.FRAME_MS
    per_round = len(range(1, period, 3))
    idle = [0] * rounds              # made whole before the heap is cut up
    redraw = [0] * rounds
    for r in range(rounds):
        t = now + r * period
        start = ticks_us()
        app.step(t, occ, False)
        redraw[r] = ticks_diff(ticks_us(), start)
        start = ticks_us()
        for dt in range(1, period, 3):
            app.step(t + dt, occ, False)
        idle[r] = ticks_diff(ticks_us(), start) / per_round
    return median(idle), median(redraw)


def pico_ms(us, calibration):
    return us / 1000 * PICO_CALIBRATION_MS / calibration


def settle_figures(report):
    """A whole game of each ruleset, timing the step that recognises each
    move: the settle figures, as sorted timings."""
    settle = []
    for name, seed in (("kendall", 3), ("hungarian", 4)):
        hands = Hands(App(config={"ruleset": name}, rng=XorShift(seed)))
        played = play_game(hands, seed)
        settle.extend(hands.settle_us)
        print("%-9s game: %d moves in %d steps" % (name, played, hands.steps))
        hands = None
        gc.collect()
        calibrate()
    settle.sort()
    report["settle_step_us"] = median(settle)
    report["settle_step_mean_us"] = round(sum(settle) / len(settle), 1)
    report["settle_step_max_us"] = settle[-1]
    report["settle_steps"] = len(settle)


def idle_part(report):
    """Idle: a throw is pending and the board is at rest (the side light
    breathes, so every 40 ms a frame is drawn)."""
    hands = Hands(App(config={"ruleset": "kendall"}, rng=XorShift(1)))
    hands.occ = 0x3FF
    hands.rest()
    while hands.app.state != "move":
        hands.press()
    hands.rest()
    idle, redraw = idle_figures(hands.app, hands.t + 1000, hands.occ)
    report["idle_step_us"] = round(idle, 1)
    report["redraw_step_us"] = round(redraw, 1)


def settle_save_part(report, calibration):
    """A kendall game saved to STORE: the recognising step with its save."""
    hands = Hands(App(config={"ruleset": "kendall"}, store_dir=STORE, rng=XorShift(3)))
    play_game(hands, 3)
    saving = hands.settle_us
    hands = None
    gc.collect()
    report["settle_save_step_us"] = median(saving)
    report["settle_save_step_max_us"] = max(saving)
    report["pico_settle_save_step_ms"] = round(pico_ms(median(saving), calibration), 2)
    report["pico_settle_save_step_max_ms"] = round(pico_ms(max(saving), calibration), 2)


def saved_steps(calibration):
    """The same saved kendall game RUNS times: every step's fastest run."""
    long_us = 4 * calibration * 1000 / PICO_CALIBRATION_MS       # 4 ms on a Pico
    gc.collect()
    kept = Steps(900)                    # a game's saves, collections and rewrite steps:
    long = Steps(300)                    # 834; the other long steps, fewer on a Pico (the
    #                                      two as large as the one list before, in a small heap)
    for _ in range(RUNS):
        app, flash = saving_app(3)
        hands = Hands(app, long_us=long_us, flash=flash)
        app = flash = None
        hands.steps_seen = kept
        hands.long_seen = long
        kept.begin()
        long.begin()
        play_game(hands, 3)
        kept.end()
        long.end()
        kept.per_game = hands.steps
        hands = None
        gc.collect()
    return kept, long


def long_steps(report, kept, long, calibration):
    """The save step, the background rewrite's steps and the longest other
    step, from the noted steps (read in place: a copy needs room)."""
    count = kept.count
    keys = kept.keys
    took = kept.took
    report["steps_per_game"] = kept.per_game
    report["steps_not_noted"] = kept.missed + long.missed
    report["save_steps_not_noted"] = kept.missed         # 0: the goal's figures are whole
    # every save step is noted, 0 included: with a 1 ms clock (supervisor.
    # ticks_ms) a fast save reads 0, which is a reading, not a gap
    saves = [took[i] for i in range(count) if keys[i] & 15 == _SAVE]
    work = [took[i] for i in range(count) if keys[i] & 15 == _WORK]
    collections = [took[i] for i in range(count) if keys[i] & 15 == _GC]
    five = 5 * calibration * 1000 / PICO_CALIBRATION_MS
    longest = 0
    over = 0
    kinds = {}
    for steps in (kept, long):
        for i in range(steps.count):
            kind = steps.keys[i] & 15
            if kind == _SAVE or kind == _GC:
                continue
            us = steps.took[i]
            if us > five:
                over += 1
                kinds[_KINDS[kind]] = kinds.get(_KINDS[kind], 0) + 1
            if us > longest:
                longest = us
                report["max_step_kind"] = _KINDS[kind]
    report["save_step_us"] = median(saves)
    report["save_step_max_us"] = max(saves)
    report["gc_steps"] = len(collections)
    report["gc_step_us"] = median(collections) if collections else 0
    report["gc_step_max_us"] = max(collections) if collections else 0
    report["work_steps"] = len(work)
    report["work_step_us"] = median(work) if work else 0
    report["work_step_max_us"] = max(work) if work else 0
    report["max_step_us"] = longest                   # the save step aside
    report.setdefault("max_step_kind", "none over 4 ms")
    report["steps_over_5ms"] = over
    report["steps_over_5ms_kinds"] = kinds
    import pairs                         # the goal's figure: each save with its collection
    pairs.into(report, ((keys[i] & 15, took[i]) for i in range(count)), _SAVE, _GC,
               calibration)


def collect_part(report):
    """One collection with a saved game going on, 40 moves in."""
    hands = Hands(saving_app(3)[0])
    report["collect_moves"] = play_game(hands, 3, moves=40)
    report["collect_us"] = collection_us()


def hint_part(report, calibration):
    """The hint's step: level 4 choosing, before every move with a choice."""
    hands = Hands(saving_app(3)[0])      # it saves and collects, as a board does: an App
    hands.hint_us = []                   # without a store left it to the heap's being full
    play_game(hands, 3)
    hints = hands.hint_us
    totals = hands.hint_total_us
    hands = None
    gc.collect()
    report["hint_steps"] = len(hints)
    if hints:                            # (firmware without the hint has none)
        report["hint_step_us"] = median(hints)
        report["hint_step_max_us"] = hints[-1]
        report["hint_total_us"] = median(totals)
        report["pico_hint_total_ms"] = round(pico_ms(report["hint_total_us"], calibration), 1)
        for key in ("hint_step", "hint_step_max"):
            report["pico_%s_ms" % key] = round(pico_ms(report[key + "_us"], calibration), 1)


def heap_part(report):
    """The heap's high-water mark over a whole hungarian game."""
    gc.collect()
    report["heap_at_start_bytes"] = gc.mem_alloc()
    hands = Hands(App(config={"ruleset": "hungarian"}, rng=XorShift(4)), track_heap=True)
    play_game(hands, 4)
    report["peak_heap_bytes"] = hands.peak_heap
    hands = None
    gc.collect()
    heap = gc.mem_free() + gc.mem_alloc()
    report["heap_bytes"] = heap
    print("heap: %d bytes: %s" % (heap, _calibration.heap_advice(heap)))


def pico_figures(report, calibration):
    """Every time figure's Pico-equivalent."""
    for key in ("save_step", "save_step_max", "gc_step", "gc_step_max", "work_step",
                "work_step_max", "max_step",
                "collect"):
        report["pico_%s_ms" % key] = round(pico_ms(report[key + "_us"], calibration), 2)
    report["pico_idle_step_ms"] = round(pico_ms(report["idle_step_us"], calibration), 4)
    report["pico_redraw_step_ms"] = round(pico_ms(report["redraw_step_us"], calibration), 3)
    for key in ("settle_step", "settle_step_max"):
        report["pico_%s_ms" % key] = round(pico_ms(report[key + "_us"], calibration), 3)


# The lines for people, compiled only once every figure is taken: their
# format strings would otherwise sit in this module's one table of
# constants, which the collector pushes onto its mark stack whole, and that
# table is already near the stack's 64 entries (docs/dev/firmware-modules.md,
# "The collector's mark stack").
REPORT_LINES = """
def print_steps(report):
    print("calibration loop: %.2f ms (fastest of %d runs: %s; %d ms on a Pico)" % (
        report["calibration_ms"], len(_calibrations),
        " ".join("%.1f" % c for c in _calibrations), PICO_CALIBRATION_MS))
    print("idle step %.1f us (Pico %.3f ms), blink redraw %.1f us (Pico %.2f ms)" % (
        report["idle_step_us"], report["pico_idle_step_ms"], report["redraw_step_us"],
        report["pico_redraw_step_ms"]))
    print("settle step %d us median, %.1f us mean, %d us max over %d moves"
          " (Pico %.2f ms median, %.2f ms max)" % (
              report["settle_step_us"], report["settle_step_mean_us"],
              report["settle_step_max_us"], report["settle_steps"],
              report["pico_settle_step_ms"], report["pico_settle_step_max_ms"]))
    if "peak_heap_bytes" in report:
        print("heap: %d bytes live before the game, %d bytes at the peak of a whole game" % (
            report["heap_at_start_bytes"], report["peak_heap_bytes"]))
    print("one collection with a game going on (%d moves in): %d us (Pico %.2f ms)" % (
        report["collect_moves"], report["collect_us"], report["pico_collect_ms"]))


def print_saves(report):
    print("save step (the write): %d us median, %d us max (Pico %.2f ms, %.2f ms)"
          % (report["save_step_us"], report["save_step_max_us"], report["pico_save_step_ms"],
             report["pico_save_step_max_ms"]))
    if report["gc_steps"]:
        print("its collection, the quiet pass after: %d us median, %d us max over %d"
              " (Pico %.2f ms, %.2f ms)" % (report["gc_step_us"], report["gc_step_max_us"],
                                          report["gc_steps"], report["pico_gc_step_ms"],
                                          report["pico_gc_step_max_ms"]))
    if report["save_gc_pairs"]:
        print(_pairs.line(report))
    print("game.json written again in the background: %d quiet steps, %d us median, %d us max"
          " (Pico %.2f ms, %.2f ms)" % (report["work_steps"], report["work_step_us"],
                                        report["work_step_max_us"], report["pico_work_step_ms"],
                                        report["pico_work_step_max_ms"]))
    print("longest other step: %d us, %s (Pico %.2f ms); %d steps over 5 ms (Pico) of %d" % (
        report["max_step_us"], report.get("max_step_kind"), report["pico_max_step_ms"],
        report["steps_over_5ms"], report["steps_per_game"]))
    kinds = report["steps_over_5ms_kinds"]
    print("steps over 5 ms (Pico) by what they did: %s" % (
        ", ".join("%s %d" % (k, kinds[k]) for k in sorted(kinds)) or "none"))
    if report["hint_steps"]:
        print("hint step (level 4 chooses, its longest pass): %d us median, %d us max over"
              " %d throws (Pico %.1f ms, %.1f ms); all its passes %d us median (Pico %.1f ms)" % (
                  report["hint_step_us"], report["hint_step_max_us"], report["hint_steps"],
                  report["pico_hint_step_ms"], report["pico_hint_step_max_ms"],
                  report.get("hint_total_us", 0), report.get("pico_hint_total_ms", 0)))
    if "settle_save_step_us" in report:
        print("settle step with the save: %d us median, %d us max (Pico %.1f ms median, "
              "%.1f ms max)" % (report["settle_save_step_us"], report["settle_save_step_max_us"],
                                report["pico_settle_save_step_ms"],
                                report["pico_settle_save_step_max_ms"]))
"""


def main():
    """The parts in turn, each a function of its own with few constants:
    one table of some 60 strings was enough to overflow the collector's
    mark stack in every collection, and the figures carried that cost."""
    calibrate()
    report = {"implementation": sys.implementation.name, "clock": CLOCK,
              "clock_step_us": _calibration.clock_step_us()}
    settle_figures(report)
    idle_part(report)
    gc.collect()
    calibrate()
    calibration = calibrate()
    if STORE is not None:
        settle_save_part(report, calibration)
    for _ in range(3):                   # a busy host's slow calibration would hide them
        calibration = calibrate()
    kept, long = saved_steps(calibration)
    calibration = calibrate()
    long_steps(report, kept, long, calibration)
    kept = long = None
    collect_part(report)
    gc.collect()
    calibration = calibrate()
    hint_part(report, calibration)
    calibration = min(calibration, calibrate())
    report["calibration_ms"] = round(calibration, 2)
    pico_figures(report, calibration)
    if HEAP:
        heap_part(report)
    import pairs
    lines = {"_calibrations": _calibrations, "PICO_CALIBRATION_MS": PICO_CALIBRATION_MS,
             "_pairs": pairs}
    exec(REPORT_LINES, lines)
    lines["print_steps"](report)
    lines["print_saves"](report)
    import json
    print(json.dumps(report))


# Started as the Pico's main.py starts the firmware, from a namespace of one
# name: the code running at module level gives the collector its first
# roots, and the benchmark's globals there were marked before the firmware's
# in every collection (tests/firmware_tests/test_gc_overflow.py).
exec("main()", {"main": main})
