"""A fake of CircuitPython's ``supervisor`` module: ``ticks_ms()`` from the
world's clock, wrapping at 2**29 with the first wrap 65.536 s after power-on
(as shared-bindings/supervisor/__init__.c computes it); ``runtime`` with
``serial_bytes_available`` (the characters in ``_cpworld.serial_in``) and
``serial_connected``; ``status_bar``."""

import _cpworld


def ticks_ms():
    return _cpworld.ticks_ms()


class Runtime:
    serial_connected = True

    @property
    def serial_bytes_available(self):
        return len(_cpworld.serial_in)


class StatusBar:
    console = True
    display = True


runtime = Runtime()
status_bar = StatusBar()


def reload():
    raise _cpworld.Reset("supervisor.reload()")
