"""The Pico's flash file system on the host: littlefs (littlefs-python, the
same C library MicroPython's rp2 port builds in) on a flash chip modelled in
memory that counts what is done to it and can lose its power at any moment.

Configured as MicroPython's rp2 port mounts its flash (ports/rp2/modules/
_boot.py: ``VfsLfs2(rp2.Flash(), progsize=256)``; extmod/vfs_lfs.c defaults
readsize=32 and lookahead=32; extmod/vfs_lfsx.c sets ``block_cycles = 100``
and ``cache_size = 4 * max(readsize, progsize)`` = 1024): 4096-byte erase
blocks, 256-byte pages, a 1 KB cache. The cache size matters: it sets how
large a file littlefs keeps inline in its directory (512 bytes here) and
how a commit lines up with the pages. 352 blocks: the 1408 KB file system
of a 2 MB Pico.

    flash = Flash()
    fs = mount(flash)                  # formats a blank flash first
    store = Store("", fs=PicoFs(fs))
    flash.cut_at = flash.ops + 5       # the power goes at the 5th operation from now
    ...
    fs = mount(Flash(flash.image()))   # power back on: the flash as it was left
"""

import io

from littlefs import FileHandle, LittleFS, LittleFSError, UserContext
from littlefs.lfs import LFSFileFlag, file_open

BLOCK = 4096
PAGE = 256
BLOCKS = 352
RP2 = {"block_size": BLOCK, "block_count": BLOCKS, "read_size": 32, "prog_size": PAGE,
       "cache_size": 4 * PAGE, "lookahead_size": 32, "block_cycles": 100}


class Flash(UserContext):
    """NOR flash: erase sets a block to 0xFF, a program writes pages.

    ``ops`` counts programs and erases; ``programmed`` the bytes programmed,
    ``erases`` the blocks erased. With ``cut_at`` = n the power goes at the
    n-th operation: a program has written the first half of its bytes
    (``torn``) or none, an erase has cleared half the block or none, and
    ``image()`` is the chip as it stands then, for good (``dead``).

    The code above does not notice: the operation and those after it are
    carried out as usual (littlefs stops at an internal assertion when a
    chip fails under it, which a Pico without power never gets to see).
    """

    def __init__(self, image=None, blocks=BLOCKS):
        if image is None:
            super().__init__(BLOCK * blocks)
        else:
            super().__init__(buffer=bytearray(image))
        self.ops = 0
        self.programmed = 0
        self.erases = 0
        self.cut_at = None
        self.torn = True
        self.dead = False
        self._left = None

    def _count(self):
        """Count one operation: True if the power goes at this one."""
        self.ops += 1
        return not self.dead and self.cut_at is not None and self.ops >= self.cut_at

    def read(self, cfg, block, off, size):
        start = block * BLOCK + off      # as littlefs-python's, without its logging
        return self.buffer[start:start + size]

    def prog(self, cfg, block, off, data):
        if self._count():
            left = bytearray(self.buffer)
            if self.torn:
                start = block * BLOCK + off
                half = len(data) // 2
                left[start:start + half] = data[:half]
            self._cut(left)
        self.programmed += len(data)
        return super().prog(cfg, block, off, data)

    def erase(self, cfg, block):
        if self._count():
            left = bytearray(self.buffer)
            if self.torn:
                start = block * BLOCK
                left[start:start + BLOCK // 2] = b"\xff" * (BLOCK // 2)
            self._cut(left)
        self.erases += 1
        return super().erase(cfg, block)

    def _cut(self, left):
        self.dead = True
        self._left = bytes(left)

    def image(self):
        """The chip's contents now, or as the power left them."""
        return self._left if self.dead else bytes(self.buffer)


def mount(flash):
    """littlefs on ``flash`` as the rp2 port mounts it (formatted if blank).
    A chip smaller than the Pico's (``Flash(blocks=16)``) fills up sooner
    and is quicker to copy, for tests that power it on thousands of times."""
    blank = flash.buffer[:2 * BLOCK] == b"\xff" * (2 * BLOCK)
    fs = LittleFS(context=flash, mount=False, **dict(RP2, block_count=len(flash.buffer) // BLOCK))
    if blank:
        fs.format()
    fs.mount()
    return fs


class PicoFs:
    """``firmware.store.Store``'s file system seam over littlefs-python, with
    MicroPython's meaning of the modes: "a" creates a missing file, as
    VfsLfs2 does (littlefs-python's own open does not); and its errors, as
    OSErrors (a full flash: ``OSError(28)``, ENOSPC)."""

    def __init__(self, fs):
        self.lfs = fs

    def open(self, path, mode="r"):
        return _File(_os(self._open, path, mode))

    def _open(self, path, mode):
        if mode.startswith("a"):
            fh = file_open(self.lfs.fs, path,
                           LFSFileFlag.wronly | LFSFileFlag.creat | LFSFileFlag.append)
            raw = FileHandle(self.lfs.fs, fh)
            return io.TextIOWrapper(io.BufferedWriter(raw, RP2["cache_size"]))
        return self.lfs.open(path, mode)

    def rename(self, old, new):
        _os(self.lfs.rename, old, new)

    def remove(self, path):
        _os(self.lfs.remove, path)

    def stat(self, path):
        return _os(self.lfs.stat, path)

    def listdir(self):
        return sorted(self.lfs.listdir("/"))

    def files(self):
        """Every file's text, by name."""
        return {name: self.read(name) for name in self.listdir()}

    def read(self, path):
        with self.lfs.open(path, "r") as f:
            return f.read()


class _File:
    """An open littlefs file as MicroPython's VfsLfs2 gives it: its errors
    are OSErrors, and a close that fails has closed it all the same (littlefs
    has let go of it; a second close would free it twice)."""

    def __init__(self, f):
        self.f = f

    def write(self, data):
        return _os(self.f.write, data)

    def read(self, *size):
        return _os(self.f.read, *size)

    def readline(self):
        return _os(self.f.readline)

    def flush(self):
        _os(self.f.flush)

    def close(self):
        try:
            _os(self.f.close)
        finally:
            setattr(self.f.buffer.raw, "__IOBase_closed", True)   # as its own close does

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def _os(call, *args):
    """``call(*args)``, its failure an OSError as from MicroPython's os."""
    try:
        return call(*args)
    except LittleFSError as e:
        raise OSError(-e.code, str(e)) from e
