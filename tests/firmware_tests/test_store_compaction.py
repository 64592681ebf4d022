"""The whole-file rewrite out of the player's way: game.json is written
again in the background, a few plies a pass, while each move is still
appended (to game.log2) in the step after it was made.

Counted through the file system, never timed: no step of a long game
writes more than a log line or a slice of the new game.json; every state a
power cut can leave during a rewrite in the background loads as the newest
whole game (files set out by hand, and littlefs cut before every flash
operation of whole rewrites); a board switched on mid-rewrite goes on.
"""

import io

import pytest

from board_sim import BoardSim
from engine.game import Game
from engine.rules import parse_ruleset
from engine.sticks import XorShift
from firmware import app as app_module
from firmware import store as store_module
from firmware.rewrite import write_game
from firmware.store import Store

try:
    from lfs_flash import Flash, PicoFs, mount
except ImportError as e:        # littlefs-python is in the test extras
    raise ImportError("tests/firmware_tests/test_store_compaction.py needs littlefs-python "
                      "(pip install -e '.[test]'): %s" % e)


def identity(game):
    """All a resumed game must get back (None: no game, a new one starts)."""
    if game is None:
        return None
    return (game.ruleset.name, tuple(game.opening), tuple(game.turns()), game.throw,
            game.position.text())


class CountingFs:
    """Files in memory that count the characters written and the renames
    over game.json."""

    def __init__(self, files=()):
        self.data = dict(files)
        self.written = 0
        self.replaced = 0

    def open(self, path, mode="r"):
        if mode.startswith("r"):
            self.stat(path)
            return io.StringIO(self.data[path])
        if mode.startswith("w") or path not in self.data:
            self.data[path] = ""
        return _Counted(self, path)

    def rename(self, old, new):
        self.stat(old)
        if new == "game.json":
            self.replaced += 1
        self.data[new] = self.data.pop(old)

    def remove(self, path):
        self.stat(path)
        del self.data[path]

    def stat(self, path):
        if path not in self.data:
            raise OSError(2, "no such file or directory")
        return (0o100000, len(self.data[path]))


class _Counted:
    def __init__(self, fs, path):
        self.fs = fs
        self.path = path

    def write(self, text):
        self.fs.data[self.path] += text
        self.fs.written += len(text)
        return len(text)

    def flush(self):
        pass

    def close(self):
        pass


def test_no_step_of_a_long_game_writes_the_whole_game_again(monkeypatch):
    """A whole kendall game played by hand on the App, its saves counted: a
    step writes a log line or two, or a slice of the next game.json, never
    the whole game (some 3 KB late in the game), and the slices only in
    steps with nothing to say; game.json is still renamed in place every few
    moves, and the game resumes exactly."""
    fs = CountingFs()
    monkeypatch.setattr(app_module, "Store", lambda folder: Store("", fs=fs))
    sim = BoardSim(config={"ruleset": "kendall"}, store_dir="flash", rng=XorShift(3))
    per_step = []
    busy = []                       # steps that said something and wrote game.new
    real_step = sim.step

    def step():
        before, new = fs.written, fs.data.get("game.new")
        out = real_step()
        per_step.append(fs.written - before)
        if out and fs.data.get("game.new") != new:
            busy.append(len(per_step))
        return out
    sim.step = step
    sim.setup()
    sim.play_to_the_end(XorShift(4))
    sim.wait(2000)                                  # the board at rest: all saved
    longest = max(per_step)
    game_json = len(fs.data["game.json"])
    assert game_json > 2000 or sim.app.game.ply_count < 100, game_json
    assert longest <= 300, "step %d wrote %d characters (game.json is %d)" % (
        per_step.index(longest), longest, game_json)
    assert fs.replaced > sim.app.game.ply_count // 40, (fs.replaced, sim.app.game.ply_count)
    assert busy == [], "game.new written in a step with events: %s" % busy[:5]
    game, reason = Store("", fs=CountingFs(fs.data)).load()
    assert reason is None and identity(game) == identity(sim.app.game)


# -- every state a power cut can leave, set out by hand --------------------------

def _played(plies, seed=5):
    """A kendall game ``plies`` plies in (a throw pending at the end)."""
    game = Game(parse_ruleset("kendall"), rng=XorShift(seed))
    game.play_opening()
    choose = XorShift(seed + 1)
    while game.ply_count < plies:
        if game.throw is None:
            game.throw_sticks()
        moves = game.legal_moves()
        if moves:
            game.play(moves[choose.randrange(len(moves))])
        else:
            game.pass_turn()
    game.throw_sticks()
    return game


def _json(game, plies):
    """game.json as it was at ``plies`` (the game replayed that far)."""
    at = Game(game.ruleset, position=game.start)
    at.opening = list(game.opening)
    for side, throw, text in list(game.turns())[:plies]:
        at.set_throw(throw)
        if text is None:
            at.pass_turn()
        else:
            at.play(text)
    f = io.StringIO()
    write_game(f, at)
    return f.getvalue()


def _log(game, start, end, throw=False):
    """Log lines for plies ``start`` to ``end``, and the pending throw."""
    lines = ["%s %d %s\n" % (side, value, text or "-")
             for side, value, text in list(game.turns())[start:end]]
    if throw:
        lines.append("%s %d\n" % (game.position.turn, game.throw))
    return "".join(lines)


GAME = _played(60)
J, K, N = 20, 40, 60                # game.json's plies, the rewrite's, the game's


def _states():
    """(name, files, plies the loaded game must have) for every state of a
    rewrite in the background: game.json at J, game.log J..K, game.log2
    K..N, game.new the rewrite at K (``half``: cut short)."""
    js, new = _json(GAME, J), _json(GAME, K)
    log, log2 = _log(GAME, J, K), _log(GAME, K, N, throw=True)
    half = new[:len(new) // 2]
    return [
        ("rewrite begun", {"game.json": js, "game.log": log, "game.log2": log2}),
        ("game.new half written", {"game.json": js, "game.log": log, "game.log2": log2,
                                   "game.new": half}),
        ("game.new whole", {"game.json": js, "game.log": log, "game.log2": log2,
                            "game.new": new}),
        ("game.log removed", {"game.json": js, "game.log2": log2, "game.new": new}),
        ("FAT: game.json removed", {"game.log2": log2, "game.new": new}),
        ("game.new renamed", {"game.json": new, "game.log2": log2}),
        ("game.log2 renamed", {"game.json": new, "game.log": log2}),
        ("a takeback's game.tmp whole", {"game.json": js, "game.log": log, "game.log2": log2,
                                         "game.new": half, "game.tmp": _json(GAME, N)}),
        ("the takeback's game.new removed", {"game.json": js, "game.log": log,
                                             "game.log2": log2, "game.tmp": _json(GAME, N)}),
    ]


@pytest.mark.parametrize("name,files", _states(), ids=[s[0] for s in _states()])
def test_every_state_of_a_rewrite_in_the_background_loads_the_newest_whole_game(name, files):
    fs = CountingFs(files)
    game, reason = Store("", fs=fs).load()
    assert reason is None, reason
    want = identity(GAME)
    if "game.tmp" in files:                          # the takeback's: no throw pending
        want = want[:3] + (None,) + want[4:]
    assert identity(game) == want, (name, game.ply_count if game else None)
    again, reason = Store("", fs=CountingFs(fs.data)).load()     # and once more
    assert identity(again) == want
    assert "game.new" not in fs.data and "game.tmp" not in fs.data, sorted(fs.data)


def play_one(game):
    """A throw if none is pending, then its first legal move or the lost turn."""
    if game.throw is None:
        game.throw_sticks()
    moves = game.legal_moves()
    if moves:
        game.play(moves[0])
    else:
        game.pass_turn()


def test_a_board_switched_on_mid_rewrite_goes_on_saving_and_loses_nothing():
    """Switched on with game.json, game.log, game.log2 and half a game.new:
    the game comes back whole, and the next saves and passes put it right."""
    fs = CountingFs(_states()[1][1])
    store = Store("", fs=fs)
    game, reason = store.load()
    assert reason is None and identity(game) == identity(GAME)
    game.rng = XorShift(9)
    for _ in range(6):
        play_one(game)
        store.save(game)
        for _ in range(30):
            store.work()
        again, reason = Store("", fs=CountingFs(fs.data)).load()
        assert identity(again) == identity(game)
    assert sorted(fs.data) in (["game.json", "game.log"], ["game.json"]), sorted(fs.data)


# -- littlefs, cut before every flash operation of rewrites in the background ----

LOG_MAX = 60


def _script(seed, plies):
    """(game, action) pairs as the App makes them: a save after each throw
    and each move, and idle passes (``work``) between them."""
    game = Game(parse_ruleset("kendall"), rng=XorShift(seed))
    game.play_opening()
    yield game, "save"
    choose = XorShift(seed + 1)
    while game.ply_count < plies and not game.is_over():
        if game.throw is None:
            game.throw_sticks()
            yield game, "save"
            yield game, "work"
        moves = game.legal_moves()
        if moves:
            game.play(moves[choose.randrange(len(moves))])
        else:
            game.pass_turn()
        yield game, "save"
        yield game, "work"
        yield game, "work"


def _run(seed, plies, cut_at=None, torn=True):
    """Play the script on a fresh littlefs; with ``cut_at``, the power goes at
    that flash operation: return (what loads then, the last game saved, the
    game being saved: the same in a pass without a save); else (the flash
    operations, the actions after which game.log2 stood beside game.log)."""
    flash = Flash(blocks=24)
    fs = PicoFs(mount(flash))
    start = flash.ops
    if cut_at is not None:
        flash.cut_at = start + cut_at
        flash.torn = torn
    store = Store("", fs=fs)
    saved = None
    both = 0                             # actions after which game.log2 stood beside game.log
    for game, action in _script(seed, plies):
        before = saved
        if action == "save":
            saved = identity(game)
            store.save(game)
        else:
            store.work()
        if flash.dead:
            store.close()                # littlefs-python: no file left open
            got, reason = Store("", fs=PicoFs(mount(Flash(flash.image())))).load()
            return (reason, identity(got)), before, saved
        names = fs.listdir()
        both += "game.log2" in names and "game.log" in names
    total = flash.ops - start
    store.close()
    return total, both


@pytest.mark.parametrize("torn", [True, False], ids=["torn", "clean"])
def test_littlefs_cut_before_every_flash_operation_loses_no_game(torn, monkeypatch):
    monkeypatch.setattr(store_module, "_LOG_MAX", LOG_MAX)
    plies = 70
    total, both = _run(7, plies)
    assert total > 200 and both > 20, (total, both)
    wrong = []
    for n in range(1, total + 1):
        (reason, got), saved, being = _run(7, plies, cut_at=n, torn=torn)
        if reason is not None or got not in (saved, being):
            wrong.append((n, reason, len(got[2]) if got else None,
                          len(saved[2]) if saved else None))
    assert wrong == [], wrong[:5]


def test_a_heap_too_full_for_the_rewrites_code_gives_it_up_and_loses_nothing(monkeypatch):
    """A quiet pass whose heap cannot take firmware/rewrite.py (MemoryError on
    a full board) must not stop the board: the rewrite is given up, the game
    stays whole on the flash, and the next save writes the whole file."""
    import firmware.rewrite as rewrite

    tried = []

    def no_room(*args):
        tried.append(args[2])
        raise MemoryError("memory allocation failed, allocating 272 bytes")

    fs = CountingFs()
    store = Store("", fs=fs)
    store.work()                                   # the board has quiet passes
    game = Game(parse_ruleset("kendall"))
    game.rng = XorShift(5)
    monkeypatch.setattr(rewrite, "Rewrite", no_room)
    for _ in range(80):
        play_one(game)
        store.save(game)
        store.work()                               # no room: given up, no error
        again, reason = Store("", fs=CountingFs(fs.data)).load()
        assert reason is None and identity(again) == identity(game)
    assert len(tried) >= 2, "no rewrite in the background was begun: %r" % tried


# -- game.new put in place a file operation a pass ---------------------------------

def _settling(monkeypatch, seed=11):
    """A store whose game.new is whole, put in place by its next passes:
    (store, fs, game)."""
    monkeypatch.setattr(store_module, "_LOG_MAX", LOG_MAX)
    fs = CountingFs()
    store = Store("", fs=fs)
    store._background = True                 # the App calls work() in its quiet passes
    game = Game(parse_ruleset("kendall"), rng=XorShift(seed))
    game.play_opening()
    store.save(game)
    while store._job is None:
        play_one(game)
        store.save(game)
    store.work()
    play_one(game)                           # a move saved while game.new is written:
    store.save(game)                         # to game.log2
    for _ in range(200):
        job = store._job
        if job is not None and type(job) is not tuple and job.whole:
            return store, fs, game
        store.work()
    raise AssertionError("the rewrite never closed game.new whole")


def test_each_stage_of_putting_game_new_in_place_is_a_pass_of_its_own(monkeypatch):
    store, fs, game = _settling(monkeypatch)
    seen = []
    while store._job is not None:
        renamed = fs.replaced
        names = sorted(fs.data)
        store.work()
        seen.append((names, fs.replaced - renamed))
    assert [n for n, _ in seen] == [
        ["game.json", "game.log", "game.log2", "game.new"],   # stage 0: game.log goes
        ["game.json", "game.log2", "game.new"],               # stage 1: game.new over game.json
        ["game.json", "game.log2"]], seen                     # stage 2: game.log2 is game.log
    assert [r for _, r in seen] == [0, 1, 0], seen
    assert sorted(fs.data) == ["game.json", "game.log"]


@pytest.mark.parametrize("stages", [0, 1, 2])
def test_a_save_between_the_stages_loses_nothing(stages, monkeypatch):
    """Moves saved after ``stages`` of the three: appended to game.log2, and
    what loads, then and once the rest is done, is the newest game."""
    store, fs, game = _settling(monkeypatch)
    for _ in range(stages):
        store.work()
    for _ in range(2):
        play_one(game)
        store.save(game)
        got, reason = Store("", fs=CountingFs(fs.data)).load()
        assert reason is None and identity(got) == identity(game), sorted(fs.data)
    while store._job is not None:
        store.work()
    got, reason = Store("", fs=CountingFs(fs.data)).load()
    assert reason is None and identity(got) == identity(game), sorted(fs.data)
    assert sorted(fs.data) == ["game.json", "game.log"]


@pytest.mark.parametrize("stages", [0, 1, 2])
def test_a_takeback_between_the_stages_writes_the_whole_game(stages, monkeypatch):
    store, fs, game = _settling(monkeypatch)
    for _ in range(stages):
        store.work()
    game.undo()
    store.save(game, whole=True)
    assert store._job is None
    got, reason = Store("", fs=CountingFs(fs.data)).load()
    assert reason is None and identity(got) == identity(game), sorted(fs.data)
    # the save's step wrote game.tmp; the quiet passes put it in place, one
    # file operation each: game.new, game.log2 and game.log removed, the rename
    assert "game.tmp" in fs.data
    there = len([name for name in ("game.new", "game.log2", "game.log") if name in fs.data])
    passes = 0
    while "game.tmp" in fs.data and passes < 10:
        store.work()
        passes += 1
        got, reason = Store("", fs=CountingFs(fs.data)).load()
        assert reason is None and identity(got) == identity(game), sorted(fs.data)
    assert passes == there + 1 and sorted(fs.data) == ["game.json"], (passes, sorted(fs.data))
