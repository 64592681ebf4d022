"""hal.py and the Pico's two-line main.py type-check against the MicroPython
stubs for the Raspberry Pi Pico (micropython-rp2-rpi-pico-stubs).

mypy and the stubs come with the test extra (``pip install -e '.[test]'``),
so this always runs: without them it fails, saying what to install. The stub
files are copied from the installed distributions into a typings folder of
their own, so mypy sees the Pico's ``machine``, ``time`` and ``micropython``
only for these files. Only hal.py and main.py are judged: mypy also lists
complaints about the stub files themselves, which are not ours. A copy of
hal.py with a pin constant the Pico lacks must be caught, so a check that
silently found no stubs cannot pass.
"""

import importlib.metadata
import os
import re
import shutil
import subprocess
import sys

import pytest

import paths

ROOT = paths.ROOT
STUBS = ("micropython-rp2-rpi-pico-stubs", "micropython-stdlib-stubs")
INSTALL = "pip install -e '.[test]'"


def mypy_command():
    try:
        import mypy  # noqa: F401
    except ImportError:
        pytest.fail("mypy is not installed: %s" % INSTALL)
    return [sys.executable, "-m", "mypy"]


@pytest.fixture(scope="module")
def typings(tmp_path_factory):
    """A folder holding only the installed stubs' .pyi files."""
    folder = tmp_path_factory.mktemp("typings")
    for name in STUBS:
        try:
            dist = importlib.metadata.distribution(name)
        except importlib.metadata.PackageNotFoundError:
            pytest.fail("%s is not installed: %s" % (name, INSTALL))
        for entry in dist.files or ():
            if str(entry).endswith(".pyi"):
                target = folder / str(entry)
                target.parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(str(dist.locate_file(entry)), str(target))
    if not (folder / "machine.pyi").exists():
        pytest.fail("the Pico stubs hold no machine.pyi: %s" % INSTALL)
    return str(folder)


def pico_main_py():
    """The main.py that deploy puts on the Pico."""
    from host_tools.board.build import MAIN_PY
    return MAIN_PY


def test_the_pico_main_py_is_a_two_line_shim():
    lines = pico_main_py().strip().splitlines()
    assert lines == ["from firmware.board import run", "run()"]


def test_hal_and_main_py_type_check_against_the_pico_stubs(typings, tmp_path):
    command = mypy_command()
    pico = tmp_path / "pico"
    pico.mkdir()
    (pico / "main.py").write_text(pico_main_py())
    hal = os.path.join(ROOT, "firmware", "hal.py")
    with open(hal) as f:
        wrong = f.read().replace("machine.Pin.IN, machine.Pin.PULL_UP)",
                                 "machine.Pin.IN, machine.Pin.PULL_SIDEWAYS)")
    assert "PULL_SIDEWAYS" in wrong
    (pico / "hal_wrong.py").write_text(wrong)
    env = dict(os.environ, MYPYPATH=os.pathsep.join([typings, ROOT]))
    result = subprocess.run(
        command + ["--check-untyped-defs", "--follow-imports=silent", "--no-incremental",
                   "--cache-dir", str(tmp_path / "cache"), "--show-error-codes",
                   "--no-error-summary",
                   os.path.join("firmware", "hal.py"), str(pico / "main.py"),
                   str(pico / "hal_wrong.py")],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    out = result.stdout + result.stderr
    if "Traceback" in out or result.returncode not in (0, 1):
        pytest.fail("mypy did not run:\n" + out)
    errors = [line for line in out.splitlines() if re.search(r": error: ", line)]
    ours = [e for e in errors if e.startswith((os.path.join("firmware", "hal.py"),
                                               str(pico / "main.py")))]
    caught = [e for e in errors if e.startswith(str(pico / "hal_wrong.py"))]
    print("\n".join(ours) or "hal.py and main.py: no errors")
    assert ours == [], "\n".join(ours)
    # the stubs are really in use: the pin constant the Pico lacks is caught
    assert len(caught) == 1 and "PULL_SIDEWAYS" in caught[0], out
