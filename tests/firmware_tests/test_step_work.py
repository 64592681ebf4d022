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


class Jobs:
    """Which of the App's big jobs each step did: working out legal moves,
    playing a move, telling the squares a throw's moves, judging the board,
    drawing a frame, saving. Counted through the real methods."""

    WATCHED = (("legal_moves", "engine.game", "Game", "legal_moves"),
               ("play", "engine.game", "Game", "play"),
               ("begin", "firmware.recognise", "Recogniser", "begin"),
               ("classify", "firmware.recognise", "Recogniser", "classify"),
               ("render", "firmware.lights", "Lights", "render"),
               ("save", "firmware.store", "Store", "save"))

    def __init__(self, monkeypatch):
        import importlib
        self.now = set()
        self.steps = []                  # (jobs of a step, its events)
        for name, module, cls, method in self.WATCHED:
            owner = getattr(importlib.import_module(module), cls)
            monkeypatch.setattr(owner, method, self._counted(name, getattr(owner, method)))

    def _counted(self, name, real):
        def counted(*args, **kwargs):
            self.now.add(name)
            return real(*args, **kwargs)
        return counted

    def watch(self, board):
        real_step = board.app.step

        def step(now_ms, occupancy, button):
            self.now = set()
            out = real_step(now_ms, occupancy, button)
            self.steps.append((self.now, [e["event"] for e in out]))
            return out
        board.app.step = step


def test_a_pass_that_changes_the_game_leaves_its_lights_and_its_save_to_the_next(
        monkeypatch, tmp_path):
    """Issue 29: no pass but the save keeps the scan waiting, so a pass that
    works the game out draws nothing and saves nothing; the lights come in
    a pass of their own, and so does the save (docs/dev/firmware-modules.md,
    "Every job a pass of its own")."""
    for ruleset, seed in (("kendall", 5), ("hungarian", 6)):
        jobs = Jobs(monkeypatch)
        board = BoardSim(config={"ruleset": ruleset}, store_dir=str(tmp_path / ruleset),
                         rng=random.Random(seed).getrandbits)
        jobs.watch(board)
        board.setup()
        assert board.play_to_the_end(random.Random(seed + 1)) > 50
        game = {"legal_moves", "play", "begin", "classify"}
        seen = {"render": 0, "save": 0, "play": 0, "legal_moves": 0}
        for did, events in jobs.steps:
            for job in seen:
                seen[job] += job in did
            assert not ("render" in did and did & game), (ruleset, did, events)
            assert not ("save" in did and did - {"save"}), (ruleset, did, events)
            assert not ("play" in did and did & {"legal_moves", "begin"}), (ruleset, did, events)
            assert not ("legal_moves" in did and "begin" in did), (ruleset, did, events)
        assert min(seen.values()) > 50, seen          # every job was seen, often
