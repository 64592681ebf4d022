"""Helpers of the CircuitPython tests: Adafruit's real NeoPixel and pixelbuf
libraries in a folder of their own (never on this process's sys.path),
CircuitPython's type stubs in another, a temporary folder filled as a
CIRCUITPY drive, and the board played in a child CPython
(tests/cp/game_cp.py) with the fakes of tests/fakes/circuitpython.

The libraries and the stubs are test dependencies like any other: scripts/
test.sh installs them before the tests run (``python tests/cphelp.py``), each
without its dependencies into .cache/, never into .venv (Adafruit's Blinka
would come along and shadow modules of the same names). A test that finds
one missing fails, saying what to run; it never skips.
"""

import json
import os
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LIB = os.path.join(ROOT, ".cache", "circuitpython-lib")
STUBS_RAW = os.path.join(ROOT, ".cache", "circuitpython-stubs")
TYPINGS = os.path.join(ROOT, ".cache", "circuitpython-typings")
STUB_DISTS = ("circuitpython-stubs", "adafruit-circuitpython-typing")
GAME = os.path.join(ROOT, "tests", "cp", "game_cp.py")
SETUP = "scripts/test.sh (or: python tests/cphelp.py) installs them"
BOOT_OUT = ("Adafruit CircuitPython 9.2.1 on 2024-11-20; %s with %s\n"
            "Board ID:%s\nUID:E6614104032B5C2F\n")


class Missing(Exception):
    """A test dependency is not installed and could not be installed."""


def fetch_libs():
    """{file: path} of Adafruit's libraries in LIB, fetched by deploy's own
    code the first time; Missing with the reason if that fails."""
    from host_tools.board import circuitpython
    try:
        return circuitpython.find_libs(LIB)
    except circuitpython.DeployError as e:
        raise Missing("Adafruit's NeoPixel libraries are not in %s: %s (%s)" % (LIB, e, SETUP))


def fetch_typings():
    """CircuitPython's stubs (circuitpython-stubs: one ``X-stubs`` package per
    module) laid out in TYPINGS as plain ``X`` packages for MYPYPATH,
    installed once without dependencies; Missing if that fails."""
    if os.path.isdir(os.path.join(TYPINGS, "keypad")):
        return TYPINGS
    result = subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps",
                             "--no-compile", "--target", STUBS_RAW] + list(STUB_DISTS),
                            capture_output=True, text=True, timeout=300)
    if result.returncode != 0 or not os.path.isdir(os.path.join(STUBS_RAW, "keypad-stubs")):
        raise Missing("CircuitPython's type stubs (%s) could not be installed into %s: %s (%s)"
                      % (", ".join(STUB_DISTS), STUBS_RAW,
                         result.stderr.strip()[-300:] or "no keypad-stubs", SETUP))
    tmp = TYPINGS + ".tmp"
    shutil.rmtree(tmp, ignore_errors=True)
    os.makedirs(tmp)
    for name in os.listdir(STUBS_RAW):
        if name.endswith("-stubs"):
            shutil.copytree(os.path.join(STUBS_RAW, name), os.path.join(tmp, name[:-6]))
    shutil.copytree(os.path.join(STUBS_RAW, "circuitpython_typing"),
                    os.path.join(tmp, "circuitpython_typing"))
    os.rename(tmp, TYPINGS)
    return TYPINGS


def need(fetch):
    """What ``fetch`` gives, or the test fails with the sentence why not."""
    import pytest
    try:
        return fetch()
    except Missing as e:
        pytest.fail(str(e), pytrace=False)


def adafruit_libs():
    """{file: path} of the real libraries (the test fails if they are missing)."""
    return need(fetch_libs)


def fake_drive(path, board_id="raspberry_pi_pico", name="Raspberry Pi Pico", chip="rp2040"):
    """An empty CIRCUITPY drive as CircuitPython leaves it: boot_out.txt."""
    os.makedirs(path, exist_ok=True)
    with open(os.path.join(path, "boot_out.txt"), "w") as f:
        f.write(BOOT_OUT % (name, chip, board_id))
    return str(path)


def filled_drive(path, config):
    """A drive filled by `deploy --circuitpython` with ``config`` as config.json."""
    from host_tools.board import circuitpython
    adafruit_libs()
    fake_drive(path)
    cfg = os.path.join(os.path.dirname(str(path)), "config-%s.json" % os.path.basename(str(path)))
    with open(cfg, "w") as f:
        json.dump(config, f)
    circuitpython.deploy(str(path), config=cfg, lib_dir=LIB)
    return str(path)


def play(drive, story, seed=1, timeout=600):
    """Run a story of tests/cp/game_cp.py on ``drive``; return what it saw."""
    # The RP2040's CircuitPython has adafruit_pixelbuf built in (in C); the
    # pure-Python one stands in for it, outside the drive, as the chip's own.
    builtin = adafruit_libs()["adafruit_pixelbuf.py"]
    result = subprocess.run([sys.executable, "-S", GAME, drive, story, str(seed)],
                            capture_output=True, text=True, timeout=timeout,
                            env=dict(os.environ, CP_BUILTIN_PIXELBUF=builtin))
    out = result.stdout + result.stderr
    lines = out.strip().splitlines()
    assert lines and lines[-1] == "1 passed, 0 failed", out[-6000:]
    assert result.returncode == 0, out[-3000:]
    return json.loads(lines[-2])


def main():
    """Install the CircuitPython tests' dependencies (scripts/test.sh)."""
    try:
        libs = fetch_libs()
        typings = fetch_typings()
    except Missing as e:
        print("tests/cphelp.py: %s" % e, file=sys.stderr)
        return 1
    print("CircuitPython test libraries in %s (%s); type stubs in %s"
          % (LIB, ", ".join(sorted(libs)), typings))
    return 0


if __name__ == "__main__":
    sys.path.insert(0, ROOT)
    sys.exit(main())
