"""`senet-board deploy --circuitpython [DRIVE]`: fill a CIRCUITPY drive.

A board running CircuitPython shows up on the laptop as a USB drive named
CIRCUITPY, with a ``boot_out.txt`` that CircuitPython writes at every start.
This command finds that drive (or takes its path) and makes it hold:

    code.py, boot.py          firmware/circuitpython/, as source
    lib/engine/*.py           the rules engine, as source (CircuitPython's .mpy
    lib/firmware/*.py         format is not MicroPython's, and no mpy-cross for
                              it is on the package index: docs/circuitpython.md;
                              MicroPython's firmware/hal.py is left out)
    lib/neopixel.py           Adafruit's NeoPixel library, from its PyPI package
    lib/adafruit_pixelbuf.py  the pure-Python pixelbuf it needs, only for a chip
                              whose CircuitPython lacks the built-in one
    config.json               --config FILE (checked), or "{}" on a fresh drive

CircuitPython's builds for the RP2040 and RP2350 have ``adafruit_pixelbuf``
built in, and a built-in module is found before lib/: a copy there would
never load, so it is not written, and one an older deploy left is removed.

Only files whose sha256 differs from the drive's are written; files left in
lib/engine/ and lib/firmware/ by an older version, and root engine/ or
firmware/ folders (which would shadow lib/), are removed; code.py is written
last, because CircuitPython restarts code.py as soon as a file changes.

The two Adafruit libraries are pure Python for the board and must never be
importable on the laptop itself (they would shadow other modules of the same
name), so they live in a cache folder of their own: ``SENET_CP_LIB`` if set,
else ~/.cache/senet-board/circuitpython-lib. When they are not there yet this
command fetches them into it with ``pip install --no-deps --target`` (once;
``--cp-lib DIR`` names another folder holding them). Nothing is imported from
that folder: the files are found through their packages' metadata.

Every failure ends with one sentence saying what to do (docs/circuitpython.md).
"""

import hashlib
import os
import re
import shutil
import string
import subprocess
import sys

from host_tools import ROOT
from host_tools.board.build import check_config, sha256_file
from host_tools.board.messages import DeployError

PACKAGES = ("engine", "firmware")
BOARD_FILES = os.path.join(ROOT, "firmware", "circuitpython")
LIBS = (("adafruit-circuitpython-neopixel", "neopixel.py"),
        ("adafruit-circuitpython-pixelbuf", "adafruit_pixelbuf.py"))
LABEL = "CIRCUITPY"
LEFT_OUT = ("firmware/hal.py",)    # MicroPython's hardware edge: never imported here
PIXELBUF = "adafruit_pixelbuf.py"
BUILTIN_PIXELBUF = ("rp2040", "rp2350")   # chips whose CircuitPython builds it in

NO_DRIVE = ("No CIRCUITPY drive found: plug the board in with a USB data cable, make sure "
            "it runs CircuitPython (docs/circuitpython.md), or name the drive's folder "
            "(senet-board deploy --circuitpython /path/to/CIRCUITPY).")
SEVERAL = "Several CIRCUITPY drives found (%s): name the one to use."
NOT_THERE = "There is no folder %s: check the drive's path and try again."
NOT_CIRCUITPYTHON = ("%s is not a CircuitPython drive (it has no boot_out.txt): name the "
                     "CIRCUITPY drive of a board running CircuitPython.")
READ_ONLY = ("%s is read-only: the board is using it to save games. Unplug the board, hold "
             "the throw button while plugging it back in, and deploy again.")
NO_LIBS = ("Adafruit's NeoPixel libraries are missing and could not be fetched (%s): run "
           "`%s` and deploy again.")
FULL = "%s is full (%s): remove files you no longer need from it and deploy again."


def say(text=""):
    print(text, flush=True)


# -- the drive ---------------------------------------------------------------------

def candidates(parents=None):
    """Folders where a CIRCUITPY drive is mounted on this laptop (looked for
    in ``parents``, by default where Linux, macOS and Windows mount drives)."""
    found = []
    if parents is None and sys.platform.startswith("win"):
        for letter in string.ascii_uppercase:
            root = "%s:\\" % letter
            if os.path.exists(os.path.join(root, "boot_out.txt")) and \
                    _windows_label(root) == LABEL:
                found.append(root)
        return found
    if parents is None:
        user = os.environ.get("USER") or os.environ.get("LOGNAME") or ""
        parents = ["/Volumes", "/media", "/mnt", os.path.join("/media", user),
                   os.path.join("/run/media", user)]
    for parent in parents:
        try:
            names = sorted(os.listdir(parent))
        except OSError:
            continue
        for name in names:            # CIRCUITPY, or CIRCUITPY1 for a second board
            if re.fullmatch(LABEL + r"\d*", name):
                path = os.path.join(parent, name)
                if os.path.isdir(path) and path not in found:
                    found.append(path)
    return found


def _windows_label(root):
    try:
        import ctypes
        buf = ctypes.create_unicode_buffer(64)
        ok = ctypes.windll.kernel32.GetVolumeInformationW(     # type: ignore[attr-defined]
            ctypes.c_wchar_p(root), buf, 64, None, None, None, None, 0)
        return buf.value if ok else None
    except (ImportError, AttributeError, OSError):
        return None


def find_drive(drive=None):
    """The CIRCUITPY folder to fill: ``drive`` (checked), else the one found."""
    if drive:
        if not os.path.isdir(drive):
            raise DeployError(NOT_THERE % drive)
        if not os.path.isfile(os.path.join(drive, "boot_out.txt")):
            raise DeployError(NOT_CIRCUITPYTHON % drive)
        return drive
    found = [d for d in candidates() if os.path.isfile(os.path.join(d, "boot_out.txt"))]
    if not found:
        raise DeployError(NO_DRIVE)
    if len(found) > 1:
        raise DeployError(SEVERAL % ", ".join(found))
    return found[0]


def _boot_out(drive):
    try:
        with open(os.path.join(drive, "boot_out.txt"), errors="replace") as f:
            return f.read(2000)
    except OSError:
        return ""


def board_info(drive):
    """(CircuitPython version, board id) from boot_out.txt, "?" where unknown."""
    text = _boot_out(drive)
    version = re.search(r"CircuitPython (\S+)", text)
    board = re.search(r"Board ID:\s*(\S+)", text)
    return (version.group(1) if version else "?", board.group(1) if board else "?")


def chip(drive):
    """The chip boot_out.txt's first line names ("... Raspberry Pi Pico with
    rp2040"), lower case, or "?"."""
    found = re.search(r" with (\S+)\s*$", _boot_out(drive).split("\n", 1)[0])
    return found.group(1).lower() if found else "?"


# -- Adafruit's libraries --------------------------------------------------------

def lib_cache():
    """The folder the Adafruit libraries are kept in on this laptop."""
    env = os.environ.get("SENET_CP_LIB")
    if env:
        return env
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "senet-board", "circuitpython-lib")


def fetch_command(folder):
    return [sys.executable, "-m", "pip", "install", "--no-deps", "--target", folder] + \
        [dist for dist, _ in LIBS]


def _from_metadata(folder):
    """{file name: path} of the libraries installed in ``folder`` (by their
    packages' RECORD, never by importing them)."""
    from importlib import metadata
    found = {}
    for dist in metadata.distributions(path=[folder]):
        name = (dist.metadata["Name"] or "").lower().replace("_", "-")
        for wanted, filename in LIBS:
            if name != wanted:
                continue
            for f in dist.files or ():
                if str(f) == filename:
                    path = str(dist.locate_file(f))
                    if os.path.isfile(path):
                        found[filename] = path
    return found


def find_libs(folder=None, fetch=True):
    """{"neopixel.py": path, "adafruit_pixelbuf.py": path}, fetching them into
    the cache folder the first time."""
    folder = folder or lib_cache()
    found = _from_metadata(folder) if os.path.isdir(folder) else {}
    if len(found) == len(LIBS):
        return found
    command = fetch_command(folder)
    if not fetch:
        raise DeployError(NO_LIBS % ("not in %s" % folder, " ".join(command)))
    say("Fetching Adafruit's NeoPixel libraries into %s (once)" % folder)
    os.makedirs(folder, exist_ok=True)
    result = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            text=True)
    found = _from_metadata(folder)
    if result.returncode != 0 or len(found) != len(LIBS):
        last = [l for l in result.stdout.splitlines() if l.strip()]
        raise DeployError(NO_LIBS % (last[-1].strip() if last else "pip failed",
                                     " ".join(command)))
    return found


# -- what goes on the drive ----------------------------------------------------------

def stage(libs, config_text=None, builtin_pixelbuf=False):
    """{path on the drive: bytes} of everything the board needs."""
    files = {}

    def take(dest, src):
        with open(src, "rb") as f:
            files[dest] = f.read()
    for name in ("code.py", "boot.py"):
        take(name, os.path.join(BOARD_FILES, name))
    for package in PACKAGES:
        folder = os.path.join(ROOT, package)
        for name in sorted(os.listdir(folder)):
            if name.endswith(".py") and "%s/%s" % (package, name) not in LEFT_OUT:
                take("lib/%s/%s" % (package, name), os.path.join(folder, name))
    for name in sorted(libs):
        if not (name == PIXELBUF and builtin_pixelbuf):
            take("lib/" + name, libs[name])
    if config_text is not None:
        files["config.json"] = config_text.encode()
    return files


class Plan:
    """Stale paths to remove, then files to write (code.py last)."""

    def __init__(self, remove, copy, unchanged):
        self.remove = remove          # [(path, is_dir)]
        self.copy = copy
        self.unchanged = unchanged


def plan(drive, files):
    """Compare the staged files with the drive's, by sha256."""
    remove = []
    for package in PACKAGES:          # a root package shadows lib/ (sys.path: "/" first)
        if os.path.isdir(os.path.join(drive, package)):
            remove.append((package, True))
        elif os.path.isfile(os.path.join(drive, package + ".py")):
            remove.append((package + ".py", False))
        folder = os.path.join(drive, "lib", package)
        if os.path.isdir(folder):
            for name in sorted(os.listdir(folder)):
                rel = "lib/%s/%s" % (package, name)
                if rel not in files:
                    remove.append((rel, os.path.isdir(os.path.join(folder, name))))
    stale_pixelbuf = "lib/" + PIXELBUF
    if stale_pixelbuf not in files and os.path.isfile(os.path.join(drive, "lib", PIXELBUF)):
        remove.append((stale_pixelbuf, False))   # shadowed by the built-in: never loaded
    copy = []
    unchanged = []
    for path in sorted(files):
        target = os.path.join(drive, *path.split("/"))
        if os.path.isfile(target) and \
                sha256_file(target) == hashlib.sha256(files[path]).hexdigest():
            unchanged.append(path)
        else:
            copy.append(path)
    if "code.py" in copy:             # CircuitPython reruns code.py on every write
        copy.remove("code.py")
        copy.append("code.py")
    return Plan(remove, copy, unchanged)


def _writable(drive):
    if not os.access(drive, os.W_OK):
        raise DeployError(READ_ONLY % drive)


def apply(drive, files, todo):
    """Remove the stale paths and write the changed files, in the plan's order."""
    import errno
    try:
        for path, is_dir in todo.remove:
            full = os.path.join(drive, *path.split("/"))
            if is_dir:
                shutil.rmtree(full)
            else:
                os.remove(full)
            say("  remove stale %s" % path)
        for i, path in enumerate(todo.copy):
            full = os.path.join(drive, *path.split("/"))
            os.makedirs(os.path.dirname(full), exist_ok=True)
            with open(full, "wb") as f:
                f.write(files[path])
                f.flush()
                os.fsync(f.fileno())
            say("  [%d/%d] copy %s (%.1f KB)" % (i + 1, len(todo.copy), path,
                                                  len(files[path]) / 1024))
    except OSError as e:
        if e.errno in (errno.EROFS, errno.EACCES, errno.EPERM):
            raise DeployError(READ_ONLY % drive)
        if e.errno == errno.ENOSPC:
            raise DeployError(FULL % (drive, e.strerror))
        raise DeployError("Writing to %s failed (%s): unplug the board, plug it back in "
                          "holding the throw button, and deploy again." % (drive, e))
    if hasattr(os, "sync"):
        os.sync()


def deploy(drive=None, config=None, lib_dir=None, fetch=True):
    """The whole deploy; returns a summary dict (for tests and the last line)."""
    drive = find_drive(drive)
    version, board_id = board_info(drive)
    say("CIRCUITPY drive at %s: CircuitPython %s on %s" % (drive, version, board_id))
    _writable(drive)
    libs = find_libs(lib_dir, fetch)
    config_text = None
    if config is not None:
        config_text = check_config(config)
    elif not os.path.isfile(os.path.join(drive, "config.json")):
        config_text = "{}\n"
    files = stage(libs, config_text, builtin_pixelbuf=chip(drive) in BUILTIN_PIXELBUF)
    todo = plan(drive, files)
    size = sum(len(files[p]) for p in todo.copy)
    say("Copying %d of %d files (%.1f KB), %d unchanged, %d stale to remove"
        % (len(todo.copy), len(files), size / 1024, len(todo.unchanged), len(todo.remove)))
    if config is None and config_text is None:
        say("  keeping the drive's config.json (use --config FILE to replace it)")
    apply(drive, files, todo)
    say("Done. Press the board's reset button (or unplug it and plug it back in) without "
        "holding the throw button to play.")
    return {"drive": drive, "copied": list(todo.copy), "bytes": size,
            "removed": [p for p, _ in todo.remove], "unchanged": list(todo.unchanged)}


# -- the command line (hooked into `senet-board deploy`) -----------------------------

def add_arguments(parser):
    parser.add_argument("--circuitpython", nargs="?", const="", default=None, metavar="DRIVE",
                        help="fill a CircuitPython board's CIRCUITPY drive instead (found by "
                             "itself, or at DRIVE)")
    parser.add_argument("--cp-lib", metavar="DIR",
                        help="with --circuitpython: folder holding Adafruit's neopixel and "
                             "pixelbuf packages (default: a cache, filled on first use)")


def run(args):
    try:
        deploy(args.circuitpython or None, getattr(args, "config", None),
               getattr(args, "cp_lib", None))
    except DeployError as e:
        print("senet-board deploy: %s" % e, file=sys.stderr)
        return 1
    return 0
