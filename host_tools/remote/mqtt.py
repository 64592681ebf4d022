"""One board's connection to the room's broker, with paho-mqtt.

paho runs its network loop in a thread of its own; everything it hears
(messages, the connection going up or down) is queued, and ``drain``
hands it to the Room in the caller's thread, between two App steps, so
the App and the Room are only ever touched by one thread.

TLS is on unless ``tls=False``: the broker's certificate is checked
against the system's authorities, or ``ca`` (a PEM file) for a broker
with a self-made one. The user name and password go to the broker only:
never into an event, a log line or the page.
"""

import queue
import ssl

try:
    import paho.mqtt.client as mqtt
except ImportError:      # pragma: no cover - said in words, not a traceback
    mqtt = None

KEEPALIVE_S = 30         # the broker sends the last will this long after silence


class Connection:
    """The broker end of a Room: ``start``, then ``drain`` every loop pass."""

    def __init__(self, room, host, port=8883, tls=True, ca=None, username=None,
                 password=None, client_id=None, retry_s=(1, 8)):
        if mqtt is None:
            raise RuntimeError("paho-mqtt is not installed: pip install paho-mqtt")
        self.room = room
        self.host, self.port = host, port
        self._inbox = queue.Queue()
        self.up = False
        self.client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2,
                                  client_id=client_id or "", clean_session=True)
        if tls:
            context = ssl.create_default_context(cafile=ca)
            self.client.tls_set_context(context)
        if username:
            self.client.username_pw_set(username, password)
        topic, payload = room.will()
        self.client.will_set(topic, payload, qos=1, retain=True)
        self.client.reconnect_delay_set(*retry_s)    # seconds, doubling from the first
        self.client.on_connect = self._on_connect
        self.client.on_disconnect = self._on_disconnect
        self.client.on_message = self._on_message
        room.send = self.send

    # -- paho's thread: only queue -------------------------------------------

    def _on_connect(self, client, userdata, flags, reason, properties=None):
        if not reason.is_failure:
            for topic in self.room.topics():
                client.subscribe(topic, qos=1)
            self._inbox.put(("up", None, None))
        else:
            self._inbox.put(("refused", str(reason), None))

    def _on_disconnect(self, client, userdata, flags, reason, properties=None):
        self._inbox.put(("down", None, None))

    def _on_message(self, client, userdata, message):
        self._inbox.put(("message", message.topic, bytes(message.payload)))

    # -- the caller's thread -----------------------------------------------

    def start(self):
        """Connect in the background (paho retries until the broker answers)."""
        self.client.connect_async(self.host, self.port, KEEPALIVE_S)
        self.client.loop_start()

    def send(self, topic, payload, retain):
        self.client.publish(topic, payload, qos=1, retain=retain)

    def drain(self, wait_s=0):
        """Hand everything heard to the Room; wait up to ``wait_s`` for the
        first item. Returns how many were handed."""
        n = 0
        try:
            item = self._inbox.get(timeout=wait_s) if wait_s else self._inbox.get_nowait()
        except queue.Empty:
            return 0
        while True:
            self._deliver(item)
            n += 1
            try:
                item = self._inbox.get_nowait()
            except queue.Empty:
                return n

    def _deliver(self, item):
        kind, topic, payload = item
        if kind == "message":
            self.room.on_message(topic, payload)
        elif kind == "up":
            self.up = True
            self.send(*self.room.online())
        elif kind == "down":
            if self.up:
                self.room.offline()
            self.up = False
        elif kind == "refused":
            self.room.app.emit({"event": "remote", "what": "refused_by_broker",
                                "message": "the broker refused the connection (%s)" % topic})

    def stop(self):
        """Leave cleanly: the other board is told, as by the last will."""
        try:
            topic, payload = self.room.will()
            self.client.publish(topic, payload, qos=1, retain=True).wait_for_publish(5)
        except Exception:
            pass
        self.client.disconnect()
        self.client.loop_stop()
