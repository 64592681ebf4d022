"""host_tools/ in the shape of its concerns, read from its sources: a package
a concern (the virtual board, a real board on USB, the hardware, the words),
the command line and the tournament at the top, no module named after its
family instead of living in it, none over about 400 lines, none that only
hands on names another module made; and the docs name only modules and
module entry points that exist, and docs/dev/laptop-tools.md names them all."""

import ast
import os
import re
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TOOLS = os.path.join(ROOT, "host_tools")
PACKAGES = {"sim", "board", "hardware", "words", "remote", "analysis"}
TOP_MODULES = {"__init__.py", "cli.py", "tournament.py"}
MAX_LINES = 400
LAYOUT_DOC = os.path.join(ROOT, "docs", "dev", "laptop-tools.md")


def python_files(top=TOOLS):
    """Every .py file under ``top``, as a path relative to it ("sim/pace.py")."""
    found = []
    for folder, dirs, files in os.walk(top):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        for name in sorted(files):
            if name.endswith(".py"):
                found.append(os.path.relpath(os.path.join(folder, name), top).replace(os.sep, "/"))
    return found


def read(path):
    with open(os.path.join(TOOLS, path), encoding="utf-8") as f:
        return f.read()


# -- packages by concern ---------------------------------------------------------------

def test_host_tools_is_packages_by_concern_with_the_command_line_at_the_top():
    entries = set(n for n in os.listdir(TOOLS) if n != "__pycache__")
    folders = {n for n in entries if os.path.isdir(os.path.join(TOOLS, n))}
    assert folders == PACKAGES
    assert entries - folders == TOP_MODULES
    for package in PACKAGES:
        assert os.path.isfile(os.path.join(TOOLS, package, "__init__.py")), package


def family_prefixed(paths):
    """Modules whose name repeats their package or a family prefix (``sim_``,
    ``hw_``): a package says it already."""
    found = []
    for path in paths:
        parts = path[:-3].split("/")
        name = parts[-1]
        if any(name.startswith(prefix) for prefix in ("sim_", "hw_", "simboard", "simserver")):
            found.append(path)
        elif len(parts) > 1 and name != parts[-2] and name.startswith(parts[-2]):
            found.append(path)
    return found


def test_no_module_is_named_after_its_family():
    assert family_prefixed(python_files()) == []


def test_the_prefix_check_finds_a_prefixed_module():
    assert family_prefixed(["sim_pace.py", "hardware/hw_svg.py", "sim/simclock.py",
                            "sim/pace.py", "cli.py"]) == [
        "sim_pace.py", "hardware/hw_svg.py", "sim/simclock.py"]


def test_no_module_is_longer_than_about_400_lines():
    long = ["%s: %d lines" % (p, read(p).count("\n")) for p in python_files()
            if read(p).count("\n") > MAX_LINES]
    assert long == []


# -- no re-exports ---------------------------------------------------------------------

OURS = ("engine", "firmware", "host_tools")


def handed_on(source):
    """Names a module imports from engine/, firmware/ or host_tools/ and never
    uses itself (it only hands them on), and any ``import *``."""
    tree = ast.parse(source)
    imported = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.level or (node.module or "").split(".")[0]
                                                 in OURS):
            for alias in node.names:
                imported[alias.asname or alias.name] = node.lineno
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] in OURS:
                    imported[alias.asname or alias.name.split(".")[0]] = node.lineno
    used = {node.id for node in ast.walk(tree) if isinstance(node, ast.Name)}
    return sorted("line %d: %s" % (line, name) for name, line in imported.items()
                  if name == "*" or name not in used)


def test_no_module_hands_on_names_it_does_not_use():
    found = ["%s %s" % (p, n) for p in python_files() for n in handed_on(read(p))]
    assert found == []


def test_the_re_export_check_finds_one():
    source = ("from host_tools.board.messages import *\n"
              "from host_tools.board.plan import plan, Flash  # noqa: F401\n"
              "from firmware.pinrules import SQUARES\n"
              "import firmware.pins\n"
              "def f():\n    return plan(SQUARES)\n")
    assert handed_on(source) == ["line 1: *", "line 2: Flash", "line 4: firmware"]


# -- the docs name what exists, and the layout names everything ----------------------------

DOCS = [os.path.join(ROOT, "README.md"), os.path.join(ROOT, "hardware", "README.md")] + sorted(
    os.path.join(folder, name) for sub in ("docs", os.path.join("docs", "dev"))
    for folder in [os.path.join(ROOT, sub)] for name in os.listdir(folder) if name.endswith(".md"))


def doc_text(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def paths_named(text):
    """host_tools/... paths and ``python -m host_tools...`` modules in ``text``."""
    paths = set(re.findall(r"host_tools/[\w/.*<>-]*[\w/*>]", text))
    modules = set(re.findall(r"python -m (host_tools[\w.]*)", text))
    return paths, modules


def missing(paths, modules):
    gone = []
    for path in sorted(paths):
        if "*" in path or "<" in path:
            pattern = re.sub(r"<[^>]*>", "*", path)
            import glob
            if not glob.glob(os.path.join(ROOT, pattern)):
                gone.append(path)
        elif not os.path.exists(os.path.join(ROOT, path.rstrip("/"))):
            gone.append(path)
    for module in sorted(modules):
        base = os.path.join(ROOT, *module.split("."))
        if not (os.path.isfile(base + ".py") or os.path.isfile(os.path.join(base, "__main__.py"))):
            gone.append("python -m " + module)
    return gone


@pytest.mark.parametrize("path", DOCS, ids=lambda p: os.path.relpath(p, ROOT))
def test_every_host_tools_path_and_module_the_docs_name_exists(path):
    assert missing(*paths_named(doc_text(path))) == []


def test_the_path_check_finds_a_path_that_is_gone():
    paths, modules = paths_named("see host_tools/nowhere.py and `python -m host_tools.hardware "
                                 "check` or python -m host_tools.nothing, host_tools/cli.py")
    assert missing(paths, modules) == ["host_tools/nowhere.py", "python -m host_tools.nothing"]


def test_the_layout_doc_names_every_module_by_its_place():
    text = doc_text(LAYOUT_DOC)
    unnamed = [p for p in python_files() if not p.endswith("__init__.py")
               and "`%s`" % p not in text and "host_tools/%s" % p not in text]
    assert unnamed == []


def test_every_module_entry_point_the_docs_name_runs():
    """``python -m host_tools.X`` as the docs write it, asked for its usage."""
    modules = set()
    for path in DOCS:
        modules |= paths_named(doc_text(path))[1]
    assert "host_tools.hardware" in modules
    for module in sorted(modules):
        done = subprocess.run([sys.executable, "-m", module], cwd=ROOT, capture_output=True,
                              text=True, timeout=60)
        assert "Traceback" not in done.stderr, (module, done.stderr)
        assert "No module named" not in done.stderr, (module, done.stderr)
