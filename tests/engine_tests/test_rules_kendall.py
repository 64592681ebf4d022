"""Kendall's reconstruction, rule by rule (K1..K16), on hand-worked positions."""

import pytest

from engine import PositionError, ruleset
from engine.game import Game
from enginehelp import P, moves, texts

K = "kendall"


def test_K1_long_senet_has_seven_pieces_a_side():
    rs = ruleset(K, pieces=7)
    assert rs.start().text() == "BWBWBWBWBWBWBW................ W"
    assert rs.start().count("B") == 7 and rs.start().count("W") == 7


def test_K1_only_five_or_seven_pieces():
    with pytest.raises(PositionError):
        ruleset(K, pieces=6)


def test_K2_setup_alternates_black_first():
    assert ruleset(K).start().text() == "BWBWBWBWBW.................... W"


def test_K3_all_black_up_is_five():
    rs = ruleset(K)
    assert rs.throw_values == (1, 2, 3, 4, 5)
    assert rs.throw_value(0) == 5
    with pytest.raises(PositionError):
        rs.check_throw(6)


def test_K4_white_owns_the_frontmost_piece_and_starts_with_the_one():
    rs = ruleset(K)
    assert rs.start().turn == "W"
    # players throw 3, 2, then 1: the second thrower wins the opening
    rolls = iter([0b0111, 0b0011, 0b0001])
    game = Game(rs, lambda n: next(rolls))
    throws = game.play_opening()
    assert [t.value for t in throws] == [3, 2, 1]
    assert game.throw == 1 and game.position.turn == "W"
    assert [m.text for m in game.legal_moves()] == ["2-3", "4-5", "6-7", "8-9", "10-11"]


@pytest.mark.parametrize("throw,again", [(1, True), (2, False), (3, False), (4, True), (5, True)])
def test_K5_one_four_and_five_throw_again(throw, again):
    position = P("W", W=[16], B=[1])
    (move,) = ruleset(K).legal_moves(position, throw)
    assert move.again is again
    assert move.after.turn == ("W" if again else "B")


def test_K6_a_jumped_piece_is_not_counted():
    # 13 counts 1, the lone black on 14 is jumped (15 is free), 15 counts 2, 16 is 3
    assert moves(K, P("W", W=[12], B=[14]), 3) == {"12-16": P("B", W=[16], B=[14]).text()}


def test_K7_landing_on_a_lone_enemy_swaps_it_back_to_the_origin():
    assert moves(K, P("W", W=[12], B=[14]), 2) == {"12-14": P("B", W=[14], B=[12]).text()}


def test_K7_never_on_an_own_piece_nor_a_protected_enemy():
    assert texts(K, P("W", W=[12, 14]), 2) == ["14-16"]
    # the pair on 16, 17 protects itself: the forward move is illegal, so K15
    # sends the piece backward
    assert texts(K, P("W", W=[14], B=[16, 17]), 2) == ["14-12"]
    assert texts(K, P("W", W=[14], B=[16, 17]), 3) == ["14-11"]


def test_K8_a_lone_piece_with_a_piece_after_it_cannot_be_jumped():
    assert texts(K, P("W", W=[12, 14], B=[13]), 3) == ["14-17"]


def test_K8_two_adjacent_pieces_cannot_be_jumped():
    assert texts(K, P("W", W=[12], B=[13, 14]), 3) == ["12-9"]


def test_K8_nothing_can_be_jumped_at_the_start():
    assert texts(K, ruleset(K).start(), 2) == ["10-12"]
    assert texts(K, ruleset(K).start(), 3) == ["10-13"]


def test_K9_a_triple_is_broken_on_its_middle():
    # docs/rules.md's example (K9): white on 10, black on 12, 13, 14, 11 empty, a throw of 3
    after = P("B", W=[13], B=[10, 12, 14]).text()
    assert moves(K, P("W", W=[10], B=[12, 13, 14]), 3) == {"10-13": after}


def test_K9_only_the_middle_of_a_triple():
    assert texts(K, P("W", W=[10], B=[12, 13, 14]), 2) == ["10-8"]


def test_K9_fours_never_break():
    assert texts(K, P("W", W=[10], B=[12, 13, 14, 15]), 3) == ["10-7"]


def test_K9_own_triple_is_not_broken():
    result = moves(K, P("W", W=[10, 12, 13, 14]), 3)
    assert "10-13" not in result


def test_K9_backward_break_is_mirrored():
    rs = ruleset(K, pieces=7)
    position = P("W", W=[20], B=[16, 17, 18, 21, 22, 23, 24])
    assert moves(rs, position, 3) == {"20-17": P("B", W=[17], B=[16, 18, 20, 21, 22, 23, 24]).text()}


def test_K10_the_house_of_rebirth_is_safe_and_gives_another_throw():
    assert "13-15" not in texts(K, P("W", W=[13], B=[15]), 2)
    (move,) = ruleset(K).legal_moves(P("W", W=[13]), 2)
    assert move.text == "13-15" and move.again is True
    assert move.after.turn == "W"


def test_K10_arriving_at_15_from_the_water_gives_no_throw():
    (move,) = ruleset(K).legal_moves(P("W", W=[24]), 3)
    assert (move.text, move.final, move.again) == ("24-27", 15, False)


def test_K11_the_house_of_happiness_moves_on_to_29():
    assert moves(K, P("W", W=[23]), 3) == {"23-26": P("B", W=[29]).text()}


def test_K11_stays_on_26_when_29_is_taken():
    assert moves(K, P("W", W=[23], B=[29]), 3) == {"23-26": P("B", W=[26], B=[29]).text()}


def test_K12_the_water_returns_to_15_or_the_nearest_free_square_before():
    assert moves(K, P("W", W=[24]), 3) == {"24-27": P("B", W=[15]).text()}
    assert moves(K, P("W", W=[24, 14], B=[15]), 3)["24-27"] == P("B", W=[13, 14], B=[15]).text()


def test_K13_the_last_houses_leave_only_on_their_exact_throw():
    assert texts(K, P("W", W=[28]), 3) == ["28-off"]
    assert texts(K, P("W", W=[29]), 2) == ["29-off"]
    assert texts(K, P("W", W=[30]), 1) == ["30-off"]
    for throw in (1, 2, 4, 5):
        assert texts(K, P("W", W=[28]), throw) == []


def test_K13_no_move_passes_beyond_30():
    assert texts(K, P("W", W=[25]), 5) == ["25-30"]
    assert texts(K, P("W", W=[26], B=[29]), 5) == ["26-21"]  # forward impossible: backward (K15)


def test_K14_leaving_is_never_forced():
    assert texts(K, P("W", W=[20, 28]), 3) == ["20-23", "28-off"]


def test_K15_backward_only_when_no_forward_move_exists():
    assert texts(K, P("W", W=[26], B=[29]), 5) == ["26-21"]
    assert texts(K, P("W", W=[20, 26], B=[29]), 5) == ["20-25"]


def test_K15_backward_capture_puts_the_enemy_ahead():
    # a throw of 4 also gives another throw (K5): white moves again
    assert moves(K, P("W", W=[26], B=[22, 29]), 4) == {"26-22": P("W", W=[22], B=[26, 29]).text()}


def test_K15_never_below_square_1():
    assert texts(K, P("W", W=[3], B=[4, 5, 6, 7]), 4) == []


def test_K15_no_move_at_all_loses_the_turn_but_keeps_an_extra_throw():
    rs = ruleset(K)
    position = P("W", W=[30], B=[1])
    assert texts(rs, position, 2) == []
    assert rs.pass_position(position, 2).turn == "B"
    assert rs.pass_position(position, 4).turn == "W"


def test_K16_the_first_to_bear_off_every_piece_wins():
    rs = ruleset(K)
    game = Game(rs, position=P("W", W=[30], B=[1, 2]))
    game.set_throw(1)
    game.play("30-off")
    assert game.is_over() and game.winner == "W"


def test_K_random_games_all_end():
    from engine.game import play_game
    for seed in range(30):
        game = play_game(ruleset(K), seed)
        assert game.winner in ("B", "W"), "seed %d" % seed


def test_K11_a_capture_on_26_swaps_then_moves_on_to_29():
    # found by the random-game property test: the captured piece goes to the
    # origin, and the mover still moves on from the House of Happiness
    result = moves(K, P("W", W=[23], B=[22, 26]), 3)
    assert result == {"23-26": P("B", W=[29], B=[22, 23]).text()}


def test_undo_reverses_a_capture_that_moved_on_and_a_water_return():
    # the log keeps where the mover came to rest and whether it captured, so
    # undo reverses the move without replaying the game
    for start, throw, text in ((P("W", W=[23], B=[22, 26]), 3, "23-26"),   # K11 after C6
                               (P("W", W=[24, 14], B=[15]), 3, "24-27"),   # K12 to 13
                               (P("W", W=[10], B=[12, 13, 14]), 3, "10-13")):  # K9
        game = Game(ruleset(K), position=start)
        game.set_throw(throw)
        game.play(text)
        entry = game.undo()
        assert game.position == start and entry == ("W", throw, text, start)


# -- the second pass: what the first tests missed -----------------------------

def test_K8_the_mover_still_counts_in_its_pair_forward():
    # black on 3 and 4 are a pair as the move begins: 3 cannot jump 4 (docs/rules.md, K8)
    assert moves(K, P("B", B=[3, 4], W=[20]), 2) == {"4-6": P("W", B=[3, 6], W=[20]).text()}


def test_K8_a_lone_enemy_beside_the_mover_stays_lone_and_is_jumped():
    # white on 3, black on 4, 5 empty: the black piece is lone (the mover is white)
    assert moves(K, P("W", W=[3], B=[4]), 2) == {"3-6": P("B", W=[6], B=[4]).text()}


def test_K8_the_mover_still_counts_in_its_pair_backward():
    # white 21, 22 behind black's four: no forward move (K15).  Backward, 22
    # cannot jump its partner on 21; 21 steps back alone
    position = P("W", W=[21, 22], B=[23, 24, 25, 26])
    assert texts(K, position, 1) == ["21-20"]
    assert texts(K, position, 2) == ["21-19"]


def test_K8_a_pair_met_backward_protects_itself():
    # landing backward on either piece of a pair is illegal, so is jumping it
    position = P("W", W=[20], B=[17, 18, 21, 22, 23, 24])
    assert texts(ruleset(K, pieces=7), position, 2) == []
    assert texts(ruleset(K, pieces=7), position, 3) == []


def test_K9_a_backward_move_never_takes_the_near_end_of_a_triple():
    # the first example: 21-20 would take the end of black's 18..20
    assert texts(K, P("W", W=[21, 22], B=[18, 19, 20, 23, 24]), 1) == []


def test_K9_a_backward_move_never_takes_the_end_of_a_triple_after_a_jump():
    # the second example: 11 jumps its own lone 7 and would end on 5,
    # the near end of white's 3, 4, 5
    assert texts(K, P("B", B=[2, 7, 11, 13], W=[3, 4, 5, 16, 17]), 5) == []


def test_K9_forward_only_the_middle_never_an_end():
    # white on 11 right behind black's 12, 13, 14: a 2 takes the middle; a 1
    # would take the near end and a 3 would pass the triple, so both are
    # refused and the piece must go back (K15)
    position = P("W", W=[11], B=[12, 13, 14])
    assert texts(K, position, 2) == ["11-13"]
    assert texts(K, position, 1) == ["11-10"]
    assert texts(K, position, 3) == ["11-8"]


def test_K12_the_water_with_15_taken_and_14_free_stops_on_14():
    result = moves(K, P("W", W=[24], B=[15]), 3)
    assert result == {"24-27": P("B", W=[14], B=[15]).text()}


def test_K13_28_to_30_never_move_backward():
    # nothing else can move, yet the piece on 29 does not step back
    assert texts(K, P("W", W=[29], B=[1]), 3) == []


def test_K10_a_backward_move_ending_on_15_throws_again():
    # white 16 walled in by black's 17..20: back to 15 with a 1
    (move,) = ruleset(K).legal_moves(P("W", W=[16], B=[17, 18, 19, 20]), 1)
    assert (move.text, move.again) == ("16-15", True)
