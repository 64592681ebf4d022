"""A real board on USB: what goes onto it (``build``, ``plan``, ``deploy``,
``circuitpython``), how the laptop reaches it (``serialport``, ``transport``),
what the laptop shows of it (``monitor``, ``show``, ``check``), and the
one-sentence failures they share (``messages``).
"""
