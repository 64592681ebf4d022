"""The page explains the board in words, in three languages, and as a kiosk.

- The language files: every key in every language, no extra key, the same
  placeholders, and every key host_tools/words/explain.py can pick.
- explain() on its own, for the sentences a browser game reaches slowly.
- A museum board's lone-visitor opponent (firmware/museum.py), run by the
  simulator and read by the mirror: the offer, the side the board plays and
  how to take it back, a side handed back, no room for the opponent; the
  legend shows every role of the firmware's light table, in every language.
- A game driven through the simulator (manual clock, so every step is exact),
  watched in Debian's headless Chromium: each sentence class appears at its
  moment (opening, start, turn, mistake, missing, capture, water, no move,
  computer, a museum board's offer, winner with its score); the capture instruction and the winner
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
from firmware.app import App
from firmware.store import Store
from host_tools.words import explain as ex
from host_tools.sim.board import Sim
from host_tools.sim.server import SimServer

from board_sim import throws
from chromium import CHROMIUM, browser  # noqa: F401  (a module's own browser)
import paths

ROOT = paths.ROOT
I18N = os.path.join(ROOT, "host_tools", "words", "i18n")
KIOSK_PNG = os.path.join(ROOT, "docs", "kiosk.png")
LANGS = ("en", "hu", "ru")
WAIT_MS = 60000         # only catches a hang: every wait is for a condition


def load(lang):
    with open(os.path.join(I18N, lang + ".json"), encoding="utf-8") as f:
        return json.load(f)


def sentences(lang):
    """The language file's sentences: key -> text."""
    return load(lang)["text"]


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


# -- the museum's lone-visitor opponent, in words -------------------------------------------
#
# A museum board (firmware/museum.py) run by the simulator with a manual clock and
# scripted throws; the page's words come from the App's own events, as on the page.

MUSEUM = {"mode": "museum", "museum": {"attract_s": 90, "reset_s": 600, "reset_after_game_s": 180}}


def museum_sim(*values, timings=None):
    """A museum board whose sticks throw ``values`` in turn (tests/board_sim.py)."""
    rng = throws(*values)
    config = dict(MUSEUM, museum=dict(MUSEUM["museum"], **(timings or {})))
    return Sim(config=config, app_factory=lambda **kw: App(**dict(kw, rng=rng)))


def black_waits(sim):
    """Past the how-to and the opening, white plays 10-11 (a 1, again) and
    11-13 (a 2); black's throw is due and nobody touches the board."""
    sim.advance(1000)                 # the setup check: the how-to begins
    sim.press()                       # ends the how-to, throws nothing
    sim.advance(400)
    for _ in range(2):                # the opening: 2, then 1 (K4): white starts
        sim.press()
        sim.advance(400)
    hand(sim, ("lift", 10), ("place", 11))
    sim.press()                       # white's 1 throws again (K5): a 2
    sim.advance(400)
    hand(sim, ("lift", 11), ("place", 13))
    assert (sim.app.state, sim.app.turn) == ("throw", "B")
    return sim


def told(sim):
    return sim.snapshot()["explain"]


def museum_events(sim, what):
    return [e["data"] for e in sim.log if e["kind"] == "app"
            and e["data"].get("event") == "museum" and e["data"].get("what") == what]


def test_the_museum_offer_the_boards_side_and_the_hand_back_are_told():
    sim = black_waits(museum_sim(2, 1, 2, 1))
    assert told(sim)["instruction"] == [["do.throw.B", {}]]
    sim.advance(15100)                        # black's throw waited untouched: the offer
    assert museum_events(sim, "offer") == [{"event": "museum", "what": "offer", "side": "B"}]
    words = told(sim)
    assert words["kind"] == "offer"
    assert words["instruction"] == [["do.offer.B", {}]]
    assert words["status"] == [["status.turn.B", {}]]
    sim.advance(10000)                        # nobody came: the board plays black
    assert museum_events(sim, "computer")
    words = told(sim)
    assert words["kind"] == "computer" and words["instruction"] == [["do.board_throws.B", {}]]
    assert ["status.board_plays.B", {}] in words["status"]
    sim.advance(2000)                         # it throws a 1 and shows its move
    chosen = [e["data"] for e in sim.log if e["data"].get("event") == "computer"][-1]
    origin, to = (int(n) for n in chosen["move"].split("-"))
    assert told(sim)["instruction"] == [["do.board", {"from": origin, "to": to}]]
    sim.press()                               # a visitor takes black back, throw and all
    sim.advance(400)
    assert museum_events(sim, "hand_back") == [{"event": "museum", "what": "hand_back",
                                                "side": "B"}]
    words = told(sim)
    assert words["kind"] == "turn"            # black's own move, not the computer's
    assert words["instruction"] == [["do.move.B", {"value": 1, "squares": [1, 3, 5, 7, 9]}]]
    assert words["status"] == [["status.threw.B", {"value": 1}], ["status.yours_again.B", {}]]
    hand(sim, ("lift", 9), ("place", 10))     # the news lasts until black has moved
    words = told(sim)                         # black's 1 throws again (K5): a person's throw
    assert sim.app.turn == "B" and words["status"] == [["status.turn.B", {}]]
    assert words["instruction"] == [["do.throw.B", {}]]


def test_a_side_handed_back_before_the_boards_throw_is_the_visitors_to_throw():
    sim = black_waits(museum_sim(2, 1, 2, 4))
    sim.advance(25100)
    assert told(sim)["instruction"] == [["do.board_throws.B", {}]]
    sim.press()                               # before its throw: nothing is thrown
    sim.advance(400)
    assert museum_events(sim, "hand_back") and sim.app.state == "throw"
    words = told(sim)
    assert words["kind"] == "turn" and words["instruction"] == [["do.throw.B", {}]]
    assert words["status"] == [["status.turn.B", {}], ["status.yours_again.B", {}]]


def test_a_press_during_the_offer_declines_it_and_the_words_are_the_games_again():
    sim = black_waits(museum_sim(2, 1, 2, 3))
    sim.advance(15100)
    assert told(sim)["kind"] == "offer"
    sim.press()                               # a second visitor throws for black
    sim.advance(400)
    assert museum_events(sim, "offer_withdrawn")
    words = told(sim)
    assert words["kind"] == "turn" and words["status"] == [["status.threw.B", {"value": 3}]]
    assert words["instruction"][0][0] == "do.move.B"


def test_a_takeback_keeps_the_boards_side_in_the_words():
    sim = black_waits(museum_sim(2, 1, 2, 1))
    sim.advance(27100)                        # the board plays black and shows its move
    sim.press(2500)                           # a long press takes white's 11-13 back
    sim.advance(3000)
    hand(sim, ("lift", 13), ("place", 11))    # the pieces as before it: "ready" again
    assert sim.app.computer is not None and (sim.app.state, sim.app.turn) == ("move", "W")
    assert told(sim)["status"] == [["status.threw.W", {"value": 2}], ["status.board_plays.B", {}]]


def test_a_reset_ends_the_boards_side_in_the_words():
    sim = black_waits(museum_sim(2, 1, 2, 2, timings={"reset_s": 60}))
    sim.advance(25100)
    assert ["status.board_plays.B", {}] in told(sim)["status"]
    sim.advance(61000)                        # its move shown, never carried out: reset
    assert museum_events(sim, "reset")
    assert told(sim)["kind"] == "setup"
    # the next game's black is a person's: no computer, no news
    words = ex.explain(board("throw", turn="B", throw=None), sim.story)
    assert words["instruction"] == [["do.throw.B", {}]] and words["status"] == [
        ["status.turn.B", {}]]


def test_no_room_for_the_boards_opponent_is_told(monkeypatch):
    import sys
    sim = black_waits(museum_sim(2, 1, 2, 3))
    # as a start-up with no room for the search leaves a Pico's board
    monkeypatch.delitem(sys.modules, "engine.ai")
    sim.advance(15100)
    assert museum_events(sim, "no_computer")
    words = told(sim)
    assert words["instruction"] == [["do.throw.B", {}]]
    assert words["status"] == [["status.turn.B", {}], ["status.no_computer", {}]]


def test_the_mirror_of_a_museum_board_lights_and_tells_the_offer():
    """The same events read from the serial line, as `senet-board show` does:
    the offer on black's side light, drawn by the firmware's own lights."""
    from host_tools.board.show import Mirror
    sim = black_waits(museum_sim(2, 1, 2, 1))
    mirror = Mirror("/dev/null")
    fed = [0]

    def feed():
        for entry in sim.log:
            if entry["kind"] == "app" and entry["seq"] > fed[0]:
                mirror.line(json.dumps(entry["data"]).encode())
        fed[0] = sim.seq
        mirror.line(json.dumps(sim.app.command({"cmd": "state"})[0]).encode())

    black = mirror.leds["side_black"]
    feed()
    assert mirror.led_roles[black] == "turn"
    sim.advance(15100)
    feed()
    assert mirror.led_roles[black] == "offer"
    assert mirror.snapshot()["explain"]["instruction"] == [["do.offer.B", {}]]
    sim.advance(12000)                        # the board plays black and shows its move
    feed()
    assert mirror.led_roles[black] == "turn"
    assert mirror.snapshot()["explain"]["kind"] == "computer"
    sim.press()
    sim.advance(400)
    feed()
    words = mirror.snapshot()["explain"]
    assert words["kind"] == "turn" and ["status.yours_again.B", {}] in words["status"]


def test_the_legend_shows_every_light_of_the_firmwares_table_in_every_language():
    from firmware.lights import STYLES
    from host_tools.sim.server import legend
    roles = [r["role"] for r in legend()]
    assert roles == [role for role in STYLES if role]
    offer = [r for r in legend() if r["role"] == "offer"][0]
    assert (tuple(offer["rgb"]), offer["pattern"], offer["level"]) == STYLES["offer"]
    for lang in LANGS:
        text = load(lang)["text"]
        assert [r for r in roles if "role." + r not in text] == [], lang


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
def test_every_sentence_at_its_moment(browser, served, tmp_path):
    sim = served.use(Sim(store_dir=str(tmp_path / "game"), seed=12))
    context, page, errors = open_page(browser, served.server.url)
    try:
        # The opening (K4): the black light throws first; seed 12 throws a 1 at once.
        words(page, "Opening: the first to throw a 1 starts",
              "Player at the black light: press the button to throw", "opening")
        sim.press()
        sim.advance(400)
        words(page, "White starts, with the first 1 · Player at the black light: you threw it, "
              "so you play white", None, "start")
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
        words(page, None, "The computer moves 25 to 27: move its piece for it", "computer")

        # A museum board offers to play the side nobody throws for, and the
        # legend says what its light means.
        sim = switch(served, page, black_waits(museum_sim(2, 1, 2, 1)))
        sim.advance(15100)
        words(page, "Black’s turn", "Nobody playing black? If nobody throws, the board will "
              "play black. Press the button to play black yourself.", "offer")
        in_all_languages(page, {
            "hu": (None, "Senki sem játszik feketével? Ha senki sem dob, a tábla játszik "
                         "feketével. Ha te akarsz feketével játszani, nyomd meg a gombot."),
            "ru": (None, "За чёрных никто не играет? Если никто не бросит палочки, за чёрных "
                         "сыграет доска. Чтобы играть за них самим, нажмите кнопку."),
        })
        page.wait_for_function("""() => document.querySelector('#legend li[data-role="offer"]')
            .textContent === 'nobody throws for this side: the board offers to play it'""",
                               timeout=WAIT_MS)

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
                                       timeout=WAIT_MS)
                if os.environ.get("UPDATE_SIM_SCREENSHOT"):
                    shutil.copyfile(str(shot), KIOSK_PNG)
        finally:
            context.close()
        assert not errors, errors


def test_every_message_the_page_says_comes_from_the_language_file():
    """The message line speaks the page's language: each say() in sim.js is
    given a sentence from the language file (t(...)), a server's own error
    or nothing, never an English literal."""
    with open(os.path.join(ROOT, "host_tools", "sim", "web", "sim.js"), encoding="utf-8") as f:
        script = f.read()
    calls = re.findall(r"\bsay\((.*?)\);", script)
    assert len(calls) >= 8, calls
    literal = [c for c in calls if re.match(r"\s*[\"'`]", c) and c.strip() not in ('""', "''")]
    assert literal == [], "English literals said on the page: %s" % literal


def test_each_language_file_says_each_sentence_once():
    """A key written twice in a language file is read as its last value: the
    first copy is a sentence nobody sees, and edits to it change nothing."""
    for lang in ("en", "hu", "ru"):
        twice = []

        def keys(pairs):
            seen = set()
            for key, _ in pairs:
                if key in seen:
                    twice.append(key)
                seen.add(key)
            return dict(pairs)
        with open(os.path.join(I18N, lang + ".json"), encoding="utf-8") as f:
            json.load(f, object_pairs_hook=keys)
        assert twice == [], "%s.json says %s twice" % (lang, twice)
