"""Usage figures for the people who run a museum (firmware/usage.py).

The board counts what visitors did with it, in ``usage.json`` beside
health.json: games started, finished and abandoned by ruleset, moves,
mistakes, takebacks, the lone visitor's offers, takeovers and hand-backs,
and the seconds spent in play and in the travelling light. It counts the
events the App reports (the serial protocol's objects) and writes only when
a game ends, finished or abandoned, so the flash hardly notices. The stories
here are real App games (tests/board_sim.py) and the Pico's littlefs on a
modelled chip that loses its power at every flash operation in turn
(tests/lfs_flash.py).
"""

import json
import os

import pytest

from firmware.usage import FILE, Usage

from board_sim import board_at, throws
from test_health import events_in, pico, run_board  # noqa: F401  (pico: a fixture)
from test_museum import FAST, NEAR_END, museum, whats


def feed(usage, board, ruleset="kendall"):
    """Hand the App's events since the last call to ``usage``, as the board
    loop does; the saves it asks for, made."""
    saves = 0
    for event in board.events:
        if usage.see(event, board.t, ruleset):
            usage.save()
            saves += 1
    board.clear()
    return saves


def test_a_finished_museum_game_is_counted_and_saved_once(tmp_path):
    board = board_at(NEAR_END, tmp_path, rng=throws(3), config={"mode": "museum",
                                                                 "museum": FAST})
    usage = Usage(str(tmp_path))
    assert feed(usage, board) == 0                  # resumed: in play, nothing written
    assert not os.path.exists(os.path.join(str(tmp_path), FILE))
    board.press()
    board.move(28, "off")
    assert board.last("game_over")["winner"] == "W"
    assert feed(usage, board) == 1
    board.wait(31000)                               # the museum resets it for the next visitor
    assert "reset" in whats(board)
    assert feed(usage, board) == 0                  # a finished game is not abandoned too
    again = Usage(str(tmp_path)).report()
    assert again["games"]["kendall"] == {"started": 0, "finished": 1, "abandoned": 0}
    assert again["moves"] == 1


def test_a_game_left_alone_is_abandoned_when_the_museum_resets_it(tmp_path):
    board = museum(tmp_path, rng=throws(2, 1))
    usage = Usage(str(tmp_path))
    board.setup().press().press().press()           # the how-to ends; 2, then 1 (K4)
    board.move(10, 11)
    board.tick_ms = 50
    feed(usage, board)
    board.wait(61000)                               # reset_s of quiet
    assert "reset" in whats(board)
    assert feed(usage, board) == 1
    got = Usage(str(tmp_path)).report()
    assert got["games"]["kendall"] == {"started": 1, "finished": 0, "abandoned": 1}
    assert got["moves"] == 1 and got["play_s"] >= 60


def test_the_lone_visitors_offer_takeover_and_hand_back_are_counted():
    usage = Usage(None)
    for what in ("offer", "offer_withdrawn", "offer", "computer", "hand_back"):
        usage.see({"event": "museum", "what": what, "side": "B"}, 0, "kendall")
    got = usage.report()
    assert (got["offers"], got["takeovers"], got["hand_backs"]) == (2, 1, 1)


def test_mistakes_takebacks_and_the_travelling_light_are_counted():
    usage = Usage(None)
    usage.see({"event": "museum", "what": "attract"}, 1000, "kendall")
    usage.see({"event": "museum", "what": "wake"}, 61000, "kendall")
    usage.see({"event": "start", "side": "W", "player": 1}, 62000, "hungarian")
    usage.see({"event": "mismatch", "extra": [3], "missing": []}, 63000, "hungarian")
    usage.see({"event": "undo", "side": "W", "move": "10-11"}, 64000, "hungarian")
    usage.see({"event": "move", "side": "W", "move": "10-11"}, 65000, "hungarian")
    assert usage.see({"event": "game_over", "winner": "W"}, 182000, "hungarian") is True
    got = usage.report()
    assert got["attract_s"] == 60 and got["play_s"] == 120 and got["finished_s"] == 120
    assert (got["mistakes"], got["takebacks"], got["moves"]) == (1, 1, 1)
    assert got["games"]["hungarian"] == {"started": 1, "finished": 1, "abandoned": 0}


def test_only_the_end_of_a_game_asks_for_a_save():
    usage = Usage(None)
    asked = [usage.see(e, 0, "kendall") for e in (
        {"event": "start", "side": "W"}, {"event": "throw", "side": "W", "value": 2},
        {"event": "move", "side": "W", "move": "10-12"}, {"event": "mismatch"},
        {"event": "museum", "what": "offer", "side": "B"}, {"event": "health"})]
    assert asked == [False] * 6
    assert usage.see({"event": "new", "ruleset": "kendall"}, 0, "kendall") is True


def test_a_damaged_file_starts_counting_again_and_bad_values_count_as_none(tmp_path):
    path = tmp_path / FILE
    path.write_text('{"moves": "many", "offers": -3, "games": {"kendall": [1]}')
    usage = Usage(str(tmp_path))
    assert usage.report()["moves"] == 0
    path.write_text(json.dumps({"moves": "many", "offers": -3, "takebacks": 4,
                                "games": {"kendall": {"started": 2, "finished": "x"}}}))
    got = Usage(str(tmp_path)).report()
    assert (got["moves"], got["offers"], got["takebacks"]) == (0, 0, 4)
    assert got["games"]["kendall"] == {"started": 2, "finished": 0, "abandoned": 0}


def test_the_file_keeps_its_size_however_many_rulesets_are_named(tmp_path):
    usage = Usage(str(tmp_path))
    for i in range(40):
        usage.see({"event": "start"}, 0, "variant%d" % i)
        usage.see({"event": "game_over"}, 0, "variant%d" % i)
    usage.save()
    assert len(usage.report()["games"]) <= Usage.MAX_RULESETS + 1
    assert os.path.getsize(str(tmp_path / FILE)) <= Usage.max_bytes()


# -- the Pico's flash: power cuts and wear ---------------------------------------------

def lfs():
    from lfs_flash import Flash, PicoFs, mount
    return Flash, PicoFs, mount


def a_game_and_counts(fs):
    """A saved game and figures on one littlefs, as on a museum board."""
    from engine import Position
    from engine.game import Game
    from engine.rules import ruleset
    from firmware.store import Store
    game = Game(ruleset("kendall"), position=Position.parse(NEAR_END))
    game.opening = [1]
    Store("", fs=fs).save(game, whole=True)
    usage = Usage("", fs=fs)
    for n in range(3):
        usage.see({"event": "start"}, 0, "kendall")
        usage.see({"event": "game_over"}, 60000, "kendall")
        usage.save()
    return usage


def test_a_power_cut_at_every_flash_operation_of_a_save_loses_at_most_that_save():
    Flash, PicoFs, mount = lfs()
    from firmware.store import Store
    flash = Flash(blocks=16)
    fs = PicoFs(mount(flash))
    usage = a_game_and_counts(fs)
    before = usage.report()
    image = flash.image()
    # how many operations one save takes
    probe = Flash(image, blocks=16)
    u = Usage("", fs=PicoFs(mount(probe)))
    start = probe.ops
    u.see({"event": "start"}, 0, "kendall")
    u.see({"event": "new"}, 0, "kendall")
    u.save()
    ops = probe.ops - start
    after = u.report()
    assert ops >= 2 and after != before
    for cut in range(1, ops + 1):
        for torn in (True, False):
            chip = Flash(image, blocks=16)
            fs = PicoFs(mount(chip))
            u = Usage("", fs=fs)
            u.see({"event": "start"}, 0, "kendall")
            u.see({"event": "new"}, 0, "kendall")
            chip.torn = torn
            chip.cut_at = chip.ops + cut
            try:
                u.save()
            except OSError:
                pass
            back = PicoFs(mount(Flash(chip.image(), blocks=16)))
            got = Usage("", fs=back).report()
            assert got in (before, after), (cut, torn, got)
            game, reason = Store("", fs=back).load()
            assert reason is None and game.position.text() == NEAR_END, (cut, torn)


def busy_day(usage, games=60, minutes=8):
    """A busy museum day: ``games`` games one after another, a third of them
    left unfinished, with offers and takebacks, the travelling light between.
    Returns the saves the figures asked for."""
    saves = 0
    t = 0
    for g in range(games):
        for event in ({"event": "museum", "what": "attract"},
                      {"event": "museum", "what": "wake"}, {"event": "start"},
                      {"event": "museum", "what": "offer"}, {"event": "undo"},
                      {"event": "mismatch"}):
            t += 20000
            saves += usage.see(event, t, "kendall") and 0
        for m in range(40):
            t += minutes * 60000 // 40
            usage.see({"event": "move"}, t, "kendall")
        end = {"event": "new"} if g % 3 == 2 else {"event": "game_over"}
        if usage.see(end, t, "kendall"):
            usage.save()
            saves += 1
    return saves


def test_a_busy_day_writes_once_a_game_and_says_what_the_flash_pays():
    Flash, PicoFs, mount = lfs()
    flash = Flash()
    fs = PicoFs(mount(flash))
    usage = Usage("", fs=fs)
    ops, programmed, erases = flash.ops, flash.programmed, flash.erases
    saves = busy_day(usage)
    got = usage.report()["games"]["kendall"]
    assert saves == 60 == got["finished"] + got["abandoned"]
    assert (got["finished"], got["abandoned"]) == (40, 20)
    per_day = (flash.programmed - programmed, flash.erases - erases)
    print("busy day: %d saves, %d bytes programmed, %d blocks erased (%d flash operations)"
          % (saves, per_day[0], per_day[1], flash.ops - ops))
    # littlefs spreads its erases over the 352 blocks of the Pico's file system:
    # at 100,000 erases a block, the counters alone would take this many years.
    years = 100000 * 352 / max(per_day[1], 1) / 365
    assert years > 100, years


# -- the board loop: the health event carries them, a game's end writes them ------------

def test_the_board_loop_counts_the_apps_events_and_reports_them_in_health(pico, monkeypatch,
                                                                           capsys):
    """On the fake machine, a board with a game saved mid-play (the pico of
    test_health.py): the power-on health event carries the figures, and the
    game's end, as the App reports it, is written at once."""
    import machine
    from firmware.app import App
    real = App.step
    count = [0]

    def step(self, now_ms, occupancy, button):
        count[0] += 1
        if count[0] == 50:                 # the game ends, as far as the figures go
            return [{"event": "game_over", "winner": "W", "score": None}]
        if count[0] >= 100:
            raise KeyboardInterrupt
        return real(self, now_ms, occupancy, button)
    monkeypatch.setattr(App, "step", step)
    assert not (pico / FILE).exists()
    with pytest.raises(KeyboardInterrupt):
        run_board(pico)
    out = events_in(capsys.readouterr().out)
    health = [e for e in out if e["event"] == "health"]
    assert health and health[0]["usage"]["games"] == {}
    saved = json.loads((pico / FILE).read_text())
    # a game resumed at power-on, then ended: counted as finished, and written
    assert saved["games"]["kendall"]["finished"] == 1
    assert machine.board.resets == 0


@pytest.mark.micropython
def test_the_figures_are_kept_on_the_micropython_unix_port(tmp_path):
    from mpyhelp import run_mp_script
    import paths
    run_mp_script(os.path.join(paths.ROOT, "tests", "mp", "usage_mp.py"), "112k",
                  [str(tmp_path)], min_passed=2)
