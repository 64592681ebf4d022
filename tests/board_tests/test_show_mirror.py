"""`senet-board show`: the page mirrors a real board, here the stand-in Pico.

The stand-in runs the deployed firmware on the MicroPython unix port behind a
pseudo-terminal; its boot hook places the pieces, presses the button and
makes a move (its sticks always show one flat side, so the opening's first
throw is a 1 and white starts, K4). The mirror reads it through a link to
the pty, as a udev name points at a Pico, so the board can be unplugged
(the stand-in killed) and plugged in again (a new one behind the same name).

Measured and printed, never asserted: the time from the stand-in writing its
``move`` line to the page showing the piece on its new square (a loaded
machine would make any bound a verdict on its speed). The waits are for
events, with a deadline that only catches a hang.
"""

import os
import time

import pytest

from host_tools.board import deploy
from host_tools.board.show import READ_ONLY_COMMANDS, Mirror, Reader
from standin.device import FAKES, StandIn
from standin.scenario import KENDALL_START, hook

from chromium import CHROMIUM, browser  # noqa: F401  (a module's own browser)
from served import serve, stop

WAIT_S = 60

pytestmark = [
    pytest.mark.browser,
    pytest.mark.slow,
]

# Every throw shows one flat side (a 1): the fake random module the firmware's
# thrower imports (firmware/board.py _rng) gives the same bits each time.
ONES = """
import sys
class _Ones:
    def getrandbits(self, n):
        return 1
sys.modules["random"] = _Ones()
"""

# Pieces on 1..10, a press (the opening: a 1, white starts), then 10 -> 11.
SCRIPT = [(0, "place", KENDALL_START), (5000, "press", ()), (5300, "release", ()),
          (6500, "lift", (10,)), (6900, "place", (11,))]


class RecordingStandIn(StandIn):
    """A stand-in that keeps every byte it receives, and the time each line
    it sends began."""

    def __init__(self, *args, **kwargs):
        StandIn.__init__(self, *args, **kwargs)
        self.heard = bytearray()
        self.sent_at = []

    def _byte(self, b):
        self.heard.extend(b)
        StandIn._byte(self, b)

    def _send(self, data):
        self.sent_at.append((time.time(), bytes(data)))
        StandIn._send(self, data)


def wait_for(check, what, seconds=WAIT_S):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if check():
            return
        time.sleep(0.02)
    raise AssertionError("never happened: %s" % what)


def unplug(dev, reader, server, thread):
    """Show put away (its reader, then its page's server) and the stand-in
    stopped, however far the test got before it ended."""
    if reader is not None:
        reader.stop()
    if server is not None:
        stop(server, thread)
    dev.stop()


def test_the_page_mirrors_a_board_and_survives_the_cable(tmp_path, browser):
    flash = tmp_path / "flash"
    boot = ONES + hook(SCRIPT)
    dev = RecordingStandIn(str(flash), fakes=FAKES, boot_hook=boot)
    dev.start()
    link = str(tmp_path / "senet-board")
    mirror = reader = server = None
    thread = None
    try:
        deploy.deploy(dev.port)                       # resets the board: the script starts
        os.symlink(dev.port, link)
        dev.heard = bytearray()                       # from here on: what show sends
        mirror = Mirror(link)
        reader = Reader(mirror, link).start()
        server, thread = serve(mirror, read_only=True)
        page = browser.new_page(viewport={"width": 1400, "height": 950})
        page.goto(server.url + "?lang=en")
        page.wait_for_function("() => document.querySelectorAll('.sq').length === 30")
        page.evaluate("""() => {
            window.shownAt = null;
            const sq = document.querySelector('.sq[data-square="11"]');
            new MutationObserver(() => {
                if (sq.dataset.piece !== '' && window.shownAt === null) window.shownAt = Date.now();
            }).observe(sq, {attributes: true, attributeFilter: ['data-piece']});
        }""")
        wait_for(lambda: "10-11" in mirror.shown_at, "the stand-in's move 10-11 reached the mirror")
        page.wait_for_function("() => window.shownAt !== null", timeout=WAIT_S * 1000)
        shown = page.evaluate("() => window.shownAt") / 1000.0
        sent = [t for t, data in dev.sent_at if b'"event": "move"' in data or b'"event":"move"' in data]
        assert sent, "the stand-in never sent its move line"
        latency_ms = (shown - sent[0]) * 1000
        print("\nshow latency: %.0f ms from the stand-in's move line to the page showing the "
              "piece on 11" % latency_ms)
        assert page.eval_on_selector('.sq[data-square="11"]', "el => el.dataset.side") == "W"
        page.wait_for_function(
            "() => document.getElementById('instruction').textContent"
            " === 'White: press the button to throw'",
            timeout=WAIT_S * 1000)
        # the page plays nothing: the throw button is not shown, a POST is refused
        assert not page.is_visible("#throw")
        refused = page.evaluate("""async () => (await fetch('/api/press', {method: 'POST',
            body: '{}'})).status""")
        assert refused == 403

        # Unplugged: the page says so.
        dev.stop()
        heard = bytes(dev.heard)
        page.wait_for_selector("#banner", state="visible", timeout=WAIT_S * 1000)
        assert "Board disconnected" in page.inner_text("#banner")
        # Plugged in again (a new board process behind the same name): it resumes.
        dev = RecordingStandIn(str(flash), fakes=FAKES, boot_hook=ONES + hook(
            [(0, "place", KENDALL_START[:9] + (11,))]), run_main=True)
        dev.start()
        os.remove(link)
        os.symlink(dev.port, link)
        before = mirror.received
        page.wait_for_selector("#banner", state="hidden", timeout=WAIT_S * 1000)
        wait_for(lambda: mirror.received > before + 1, "events from the board plugged in again")
        wait_for(lambda: mirror.snapshot()["app"]["state"] is not None, "the board's state")
        position = mirror.snapshot()["app"]["position"]
        page.wait_for_function("p => document.getElementById('position').textContent === p",
                               arg=position, timeout=WAIT_S * 1000)
        time.sleep(0.5)
        heard += bytes(dev.heard)
        page.close()
    finally:
        unplug(dev, reader, server, thread)
    # Nothing but the commands that only report ever went to the board.
    lines = [line + b"\n" for line in heard.split(b"\n") if line]
    assert lines, "show asked the board nothing"
    assert set(lines) <= set(READ_ONLY_COMMANDS), set(lines) - set(READ_ONLY_COMMANDS)
