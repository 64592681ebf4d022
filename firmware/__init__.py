"""Senet board firmware for the Raspberry Pi Pico; only hal.py (MicroPython) and
hal_cp.py (CircuitPython) touch the hardware."""

import sys

try:
    from time import ticks_diff     # the Pico's ms counter wraps: always subtract with this
except ImportError:                 # CircuitPython (its clock wraps at 2**29) and CPython
    from firmware.compat import ticks_diff


def unload(name):
    """Forget module ``name`` (say "firmware.config") once it has done its job
    at start-up, so the Pico's heap gets its code back. Only for a module
    loaded from a compiled .mpy, as on the Pico: compiling a source file again
    costs far more heap than keeping it, and CPython keeps its modules anyway."""
    if getattr(sys.implementation, "name", "") != "micropython":
        return
    module = sys.modules.get(name)
    if module is None or not str(getattr(module, "__file__", "")).endswith(".mpy"):
        return
    if sys.modules.pop(name, None) is not None:
        package, _, attr = name.rpartition(".")
        parent = sys.modules.get(package)
        if parent is not None and hasattr(parent, attr):
            delattr(parent, attr)
