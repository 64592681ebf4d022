"""Compile the engine and the firmware to .mpy with mpy-cross, as the Pico
runs them (lib/engine/*.mpy, lib/firmware/*.mpy), for tests that run on the
MicroPython unix port with that folder first on sys.path."""

import glob
import os
import shutil
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PACKAGES = ("engine", "firmware")


def tool(name):
    """The venv's copy of a tool, else one on PATH; the test fails, with what
    to install, if neither is there (never a silent skip)."""
    local = os.path.join(os.path.dirname(sys.executable), name)
    found = local if os.path.exists(local) else shutil.which(name)
    if not found:
        pytest.fail("%s is not installed: run scripts/test.sh, or pip install -e '.[test]'"
                    % name)
    return found


def bench_module(name):
    """A module of tests/bench (imported from there, on CPython)."""
    import importlib
    sys.path.insert(0, os.path.join(ROOT, "tests", "bench"))
    try:
        return importlib.import_module(name)
    finally:
        sys.path.pop(0)


def compile_lib(dest, packages=PACKAGES, extra=()):
    """Compile every file of ``packages`` into ``dest/<package>/``, and each
    of ``extra`` (paths from the repository root) into ``dest`` itself.
    Returns ``dest`` as a string."""
    compiler = tool("mpy-cross")
    dest = str(dest)
    jobs = []
    for package in packages:
        os.makedirs(os.path.join(dest, package), exist_ok=True)
        for src in sorted(glob.glob(os.path.join(ROOT, package, "*.py"))):
            name = os.path.basename(src)
            jobs.append((src, os.path.join(dest, package, name[:-3] + ".mpy"),
                         package + "/" + name))
    for path in extra:
        name = os.path.basename(path)
        jobs.append((os.path.join(ROOT, path), os.path.join(dest, name[:-3] + ".mpy"), path))
    for src, out, source_name in jobs:
        result = subprocess.run([compiler, "-o", out, "-s", source_name, src],
                                capture_output=True, text=True)
        assert result.returncode == 0, "%s: %s" % (source_name, result.stdout + result.stderr)
    return dest


def run_mp_script(script, heap, args=(), min_passed=1, timeout=300):
    """Run a plain-assert script (tests/mp/...) on the MicroPython unix port in
    a ``heap``-sized heap, from the repository root; assert that its last line
    says 'N passed, 0 failed' with N >= ``min_passed``. Returns the output."""
    import re
    result = subprocess.run([tool("micropython"), "-X", "heapsize=" + heap, script] + list(args),
                            cwd=ROOT, capture_output=True, text=True, timeout=timeout)
    out = result.stdout + result.stderr
    last = out.strip().splitlines()[-1] if out.strip() else ""
    match = re.fullmatch(r"(\d+) passed, (\d+) failed", last)
    assert match, out
    assert match.group(2) == "0", out
    assert int(match.group(1)) >= min_passed, out
    assert result.returncode == 0, out
    return out
