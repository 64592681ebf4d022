"""What the App's scan reads on the virtual board: changes at a hand's pace, and chatter.

Two things a hand does that a click does not are modelled on purpose:

- A hand cannot move a piece in less than a few scans, so every change of the
  board lasts at least ``HOLD_MS`` and a few more App steps than the debounce
  needs before the next one reaches the App, however fast requests arrive (a
  capture swap made by a script still shows the App both lifts), and even
  when the clock thread runs late on a busy machine.
- A finger holds the button for a while, so a press is held down for at least
  ``MIN_PRESS_MS`` even when the release comes at once.

Switch chatter flips single scans of random switches, never two scans in a
row, which any debounce must absorb. Both classes are handed the time; they
keep no clock and no App.
"""

import collections

from host_tools.sim.checks import SQUARES, SimError

HOLD_MS = 60            # shortest time a board state lasts before the next one
MIN_PRESS_MS = 80       # shortest press of the throw button
MIN_GAP_MS = 60         # shortest release between two presses


class Pace:
    """The board and the button as the App sees them, and the changes not yet
    seen. ``board`` (occupancy bits) and ``button`` are what the next App step
    reads; ``feed`` moves the queued changes on to them."""

    def __init__(self, occupancy):
        self.board = occupancy
        self.button = False
        self._boards = collections.deque()        # board states not yet seen by the App
        self._presses = collections.deque()       # (button down?, shortest hold ms)
        self._board_at = 0
        self._board_steps = 0                     # App steps that saw the board as it is
        self._button_at = 0
        self._button_hold = 0
        self._button_steps = 0                    # App steps that saw the button as it is
        self._last_step = 0

    def board_to(self, occupancy):
        """The pieces now stand as ``occupancy`` says; queue it if it differs."""
        last = self._boards[-1] if self._boards else self.board
        if occupancy != last:
            self._boards.append(occupancy)

    def button_down(self):
        """Whether the button is down once every queued change has arrived."""
        return self._presses[-1][0] if self._presses else self.button

    def button_to(self, down):
        """The button goes down or up; True when that is a change (queued)."""
        if down == self.button_down():
            return False
        self._presses.append((down, MIN_PRESS_MS if down else MIN_GAP_MS))
        return True

    def press(self, ms):
        """A whole press of ``ms`` milliseconds, then a release."""
        if self.button_down():
            raise SimError("the throw button is already held down")
        self._presses.append((True, max(ms, 1)))
        self._presses.append((False, MIN_GAP_MS))

    def let_go(self):
        """The power went: no press is pending and the button reads up."""
        self._presses.clear()
        self.button = False

    def idle(self):
        """True when every queued change has reached the App."""
        return not self._boards and not self._presses

    def feed(self, now_ms, min_scans):
        """Move the queued board and button states on to the App's inputs.

        A state gives way to the next only once the App has seen it in
        ``min_scans`` steps (its debounce counts scans) and in a step at least
        the shortest hold after it began (the button's debounce counts
        milliseconds), so nothing a hand did is lost even when the clock
        thread runs late.
        """
        last = self._last_step
        if (self._boards and self._board_steps >= min_scans
                and last - self._board_at >= HOLD_MS):
            self.board = self._boards.popleft()
            self._board_at = now_ms
            self._board_steps = 0
        if (self._presses and self._button_steps >= 2
                and last - self._button_at >= self._button_hold):
            self.button, self._button_hold = self._presses.popleft()
            self._button_at = now_ms
            self._button_steps = 0
        self._board_steps += 1
        self._button_steps += 1
        self._last_step = now_ms


class Chatter:
    """Switch chatter: while ``on``, single scans of random switches flip.
    ``rng`` is a random.Random (seeded, so a test sees the same flips)."""

    def __init__(self, rng):
        self.rng = rng
        self.on = False
        self.until = None
        self._last = 0

    def switch(self, on, now_ms, ms=None):
        """Chatter on (for ``ms``, or until switched off) or off."""
        self.on = on
        self.until = now_ms + ms if (on and ms) else None

    def bits(self, now_ms):
        """The switches that flip in the scan at ``now_ms``, and whether the
        chatter stopped by itself just now. About 1 in 8 switches flips, and
        never one that flipped in the scan before."""
        ended = self.on and self.until is not None and now_ms >= self.until
        if ended:
            self.on = False
            self.until = None
        if not self.on:
            self._last = 0
            return 0, ended
        r = self.rng.getrandbits
        noise = r(SQUARES) & r(SQUARES) & r(SQUARES) & ~self._last
        noise &= (1 << SQUARES) - 1
        self._last = noise
        return noise, ended
