"""A fake of CircuitPython's ``keypad`` module: ``Keys``, ``KeyMatrix``,
``ShiftRegisterKeys``, ``Event`` and ``EventQueue``, scanning the world's
wiring "in the background": every ``interval`` seconds of the world's clock
(``_cpworld.advance``), as the real ones do from a timer interrupt.

Written from the documented API (shared-bindings/keypad/*.c) and the scans of
shared-module/keypad/*.c:

- key numbers: ``KeyMatrix`` key = row * len(column_pins) + column;
  ``ShiftRegisterKeys`` key 0 is the first bit read; ``Keys`` key i is pins[i];
- ``KeyMatrix(columns_to_anodes=True)``: rows and columns are inputs with
  pull-ups; a row is driven low while its columns are read, and a column
  reading low is a pressed key (``False``: pull-downs, rows driven high);
- ``ShiftRegisterKeys``: clock an output (low), latch an output (high), data
  inputs with no pull; a scan sets latch to ``value_to_latch``, reads a bit,
  raises the clock, ... and sets latch back to ``not value_to_latch``; a bit
  equal to ``value_when_pressed`` is a pressed key;
- debouncing is shared-module/keypad/__init__.c's ``keypad_debounce``, count
  for count: each key has a counter in -n..n (n = ``debounce_threshold``);
  a scan that reads the key pressed counts it up, released counts it down,
  and an event is recorded only when the counter crosses zero (from -1 up:
  pressed, then set to n; from 1 down: released, then set to -n). So a
  change is reported after n scans in the new state "on average", and a
  switch that chatters for fewer scans than that never shows;
- the counters start at zero: a key that is already pressed when the
  scanner is made counts up to n and reports **nothing**, so its press is
  never seen (CircuitPython 10.2.1 does this). Only ``reset()`` sets every
  counter to -n, "every key released", so that the keys pressed then report
  a press; both construction and ``reset()`` scan once at once, as the C
  code does;
- ``EventQueue``: ``get()`` (an Event or None), ``get_into(event)``,
  ``clear()``, ``len()``, ``bool()``, ``overflowed``; when full the oldest
  event is dropped and ``overflowed`` is set until ``clear()``.
"""

import _cpworld
import digitalio


class Event:
    def __init__(self, key_number=0, pressed=True):
        self._key_number = key_number
        self._pressed = bool(pressed)
        self._timestamp = None

    key_number = property(lambda self: self._key_number)
    pressed = property(lambda self: self._pressed)
    released = property(lambda self: not self._pressed)
    timestamp = property(lambda self: self._timestamp)

    def __eq__(self, other):
        return (isinstance(other, Event) and self._key_number == other._key_number
                and self._pressed == other._pressed)

    def __hash__(self):
        return hash((self._key_number, self._pressed))

    def __repr__(self):
        return "<Event: key_number %d %s>" % (self._key_number,
                                               "pressed" if self._pressed else "released")


class EventQueue:
    def __init__(self, max_events):
        self._max = max_events
        self._events = []
        self._overflowed = False

    def _record(self, key, pressed, timestamp):
        if len(self._events) >= self._max:
            self._events.pop(0)
            self._overflowed = True
        self._events.append((key, pressed, timestamp))

    def get(self):
        if not self._events:
            return None
        key, pressed, ts = self._events.pop(0)
        e = Event(key, pressed)
        e._timestamp = ts
        return e

    def get_into(self, event):
        if not self._events:
            return False
        key, pressed, ts = self._events.pop(0)
        event._key_number = key
        event._pressed = pressed
        event._timestamp = ts
        return True

    def clear(self):
        self._events = []
        self._overflowed = False

    @property
    def overflowed(self):
        return self._overflowed

    def __bool__(self):
        return bool(self._events)

    def __len__(self):
        return len(self._events)


class _Scanner:
    def _start(self, key_count, interval, max_events, debounce_threshold):
        if max_events < 1:
            raise ValueError("max_events must be >= 1")
        if not 1 <= debounce_threshold <= 127:
            raise ValueError("debounce_threshold must be 1-127")
        if interval < 0:
            raise ValueError("interval must be >= 0")
        self._key_count = key_count
        self._interval_ms = max(1, int(interval * 1000))
        self._threshold = debounce_threshold
        self._events = EventQueue(max_events)
        self._count = [0] * key_count     # zero: neither pressed nor released yet
        self._deinited = False
        _cpworld.scanners.append(self)
        self._scan_at_once()

    @property
    def key_count(self):
        return self._key_count

    @property
    def events(self):
        return self._events

    def reset(self):
        """Every key released: the keys pressed now report a press."""
        self._count = [-self._threshold] * self._key_count
        self._scan_at_once()

    def _scan_at_once(self):
        self._scan_now()
        self._next = _cpworld.ms + self._interval_ms

    def _seen(self, key, current, timestamp):
        """keypad_debounce(): record an event when the counter crosses zero."""
        n = self._threshold
        count = self._count
        if current:
            if count[key] < n:
                count[key] += 1
                if count[key] == 0:
                    count[key] = n
                    self._events._record(key, True, timestamp)
        elif count[key] > -n:
            count[key] -= 1
            if count[key] == 0:
                count[key] = -n
                self._events._record(key, False, timestamp)

    def deinit(self):
        if self._deinited:
            return
        self._deinited = True
        if self in _cpworld.scanners:
            _cpworld.scanners.remove(self)
        for dio in self._dios():
            dio.deinit()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.deinit()


class Keys(_Scanner):
    def __init__(self, pins, *, value_when_pressed, pull=True, interval=0.020, max_events=64,
                 debounce_threshold=1):
        self._value_when_pressed = bool(value_when_pressed)
        self._pins = []
        for pin in pins:
            dio = digitalio.DigitalInOut(pin)
            dio.switch_to_input(None if not pull else
                                (digitalio.Pull.DOWN if value_when_pressed else digitalio.Pull.UP))
            self._pins.append(dio)
        self._start(len(self._pins), interval, max_events, debounce_threshold)

    def _dios(self):
        return self._pins

    def _scan_now(self):
        ts = _cpworld.ticks_ms()
        for i, dio in enumerate(self._pins):
            self._seen(i, dio.value == self._value_when_pressed, ts)


class KeyMatrix(_Scanner):
    def __init__(self, row_pins, column_pins, columns_to_anodes=True, interval=0.020,
                 max_events=64, debounce_threshold=1):
        names = [p.name for p in row_pins] + [p.name for p in column_pins]
        if len(set(names)) != len(names):
            raise ValueError("row_pins and column_pins must be distinct")
        self._anodes = bool(columns_to_anodes)
        pull = digitalio.Pull.UP if self._anodes else digitalio.Pull.DOWN
        self._rows = []
        for pin in row_pins:
            dio = digitalio.DigitalInOut(pin)
            dio.switch_to_input(pull)
            self._rows.append(dio)
        self._cols = []
        for pin in column_pins:
            dio = digitalio.DigitalInOut(pin)
            dio.switch_to_input(pull)
            self._cols.append(dio)
        self._start(len(self._rows) * len(self._cols), interval, max_events, debounce_threshold)

    def _dios(self):
        return self._rows + self._cols

    def key_number_to_row_column(self, key_number):
        if not 0 <= key_number < self._key_count:
            raise ValueError("key_number out of range")
        return (key_number // len(self._cols), key_number % len(self._cols))

    def row_column_to_key_number(self, row, column):
        if not 0 <= row < len(self._rows) or not 0 <= column < len(self._cols):
            raise ValueError("row or column out of range")
        return row * len(self._cols) + column

    def _scan_now(self):
        ts = _cpworld.ticks_ms()
        pull = digitalio.Pull.UP if self._anodes else digitalio.Pull.DOWN
        for r, row in enumerate(self._rows):
            row.switch_to_output(value=not self._anodes)
            for c, col in enumerate(self._cols):
                # low with columns_to_anodes (high without) is a pressed key
                self._seen(r * len(self._cols) + c, col.value != self._anodes, ts)
            row.value = self._anodes
            row.switch_to_input(pull)


class ShiftRegisterKeys(_Scanner):
    def __init__(self, *, clock, data, latch, value_to_latch=True, key_count,
                 value_when_pressed, interval=0.020, max_events=64, debounce_threshold=1):
        datas = list(data) if isinstance(data, (list, tuple)) else [data]
        counts = list(key_count) if isinstance(key_count, (list, tuple)) else [key_count]
        if len(counts) != len(datas):
            raise ValueError("key_count length must be %d" % len(datas))
        for n in counts:
            if n < 1:
                raise ValueError("key_count must be >= 1")
        self._clock = digitalio.DigitalInOut(clock)
        self._clock.switch_to_output(False)
        self._latch = digitalio.DigitalInOut(latch)
        self._latch.switch_to_output(True)
        self._datas = []
        for pin in datas:
            dio = digitalio.DigitalInOut(pin)
            dio.switch_to_input(None)
            self._datas.append(dio)
        self._counts = counts
        self._value_to_latch = bool(value_to_latch)
        self._value_when_pressed = bool(value_when_pressed)
        self._start(sum(counts), interval, max_events, debounce_threshold)

    def _dios(self):
        return [self._clock, self._latch] + self._datas

    def _scan_now(self):
        ts = _cpworld.ticks_ms()
        self._latch.value = self._value_to_latch          # latch (freeze) the inputs
        for n in range(max(self._counts)):
            self._clock.value = False
            index = 0
            for i, dio in enumerate(self._datas):
                if n < self._counts[i]:
                    self._seen(n + index, dio.value == self._value_when_pressed, ts)
                index += self._counts[i]
            self._clock.value = True                      # shift the next bit in
        self._latch.value = not self._value_to_latch      # start reading the inputs again
