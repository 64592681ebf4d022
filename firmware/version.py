"""The firmware's version, in one place.

``senet-board deploy`` reads it back from the board after copying, and the
board reports it in its first event (``hello``), so a laptop always knows
which firmware a board runs.
"""

VERSION = "0.1.0"
