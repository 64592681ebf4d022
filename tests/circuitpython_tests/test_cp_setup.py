"""The CircuitPython tests never skip: a missing dependency (Adafruit's
libraries, CircuitPython's type stubs, mypy) fails the test with one
sentence saying what to run, and scripts/test.sh installs them before the
tests run, so CI cannot be green without having tested CircuitPython."""

import os
import re
import subprocess

import pytest

import cphelp
from host_tools.board import circuitpython

ROOT = cphelp.ROOT


def failed_fetch(monkeypatch, tmp_path):
    """No libraries in the folder, and pip cannot fetch them (offline)."""
    monkeypatch.setattr(cphelp, "LIB", str(tmp_path / "lib"))
    monkeypatch.setattr(circuitpython, "fetch_command", lambda folder: [
        "python3", "-c", "import sys; print('ERROR: no network'); sys.exit(1)"])


def test_missing_adafruit_libraries_fail_the_test_with_a_sentence(monkeypatch, tmp_path):
    failed_fetch(monkeypatch, tmp_path)
    with pytest.raises(BaseException) as caught:      # a skip is one too
        cphelp.adafruit_libs()
    assert caught.type is pytest.fail.Exception, "not a failure: %r" % caught.value
    message = str(caught.value)
    assert "no network" in message and "scripts/test.sh" in message
    assert len(message.splitlines()) == 1


def test_missing_type_stubs_fail_the_test_with_a_sentence(monkeypatch, tmp_path):
    monkeypatch.setattr(cphelp, "TYPINGS", str(tmp_path / "typings"))
    monkeypatch.setattr(cphelp, "STUBS_RAW", str(tmp_path / "raw"))
    offline = subprocess.CompletedProcess([], 1, "", "ERROR: no network")
    monkeypatch.setattr(cphelp.subprocess, "run", lambda *a, **k: offline)
    with pytest.raises(pytest.fail.Exception) as caught:
        cphelp.need(cphelp.fetch_typings)
    message = str(caught.value)
    assert "circuitpython-stubs" in message and "no network" in message
    assert "scripts/test.sh" in message


@pytest.mark.parametrize("name", ["tests/cphelp.py",
                                  "tests/circuitpython_tests/test_circuitpython.py",
                                  "tests/circuitpython_tests/test_cp_keypad.py",
                                  "tests/circuitpython_tests/test_cp_strip.py",
                                  "tests/firmware_tests/test_typecheck.py"])
def test_no_circuitpython_or_typing_test_skips(name):
    with open(os.path.join(ROOT, name)) as f:
        source = f.read()
    assert not re.search(r"pytest\.skip\(|mark\.skip", source), name


def test_the_test_script_installs_the_circuitpython_test_dependencies_first():
    with open(os.path.join(ROOT, "scripts", "test.sh")) as f:
        script = f.read()
    install = script.find("tests/cphelp.py")
    assert install != -1, "scripts/test.sh does not install CircuitPython's test libraries"
    assert install < script.find("-m pytest")


def test_the_installed_dependencies_are_there():
    """After scripts/test.sh: both folders are filled, neither on sys.path."""
    import sys
    assert set(cphelp.adafruit_libs()) == {"neopixel.py", "adafruit_pixelbuf.py"}
    typings = cphelp.need(cphelp.fetch_typings)
    assert os.path.isfile(os.path.join(typings, "keypad", "__init__.pyi"))
    assert cphelp.LIB not in sys.path and typings not in sys.path
