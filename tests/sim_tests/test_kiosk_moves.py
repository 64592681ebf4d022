"""The kiosk view with the moves: a museum screen shows the last plies on one
line, the takeback button and the sound switch beside the throw button, no
download or load buttons, and a replay (`senet-board replay FILE --view
kiosk`) steps with its own buttons under the board; everything fits a
1920x1080 and a 1080x1920 screen without scrolling. Real headless Chromium.
"""

import threading

import pytest

from engine.game import Game, play_game
from engine.record import plies_of, record
from engine.rules import ruleset
from firmware.store import Store
from host_tools.sim.board import Sim
from host_tools.sim.gamefiles import replay_data
from host_tools.sim.server import SimServer

from chromium import browser  # noqa: F401  (a module's own browser)

WAIT_MS = 60000         # only catches a hang: every wait is for a condition
SCREENS = ((1920, 1080), (1080, 1920))

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def seeded_prefix(seed=20, length=47):
    whole = play_game(ruleset("kendall"), seed)
    game = Game(ruleset("kendall"))
    game.opening = list(whole.opening)
    for side, throw, text in list(whole.turns())[:length]:
        game.set_throw(throw)
        if text is None:
            game.pass_turn()
        else:
            game.play(text)
    return game


@pytest.fixture
def served(tmp_path):
    started = []

    def start(replay=None):
        game = seeded_prefix()
        folder = tmp_path / ("store%d" % len(started))
        folder.mkdir()
        Store(str(folder)).save(game, True)
        sim = Sim(store_dir=str(folder), seed=3)
        sim.advance(1000)
        server = SimServer(sim, "127.0.0.1", 0, clock=None, replay=replay)
        thread = threading.Thread(target=server.serve_forever, daemon=True)
        thread.start()
        started.append((server, thread))
        return game, server.url

    yield start
    for server, thread in started:
        server.shutdown()
        server.stop()
        server.server_close()
        thread.join(5)


def fits(page):
    return page.evaluate("() => { const d = document.scrollingElement; return "
                         "d.scrollHeight <= innerHeight && d.scrollWidth <= innerWidth; }")


def inside(page, selector):
    box = page.locator(selector).bounding_box()
    size = page.viewport_size
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= size["height"] \
        and box["x"] >= 0 and box["x"] + box["width"] <= size["width"]


@pytest.mark.parametrize("width,height", SCREENS)
def test_the_kiosk_shows_the_last_plies_the_takeback_and_sounds_and_fits(
        browser, served, width, height):
    game, url = served()
    last = [p.as_dict() for p in plies_of(game)][-3:]
    context = browser.new_context(viewport={"width": width, "height": height})
    try:
        page = context.new_page()
        page.goto(url + "?view=kiosk&lang=en")
        page.wait_for_function("() => document.getElementById('moves-recent').textContent.length > 3",
                               timeout=WAIT_MS)
        recent = page.inner_text("#moves-recent")
        for p in last:
            assert ("%d. %s %d: %s" % (p["turn"], {"W": "White", "B": "Black"}[p["side"]],
                                       p["throw"], p["move"] or "no move")) in recent, recent
        for selector in ("#moves-recent", "#take-back", "#sound", "#throw"):
            assert page.is_visible(selector) and inside(page, selector), selector
        for selector in ("#download", "#load", "#analyse", "#moves"):
            assert not page.is_visible(selector), selector
        assert fits(page)
    finally:
        context.close()


@pytest.mark.parametrize("width,height", SCREENS)
def test_a_kiosk_replay_steps_with_its_own_buttons_and_fits(browser, served, tmp_path,
                                                            width, height):
    whole = play_game(ruleset("kendall"), 20)
    plies = plies_of(whole)
    game, url = served(replay=replay_data(record(whole)))
    context = browser.new_context(viewport={"width": width, "height": height})
    try:
        page = context.new_page()
        page.goto(url + "?view=kiosk&lang=hu")
        page.wait_for_selector("#replay-bar:not([hidden])", timeout=WAIT_MS)
        for selector in ("#replay-forward", "#replay-back", "#replay-exit"):
            assert page.is_visible(selector) and inside(page, selector), selector
        page.click("#replay-forward")
        page.click("#replay-forward")
        page.wait_for_function("() => document.getElementById('replay-slider').value === '2'",
                               timeout=WAIT_MS)
        said = page.inner_text("#instruction")
        assert said.startswith({"W": "Fehér", "B": "Fekete"}[plies[1].side]), said
        assert not page.is_visible("#moves-recent")
        assert fits(page)
        page.keyboard.press("End")
        page.wait_for_function("n => document.getElementById('replay-slider').value === String(n)",
                               arg=len(plies), timeout=WAIT_MS)
        assert fits(page)
    finally:
        context.close()
