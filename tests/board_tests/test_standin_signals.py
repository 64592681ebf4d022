"""The stand-in run by hand (docs/deploy.md) and stopped as a terminal or a
service manager stops it: by Ctrl-C, SIGTERM or a closed terminal. It leaves
no MicroPython process behind and no temporary folder."""

import os
import signal
import subprocess
import sys
import time

import pytest

from sigint import as_from_a_terminal
import paths

ROOT = paths.ROOT
HANG_S = 60                    # only a stand-in that hangs takes this long

# main.py of the stand-in's flash: a firmware that runs for ever.
FOREVER = "import time\nprint('running')\nwhile True:\n    time.sleep_ms(100)\n"


def children(pid):
    """The process ids whose parent is ``pid`` (Linux's /proc)."""
    if not os.path.isdir("/proc/%d/task" % pid):
        pytest.fail("this test reads /proc to find the stand-in's MicroPython process, "
                    "and this system has no /proc")
    found = []
    for task in os.listdir("/proc/%d/task" % pid):
        try:
            with open("/proc/%d/task/%s/children" % (pid, task)) as f:
                found += [int(n) for n in f.read().split()]
        except OSError:
            pass
    return found


def alive(pid):
    try:
        with open("/proc/%d/stat" % pid) as f:
            return f.read().split(")")[-1].split()[0] != "Z"
    except OSError:
        return False


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT, signal.SIGHUP])
def test_a_stopped_stand_in_leaves_no_process_and_no_temporary_folder(tmp_path, sig):
    flash = tmp_path / "flash"
    flash.mkdir()
    (flash / "main.py").write_text(FOREVER)
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    env = dict(os.environ, TMPDIR=str(tmp), PYTHONPATH=os.path.join(ROOT, "tests"))
    proc = subprocess.Popen([sys.executable, "-m", "standin", str(flash), "--fakes"],
                            stdout=subprocess.PIPE, text=True, env=env,
                            cwd=os.path.join(ROOT, "tests"), preexec_fn=as_from_a_terminal)
    try:
        line = proc.stdout.readline()
        assert line.startswith("stand-in Pico on /dev/"), line
        port = line.split()[3]
        fd = os.open(port, os.O_RDWR | os.O_NOCTTY)
        try:
            os.write(fd, b"\x04")                 # a soft reboot runs main.py
            seen = b""
            end = time.monotonic() + HANG_S
            while b"running" not in seen and time.monotonic() < end:
                seen += os.read(fd, 1024)
        finally:
            os.close(fd)
        assert b"running" in seen, seen
        micropython = children(proc.pid)
        assert micropython and all(alive(pid) for pid in micropython)
        assert os.listdir(str(tmp)) != []          # its FIFOs live in a folder of its own
        proc.send_signal(sig)
        assert proc.wait(timeout=HANG_S) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    left = [pid for pid in micropython if alive(pid)]
    for pid in left:
        os.kill(pid, signal.SIGKILL)
    assert not left, "MicroPython left running after the stand-in stopped"
    assert os.listdir(str(tmp)) == []
