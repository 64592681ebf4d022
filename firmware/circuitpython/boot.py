"""Senet board on CircuitPython: runs once at power-on or reset, before code.py.

The CIRCUITPY drive can be written by one side only: the laptop (over USB)
or the board's program. The board must save the game after every move, so
this file gives the drive to the program (``storage.remount``), which makes
it read-only to the laptop, unless the throw button is held at power-on:
then the drive stays the laptop's, ``senet-board deploy --circuitpython``
can write it, and code.py starts nothing (maintenance, as on MicroPython).
docs/circuitpython.md tells the story for makers.
"""

import storage

try:
    import supervisor
    supervisor.status_bar.console = False   # no title escapes between the JSON lines
except (ImportError, AttributeError, NotImplementedError):
    pass

SAMPLES = 5               # the button must read held on every one, 5 ms apart


def throw_button_held():
    """The throw button, read as the game reads it (config.json's pin)."""
    try:
        from firmware.config import load
        from firmware import hal_cp
        config, _ = load("config.json")
        pressed = hal_cp.make_button(config)
        for _ in range(SAMPLES):
            if not pressed():
                return False
            hal_cp.sleep_ms(5)
        return True
    except Exception as e:     # a broken install: leave the drive to the laptop to fix it
        print("boot.py: %r: CIRCUITPY left writable for the laptop" % (e,))
        return True


if throw_button_held():
    print("boot.py: throw button held: CIRCUITPY stays writable for the laptop")
else:
    storage.remount("/", readonly=False)
