"""A fake of CircuitPython's ``storage`` module and of the CIRCUITPY drive's
write protection.

On the board the drive is writable by the laptop over USB and read-only to
the program, unless ``boot.py`` calls ``storage.remount("/", readonly=False)``
(then the other way round). ``remount`` works only while boot.py runs
(``_cpworld.phase == "boot"``); later it raises RuntimeError, as it does on a
board whose drive the laptop has mounted. ``getmount("/").readonly`` tells the
program which way it is.

``protect(folder)`` makes ``folder`` stand for CIRCUITPY in this process:
from then on ``open`` for writing, ``os.remove``, ``os.rename``, ``os.mkdir``
and ``os.rmdir`` inside it raise ``OSError(30)`` (EROFS, "Read-only
filesystem"), as CircuitPython does, while the program's view is read-only.
``os.sync()`` writes CircuitPython's flash cache back; here the files are
the host's, already written, so it does nothing (the host's own sync would
flush every disk of the machine at every save).
"""

import builtins
import errno
import os

import _cpworld


class VfsFat:
    def __init__(self, path):
        self._path = path

    @property
    def readonly(self):
        return _cpworld.readonly

    @property
    def label(self):
        return "CIRCUITPY"


def remount(mount_path, readonly=False, *, disable_concurrent_write_protection=False):
    if mount_path != "/":
        raise OSError(errno.EINVAL, "Invalid argument")
    if _cpworld.phase != "boot":
        raise RuntimeError("Cannot remount path when visible via USB.")
    _cpworld.readonly = bool(readonly)


def getmount(mount_path):
    if mount_path != "/":
        raise OSError(errno.EINVAL, "Invalid argument")
    return VfsFat(mount_path)


# -- the write protection ----------------------------------------------------------

_real = {}


def _inside(path):
    drive = _cpworld.drive
    if drive is None:
        return False
    try:
        full = os.path.realpath(os.fspath(path))
    except TypeError:
        return False
    return full == drive or full.startswith(drive + os.sep)


def _refuse(path):
    if _cpworld.readonly and _inside(path):
        raise OSError(errno.EROFS, "Read-only filesystem", str(path))


def _open(file, mode="r", *args, **kwargs):
    if isinstance(mode, str) and any(c in mode for c in "wax+"):
        _refuse(file)
    return _real["open"](file, mode, *args, **kwargs)


def _guard(name):
    real = _real[name]

    def guarded(path, *args, **kwargs):
        _refuse(path)
        if args and name == "rename":
            _refuse(args[0])
        return real(path, *args, **kwargs)
    guarded.__name__ = name
    return guarded


def protect(folder):
    """Make ``folder`` the CIRCUITPY drive of this process (see above)."""
    _cpworld.drive = os.path.realpath(folder)
    if _real:
        return
    _real["open"] = builtins.open
    builtins.open = _open
    for name in ("remove", "unlink", "rename", "replace", "mkdir", "rmdir"):
        _real[name] = getattr(os, name)
        setattr(os, name, _guard(name))
    os.sync = _sync


def _sync():
    """CircuitPython's os.sync(): the drive's block cache written back."""
