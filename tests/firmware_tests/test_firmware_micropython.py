"""The firmware's edge modules on the real MicroPython: the unix port runs
tests/mp/test_firmware_mp.py with fake hardware, and mpy-cross compiles every
file that goes onto the Pico."""

import os
import subprocess

import pytest

from mpyhelp import run_mp_script, tool
import paths

ROOT = paths.ROOT
SCRIPT = os.path.join(ROOT, "tests", "mp", "test_firmware_mp.py")
# every file that goes onto the Pico, and the test's own
FILES = sorted("firmware/" + name for name in os.listdir(os.path.join(ROOT, "firmware"))
               if name.endswith(".py")) + [
    "tests/fakes/machine.py", "tests/fakes/neopixel.py", "tests/mp/test_firmware_mp.py"]


@pytest.mark.micropython
@pytest.mark.parametrize("heap", ["200k", "112k"])   # from source: 100k is enough today
def test_scan_lights_config_and_hal_pass_on_the_micropython_unix_port(heap, tmp_path):
    run_mp_script(SCRIPT, heap, [str(tmp_path)], min_passed=19)


@pytest.mark.micropython
@pytest.mark.parametrize("path", FILES)
def test_every_file_compiles_with_mpy_cross(path, tmp_path):
    out = tmp_path / (os.path.basename(path)[:-3] + ".mpy")
    result = subprocess.run([tool("mpy-cross"), "-o", str(out), os.path.join(ROOT, path)],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert out.stat().st_size > 0
