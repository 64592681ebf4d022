"""A fake of CircuitPython's ``neopixel_write`` module: the bytes are kept
(per pin, in ``_cpworld.strips``) instead of being clocked out."""

import _cpworld


def neopixel_write(digitalinout, buf):
    """Write ``buf`` out on the given DigitalInOut (which must be an output)."""
    digitalinout._check()
    if not digitalinout._output:
        raise ValueError("neopixel_write needs an output DigitalInOut")
    _cpworld.strips.setdefault(digitalinout._pin.name, []).append(bytes(buf))
