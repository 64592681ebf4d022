"""Properties over random games of both rulesets (hypothesis)."""

from hypothesis import given, settings, strategies as st

from test_engine_reference import Comparison

from engine import ruleset, PositionError
from engine.game import Game, play_game
from engine.sticks import XorShift

RULESETS = ["kendall", "kendall:pieces=7", "hungarian", "hungarian:no_move=end",
            "hungarian:own_groups_block=true"]
MAX_PLIES = 5000


def _rs(spec):
    from engine.rules import parse_ruleset
    return parse_ruleset(spec)


def _occupancy_after_effects(before, move):
    occ = before.occupancy()
    emptied, filled = move.effects()
    for s in emptied:
        occ &= ~(1 << (s - 1))
    for s, _ in filled:
        occ |= 1 << (s - 1)
    return occ


@settings(max_examples=60, deadline=None)
@given(spec=st.sampled_from(RULESETS), seed=st.integers(0, 2 ** 31))
def test_random_games_keep_every_invariant_and_end(spec, seed):
    rs = _rs(spec)
    rng = XorShift(seed)
    game = Game(rs, rng)
    game.play_opening()
    comparison = Comparison()
    while not game.is_over():
        assert game.ply_count < MAX_PLIES, "seed %d of %s did not end" % (seed, spec)
        if game.throw is None:
            game.throw_sticks()
        before = game.position
        # the second generator agrees on every position reached, every throw
        comparison.check(spec, before)
        moves = game.legal_moves()
        if not moves:
            game.pass_turn()
            continue
        for move in moves:
            after = move.after
            # pieces are conserved: on the board plus off it, never more than the set
            for side in "BW":
                assert after.count(side) <= rs.pieces
                assert after.count(side) + (1 if move.leaves and side == move.side else 0) == before.count(side)
            # one piece a square is implied by the text form; effects explain the sensors
            assert _occupancy_after_effects(before, move) == after.occupancy()
            rs.check_position(after)
        move = moves[rng.randrange(len(moves))]
        game.play(move)
        # undo restores exactly, then play again
        game.undo()
        assert game.position == before and game.throw is None
        game.set_throw(move.throw)
        game.play(move.text)
    assert game.winner in ("B", "W", None)
    assert not comparison.disagreements, comparison.report()
    assert comparison.positions == game.ply_count


@settings(max_examples=30, deadline=None)
@given(spec=st.sampled_from(RULESETS), seed=st.integers(0, 2 ** 31))
def test_a_record_reads_back_into_the_same_game(spec, seed):
    game = play_game(_rs(spec), seed)
    again = Game.from_record(game.record())
    assert again.position == game.position
    assert again.winner == game.winner and again.score == game.score
    assert again.record() == game.record()


def test_a_seeded_game_replays_move_for_move():
    for spec in ("kendall", "hungarian"):
        a = play_game(_rs(spec), 1234)
        b = play_game(_rs(spec), 1234)
        assert [h[:3] for h in a.history] == [h[:3] for h in b.history]
        assert a.record() == b.record()
        assert a.record() != play_game(_rs(spec), 1235).record()


def test_a_tampered_record_is_refused_with_its_line_number():
    game = play_game(_rs("kendall"), 7)
    lines = game.record().splitlines()
    # replace the first real move with one that is not legal
    for i, line in enumerate(lines):
        if line[:2] in ("W ", "B ") and not line.endswith("pass"):
            side, value, _ = line.split()
            lines[i] = "%s %s 1-30" % (side, value)
            break
    try:
        Game.from_record("\n".join(lines))
    except PositionError as exc:
        assert "record line %d" % (i + 1) in str(exc)
    else:
        raise AssertionError("a tampered record was accepted")


def test_undo_of_nothing_and_moves_before_a_throw_are_refused():
    game = Game(ruleset("kendall"))
    for action in (game.undo, lambda: game.play("10-11"), game.pass_turn):
        try:
            action()
        except PositionError:
            pass
        else:
            raise AssertionError("accepted an impossible action")
