"""A USB cable between a board stand-in and `senet-board show`.

The show's Reader runs in a thread of its own, as it does beside a real
board: it writes command lines and reads event lines. The board is stepped
by the test's thread, which carries the lines across (``serve``): every
command through the real serial command path (firmware/board.py's
``app_command``, a ``hello`` answered as the board loop answers it), and
every event the board says from then on back to the Reader.
"""

import threading
import time

from firmware.board import app_command
from firmware.protocol import encode


class Cable:
    """The port object the Reader's opener hands it: ``write``, ``read``, ``close``."""

    def __init__(self):
        self._lock = threading.Lock()
        self._to_board = b""
        self._to_laptop = b""

    def write(self, data):
        with self._lock:
            self._to_board += bytes(data)

    def read(self, n):
        with self._lock:
            chunk, self._to_laptop = self._to_laptop[:n], self._to_laptop[n:]
        if not chunk:
            time.sleep(0.005)
        return chunk

    def close(self):
        pass

    def say(self, events):
        """The board's events, on their way to the laptop."""
        data = b"".join((encode(e) + "\n").encode() for e in events)
        with self._lock:
            self._to_laptop += data

    def serve(self, app, hello):
        """Carry out the commands written so far; returns their events."""
        with self._lock:
            lines = self._to_board.split(b"\n")
            self._to_board = lines.pop()
        out = []
        for line in lines:
            if line.strip() == b'{"cmd": "hello"}':
                events = [dict(hello)]
            else:
                events = app_command(app, line.decode())
            self.say(events)
            out.extend(events)
        return out


def plug_in(mirror, cable):
    """A Reader of ``mirror`` on ``cable``, started: show plugged in."""
    from host_tools.board.show import Reader
    return Reader(mirror, "/dev/ttyACM0", opener=lambda port: (port, cable)).start()
