"""A Pico W's board in a remote game, on the MicroPython unix port.

    micropython -X heapsize=512k tests/remote_tests/picow_board_mp.py LIB PORT SEAT SEED RULESET [tls] [drop=N]

LIB holds engine/, firmware/ and umqtt/ compiled to .mpy, as a Pico W's
lib/ does. The board is a scenario board (tests/board_sim.py) played by a
seeded hand; its config.json's "remote" section is checked by the firmware
and handed to firmware/remote.py, which joins the fake Wi-Fi
(tests/fakes/network.py) and reaches the real broker on 127.0.0.1:PORT with
umqtt.simple (over TLS with "tls"). With "drop=N" its Wi-Fi goes away
after its N-th action, for a minute. Time is the board's own simulated
clock; the real clock only ends a run that hangs.

The last line is "RESULT " and a JSON object: the game's actions, the
winner, the position, and the heap (gc.mem_alloc() after a collection)
with the App alone, with the room connected, and the most seen in the game.
"""

import gc
import json
import sys
import time

LIB, PORT, SEAT, SEED, RULESET = sys.argv[1:6]
TLS = "tls" in sys.argv[6:]
DROP_AFTER = [int(a[5:]) for a in sys.argv[6:] if a.startswith("drop=")] or [None]
DROP_MS = 60000
sys.path[:0] = [LIB, "tests", "tests/fakes"]
gc.collect()
BASE = gc.mem_alloc()     # before the firmware's modules: they count

import network  # noqa: E402  (tests/fakes/network.py)
from board_sim import BoardSim  # noqa: E402
from engine.sticks import XorShift  # noqa: E402

HANG_MS = 240000          # real time: a hang, not slowness
ROOM, PASSPHRASE = "test room", "a passphrase only the two boards know"
SSID, WIFI_PASSWORD = "Nagyi-otthon", "kecske-sajt-42"


def heap():
    gc.collect()
    return gc.mem_alloc() - BASE


class PicoW(BoardSim):
    """A scenario board whose loop passes poll the remote link, as board.py's do."""

    def __init__(self, config, seed):
        self.link = None
        BoardSim.__init__(self, config=config, rng=XorShift(seed * 2 + (SEAT == "W")))
        self.hand = XorShift(seed * 7 + (SEAT == "W"))
        self.outages = []         # [from, to] of the board's clock: the link down
        self._was = None
        self._down_at = None
        self._dropped_at = None

    def drop(self):
        """The Wi-Fi goes away for DROP_MS."""
        network.air.drop()
        self._dropped_at = self.t

    def connect(self):
        from firmware.remote import start
        self.link, event = start(self.app.config["remote"], self.app, self.t)
        if self.link is None:
            raise AssertionError("remote play did not start: %s" % event)
        self.room = self.link.room

    def step(self):
        """One loop pass: the App, then the link. Only the remote events are
        kept (the last few): a whole game's events would fill the heap that
        is being measured."""
        self.t += self.tick_ms
        out = self.app.step(self.t, self.occ, self.button)
        self._keep(out)
        if self.link is not None:
            self._keep(self.link.poll(self.t))
            self._watch()
        return out

    def _watch(self):
        """Bring the Wi-Fi back after its minute; note when the link was down."""
        if self._dropped_at is not None and self.t - self._dropped_at >= DROP_MS:
            network.air.restore()
            self._dropped_at = None
        state = self.link.state
        if state != self._was:
            if self._was == "online":
                self._down_at = self.t
            elif state == "online" and self._down_at is not None:
                self.outages.append([self._down_at, self.t])
                self._down_at = None
            self._was = state

    def _keep(self, events):
        for e in events:
            if e.get("event") == "remote":
                self.events.append(e)
                if len(self.events) > 16:
                    self.events.pop(0)

    def act(self):
        """One thing a person at this board would do now; False: nothing to do."""
        app = self.app
        state = app.state
        if state == "setup" or state == "mismatch" or state == "takeback":
            if self.occ != app.game.position.occupancy():
                self.setup()
                return True
            return False
        if state == "opening" or state == "throw":
            if self.room.opponent.throws_now():
                return False
            self.press()
            return True
        if state == "move":
            if app.turn == SEAT:
                moves = app.moves
                self.play(moves[self.hand.randrange(len(moves))], via=self.hand(1) == 1)
                return True
            move = self.room.opponent.move
            if move is not None:
                self.play(move, via=self.hand(1) == 1)
                return True
            return False
        if state == "nomove":
            self.wait(500)
            return True
        return False


def run(until, board, deadline):
    """Act and wait until ``until()``; fail when the real deadline passes."""
    peak = 0
    n = 0
    while not until():
        if board.act():
            n += 1
            if n % 10 == 0:
                peak = max(peak, heap())
            if n == DROP_AFTER[0]:
                board.drop()
            continue
        if time.ticks_diff(time.ticks_ms(), deadline) > 0:
            raise AssertionError("hung in %s (%s), link %s" % (
                board.app.state, board.room.problem, board.link.state))
        board.wait(20)
        time.sleep_ms(1)
    return peak


def main():
    from firmware.config import validate
    config, messages = validate({"ruleset": RULESET, "remote": {
        "wifi": {"ssid": SSID, "password": WIFI_PASSWORD},
        "broker": {"host": "127.0.0.1", "port": int(PORT), "tls": TLS},
        "room": ROOM, "passphrase": PASSPHRASE, "side": SEAT}})
    if messages:
        raise AssertionError(messages)
    network.air.offer(SSID, WIFI_PASSWORD)
    board = PicoW(config, int(SEED))
    board.setup()
    app_heap = heap()
    board.connect()
    deadline = time.ticks_add(time.ticks_ms(), HANG_MS)
    room = board.room
    run(lambda: board.link.state == "online" and room.peer == "here"
        and not room.opponent.blocked, board, deadline)
    joined_heap = heap()
    peak = run(lambda: board.app.state == "game_over", board, deadline)
    # A board that plays on stays in the room; this one leaves, so it first
    # reads what is still coming (its own last messages, back from the
    # broker): a socket closed with unread data is reset, and the broker
    # could lose the last move with it.
    end = time.ticks_add(time.ticks_ms(), 1500)
    while time.ticks_diff(end, time.ticks_ms()) > 0:
        board.wait(20)
        time.sleep_ms(5)
    link = board.link
    events = [e for e in board.events if e.get("event") == "remote"]
    print("RESULT " + json.dumps({
        "words": [w for s, w in __import__("firmware.room", None, None, ["actions"])
                  .actions(board.app.game)],
        "winner": board.app.game.winner, "position": board.app.position,
        "heap": {"app": app_heap, "joined": joined_heap, "peak": max(peak, joined_heap)},
        "counts": room.counts, "faults": link.faults, "outages": board.outages,
        "remote_events": events}))


main()
