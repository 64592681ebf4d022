"""A wrong file named on the command line gets one line, never a traceback."""

import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


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
