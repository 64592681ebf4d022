"""The board loop's pace (firmware/board.py on the fake machine): a scan every
LOOP_MS, the loop sleeping only what its own work left of that, and the
strip written only when the App drew a frame unlike the one before."""

import pytest

from test_health import pico  # noqa: F401  (the fixture: a board mid-game on the fake machine)
from firmware import board as board_loop  # noqa: E402  (after test_health: the fakes first)
from firmware import hal  # noqa: E402
from firmware.app import App  # noqa: E402


class Clock:
    """The Pico's ms counter: each reading costs ``work`` ms of loop work;
    sleep_ms moves it on and is recorded."""

    def __init__(self, work):
        self.now = 1000
        self.work = work
        self.sleeps = []

    def ticks_ms(self):
        self.now += self.work
        return self.now

    def sleep_ms(self, ms):
        self.sleeps.append(ms)
        self.now += ms


def run_for(pico, monkeypatch, steps, work):
    """Run the board for ``steps`` loop passes; (clock, strip writes asked, frames changed)."""
    clock = Clock(work)
    monkeypatch.setattr(hal, "ticks_ms", clock.ticks_ms)
    monkeypatch.setattr(hal, "sleep_ms", clock.sleep_ms)
    asked = [0]
    real_write = hal.Strip.write

    def write(strip, frame):
        asked[0] += 1
        return real_write(strip, frame)
    monkeypatch.setattr(hal.Strip, "write", write)
    changed = [0]
    real_step = App.step
    count = [0]

    def step(app, now_ms, occupancy, button):
        count[0] += 1
        if count[0] > steps:
            raise KeyboardInterrupt()
        out = real_step(app, now_ms, occupancy, button)
        changed[0] += app.frame_changed
        return out
    monkeypatch.setattr(App, "step", step)
    with pytest.raises(KeyboardInterrupt):
        board_loop.run(str(pico / "config.json"), str(pico))
    return clock, asked[0], changed[0]


def test_the_strip_is_written_only_when_the_app_drew_a_new_frame(pico, monkeypatch):
    clock, asked, changed = run_for(pico, monkeypatch, 600, 1)
    # 3 s of the resumed game's setup check: its blinks change the frame
    # every 40 ms at most, so most passes have nothing to send
    assert 0 < changed < 600 // 6, changed
    assert asked == changed


def test_the_loop_sleeps_what_its_work_left_of_the_scan_period(pico, monkeypatch):
    # a pass reads the clock three times, 1 ms apart: 2 ms from the first
    # reading to the last, so it sleeps LOOP_MS - 2 and the next scan comes
    # LOOP_MS after this one
    clock, _, _ = run_for(pico, monkeypatch, 300, 1)
    loop = board_loop.LOOP_MS
    assert clock.sleeps.count(loop - 2) > 250, clock.sleeps[:20]
    assert all(0 < ms <= loop for ms in clock.sleeps)


def test_a_pass_longer_than_the_scan_period_does_not_sleep(pico, monkeypatch):
    clock, _, _ = run_for(pico, monkeypatch, 100, board_loop.LOOP_MS)
    assert clock.sleeps == [] or all(ms < board_loop.LOOP_MS for ms in clock.sleeps)
    assert len(clock.sleeps) < 10                # (only the button samples at power-on)



def throw_command_once(monkeypatch, when):
    """The serial line sends {"cmd": "throw"} once, at the first pass where
    ``when()`` holds; returns [sent]."""
    sent = [False]

    def serial_lines(self):
        if not sent[0] and when():
            sent[0] = True
            return ['{"cmd": "throw"}']
        return []
    monkeypatch.setattr(board_loop.SerialLines, "lines", serial_lines)
    return sent


def test_the_loop_runs_the_apps_next_job_at_once(pico, monkeypatch):
    # A throw (the serial "throw" command here) leaves the App jobs for its
    # next passes (docs/dev/firmware-modules.md, "Every job a pass of its
    # own"): the loop does not sleep between them, only once it is idle.
    import neopixel  # noqa: F401  (the fakes)
    trail = []                          # "busy" / "idle" after each step, "sleep"
    clock = Clock(1)

    def sleep_ms(ms):
        trail.append("sleep")
        clock.sleep_ms(ms)
    monkeypatch.setattr(hal, "ticks_ms", clock.ticks_ms)
    monkeypatch.setattr(hal, "sleep_ms", sleep_ms)
    sent = throw_command_once(monkeypatch, lambda: "idle" in trail)
    real_step = App.step

    def step(app, now_ms, occupancy, button):
        if len(trail) > 400:
            raise KeyboardInterrupt()
        out = real_step(app, now_ms, occupancy, button)
        trail.append("busy" if app.busy else "idle")
        return out
    monkeypatch.setattr(App, "step", step)
    with pytest.raises(KeyboardInterrupt):
        board_loop.run(str(pico / "config.json"), str(pico))
    assert sent[0] and trail.count("busy") >= 2, trail[:40]   # its save, its boards
    slept_busy = [i for i in range(1, len(trail)) if trail[i] == "sleep" and trail[i - 1] == "busy"]
    assert slept_busy == [], (slept_busy, trail[:60])
    assert trail.count("sleep") > 100                # and sleeps when idle


def test_a_command_that_changes_the_lights_reaches_the_strip(pico, monkeypatch):
    # A serial command (here a throw) redraws the App's frame outside the
    # step: the strip must show it after that pass too, not wait for a frame
    # that differs from it (a steady one may never come).
    import neopixel
    clock = Clock(1)
    monkeypatch.setattr(hal, "ticks_ms", clock.ticks_ms)
    monkeypatch.setattr(hal, "sleep_ms", clock.sleep_ms)
    seen = []                 # (state before the pass, strip shows app.frame)
    sent = throw_command_once(monkeypatch, lambda: seen and seen[-1][0] == "throw")
    real_step = App.step

    def step(app, now_ms, occupancy, button):
        if len(seen) > 200:
            raise KeyboardInterrupt()
        np = neopixel.strips[-1]
        shows = [np[i] for i in range(np.n)] == list(app.frame)[:np.n]
        seen.append((app.state, shows))
        return real_step(app, now_ms, occupancy, button)
    monkeypatch.setattr(App, "step", step)
    with pytest.raises(KeyboardInterrupt):
        board_loop.run(str(pico / "config.json"), str(pico))
    assert sent[0] and seen[-1][0] in ("move", "nomove"), seen[-1]
    wrong = [i for i, (_, shows) in enumerate(seen) if not shows and i > 0]
    assert wrong == [], (wrong, seen[wrong[0] - 1:wrong[0] + 2] if wrong else None)


# -- the work of the steps that follow a throw or a move ----------------------------
# (counted, not timed: tests/bench/firmware_bench.py gives the Pico figures)

def _game_at_ply(plies, store_dir):
    """A BoardSim whose saved kendall game is ``plies`` plies in, the board
    set up and the App waiting for a throw or a move."""
    from board_sim import BoardSim
    from engine.sticks import XorShift
    from engine.position import Position
    sim = BoardSim(config={"ruleset": "kendall"}, store_dir=store_dir, rng=XorShift(3))
    sim.set_board(Position.parse(sim.app.position).occupancy())
    choose = XorShift(3)
    while sim.app.game.ply_count < plies:
        state = sim.app.state
        assert state != "game_over"
        if state in ("opening", "throw"):
            sim.press()
        elif state == "move":
            sim.play(sim.app.moves[choose.randrange(len(sim.app.moves))])
        else:
            sim.wait(500)
    return sim


def test_a_save_late_in_a_game_reads_only_the_plies_it_adds(tmp_path, monkeypatch):
    """The save after a throw or a move appends its line or two to the log:
    it reads the new plies from the game, not all of them (at ply 100 every
    save read 100 plies, some 20 ms on a Pico)."""
    from engine.game import PlyLog
    sim = _game_at_ply(100, str(tmp_path))
    while sim.app.state != "throw":
        sim.wait(100)
    reads = [0]
    real = PlyLog.__getitem__

    def counted(log, index):
        reads[0] += 1
        return real(log, index)
    monkeypatch.setattr(PlyLog, "__getitem__", counted)
    saved = []
    for _ in range(3):                       # three throws and moves, each saved
        before = reads[0]
        sim.press()
        while sim.app.state != "move":
            sim.wait(100)
        sim.play(sim.app.moves[0])
        saved.append(reads[0] - before)
    assert sim.app.game.ply_count >= 103
    # a rewrite (the log past its length) reads them all, once in a while
    assert sorted(saved)[0] <= 4, saved


def test_the_throw_step_judges_the_board_once(tmp_path, monkeypatch):
    """The throw lights the movable pieces from one look at the board: the
    recogniser classifies it once in the passes that throw, not twice."""
    from firmware import recognise
    sim = _game_at_ply(10, None)
    while sim.app.state != "throw":
        sim.wait(100)
    calls = [0]
    real = recognise.Recogniser.classify

    def counted(self, occ, roles):
        calls[0] += 1
        return real(self, occ, roles)
    monkeypatch.setattr(recognise.Recogniser, "classify", counted)
    sim.button = True
    for _ in range(12):                      # held 120 ms, then let go
        sim.step()
    sim.button = False
    calls[0] = 0
    for _ in range(50):
        out = sim.step()
        if any(e["event"] == "throw" for e in out):
            break
    else:
        raise AssertionError("no throw after the press")
    while sim.app.busy:                      # the passes that finish the throw
        sim.step()
    assert sim.app.state in ("move", "nomove")
    assert calls[0] <= 1, calls[0]
