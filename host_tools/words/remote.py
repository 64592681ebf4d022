"""The opponent far away, in words: a board in a remote game (docs/remote.md).

A board in a room seats the other board's player where the computer would
sit (firmware/room.py), so its lights and its `new` event show the remote
side as the computer's. The page must not call a grandmother in another
city "the computer": the room's `remote` events, the `room` events of a
board that `senet-board link` carries (and the seat in its `state` reply,
for a page plugged in later), and the throws `"by": "remote"`
(docs/protocol.md) tell that the opponent is a player far away, and this
module words their throws and moves, their presence (away, back, this
board offline), two boards set to different rules, and a game both boards
stopped because they held different games.

Like explain.py it writes no sentence: it picks keys of i18n/<lang>.json.
"""

import re

_RULES = re.compile(r"plays (\S+) and this one (\S+):")

SIDES = {"B": "W", "W": "B"}       # a seat, and the other board's
PRESENCE = {"waiting": "status.remote_waiting", "joined": "status.remote_joined", "back": "status.remote_back",
            "away": "status.remote_away", "offline": "status.remote_offline"}

# The computer's words, and the far opponent's in their place.
KEYS = {"do.computer_throws.": "do.remote_throws.", "do.computer": "do.remote",
        "do.computer_off": "do.remote_off", "status.threw_first.computer":
        "status.threw_first.remote"}


class Far:
    """What the events told of the room: that there is one, whether the
    other board is here, and whether the two boards' rules differ."""

    def __init__(self):
        self.room = False        # this board plays in a room
        self.side = None         # the side the far opponent plays, once told
        self.presence = None     # "waiting" (for the other board), "joined", "back",
        #                          "away" (the other board), "offline" (this one)
        self.rules = None        # {"theirs", "ours"} while the two boards' rules differ
        self.stopped = False     # the two boards' games differed: both stopped (no throw)

    def event(self, event):
        name = event.get("event")
        if name == "room" or (name == "throw" and event.get("by") == "remote"):
            self.room = True
        if name == "room" and event.get("what") == "joined" and event.get("side") in SIDES:
            self.side = SIDES[event["side"]]     # this board's seat taken: the other is theirs
            self.presence = "waiting"
            self.stopped = False             # a seat taken afresh: a room without the stop
        if name in ("throw", "move", "pass") and self.presence in ("waiting", "joined", "back"):
            self.presence = None             # said once, until the game goes on
        elif name == "new":
            self.rules = None                # a new game may be by the other's rules
        elif name == "remote":
            self._remote(event)
        elif name == "state" and isinstance(event.get("remote"), dict):
            self._seat(event["remote"])

    def _seat(self, seat):
        """A board that runs a room through `link` says its seat in every
        ``state`` reply: a page opened after the join learns the room from
        it, and what it missed of the other board's presence."""
        self.room = True
        if seat.get("side") in SIDES:
            self.side = seat["side"]
        self.stopped = bool(seat.get("stopped"))
        if not seat.get("online"):
            self.presence = "offline"
        elif seat.get("peer") == "away":
            self.presence = "away"
        elif seat.get("peer") is None:
            self.presence = "waiting"
        elif self.presence in ("waiting", "away", "offline"):
            self.presence = None             # the other board is here now

    def _remote(self, event):
        what = event.get("what")
        if what == "link":                   # a Pico W's own Wi-Fi and broker
            self.room = True
            return
        self.room = True
        if what == "stopped":
            self.stopped = True              # the room's rule: never two games
        if what in ("joined", "back", "away", "offline"):
            self.presence = what
        if what in ("joined", "back", "away") and event.get("side") in SIDES:
            self.side = event["side"]
        if what in ("joined", "back"):
            self.rules = None                # it joins only by the same rules
        elif what == "rules":
            found = _RULES.search(event.get("message") or "")
            self.rules = ({"theirs": found.group(1), "ours": found.group(2)} if found
                          else {"theirs": "?", "ours": "?"})

    def waits(self):
        """Does the game wait for the room (no throw on either board)?"""
        return (self.presence in ("waiting", "away", "offline") or self.rules is not None
                or self.stopped)

    def status(self):
        """The room's news, said beside whose turn it is."""
        if not self.room:
            return []
        if self.stopped:                     # the rest no longer matters: it will not go on
            return [["status.remote_stopped", {}]]
        words = []
        if self.rules is not None:
            words.append(["status.remote_rules", dict(self.rules)])
        if self.presence is not None:
            words.append([PRESENCE[self.presence], {}])
        return words

    def waiting(self):
        """The instruction while the game waits, and its kind."""
        if self.stopped:
            return "stopped", [["do.remote_stopped", {}]]
        if self.rules is not None:
            return "rules", [["do.remote_rules", {}]]
        return "away", [["do.remote_away", {}]]


def opponent(key, args, throw=None, side=""):
    """The far opponent's sentence in place of the computer's ``key`` (and
    ``side``): their throw is told with their move, as they made both on
    their own board."""
    args = dict(args)
    if throw is not None and key in ("do.computer", "do.computer_off"):
        args["value"] = throw
    return [KEYS.get(key, key) + side, args]


def threw(throw):
    """The far opponent's throw, said as theirs."""
    return ["status.remote_threw", {"value": throw}]
