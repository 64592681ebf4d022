"""The simulator page end to end, in Debian's headless Chromium driven by Playwright.

A player's session: load the page, throw, drag a piece and see its legal
destination glow in exactly the App's colour, play the move, make a capture
swap by hand, and read both moves in the event log. Also the keyboard, a
tablet's touch screen, and the click-to-update latency (printed, not asserted).

No browser is downloaded: the tests use /usr/bin/chromium (scripts/test.sh
installs Debian's package; tests/chromium.py fails, saying so, when it is
absent). Set UPDATE_SIM_SCREENSHOT=1 to rewrite docs/sim.png from the game in progress.
"""

import os
import shutil
import statistics
import threading

import pytest

from host_tools.sim.board import Sim
from host_tools.sim.clock import Clock
from host_tools.sim.server import SimServer

import paths
from chromium import browser, page  # noqa: F401  (a module's own browser, a tab a test)

DOCS_PNG = os.path.join(paths.ROOT, "docs", "sim.png")
WAIT_MS = 60000         # only catches a hang: every wait is for a condition

pytestmark = [
    pytest.mark.browser,
    pytest.mark.slow,
]


@pytest.fixture
def served(tmp_path):
    """A real-time simulator on a free loopback port. Seed 12: white wins the
    opening with a 1, and throws a 1 again after moving 10-11."""
    sim = Sim(store_dir=str(tmp_path), seed=12)
    clock = Clock(sim)
    server = SimServer(sim, "127.0.0.1", 0, clock=clock)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05},
                              daemon=True)
    thread.start()
    clock.start()
    yield sim, server.url
    server.shutdown()
    server.stop()
    server.server_close()
    thread.join(5)


# -- helpers ------------------------------------------------------------------------


def sq(n):
    return '.sq[data-square="%d"]' % n


def wait_state(page, name):
    page.wait_for_function("s => document.getElementById('state').textContent === s", arg=name,
                           timeout=WAIT_MS)


def wait_log(page, text, count=1):
    try:
        page.wait_for_function(
            "([t, n]) => [...document.querySelectorAll('#log li')]"
            ".filter(li => li.textContent.includes(t)).length >= n",
            arg=[text, count], timeout=WAIT_MS)
    except Exception:
        raise AssertionError("%r never appeared %d times in the event log:\n%s" % (
            text, count, page.inner_text("#log")))


def centre(page, selector):
    box = page.locator(selector).bounding_box()
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def start_drag(page, square):
    x, y = centre(page, sq(square))
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x + 12, y + 12, steps=3)


def finish_drag(page, square):
    x, y = centre(page, sq(square))
    page.mouse.move(x, y, steps=6)
    page.mouse.up()


def glow_colour(page, square):
    return page.eval_on_selector(sq(square) + " .glow", "el => getComputedStyle(el).backgroundColor")


def css(rgb):
    return "rgb(%d, %d, %d)" % tuple(rgb)


def wait_role(sim, square, role):
    import time
    deadline = time.monotonic() + WAIT_MS / 1000
    while time.monotonic() < deadline:
        with sim.lock:
            if sim.app.roles[square - 1] == role:
                return
        time.sleep(0.01)
    raise AssertionError("square %d never showed %r; roles: %r" % (square, role, sim.app.roles))


def wait_colour(page, square, rgb):
    page.wait_for_function(
        "([sel, want]) => getComputedStyle(document.querySelector(sel)).backgroundColor === want",
        arg=[sq(square) + " .glow", css(rgb)], timeout=WAIT_MS)


def throw_until(page, sim, state):
    """Press the throw button until the App reaches ``state``."""
    for _ in range(12):
        with sim.lock:
            if sim.app.state == state:
                return
        count = page.locator("#log li", has_text='"event":"throw"').count()
        page.click("#throw")
        wait_log(page, '"event":"throw"', count + 1)
        page.wait_for_timeout(150)
    assert sim.app.state == state


# -- a game in the browser ----------------------------------------------------------------


def test_a_game_in_the_browser(page, served, tmp_path):
    sim, url = served
    page.goto(url)
    wait_state(page, "opening")
    assert page.locator(".sq").count() == 30
    assert page.locator(".sq .piece.B:not([hidden])").count() == 5
    assert page.locator(".sq .piece.W:not([hidden])").count() == 5

    # Throw: the opening throws go on until a 1 starts the game (K4).
    throw_until(page, sim, "move")
    wait_log(page, '"event":"start"')
    wait_state(page, "move")

    # Drag the white piece on 10: while it is in the air, its legal
    # destination 11 glows in exactly the App's colour for LED 10.
    start_drag(page, 10)
    wait_role(sim, 11, "target")
    with sim.lock:
        frame = list(sim.app.frame)
        roles = list(sim.app.roles)
        gain = sim.display_gain
    assert frame[10] != (0, 0, 0)
    wait_colour(page, 11, frame[10])
    for s in range(1, 31):                       # every steady light matches the frame
        if roles[s - 1] in ("", "target", "movable"):
            assert glow_colour(page, s) == css(frame[s - 1]), s
    filt = page.eval_on_selector(sq(11) + " .glow", "el => el.style.filter")
    # brightened by 255 / cap, then gamma-encoded as a screen expects (LEDs give linear light)
    assert filt == 'brightness(%s) url("#led-gamma")' % round(gain, 3)
    leds = sim.leds
    for i in range(4):                           # the sticks of the throw: steady lights
        stick = '.led.stick[data-stick="%d"] .glow' % i
        colour = page.eval_on_selector(stick, "el => getComputedStyle(el).backgroundColor")
        assert colour == css(frame[leds["sticks"] + i]) != css((0, 0, 0))
    black = page.eval_on_selector("#led-B .glow", "el => getComputedStyle(el).backgroundColor")
    assert black == css(frame[leds["side_black"]]) == css((0, 0, 0))
    white = page.eval_on_selector("#led-W .glow", "el => getComputedStyle(el).backgroundColor")
    assert white != css((0, 0, 0))              # white's turn: its light swells, never dark
    finish_drag(page, 11)
    wait_log(page, '"move":"10-11"')

    # White throws again (K5), with the T key this time.
    count = page.locator("#log li", has_text='"event":"throw"').count()
    page.keyboard.press("t")
    wait_log(page, '"event":"throw"', count + 1)
    wait_state(page, "move")
    with sim.lock:
        moves = [m.text for m in sim.app.moves]
    assert "8-9" in moves

    # A capture swap by hand: drop white's piece from 8 onto black's on 9. The
    # page lifts black's piece first; it stays in hand and goes back to 8.
    start_drag(page, 8)
    finish_drag(page, 9)
    page.wait_for_function("() => document.querySelector('.tray-piece[aria-pressed=\"true\"]')",
                           timeout=WAIT_MS)
    page.click(sq(8))
    wait_log(page, '"move":"8-9"')
    with sim.lock:
        position = sim.app.position
    page.wait_for_function("p => document.getElementById('position').textContent === p",
                           arg=position, timeout=WAIT_MS)
    assert position.startswith("BWBWBWBBW.W")
    assert page.eval_on_selector(sq(9), "el => el.dataset.side") == "W"
    assert page.eval_on_selector(sq(8), "el => el.dataset.side") == "B"

    # A game in progress: the next throw, a piece lifted, its moves glowing.
    throw_until(page, sim, "move")
    with sim.lock:
        origin = sim.app.moves[0].origin
    start_drag(page, origin)
    page.wait_for_timeout(400)
    shot = tmp_path / "sim.png"
    page.screenshot(path=str(shot), full_page=True)
    assert shot.stat().st_size > 10000
    if os.environ.get("UPDATE_SIM_SCREENSHOT"):
        shutil.copyfile(str(shot), DOCS_PNG)
    page.mouse.up()


def test_the_throw_button_and_squares_work_from_the_keyboard(page, served):
    sim, url = served
    page.goto(url)
    wait_state(page, "opening")
    page.focus("#throw")
    page.keyboard.press("Space")
    wait_log(page, '"event":"throw"')
    wait_state(page, "move")                      # seed 12: the first throw is a 1
    page.focus(sq(10))
    page.keyboard.press("Enter")                  # lift
    wait_role(sim, 11, "target")
    page.wait_for_function(                       # a screen reader hears the light too
        "sel => document.querySelector(sel).getAttribute('aria-label')"
        " === 'Square 11, empty, light: put the lifted piece here'", arg=sq(11), timeout=WAIT_MS)
    page.focus(sq(11))
    page.keyboard.press("Enter")                  # place
    wait_log(page, '"move":"10-11"')


def test_a_tablet_plays_by_touch(browser, served):
    sim, url = served
    context = browser.new_context(viewport={"width": 820, "height": 1180}, has_touch=True,
                                  is_mobile=True)
    page = context.new_page()
    try:
        page.goto(url)
        wait_state(page, "opening")
        width = page.evaluate("() => document.documentElement.scrollWidth")
        assert width <= 820, "the page scrolls sideways on a tablet"
        page.tap("#throw")
        wait_log(page, '"event":"throw"')
        wait_state(page, "move")
        page.tap(sq(10))
        wait_role(sim, 11, "target")
        page.tap(sq(11))
        wait_log(page, '"move":"10-11"')
    finally:
        context.close()


def test_click_latency(page, served):
    """Time from a click to the page showing it, measured in the browser from
    the click event: to the piece leaving (or coming back to) its square, and
    to the App's light on the destination changing."""
    sim, url = served
    page.goto(url)
    wait_state(page, "opening")
    throw_until(page, sim, "move")
    wait_state(page, "move")
    page.evaluate("""() => {
        window.lat = {down: 0, moved: [], lit: []};
        document.addEventListener('click', () => { window.lat.down = performance.now(); }, true);
        const origin = document.querySelector('.sq[data-square="10"]');
        let had = origin.dataset.piece;
        new MutationObserver(() => {
            if (origin.dataset.piece !== had) {
                had = origin.dataset.piece;
                window.lat.moved.push(performance.now() - window.lat.down);
            }
        }).observe(origin, {attributes: true, attributeFilter: ['data-piece']});
        const glow = document.querySelector('.sq[data-square="11"] .glow');
        let was = getComputedStyle(glow).backgroundColor;
        new MutationObserver(() => {
            const now = getComputedStyle(glow).backgroundColor;
            if (now !== was) { was = now; window.lat.lit.push(performance.now() - window.lat.down); }
        }).observe(glow, {attributes: true, attributeFilter: ['style']});
    }""")
    clicks = 20
    for i in range(clicks):
        lifting = i % 2 == 0
        page.click(sq(10))                       # lift, then put back
        wait_role(sim, 11, "target" if lifting else "")
        page.wait_for_function("n => window.lat.lit.length >= n", arg=i + 1, timeout=WAIT_MS)
    lat = page.evaluate("() => window.lat")
    moved, lit = lat["moved"][:clicks], lat["lit"][:clicks]
    assert len(moved) == clicks and len(lit) == clicks
    print("\nsim click latency: median %.1f ms, max %.1f ms over %d clicks (the page shows "
          "the piece lifted or put back)" % (statistics.median(moved), max(moved), clicks))
    print("sim click-to-lights latency: median %.1f ms, max %.1f ms over %d clicks (the App's "
          "frame lights or darkens the destination: scan debounce included)"
          % (statistics.median(lit), max(lit), clicks))
    with sim.lock:
        assert sim.app.state == "move" and sim.app.position.startswith("BWBWBWBWBW")
