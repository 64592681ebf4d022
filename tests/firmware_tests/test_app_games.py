"""Whole games played to the end by hand, through lifts and places."""

import pytest

from board_sim import BoardSim
from engine.sticks import XorShift


def play_to_the_end(config, seed, max_actions=3000):
    rng = XorShift(seed)
    board = BoardSim(config=config, rng=rng)
    board.setup()

    def no_mismatch(b):
        assert b.events_of("mismatch") == [], b.events_of("mismatch")

    played = board.play_to_the_end(rng, max_actions, no_mismatch)
    assert board.app.state == "game_over"
    return board, played


@pytest.mark.parametrize("config,seed", [
    ({"ruleset": "kendall"}, 3),
    ({"ruleset": "hungarian"}, 4),
    ({"ruleset": "hungarian", "options": {"no_move": "end"}}, 5),
])
def test_a_whole_game_is_played_to_the_end(config, seed):
    board, played = play_to_the_end(config, seed)
    moves = board.events_of("move")
    assert len(moves) == played
    end = board.last("game_over")
    # the App's game replays exactly from its own record (engine.game)
    from engine.game import Game
    replay = Game.from_record(board.app.game.record())
    assert replay.position.text() == board.app.position
    if end["winner"] is not None:
        assert end["winner"] in ("B", "W")
    assert board.app.state == "game_over"
