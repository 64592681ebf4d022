"""The laptop reaches the broker over TLS (Mosquitto with a certificate
made here by ``openssl``), refuses a broker it cannot verify, and never
lets the room's passphrase or the broker's password out: not in an event,
not in a message on the wire."""

import json
import time

from mqtt_broker import Broker
from remote_tests.pair import Hang, PASSPHRASE, Board, joined, play, words
from remote_tests.test_room_faults import Stranger

PASSWORD = "broker-password-7f3a"


def test_a_game_over_tls_ends_the_same_and_no_secret_leaves_a_board(tmp_path):
    started = time.monotonic()
    with Broker(tmp_path, tls=True) as broker:
        made = time.monotonic() - started
        print("TLS certificate and broker ready in %.2f s" % made)
        a = Board("B", broker.port, seed=31, tls=True, ca=broker.ca,
                  username="grandma", password=PASSWORD)
        b = Board("W", broker.port, seed=31, tls=True, ca=broker.ca,
                  username="grandson", password=PASSWORD)
        try:
            a.setup()
            b.setup()
            joined(a, b)
            play(a, b)
            assert words(a) == words(b)
            said = json.dumps(a.events + b.events)
            for secret in (PASSWORD, PASSPHRASE):
                assert secret not in said
                assert secret not in repr(a.room.__dict__) + repr(b.room.__dict__)
        finally:
            a.close()
            b.close()


def test_the_wire_carries_no_secret(tmp_path):
    with Broker(tmp_path) as broker:
        stranger = Stranger(broker.port)
        a = Board("B", broker.port, seed=32, room="kitchen")
        b = Board("W", broker.port, seed=32, room="kitchen")
        try:
            a.setup()
            b.setup()
            joined(a, b)
            play(a, b, until=lambda: a.room.ply >= 20)
            assert stranger.seen
            for topic, payload in stranger.seen:
                assert PASSPHRASE.encode() not in payload and b"kitchen" not in payload
                assert "kitchen" not in topic
        finally:
            a.close()
            b.close()
            stranger.close()


def test_a_broker_whose_certificate_cannot_be_verified_is_refused_in_words(tmp_path):
    with Broker(tmp_path, tls=True) as broker:
        a = Board("B", broker.port, seed=33, tls=True, ca=None)
        try:
            hang = Hang("the refusal of an unverifiable broker")
            while a.conn.problem is None:
                hang.check(a.conn.up)
                a.wait(50)
            assert a.conn.problem.startswith("cannot reach the broker 127.0.0.1:%d (SSL" % broker.port)
            assert not a.conn.up
        finally:
            a.close()
