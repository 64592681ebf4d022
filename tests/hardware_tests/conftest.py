"""The CAD tests' shared board, generated once a pitch (hardware_tests/cadfiles.py)."""

from hardware_tests.cadfiles import made  # noqa: F401  (the fixture)
