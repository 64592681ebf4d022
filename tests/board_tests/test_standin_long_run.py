"""The stand-in Pico left on for days: its memory stays bounded, and a
firmware that dies comes back, as the Pico's watchdog brings it back.

A newcomer follows docs/deploy.md, starts the stand-in and leaves it running.
The fake strip (tests/fakes/neopixel.py) once kept every frame sent and the
stand-in died of a MemoryError after some nine minutes; the firmware, which
then asked for a reset, was never started again. Time here is simulated
(the stand-in's ``clock="sim"``: a sleep advances the clock at once), so many
minutes of the board's life take seconds, and no verdict hangs on how fast
the machine is: a wall-clock deadline only catches a hang.
"""

import json
import os
import subprocess
import sys
import time
import tracemalloc

import pytest

from host_tools.board import build
from standin.device import FAKES, StandIn, micropython_binary

HANG_S = 60                    # only a stand-in that hangs takes this long
LONG_RUN_HANG_S = 900          # ...and the ten minutes' run, which takes ~30 s


def fresh_neopixel():
    sys.path.insert(0, FAKES)
    try:
        import neopixel
    finally:
        sys.path.remove(FAKES)
    return neopixel


def test_a_fake_strip_written_100k_times_keeps_a_bounded_memory():
    neopixel = fresh_neopixel()
    strip = neopixel.NeoPixel(None, 36)
    tracemalloc.start()
    try:
        for i in range(1000):
            strip[i % 36] = (i & 255, 0, 0)
            strip.write()
        early = tracemalloc.get_traced_memory()[0]
        for i in range(99000):
            strip[i % 36] = (0, i & 255, 1)
            strip.write()
        late = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
        neopixel.reset()
    assert late - early < 20000, "the fake strip grew by %d bytes" % (late - early)
    assert len(strip.writes) == 100000                 # every frame is still counted
    assert strip.colours()[98998 % 36] == (0, 98998 & 255, 1)     # the last one is kept
    assert strip.writes[-1] == bytes(strip.buf)


def test_a_fake_strip_written_100k_times_fits_a_small_micropython_heap():
    code = ("import sys\nsys.path.insert(0, %r)\nimport neopixel\n"
            "s = neopixel.NeoPixel(None, 36)\n"
            "for i in range(100000):\n"
            "    s[i %% 36] = (i & 255, 1, 2)\n"
            "    s.write()\n"
            "print('frames', len(s.writes), s.colours()[99999 %% 36])\n" % FAKES)
    result = subprocess.run([micropython_binary(), "-X", "heapsize=48k", "-c", code],
                            capture_output=True, text=True, timeout=HANG_S)
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.strip() == "frames 100000 (159, 1, 2)"


# -- the firmware on the stand-in, left on ---------------------------------------------------

def flashed(tmp_path):
    """A folder holding what `senet-board deploy` puts on a Pico."""
    flash = str(tmp_path / "flash")
    build.build(flash, quiet=True)
    return flash


class Line:
    """The laptop's end of the stand-in's serial port: events as they come."""

    def __init__(self, port):
        import serial
        self.ser = serial.Serial(port, 115200, timeout=0.1)
        self.buf = b""
        self.seen = []                 # every event so far
        self.unread = []               # events not yet looked at by wait()

    def read(self):
        self.buf += self.ser.read(4096)
        out = []
        while b"\n" in self.buf:
            raw, self.buf = self.buf.split(b"\n", 1)
            raw = raw.strip()
            if raw.startswith(b"{"):
                try:
                    event = json.loads(raw)
                except ValueError:
                    continue
                if isinstance(event, dict) and "event" in event:
                    out.append(event)
        self.seen += out
        self.unread += out

    def wait(self, match, what, ask=None, deadline=HANG_S):
        """The first event ``match`` accepts; ``ask`` is sent every second
        until then. Only a hang reaches the deadline."""
        end = time.monotonic() + deadline
        asked = 0.0
        while time.monotonic() < end:
            if ask is not None and time.monotonic() - asked > 1.0:
                self.ser.write(ask)
                asked = time.monotonic()
            self.read()
            while self.unread:
                event = self.unread.pop(0)
                if match(event):
                    return event
        raise AssertionError("no %s within %d s; events: %s" % (what, deadline,
                                                              self.seen[-8:]))

    def close(self):
        self.ser.close()


HEALTH = b'{"cmd": "health"}\n'
MINUTES = 10                   # beyond the 519 s at which the stand-in used to die


@pytest.mark.slow
@pytest.mark.micropython
def test_ten_simulated_minutes_of_an_idle_board_in_a_small_heap(tmp_path):
    """The board waits for its pieces, its setup lights blinking, with a heap
    near the Pico's (192 KB here on a 64-bit unix port): many thousand frames
    go to the strip, and it neither crashes nor restarts."""
    from standin.scenario import hook
    dev = StandIn(flashed(tmp_path), fakes=FAKES, boot_hook=hook(), run_main=True,
                  heap="192k", sim_clock=True)
    dev.start()
    line = Line(dev.port)
    try:
        health = line.wait(lambda e: e["event"] == "health"
                           and (e.get("crashes") or e.get("uptime_s", 0) >= MINUTES * 60),
                           "health event %d simulated minutes on" % MINUTES, ask=HEALTH,
                           deadline=LONG_RUN_HANG_S)
    finally:
        line.close()
        dev.stop()
    assert health["crashes"] == 0, health["last_crash"]
    assert health["boots"] == 1 and dev.restarts == 0
    assert not [e for e in line.seen if e["event"] == "error"], line.seen


CRASH_ONCE = """
import os
try:
    os.stat("crashed-once")
except OSError:                  # the first boot: the App fails after 50 steps
    import firmware.app as _app
    _step = _app.App.step
    _steps = [0]

    def _failing_step(self, now_ms, occupancy, button):
        _steps[0] += 1
        if _steps[0] == 50:
            f = open("crashed-once", "w")
            f.close()
            raise RuntimeError("a fault put in by the test")
        return _step(self, now_ms, occupancy, button)

    _app.App.step = _failing_step
"""


@pytest.mark.micropython
def test_a_firmware_that_crashes_is_restarted_as_the_pico_restarts(tmp_path):
    """The firmware logs the crash and calls machine.reset(): the stand-in
    powers on again and the firmware comes back into its game."""
    from standin.scenario import hook
    dev = StandIn(flashed(tmp_path), fakes=FAKES, boot_hook=hook() + CRASH_ONCE,
                  run_main=True)
    dev.start()
    line = Line(dev.port)
    try:
        line.wait(lambda e: e["event"] == "hello", "first hello")
        crashed = line.wait(lambda e: e["event"] == "error", "crash report")
        assert crashed["message"].startswith("firmware crashed, restarting: ")
        assert "a fault put in by the test" in crashed["message"]
        line.wait(lambda e: e["event"] == "hello", "hello after the restart")
        health = line.wait(lambda e: e["event"] == "health" and e.get("boots") == 2,
                           "health of the second boot", ask=HEALTH)
    finally:
        line.close()
        dev.stop()
    assert health["crashes"] == 1
    assert "a fault put in by the test" in health["last_crash"]["error"]
    assert dev.restarts == 1


@pytest.mark.micropython
def test_a_killed_micropython_is_started_again(tmp_path):
    from standin.scenario import hook
    dev = StandIn(flashed(tmp_path), fakes=FAKES, boot_hook=hook(), run_main=True)
    dev.start()
    line = Line(dev.port)
    try:
        line.wait(lambda e: e["event"] == "hello", "first hello")
        os.kill(dev._proc.pid, 9)
        line.wait(lambda e: e["event"] == "hello", "hello after the kill")
        health = line.wait(lambda e: e["event"] == "health" and e.get("boots") == 2,
                           "health of the second boot", ask=HEALTH)
    finally:
        line.close()
        dev.stop()
    assert health["crashes"] == 0                     # killed, not crashed
    assert dev.restarts == 1


WATCHDOG_THEN_FAIL = """
import machine
n = 1
try:
    with open("boots.txt") as f:
        n = int(f.read()) + 1
except OSError:
    pass
with open("boots.txt", "w") as f:
    f.write(str(n))
print("boot", n)
dog = machine.WDT(timeout=8000)
if n == 1:
    raise RuntimeError("the loop stopped with the watchdog armed")
import time
while True:
    dog.feed()
    time.sleep_ms(50)
"""


def test_a_program_that_stops_with_the_watchdog_armed_is_restarted_when_it_bites(tmp_path):
    flash = tmp_path / "flash"
    flash.mkdir()
    (flash / "main.py").write_text(WATCHDOG_THEN_FAIL)
    now = [0.0]
    dev = StandIn(str(flash), fakes=FAKES, run_main=True, timer=lambda: now[0])
    dev.start()
    try:
        end = time.monotonic() + HANG_S
        while b"watchdog armed" not in dev.log and time.monotonic() < end:
            time.sleep(0.05)
        assert b"boot 1" in dev.log and b"RuntimeError" in dev.log, bytes(dev.log)
        assert dev.restarts == 0 and b"boot 2" not in dev.log    # not yet: 8 s to go
        now[0] = 8.5
        while b"boot 2" not in dev.log and time.monotonic() < end:
            time.sleep(0.05)
        assert b"boot 2" in dev.log, bytes(dev.log)
        assert dev.restarts == 1
    finally:
        dev.stop()


def test_a_micropython_that_dies_at_every_start_is_given_up_and_mpremote_stops(
        tmp_path, monkeypatch):
    """A launcher that cannot start (once: a script that could not import
    what it needed) died and was started again for ever, and a deploy test
    waited on it for ever. The stand-in gives up after DEAD_STARTS such
    deaths, says why, and closes the line: mpremote ends with an error."""
    from standin import device
    monkeypatch.setattr(device, "micropython_binary", lambda: "false")   # exits at once
    notes = []
    dev = StandIn(str(tmp_path / "flash"), note=notes.append)
    dev.start()
    try:
        deadline = time.monotonic() + HANG_S
        while dev.failed is None and time.monotonic() < deadline:
            time.sleep(0.05)
        assert dev.failed is not None, "the stand-in never gave up: %s" % notes
        assert "died as it started, %d times in a row" % device.DEAD_STARTS in dev.failed
        assert dev.restarts == device.DEAD_STARTS - 1
        assert b"stand-in: gave up: its MicroPython died as it started" in dev.log
        out = subprocess.run([sys.executable, "-m", "mpremote", "connect", dev.port,
                              "fs", "ls"], capture_output=True, text=True, timeout=HANG_S)
        assert out.returncode != 0, out.stdout + out.stderr
    finally:
        dev.stop()


@pytest.mark.micropython
def test_a_micropython_that_runs_before_it_dies_is_always_started_again(tmp_path,
                                                                       monkeypatch):
    """Deaths after a start that worked are a board that comes back: one of
    them ends a run of deaths at the start, so the stand-in never gives up
    on DEAD_STARTS - 1 early deaths, a late one, and DEAD_STARTS - 1 more.
    DEAD_START_S is set per kill (huge: the death counts as one at the
    start; zero: as one after a start that worked), so no verdict here
    rests on how fast the host is."""
    from standin import device
    from standin.scenario import hook
    dev = StandIn(flashed(tmp_path), fakes=FAKES, boot_hook=hook(), run_main=True)
    dev.start()
    line = Line(dev.port)
    early = [1e6] * (device.DEAD_STARTS - 1)
    try:
        for n, start_s in enumerate(early + [0.0] + early):
            line.wait(lambda e: e["event"] == "hello", "hello %d" % (n + 1))
            monkeypatch.setattr(device, "DEAD_START_S", start_s)
            os.kill(dev._proc.pid, 9)
        line.wait(lambda e: e["event"] == "hello", "hello after the last kill")
    finally:
        line.close()
        dev.stop()
    assert dev.failed is None and dev.restarts == 2 * device.DEAD_STARTS - 1
