"""Remote play on a Pico W: the board's side of a room on an MQTT broker.

firmware/board.py loads this module only when config.json has a "remote"
section (docs/config.md), so a plain Pico never holds its code. It does the
radio and the broker; the game's side of the room (what is sent, what is
accepted, what the App is shown) is firmware/room.py's ``Room``, which talks
to the App through its public interface only.

What this module does, a little at a time between scans so the loop never
waits long:

- joins the Wi-Fi named in config.json with ``network.WLAN`` (the join runs
  in the radio; the loop only asks how it goes);
- connects micropython-lib's ``umqtt.simple`` to the broker, over TLS when
  asked, with the room's last will (the other board shows "opponent away"
  when this one vanishes), subscribes to the room's topics and says it is
  online;
- hands every message that arrives to the room, and sends what the room
  sends; while the link is down the last few are kept and sent on return;
- when the Wi-Fi or the broker goes away, tries again after 1 s, then 2, 4,
  ... up to 30 s, and says so in a ``remote`` event.

The Wi-Fi password and the room's passphrase never appear in an event: the
reasons given are this module's own words and error numbers.
"""

try:
    from micropython import const
except ImportError:
    const = lambda x: x  # noqa: E731

from firmware import ticks_diff

NET_EVERY_MS = const(50)       # the radio and the broker are looked at this often
JOIN_LIMIT_MS = const(20000)   # a Wi-Fi join not done by then is tried again
RETRY_FIRST_MS = const(1000)   # the first retry after a fault; doubled each time
RETRY_MOST_MS = const(30000)
KEEPALIVE_S = const(60)        # the broker drops a board silent this long (last will)
PING_MS = const(20000)         # a ping keeps the link alive between moves
SOCKET_S = 3                   # the longest one socket call may wait (the watchdog: 8 s)
READS_PER_POLL = const(4)      # messages taken from the broker in one look
KEEP_UNSENT = const(8)         # messages kept while the link is down (oldest dropped)
# mbedtls's "allocation failed" codes (SSL, bignum, certificate), as the
# OSError of a TLS connection that found no room in the heap
TLS_NO_MEMORY = (-0x7F00, -0x0010, -0x2880)

NO_WIFI = "this board has no Wi-Fi (remote play needs a Pico W)"
NO_MQTT = ("umqtt.simple is not installed: deploy with this config.json installs it "
           "(or: mpremote mip install umqtt.simple)")
NO_ROOM = "firmware/room.py is missing: deploy the firmware again"


def start(settings, app, now_ms):
    """(a Remote for config["remote"], or None, and the event that says which).
    Remote play that cannot start leaves the board playing at home."""
    try:
        import network
    except ImportError:
        return None, _off(NO_WIFI)
    try:
        from umqtt import simple
    except ImportError:
        return None, _off(NO_MQTT)
    if not isinstance(simple.socket, TimedSockets):
        simple.socket = TimedSockets(simple.socket)
    try:
        from firmware.room import Room
    except ImportError:
        return None, _off(NO_ROOM)
    try:
        remote = Remote(settings, app, now_ms, network, simple.MQTTClient, Room)
    except Exception as e:     # its kind only: the text may quote the settings
        return None, _off("remote play could not start (%s)" % type(e).__name__)
    return remote, _link("joining")


def _link(state):
    """The serial event of the link's state (docs/protocol.md)."""
    return {"event": "remote", "what": "link", "state": state}


def _off(why):
    event = _link("off")
    event["why"] = why
    return event


class TimedSockets:
    """The socket module as umqtt.simple sees it, with a time limit on every
    socket it makes: a broker that does not answer costs SOCKET_S, never a
    watchdog restart. (umqtt.simple makes its socket inside connect().)"""

    def __init__(self, sockets, seconds=SOCKET_S):
        self._sockets = sockets
        self._seconds = seconds

    def socket(self, *args):
        s = self._sockets.socket(*args)
        s.settimeout(self._seconds)
        return s

    def getaddrinfo(self, *args):
        return self._sockets.getaddrinfo(*args)


def _reason(e):
    """Words for a failed link: the exception's kind and number, never its text
    (which might quote what was sent)."""
    name = type(e).__name__
    if name == "MQTTException":
        return "the broker refused the board (code %s)" % (e.args[0] if e.args else "?")
    code = e.args[0] if e.args and isinstance(e.args[0], int) else None
    if isinstance(e, MemoryError) or code in TLS_NO_MEMORY:
        return "not enough memory for the link (TLS needs the most)"
    if isinstance(e, OSError):
        return "the broker cannot be reached (OSError %s)" % code
    return "the link failed (%s)" % name


class Remote:
    """One board's link to its room: Wi-Fi, then broker, then the room's traffic.

    ``poll(now_ms)`` is called every loop and returns the events to report
    (most calls: none). ``network``, ``client`` (an MQTTClient class) and
    ``room`` (a Room class) are handed in, so tests can give their own.
    """

    def __init__(self, settings, app, now_ms, network, client, room, ssl=None):
        self._settings = settings
        self._network = network
        self._client_class = client
        self._ssl = ssl
        self._wlan = None
        self._client = None
        self._unsent = []
        self.state = "joining"     # joining -> connecting -> online; waiting after a fault
        self._since = now_ms       # when the state began
        self._looked = now_ms      # the radio or the broker was last looked at then,
        self._wait = 0             # and is looked at again this long after
        self._now = now_ms
        self._retry_ms = RETRY_FIRST_MS
        self._pinged = now_ms
        self._events = []
        self.faults = 0            # links lost or refused since power-on
        self.room = room(app, settings["room"], settings["passphrase"], settings["side"],
                         self.send)

    # -- what the room calls ----------------------------------------------------

    def send(self, topic, payload, retain=False):
        """Publish for the room; kept for later while the link is down."""
        if self._client is not None and self.state == "online":
            try:
                self._client.publish(topic, payload, retain)
                self._pinged = self._now
                return
            except Exception as e:
                self._lost(self._now, e)
        self._keep(topic, payload, retain)

    def _keep(self, topic, payload, retain):
        if retain:          # a retained topic needs only its newest message
            for i in range(len(self._unsent)):
                if self._unsent[i][0] == topic and self._unsent[i][2]:
                    self._unsent.pop(i)
                    break
        if len(self._unsent) >= KEEP_UNSENT:
            self._unsent.pop(0)
        self._unsent.append((topic, payload, retain))

    # -- the loop's call ---------------------------------------------------------

    def poll(self, now_ms):
        """Move the link on a little; let the room do its timing. Events out."""
        self._now = now_ms
        if ticks_diff(now_ms, self._looked) >= self._wait:
            self._looked = now_ms
            self._wait = NET_EVERY_MS
            if self.state == "joining":
                self._join(now_ms)
            elif self.state == "connecting":
                self._connect(now_ms)
            elif self.state == "online":
                self._listen(now_ms)
            elif self.state == "waiting":
                self._begin(now_ms)
        more = self.room.poll(now_ms)
        events = self._events
        if more:
            events.extend(more)
        if not events:
            return events
        self._events = []
        return events

    def _set(self, state, now_ms, event=None):
        self.state = state
        self._since = now_ms
        if event is not None:
            self._events.append(event)

    def _begin(self, now_ms):
        """After a wait: join the Wi-Fi again, or go straight to the broker."""
        if self._wlan is not None and self._wlan.isconnected():
            self._set("connecting", now_ms)
            self._connect(now_ms)
        else:
            self._set("joining", now_ms, _link("joining"))
            self._wlan = None
            self._join(now_ms)

    def _join(self, now_ms):
        net = self._network
        if self._wlan is None:
            self._wlan = net.WLAN(net.STA_IF)
            self._wlan.active(True)
            wifi = self._settings["wifi"]
            self._wlan.connect(wifi["ssid"], wifi["password"])
            return
        status = self._wlan.status()
        if self._wlan.isconnected():
            self._set("connecting", now_ms)
            self._connect(now_ms)
        elif status < 0 or ticks_diff(now_ms, self._since) >= JOIN_LIMIT_MS:
            self._wlan.active(False)
            self._wlan = None
            self._fault(now_ms, self._wifi_reason(status))

    def _wifi_reason(self, status):
        net = self._network
        if status == getattr(net, "STAT_WRONG_PASSWORD", None):
            return "Wi-Fi: wrong password"
        if status == getattr(net, "STAT_NO_AP_FOUND", None):
            return "Wi-Fi: no network of that name in reach"
        if status < 0:
            return "Wi-Fi: the join failed (status %d)" % status
        return "Wi-Fi: no answer within %d s" % (JOIN_LIMIT_MS // 1000)

    def _connect(self, now_ms):
        """Broker, last will, subscriptions, the online message: blocking, but
        each socket call is bounded by SOCKET_S."""
        broker = self._settings["broker"]
        client = None
        try:
            client = self._client_class(
                "senet-%s-%s" % (self._settings["room"], self._settings["side"]),
                broker["host"], broker["port"], keepalive=KEEPALIVE_S,
                ssl=self._tls() if broker["tls"] else None)
            client.set_callback(self._arrived)
            topic, payload = self.room.will()
            client.set_last_will(topic, payload, True)
            client.connect()
            self._client = client
            for topic in self.room.topics():
                client.subscribe(topic)
        except Exception as e:
            self._client = client
            self._lost(now_ms, e)
            return
        self._set("online", now_ms, _link("online"))
        self._retry_ms = RETRY_FIRST_MS
        self._pinged = now_ms
        self.send(*self.room.online())        # the room's record, then "here I am"
        unsent, self._unsent = self._unsent, []
        for topic, payload, retain in unsent:
            self.send(topic, payload, retain)

    def _tls(self):
        """A TLS context for the broker. The board cannot check the broker's
        certificate (it holds no root certificates); the room's signatures,
        not TLS, prove who sent a move (docs/remote.md)."""
        ssl = self._ssl
        if ssl is None:
            import ssl
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
        context.verify_mode = ssl.CERT_NONE
        return context

    def _arrived(self, topic, payload):
        self.room.on_message(topic.decode() if isinstance(topic, bytes) else topic, payload)

    def _listen(self, now_ms):
        if not self._wlan.isconnected():
            self._lost(now_ms, None)
            return
        try:
            for _ in range(READS_PER_POLL):
                if self._client.check_msg() is None:
                    break
            if ticks_diff(now_ms, self._pinged) >= PING_MS:
                self._client.ping()
                self._pinged = now_ms
        except Exception as e:
            self._lost(now_ms, e)

    def _lost(self, now_ms, e):
        """The link broke: close what is left and wait before trying again;
        the room makes the game wait meanwhile."""
        if self.state == "online":
            self.room.offline()
        client, self._client = self._client, None
        if client is not None and client.sock is not None:
            try:
                client.sock.close()
            except Exception:
                pass
        if e is None:
            why = "Wi-Fi: the network went away"
        else:
            why = _reason(e)
        self._fault(now_ms, why)

    def _fault(self, now_ms, why):
        self.faults += 1
        wait = self._retry_ms
        self._retry_ms = min(self._retry_ms * 2, RETRY_MOST_MS)
        self._looked = now_ms
        self._wait = wait
        event = _link("offline")
        event["why"] = why
        event["retry_s"] = wait // 1000
        self._set("waiting", now_ms, event)
