"""The mirror behind `senet-board show`, without a board: events in, the
page's state out; the reader opens the port again when it goes away and
writes nothing but the reporting commands."""

import time

from host_tools.board import show as mr

START = "BWBWBWBWBW.................... W"
HANG_S = 60             # real seconds: only a hung reader takes this long


def state_event(state, roles=None, throw=None, sticks=None, position=START):
    r = [""] * 30
    for square, role in (roles or {}).items():
        r[square - 1] = role
    return {"event": "state", "position": position, "ruleset": "kendall", "state": state,
            "turn": position[-1], "throw": throw, "sticks": sticks, "roles": r}


def feed(m, *events):
    import json
    for event in events:
        assert m.line(json.dumps(event).encode()) is not None


def test_events_become_the_pages_state_and_words():
    m = mr.Mirror("/dev/null")
    feed(m, {"event": "ready", "position": START, "ruleset": "kendall", "resumed": False},
         state_event("opening"))
    snap = m.snapshot()
    assert snap["explain"]["instruction"] == [["do.opening.B", {}]]
    assert snap["mirror"] == {"connected": False, "port": "/dev/null"}
    assert [p["square"] for p in snap["pieces"] if p["side"] == "W"] == [2, 4, 6, 8, 10]
    # the opening's black light, drawn by the firmware's own lights
    assert m.led_roles[m.leds["side_black"]] == "turn" and m.led_roles[m.leds["side_white"]] == ""
    feed(m, {"event": "throw", "side": None, "player": 1, "value": 3, "sticks": [1, 1, 1, 0],
             "opening": True}, state_event("opening", sticks=[1, 1, 1, 0]))
    assert m.snapshot()["explain"]["instruction"] == [["do.opening.W", {}]]
    assert m.led_roles[m.leds["side_white"]] == "turn"
    assert m.led_roles[m.leds["sticks"]:m.leds["sticks"] + 4] == [
        "stick_white", "stick_white", "stick_white", "stick_black"]
    feed(m, {"event": "throw", "side": None, "player": 2, "value": 1, "sticks": [1, 0, 0, 0],
             "opening": True}, {"event": "start", "side": "W", "player": 2},
         state_event("move", {10: "lifted", 11: "target"}, throw=1, sticks=[1, 0, 0, 0]))
    m.tick()
    snap = m.snapshot()
    assert snap["explain"]["kind"] == "lifted"
    assert snap["explain"]["status"][0] == ["status.start.W", {"player": 2}]
    assert snap["frame"][10] != [0, 0, 0]              # square 11 lit as the board lights it
    # the lifted piece is in a hand, not on 10; a piece put on a wrong square stands there
    assert 10 not in [p["square"] for p in snap["pieces"]]
    feed(m, state_event("move", {12: "error", 10: "missing"}, throw=1))
    on_board = {p["square"]: p["side"] for p in m.snapshot()["pieces"] if p["square"]}
    assert 10 not in on_board and on_board[12] == "W" and on_board[9] == "B"
    feed(m, {"event": "move", "side": "W", "move": "10-11",
             "after": "BWBWBWBWB.W................... W", "again": True},
         state_event("throw", position="BWBWBWBWB.W................... W", throw=None,
                     sticks=[1, 0, 0, 0]))
    snap = m.snapshot()
    assert snap["sticks_live"] is False and snap["explain"]["kind"] == "turn"
    assert "10-11" in m.shown_at
    feed(m, {"event": "game_over", "winner": "W", "score": 0, "points": {"B": 0, "W": 0}})
    assert m.snapshot()["explain"]["status"] == [["status.winner.W", {}]]


def test_lines_that_are_not_events_change_nothing():
    m = mr.Mirror(None)
    before = m.snapshot()
    for raw in (b"MPY: soft reboot", b"\xff\xfe", b'{"event": 42}', b"[1]",
                b'{"event": "state", "roles": "no", "position": 7, "sticks": 3}'):
        m.line(raw)
    after = m.snapshot()
    assert after["app"]["position"] is None and after["roles"] == before["roles"]


class FakePort:
    def __init__(self, lines, fail_after):
        self.lines = list(lines)
        self.written = []
        self.reads = 0
        self.fail_after = fail_after

    def write(self, data):
        self.written.append(data)

    def read(self, n):
        self.reads += 1
        if self.reads > self.fail_after:
            raise OSError("device reports readiness to read but returned no data")
        time.sleep(0.005)
        return self.lines.pop(0) if self.lines else b""

    def close(self):
        pass


def test_the_reader_reconnects_and_only_reports():
    m = mr.Mirror(None)
    opened = []
    ports = [FakePort([b'{"event": "hello", "version": "0.1.0", "mode": "museum"}\n',
                       b'{"event": "ready", "position": "%s", "ruleset": "kendall"}\n'
                       % START.encode()], fail_after=20),
             FakePort([b'{"event": "notice", "message": "x"}\n'], fail_after=10 ** 6)]
    tries = []

    def opener(port):
        tries.append(port)
        if len(tries) == 2:                       # unplugged for a moment
            raise OSError("no such port")
        port_obj = ports[len(opened)]
        opened.append(port_obj)
        return "/dev/fake", port_obj

    reader = mr.Reader(m, "/dev/fake", opener=opener)
    seen = []
    old_set = m.set_connected

    def watch(connected, port=None):
        seen.append(connected)
        old_set(connected, port)

    m.set_connected = watch
    old_retry = mr.RETRY_S
    mr.RETRY_S = 0.01
    try:
        reader.start()
        deadline = time.monotonic() + HANG_S
        while len(opened) < 2 or m.received < 3:
            assert time.monotonic() < deadline, (tries, m.received)
            time.sleep(0.01)
    finally:
        reader.stop()
        mr.RETRY_S = old_retry
    assert seen[:3] == [True, False, True]
    assert m.hello["mode"] == "museum"
    written = b"".join(b"".join(p.written) for p in ports)
    lines = [line + b"\n" for line in written.split(b"\n") if line]
    assert lines and set(lines) <= set(mr.READ_ONLY_COMMANDS)
