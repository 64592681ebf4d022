"""Two boards in one room, in one process: each a scenario board
(tests/board_sim.py) with a Room on a paho-mqtt connection to a real
broker, played by seeded hands. Each board keeps its own simulated clock;
only the network is real, so a game waits for messages in real time, with
a generous deadline that catches a hang and decides nothing else."""

import random
import time

from board_sim import BoardSim
from firmware.room import Room, actions
from host_tools.remote.mqtt import Connection

HANG_S = 60          # one game, or one wait for the network: a hang, not slowness
ROOM, PASSPHRASE = "test room", "a passphrase only the two boards know"


class Hang:
    """The one wall-clock guard of these tests: it fails only when nothing
    has moved for HANG_S (a hang), never because the machine was slow;
    every step forward (``moved``) starts it again."""

    def __init__(self, what):
        self.what = what
        self.moved()

    def moved(self):
        self._deadline = time.monotonic() + HANG_S

    def check(self, *state):
        if time.monotonic() > self._deadline:
            raise AssertionError("hung: %s; nothing moved for %d s %r" % (self.what, HANG_S, state))


class Board(BoardSim):
    """A scenario board whose every step is a loop pass of the Pico's:
    the App steps, then the Room hears the broker and polls."""

    def __init__(self, seat, port, store_dir=None, ruleset="kendall", seed=1,
                 passphrase=PASSPHRASE, t=0, tls=False, ca=None, room=ROOM, quick=False,
                 username=None, password=None):
        self.seat = seat
        self.room = None
        rng = random.Random(seed * 2 + (seat == "W")).getrandbits
        config = {"ruleset": ruleset}
        if quick:                        # quick hands on a quick board: many games
            config.update(settle_ms=40, debounce_scans=1)
        BoardSim.__init__(self, config=config, store_dir=store_dir, rng=rng, t=t)
        if quick:
            self.tick_ms = 20
        self.room = Room(self.app, room, passphrase, seat, lambda *a: None)
        self.conn = Connection(self.room, "127.0.0.1", port, tls=tls, ca=ca,
                               username=username, password=password,
                               client_id="senet-test-%s-%s-%d" % (room, seat, seed),
                               retry_s=(0.05, 0.5))
        self.hand = random.Random(seed * 7 + (seat == "W"))
        # how the other side's moves are carried out here, from a draw of its
        # own: whether one is carried by hand or set out whole (several at
        # once) depends on the network's timing, and a draw from ``hand`` for
        # each made this board's own choices, and so the game, differ from
        # run to run (a test waiting for a lost turn saw the game end first)
        self.carry = random.Random(seed * 11 + (seat == "W"))
        self.conn.start()

    def step(self):
        out = BoardSim.step(self)
        if self.room is not None:
            self.conn.drain()
            self.room.poll(self.t)
            out = self.app.flush()       # what the Room said through the App
            self.events.extend(out)
        return out

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
            if app.turn == self.seat:
                moves = app.moves
                self.play(moves[self.hand.randrange(len(moves))],
                          via=self.hand.random() < 0.5)
                return True
            move = self.room.opponent.move
            if move is not None:
                self.play(move, via=self.carry.random() < 0.5)
                return True
            return False
        if state == "nomove":
            self.wait(500)
            return True
        return False

    def close(self):
        self.conn.stop()


def one_pass(a, b, hang):
    """One pass of two boards in play: a person at either does what there is
    to do, or else both boards' clocks move on 20 ms while the network
    answers. True when someone played (the hang starts again)."""
    if a.act() | b.act():
        hang.moved()
        return True
    hang.check(a.app.state, b.app.state)
    a.wait(20)
    b.wait(20)
    return False


def words(board):
    """The game on ``board`` as the room writes it, one word an action."""
    return [w for s, w in actions(board.app.game)]


def play(a, b, until=None, max_actions=5000):
    """Both boards play on until both games are over (or ``until()``);
    returns the number of actions. A hang fails after HANG_S."""
    hang = Hang("the boards waited")
    done = until or (lambda: a.app.state == "game_over" and b.app.state == "game_over")
    n = 0
    while not done():
        moved = a.act() | b.act()
        if moved:
            n += 1
            if n > max_actions:
                raise AssertionError("no end after %d actions" % max_actions)
            continue
        hang.check(a.app.state, a.room.problem, b.app.state, b.room.problem)
        a.wait(20)
        b.wait(20)
        time.sleep(0.001)
    return n


def joined(a, b):
    """Wait (real time, bounded) until both boards have seen each other.
    Nobody touches either board meanwhile: had the hands played on while
    waiting, how far the game had gone by the join would depend on how
    fast the broker answered on this machine."""
    hang = Hang("the boards waited to join")
    while not (a.room.peer == "here" and b.room.peer == "here"
               and not a.room.opponent.blocked and not b.room.opponent.blocked):
        hang.check(a.app.state, a.room.problem, b.app.state, b.room.problem)
        a.wait(20)
        b.wait(20)
        time.sleep(0.001)


def play_all(pairs, max_actions=5000):
    """Play many rooms at once, each pair to its finish: while one pair
    waits for the network another plays. Returns the actions of each."""
    hang = Hang("the rooms waited")
    counts = [0] * len(pairs)
    live = list(range(len(pairs)))
    while live:
        moved = False
        for i in list(live):
            a, b = pairs[i]
            if a.app.state == "game_over" and b.app.state == "game_over":
                live.remove(i)
                continue
            if a.act() | b.act():
                moved = True
                counts[i] += 1
                if counts[i] > max_actions:
                    raise AssertionError("no end after %d actions" % max_actions)
        if moved:
            hang.moved()
            continue
        hang.check(len(live))
        for i in live:
            pairs[i][0].wait(20)
            pairs[i][1].wait(20)
        time.sleep(0.001)
    return counts
