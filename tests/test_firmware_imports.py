"""The shape of the code, read from its sources: the modes (computer, museum,
commands) steer the App through its public members only, and no module of
engine/, firmware/ or host_tools/ imports another that imports it back,
however indirectly (lazy imports inside functions count: they are circles all
the same, only hidden until the function runs)."""

import ast
import os

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIRMWARE = os.path.join(ROOT, "firmware")
MODULES = sorted(name[:-3] for name in os.listdir(FIRMWARE) if name.endswith(".py"))


def tree_of(name):
    with open(os.path.join(FIRMWARE, name + ".py")) as f:
        return ast.parse(f.read(), name + ".py")


def names_the_app(node):
    """``app`` or ``self.app`` (or ``x.app``): how the modes hold the App."""
    if isinstance(node, ast.Name):
        return node.id == "app"
    return isinstance(node, ast.Attribute) and node.attr == "app"


def private_uses_of_the_app(tree):
    """Every ``app._name`` (read or written) and ``getattr(app, "_name")``."""
    found = []
    for node in ast.walk(tree):
        if (isinstance(node, ast.Attribute) and node.attr.startswith("_")
                and not node.attr.startswith("__") and names_the_app(node.value)):
            found.append("line %d: app.%s" % (node.lineno, node.attr))
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                and node.func.id in ("getattr", "setattr", "hasattr") and node.args
                and names_the_app(node.args[0]) and len(node.args) > 1
                and isinstance(node.args[1], ast.Constant)
                and str(node.args[1].value).startswith("_")):
            found.append("line %d: %s(app, %r)" % (node.lineno, node.func.id, node.args[1].value))
    return found


@pytest.mark.parametrize("name", [m for m in MODULES if m != "app"])
def test_no_module_but_the_app_uses_a_private_member_of_the_app(name):
    assert private_uses_of_the_app(tree_of(name)) == []


def test_the_scan_finds_a_private_use_when_there_is_one():
    tree = ast.parse("def f(app):\n    app._state = 1\n    return self.app._emit, "
                     "getattr(app, '_occ')\n")
    assert private_uses_of_the_app(tree) == [
        "line 2: app._state", "line 3: app._emit", "line 3: getattr(app, '_occ')"]


def firmware_imports(tree):
    """The firmware modules a module imports, anywhere in it."""
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("firmware."):
                    out.add(alias.name.split(".")[1])
                elif alias.name == "firmware":
                    out.add("__init__")
        elif isinstance(node, ast.ImportFrom) and node.module:
            if node.module == "firmware":
                for alias in node.names:     # from firmware import unload / config
                    out.add(alias.name if alias.name in MODULES else "__init__")
            elif node.module.startswith("firmware."):
                out.add(node.module.split(".")[1])
    return out


def import_graph():
    return {name: firmware_imports(tree_of(name)) for name in MODULES}


def circles(graph):
    """Every module from which an import path leads back to it."""
    found = []
    for start in sorted(graph):
        seen = set()
        todo = list(graph[start])
        while todo:
            name = todo.pop()
            if name == start:
                found.append(start)
                break
            if name in seen or name not in graph:
                continue
            seen.add(name)
            todo.extend(graph[name])
    return found


def test_firmware_has_no_import_circle():
    graph = import_graph()
    assert graph["app"] and graph["config"]          # the graph was read at all
    assert circles(graph) == []


def test_the_config_modules_import_one_way():
    graph = import_graph()
    assert "config_check" in graph["config"]
    assert "pinrules" in graph["config_check"]
    assert "config_base" in graph["config"] and "config_base" in graph["config_check"]
    for low, high in (("config_check", "config"), ("config_base", "config"),
                      ("config_base", "config_check"), ("pinrules", "config_check")):
        assert high not in graph[low], (low, high)
    assert graph["pinrules"] == set()


def test_the_circle_finder_finds_one():
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == ["a", "b", "c"]
    assert circles({"a": {"b"}, "b": set()}) == []


# -- the whole tree: engine/, firmware/, host_tools/ ------------------------------

TREES = ("engine", "firmware", "host_tools")


def module_files(root, trees=TREES):
    """{dotted module name: path} of every .py file under ``trees`` of ``root``
    (a package's ``__init__.py`` is the package itself)."""
    found = {}
    for top in trees:
        for folder, dirs, files in os.walk(os.path.join(root, top)):
            dirs[:] = sorted(d for d in dirs if d != "__pycache__")
            parts = os.path.relpath(folder, root).split(os.sep)
            for name in sorted(files):
                if not name.endswith(".py"):
                    continue
                dotted = parts if name == "__init__.py" else parts + [name[:-3]]
                found[".".join(dotted)] = os.path.join(folder, name)
    return found


def _known(name, modules):
    """``name`` or its nearest enclosing module that is one of ``modules``."""
    while name and name not in modules:
        name = name.rpartition(".")[0]
    return name or None


def imports_of(name, path, modules):
    """The modules of ``modules`` that module ``name`` imports, anywhere in it."""
    with open(path, encoding="utf-8") as f:
        tree = ast.parse(f.read(), path)
    package = name if path.endswith("__init__.py") else name.rpartition(".")[0]
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[:len(package.split(".")) - node.level + 1]
                base = ".".join(anchor + ([base] if base else []))
            targets = [base + "." + alias.name if base + "." + alias.name in modules else base
                       for alias in node.names]
        else:
            continue
        out.update(t for t in (_known(t, modules) for t in targets) if t and t != name)
    return out


def tree_graph(root=ROOT, trees=TREES):
    modules = module_files(root, trees)
    return {name: imports_of(name, path, modules) for name, path in modules.items()}


def import_circles(graph):
    """Each import circle as its modules in order, the first returning to the
    start: ["a", "b", "a"]. One circle per group of modules that import each
    other (Tarjan's strongly connected components, then a path round)."""
    index, low, stack, on_stack, groups = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in graph:
                continue
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = set()
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.add(w)
                if w == v:
                    break
            if len(group) > 1:
                groups.append(group)

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return sorted(_round(graph, group) for group in groups)


def _round(graph, group):
    """A path from the group's first module back to itself, inside the group."""
    start = min(group)
    paths = {start: [start]}
    todo = [start]
    while todo:
        v = todo.pop(0)
        for w in sorted(graph[v] & group):
            if w == start:
                return paths[v] + [start]
            if w not in paths:
                paths[w] = paths[v] + [w]
                todo.append(w)
    raise AssertionError("a strongly connected group has no way round: %s" % sorted(group))


def test_no_import_circle_anywhere_in_engine_firmware_or_host_tools():
    graph = tree_graph()
    assert "engine.position" in graph["engine.game"]           # the graph was read at all
    assert [" -> ".join(c) for c in import_circles(graph)] == []


def test_a_planted_circle_through_a_deferred_import_is_found(tmp_path):
    pkg = tmp_path / "pkg"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "sub" / "__init__.py").write_text("")
    (pkg / "a.py").write_text("from pkg.sub import b\n")
    (pkg / "sub" / "b.py").write_text("from . import c\n")
    (pkg / "sub" / "c.py").write_text("def later():\n    from pkg import a\n    return a\n")
    (pkg / "d.py").write_text("import pkg.a\n")
    graph = tree_graph(str(tmp_path), ("pkg",))
    assert graph["pkg.sub.b"] == {"pkg.sub.c"} and graph["pkg.d"] == {"pkg.a"}
    assert import_circles(graph) == [["pkg.a", "pkg.sub.b", "pkg.sub.c", "pkg.a"]]
    (pkg / "sub" / "c.py").write_text("def later():\n    return 1\n")
    assert import_circles(tree_graph(str(tmp_path), ("pkg",))) == []


# -- one compatibility place -------------------------------------------------------

CLOCK = ("ticks_ms", "ticks_diff", "ticks_add", "sleep_ms", "sleep_us")


def top_level(body):
    """The statements run when a module loads: its own, and those inside its
    top-level ``if`` and ``try`` blocks (not inside functions or classes)."""
    for node in body:
        yield node
        if isinstance(node, ast.If):
            yield from top_level(node.body + node.orelse)
        elif isinstance(node, ast.Try):
            yield from top_level(node.body + node.orelse + node.finalbody
                                 + [s for h in node.handlers for s in h.body])


def clocks_made(tree):
    """Where a module makes a clock of its own at its top level: a clock name
    defined, or bound to anything but an import or compat's own
    (``ticks_ms = compat.ticks_ms`` takes compat's)."""
    found = []
    for node in top_level(tree.body):
        if isinstance(node, ast.FunctionDef) and node.name in CLOCK:
            found.append("line %d: def %s" % (node.lineno, node.name))
        elif isinstance(node, ast.Assign):
            value = node.value
            from_compat = (isinstance(value, ast.Attribute) and isinstance(value.value, ast.Name)
                           and value.value.id == "compat")
            for target in node.targets:
                if isinstance(target, ast.Name) and target.id in CLOCK and not from_compat:
                    found.append("line %d: %s = %s" % (node.lineno, target.id,
                                                       ast.unparse(value)))
    return found


def micropython_clock_read(tree):
    """Every ``time.ticks_ms`` (and the rest of MicroPython's clock) read."""
    return ["line %d: time.%s" % (node.lineno, node.attr) for node in ast.walk(tree)
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
            and node.value.id == "time" and node.attr in CLOCK]


def test_only_compat_makes_a_clock_and_it_never_stands_in_for_micropythons_own():
    """MicroPython's clock is its time module's, imported where it is used
    (hal.py, firmware/__init__.py); compat.py makes the clock where time has
    none (CircuitPython, CPython) and is never loaded on MicroPython, so the
    Pico's heap and flash hold none of it."""
    made = ["%s %s" % (name, m) for name in MODULES if name != "compat"
            for m in clocks_made(tree_of(name))]
    assert made == []
    assert micropython_clock_read(tree_of("compat")) == []
    assert clocks_made(tree_of("compat"))          # it does make one


def test_the_clock_check_finds_a_second_clock():
    tree = ast.parse("import time\nif hasattr(time, 'ticks_ms'):\n    ticks_ms = time.ticks_ms\n"
                     "else:\n    def sleep_ms(ms):\n        pass\nticks_add = compat.ticks_add\n")
    assert clocks_made(tree) == ["line 3: ticks_ms = time.ticks_ms", "line 5: def sleep_ms"]
    assert micropython_clock_read(tree) == ["line 3: time.ticks_ms"]
