"""A stand-in Pico: a pseudo-terminal that speaks MicroPython's REPL protocols.

The laptop side (mpremote, pyserial, senet-board) opens ``device.port`` like
the Pico's USB serial port. Behind it the code it sends runs in the real
MicroPython unix port, one long-lived ``micropython`` process per boot, with a
folder as the flash (mounted at "/", so "/lib" and "main.py" are where they
are on a Pico). What it speaks, as a Pico does:

- friendly REPL: echo, ``>>>`` prompt, a line runs when Enter is pressed;
  Ctrl-D soft-reboots ("MPY: soft reboot") and runs main.py; Ctrl-C clears;
- raw REPL: Ctrl-A enters ("raw REPL; CTRL-B to exit\\r\\n>"), Ctrl-D runs the
  buffer ("OK", output, ``\\x04``, error, ``\\x04``, ``>``), Ctrl-D on an empty
  buffer soft-reboots, Ctrl-B leaves;
- raw-paste mode (``\\x05A\\x01`` -> ``R\\x01`` and a window size, with flow
  control), or ``R\\x00`` when made without it, so mpremote falls back;
- Ctrl-C while code runs raises KeyboardInterrupt in it (SIGINT); other bytes
  go to the program's stdin, where ``select.poll(sys.stdin)`` sees them.

Made to misbehave: ``garbage=True`` answers like a device that is not
MicroPython; ``mpy=N`` reports another ``sys.implementation._mpy``;
``free=N`` reports N bytes free on the flash. ``fakes=DIR`` puts the fake
``machine``/``neopixel`` modules in place and ``boot_hook`` (MicroPython
source) runs before main.py on every boot, to wire and script the fake board.
``romfs=N`` gives it a ROMFS partition of N bytes, kept in the file
FLASH_DIR.romfs, as a MicroPython built with one has (``mpremote romfs``
query and deploy work; an image written there is mounted at /rom at the
next boot). ``heap="160k"`` gives MicroPython a heap of that size (the Pico has about
170 KB free); ``sim_clock=True`` simulates the board's clock, so a sleep
passes at once and hours of its life take minutes.

Left on for days, it comes back as a Pico does: the firmware's
``machine.reset()`` restarts it at once (a power-on that runs main.py);
main.py ending with the fake watchdog still armed restarts it when the
watchdog's timeout has passed (``timer``, a clock in seconds); a MicroPython
process that dies is started again. ``note`` (a function of one line of
text) hears of each restart. One that dies at every start (a broken
launcher, an import that fails before anything runs) is not a board that
comes back: after ``DEAD_STARTS`` such deaths in a row the stand-in gives
up, says why on the serial line and in ``failed``, and closes the line, so
the tool on the laptop stops with an error instead of waiting for ever.

    with StandIn(flash_dir) as dev:
        subprocess.run(["mpremote", "connect", dev.port, "fs", "ls"])
"""

import errno
import os
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import tty

HERE = os.path.dirname(os.path.abspath(__file__))
DRIVER = os.path.join(HERE, "driver.py")
ROOT = os.path.dirname(os.path.dirname(HERE))
FAKES = os.path.join(ROOT, "tests", "fakes")
ROMFS_RUN = os.path.join(ROOT, "tests", "romfs_run.py")
BANNER = (b"MicroPython v1.29.0 on 2026-01-01; Raspberry Pi Pico with RP2040 "
          b"(stand-in)\r\nType \"help()\" for more information.\r\n")
RAW_BANNER = b"raw REPL; CTRL-B to exit\r\n"
PASTE_WINDOW = 128
DEAD_STARTS = 5          # deaths in a row, each this soon after its start:
DEAD_START_S = 5.0       # a process that cannot start (wall-clock seconds)


def micropython_binary():
    """The unix port from the venv the tests run in, else the one on PATH."""
    here = os.path.join(os.path.dirname(sys.executable), "micropython")
    if os.path.exists(here):
        return here
    return "micropython"


class StandIn:
    """One stand-in board on a fresh pty; ``start()`` powers it on."""

    def __init__(self, flash_dir, fakes=None, boot_hook=None, mpy=None, free=None,
                 garbage=False, raw_paste=True, run_main=False, heap=None, sim_clock=False,
                 timer=time.monotonic, note=None, romfs=None):
        self.flash = os.path.abspath(flash_dir)
        self.fakes = fakes
        self.boot_hook = boot_hook
        self.mpy = mpy
        self.free = free
        self.garbage = garbage
        self.raw_paste = raw_paste
        self.run_main = run_main          # run main.py at power-on, as a Pico does
        self.heap = heap
        self.sim_clock = sim_clock
        self.timer = timer
        self.note = note or (lambda text: None)
        # a ROMFS partition of this many bytes, kept beside the flash folder
        # (FLASH_DIR.romfs), as a MicroPython built with one has
        self.romfs = romfs
        self.restarts = 0                 # resets, watchdog bites and process deaths
        self.failed = None                # why the stand-in gave up (DEAD_STARTS)
        self._dead_starts = 0             # processes in a row that died as they started
        self._spawned_at = 0.0
        self._watchdog_due = None         # timer() at which an armed watchdog bites
        self._fifos = ()
        self.log = bytearray()            # everything sent to the laptop
        self.soft_resets = 0
        self._master, self._slave = os.openpty()
        tty.setraw(self._slave)
        self.port = os.ttyname(self._slave)
        self._tmp = tempfile.mkdtemp(prefix="standin-")
        self._proc = None
        self._stop = False
        self._thread = None
        self._mode = "friendly"           # friendly | raw | paste | exec
        self._line = bytearray()
        self._queue = []                  # blocks waiting to run: (kind, data, after)
        self._paste_got = 0
        self._current = None              # the block running: (kind, data, after, mode)
        self._lock = threading.RLock()

    # -- life cycle ---------------------------------------------------------------
    def start(self):
        os.makedirs(self.flash, exist_ok=True)
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._boot(first=True)
        self._thread.start()
        return self

    def stop(self):
        self._stop = True
        if self._thread is not None:
            self._thread.join(5)
        self._kill()
        for fd in (self._master, self._slave):
            try:
                os.close(fd)
            except OSError:
                pass
        shutil.rmtree(self._tmp, ignore_errors=True)

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()

    def power_cycle(self):
        """Unplug and plug in again: a fresh boot that runs main.py."""
        with self._lock:
            self._boot(first=True, run_main=True)

    # -- the MicroPython process ----------------------------------------------------
    def _kill(self):
        proc = self._proc
        self._proc = None
        if proc is None:
            return
        for f in (proc.stdin, self._ctl_in):
            try:
                f.close()
            except OSError:
                pass
        try:
            proc.kill()
        except OSError:
            pass
        proc.wait()
        try:
            os.close(self._ctl_out)
        except OSError:
            pass
        for path in self._fifos:
            try:
                os.remove(path)
            except OSError:
                pass

    def _spawn(self):
        n = self.soft_resets
        ctl_in = os.path.join(self._tmp, "in%d" % n)
        ctl_out = os.path.join(self._tmp, "out%d" % n)
        os.mkfifo(ctl_in)
        os.mkfifo(ctl_out)
        self._fifos = (ctl_in, ctl_out)
        args = [micropython_binary()]
        if self.romfs:
            args = [sys.executable, ROMFS_RUN, "--partition", self.flash + ".romfs",
                    str(self.romfs)]
        if self.heap:
            args += ["-X", "heapsize=%s" % self.heap]
        args += [DRIVER, ctl_in, ctl_out, self.flash]
        if self.sim_clock:
            args.append("clock=sim")
        if self.fakes:
            args.append("fakes=" + self.fakes)
        if self.mpy is not None:
            args.append("mpy=%d" % self.mpy)
        if self.free is not None:
            args.append("free=%d" % self.free)
        if self.romfs:
            args.append("romfs=1")
        self._spawned_at = time.monotonic()
        self._proc = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                      stderr=subprocess.STDOUT, bufsize=0)
        # Open order matches the driver's: its reads first, then its writes.
        self._ctl_in = self._writer(ctl_in)
        self._ctl_out = os.open(ctl_out, os.O_RDONLY | os.O_NONBLOCK)
        os.set_blocking(self._proc.stdout.fileno(), False)
        self._ctl_buf = b""

    def _writer(self, path):
        """The FIFO's write end, once the new process has opened its read
        end. A plain open() would wait for ever on a process that died
        first; that one gets a sink instead, and the loop sees it dead and
        starts it again (``_revive``)."""
        while True:
            try:
                fd = os.open(path, os.O_WRONLY | os.O_NONBLOCK)
            except OSError as e:
                if e.errno != errno.ENXIO:       # ENXIO: no reader yet
                    raise
                if self._proc.poll() is not None:
                    return open(os.devnull, "wb", buffering=0)
                time.sleep(0.005)
                continue
            os.set_blocking(fd, True)
            return open(fd, "wb", buffering=0)

    def _boot(self, first=False, run_main=None):
        """Soft reboot: a new MicroPython process, an empty heap, no globals."""
        self._kill()
        self._queue = []
        self._current = None
        self._watchdog_due = None
        if not first:
            self._send(b"MPY: soft reboot\r\n")
        self.soft_resets += 1
        if self.garbage:
            return
        self._spawn()
        if run_main is None:
            run_main = self.run_main if first else self._mode != "raw"
        if self._mode == "raw":
            self._send(RAW_BANNER + b">")
            return
        if run_main:
            if self.boot_hook:
                self._queue.append(("B", self.boot_hook.encode(), None, None))
            if os.path.exists(os.path.join(self.flash, "main.py")):
                self._queue.append(("F", b"main.py", None, None))
        self._queue.append(("NOP", b"", BANNER + b">>> ", "friendly"))
        self._next_block()

    def _next_block(self):
        """Start the next queued block; "NOP" items only print and change mode."""
        while self._queue:
            item = self._queue.pop(0)
            kind, data, after, mode = item
            if kind == "NOP":
                if after:
                    self._send(after)
                self._mode = mode
                continue
            self._current = item
            self._mode = "exec"
            self._ctl_in.write(b"%s %d\n" % (kind.encode(), len(data)) + data)
            return
        self._current = None

    def _run_code(self, code, after, mode_after):
        self._queue.append(("X", code, after, mode_after))
        self._next_block()

    # -- the serial line ----------------------------------------------------------------
    def _send(self, data):
        self.log.extend(data)
        view = memoryview(data)
        while len(view):
            try:
                n = os.write(self._master, view)
            except BlockingIOError:
                time.sleep(0.001)
                continue
            view = view[n:]

    def _serve(self):
        while not self._stop:
            fds = [self._master]
            proc = self._proc
            if proc is not None:
                fds += [proc.stdout.fileno(), self._ctl_out]
            try:
                ready, _, _ = select.select(fds, [], [], 0.05)
            except (OSError, ValueError):
                continue
            with self._lock:
                if proc is not self._proc:
                    continue
                if proc is not None and proc.stdout.fileno() in ready:
                    self._pump_output()
                if proc is not None and self._ctl_out in ready:
                    self._pump_control()
                if self._revive(proc):
                    continue
                if self._master in ready:
                    try:
                        data = os.read(self._master, 4096)
                    except OSError:
                        data = b""
                    for i in range(len(data)):
                        self._byte(data[i:i + 1])

    def _pump_output(self):
        try:
            data = self._proc.stdout.read()
        except (OSError, ValueError):
            return
        if data:
            self._send(data.replace(b"\n", b"\r\n"))

    def _revive(self, proc):
        """Restart the board if its MicroPython died or its watchdog bit:
        a Pico left alone always comes back. True if it restarted."""
        if proc is not None and proc is self._proc and proc.poll() is not None:
            why = "its MicroPython process ended (exit status %s)" % proc.returncode
            if time.monotonic() - self._spawned_at < DEAD_START_S:
                self._dead_starts += 1
                if self._dead_starts >= DEAD_STARTS:
                    self._give_up("its MicroPython died as it started, %d times in a row "
                                  "(exit status %s)" % (self._dead_starts, proc.returncode))
                    return True
            else:
                self._dead_starts = 0
        elif self._watchdog_due is not None and self.timer() >= self._watchdog_due:
            why = "its watchdog was left armed and nothing fed it"
        else:
            return False
        self._restart(why)
        return True

    def _give_up(self, why):
        """No more restarts: said on the line, which is then closed (the
        laptop's reads fail), and kept in ``failed``."""
        self.failed = why
        self.note("stand-in: gave up: %s" % why)
        self._send(b"\r\nstand-in: gave up: %s\r\n" % why.encode())
        self._kill()
        self._stop = True
        master, self._master = self._master, -1     # stop() closes no other file
        try:
            os.close(master)
        except OSError:
            pass

    def _restart(self, why):
        """A power-on that runs main.py, as the Pico's watchdog or reset gives."""
        self.restarts += 1
        self.note("stand-in: the board restarts: %s" % why)
        self._boot(first=True, run_main=True)

    def _pump_control(self):
        try:
            data = os.read(self._ctl_out, 4096)
        except BlockingIOError:
            return
        if not data:
            return
        self._ctl_buf += data
        while b"\n" in self._ctl_buf:
            head, rest = self._ctl_buf.split(b"\n", 1)
            fields = head.split()
            n = int(fields[1])
            if len(rest) < n:
                return
            err, self._ctl_buf = rest[:n], rest[n:]
            self._pump_output()       # everything printed before the end of the block
            if fields[0] == b"R":     # machine.reset(): the board starts again
                self._restart("the program called machine.reset()")
                return
            watchdog_ms = int(fields[2]) if len(fields) > 2 else 0
            main = self._current is not None and self._current[0] == "F"
            if main and watchdog_ms and self._watchdog_due is None:
                self._watchdog_due = self.timer() + watchdog_ms / 1000.0
            self._block_done(err.replace(b"\n", b"\r\n"))

    def _block_done(self, err):
        item = self._current
        self._current = None
        after = item[2] if item else None
        if after is not None:
            self._send(after(err))
        elif err:
            self._send(err)
        if item and item[3]:
            self._mode = item[3]
        self._next_block()

    # -- one byte from the laptop --------------------------------------------------------
    def _byte(self, b):
        if self.garbage:
            self._send(b"\xfe?ERR 41\r\n" if b in (b"\r", b"\x01", b"\x04") else b"")
            return
        mode = self._mode
        if mode == "exec":
            if b == b"\x03":
                try:
                    self._proc.send_signal(signal.SIGINT)
                except (OSError, AttributeError):
                    pass
            else:
                try:
                    self._proc.stdin.write(b)
                except (OSError, ValueError, AttributeError):
                    pass
        elif mode == "paste":
            self._paste_byte(b)
        elif mode == "raw":
            self._raw_byte(b)
        else:
            self._friendly_byte(b)

    def _friendly_byte(self, b):
        if b == b"\x01":
            self._mode = "raw"
            self._line = bytearray()
            self._send(b"\r\n" + RAW_BANNER + b">")
        elif b == b"\x02":
            self._line = bytearray()
            self._send(b"\r\n" + BANNER + b">>> ")
        elif b == b"\x03":
            self._line = bytearray()
            self._send(b"\r\n>>> ")
        elif b == b"\x04":
            if not self._line:
                self._boot()
        elif b == b"\r":
            code = bytes(self._line)
            self._line = bytearray()
            self._send(b"\r\n")
            if code.strip():
                self._run_code(code, lambda err: err + b">>> ", "friendly")
            else:
                self._send(b">>> ")
        elif b == b"\n":
            pass
        elif b in (b"\x08", b"\x7f"):
            if self._line:
                self._line = self._line[:-1]
                self._send(b"\x08 \x08")
        else:
            self._line += b
            self._send(b)

    def _raw_byte(self, b):
        if b == b"\x01":
            if bytes(self._line) == b"\x05A":
                self._line = bytearray()
                if self.raw_paste:
                    self._mode = "paste"
                    self._paste_got = 0
                    self._send(b"R\x01" + PASTE_WINDOW.to_bytes(2, "little"))
                else:
                    self._send(b"R\x00")
                return
            self._line = bytearray()
            self._send(b"\r\n" + RAW_BANNER + b">")
        elif b == b"\x02":
            self._mode = "friendly"
            self._line = bytearray()
            self._send(b"\r\n" + BANNER + b">>> ")
        elif b == b"\x03":
            self._line = bytearray()
        elif b == b"\x04":
            if not self._line:
                self._send(b"\r\n")
                self._boot()
            else:
                code = bytes(self._line)
                self._line = bytearray()
                self._send(b"OK")
                self._run_code(code, lambda err: b"\x04" + err + b"\x04>", "raw")
        else:
            self._line += b

    def _paste_byte(self, b):
        if b == b"\x04":
            code = bytes(self._line)
            self._line = bytearray()
            self._send(b"\x04")
            self._run_code(code, lambda err: b"\x04" + err + b"\x04>", "raw")
            return
        self._line += b
        self._paste_got += 1
        if self._paste_got % PASTE_WINDOW == 0:
            self._send(b"\x01")          # room for another window
