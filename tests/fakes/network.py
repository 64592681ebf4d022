"""A fake of MicroPython's ``network`` module as a Pico W has it, for CPython
and the unix port.

Put tests/fakes on sys.path and firmware/remote.py joins this Wi-Fi instead
of the Pico W's radio. The sockets stay real: once "joined", the board talks
to the broker over the machine's own network, so the tests reach a real
Mosquitto on localhost.

One shared ``air`` object stands for the radio around the board:

    import network
    network.air.reset()                      # between tests
    network.air.offer("Nagyi-otthon", "kecske-sajt-42")
    network.air.join_polls = 3               # status() polls before the join is done
    network.air.drop()                       # the router goes away: isconnected() False

As on the Pico W, ``connect`` returns at once and the join finishes later:
``status()`` reads STAT_CONNECTING until then, STAT_GOT_IP after, or one of
the failures (a negative number). Nothing here reads a clock: the join
advances with each poll, so the tests decide how long it takes.
"""

STA_IF = 0
AP_IF = 1

# The rp2 port's values (the CYW43 driver's link states)
STAT_IDLE = 0
STAT_CONNECTING = 1
STAT_GOT_IP = 3
STAT_CONNECT_FAIL = -1
STAT_NO_AP_FOUND = -2
STAT_WRONG_PASSWORD = -3


class Air:
    """The networks in reach and what the radio has done."""

    def __init__(self):
        self.reset()

    def reset(self):
        self.networks = {}        # ssid -> password ("" for an open network)
        self.join_polls = 2       # status() polls a join takes
        self.joins = []           # every (ssid, password) a board asked to join
        self.up = False           # the router is reachable
        self._wlan = None

    def offer(self, ssid, password=""):
        """A network the board can join."""
        self.networks[ssid] = password
        self.up = True

    def drop(self):
        """The network goes away (a router restarted, the board carried off)."""
        self.up = False
        if self._wlan is not None:
            self._wlan._state = STAT_CONNECT_FAIL

    def restore(self):
        """The network is back; the board must join it again."""
        self.up = True


air = Air()


class WLAN:
    """The station interface: ``connect`` starts a join that ``status`` finishes."""

    def __init__(self, interface=STA_IF):
        self.interface = interface
        self._active = False
        self._state = STAT_IDLE
        self._polls = 0
        self._ssid = None
        air._wlan = self

    def active(self, on=None):
        if on is None:
            return self._active
        self._active = bool(on)
        if not on:
            self._state = STAT_IDLE
        return None

    def connect(self, ssid, key=None):
        if not self._active:
            raise OSError("WLAN not active")
        air.joins.append((ssid, key))
        self._ssid = ssid
        self._polls = 0
        self._state = STAT_CONNECTING

    def disconnect(self):
        self._state = STAT_IDLE

    def status(self, param=None):
        if param is not None:
            return 0
        if self._state == STAT_CONNECTING:
            self._polls += 1
            if self._polls >= air.join_polls:
                self._state = self._outcome()
        return self._state

    def _outcome(self):
        if not air.up or self._ssid not in air.networks:
            return STAT_NO_AP_FOUND
        if air.joins[-1][1] != air.networks[self._ssid] and air.networks[self._ssid] != "":
            return STAT_WRONG_PASSWORD
        return STAT_GOT_IP

    def isconnected(self):
        return self.status() == STAT_GOT_IP and air.up

    def ifconfig(self, *args):
        if self.isconnected():
            return ("127.0.0.1", "255.0.0.0", "127.0.0.1", "127.0.0.1")
        return ("0.0.0.0", "0.0.0.0", "0.0.0.0", "0.0.0.0")

    def config(self, *args, **kwargs):
        if args == ("mac",):
            return b"\x28\xcd\xc1\x00\x00\x01"
        return None
