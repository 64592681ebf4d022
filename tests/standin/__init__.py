"""A stand-in Pico for the host-tool tests (see device.py)."""

from .device import StandIn, micropython_binary  # noqa: F401
