"""The hint on the page: two short presses while a throw waits light the best
move on the drawn board, as on the wooden one (firmware/app.py, the `hint`
event), and the page's help for the throw button names the gesture."""

import json

import pytest

from engine.ai import choose_move
from engine.game import Game
from engine.position import Position
from engine.rules import ruleset
from firmware.store import Store
from host_tools.sim.board import Sim

from chromium import browser, page  # noqa: F401  (a module's own browser, a tab a test)
from served import serve, stop

CAPTURE = "B.W........W.B................ W"     # White to move with a 2 pending
WAIT_MS = 20000


@pytest.fixture
def served(tmp_path):
    """A simulator on a manual clock, resuming White to move a 2 in CAPTURE."""
    game = Game(ruleset("kendall"), position=Position.parse(CAPTURE))
    game.set_throw(2)
    Store(str(tmp_path)).save(game)
    sim = Sim(store_dir=str(tmp_path), seed=3)
    server, thread = serve(sim)
    yield sim, server.url
    stop(server, thread)


def post(page, base, action, **body):
    reply = page.request.post(base + "api/" + action, data=json.dumps(body),
                              headers={"Content-Type": "application/json"})
    assert reply.ok, reply.text()
    return reply.json()


def test_two_short_presses_light_the_best_move_on_the_page(served, page):
    sim, base = served
    best = choose_move(ruleset("kendall"), Position.parse(CAPTURE), 2, 4)
    page.goto(base + "?lang=en")
    post(page, base, "tick", ms=1000)
    post(page, base, "press", ms=80)
    post(page, base, "press", ms=80)
    post(page, base, "tick", ms=600)
    page.wait_for_function(
        "([a, b]) => document.querySelector(`.sq[data-square=\"${a}\"]`).dataset.role"
        " === 'computer_from' && document.querySelector(`.sq[data-square=\"${b}\"]`)"
        ".dataset.role === 'computer_to'", arg=[best.origin, best.final], timeout=WAIT_MS)
    hints = [e["data"] for e in sim.log if e["kind"] == "app"
             and e["data"].get("event") == "hint"]
    assert hints and hints[-1]["move"] == best.text


@pytest.mark.parametrize("lang,words", [("en", "Two quick clicks"), ("hu", "kétszer"), ("ru", "Два быстрых щелчка")])
def test_the_throw_buttons_help_names_the_hint_gesture(served, page, lang, words):
    sim, base = served
    page.goto(base + "?lang=" + lang)
    page.wait_for_function("() => document.documentElement.lang === %r" % lang,
                           timeout=WAIT_MS)
    assert words in page.inner_text("#throw-help")
