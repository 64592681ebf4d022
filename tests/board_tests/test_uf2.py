"""One UF2 file to drag onto a Pico held in BOOTSEL: `senet-board build --uf2`.

The file is read back here by a parser of its own (the UF2 specification,
github.com/microsoft/uf2), not by the writer's: every block's magics, flags,
family (RP2040), 256-byte payload, number and total. The flash it writes is
rebuilt and mounted with littlefs as MicroPython's rp2 port mounts its file
system (tests/lfs_flash.py: ``VfsLfs2(rp2.Flash(), progsize=256)``, 352
blocks of 4096 bytes at flash offset 0xA0000), and every file is compared
with the tree `build` stages.

A MicroPython UF2 cannot be downloaded in a test, so the merge is proven with
a small made-up one: a few blocks at the start of the flash, as MicroPython's
own file has, with a recognisable pattern in each.
"""

import os
import struct

import pytest

try:
    from littlefs import LittleFS
except ImportError as e:        # littlefs-python is a dependency of the package
    raise ImportError("tests/board_tests/test_uf2.py needs littlefs-python "
                      "(pip install -e .): %s" % e)

from host_tools.cli import main
from lfs_flash import RP2, Flash

MAGIC0, MAGIC1, MAGIC_END = 0x0A324655, 0x9E5D5157, 0x0AB16F30
FAMILY_ID_PRESENT = 0x00002000
RP2040 = 0xE48BFF56
RP2350_ARM = 0xE48BFF59
XIP_BASE = 0x10000000
FS_START = XIP_BASE + 0xA0000          # MICROPY_HW_FLASH_STORAGE_BASE on a 2 MB Pico
FS_BYTES = 1408 * 1024                 # MICROPY_HW_FLASH_STORAGE_BYTES, RPI_PICO


def read_uf2(data):
    """Every 512-byte block as a dict, checking what each must hold."""
    assert len(data) % 512 == 0, "a UF2 is whole 512-byte blocks"
    blocks = []
    for at in range(0, len(data), 512):
        block = data[at:at + 512]
        m0, m1, flags, addr, size, number, total, family = struct.unpack("<8I", block[:32])
        (end,) = struct.unpack("<I", block[508:512])
        assert (m0, m1, end) == (MAGIC0, MAGIC1, MAGIC_END), "block %d's magics" % number
        blocks.append({"flags": flags, "addr": addr, "size": size, "number": number,
                       "total": total, "family": family, "payload": block[32:32 + size]})
    return blocks


def write_uf2(chunks, family=RP2040, payload=256):
    """A UF2 of (address, bytes) chunks, as a stand-in for MicroPython's own."""
    out = b""
    for n, (addr, data) in enumerate(chunks):
        head = struct.pack("<8I", MAGIC0, MAGIC1, FAMILY_ID_PRESENT, addr, payload, n,
                           len(chunks), family)
        out += head + data.ljust(476, b"\0") + struct.pack("<I", MAGIC_END)
    return out


def flash_region(blocks, start, length):
    """The bytes the blocks put in [start, start + length); erased flash elsewhere."""
    region = bytearray(b"\xff" * length)
    for b in blocks:
        if start <= b["addr"] < start + length:
            region[b["addr"] - start:b["addr"] - start + b["size"]] = b["payload"]
    return bytes(region)


def files_in(fs, top="/"):
    found = {}
    for dirpath, _, names in fs.walk(top):
        for name in names:
            path = (dirpath.rstrip("/") + "/" + name).lstrip("/")
            with fs.open(path, "rb") as f:
                found[path] = f.read()
    return found


def tree(folder):
    found = {}
    for dirpath, _, names in os.walk(folder):
        for name in names:
            path = os.path.join(dirpath, name)
            with open(path, "rb") as f:
                found[os.path.relpath(path, folder).replace(os.sep, "/")] = f.read()
    return found


def headers_are_sound(blocks):
    """The RP2040 boot ROM's demands on every block."""
    for n, b in enumerate(blocks):
        assert b["flags"] == FAMILY_ID_PRESENT, "block %d flags %#x" % (n, b["flags"])
        assert b["family"] == RP2040, "block %d family %#x" % (n, b["family"])
        assert b["size"] == 256 and b["addr"] % 256 == 0
        assert b["number"] == n and b["total"] == len(blocks)
    addrs = [b["addr"] for b in blocks]
    assert addrs == sorted(addrs) and len(set(addrs)) == len(addrs), "addresses in order"


@pytest.fixture(scope="module")
def made(tmp_path_factory):
    """`senet-board build OUT --uf2 senet.uf2`: the staged tree and its UF2."""
    tmp = tmp_path_factory.mktemp("uf2")
    out, uf2 = str(tmp / "out"), str(tmp / "senet.uf2")
    assert main(["build", out, "--uf2", uf2]) == 0
    with open(uf2, "rb") as f:
        return {"tree": tree(out), "uf2": f.read(), "path": uf2}


def test_every_block_of_the_uf2_is_an_rp2040_block_in_address_order(made):
    blocks = read_uf2(made["uf2"])
    headers_are_sound(blocks)
    # the whole file system and nothing else: old files cannot survive beside it
    assert blocks[0]["addr"] == FS_START
    assert blocks[-1]["addr"] + 256 == FS_START + FS_BYTES
    assert len(blocks) == FS_BYTES // 256
    print("UF2 %s: %d bytes, %d blocks" % (os.path.basename(made["path"]),
                                           len(made["uf2"]), len(blocks)))


def test_the_pico_mounts_the_file_system_and_finds_every_staged_file(made):
    region = flash_region(read_uf2(made["uf2"]), FS_START, FS_BYTES)
    fs = LittleFS(context=Flash(region), mount=False, **RP2)
    fs.mount()                              # as _boot.py does: no format
    assert files_in(fs) == made["tree"]
    assert set(made["tree"]) >= {"main.py", "config.json", "lib/firmware/board.mpy",
                                 "lib/engine/rules.mpy"}
    # room left for the saved game
    with fs.open("game.json", "w") as f:
        f.write("{}")
    assert fs.stat("game.json").size == 2


# MicroPython's own VfsLfs2 on a block device shaped as rp2.Flash (4096-byte
# blocks, 352 of them, erase through ioctl 6), mounted as ports/rp2/modules/
# _boot.py mounts it: no mkfs, so an image it cannot read fails here.
MOUNT_ON_MICROPYTHON = """
import sys, os, vfs, json, hashlib, binascii
class Flash:
    def __init__(self, data):
        self.data = data
    def readblocks(self, n, buf, off=0):
        at = n * 4096 + off
        buf[:] = self.data[at:at + len(buf)]
    def writeblocks(self, n, buf, off=0):
        at = n * 4096 + off
        self.data[at:at + len(buf)] = buf
    def ioctl(self, op, arg):
        if op == 4:
            return len(self.data) // 4096
        if op == 5:
            return 4096
        if op == 6:
            self.data[arg * 4096:(arg + 1) * 4096] = b"\\xff" * 4096
        return 0
flash = Flash(bytearray(352 * 4096))
with open(sys.argv[1], "rb") as f:
    f.readinto(flash.data)
vfs.mount(vfs.VfsLfs2(flash, progsize=256), "/pico")
found = {}
def walk(top):
    for entry in os.ilistdir(top):
        path = top + "/" + entry[0]
        if entry[1] == 0x4000:
            walk(path)
        else:
            with open(path, "rb") as f:
                found[path[len("/pico/"):]] = binascii.hexlify(hashlib.sha256(f.read()).digest()).decode()
walk("/pico")
with open("/pico/game.json", "w") as f:
    f.write("{}")
print(json.dumps(found))
"""


def test_micropython_itself_mounts_the_file_system_as_the_pico_boots(made, tmp_path):
    """The MicroPython unix port's littlefs, not littlefs-python's, reads it."""
    import hashlib
    import json
    import subprocess
    from mpyhelp import tool
    region = tmp_path / "flash.bin"
    region.write_bytes(flash_region(read_uf2(made["uf2"]), FS_START, FS_BYTES))
    script = tmp_path / "mount.py"
    script.write_text(MOUNT_ON_MICROPYTHON)
    run = subprocess.run([tool("micropython"), str(script), str(region)], capture_output=True,
                         text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    expected = {path: hashlib.sha256(data).hexdigest() for path, data in made["tree"].items()}
    assert json.loads(run.stdout) == expected


def test_the_superblock_says_what_every_micropython_with_littlefs_v2_reads(made):
    """On-disk format 2.0 (littlefs 2.1 to 2.11 all mount it), 4096-byte blocks, 352."""
    region = flash_region(read_uf2(made["uf2"]), FS_START, FS_BYTES)
    at = region.index(b"littlefs", 0, 4096) + 8 + 4     # the name, then the struct's tag
    version, block_size, block_count = struct.unpack_from("<3I", region, at)
    assert (version, block_size, block_count) == (0x00020000, 4096, 352)


def test_an_unwritable_uf2_is_refused_in_one_line(tmp_path, capsys):
    uf2 = tmp_path / "no such folder" / "out.uf2"
    assert main(["build", "--uf2", str(uf2)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "cannot write" in err


def test_a_blank_pico_gets_micropython_and_the_files_from_one_merged_uf2(tmp_path):
    pattern = [(XIP_BASE + 256 * n, bytes([n % 251]) * 256) for n in range(40)]
    firmware = tmp_path / "RPI_PICO-v1.24.1.uf2"
    firmware.write_bytes(write_uf2(pattern))
    uf2 = tmp_path / "blank-pico.uf2"
    assert main(["build", "--uf2", str(uf2), "--micropython", str(firmware)]) == 0
    blocks = read_uf2(uf2.read_bytes())
    headers_are_sound(blocks)
    assert len(blocks) == 40 + FS_BYTES // 256
    assert [(b["addr"], b["payload"]) for b in blocks[:40]] == pattern
    fs = LittleFS(context=Flash(flash_region(blocks, FS_START, FS_BYTES)), mount=False, **RP2)
    fs.mount()
    assert b"run()" in files_in(fs)["main.py"]


@pytest.mark.parametrize("what, content, says", [
    ("a text file", b"not a uf2 at all\n" * 40, "not a UF2"),
    ("an RP2350 file", write_uf2([(XIP_BASE, b"\1" * 256)], family=RP2350_ARM),
     "RP2040"),
    ("a file reaching the file system", write_uf2([(XIP_BASE, b"\1" * 256),
                                                    (FS_START + 4096, b"\2" * 256)]),
     "0x100a0000"),
    ("an empty file", b"", "not a UF2"),
    ("a UF2 naming no chip", write_uf2([(XIP_BASE, b"\1" * 256)]).replace(
        struct.pack("<I", FAMILY_ID_PRESENT), b"\0" * 4, 1), "RP2040"),
])
def test_a_micropython_file_that_cannot_be_merged_is_refused_in_one_line(
        tmp_path, capsys, what, content, says):
    firmware = tmp_path / "firmware.uf2"
    firmware.write_bytes(content)
    uf2 = tmp_path / "out.uf2"
    assert main(["build", "--uf2", str(uf2), "--micropython", str(firmware)]) == 2, what
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and says.lower() in err.lower(), err
    assert str(firmware) in err
    assert not uf2.exists(), "nothing is written"


def test_a_missing_micropython_file_or_no_uf2_is_refused_in_one_line(tmp_path, capsys):
    uf2 = tmp_path / "out.uf2"
    assert main(["build", "--uf2", str(uf2), "--micropython", str(tmp_path / "nope.uf2")]) == 2
    assert "nope.uf2" in capsys.readouterr().err
    assert main(["build", str(tmp_path / "out"), "--micropython", str(uf2)]) == 2
    assert "--uf2" in capsys.readouterr().err
    assert not uf2.exists() and not (tmp_path / "out").exists()


# -- the Senet board's own MicroPython, with a ROMFS partition ------------------------------

SENET_ROMFS_START = XIP_BASE + 0xA0000   # hardware/micropython/SENET_PICO: 256 KB of ROMFS,
SENET_ROMFS_BYTES = 256 * 1024           # then 1152 KB of file system to the end of the flash
SENET_FS_START = XIP_BASE + 0xE0000
SENET_FS_BYTES = 1152 * 1024
ROMFS_HEADER = b"\xd2\xcd\x31"


def senet_micropython(path, reach=0):
    """A made-up UF2 of the Senet board's MicroPython: pattern pages, its board
    name (as the binary carries it in sys.implementation._machine) across a
    page boundary, and a page ``reach`` bytes into the partition if given."""
    body = bytes(range(256)) * 3 + b"Raspberry Pi Pico (Senet board, ROMFS) with RP2040"
    body = (bytes(240) + body).ljust(256 * 6, b"\0")
    chunks = [(XIP_BASE + at, body[at:at + 256]) for at in range(0, len(body), 256)]
    if reach:
        chunks.append((SENET_ROMFS_START + reach, b"\3" * 256))
    path.write_bytes(write_uf2(chunks))
    return chunks


@pytest.fixture(scope="module")
def senet(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("senet")
    firmware = tmp / "SENET_PICO-firmware.uf2"
    chunks = senet_micropython(firmware)
    uf2, image = tmp / "senet.uf2", tmp / "senet.romfs"
    assert main(["build", "--uf2", str(uf2), "--micropython", str(firmware)]) == 0
    assert main(["build", "--romfs", str(image)]) == 0
    return {"blocks": read_uf2(uf2.read_bytes()), "chunks": chunks,
            "image": image.read_bytes()}


def test_the_senet_micropython_gets_the_firmware_as_a_romfs_image_in_its_partition(senet):
    blocks = senet["blocks"]
    headers_are_sound(blocks)
    assert [(b["addr"], b["payload"]) for b in blocks[:6]] == senet["chunks"]
    image = senet["image"]
    assert image.startswith(ROMFS_HEADER)
    held = flash_region(blocks, SENET_ROMFS_START, SENET_ROMFS_BYTES)
    assert held[:len(image)] == image
    # nothing else between MicroPython and the file system
    assert all(SENET_ROMFS_START <= b["addr"] < SENET_ROMFS_START + len(image) + 255
               for b in blocks[6:] if b["addr"] < SENET_FS_START)


def test_its_file_system_moved_and_holds_only_main_and_config(senet):
    blocks = senet["blocks"]
    assert blocks[-1]["addr"] + 256 == SENET_FS_START + SENET_FS_BYTES
    region = flash_region(blocks, SENET_FS_START, SENET_FS_BYTES)
    fs = LittleFS(context=Flash(region), mount=False, **dict(RP2, block_count=288))
    fs.mount()
    files = files_in(fs)
    assert sorted(files) == ["config.json", "main.py"], sorted(files)
    assert b"run()" in files["main.py"]


def test_micropython_runs_the_firmware_from_the_partition_the_uf2_fills(senet, tmp_path):
    """The unix port's own VfsRom reads the partition as the UF2 leaves it."""
    import subprocess
    import sys
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    import romfs_run
    region = tmp_path / "partition.bin"
    region.write_bytes(flash_region(senet["blocks"], SENET_ROMFS_START, SENET_ROMFS_BYTES))
    script = tmp_path / "run.py"
    script.write_text("import sys\nsys.path.insert(0, %r)\nimport romfs_mount\n"
                      "sys.path.insert(0, '/rom')\nimport firmware.version, engine.rules\n"
                      "print(firmware.version.__file__, engine.rules.__file__)\n"
                      % os.path.dirname(romfs_run.__file__))
    run = subprocess.run(romfs_run.command(str(region), [str(script)]), capture_output=True,
                         text=True, timeout=60)
    assert run.returncode == 0, run.stdout + run.stderr
    assert run.stdout.split() == ["/rom/firmware/version.mpy", "/rom/engine/rules.mpy"]


def test_a_senet_micropython_reaching_into_its_partition_is_refused(tmp_path, capsys):
    firmware = tmp_path / "SENET_PICO-firmware.uf2"
    senet_micropython(firmware, reach=4096)
    uf2 = tmp_path / "out.uf2"
    assert main(["build", "--uf2", str(uf2), "--micropython", str(firmware)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "0x100a0000" in err, err
    assert not uf2.exists()
