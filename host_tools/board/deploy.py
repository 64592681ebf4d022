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
            On a board whose MicroPython has a ROMFS partition, the engine
            and firmware go there instead, as one image the board runs in
            place (``mpremote romfs deploy``; written only when it changed),
            and their old copies in lib/ are removed; ``--no-romfs``, or an
            image larger than the partition, keeps them in lib/ and empties
            the partition.

Every failure ends the command with one sentence saying what to do; the
sentences are in host_tools/board/messages.py and listed in docs/deploy.md.
"""

import os
import shutil
import sys
import tempfile
import time

from host_tools.board.build import (MPY_RELEASES, OLDEST_MPY, ROMFS_HEADER, ROMFS_NAME, build,
                                    check_config, compiler_for, mpy_text, parse_mpy,
                                    romfs_image)
from host_tools.board.messages import (MAINTENANCE_HELD, MIP_FAILED, ROMFS_TOO_BIG,
                                       WRONG_MPY_OLD, WRONG_VERSION, DeployError)
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


EMPTY_ROMFS = ROMFS_HEADER + b"\x00"      # a ROMFS image holding nothing


def _cleared(built, flash, say):
    """The firmware goes to lib/: an image already in the partition would be
    found before it, so the partition gets an empty image (or nothing, when
    it holds none). Returns (False, the image to write or None)."""
    if flash.romfs_image is None:
        return False, None
    empty = os.path.join(built.out, ROMFS_NAME)
    with open(empty, "wb") as f:
        f.write(EMPTY_ROMFS)
    say("  emptying its ROMFS partition, whose old image would be found before lib/")
    return False, empty


def romfs_plan(built, flash, say, wanted=True):
    """For a board with a ROMFS partition: (the packages go to ROMFS, the
    image to write, or None when the partition already holds it). An image
    larger than the partition, or one not ``wanted``, goes to lib/ on the
    flash as on a board without one, and the partition is emptied."""
    if not wanted:
        return _cleared(built, flash, say)
    image = os.path.join(built.out, ROMFS_NAME)
    size, digest = romfs_image(os.path.join(built.out, "lib"), image)
    if size > flash.romfs:
        say("  " + ROMFS_TOO_BIG % (size / 1024, flash.romfs / 1024))
        return _cleared(built, flash, say)
    if digest == flash.romfs_image:
        say("  its ROMFS partition already holds this firmware (%.1f KB)" % (size / 1024))
        return True, None
    say("  the firmware goes into its ROMFS partition: %.1f KB of %.1f KB, run in place"
        % (size / 1024, flash.romfs / 1024))
    return True, image


def deploy(port=None, config=None, build_dir=None, timeout=START_TIMEOUT, mip_index=None,
           romfs=True):
    """The whole deploy; returns a summary dict (for tests and the last line).
    ``romfs`` False keeps the firmware in lib/ on a board with a ROMFS
    partition too."""
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
        in_romfs, image = False, None
        if flash.romfs:
            in_romfs, image = romfs_plan(built, flash, say, romfs)
        todo = plan(built, flash, write_config=config is not None, romfs=in_romfs)
        check_space(built, flash, todo)
        copied = sum(built.size(p) for p in todo.copy)
        say("Copying %d of %d files (%.1f KB), %d unchanged, %d stale to remove"
            % (len(todo.copy), len(built.files), copied / 1024, len(todo.unchanged),
               len(todo.remove)))
        if "config.json" in flash.files and config is None:
            say("  keeping the board's config.json (use --config FILE to replace it)")
        version = apply(port, built, todo, say, image)
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
        say("Board ready: Senet firmware %s, ruleset %s, mode %s%s (%.1f s)"
            % (event.get("version"), event.get("ruleset"), event.get("mode"),
               ", run in place from its ROMFS partition" if event.get("romfs") else "",
               elapsed))
        return {"port": port, "copied": list(todo.copy), "bytes": copied,
                "removed": [p for p, _ in todo.remove], "unchanged": list(todo.unchanged),
                "hello": event, "seconds": elapsed, "installed": installed,
                "romfs": in_romfs, "romfs_written": image is not None and in_romfs,
                "romfs_emptied": image is not None and not in_romfs}
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
    parser.add_argument("--romfs", metavar="OUT.romfs",
                        help="also write lib/ as one ROMFS image, for a MicroPython built "
                             "with a ROMFS partition (mpremote romfs deploy OUT.romfs)")


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
    if not args.out and not args.uf2 and not args.romfs:
        return _refuse("say where: a folder OUT, --uf2 OUT.uf2 or --romfs OUT.romfs.")
    tmp = None
    try:
        if args.micropython:
            uf2.read_micropython(args.micropython)
        out = args.out or tempfile.mkdtemp(prefix="senet-build-")
        tmp = None if args.out else out
        built = build(out, args.mpy, args.config, quiet=tmp is not None)
        if args.romfs:
            size, _ = romfs_image(os.path.join(built.out, "lib"), args.romfs)
            print("Wrote %s: %.1f KB, the engine and firmware as one ROMFS image; put it on "
                  "a board built with a ROMFS partition with `mpremote romfs deploy %s`, "
                  "then copy main.py" % (args.romfs, size / 1024, args.romfs), flush=True)
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
    parser.add_argument("--no-romfs", action="store_true",
                        help="on a board whose MicroPython has a ROMFS partition, copy the "
                             "firmware to lib/ instead of running it from the partition")
    from host_tools.board import circuitpython
    circuitpython.add_arguments(parser)          # --circuitpython [DRIVE], --cp-lib DIR


def run_deploy(args):
    if getattr(args, "circuitpython", None) is not None:
        from host_tools.board import circuitpython
        return circuitpython.run(args)
    try:
        deploy(args.port, args.config, args.build_dir, args.timeout, args.mip_index,
               romfs=not args.no_romfs)
    except DeployError as e:
        print("senet-board deploy: %s" % e, file=sys.stderr)
        return 1
    return 0
