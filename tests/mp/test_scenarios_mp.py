"""Player's-story scenarios of the App on the MicroPython unix port, plain asserts.

Run from the repository root (LIB: the engine and firmware compiled to .mpy,
as on the Pico; STORE: an empty folder for saved games):

    micropython -X heapsize=96K tests/mp/test_scenarios_mp.py [STORE [LIB]]

or, as tests/firmware_tests/test_scenarios_micropython.py does, compiled to .mpy in LIB
itself (a script compiled at run time leaves its heap more fragmented):

    cd LIB && micropython -X heapsize=96K -m test_scenarios_mp STORE LIB

The same stories as tests/firmware_tests/test_app_scenarios.py and a part of the other App
tests: the opening, a capture swap, the water trap both ways, the House of
Happiness, bearing off, a knocked piece, a wrong square, a takeback, a slide
across three squares, contact chatter of 1-8 ms on every lift and place of a
whole game, whole games of each ruleset, and power cuts after the steps of a
game, and a whole game saved after every move and throw. Prints the heap
live after the imports, one line per failure, the heap's high-water mark
seen between tests, and ends with "N passed, N failed".

The stories are in tests/mp/scenario_stories.py and the whole games in
tests/mp/scenario_games.py, each loaded for its turn and forgotten after
it (what both use is in tests/mp/scenario_hands.py): the heap holds the
code of one half at a time. Compiled to .mpy, all four go into LIB.
"""

import gc
import json
import sys

STORE = sys.argv[1] if len(sys.argv) > 1 else None
LIB = sys.argv[2] if len(sys.argv) > 2 else None
# "HALF:NAME" runs that one story alone (a board is switched on for it);
# "list" prints every story as HALF:NAME and runs none.
ONLY = sys.argv[3] if len(sys.argv) > 3 else None
for _p in ("tests", "."):
    if _p not in sys.path:
        sys.path.append(_p)
if LIB:
    sys.path.insert(0, LIB)

import scenario_hands  # noqa: E402  (board_sim, the engine and the firmware)
from runner import check, done  # noqa: E402

scenario_hands.STORE = STORE
# A story run alone stands for one board switched on for it: what a power-on
# would do afterwards (resume the saved game) is left to a fresh interpreter.
scenario_hands.APART = ONLY is not None

gc.collect()
print("heap after imports: %d bytes" % gc.mem_alloc())
peak = [0]


def story(name, fn, needs_store=False, args=()):
    """runner's check, for the stories this run takes (ONLY), noting the
    heap's high-water mark between them."""
    if needs_store and not STORE:
        return
    if ONLY == "list":
        # the arguments too, for a runner that plays a power-cut story one
        # power-on at a time (tests/mp/scenario_power.py)
        print("%s:%s\t%s" % (_half, name, json.dumps(args)))
        return
    if ONLY is not None and ONLY != "%s:%s" % (_half, name):
        return
    check(name, fn, *args)
    gc.collect()
    used = gc.mem_alloc()
    if used > peak[0]:
        peak[0] = used


# Each half is loaded for its turn and forgotten afterwards: the script's own
# code takes no more of the heap than the half running needs.
for _half in ("scenario_stories", "scenario_games"):
    if ONLY is not None and ONLY != "list" and not ONLY.startswith(_half + ":"):
        continue
    __import__(_half).run(story)
    del sys.modules[_half]
    gc.collect()
print("heap high-water mark between tests: %d bytes" % peak[0])
sys.exit(done())
