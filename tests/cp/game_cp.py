"""A CircuitPython board, played under CPython: the drive as
``senet-board deploy --circuitpython`` filled it, the fakes of
tests/fakes/circuitpython for the hardware, and Adafruit's real NeoPixel and
pixelbuf libraries from the drive's lib/.

    python -S tests/cp/game_cp.py DRIVE STORY [SEED]

Run with ``-S`` so nothing of the laptop's site-packages can be imported: the
firmware and the Adafruit libraries come from DRIVE/lib, the hardware from
the fakes, as on the board. Every power-on runs DRIVE/boot.py and then
DRIVE/code.py in a fresh set of modules; time passes only when the firmware
sleeps (``time.sleep``, through firmware/compat.py), and keypad scans in the
background as it does.

Stories:

- ``game``: a whole game, a player's random choice at a time, with the
  plug pulled twice in the middle; after each power-on the board resumes
  the saved game with the pieces where they stood. Every lift of a piece
  checks that its targets' colours are in the bytes handed to neopixel_write.
- ``held``: the throw button held at power-on: boot.py leaves the drive to
  the laptop, code.py starts nothing, and the program can write nothing.
- ``edge``: firmware/hal_cp.py on its own (key numbers, lost events, the
  button, the watchdog).
- ``shift``: the same board wired with a 74HC165 chain on a Feather RP2040
  (its own default wiring): a few turns of play.

The last line is one JSON object with what was seen, then "1 passed, 0 failed"
(or "0 passed, 1 failed" and the error).
"""

import json
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
FAKES = os.path.join(os.path.dirname(HERE), "fakes", "circuitpython")
DRIVE = os.path.realpath(sys.argv[1])
STORY = sys.argv[2]
SEED = int(sys.argv[3]) if len(sys.argv) > 3 else 1
sys.path[:] = [FAKES, DRIVE, os.path.join(DRIVE, "lib")] + \
    [p for p in sys.path if p.startswith(sys.base_prefix) and "site-packages" not in p]
os.chdir(DRIVE)
sys.implementation.name = "circuitpython"     # what the firmware asks to know the port

import _cpworld as world  # noqa: E402
import storage  # noqa: E402

OURS = ("firmware", "engine", "neopixel", "adafruit_pixelbuf")


class PowerCut(BaseException):
    """The plug is pulled: nothing after this line runs."""


class GameOver(KeyboardInterrupt):
    """The story is over: leave the board loop the way Ctrl-C does."""


class Hands:
    """The player: reads the App's state (as tests/board_sim.py does) and acts
    on the wooden board of the fakes, one action at a time, in world time."""

    def __init__(self, seed, cuts=(), max_actions=4000):
        import random
        self.choose = random.Random(seed)
        self.app = None
        self.button = None
        self.cuts = list(cuts)
        self.max_actions = max_actions
        self.actions = 0
        self.moves = 0
        self.checked = 0          # lifts whose target colours were found on the wire
        self.wait_until = 0
        self.gen = None
        self.idle_first = True
        self.resumed = []         # the position each App started from
        self.cut_at = []          # the position when the plug was pulled

    def tick(self):
        if self.app is None or world.ms < self.wait_until:
            return
        if self.gen is None:
            self.gen = self.play()
        self.wait_until = world.ms + next(self.gen)

    def press(self):
        world.set_input(self.button, 0)
        yield 120
        world.set_input(self.button, 1)
        yield 60

    def play(self):
        settle = self.app.config["settle_ms"] + 100
        if self.idle_first:           # chatting before the first throw: the ms
            self.idle_first = 0       # counter wraps mid-game (65.5 s after power-on)
            yield 40000
        while True:
            app = self.app
            state = app.state
            if state == "game_over":
                raise GameOver()
            if self.actions >= self.max_actions:
                raise GameOver()
            if state in ("opening", "throw"):
                yield from self.press()
            elif state == "move":
                yield from self.move(app.moves[self.choose.randrange(len(app.moves))])
                yield settle
                self.moves += 1
                if self.moves == 3:       # a laptop asks over the serial console
                    world.serial_in.extend('{"cmd": "state"}\n')
                    yield 100
            elif state == "setup":
                from engine import Position
                world.occupancy = Position.parse(app.position).occupancy()
                yield settle
            else:
                yield 500
            self.actions += 1
            if self.cuts and self.actions >= self.cuts[0] and app.state != "opening":
                self.cuts.pop(0)
                self.cut_at.append(app.position)
                raise PowerCut()

    def move(self, m):
        """Make the engine move ``m`` by hand (C6 swaps, K11/K12 via squares)."""
        off = 31
        world.lift(m.origin)
        yield 60
        self.check_targets(m)
        if m.capture:
            world.lift(m.to)
            yield 60
            world.place(m.to)
            yield 60
            if m.final != m.to:
                world.lift(m.to)
                yield 60
                if m.final != off:
                    world.place(m.final)
                    yield 60
            world.place(m.origin)
            yield 60
        elif m.final != off:
            if m.to != m.final:
                world.place(m.to)
                yield 60
                world.lift(m.to)
                yield 60
            world.place(m.final)
            yield 60

    def check_targets(self, m):
        """The lifted piece's destinations are lit, and those colours are
        what was last handed to neopixel_write (GRB on the wire)."""
        app = self.app
        targets = [i for i, role in enumerate(app.roles) if role == "target"]
        assert app.state == "move", app.state
        if m.to > 30:                 # leaving the board: no square to light
            return
        assert m.to - 1 in targets, (m.origin, m.to, app.roles)
        wire = world.strips[LED_PIN][-1]
        for i in targets:
            r, g, b = app.frame[i]
            assert (r, g, b) != (0, 0, 0), "a target shown dark"
            assert wire[3 * i:3 * i + 3] == bytes((g, r, b)), (i, wire[3 * i:3 * i + 3],
                                                                (r, g, b))
        self.checked += 1


HANDS = None
LED_PIN = "GPIO16"
BUTTON = "GPIO17"
OUT = []


def world_sleep(seconds):
    """time.sleep on the board: the world's clock moves on, keypad scans."""
    world.advance(int(round(seconds * 1000)))
    if HANDS is not None:
        HANDS.tick()


class Keyboard:
    """sys.stdin: what is typed on the serial console (_cpworld.serial_in)."""

    def read(self, n=1):
        text = "".join(world.serial_in[:n])
        del world.serial_in[:n]
        return text


class Console:
    """sys.stdout: the serial console; the events are kept."""

    def __init__(self, real):
        self.real = real
        self.buf = ""

    def write(self, text):
        self.buf += text
        while "\n" in self.buf:
            line, self.buf = self.buf.split("\n", 1)
            OUT.append(line)
        return len(text)

    def flush(self):
        pass


def events(kind=None):
    found = []
    for line in OUT:
        if line.startswith("{"):
            event = json.loads(line)
            if kind is None or event.get("event") == kind:
                found.append(event)
    return found


def _forget_modules():
    for name in list(sys.modules):
        if name.split(".")[0] in OURS or name in ("code", "boot"):
            del sys.modules[name]


def _run_file(name):
    with open(name) as f:
        source = f.read()
    exec(compile(source, name, "exec"), {"__name__": "__main__", "__file__": name})


def power_on(hands=None):
    """Power on: boot.py, then (a fresh VM, pins released) code.py, until the
    program ends, the plug is pulled or the story is over."""
    world.power_on()
    if hands is not None:
        hands.app = None                      # the old App went with the power
    _forget_modules()
    _run_file("boot.py")
    world.phase = "code"
    for dio in list(world.claimed.values()):
        dio.deinit()
    world.scanners[:] = []
    _forget_modules()
    if hands is not None:
        import firmware.app as appmod
        real = appmod.App

        class Spy(real):
            def __init__(self, *args, **kwargs):
                real.__init__(self, *args, **kwargs)
                hands.app = self
                hands.gen = None
                hands.resumed.append(self.position)
        appmod.App = Spy
    try:
        _run_file("code.py")
    except PowerCut:
        return "cut"
    except GameOver:
        return "over"
    return "ended"


def wire(config):
    pins = config.get("pins", {})
    rows = pins.get("matrix_rows", [2, 3, 4, 5, 6, 7])
    cols = pins.get("matrix_cols", [8, 9, 10, 11, 12])
    world.wire_matrix(["GPIO%d" % n for n in rows], ["GPIO%d" % n for n in cols])


def story_game():
    global HANDS
    config = json.load(open("config.json"))
    wire(config)
    HANDS = Hands(SEED, cuts=(100, 150))
    HANDS.button = BUTTON
    world.set_input(BUTTON, 1)
    boots = []
    while True:
        how = power_on(HANDS)
        boots.append((how, world.ms))
        assert not world.watchdog_fired, "the watchdog fired"
        if how != "cut":
            break
        assert os.path.exists("game.json"), "nothing saved before the cut"
    assert boots[-1][0] == "over", boots
    assert HANDS.app.state == "game_over", HANDS.app.state
    assert len(boots) == 3, boots
    # every power-on after a cut resumed the game where it stood
    assert HANDS.resumed[1:] == HANDS.cut_at, (HANDS.resumed, HANDS.cut_at)
    state = events("state")
    assert len(state) == 1 and len(state[0]["roles"]) == 30, state   # the command was read
    assert not world.serial_in
    over = events("game_over")
    assert over, "no game_over event"
    import watchdog
    return {"moves": HANDS.moves, "checked": HANDS.checked, "boots": boots,
            "resumed": HANDS.resumed, "winner": over[-1]["winner"],
            "writes": len(world.strips[LED_PIN]), "watchdog_feeds": watchdog._WATCHDOG.feeds,
            "longest_boot_ms": max(ms for _, ms in boots), "health": events("health")[-1]}


def story_held():
    wire({})
    world.set_input(BUTTON, 0)                 # held while the board powers up
    before = sorted(os.listdir("."))
    how = power_on()
    assert how == "ended", how
    assert world.readonly, "boot.py gave the drive to the program"
    assert [e["event"] for e in events()] == ["maintenance"], OUT
    assert sorted(os.listdir(".")) == before, "the program wrote to the drive"
    try:
        open("game.json", "w")
    except OSError as e:
        refused = e.errno
    else:
        raise AssertionError("a read-only CIRCUITPY let the program write")
    try:
        storage.remount("/", readonly=False)
    except RuntimeError:
        late = True
    else:
        late = False
    assert late, "remount after boot.py was allowed"
    return {"refused_errno": refused, "events": [e["event"] for e in events()]}


def story_shift():
    global HANDS, LED_PIN, BUTTON
    world.board_id = "adafruit_feather_rp2040"
    # the Feather's default wiring, from the drive's firmware/boards.py (generated
    # from hardware/pinmap.json's "boards"), with a 74HC165 chain on it
    from firmware.boards import BOARD_PINS
    feather = BOARD_PINS["adafruit_feather_rp2040"]
    world.wire_shift165(*["GPIO%d" % feather[k] for k in ("sr_load", "sr_clock", "sr_data")])
    LED_PIN, BUTTON = "GPIO%d" % feather["led"], "GPIO%d" % feather["button"]
    HANDS = Hands(SEED, max_actions=40)
    HANDS.idle_first = False
    HANDS.button = BUTTON
    world.set_input(BUTTON, 1)
    how = power_on(HANDS)
    assert how == "over", how
    assert HANDS.moves >= 5 and HANDS.checked >= 5, (HANDS.moves, HANDS.checked)
    assert "GPIO16" not in world.strips, "the Feather's own NeoPixel was driven"
    return {"moves": HANDS.moves, "checked": HANDS.checked}


def story_edge():
    """firmware/hal_cp.py on its own: key numbers, a lost-events recovery, the
    button, the watchdog, the board's id."""
    world.power_on()
    world.phase = "code"
    wire({})
    world.set_input(BUTTON, 1)
    from firmware import hal_cp
    from firmware.config import validate
    config, _ = validate({})
    hw = hal_cp.build(config)
    assert config["debounce_scans"] == 1          # keypad debounces instead of the App
    scan = hw.scanner.scan
    assert scan() == 0
    world.place(1, 5, 6, 13, 30)                  # row 0 col 0, row 0 col 4, row 1 col 0, ...
    world.advance(20)
    assert scan() == (1 << 0) | (1 << 4) | (1 << 5) | (1 << 12) | (1 << 29), bin(scan())
    # more changes than keypad's queue holds, with nobody reading: events are
    # lost; the next scan starts over from what is closed now
    world.lift(1)
    world.advance(20)                           # square 1's piece is lifted...
    for _ in range(3):                          # ...while 29 others come and go
        world.place(*range(2, 31))
        world.advance(20)
        world.lift(*range(2, 31))
        world.advance(20)
    world.place(17)
    world.advance(20)
    assert hw.scanner.keys.events.overflowed
    scan()
    world.advance(20)
    assert scan() == 1 << 16, bin(scan())       # square 1's lift was among the lost
    # a chattering switch (shorter than 3 scans) never shows
    world.place(20)
    world.advance(6)
    world.lift(20)
    world.advance(20)
    assert not scan() & (1 << 19)
    assert hw.button() is False
    world.set_input(BUTTON, 0)
    world.advance(10)
    assert hw.button() is True
    assert hal_cp.make_button(config) is hw.button  # the pin is claimed once
    import microcontroller
    import watchdog
    dog = hal_cp.watchdog(20000)
    assert dog is microcontroller.watchdog and dog.timeout == 8.388
    assert dog.mode == watchdog.WatchDogMode.RESET
    assert hal_cp.watchdog_stop() and dog.mode is None
    assert hal_cp.unique_id() == "e6614104032b5c2f"
    assert hal_cp.ticks_ms() == world.ticks_ms()
    try:
        hal_cp.reset()
    except world.Reset:
        pass
    else:
        raise AssertionError("reset() returned")
    return {"resets": world.resets}


def main():
    storage.protect(DRIVE)
    time.sleep = world_sleep
    real_stdout = sys.stdout
    sys.stdout = Console(real_stdout)
    sys.stdin = Keyboard()
    try:
        result = {"game": story_game, "held": story_held, "shift": story_shift,
                  "edge": story_edge}[STORY]()
        import firmware
        assert firmware.__file__.startswith(DRIVE), firmware.__file__
        import neopixel
        assert neopixel.__file__.startswith(os.path.join(DRIVE, "lib")), neopixel.__file__
        result["neopixel"] = neopixel.__version__
    except BaseException as e:
        sys.stdout = real_stdout
        import traceback
        traceback.print_exc()
        print("\n".join(OUT[-30:]))
        print("0 passed, 1 failed: %r" % (e,))
        return 1
    sys.stdout = real_stdout
    print(json.dumps(result))
    print("1 passed, 0 failed")
    return 0


sys.exit(main())
