"""A room (firmware/room.py) reached over USB: a laptop running
``senet-board link`` is the board's network card.

    {"cmd": "join", "room": "...", "passphrase": "...", "side": "B"}
        -> {"event": "room", "what": "joined", "topics": [...], "will": [topic, payload]}
    {"cmd": "room", "online": true}      the laptop reached the broker
        -> {"event": "room", "topic": ..., "payload": ..., "retain": true}, ...
    {"cmd": "state"}                     -> its ``state`` event carries the seat:
        "remote": {"side": "W", "online": true, "peer": "here", "stopped": false}
    {"cmd": "room", "topic": ..., "payload": ..., "more": true}   a message heard,
        in pieces of a command line each (a game's record is longer than one)
    {"cmd": "room", "online": false}     the laptop lost the broker

Every message the room sends goes out as a ``room`` event for the laptop to
publish. The passphrase stays on the board: only signed messages go out.
The room is polled by the App's own step (the opponent's seat), as the USB
board's loop knows nothing of it.
"""

from firmware.room import Room

_MAX_MESSAGE = 8192          # a message in pieces longer than this is dropped


class UsbRoom(Room):
    """A Room whose messages go out as serial events and whose poll rides
    on the App's step."""

    def __init__(self, app, room, passphrase, side):
        Room.__init__(self, app, room, passphrase, side, self._emit)
        self.opponent.poll = self.poll
        self.linked = False          # the laptop has reached the broker
        self._parts = []
        self._size = 0

    def seat(self):
        """This board's seat, as its ``state`` reply carries it for a page
        opened after the join: the side played far away, whether the room is
        reached, whether the other board is here, whether the game stopped.
        Never the passphrase or the topics' key."""
        return {"side": self.other, "online": self.linked, "peer": self.peer,
                "stopped": self.problem is not None}

    def _emit(self, topic, payload, retain):
        self.app.emit({"event": "room", "topic": topic, "payload": payload.decode(),
                       "retain": retain})

    def piece(self, topic, payload, more):
        """One piece of a message heard; the whole is handed on at the last."""
        self._parts.append(payload)
        self._size += len(payload)
        if self._size > _MAX_MESSAGE:
            self._parts, self._size = [], 0
            self.counts["forged"] += 1
            return
        if not more:
            whole = "".join(self._parts)
            self._parts, self._size = [], 0
            self.on_message(topic, whole.encode())


def command(app, cmd):
    """The ``join`` and ``room`` commands (checked by firmware/protocol.py)."""
    room = getattr(app.computer, "room", None)
    if cmd["cmd"] == "join":
        if room is not None or app.computer is not None:
            app.emit({"event": "error", "message": "join: this board already has an opponent"})
            return
        room = UsbRoom(app, cmd["room"], cmd["passphrase"], cmd["side"])
        room.opponent.room = room
        topic, payload = room.will()
        app.emit({"event": "room", "what": "joined", "side": room.side,
                  "topics": room.topics(), "will": [topic, payload.decode()]})
        return
    if room is None:
        app.emit({"event": "error", "message": "room: join a room first"})
    elif "online" in cmd:
        room.linked = bool(cmd["online"])
        if cmd["online"]:
            room._emit(*room.online())
        else:
            room.offline()
    else:
        room.piece(cmd["topic"], cmd["payload"], cmd.get("more", False))
