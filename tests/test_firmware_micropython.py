"""The firmware's edge modules on the real MicroPython: the unix port runs
tests/mp/test_firmware_mp.py with fake hardware, and mpy-cross compiles every
file that goes onto the Pico."""

import os
import re
import shutil
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCRIPT = os.path.join(ROOT, "tests", "mp", "test_firmware_mp.py")
FILES = ["firmware/__init__.py", "firmware/scan.py", "firmware/scanners.py", "firmware/lights.py", "firmware/resume.py",
         "firmware/config.py", "firmware/hal.py",
         "tests/fakes/machine.py", "tests/fakes/neopixel.py", "tests/mp/test_firmware_mp.py"]


def tool(name):
    local = os.path.join(os.path.dirname(sys.executable), name)
    found = local if os.path.exists(local) else shutil.which(name)
    if not found:
        pytest.skip("%s is not installed (pip install -e '.[test]')" % name)
    return found


@pytest.mark.micropython
@pytest.mark.parametrize("heap", ["200k", "96k"])
def test_scan_lights_config_and_hal_pass_on_the_micropython_unix_port(heap, tmp_path):
    result = subprocess.run(
        [tool("micropython"), "-X", "heapsize=" + heap, SCRIPT, str(tmp_path)],
        cwd=ROOT, capture_output=True, text=True, timeout=300)
    out = result.stdout + result.stderr
    last = out.strip().splitlines()[-1] if out.strip() else ""
    match = re.fullmatch(r"(\d+) passed, (\d+) failed", last)
    assert match, out
    assert match.group(2) == "0", out
    assert int(match.group(1)) >= 19, out
    assert result.returncode == 0, out


@pytest.mark.micropython
@pytest.mark.parametrize("path", FILES)
def test_every_file_compiles_with_mpy_cross(path, tmp_path):
    out = tmp_path / (os.path.basename(path)[:-3] + ".mpy")
    result = subprocess.run([tool("mpy-cross"), "-o", str(out), os.path.join(ROOT, path)],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert out.stat().st_size > 0
