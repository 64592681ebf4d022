"""What the board holds and what a deploy changes on it: pure, no I/O.

:data:`PROBE` runs on the board and prints one Python literal a line;
:meth:`Flash.parse` reads them back. :func:`plan` compares a build with the
flash by sha256 and :func:`check_space` refuses a copy that cannot fit, both
before anything on the board is touched.
"""

import ast
import json

from host_tools.board.build import PACKAGES, decode_mpy
from host_tools.board.messages import FLASH_FULL, DeployError

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
_r = 0
_i = None
try:
    import vfs
    _d = vfs.rom_ioctl(2, 0) if vfs.rom_ioctl(1) > 0 else 0
    if not isinstance(_d, int):
        _r = _d.ioctl(4, 0) * _d.ioctl(5, 0) if hasattr(_d, 'ioctl') else len(_d)
    _m = memoryview(_d) if _r else b''
    if hashlib and bytes(_m[:3]) == b'\xd2\xcd\x31':
        _n = 0
        _e = 3
        while _e < 8:
            _n = (_n << 7) | (_m[_e] & 0x7f)
            _e += 1
            if not _m[_e - 1] & 0x80:
                break
        if _e + _n <= _r:
            _i = binascii.hexlify(hashlib.sha256(_m[:_e + _n]).digest()).decode()
except Exception:
    pass
print(repr(('R', _r, _i)))
_w('')
"""

BLOCK = 4096                   # the Pico's littlefs block, when the board does not say
FS_SPARE_BLOCKS = 2            # room for the filesystem's own writes during the copy


class Flash:
    """What the probe found: the board's MicroPython and its files."""

    def __init__(self, files=None, dirs=(), free=None, block=BLOCK, mpy=None,
                 name="micropython", release="?", platform="?", romfs=0):
        self.files = dict(files or {})       # path: (size, sha256 or None)
        self.dirs = set(dirs)
        self.free = free
        self.block = block
        self.mpy = mpy
        self.name = name
        self.release = release
        self.platform = platform
        self.romfs = romfs                   # bytes of ROMFS partition (0: none)
        self.romfs_image = None              # sha256 of the image in it, if one is

    @classmethod
    def parse(cls, lines):
        """The Flash described by the probe's output lines (others skipped)."""
        flash = cls(name=None)
        for line in lines:
            line = line.strip()
            if not line.startswith("("):
                continue
            try:
                item = ast.literal_eval(line)
            except (ValueError, SyntaxError):
                continue
            if item[0] == "I":
                flash.mpy = decode_mpy(item[1]) if item[1] else None
                flash.name, flash.release, flash.platform = item[2], item[3], item[4]
            elif item[0] == "S":
                flash.free, flash.block = item[1], item[2] or BLOCK
            elif item[0] == "R":
                flash.romfs = item[1] if isinstance(item[1], int) and item[1] > 0 else 0
                flash.romfs_image = item[2] if len(item) > 2 else None
            elif item[0] == "D":
                flash.dirs.add(item[1])
            elif item[0] == "F":
                flash.files[item[1]] = (item[2], item[3])
        return flash


class Plan:
    """Stale paths to remove, folders to make, files to copy (in that order)."""

    def __init__(self, remove, mkdirs, copy, unchanged):
        self.remove = remove          # [(path, is_dir)]
        self.mkdirs = mkdirs
        self.copy = copy              # [path], main.py last
        self.unchanged = unchanged


def _in_package(path):
    """True for a direct child of lib/engine/ or lib/firmware/."""
    return any(path.startswith("lib/%s/" % p) for p in PACKAGES) and path.count("/") == 2


def in_romfs(path):
    """True for a file the ROMFS image holds instead of the flash file system
    (the packages under lib/)."""
    return any(path.startswith("lib/%s/" % p) for p in PACKAGES)


def stale(built, flash, romfs=False):
    """[(path, is_dir)] on the board that the build would not put there and that
    would be found before it: a root engine/ or firmware/ shadows lib/, a
    stale ``x.py`` shadows ``x.mpy``, and a built package has no sub-folders.
    With ``romfs`` (the packages go into the board's ROMFS partition) the
    packages' folders in lib/ go too: an old copy there, found first or not,
    would only take flash."""
    remove = []
    for root in PACKAGES:
        if root in flash.dirs:
            remove.append((root, True))
        elif root + ".py" in flash.files:
            remove.append((root + ".py", False))
    if romfs:
        return remove + [("lib/" + p, True) for p in PACKAGES if "lib/" + p in flash.dirs]
    remove += [(d, True) for d in sorted(flash.dirs) if _in_package(d)]
    gone = [p + "/" for p, is_dir in remove if is_dir]
    for path in sorted(flash.files):
        if any(path.startswith(g) for g in gone):
            continue                  # goes with its folder
        if _in_package(path) and path not in built.files:
            remove.append((path, False))
    return remove


def plan(built, flash, write_config=True, romfs=False):
    """Compare the build with the board's files (by sha256). With ``romfs``
    the packages go into the ROMFS partition: only main.py and config.json
    are copied, and the packages' old copies in lib/ removed."""
    mkdirs = [] if romfs else [d for d in ("lib",) + tuple("lib/" + p for p in PACKAGES)
                               if d not in flash.dirs]
    copy = []
    unchanged = []
    for path in sorted(built.files):
        if romfs and in_romfs(path):
            continue
        if path == "config.json" and not write_config and path in flash.files:
            continue                  # keep the board's own settings
        if flash.files.get(path, (None, None))[1] == built.files[path][1]:
            unchanged.append(path)
        else:
            copy.append(path)
    if "main.py" in copy:             # the new main.py goes last: a copy cut short
        copy.remove("main.py")        # leaves the old firmware still starting
        copy.append("main.py")
    return Plan(stale(built, flash, romfs), mkdirs, copy, unchanged)


def blocks(size, block):
    """Flash blocks a file of ``size`` bytes takes: its data rounded up to whole
    blocks, plus one for its metadata."""
    return (size + block - 1) // block + 1


def space_needed(built, flash, todo):
    """Bytes of free flash the plan ``todo`` uses up (negative: it frees some)."""
    block = flash.block
    need = FS_SPARE_BLOCKS * block
    for path in todo.copy:
        need += blocks(built.size(path), block) * block
        if path in flash.files:
            need -= blocks(flash.files[path][0], block) * block
    for path, is_dir in todo.remove:
        for p, (size, _) in flash.files.items():
            if p == path or (is_dir and p.startswith(path + "/")):
                need -= blocks(size, block) * block
    return need


def check_space(built, flash, todo):
    """Refuse early when the copy cannot fit on the flash."""
    if flash.free is None:
        return
    need = space_needed(built, flash, todo)
    if need > flash.free:
        raise DeployError(FLASH_FULL % ((need - flash.free + 1023) // 1024,
                                        flash.free // 1024))


# micropython-lib's MQTT client, which remote play on a Pico W needs
# (firmware/remote.py); `mpremote mip install` puts it in lib/umqtt/.
MQTT_PACKAGE = "umqtt.simple"
MQTT_FILES = ("lib/umqtt/simple.mpy", "lib/umqtt/simple.py")


def packages_needed(config_text, flash):
    """The micropython-lib packages the config asks for and the board lacks:
    umqtt.simple when config.json has a "remote" section."""
    try:
        raw = json.loads(config_text)
    except ValueError:
        return []
    if not isinstance(raw, dict) or raw.get("remote") is None:
        return []
    if any(path in flash.files for path in MQTT_FILES):
        return []
    return [MQTT_PACKAGE]
