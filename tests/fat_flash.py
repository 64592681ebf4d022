"""CircuitPython's CIRCUITPY drive on the host: ChaN's FatFs (the ``fatfs``
package: the library CircuitPython builds in as lib/oofatfs) on a model of
the RP2040's flash as CircuitPython drives it, counting every erase by
4 KB block, and able to lose its power at any operation.

What the model takes from CircuitPython (ports/raspberrypi/supervisor/
internal_flash.c, supervisor/shared/flash.c, supervisor/shared/
filesystem.c, supervisor/shared/fatfs.c, shared-bindings/os/__init__.c):

- FatFs sees 512-byte sectors; the flash erases 4096-byte sectors (here:
  blocks, 8 FatFs sectors each). ``supervisor_flash_write_blocks`` copies a
  written sector into a one-block RAM cache (``_cache``), loading the block
  from flash first; a write to another block first writes the cached one
  back.
- Write-back (``port_internal_flash_flush``) is always a whole block:
  ``flash_range_erase`` of 4 KB, then ``flash_range_program`` of 4 KB, 16
  pages of 256 bytes. It happens on a write to another block, on any read
  ("we never read out of the cache": ``supervisor_flash_read_blocks``
  flushes first), on FatFs's ``CTRL_SYNC`` (f_sync, f_close, f_unlink,
  f_rename all end with it; so does ``os.sync()``), and about a second
  after the last write (``filesystem_tick``): ``idle()`` here.
- The drive is 1 MB: 2048 sectors, formatted as CircuitPython's f_mkfs
  does for that size: FAT12, one FAT, 512 root entries, 1-sector clusters.
  Block 0 holds the boot sector and the FAT (sectors 1-7), blocks 1-4 the
  root directory (sectors 8-39), file data starts at sector 40.
- ``get_fattime`` is the RTC's time (``CIRCUITPY_RTC``): every f_sync of a
  written file stamps its directory entry, so the entry's sector is
  written even when the size did not change. Here the time comes from
  ``Flash.clock_s`` (seconds), not the host's clock.

Where the model differs: this FatFs build (R0.15, the ``fatfs`` wheel)
has no long file names, so a name longer than 8.3 is stored under its
short form (``game.json`` as ``GAME.JSO``). CircuitPython's FatFs writes an
LFN slot beside such a name's short entry, in the same directory sector or
the next: both are in block 1, so the counts per block are the same.

    flash = Flash()
    fs = mount(flash)                      # formats a blank flash, with the
                                           # files a deployed drive holds
    store = Store("", fs=fs)
    flash.erases                           # [erases of block 0, 1, ...]
    flash.cut_at = flash.ops + 5           # the power goes at the 5th operation
    fs = mount(Flash(flash.image()))       # power back on
"""

import ctypes
import errno

SECTOR = 512
BLOCK = 4096
PAGE = 256
SECTORS = 2048                   # the Pico's 1 MB CIRCUITPY
PER_BLOCK = BLOCK // SECTOR

FA_READ = 0x01
FA_WRITE = 0x02
FA_CREATE_ALWAYS = 0x08
FA_OPEN_APPEND = 0x30
_ERRNO = {4: errno.ENOENT, 5: errno.ENOENT, 6: errno.EINVAL, 7: errno.EACCES,
          8: errno.EEXIST, 1: errno.EIO, 2: errno.EIO, 3: errno.EIO}


class Missing(Exception):
    """The ``fatfs`` package is not installed."""


def _fatfs():
    try:
        import fatfs.wrapper as wrapper
    except ImportError as e:
        raise Missing("the FAT model needs the fatfs package (ChaN's FatFs), a test "
                      "dependency: pip install -e '.[test]' (%s)" % e)
    return wrapper


class Flash:
    """The flash behind CIRCUITPY, with CircuitPython's one-block cache.

    ``erases[b]`` counts the erases of block ``b``, ``programs`` the pages
    programmed, ``ops`` both. With ``cut_at`` = n the power goes at the
    n-th operation: an erase has cleared the first half of its block (or,
    ``torn`` False, nothing), a program has written the first half of its
    page; ``image()`` is the chip as it was left, and ``dead`` says so. The
    code above carries on unaware, as FatFs on a board would never see it.
    """

    def __init__(self, image=None, sectors=SECTORS):
        self.chip = bytearray(image) if image is not None else bytearray(b"\xff" * (sectors * SECTOR))
        self.sectors = len(self.chip) // SECTOR
        self.erases = [0] * (self.sectors // PER_BLOCK)
        self.programs = 0
        self.ops = 0
        self.cut_at = None
        self.torn = True
        self.dead = False
        self.clock_s = 0
        self._left = None
        self._cached = None          # the block in the RAM cache, or None
        self._cache = bytearray(BLOCK)

    # -- FatFs's disk (fatfs.wrapper calls these; counts are in bytes) ---------

    def ioctl_get_sector_count(self):
        return self.sectors

    def ioctl_get_sector_size(self):
        return SECTOR

    def ioctl_get_block_size(self):
        return 1                     # extmod/vfs_fat_diskio.c: GET_BLOCK_SIZE is 1

    def ioctl_sync(self):
        self.flush()

    def ioctl_trim(self):
        pass

    def read(self, sector, size):
        self.flush()                 # never read out of the cache
        start = sector * SECTOR
        return bytes(self.chip[start:start + size])

    def write(self, sector, size, data):
        for i in range(size // SECTOR):
            s = sector + i
            block = s // PER_BLOCK
            if self._cached != block:
                self.flush()
                start = block * BLOCK
                self._cache[:] = self.chip[start:start + BLOCK]
                self._cached = block
            at = (s % PER_BLOCK) * SECTOR
            self._cache[at:at + SECTOR] = data[i * SECTOR:(i + 1) * SECTOR]

    # -- the chip ----------------------------------------------------------------

    def flush(self):
        """``port_internal_flash_flush``: the cached block erased and programmed."""
        block = self._cached
        if block is None:
            return
        self._cached = None
        start = block * BLOCK
        if self._count():
            left = bytearray(self.chip)
            if self.torn:
                left[start:start + BLOCK // 2] = b"\xff" * (BLOCK // 2)
            self._cut(left)
        self.erases[block] += 1
        self.chip[start:start + BLOCK] = b"\xff" * BLOCK
        for p in range(BLOCK // PAGE):
            at = start + p * PAGE
            page = self._cache[p * PAGE:(p + 1) * PAGE]
            if self._count():
                left = bytearray(self.chip)
                if self.torn:
                    left[at:at + PAGE // 2] = page[:PAGE // 2]
                self._cut(left)
            self.programs += 1
            self.chip[at:at + PAGE] = page

    def idle(self):
        """A second with no writes: CircuitPython's background flush."""
        self.flush()

    def _count(self):
        self.ops += 1
        return not self.dead and self.cut_at is not None and self.ops >= self.cut_at

    def _cut(self, left):
        self.dead = True
        self._left = bytes(left)

    def image(self):
        """The chip now (the cache written back), or as the power left it."""
        if self.dead:
            return self._left
        self.flush()
        return bytes(self.chip)

    def total_erases(self):
        return sum(self.erases)


class _Clock:
    """``datetime`` for the fatfs wrapper's get_fattime: the flash's clock."""

    flash = None

    class datetime:
        @staticmethod
        def now():
            import datetime as real
            s = _Clock.flash.clock_s if _Clock.flash is not None else 0
            return real.datetime(2000, 1, 1) + real.timedelta(seconds=s)


_mounted = {}


def _lib():
    wrapper = _fatfs()
    if "lib" not in _mounted:
        wrapper.datetime = _Clock              # the RTC, not the host's clock
        _mounted["lib"] = ctypes.PyDLL(wrapper.__file__)   # the GIL kept: the disk is Python
    return wrapper, _mounted["lib"]


def mount(flash, deployed=True):
    """FatFs on ``flash`` (one volume at a time: the one before is let go).
    A blank flash is formatted as CircuitPython formats CIRCUITPY and, with
    ``deployed``, given the files a deployed board holds."""
    wrapper, lib = _lib()
    old = _mounted.get("partition")
    if old is not None:
        try:
            old.unmount()
        except Exception:
            pass
    _Clock.flash = flash
    partition = wrapper.Partition(flash)
    _mounted["partition"] = partition
    blank = flash.chip[:SECTOR] == b"\xff" * SECTOR
    if blank:
        ret = wrapper.pyf_mkfs(b"0:", 1, 1, 512, SECTOR)
        if ret:
            raise OSError(errno.EIO, "f_mkfs failed (%d)" % ret)
    partition.mount()
    fs = CircuitPyFs(lib)
    if blank and deployed:
        _deploy(fs)
        flash.idle()
    return fs


def _deploy(fs):
    """What CIRCUITPY holds before the game's first save: CircuitPython's own
    files, then deploy's (the engine and firmware sources, about 340 KB, in
    lib/). Their directory entries fill the root's first sector."""
    for name, size in (("settings.toml", 0), ("code.py", 400), ("boot_out.txt", 160),
                       ("boot.py", 1500), ("config.json", 2)):
        with fs.open(name, "wb") as f:
            f.write(b"#" * size)
    fs.mkdir("lib")
    for i in range(40):
        with fs.open("lib/part%02d.py" % i, "wb") as f:
            f.write(b"#" * 8500)


def short_name(path):
    """``game.json`` -> ``game.jso``: the 8.3 form this FatFs build takes."""
    folder, _, name = path.rpartition("/")
    body, dot, ext = name.partition(".")
    name = body[:8] + dot + ext[:3]
    return (folder + "/" + name) if folder else name


class CircuitPyFs:
    """``open`` and ``os`` as CircuitPython gives them on CIRCUITPY, for
    ``firmware.store.Store(folder, fs=...)``: text and binary files, "r",
    "w", "a", "r+b"; errors as OSErrors; ``sync()`` is ``os.sync()``."""

    def __init__(self, lib):
        self.lib = lib

    def _path(self, path):
        return ("0:/" + short_name(path.lstrip("/"))).encode()

    def _call(self, name, *args):
        ret = getattr(self.lib, name)(*args)
        if ret:
            raise OSError(_ERRNO.get(ret, errno.EIO), "%s failed (FRESULT %d)" % (name, ret))

    def open(self, path, mode="r"):
        flags = {"r": FA_READ, "w": FA_WRITE | FA_CREATE_ALWAYS, "a": FA_WRITE | FA_OPEN_APPEND,
                 "r+": FA_READ | FA_WRITE, "w+": FA_READ | FA_WRITE | FA_CREATE_ALWAYS}
        key = mode.replace("b", "").replace("t", "")
        if key not in flags:
            raise ValueError("mode %r" % mode)
        f = FatFile(self, "b" in mode)
        self._call("f_open", f.fil, self._path(path), flags[key])
        f.open = True
        return f

    def rename(self, old, new):
        self._call("f_rename", self._path(old), self._path(new))

    def remove(self, path):
        self._call("f_unlink", self._path(path))

    def mkdir(self, path):
        self._call("f_mkdir", self._path(path))

    def stat(self, path):
        info = ctypes.create_string_buffer(64)
        self._call("f_stat", self._path(path), info)
        size = int.from_bytes(info.raw[:4], "little")
        attrib = info.raw[8]
        return (0o040000 if attrib & 0x10 else 0o100000, 0, 0, 0, 0, 0, size, 0, 0, 0)

    def sync(self):
        """``os.sync()``: CTRL_SYNC, the block cache written back."""
        _Clock.flash.flush()

    def listdir(self, path=""):
        d = ctypes.create_string_buffer(256)
        info = ctypes.create_string_buffer(64)
        self._call("f_opendir", d, ("0:/" + path).encode())
        names = []
        try:
            while True:
                self._call("f_readdir", d, info)
                name = info.raw[9:22].split(b"\0")[0].decode()
                if not name:
                    return sorted(names)
                names.append(name.lower())
        finally:
            self.lib.f_closedir(d)

    def read(self, path):
        with self.open(path) as f:
            return f.read()

    def files(self):
        """Every file's text, by (short, lower-case) name, of the root."""
        out = {}
        for name in self.listdir():
            if not self.stat(name)[0] & 0o040000:
                out[name] = self.read(name)
        return out


class FatFile:
    """An open FatFs file (FIL), as CircuitPython's file object wraps it:
    ``read``, ``readline``, ``write``, ``seek``, ``tell``, ``flush`` (f_sync)
    and ``close`` (f_close)."""

    def __init__(self, fs, binary):
        self.fs = fs
        self.binary = binary
        self.fil = ctypes.create_string_buffer(1024)
        self.open = False
        self._n = ctypes.c_uint()

    def _call(self, name, *args):
        if not self.open:
            raise ValueError("I/O operation on closed file")
        self.fs._call(name, self.fil, *args)

    def write(self, data):
        raw = data if isinstance(data, (bytes, bytearray, memoryview)) else data.encode()
        raw = bytes(raw)
        self._call("f_write", raw, len(raw), ctypes.byref(self._n))
        if self._n.value != len(raw):
            raise OSError(errno.ENOSPC, "No space left on device")
        return len(data)

    def read(self, size=-1):
        if size is None or size < 0:
            size = 1 << 20
        buf = ctypes.create_string_buffer(max(size, 1))
        self._call("f_read", buf, size, ctypes.byref(self._n))
        raw = buf.raw[:self._n.value]
        return raw if self.binary else raw.decode()

    def readline(self):
        out = b""
        while True:
            c = self.read(1)
            if not c:
                break
            c = c if self.binary else c.encode()
            out += c
            if c == b"\n":
                break
        return out if self.binary else out.decode()

    def seek(self, offset, whence=0):
        if whence == 2:
            offset += self.size()
        elif whence == 1:
            offset += self.tell()
        self._call("f_lseek", ctypes.c_uint32(offset))
        return offset

    def tell(self):
        return int.from_bytes(self.fil.raw[28:32], "little")      # FIL.fptr (64-bit layout)

    def size(self):
        return int.from_bytes(self.fil.raw[16:20], "little")      # FIL.obj.objsize

    def flush(self):
        self._call("f_sync")

    def close(self):
        if self.open:
            try:
                self._call("f_close")
            finally:
                self.open = False

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

