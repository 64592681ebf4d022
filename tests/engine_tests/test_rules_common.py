"""The common ground of both rulesets (C1..C6), and the position and move text."""

import pytest

from engine import Position, PositionError, IllegalMoveError, ruleset, parse_move_text, OFF
from engine.game import Game
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


@pytest.mark.parametrize("name", ["kendall", "hungarian"])
def test_C3_the_ways_counted_by_white_sides_are_the_sixteen_falls_counted_one_by_one(name):
    rs = ruleset(name)
    ways = {}
    for bits in range(16):
        value = throw_from_bits(rs, bits).value
        ways[value] = ways.get(value, 0) + 1
    assert probabilities(rs) == ways and sum(ways.values()) == 16


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


# -- refused moves: IllegalMoveError names the rule ---------------------------

def _refusal(rs, position, throw, text):
    with pytest.raises(IllegalMoveError) as exc:
        ruleset(rs).find_move(position, throw, text)
    return exc.value


@pytest.mark.parametrize("rs,position,throw,text,rule", [
    ("kendall", P("B", B=[3, 4], W=[20]), 2, "3-6", "K8"),       # jumping its own partner
    ("kendall", P("B", B=[3, 4], W=[20]), 2, "4-7", "K6"),       # the throw ends on 6
    ("kendall", P("W", W=[21, 22], B=[18, 19, 20, 23, 24]), 1, "21-20", "K8"),   # a group protects
    ("kendall", P("W", W=[13], B=[15]), 2, "13-15", "K10"),
    ("kendall", P("W", W=[13, 28], B=[18]), 2, "28-30", "K13"),
    ("kendall", P("W", W=[26], B=[29]), 5, "26-off", "K13"),     # beyond 30
    ("kendall", P("W", W=[12, 14], B=[1]), 2, "12-14", "K7"),
    ("kendall", P("W", W=[13, 28], B=[18]), 2, "13-11", "K15"),   # forward exists
    ("kendall", P("W", W=[3], B=[4, 5, 6, 7]), 4, "3-1", "K15"),  # below square 1
    ("hungarian", P("B", B=[8, 26], W=[1]), 4, "26-off", "H12"),
    ("hungarian", P("B", B=[12], W=[14, 15]), 2, "12-14", "H7"),
    ("hungarian", P("B", B=[12], W=[13, 14, 15]), 4, "12-16", "H8"),
    ("hungarian", P("B", B=[24], W=[26]), 2, "24-26", "H9"),
])
def test_a_refused_move_names_the_one_rule_that_refuses_it(rs, position, throw, text, rule):
    error = _refusal(rs, position, throw, text)
    assert error.rule == rule
    assert str(error).startswith("%s is not a legal move for %s with a throw of %d in %s: %s: " % (
        text, position.turn, throw, position.text(), rule))


def test_a_refused_move_is_still_a_position_error():
    with pytest.raises(PositionError):
        ruleset("kendall").find_move(P("B", B=[3, 4], W=[20]), 2, "3-6")


def test_a_move_from_an_empty_square_names_no_rule():
    error = _refusal("kendall", P("B", B=[3, 4], W=[20]), 2, "5-7")
    assert error.rule is None and "no piece of the side to move on 5" in str(error)


def test_malformed_move_text_is_not_an_illegal_move():
    with pytest.raises(PositionError) as exc:
        ruleset("kendall").find_move(ruleset("kendall").start(), 2, "ten-twelve")
    assert not isinstance(exc.value, IllegalMoveError)


def test_C4_game_play_refuses_a_move_made_for_a_different_throw():
    # 10-11 with a 1 and 10-12 with a 2 are moves of the start; a Move object
    # made for the 2 must not be played when the throw is a 1, even though
    # with a 1 the same piece may move too
    rs = ruleset("kendall")
    game = Game(rs)
    (made_for_two,) = rs.legal_moves(game.position, 2)
    game.set_throw(1)
    with pytest.raises(IllegalMoveError) as exc:
        game.play(made_for_two)
    assert exc.value.rule == "C4" and "made for a throw of 2" in str(exc.value)
    assert game.position == rs.start() and game.throw == 1 and game.ply_count == 0


def test_C4_the_same_move_text_made_for_another_throw_is_refused():
    # H11: 28-off is the move of a 2 and of a 4 alike, but a 2 passes the
    # sticks and a 4 throws again; the Move made for the 2 is not played for the 4
    rs = ruleset("hungarian")
    position = P("B", B=[12, 28], W=[1])
    (made_for_two,) = [m for m in rs.legal_moves(position, 2) if m.text == "28-off"]
    game = Game(rs, position=position)
    game.set_throw(4)
    with pytest.raises(IllegalMoveError):
        game.play(made_for_two)
    assert game.play("28-off").again is True
