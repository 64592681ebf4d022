"""A wrong file named on the command line gets one line, never a traceback."""

import subprocess
import sys

import pytest

import paths

ROOT = paths.ROOT


def senet_board(*args):
    return subprocess.run([sys.executable, "-m", "host_tools.cli"] + list(args),
                          capture_output=True, text=True, cwd=ROOT, timeout=60,
                          stdin=subprocess.DEVNULL)


@pytest.mark.parametrize("content", [None, b"\xff\xfe not text", b"{not json"])
def test_sim_with_a_config_it_cannot_read_says_so_in_one_line(tmp_path, content):
    path = tmp_path / "config.json"
    if content is not None:
        path.write_bytes(content)
    result = senet_board("sim", "--no-browser", "--config", str(path))
    assert result.returncode != 0
    assert result.stdout == ""
    assert result.stderr.startswith("senet-board sim: cannot read %s: " % path)
    assert result.stderr.count("\n") <= 1 and "Traceback" not in result.stderr
    if content is None:
        assert result.stderr.strip().endswith("No such file or directory")


def one_line(result, prefix):
    """The command failed with one line on stderr that starts with ``prefix``."""
    assert result.returncode not in (0, None), result.stdout + result.stderr
    assert "Traceback" not in result.stderr, result.stderr
    assert result.stderr.startswith(prefix), result.stderr
    assert result.stderr.count("\n") <= 1, result.stderr


def test_sim_with_a_store_that_is_a_file_says_so_in_one_line(tmp_path):
    store = tmp_path / "game.json"
    store.write_text("a file the user wants kept")
    result = senet_board("sim", "--no-browser", "--port", "0", "--store", str(store))
    one_line(result, "senet-board sim: --store %s is a file" % store)
    assert store.read_text() == "a file the user wants kept"


def test_build_into_a_file_says_so_in_one_line(tmp_path):
    target = tmp_path / "passwd"
    target.write_text("root:x:0:0\n")
    result = senet_board("build", str(target))
    one_line(result, "senet-board build: %s is a file" % target)
    assert target.read_text() == "root:x:0:0\n"


def test_build_where_no_folder_can_be_made_says_so_in_one_line(tmp_path):
    blocker = tmp_path / "plain-file"
    blocker.write_text("")
    result = senet_board("build", str(blocker / "out"))
    one_line(result, "senet-board build: The folder %s cannot be made" % (blocker / "out"))
