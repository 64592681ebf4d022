"""Two faults in a row never lose the game: a failing flash at every pair of
file operations, and the power cut at every operation after them.

A flash that is full or wearing out makes a file operation fail: an open,
a rename or a remove raises, a write puts half its text down and raises, a
close raises after its text is down (the worst for the store: what it
thinks failed has landed). The App says "could not save the game" and plays
on; its next save must make good what the failed one left. Every pair of
operations (i, j) of a game's saves and power-ons is made to fail, and the
power is cut before every operation from i on (and, on a host file system,
in the middle of every write): at each cut the game that comes back is the
last one saved, or one that was being saved since, never an older one and
never a fresh board once a save went through. The file systems: a host's
(a rename replaces a file), FAT's as CircuitPython has it (a rename cannot
replace a file), and littlefs as the Pico's rp2 port mounts it
(tests/lfs_flash.py). Then littlefs's own failure: a flash filling up as
the game goes. And the story that lost a game before: on FAT, a rewrite
whose rename fails twice leaves game.tmp the only copy, and the next save
must not empty it.
"""

import io

import pytest

from engine.game import Game
from engine.rules import parse_ruleset
from engine.sticks import XorShift
from firmware import store as store_module
from firmware.store import Store

try:
    from lfs_flash import Flash, PicoFs, mount
except ImportError as e:        # littlefs-python is in the test extras
    raise ImportError("tests/firmware_tests/test_store_faults.py needs littlefs-python "
                      "(pip install -e '.[test]'): %s" % e)

# A game short enough to fail at every pair of its operations, with every
# kind of save: the first (the opening's 1), appends, rewrites as the log
# grows (a log of 30 bytes here, not 240), a power-on, a takeback and a new game.
SCRIPT = ("opening", "throw", "move", "throw", "move", "throw", "move", "throw", "move",
          "power", "throw", "move", "takeback", "throw", "move", "throw", "move",
          "new", "opening", "throw", "move")
# The same given quiet passes (``work``, one each: the App's passes while
# nobody waits), so the rewrites go on in the background (game.new, and the
# saves meanwhile in game.log2): one whole, with saves while game.new is
# whole; one the power cuts short (the board switched on with game.log2 and
# half a game.new); one a takeback gives up (a takeback is a U line in the
# log, but the whole game while game.new is written). Then a takeback as a
# line, and a whole save (a new game) whose game.tmp the quiet passes put
# in place a file a pass, a save coming before they are done, and the new
# game's opening appended.
BACKGROUND = ("opening", "work", "throw", "move", "throw", "move", "throw", "move", "work",
              "work", "work", "throw", "work", "work", "move", "work", "throw", "move",
              "throw", "move", "work", "work", "throw", "power", "work", "throw", "move",
              "throw", "move", "throw", "move", "throw", "move", "work", "work",
              "takeback", "throw", "move", "takeback", "work", "throw", "work", "work",
              "work", "move", "new", "work", "work", "opening", "work", "work", "throw")
LOG_MAX = 30
AFTER = 2          # cuts go on until this many actions after the second fault


def identity(game):
    """All a resumed game must get back (None: no game, a new one starts)."""
    if game is None:
        return None
    return (game.ruleset.name, tuple(game.opening), tuple(game.turns()), game.throw,
            game.position.text())


class MemFs:
    """A host's file system in memory (a rename replaces a file), or with
    ``fat`` CircuitPython's FAT drive (a rename cannot replace a file). What
    is written is there at once: a cut can leave half a write."""

    def __init__(self, files=(), fat=False):
        self.data = dict(files)
        self.fat = fat

    def open(self, path, mode="r"):
        if mode.startswith("r"):
            self.stat(path)
            return io.StringIO(self.data[path])
        if mode.startswith("w") or path not in self.data:
            self.data[path] = ""
        return _MemFile(self, path)

    def rename(self, old, new):
        self.stat(old)
        if self.fat and new in self.data:
            raise OSError(17, "file exists")
        self.data[new] = self.data.pop(old)

    def remove(self, path):
        self.stat(path)
        del self.data[path]

    def stat(self, path):
        if path not in self.data:
            raise OSError(2, "no such file or directory")
        return (0o100000, len(self.data[path]))

    def files(self):
        """What a power cut now leaves: every file's text, by name."""
        return tuple(sorted(self.data.items()))


class _MemFile:
    def __init__(self, fs, path):
        self.fs = fs
        self.path = path

    def write(self, text):
        self.fs.data[self.path] += text
        return len(text)

    def flush(self):
        pass

    def close(self):
        pass


class Failing:
    """A file system seam whose operations that change the flash (an open to
    write, a write, a close, a rename, a remove) are counted, and fail at
    the counts in ``faults``: not made (a write: half made), or with
    ``done`` made and then failed. ``cut()`` is called before each of them
    (the power could go there) once ``cuts_from`` are done, and in the
    middle of each write."""

    def __init__(self, fs, faults=(), cuts_from=None, cut=None, done=False):
        self.fs = fs
        self.faults = faults
        self.done = done
        self.cuts_from = cuts_from
        self.cut = cut
        self.ops = 0
        self.labels = []

    def op(self, label):
        """Count an operation about to be made: True if it fails."""
        self.maybe_cut()
        self.labels.append(label)
        self.ops += 1
        return self.ops - 1 in self.faults

    def maybe_cut(self):
        if self.cut is not None and self.cuts_from is not None and self.ops >= self.cuts_from:
            self.cut()

    def open(self, path, mode="r"):
        if mode.startswith("r"):
            return self.fs.open(path, mode)
        if self.op("open %s %s" % (path, mode)):
            if self.done:
                self.fs.open(path, mode).close()
            raise OSError(28, "no space left on device")
        return _Written(self, self.fs.open(path, mode), path)

    def rename(self, old, new):
        if self.op("rename %s %s" % (old, new)):
            if self.done:
                self.fs.rename(old, new)
            raise OSError(5, "input/output error")
        self.fs.rename(old, new)

    def remove(self, path):
        if self.op("remove %s" % path):
            if self.done:
                self.fs.remove(path)
            raise OSError(5, "input/output error")
        self.fs.remove(path)

    def stat(self, path):
        return self.fs.stat(path)


class _Written:
    """A file open to write: its text goes down in one write at the close,
    half of it first (a cut can come between the halves), then the close."""

    def __init__(self, failing, f, path):
        self.failing = failing
        self.f = f
        self.path = path
        self.parts = []
        self.closed = False

    def write(self, text):
        self.parts.append(text)
        return len(text)

    def flush(self):
        pass

    def close(self):
        if self.closed:
            return
        self.closed = True
        failing, f = self.failing, self.f
        text = "".join(self.parts)
        half = len(text) // 2
        try:
            fails = failing.op("write %s" % self.path)
            f.write(text[:half])
            f.flush()
            if fails:
                if failing.done:
                    f.write(text[half:])
                raise OSError(28, "no space left on device")
            failing.maybe_cut()                  # torn in the middle
            f.write(text[half:])
            f.flush()
        except OSError:
            f.close()
            raise
        if failing.op("close %s" % self.path):
            f.close()
            raise OSError(5, "input/output error")
        f.close()


class Model:
    """One of the file systems: a fresh one per run, with its own cut."""

    def __init__(self, kind):
        self.kind = kind
        self.blank = None
        self.loaded = {}                 # what the flash holds -> identity loaded

    def fresh(self):
        """A blank file system's seam."""
        if self.kind == "littlefs":
            if self.blank is None:
                flash = Flash(blocks=16)
                mount(flash)             # formatted
                self.blank = flash.image()
            self.flash = Flash(self.blank)
            return PicoFs(mount(self.flash))
        self.mem = MemFs(fat=self.kind == "fat")
        return self.mem

    def power_on(self):
        """The game a board switched on now would load (the flash as it
        stands, loaded elsewhere: the live one is left as it is)."""
        key = self.flash.image() if self.kind == "littlefs" else self.mem.files()
        if key not in self.loaded:
            if self.kind == "littlefs":
                fs = PicoFs(mount(Flash(key)))
            else:
                fs = MemFs(key, fat=self.kind == "fat")
            game, reason = Store("", fs=fs).load()
            self.loaded[key] = reason, identity(game)
        return self.loaded[key]


class Board:
    """A game played and saved as the App plays and saves it, through a
    failing file system: ``saved`` is the game last saved (the save went
    through, or the board was switched on with it), ``tried`` the games
    whose save failed or is under way since."""

    def __init__(self, model, faults=(), cuts_from=None, cuts_to=None, done=False):
        self.model = model
        self.fs = Failing(model.fresh(), faults, cuts_from, self.check, done)
        self.cuts_to = cuts_to
        self.rs = parse_ruleset("kendall")
        self.rng = XorShift(5)
        self.choose = XorShift(6)
        self.store = Store("", fs=self.fs)
        self.stores = [self.store]       # every one switched on, for ``close``
        self.game = Game(self.rs, rng=self.rng)
        self.saved = None
        self.tried = []
        self.failed = 0
        self.cuts = 0

    def check(self):
        """A power cut now: the game comes back as saved, or as being saved."""
        if self.cuts_to is not None and self.fs.ops > self.cuts_to:
            return
        self.cuts += 1
        reason, got = self.model.power_on()
        where = (self.fs.faults, self.fs.ops, self.fs.labels[-3:])
        assert reason is None, (reason, where)
        if self.saved is not None:
            assert got is not None, ("a fresh board, the saved game is lost", where)
        assert got == self.saved or got in self.tried, (
            "an older game came back", len(got[2]) if got else None,
            len(self.saved[2]) if self.saved else None, where)

    def save(self, whole=False):
        self.tried.append(identity(self.game))
        try:
            self.store.save(self.game, whole)
        except OSError:
            self.failed += 1             # the App: "could not save the game", play on
            return
        self.saved = identity(self.game)
        self.tried = []

    def act(self, action):
        """One action of the script, and its save."""
        game = self.game
        if action == "power":
            self.store = Store("", fs=self.fs)
            self.stores.append(self.store)
            game, reason = self.store.load()
            assert reason is None, reason
            got = identity(game)
            assert got == self.saved or got in self.tried, (
                "switched on: an older game", len(got[2]) if got else None, self.fs.faults)
            self.game = game if game is not None else Game(self.rs)
            self.game.rng = self.rng
            self.saved = got
            self.tried = []
        elif action == "opening":
            game.play_opening()
            self.save()
        elif action == "throw":
            if game.throw is None and not game.is_over():
                game.throw_sticks()
                self.save()
        elif action == "move":
            if game.throw is not None:
                moves = game.legal_moves()
                if moves:
                    game.play(moves[self.choose.randrange(len(moves))])
                else:
                    game.pass_turn()
                self.save()
        elif action == "takeback":
            if game.ply_count:
                side, throw, text, _ = game.undo()
                game.set_throw(throw)
                self.save()                  # as the App saves it: a U line
        elif action == "new":
            self.game = Game(self.rs, rng=self.rng)
            self.save(True)
        elif action == "work":
            self.store.work()                # a quiet pass of the App

    def close(self):
        """Done with: on littlefs, the files a background rewrite left open
        closed, no longer failing (littlefs-python must not outlive an open
        file; in memory there is nothing to let go)."""
        if self.model.kind != "littlefs":
            return
        self.fs.faults = ()
        self.fs.cut = None
        for store in self.stores:
            store.close()

    def play(self, script=SCRIPT):
        """The script; the op count at the end of each action."""
        ends = []
        for action in script:
            self.act(action)
            ends.append(self.fs.ops)
        return ends


def every_pair(model, done, monkeypatch, script=SCRIPT):
    """Fail every pair of operations (i, j), and every one alone; cut before
    every operation from i on, to two actions after j (a save that goes
    through after them leaves the flash as a save with no fault before it
    does); then play to the end and switch on: the last save, exactly."""
    monkeypatch.setattr(store_module, "_LOG_MAX", LOG_MAX)
    board = Board(model)
    ends = board.play(script)
    board.close()
    total = ends[-1]

    def action_end(op, later):
        index = next(k for k, end in enumerate(ends) if end > op)
        return ends[min(index + later, len(ends) - 1)]

    runs = cuts = failed = 0
    for i in range(total):
        for j in [None] + list(range(i + 1, total)):
            last = action_end(j if j is not None else i, AFTER)
            board = Board(model, faults=(i, j), cuts_from=i, cuts_to=last, done=done)
            board.play(script)
            for _ in range(2):
                if board.tried:              # the last save failed: the next one
                    board.save()             # (the App's, at the next throw)
            board.cuts_to = None
            board.check()                    # switched on after the whole script
            board.close()
            assert board.saved == identity(board.game) and not board.tried
            runs += 1
            cuts += board.cuts
            failed += board.failed
    # the script's last save went through, so the board resumes it exactly
    return total, runs, cuts, failed


@pytest.mark.parametrize("done", [False, True], ids=["not-made", "made-then-failed"])
@pytest.mark.parametrize("kind", ["host", "fat", "littlefs"])
def test_two_faults_at_every_pair_of_operations_never_lose_a_saved_game(
        kind, done, monkeypatch):
    total, runs, cuts, failed = every_pair(Model(kind), done, monkeypatch)
    # (59 operations on the host: the openings are appends, lines of the log)
    assert total > 55 and runs > 1600 and cuts > 50000 and failed > runs, (
        total, runs, cuts, failed)


@pytest.mark.parametrize("done", [False, True], ids=["not-made", "made-then-failed"])
@pytest.mark.parametrize("kind", ["host", "fat", "littlefs"])
def test_two_faults_in_rewrites_in_the_background_never_lose_a_saved_game(
        kind, done, monkeypatch):
    """As above, the rewrites made in quiet passes: game.new and game.log2 at
    every pair of their operations failing, and cut everywhere after."""
    total, runs, cuts, failed = every_pair(Model(kind), done, monkeypatch, BACKGROUND)
    assert total > 90 and runs > 4500 and cuts > 50000 and failed > runs, (
        total, runs, cuts, failed)


# A longer game: its game.json outgrows littlefs's inline 512 bytes, so a
# rewrite needs a block of its own.
LONG = (("opening",) + ("throw", "move") * 40 + ("power",) + ("throw", "move") * 10
        + ("takeback", "throw", "move") + ("throw", "move") * 10)


@pytest.mark.parametrize("grow,freed_at", [(1500, 90), (3000, 90), (2048, 110)])
def test_a_littlefs_filling_up_fails_saves_and_never_loses_the_saved_game(grow, freed_at):
    """littlefs's own failure, not a made-up one: another file grows beside
    the game (``grow`` bytes an action) until the flash is full, and the
    saves that need a block fail with ENOSPC half way through game.tmp;
    then the file goes (``freed_at``) and the next save makes all good. A
    power cut before any operation brings back the last save made or one
    being made since; the end, the game exactly."""
    board = Board(Model("littlefs"), cuts_from=0)
    lfs = board.fs.fs
    full = None
    for n, action in enumerate(LONG):
        if n == freed_at:
            lfs.remove("filler")
        elif n < freed_at and full is None:
            try:
                with lfs.open("filler", "a") as f:
                    f.write("x" * grow)
            except OSError as e:
                assert e.args[0] == 28, e                # ENOSPC: full
                full = n
        board.act(action)
    assert full is not None and board.failed > 5, (full, board.failed)
    board.check()
    assert board.saved == identity(board.game) and not board.tried
    assert board.cuts > 400


class _RenameFails(MemFs):
    """FAT's drive whose next ``no_rename`` renames fail (a worn or full flash)."""

    no_rename = 0

    def rename(self, old, new):
        if self.no_rename:
            self.no_rename -= 1
            raise OSError(5, "input/output error")
        MemFs.rename(self, old, new)


def _play(game, choose):
    """One move, or the lost turn when there is none."""
    moves = game.legal_moves()
    if moves:
        game.play(moves[choose.randrange(len(moves))])
    else:
        game.pass_turn()


def test_on_fat_a_rename_that_failed_twice_leaves_game_tmp_alone_until_it_is_in_place():
    """Five plies are saved; a takeback's rewrite cannot rename game.tmp
    over game.json, removes game.json (FAT cannot rename over a file) and
    fails again: game.tmp is the only copy. The next move's save must not
    empty it: the power cut at any point of that save brings the five plies
    back (or the takeback, or the new move), never a fresh board."""
    fs = _RenameFails(fat=True)
    came_back = []

    def cut():
        loaded, reason = Store("", fs=MemFs(fs.files(), fat=True)).load()
        came_back.append(identity(loaded))

    failing = Failing(fs, cut=cut)
    store = Store("", fs=failing)
    game = Game(parse_ruleset("kendall"), rng=XorShift(5))
    game.play_opening()
    store.save(game)
    choose = XorShift(6)
    while game.ply_count < 5:
        if game.throw is None:
            game.throw_sticks()
            store.save(game)
        _play(game, choose)
        store.save(game)
    five = identity(game)
    side, throw, text, _ = game.undo()                   # the takeback...
    game.set_throw(throw)
    fs.no_rename = 2                                     # ...whose renames fail
    with pytest.raises(OSError):
        store.save(game, True)
    took_back = identity(game)
    assert sorted(fs.data) == ["game.tmp"]               # the only copy
    _play(game, choose)
    moved = identity(game)
    failing.cuts_from = failing.ops                      # a cut before each step
    store.save(game)
    cut()
    assert len(came_back) > 5
    assert None not in came_back, "a fresh board: the saved game is lost"
    assert set(came_back) <= {five, took_back, moved}, [len(g[2]) for g in came_back]
    assert came_back[-1] == moved
