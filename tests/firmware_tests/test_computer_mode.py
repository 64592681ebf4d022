"""Playing against the computer on the board, through the App contract: it
throws by itself, shows its move, and a person carries the move out."""

import os
import random
import subprocess
import sys

import pytest

from board_sim import BoardSim, SearchSlices, board_at, throws
from engine import Position
from engine.ai import choose_move
from engine.rules import ruleset as make_ruleset
from engine.sticks import XorShift
from firmware.protocol import parse_command
from mpyhelp import compile_lib, tool
import paths

ROOT = paths.ROOT
COMPUTER_B = {"mode": "computer", "computer": {"side": "B", "level": 2}}

# kendall, black (the computer) to throw: B on 3 and 22, W on 5, 8 and 29.
# A 2 gives the capture 3-5 (C6) or 22-24; a 1 gives 3-4 or 22-23 (ONE below).
TWO_WAYS = "..B.W..W.............B......W. B"
# B on 26 alone, W on 28, 29, 30: a 1 lands on the water (K12) and goes to 15.
WATER = ".........................B.WWW B"
# B on 1 behind a block of three (K8): a 3 has no legal move (K15).
BLOCKED = "BWWW.......................... B"


def sticks_leds(board):
    first = board.app.config["leds"]["sticks"]
    return list(board.app.led_roles[first:first + 4])


def wait_for(board, kind, ms=5000):
    """Let time pass until the App says ``kind`` (at most ``ms``)."""
    seen = len(board.events_of(kind))
    end = board.t + ms
    while board.t < end and len(board.events_of(kind)) == seen:
        board.step()
    return board.last(kind) if len(board.events_of(kind)) > seen else None


def expected_move(ruleset, position, throw, level=2):
    return choose_move(make_ruleset(ruleset), Position.parse(position), throw, level)


# What level 2 plays with a 1 in TWO_WAYS, and the other legal move: the tests
# ask the computer player rather than spelling its taste out (a retuned
# evaluation may prefer either; the board must follow whichever it picks).
ONE = expected_move("kendall", TWO_WAYS, 1)
OTHER = [m for m in make_ruleset("kendall").legal_moves(Position.parse(TWO_WAYS), 1)
         if m.text != ONE.text][0]


def engine_move(board, text):
    """The engine's Move for ``text`` in the App's position and pending throw."""
    rs = make_ruleset(board.app.ruleset)
    return rs.find_move(Position.parse(board.app.position), board.app.throw, text)


def test_the_computer_throws_by_itself_after_a_short_pause(tmp_path):
    board = board_at(TWO_WAYS, tmp_path, rng=throws(2), config=COMPUTER_B)
    assert board.app.state == "throw" and board.app.turn == "B"
    assert sticks_leds(board) == ["", "", "", ""]
    board.wait(400)
    assert board.events_of("throw") == []               # a visible pause first
    throw = wait_for(board, "throw", 2000)
    assert throw["by"] == "computer" and throw["side"] == "B" and throw["value"] == 2
    assert sticks_leds(board) == ["stick_white", "stick_white", "stick_black", "stick_black"]


def test_its_move_is_shown_on_its_piece_and_destination(tmp_path):
    board = board_at(TWO_WAYS, tmp_path, rng=throws(1), config=COMPUTER_B)
    wait_for(board, "throw")
    # between its throw and its choice nothing is lit and nothing counts
    assert board.squares_with("movable") == [] and board.squares_with("computer_from") == []
    chosen = wait_for(board, "computer", 3000)
    assert chosen == {"event": "computer", "side": "B", "move": ONE.text, "throw": 1, "level": 2}
    assert board.squares_with("computer_from") == [ONE.origin]
    assert board.squares_with("computer_to") == [ONE.to]
    assert board.squares_with("movable") == [] and board.squares_with("target") == []
    board.lift(ONE.origin).wait()                       # in the person's hand
    assert board.squares_with("computer_from") == [ONE.origin]
    assert board.squares_with("computer_to") == [ONE.to]


def test_level_4_chooses_a_slice_a_pass_and_the_board_scans_between(tmp_path, monkeypatch):
    from firmware.computer import _NODES
    watch = SearchSlices(monkeypatch)
    start = "BWBWBW.B.W.B.W................ B"      # kendall, black (the computer) to throw
    config = {"mode": "computer", "computer": {"side": "B", "level": 4}}
    board = board_at(start, tmp_path, rng=throws(1), config=config)
    chosen = wait_for(board, "computer", 5000)
    assert chosen["move"] == expected_move("kendall", start, 1, level=4).text
    slices = watch.per_step
    assert sum(slices) > 3 * _NODES, "a search this small proves nothing: %r" % slices
    assert max(slices) <= _NODES and len(slices) >= sum(slices) // _NODES


def test_a_new_game_while_the_computer_thinks_leaves_nothing_chosen(tmp_path):
    config = {"mode": "computer", "computer": {"side": "B", "level": 4}}
    board = board_at(TWO_WAYS, tmp_path, rng=throws(1, 1), config=config)
    wait_for(board, "throw")
    for _ in range(400):                         # until its search is under way
        board.step()
        if board.app._thinking is not None:
            break
    board.step()
    assert board.app._thinking is not None and board.events_of("computer") == []
    board.app.new_game()                         # the "new" command meanwhile
    board.wait(3000)
    assert board.events_of("computer") == [] and board.app.state == "setup"
    assert board.squares_with("computer_from") == [] and not board.app.busy


def test_the_computers_move_is_accepted_when_a_person_makes_it(tmp_path):
    board = board_at(TWO_WAYS, tmp_path, rng=throws(1), config=COMPUTER_B)
    wait_for(board, "computer")
    board.move(ONE.origin, ONE.to)
    move = board.last("move")
    assert move["side"] == "B" and move["move"] == ONE.text
    assert move["after"] == ONE.after.text() and ONE.after.turn == "B"   # a 1 throws again (K5)
    assert board.app.state == "throw" and board.app.turn == "B"
    assert board.squares_with("computer_from") == [] and board.squares_with("computer_to") == []


def test_a_capture_is_carried_out_as_a_swap_c6(tmp_path):
    board = board_at(TWO_WAYS, tmp_path, rng=throws(2), config=COMPUTER_B)
    chosen = wait_for(board, "computer")
    assert chosen["move"] == "3-5" == expected_move("kendall", TWO_WAYS, 2).text
    board.lift(3).lift(5).place(5).wait()                # the computer's piece on 5
    assert board.events_of("move") == []
    assert board.squares_with("put") == [3]              # the captured piece goes here
    board.place(3).wait()
    move = board.last("move")
    assert move["move"] == "3-5" and move["after"] == "..W.B..W.............B......W. W"
    assert board.app.turn == "W" and board.app.state == "throw"


def test_the_water_is_guided_as_for_a_person_k12(tmp_path):
    board = board_at(WATER, tmp_path, rng=throws(1), config=COMPUTER_B)
    chosen = wait_for(board, "computer")
    assert chosen["move"] == "26-27"
    assert board.squares_with("computer_from") == [26]
    assert board.squares_with("computer_to") == [15]     # where it ends (K12)
    board.lift(26).place(27).wait()
    assert board.squares_with("take") == [27] and board.squares_with("put") == [15]
    board.lift(27).place(15).wait()
    assert board.last("move")["after"].startswith("..............B")


def test_a_different_move_is_a_mismatch_and_nothing_is_played(tmp_path):
    board = board_at(TWO_WAYS, tmp_path, rng=throws(1), config=COMPUTER_B)
    wait_for(board, "computer")                          # it chose ONE
    board.move(OTHER.origin, OTHER.to)                   # legal for a person, not its choice
    assert board.events_of("move") == []
    assert board.last("mismatch") == {"event": "mismatch", "extra": [OTHER.to],
                                      "missing": [OTHER.origin]}
    assert board.squares_with("error") == [OTHER.to]
    assert board.squares_with("missing") == [OTHER.origin]
    assert board.app.position == TWO_WAYS
    board.move(OTHER.to, OTHER.origin)                   # put back: shown again
    assert board.last("resolved") is not None
    assert board.squares_with("computer_from") == [ONE.origin]
    board.move(ONE.origin, ONE.to)
    assert [m["move"] for m in board.events_of("move")] == [ONE.text]


def test_no_move_is_played_for_it_before_it_has_chosen(tmp_path):
    board = board_at(TWO_WAYS, tmp_path, rng=throws(1), config=COMPUTER_B)
    wait_for(board, "throw")
    board.move(ONE.origin, ONE.to)                       # too early: it has not chosen
    assert board.events_of("move") == [] and board.last("mismatch") is not None
    assert board.events_of("computer") == []
    board.move(ONE.to, ONE.origin).wait(1000)            # put back: now it chooses
    assert board.last("computer")["move"] == ONE.text
    assert board.squares_with("computer_from") == [ONE.origin]


def test_the_computer_passes_when_it_has_no_move_k15(tmp_path):
    board = board_at(BLOCKED, tmp_path, rng=throws(3), config=COMPUTER_B)
    throw = wait_for(board, "throw")
    assert throw["moves"] == [] and throw["by"] == "computer"
    side = board.app.config["leds"]["side_black"]
    board.wait(500)
    assert board.app.state == "nomove" and board.app.led_roles[side] == "nomove"
    passed = wait_for(board, "pass", 3000)
    assert passed == {"event": "pass", "side": "B", "throw": 3, "next": "W"}
    assert board.events_of("computer") == []
    assert board.app.state == "throw" and board.app.turn == "W"


def test_a_press_on_the_computers_turn_does_not_throw_for_it(tmp_path):
    board = board_at(TWO_WAYS, tmp_path, rng=throws(2), config=COMPUTER_B)
    board.press()
    assert "computer throws for itself" in board.last("notice")["message"]
    assert board.events_of("throw") == []
    assert wait_for(board, "throw")["by"] == "computer"


def test_the_opening_each_throws_its_own_k4():
    # The computer plays black and throws at black's light (player 1), then
    # the person presses for player 2; the side that starts moves with the 1.
    board = BoardSim(config=COMPUTER_B, rng=throws(2, 3, 1))
    board.setup()
    assert board.app.state == "opening"
    first = wait_for(board, "throw")
    assert first["opening"] and first["player"] == 1 and first["by"] == "computer"
    board.wait(1500)
    assert len(board.events_of("throw")) == 1           # the person's throw is theirs
    board.press()
    second = board.last("throw")
    assert second["player"] == 2 and "by" not in second
    third = wait_for(board, "throw")
    assert third["player"] == 1 and third["by"] == "computer" and third["value"] == 1
    assert board.last("start") == {"event": "start", "side": "W", "player": 1}
    board.wait(10)                      # its moves are worked out in the passes after it
    # kendall: white starts; white is the person's colour, so the person moves
    assert board.app.state == "move" and board.app.turn == "W"
    assert board.squares_with("movable") == [2, 4, 6, 8, 10]


def test_the_new_command_switches_to_the_computer_and_back():
    board = BoardSim(rng=throws(2, 1, 1))
    board.setup()
    out = board.app.command({"cmd": "new", "mode": "computer", "side": "W", "level": 3})
    assert [e["event"] for e in out] == ["new"]
    board.wait()
    assert board.app.state == "opening"
    board.wait(2000)
    assert board.events_of("throw") == []               # player 1 is the person now
    board.press()
    assert wait_for(board, "throw")["by"] == "computer"  # player 2: the computer
    assert board.last("start")["side"] == "W"
    assert wait_for(board, "computer")["level"] == 3
    out = board.app.command({"cmd": "new", "mode": "two_players"})
    board.wait()
    board.wait(2000)
    assert board.app.state == "opening" and len(board.events_of("throw")) == 2


@pytest.mark.parametrize("line, why", [
    ('{"cmd": "new", "mode": "chess"}', "mode must be"),
    ('{"cmd": "new", "side": "X"}', "side must be"),
    ('{"cmd": "new", "level": 5}', "level must be"),
    ('{"cmd": "new", "level": true}', "level must be"),
])
def test_a_bad_mode_side_or_level_is_refused_and_changes_nothing(line, why):
    cmd, error = parse_command(line)
    assert cmd is None and why in error["message"]
    board = BoardSim(config=COMPUTER_B)
    out = board.app.command(__import__("json").loads(line))
    assert out[0]["event"] == "error" and why in out[0]["message"]
    assert board.app.config["computer"] == {"side": "B", "level": 2}
    assert board.app.mode == "computer"


def test_parse_command_accepts_mode_side_and_level():
    cmd, error = parse_command('{"cmd": "new", "mode": "computer", "side": "W", "level": 3}')
    assert error is None and cmd["level"] == 3


# -- whole games ---------------------------------------------------------------

def play_against_the_computer(ruleset, seed, side="B", level=2, max_turns=3000):
    """A person making random legal moves (half of them via the water or the
    House of Happiness) against the computer, to the end. Returns the board."""
    rnd = random.Random(seed)
    config = {"ruleset": ruleset, "mode": "computer",
              "computer": {"side": side, "level": level}}
    board = BoardSim(config=config, rng=XorShift(seed))
    board.setup()
    person = 2 if side == "B" else 1
    for _ in range(max_turns):
        app = board.app
        state = app.state
        if state == "game_over":
            return board
        if state == "opening":
            if app.led_roles[app.config["leds"]["side_black"]] == "turn" and person == 1 \
                    or app.led_roles[app.config["leds"]["side_white"]] == "turn" and person == 2:
                board.press()
            else:
                board.wait(100)
        elif state == "throw":
            if app.turn == side:
                board.wait(100)
            else:
                board.press()
        elif state == "move" and app.turn == side:
            if board.squares_with("computer_from"):
                board.play(engine_move(board, board.last("computer")["move"]),
                           via=rnd.random() < 0.5)
            else:
                board.wait(100)
        elif state == "move":
            moves = app.moves
            board.play(moves[rnd.randrange(len(moves))], via=rnd.random() < 0.5)
        elif state == "nomove":
            board.wait(200)
        else:
            raise AssertionError("unexpected state %s: %s" % (state, board.events[-3:]))
    raise AssertionError("no game over after %d turns" % max_turns)


@pytest.mark.parametrize("ruleset, side", [("kendall", "B"), ("hungarian", "W")])
def test_a_whole_game_against_the_computer_reaches_game_over(ruleset, side):
    board = play_against_the_computer(ruleset, seed=11, side=side)
    over = board.last("game_over")
    assert over["winner"] in ("B", "W", None)
    assert board.events_of("mismatch") == []
    moves = board.events_of("move")
    chosen = board.events_of("computer")
    mine = [m["move"] for m in moves if m["side"] == side]
    assert mine == [c["move"] for c in chosen]          # it played what it showed
    assert len(mine) > 10
    by = [t.get("by") for t in board.events_of("throw") if t["side"] == side]
    assert by and set(by) == {"computer"}
    # seeded: the same game again, event for event
    again = play_against_the_computer(ruleset, seed=11, side=side)
    assert again.events == board.events


# -- the MicroPython unix port -----------------------------------------------------

@pytest.mark.micropython
def test_a_computer_game_runs_on_the_micropython_unix_port_in_a_pico_heap(tmp_path):
    # From .mpy files, as the Pico runs them: compiling the sources in the
    # heap itself would measure the compiler more than the computer.
    store = tmp_path / "flash"
    for sub in ("a", "b", "c"):
        (store / sub).mkdir(parents=True)
    lib = compile_lib(tmp_path / "lib", extra=(
        "tests/board_sim.py", "tests/hand.py", "tests/bench/calibration.py", "tests/mp/runner.py",
        "tests/mp/test_computer_mp.py"))
    result = subprocess.run([tool("micropython"), "-X", "heapsize=180k", "-m",
                             "test_computer_mp", os.path.relpath(str(store), lib)],
                            cwd=lib, capture_output=True, text=True, timeout=600)
    out = result.stdout + result.stderr
    print(out)
    assert out.strip().splitlines()[-1] == "5 passed, 0 failed", out


@pytest.mark.micropython
def test_the_computer_module_compiles_with_mpy_cross(tmp_path):
    out = tmp_path / "computer.mpy"
    result = subprocess.run([tool("mpy-cross"), "-o", str(out),
                             os.path.join(ROOT, "firmware", "computer.py")],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


# -- the simulator ---------------------------------------------------------------

def sim_hands(sim, move):
    """The simulator's virtual hands make ``move``: a capture is a swap (C6),
    a piece ending on the water or Happiness goes straight to its square."""
    mover = sim.piece_at(move.origin).id
    sim.lift(move.origin)
    if move.capture:
        sim.lift(move.to)
        sim.place(move.to, mover)
        sim.place(move.origin)
    elif move.final != 31:
        sim.place(move.final, mover)
    sim.advance(500)


def test_the_simulator_plays_the_computer_and_the_person_drags_its_move(tmp_path):
    from host_tools.sim.command import add_arguments, computer_config
    import argparse
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    args = parser.parse_args(["--computer", "B", "--level", "3", "--no-browser"])
    config = computer_config({"settle_ms": 200}, args.computer, args.level)
    assert config == {"settle_ms": 200, "mode": "computer",
                      "computer": {"side": "B", "level": 3}}
    from host_tools.sim.board import Sim
    sim = Sim(config=config, store_dir=str(tmp_path), seed=4)
    rs = make_ruleset("kendall")

    def events(kind):
        return [e["data"] for e in sim.log if e["kind"] == "app" and e["data"]["event"] == kind]

    for _ in range(200):
        if events("computer"):
            break
        app = sim.snapshot()["app"]
        if app["state"] == "opening" and app["sticks"] is not None \
                and events("throw")[-1].get("by") == "computer":
            sim.press()                                  # the person's opening throw
        elif app["state"] == "throw" and app["turn"] == "W":
            sim.press()
        elif app["state"] == "move" and app["turn"] == "W":
            pos = Position.parse(app["position"])
            sim_hands(sim, rs.legal_moves(pos, app["throw"])[0])
        sim.advance(500)
    chosen = events("computer")[-1]
    assert chosen["side"] == "B" and chosen["level"] == 3
    assert all(t.get("by") == "computer" for t in events("throw") if t["side"] == "B")
    app = sim.snapshot()["app"]
    move = rs.find_move(Position.parse(app["position"]), app["throw"], chosen["move"])
    roles = sim.snapshot()["roles"]
    assert roles[move.origin - 1] == "computer_from"
    sim_hands(sim, move)
    played = events("move")[-1]
    assert played["side"] == "B" and played["move"] == chosen["move"]
    sim.close()


def test_taking_back_its_move_makes_it_choose_again_with_the_same_throw(tmp_path):
    board = board_at(TWO_WAYS, tmp_path, rng=throws(2, 3), config=COMPUTER_B)
    wait_for(board, "computer")
    board.swap(3, 5)
    assert board.last("move")["move"] == "3-5"
    board.hold()                                        # take its capture back
    undo = board.last("undo")
    assert undo["move"] == "3-5" and undo["throw"] == 2
    board.swap(5, 3)                                    # restore, as the lights ask
    assert board.last("ready") is not None
    again = wait_for(board, "computer", 3000)
    assert again["move"] == "3-5" and again["throw"] == 2
    assert len(board.events_of("throw")) == 1           # the same throw, not a new one
    assert board.squares_with("computer_from") == [3]


def test_after_a_power_cut_the_computer_plays_on(tmp_path):
    board = board_at(TWO_WAYS, tmp_path, rng=throws(1, 1), config=COMPUTER_B)
    wait_for(board, "computer")
    # the power goes; the same pieces, a new App on the saved game
    after = BoardSim(config=dict(COMPUTER_B), store_dir=str(tmp_path), rng=throws(1), t=board.t)
    after.set_board(board.occ)
    assert after.last("ready") is not None
    chosen = wait_for(after, "computer", 4000)
    assert chosen["side"] == "B" and chosen["throw"] == 1 and chosen["move"] == ONE.text
    assert after.squares_with("computer_from") == [ONE.origin]
    after.move(ONE.origin, ONE.to)
    assert after.last("move")["move"] == ONE.text


def _loaded_after_a_move(config):
    code = ("import sys; sys.path[:0] = ['tests']\n"
            "from board_sim import BoardSim, throws\n"
            "b = BoardSim(config=%r, rng=throws(1)); b.setup(); b.press(); b.move(10, 11)\n"
            "print('engine.ai' in sys.modules, 'firmware.computer' in sys.modules)\n" % config)
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                         text=True, timeout=60)
    return out.stdout.split() or [out.stderr]


def test_two_players_with_the_hint_off_never_load_the_computer():
    # engine.ai costs heap on the Pico: a board that never searches never loads it
    assert _loaded_after_a_move({"hint": False}) == ["False", "False"]


def test_a_board_that_may_search_loads_the_search_at_start_up():
    # loaded at the first hint, or when a museum's lone visitor was joined,
    # its import was a pass of 20-40 ms on a Pico
    assert _loaded_after_a_move({}) == ["True", "True"]
    assert _loaded_after_a_move({"mode": "museum"}) == ["True", "True"]
    assert _loaded_after_a_move({"mode": "museum", "hint": True}) == ["True", "True"]


def test_start_up_makes_the_tables_of_the_levels_the_board_may_search_at():
    import engine.ai
    from firmware.app import App
    for config, weights in (({}, [engine.ai.WEIGHTS]),
                            ({"hint": False, "mode": "computer",
                              "computer": {"side": "B", "level": 2}},
                             [engine.ai.RACE_WEIGHTS]),
                            ({"mode": "computer", "computer": {"side": "W", "level": 3}},
                             [engine.ai.WEIGHTS, engine.ai.RACE_WEIGHTS]),
                            ({"mode": "museum"}, [engine.ai.RACE_WEIGHTS]),   # level 2
                            ({"mode": "museum", "computer": {"level": 4}}, [engine.ai.WEIGHTS]),
                            ({"mode": "museum", "computer": {"level": 1}}, [])):
        del engine.ai._cache[:]
        app = App(config=config)
        rs = app.game.ruleset
        made = [t.weights for t in engine.ai._cache if t.rs is rs]
        assert sorted(map(id, made)) == sorted(map(id, weights)), config
