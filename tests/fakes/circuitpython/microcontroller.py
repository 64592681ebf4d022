"""A fake of CircuitPython's ``microcontroller`` module (RP2040 flavour).

``Pin`` objects are named after the RP2040's GPIOs (``microcontroller.pin.GPIO2``);
``board`` gives them the names printed on a particular board. ``watchdog`` is
the sole ``watchdog.WatchDogTimer``; ``reset()`` raises ``_cpworld.Reset``;
``cpu.uid`` is the flash chip's serial number.
"""

import _cpworld


class Pin:
    """A pin: compared by identity, as the real ones are."""

    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return "microcontroller.pin.%s" % self.name


class _PinModule:
    pass


pin = _PinModule()
for _n in range(30):
    setattr(pin, "GPIO%d" % _n, Pin("GPIO%d" % _n))


class _Processor:
    uid = bytearray(b"\xe6\x61\x41\x04\x03\x2b\x5c\x2f")
    frequency = 125000000


cpu = _Processor()


def reset():
    """Reset the microcontroller: the program ends here."""
    _cpworld.resets += 1
    raise _cpworld.Reset("microcontroller.reset()")


from watchdog import _WATCHDOG as watchdog  # noqa: E402,F401
