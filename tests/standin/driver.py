# The MicroPython side of the stand-in device: runs under the unix port.
#
#   micropython driver.py CTL_IN CTL_OUT FLASH_DIR [option ...]
#
# CTL_IN and CTL_OUT are FIFOs shared with tests/standin/device.py. Each code
# block arrives on CTL_IN as a header line "<kind> <length>\n" and <length>
# bytes; kind "X" executes the bytes as code in the session's globals (kept
# between blocks, like a board's raw REPL), kind "F" runs the named file as a
# fresh __main__ (the board's main.py), kind "B" runs a block in its own
# globals (boot-time hook, like boot.py). Program output goes to stdout as it
# happens; when a block ends the driver writes "E <length> <watchdog>\n" and
# the traceback text (if any) to CTL_OUT, or "R ..." when the block asked the
# fake machine for a reset (machine.reset()). <watchdog> is the timeout in ms
# of a fake watchdog left armed (0: none), which the device then lets bite.
# stdin is the serial line while a block runs, so select.poll(sys.stdin) in
# the firmware sees what the laptop sends.
#
# Options: fakes=DIR (import machine and neopixel from DIR before the flash is
# mounted), mpy=N (report sys.implementation._mpy = N), free=N (report N bytes
# free in os.statvfs), clock=sim (a simulated clock: time.sleep_ms and its
# kin advance it at once, so hours of the board's life pass in minutes),
# romfs=1 (a ROMFS partition: run through tests/romfs_run.py --partition).
import sys
import os
import io

ctl_in = open(sys.argv[1], "rb")
ctl_out = open(sys.argv[2], "wb")
flash = sys.argv[3]
opts = {}
for arg in sys.argv[4:]:
    k, v = arg.split("=", 1)
    opts[k] = v


class _Namespace:
    pass


def _copy_module(mod):
    ns = _Namespace()
    for name in dir(mod):
        try:
            setattr(ns, name, getattr(mod, name))
        except (AttributeError, TypeError):
            pass
    return ns


if "fakes" in opts:
    sys.path.insert(0, opts["fakes"])
    import machine  # noqa: F401  (the fake, kept in sys.modules)
    import neopixel  # noqa: F401
    sys.path.pop(0)

if "mpy" in opts:
    impl = _copy_module(sys.implementation)
    impl._mpy = int(opts["mpy"])
    fake_sys = _copy_module(sys)
    fake_sys.implementation = impl
    sys.modules["sys"] = fake_sys

if "free" in opts:
    _free = int(opts["free"])
    _real_statvfs = os.statvfs
    fake_os = _copy_module(os)

    def _statvfs(path):
        s = _real_statvfs(path)
        block = s[1] or 4096
        blocks = _free // block
        return (s[0], block, blocks + 16, blocks, blocks) + tuple(s[5:])

    fake_os.statvfs = _statvfs
    sys.modules["os"] = fake_os

if opts.get("clock") == "sim":
    import time as _time
    _TICKS = 1 << 30                       # MicroPython's ticks wrap here
    _READ_US = 20                          # each look at the clock costs a little time
    _now_us = [0]
    fake_time = _copy_module(_time)

    def _advance(us):
        if us > 0:
            _now_us[0] += int(us)

    def _ticks_us():
        _now_us[0] += _READ_US
        return _now_us[0] % _TICKS

    def _ticks_ms():
        _now_us[0] += _READ_US
        return (_now_us[0] // 1000) % _TICKS

    fake_time.ticks_us = _ticks_us
    fake_time.ticks_ms = _ticks_ms
    fake_time.sleep_us = _advance
    fake_time.sleep_ms = lambda ms: _advance(ms * 1000)
    fake_time.sleep = lambda s: _advance(s * 1000000)
    sys.modules["time"] = fake_time
    sys.modules["utime"] = fake_time

# The flash: the folder becomes "/", as on the Pico; paths outside it vanish.
os.umount("/")
os.mount(os.VfsPosix(flash), "/")
os.chdir("/")
sys.path[:] = ["", ".frozen", "/lib"]

if "romfs" in opts:
    # A MicroPython built with a ROMFS partition: the partition is memory
    # outside the heap that tests/romfs_run.py --partition keeps in a file;
    # vfs.rom_ioctl answers the operations mpremote's romfs query and deploy
    # use, giving the partition as memory, as the unix and qemu ports do (the
    # rp2 port gives a block device, which mpremote writes through
    # writeblocks instead); a valid image is mounted at /rom at start-up, its
    # bytecode run in place.
    import uctypes
    import vfs as _vfs
    _at, _size = [int(x) for x in os.getenv("SENET_ROMFS_PARTITION").split()]
    _part = uctypes.bytearray_at(_at, _size)
    _ROM_BLOCK = 4096

    def _rom_ioctl(op, *args):
        if op == 1:                        # how many partitions
            return 1
        if not args or args[0] != 0:
            return -19                     # no such partition (ENODEV)
        if op == 2:                        # the partition's memory
            return memoryview(_part)
        if op == 3:                        # prepare (erase) before writing
            offset, length = (args[1], args[2]) if len(args) > 2 else (0, args[1])
            end = min(_size, (offset + length + _ROM_BLOCK - 1) // _ROM_BLOCK * _ROM_BLOCK)
            blank = b"\xff" * _ROM_BLOCK
            for at in range(offset, end, _ROM_BLOCK):
                _part[at:at + _ROM_BLOCK] = blank
            return 4                       # the smallest write
        if op == 4:                        # write
            offset, data = args[1], args[2]
            _part[offset:offset + len(data)] = data
            return 0
        if op == 5:                        # writing done
            return 0
        if op == 6:                        # its erase block
            return _ROM_BLOCK
        return -22

    fake_vfs = _copy_module(_vfs)
    fake_vfs.rom_ioctl = _rom_ioctl
    sys.modules["vfs"] = fake_vfs
    if bytes(_part[:3]) == b"\xd2\xcd\x31":
        _vfs.mount(_vfs.VfsRom(_part), "/rom")
        sys.path[:] = ["", ".frozen", "/rom", "/rom/lib", "/lib"]


def _read(n):
    data = b""
    while len(data) < n:
        chunk = ctl_in.read(n - len(data))
        if not chunk:
            raise SystemExit
        data += chunk
    return data


def _header():
    line = b""
    while not line.endswith(b"\n"):
        c = ctl_in.read(1)
        if not c:
            raise SystemExit
        line += c
    kind, n = line.decode().split()
    return kind, int(n)


def _run(kind, code, session):
    if kind == "X":
        exec(code, session)
    elif kind == "B":
        exec(code, {"__name__": "boot"})
    else:
        name = code.decode()
        f = open(name)
        try:
            src = f.read()
        finally:
            f.close()
        exec(compile(src, name, "exec"), {"__name__": "__main__"})


def _traceback(e):
    buf = io.StringIO()
    sys.print_exception(e, buf)
    # Drop this driver's own frames: a board's traceback starts at the code sent.
    lines = [l for l in buf.getvalue().split("\n") if _ME not in l]
    return "\n".join(lines)


def _is_reset(e):
    """Did the block ask the fake machine for a reset (machine.reset())?"""
    machine = sys.modules.get("machine")
    reset = getattr(machine, "Reset", None)
    return reset is not None and isinstance(e, reset)


def _watchdog_ms():
    """The timeout of a fake watchdog the block left armed, else 0."""
    machine = sys.modules.get("machine")
    dog = getattr(getattr(machine, "board", None), "watchdog", None)
    if dog is None or not getattr(dog, "armed", True):
        return 0
    return int(getattr(dog, "timeout", 0) or 0)


def _done(kind, data):
    ctl_out.write(b"%s %d %d\n" % (kind, len(data), _watchdog_ms()) + data)


_ME = "standin/driver.py"
session = {"__name__": "__main__"}
while True:
    err = ""
    end = b"E"
    try:
        try:
            kind, n = _header()
            code = _read(n)
        except KeyboardInterrupt:
            continue                       # a late Ctrl-C between blocks
        try:
            _run(kind, code, session)
        except SystemExit:
            pass
        except BaseException as e:  # noqa: B036 - the board prints every error
            if _is_reset(e):
                end = b"R"
            else:
                err = _traceback(e)
        _done(end, err.encode())
    except KeyboardInterrupt:
        _done(b"E", b"")
