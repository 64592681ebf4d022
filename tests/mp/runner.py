"""Run test modules under the MicroPython unix port; print 'N passed, N failed'.

    micropython tests/mp/runner.py test_rules_kendall test_rules_common ...

Every ``test_*`` function of each module runs (parametrized ones once per
case).  Run from the repository root.
"""

import sys

sys.path.insert(0, "tests/mp")     # the pytest shim
sys.path.insert(0, "tests")
sys.path.insert(0, ".")

import pytest  # noqa: E402  (the shim above)


def run_module(name, counts):
    module = __import__(name)
    for attr in sorted(dir(module)):
        if not attr.startswith("test_"):
            continue
        test = getattr(module, attr)
        if isinstance(test, pytest.Parametrized):
            cases = [(test.func, kw) for kw in test.cases()]
        elif callable(test):
            cases = [(test, {})]
        else:
            continue
        for func, kwargs in cases:
            try:
                func(**kwargs)
                counts[0] += 1
            except Exception as exc:
                counts[1] += 1
                print("FAILED %s.%s%s: %s %s" % (name, attr, kwargs or "", type(exc).__name__, exc))


def main(names):
    counts = [0, 0]
    for name in names:
        run_module(name, counts)
    print("%d passed, %d failed" % (counts[0], counts[1]))
    return 1 if counts[1] else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
