"""Helpers of the CircuitPython tests: Adafruit's real NeoPixel and pixelbuf
libraries in a folder of their own (never on this process's sys.path), a
temporary folder filled as a CIRCUITPY drive, and the board played in a
child CPython (tests/cp/game_cp.py) with the fakes of tests/fakes/circuitpython."""

import json
import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LIB = os.path.join(ROOT, ".cache", "circuitpython-lib")
GAME = os.path.join(ROOT, "tests", "cp", "game_cp.py")
BOOT_OUT = ("Adafruit CircuitPython 9.2.1 on 2024-11-20; %s with rp2040\n"
            "Board ID:%s\nUID:E6614104032B5C2F\n")


def adafruit_libs():
    """{file: path} of the real libraries, installed once without their
    dependencies (Blinka) into LIB by deploy's own fetching; skip if offline."""
    from host_tools import deploy_cp
    try:
        return deploy_cp.find_libs(LIB)
    except deploy_cp.DeployError as e:
        pytest.skip(str(e))


def fake_drive(path, board_id="raspberry_pi_pico", name="Raspberry Pi Pico"):
    """An empty CIRCUITPY drive as CircuitPython leaves it: boot_out.txt."""
    os.makedirs(path, exist_ok=True)
    with open(os.path.join(path, "boot_out.txt"), "w") as f:
        f.write(BOOT_OUT % (name, board_id))
    return str(path)


def filled_drive(path, config):
    """A drive filled by `deploy --circuitpython` with ``config`` as config.json."""
    from host_tools import deploy_cp
    adafruit_libs()
    fake_drive(path)
    cfg = os.path.join(os.path.dirname(str(path)), "config-%s.json" % os.path.basename(str(path)))
    with open(cfg, "w") as f:
        json.dump(config, f)
    deploy_cp.deploy(str(path), config=cfg, lib_dir=LIB)
    return str(path)


def play(drive, story, seed=1, timeout=600):
    """Run a story of tests/cp/game_cp.py on ``drive``; return what it saw."""
    result = subprocess.run([sys.executable, "-S", GAME, drive, story, str(seed)],
                            capture_output=True, text=True, timeout=timeout)
    out = result.stdout + result.stderr
    lines = out.strip().splitlines()
    assert lines and lines[-1] == "1 passed, 0 failed", out[-6000:]
    assert result.returncode == 0, out[-3000:]
    return json.loads(lines[-2])
