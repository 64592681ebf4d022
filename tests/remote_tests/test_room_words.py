"""A game as the room writes it down: one word per action, read from the
game's log; any tail of it comes out the same as the whole list's tail,
and the words replay to the same game (checked by the engine)."""

import random

from engine.game import Game
from engine.rules import ruleset
from firmware.room import actions, game_from, ply_of


def random_game_states(name, seed):
    """Every state of one seeded game, opening throws (K4, H4) included."""
    r = random.Random(seed)
    values = [1, 2, 3, 4, 5 if name == "kendall" else 6]
    g = Game(ruleset(name))
    while True:
        v = r.choice(values)
        g.opening.append(v)
        if v == 1:
            g.set_throw(1)
            break
        yield g
    while not g.is_over():
        yield g
        if g.throw is None:
            g.set_throw(r.choice(values))
        else:
            moves = g.legal_moves()
            g.play(r.choice(moves)) if moves else g.pass_turn()
    yield g


def test_every_tail_of_the_words_is_read_from_the_log_alike():
    for name in ("kendall", "hungarian"):
        for seed in range(6):
            for g in random_game_states(name, seed):
                whole = actions(g)
                assert len(whole) == ply_of(g)
                for start in range(0, len(whole) + 1, 7):
                    assert actions(g, start) == whole[start:]
                assert actions(g, len(whole) - 1) == whole[-1:]


def test_the_words_replay_to_the_same_game():
    for name in ("kendall", "hungarian"):
        for g in random_game_states(name, 11):
            pass
        words = [w for side, w in actions(g)]
        again = game_from(name, words)
        assert again.position == g.position and again.winner == g.winner
        assert [w for side, w in actions(again)] == words


def test_a_word_the_rules_refuse_is_a_sentence_not_a_game():
    try:
        game_from("kendall", ["o1", "10-29"])
    except ValueError as e:
        assert "cannot be replayed" in str(e)
    else:
        raise AssertionError("an illegal move was replayed")
