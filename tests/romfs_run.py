"""The MicroPython unix port with the firmware in a ROMFS image, held as a
Pico built with a ROMFS partition holds it.

    python tests/romfs_run.py IMAGE [micropython arguments...]

MicroPython's ROMFS (``vfs.VfsRom``) imports a .mpy file's bytecode and
strings in place, from memory the collector never scans, where a .mpy file
on a flash file system is copied into the heap. On a Pico that memory is the
flash, mapped into the address space. The unix port has no such partition,
so this launcher reads IMAGE into memory of its own process, outside
MicroPython's heap, passes its address and size in ``SENET_ROMFS``, and runs
the unix port (its ``micropython_run`` library, in this process) with the
arguments given; the script run mounts it at /rom with
tests/romfs_mount.py, as the Pico's MicroPython mounts its partition at
start-up. The image is built with the real ``mpremote romfs build``
(host_tools/board/build.py ``romfs_image``, as deploy builds it).

    python tests/romfs_run.py --partition FILE SIZE [micropython arguments...]

gives the stand-in board (tests/standin) a writable ROMFS partition of SIZE
bytes kept in FILE, for ``mpremote romfs deploy`` (tests/standin/driver.py
answers ``vfs.rom_ioctl`` over it).
"""

import ctypes
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from host_tools.board.build import ROMFS_HEADER  # noqa: E402  (run as a script, from tests/)

ENV = "SENET_ROMFS"
PARTITION_ENV = "SENET_ROMFS_PARTITION"     # the stand-in board's writable partition
MOUNT = "/rom"


def command(image, args):
    """The command line that runs the unix port with ``args`` and ``image``
    held outside its heap."""
    return [sys.executable, os.path.abspath(__file__), str(image)] + list(args)


def hold_partition(path, size):
    """A Pico's ROMFS partition of ``size`` bytes kept in the file ``path``
    (made erased, 0xff, if missing): mapped into this process, so what the
    unix port writes to it through ``uctypes`` is on the file at once and
    the next process (the stand-in's next boot) finds it. Returns the map
    (it must live as long as the port) after putting its address and size
    in ``PARTITION_ENV``."""
    import mmap
    if not os.path.exists(path) or os.path.getsize(path) != size:
        with open(path, "wb") as f:
            f.write(b"\xff" * size)
    with open(path, "r+b") as f:
        held = mmap.mmap(f.fileno(), size)
    os.environ[PARTITION_ENV] = "%d %d" % (
        ctypes.addressof(ctypes.c_char.from_buffer(held)), size)
    return held


def main(argv):
    if len(argv) >= 4 and argv[1] == "--partition":
        held = hold_partition(argv[2], int(argv[3]))          # noqa: F841  (lives on)
        import micropython_run
        return micropython_run.run_main(["micropython"] + argv[4:])
    if len(argv) < 2:
        sys.exit("usage: python tests/romfs_run.py IMAGE [micropython arguments...]\n"
                 "       python tests/romfs_run.py --partition FILE SIZE "
                 "[micropython arguments...]")
    with open(argv[1], "rb") as f:
        image = f.read()
    if not image.startswith(ROMFS_HEADER):
        sys.exit("%s is not a ROMFS image (it does not start with the ROMFS header)" % argv[1])
    held = ctypes.create_string_buffer(image, len(image))     # lives until the port exits
    os.environ[ENV] = "%d %d" % (ctypes.addressof(held), len(image))
    import micropython_run
    return micropython_run.run_main(["micropython"] + argv[2:])


if __name__ == "__main__":
    sys.exit(main(sys.argv))
