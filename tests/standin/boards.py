"""A stand-in Pico with the firmware deployed, for the monitor and check tests."""

import contextlib

from host_tools.board import deploy
from standin.device import FAKES, StandIn


@contextlib.contextmanager
def deployed(flash_dir, boot_hook):
    """A stand-in running the freshly deployed firmware; yields the StandIn."""
    dev = StandIn(str(flash_dir), fakes=FAKES, boot_hook=boot_hook)
    dev.start()
    try:
        deploy.deploy(dev.port)
        yield dev
    finally:
        dev.stop()
