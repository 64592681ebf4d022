"""A fake of CircuitPython's ``watchdog`` module: ``WatchDogMode`` and the
sole ``WatchDogTimer``, reached as ``microcontroller.watchdog``.

Set ``timeout`` (seconds, at most 8.388 on the RP2040) and then ``mode`` to
``WatchDogMode.RESET`` to start it; ``feed()`` restarts the count and does
nothing while it is off; ``mode = None`` (or ``deinit()``) stops it. The
world's clock notes in ``_cpworld.watchdog_fired`` when a started watchdog
went unfed for longer than its timeout.
"""

import _cpworld

RP2040_MAX_TIMEOUT = 8.388


class WatchDogMode:
    RAISE = "WatchDogMode.RAISE"
    RESET = "WatchDogMode.RESET"


class WatchDogTimeout(Exception):
    pass


class WatchDogTimer:
    def __init__(self):
        self._timeout = 0.0
        self._mode = None
        self.feeds = 0
        self._fed_at = 0

    @property
    def timeout(self):
        return self._timeout

    @timeout.setter
    def timeout(self, value):
        value = float(value)
        if value < 0:
            raise ValueError("timeout must be >= 0")
        if value > RP2040_MAX_TIMEOUT:
            raise ValueError("timeout must be <= %s" % RP2040_MAX_TIMEOUT)
        self._timeout = value
        self._fed_at = _cpworld.ms          # setting the timeout feeds it

    @property
    def mode(self):
        return self._mode

    @mode.setter
    def mode(self, value):
        if value not in (None, WatchDogMode.RAISE, WatchDogMode.RESET):
            raise ValueError("mode")
        self._mode = value
        self._fed_at = _cpworld.ms

    def feed(self):
        if self._mode is not None:
            self.feeds += 1
            self._fed_at = _cpworld.ms

    def deinit(self):
        self._mode = None


_WATCHDOG = WatchDogTimer()


def _reset_watchdog():
    _WATCHDOG._mode = None
    _WATCHDOG._timeout = 0.0
    _WATCHDOG.feeds = 0


def _check_watchdog():
    w = _WATCHDOG
    if w._mode is not None and _cpworld.ms - w._fed_at > w._timeout * 1000:
        _cpworld.watchdog_fired = True
