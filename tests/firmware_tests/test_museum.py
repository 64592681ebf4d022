"""Museum mode: an exhibit that invites, explains, tidies up and stays locked.

Scenarios through the App contract with simulated time (tests/board_sim.py).
"""

import pytest

from board_sim import BoardSim, board_at, throws

FAST = {"attract_s": 10, "reset_s": 60, "reset_after_game_s": 30}
NEAR_END = "B.B........................W.. W"      # white's last piece on 28 (K13)


def museum(tmp_path=None, rng=None, timings=None, **config):
    cfg = {"mode": "museum"}
    cfg["museum"] = dict(timings or FAST)
    cfg.update(config)
    return BoardSim(config=cfg, store_dir=str(tmp_path) if tmp_path else None, rng=rng)


def whats(board):
    return [e.get("what") for e in board.events_of("museum")]


def squares_lit(board, role):
    return [i + 1 for i in range(30) if board.app.led_roles[i] == role]


def in_play(rng):
    """A museum board past the how-to and the opening: white to move with a 1."""
    board = museum(rng=rng)
    board.setup()
    board.press()                         # ends the how-to; throws nothing
    board.press().press()                 # opening: 2, then 1 (K4)
    assert board.app.state == "move"
    return board


def test_a_new_game_begins_with_the_how_to_play_lights_which_end_by_themselves():
    board = museum(rng=throws(2))
    board.setup()
    assert board.app.state == "howto"
    assert whats(board) == ["howto"]
    lit = board.app.led_roles
    # The game's real first move (K4): a 1, white's light, white's pieces on
    # 2..10 movable, 10 lifted with its one destination 11, then put on 12.
    assert lit[30:34] == ["stick_white", "stick_black", "stick_black", "stick_black"]
    assert lit[34] == "" and lit[35] == "turn"         # white starts in kendall
    board.wait(2000)
    assert squares_lit(board, "movable") == [2, 4, 6, 8, 10]
    board.wait(2000)
    assert squares_lit(board, "lifted") == [10] and squares_lit(board, "target") == [11]
    board.wait(2000)
    assert squares_lit(board, "error") == [12] and squares_lit(board, "missing") == [10]
    board.wait(2100)
    assert board.app.state == "opening"
    assert board.last("museum") == {"event": "museum", "what": "howto_done", "skipped": False}
    assert board.app.led_roles[34] == "turn"          # the opening: player 1 throws
    board.press()
    assert board.last("throw")["player"] == 1


def test_the_how_to_play_is_skipped_by_a_press_that_throws_nothing():
    board = museum(rng=throws(2))
    board.setup()
    assert board.app.state == "howto"
    board.press()
    assert board.last("museum") == {"event": "museum", "what": "howto_done", "skipped": True}
    assert board.app.state == "opening"
    assert board.events_of("throw") == []             # the skipping press is not a throw
    board.press()
    assert board.last("throw")["value"] == 2


def test_a_lift_during_the_how_to_ends_it_and_is_judged_as_usual():
    board = museum(rng=throws())
    board.setup()
    board.lift(10).wait()
    assert board.app.state == "mismatch"
    assert board.last("museum")["what"] == "howto_done"
    assert board.last("mismatch") == {"event": "mismatch", "extra": [], "missing": [10]}
    board.place(10).wait()
    assert board.app.state == "opening"


def test_quiet_brings_the_attract_light_and_a_lift_returns_to_the_same_game():
    board = in_play(throws(2, 1))
    app = board.app
    before = (app.position, app.state, app.throw, list(app.roles), app.sticks)
    board.wait(9000)
    assert "attract" not in whats(board)
    board.wait(1100)
    assert whats(board)[-1] == "attract"
    assert squares_lit(board, "attract") == list(range(1, 31))
    assert app.led_roles[30:] == [""] * 6
    frames = set()
    for _ in range(20):                              # the light travels along the path
        board.wait(200)
        frames.add(tuple(app.frame[:30]))
    assert len(frames) > 10
    assert (app.position, app.state, app.throw, list(app.roles), app.sticks) == before
    # The visitor lifts the piece on 10: the game is back at once, the lift counted.
    board.lift(10, ms=40)
    assert whats(board)[-1] == "wake"
    assert "attract" not in app.led_roles
    assert board.squares_with("lifted") == [10] and board.squares_with("target") == [11]
    board.place(11).wait()
    assert board.last("move")["move"] == "10-11"


def test_a_press_during_attract_wakes_the_board_and_throws():
    board = in_play(throws(2, 1, 3))
    board.move(10, 11)                               # white threw again after a 1
    assert board.app.state == "throw"
    board.wait(12000)
    assert whats(board)[-1] == "attract"
    board.press()
    assert whats(board)[-1] == "wake"
    assert board.last("throw")["value"] == 3        # the waking press is a throw
    assert board.app.state == "move"


def test_long_quiet_mid_game_closes_it_and_shows_where_the_pieces_go(tmp_path):
    board = museum(tmp_path, rng=throws(2, 1))
    board.setup().press().press().press()
    board.move(10, 11)
    board.clear()
    board.tick_ms = 50
    board.wait(59000)
    assert board.events_of("new") == []
    board.wait(1100)
    assert board.events_of("museum")[-1] == {"event": "museum", "what": "reset",
                                             "reason": "quiet"}
    assert board.last("new")["position"] == "BWBWBWBWBW.................... W"
    assert board.app.state == "setup"
    assert board.squares_with("put") == [10] and board.squares_with("take") == [11]
    assert squares_lit(board, "put_white") == [10]   # the lights show it, no attract
    # the next visitor puts the piece back: ready, and the how-to begins
    board.tick_ms = 10
    board.move(11, 10)
    assert board.last("ready")["resumed"] is False
    assert board.app.state == "howto"
    # the reset game was saved: a power cut now resumes the fresh game
    again = BoardSim(config={"mode": "museum"}, store_dir=str(tmp_path), rng=throws())
    assert again.app.game.history == [] and again.app.game.opening == []


def test_a_fresh_game_is_never_reset_so_a_quiet_night_writes_nothing(tmp_path, monkeypatch):
    """Counted on the Pico's flash (littlefs on a modelled chip, as the rp2
    port mounts it): all night, not one page programmed, not one block erased."""
    from firmware import app as app_module
    from firmware.store import Store
    from lfs_flash import Flash, PicoFs, mount
    flash = Flash()
    fs = PicoFs(mount(flash))
    monkeypatch.setattr(app_module, "Store", lambda folder: Store("", fs=fs))
    board = museum(tmp_path, rng=throws(3, 1))
    board.setup().press()                  # ends the how-to; throws nothing
    board.wait(1000)
    written = (flash.programmed, flash.erases)
    board.tick_ms = 1000
    board.wait(8 * 3600 * 1000)
    assert board.events_of("new") == []
    assert "reset" not in whats(board)
    assert board.app.state == "opening"
    assert squares_lit(board, "attract") == list(range(1, 31))
    assert (flash.programmed, flash.erases) == written
    # in the morning the opening is thrown, and saved: the flash is watched
    board.tick_ms = 10
    board.press()
    assert board.last("throw")["value"] == 3 and "wake" in whats(board)
    board.press().wait(1000)
    assert board.last("start")["side"] == "W" and flash.programmed > written[0]


def test_a_finished_game_is_reset_for_the_next_visitor(tmp_path):
    board = board_at(NEAR_END, tmp_path, rng=throws(3), config={"mode": "museum",
                                                                 "museum": FAST})
    board.press()
    board.move(28, "off")
    assert board.last("game_over")["winner"] == "W"
    board.wait(29000)
    assert "reset" not in whats(board)
    board.lift(1).place(1)                         # fiddling does not delay the reset
    board.wait(1100)
    assert board.events_of("museum")[-1]["reason"] == "game_over"
    assert board.app.state == "setup"
    assert board.squares_with("put") == [2, 4, 5, 6, 7, 8, 9, 10]
    assert board.squares_with("setup") == [1, 3]
    assert board.squares_with("take") == []


def test_commands_that_change_the_game_are_refused_and_state_still_answers():
    board = in_play(throws(2, 1))
    app = board.app
    before = (app.position, app.state, app.throw)
    for cmd in ({"cmd": "new"}, {"cmd": "new", "ruleset": "hungarian"}, {"cmd": "undo"},
                {"cmd": "throw"}):
        out = app.command(cmd)
        assert len(out) == 1 and out[0]["event"] == "error", out
        assert "museum mode" in out[0]["message"] and "maintenance" in out[0]["message"]
    assert (app.position, app.state, app.throw) == before
    state = app.command({"cmd": "state"})
    assert state[0]["event"] == "state" and state[0]["position"] == before[0]


# -- a visitor alone: the offer, the takeover, the hand-back ------------------------

DEFAULT_TIMES = {"attract_s": 90, "reset_s": 600, "reset_after_game_s": 180}
BLACK_LIGHT = 34                          # config leds.side_black


def black_waits(rng):
    """A museum board where white has just played (10-11 with a 1, then
    11-13 with a 2) and black's throw is due: white's visitor is alone."""
    board = museum(rng=rng, timings=DEFAULT_TIMES)
    board.setup()
    board.press()                         # ends the how-to; throws nothing
    board.press().press()                 # opening: 2, then 1 (K4): white starts
    board.move(10, 11)                    # the 1 throws again (K5)
    board.press()                         # a 2 for white
    board.move(11, 13)
    assert board.app.state == "throw" and board.app.turn == "B"
    board.clear()
    return board


def test_a_quiet_turn_after_the_other_side_played_brings_the_offer_on_that_sides_light():
    board = black_waits(throws(2, 1, 2))
    board.wait(14000)
    assert whats(board) == []
    assert board.app.led_roles[BLACK_LIGHT] == "turn"
    board.wait(1100)
    assert board.events_of("museum") == [{"event": "museum", "what": "offer", "side": "B"}]
    assert board.app.led_roles[BLACK_LIGHT] == "offer"
    assert board.app.computer is None         # offered, not taken
    assert board.app.state == "throw" and board.events_of("throw") == []


def test_the_board_takes_the_offered_side_only_after_the_offer_has_shown():
    board = black_waits(throws(2, 1, 2, 2))
    board.wait(15100)
    assert whats(board) == ["offer"]
    board.wait(9000)
    assert board.app.computer is None         # the offer still shows
    assert board.app.led_roles[BLACK_LIGHT] == "offer"
    board.wait(1000)
    assert whats(board) == ["offer", "computer"]
    assert board.last("museum") == {"event": "museum", "what": "computer", "side": "B"}
    assert board.app.led_roles[BLACK_LIGHT] == "turn"
    board.wait(2000)                          # it throws for black, then chooses
    assert board.last("throw")["by"] == "computer" and board.last("throw")["side"] == "B"
    chosen = board.last("computer")
    assert chosen["side"] == "B" and board.squares_with("computer_from")
    origin, to = chosen["move"].split("-")
    board.move(int(origin), int(to))          # the visitor carries its move out
    assert board.last("move")["move"] == chosen["move"]
    assert board.app.turn == "W" and board.app.computer is not None


def time_of(board, what, within_ms):
    """Step the board until the museum says ``what``; the time it did."""
    end = board.t + within_ms
    while what not in whats(board):
        assert board.t < end, (what, whats(board))
        board.step()
    return board.t


def test_after_the_takeover_the_attract_light_waits_its_whole_time_again():
    """Quiet is counted again from the takeover: the visitor who left black
    to the board may still be reading its move, so the attract light comes
    attract_s (90 s) after the takeover, not 90 s after the last touch."""
    board = black_waits(throws(2, 1, 2, 2))
    quiet_from = board.t
    taken_at = time_of(board, "computer", 30000)
    assert 24000 < taken_at - quiet_from < 26000
    board.wait(2000)                          # it throws for black and shows its move
    assert board.last("computer") is not None and board.squares_with("computer_from")
    attract_at = time_of(board, "attract", 120000)
    # at the first scan once the time is up (scans every 10 ms here)
    assert 0 <= attract_at - taken_at - DEFAULT_TIMES["attract_s"] * 1000 < board.tick_ms
    assert board.squares_with("computer_from")   # the move shown is still the game's


def test_a_touch_or_a_press_during_the_offer_withdraws_it_and_the_press_throws():
    board = black_waits(throws(2, 1, 2, 3))
    board.wait(15100)
    assert whats(board) == ["offer"]
    board.press()                             # a second visitor plays black
    assert whats(board) == ["offer", "offer_withdrawn"]
    assert board.last("throw") == {"event": "throw", "side": "B", "value": 3,
                                   "sticks": [1, 1, 1, 0], "moves": board.last("throw")["moves"]}
    assert board.app.led_roles[BLACK_LIGHT] == "turn"
    board.wait(30000)                         # black's throw waits to be played: no offer
    assert whats(board) == ["offer", "offer_withdrawn"] and board.app.computer is None


def test_no_offer_while_the_side_to_throw_is_the_one_that_just_played():
    board = museum(rng=throws(2, 1), timings=DEFAULT_TIMES)
    board.setup().press().press().press()
    board.move(10, 11)                        # white's 1: white throws again (K5)
    assert board.app.state == "throw" and board.app.turn == "W"
    board.clear()
    board.wait(40000)
    assert "offer" not in whats(board) and board.app.computer is None


def test_a_press_on_the_computers_turn_hands_the_side_back_with_its_throw():
    board = black_waits(throws(2, 1, 2, 1))   # black's 1: five legal moves
    board.wait(25100)
    assert board.app.computer is not None
    board.wait(2000)
    chosen = board.last("computer")
    assert chosen is not None and board.squares_with("computer_from")
    board.press()                             # a person takes black back
    assert board.last("museum") == {"event": "museum", "what": "hand_back", "side": "B"}
    assert board.app.computer is None
    assert board.last("notice") is None       # the press was not an ignored throw
    assert not board.squares_with("computer_from") and not board.squares_with("computer_to")
    assert board.app.state == "move" and board.app.throw == 1
    # The pending throw is the person's: any legal move counts, not only the
    # computer's choice.
    others = [m for m in board.app.moves if m.text != chosen["move"]]
    assert len(others) == 4
    board.play(others[-1])
    assert board.last("move")["move"] == others[-1].text


def test_a_side_handed_back_while_the_computer_thinks_gets_no_move_from_it():
    board = black_waits(throws(2, 1, 2, 1))   # black's 1: five legal moves
    board.wait(25100)
    assert board.app.computer is not None
    for _ in range(5000):                     # its throw, then its search under way
        board.step()
        if board.app._thinking is not None and board.app.state == "move":
            break
    assert board.app._thinking is not None and board.events_of("computer") == []
    board.app.press()                         # the "throw" command: a person takes black
    board.step()                              # its events come with the next step
    assert board.last("museum")["what"] == "hand_back"
    board.wait(3000)
    assert board.events_of("computer") == [] and not board.app.busy
    assert not board.squares_with("computer_from") and not board.squares_with("computer_to")
    assert len(board.app.moves) == 5          # any legal move is the person's


def test_a_press_before_the_computers_throw_hands_the_side_back_and_throws_nothing():
    board = black_waits(throws(2, 1, 2, 4))
    board.wait(25100)
    assert board.app.computer is not None
    board.press()                             # within its pause at rest
    assert board.last("museum")["what"] == "hand_back"
    assert board.events_of("throw") == [] and board.app.state == "throw"
    board.press()                             # now the person throws for black
    assert board.last("throw")["value"] == 4 and "by" not in board.last("throw")


def test_an_impatient_double_press_gives_nothing_away():
    board = black_waits(throws(2, 1, 2, 3))
    board.press()                             # black's visitor throws a 3...
    board.press()                             # ...and presses again without moving
    assert board.last("notice") == {"event": "notice",
                                    "message": "throw ignored: finish the move first"}
    assert whats(board) == [] and board.app.computer is None
    assert board.app.state == "move" and board.app.turn == "B" and board.app.throw == 3
    board.wait(40000)                         # a throw waits to be played: nothing offered
    assert "offer" not in whats(board) and "computer" not in whats(board)
    assert board.events_of("computer") == []


def test_a_board_whose_start_up_had_no_room_for_the_search_offers_nothing(monkeypatch):
    import sys
    board = black_waits(throws(2, 1, 2, 3))
    # As the App's start-up on a full Pico heap leaves it (firmware/computer.py
    # ``ready`` lets the search go again); CPython keeps its modules anyway.
    monkeypatch.delitem(sys.modules, "engine.ai")
    board.wait(15100)
    assert board.events_of("museum") == [{"event": "museum", "what": "no_computer",
                                          "reason": "no room"}]
    board.wait(15000)
    assert whats(board) == ["no_computer"] and board.app.computer is None
    assert board.app.led_roles[BLACK_LIGHT] == "turn"
    board.press()                            # the visitor plays black as well
    assert board.last("throw")["value"] == 3


def test_the_step_that_takes_the_side_imports_nothing_and_collects_nothing(monkeypatch):
    import builtins
    import gc
    board = black_waits(throws(2, 1, 2, 2))
    board.wait(15100)
    assert whats(board) == ["offer"]
    imported, collected = [], []
    real_import = builtins.__import__
    def recorded(name, *args, **kwargs):
        if name.startswith(("firmware", "engine")):
            imported.append(name)
        return real_import(name, *args, **kwargs)
    monkeypatch.setattr(builtins, "__import__", recorded)
    monkeypatch.setattr(gc, "collect", lambda *a: collected.append(1))
    while not whats(board)[1:]:
        board.step()
    assert whats(board) == ["offer", "computer"]
    # the search and its code were loaded at start-up: only a name is looked up
    assert imported == ["firmware.computer"] and collected == []


@pytest.mark.parametrize("wrap_ms, during", [(8000, "quiet"), (20000, "offer")])
def test_the_offer_and_the_takeover_keep_time_across_the_wrap_of_the_ms_counter(
        monkeypatch, wrap_ms, during):
    """The Pico's ticks_ms wraps at 2**30: the offer's 15 s and the 10 s
    after it are counted with ticks_diff, so a wrap in the middle of the
    quiet turn (8 s in), or of the offer (20 s in, so the takeover's 10 s
    run across it), changes nothing."""
    from firmware import app as app_module
    from firmware import computer as computer_module
    from firmware import museum as museum_module
    period = 1 << 30

    def ticks_diff(a, b):                 # MicroPython's, on a 30-bit counter
        return ((a - b + period // 2) & (period - 1)) - period // 2
    for module in (app_module, computer_module, museum_module):
        monkeypatch.setattr(module, "ticks_diff", ticks_diff)
    quiet_from = black_waits(throws(2, 1, 2, 2)).t
    shift = period - wrap_ms - quiet_from     # wrap_ms into the quiet turn, the counter wraps
    real_step = app_module.App.step
    seen = []

    def wrapped_step(app, now_ms, occupancy, button):
        seen.append((now_ms + shift) % period)
        return real_step(app, seen[-1], occupancy, button)
    monkeypatch.setattr(app_module.App, "step", wrapped_step)
    board = black_waits(throws(2, 1, 2, 2))
    assert board.t == quiet_from and whats(board) == []
    board.wait(14000)
    assert whats(board) == []
    board.wait(1100)
    assert whats(board) == ["offer"]
    offered_at = len(seen)
    board.wait(9000)
    assert whats(board) == ["offer"] and board.app.computer is None
    board.wait(1000)
    assert whats(board) == ["offer", "computer"]
    wrapped_at = [i for i in range(1, len(seen)) if seen[i] < seen[i - 1]]
    assert len(wrapped_at) == 1 and (wrapped_at[0] < offered_at) == (during == "quiet")
    board.wait(2000)
    assert board.last("throw")["by"] == "computer" and board.last("computer") is not None


def test_no_offer_while_the_board_shows_a_mismatch_and_one_once_it_is_put_right():
    board = black_waits(throws(2, 1, 2, 2))
    board.place(20).wait()                    # a stray piece: the board is wrong
    assert board.app.state == "mismatch"
    board.wait(40000)
    assert "offer" not in whats(board) and board.app.computer is None
    board.lift(20)                            # put right: a quiet turn again
    board.wait(14000)
    assert "offer" not in whats(board)
    board.wait(1500)
    assert whats(board)[-1] == "offer" and board.app.computer is None
