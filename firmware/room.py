"""Remote play: this board's seat in a game played through an MQTT broker.

    room = Room(app, "grandma", "a long passphrase", "B", send)
    # send(topic, payload, retain) publishes; on connecting:
    #   subscribe to room.topics(), last will room.will(),
    #   then send(*room.online())
    room.on_message(topic, payload)   # for each message received
    room.poll(now_ms)                 # once a loop pass, after app.step

The network client (firmware/remote.py on a Pico W with umqtt.simple,
host_tools/remote/ with paho-mqtt on a laptop) only moves bytes; this
module is the whole protocol, the same on every board (docs/remote.md).

The remote opponent is a player the board already serves: like the
computer (firmware/computer.py) it sits in the App's ``computer`` seat,
so a press on its turn is refused, and its move is lit on the board
(``computer_from``, ``computer_to``) for a person here to carry out. Its
throws come in with their sticks and are played through
``App.play_throw(bits=...)``. The App never learns about networks.

Seats: ``side`` "B" throws at the black light in the opening (K4, H4) as
player 1 and plays black, "W" is player 2 and plays white, as the
computer's seat does.

A game is a list of actions, each a short word: ``o3`` an opening throw,
``t4`` a throw, ``12-15`` a move, ``-`` a turn lost for want of a move
(K15, H14). The ply of an action is its place in that list, from 1. Each
throw and move goes out with its ply, the word and the position after it;
the receiver plays ply n only on top of ply n-1 and checks the position it
reaches. The whole list is also kept on the broker (retained), so a board
that was away or powered off compares it with its own saved game: one a
beginning of the other, the shorter catches up; otherwise both say so and
stop.

Every message is signed with HMAC-SHA256 (firmware/hmac256.py) under a key
made from the room's name and passphrase; the passphrase never leaves the
board, and the topics are named by the key, not by the room's name.
"""

import hashlib
import json

try:
    import os
except ImportError:          # some ports have no os: ids come from the clock
    os = None

from engine.game import Game
from engine.rules import parse_ruleset, ruleset_spec
from firmware import hmac256, ticks_diff
from firmware.computer import Computer

SIDES = ("B", "W")
_ROUNDS = 1000               # key stretching: each passphrase guess costs this many hashes
_ASK_MS = 2000               # at most one request for the state this often
_KEEP = 8                    # remote actions held ahead of the board at most


def room_key(room, passphrase):
    """The room's 32-byte key: SHA-256 of the room's name and passphrase,
    hashed again ``_ROUNDS`` times so that guessing a passphrase from a
    signed message is slow."""
    salt = ("senet room\n" + room + "\n").encode()
    secret = passphrase.encode()
    key = hashlib.sha256(salt + secret).digest()
    for _ in range(_ROUNDS):
        key = hashlib.sha256(key + secret).digest()
    return key


def actions(game, start=0):
    """The game as a list of (side, word), one per action (see above), from
    action ``start`` on: read from the game's log, no replay, so the last
    action of a long game costs no more than the first."""
    out = []
    opening = game.opening
    for k in range(start, len(opening)):
        out.append(("B" if k % 2 == 0 else "W", "o%d" % opening[k]))
    first = len(opening) > 0 and opening[-1] == 1    # the opening's 1 is ply 1's throw
    base = len(opening) - (1 if first else 0)        # where the moves' actions begin
    i = 0 if start <= base else (start - base) // 2
    at = base + 2 * i
    for side, throw, text in game.turns(i):
        if (i or not first) and at >= start:
            out.append((side, "t%d" % throw))
        if at + 1 >= start:
            out.append((side, text if text else "-"))
        i += 1
        at += 2
    if game.throw is not None and (i or not first) and at >= start:
        out.append((game.position.turn, "t%d" % game.throw))
    return out


def ply_of(game):
    """How many actions the game holds (``len(actions(game))``, counted
    without building the list: poll asks this on every loop pass)."""
    opening = game.opening
    n = len(opening) + 2 * game.ply_count
    if game.throw is not None:
        n += 1
    if opening and opening[-1] == 1:
        n -= 1
    return n


def game_from(spec, words):
    """A Game replayed from its ruleset text and action words, every
    action checked by the engine; ValueError says what is wrong."""
    try:
        game = Game(parse_ruleset(spec))
        for w in words:
            if w[0] == "o":
                v = int(w[1:])
                game.opening.append(v)
                if v == 1:
                    game.set_throw(1)
            elif w[0] == "t":
                game.set_throw(int(w[1:]))
            elif w == "-":
                game.pass_turn()
            else:
                game.play(w)
    except Exception as e:
        raise ValueError("the room's game cannot be replayed (%s)" % (e,))
    return game


def _bits(sticks):
    b = 0
    for i in range(4):
        if sticks[i]:
            b |= 1 << i
    return b


def _new_id(now_ms):
    """Eight hex digits naming a new game, so old games' messages are told apart."""
    raw = None
    if os is not None and hasattr(os, "urandom"):
        try:
            raw = os.urandom(4)
        except Exception:
            raw = None
    if raw is None:
        raw = hashlib.sha256(str(now_ms).encode()).digest()[:4]
    return "".join("%02x" % b for b in raw)


class Opponent(Computer):
    """The remote player in the App's computer seat: refuses presses on its
    turns (and while the game waits), lights its move for a person here."""

    def __init__(self, app, side):
        Computer.__init__(self, app, side)
        self.why = "waiting for the other board to join the room"
        self.blocked = True          # no throw here at all (away, mismatch, stopped)
        self.away = False
        self.room = None             # the Room, for the serial commands (firmware/usbroom.py)
        self.poll = None             # the room's loop pass, when the App's step drives it

    def throws_now(self):
        if self.blocked:
            return True
        return Computer.throws_now(self)

    def tick(self, now_ms):
        """The App's hook: keep the remote move (if any) expected and lit."""
        app = self.app
        if self.poll is not None:
            self.poll(now_ms)        # a USB board's room: no loop of its own
        if app.phase == "move" and app.turn == self.side:
            if self.move is None and app.moves is not self._expected:
                self._expected = []          # nothing counts until it arrives
                app.expect(self._expected)
            elif self.move is not None and app.lights_changed:
                self._show()
        else:
            self.move = None
            self._expected = None
        if self.away and app.lights_changed:
            led = app.compose()
            leds = app.config["leds"]
            led[leds["side_black"] if self.side == "B" else leds["side_white"]] = "nomove"

    def show(self, move):
        """Light the remote side's ``move`` and take only it."""
        self.move = move
        self._expected = [move]
        self.app.expect(self._expected)
        self._show()


class Room:
    """This board's seat in a remote game (see the module's docstring)."""

    def __init__(self, app, room, passphrase, side, send):
        if side not in SIDES:
            raise ValueError('side must be "B" or "W"')
        self.app = app
        self.side = side
        self.other = "W" if side == "B" else "B"
        self.send = send
        self._key = hmac256.pads(room_key(room, passphrase))
        self.root = "senet/" + hmac256.hexdigest(self._key, b"topic")[:16]
        self.counts = {"forged": 0, "stale": 0, "replayed": 0, "asked": 0,
                       "sent": 0, "bytes": 0}
        self.game_id = None
        self.problem = None          # why the game stopped, or None
        self.peer = None             # None never seen, "here", "away"
        self._rules_ok = False
        self._peer_rules = None
        self._rs = app.game.ruleset
        self._pending = {}           # ply -> a remote throw or move not yet played
        self._asked_at = None
        self._now = 0
        self._game = app.game
        self._words = [w for s, w in actions(app.game)]
        self.ply = len(self._words)
        self.opponent = Opponent(app, self.other)
        app.computer = self.opponent

    # -- what the network client asks --------------------------------------

    def topics(self):
        return [self.root + "/#"]

    def will(self):
        """MQTT's last will: the broker tells the other board this one is gone."""
        return self._topic("hello", self.side), self._sign(
            self._topic("hello", self.side), {"t": "away", "side": self.side})

    def online(self):
        """(topic, payload, retain) to publish on every (re)connection."""
        self._send_state()
        topic = self._topic("hello", self.side)
        return topic, self._sign(topic, {"t": "hello", "side": self.side,
                                         "rules": self._rules(), "ply": self.ply}), True

    def offline(self):
        """The connection to the broker is lost: the game waits here too
        (the other board hears of it through the last will)."""
        self.peer = None
        self._block("no connection to the room; the game waits")
        self.app.emit({"event": "remote", "what": "offline"})

    # -- messages in ----------------------------------------------------------

    def on_message(self, topic, payload):
        """One message from the broker: checked, then kept or acted on.
        Nothing from it is played before its signature is checked."""
        msg = self._open(topic, payload)
        if msg is None:
            return
        kind = msg.get("t")
        if kind == "hello":
            self._hello(msg)
        elif kind == "away":
            self._away()
        elif kind == "state":
            self._state(msg)
        elif kind == "ask":
            if self.problem is None:
                self._send_state()
        elif kind == "stop":
            self._stop(msg.get("why") or "the other board stopped the game", False)
        elif kind == "throw" or kind == "move":
            self._remote_action(msg)

    def _open(self, topic, payload):
        """The message's body as a dict, or None (refused and counted)."""
        parts = topic.split("/")
        if len(parts) != 4 or parts[0] + "/" + parts[1] != self.root:
            return None
        if parts[3] == self.side and parts[2] != "state":
            return None                      # our own message, back from the broker
        try:
            if isinstance(payload, str):
                payload = payload.encode()
            cut = payload.rindex(b"\n")
            body, mac = payload[:cut], payload[cut + 1:].decode()
            want = hmac256.hexdigest(self._key, topic.encode() + b"\n" + body)
            if not hmac256.equal(mac, want):
                raise ValueError("bad signature")
            msg = json.loads(body)
            if not isinstance(msg, dict) or msg.get("side") != parts[3]:
                raise ValueError("not this seat's message")
        except Exception:
            self._refused("forged")
            return None
        return msg

    def _refused(self, what):
        self.counts[what] += 1
        n = self.counts[what]
        if n == 1 or n % 100 == 0:           # said, but never a flood of events
            self.app.emit({"event": "remote", "what": "refused", "why": what,
                           "count": n})

    def _hello(self, msg):
        back = self.peer == "away"
        self.peer = "here"
        self.opponent.away = False
        self.app.redraw()
        self._peer_rules = msg.get("rules")
        if self._check_rules():
            self.app.emit({"event": "remote", "what": "back" if back else "joined",
                           "side": self.other})
            self._send_state()               # what this board holds, for it to compare

    def _check_rules(self):
        """Both boards must play the same ruleset and options, or no throw
        is made on either (said on both, before the first throw)."""
        rules = self._peer_rules
        if rules is None:
            return False
        if rules != self._rules():
            self._rules_ok = False
            self._block("the other board plays %s and this one %s: set both to the "
                        "same rules; no throw until they agree" % (rules, self._rules()))
            self.app.emit({"event": "remote", "what": "rules", "message": self.opponent.why})
            return False
        self._rules_ok = True
        self._unblock()
        return True

    def _away(self):
        if self.peer == "away":
            return
        self.peer = "away"
        self.opponent.away = True
        self.app.redraw()
        self._block("the opponent is away; the game waits")
        self.app.emit({"event": "remote", "what": "away", "side": self.other,
                       "message": "opponent away"})

    def _block(self, why):
        self.opponent.why = why
        self.opponent.blocked = True

    def _unblock(self):
        if self.problem is None and self.peer == "here" and self._rules_ok:
            self.opponent.blocked = False
            self.opponent.why = "it is the other board's throw"

    def _remote_action(self, msg):
        if self.problem is not None:
            return
        ply = msg.get("ply")
        if not isinstance(ply, int) or msg.get("side") != self.other:
            self._refused("forged")
            return
        g = msg.get("g")
        if g != self.game_id:
            if ply == 1 and (self.ply == 0 or self.app.game.is_over()):
                self._begin(g)               # the other board began a new game
            else:
                self._refused("replayed")
                return
        if ply <= self.ply or ply in self._pending:
            self.counts["stale"] += 1        # a repeat: already played or held
            return
        if len(self._pending) >= _KEEP:
            self._ask()
            return
        self._pending[ply] = msg
        if ply > self._known() + 1:
            self._ask()                      # an action in between went missing

    def _known(self):
        """The last ply this board holds or holds ready to play."""
        n = self.ply
        if self.app.phase == "nomove":
            n += 1                           # the turn lost (K15, H14) is certain
        while n + 1 in self._pending:
            n += 1
        return n

    def _begin(self, g):
        """A new game in the room: this board's finished one is closed."""
        if self.app.game.is_over():
            self.app.new_game()
        self._new_local(self.app.game)
        self.game_id = g

    def _ask(self):
        if self._asked_at is not None and ticks_diff(self._now, self._asked_at) < _ASK_MS:
            return
        self._asked_at = self._now
        self.counts["asked"] += 1
        self._publish("play", {"t": "ask", "side": self.side, "ply": self.ply}, False)

    def _state(self, msg):
        """A retained (or asked-for) record of the game: catch up, or stop
        if it is another game than this board's."""
        words = msg.get("game")
        if not isinstance(words, str) or msg.get("rules") != self._rules():
            return
        words = words.split()
        mine = self._words
        n = len(mine)
        if words[:n] == mine:
            if n == 0 and msg.get("over"):
                return                           # a finished game: a new one begins here
            if self.game_id is None:
                self.game_id = msg.get("g")
            if len(words) > self._known() and self.game_id == msg.get("g"):
                self._catch_up(words, msg.get("g"))
        elif mine[:len(words)] == words:
            if self.game_id is None:
                self.game_id = msg.get("g")
        elif msg.get("g") != self.game_id and (n == 0 or self.app.game.is_over()):
            return                           # a finished or older game: not ours
        elif msg.get("side") == self.side and msg.get("g") != self.game_id:
            return                           # our own record of an older game
        else:
            self._stop("this board's game and the room's differ at ply %d; "
                       "the game stops here" % (_differ(mine, words) + 1,), True)

    def _catch_up(self, words, g):
        """This board is behind the room: play on from the room's record."""
        try:
            game = game_from(self._rules(), words)
        except ValueError as e:
            self._stop(str(e), True)
            return
        self.game_id = g
        self._pending = {}
        self.app.adopt(game)
        self._game = game
        self._words = words
        self.ply = len(words)
        self.app.emit({"event": "remote", "what": "resync", "ply": self.ply})

    def _stop(self, why, tell):
        if self.problem is not None:
            return
        self.problem = why
        self._block(why)
        self._pending = {}
        self.app.emit({"event": "remote", "what": "stopped", "message": why})
        if tell:
            self._publish("play", {"t": "stop", "side": self.side, "why": why}, False)

    # -- the loop pass ----------------------------------------------------------

    def poll(self, now_ms):
        """Play the remote actions that are due, send this board's new ones."""
        self._now = now_ms
        if self.problem is not None:
            return
        app = self.app
        if app.game.ruleset is not self._rs:
            self._rs = app.game.ruleset      # a new game by other rules: said again
            self.send(*self.online())
            self._check_rules()
        self._follow()
        while self._pending:
            msg = self._pending.get(self.ply + 1)
            if msg is None:
                if app.phase == "nomove" and self.ply + 2 in self._pending:
                    app.press()              # the turn lost (K15, H14) is certain
                    if app.phase != "nomove":
                        self._follow()
                        continue
                break
            if not self._play(msg):
                break
            self._follow()

    def _play(self, msg):
        """Hand a remote action to the App if it can take it now."""
        app = self.app
        phase = app.phase
        if msg["t"] == "throw":
            if phase != "opening" and phase != "throw":
                return False
            try:
                bits = int(msg["sticks"]) & 15
            except Exception:
                bits = -1
            if bits < 0:
                self._stop("a throw from the other board has no sticks", True)
                return False
            app.play_throw(by="remote", bits=bits)
            return True
        if phase != "move" or app.turn != self.other:
            return False
        if self.opponent.move is None:
            for m in app.game.legal_moves():
                if m.text == msg.get("move"):
                    self.opponent.show(m)
                    return False             # a person here carries it out
            self._stop("the other board's move %s is not legal here" % (msg.get("move"),), True)
        return False

    def _follow(self):
        """Compare the App's game with what was last seen of it: send this
        board's new actions, check the remote ones played, refuse a takeback."""
        app = self.app
        game = app.game
        n = ply_of(game)
        if n == self.ply and game is self._game:
            return
        if game is not self._game and n == 0 and (self.ply == 0 or self._game.is_over()):
            self._new_local(game)
            return
        if n < self.ply or game is not self._game and not self._extends(game):
            self._put_back()
            return
        acts = actions(game, self.ply)
        mine = False
        for k in range(self.ply, n):
            side, word = acts[k - self.ply]
            self._words.append(word)
            msg = self._pending.pop(k + 1, None)
            if side == self.side:
                if word != "-":
                    self._send_action(k + 1, word, game, k + 1 == n)
                mine = word[0] != "o" and word[0] != "t"    # a move or a lost turn
            elif word[0] != "o" and word[0] != "t":
                self.opponent.move = None    # the remote move is played: no longer lit
            if side != self.side and msg is not None and (msg.get("a") != word or (
                    k + 1 == n and msg.get("pos") != game.position.text())):
                self._stop("the other board's %s was played here as %s" % (
                    msg.get("a"), word), True)
        self._game = game
        self.ply = n
        if game.is_over() or mine and game.throw is None and game.position.turn != self.side:
            self._send_state()               # this board's turn, or the game, is over: kept

    def _new_local(self, game):
        """A new game begun on this board (a long press after the end)."""
        self._game = game
        self._words = []
        self.ply = 0
        self._pending = {}
        self.game_id = None          # the first throw names the new game

    def _extends(self, game):
        words = self._words
        acts = actions(game)
        if len(acts) < len(words):
            return False
        for i in range(len(words)):
            if acts[i][1] != words[i]:
                return False
        return True

    def _put_back(self):
        """A takeback or a new game in the middle cannot be sent to the
        other board: the room's game is put back on this one."""
        game = game_from(self._rules(), self._words)
        self.app.emit({"event": "notice", "message":
                       "no takeback or new game while a remote game goes on"})
        self.app.adopt(game)
        self._game = game

    # -- messages out --------------------------------------------------------

    def _send_action(self, ply, word, game, last):
        if ply == 1 and self.game_id is None:
            self.game_id = _new_id(self._now)
        msg = {"side": self.side, "g": self.game_id, "ply": ply, "a": word}
        if word[0] == "o" or word[0] == "t":
            msg["t"] = "throw"
            sticks = self.app.sticks if last else None
            msg["sticks"] = _bits(sticks) if sticks else _value_bits(int(word[1:]))
        else:
            msg["t"] = "move"
            msg["move"] = word
        if last:
            msg["pos"] = game.position.text()
        self._publish("play", msg, False)

    def _send_state(self):
        self._publish("state", {"t": "state", "side": self.side, "g": self.game_id,
                                "ply": self.ply, "rules": self._rules(),
                                "over": self._game.is_over(),
                                "game": " ".join(self._words)}, True)

    def _publish(self, kind, msg, retain):
        topic = self._topic(kind, self.side)
        payload = self._sign(topic, msg)
        self.counts["sent"] += 1
        self.counts["bytes"] += len(payload)
        self.send(topic, payload, retain)

    def _sign(self, topic, msg):
        body = json.dumps(msg).encode()
        return body + b"\n" + hmac256.hexdigest(self._key, topic.encode() + b"\n" + body).encode()

    def _topic(self, kind, side):
        return self.root + "/" + kind + "/" + side

    def _rules(self):
        return ruleset_spec(self.app.game.ruleset)


def _value_bits(value):
    """Stick faces for a throw known only by value (C3): ``value`` white
    sides up, or none for the ruleset's zero throw (5 or 6)."""
    if value >= 5:
        return 0
    return (1 << value) - 1


def _differ(a, b):
    for i in range(min(len(a), len(b))):
        if a[i] != b[i]:
            return i
    return min(len(a), len(b))
