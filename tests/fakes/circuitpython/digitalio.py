"""A fake of CircuitPython's ``digitalio`` module.

``DigitalInOut(pin)`` claims the pin: a second claim raises ValueError
("... in use"), as on the board, until ``deinit()``. ``direction``, ``pull``,
``value``, ``switch_to_input(pull=None)`` and ``switch_to_output(value=False,
drive_mode=DriveMode.PUSH_PULL)`` behave as documented: setting ``pull`` on
an output, or ``value`` on an input, raises AttributeError. An input reads
what the world's wiring puts on it (_cpworld.level).
"""

import _cpworld


class Direction:
    INPUT = "Direction.INPUT"
    OUTPUT = "Direction.OUTPUT"


class Pull:
    UP = "Pull.UP"
    DOWN = "Pull.DOWN"


class DriveMode:
    PUSH_PULL = "DriveMode.PUSH_PULL"
    OPEN_DRAIN = "DriveMode.OPEN_DRAIN"


class DigitalInOut:
    def __init__(self, pin):
        name = getattr(pin, "name", None)
        if name is None:
            raise TypeError("pin must be a microcontroller.Pin")
        if name in _cpworld.claimed:
            raise ValueError("%s in use" % name)
        self._pin = pin
        self._output = False
        self._pull = None
        self._value = False
        self._drive_mode = DriveMode.PUSH_PULL
        self._deinited = False
        _cpworld.claimed[name] = self

    def _check(self):
        if self._deinited:
            raise ValueError("Object has been deinitialized and can no longer be used.")

    def deinit(self):
        if not self._deinited and _cpworld.claimed.get(self._pin.name) is self:
            del _cpworld.claimed[self._pin.name]
        self._deinited = True

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.deinit()

    def switch_to_output(self, value=False, drive_mode=DriveMode.PUSH_PULL):
        self._check()
        self._output = True
        self._pull = None
        self._drive_mode = drive_mode
        self._set(bool(value))

    def switch_to_input(self, pull=None):
        self._check()
        self._output = False
        self._pull = pull

    @property
    def direction(self):
        self._check()
        return Direction.OUTPUT if self._output else Direction.INPUT

    @direction.setter
    def direction(self, value):
        if value == Direction.OUTPUT:
            self.switch_to_output()
        elif value == Direction.INPUT:
            self.switch_to_input()
        else:
            raise ValueError("Invalid direction.")

    @property
    def value(self):
        self._check()
        if self._output:
            return self._value
        return bool(_cpworld.level(self))

    @value.setter
    def value(self, v):
        self._check()
        if not self._output:
            raise AttributeError("Cannot set value when direction is input.")
        self._set(bool(v))

    def _set(self, v):
        old = self._value
        self._value = v
        _cpworld.driven(self, old, v)

    @property
    def pull(self):
        self._check()
        if self._output:
            raise AttributeError("Pull not used when direction is output.")
        return self._pull

    @pull.setter
    def pull(self, p):
        self._check()
        if self._output:
            raise AttributeError("Pull not used when direction is output.")
        if p not in (None, Pull.UP, Pull.DOWN):
            raise ValueError("pull")
        self._pull = p

    @property
    def drive_mode(self):
        return self._drive_mode
