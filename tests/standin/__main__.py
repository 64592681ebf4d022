"""Run a stand-in Pico by hand: ``python -m standin FLASH_DIR [--fakes]`` (from tests/).

Prints the port to give mpremote or senet-board; Ctrl-C stops it.
"""

import sys
import time

from standin.device import FAKES, StandIn


def main(argv):
    if not argv:
        print("usage: python -m standin FLASH_DIR [--fakes]", file=sys.stderr)
        return 2
    dev = StandIn(argv[0], fakes=FAKES if "--fakes" in argv else None)
    dev.start()
    print("stand-in Pico on %s (flash: %s); Ctrl-C stops it" % (dev.port, dev.flash), flush=True)
    try:
        while True:
            time.sleep(1)
    except KeyboardInterrupt:
        pass
    finally:
        dev.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
