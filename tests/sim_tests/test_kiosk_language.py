"""Visitors choose their language on the kiosk (Debian's headless Chromium).

- Large buttons, English · Magyar · Русский, each name in its own language,
  inside the screen at 1920x1080 and 1080x1920.
- A press switches the words; after the quiet time (``?quiet_s=``, a touch
  on the screen counts as a visitor) the page goes back to the exhibit's
  default language (``?lang=`` or ``--lang``, which staff set), so the next
  visitor does not inherit it. The page's timers run on Playwright's clock,
  moved by hand: no verdict depends on the machine's speed.
"""

import pytest

from chromium import browser  # noqa: F401  (a module's own browser)
from test_sim_words import hand, resumed, sentences, served, words  # noqa: F401

WAIT_MS = 60000         # only catches a hang: every wait is for a condition
QUIET_S = 40


def kiosk(browser, url, lang, width, height):
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.clock.install()
    page.goto(url + "?view=kiosk&quiet_s=%d&lang=%s" % (QUIET_S, lang))
    page.wait_for_function("""() => document.getElementById('instruction').textContent.trim()
        && document.querySelectorAll('#lang-buttons button').length""", timeout=WAIT_MS)
    return context, page, errors


def threw(lang):
    """White's throw of 2, as the status line says it in ``lang``."""
    return sentences(lang)["status.threw.W"].replace("{value}", "2")


def chosen(page):
    return page.evaluate("() => document.documentElement.lang")


@pytest.mark.browser
def test_the_language_buttons_switch_and_go_back_after_the_quiet_time(browser, served, tmp_path):
    sim = served.use(resumed(tmp_path, "languages", "kendall",
                             "BWBWBWB...W.B........W........ W", 2))
    hand(sim, ("lift", 11))
    for width, height in ((1920, 1080), (1080, 1920)):
        context, page, errors = kiosk(browser, served.server.url, "hu", width, height)
        try:
            names = page.eval_on_selector_all("#lang-buttons button",
                                              "els => els.map(b => b.textContent)")
            assert names == ["English", "Magyar", "Русский"], names
            for button in page.query_selector_all("#lang-buttons button"):
                box = button.bounding_box()
                assert box["height"] >= 48 and box["width"] >= 96, box     # a finger's size
                assert box["x"] >= 0 and box["y"] >= 0, box
                assert box["x"] + box["width"] <= width and box["y"] + box["height"] <= height, box
            for selector in ("#board", "#instruction"):     # the buttons cover none of them
                a = page.locator(selector).bounding_box()
                for button in page.query_selector_all("#lang-buttons button"):
                    b = button.bounding_box()
                    apart = (b["x"] >= a["x"] + a["width"] or a["x"] >= b["x"] + b["width"]
                             or b["y"] >= a["y"] + a["height"] or a["y"] >= b["y"] + b["height"])
                    assert apart, (selector, a, b)
            assert chosen(page) == "hu"
            words(page, threw("hu"), None, "lifted")

            page.click('#lang-buttons button[data-lang="ru"]')
            words(page, threw("ru"), None, "lifted")
            assert chosen(page) == "ru"
            assert page.get_attribute('#lang-buttons button[data-lang="ru"]', "aria-pressed") == "true"

            page.clock.run_for((QUIET_S - 5) * 1000)
            assert chosen(page) == "ru"                  # a visitor may still be reading
            page.mouse.click(5, height // 2)             # a touch on the screen: still here
            page.clock.run_for((QUIET_S - 5) * 1000)
            assert chosen(page) == "ru"
            page.clock.run_for(10 * 1000)                # quiet: the exhibit's own language
            page.wait_for_function("() => document.documentElement.lang === 'hu'", timeout=WAIT_MS)
            words(page, threw("hu"), None, "lifted")
            assert page.get_attribute('#lang-buttons button[data-lang="hu"]', "aria-pressed") == "true"
            size = page.evaluate("""() => [document.documentElement.scrollWidth,
                document.documentElement.scrollHeight, window.innerWidth, window.innerHeight]""")
            assert size[0] <= size[2] and size[1] <= size[3], "the kiosk page scrolls: %r" % size
            page.screenshot(path="/tmp/k/lang-%d.png" % width)
        finally:
            context.close()
        assert not errors, errors


ENGLISH = ("Square", "square", "piece", "empty", "light", "black", "white")


def square_labels(page):
    return page.eval_on_selector_all(".sq", "els => els.map(el => el.getAttribute('aria-label'))")


@pytest.mark.browser
def test_the_squares_labels_follow_the_chosen_language(browser, served, tmp_path):
    sim = served.use(resumed(tmp_path, "labels", "kendall",
                             "BWBWBWB...W.B........W........ W", 2))
    hand(sim, ("lift", 11))
    context, page, errors = kiosk(browser, served.server.url, "en", 1920, 1080)
    try:
        labels = square_labels(page)
        assert labels[0].startswith("Square 1") and "black piece" in labels[0], labels[0]
        page.click('#lang-buttons button[data-lang="ru"]')
        page.wait_for_function("() => document.documentElement.lang === 'ru'", timeout=WAIT_MS)
        words(page, threw("ru"), None, "lifted")
        labels = square_labels(page)
        assert labels[0] == "Клетка 1, чёрная фишка", labels[0]
        for label in labels:
            assert not any(c.isascii() and c.isalpha() for c in label), label
        assert sentences("ru")["role.target"] in labels[12], labels[12]       # 13: put it here
        page.click('#lang-buttons button[data-lang="hu"]')
        page.wait_for_function("() => document.documentElement.lang === 'hu'", timeout=WAIT_MS)
        labels = square_labels(page)
        assert labels[1] == "2. mező, fehér bábu", labels[1]
        assert labels[29].startswith("30. mező, " + sentences("hu")["house.30"]), labels[29]
        for label in labels:
            assert not [w for w in ENGLISH if w in label.replace(",", " ").split()], label
    finally:
        context.close()
    assert not errors, errors
