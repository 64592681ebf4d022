"""The common ground of both rulesets (C1..C6), and the position and move text."""

import pytest

from engine import Position, PositionError, ruleset, parse_move_text, OFF
from engine.sticks import probabilities, throw_from_bits
from enginehelp import P, moves, texts


def test_C1_thirty_squares_in_position_text():
    with pytest.raises(PositionError) as exc:
        Position.parse("BWBWBWBWBW................... W")
    assert "30 squares" in str(exc.value)
    assert Position.parse("BWBWBWBWBW.................... W").text() == "BWBWBWBWBW.................... W"


def test_C1_the_snake_path_joins_10_to_11_and_20_to_21():
    # white on 10 and 11 are one group across the row end, so neither can be captured
    assert "9-11" not in texts("kendall", P("B", B=[9], W=[10, 11]), 2)
    assert "19-21" not in texts("hungarian", P("B", B=[19], W=[20, 21]), 2)


@pytest.mark.parametrize("bad,words", [
    ("BWBWBWBWBX.................... W", "square 10"),
    ("BWBWBWBWBW.................... X", "side to move"),
    ("BWBWBWBWBW....................W", "30 squares"),
    (42, "text"),
])
def test_malformed_position_text_says_what_is_wrong(bad, words):
    with pytest.raises(PositionError) as exc:
        Position.parse(bad)
    assert words in str(exc.value)


def test_positions_the_rules_cannot_reach_are_refused():
    with pytest.raises(PositionError):
        ruleset("kendall").check_position(P("W", W=[1, 2, 3, 4, 5, 6]))
    with pytest.raises(PositionError):
        ruleset("hungarian").check_position(P("W", W=[27]))
    with pytest.raises(PositionError):
        ruleset("hungarian").check_position(P("W", W=[30]))


def test_C2_a_square_holds_one_piece():
    assert texts("kendall", P("W", W=[12, 14]), 2) == ["14-16"]


def test_C3_stick_values_have_exact_probabilities():
    assert probabilities(ruleset("kendall")) == {1: 4, 2: 6, 3: 4, 4: 1, 5: 1}
    assert probabilities(ruleset("hungarian")) == {1: 4, 2: 6, 3: 4, 4: 1, 6: 1}


def test_C3_bit_i_is_stick_i_and_one_is_white_up():
    t = throw_from_bits(ruleset("kendall"), 0b0101)
    assert t.sticks == (1, 0, 1, 0) and t.value == 2
    assert throw_from_bits(ruleset("hungarian"), 0).value == 6


def test_C4_a_throw_moves_one_piece_by_the_whole_value():
    for throw in (1, 2, 3, 4, 6):
        assert texts("hungarian", P("B", B=[11, 20], W=[1]), throw) == [
            "11-%d" % (11 + throw), "20-%d" % (20 + throw)]


def test_C4_a_throw_is_never_split():
    # 2 then 1 would reach 15 with the 3; only whole-throw moves exist
    result = texts("hungarian", P("B", B=[11, 13], W=[1]), 2)
    assert result == ["13-15"]  # 11-13 lands on black's own piece


def test_C5_lone_means_no_own_piece_on_either_adjacent_square():
    # white 14 has black neighbours only: it is lone, and can be captured
    result = moves("hungarian", P("B", B=[12, 13, 15], W=[14]), 2)
    assert result["12-14"] == P("W", B=[13, 14, 15], W=[12]).text()
    # with a white neighbour on 15 it is part of a small block and safe (H7)
    assert "12-14" not in texts("hungarian", P("B", B=[12, 13], W=[14, 15]), 2)


def test_C6_a_capture_is_a_swap_and_no_piece_leaves_by_capture():
    rs = ruleset("kendall")
    before = P("W", W=[12], B=[14])
    (move,) = rs.legal_moves(before, 2)
    assert move.capture and move.after.count("B") == 1 and move.after.count("W") == 1
    assert move.after.at(12) == "B" and move.after.at(14) == "W"
    assert move.effects() == ([], [(12, "B"), (14, "W")])
    assert move.after.occupancy() == before.occupancy()


def test_move_text_reads_both_ways():
    assert parse_move_text("12-15") == (12, 15)
    assert parse_move_text("28-off") == (28, OFF)
    for bad in ("12", "a-b", "0-3", "12-40", None):
        with pytest.raises(PositionError):
            parse_move_text(bad)


def test_effects_describe_the_water_trap_as_seen_by_the_sensors():
    (move,) = ruleset("hungarian").legal_moves(P("B", B=[24], W=[1]), 3)
    assert move.effects() == ([24], [(15, "B")])
    assert move.touched() == [24, 27, 15]


def test_effects_of_leaving_the_board():
    (move,) = ruleset("kendall").legal_moves(P("W", W=[30], B=[1]), 1)
    assert move.leaves and move.effects() == ([30], [])
