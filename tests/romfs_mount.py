"""On the MicroPython unix port: mount at /rom the ROMFS image that
tests/romfs_run.py holds outside the heap, as a Pico built with a ROMFS
partition mounts its partition at start-up. Importing it does the mount; a
script run without the launcher that imports it fails saying so."""

import os
import uctypes
import vfs

_held = os.getenv("SENET_ROMFS")
if not _held:
    raise SystemExit("no ROMFS image: run this script through tests/romfs_run.py IMAGE")
_at, _size = [int(x) for x in _held.split()]
vfs.mount(vfs.VfsRom(uctypes.bytearray_at(_at, _size)), "/rom")
del _held, _at, _size
