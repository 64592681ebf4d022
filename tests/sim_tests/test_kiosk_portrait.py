"""The kiosk on a portrait screen (1080x1920), in real Chromium: the picture
docs/museum.md and the README show, and the setup words a visitor reads
there. UPDATE_SIM_SCREENSHOT=1 rewrites docs/kiosk-portrait.png from the
game below; without it the picture is only taken and measured.
"""

import os
import shutil

import pytest

from chromium import browser  # noqa: F401  (a module's own browser)
from test_sim_words import ROOT, hand, open_page, resumed, served, words  # noqa: F401

PORTRAIT_PNG = os.path.join(ROOT, "docs", "kiosk-portrait.png")
WIDTH, HEIGHT = 1080, 1920


@pytest.mark.browser
@pytest.mark.slow
def test_the_portrait_kiosk_shows_the_board_down_the_screen(browser, served, tmp_path):
    sim = served.use(resumed(tmp_path, "portrait", "kendall",
                             "BWBWBWB...W.B........W........ W", 2))
    hand(sim, ("lift", 11))
    context, page, errors = open_page(browser, served.server.url + "?view=kiosk", "en",
                                      width=WIDTH, height=HEIGHT)
    try:
        words(page, None, None, "lifted")
        board = page.locator("#board").bounding_box()
        share = board["width"] * board["height"] / (WIDTH * HEIGHT)
        print("portrait kiosk: the board covers %.0f %% of the screen" % (100 * share))
        assert board["height"] > board["width"], board          # the snake runs down
        assert share >= 0.3, share
        shot = tmp_path / "kiosk-portrait.png"
        page.mouse.move(500, 500)
        page.wait_for_function("() => document.body.classList.contains('pointer-hidden')",
                               timeout=60000)
        page.screenshot(path=str(shot))
        assert shot.stat().st_size > 10000
        if os.environ.get("UPDATE_SIM_SCREENSHOT"):
            shutil.copyfile(str(shot), PORTRAIT_PNG)
    finally:
        context.close()
    assert not errors, errors
    assert os.path.exists(PORTRAIT_PNG), "run with UPDATE_SIM_SCREENSHOT=1 to draw it"


@pytest.mark.browser
def test_the_portrait_kiosk_tells_a_visitor_which_colour_goes_where(browser, served,
                                                                       tmp_path):
    """Hungarian: black on the even squares (H2); two pieces already stand."""
    from host_tools.sim.board import Sim
    sim = Sim(config={"ruleset": "hungarian"}, seed=3)
    sim.arrange("BW" + "." * 28 + " B")           # the pair: the wrong way round
    served.use(sim)                               # the setup check looks at it
    context, page, errors = open_page(browser, served.server.url + "?view=kiosk", "en",
                                      width=WIDTH, height=HEIGHT)
    try:
        page.wait_for_function("""() => document.getElementById('instruction').textContent
            .includes('(blue lights)')""", timeout=60000)
        text = page.inner_text("#instruction")
        assert "Put black pieces on squares 4, 6, 8 and 10 (blue lights)" in text, text
        assert "Put white pieces on squares 3, 5, 7 and 9 (yellow lights)" in text, text
        assert "cannot see their colours" in text, text
    finally:
        context.close()
    assert not errors, errors
