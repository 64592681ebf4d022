"""The App on the real MicroPython: the unix port plays a short scripted game
(tests/mp/test_app_mp.py) in a Pico-sized heap, and mpy-cross compiles every
App file that goes onto the Pico."""

import os
import subprocess

import pytest

from mpyhelp import run_mp_script, tool
import paths

ROOT = paths.ROOT
SCRIPT = os.path.join("tests", "mp", "test_app_mp.py")
FILES = ["firmware/app.py", "firmware/recognise.py", "firmware/store.py",
         "firmware/protocol.py", "tests/board_sim.py", "tests/hand.py", "tests/mp/runner.py",
         "tests/mp/test_app_mp.py"]


@pytest.mark.micropython
def test_a_scripted_game_through_the_app_passes_on_the_micropython_unix_port(tmp_path):
    for sub in ("a", "b", "c"):
        (tmp_path / sub).mkdir()
    # From source: the compiler needs room beside the App (210k on this
    # 64-bit port since the step's work went into passes of their own, 212k
    # since the App's ``hint_on``; 216k is some 123 KB on a Pico's 246 KB);
    # the heap the firmware itself needs, from
    # .mpy, is held by test_scenarios_micropython (136K).
    run_mp_script(SCRIPT, "216k", [str(tmp_path)], min_passed=6)


@pytest.mark.micropython
@pytest.mark.parametrize("path", FILES)
def test_every_app_file_compiles_with_mpy_cross(path, tmp_path):
    out = tmp_path / (os.path.basename(path)[:-3] + ".mpy")
    result = subprocess.run([tool("mpy-cross"), "-o", str(out), os.path.join(ROOT, path)],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert out.stat().st_size > 0
