"""The moves on the page: the list, the takeback button and the sounds.

A game resumed from a saved game (seed 20's first 46 plies, which hold a
capture, the water, the House of Happiness and a lost turn) stands on the
simulator; the page lists it one ply a line, numbered by turn, and the
takeback button takes the last move back through the App's own command.
`show` lists a real board's moves from its events. Real headless Chromium
(tests/chromium.py); the clock is the test's own (a manual clock).
"""

import json
import re
import threading

import pytest

from engine.game import Game, play_game
from engine.record import plies_of
from engine.rules import ruleset
from firmware.store import Store
from host_tools.board.show import Mirror
from host_tools.sim.board import Sim
from host_tools.sim.server import SimServer

from chromium import browser, page  # noqa: F401  (a module's own browser, a tab a test)

WAIT_MS = 60000         # only catches a hang: every wait is for a condition
SETTLE = 1000

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def plies(game):
    return [ply.as_dict() for ply in plies_of(game)]


def seeded_prefix(seed=20, length=47):
    """The first ``length`` plies of seed ``seed``'s kendall game, replayed
    into a fresh Game (its last ply a move, so there is one to take back)."""
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
def saved(tmp_path):
    game = seeded_prefix()
    folder = tmp_path / "store"
    folder.mkdir()
    Store(str(folder)).save(game, True)
    return game, str(folder)


def serve(sim, read_only=False):
    server = SimServer(sim, "127.0.0.1", 0, clock=None, read_only=read_only)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05},
                              daemon=True)
    thread.start()
    return server, thread


@pytest.fixture
def running():
    started = []

    def start(sim, read_only=False):
        server, thread = serve(sim, read_only)
        started.append((server, thread))
        return server.url

    yield start
    for server, thread in started:
        server.shutdown()
        server.stop()
        server.server_close()
        thread.join(5)


def lines(page):
    return page.eval_on_selector_all("#moves li", "els => els.map(e => e.textContent)")


def wait_lines(page, count):
    page.wait_for_function("n => document.querySelectorAll('#moves li').length === n",
                           arg=count, timeout=WAIT_MS)


# -- the list -----------------------------------------------------------------------------


def test_the_scenario_holds_a_capture_the_water_happiness_and_a_lost_turn():
    marks = [m for p in plies(seeded_prefix()) for m in p["marks"]]
    for mark in ("capture", "water", "happiness", "pass"):
        assert mark in marks, mark


def test_the_page_lists_the_game_one_ply_a_line_with_its_marks(browser, page, saved, running):
    game, store = saved
    sim = Sim(store_dir=store, seed=3)
    sim.advance(SETTLE)
    assert sim.app.state == "throw"
    page.goto(running(sim) + "?lang=en")
    wait_lines(page, game.ply_count)
    expected = plies(game)
    shown = lines(page)
    marks = page.eval_on_selector_all("#moves li", "els => els.map(e => e.dataset.marks)")
    for p, text, mark in zip(expected, shown, marks):
        assert text.startswith("%d. %s %d: " % (p["turn"], {"B": "Black", "W": "White"}[p["side"]],
                                                 p["throw"])), text
        assert (p["move"] or "no move") in text, text
        assert mark == " ".join(p["marks"])
    water = next(p for p in expected if "water" in p["marks"])
    assert "\u2248" in shown[water["number"] - 1]
    capture = next(p for p in expected if "capture" in p["marks"])
    assert "\u00d7" in shown[capture["number"] - 1]
    assert "capture" in page.inner_text("#moves-legend")
    # a turn that throws again keeps its number; the other side's turn is the next
    numbers = [p["turn"] for p in expected]
    assert numbers == sorted(numbers) and len(set(numbers)) < len(numbers)


def test_the_list_is_in_the_pages_language(browser, page, saved, running):
    game, store = saved
    sim = Sim(store_dir=store, seed=3)
    sim.advance(SETTLE)
    page.goto(running(sim) + "?lang=hu")
    wait_lines(page, game.ply_count)
    shown = lines(page)
    assert all(" Fekete " in s or " Fehér " in s for s in shown), shown[:3]
    assert any("nincs lépés" in s for s in shown)
    assert "ütés" in page.inner_text("#moves-legend")


def test_the_takeback_button_takes_the_last_move_back_and_its_line_goes(
        browser, page, saved, running):
    game, store = saved
    sim = Sim(store_dir=store, seed=3)
    sim.advance(SETTLE)
    last = plies(game)[-1]
    page.goto(running(sim))
    wait_lines(page, game.ply_count)
    page.wait_for_function("() => !document.getElementById('take-back').disabled",
                           timeout=WAIT_MS)
    page.click("#take-back")
    wait_lines(page, game.ply_count - 1)
    with sim.lock:
        assert sim.app.position == last["before"]
        assert sim.app.game.ply_count == game.ply_count - 1
    undo = [e for e in sim.log if e["kind"] == "app" and e["data"]["event"] == "undo"]
    assert undo and undo[-1]["data"]["move"] == last["move"]
    assert sim.app.state == "takeback"               # the board shows how to restore it


def test_the_takeback_button_is_disabled_while_the_board_is_set_up(browser, page, tmp_path,
                                                                    running):
    sim = Sim(store_dir=str(tmp_path), seed=12)
    assert sim.snapshot()["take_back"] is False
    page.goto(running(sim))
    page.wait_for_selector("#take-back[disabled]", state="attached", timeout=WAIT_MS)


def test_a_power_cut_lists_the_resumed_game_and_a_new_game_empties_the_list(saved):
    game, store = saved
    sim = Sim(store_dir=store, seed=3)
    sim.advance(SETTLE)
    before = sim.snapshot()["moves"]
    sim.power_cut()
    sim.advance(SETTLE)
    assert sim.snapshot()["moves"] == before
    assert len(before["plies"]) == game.ply_count
    sim.new_game("hungarian")
    after = sim.snapshot()["moves"]
    assert after["plies"] == [] and after["ruleset"] == "hungarian"


# -- show: the list of a real board, from its events -------------------------------------------


def mirror_of(sim):
    mirror = Mirror("/dev/null")
    for entry in sim.log:
        if entry["kind"] == "app":
            mirror.line(json.dumps(entry["data"]).encode())
    return mirror


def hand(sim, *steps):
    for what, square in steps:
        getattr(sim, what)(square)
        sim.advance(400)


def test_show_lists_the_boards_moves_and_a_takeback_removes_its_line(tmp_path):
    sim = Sim(store_dir=str(tmp_path), seed=12)      # white opens with a 1, then a 1 again
    sim.advance(SETTLE)
    for _ in range(20):
        sim.press()
        sim.advance(400)
        if sim.app.state == "move":
            break
    hand(sim, ("lift", 10), ("place", 11))
    sim.press()                                      # 10-11 throws again: a 1
    sim.advance(400)
    assert (sim.app.state, sim.app.throw) == ("move", 1)
    hand(sim, ("lift", 11), ("place", 12))
    mirror = mirror_of(sim)
    listed = mirror.snapshot()["moves"]
    assert [(p["side"], p["move"]) for p in listed["plies"]] == [("W", "10-11"), ("W", "11-12")]
    assert listed == sim.snapshot()["moves"]
    assert mirror.snapshot()["take_back"] is False
    sim.command({"cmd": "undo"})
    mirror = mirror_of(sim)
    assert [p["move"] for p in mirror.snapshot()["moves"]["plies"]] == ["10-11"]
    hand(sim, ("lift", 12), ("place", 11))           # the pieces back: the same throw again
    assert (sim.app.state, sim.app.throw) == ("move", 1)
    hand(sim, ("lift", 11), ("place", 12))
    mirror = mirror_of(sim)
    assert [p["move"] for p in mirror.snapshot()["moves"]["plies"]] == ["10-11", "11-12"]
    assert mirror.snapshot()["moves"] == sim.snapshot()["moves"]


def test_the_mirror_has_no_takeback_button(browser, page, tmp_path, running):
    sim = Sim(store_dir=str(tmp_path), seed=12)
    page.goto(running(sim, read_only=True))
    page.wait_for_function("() => document.body.classList.contains('mirror')", timeout=WAIT_MS)
    page.wait_for_selector("#take-back", state="detached", timeout=WAIT_MS)


# -- sounds ----------------------------------------------------------------------------------

# Every oscillator the page starts, counted by wrapping the browser's own AudioContext.
COUNT_OSCILLATORS = """
window.__oscillators = 0;
const RealContext = window.AudioContext;
window.AudioContext = class extends RealContext {
  createOscillator() { window.__oscillators += 1; return super.createOscillator(); }
};
"""


def throws_seen(page, count):
    page.wait_for_function(
        "n => [...document.querySelectorAll('#log li')]"
        ".filter(li => li.textContent.includes('\"event\":\"throw\"')).length >= n",
        arg=count, timeout=WAIT_MS)


def test_sounds_are_off_until_switched_on_then_a_throw_sounds_and_the_switch_is_kept(
        browser, tmp_path, running):
    sim = Sim(store_dir=str(tmp_path), seed=12)
    sim.advance(SETTLE)
    url = running(sim)
    context = browser.new_context(viewport={"width": 1400, "height": 950})
    try:
        page = context.new_page()
        page.add_init_script(COUNT_OSCILLATORS)
        page.goto(url)
        page.wait_for_function("() => document.getElementById('state').textContent !== '–'",
                               timeout=WAIT_MS)
        assert page.is_checked("#sound") is False
        sim.press()
        sim.advance(400)
        throws_seen(page, 1)
        assert page.evaluate("window.__oscillators") == 0     # off by default: silence
        page.click("#sound")
        assert page.evaluate("localStorage.getItem('senet.sound')") == "on"
        switched = page.evaluate("window.__oscillators")
        hand(sim, ("lift", 10), ("place", 11))          # white's 1 throws again
        sim.press()
        sim.advance(400)
        throws_seen(page, 2)
        page.wait_for_function("n => window.__oscillators > n", arg=switched, timeout=WAIT_MS)
        page.reload()
        page.wait_for_function("() => document.getElementById('state').textContent !== '–'",
                               timeout=WAIT_MS)
        assert page.is_checked("#sound") is True               # remembered
    finally:
        context.close()


# -- the record to keep --------------------------------------------------------------------------


def test_the_download_is_the_games_record_named_with_the_date(browser, page, saved, running,
                                                             tmp_path):
    from engine.record import read
    game, store = saved
    sim = Sim(store_dir=store, seed=3)
    sim.advance(SETTLE)
    page.goto(running(sim))
    wait_lines(page, game.ply_count)
    with page.expect_download(timeout=WAIT_MS) as caught:
        page.click("#download")
    download = caught.value
    assert re.fullmatch(r"senet-\d{4}-\d\d-\d\d-\d{4}\.txt", download.suggested_filename)
    path = tmp_path / download.suggested_filename
    download.save_as(str(path))
    back = read(path.read_text(encoding="utf-8"))
    assert [(p.side, p.throw, p.move, p.before, p.after) for p in back.plies] == [
        (p["side"], p["throw"], p["move"], p["before"], p["after"]) for p in plies(game)]
    assert back.headers["date"][:4].isdigit()
    assert back.game.position == game.position


def test_show_downloads_the_boards_record_and_answers_a_load(tmp_path):
    import http.client
    from engine.record import read
    sim = Sim(store_dir=str(tmp_path), seed=12)
    sim.advance(SETTLE)
    for _ in range(20):
        sim.press()
        sim.advance(400)
        if sim.app.state == "move":
            break
    hand(sim, ("lift", 10), ("place", 11))
    mirror = mirror_of(sim)
    server = SimServer(mirror, "127.0.0.1", 0, read_only=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        conn = http.client.HTTPConnection(*server.server_address[:2], timeout=60)
        conn.request("GET", "/api/record")
        reply = conn.getresponse()
        text = reply.read().decode("utf-8")
        assert reply.status == 200, text
        assert [(p.side, p.move) for p in read(text).plies] == [("W", "10-11")]
        assert "attachment" in reply.getheader("Content-Disposition")
        body = json.dumps({"files": [{"name": "g.txt", "text": text}]})
        conn.request("POST", "/api/load", body=body, headers={"Content-Type": "application/json"})
        reply = conn.getresponse()
        loaded = json.loads(reply.read())
        assert reply.status == 200 and loaded["result"]["plies"][0]["move"] == "10-11"
        conn.request("POST", "/api/press", body="{}", headers={"Content-Type": "application/json"})
        reply = conn.getresponse()
        reply.read()
        assert reply.status == 403                  # the mirror still only shows
        conn.close()
    finally:
        server.shutdown()
        server.stop()
        server.server_close()
        thread.join(5)


def test_show_started_mid_game_lists_the_moves_from_there_in_the_boards_ruleset(tmp_path):
    sim = Sim(store_dir=str(tmp_path), ruleset="hungarian", seed=12)
    sim.advance(SETTLE)
    for _ in range(20):
        sim.press()
        sim.advance(400)
        if sim.app.state == "move":
            break
    mirror = Mirror("/dev/null")                    # plugged in now: it saw nothing before
    mirror.line(json.dumps(sim.app.command({"cmd": "state"})[0]).encode())
    seen = sim.seq
    move = [m for m in sim.app.game.legal_moves() if not m.capture and m.final == m.to][0]
    origin, to = move.origin, move.to
    hand(sim, ("lift", origin), ("place", to))
    for entry in sim.log:
        if entry["kind"] == "app" and entry["seq"] > seen:
            mirror.line(json.dumps(entry["data"]).encode())
    listed = mirror.snapshot()["moves"]
    assert listed["ruleset"].startswith("hungarian")
    assert [p["move"] for p in listed["plies"]] == [move.text]
