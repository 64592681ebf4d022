"""firmware.recognise on its own: boards on the way to a move, and verdicts."""

from engine import Position, ruleset
from firmware import recognise as rec
from firmware.recognise import bit


def start(text, throw, name="kendall"):
    rs = ruleset(name)
    pos = Position.parse(text)
    r = rec.Recogniser()
    r.begin(pos.occupancy(), rs.legal_moves(pos, throw))
    return r, pos.occupancy()


def follow(r, base, *changes):
    """Apply lifts (-s) and placements (+s) in order; return the occupancy."""
    occ = base
    for c in changes:
        new = occ | bit(c) if c > 0 else occ & ~bit(-c)
        r.record(occ, new)
        occ = new
    return occ


def test_a_plain_move_and_the_waiting_board():
    r, base = start("BWBWBWBWBW.................... W", 1)
    roles = [""] * 30
    assert r.classify(base, roles) == rec.WAIT
    assert [i + 1 for i, x in enumerate(roles) if x == "movable"] == [2, 4, 6, 8, 10]
    occ = follow(r, base, -10, +11)
    assert r.classify(occ, roles) == rec.DONE and r.move.text == "10-11"


def test_a_capture_swap_needs_both_lifts_in_a_swapping_order_c6():
    r, base = start("B.W........W.B................ W", 2)
    roles = [""] * 30
    occ = follow(r, base, -12, +12)
    assert r.classify(occ, roles) == rec.WAIT
    r.begin(base, r.moves)
    occ = follow(r, base, -14, +14, -12, +12)               # touched, not swapped
    assert r.classify(occ, roles) == rec.WAIT
    r.begin(base, r.moves)
    occ = follow(r, base, -12, -14, +14, +12)
    assert r.classify(occ, roles) == rec.DONE and r.move.text == "12-14"


def test_boards_on_the_way_to_the_water_k12():
    r, base = start("B.B.W...................W..... W", 2)
    roles = [""] * 30
    occ = follow(r, base, -25, +27)
    assert r.classify(occ, roles) == rec.PARTIAL
    assert roles[26] == "take" and roles[14] == "put"
    occ = follow(r, occ, -27, +15)
    assert r.classify(occ, roles) == rec.DONE and r.move.text == "25-27"


def test_anything_else_is_a_mismatch_with_extra_and_missing_squares():
    r, base = start("B.B.W...................W..... W", 2)
    roles = [""] * 30
    occ = follow(r, base, -25, +22)
    assert r.classify(occ, roles) == rec.MISMATCH
    assert rec.squares_of(r.extra) == [22] and rec.squares_of(r.missing) == [25]
    assert roles[21] == "error" and roles[24] == "missing"


def test_restore_roles_for_the_setup_check():
    roles = [""] * 30
    target = bit(1) | bit(2)
    assert not rec.restore_roles(roles, target, bit(1) | bit(5))
    assert roles[:5] == ["setup", "put", "", "", "take"]
    assert rec.restore_roles(roles, target, target)
    assert not rec.restore_roles(roles, target, target, swaps=bit(2), lifted=0)
    assert rec.restore_roles(roles, target, target, swaps=bit(2), lifted=bit(2))
