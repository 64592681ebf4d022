"""`senet-board check`: a guided wiring test of a board running the firmware.

The board is put in its self-test mode (``{"cmd": "selftest"}``, see
firmware/board.py): every square lights while its reed switch is closed and
each change is reported. The tool then

1. asks for the board to be cleared and notes switches already closed,
2. asks for a magnet on each square in turn (or, with ``--auto``, just watches
   for ``--timeout`` seconds while someone sweeps a magnet over the board),
3. lights every LED in turn, then all of them in red, green and blue, and asks
   which LEDs stayed dark (a line of numbers on stdin, empty for none),
4. prints what is wrong: switches never seen closed, switches stuck closed,
   squares that answered for another square, dark LEDs, each with where to
   look, and puts the board back into the game.

Squares are numbered 1-30 along the path; everything else is numbered as
docs/hardware.md and hardware/wiring.svg number it: matrix rows 0-5 and
columns 0-4 with their GPIOs, 74HC165 chips 1-4 and their inputs, LEDs 0-35.
The wiring is the default one (hardware/pinmap.json), or the one in
``--config FILE`` for a board with its own pins.

Exit status 0 when everything works, 1 when something needs fixing. Answers
come from stdin, so ``printf '5\\n' | senet-board check --auto --timeout 20``
runs unattended.
"""

import json
import sys
import time

from host_tools.board.messages import DeployError
from host_tools.board.serialport import add_port_argument, connect, parse_event
from host_tools.hardware.pins import check_config, load_pinmap, read_json
from host_tools.hardware.wiring import where

SQUARES = 30
NO_SELFTEST = ("The board does not answer the self-test: make sure it runs the Senet "
               "firmware (senet-board deploy) and is not in maintenance mode (replug it "
               "without holding the throw button).")


class Link:
    """The board's serial line: commands out, events in, garbage skipped.

    Every wait is measured on ``clock`` (seconds), ``time.monotonic`` unless
    a test hands in its own."""

    def __init__(self, ser, clock=time.monotonic):
        self.ser = ser
        self.clock = clock
        self.buf = b""
        self.events = []

    def send(self, cmd):
        self.ser.write((json.dumps(cmd) + "\n").encode())

    def poll(self, seconds=0.0):
        """Events that arrived within ``seconds`` (at least one read)."""
        end = self.clock() + seconds
        got = []
        while True:
            self.buf += self.ser.read(512)
            while b"\n" in self.buf:
                line, self.buf = self.buf.split(b"\n", 1)
                event = parse_event(line)
                if event is not None:
                    got.append(event)
            if got or self.clock() >= end:
                return got

    def wait(self, name, seconds):
        """The first event called ``name`` within ``seconds``, else None; the
        events read on the way are kept in ``self.events``."""
        end = self.clock() + seconds
        while self.clock() < end:
            for event in self.poll(min(0.1, max(0.0, end - self.clock()))):
                self.events.append(event)
                if event["event"] == name:
                    return event
        return None


def parse_numbers(text, count):
    """ "3 7-9, 12" -> [3, 7, 8, 9, 12]: LED numbers 0..count-1, as the docs
    number them; anything else is ignored."""
    found = set()
    for part in text.replace(",", " ").split():
        lo, _, hi = part.partition("-")
        try:
            a = int(lo)
            b = int(hi) if hi else a
        except ValueError:
            continue
        for n in range(min(a, b), max(a, b) + 1):
            if 0 <= n < count:
                found.add(n)
    return sorted(found)


class Switches:
    """What the switch events said over the test."""

    def __init__(self, closed_at_start):
        self.start = set(closed_at_start)
        self.closed = set(closed_at_start)
        self.seen_closed = set()
        self.seen_open = set()
        self.strays = []            # (expected square, square that closed instead)

    def take(self, event, expected=None):
        if event.get("event") != "switch":
            return
        square = event.get("square")
        if not isinstance(square, int):
            return
        if event.get("closed"):
            self.closed.add(square)
            self.seen_closed.add(square)
            if expected is not None and square != expected:
                self.strays.append((expected, square))
        else:
            self.closed.discard(square)
            self.seen_open.add(square)

    def never_closed(self):
        return [s for s in range(1, SQUARES + 1)
                if s not in self.seen_closed and s not in self.start]

    def stuck(self):
        return sorted(s for s in self.start if s not in self.seen_open)


def dark_hint(dark, pinmap):
    """Where the LED data line most likely breaks: just before the first dark LED."""
    first = dark[0]
    if first == 0:
        return ("the data line from GP%d through the 74AHCT125 (1A pin 2, 1Y pin 3) and "
                "the 330 ohm resistor to LED 0's DIN" % pinmap["pins"]["led"])
    return "its joints and the wire from LED %d's DOUT to LED %d's DIN" % (first - 1, first)


class Check:
    """One run of the check; its windows (the auto sweep, each square, each LED)
    are measured on ``clock`` (seconds)."""

    def __init__(self, link, out, answers, auto, timeout, led_ms, square_s, wiring,
                 clock=time.monotonic):
        self.link = link
        self.clock = clock
        self.wiring = wiring
        self.out = out
        self.answers = answers
        self.auto = auto
        self.timeout = timeout
        self.led_ms = led_ms
        self.square_s = square_s
        self.leds = 0
        self.led_acks = 0

    def say(self, text=""):
        self.out.write(text + "\n")
        self.out.flush()

    def ask(self, prompt):
        """One answer line from the user (stdin); "" at end of input."""
        self.say(prompt)
        line = self.answers.readline()
        return line.strip()

    def start(self):
        for _ in range(2):
            self.link.send({"cmd": "selftest"})
            event = self.link.wait("selftest", 2.0)
            if event is not None:
                self.leds = int(event.get("leds") or SQUARES)
                return event
        raise DeployError(NO_SELFTEST)

    def switches(self, first):
        closed = first.get("closed") or []
        if closed and not self.auto:
            self.ask("Squares %s read as occupied: take every piece and magnet off the "
                     "board, then press Enter." % ", ".join(map(str, closed)))
            first = self.start()
            closed = first.get("closed") or []
        found = Switches(closed)
        if self.auto:
            self.say("Watching the switches for %g s: sweep a magnet over every square."
                     % self.timeout)
            end = self.clock() + self.timeout
            while self.clock() < end:
                for event in self.link.poll(0.1):
                    found.take(event)
                if not found.never_closed() and len(found.seen_open) >= SQUARES:
                    break
            return found
        for square in range(1, SQUARES + 1):
            if square in found.start:
                continue
            self.say("Put a magnet on square %d (waiting %g s)..." % (square, self.square_s))
            end = self.clock() + self.square_s
            while square not in found.seen_closed and self.clock() < end:
                for event in self.link.poll(0.1):
                    found.take(event, expected=square)
            if square in found.seen_closed:
                self.say("  square %d: ok, take the magnet away" % square)
                end = self.clock() + self.square_s
                while square in found.closed and self.clock() < end:
                    for event in self.link.poll(0.1):
                        found.take(event)
            else:
                self.say("  square %d: nothing seen (%s)" % (square, where(square, self.wiring)))
        return found

    def lights(self):
        count = self.leds
        self.say("Lighting the %d LEDs one at a time, then all red, green and blue: "
                 "watch for any that stays dark." % count)
        for i in range(count):
            self.led({"cmd": "led", "index": i}, self.led_ms)
        for colour in ("red", "green", "blue"):
            self.led({"cmd": "led", "index": "all", "colour": colour}, self.led_ms * 10)
        self.link.send({"cmd": "led", "index": "all", "colour": "white"})
        answer = self.ask("Which LEDs stayed dark? Type their numbers (0-%d, as in "
                          "docs/hardware.md, e.g. 5 or 30-35), or just press Enter if none:"
                          % (count - 1))
        self.link.send({"cmd": "led", "index": None})
        return parse_numbers(answer, count)

    def led(self, cmd, ms):
        self.link.send(cmd)
        end = self.clock() + ms / 1000.0
        while self.clock() < end:
            for event in self.link.poll(0.01):
                if event.get("event") == "led":
                    self.led_acks += 1

    def finish(self):
        self.link.send({"cmd": "run"})
        self.link.wait("run", 1.0)

    def report(self, found, dark):
        problems = 0
        works = SQUARES - len(found.never_closed()) - len(found.stuck())
        self.say("")
        self.say("Switches: %d of %d work." % (works, SQUARES))
        for s in found.never_closed():
            problems += 1
            self.say("  square %d: never seen closed (its reed switch, diode or joints; %s)"
                     % (s, where(s, self.wiring)))
        for s in found.stuck():
            problems += 1
            self.say("  square %d: stuck closed (a shorted switch or a magnet left near it; "
                     "%s)" % (s, where(s, self.wiring)))
        for expected, got in found.strays:
            problems += 1
            self.say("  square %d answered while square %d was tested (crossed wires?)"
                     % (got, expected))
        self.say("LEDs: %d of %d light." % (self.leds - len(dark), self.leds))
        if dark:
            problems += 1
            self.say("  dark: %s (the data line usually breaks just before LED %d: check "
                     "%s)" % (", ".join(map(str, dark)), dark[0], dark_hint(dark, self.wiring)))
        self.say("All good." if not problems else "%d problem(s) to fix." % problems)
        return problems


def add_arguments(parser):
    add_port_argument(parser)
    parser.add_argument("--config", metavar="FILE",
                        help="the board's config.json, if its pins are not the defaults")
    parser.add_argument("--auto", action="store_true",
                        help="watch the switches freely instead of square by square")
    parser.add_argument("--timeout", type=float, default=60.0,
                        help="--auto: seconds to watch the switches (default 60)")
    parser.add_argument("--square-seconds", type=float, default=20.0,
                        help="guided: seconds to wait for each square (default 20)")
    parser.add_argument("--led-ms", type=float, default=250.0,
                        help="milliseconds each LED stays lit in the LED sweep")


def board_wiring(config=None):
    """The wiring to name in the report: the defaults, or ``config``'s."""
    try:
        if config is None:
            return load_pinmap()
        return check_config(read_json(config))
    except (ValueError, OSError) as e:
        raise DeployError("%s: %s" % (config, getattr(e, "strerror", None) or e))


def check(port=None, auto=False, timeout=60.0, square_s=20.0, led_ms=250.0,
          answers=None, out=None, config=None, clock=time.monotonic):
    """Run the whole check; return the number of problems found. Every wait
    is measured on ``clock`` (seconds), so a test can end the sweep's window
    when its scripted magnet is done rather than after a fixed time."""
    out = out or sys.stdout
    answers = answers or sys.stdin
    wiring = board_wiring(config)
    port, ser = connect(port)
    try:
        run = Check(Link(ser, clock), out, answers, auto, timeout, led_ms, square_s, wiring,
                    clock)
        first = run.start()
        run.say("Self-test on %s: firmware %s, %d LEDs" % (port, first.get("version"),
                                                          run.leds))
        try:
            found = run.switches(first)
            dark = run.lights()
        finally:
            run.finish()
        return run.report(found, dark)
    finally:
        ser.close()


def run(args):
    try:
        problems = check(args.port, args.auto, args.timeout, args.square_seconds,
                         args.led_ms, config=args.config)
    except DeployError as e:
        print("senet-board check: %s" % e, file=sys.stderr)
        return 2
    return 1 if problems else 0
