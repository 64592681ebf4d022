"""A new game, a job a pass (docs/dev/firmware-modules.md, "Every job a pass
of its own"): the pass that makes the game and says so ("new") leaves its
setup lights to the next, those are drawn in the pass after, then the whole
save writes game.tmp, and the quiet passes after it put game.tmp in place,
one file operation each. A power cut at any of those moments resumes the new
game; the opening after it is a line of game.log.
"""

import json
import os

from board_sim import BoardSim, throws
from firmware.store import Store


def files(folder):
    return sorted(os.listdir(folder))


def saved_game(folder):
    game, why = Store(folder).load()
    assert why is None
    return game


def test_a_new_game_is_made_lit_drawn_and_saved_in_passes_of_their_own(tmp_path):
    folder = str(tmp_path)
    board = BoardSim(store_dir=folder, rng=throws(1, 2, 3, 1))
    board.setup().press()                            # the opening: a 1 at once
    board.move(10, 11)
    board.press()
    board.wait(3000)                                 # every save made and in place
    assert files(folder) == ["game.json", "game.log"]
    old_roles = list(board.app.roles)
    assert saved_game(folder).ply_count == 1

    board.app.new_game()                             # (a command, the museum)
    assert board.app.busy and board.app.roles == old_roles      # nothing lit yet
    out = board.step()                               # the game's event goes out
    assert [e["event"] for e in out] == ["new"]
    assert board.app.roles != old_roles and "put" in board.app.roles   # its lights worked out
    assert not board.app.frame_changed               # ... and drawn in the next pass
    board.step()
    assert board.app.frame_changed
    assert files(folder) == ["game.json", "game.log"]           # not saved yet
    board.step()                                     # the whole save: game.tmp only
    assert files(folder) == ["game.json", "game.log", "game.tmp"]
    assert saved_game(folder).ply_count == 0         # a power cut now: the new game
    passes = 0
    while "game.tmp" in files(folder) and passes < 400:
        board.step()
        passes += 1
        assert saved_game(folder).ply_count == 0
    assert files(folder) == ["game.json"]
    with open(os.path.join(folder, "game.json")) as f:
        saved = json.load(f)
    assert saved["history"] == [] and saved["opening"] == []

    board.setup().press()                            # the opening: a 3,
    board.press()                                    # then the other player's 1
    board.wait(3000)
    with open(os.path.join(folder, "game.json")) as f:
        assert json.load(f) == saved                 # appended, not written again
    with open(os.path.join(folder, "game.log")) as f:
        assert f.read() == "O 3 1\n%s 1\n" % board.app.turn
    assert saved_game(folder).opening == [3, 1]
