"""The analysis on the page: run on the laptop (host_tools/analysis, through
the server), shown as each ply's best move and chance in the move list, the
mistakes marked, and a chart of White's chance across the game with its
band, drawn by the page as SVG; a click on the chart goes to that ply.
Real headless Chromium (tests/chromium.py), a manual clock.
"""

import http.client
import json
import threading

import pytest

from engine.game import play_game
from engine.record import record
from engine.rules import ruleset
from firmware.store import Store
from host_tools.analysis import analyse
from host_tools.sim.board import Sim
from host_tools.sim.server import SimServer

from chromium import browser, page  # noqa: F401  (a module's own browser, a tab a test)

WAIT_MS = 60000         # only catches a hang: every wait is for a condition
SETTLE = 1000

pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.fixture
def served(tmp_path):
    """A simulator resuming seed 7's whole kendall game (two mistakes in it)."""
    game = play_game(ruleset("kendall"), 7)
    folder = tmp_path / "store"
    folder.mkdir()
    Store(str(folder)).save(game, True)
    sim = Sim(store_dir=str(folder), seed=1)
    sim.advance(SETTLE)
    server = SimServer(sim, "127.0.0.1", 0, clock=None)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05},
                              daemon=True)
    thread.start()
    yield game, sim, server
    server.shutdown()
    server.stop()
    server.server_close()
    thread.join(5)


def chart_points(page):
    """The chance line's points as the chart draws them, read back to chances."""
    return page.evaluate("""() => {
      const svg = document.querySelector('#chart svg');
      const [, , w, h] = svg.getAttribute('viewBox').split(' ').map(Number);
      const pts = svg.querySelector('polyline.chance').getAttribute('points').trim().split(/\\s+/)
        .map(p => p.split(',').map(Number));
      return {w, h, pts};
    }""")


def analysed(page):
    page.click("#analyse")
    page.wait_for_selector("#chart svg polyline.chance", timeout=WAIT_MS)


def test_the_chart_draws_the_analysis_and_the_list_marks_its_mistakes(page, served):
    game, sim, server = served
    expected = analyse(record(game))
    assert expected["mistakes"], "seed 7 should hold a mistake to mark"
    page.goto(server.url + "?lang=en")
    page.wait_for_function("n => document.querySelectorAll('#moves li').length === n",
                           arg=game.ply_count, timeout=WAIT_MS)
    analysed(page)
    drawn = chart_points(page)
    pad = 6
    chances = [1 - (y - pad) / (drawn["h"] - 2 * pad) for _, y in drawn["pts"]]
    assert len(chances) == len(expected["chances"])
    for got, want in zip(chances, expected["chances"]):
        assert abs(got - want) < 0.005, (got, want)
    xs = [x for x, _ in drawn["pts"]]
    assert xs == sorted(xs) and xs[0] < xs[-1]
    assert page.locator("#chart polygon.band").count() == 1
    assert page.locator("#chart circle.mistake").count() == len(expected["mistakes"])
    marked = page.eval_on_selector_all("#moves li.mistake", "els => els.map(e => Number(e.dataset.ply))")
    assert marked == expected["mistakes"]
    for p in expected["plies"][:20]:
        note = page.inner_text('#moves li[data-ply="%d"] .rating' % p["ply"])
        if p["best"] is not None:
            assert "best: %s, %d %%" % (p["best"], round(100 * p["chance"])) in note, note
    about = page.inner_text("#analysis-about")
    assert "90 %" in about and "estimate" in about and "calibrated" in about


def test_a_click_on_the_chart_goes_to_that_ply(page, served):
    game, sim, server = served
    page.goto(server.url)
    page.wait_for_function("n => document.querySelectorAll('#moves li').length === n",
                           arg=game.ply_count, timeout=WAIT_MS)
    analysed(page)
    page.locator("#chart svg").scroll_into_view_if_needed()
    box = page.locator("#chart svg").bounding_box()
    wanted = game.ply_count // 2
    x = box["x"] + box["width"] * (6 + (600 - 12) * wanted / game.ply_count) / 600
    page.mouse.click(x, box["y"] + box["height"] / 2)
    page.wait_for_function(
        "n => !document.getElementById('replay-bar').hidden && "
        "Math.abs(Number(document.getElementById('replay-slider').value) - n) <= 1",
        arg=wanted, timeout=WAIT_MS)
    with sim.lock:
        assert sim.app.game.ply_count == game.ply_count          # the board's game stands


def test_a_loaded_record_is_analysed_and_a_bad_one_refused_in_one_line(page, served, tmp_path):
    game, sim, server = served
    other = play_game(ruleset("hungarian"), 5)
    path = tmp_path / "other.txt"
    path.write_text(record(other), encoding="utf-8")
    page.goto(server.url)
    page.wait_for_selector("#moves-card")
    page.set_input_files("#load", [str(path)])
    page.wait_for_function("n => document.querySelectorAll('#moves li').length === n",
                           arg=other.ply_count, timeout=WAIT_MS)
    analysed(page)
    drawn = chart_points(page)
    assert len(drawn["pts"]) == len(analyse(record(other))["chances"])
    conn = http.client.HTTPConnection(server.server_address[0], server.server_address[1],
                                      timeout=60)
    conn.request("POST", "/api/analyse", body=json.dumps({"record": "senet-game 2\nnonsense\n"}),
                 headers={"Content-Type": "application/json"})
    reply = conn.getresponse()
    error = json.loads(reply.read())["error"]
    conn.close()
    assert reply.status == 400 and "\n" not in error and error
