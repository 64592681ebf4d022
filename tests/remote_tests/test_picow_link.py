"""A Pico W's link to its room (firmware/remote.py), step by step on CPython.

The radio is tests/fakes/network.py; the broker client and the room are small
recorders here, so each story shows what the board did and said at each
moment of a clock the test turns. The whole thing against a real broker and
the real umqtt.simple runs in test_picow_game.py.
"""

import importlib.util
import os

from firmware import remote as remote_module
from firmware.remote import RETRY_FIRST_MS, RETRY_MOST_MS, Remote, start
import paths

spec = importlib.util.spec_from_file_location(
    "network", os.path.join(paths.ROOT, "tests", "fakes", "network.py"))
network = importlib.util.module_from_spec(spec)
spec.loader.exec_module(network)
air = network.air

SETTINGS = {
    "wifi": {"ssid": "Nagyi-otthon", "password": "kecske-sajt-42"},
    "broker": {"host": "broker.example.org", "port": 1883, "tls": False},
    "room": "nagyi-and-ada",
    "passphrase": "the river floods in summer",
    "side": "W",
}
SECRETS = ("kecske-sajt-42", "the river floods in summer")


class Broker:
    """What a broker saw of the board: connections, subscriptions, messages."""

    def __init__(self):
        self.up = True
        self.refuse = None          # an MQTT refusal code to answer with
        self.clients = []
        self.published = []         # (topic, payload, retain)
        self.inbox = []             # messages waiting for the board
        self.pings = 0


class MQTTException(Exception):
    pass


def client_class(broker):
    class Client:
        """Like umqtt.simple's MQTTClient, as far as firmware/remote.py uses it."""

        def __init__(self, client_id, server, port=0, user=None, password=None,
                     keepalive=0, ssl=None):
            self.args = (client_id, server, port, keepalive, ssl)
            self.sock = None
            self.will = None
            self.topics = []
            self.cb = None
            broker.clients.append(self)

        def set_callback(self, f):
            self.cb = f

        def set_last_will(self, topic, msg, retain=False, qos=0):
            self.will = (topic, msg, retain)

        def connect(self):
            if not broker.up:
                raise OSError(111)
            if broker.refuse is not None:
                raise MQTTException(broker.refuse)
            self.sock = Sock()

        def subscribe(self, topic):
            self.topics.append(topic)

        def publish(self, topic, msg, retain=False, qos=0):
            if not broker.up or self.sock.closed:
                raise OSError(104)
            broker.published.append((topic, msg, retain))

        def check_msg(self):
            if not broker.up:
                raise OSError(-1)
            if broker.inbox:
                topic, payload = broker.inbox.pop(0)
                self.cb(topic, payload)
                return 0x30
            return None

        def ping(self):
            broker.pings += 1

    return Client


class Sock:
    closed = False

    def close(self):
        self.closed = True


class Room:
    """Records what the link gave it; sends a move when told to."""

    def __init__(self, app, room, passphrase, side, send):
        self.args = (app, room, passphrase, side)
        self.send = send
        self.heard = []
        self.polls = 0
        self.offline_calls = 0

    def topics(self):
        return ["senet/nagyi-and-ada/B", "senet/nagyi-and-ada/state"]

    def will(self):
        return "senet/nagyi-and-ada/W/presence", b'{"online": false}'

    def online(self):
        return "senet/nagyi-and-ada/W/presence", b'{"online": true}', True

    def on_message(self, topic, payload):
        self.heard.append((topic, payload))

    def poll(self, now_ms):
        self.polls += 1

    def offline(self):
        self.offline_calls += 1


def board(broker=None):
    air.reset()
    air.offer("Nagyi-otthon", "kecske-sajt-42")
    broker = broker or Broker()
    link = Remote(SETTINGS, "the app", 0, network, client_class(broker), Room)
    return link, broker


def run(link, start_ms, end_ms, step=10):
    """Poll every ``step`` ms from start to end; every event said on the way."""
    events = []
    for t in range(start_ms, end_ms, step):
        events += link.poll(t)
    return events


def test_a_pico_w_joins_its_wifi_and_its_room():
    link, broker = board()
    assert link.room.args == ("the app", "nagyi-and-ada", "the river floods in summer", "W")
    events = run(link, 0, 500)
    assert link.state == "online"
    assert events == [{"event": "remote", "what": "link", "state": "online"}]
    assert air.joins == [("Nagyi-otthon", "kecske-sajt-42")]
    client = broker.clients[0]
    assert client.args[:4] == ("senet-nagyi-and-ada-W", "broker.example.org", 1883, 60)
    assert client.args[4] is None                          # no TLS asked
    assert client.will == ("senet/nagyi-and-ada/W/presence", b'{"online": false}', True)
    assert client.topics == ["senet/nagyi-and-ada/B", "senet/nagyi-and-ada/state"]
    assert broker.published == [("senet/nagyi-and-ada/W/presence", b'{"online": true}', True)]


def test_what_arrives_goes_to_the_room_and_what_the_room_sends_goes_out():
    link, broker = board()
    run(link, 0, 500)
    broker.inbox.append((b"senet/nagyi-and-ada/B", b'{"ply": 3}'))
    run(link, 500, 600)
    assert link.room.heard == [("senet/nagyi-and-ada/B", b'{"ply": 3}')]
    link.room.send("senet/nagyi-and-ada/W", b'{"ply": 4}', False)
    assert broker.published[-1] == ("senet/nagyi-and-ada/W", b'{"ply": 4}', False)
    assert link.room.polls == 60                         # the room is polled every loop


def test_the_link_is_pinged_between_moves_so_the_broker_keeps_it():
    link, broker = board()
    run(link, 0, 45000, step=50)
    assert broker.pings == 2                         # at about 20 s and 40 s


def test_a_wrong_wifi_password_is_said_in_words_and_tried_again_later():
    link, broker = board()
    air.networks["Nagyi-otthon"] = "another-password"
    events = run(link, 0, 7000)
    offline = [e for e in events if e["state"] == "offline"]
    assert offline[0] == {"event": "remote", "what": "link", "state": "offline",
                          "why": "Wi-Fi: wrong password", "retry_s": 1}
    assert [e["retry_s"] for e in offline] == [1, 2, 4]       # waits grow
    assert broker.clients == []
    for secret in SECRETS:
        assert secret not in repr(events)


def test_a_network_out_of_reach_is_named():
    link, _ = board()
    air.networks.clear()
    events = run(link, 0, 300)
    assert events[0]["why"] == "Wi-Fi: no network of that name in reach"


def test_a_broker_that_refuses_the_board_is_named_and_retried_up_to_every_30_s():
    broker = Broker()
    broker.refuse = 5
    link, _ = board(broker)
    events = run(link, 0, 200000, step=50)
    offline = [e for e in events if e["state"] == "offline"]
    assert offline[0]["why"] == "the broker refused the board (code 5)"
    assert max(e["retry_s"] for e in offline) == RETRY_MOST_MS // 1000
    assert offline[0]["retry_s"] == RETRY_FIRST_MS // 1000
    broker.refuse = None
    events = run(link, 200000, 232000, step=50)
    assert events[-1] == {"event": "remote", "what": "link", "state": "online"}


def test_the_network_gone_for_a_minute_the_board_rejoins_and_sends_what_it_kept():
    link, broker = board()
    run(link, 0, 500)
    air.drop()
    events = run(link, 500, 600)
    assert events == [{"event": "remote", "what": "link", "state": "offline",
                       "why": "Wi-Fi: the network went away", "retry_s": 1}]
    assert link.room.offline_calls == 1                # the game waits
    link.room.send("senet/nagyi-and-ada/W", b'{"ply": 4}', False)   # a move meanwhile
    link.room.send("senet/nagyi-and-ada/state", b'{"ply": 4}', True)
    link.room.send("senet/nagyi-and-ada/state", b'{"ply": 5}', True)  # only the newest
    run(link, 600, 60500)
    assert link.state != "online"
    air.restore()
    events = run(link, 60500, 92000)
    assert events[-1] == {"event": "remote", "what": "link", "state": "online"}
    assert broker.published[-2:] == [("senet/nagyi-and-ada/W", b'{"ply": 4}', False),
                                     ("senet/nagyi-and-ada/state", b'{"ply": 5}', True)]
    assert len(air.joins) >= 2                            # joined the Wi-Fi again


def test_a_broker_restart_is_a_fault_and_the_board_comes_back_by_itself():
    link, broker = board()
    run(link, 0, 500)
    broker.up = False
    events = run(link, 500, 600)
    assert events[0]["why"] == "the broker cannot be reached (OSError -1)"
    assert broker.clients[0].sock.closed
    broker.up = True
    events = run(link, 600, 3000)
    assert events[-1] == {"event": "remote", "what": "link", "state": "online"}
    assert len(broker.clients) == 2 and len(air.joins) == 1   # the Wi-Fi stayed up


def test_unsent_messages_are_bounded_oldest_dropped():
    link, broker = board()
    air.networks.clear()
    for ply in range(20):
        link.room.send("senet/nagyi-and-ada/W", b"%d" % ply, False)
    assert [m[1] for m in link._unsent] == [b"%d" % p for p in range(12, 20)]


def test_tls_asks_for_an_ssl_context():
    class FakeSSL:
        PROTOCOL_TLS_CLIENT = 1
        CERT_NONE = 0

        class SSLContext:
            def __init__(self, protocol):
                self.protocol = protocol
                self.verify_mode = 2

    settings = dict(SETTINGS, broker={"host": "b", "port": 8883, "tls": True})
    air.reset()
    air.offer("Nagyi-otthon", "kecske-sajt-42")
    broker = Broker()
    link = Remote(settings, None, 0, network, client_class(broker), Room, ssl=FakeSSL)
    run(link, 0, 300)
    context = broker.clients[0].args[4]
    assert context.protocol == 1 and context.verify_mode == 0


def test_a_board_without_wifi_or_umqtt_plays_at_home_and_says_why(monkeypatch):
    import sys
    monkeypatch.setitem(sys.modules, "network", None)          # a plain Pico
    link, event = start(SETTINGS, None, 0)
    assert link is None
    assert event == {"event": "remote", "what": "link", "state": "off", "why": remote_module.NO_WIFI}
    monkeypatch.setitem(sys.modules, "network", network)
    monkeypatch.setitem(sys.modules, "umqtt", None)             # not installed
    link, event = start(SETTINGS, None, 0)
    assert link is None and event["why"] == remote_module.NO_MQTT


def test_a_room_that_cannot_be_made_leaves_the_board_playing_at_home(monkeypatch):
    import sys
    import types
    monkeypatch.setitem(sys.modules, "network", network)
    fake_mqtt = types.ModuleType("umqtt.simple")
    fake_mqtt.socket = object()
    fake_mqtt.MQTTClient = client_class(Broker())
    fake_umqtt = types.ModuleType("umqtt")
    fake_umqtt.simple = fake_mqtt
    monkeypatch.setitem(sys.modules, "umqtt", fake_umqtt)
    monkeypatch.setitem(sys.modules, "umqtt.simple", fake_mqtt)
    broken = types.ModuleType("firmware.room")

    class Room:
        def __init__(self, *args):
            raise ValueError("the passphrase " + SECRETS[1] + " is odd")
    broken.Room = Room
    monkeypatch.setitem(sys.modules, "firmware.room", broken)
    link, event = start(SETTINGS, None, 0)
    assert link is None
    assert event == {"event": "remote", "what": "link", "state": "off",
                     "why": "remote play could not start (ValueError)"}


def test_every_socket_umqtt_makes_gets_a_time_limit_inside_the_watchdogs():
    from firmware.board import WATCHDOG_MS
    from firmware.remote import SOCKET_S, TimedSockets

    class Socket:
        timeout = None

        def settimeout(self, seconds):
            self.timeout = seconds

    class Sockets:
        def socket(self, *args):
            return Socket()

        def getaddrinfo(self, host, port):
            return [(2, 1, 0, "", (host, port))]

    sockets = TimedSockets(Sockets())
    assert sockets.socket().timeout == SOCKET_S
    assert 2 * SOCKET_S * 1000 < WATCHDOG_MS       # connect, then its answer
    assert sockets.getaddrinfo("b", 1883)[0][-1] == ("b", 1883)


def test_tls_without_the_memory_for_it_is_said_in_words():
    # mbedtls's allocation failures reach Python as OSErrors with its codes:
    # MBEDTLS_ERR_SSL_ALLOC_FAILED, MBEDTLS_ERR_MPI_ALLOC_FAILED,
    # MBEDTLS_ERR_X509_ALLOC_FAILED
    for code in (-0x7F00, -0x0010, -0x2880):
        broker = Broker()
        link, _ = board(broker)
        Client = client_class(broker)

        def connect(self, code=code):
            raise OSError(code, "MBEDTLS error")
        link._client_class = type("Client", (Client,), {"connect": connect})
        events = run(link, 0, 300)
        assert events[0]["why"] == "not enough memory for the link (TLS needs the most)", code
