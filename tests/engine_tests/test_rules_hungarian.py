"""The Hungarian game-book rules, rule by rule (H1..H15), on hand-worked positions."""

import pytest

from engine import PositionError, ruleset
from engine.game import Game
from enginehelp import P, moves, texts

H = "hungarian"


def test_H1_five_pieces_a_side():
    start = ruleset(H).start()
    assert start.count("B") == 5 and start.count("W") == 5


def test_H2_black_on_the_even_squares_white_on_the_odd():
    assert ruleset(H).start().text() == "WBWBWBWBWB.................... B"


def test_H3_all_black_up_is_six_and_there_is_never_a_five():
    rs = ruleset(H)
    assert rs.throw_values == (1, 2, 3, 4, 6)
    assert rs.throw_value(0) == 6
    with pytest.raises(PositionError):
        rs.check_throw(5)


def test_H4_the_first_one_plays_black_and_moves_10_to_11():
    rs = ruleset(H)
    rolls = iter([0b0001])
    game = Game(rs, lambda n: next(rolls))
    game.play_opening()
    assert game.position.turn == "B" and game.throw == 1
    assert "10-11" in [m.text for m in game.legal_moves()]


@pytest.mark.parametrize("throw,again", [(1, True), (2, False), (3, False), (4, True), (6, True)])
def test_H5_one_four_and_six_throw_again(throw, again):
    (move,) = ruleset(H).legal_moves(P("B", B=[12], W=[1]), throw)
    assert move.again is again
    assert move.after.turn == ("B" if again else "W")


def test_H6_every_square_passed_counts_occupied_or_not():
    assert texts(H, P("B", B=[12], W=[13]), 3) == ["12-15"]


def test_H7_a_lone_enemy_is_swapped_a_small_block_is_not():
    assert moves(H, P("B", B=[12], W=[14]), 2) == {"12-14": P("W", B=[14], W=[12]).text()}
    assert "12-14" not in texts(H, P("B", B=[12], W=[14, 15]), 2)
    assert "12-15" not in texts(H, P("B", B=[12], W=[14, 15]), 3)


def test_H7_never_on_an_own_piece():
    assert texts(H, P("B", B=[12, 14], W=[1]), 2) == ["14-16"]


def test_H8_a_small_block_is_jumped_a_big_block_is_not():
    assert texts(H, P("B", B=[12], W=[13, 14]), 3) == ["12-15"]
    assert texts(H, P("B", B=[12], W=[13, 14, 15]), 4) == ["12-8"]


def test_H8_own_pieces_never_block_unless_the_option_says_so():
    position = P("B", B=[12, 13, 14, 15], W=[1])
    assert texts(H, position, 4) == ["12-16", "13-17", "14-18", "15-19"]
    # with the option, the mover counts in its own group (H8 decision): 12..15
    # are a group of four, so only the front piece is free to go
    assert texts(ruleset(H, own_groups_block=True), position, 4) == ["15-19"]


def test_H9_pieces_on_26_28_29_cannot_be_captured_even_lone():
    for square in (26, 28, 29):
        position = P("B", B=[square - 2], W=[square])
        assert "%d-%d" % (square - 2, square) not in texts(H, position, 2)


def test_H9_a_lone_piece_on_a_safe_square_can_still_be_jumped():
    assert texts(H, P("B", B=[26], W=[28]), 3) == ["26-29"]


def test_H10_the_water_returns_to_15():
    assert moves(H, P("B", B=[24], W=[1]), 3) == {"24-27": P("W", B=[15], W=[1]).text()}


def test_H10_to_square_1_when_15_is_taken_then_upwards():
    assert moves(H, P("B", B=[24], W=[15]), 3)["24-27"] == P("W", B=[1], W=[15]).text()
    assert moves(H, P("B", B=[24], W=[1, 15]), 3)["24-27"] == P("W", B=[2], W=[1, 15]).text()


def test_H10_backward_onto_the_water_too():
    # 29 cannot leave (H12: black still has a piece on 3) and 3 is walled in by a
    # big block, so black must move backward: 29 -> 27 -> 15
    result = moves(H, P("B", B=[3, 29], W=[4, 5, 6]), 2)
    assert result == {"3-1": P("W", B=[1, 29], W=[4, 5, 6]).text(),
                      "29-27": P("W", B=[3, 15], W=[4, 5, 6]).text()}


def test_H11_reaching_30_or_going_past_leaves_the_board():
    assert texts(H, P("B", B=[26], W=[1]), 4) == ["26-off"]
    assert texts(H, P("B", B=[25], W=[1]), 6) == ["25-off"]


def test_H12_no_piece_leaves_while_one_stands_on_squares_1_to_10():
    assert texts(H, P("B", B=[8, 26], W=[1]), 4) == ["8-12"]


def test_H13_backward_capture_puts_the_enemy_ahead():
    result = moves(H, P("B", B=[3, 28], W=[4, 5, 6, 25]), 3)
    assert result == {"28-25": P("W", B=[3, 25], W=[4, 5, 6, 28]).text()}


def test_H14_no_move_loses_the_turn_with_the_extra_throw_kept():
    rs = ruleset(H)
    position = P("B", B=[3], W=[4, 5, 6])
    assert texts(rs, position, 3) == [] and texts(rs, position, 4) == []
    game = Game(rs, position=position)
    game.set_throw(3)
    game.pass_turn()
    assert game.position.turn == "W" and not game.is_over()
    game = Game(rs, position=position)
    game.set_throw(4)
    game.pass_turn()
    assert game.position.turn == "B"


def test_H14_literal_option_ends_the_game_and_H15_scores_it():
    game = Game(ruleset(H, no_move="end"), position=P("B", B=[3], W=[4, 5, 6]))
    game.set_throw(3)
    game.pass_turn()
    # black scores 3 x 3 for white's three pieces on row 1, white scores 3 for black's one
    assert game.is_over() and game.winner == "B" and game.score == 9


def test_H14_literal_option_draw_on_equal_scores():
    # black on 1, 2, 3 walled in by white's big block on 4, 5, 6: 9 points each
    game = Game(ruleset(H, no_move="end"), position=P("B", B=[1, 2, 3], W=[4, 5, 6]))
    game.set_throw(3)
    assert game.legal_moves() == []
    game.pass_turn()
    assert game.is_over() and game.winner is None and game.score == 9


def test_H15_the_winner_scores_1_on_row_3_and_3_on_rows_1_and_2():
    game = Game(ruleset(H), position=P("B", B=[26], W=[5, 12, 22]))
    game.set_throw(4)
    game.play("26-off")
    assert game.winner == "B" and game.score == 3 + 3 + 1


def test_H_random_games_all_end():
    from engine.game import play_game
    for seed in range(30):
        game = play_game(ruleset(H), seed)
        assert game.winner in ("B", "W"), "seed %d" % seed


# -- the second pass: what the first tests missed -----------------------------

def test_H8_own_groups_block_counts_the_mover_in_a_group_of_three():
    # docs/rules.md (H8): black on 3, 4, 5 moving from 3 passes a group of three and is blocked
    position = P("B", B=[3, 4, 5], W=[20])
    assert texts(ruleset(H, own_groups_block=True), position, 4) == ["5-9"]
    assert texts(ruleset(H, own_groups_block=True), position, 3) == ["5-8"]
    # without the option own pieces never block
    assert texts(H, position, 4) == ["3-7", "4-8", "5-9"]


def test_H8_own_groups_block_a_pair_with_the_mover_is_still_passed():
    # 3 and 4 are only two, mover included: 3 passes 4
    assert texts(ruleset(H, own_groups_block=True), P("B", B=[3, 4], W=[20]), 3) == ["3-6", "4-7"]


def test_H8_a_big_block_met_backward_is_not_jumped_a_small_one_is():
    # 29 cannot leave (H12: black has a piece on 2, itself walled in)
    big = P("B", B=[2, 29], W=[3, 4, 5, 24, 25, 26])
    assert texts(H, big, 6) == []
    small = P("B", B=[2, 29], W=[3, 4, 5, 25, 26])
    assert texts(H, small, 6) == ["29-23"]


def test_H7_backward_onto_a_pair_is_refused_onto_a_lone_piece_captures():
    # black's 2 is walled in, 29 may not leave (H12): backward moves are forced
    assert texts(H, P("B", B=[2, 29], W=[3, 4, 5, 24, 25]), 4) == []
    assert moves(H, P("B", B=[2, 29], W=[3, 4, 5, 25]), 4) == {
        "29-25": P("B", B=[2, 25], W=[3, 4, 5, 29]).text()}     # a 4 throws again (H5)


def test_H12_a_piece_on_square_10_holds_back_a_piece_that_could_leave():
    assert texts(H, P("B", B=[10, 26], W=[1]), 4) == ["10-14"]
    # one square further on, the home row is empty and 26 may leave
    assert texts(H, P("B", B=[11, 26], W=[1]), 4) == ["11-15", "26-off"]
