"""A board's seat in a room, settled from the command line: which room,
which side, which broker, and the secrets from the environment (never
from an argument, which any user of the machine can read in the process
list). Used by ``senet-board sim --room`` and ``senet-board link``.

    SENET_ROOM_PASSPHRASE   the room's passphrase (asked for when missing
                            and a person is at the terminal)
    SENET_BROKER_USER, SENET_BROKER_PASSWORD   the broker's account, if any
"""

import getpass
import os
import sys

DEFAULT_BROKER = "test.mosquitto.org"


def add_room_arguments(parser, required=False):
    parser.add_argument("--room", metavar="ROOM", required=required,
                        help="play a remote game in this room through an MQTT broker "
                             "(docs/remote.md)")
    parser.add_argument("--side", choices=("B", "W"), default=None, metavar="SIDE",
                        help="with --room: this board's seat, B (throws first in the "
                             "opening, plays black) or W; the other board takes the other")
    parser.add_argument("--broker", default=DEFAULT_BROKER, metavar="HOST[:PORT]",
                        help="with --room: the MQTT broker (default %(default)s, TLS on 8883)")
    parser.add_argument("--no-tls", action="store_true",
                        help="with --room: talk to the broker without TLS (a broker "
                             "on your own network only)")
    parser.add_argument("--ca", metavar="FILE",
                        help="with --room: the authority (PEM) that signed the broker's "
                             "certificate, for a broker with a self-made one")


class Settings:
    """Everything a Connection needs, checked; ``problem`` says what is wrong."""

    def __init__(self, args, environ=None, ask=None):
        env = os.environ if environ is None else environ
        self.room = args.room
        self.side = args.side
        self.tls = not args.no_tls
        self.ca = args.ca
        self.username = env.get("SENET_BROKER_USER") or None
        self.password = env.get("SENET_BROKER_PASSWORD") or None
        self.passphrase = env.get("SENET_ROOM_PASSPHRASE") or None
        self.host, self.port, self.problem = _broker(args.broker, self.tls)
        if self.problem is None:
            self.problem = self._check(ask)

    def _check(self, ask):
        if not self.room or len(self.room) > 64:
            return "--room must be the room's name, 1 to 64 characters, the same on both boards"
        if self.side is None:
            return "--side is needed with --room: B on one board, W on the other"
        if self.ca is not None and not os.path.isfile(self.ca):
            return "--ca %s: no such file" % self.ca
        if self.passphrase is None and ask is not None:
            self.passphrase = ask()
        if not self.passphrase or not 8 <= len(self.passphrase) <= 128:
            return ("the room's passphrase must be 8 to 128 characters: set "
                    "SENET_ROOM_PASSPHRASE or type it when asked")
        return None

    def __repr__(self):                  # never the secrets, whatever prints this
        return "Settings(room=%r, side=%r, broker=%s:%d, tls=%r)" % (
            self.room, self.side, self.host, self.port, self.tls)


def ask_passphrase():
    """The passphrase typed at the terminal (not echoed), or None without one."""
    if not sys.stdin.isatty():
        return None
    try:
        return getpass.getpass("the room's passphrase: ")
    except (EOFError, KeyboardInterrupt):
        return None


def _broker(text, tls):
    host, sep, port = text.rpartition(":")
    if not sep:
        host, port = text, ""
    if not host or " " in host:
        return None, 0, "--broker must be HOST or HOST:PORT"
    if not port:
        return host, 8883 if tls else 1883, None
    if not port.isdigit() or not 1 <= int(port) <= 65535:
        return None, 0, "--broker's port must be a whole number from 1 to 65535"
    return host, int(port), None


def connect(settings, room, client_id=None, retry_s=(1, 8)):
    """A started Connection of ``room`` (a firmware.room.Room) to the broker."""
    from host_tools.remote.mqtt import Connection
    conn = Connection(room, settings.host, settings.port, tls=settings.tls, ca=settings.ca,
                      username=settings.username, password=settings.password,
                      client_id=client_id, retry_s=retry_s)
    conn.start()
    return conn
