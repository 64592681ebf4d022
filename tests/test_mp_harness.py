"""The plain-assert scripts of tests/mp share one harness, tests/mp/runner.py's
``check`` and ``done``: it counts the checks, prints each failure with its
traceback, and ends with the line the pytest side reads ("N passed, N
failed"). Proven on the MicroPython unix port, where the scripts run."""

import ast
import os

import pytest

from mpyhelp import ROOT, tool

MP = os.path.join(ROOT, "tests", "mp")
HARNESS = "runner.py"


def keeps_count(source):
    """Where a script keeps a harness of its own: a top-level ``check``
    function, or a count line printed by itself."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.FunctionDef) and node.name == "check" and node.col_offset == 0:
            found.append("line %d: def check" % node.lineno)
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
              and node.func.id == "print" and node.args):
            text = node.args[0]
            text = text.left if isinstance(text, ast.BinOp) else text
            if isinstance(text, ast.Constant) and " passed, " in str(text.value):
                found.append("line %d: prints the count" % node.lineno)
    return found


def harness_copies():
    """Scripts of tests/mp that count passes and failures themselves."""
    found = []
    for name in sorted(os.listdir(MP)):
        if name.endswith(".py") and name != HARNESS:
            with open(os.path.join(MP, name), encoding="utf-8") as f:
                found += ["%s %s" % (name, where) for where in keeps_count(f.read())]
    return found


def test_no_script_of_tests_mp_keeps_a_harness_of_its_own():
    assert harness_copies() == []


def test_the_harness_check_finds_a_copy():
    source = ("results = [0, 0]\ndef check(name, fn):\n    fn()\n"
              "class Stories:\n    def check(self, name, fn):\n        pass\n"
              "print('%d passed, %d failed' % (results[0], results[1]))\n"
              "print('1 passed, 0 failed')\nprint('heap: %d' % 5)\n")
    assert keeps_count(source) == ["line 2: def check", "line 7: prints the count",
                                   "line 8: prints the count"]


SCRIPT = """
import sys
sys.path.insert(0, "tests/mp")
from runner import check, done
def good(a, b):
    assert a + b == 3
def bad():
    assert 1 == 2, "one is not two"
check("adds up", good, 1, 2)
check("one is two", bad)
sys.exit(done())
"""


@pytest.mark.micropython
def test_the_harness_counts_a_pass_and_a_failure_on_micropython(tmp_path):
    import subprocess
    script = tmp_path / "harness.py"
    script.write_text(SCRIPT)
    result = subprocess.run([tool("micropython"), str(script)], cwd=ROOT,
                            capture_output=True, text=True, timeout=60)
    lines = result.stdout.strip().splitlines()
    assert lines[-1] == "1 passed, 1 failed", result.stdout + result.stderr
    assert "FAIL one is two AssertionError('one is not two',)" in lines, result.stdout
    assert result.returncode == 1
