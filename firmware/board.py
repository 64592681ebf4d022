"""The hardware main loop: what ``main.py`` on the Pico runs.

``run()`` decides at power-on which of three things the board does:

- **maintenance mode**: the throw button is held while the board powers up.
  Nothing else starts (no game, no watchdog); the board prints
  ``{"event": "maintenance"}`` and returns to the MicroPython prompt, so a
  laptop can always get back in with mpremote and redeploy, even when the
  firmware installed is broken or the watchdog of museum mode is in use.
- **the game**: config.json is loaded and checked, the hardware built from it
  (firmware.hal), the App made, and the loop runs: scan the switches, step the
  App, show its frame, print its events as JSON lines, read commands.
- **self-test**: entered from the game with the serial command
  ``{"cmd": "selftest"}``. Each square lights while its switch is closed and
  every change is reported as ``{"event": "switch", "square": n, "closed": b}``;
  LEDs light on request. ``senet-board check`` drives it.

Serial protocol of the loop itself (the App's commands go to ``app.command``):

    {"cmd": "selftest"}                      enter self-test
    {"cmd": "led", "index": i}               self-test: light LED i (0-based) alone
    {"cmd": "led", "index": "all", "colour": "red"|"green"|"blue"|"white"}
    {"cmd": "led", "index": null}            self-test: LEDs back to the switches
    {"cmd": "run"}                           leave self-test, back to the game
    {"cmd": "hello"}                         repeat the hello event
    {"cmd": "health"}                        boots, uptime and crash log (firmware.health)

With a "remote" section in config.json (a Pico W playing someone at another
board, docs/remote.md) the loop also moves the room's traffic on a little
every pass: firmware/remote.py, loaded only for such a board.

The game and the self-test run under the RP2040 watchdog (WATCHDOG_MS);
maintenance mode does not, and only in museum mode does it stay armed when a
laptop stops the loop. An exception in the App is written to the crash log
(firmware.health) and the board restarts into the saved game.

Only firmware.hal touches the hardware; this module takes what it builds.
"""

import json
import os
import sys

try:
    import select
except ImportError:          # a port without select: no serial commands
    select = None

from firmware import unload
if sys.implementation.name == "circuitpython":   # its console is polled another way
    from firmware.compat import select           # (firmware/compat.py)
from firmware.version import VERSION

try:
    from micropython import const
except ImportError:
    const = lambda x: x  # noqa: E731

LOOP_MS = const(5)              # one scan every 5 ms: the loop sleeps what its work left
HOLD_SAMPLES = const(5)         # button samples at power-on, LOOP_MS apart
LINE_MAX = const(512)           # longer command lines are dropped
WATCHDOG_MS = const(8000)       # museum mode: reset if the loop hangs this long
CONFIG_FILE = "config.json"


def emit(event):
    """Print one event as one JSON line (the serial protocol's framing, as
    ``protocol.encode`` writes it: the protocol module itself is loaded only
    while a command line is read)."""
    print(json.dumps(event))


_NO_LINES = ()                  # what a pass that completed no line gets

# One block of garbage a loop pass, on purpose. After a collection
# MicroPython's allocator (py/gc.c ``gc_alloc``) looks for room from the
# heap's first block, and only a one-block allocation moves that start on;
# every larger one scans across the objects that stay until one-block
# allocations have filled the holes the garbage left. Without one a pass
# (the serial polling used to make them by accident) the App's steps took
# up to half as long again (docs/dev/firmware-modules.md, "What a
# collection's time is made of", has the figures).
_SPARE = [None]


class SerialLines:
    """Complete lines from USB serial, read without ever blocking the loop.

    ``select.poll`` on ``sys.stdin`` says whether a character is waiting; the
    characters are gathered until a newline. Over-long lines are dropped
    whole (reported once) so a stream of garbage never grows the buffer.
    """

    def __init__(self, stream=None):
        self._stream = stream if stream is not None else sys.stdin
        self._chars = []
        self._length = 0
        self._too_long = False
        self._poll = None
        if select is not None:
            try:
                self._poll = select.poll()
                self._poll.register(self._stream, select.POLLIN)
            except (OSError, TypeError, AttributeError):
                self._poll = None
        self._ipoll = hasattr(self._poll, "ipoll")

    def lines(self):
        """The lines completed since the last call (often none). A call
        that completes none makes no garbage on MicroPython: every loop pass
        makes one, and a list a pass (this one, and ``poll(0)``'s) was two
        thirds of the board loop's garbage between two collections, each
        of which the collector sweeps (docs/dev/firmware-modules.md)."""
        done = _NO_LINES
        poll = self._poll
        while poll is not None and self._waiting(poll):
            ch = self._stream.read(1)
            if not ch:                       # end of input (tests): stop polling
                self._poll = None
                break
            if ch == "\n" or ch == "\r":
                if self._too_long or self._length:
                    if done is _NO_LINES:
                        done = []
                    done.append(None if self._too_long else "".join(self._chars))
                self._chars = []
                self._length = 0
                self._too_long = False
            elif not self._too_long:
                self._length += 1
                if self._length > LINE_MAX:
                    self._too_long = True
                    self._chars = []
                else:
                    self._chars.append(ch)
        return done

    def _waiting(self, poll):
        """Is a character waiting? MicroPython's ``ipoll`` hands back one
        tuple of its own each time; ``poll(0)`` makes a new list (CPython
        and CircuitPython's stand-in have only that)."""
        if self._ipoll:
            for entry in poll.ipoll(0):
                return entry[1] & select.POLLIN
            return False
        ready = poll.poll(0)
        return ready and ready[0][1] & select.POLLIN


def _button_held(button, sleep_ms):
    """True if the throw button reads pressed on every one of a few samples."""
    for _ in range(HOLD_SAMPLES):
        if not button():
            return False
        sleep_ms(LOOP_MS)
    return True


def _rng():
    """The App's stick thrower: random bits, seeded from the Pico's hardware RNG."""
    import random
    try:
        seed = int.from_bytes(os.urandom(4), "little")
    except (AttributeError, OSError, NotImplementedError):
        seed = None
    if seed is not None and hasattr(random, "seed"):
        random.seed(seed)
    return random.getrandbits


def _board_command(line):
    """The dict of a board-level command on ``line``, else None (the App's)."""
    if '"cmd"' not in line:
        return None
    try:
        cmd = json.loads(line)
    except ValueError:
        return None
    if isinstance(cmd, dict) and cmd.get("cmd") in ("selftest", "led", "run", "hello",
                                                    "health"):
        return cmd
    return None


def maintenance():
    """Nothing runs: report it and go back to the prompt."""
    emit({"event": "maintenance", "version": VERSION})


def _read_config(path):
    """config.json, checked; firmware/config.py is let go by the App once
    it has started, so nothing here keeps a hold of it."""
    from firmware.config import load
    return load(path)


def run(config_path=CONFIG_FILE, store_dir=".", hal=None):
    """Power-on: maintenance mode if the throw button is held, else the game.
    ``hal`` is the hardware edge: firmware.hal (MicroPython) unless given
    (CircuitPython's code.py passes firmware.hal_cp)."""
    if hal is None:
        from firmware import hal
    config, messages = _read_config(config_path)
    button = hal.make_button(config)
    if _button_held(button, hal.sleep_ms):
        maintenance()
        return
    hw = hal.build(config)
    from firmware.health import Health
    health = Health(store_dir)                 # counts this boot
    from firmware.usage import Usage
    health.usage = Usage(store_dir)            # visitors' figures, in every health event
    # Every mode but maintenance has the watchdog; only in museum mode does it
    # stay armed when a laptop stops the loop ("watchdog" in hello).
    dog = hal.watchdog(WATCHDOG_MS)
    museum = config.get("mode") == "museum"
    try:
        from firmware.app import App
        app = App(config, store_dir=store_dir, rng=_rng())
    except Exception as e:
        _start_failed(hal, hw, health, e, store_dir)
        return
    in_place = globals().get("__file__", "").startswith("/rom/")    # a ROMFS partition's
    hello = {"event": "hello", "version": VERSION, "ruleset": config.get("ruleset"),
             "mode": config.get("mode"), "watchdog": museum, "watchdog_ms": WATCHDOG_MS,
             "leds": hw.strip.count, "romfs": in_place}
    emit(hello)
    if messages:                     # the App gets the checked config: say it here
        emit({"event": "config", "messages": messages})
    health.measure(hal.ticks_ms())   # the heap at power-on, after a collection
    emit(health.report(hal.ticks_ms()))
    remote = None
    if "remote" in config:           # a Pico W: only then is firmware/remote.py loaded
        from firmware.remote import start
        remote, event = start(config["remote"], app, hal.ticks_ms())
        emit(event)
    try:
        _loop(hal, hw, app, config, dog, hello, health, remote)
    except KeyboardInterrupt:
        if not museum:               # a laptop stopped the game: let it work in peace
            hal.watchdog_stop()
        raise
    finally:
        try:
            hw.strip.off()           # stopped (Ctrl-C from a laptop): go dark
        except Exception:
            pass


def _loop(hal, hw, app, config, dog, hello, health, remote=None):
    serial = SerialLines()
    test = None
    ticks_ms = hal.ticks_ms
    sleep_ms = hal.sleep_ms
    ticks_diff = hal.ticks_diff
    scan = hw.scanner.scan
    last = None
    while True:
        started = ticks_ms()
        _SPARE[0] = (started,)           # one block of garbage a pass, on purpose: _SPARE
        raw = scan()
        now = ticks_ms()
        health.tick(now)
        busy = raw != last or test is not None   # a piece moving, or the self-test
        last = raw
        if test is None:
            try:
                events = app.step(now, raw, hw.button())
                if remote is not None:       # the room's traffic, a little each pass
                    for event in remote.poll(now):
                        emit(event)
                if app.frame_changed:        # else the strip shows it already
                    hw.strip.write(app.frame)
            except Exception as e:           # log it, restart into the saved game
                crash(hal, hw, health, e)
                return
        else:
            events = test.step(raw)
            hw.strip.write(test.frame())
        for event in events:
            emit(event)
            busy = True
            _count(health.usage, event, now, app)
        for line in serial.lines():
            busy = True
            if line is None:
                emit({"event": "error", "message": "command line too long"})
                continue
            cmd = _board_command(line)
            if cmd is None:
                if test is None:
                    try:
                        events = app_command(app, line)
                        hw.strip.write(app.frame)    # a command draws outside the step
                    except Exception as e:
                        crash(hal, hw, health, e)
                        return
                    for event in events:
                        emit(event)
                else:
                    emit({"event": "error",
                          "message": "in self-test: send {\"cmd\": \"run\"} to leave it"})
                continue
            name = cmd["cmd"]
            if name == "hello":
                emit(hello)
            elif name == "health":
                emit(health.event())
            elif name == "selftest":
                if test is None:
                    for event in app.flush():    # the App is not stepped in self-test
                        emit(event)
                    from firmware.selftest import SelfTest   # for as long as it runs
                    test = SelfTest(config, hw.strip.count)
                    SelfTest = None
                emit(test.start(raw))
            elif name == "led":
                if test is None:
                    emit({"event": "error", "message": "led: only in self-test"})
                else:
                    emit(test.command(cmd))
            elif name == "run":
                test = None
                unload("firmware.selftest")
                hw.strip.write(app.frame)    # the game's lights back at once
                emit({"event": "run"})
        if not busy and (app.button_held or app.busy):
            busy = True                  # (app.busy: its next job, not the idle collection)
        health.idle(now, busy)           # the heap measured while nobody waits
        if health.due(now):
            emit(health.event())
        dog.feed()
        if test is None and app.busy:        # the App's next job (lights, a save) at once
            continue
        rest = LOOP_MS - ticks_diff(ticks_ms(), started)
        if rest > 0:                         # the next scan is due LOOP_MS after this one
            sleep_ms(rest)


def _count(usage, event, now, app):
    """Visitors' figures (firmware/usage.py), written only when a game has
    just ended, finished or abandoned: a quiet moment, once a game."""
    if usage is not None and usage.see(event, now, app.ruleset):
        usage.save()


def app_command(app, line):
    """One command line for the App, through the protocol's parser. A bad
    line gets an error event; an exception inside the App goes to the caller."""
    try:
        from firmware.protocol import parse_command
    except ImportError:
        return [{"event": "error", "message": "no serial protocol installed"}]
    try:
        cmd, error = parse_command(line)
    finally:
        parse_command = None
        unload("firmware.protocol")      # commands are rare: its code goes again
    if error is not None:
        return [error]
    return app.command(cmd)


def crash(hal, hw, health, exc):
    """An exception escaped the App: log it on the flash, say so, restart.

    The game was saved up to the step before (show first, save after: a
    throw or move shown in the failing step is lost, as by a power cut), so
    the board comes back into it (the setup check first). The App's state
    after an exception is not trusted with a save.
    """
    import gc
    gc.collect()                     # a MemoryError: make room to write the log
    try:
        from firmware.health import describe
        text = describe(exc)
    except Exception:
        text = repr(exc)
    try:
        health.crash(text)
        emit({"event": "error", "message": "firmware crashed, restarting: " + text})
        emit(health.event())
        hw.strip.off()
    except Exception:
        pass
    hal.reset()


def _start_failed(hal, hw, health, exc, store_dir):
    """The App could not even start. Restart once; if the boot before failed
    the same way, set the saved game aside first (it may be the cause); after
    a third failed start in a row stay at the prompt instead of looping."""
    log = health.log()
    prev = [e for e in log if str(e.get("error", "")).startswith("start: ")
            and e.get("boot", 0) >= health.boots - 2]
    text = "start: "
    try:
        from firmware.health import describe
        text += describe(exc)
    except Exception:
        text += repr(exc)
    health.crash(text)
    emit({"event": "error", "message": "firmware could not start: " + text})
    if len(prev) >= 2:
        hal.watchdog_stop()
        emit({"event": "error", "message": "three failed starts: staying at the prompt"})
        return
    if prev:
        from firmware.store import join
        try:
            os.rename(join(store_dir, "game.json"), join(store_dir, "game.bad"))
        except OSError:
            pass
    hal.reset()
