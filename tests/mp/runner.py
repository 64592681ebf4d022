"""The one harness of the plain-assert scripts in tests/mp, and a runner of
test modules under the MicroPython unix port.

    micropython tests/mp/runner.py tests/engine_tests/engine_tests/test_rules_kendall.py ...

runs every ``test_*`` function of each test file (parametrized ones once per
case); a bare module name is looked for in tests/. A script of its own checks imports the harness:

    from runner import check, done
    check("a capture swap", capture_swap, store)
    sys.exit(done())

Either way each failure is printed with its traceback, and the last line
is "N passed, N failed", which the pytest side reads. Run from the
repository root. Plain functions and one list, not a class, and the
collecting of a module's tests is the pytest shim's (tests/mp/pytest.py):
the harness sits in every story's heap, which on the 64-bit unix port has
little to spare (a class costs some 200 bytes more, the collector 600).
"""

import gc
import sys

results = [0, 0]                  # passed, failed


def check(name, fn, *args):
    """Run ``fn(*args)`` after a collection; count it, or print why it failed.
    True if it passed."""
    gc.collect()
    try:
        fn(*args)
    except Exception as e:
        results[1] += 1
        print("FAIL", name, repr(e))
        sys.print_exception(e)
        return False
    results[0] += 1
    return True


def done():
    """Print the count line, the script's last; return the exit status."""
    print("%d passed, %d failed" % (results[0], results[1]))
    return 1 if results[1] else 0


# The runner, when this file is run: the shim collects the tests, so a
# script that imports the harness holds none of that code.
if __name__ == "__main__":
    sys.path.insert(0, "tests/mp")     # the pytest shim
    sys.path.insert(0, "tests")
    sys.path.insert(0, ".")
    import pytest
    for arg in sys.argv[1:]:
        folder, _, name = arg.rpartition("/")
        if folder:
            sys.path.insert(0, folder)      # the test file's own folder
        pytest.run_module(name[:-3] if name.endswith(".py") else name, check)
    sys.exit(done())
