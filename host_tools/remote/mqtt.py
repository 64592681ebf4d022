"""One board's connection to the room's broker, with paho-mqtt.

The connection runs in the caller's own loop, with no thread of its own:
``drain`` is called between two App steps, lets paho read and write what
is due (``Client.loop``), connects again when the line was lost (waiting
longer each time, up to ``retry_s[1]``) and hands what was heard to the
Room at once. So the App and the Room are only ever touched by one thread.

TLS is on unless ``tls=False``: the broker's certificate is checked
against the system's authorities, or ``ca`` (a PEM file) for a broker
with a self-made one. The user name and password go to the broker only:
never into an event, a log line or the page.
"""

import ssl
import time

try:
    import paho.mqtt.client as mqtt
except ImportError:      # said in words by the command that needs it
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
        self.up = False
        self.problem = None              # why the last attempt failed, in words
        self._retry = retry_s
        self._delay = retry_s[0]
        self._next_try = 0.0
        self._started = False
        self._open = False               # a socket to the broker is open (CONNACK or not)
        self.client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2,
                                  client_id=client_id or "", clean_session=True)
        if tls:
            self.client.tls_set_context(ssl.create_default_context(cafile=ca))
        if username:
            self.client.username_pw_set(username, password)
        topic, payload = room.will()
        self.client.will_set(topic, payload, qos=1, retain=True)
        self.client.on_connect = self._on_connect
        self.client.on_disconnect = self._on_disconnect
        self.client.on_message = self._on_message
        room.send = self.send

    # -- paho's callbacks, called from drain ------------------------------------

    def _on_connect(self, client, userdata, flags, reason, properties=None):
        if reason.is_failure:
            self.problem = "the broker refused the connection (%s)" % (reason,)
            return
        self.problem = None
        self.up = True
        self._delay = self._retry[0]
        for topic in self.room.topics():
            client.subscribe(topic, qos=1)
        hello = self.room.online()        # None: a board on USB sends its own
        if hello is not None:
            self.send(*hello)

    def _on_disconnect(self, client, userdata, flags, reason, properties=None):
        self._lost()

    def _on_message(self, client, userdata, message):
        self.room.on_message(message.topic, bytes(message.payload))

    # -- the caller's loop -----------------------------------------------------

    def start(self):
        """Begin connecting (the first ``drain`` makes the attempt)."""
        self._started = True
        self._next_try = 0.0

    def send(self, topic, payload, retain):
        self.client.publish(topic, payload, qos=1, retain=retain)

    def drain(self, wait_s=0):
        """Read and write what is due, waiting up to ``wait_s`` for the
        network; connect again when it is time to."""
        if not self._started:
            return
        if self._open or self._connecting():
            rc = self.client.loop(timeout=wait_s)
            if rc != mqtt.MQTT_ERR_SUCCESS:
                self._lost()
        elif wait_s:
            time.sleep(wait_s)

    def _connecting(self):
        """Try to connect if it is time; True while a connection is open."""
        now = time.monotonic()
        if now < self._next_try:
            return False
        self._next_try = now + self._delay
        self._delay = min(self._delay * 2, self._retry[1])
        try:
            self.client.connect(self.host, self.port, KEEPALIVE_S)
        except (OSError, ssl.SSLError) as e:
            self.problem = "cannot reach the broker %s:%d (%s)" % (
                self.host, self.port, e.__class__.__name__)
            return False
        self._open = True
        return True

    def _lost(self):
        if self.up:
            self.room.offline()
        self.up = False
        self._open = False

    def drop(self):
        """The line cut without a goodbye (a power cut): the broker sends
        the last will once it notices."""
        sock = self.client.socket()
        if sock is not None:
            try:
                sock.close()
            except OSError:
                pass
        self._started = False
        self.up = False
        self._open = False

    def stop(self):
        """Leave cleanly: the other board is told, as by the last will. After
        ``drop`` there is no line to say it on: the broker's will does."""
        if self._open and self.client.is_connected():
            topic, payload = self.room.will()
            info = self.client.publish(topic, payload, qos=1, retain=True)
            deadline = time.monotonic() + 5
            while not info.is_published() and time.monotonic() < deadline:
                self.client.loop(timeout=0.05)
            self.client.disconnect()
            self.client.loop(timeout=0.05)
        self._started = False
