"""Run a stand-in Pico by hand, to try `senet-board deploy` without a Pico.

    cd tests && python -m standin FLASH_DIR [--fakes] [--garbage] [--mpy N]
                                            [--free BYTES] [--no-raw-paste]

Prints the port to give mpremote or senet-board. It runs main.py at power-on
and starts again whenever its firmware resets or dies, as a Pico does, so it
can be left on for days. Ctrl-C, SIGTERM or closing the terminal stops it,
with its MicroPython process and its temporary folder.
docs/deploy.md ("Trying it without a Pico") says how to install it.
"""

import argparse
import signal
import sys
import time

from standin.device import FAKES, StandIn


def parse(argv):
    parser = argparse.ArgumentParser(
        prog="python -m standin",
        description="A pseudo-terminal that answers like a Pico running MicroPython, "
        "with FLASH_DIR as its flash.")
    parser.add_argument("flash", metavar="FLASH_DIR",
                        help="folder that plays the Pico's flash (made if missing)")
    parser.add_argument("--fakes", action="store_true",
                        help="give the board fake machine/neopixel modules, so a deployed "
                        "firmware starts")
    parser.add_argument("--garbage", action="store_true",
                        help="answer like a device that is not MicroPython")
    parser.add_argument("--mpy", type=int, metavar="N",
                        help="report sys.implementation._mpy = N (e.g. 5 for a too old board)")
    parser.add_argument("--free", type=int, metavar="BYTES",
                        help="report only BYTES free on the flash")
    parser.add_argument("--no-raw-paste", action="store_true",
                        help="refuse raw-paste mode, as older MicroPython does")
    return parser.parse_args(argv)


class Stopped(Exception):
    """SIGTERM or SIGHUP: stop as Ctrl-C stops."""


def _stop(signum, frame):
    raise Stopped()


def note(text):
    print(text, flush=True)


def main(argv):
    args = parse(argv)
    dev = StandIn(args.flash, fakes=FAKES if args.fakes else None, garbage=args.garbage,
                  mpy=args.mpy, free=args.free, raw_paste=not args.no_raw_paste,
                  run_main=True, note=note)
    for sig in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, _stop)
    try:
        dev.start()
        print("stand-in Pico on %s (flash: %s); Ctrl-C stops it" % (dev.port, dev.flash),
              flush=True)
        while True:
            time.sleep(1)
    except (KeyboardInterrupt, Stopped):
        pass
    except OSError as e:            # no MicroPython unix port, a flash it cannot make
        print("python -m standin: %s" % e, file=sys.stderr)
        return 1
    finally:
        dev.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
