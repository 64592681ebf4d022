"""The board loop (firmware/board.py) and remote play: loaded only when
config.json asks for it, polled every pass when it is, and a board that
cannot play remotely still plays at home, saying why in words."""

import json
import os
import sys

import pytest

import paths

sys.path.insert(0, os.path.join(paths.TESTS, "fakes"))

import machine  # noqa: E402  (tests/fakes/machine.py)
import neopixel  # noqa: E402

from firmware import board as board_loop  # noqa: E402
from firmware import hal  # noqa: E402
from firmware.app import App  # noqa: E402

REMOTE = {
    "wifi": {"ssid": "Nagyi-otthon", "password": "kecske-sajt-42"},
    "broker": {"host": "127.0.0.1", "port": 1883, "tls": False},
    "room": "nagyi-and-ada",
    "passphrase": "the river floods in summer",
    "side": "W",
}


@pytest.fixture
def pico(tmp_path, monkeypatch):
    """A board folder on the fake machine, its pieces on the start squares."""
    machine.board.reset()
    neopixel.reset()
    machine.board.wire_matrix([2, 3, 4, 5, 6, 7], [8, 9, 10, 11, 12])
    machine.board.place(*range(1, 11))
    monkeypatch.setattr(hal, "sleep_ms", lambda ms: None)
    monkeypatch.setattr(board_loop.SerialLines, "lines", lambda self: [])
    return tmp_path


def run_passes(pico, monkeypatch, capsys, config, passes=50):
    """Power on with ``config`` and run ``passes`` loop passes; the events printed."""
    (pico / "config.json").write_text(json.dumps(config))
    real = App.step
    count = [0]

    def step(app, now_ms, occupancy, button):
        count[0] += 1
        if count[0] > passes:
            raise KeyboardInterrupt()
        return real(app, now_ms, occupancy, button)
    monkeypatch.setattr(App, "step", step)
    with pytest.raises(KeyboardInterrupt):
        board_loop.run(str(pico / "config.json"), str(pico))
    out = capsys.readouterr().out
    return [json.loads(line) for line in out.splitlines() if line.startswith("{")]


def test_a_plain_board_never_loads_the_remote_play_code(pico, monkeypatch, capsys):
    monkeypatch.delitem(sys.modules, "firmware.remote", raising=False)
    events = run_passes(pico, monkeypatch, capsys, {"ruleset": "kendall"})
    assert "firmware.remote" not in sys.modules
    assert not [e for e in events if e["event"] == "remote"]


class Link:
    """Stands in for firmware/remote.py's Remote: counts its polls."""

    def __init__(self):
        self.polls = []

    def poll(self, now_ms):
        self.polls.append(now_ms)
        if len(self.polls) == 10:
            return [{"event": "remote", "what": "link", "state": "online"}]
        return []


def test_a_board_with_remote_play_polls_its_link_every_pass(pico, monkeypatch, capsys):
    from firmware import remote
    link = Link()
    started = []

    def start(settings, app, now_ms):
        started.append(settings)
        return link, {"event": "remote", "what": "link", "state": "joining"}
    monkeypatch.setattr(remote, "start", start)
    events = run_passes(pico, monkeypatch, capsys, {"ruleset": "kendall", "remote": REMOTE})
    assert started == [REMOTE]
    assert len(link.polls) == 50
    said = [e for e in events if e["event"] == "remote"]
    assert said == [{"event": "remote", "what": "link", "state": "joining"},
                    {"event": "remote", "what": "link", "state": "online"}]


def test_a_pico_w_without_umqtt_plays_at_home_and_says_how_to_install_it(
        pico, monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "umqtt", None)
    events = run_passes(pico, monkeypatch, capsys, {"ruleset": "kendall", "remote": REMOTE})
    said = [e for e in events if e["event"] == "remote"]
    assert said == [{"event": "remote", "what": "link", "state": "off", "why":
                     "umqtt.simple is not installed: deploy with this config.json installs "
                     "it (or: mpremote mip install umqtt.simple)"}]
    assert [e for e in events if e["event"] == "hello"]          # the board plays on
    text = json.dumps(events)
    assert "kecske-sajt-42" not in text and "the river floods" not in text
