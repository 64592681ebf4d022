"""A damaged last line of game.log, then more saves, then a power-on.

FAT (CircuitPython's drive) and a host file system can leave the line being
appended when the power went cut short; an edited or foreign log can end in
a line that reads well but is no legal next ply. The load leaves that line
out and resumes the game before it. The saves after it must not append to
the damaged log (its replay would stop at the damaged line again and lose
them): the next power-on resumes everything up to the damaged line plus
every ply saved since, exactly.
"""

import os

import pytest

from engine.game import Game
from engine.rules import parse_ruleset
from engine.sticks import XorShift
from firmware.store import Store

PLIES = 6             # saved before the damage: the sixth ply's line is damaged


def identity(game):
    return (game.ruleset.name, tuple(game.opening), tuple(game.turns()), game.throw,
            game.position.text())


def play_one(game, store, choose):
    """A throw (saved), then its move or lost turn (saved), as the App saves."""
    if game.throw is None:
        game.throw_sticks()
        store.save(game)
    moves = game.legal_moves()
    if moves:
        game.play(moves[choose.randrange(len(moves))])
    else:
        game.pass_turn()
    store.save(game)


def an_illegal_move(cells, throw):
    """A move text that reads well but is no legal move: a piece of the side
    to move from a square where it has none (``cells``: the position text)."""
    for origin in range(1, 31 - throw):
        if cells[origin - 1] == ".":
            return "%d-%d" % (origin, origin + throw)
    raise AssertionError("no empty square in %s" % cells)


def damage(line, cells, how):
    """The last log line ``line`` (the sixth ply), damaged as ``how`` says."""
    side, throw, text = line.split()
    if how == "torn":
        return line[:len(line) // 2]                      # no newline: cut short
    if how == "torn before its newline":
        return line[:-1]
    if how == "illegal move":
        return "%s %s %s\n" % (side, throw, an_illegal_move(cells, int(throw)))
    if how == "wrong side":
        return "%s %s %s\n" % ("B" if side == "W" else "W", throw, text)
    if how == "unreadable":
        return "%s x %s\n" % (side, text)
    raise ValueError(how)


HOW = ["torn", "torn before its newline", "illegal move", "wrong side", "unreadable"]


@pytest.mark.parametrize("how", HOW)
def test_a_damaged_last_line_then_more_saves_resume_all_but_that_line(tmp_path, how):
    folder = str(tmp_path)
    log = os.path.join(folder, "game.log")
    rs = parse_ruleset("kendall")
    rng, choose = XorShift(9), XorShift(10)
    game = Game(rs, rng=rng)
    game.play_opening()
    store = Store(folder)
    store.save(game)
    while game.ply_count < PLIES - 1:
        play_one(game, store, choose)
    game.throw_sticks()                        # the sixth ply's throw, saved...
    store.save(game)
    before = identity(game)                    # ...what the damage leaves
    cells = game.position.text()
    with open(log) as f:
        kept = f.read()
    play_one(game, store, choose)              # ...and its move, to be damaged
    with open(log) as f:
        text = f.read()
    assert text.startswith(kept) and text.count("\n") == kept.count("\n") + 1
    with open(log, "w") as f:
        f.write(kept + damage(text[len(kept):], cells, how))

    store = Store(folder)                      # power on: the damaged line left out
    game, reason = store.load()
    assert reason is None and identity(game) == before
    assert game.ply_count == PLIES - 1
    game.rng = rng
    for _ in range(3):                         # three more plies, each saved
        play_one(game, store, choose)
    want = identity(game)

    again, reason = Store(folder).load()       # power on again
    assert reason is None
    assert again.ply_count == PLIES - 1 + 3, (again.ply_count, how)
    assert again.position.text() == game.position.text()
    assert identity(again) == want
