"""`senet-board sim --room`: the simulator's board as one seat of a room,
so a person at a laptop plays someone at a wooden board.

The Sim (host_tools/sim/board.py) builds its App through a factory; this
one builds an App whose every step is followed by the room's loop pass:
the connection is drained and the Room polls, as a Pico W's main loop
does. A power cut on the page boots a new App: the old connection is
dropped without a goodbye (the broker sends its last will, as for a real
board) and a new Room joins from the App's saved game.
"""

from firmware.room import Room
from host_tools.remote.seat import connect


class PageSeat:
    """The page's seat: makes the Sim's Apps and keeps one Room on the newest."""

    def __init__(self, settings, connect=connect):
        self.settings = settings
        self._connect = connect
        self.room = None
        self.conn = None

    def app_factory(self, base):
        """A factory for ``Sim(app_factory=...)`` making ``base`` Apps in the room."""
        seat = self

        class RemoteApp(base):
            def step(self, now_ms, occupancy, button):
                events = base.step(self, now_ms, occupancy, button)
                seat.poll(self, now_ms)      # what it says comes with the next step
                return events

        def factory(config=None, store_dir=None, rng=None):
            app = RemoteApp(config=config, store_dir=store_dir, rng=rng)
            self.attach(app)
            return app
        return factory

    def attach(self, app):
        """A new App (a boot): its own Room; the old one's line is simply cut."""
        if self.conn is not None:
            self.conn.drop()
        s = self.settings
        self.room = Room(app, s.room, s.passphrase, s.side, lambda *a: None)
        # The seat taken, said as a USB board answers `join` (docs/protocol.md):
        # the page knows from it that its opponent is a player far away.
        app.emit({"event": "room", "what": "joined", "side": s.side,
                  "topics": self.room.topics()})
        self.conn = self._connect(s, self.room, client_id="senet-page-%s" % s.side)

    def poll(self, app, now_ms):
        if self.room is not None and self.room.app is app:
            self.conn.drain()
            self.room.poll(now_ms)

    def close(self):
        if self.conn is not None:
            self.conn.stop()
