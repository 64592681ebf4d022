"""Saving the game on CircuitPython's FAT drive without wearing one block out.

The drive is modelled by tests/fat_flash.py (ChaN's FatFs on the RP2040's
flash, with CircuitPython's one-block cache written back whole: one erase
of a 4 KB block each time). tests/bench/fat_wear_bench.py plays the firmware
benchmark's two games through the App on it and counts the erases per block.
"""

import os
import sys

import pytest

import paths

HERE = paths.TESTS
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "bench"))

try:
    import fat_flash
    fat_flash._fatfs()
except fat_flash.Missing as e:           # a dependency missing fails, never skips
    pytest.fail(str(e), pytrace=False)

import fat_wear_bench as bench  # noqa: E402
from engine.game import Game  # noqa: E402
from engine.rules import parse_ruleset  # noqa: E402
from engine.sticks import XorShift  # noqa: E402
from fat_flash import Flash, mount  # noqa: E402
from firmware import savering  # noqa: E402
from firmware.store import Store  # noqa: E402

DIRECTORY = 1                    # block 1: the root directory's first sectors


def test_the_model_sees_a_directory_written_twice_more_a_save():
    """A planted change: every save also renames game.json away and back.
    Each rename rewrites the directory sector, and the counts show it."""
    saves = []

    class Planted(Store):
        def save(self, game, whole=False):
            super().save(game, whole)
            saves.append(1)
            if self.exists(self.path):
                self.fs.rename(self.path, self.path + "x")
                self.fs.rename(self.path + "x", self.path)

    def counting(folder, fs):
        class Counted(Store):
            def save(self, game, whole=False):
                super().save(game, whole)
                saves.append(0)
        return Counted(folder, fs=fs, mode="files")

    plain = bench.wear("files", store=counting)
    n = len(saves)
    del saves[:]
    planted = bench.wear("files", store=lambda folder, fs: Planted(folder, fs=fs, mode="files"))
    assert len(saves) == n
    assert plain["hottest_block"] == planted["hottest_block"] == DIRECTORY
    assert planted["hottest_erases"] >= plain["hottest_erases"] + 2 * n - 10, (plain, planted)


def test_a_museum_board_on_circuitpython_lasts_ten_years():
    """Ten rounds of the two games: game.sav spreads the erases so that the
    hottest block lasts ten museum years (2,150 moves a day); game.json and
    game.log on FAT wore block 1 out in weeks."""
    files = bench.wear("files", rounds=2)
    ring = bench.wear("ring", rounds=10)
    print("files:", files)
    print("ring:", ring)
    assert files["museum_years"] < 0.2
    assert ring["museum_years"] >= 10, ring
    assert ring["erases_per_move"] < files["erases_per_move"] / 3
    assert ring["hottest_block"] not in (0, 1, 2, 3, 4)   # never the FAT or the directory


def _states(saves):
    """A seeded kendall game saved as the App saves it (the opening's 1,
    then every throw and every move or lost turn): the game at each save."""
    game = Game(parse_ruleset("kendall"), rng=XorShift(5))
    choose = XorShift(9)
    game.play_opening()
    yield game
    for _ in range(saves):
        if game.throw is None:
            game.throw_sticks()
        else:
            moves = game.legal_moves()
            if moves:
                game.play(moves[choose.randrange(len(moves))])
            else:
                game.pass_turn()
        yield game


def _state(game):
    return list(game.opening), list(game.turns()), game.throw


def _on(image):
    """The drive powered on from ``image``, its Store loaded: (flash, store, game)."""
    flash = Flash(image)
    store = Store("", fs=mount(flash), mode="ring")
    loaded, reason = store.load()
    assert reason is None
    return flash, store, loaded


def test_a_power_cut_at_any_flash_operation_loses_at_most_the_ply_being_saved():
    """Every erase and every page program of 40 saves (and every 7th of
    game.sav's making), cut in turn: the drive powered back on always gives
    the game as saved before the cut, or as after it. A throw alone is not
    saved (it goes with its move), so after a throw the game before it is
    the one kept."""
    flash = Flash()
    mount(flash)
    image = flash.image()
    saved = None
    cuts = 0
    for game in _states(40):
        before = image
        flash, store, _ = _on(before)
        start = flash.ops
        store.save(game)
        flash.idle()
        ops = flash.ops - start
        image = flash.image()
        after = _state(_on(image)[2])
        throw_only = saved is not None and saved[:2] == _state(game)[:2]
        assert after == (saved if throw_only else _state(game))
        for k in range(1, ops + 1, 1 if ops < 100 else 7):
            cut, store, _ = _on(before)
            cut.cut_at = cut.ops + k
            store.save(game)
            loaded = _on(cut.image())[2]
            got = None if loaded is None else _state(loaded)
            assert got in (saved, after), (k, ops, got, saved, after)
            cuts += 1
        saved = after
    assert cuts > 400


def test_a_game_too_long_for_a_record_goes_to_game_json_and_back(monkeypatch):
    """A record past a slot: the game goes to game.json and game.log, the
    ring says so; the next new game is back in the ring. Nothing is lost."""
    monkeypatch.setattr(savering, "SLOT", 512)      # about 230 plies a record
    fs = mount(Flash())
    store = Store("", fs=fs, mode="ring")
    game = Game(parse_ruleset("kendall"), rng=XorShift(3))
    choose = XorShift(4)
    game.play_opening()
    while game.ply_count < 260 and not game.is_over():
        if game.throw is None:
            game.throw_sticks()
            continue
        moves = game.legal_moves()
        if not moves:
            game.pass_turn()
        elif choose.randrange(4):          # slow players: the least advancing move
            game.play(min(moves, key=lambda m: (m.to, m.origin)))
        else:
            game.play(moves[choose.randrange(len(moves))])
        store.save(game)
    assert game.ply_count >= 260
    assert store._ring.in_files and fs.stat("game.json")
    loaded, reason = Store("", fs=fs, mode="ring").load()
    assert reason is None and list(loaded.turns()) == list(game.turns())
    fresh = Game(parse_ruleset("hungarian"))
    store.save(fresh, True)
    loaded, reason = Store("", fs=fs, mode="ring").load()
    assert reason is None and loaded.ruleset.name == "hungarian" and loaded.ply_count == 0
    store.close()


def test_no_room_for_game_sav_saves_as_files():
    """A drive too full for game.sav: the game is saved as game.json, and
    the half-made game.sav is gone."""
    fs = mount(Flash())
    with fs.open("filler.bin", "wb") as f:
        f.write(b"#" * 300 * 1024)
    store = Store("", fs=fs, mode="ring")
    game = Game(parse_ruleset("kendall"), rng=XorShift(2))
    game.play_opening()
    store.save(game)
    assert store.mode == "files"
    assert "game.sav" not in fs.listdir() and "game.jso" in fs.listdir()
    loaded, reason = Store("", fs=fs, mode="ring").load()
    assert reason is None and loaded.opening == game.opening
