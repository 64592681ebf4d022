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
(``build_image``).
"""

import ctypes
import os
import subprocess
import sys

ENV = "SENET_ROMFS"
MOUNT = "/rom"


def build_image(lib, dest, mpremote):
    """A ROMFS image of the folder ``lib`` (its .mpy files as they are) at
    ``dest``, built by ``mpremote`` (the path of the tool); returns ``dest``."""
    result = subprocess.run([mpremote, "romfs", "--no-mpy", "--output", str(dest), "build",
                             str(lib)], capture_output=True, text=True)
    if result.returncode != 0 or not os.path.isfile(dest):
        raise RuntimeError("mpremote romfs build failed: " + result.stdout + result.stderr)
    return str(dest)


def command(image, args):
    """The command line that runs the unix port with ``args`` and ``image``
    held outside its heap."""
    return [sys.executable, os.path.abspath(__file__), str(image)] + list(args)


def main(argv):
    if len(argv) < 2:
        sys.exit("usage: python tests/romfs_run.py IMAGE [micropython arguments...]")
    with open(argv[1], "rb") as f:
        image = f.read()
    if not image.startswith(b"\xd2\xcd\x31"):
        sys.exit("%s is not a ROMFS image (it does not start with the ROMFS header)" % argv[1])
    held = ctypes.create_string_buffer(image, len(image))     # lives until the port exits
    os.environ[ENV] = "%d %d" % (ctypes.addressof(held), len(image))
    import micropython_run
    return micropython_run.run_main(["micropython"] + argv[2:])


if __name__ == "__main__":
    sys.exit(main(sys.argv))
