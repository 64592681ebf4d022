"""The page explains the board in words, in three languages, and as a kiosk.

- The language files: every key in every language, no extra key, the same
  placeholders, and every key host_tools/explain.py can pick.
- explain() on its own, for the sentences a browser game reaches slowly.
- A game driven through the simulator (manual clock, so every step is exact),
  watched in Debian's headless Chromium: each sentence class appears at its
  moment (opening, start, turn, mistake, missing, capture, water, no move,
  computer, winner with its score); the capture instruction and the winner
  are read in English, Hungarian and Russian, chosen with the page's selector.
- The kiosk view at 1920x1080 and 1080x1920: board and instruction inside the
  screen, no scrollbar, the instruction at least 28 px, no developer panels,
  the pointer hidden when still. UPDATE_SIM_SCREENSHOT=1 rewrites
  docs/kiosk.png.
"""

import json
import os
import re
import shutil
import threading

import pytest

from engine.game import Game
from engine.position import Position
from engine.rules import ruleset
from firmware.store import Store
from host_tools import explain as ex
from host_tools.simboard import Sim
from host_tools.simserver import SimServer

from test_sim_browser import CHROMIUM, browser  # noqa: F401  (a module's own browser)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
I18N = os.path.join(ROOT, "host_tools", "web", "i18n")
KIOSK_PNG = os.path.join(ROOT, "docs", "kiosk.png")
LANGS = ("en", "hu", "ru")
WAIT_MS = 8000


def load(lang):
    with open(os.path.join(I18N, lang + ".json"), encoding="utf-8") as f:
        return json.load(f)


def placeholders(template):
    variants = template.values() if isinstance(template, dict) else [template]
    found = set()
    for text in variants:
        found |= set(re.findall(r"\{(\w+)\}", text))
    return found


# -- the language files ----------------------------------------------------------------


def test_every_language_has_every_key_and_the_same_placeholders():
    english = load("en")["text"]
    for lang in LANGS[1:]:
        other = load(lang)["text"]
        assert sorted(set(english) - set(other)) == [], "%s lacks keys" % lang
        assert sorted(set(other) - set(english)) == [], "%s has keys English lacks" % lang
        for key, template in english.items():
            assert placeholders(other[key]) == placeholders(template), (lang, key)
            if isinstance(other[key], dict):
                assert "other" in other[key] and "one" in other[key], (lang, key)
                for text in other[key].values():   # every variant says the whole sentence
                    assert placeholders(text) == placeholders(template), (lang, key, text)
            else:
                assert isinstance(other[key], str) and other[key].strip(), (lang, key)


def test_square_forms_are_thirty_or_none():
    for lang in LANGS:
        forms = load(lang)["squares"]
        assert forms is None or (len(forms) == 30 and all(
            str(n) in form for n, form in enumerate(forms, 1))), lang


def test_every_key_explain_can_pick_is_translated():
    with open(ex.__file__, encoding="utf-8") as f:
        source = f.read()
    keys = set()
    for key in re.findall(r'"((?:status|do)\.[a-z_.]+)"', source):
        if key.endswith("."):                       # a side is added: ".B" or ".W"
            keys |= {key + "B", key + "W"}
        else:
            keys.add(key)
    assert len(keys) > 25
    for lang in LANGS:
        missing = sorted(keys - set(load(lang)["text"]))
        assert missing == [], (lang, missing)


# -- explain() on its own ---------------------------------------------------------------


def board(state, roles=None, **kw):
    r = [""] * 30
    for square, role in (roles or {}).items():
        r[square - 1] = role
    return dict({"state": state, "turn": "W", "throw": 2, "roles": r}, **kw)


def test_explain_reads_the_lights_of_a_move():
    story = ex.Story()
    water = ex.explain(board("move", {27: "take", 15: "put"}), story)
    assert water["kind"] == "water" and water["instruction"] == [["do.water", {"from": 27, "to": 15}]]
    happy = ex.explain(board("move", {26: "take", 29: "put"}), story)
    assert happy["kind"] == "happiness"
    capture = ex.explain(board("move", {8: "put"}), story)
    assert capture["instruction"] == [["do.capture", {"square": 8}]]
    lifted = ex.explain(board("move", {10: "lifted", 11: "target", 14: "target"}), story)
    assert lifted["instruction"] == [["do.target", {"choices": [11, 14]}]]
    leaving = ex.explain(board("move", {30: "lifted"}), story)
    assert leaving["instruction"] == [["do.off", {"square": 30}]]
    wrong = ex.explain(board("mismatch", {9: "error", 3: "missing"}), story)
    assert wrong["kind"] == "mistake"
    assert wrong["instruction"] == [["do.error", {"squares": [9]}], ["do.missing", {"squares": [3]}]]
    story.event({"event": "computer", "side": "W", "move": "28-off", "throw": 3, "level": 1})
    off = ex.explain(board("move", {28: "computer_from"}), story)
    assert off["kind"] == "computer" and off["instruction"] == [["do.computer_off", {"from": 28}]]


def test_the_story_follows_the_opening_players():
    story = ex.Story()
    assert ex.explain(board("opening", turn="W", throw=None), story)["instruction"] == [
        ["do.opening.B", {}]]
    # a piece knocked off during the opening: still the opening, not white's turn
    knocked = ex.explain(board("mismatch", {3: "missing"}, throw=None), story)
    assert knocked["status"] == [["status.opening", {}]] and knocked["kind"] == "missing"
    story.event({"event": "throw", "side": None, "player": 1, "value": 3, "opening": True})
    assert ex.explain(board("opening", turn="W", throw=None), story)["instruction"] == [
        ["do.opening.W", {}]]
    story.event({"event": "throw", "side": None, "player": 2, "value": 1, "opening": True})
    story.event({"event": "start", "side": "W", "player": 2})
    words = ex.explain(board("move", {10: "movable"}, throw=1), story)
    assert words["kind"] == "start" and words["status"][0] == ["status.start.W", {"player": 2}]
    story.event({"event": "move", "side": "W", "move": "10-11", "after": "x", "again": True})
    assert ex.explain(board("throw", throw=None), story)["kind"] == "turn"
    knocked = ex.explain(board("mismatch", {3: "missing"}, throw=None), story)
    assert knocked["status"] == [["status.turn.W", {}]]
    assert ex.sticks_live("throw", None) is False and ex.sticks_live("move", 2) is True


# -- a game in the browser -----------------------------------------------------------------



class Served:
    """One manual-clock server for the module; ``use(sim)`` swaps the board."""

    def __init__(self):
        self.server = SimServer(Sim(seed=12), "127.0.0.1", 0)
        self.thread = threading.Thread(target=self.server.serve_forever,
                                       kwargs={"poll_interval": 0.05}, daemon=True)
        self.thread.start()

    def use(self, sim):
        old = self.server.sim
        self.server.sim = sim
        old.close()
        sim.advance(1000)                       # the setup check: the board matches
        return sim

    def stop(self):
        self.server.shutdown()
        self.server.stop()
        self.server.server_close()
        self.thread.join(5)


@pytest.fixture(scope="module")
def served():
    s = Served()
    yield s
    s.stop()


def resumed(tmp_path, name, rules, position, throw, config=None):
    """A simulator whose saved game stands at ``position`` with ``throw`` pending."""
    folder = tmp_path / name
    folder.mkdir()
    game = Game(ruleset(rules), position=Position.parse(position))
    game.set_throw(throw)
    Store(str(folder)).save(game)
    return Sim(config=dict(config or {}, ruleset=rules), store_dir=str(folder), seed=3)


def hand(sim, *steps):
    """Lift and place as a hand does; the App sees every step and the rest after."""
    for what, square in steps:
        if what == "lift":
            sim.lift(square)
        else:
            sim.place(square)
        sim.advance(150)
    sim.advance(600)


def words(page, status=None, instruction=None, kind=None):
    try:
        page.wait_for_function(
            """([s, i, k]) => {
                const st = document.getElementById('status').textContent;
                const ins = document.getElementById('instruction').textContent;
                const kd = document.getElementById('words').dataset.kind;
                return (s === null || st.includes(s)) && (i === null || ins === i)
                    && (k === null || kd === k);
            }""", arg=[status, instruction, kind], timeout=WAIT_MS)
    except Exception:
        raise AssertionError("wanted %r / %r / %r; the page says %r / %r (%s)" % (
            status, instruction, kind, page.inner_text("#status"), page.inner_text("#instruction"),
            page.eval_on_selector("#words", "el => el.dataset.kind")))


def open_page(browser, url, lang="en", **viewport):
    context = browser.new_context(viewport=viewport or {"width": 1400, "height": 950})
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(url + ("&" if "?" in url else "?") + "lang=" + lang)
    page.wait_for_function("() => document.getElementById('instruction').textContent.trim()",
                           timeout=WAIT_MS)
    return context, page, errors


def switch(served, page, sim):
    """A new board behind the server; the page loads it afresh (a new App's
    versions start again from the beginning)."""
    served.use(sim)
    page.reload()
    page.wait_for_function("() => document.getElementById('instruction').textContent.trim()",
                           timeout=WAIT_MS)
    return sim


def in_all_languages(page, expected):
    for lang, (status, instruction) in expected.items():
        page.select_option("#lang", lang)
        words(page, status, instruction)
    page.select_option("#lang", "en")


@pytest.mark.browser
@pytest.mark.slow
@pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="Debian's chromium is not installed")
def test_every_sentence_at_its_moment(browser, served, tmp_path):
    sim = served.use(Sim(store_dir=str(tmp_path / "game"), seed=12))
    context, page, errors = open_page(browser, served.server.url)
    try:
        # The opening (K4): the black light throws first; seed 12 throws a 1 at once.
        words(page, "Opening: the first to throw a 1 starts",
              "Player at the black light: press the button to throw", "opening")
        sim.press()
        sim.advance(400)
        words(page, "White threw the first 1 and starts", None, "start")
        assert page.inner_text("#instruction") == "White: move one of the blue pieces (2, 4, 6, 8 and 10) by 1"
        hand(sim, ("lift", 10), ("place", 11))
        words(page, "White’s turn", "White: press the button to throw", "turn")
        assert page.eval_on_selector("#sticks", "el => el.classList.contains('dim')")
        assert page.inner_text("#sticks-label") == "Last throw"

        # A piece knocked off, then put on a wrong square.
        hand(sim, ("lift", 1))
        words(page, None, "Square 1 is missing its piece", "missing")
        hand(sim, ("place", 12))
        words(page, None, "A piece stands on 12 where none may be: take it away · "
              "Square 1 is missing its piece", "mistake")
        hand(sim, ("lift", 12), ("place", 1))
        words(page, None, "White: press the button to throw", "turn")

        # A capture swap (C6): white 8 onto black 9, black's piece goes back to 8.
        sim.press()
        sim.advance(400)
        words(page, "White threw 1", None)
        assert not page.eval_on_selector("#sticks", "el => el.classList.contains('dim')")
        mover = sim.piece_at(8).id
        sim.lift(8)
        sim.advance(150)
        sim.lift(9)
        sim.advance(150)
        sim.place(9, mover)
        sim.advance(600)
        words(page, None, "Put the captured piece on square 8", "capture")
        in_all_languages(page, {
            "en": (None, "Put the captured piece on square 8"),
            "hu": (None, "Tedd a kiszorított bábut a 8-as mezőre"),
            "ru": (None, "Поставьте выбитую фишку на клетку 8"),
        })
        hand(sim, ("place", 8))
        with sim.lock:
            assert sim.app.position.startswith("BWBWBWBBW.W")

        # The House of Water (K12): 25 -> 27, and on to 15 by hand.
        sim = switch(served, page, resumed(tmp_path, "water", "kendall",
                                 "B.B.B" + "." * 19 + "W" + "." * 5 + " W", 2))
        words(page, "White threw 2", None, "turn")
        hand(sim, ("lift", 25), ("place", 27))
        words(page, None, "The House of Water: take the piece off 27 and put it on 15", "water")

        # No move (K13, K15): white's pieces on 28..30 cannot move with a 4.
        sim = switch(served, page, resumed(tmp_path, "nomove", "kendall",
                                 "B" + "." * 26 + "WWW W", 4))
        words(page, "White threw 4", "No move with this throw: the turn passes", "nomove")

        # The computer plays white and lights its only move; a person carries it out.
        sim = switch(served, page, resumed(tmp_path, "computer", "kendall",
                                 "B.B.B" + "." * 19 + "W" + "." * 5 + " W", 2,
                                 {"mode": "computer", "computer": {"side": "W", "level": 1}}))
        sim.advance(2500)
        words(page, None, "The computer moves 25 to 27: move it for it", "computer")

        # The end, with the Hungarian score (H15): black on 12 (3) and 22 (1).
        sim = switch(served, page, resumed(tmp_path, "winner", "hungarian",
                                 "." * 11 + "B" + "." * 9 + "B" + "." * 6 + "W. W", 2))
        hand(sim, ("lift", 29), ("place", "off"))
        words(page, "White wins · with 4 points", "Hold the button for 2 seconds for a new game",
              "winner")
        in_all_languages(page, {
            "en": ("White wins · with 4 points", None),
            "hu": ("Fehér nyert · 4 ponttal", None),
            "ru": ("Белые победили · 4 очка", None),
        })
    finally:
        context.close()
    assert not errors, errors


@pytest.mark.browser
@pytest.mark.slow
@pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="Debian's chromium is not installed")
def test_the_kiosk_fills_a_screen_without_scrolling(browser, served, tmp_path):
    sim = served.use(resumed(tmp_path, "kiosk", "kendall",
                             "BWBWBWB...W.B........W........ W", 2))
    hand(sim, ("lift", 11))
    for width, height, lang in ((1920, 1080, "en"), (1080, 1920, "hu")):
        context, page, errors = open_page(browser, served.server.url + "?view=kiosk", lang,
                                          width=width, height=height)
        try:
            words(page, None, None, "lifted")
            for hidden in (".panel", ".top", ".tray", "#log", "#serial"):
                assert not page.is_visible(hidden), hidden
            assert page.is_visible("#throw")          # the simulator still plays
            for selector in ("#board", "#instruction", "#status", "#sticks"):
                box = page.locator(selector).bounding_box()
                assert box["x"] >= 0 and box["y"] >= 0, selector
                assert box["x"] + box["width"] <= width, selector
                assert box["y"] + box["height"] <= height, selector
            size = page.evaluate("""() => [document.documentElement.scrollWidth,
                document.documentElement.scrollHeight, window.innerWidth, window.innerHeight]""")
            assert size[0] <= size[2] and size[1] <= size[3], "the kiosk page scrolls: %r" % size
            font = page.eval_on_selector("#instruction", "el => parseFloat(getComputedStyle(el).fontSize)")
            assert font >= 28, font
            shot = tmp_path / ("kiosk-%dx%d.png" % (width, height))
            page.screenshot(path=str(shot))
            assert shot.stat().st_size > 10000
            if width == 1920:
                page.mouse.move(300, 300)
                assert not page.evaluate("() => document.body.classList.contains('pointer-hidden')")
                page.wait_for_function("() => document.body.classList.contains('pointer-hidden')",
                                       timeout=6000)
                if os.environ.get("UPDATE_SIM_SCREENSHOT"):
                    shutil.copyfile(str(shot), KIOSK_PNG)
        finally:
            context.close()
        assert not errors, errors
