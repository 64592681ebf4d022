"""Saving on the Pico's own file system: littlefs, configured as MicroPython's
rp2 port mounts it (tests/lfs_flash.py), on a flash chip that loses its
power in the middle of a program or an erase.

Every operation of a few saves is cut, torn halfway and before it starts;
the flash is then mounted as the power left it and the game loaded: it is
the last save completed or the one being written, never an older one, and
nothing crashes. The saves cut are the first of a fresh board, appends to
the log, the rewrite when the log has grown long, a takeback and a new game.
"""

import os

import pytest

from board_sim import BoardSim, throws
from engine.game import Game
from engine.rules import parse_ruleset
from engine.sticks import XorShift
from firmware import app as app_module
from firmware.store import Store
import paths

try:
    from lfs_flash import Flash, PicoFs, mount
except ImportError as e:        # littlefs-python is in the test extras
    raise ImportError("tests/firmware_tests/test_littlefs.py needs littlefs-python "
                      "(pip install -e '.[test]'): %s" % e)

FIXTURE = os.path.join(paths.TESTS, "fixtures", "game_v1.json")


def identity(game):
    """All a resumed game must get back (None: no game, a new one starts)."""
    if game is None:
        return None
    return (game.ruleset.name, tuple(game.opening), tuple(game.turns()), game.throw,
            game.position.text())


def power_on(image):
    """Mount the flash as it was left and load the game: (game, reason, fs)."""
    fs = PicoFs(mount(Flash(image)))
    game, reason = Store("", fs=fs).load()
    return game, reason, fs


def saves(seed, plies):
    """A game played as the App plays it, saved after each change: yields
    (game, whole) after each one: the opening's 1, every throw, every move
    or lost turn; a takeback at ply 40; a new game at the end."""
    rs = parse_ruleset("kendall")
    game = Game(rs, rng=XorShift(seed))
    game.play_opening()
    yield game, True
    choose = XorShift(seed + 1)
    took_back = False
    while game.ply_count < plies and not game.is_over():
        if game.throw is None:
            game.throw_sticks()
            yield game, False
        moves = game.legal_moves()
        if moves:
            game.play(moves[choose.randrange(len(moves))])
        else:
            game.pass_turn()
        yield game, False
        if game.ply_count == 40 and not took_back:
            took_back = True
            side, throw, text, _ = game.undo()
            game.set_throw(throw)
            yield game, True
    game = Game(rs)
    yield game, True


def test_the_store_on_littlefs_saves_by_appending_and_resumes_every_save():
    flash = Flash()
    fs = PicoFs(mount(flash))
    store = Store("", fs=fs)
    assert store.load() == (None, None)
    kinds = []
    for game, whole in saves(3, 120):
        before = fs.files()
        store.save(game, whole)
        after = fs.files()
        kinds.append("rewrite" if after.get("game.json") != before.get("game.json") else
                     "append" if after.get("game.log") != before.get("game.log") else "none")
        got, reason, _ = power_on(flash.image())
        assert reason is None and identity(got) == identity(game)
        assert "game.tmp" not in after
    assert kinds.count("append") > 150 and 5 <= kinds.count("rewrite") <= 12, kinds
    assert "none" not in kinds


def _cut_every_operation(image, game, whole, before, torn):
    """Cut the save of ``game`` at each of its flash operations in turn,
    starting from ``image`` (which holds ``before``); return the count."""
    flash = Flash(image)
    store = Store("", fs=PicoFs(mount(flash)))
    loaded, reason = store.load()
    assert reason is None and identity(loaded) == before
    start = flash.ops
    store.save(game, whole)
    count = flash.ops - start
    assert count > 0
    after = identity(game)
    for n in range(1, count + 1):
        flash = Flash(image)
        store = Store("", fs=PicoFs(mount(flash)))
        store.load()
        flash.cut_at = flash.ops + n
        flash.torn = torn
        try:
            store.save(game, whole)
        except Exception:        # the flash answers nothing once the power is gone
            pass
        assert flash.dead
        got, reason, fs = power_on(flash.image())
        assert reason is None, (n, reason)
        assert identity(got) in (before, after), (n, count)
        assert "game.bad" not in fs.listdir()
        if n == 1:
            assert identity(got) == before             # nothing was written yet
    return count


@pytest.mark.parametrize("torn", [True, False])
def test_a_cut_at_every_operation_of_every_save_resumes_the_last_save_or_the_one_being_written(
        torn):
    flash = Flash()
    store = Store("", fs=PicoFs(mount(flash)))
    before = None
    checked = {"first": 0, "append": 0, "rewrite": 0, "takeback": 0, "new": 0}
    index = 0
    for game, whole in saves(5, 90):
        if index == 0:
            kind = "first"
        elif whole:
            kind = "new" if game.ply_count == 0 else "takeback"
        else:
            kind = "rewrite" if store._size > 240 else "append"
        checked[kind] += _cut_every_operation(flash.image(), game, whole, before, torn)
        store.save(game, whole)
        before = identity(game)
        index += 1
    # every kind of save was cut at every one of its operations
    assert all(checked.values()), checked
    assert checked["append"] > 500 and checked["rewrite"] > 10, checked


def test_the_first_save_of_a_fresh_board_cut_anywhere_starts_a_new_game_without_a_notice(
        monkeypatch):
    """The App itself on littlefs: the opening's 1 is the first save of a fresh
    board; cut at every operation of it, the board comes back with a new game
    (or the saved one), says nothing, and an older game.bad is left alone."""
    flash = Flash()
    fs = PicoFs(mount(flash))
    with fs.open("game.bad", "w") as f:
        f.write("an older damaged save")
    blank = flash.image()
    current = {}
    monkeypatch.setattr(app_module, "Store", lambda folder: Store("", fs=current["fs"]))

    def board_on(image):
        flash = Flash(image)
        current["fs"] = PicoFs(mount(flash))
        return flash, BoardSim(store_dir="flash", rng=throws(1))

    flash, board = board_on(blank)
    start = flash.ops
    board.setup().press()
    count = flash.ops - start
    assert count > 0 and board.app.game.opening == [1]
    outcomes = set()
    for n in range(1, count + 1):
        flash, board = board_on(blank)
        flash.cut_at = flash.ops + n
        board.setup().press()
        assert flash.dead
        flash, again = board_on(flash.image())
        again.wait(20)
        assert again.events_of("notice") == [], n
        assert again.app.game.opening in ([], [1])
        assert again.app.game.ply_count == 0
        outcomes.add(len(again.app.game.opening))
        assert current["fs"].read("game.bad") == "an older damaged save"
    assert 0 in outcomes


def test_a_game_saved_in_the_old_format_resumes_on_littlefs_and_carries_on_by_appending():
    with open(FIXTURE) as f:
        text = f.read()
    flash = Flash()
    fs = PicoFs(mount(flash))
    with fs.open("game.json", "w") as f:
        f.write(text)
    store = Store("", fs=fs)
    game, reason = store.load()
    assert reason is None and game.ply_count == 57 and game.throw == 2
    moves = game.legal_moves()
    game.play(moves[0])
    store.save(game)
    assert fs.read("game.json") == text                 # untouched: the move went to the log
    assert fs.read("game.log") == "W 2 %s\n" % moves[0].text
    got, reason, _ = power_on(flash.image())
    assert reason is None and identity(got) == identity(game)
