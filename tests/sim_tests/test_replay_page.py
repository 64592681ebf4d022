"""A game replayed on the page: loaded from a file (a record, or a board's
game.json with its game.log), or the board's finished game, stepped forward
and back with the buttons, the arrow keys, the slider and a click on a ply;
the board drawing shows each moment's position and the words say what
happened, in the page's language. The App's own game is never touched.
`senet-board replay FILE` opens the page with the game; a malformed file is
refused in one line. Real headless Chromium (tests/chromium.py).
"""

import json
import os
import re
import signal
import subprocess
import sys
import threading

import pytest

from engine.game import Game, play_game
from engine.record import plies_of, record
from engine.rules import ruleset
from firmware.store import Store
from host_tools.sim.board import Sim

import paths
from served import serve, stop
from chromium import browser, page  # noqa: F401  (a module's own browser, a tab a test)
from sigint import as_from_a_terminal

WAIT_MS = 60000         # only catches a hang: every wait is for a condition
HANG_S = 60
SETTLE = 1000
I18N = os.path.join(paths.ROOT, "host_tools", "words", "i18n")

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def words(lang):
    with open(os.path.join(I18N, lang + ".json"), encoding="utf-8") as f:
        return json.load(f)["text"]


def first_plies(seed, length, after_each=None):
    """The first ``length`` plies of seed ``seed``'s kendall game;
    ``after_each(game, n)`` is called after ply n."""
    whole = play_game(ruleset("kendall"), seed)
    game = Game(ruleset("kendall"))
    game.opening = list(whole.opening)
    for n, (side, throw, text) in enumerate(list(whole.turns())[:length], 1):
        game.set_throw(throw)
        if text is None:
            game.pass_turn()
        else:
            game.play(text)
        if after_each is not None:
            after_each(game, n)
    return game


@pytest.fixture
def served(tmp_path):
    """A simulator at the start of a game, on a manual clock."""
    (tmp_path / "live").mkdir()
    sim = Sim(store_dir=str(tmp_path / "live"), seed=12)
    sim.advance(SETTLE)
    server, thread = serve(sim, clock=None)
    yield sim, server.url
    stop(server, thread)


def board_text(page):
    """The 30 squares as the page draws them: B, W or '.'."""
    return "".join(page.eval_on_selector_all(
        ".sq", "els => els.sort((a, b) => a.dataset.square - b.dataset.square)"
        ".map(e => e.dataset.side || '.')"))


def at_ply(page, n):
    """A replay shows, at ply ``n``."""
    page.wait_for_function("n => !document.getElementById('replay-bar').hidden && "
                           "document.getElementById('replay-slider').value === String(n)",
                           arg=n, timeout=WAIT_MS)


def shows(page, position):
    page.wait_for_function(
        "p => [...document.querySelectorAll('.sq')].sort((a, b) => a.dataset.square - "
        "b.dataset.square).map(e => e.dataset.side || '.').join('') === p",
        arg=position[:30], timeout=WAIT_MS)


def load(page, tmp_path, files):
    paths_ = []
    for name, text in files:
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        paths_.append(str(path))
    page.set_input_files("#load", paths_)


# -- a record loaded on the page ------------------------------------------------------------


def test_a_loaded_record_steps_forward_and_back_with_its_words(page, served, tmp_path):
    sim, url = served
    game = first_plies(20, 47)               # a capture, the water, happiness, a lost turn
    plies = plies_of(game)
    live = sim.app.position
    page.goto(url + "?lang=en")
    page.wait_for_selector("#moves-card")
    load(page, tmp_path, [("game.txt", record(game, {"date": "2026-12-01"}))])
    at_ply(page, 0)
    page.wait_for_function("n => document.querySelectorAll('#moves li').length === n",
                           arg=len(plies), timeout=WAIT_MS)
    shows(page, game.start.text())
    assert page.inner_text("#instruction").startswith("The start of the game")
    en = words("en")
    page.click("#replay-forward")
    at_ply(page, 1)
    shows(page, plies[0].after)
    page.keyboard.press("ArrowRight")
    at_ply(page, 2)
    shows(page, plies[1].after)
    page.keyboard.press("ArrowLeft")
    at_ply(page, 1)
    shows(page, plies[0].after)
    # a click on a ply: the capture, then the water, each with its sentence
    capture = next(p for p in plies if "capture" in p.marks)
    page.click('#moves li[data-ply="%d"]' % capture.number)
    at_ply(page, capture.number)
    shows(page, capture.after)
    origin, to = capture.move.split("-")
    said = en["replay.capture." + capture.side].format(value=capture.throw, to=to, **{"from": origin})
    assert page.inner_text("#instruction").startswith(said), page.inner_text("#instruction")
    water = next(p for p in plies if "water" in p.marks)
    page.click('#moves li[data-ply="%d"]' % water.number)
    at_ply(page, water.number)
    shows(page, water.after)
    said = en["replay.water." + water.side].format(
        value=water.throw, square=water.final, **{"from": water.move.split("-")[0]})
    assert page.inner_text("#instruction").startswith(said)
    assert page.inner_text("#status") == "Replay: ply %d of %d" % (water.number, len(plies))
    page.keyboard.press("End")
    at_ply(page, len(plies))
    shows(page, plies[-1].after)
    page.keyboard.press("Home")
    at_ply(page, 0)
    # the slider goes anywhere
    page.eval_on_selector("#replay-slider", "(el, n) => { el.value = n; "
                          "el.dispatchEvent(new Event('input')); }", 10)
    shows(page, plies[9].after)
    # the App's game is untouched, and a hand on the board waits meanwhile
    with sim.lock:
        assert sim.app.position == live and sim.app.game.ply_count == 0
    page.click("#replay-exit")
    page.wait_for_function("() => document.getElementById('replay-bar').hidden", timeout=WAIT_MS)
    shows(page, live)


def test_a_replayed_moment_is_said_in_hungarian_and_russian(page, served, tmp_path):
    sim, url = served
    game = first_plies(20, 47)
    capture = next(p for p in plies_of(game) if "capture" in p.marks)
    for lang, word in (("hu", "ütött"), ("ru", "взяли фишку")):
        page.goto(url + "?lang=" + lang)
        page.wait_for_selector("#moves-card")
        load(page, tmp_path, [("game.txt", record(game))])
        at_ply(page, 0)
        page.click('#moves li[data-ply="%d"]' % capture.number)
        at_ply(page, capture.number)
        said = page.inner_text("#instruction")
        assert word in said, said
        assert "{" not in said and "replay." not in said, said


def test_a_boards_game_json_and_game_log_load_together(page, served, tmp_path):
    sim, url = served
    folder = tmp_path / "board"
    folder.mkdir()
    store = Store(str(folder))

    def save(game, n):                       # game.json up to ply 20, the plies since in game.log
        if n >= 20:
            store.save(game, n == 20)

    game = first_plies(7, 30, save)
    names = sorted(os.listdir(str(folder)))
    assert names == ["game.json", "game.log"], names
    page.goto(url)
    page.wait_for_selector("#moves-card")
    load(page, tmp_path, [(n, (folder / n).read_text(encoding="utf-8")) for n in names])
    page.wait_for_function("n => document.querySelectorAll('#moves li').length === n",
                           arg=30, timeout=WAIT_MS)
    page.keyboard.press("End")
    at_ply(page, 30)
    shows(page, game.position.text())


def test_a_malformed_file_is_one_line_and_changes_nothing(page, served, tmp_path):
    sim, url = served
    page.goto(url)
    page.wait_for_selector("#moves-card")
    text = record(first_plies(20, 10)).replace(" 10-", " 11-", 1)
    load(page, tmp_path, [("bad.txt", text)])
    page.wait_for_function("() => document.getElementById('message').textContent.length > 0",
                           timeout=WAIT_MS)
    message = page.inner_text("#message")
    assert message.startswith("This file cannot be replayed: ") and "\n" not in message
    assert "line" in message
    assert page.eval_on_selector("#replay-bar", "el => el.hidden") is True


def test_the_finished_game_on_the_board_replays_to_its_winner(page, tmp_path):
    whole = play_game(ruleset("kendall"), 7)
    folder = tmp_path / "over"
    folder.mkdir()
    Store(str(folder)).save(whole, True)
    sim = Sim(store_dir=str(folder), seed=1)
    sim.advance(SETTLE)
    assert sim.app.state == "game_over"
    server, thread = serve(sim, clock=None)
    try:
        page.goto(server.url + "?lang=en")
        page.wait_for_selector("#replay-game:not([disabled])", timeout=WAIT_MS)
        page.click("#replay-game")
        at_ply(page, 0)
        page.keyboard.press("End")
        at_ply(page, whole.ply_count)
        assert ("%s won the game" % {"W": "White", "B": "Black"}[whole.winner]) in \
            page.inner_text("#instruction")
    finally:
        stop(server, thread)


# -- senet-board replay FILE ---------------------------------------------------------------------


def replay_command(*args):
    return [sys.executable, "-m", "host_tools.cli", "replay", "--no-browser", "--port", "0"] + \
        list(args)


def test_replay_refuses_a_malformed_file_in_one_line(tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_text("senet-game 2\nruleset kendall\n\n1. W 9 10-19\n", encoding="utf-8")
    done = subprocess.run(replay_command(str(bad)), capture_output=True, text=True,
                          cwd=paths.ROOT, timeout=HANG_S)
    assert done.returncode == 2
    assert done.stderr.startswith("senet-board replay: ") and done.stderr.count("\n") == 1, \
        done.stderr
    missing = subprocess.run(replay_command(str(tmp_path / "none.txt")), capture_output=True,
                             text=True, cwd=paths.ROOT, timeout=HANG_S)
    assert missing.returncode == 2 and missing.stderr.count("\n") == 1, missing.stderr


def test_replay_serves_the_page_with_the_game(page, tmp_path):
    game = first_plies(20, 47)
    path = tmp_path / "kept.txt"
    path.write_text(record(game), encoding="utf-8")
    proc = subprocess.Popen(replay_command(str(path), "--lang", "ru"), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, cwd=paths.ROOT,
                            preexec_fn=as_from_a_terminal)
    hung = threading.Timer(2 * HANG_S, proc.kill)
    hung.start()
    try:
        line = proc.stdout.readline()
        url = re.search(r"http://127\.0\.0\.1:\d+/\S*", line)
        assert url, line + proc.stderr.read()
        page.goto(url.group(0))
        at_ply(page, 0)
        assert page.eval_on_selector_all("#moves li", "els => els.length") == game.ply_count
        page.keyboard.press("End")
        shows(page, game.position.text())
        assert "Просмотр" in page.inner_text("#status")
        proc.send_signal(signal.SIGINT)
        proc.communicate(timeout=HANG_S)
    finally:
        hung.cancel()
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == 0


def test_a_replay_and_its_analysis_change_language_with_the_page(page, served, tmp_path):
    sim, url = served
    game = first_plies(20, 47)
    page.goto(url + "?lang=en")
    page.wait_for_selector("#moves-card")
    load(page, tmp_path, [("game.txt", record(game))])
    at_ply(page, 0)
    page.click("#analyse")
    page.wait_for_selector("#chart svg", timeout=WAIT_MS)
    assert "White" in page.inner_text('#moves li[data-ply="1"]')
    page.select_option("#lang", "ru")
    page.wait_for_function(
        "() => document.querySelector('#moves li[data-ply=\"1\"]').textContent.includes('Белые')",
        timeout=WAIT_MS)
    assert "лучший" in page.inner_text('#moves li[data-ply="1"]')
    assert "взятие" in page.inner_text("#moves-legend")
    page.wait_for_function(
        "() => document.getElementById('analysis-about').textContent.includes('Анализ')",
        timeout=WAIT_MS)
