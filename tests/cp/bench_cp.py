"""A benchmark run as on a CircuitPython board, under CPython.

    python -S tests/cp/bench_cp.py DRIVE SCRIPT [--no-monotonic-ns]

DRIVE is a folder filled by ``deploy --circuitpython`` with the benchmarks
copied to DRIVE/tests/bench/, as docs/circuitpython.md says to do on a board;
SCRIPT is the benchmark's path there (``tests/bench/firmware_bench.py``). It
is executed the way the board's REPL runs ``exec(open(SCRIPT).read())``:
from the drive's root, with the drive's ``lib/`` on the path, no arguments,
and what CircuitPython's ``time`` module lacks taken away:

- ``time`` holds only CircuitPython's names: ``monotonic``,
  ``monotonic_ns``, ``sleep``, ``time``, ``localtime``, ``mktime``,
  ``struct_time``; no ``perf_counter``, no ``ticks_us``, no ``ticks_ms``
  (``--no-monotonic-ns`` takes that one away too, as on a board built
  without long integers);
- ``supervisor.ticks_ms`` counts real milliseconds, wrapping at 2**29;
- ``tempfile`` cannot be imported; ``sys.implementation.name`` is
  "circuitpython".

Run with ``-S`` so that nothing of the laptop's site-packages is found.
"""

import os
import sys
import types

DRIVE = os.path.realpath(sys.argv[1])
SCRIPT = sys.argv[2]
FLAGS = sys.argv[3:]
sys.path[:] = ["", DRIVE, os.path.join(DRIVE, "lib")] + \
    [p for p in sys.path if p.startswith(sys.base_prefix) and "site-packages" not in p]
os.chdir(DRIVE)
sys.implementation.name = "circuitpython"
sys.argv = []                      # the REPL's exec() has no command line

import time as _host_time  # noqa: E402

CP_TIME = ("monotonic", "monotonic_ns", "sleep", "time", "localtime", "mktime", "struct_time")


def circuitpython_time():
    module = types.ModuleType("time")
    for name in CP_TIME:
        if name == "monotonic_ns" and "--no-monotonic-ns" in FLAGS:
            continue
        setattr(module, name, getattr(_host_time, name))
    return module


def supervisor():
    module = types.ModuleType("supervisor")
    start = _host_time.monotonic()

    def ticks_ms():
        return (int((_host_time.monotonic() - start) * 1000) + 0x1FFF0000) % (1 << 29)
    module.ticks_ms = ticks_ms
    module.runtime = types.SimpleNamespace(serial_bytes_available=0, serial_connected=True)
    return module


sys.modules["time"] = circuitpython_time()
sys.modules["supervisor"] = supervisor()
sys.modules["tempfile"] = None     # absent: `import tempfile` raises ImportError

with open(SCRIPT) as f:
    source = f.read()
exec(compile(source, SCRIPT, "exec"), {"__name__": "__main__"})
