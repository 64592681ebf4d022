"""What CircuitPython lacks that the firmware uses, met in this one place.

The engine and the App are written for MicroPython. CircuitPython, Adafruit's
fork of it, keeps almost everything they use (``micropython.const``, ``json``,
``gc``, ``random.getrandbits``, and every ``os`` call the saving and the
health log make: ``stat``, ``remove``, ``rename``, ``sync``, ``urandom``).
What it lacks is MicroPython's millisecond clock in ``time``:

- ``ticks_ms``: CircuitPython has ``supervisor.ticks_ms()``, which wraps at
  2**29 ms (about 6.2 days; the first wrap comes about 65 s after power-on),
  where MicroPython's wraps at 2**30. So intervals must be taken with the
  matching ``ticks_diff`` below, never with a plain subtraction.
- ``ticks_diff``, ``ticks_add``, ``sleep_ms``, ``sleep_us``: not there at all;
  made here from ``supervisor.ticks_ms`` and ``time.sleep``.
- ``select.poll`` on ``sys.stdin``, which the board loop uses to see a waiting
  command character without blocking: CircuitPython says the same thing
  through ``supervisor.runtime.serial_bytes_available``, wrapped here as
  ``select`` (``poll()``, ``register``, ``poll(0)``, ``POLLIN``).

This is the one place that makes a clock. The firmware loads it only where
``time`` has no clock of its own (firmware/__init__.py and hal.py import
MicroPython's from ``time`` first; hal_cp.py, CircuitPython's edge, always
comes here), and board.py takes ``select`` from here on CircuitPython. On
MicroPython it is never loaded, and deploy leaves it off the Pico's flash, so
it costs the Pico nothing. Which branch is taken depends on whether
``supervisor.ticks_ms`` exists, not on the port's name, so the MicroPython
unix port runs the CircuitPython branch when a ``supervisor`` module is on
its path (tests/fakes/circuitpython). ``CIRCUITPYTHON`` says which branch
this is; the other is CPython's (the tests and the simulator): plain
arithmetic over ``time.monotonic``.
"""

import time

try:
    from supervisor import ticks_ms as _supervisor_ticks
except ImportError:
    _supervisor_ticks = None

TICKS_PERIOD = 1 << 29                       # CircuitPython's supervisor.ticks_ms
_TICKS_MAX = TICKS_PERIOD - 1
_TICKS_HALF = TICKS_PERIOD // 2

CIRCUITPYTHON = _supervisor_ticks is not None
select = None

if CIRCUITPYTHON:
    ticks_ms = _supervisor_ticks

    def ticks_diff(a, b):
        """``a - b`` in ms, right across the 2**29 wrap (for intervals under
        2**28 ms, about three days)."""
        d = (a - b) & _TICKS_MAX
        return ((d + _TICKS_HALF) & _TICKS_MAX) - _TICKS_HALF

    def ticks_add(a, delta):
        return (a + delta) & _TICKS_MAX

    def sleep_ms(ms):
        time.sleep(ms / 1000)

    def sleep_us(us):
        if us >= 1000:                       # shorter waits: a pin write is as long
            time.sleep(us / 1000000)

    class _Poll:
        """``select.poll`` over the serial console, the one stream polled."""

        def register(self, stream, mask=1):
            self._ready = [(stream, 1)]

        def poll(self, timeout=0):
            import supervisor
            if supervisor.runtime.serial_bytes_available:
                return self._ready
            return ()

    class select:                           # noqa: N801  (stands in for a module)
        POLLIN = 1
        poll = _Poll

else:                                       # CPython: tests and the simulator
    def ticks_ms():
        return int(time.monotonic() * 1000)  # type: ignore[attr-defined]

    def ticks_diff(a, b):
        return a - b

    def ticks_add(a, delta):
        return a + delta

    def sleep_ms(ms):
        time.sleep(ms / 1000)

    def sleep_us(us):
        time.sleep(us / 1000000)

    try:
        import select
    except ImportError:
        select = None
