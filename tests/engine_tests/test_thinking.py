"""engine.ai.Thinking: the level-4 search in slices (the board's hint keeps
scanning while it thinks) gives what the search in one piece gives.

For every position and throw of whole seeded games of all five variants,
searched with slices of 1, 3 and 8 nodes: the same move, the same values
per root move, the same depth reached and the same node count as
``search_moves``, with the level's own budget and with budgets that run
out part-way through a depth (the case where the moves scored so far
compete). ``thinking`` gives ``choose_move``'s move, also where nothing is
searched (no move, one move, level 1).
"""

import pytest

from engine.ai import LEVELS, Thinking, choose_move, search_moves, thinking
from engine.game import play_game
from engine.rules import parse_ruleset
from engine.sticks import XorShift

VARIANTS = ["kendall", "kendall:pieces=7", "hungarian", "hungarian:no_move=end",
            "hungarian:own_groups_block=true"]
GAMES = 2                  # seeded games a variant
EVERY = 3                  # every third position of a game (all five throws)


def _positions(spec, seed):
    rs = parse_ruleset(spec)
    game = play_game(rs, seed)
    position = game.start
    out = [position]
    for side, throw, text in game.turns():
        moves = rs.legal_moves(position, throw)
        if text is None:
            position = rs.pass_position(position, throw)
        else:
            position = [m for m in moves if m.text == text][0].after
        out.append(position)
    return rs, out[::EVERY]


def _sliced(rs, moves, depth, budget, extra, weights, nodes):
    t = Thinking(rs, moves, depth, budget, extra, weights)
    steps = 0
    while not t.step(nodes):
        steps += 1
        assert steps < 100000, "the search never ends"
    return t.result, steps


@pytest.mark.parametrize("spec", VARIANTS)
def test_slices_give_the_search_in_one_piece(spec):
    depth, extra, budget, weights = LEVELS[4]
    searched = 0
    for seed in range(GAMES):
        rs, positions = _positions(spec, seed + 11)
        for position in positions:
            for throw in (1, 2, 3, 4, 5):
                moves = rs.legal_moves(position, throw)
                if len(moves) < 2:
                    continue
                for limit in (budget, 7, 40):       # 7, 40: run out mid-depth
                    whole = search_moves(rs, moves, depth, limit, extra, weights)
                    for nodes in (1, 3, 8):
                        got, steps = _sliced(rs, moves, depth, limit, extra, weights, nodes)
                        assert got == whole, (spec, position.text(), throw, limit, nodes)
                        # a slice is bounded: no slice runs the search through
                        assert steps >= whole[3] // (nodes + 1) - 1
                searched += 1
    assert searched > 50, "too few positions with a choice: the test proves little"


def test_one_step_with_room_is_the_whole_search():
    rs = parse_ruleset("kendall")
    position = rs.start()
    moves = rs.legal_moves(position, 1)
    depth, extra, budget, weights = LEVELS[4]
    t = Thinking(rs, moves, depth, budget, extra, weights)
    assert t.step(10 ** 6) is True
    assert t.result == search_moves(rs, moves, depth, budget, extra, weights)
    assert t.step(1) is True                  # over: stays over


@pytest.mark.parametrize("spec", ["kendall", "hungarian", "hungarian:no_move=end"])
def test_thinking_chooses_what_choose_move_chooses(spec):
    for seed in range(GAMES):
        rs, positions = _positions(spec, seed + 21)
        for position in positions:
            for throw in (1, 2, 3, 4, 5):
                for level in (1, 2, 3, 4):
                    t = thinking(rs, position, throw, level, rng=XorShift(5))
                    while not t.step(5):
                        pass
                    chosen = choose_move(rs, position, throw, level, rng=XorShift(5))
                    if chosen is None:
                        assert t.result[0] is None
                    else:
                        assert t.result[0].text == chosen.text, (spec, position.text(), throw)


def test_nothing_to_search_is_over_at_once():
    found = {}                   # legal moves (0 or 1) -> (rs, position, throw)
    for spec in VARIANTS:
        for seed in range(10):
            rs, positions = _positions(spec, seed)
            for position in positions:
                for throw in (1, 2, 3, 4, 5):
                    n = len(rs.legal_moves(position, throw))
                    if n < 2 and n not in found:
                        found[n] = (rs, position, throw)
            if len(found) == 2:
                break
    assert sorted(found) == [0, 1], "no position without a choice found"
    rs, position, throw = found[0]
    t = thinking(rs, position, throw)
    assert t.step(1) is True and t.result[0] is None
    rs, position, throw = found[1]
    t = thinking(rs, position, throw)
    assert t.step(1) is True
    assert t.result[0].text == rs.legal_moves(position, throw)[0].text
