"""The kiosk screen follows the board's modes, watched in Debian's headless
Chromium at 1920x1080 and 1080x1920 (manual clock: every step is exact).

- The winner, with the Hungarian score (H15), is the largest line on the
  screen; the new-game hint is smaller, under it.
"""

import pytest

from chromium import browser  # noqa: F401  (a module's own browser)
from test_sim_words import Served, hand, open_page, resumed, words

SCREENS = ((1920, 1080), (1080, 1920))


@pytest.fixture(scope="module")
def served():
    s = Served()
    yield s
    s.stop()


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
