"""The kiosk screen follows the board's modes, watched in Debian's headless
Chromium at 1920x1080 and 1080x1920 (manual clock: every step is exact).

- Attract: while a museum board (firmware/museum.py) runs its travelling
  light, the words are the attract class and the kiosk shows the
  invitation (what Senet is, the two reconstructions and their sources, the
  board itself with the light, how to begin) in every language; a touch
  ends it.
- The screen used: in landscape and in portrait (where the snake of squares
  runs down the screen) the board and its words cover at least half of it,
  the board alone at least a quarter, with no scrolling.
- Disconnected: the mirror of a real board (`senet-board show`) that lost
  its cable shows one calm large line (the board is resting), the staff
  detail small, and nothing of the game's last instruction.
- The winner, with the Hungarian score (H15), is the largest line on the
  screen; the new-game hint is smaller, under it.
"""

import json
import threading

import pytest

from host_tools.words import explain as ex

from chromium import browser  # noqa: F401  (a module's own browser)
from host_tools.board.show import Mirror
from host_tools.sim.server import SimServer
from test_sim_words import (hand, museum_events, museum_sim, open_page,  # noqa: F401
                             resumed, sentences, served, words)

SCREENS = ((1920, 1080), (1080, 1920))
WAIT_MS = 60000         # only catches a hang: every wait is for a condition


def largest_text(page):
    """The id of the line of words set largest, and its size (the squares'
    numbers and signs are the board's, not lines)."""
    return page.evaluate("""() => {
        let best = [null, 0];
        for (const el of document.querySelectorAll('body *')) {
            if (!el.offsetParent && getComputedStyle(el).position !== 'fixed') continue;
            if (el.closest('#board')) continue;
            const own = [...el.childNodes].some(n => n.nodeType === 3 && n.textContent.trim());
            if (!own) continue;
            const size = parseFloat(getComputedStyle(el).fontSize);
            if (size > best[1]) best = [el.id || el.className, size];
        }
        return best;
    }""")


@pytest.mark.browser
def test_the_winner_is_the_largest_line_and_the_new_game_hint_under_it(browser, served, tmp_path):
    sim = served.use(resumed(tmp_path, "winner", "hungarian",
                             "." * 11 + "B" + "." * 9 + "B" + "." * 6 + "W. W", 2))
    hand(sim, ("lift", 29), ("place", "off"))
    for width, height in SCREENS:
        context, page, errors = open_page(browser, served.server.url + "?view=kiosk", "en",
                                          width=width, height=height)
        try:
            words(page, "White wins · with 4 points", None, "winner")
            assert largest_text(page)[0] == "status", largest_text(page)
            status = page.locator("#status").bounding_box()
            hint = page.locator("#instruction").bounding_box()
            assert hint["y"] >= status["y"] + status["height"] - 1, (status, hint)
            sizes = page.evaluate("""() => ['status', 'instruction'].map(id =>
                parseFloat(getComputedStyle(document.getElementById(id)).fontSize))""")
            assert sizes[0] >= 28 and sizes[1] < sizes[0], sizes
        finally:
            context.close()
        assert not errors, errors


# -- attract ---------------------------------------------------------------------------


def test_the_travelling_light_is_the_attract_class_until_a_touch():
    story = ex.Story()
    opening = {"state": "opening", "turn": "W", "throw": None, "roles": [""] * 30}
    assert ex.explain(opening, story)["kind"] == "opening"
    story.event({"event": "museum", "what": "attract"})
    assert ex.explain(opening, story) == {"kind": "attract", "status": [["status.attract", {}]],
                                          "instruction": [["do.attract", {}]]}
    story.event({"event": "museum", "what": "wake"})
    assert ex.explain(opening, story)["kind"] == "opening"
    story.event({"event": "museum", "what": "attract"})
    story.event({"event": "hello", "mode": "museum"})       # a restart ends the light too
    assert ex.explain(opening, story)["kind"] == "opening"


def inside(page, selector, width, height):
    box = page.locator(selector).bounding_box()
    assert box and box["x"] >= 0 and box["y"] >= 0, (selector, box)
    assert box["x"] + box["width"] <= width + 1 and box["y"] + box["height"] <= height + 1, (
        selector, box, width, height)
    return box


@pytest.mark.browser
def test_the_kiosk_invites_during_the_travelling_light_and_a_touch_ends_it(browser, served):
    sim = museum_sim(2, 1, 2, 1, timings={"attract_s": 10})
    served.use(sim)                   # the setup check: the how-to begins
    sim.press()                       # ends the how-to: the opening waits
    sim.advance(400)
    for width, height, lang in ((1920, 1080, "ru"), (1080, 1920, "hu"), (1920, 1080, "en")):
        words_of = sentences(lang)
        context, page, errors = open_page(browser, served.server.url + "?view=kiosk", lang,
                                          width=width, height=height)
        try:
            sim.advance(10500)        # nobody touches it: the travelling light
            assert museum_events(sim, "attract")
            page.wait_for_function("() => !document.getElementById('invite').hidden",
                                   timeout=WAIT_MS)
            assert page.inner_text("#invite-title") == words_of["attract.title"]
            for key in ("attract.what", "attract.rules"):
                assert words_of[key] in page.inner_text("#invite"), key
            assert page.inner_text("#invite-begin") == words_of["attract.begin"]
            assert "Passing Through the Netherworld" in words_of["attract.rules"]
            for selector in ("#invite-title", "#invite", "#board", "#invite-begin"):
                inside(page, selector, width, height)
            assert not page.is_visible("#instruction")    # no call to throw during the light
            assert not page.is_visible("#controls")
            title = page.eval_on_selector("#invite-title",
                                          "el => parseFloat(getComputedStyle(el).fontSize)")
            body = page.eval_on_selector("#invite-what",
                                         "el => parseFloat(getComputedStyle(el).fontSize)")
            assert title >= 40 and body >= 24, (title, body)
            size = page.evaluate("""() => [document.documentElement.scrollWidth,
                document.documentElement.scrollHeight, window.innerWidth, window.innerHeight]""")
            assert size[0] <= size[2] and size[1] <= size[3], "the kiosk page scrolls: %r" % size
            page.screenshot(path="/tmp/k/attract-%s-%d.png" % (lang, width))

            sim.lift(2)                # a touch: the light and the invitation end
            sim.advance(300)
            page.wait_for_function("() => document.getElementById('invite').hidden",
                                   timeout=WAIT_MS)
            assert page.is_visible("#instruction") and page.is_visible("#board")
            assert not page.is_visible("#invite-begin")
            sim.place(2)
            sim.advance(1000)
        finally:
            context.close()
        assert not errors, errors


# -- disconnected ------------------------------------------------------------------------


def mirrored(sim):
    """A mirror (as `senet-board show` keeps) that has read ``sim``'s events
    and state, and has no cable now."""
    mirror = Mirror("/dev/null")
    for entry in sim.log:
        if entry["kind"] == "app":
            mirror.line(json.dumps(entry["data"]).encode())
    mirror.line(json.dumps(sim.app.command({"cmd": "state"})[0]).encode())
    return mirror


@pytest.mark.browser
def test_a_disconnected_board_is_one_calm_line_and_no_stale_instruction(browser, tmp_path):
    sim = resumed(tmp_path, "unplugged", "kendall", "BWBWBWB...W.B........W........ W", 2)
    sim.advance(1000)
    mirror = mirrored(sim)
    assert mirror.snapshot()["explain"]["status"] == [["status.threw.W", {"value": 2}]]
    server = SimServer(mirror, "127.0.0.1", 0, read_only=True)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05},
                              daemon=True)
    thread.start()
    try:
        for width, height, lang in ((1920, 1080, "en"), (1080, 1920, "ru")):
            words_of = sentences(lang)
            context, page, errors = open_page(browser, server.url + "?view=kiosk", lang,
                                              width=width, height=height)
            try:
                words(page, None, words_of["page.resting"], "resting")
                visible = page.inner_text("body")
                for key in ("status.threw.W", "do.move.W"):    # the game's last words
                    template = words_of[key]
                    template = template["other"] if isinstance(template, dict) else template
                    assert template.split("{")[0] not in visible, (key, visible)
                assert words_of["page.disconnected"] in page.inner_text("#banner")
                assert largest_text(page)[0] == "instruction", largest_text(page)
                banner = page.eval_on_selector("#banner",
                                               "el => parseFloat(getComputedStyle(el).fontSize)")
                assert banner <= 20, banner               # the staff detail is small
                inside(page, "#instruction", width, height)
                inside(page, "#banner", width, height)
            finally:
                context.close()
            assert not errors, errors
    finally:
        server.shutdown()
        server.server_close()
        thread.join(5)


# -- the screen used ---------------------------------------------------------------------


@pytest.mark.browser
def test_the_board_and_its_words_use_at_least_half_of_the_screen(browser, served, tmp_path):
    sim = served.use(resumed(tmp_path, "area", "kendall", "BWBWBWB...W.B........W........ W", 2))
    hand(sim, ("lift", 11))
    for width, height, lang in ((1920, 1080, "en"), (1080, 1920, "ru"), (1080, 1920, "hu")):
        context, page, errors = open_page(browser, served.server.url + "?view=kiosk", lang,
                                          width=width, height=height)
        try:
            words(page, None, None, "lifted")
            boxes = [inside(page, selector, width, height)
                     for selector in ("#board", "#words", "#controls")]
            area = [b["width"] * b["height"] / float(width * height) for b in boxes]
            print("\n%dx%d %s: board %.0f%%, words %.0f%%, controls %.0f%% of the screen" % (
                width, height, lang, 100 * area[0], 100 * area[1], 100 * area[2]))
            assert area[0] >= 0.25 and sum(area) >= 0.5, area
            size = page.evaluate("""() => [document.documentElement.scrollWidth,
                document.documentElement.scrollHeight, window.innerWidth, window.innerHeight]""")
            assert size[0] <= size[2] and size[1] <= size[3], "the kiosk page scrolls: %r" % size
            # the squares still run along the snake: 1..10, 11..20 back, 21..30
            centres = page.evaluate("""() => [1, 10, 11, 20, 21, 30].map(n => {
                const r = document.querySelector('.sq[data-square="' + n + '"]').getBoundingClientRect();
                return [r.x + r.width / 2, r.y + r.height / 2, r.width];
            })""")
            side = centres[0][2]
            for a, b in ((0, 5), (1, 2), (3, 4)):     # 1 and 30 far apart; 10 beside 11, 20 beside 21
                far = abs(centres[a][0] - centres[b][0]) + abs(centres[a][1] - centres[b][1])
                assert (far > 5 * side) if a == 0 else (far < 1.5 * side), (a, b, centres)
            page.screenshot(path=str(tmp_path / ("area-%s-%d.png" % (lang, width))))
            page.screenshot(path="/tmp/k/area-%s-%d.png" % (lang, width))
        finally:
            context.close()
        assert not errors, errors
