"""No loop step does more than its share: the work of a throw is spread over
the passes after its lights, so that no step but the save keeps the next
scan waiting (issue 29). Counted in calls, not timed: one generation of
legal moves a step at most, and the boards the hands can make on the way
(firmware/recognise.py ``move_states``) for one move a step at most."""

import random

from board_sim import BoardSim
from engine.game import Game
from firmware import recognise


class Counted:
    """Counts calls of each watched function in the step under way and
    keeps the most any one step made."""

    def __init__(self, monkeypatch):
        self.now = {"legal_moves": 0, "move_states": 0}
        self.most = dict(self.now)
        real_legal = Game.legal_moves
        real_states = recognise.move_states

        def legal_moves(game):
            self.now["legal_moves"] += 1
            return real_legal(game)

        def move_states(move, base):
            self.now["move_states"] += 1
            return real_states(move, base)

        monkeypatch.setattr(Game, "legal_moves", legal_moves)
        monkeypatch.setattr(recognise, "move_states", move_states)

    def watch(self, board):
        real_step = board.app.step

        def step(now_ms, occupancy, button):
            for k in self.now:
                self.now[k] = 0
            out = real_step(now_ms, occupancy, button)
            for k in self.now:
                self.most[k] = max(self.most[k], self.now[k])
            return out

        board.app.step = step


def test_a_throw_and_its_move_work_out_the_moves_once_and_one_move_s_boards_a_step(
        monkeypatch):
    for ruleset, seed in (("kendall", 3), ("hungarian", 4)):
        counted = Counted(monkeypatch)
        board = BoardSim(config={"ruleset": ruleset}, rng=random.Random(seed).getrandbits)
        counted.watch(board)
        board.setup()
        played = board.play_to_the_end(random.Random(seed + 1))
        assert played > 50
        assert counted.most == {"legal_moves": 1, "move_states": 1}, (ruleset, counted.most)
