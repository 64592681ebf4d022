"""A collection on the Pico never overflows MicroPython's mark stack.

MicroPython's collector marks what it finds from its roots depth first, on a
stack of 64 entries (MICROPY_ALLOC_GC_STACK_SIZE, the same on the rp2 and
unix ports). Every unmarked object that a block points to goes on it when
the block is scanned. When the stack is full the collector notes an
overflow and, once marking ends, walks the whole heap again to finish, so a
collection takes about twice as long. A class table of some 60 methods (the
App's, once the modes' interface joined it), reached with part of the stack
in use, was enough: on the unix port one ``gc.collect()`` went from about
25 us to about 100 us, depending only on where the collection was called
from (tests/bench/firmware_bench.py, docs/dev/firmware-modules.md).

Timing cannot prove it here (the host is shared), so the heap itself is read:
the firmware runs on the MicroPython unix port from .mpy files, as on the
Pico, a game 40 moves in and saved; the script copies its heap (through
``uctypes``) and ``micropython.mem_info(1)`` says which blocks are objects.
Here the marking is replayed on that copy, as gc.c does it (words in order,
the last pushed scanned first), from each loaded module's globals first (the
collection's first roots are the globals of the function that calls it:
``firmware.app`` for the App's own), then the loaded modules, then the App
(the board loop holds it on the C stack).
"""

import json
import os
import re
import struct
import subprocess

import pytest

from mpyhelp import ROOT, compile_lib, tool

pytestmark = pytest.mark.micropython

STACK = 64                     # MICROPY_ALLOC_GC_STACK_SIZE
HEAP = "480K"                  # the Pico's number of blocks (docs/dev/firmware-modules.md)
BLOCK = 32                     # bytes in a block on a 64-bit port (4 words)

SCRIPT = """
import gc, sys, micropython, uctypes
sys.path.insert(0, %(lib)r)
sys.path.insert(0, %(tests)r)
from board_sim import BoardSim
from engine.sticks import XorShift
from engine.position import Position


sim = BoardSim(config=%(config)s, store_dir=%(store)r, rng=XorShift(3))
sim.set_board(Position.parse(sim.app.position).occupancy())
app = sim.app
choose = XorShift(3)
for action in range(3000):          # 40 moves in, by hand (the computer's as it lights them)
    sim.events = []
    state = app.state
    if app.game.ply_count >= 40 or state == "game_over":
        break
    if state == "opening" or state == "throw":
        sim.press()
    elif state == "move" and app.moves:
        sim.play(app.moves[choose.randrange(len(app.moves))])
    else:
        sim.wait(500)
print("PLIES", app.game.ply_count)
probe = [app]
where = None
for line in open("/proc/self/maps").read().split("\\n"):
    if line:
        lo, hi = [int(x, 16) for x in line.split()[0].split("-")]
        if lo <= id(probe) < hi:
            where = (lo, hi)
out = open(%(dump)r, "wb")
gc.collect()
micropython.mem_info(1)
print("MAP %%x %%x" %% where)
print("APP %%x" %% id(app))
lo, hi = where
while lo < hi:
    out.write(uctypes.bytearray_at(lo, min(4096, hi - lo)))
    lo += 4096
out.close()
print("DONE")
"""


class Heap:
    """A copy of the unix port's heap: the object blocks and what each points to."""

    def __init__(self, layout, data):
        self.data = data
        self.kinds = []                   # one character a block, as mem_info prints it
        self.start = self.map_lo = self.app = None
        for line in layout.splitlines():
            m = re.match(r"GC memory layout; from ([0-9a-f]+):", line)
            if m:
                self.start = int(m.group(1), 16)
                continue
            m = re.match(r"(MAP|APP) ([0-9a-f]+)", line)
            if m:
                if m.group(1) == "MAP":
                    self.map_lo = int(m.group(2), 16)
                else:
                    self.app = int(m.group(2), 16)
                continue
            m = re.match(r"\s*\((\d+) lines all free\)", line)
            if m and self.start is not None:
                self.kinds.extend("." * (64 * int(m.group(1))))
                continue
            m = re.match(r"([0-9a-f]{8}): (.*)$", line)
            if m and self.start is not None:
                first = int(m.group(1), 16) // BLOCK
                self.kinds.extend("." * (first - len(self.kinds)))
                self.kinds.extend(m.group(2))
        self.end = self.start + len(self.kinds) * BLOCK
        self.heads = {}                   # first block -> blocks in the object
        i = 0
        while i < len(self.kinds):
            if self.kinds[i] in ".=":
                i += 1
                continue
            j = i + 1
            while j < len(self.kinds) and self.kinds[j] == "=":
                j += 1
            self.heads[i] = j - i
            i = j
        self._children = {}

    def block(self, address):
        return (address - self.start) // BLOCK

    def children(self, block):
        """The objects ``block`` points to, in the order gc.c finds them."""
        if block not in self._children:
            out = []
            base = self.start + block * BLOCK - self.map_lo
            for k in range(self.heads[block] * BLOCK // 8):
                p = struct.unpack_from("<Q", self.data, base + 8 * k)[0]
                if self.start <= p < self.end and (p - self.start) % BLOCK == 0:
                    child = self.block(p)
                    if child in self.heads and child != block and child not in out:
                        out.append(child)
            self._children[block] = out
        return self._children[block]

    def modules(self):
        return [b for b in self.heads if self.kinds[b] == "M"]

    def loaded_modules_table(self):
        """The table of sys.modules: the block pointing to the most modules."""
        return max(self.heads, key=lambda b: sum(1 for c in self.children(b)
                                                 if self.kinds[c] == "M"))

    def mark(self, roots):
        """Replay gc.c's marking from ``roots`` in order; the blocks at which
        the stack overflowed (each with how many it points to)."""
        marked = set()
        overflows = {}
        for root in roots:
            if root in marked:
                continue
            marked.add(root)
            stack = []
            block = root
            while True:
                for child in self.children(block):
                    if child not in marked:
                        marked.add(child)
                        if len(stack) < STACK:
                            stack.append(child)
                        else:
                            overflows[block] = len(self.children(block))
                if not stack:
                    break
                block = stack.pop()
        return overflows


def heap_of(tmp_path, config, lib):
    dump = str(tmp_path / "heap.bin")
    store = tmp_path / "store"
    store.mkdir()
    script = SCRIPT % {"lib": lib, "tests": os.path.join(ROOT, "tests"), "config": config,
                       "store": str(store), "dump": dump}
    result = subprocess.run([tool("micropython"), "-X", "heapsize=" + HEAP, "-c", script],
                            cwd=str(tmp_path), capture_output=True, text=True, timeout=300)
    assert result.returncode == 0 and "DONE" in result.stdout, (
        result.stdout[-3000:] + result.stderr[-3000:])
    with open(dump, "rb") as f:
        return Heap(result.stdout, f.read())


@pytest.mark.parametrize("config", [{}, {"mode": "computer"}, {"mode": "museum"}],
                         ids=["two_players", "computer", "museum"])
def test_a_collection_never_overflows_the_mark_stack(tmp_path, config):
    lib = compile_lib(tmp_path / "lib")
    heap = heap_of(tmp_path, json.dumps(config) if config else "None", lib)
    assert len(heap.heads) > 500, "the heap copy holds too few objects to be the App's"
    table = heap.loaded_modules_table()
    app = heap.block(heap.app)
    assert app in heap.heads, "the App is not in the heap copy"
    found = []
    for module in [None] + heap.modules():
        first = [module] if module is not None else []
        overflows = heap.mark(first + [table, app])
        if overflows:
            found.append((module, overflows))
    widest = sorted(((len(heap.children(b)), b) for b in heap.heads), reverse=True)[:5]
    assert found == [], (
        "the mark stack overflows when collecting from %d of %d modules' globals "
        "(block: objects it points to): %s; the widest blocks: %s"
        % (len(found), len(heap.modules()) + 1, found[:3], widest))
