"""The Senet board's MicroPython build (hardware/micropython/SENET_PICO): its
flash layout adds up, and the firmware's ROMFS image fits its partition.

The rp2 port asserts at build time that both sizes are whole 4 KB sectors
(ports/rp2/rp2_flash.c) and puts the partition just below the flash file
system, taking the room from the code space unless the file system shrinks:
the layout must leave MicroPython the 640 KB it has on RPI_PICO. No
MicroPython was built here; these check the definition's numbers.
"""

import os
import re
import subprocess
import sys

import paths

BOARD = os.path.join(paths.ROOT, "hardware", "micropython", "SENET_PICO")
PICO_FLASH = 2048 * 1024
RPI_PICO_STORAGE = 1408 * 1024          # ports/rp2/boards/RPI_PICO/mpconfigboard.h
K = 1024


def defines():
    """{name: bytes} of the board header's size definitions, evaluated."""
    with open(os.path.join(BOARD, "mpconfigboard.h")) as f:
        text = f.read()
    found = {}
    for name, expr in re.findall(r"#define\s+(MICROPY_HW_\w+_BYTES)\s+(.+)", text):
        for known, value in found.items():
            expr = expr.replace(known, str(value))
        assert re.fullmatch(r"[\d\s()*+\-]+", expr), (name, expr)
        found[name] = eval(expr)
    return found


def romfs_bytes():
    return defines()["MICROPY_HW_ROMFS_BYTES"]


def test_the_layout_leaves_micropython_its_code_space():
    d = defines()
    romfs, storage = d["MICROPY_HW_ROMFS_BYTES"], d["MICROPY_HW_FLASH_STORAGE_BYTES"]
    assert romfs > 0 and romfs % (4 * K) == 0 and storage % (4 * K) == 0, d
    code = PICO_FLASH - storage - romfs
    assert code == PICO_FLASH - RPI_PICO_STORAGE == 640 * K, code


def test_the_firmwares_image_fits_the_partition_with_room_to_grow(tmp_path):
    image = tmp_path / "senet.romfs"
    out = subprocess.run([sys.executable, "-m", "host_tools.cli", "build", "--romfs",
                          str(image)], capture_output=True, text=True, timeout=300,
                         cwd=paths.ROOT)
    assert out.returncode == 0, out.stdout + out.stderr
    size = image.stat().st_size
    assert size < 0.6 * romfs_bytes(), (size, romfs_bytes())     # 102.8 KB of 256 KB


def test_the_cmake_file_builds_for_the_pico():
    with open(os.path.join(BOARD, "mpconfigboard.cmake")) as f:
        text = f.read()
    assert 'set(PICO_BOARD "pico")' in text and 'set(PICO_PLATFORM "rp2040")' in text
