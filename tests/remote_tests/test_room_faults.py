"""What goes wrong between two boards in a room, each against a real
Mosquitto broker: after every fault both boards hold the same game and
play it to a finish. Each test prints how long the boards took to find
each other again after the fault ended (real seconds: printed, never
judged, as a loaded machine may be slow)."""

import json
import os
import shutil
import time

import paho.mqtt.client as mqtt

from firmware import hmac256
from firmware.room import room_key
from mqtt_broker import broker  # noqa: F401  (the fixture)
from remote_tests.cut import Wire
from remote_tests.pair import HANG_S, Hang, PASSPHRASE, ROOM, Board, joined, play, words


def both(seed, port_a, port_b=None, ruleset_b="kendall", store_a=None):
    a = Board("B", port_a, seed=seed, store_dir=store_a)
    b = Board("W", port_b or port_a, seed=seed, ruleset=ruleset_b)
    a.setup()
    b.setup()
    return a, b


def finish(a, b):
    play(a, b)
    assert words(a) == words(b)
    assert a.app.position == b.app.position
    assert a.app.game.winner == b.app.game.winner
    assert a.room.problem is None and b.room.problem is None


def rejoined(what, a, b, since):
    joined(a, b)
    print("RECOVERY %s: %.2f s" % (what, time.monotonic() - since))


def wait_real(condition, boards):
    """Step the boards (10 ms of their time a pass) until ``condition()``."""
    hang = Hang("waiting for the boards")
    while not condition():
        hang.check([b.app.state for b in boards])
        for board in boards:
            board.wait(10)
        time.sleep(0.002)


class Stranger:
    """Someone else on the same broker: sees every topic, publishes anything."""

    def __init__(self, port):
        self.seen = []
        self.client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2)
        self.client.on_message = lambda c, u, m: self.seen.append((m.topic, bytes(m.payload)))
        self.client.connect("127.0.0.1", port)
        self.client.subscribe("senet/#", qos=1)
        self.client.loop_start()

    def publish(self, topic, payload):
        self.client.publish(topic, payload, qos=1).wait_for_publish(HANG_S)

    def close(self):
        self.client.disconnect()
        self.client.loop_stop()


def closing(*things):
    for t in things:
        t.close()


def test_the_broker_restarted_in_the_middle_of_a_game(broker):  # noqa: F811
    a, b = both(21, broker.port)
    try:
        joined(a, b)
        play(a, b, until=lambda: a.room.ply >= 40)
        broker.restart()
        since = time.monotonic()
        wait_real(lambda: a.room.peer != "here" or b.room.peer != "here", [a, b])
        rejoined("broker restarted", a, b, since)
        finish(a, b)
    finally:
        closing(a, b)


def test_one_board_off_the_network_for_a_minute_waits_and_goes_on(broker):  # noqa: F811
    wire = Wire(broker.port)
    a, b = both(22, wire.port, broker.port)
    try:
        joined(a, b)
        play(a, b, until=lambda: a.room.ply >= 30)
        before = b.room.ply
        wire.cut()
        wait_real(lambda: b.room.peer == "away" and a.room.opponent.blocked, [a, b])
        assert b.last("remote")["message"] == "opponent away"
        leds = b.app.config["leds"]
        b.wait(100)
        assert b.app.led_roles[leds["side_black"]] == "nomove"    # A's light: away
        b.clear().press()
        assert b.last("notice")["message"] == "throw ignored: the opponent is away; the game waits"
        a.wait(60000)                     # a minute of the board's own time
        a.press()
        assert b.room.ply == before
        wire.mend()
        since = time.monotonic()
        rejoined("a minute off the network", a, b, since)
        finish(a, b)
    finally:
        closing(a, b, wire)


def test_a_board_powered_off_and_on_resumes_from_its_saves_then_catches_up(broker, tmp_path):  # noqa: F811
    wire = Wire(broker.port)
    store = str(tmp_path / "store")
    os.mkdir(store)
    a, b = both(23, wire.port, broker.port, store_a=store)
    try:
        joined(a, b)
        play(a, b, until=lambda: a.room.ply >= 30 and a.app.state == "throw")
        a.wait(200)
        older = str(tmp_path / "older")
        shutil.copytree(store, older)      # what the flash held a few actions ago
        play(a, b, until=lambda: a.room.ply >= 36)
        wire.cut()                         # the power goes: no goodbye, the will
        a.conn.client.loop_stop()
        occ, t = a.occ, a.t
        shutil.rmtree(store)
        shutil.copytree(older, store)      # the last saves did not reach the flash
        wire.mend()
        since = time.monotonic()
        a = Board("B", wire.port, seed=23, store_dir=store, t=t + 5000)
        a.occ = occ                        # the pieces stay where they stood
        assert a.app.state == "setup" and a.room.ply < 36
        rejoined("powered off and on", a, b, since)
        # the person at the board sets the pieces out as its lights ask,
        # for the game it resumed and then for the one it catches up to
        play(a, b, until=lambda: a.room.ply >= 36)
        assert any(e.get("what") == "resync" for e in a.events_of("remote"))
        finish(a, b)
    finally:
        closing(a, b, wire)


def test_a_duplicated_message_is_played_once(broker):  # noqa: F811
    stranger = Stranger(broker.port)
    a, b = both(24, broker.port)
    try:
        joined(a, b)
        play(a, b, until=lambda: a.room.ply >= 20 and a.room.ply == b.room.ply
             and a.app.state == b.app.state == "throw")
        plays = [m for m in stranger.seen if "/play/B" in m[0]]
        before = words(b)
        for topic, payload in plays[-4:]:
            stranger.publish(topic, payload)     # the broker delivers them twice
        wait_real(lambda: b.room.counts["stale"] >= 4, [a, b])
        assert words(b) == before
        finish(a, b)
    finally:
        closing(a, b, stranger)


def test_messages_out_of_order_are_put_back_in_order(broker):  # noqa: F811
    a, b = both(25, broker.port)
    held = []
    send = a.conn.send

    def swapped(topic, payload, retain):
        """A's next two actions reach the broker the wrong way round."""
        if held is not None and "/play/" in topic and len(held) < 1:
            held.append((topic, payload, retain))
            return
        send(topic, payload, retain)
        if held and "/play/" in topic:
            send(*held.pop())

    try:
        joined(a, b)
        play(a, b, until=lambda: a.room.ply >= 20 and a.app.state == "throw"
             and not a.room.opponent.throws_now())
        a.room.send = swapped
        a.press()
        play(a, b, until=lambda: not held and b.room.ply >= a.room.ply)
        a.room.send = send
        finish(a, b)
    finally:
        closing(a, b)


def test_forged_altered_and_replayed_messages_are_refused_and_counted(broker):  # noqa: F811
    stranger = Stranger(broker.port)
    a, b = both(26, broker.port)
    try:
        joined(a, b)
        play(a, b, until=lambda: a.room.ply >= 20 and a.app.state == "throw"
             and not a.room.opponent.throws_now())
        topic = a.room.root + "/play/B"
        body = {"t": "throw", "side": "B", "g": a.room.game_id, "ply": a.room.ply + 1,
                "a": "t4", "sticks": 15, "pos": a.app.position}
        raw = json.dumps(body).encode()
        wrong = room_key(ROOM, "a guessed passphrase")
        good = room_key(ROOM, PASSPHRASE)
        old_game = dict(body, g="0badc0de")
        old_raw = json.dumps(old_game).encode()
        forged = [
            raw + b"\n" + hmac256.hexdigest(wrong, topic.encode() + b"\n" + raw).encode(),
            raw.replace(b'"t4"', b'"t2"') + b"\n" + hmac256.hexdigest(
                good, topic.encode() + b"\n" + raw).encode(),    # altered after signing
            b"not a message at all",
        ]
        replayed = old_raw + b"\n" + hmac256.hexdigest(
            good, topic.encode() + b"\n" + old_raw).encode()      # another game's throw
        before = words(b)
        for payload in forged + [replayed]:
            stranger.publish(topic, payload)
        wait_real(lambda: b.room.counts["forged"] >= 3 and b.room.counts["replayed"] >= 1,
                  [b])
        assert words(b) == before and b.room.problem is None
        assert b.events_of("remote")[-1]["what"] == "refused"
        finish(a, b)
    finally:
        closing(a, b, stranger)


def test_both_boards_throwing_at_once_make_one_throw(broker):  # noqa: F811
    a, b = both(27, broker.port)
    try:
        joined(a, b)
        # joining, the players may already throw in the opening (a board throws
        # once it sees the other): wait until both boards have every throw, or
        # each would say the throw is the other's while one is on the way
        wait_real(lambda: a.room.ply == b.room.ply, [a, b])
        for n in range(3):               # the opening, then two turns later on
            if n:
                play(a, b, until=lambda: a.app.state == "throw" and b.app.state == "throw"
                     and a.room.ply == b.room.ply and a.room.ply > 10 * n)
            before = a.room.ply
            a.clear()
            b.clear()
            a.button = b.button = True
            a.wait(120)
            b.wait(120)
            a.button = b.button = False
            a.wait(60)
            b.wait(60)
            throws = a.events_of("throw") + b.events_of("throw")
            refused = a.events_of("notice") + b.events_of("notice")
            assert len(throws) == 1 and len(refused) == 1, (throws, refused)
            assert refused[0]["message"] == "throw ignored: it is the other board's throw"
            wait_real(lambda: b.room.ply == a.room.ply == before + 1, [a, b])
        finish(a, b)
    finally:
        closing(a, b)


def test_a_board_on_another_ruleset_is_refused_before_the_first_throw(broker):  # noqa: F811
    a, b = both(28, broker.port, ruleset_b="hungarian")
    try:
        wait_real(lambda: a.last("remote") and b.last("remote")
                  and a.last("remote")["what"] == "rules"
                  and b.last("remote")["what"] == "rules", [a, b])
        assert "kendall" in a.last("remote")["message"]
        assert "hungarian" in b.last("remote")["message"]
        a.press()
        b.press()
        assert a.app.throw is None and not a.app.game.opening and not b.app.game.opening
        since = time.monotonic()
        b.events.extend(b.app.command({"cmd": "new", "ruleset": "kendall"}))
        b.setup()
        rejoined("ruleset agreed", a, b, since)
        finish(a, b)
    finally:
        closing(a, b)


def test_a_lost_turn_waits_while_the_opponent_is_away_and_the_board_stays_alive(broker):  # noqa: F811
    """The other board's next throw arrives while this board shows its own
    lost turn (K15, H14) and believes the other away: the room must not
    spin pressing a button the App refuses (the board would freeze): it waits."""
    import threading
    stranger = Stranger(broker.port)
    a, b = both(38, broker.port)
    try:
        joined(a, b)
        play(a, b, until=lambda: b.app.state == "nomove" and b.app.turn == "W")
        root, good = b.room.root, room_key(ROOM, PASSPHRASE)

        def signed(topic, body):
            raw = json.dumps(body).encode()
            return raw + b"\n" + hmac256.hexdigest(good, topic.encode() + b"\n" + raw).encode()
        stranger.publish(root + "/hello/B", signed(root + "/hello/B", {"t": "away", "side": "B"}))
        wait_real(lambda: b.room.peer == "away", [b])
        ply = b.room.ply
        topic = root + "/play/B"
        stranger.publish(topic, signed(topic, {"t": "throw", "side": "B", "g": b.room.game_id,
                                               "ply": ply + 2, "a": "t2", "sticks": 3,
                                               "pos": b.app.position}))
        hang = Hang("the stranger's throw heard")
        while ply + 2 not in b.room._pending:      # heard, not yet played
            hang.check(ply)
            b.conn.drain(0.05)
        done = threading.Event()
        threading.Thread(target=lambda: (b.room.poll(b.t), done.set()), daemon=True).start()
        assert done.wait(HANG_S), "the room spun on a refused press"
    finally:
        closing(a, b, stranger)


def test_a_board_whose_line_was_cut_closes_without_an_error(broker):  # noqa: F811
    # A power cut's line (drop) then the program closing: nothing is left to
    # say goodbye on, and the broker's last will tells the other board.
    a = Board("B", broker.port, seed=31)
    wait_real(lambda: a.conn.up, [a])
    a.conn.drop()
    a.close()
    assert not a.conn.up
