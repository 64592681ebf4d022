"""The engine's move generator agrees exactly with a second one written
straight from the rules document (tests/reference_moves.py): the same moves in
the same order, the same position after each, the same extra throw.

Compared on positions that are hard on purpose (tests/hard_positions.py) with
every throw value, and, in test_engine_properties.py, on every position the
random games reach.
"""

import doctest
import json

import reference_moves
from engine.__main__ import moves_json
from engine.position import Position
from engine.rules import parse_ruleset
from hard_positions import SPECS, hard_positions

HARD_POSITIONS = 20000


class Comparison:
    """Feeds positions to both generators; keeps every disagreement."""

    def __init__(self):
        self.rulesets = {}
        self.queries = 0
        self.positions = 0
        self.backward = 0
        self.disagreements = []

    def ruleset(self, spec):
        rs = self.rulesets.get(spec)
        if rs is None:
            rs = self.rulesets[spec] = parse_ruleset(spec)
        return rs

    def engine_moves(self, spec, position, throw):
        """What ``python -m engine moves`` prints, read back."""
        return json.loads(moves_json(self.ruleset(spec), position, throw))

    def check(self, spec, position):
        """Every throw value of ``spec`` on ``position`` (a Position)."""
        self.positions += 1
        text = position.text()
        for throw in reference_moves.throws(spec):
            mine = self.engine_moves(spec, position, throw)
            theirs = reference_moves.moves(spec, text, throw)
            self.queries += 1
            if mine and _is_backward(mine[0]["move"]):
                self.backward += 1
            if mine != theirs:
                self.disagreements.append((spec, text, throw, mine, theirs))

    def report(self):
        lines = ["%d of %d queries disagree" % (len(self.disagreements), self.queries)]
        for spec, text, throw, mine, theirs in self.disagreements[:10]:
            lines.append("%s %r throw %d\n  engine:    %s\n  reference: %s" % (
                spec, text, throw, _show(mine), _show(theirs)))
        return "\n".join(lines)


def _is_backward(text):
    origin, to = text.split("-")
    return to != "off" and int(to) < int(origin)


def _show(answer):
    return ", ".join("%s -> %s%s" % (m["move"], m["after"], " again" if m["again"] else "")
                     for m in answer) or "no move"


def test_the_reference_generator_examples_hold():
    result = doctest.testmod(reference_moves)
    assert result.attempted > 0 and result.failed == 0


def test_both_generators_agree_on_twenty_thousand_hard_positions():
    comparison = Comparison()
    for spec, text in hard_positions(HARD_POSITIONS, seed=13):
        position = Position.parse(text)
        comparison.ruleset(spec).check_position(position)     # a position the rules accept
        comparison.check(spec, position)
    print("compared %d positions, %d queries, %d with backward moves forced" % (
        comparison.positions, comparison.queries, comparison.backward))
    assert not comparison.disagreements, comparison.report()
    assert comparison.positions == HARD_POSITIONS
    # the positions are hard as meant: backward moves are forced often
    assert comparison.backward > comparison.queries // 20


def test_the_hard_positions_cover_every_ruleset_and_the_awkward_squares():
    found = hard_positions(3000, seed=1)
    assert set(spec for spec, _ in found) == set(SPECS)
    texts = [text for _, text in found]
    for square in (15, 26, 28, 29, 30):
        assert sum(1 for t in texts if t[square - 1] != ".") > 200, square
    for run in ("BBBB", "WWWW", "BBBWW", "WWWBB", "BBWW"):
        assert sum(1 for t in texts if run in t) > 30, run


def test_a_disagreement_is_printed_as_position_throw_and_both_answers():
    comparison = Comparison()
    comparison.disagreements.append(
        ("kendall", "..BB.......................... B", 2,
         [{"move": "3-5", "after": "...BB......................... W", "again": False}], []))
    comparison.queries = 1
    text = comparison.report()
    assert "1 of 1 queries disagree" in text and "throw 2" in text
    assert "..BB.......................... B" in text
    assert "engine:    3-5 -> ...BB" in text and "reference: no move" in text
