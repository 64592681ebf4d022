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

OURS = ("firmware", "engine", "neopixel")


def _builtin_pixelbuf():
    """adafruit_pixelbuf as the chip's built-in module: in sys.modules before
    anything looks at the drive, as CircuitPython finds a built-in before
    lib/ (the pure-Python library stands in for the C one)."""
    path = os.environ.get("CP_BUILTIN_PIXELBUF")
    if not path:
        return
    import importlib.util
    spec = importlib.util.spec_from_file_location("adafruit_pixelbuf", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    sys.modules["adafruit_pixelbuf"] = module


_builtin_pixelbuf()


class PowerCut(BaseException):
    """The plug is pulled: nothing after this line runs."""


class GameOver(KeyboardInterrupt):
    """The story is over: leave the board loop the way Ctrl-C does."""


class TooLong(BaseException):
    """The board ran past the story's deadline in world time: what the story
    waited for never came (a hang would otherwise last until the test's
    wall-clock limit)."""


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
        self.setups = 0           # set-up checks with every piece already in place

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
                wanted = Position.parse(app.position).occupancy()
                if world.occupancy == wanted:
                    self.setups += 1
                    # the pieces stand where the board asks: it must see them
                    assert self.setups < 5, "the pieces stand where the saved game " \
                        "has them, yet the board still asks for them (%s)" % app.position
                world.occupancy = wanted
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
DEADLINE = [None]            # world ms after which a story has waited too long


def world_sleep(seconds):
    """time.sleep on the board: the world's clock moves on, keypad scans."""
    world.advance(int(round(seconds * 1000)))
    if DEADLINE[0] is not None and world.ms > DEADLINE[0]:
        raise TooLong("still running %d ms after power-on" % world.ms)
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
    except TooLong:
        return "too long"
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
        assert os.path.exists("game.sav"), "nothing saved before the cut"
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
    DEADLINE[0] = 10000
    how = power_on()
    assert how == "ended", "boot.py did not see the throw button held from " \
        "power-on: the game started (%s)" % how
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
    before = (1 << 0) | (1 << 4) | (1 << 5) | (1 << 12) | (1 << 29)
    assert scan() == before, bin(scan())        # the board as it last stood...
    world.advance(hw.scanner.settle_ms)
    assert scan() == 1 << 16, bin(scan())       # ...then as keypad tells it again
    assert hw.scanner.recoveries == 1
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


# -- keypad at power-on and after lost events ----------------------------------

class Watcher:
    """Hands that touch nothing: after every loop of the board they look at
    the App (``look``) and end the story once ``done()`` says so."""

    def __init__(self, done, look=None):
        self.app = None
        self.gen = None
        self.resumed = []
        self.done = done
        self.look = look

    def tick(self):
        if self.app is None:
            return
        if self.look is not None:
            self.look(self.app)
        if self.done(self.app):
            raise GameOver()


def save_game(position, throw=None, ruleset="kendall"):
    """A game standing at ``position`` saved on the drive, as a power cut
    would leave it (opening done; ``throw`` still to be played)."""
    from engine import Position
    from engine.game import Game
    from engine.rules import ruleset as make_ruleset
    from firmware.store import Store
    standing = Position.parse(position)
    game = Game(make_ruleset(ruleset), position=standing)
    game.opening = [1]
    if throw is not None:
        game.set_throw(throw)
    world.readonly = False                # the drive as boot.py leaves it
    Store(".").save(game)
    world.readonly = True
    _forget_modules()                     # the board starts with none of it loaded
    return standing.occupancy()


def resume_with_pieces_standing(position):
    """Power on over a saved game whose pieces still stand where it says:
    the board must see them and be ready without a hand touching anything."""
    global HANDS
    world.set_input(BUTTON, 1)
    world.occupancy = save_game(position)
    HANDS = Watcher(lambda app: events("ready"))
    DEADLINE[0] = 5000
    how = power_on(HANDS)
    ready = events("ready")
    assert ready, "the pieces stand where the saved game has them, yet after %d ms " \
        "the board has not seen them (%s, state %s, App sees %s)" % (
            world.ms, how, HANDS.app and HANDS.app.state,
            HANDS.app and bin(HANDS.app.occupancy))
    assert ready[0]["position"] == position, ready
    return {"ready_ms": world.ms, "state": HANDS.app.state}


def story_resume():
    """A power cut mid-game, the pieces left standing, the 6 x 5 matrix."""
    wire({})
    return resume_with_pieces_standing("BWB.BWBWBW...W................ B")


def story_resume_shift():
    """The same on a Feather with a 74HC165 chain (ShiftRegisterKeys)."""
    global LED_PIN, BUTTON
    world.board_id = "adafruit_feather_rp2040"
    from firmware.boards import BOARD_PINS
    feather = BOARD_PINS["adafruit_feather_rp2040"]
    world.wire_shift165(*["GPIO%d" % feather[k] for k in ("sr_load", "sr_clock", "sr_data")])
    LED_PIN, BUTTON = "GPIO%d" % feather["led"], "GPIO%d" % feather["button"]
    return resume_with_pieces_standing("BWB.BWBWBW...W................ B")


CAPTURE = "WWWWBBBB.W.B.................. W"    # W on 10, a lone B on 12


def story_overflow():
    """W on 10, a lone B on 12, a throw of 2: only 10-12 (a capture) is
    legal. The loop stalls (the computer thinking, say) while someone lifts
    and puts back the piece on 1 forty times: keypad's queue of 64 events
    overflows. Nobody touches 10 or 12, so no move may be taken, and the App
    may only ever be shown boards a hand made."""
    global HANDS
    wire({})
    world.set_input(BUTTON, 1)
    full = save_game(CAPTURE, throw=2)
    world.occupancy = full
    seen = set()
    stall = {"done_at": None}

    def look(app):
        seen.add(app.occupancy)
        if stall["done_at"] is None and app.state == "move" and app.at_rest:
            for _ in range(40):              # the loop gets no turn meanwhile
                world.lift(1)
                world.advance(20)
                world.place(1)
                world.advance(20)
            stall["done_at"] = world.ms

    def done(app):
        return stall["done_at"] is not None and world.ms - stall["done_at"] > 3000

    HANDS = Watcher(done, look)
    DEADLINE[0] = 20000
    how = power_on(HANDS)
    assert how == "over", "the story did not run to its end: %s" % how
    assert stall["done_at"] is not None, "the board never waited for the move"
    moves = [e["move"] for e in events("move")]
    assert moves == [], "no hand moved a piece, yet the board took %s" % moves
    made = set([full, full & ~1])            # what hands made: all, or 1 lifted
    assert seen <= made, "the App was shown boards no hand made: %s" % sorted(
        bin(b) for b in seen - made)
    app = HANDS.app
    assert app.state == "move" and app.throw == 2, (app.state, app.throw)
    assert [m.text for m in app.moves] == ["10-12"], [m.text for m in app.moves]
    return {"stall_ms": 1600, "seen": len(seen)}


def story_overflow_scan():
    """KeyScanner.scan() itself, called every loop as firmware/board.py does,
    right through an overflow: every board it returns is one a hand made."""
    world.power_on()
    world.phase = "code"
    wire({})
    from firmware import hal_cp
    from firmware.config import validate
    config, _ = validate({})
    world.place(10, 12, 1, 2, 3)
    hw = hal_cp.build(config)
    scan = hw.scanner.scan
    full = scan()
    assert full == (1 << 9) | (1 << 11) | 0b111, bin(full)
    for _ in range(40):                      # a stalled loop, a busy hand
        world.lift(1)
        world.advance(20)
        world.place(1)
        world.advance(20)
    assert hw.scanner.keys.events.overflowed
    boards = []
    for _ in range(100):                     # 0.5 s of loops, 5 ms apart
        boards.append(scan())
        world.advance(hal_cp.SCAN_MS)
    assert set(boards) == {full}, "after the overflow scan() gave %s" % sorted(
        set(bin(b) for b in boards))
    world.lift(12)                           # and the scanner still follows the hands
    world.advance(40)
    assert scan() == full & ~(1 << 11), bin(scan())
    return {"loops": len(boards)}


def story_keypad():
    """The keypad fake keeps CircuitPython 10's debouncing: a key closed when
    the scanner is made never reports; reset() makes it report a press."""
    import keypad
    import microcontroller
    world.power_on()
    world.phase = "code"
    world.set_input("GPIO17", 0)             # the button already held
    keys = keypad.Keys((microcontroller.pin.GPIO17,), value_when_pressed=False,
                       interval=0.005, debounce_threshold=3)
    world.advance(100)
    assert len(keys.events) == 0, "a key held at construction reported an event"
    keys.reset()
    assert len(keys.events) == 0              # reset's own scan: one of three
    world.advance(5)
    assert len(keys.events) == 0
    world.advance(5)                          # the third scan since reset()
    event = keys.events.get()
    assert event is not None and event.pressed and event.key_number == 0, event
    world.set_input("GPIO17", 1)
    world.advance(5)
    world.set_input("GPIO17", 0)              # a bounce shorter than 3 scans
    world.advance(30)
    assert len(keys.events) == 0, "a bounce of one scan was reported"
    keys.deinit()
    wire({})
    world.place(7)
    pins = microcontroller.pin
    matrix = keypad.KeyMatrix([getattr(pins, "GPIO%d" % n) for n in range(2, 8)],
                              [getattr(pins, "GPIO%d" % n) for n in range(8, 13)],
                              interval=0.005)
    world.advance(50)
    assert len(matrix.events) == 0, "a square closed at construction reported"
    matrix.reset()                            # threshold 1: reset's own scan reports
    event = matrix.events.get()
    assert event is not None and event.pressed and event.key_number == 6, event
    world.lift(7)
    world.advance(5)
    event = matrix.events.get()
    assert event is not None and event.released, event
    return {"checked": 2}


def story_strip():
    """The strip sends a frame in which only one colour byte of one LED
    changed: the red, the green or the blue alone."""
    world.power_on()
    world.phase = "code"
    from firmware import hal_cp
    from firmware.config import validate
    config, _ = validate({})
    strip = hal_cp.make_strip(config)
    count = strip.count
    frame = [(10, 20, 30)] * count
    assert strip.write(frame)
    sent = 0
    for led in (0, 5, count - 1):
        for channel in range(3):
            colour = list(frame[led])
            colour[channel] += 1
            frame = list(frame)
            frame[led] = tuple(colour)
            assert strip.write(frame), "LED %d: a change in channel %d alone was " \
                "not sent" % (led, channel)
            r, g, b = frame[led]
            wire = world.strips[LED_PIN][-1]
            assert wire[3 * led:3 * led + 3] == bytes((g, r, b)), (led, channel, wire)
            assert not strip.write(frame), "the same frame was sent twice"
            sent += 1
    return {"sent": sent}


def main():
    storage.protect(DRIVE)
    time.sleep = world_sleep
    real_stdout = sys.stdout
    sys.stdout = Console(real_stdout)
    sys.stdin = Keyboard()
    try:
        result = {"game": story_game, "held": story_held, "shift": story_shift,
                  "edge": story_edge, "resume": story_resume,
                  "resume_shift": story_resume_shift, "overflow": story_overflow,
                  "overflow_scan": story_overflow_scan, "keypad": story_keypad,
                  "strip": story_strip}[STORY]()
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
