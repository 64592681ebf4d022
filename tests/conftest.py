import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HERE = os.path.dirname(os.path.abspath(__file__))
for path in (ROOT, HERE):
    if path not in sys.path:
        sys.path.insert(0, path)

# The tests sit in a folder for what they test: engine_tests (the rules and
# the computer player), firmware_tests (the App, its store, lights and
# hardware edge, on CPython and the MicroPython unix port),
# circuitpython_tests, sim_tests (the virtual board and its words),
# board_tests (a real board over USB: build, deploy, monitor, check, show,
# the command line) and hardware_tests (pin map and the wooden board); the
# tests of the whole tree stay here. A folder never takes the name of a
# package it tests: the MicroPython unix port would import the folder instead
# of the package when tests/ comes first on its path. Helpers shared across
# folders live here (paths.py, chromium.py, board_sim.py, ...), and a test
# module imports another only from its own folder.
#
# tests/mp holds plain-assert scripts for the MicroPython unix port (run from
# pytest through subprocess) and tests/bench holds benchmarks: neither is a
# pytest module.
collect_ignore_glob = ["mp/*", "bench/*"]
