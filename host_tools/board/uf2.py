"""One UF2 file that puts the built firmware on a Pico held in BOOTSEL.

The Pico's boot ROM shows a drive (RPI-RP2) and writes any UF2 file copied
onto it into flash, 256 bytes a block, then restarts. MicroPython keeps its
file system in the same flash, so a UF2 that holds a littlefs image at the
file system's address installs our files without the laptop tools: the
maker drags one file, MicroPython starts, mounts the image and runs main.py.

Where and how (MicroPython 1.25, the rp2 port, board RPI_PICO):

    ports/rp2/boards/RPI_PICO/mpconfigboard.h   MICROPY_HW_FLASH_STORAGE_BYTES = 1408 KB
    ports/rp2/rp2_flash.c                       the file system ends the 2 MB flash:
                                                offset 2048 - 1408 KB = 0xA0000,
                                                4096-byte blocks (FLASH_SECTOR_SIZE)
    ports/rp2/modules/_boot.py                  VfsLfs2(rp2.Flash(), progsize=256)
    extmod/vfs_lfs.c, vfs_lfsx.c                readsize 32, lookahead 32,
                                                cache 4 * 256, block_cycles 100

The image is written in littlefs's on-disk format 2.0, which every
MicroPython with littlefs v2 reads. It covers the whole file system, blank
blocks included: an old directory block left beside the new ones could be
taken for newer, so nothing of the old files (a saved game included) stays.

With MicroPython's own UF2 (``--micropython``) both go into one file for a
blank Pico; that file must be an RP2040 one ending below the file system.

The Senet board's own MicroPython (hardware/micropython/SENET_PICO, known
by the board name it carries) keeps a ROMFS partition just below a smaller
file system. Merged with it, the UF2 holds the engine and firmware as a
ROMFS image at the partition's address (``mpremote romfs build``, as
deploy writes it) and main.py and config.json in the file system at its
own; the layout is read from that board definition, not repeated here.
"""

import os
import re
import struct
import tempfile

FAMILY_RP2040 = 0xE48BFF56
MAGIC_START0 = 0x0A324655
MAGIC_START1 = 0x9E5D5157
MAGIC_END = 0x0AB16F30
FLAG_NOT_MAIN_FLASH = 0x00000001
FLAG_FAMILY_ID = 0x00002000
BLOCK = 512                     # a UF2 block on the drive
PAYLOAD = 256                   # the flash page the boot ROM programs at a time

XIP_BASE = 0x10000000           # where the RP2040 maps its flash
FS_OFFSET = 0xA0000             # 2 MB flash - 1408 KB file system
FS_BLOCK = 4096
FS_BLOCKS = 352
FS_START = XIP_BASE + FS_OFFSET
FS_END = FS_START + FS_BLOCK * FS_BLOCKS

# littlefs as the rp2 port mounts it; disk version 2.0 for every MicroPython.
LITTLEFS = {"block_size": FS_BLOCK, "block_count": FS_BLOCKS, "read_size": 32,
            "prog_size": 256, "cache_size": 4 * 256, "lookahead_size": 32,
            "block_cycles": 100, "disk_version": 0x00020000}

NOT_UF2 = "%s is not a UF2 file (%s): download the .uf2 for the Raspberry Pi Pico from micropython.org/download/RPI_PICO/."
NOT_RP2040 = "%s is a UF2 for another chip (family %#010x), not the Pico's RP2040: download the RPI_PICO file from micropython.org/download/RPI_PICO/."
NO_FAMILY = "%s names no chip (a UF2 without a family id), so the Pico's RP2040 would ignore it: download the RPI_PICO file from micropython.org/download/RPI_PICO/."
OVERLAPS = "%s writes flash up to %#010x, into the file system at %#010x: use MicroPython's own RPI_PICO file, not one that carries files."
CANNOT_READ = "cannot read %s: %s."
CANNOT_WRITE = "cannot write %s: %s; choose a folder you can write to."
NO_LITTLEFS = "senet-board build --uf2 needs littlefs-python: pip install littlefs-python (or pip install -e . again)."
TOO_BIG = "the firmware does not fit the Pico's %d KB file system: %s."
ROMFS_TOO_BIG = ("the firmware's ROMFS image (%.1f KB) is larger than the partition of this "
                 "MicroPython (%.1f KB): build MicroPython with a larger MICROPY_HW_ROMFS_BYTES.")


class Uf2Error(ValueError):
    """A file given to ``build --uf2`` that cannot be used, said in one sentence."""


# -- where things go in the flash -----------------------------------------------------

class Layout:
    """Where the file system (and a ROMFS partition, if any) lie in the flash."""

    def __init__(self, fs_start=FS_START, fs_blocks=FS_BLOCKS, romfs_start=None,
                 romfs_bytes=0):
        self.fs_start = fs_start
        self.fs_blocks = fs_blocks
        self.romfs_start = romfs_start
        self.romfs_bytes = romfs_bytes

    def first(self):
        """The first address MicroPython's own pages must stay below."""
        return self.romfs_start if self.romfs_bytes else self.fs_start


STOCK = Layout()
FLASH_BYTES = 2048 * 1024
BOARD_H = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(
    __file__)))), "hardware", "micropython", "SENET_PICO", "mpconfigboard.h")


def senet_board():
    """(the board name, the Layout) of hardware/micropython/SENET_PICO: the rp2
    port puts the file system at the end of the flash and the partition just
    below it (ports/rp2/rp2_flash.c)."""
    with open(BOARD_H) as f:
        text = f.read()
    name = re.search(r'#define\s+MICROPY_HW_BOARD_NAME\s+"([^"]+)"', text).group(1)
    sizes = {}
    for key, expr in re.findall(r"#define\s+(MICROPY_HW_\w+_BYTES)\s+(.+)", text):
        for known, value in sizes.items():
            expr = expr.replace(known, str(value))
        if not re.fullmatch(r"[\d\s()*+\-]+", expr):
            raise ValueError("%s: %s is not a plain size: %s" % (BOARD_H, key, expr))
        sizes[key] = eval(expr)
    storage, romfs = sizes["MICROPY_HW_FLASH_STORAGE_BYTES"], sizes["MICROPY_HW_ROMFS_BYTES"]
    fs_start = XIP_BASE + FLASH_BYTES - storage
    return name, Layout(fs_start, storage // FS_BLOCK, fs_start - romfs, romfs)


def layout_of(pages):
    """The Layout MicroPython's own ``pages`` were built for: the Senet board's
    when its name is in them, else RPI_PICO's."""
    try:
        name, layout = senet_board()
    except OSError:                  # an install without the clone's hardware/ folder
        return STOCK
    text = b"".join(data for _, data in sorted(pages))
    return layout if name.encode() in text else STOCK


# -- UF2 blocks ---------------------------------------------------------------------

def block(addr, data, number, total):
    """One 512-byte UF2 block carrying ``data`` (256 bytes) for flash address ``addr``."""
    head = struct.pack("<8I", MAGIC_START0, MAGIC_START1, FLAG_FAMILY_ID, addr, len(data),
                       number, total, FAMILY_RP2040)
    return head + data + b"\0" * (476 - len(data)) + struct.pack("<I", MAGIC_END)


def pack(pages):
    """A UF2 file from ``pages``, a list of (address, 256 bytes) in address order."""
    total = len(pages)
    return b"".join(block(addr, data, n, total) for n, (addr, data) in enumerate(pages))


def unpack(data, name):
    """The (address, payload) pages of a UF2 file, each block checked; a Uf2Error
    naming ``name`` if it is not a UF2 the Pico's boot ROM would take."""
    if not data or len(data) % BLOCK:
        raise Uf2Error(NOT_UF2 % (name, "%d bytes, not whole 512-byte blocks" % len(data)))
    pages = []
    for at in range(0, len(data), BLOCK):
        m0, m1, flags, addr, size, _, _, family = struct.unpack_from("<8I", data, at)
        (end,) = struct.unpack_from("<I", data, at + BLOCK - 4)
        if (m0, m1, end) != (MAGIC_START0, MAGIC_START1, MAGIC_END):
            raise Uf2Error(NOT_UF2 % (name, "block %d has no UF2 marks" % (at // BLOCK)))
        if flags & FLAG_NOT_MAIN_FLASH:
            continue                            # the boot ROM skips these too
        if not flags & FLAG_FAMILY_ID:
            raise Uf2Error(NO_FAMILY % name)
        if family != FAMILY_RP2040:
            raise Uf2Error(NOT_RP2040 % (name, family))
        if size != PAYLOAD or addr % PAYLOAD:
            raise Uf2Error(NOT_UF2 % (name, "block %d carries %d bytes at %#x, not a "
                                      "256-byte page" % (at // BLOCK, size, addr)))
        pages.append((addr, bytes(data[at + 32:at + 32 + size])))
    return pages


def read_micropython(path):
    """MicroPython's UF2 for the Pico, as pages ending below the file system
    (below the ROMFS partition, for the Senet board's own build)."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        raise Uf2Error(CANNOT_READ % (path, e.strerror or e))
    pages = unpack(data, path)
    if not pages:
        raise Uf2Error(NOT_UF2 % (path, "no block for the flash"))
    end = max(addr for addr, _ in pages) + PAYLOAD
    first = layout_of(pages).first()
    if end > first:
        raise Uf2Error(OVERLAPS % (path, end, first))
    return pages


# -- the file system ------------------------------------------------------------------

def littlefs_image(folder, blocks=FS_BLOCKS, skip=()):
    """The Pico's whole file system of ``blocks`` blocks, holding every file
    under ``folder`` but those under the folders ``skip``."""
    try:
        from littlefs import LittleFS, LittleFSError
    except ImportError:
        raise Uf2Error(NO_LITTLEFS)
    fs = LittleFS(mount=False, **dict(LITTLEFS, block_count=blocks))
    fs.format()
    fs.mount()
    try:
        for path, data in sorted(read_tree(folder).items()):
            if any(path.startswith(top + "/") for top in skip):
                continue
            parent = path.rpartition("/")[0]
            if parent:
                fs.makedirs(parent, exist_ok=True)
            with fs.open(path, "wb") as f:
                f.write(data)
    except LittleFSError as e:
        raise Uf2Error(TOO_BIG % (FS_BLOCK * blocks // 1024, e))
    fs.unmount()
    return bytes(fs.context.buffer)


def read_tree(folder):
    """{path on the Pico: bytes} for every file under ``folder``."""
    found = {}
    for dirpath, _, names in os.walk(folder):
        for name in names:
            path = os.path.join(dirpath, name)
            with open(path, "rb") as f:
                found[os.path.relpath(path, folder).replace(os.sep, "/")] = f.read()
    return found


def image_pages(image, start=FS_START):
    """The image cut into the 256-byte pages the boot ROM writes, every one kept."""
    return [(start + at, image[at:at + PAYLOAD]) for at in range(0, len(image), PAYLOAD)]


def romfs_pages(folder, layout):
    """The ROMFS image of ``folder``/lib, cut into pages at the partition."""
    from host_tools.board.build import romfs_image
    from host_tools.board.messages import DeployError
    with tempfile.TemporaryDirectory() as tmp:
        image = os.path.join(tmp, "senet.romfs")
        try:
            size, _ = romfs_image(os.path.join(folder, "lib"), image)
        except DeployError as e:
            raise Uf2Error(str(e).rstrip(".") + ".")
        if size > layout.romfs_bytes:
            raise Uf2Error(ROMFS_TOO_BIG % (size / 1024, layout.romfs_bytes / 1024))
        with open(image, "rb") as f:
            data = f.read()
        # whole pages: the boot ROM programs 256 bytes at a time (0xff is erased flash)
        return image_pages(data + b"\xff" * (-len(data) % PAYLOAD), layout.romfs_start)


def write(folder, out, micropython=None):
    """Write ``out``: the files under ``folder`` as the Pico's file system, after
    MicroPython's own pages if ``micropython`` names its UF2; for the Senet
    board's own MicroPython, lib/ as a ROMFS image in its partition and the
    rest in its file system. Returns the size."""
    pages = read_micropython(micropython) if micropython else []
    layout = layout_of(pages) if pages else STOCK
    if layout.romfs_bytes:
        pages = (sorted(pages) + romfs_pages(folder, layout)
                 + image_pages(littlefs_image(folder, layout.fs_blocks, skip=("lib",)),
                               layout.fs_start))
    else:
        pages = sorted(pages) + image_pages(littlefs_image(folder))
    data = pack(pages)
    tmp = out + ".part"
    try:
        with open(tmp, "wb") as f:
            f.write(data)
        os.replace(tmp, out)
    except OSError as e:
        raise Uf2Error(CANNOT_WRITE % (out, e.strerror or e))
    return len(data)
