import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HERE = os.path.dirname(os.path.abspath(__file__))
for path in (ROOT, HERE):
    if path not in sys.path:
        sys.path.insert(0, path)

# tests/mp holds plain-assert scripts for the MicroPython unix port (run from
# pytest through subprocess) and tests/bench holds benchmarks: neither is a
# pytest module.
collect_ignore_glob = ["mp/*", "bench/*"]
