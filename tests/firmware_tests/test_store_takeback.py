"""A takeback is a line of game.log, ``U 2 3``, not a whole save.

The App takes back the last move, and the lost turns after it, then sets
the taken-back throw to play again (firmware/app.py ``_takeback``). That
used to write the whole file: some 50,000 instructions a ply on the unix
port, 68 ms of a Pico late in a game (docs/dev/firmware-modules.md). It is
now appended as one line, how many plies were taken back and the throw to
play again (one line, so that a power cut leaves all of it or none); the
load replays it (firmware/resume.py). A ``U`` line that cannot follow the
game is left out as any damaged line is, the game as it was before it.
"""

import os

import pytest

from engine.game import Game, play_game
from engine.rules import ruleset
from engine.sticks import XorShift
from firmware.store import Store

from test_store_compaction import play_one
from test_store_opening import identity, read, resumes, saved_new


def played(tmp_path, plies=12, seed=4):
    """A game saved whole, then its opening and ``plies`` moves or lost
    turns, each saved as the App saves it: (folder, store, game)."""
    folder, store, game = saved_new(tmp_path, seed)
    game.play_opening()
    store.save(game)
    for _ in range(plies):
        play_one(game)
        store.save(game)
    return folder, store, game


def taken_back(game):
    """As App._takeback: the last move and the lost turns after it, then
    that move's throw to play again."""
    entry = game.undo()
    undone = 1
    while entry[2] is None:
        entry = game.undo()
        undone += 1
    game.set_throw(entry[1])
    return undone


def test_a_takeback_appends_a_line_a_ply_and_the_throw_to_play_again(tmp_path):
    folder, store, game = played(tmp_path)
    before = read(os.path.join(folder, "game.json"))
    log = read(os.path.join(folder, "game.log"))
    undone = taken_back(game)
    store.save(game)
    assert read(os.path.join(folder, "game.json")) == before     # not written again
    added = read(os.path.join(folder, "game.log"))[len(log):]
    assert added == "U %d %d\n" % (undone, game.throw)
    resumes(folder, game)
    play_one(game)                                              # then play on
    store.save(game)
    resumes(folder, game)


def test_lost_turns_taken_back_with_the_move_are_a_line_each(tmp_path):
    game = play_game(ruleset("kendall"), 4)        # a game with lost turns in it
    turns = list(game.turns())
    last_pass = max(i for i, t in enumerate(turns) if t[2] is None)
    move = max(i for i, t in enumerate(turns[:last_pass]) if t[2] is not None)
    while game.ply_count > last_pass + 1:          # the game as it stood after the pass
        game.undo()
    folder = str(tmp_path)
    store = Store(folder)
    store.save(game, whole=True)
    log_before = ""
    undone = taken_back(game)
    assert undone == last_pass + 1 - move >= 2
    store.save(game)
    assert read(os.path.join(folder, "game.log")) == log_before + "U %d %d\n" % (
        undone, game.throw)
    resumes(folder, game)


def test_two_takebacks_in_a_row_and_a_power_on_between(tmp_path):
    folder, store, game = played(tmp_path, plies=14, seed=7)
    taken_back(game)
    store.save(game)
    resumed = resumes(folder, game)
    store = Store(folder)
    store.load()
    taken_back(resumed)
    store.save(resumed)
    resumes(folder, resumed)


def test_the_log_grown_by_takebacks_is_written_again_whole(tmp_path):
    """Takeback lines count towards the log's length like any other: past
    it, the store without quiet passes writes game.json again at once."""
    folder, store, game = played(tmp_path, plies=6, seed=9)
    for _ in range(60):
        taken_back(game)
        store.save(game)
        play_one(game)
        store.save(game)
        resumes(folder, game)
    assert os.path.getsize(os.path.join(folder, "game.log")) < 300


def test_a_takeback_without_a_throw_to_play_again(tmp_path):
    """A tool's store may take back a ply and throw nothing: ``U 1``."""
    folder, store, game = played(tmp_path, plies=5)
    log = read(os.path.join(folder, "game.log"))
    game.undo()
    store.save(game)
    assert read(os.path.join(folder, "game.log"))[len(log):] == "U 1\n"
    resumes(folder, game)


# each after a game of 5 plies and a pending throw
@pytest.mark.parametrize("line", ["U\n", "U 0 3\n", "U 6 3\n", "U 1 9\n", "U x 3\n",
                                  "U 1 3 3\n", "U 1 3"])
def test_a_takeback_line_that_cannot_follow_the_game_is_left_out(tmp_path, line):
    folder, store, game = played(tmp_path, plies=5)
    game.throw_sticks()
    store.save(game)
    kept = identity(game)
    with open(os.path.join(folder, "game.log"), "a") as f:
        f.write(line)
    resumed, why = Store(folder).load()
    assert why is None and identity(resumed) == kept


def test_a_takeback_of_every_ply_there_is(tmp_path):
    folder, store, game = played(tmp_path, plies=5)
    while game.ply_count:
        game.undo()
    game.set_throw(1)
    store.save(game)
    assert read(os.path.join(folder, "game.log")).endswith("U 5 1\n")
    resumes(folder, game)


def test_a_takeback_while_game_json_is_written_in_the_background_resumes(tmp_path):
    """game.new, written a few plies a pass, holds plies the takeback took
    back: the store writes the whole game then, as before, and the
    rewrite in the background is given up."""
    folder, store, game = played(tmp_path, plies=4)
    store.work()                                   # the store is given quiet passes
    for _ in range(60):                            # until the log passes its length
        play_one(game)
        store.save(game)
        if store._job is not None:
            break
    assert store._job is not None
    store.work()                                   # game.new opened
    taken_back(game)
    store.save(game)
    while store.work() or store._job is not None or store._unfinished:
        store.work()
    resumes(folder, game)
    assert not os.path.exists(os.path.join(folder, "game.new"))


def test_a_fresh_game_has_nothing_to_take_back_and_a_whole_save_is_still_whole(tmp_path):
    folder, store, game = saved_new(tmp_path, 5)
    assert not os.path.exists(os.path.join(folder, "game.log"))
    game2 = Game(ruleset("kendall"), XorShift(6))
    store.save(game2, whole=True)
    assert not os.path.exists(os.path.join(folder, "game.log"))
    resumes(folder, game2)
