"""Senet board on CircuitPython: the game, through firmware/hal_cp.py.

When boot.py left the drive to the laptop (the throw button was held at
power-on, or boot.py is not there yet), nothing starts: the game could not
be saved. Press reset (or replug the board) without the button to play.
"""

import storage

from firmware import board, hal_cp

if storage.getmount("/").readonly:
    print("CIRCUITPY is the laptop's (maintenance): press reset to play")
    board.maintenance()
else:
    board.run(hal=hal_cp)
