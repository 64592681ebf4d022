"""Whole games the way people really play them, through the App contract only:
every switch chatters when a piece is lifted or put down, pieces are slid
along the path over the squares on the way, and the plug is pulled between
any two steps of a game.

A game is driven by seeded stick throws (the App's rng) and a seeded choice
of move (the players' rng), so the same seeds give the same game; a game
played with clean hands is the reference the others must follow exactly.
"""

import json
import os
import random

import pytest

from board_sim import BoardSim, throws
from mp.scenario_hands import Hands   # the same hands as on MicroPython
from engine.sticks import XorShift

RULESETS = [
    ({"ruleset": "kendall"}, 3),
    ({"ruleset": "hungarian"}, 4),
    ({"ruleset": "hungarian", "options": {"no_move": "end"}}, 5),
]
FOLLOWED = ("throw", "start", "move", "pass", "game_over")


def play_game(board, seed, max_actions=3000, on_action=None):
    """Play to the end by hand: press to throw, make a move the players'
    rng picks (half of them straight to the final square, half via 27/26)."""
    board.setup()
    board.play_to_the_end(XorShift(seed + 1000), max_actions, on_action)


def story(board):
    """What a spectator follows: throws, moves, passes and the end."""
    told = []
    for e in board.events:
        if e["event"] in FOLLOWED:
            told.append((e["event"], e.get("side"), e.get("value"), e.get("move"),
                         e.get("after"), e.get("winner"), e.get("score")))
    return told


_reference = {}


def reference_game(config, seed):
    """The game played with clean hands (computed once per ruleset)."""
    key = (json.dumps(config, sort_keys=True), seed)
    if key not in _reference:
        board = BoardSim(config=config, rng=XorShift(seed))
        play_game(board, seed)
        assert board.events_of("mismatch") == []
        _reference[key] = (story(board), board.app.game.record())
    return _reference[key]


@pytest.mark.parametrize("config,seed", RULESETS)
def test_a_whole_game_with_chatter_on_every_lift_and_place_follows_exactly(config, seed):
    want, record = reference_game(config, seed)
    board = Hands(chatter=random.Random(seed), config=config, rng=XorShift(seed))
    play_game(board, seed)
    assert board.bounces > 500
    assert board.events_of("mismatch") == []
    assert story(board) == want
    assert board.app.game.record() == record
    assert board.last("game_over") is not None


@pytest.mark.parametrize("config,seed", RULESETS[:2])
def test_a_whole_game_of_slid_pieces_follows_exactly(config, seed):
    want, record = reference_game(config, seed)
    board = Hands(slide=True, chatter=random.Random(seed + 1), config=config,
                  rng=XorShift(seed))
    play_game(board, seed)
    assert board.events_of("mismatch") == []
    assert story(board) == want
    assert board.app.game.record() == record


def test_sliding_a_piece_across_three_squares_is_the_move(tmp_path):
    # kendall, W on 5 and 20, a 4: 20-24, slid over 21, 22 and 23, each
    # switch closing and opening (with chatter) under the passing magnet.
    from board_sim import board_at
    board = board_at("B.B.W..............W.......... W", tmp_path, rng=throws(4))
    hands = Hands(chatter=random.Random(9), slide=True, app=board.app, t=board.t)
    hands.occ = board.occ
    hands.press()
    move = [m for m in hands.app.moves if m.text == "20-24"][0]
    hands.lift(20)
    seen = []
    for s in (21, 22, 23):
        hands.place(s, ms=40)
        seen.append(hands.squares_with("lifted") + hands.squares_with("target"))
        hands.lift(s, ms=40)
    hands.place(24).wait()
    assert [e["move"] for e in hands.events_of("move")] == [move.text]
    assert hands.events_of("mismatch") == []
    assert hands.app.position == "B.B.W..................W...... W"   # K5: a 4 throws again


# -- power cuts ---------------------------------------------------------------

def saved_game(store_dir, config=None):
    """The game a new App on ``store_dir`` resumes after a power cut."""
    app = BoardSim(config=config, store_dir=str(store_dir), rng=throws()).app
    return identity(app.game)


def identity(game):
    """Everything a resumed game must get back: ruleset, start, opening
    throws, every move and pass, the end, and the pending throw."""
    return game.record(), game.throw


def commits(events):
    """Does a step with these events change the game for good? The side's
    throw, the start, a move, a pass, the end, a new game, a takeback do; an
    opening throw that is not a 1 decides nothing yet."""
    for e in events:
        kind = e["event"]
        if kind in ("start", "move", "pass", "game_over", "new", "undo"):
            return True
        if kind == "throw" and e["side"] is not None:
            return True
    return False


class PowerCuts:
    """Pulls the plug after chosen steps of a game being played and checks
    what a new App on the same folder (and config) resumes.

    A step is over when the plug is pulled after it, so whatever it saved is
    complete: the resumed game must be exactly the last one committed. (A cut
    in the middle of a save, which may give the one before, is the torn-file
    test below.)"""

    def __init__(self, board, store_dir, config=None, every=1):
        self.board = board
        self.store_dir = str(store_dir)
        self.config = config
        self.every = every
        self.games = [identity(board.app.game)]   # the game after each commit
        self.cuts = 0
        self.index = 0
        self._step = board.step
        board.step = self.step

    def step(self):
        out = self._step()
        self.index += 1
        if commits(out):
            self.games.append(identity(self.board.app.game))
        # every step that said something is cut after, and every
        # ``every``-th step of the rest
        if out or self.index % self.every == 0:
            self.cut()
        return out

    def cut(self):
        resumed = saved_game(self.store_dir, self.config)
        assert resumed == self.games[-1], (
            "a cut after step %d resumed:\n%s\nnot the game last committed:\n%s" % (
                self.index, resumed, self.games[-1]))
        self.cuts += 1


@pytest.mark.parametrize("config,seed", RULESETS)
def test_a_power_cut_after_any_step_of_a_whole_game_resumes_the_saved_game(config, seed,
                                                                           tmp_path):
    board = BoardSim(config=config, store_dir=str(tmp_path), rng=XorShift(seed))
    cuts = PowerCuts(board, tmp_path, config, every=50)
    play_game(board, seed)
    assert board.last("game_over") is not None
    # the last cut, after the end, gives the finished game back
    assert saved_game(tmp_path, config) == identity(board.app.game)
    assert len(cuts.games) > 100 and cuts.cuts > len(cuts.games)


def test_a_power_cut_at_every_single_step_of_the_first_moves(tmp_path):
    rng = XorShift(21)
    board = BoardSim(store_dir=str(tmp_path), rng=rng)
    cuts = PowerCuts(board, tmp_path, every=1)
    board.setup()
    while len(cuts.games) < 20:
        if board.app.state in ("opening", "throw"):
            board.press()
        elif board.app.state == "move":
            moves = board.app.moves
            board.play(moves[rng.randrange(len(moves))])
        else:
            board.wait(100)
    assert cuts.cuts == cuts.index


@pytest.mark.parametrize("config,seed", RULESETS[:2])
def test_a_power_cut_while_the_save_is_written_leaves_the_game_before(config, seed, tmp_path):
    """A cut while game.tmp is being written leaves it torn beside the old
    game.json: the old game comes back. A cut after game.json was removed
    (where a rename cannot replace a file) leaves only the complete game.tmp:
    the new game comes back."""
    live = tmp_path / "live"
    live.mkdir()
    board = BoardSim(config=config, store_dir=str(live), rng=XorShift(seed))
    saves = []                         # (game.json text, identity) after each save
    step = board.step

    def step_and_look():
        out = step()
        if commits(out):
            saves.append(((live / "game.json").read_text(), identity(board.app.game)))
        return out

    board.step = step_and_look
    play_game(board, seed)
    assert len(saves) > 100
    rnd = random.Random(seed)
    cut = tmp_path / "cut"
    cut.mkdir()
    checked = 0
    for (old, old_game), (new, new_game) in zip(saves[::4], saves[1::4]):
        for keep in (0, rnd.randrange(1, len(new) - 1), len(new) - 1):
            (cut / "game.json").write_text(old)
            (cut / "game.tmp").write_text(new[:keep])
            assert saved_game(cut, config) == old_game
            checked += 1
        os.remove(str(cut / "game.json"))
        (cut / "game.tmp").write_text(new)
        assert saved_game(cut, config) == new_game
    assert checked > 75


def test_a_throw_is_saved_at_once_so_a_power_cut_cannot_replace_it(tmp_path):
    # The sticks fell 3 for white; the plug is pulled before the move is made.
    board = BoardSim(store_dir=str(tmp_path), rng=throws(1, 3))
    board.setup().press().move(10, 11)
    board.press()
    assert board.app.throw == 3
    again = BoardSim(store_dir=str(tmp_path), rng=throws(5))
    assert again.app.throw == 3
    again.setup()
    assert again.app.state == "move" and again.app.throw == 3
    again.press()                                   # ignored: finish the move first
    assert again.events_of("throw") == []
    again.move(11, 14)
    assert again.last("move")["move"] == "11-14"


def test_a_torn_temp_file_alone_starts_a_new_game_and_says_so(tmp_path):
    board = BoardSim(store_dir=str(tmp_path), rng=throws(1))
    board.setup().press().move(10, 11)
    text = (tmp_path / "game.json").read_text()
    os.remove(str(tmp_path / "game.json"))
    (tmp_path / "game.tmp").write_text(text[:len(text) // 2])
    again = BoardSim(store_dir=str(tmp_path), rng=throws())
    again.step()
    assert again.last("notice")["message"] == "saved game unreadable, new game started"
    assert again.app.position == "BWBWBWBWBW.................... W"
    assert again.app.state == "setup"
