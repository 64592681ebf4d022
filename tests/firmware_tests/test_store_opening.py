"""The opening's throws (K4, H4) are a line of game.log, not a whole save.

A new game is saved whole (game.json); the opening, once a 1 ends it, used to
write the whole file again, the second whole save of every game. It is now
appended as ``O 3 2 1`` before the deciding 1's throw line, and the load
replays it (firmware/resume.py). A line that cannot be the opening of the
game it follows (no 1, a 1 before its end, a value that is no throw, a
second opening, one after a ply) is left out as any damaged line is: the
game before it is resumed.
"""

import os

import pytest

from engine.game import Game
from engine.rules import ruleset
from engine.sticks import XorShift
from firmware.store import Store


def identity(game):
    return (game.ruleset.name, tuple(game.opening), tuple(game.turns()), game.throw,
            game.position.text())


def read(path):
    with open(path) as f:
        return f.read()


def saved_new(tmp_path, seed, name="kendall"):
    """A new game, saved whole as the App saves one: (folder, store, game)."""
    folder = str(tmp_path)
    store = Store(folder)
    game = Game(ruleset(name), XorShift(seed))
    store.save(game, whole=True)
    return folder, store, game


def resumes(folder, game):
    """A power-on now resumes ``game`` exactly; the game resumed."""
    resumed, why = Store(folder).load()
    assert why is None and identity(resumed) == identity(game)
    return resumed


def opened(game, values):
    """The opening as the App plays it: its throws, then the 1 to play."""
    game.opening = list(values)
    game.set_throw(1)


@pytest.mark.parametrize("name", ["kendall", "hungarian"])
def test_the_opening_is_appended_and_game_json_is_not_written_again(tmp_path, name):
    folder, store, game = saved_new(tmp_path, 5, name)
    before = read(os.path.join(folder, "game.json"))
    opened(game, [3, 2, 1])
    store.save(game)
    assert read(os.path.join(folder, "game.json")) == before
    side = game.position.turn
    assert read(os.path.join(folder, "game.log")) == "O 3 2 1\n%s 1\n" % side
    resumes(folder, game)
    game.play(game.legal_moves()[0])                    # then a move with the 1
    store.save(game)
    assert read(os.path.join(folder, "game.json")) == before
    resumes(folder, game)


def test_an_opening_of_a_single_1_and_a_move_in_the_same_save(tmp_path):
    """A save that finds the opening and a ply after it writes both."""
    folder, store, game = saved_new(tmp_path, 2)
    opened(game, [1])
    game.play(game.legal_moves()[0])
    store.save(game)
    lines = read(os.path.join(folder, "game.log")).splitlines()
    assert lines[0] == "O 1" and len(lines) == 2
    resumes(folder, game)


def test_an_opening_taken_back_saves_the_whole_game(tmp_path):
    """An opening the flash holds that the game no longer has is no append."""
    folder, store, game = saved_new(tmp_path, 3)
    opened(game, [2, 1])
    store.save(game)
    game.throw = None                                   # back before the opening
    game.opening = []
    store.save(game)
    assert not os.path.exists(os.path.join(folder, "game.log"))
    resumed, why = Store(folder).load()
    assert why is None and identity(resumed) == identity(game) and resumed.opening == []


BAD = [
    "O 3 2\n",              # no 1: the opening goes on
    "O 1 2 1\n",            # ended at its first 1
    "O 3 9 1\n",            # 9 is no throw
    "O 3 x 1\n",            # not a number
    "O\n",                  # no throws at all
]


@pytest.mark.parametrize("line", BAD)
def test_a_line_that_is_no_opening_is_left_out(tmp_path, line):
    folder, store, game = saved_new(tmp_path, 5)
    side = game.position.turn
    with open(os.path.join(folder, "game.log"), "a") as f:
        f.write(line + "%s 1\n" % side)
    resumed, why = Store(folder).load()
    assert why is None and identity(resumed) == identity(game)       # before the line
    assert resumed.opening == [] and resumed.throw is None


@pytest.mark.parametrize("where", ["twice", "after a ply"])
def test_an_opening_where_the_game_has_one_is_left_out(tmp_path, where):
    folder, store, game = saved_new(tmp_path, 5)
    opened(game, [3, 1])
    if where == "after a ply":
        game.play(game.legal_moves()[0])
    store.save(game)
    kept = identity(game)
    with open(os.path.join(folder, "game.log"), "a") as f:
        f.write("O 1\n")
    resumed, why = Store(folder).load()
    assert why is None and identity(resumed) == kept
