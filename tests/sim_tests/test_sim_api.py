"""The simulator's HTTP API, driving the real firmware App.

The server runs on a free loopback port in a thread. Most tests use a manual
clock (``POST /api/tick``), so every scan the App sees is scripted and the
sticks come from a seed; one test runs the real-time clock.
"""

import http.client
import json
import threading
import time

import pytest

from engine import ruleset
from engine.game import Game
from engine.position import Position
from firmware.store import Store
from host_tools.sim.board import Sim
from host_tools.sim.clock import Clock
from host_tools.sim.server import SimServer
from sigint import as_from_a_terminal
import paths

SETTLE = 400            # more than the App's settle time (250 ms by default)
HANG_S = 60             # real seconds: only a hung server takes this long
# Kendall, white to move: the white piece on 9 can take the lone black piece on 12
# with a throw of 3 (a capture swap: black goes back to 9).
CAPTURE_POSITION = "BWBWBWB.W..B.................. W"


class Client:
    def __init__(self, server):
        self.host, self.port = server.server_address[:2]

    def request(self, method, path, body=None, raw=None):
        conn = http.client.HTTPConnection(self.host, self.port, timeout=HANG_S)
        try:
            data = raw if raw is not None else (None if body is None else json.dumps(body))
            headers = {"Content-Type": "application/json"} if data is not None else {}
            conn.request(method, path, body=data, headers=headers)
            reply = conn.getresponse()
            text = reply.read().decode()
            ctype = reply.getheader("Content-Type", "")
            return reply.status, (json.loads(text) if "json" in ctype else text)
        finally:
            conn.close()

    def post(self, action, **body):
        status, reply = self.request("POST", "/api/" + action, body)
        assert status == 200, reply
        return reply

    def state(self):
        status, reply = self.request("GET", "/api/state")
        assert status == 200
        return reply

    def tick(self, ms):
        return self.post("tick", ms=ms)["result"]["events"]


def _serve(sim, clock=None):
    server = SimServer(sim, "127.0.0.1", 0, clock=clock)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05},
                              daemon=True)
    thread.start()
    return server, thread


@pytest.fixture
def make_sim(tmp_path):
    """make_sim(**kw) -> (sim, client) with a manual clock; shut down afterwards."""
    running = []

    def make(**kw):
        kw.setdefault("store_dir", str(tmp_path / "store"))
        kw.setdefault("seed", 12)
        (tmp_path / "store").mkdir(exist_ok=True)
        sim = Sim(**kw)
        server, thread = _serve(sim)
        running.append((server, thread))
        return sim, Client(server)

    yield make
    for server, thread in running:
        server.shutdown()
        server.stop()
        server.server_close()
        thread.join(5)


def _saved_game(folder, position, throw):
    """A saved game standing at ``position`` with ``throw`` pending: the App
    resumes it on boot, so a test can start from any position."""
    folder.mkdir(exist_ok=True)
    game = Game(ruleset("kendall"), position=Position.parse(position))
    game.set_throw(throw)
    Store(str(folder)).save(game)
    return str(folder)


def _events(state, name):
    return [e["data"] for e in state["log"] if e["kind"] == "app" and e["data"]["event"] == name]


def _unchanged_view(state):
    return (state["version"], state["seq"], state["pieces"], state["hand"], state["chatter"],
            state["boots"], state["app"])


def _throw_until_start(client):
    for _ in range(20):
        client.post("press")
        events = client.tick(300)
        if any(e["event"] == "start" for e in events):
            return events
    raise AssertionError("the opening never produced a start")


# -- the page and the state ----------------------------------------------------------


def test_page_and_files_are_served(make_sim):
    sim, client = make_sim()
    for path, kind in (("/", "<!doctype html>"), ("/sim.js", "EventSource"),
                       ("/sim.css", ".board")):
        status, text = client.request("GET", path)
        assert status == 200 and kind in text
    status, reply = client.request("GET", "/../pyproject.toml")
    assert status == 404
    status, reply = client.request("GET", "/api/../simboard.py")
    assert status == 404


def test_state_shows_the_apps_frame_roles_and_the_pieces(make_sim):
    sim, client = make_sim()
    state = client.state()
    assert len(state["frame"]) == state["leds"]["count"] == 36
    assert len(state["roles"]) == 30
    assert state["frame"] == [list(c) for c in sim.app.frame]
    assert state["app"]["position"] == "BWBWBWBWBW.................... W"
    assert state["app"]["ruleset"] == "kendall"
    board = ["."] * 30
    for piece in state["pieces"]:
        board[piece["square"] - 1] = piece["side"]
    assert "".join(board) + " W" == state["app"]["position"]


def test_a_set_up_board_is_ready_once_it_settles(make_sim):
    sim, client = make_sim()
    events = client.tick(SETTLE)
    assert [e["event"] for e in events] == ["ready"]
    assert client.state()["app"]["state"] == "opening"


# -- hands and the button -> the App's events ------------------------------------------


def test_a_press_throws_the_opening_sticks(make_sim):
    sim, client = make_sim()
    client.tick(SETTLE)
    events = _throw_until_start(client)
    throws = [e for e in events if e["event"] == "throw"]
    assert throws and throws[-1]["value"] == 1 and len(throws[-1]["sticks"]) == 4
    state = client.state()
    assert state["app"]["state"] == "move" and state["app"]["throw"] == 1
    assert "movable" in state["roles"]


def test_lifting_a_piece_lights_its_destination_and_placing_it_moves(make_sim):
    sim, client = make_sim()
    client.tick(SETTLE)
    _throw_until_start(client)                      # seed 12: white starts with a 1
    reply = client.post("lift", square=10)
    assert reply["state"]["occupancy"] & (1 << 9) == 0
    client.tick(100)
    state = client.state()
    assert state["roles"][10] == "target"           # square 11 lights for 10-11
    assert state["frame"][10] == list(sim.app.frame[10]) != [0, 0, 0]
    client.post("place", square=11)
    events = client.tick(SETTLE)
    moves = [e for e in events if e["event"] == "move"]
    assert moves == [{"event": "move", "side": "W", "move": "10-11",
                      "after": "BWBWBWBWB.W................... W", "again": True}]
    state = client.state()
    assert _events(state, "move")[-1]["move"] == "10-11"
    assert state["app"]["position"] == moves[0]["after"]


def test_a_capture_swap_is_recognised_from_two_lifts(make_sim, tmp_path):
    store = _saved_game(tmp_path / "capture", CAPTURE_POSITION, 3)
    sim, client = make_sim(store_dir=store)
    client.tick(SETTLE)
    assert client.state()["app"]["state"] == "move"
    # Requests as fast as a script can send them: the board still shows the
    # App each hand movement for a few scans.
    white = client.post("lift", square=9)["result"]["piece"]
    black = client.post("lift", square=12)["result"]["piece"]
    client.post("place", square=12, piece=white)
    client.post("place", square=9)                  # the piece lifted last: black
    events = client.tick(SETTLE + 300)
    assert [e for e in events if e["event"] == "move"] == [
        {"event": "move", "side": "W", "move": "9-12",
         "after": "BWBWBWB.B..W.................. B", "again": False}]
    state = client.state()
    sides = {p["square"]: p["side"] for p in state["pieces"] if p["square"]}
    assert sides[9] == "B" and sides[12] == "W"
    assert black in [p["id"] for p in state["pieces"] if p["square"] == 9]


def test_a_quick_click_on_the_button_is_still_a_press(make_sim):
    sim, client = make_sim()
    client.tick(SETTLE)
    client.post("button", down=True)
    client.post("button", down=False)               # released at once
    events = client.tick(300)
    assert [e["event"] for e in events][:1] == ["throw"]


def test_taking_a_piece_off_puts_it_in_its_tray(make_sim):
    sim, client = make_sim()
    piece = client.post("lift", square=1)["result"]["piece"]
    state = client.post("place", square="off", piece=piece)["state"]
    tray = [p for p in state["pieces"] if p["id"] == piece][0]
    assert tray["square"] is None and not tray["held"] and state["hand"] == []


# -- faults ------------------------------------------------------------------------------


def test_a_knocked_piece_is_shown_and_the_game_waits_until_it_is_back(make_sim):
    sim, client = make_sim()
    client.tick(SETTLE)
    _throw_until_start(client)
    client.tick(SETTLE)
    # Black's piece on square 1 is in no move of white's throw of 1.
    state = client.post("knock", square=1)["state"]
    knocked = [p for p in state["pieces"] if p["knocked"]]
    assert len(knocked) == 1 and knocked[0]["side"] == "B"
    events = client.tick(SETTLE)
    assert {"event": "mismatch", "extra": [], "missing": [1]} in events
    assert client.state()["roles"][0] == "missing"
    client.post("place", square=1, piece=knocked[0]["id"])
    events = client.tick(SETTLE)
    assert {"event": "resolved"} in events


def test_switch_chatter_flickers_the_scan_but_the_app_debounces_it(make_sim):
    sim, client = make_sim()
    client.tick(SETTLE)
    client.post("chatter", on=True, ms=3000)
    flickered = 0
    for _ in range(30):
        client.tick(100)
        state = client.state()
        flickered += state["raw"] != state["occupancy"]
        assert not _events(state, "mismatch") and not _events(state, "setup")
    assert flickered > 10
    assert client.state()["chatter"] is False       # over after 3 s by itself
    client.post("chatter", on=True)
    assert client.state()["chatter"] is True
    client.post("chatter", on=False)
    assert client.state()["chatter"] is False


def test_a_power_cut_resumes_the_saved_game(make_sim):
    sim, client = make_sim()
    client.tick(SETTLE)
    _throw_until_start(client)
    client.post("lift", square=10)
    client.post("place", square=11)
    client.tick(SETTLE)
    before = client.state()["app"]["position"]
    state = client.post("power_cut")["state"]
    assert state["boots"] == 2
    events = client.tick(SETTLE)
    ready = [e for e in events if e["event"] == "ready"]
    assert ready and ready[0]["resumed"] is True and ready[0]["position"] == before
    assert client.state()["app"]["state"] == "throw"     # 10-11 earned another throw


# -- commands ------------------------------------------------------------------------------


def test_new_game_with_another_ruleset(make_sim):
    sim, client = make_sim()
    client.tick(SETTLE)
    reply = client.post("new", ruleset="hungarian")
    assert reply["result"]["events"][0]["event"] == "new"
    assert reply["state"]["app"]["ruleset"] == "hungarian"
    client.post("arrange")
    events = client.tick(SETTLE)
    assert [e["event"] for e in events] == ["ready"]


def test_new_game_against_the_computer(make_sim):
    sim, client = make_sim()
    reply = client.post("new", ruleset="kendall", mode="computer", side="B", level=1)
    assert reply["state"]["app"]["mode"] == "computer"
    assert reply["state"]["app"]["computer"] == {"side": "B", "level": 1}
    client.tick(SETTLE)
    assert client.state()["app"]["state"] == "opening"


def test_serial_lines_go_through_the_firmwares_protocol(make_sim):
    sim, client = make_sim()
    events = client.post("command", line='{"cmd": "state"}')["result"]["events"]
    assert events[0]["event"] == "state" and events[0]["ruleset"] == "kendall"
    events = client.post("command", line="{not json")["result"]["events"]
    assert events[0]["event"] == "error"
    events = client.post("command", command={"cmd": "state"})["result"]["events"]
    assert events[0]["event"] == "state"


# -- bad input: 400, a message, and nothing changed --------------------------------------------

BAD = [
    ("lift", {"square": 15}, "empty"),
    ("lift", {"square": 0}, "square"),
    ("lift", {"square": "3"}, "square"),
    ("lift", {"square": True}, "square"),
    ("lift", {}, "square"),
    ("lift", {"square": 1, "colour": "B"}, "unknown field"),
    ("place", {"square": 12}, "no piece in hand"),
    ("place", {"square": 2, "piece": 0}, "lift it first"),
    ("place", {"square": 31, "piece": 0}, "square"),
    ("place", {"square": "tray"}, "square"),
    ("place", {"square": 12, "piece": 99}, "no piece 99"),
    ("knock", {"square": 20}, "empty"),
    ("button", {"down": "yes"}, "true or false"),
    ("press", {"ms": -5}, "ms"),
    ("chatter", {"on": 1}, "true or false"),
    ("chatter", {"on": True, "ms": 0}, "ms"),
    ("new", {"ruleset": "chess"}, "unknown ruleset"),
    ("new", {"ruleset": 3}, "ruleset"),
    ("new", {"ruleset": "kendall", "mode": "robot"}, "mode must be"),
    ("new", {"ruleset": "kendall", "mode": "computer", "side": "X"}, "side"),
    ("command", {"command": "state"}, "JSON object"),
    ("command", {}, "exactly one"),
    ("command", {"line": "a\nb"}, "one line"),
    ("arrange", {"position": "BWBW"}, "position"),
    ("arrange", {"position": "BBBBBBBB...................... W"}, "pieces"),
    ("power_cut", {"now": True}, "unknown field"),
    ("tick", {"ms": 0}, "ms"),
]


@pytest.mark.parametrize("action,body,words", BAD, ids=[b[0] + "-" + str(i) for i, b in enumerate(BAD)])
def test_bad_input_gets_a_400_and_changes_nothing(make_sim, action, body, words):
    sim, client = make_sim()
    before = _unchanged_view(client.state())
    status, reply = client.request("POST", "/api/" + action, body)
    assert status == 400, reply
    assert words.lower() in reply["error"].lower()
    assert _unchanged_view(client.state()) == before


@pytest.mark.parametrize("raw,words", [
    ("{not json", "JSON object"),
    ("[1, 2]", "JSON object"),
    ('"lift"', "JSON object"),
    ('{"square": 1, "since": "x"}', "since"),
])
def test_a_body_that_is_not_a_json_object_gets_a_400(make_sim, raw, words):
    sim, client = make_sim()
    before = _unchanged_view(client.state())
    status, reply = client.request("POST", "/api/lift", raw=raw)
    assert status == 400 and words in reply["error"]
    assert _unchanged_view(client.state()) == before


def test_unknown_actions_and_pages_are_404(make_sim):
    sim, client = make_sim()
    status, reply = client.request("POST", "/api/teleport", {})
    assert status == 404 and "lift" in reply["error"]
    status, reply = client.request("GET", "/api/nothing")
    assert status == 404
    status, reply = client.request("GET", "/api/state?since=-1")
    assert status == 400


# -- the live stream and the real-time clock ----------------------------------------------------


def test_the_stream_pushes_the_state(make_sim):
    sim, client = make_sim()
    conn = http.client.HTTPConnection(client.host, client.port, timeout=HANG_S)
    conn.request("GET", "/api/stream")
    reply = conn.getresponse()
    assert reply.getheader("Content-Type") == "text/event-stream"
    line = reply.fp.readline().decode()
    assert line.startswith("data: ")
    state = json.loads(line[len("data: "):])
    assert len(state["frame"]) == 36
    client.post("lift", square=1)                  # a change is pushed at once
    reply.fp.readline()
    line = reply.fp.readline().decode()
    assert json.loads(line[len("data: "):])["hand"] == [0]
    conn.close()


def test_the_real_time_clock_steps_the_app(tmp_path):
    sim = Sim(store_dir=str(tmp_path), seed=12)
    clock = Clock(sim)
    server, thread = _serve(sim, clock)
    clock.start()
    try:
        client = Client(server)
        deadline = time.monotonic() + HANG_S
        while not _events(client.state(), "ready"):
            assert time.monotonic() < deadline, "the App never became ready"
            time.sleep(0.05)
        status, reply = client.request("POST", "/api/tick", {"ms": 10})
        assert status == 400 and "real time" in reply["error"]
        client.post("press")
        while not _events(client.state(), "throw"):
            assert time.monotonic() < deadline, "the press never made a throw"
            time.sleep(0.05)
    finally:
        server.shutdown()
        server.stop()
        server.server_close()
        thread.join(HANG_S)
    clock._thread.join(HANG_S)
    assert not clock._thread.is_alive()


def test_the_command_serves_on_loopback_and_stops_cleanly_on_ctrl_c(tmp_path):
    import os
    import signal
    import subprocess
    import sys
    proc = subprocess.Popen(
        [sys.executable, "-m", "host_tools.cli", "sim", "--no-browser", "--port", "0",
         "--seed", "3", "--store", str(tmp_path)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        cwd=paths.ROOT,
        preexec_fn=as_from_a_terminal)
    hung = threading.Timer(2 * HANG_S, proc.kill)      # a start that hangs reads ""
    hung.start()
    try:
        line = proc.stdout.readline()
        assert "http://127.0.0.1:" in line, line + proc.stderr.read()
        port = int(line.split("http://127.0.0.1:")[1].split("/")[0])
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=HANG_S)
        conn.request("GET", "/api/state")
        assert json.loads(conn.getresponse().read())["app"]["ruleset"] == "kendall"
        conn.close()
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=HANG_S)
    finally:
        hung.cancel()
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == 0, err
    assert "stopping" in out and "Traceback" not in err


def test_sim_command_line_options():
    import argparse
    from host_tools.sim import command as sim
    parser = argparse.ArgumentParser()
    sim.add_arguments(parser)
    args = parser.parse_args(["--ruleset", "hungarian", "--port", "0", "--no-browser", "--seed", "5"])
    assert (args.ruleset, args.port, args.no_browser, args.seed) == ("hungarian", 0, True, 5)


# -- languages, words, the legend, the mirror's read-only server ----------------------------


def test_the_page_options_the_language_files_and_the_legend(make_sim, tmp_path):
    sim, client = make_sim()
    status, reply = client.request("GET", "/api/page")
    assert status == 200 and reply == {"lang": None, "languages": ["en", "hu", "ru"],
                                       "mirror": False}
    for lang in ("en", "hu", "ru"):
        status, reply = client.request("GET", "/i18n/%s.json" % lang)
        assert status == 200 and reply["text"]["do.capture"]
    for path in ("/i18n/../sim.js", "/web/sim.js", "/i18n/xx.json", "/i18n/.hidden.json"):
        assert client.request("GET", path)[0] == 404, path
    status, legend = client.request("GET", "/api/legend")
    from firmware.lights import PATTERNS, STYLES
    lifted = [r for r in legend if r["role"] == "lifted"][0]
    assert lifted["rgb"] == list(STYLES["lifted"][0]) and lifted["pattern"] == STYLES["lifted"][1]
    assert lifted["kind"] == "tri" and lifted["period"] == PATTERNS["breathe"][1]
    assert [r["kind"] for r in legend if r["role"] == "error"] == ["steps"]
    server = SimServer(Sim(seed=1), "127.0.0.1", 0, lang="hu")
    try:
        assert server.page_options()["lang"] == "hu"
    finally:
        server.server_close()


def test_the_state_carries_the_words(make_sim):
    sim, client = make_sim()
    client.tick(600)
    state = client.state()
    assert state["explain"] == {"kind": "opening", "status": [["status.opening", {}]],
                                "instruction": [["do.opening.B", {}]]}
    assert state["sticks_live"] is True
    client.post("press")
    client.tick(SETTLE)                               # seed 12: a 1, white starts (K4)
    words = client.state()["explain"]
    assert words["kind"] == "start" and words["status"][0] == ["status.start.W", {"player": 1}]


def test_a_read_only_server_refuses_every_action_and_changes_nothing(tmp_path):
    sim = Sim(seed=12)
    server, thread = _serve(sim)
    server.read_only = True
    try:
        client = Client(server)
        before = client.state()
        for action, body in (("press", {}), ("lift", {"square": 1}), ("new", {"ruleset": "kendall"}),
                             ("command", {"line": '{"cmd": "throw"}'})):
            status, reply = client.request("POST", "/api/" + action, body)
            assert status == 403 and "only shows" in reply["error"], action
        after = client.state()
        assert after["pieces"] == before["pieces"] and after["seq"] == before["seq"]
    finally:
        server.shutdown()
        server.stop()
        server.server_close()
        thread.join(5)


def test_sim_config_problems_are_printed_on_the_terminal(tmp_path, capsys):
    from host_tools import cli
    config = tmp_path / "config.json"
    config.write_text('{"settle_ms": 3, "brightness_cap": 999}')
    assert cli.main(["sim", "--config", str(config), "--port", "70000", "--no-browser"]) == 2
    err = capsys.readouterr().err.splitlines()
    assert any("settle_ms" in line and "using 250" in line for line in err), err
    assert any("brightness_cap" in line for line in err), err
    assert err[-1] == "senet-board sim: --port must be 0..65535"


def test_show_command_line_and_page_address():
    from host_tools import cli
    from host_tools.sim.server import page_url
    args = cli.build_parser(["show"]).parse_args(["show", "--port", "/dev/ttyACM0", "--lang", "ru",
                                                  "--view", "kiosk", "--http-port", "0"])
    assert (args.port, args.lang, args.view, args.http_port) == ("/dev/ttyACM0", "ru", "kiosk", 0)
    assert page_url("http://h/", "ru", "kiosk") == "http://h/?view=kiosk&lang=ru"
    assert page_url("http://h/", None, "full") == "http://h/"
