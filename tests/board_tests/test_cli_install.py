"""A regular (non-editable) install, as `pip install senet-board` or
`pip install .` makes one: quiet, complete, and every command either works
from it or says in one line where to run it.

The project's files are copied to a temporary folder and installed from
there with ``pip install --no-deps --target``, so neither the repository nor
the test environment is touched. pip builds it in an isolated environment
with the setuptools pyproject.toml asks for, fetched from the package index.
"""

import os
import shutil
import subprocess
import sys

import pytest

import paths

ROOT = paths.ROOT
SHIPPED = ("engine", "firmware", "host_tools", "hardware", "docs")
HANG_S = 600                   # pip fetching setuptools on a slow network, at most


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """(folder the package is installed in, pip's output)."""
    base = tmp_path_factory.mktemp("install")
    src = base / "src"
    src.mkdir()
    for name in SHIPPED:
        shutil.copytree(os.path.join(ROOT, name), str(src / name),
                        ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(os.path.join(ROOT, name), str(src / name))
    target = base / "site"
    result = subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps",
                             "--no-input", "--target", str(target), str(src)],
                            capture_output=True, text=True, timeout=HANG_S)
    output = result.stdout + result.stderr
    if result.returncode != 0:
        pytest.fail("pip could not install the project (it needs the package index for "
                    "setuptools): %s" % output[-1500:])
    return str(target), output


def in_the_install(target, *args, cwd):
    """Run ``python *args`` with only the installed copy importable as ours."""
    env = dict(os.environ, PYTHONPATH=target)
    return subprocess.run([sys.executable] + list(args), capture_output=True, text=True,
                          cwd=str(cwd), env=env, timeout=120, stdin=subprocess.DEVNULL)


def test_pip_prints_no_warning_about_undeclared_packages(installed):
    _, output = installed
    assert "is absent from the `packages` configuration" not in output, output
    assert "Package would be ignored" not in output, output


def test_the_page_and_the_circuitpython_files_are_installed(installed):
    target, _ = installed
    for path in ("host_tools/sim/web/index.html", "host_tools/sim/web/sim.js",
                 "host_tools/sim/web/sim.css", "host_tools/words/i18n/en.json",
                 "host_tools/words/i18n/hu.json", "host_tools/words/i18n/ru.json",
                 "firmware/circuitpython/code.py", "firmware/circuitpython/boot.py"):
        assert os.path.isfile(os.path.join(target, path)), path


def test_the_installed_copy_is_the_one_under_test(installed, tmp_path):
    target, _ = installed
    result = in_the_install(target, "-c", "import host_tools; print(host_tools.__file__)",
                            cwd=tmp_path)
    assert result.stdout.strip().startswith(target), result.stdout + result.stderr


def test_hardware_from_an_installed_copy_says_where_to_run_it(installed, tmp_path):
    """It regenerates the repository's drawings and tables, which an
    installed copy does not hold: one sentence, no FileNotFoundError."""
    target, _ = installed
    result = in_the_install(target, "-m", "host_tools.cli", "hardware", cwd=tmp_path)
    assert result.returncode == 2, result.stdout + result.stderr
    assert "Traceback" not in result.stderr, result.stderr
    assert result.stderr.count("\n") == 1, result.stderr
    assert result.stderr.startswith("senet-board hardware: ")
    assert "clone of the repository" in result.stderr
    assert "pip install -e ." in result.stderr
    assert os.listdir(str(tmp_path)) == []


def test_checking_a_config_works_from_an_installed_copy(installed, tmp_path):
    """`check` and `hardware check` need the default pin map, which an
    installed copy has in firmware/pins.py (generated from hardware/pinmap.json)."""
    target, _ = installed
    config = tmp_path / "config.json"
    config.write_text('{"pins": {"button": 18}}')
    result = in_the_install(target, "-m", "host_tools.hardware", "check", str(config),
                            cwd=tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.strip() == "%s: pin map OK (scanner matrix)" % config


def test_an_editable_install_is_quiet(tmp_path):
    """The README's `pip install -e .`: a plain .pth to the clone, and none of
    setuptools' warnings (a flat layout left undeclared gets one about
    folders that could shadow the packages). Installed under a prefix of the
    test's own, so the test environment is not touched."""
    src = tmp_path / "src"
    src.mkdir()
    for name in ("engine", "firmware", "host_tools"):
        shutil.copytree(os.path.join(ROOT, name), str(src / name),
                        ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(os.path.join(ROOT, name), str(src / name))
    result = subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "--no-input",
                             "-e", str(src), "--prefix", str(tmp_path / "prefix")],
                            capture_output=True, text=True, timeout=HANG_S)
    output = result.stdout + result.stderr
    if result.returncode != 0:
        pytest.fail("pip could not install the project (it needs the package index for "
                    "setuptools): %s" % output[-1500:])
    assert "Warning" not in output and "careful" not in output, output
