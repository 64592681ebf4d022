"""The sliver of pytest that the engine's rule tests use, for the MicroPython
unix port: ``raises`` and ``mark.parametrize``, and ``run_module``, which runs
a module's tests.  Only put on sys.path by ``runner.py``; CPython uses the
real pytest."""


class _Raised:
    value = None


class raises:
    def __init__(self, kind):
        self.kind = kind
        self.info = _Raised()

    def __enter__(self):
        return self.info

    def __exit__(self, kind, value, tb):
        if kind is None:
            raise AssertionError("did not raise %s" % self.kind.__name__)
        if not issubclass(kind, self.kind):
            return False
        self.info.value = value
        return True


class Parametrized:
    """A test function with its parameter sets (functions take no attributes
    on MicroPython, so the decorator wraps instead)."""

    def __init__(self, names, values, func):
        self.names = [n.strip() for n in names.split(",")]
        self.values = values
        self.func = func

    def cases(self):
        for value in self.values:
            if len(self.names) == 1:
                value = (value,)
            kwargs = {}
            for name, v in zip(self.names, value):
                kwargs[name] = v
            yield kwargs


class _Mark:
    def parametrize(self, names, values):
        def wrap(func):
            return Parametrized(names, values, func)
        return wrap

    def __getattr__(self, name):
        def marker(*args, **kwargs):
            if args and callable(args[0]) and not kwargs:
                return args[0]
            return lambda func: func
        return marker


mark = _Mark()


def run_module(name, check):
    """Every ``test_*`` function of module ``name`` through ``check`` (the
    harness of tests/mp/runner.py), a parametrized one once per case."""
    module = __import__(name)
    for attr in sorted(dir(module)):
        test = getattr(module, attr)
        if not attr.startswith("test_"):
            continue
        if isinstance(test, Parametrized):
            for kwargs in test.cases():
                check("%s.%s%s" % (name, attr, kwargs), lambda: test.func(**kwargs))
        elif callable(test):
            check("%s.%s" % (name, attr), test)
