"""How an unattended board is doing: boots, uptime and a small crash log.

A museum board runs for years with nobody watching. When something goes
wrong inside the firmware the board restarts into the saved game by itself
(firmware/board.py), and this module keeps the evidence on the flash so
staff can read it later with ``senet-board monitor``:

- ``health.json``: ``{"boots": n, "crashes": n}``, the number of times the
  board has started and how many crashes it has logged, ever. Written once
  per boot and once per crash, never in the loop, so the flash does not wear.
- ``crash.log``: the last ``MAX_ENTRIES`` crashes, one JSON object per
  line: ``{"boot": n, "uptime_s": s, "error": "..."}``. Each error text is
  cut to ``MAX_TEXT`` characters (its end: the deepest frame and the
  message), so the file never grows beyond ``max_bytes()``.

Files are written to a temporary name and renamed over the old one, as the
saved game is (firmware/store.py). Only ``os`` and ``json``: pure logic that
takes a folder, the same on the Pico, the unix port and CPython.

    health = Health(folder)          # counts this boot
    health.tick(now_ms)              # every loop: keeps the uptime
    health.crash(describe(exc))      # an exception escaped the App
    health.idle(now_ms, busy)        # every loop: measures the heap when quiet
    health.event()                   # {"event": "health", ...}
    health.usage = usage             # firmware.usage: visitors' figures in the event

The free heap is measured after a collection, never read as it stands: read
between two collections it counts the garbage too, and swung on a Pico from
178,752 to 10,752 bytes and back within minutes. A collection costs the
loop a few milliseconds, so it is made only at a quiet moment: at power-on,
and when the board has been still for ``QUIET_MS`` with no event, at most
once every ``MEASURE_MS``. The event reports the last figure (``mem_free``)
and the lowest since boot (``mem_low``), so a leak shows as a ``mem_low``
that keeps falling.
"""

import json
import os

try:
    from micropython import const
except ImportError:
    const = lambda x: x  # noqa: E731

from firmware import ticks_diff

COUNTS = "health.json"
LOG = "crash.log"
MAX_ENTRIES = const(8)       # crashes kept in the log
MAX_TEXT = const(240)        # characters kept of one crash's error text
EVERY_MS = const(300000)     # a health event every 5 minutes
QUIET_MS = const(5000)       # still this long (no event, no piece moved): measure
MEASURE_MS = const(60000)    # at most one measuring collection a minute


def _join(folder, name):
    if not folder:
        return name
    return folder + name if folder.endswith("/") else folder + "/" + name


def _read(path):
    try:
        f = open(path)
    except OSError:
        return None
    try:
        return f.read()
    except Exception:          # a damaged file counts as no file
        return None
    finally:
        f.close()


def _write(path, text):
    """Atomically: a temporary file renamed over the old one."""
    tmp = path + ".tmp"
    f = open(tmp, "w")
    try:
        f.write(text)
    finally:
        f.close()
    try:
        os.rename(tmp, path)
    except OSError:            # FAT cannot rename over a file
        try:
            os.remove(path)
        except OSError:
            pass
        os.rename(tmp, path)


def describe(exc):
    """One line for the crash log: the traceback's end and the exception."""
    text = None
    try:
        import io
        import sys
        buf = io.StringIO()
        if hasattr(sys, "print_exception"):
            sys.print_exception(exc, buf)        # MicroPython
        else:
            import traceback
            traceback.print_exception(type(exc), exc, exc.__traceback__, file=buf)
        text = buf.getvalue()
    except Exception:
        pass
    if not text:
        text = repr(exc)
    lines = [ln.strip() for ln in text.split("\n") if ln.strip()]
    if lines and lines[0].startswith("Traceback"):
        lines = lines[1:]
    text = " | ".join(lines)
    if len(text) > MAX_TEXT:
        text = "..." + text[len(text) - MAX_TEXT + 3:]
    return text


class Health:
    """The boot counter, the uptime and the crash log in ``folder``."""

    def __init__(self, folder=None, max_entries=MAX_ENTRIES, count_boot=True):
        self.folder = folder
        self.max_entries = max_entries
        self.boots = 0
        self.crashes = 0
        self.uptime_ms = 0
        self._last = None
        self._reported = None
        self.mem_free = None     # free heap after the last measuring collection
        self.mem_low = None      # the lowest of those since boot
        self._measured = None
        self._quiet_since = None
        self.usage = None        # firmware.usage.Usage: its figures ride in the event
        data = None
        try:
            data = json.loads(_read(_join(folder, COUNTS)) or "null")
        except ValueError:
            pass
        if isinstance(data, dict):
            self.boots = _count(data.get("boots"))
            self.crashes = _count(data.get("crashes"))
        if count_boot:
            self.boots += 1
            self._save_counts()

    @staticmethod
    def max_bytes(max_entries=MAX_ENTRIES):
        """The most the crash log can ever hold, in bytes."""
        return max_entries * (MAX_TEXT + 80)

    # -- uptime -------------------------------------------------------------

    def tick(self, now_ms):
        """Called every loop: the uptime grows by the time since the last
        call (so the Pico's wrapping ms counter does not matter)."""
        if self._last is not None:
            d = ticks_diff(now_ms, self._last)
            if d > 0:
                self.uptime_ms += d
        self._last = now_ms

    def due(self, now_ms):
        """Is a periodic health event due (every EVERY_MS)?"""
        if self._reported is None or ticks_diff(now_ms, self._reported) >= EVERY_MS:
            self._reported = now_ms
            return True
        return False

    def report(self, now_ms):
        """The ``health`` event, counted as the periodic one at ``now_ms``:
        the power-on report, so that the loop's first ``due`` is not
        another one (docs/protocol.md: one at power-on)."""
        self._reported = now_ms
        return self.event()

    # -- the heap --------------------------------------------------------------

    def measure(self, now_ms=None):
        """Collect, then note the free heap and the lowest seen since boot.
        Nothing on a port without ``gc.mem_free`` (CPython)."""
        try:
            import gc
            free = gc.mem_free
        except (ImportError, AttributeError):
            return None
        gc.collect()
        self.mem_free = free()
        if self.mem_low is None or self.mem_free < self.mem_low:
            self.mem_low = self.mem_free
        self._measured = now_ms
        return self.mem_free

    def idle(self, now_ms, busy):
        """Called every loop pass; ``busy``: the pass had an event, a piece
        moved or the button was held. Once the board has been still for
        QUIET_MS, and the last measurement is MEASURE_MS old, measure now:
        nobody is waiting for the loop then. True if it measured."""
        if busy or self._quiet_since is None:
            self._quiet_since = now_ms
            return False
        if ticks_diff(now_ms, self._quiet_since) < QUIET_MS:
            return False
        if self._measured is not None and ticks_diff(now_ms, self._measured) < MEASURE_MS:
            return False
        return self.measure(now_ms) is not None

    # -- crashes -------------------------------------------------------------

    def log(self):
        """The crash log, oldest first: a list of dicts (bad lines skipped)."""
        entries = []
        text = _read(_join(self.folder, LOG))
        if not text:
            return entries
        for line in text.split("\n"):
            if not line:
                continue
            try:
                entry = json.loads(line)
            except ValueError:
                continue
            if isinstance(entry, dict):
                entries.append(entry)
        return entries

    def crash(self, error):
        """Log one crash (``error``: a line of text, see ``describe``)."""
        error = str(error)
        if len(error) > MAX_TEXT:
            error = "..." + error[len(error) - MAX_TEXT + 3:]
        entries = self.log()
        entries.append({"boot": self.boots, "uptime_s": self.uptime_ms // 1000,
                        "error": error})
        entries = entries[-self.max_entries:]
        lines = []
        for entry in entries:
            lines.append(json.dumps(entry))
        self.crashes += 1
        try:
            _write(_join(self.folder, LOG), "\n".join(lines) + "\n")
            self._save_counts()
        except OSError:          # a full flash: the restart matters more
            pass

    def _save_counts(self):
        try:
            _write(_join(self.folder, COUNTS),
                   json.dumps({"boots": self.boots, "crashes": self.crashes}))
        except OSError:
            pass

    # -- reporting -------------------------------------------------------------

    def event(self, **extra):
        """The ``health`` event: boots, uptime, crashes and the crash log,
        and the free heap as last measured (``measure``) with the lowest
        since boot."""
        log = self.log()
        event = {"event": "health", "boots": self.boots,
                 "uptime_s": self.uptime_ms // 1000, "crashes": self.crashes,
                 "last_crash": log[-1] if log else None, "log": log}
        if self.mem_free is not None:
            event["mem_free"] = self.mem_free
            event["mem_low"] = self.mem_low
        if self.usage is not None:
            event["usage"] = self.usage.report()
        for key in extra:
            event[key] = extra[key]
        return event


def _count(value):
    if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
        return value
    return 0
