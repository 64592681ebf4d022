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

    Show first, save after: a step that commits a throw or a move leaves
    its lights to the next pass and its save to the pass after those (the
    board loop runs them at once, while the App is ``busy``). So a cut
    right after the committing step, or before its save, resumes the game
    before it (that throw or move is lost, as by a cut a moment earlier),
    and a cut after any later step resumes exactly the last one committed. (A cut in the middle of a save is the
    torn-file test below and tests/firmware_tests/test_littlefs.py.)"""

    def __init__(self, board, store_dir, config=None, every=1):
        self.board = board
        self.store_dir = str(store_dir)
        self.config = config
        self.every = every
        self.games = [identity(board.app.game)]   # the game after each commit
        self.cuts = 0
        self.index = 0
        self.unsaved = False                      # the last step committed
        self.lost = 0                             # cuts that lost that commit
        self.lost_commits = set()                 # which commits a cut lost
        self._step = board.step
        board.step = self.step

    def step(self):
        out = self._step()
        self.index += 1
        committed = commits(out)
        self.unsaved = committed or (self.unsaved and self.board.app.busy)
        if committed:
            self.games.append(identity(self.board.app.game))
        # every step that said something is cut after, and every
        # ``every``-th step of the rest
        if out or self.index % self.every == 0:
            self.cut()
        return out

    def cut(self):
        resumed = saved_game(self.store_dir, self.config)
        if self.unsaved and resumed == self.games[-2]:
            self.lost += 1                        # shown, not yet saved
            self.lost_commits.add(len(self.games) - 1)
        else:
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
    # every commit was shown before it was saved
    assert sorted(cuts.lost_commits) == list(range(1, len(cuts.games)))


def _files(folder):
    """The save files in ``folder``: name -> text."""
    out = {}
    for name in ("game.json", "game.log", "game.tmp", "game.new", "game.log2"):
        path = folder / name
        if path.exists():
            out[name] = path.read_text()
    return out


def _lay(folder, files):
    for name in ("game.json", "game.log", "game.tmp", "game.new", "game.log2"):
        path = folder / name
        if name in files:
            path.write_text(files[name])
        elif path.exists():
            os.remove(str(path))


@pytest.mark.parametrize("config,seed", RULESETS[:2])
def test_a_power_cut_while_the_save_is_written_leaves_the_game_before(config, seed, tmp_path):
    """What a host filesystem can leave when the power goes in the middle of a
    save (littlefs leaves less: tests/firmware_tests/test_littlefs.py). An append cut short
    leaves part of a line: the game before comes back. A rewrite cut short
    leaves game.tmp torn beside the old files: the game before; game.tmp whole,
    with or without the old log: the new game; and where a rename cannot
    replace a file (FAT), game.tmp alone: the new game."""
    from firmware.store import Store
    live = tmp_path / "live"
    live.mkdir()
    board = BoardSim(config=config, store_dir=str(live), rng=XorShift(seed))
    saves = [(_files(live), identity(board.app.game))]   # the files after each save
    real = Store.save

    def save_and_look(store, game, whole=False):
        real(store, game, whole)
        saves.append((_files(live), identity(game)))

    Store.save = save_and_look
    try:
        play_game(board, seed)
    finally:
        Store.save = real
    assert len(saves) > 100
    rnd = random.Random(seed)
    cut = tmp_path / "cut"
    cut.mkdir()
    appends = rewrites = 0
    for (old, old_game), (new, new_game) in zip(saves[1:], saves[2:]):
        if new.get("game.json") == old.get("game.json"):        # an append
            appends += 1
            base = dict(old)
            if "game.log2" in old and "game.log2" not in new:
                # the rewrite in the background renamed game.log2 game.log
                # (its last pass) before this save appended to it
                log = "game.log"
                base[log] = base.pop("game.log2")
            else:
                log = "game.log2" if new.get("game.log2") != old.get("game.log2") else "game.log"
            before = base.get(log, "")
            tail = new[log][len(before):]
            assert new[log].startswith(before) and tail
            for keep in (0, rnd.randrange(len(tail)), len(tail) - 1):
                _lay(cut, dict(base, **{log: before + tail[:keep]}))
                assert saved_game(cut, config) == old_game
        elif set(new) != {"game.json"}:       # a rewrite in the background (firmware/store.py)
            rewrites += 1
        else:                                                    # a rewrite
            rewrites += 1
            text = new["game.json"]
            for keep in (0, rnd.randrange(1, len(text) - 1), len(text) - 1):
                _lay(cut, dict(old, **{"game.tmp": text[:keep]}))
                assert saved_game(cut, config) == old_game
                assert not (cut / "game.tmp").exists()           # dropped
            for left in (old, {"game.json": old["game.json"]}, {}):
                _lay(cut, dict(left, **{"game.tmp": text}))
                assert saved_game(cut, config) == new_game
                assert _files(cut) == {"game.json": text}        # the rename finished
        _lay(cut, new)
        assert saved_game(cut, config) == new_game
    assert appends > 100 and rewrites >= 3, (appends, rewrites)


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


def test_a_cut_in_the_first_save_of_a_fresh_board_is_a_new_game_without_a_notice(tmp_path):
    """Cut at every character of the first save (no game.json yet): nothing
    was saved, so the board starts a new game and says nothing, and an
    earlier game.bad (a damaged game.json set aside before) stays as it was."""
    (tmp_path / "live").mkdir()
    board = BoardSim(store_dir=str(tmp_path / "live"), rng=throws(1))
    board.setup().press()                      # the first save: the opening's 1
    text = (tmp_path / "live" / "game.json").read_text()
    cut = tmp_path / "cut"
    cut.mkdir()
    for keep in range(len(text)):
        (cut / "game.bad").write_text("an older damaged save")
        (cut / "game.tmp").write_text(text[:keep])
        again = BoardSim(store_dir=str(cut), rng=throws())
        again.wait(20)
        assert again.events_of("notice") == [], keep
        assert again.app.position == "BWBWBWBWBW.................... W"
        assert again.app.state == "setup" and again.app.game.opening == []
        assert (cut / "game.bad").read_text() == "an older damaged save"
        assert not (cut / "game.tmp").exists()
    (cut / "game.tmp").write_text(text)        # whole: the save was made
    assert BoardSim(store_dir=str(cut), rng=throws()).app.game.opening == [1]


@pytest.mark.parametrize("config,seed", RULESETS)
def test_a_command_between_a_commit_and_its_save_is_saved_with_it(config, seed, tmp_path):
    """A serial command comes between two steps, so it can land after the step
    that committed a throw or move and before the step that saves it. A
    takeback, a new game (another ruleset too) or a throw there changes the
    game once more: the next step must save the game as it then stands, the
    takeback's and the new game's whole file included, never the game before
    the command nor stale log lines under a new game."""
    choose = XorShift(seed + 77)
    commands = [{"cmd": "undo"}, {"cmd": "new"}, {"cmd": "throw"},
                {"cmd": "new", "ruleset": "hungarian", "options": {"no_move": "end"}},
                {"cmd": "new", "ruleset": "kendall", "options": {"pieces": 7}}]
    board = BoardSim(config=config, store_dir=str(tmp_path), rng=XorShift(seed))
    pending = [False]
    done = {"between": 0, "checked": 0}
    step = board.step

    def step_then_command():
        out = step()
        if pending[0] and not out:            # a quiet step: everything before it saved
            assert saved_game(tmp_path, config) == identity(board.app.game)
            pending[0] = False
            done["checked"] += 1
        if commits(out) and choose.randrange(3) == 0:
            board.events.extend(board.app.command(commands[choose.randrange(len(commands))]))
            pending[0] = True
            done["between"] += 1
        return out
    board.step = step_then_command
    board.setup()
    for action in range(1500):
        state = board.app.state
        if state == "setup":
            board.setup()
        elif state == "takeback":             # all pieces up (a capture's two swap back)
            board.set_board(0, settle=False).wait(60)
            board.setup()
        elif state in ("opening", "throw"):
            board.press()
        elif state == "move":
            moves = board.app.moves
            board.play(moves[choose.randrange(len(moves))], via=action % 2 == 0)
        elif state == "game_over":
            board.hold()
        else:
            board.wait(500)
    assert done["between"] > 20 and done["checked"] > 20, done
