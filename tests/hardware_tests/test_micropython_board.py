"""The Senet board's MicroPython build (hardware/micropython/SENET_PICO): its
flash layout adds up, and the firmware's ROMFS image fits its partition.

The rp2 port asserts at build time that both sizes are whole 4 KB sectors
(ports/rp2/rp2_flash.c) and puts the partition just below the flash file
system, taking the room from the code space unless the file system shrinks:
the layout must leave MicroPython the 640 KB it has on RPI_PICO. The layout
is read by host_tools/board/uf2.py, which writes a UF2 for that build. No
MicroPython was built here; these check the definition's numbers.
"""

import os
import subprocess
import sys

from host_tools.board.uf2 import XIP_BASE, senet_board
import paths

BOARD = os.path.join(paths.ROOT, "hardware", "micropython", "SENET_PICO")
PICO_FLASH = 2048 * 1024
RPI_PICO_STORAGE = 1408 * 1024          # ports/rp2/boards/RPI_PICO/mpconfigboard.h
K = 1024


def romfs_bytes():
    return senet_board()[1].romfs_bytes


def test_the_layout_leaves_micropython_its_code_space():
    name, layout = senet_board()
    assert "Senet" in name
    assert layout.romfs_bytes > 0 and layout.romfs_bytes % (4 * K) == 0
    storage = layout.fs_blocks * 4 * K
    assert layout.fs_start - XIP_BASE + storage == PICO_FLASH          # the end of the flash
    assert layout.romfs_start + layout.romfs_bytes == layout.fs_start  # just below it
    assert layout.romfs_start - XIP_BASE == PICO_FLASH - RPI_PICO_STORAGE == 640 * K


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
