"""Options the command line used to take wrongly: a port that can never be a
board, a tournament of half pairs or of no workers, a progress bar written
into a pipe, and a busy port whose sentence forgot `show`."""

import os
import pty
import select
import subprocess
import sys
import tty

import pytest

import paths

ROOT = paths.ROOT
HANG_S = 60                    # only a command that loops for ever takes this long


def senet_board(*args, timeout=HANG_S):
    try:
        return subprocess.run([sys.executable, "-m", "host_tools.cli"] + list(args),
                              capture_output=True, text=True, cwd=ROOT, timeout=timeout,
                              stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired as e:
        pytest.fail("senet-board %s was still running after %d s (stderr: %s)"
                    % (" ".join(args), timeout, (e.stderr or b"")[-300:]))


def one_line(result, prefix):
    assert result.returncode not in (0, None), result.stdout + result.stderr
    assert "Traceback" not in result.stderr, result.stderr
    assert result.stderr.startswith(prefix), result.stderr
    assert result.stderr.count("\n") == 1, result.stderr


# -- show ------------------------------------------------------------------------------------

def test_show_with_a_port_that_is_a_file_stops_at_once_with_one_sentence(tmp_path):
    """A file is never going to become the board: no retrying for ever."""
    not_a_port = tmp_path / "passwd"
    not_a_port.write_text("root:x:0:0\n")
    result = senet_board("show", "--port", str(not_a_port), "--no-browser",
                         "--http-port", "0")
    one_line(result, "senet-board show: %s is not a serial port" % not_a_port)
    assert result.stdout == ""


def test_show_with_a_device_that_is_no_terminal_stops_at_once_with_one_sentence():
    result = senet_board("show", "--port", os.devnull, "--no-browser", "--http-port", "0")
    one_line(result, "senet-board show: %s is not a serial port" % os.devnull)


# -- tournament ------------------------------------------------------------------------------

@pytest.mark.parametrize("args, words", [
    (["--games", "3"], "--games must be a positive even number"),
    (["--games", "0"], "--games must be a positive even number"),
    (["--games", "-2"], "--games must be a positive even number"),
    (["--jobs", "0"], "--jobs must be 1 or more"),
    (["--jobs", "-1"], "--jobs must be 1 or more"),
])
def test_a_tournament_with_impossible_numbers_is_refused_in_one_line(args, words):
    result = senet_board("tournament", "--ruleset", "kendall", "--pairs", "random:greedy",
                         *args)
    one_line(result, "senet-board tournament: %s" % words)
    assert result.stdout == ""


def test_the_progress_bar_stays_out_of_a_pipe():
    """stderr is a pipe here, as when the output is logged: no bar, no \\r."""
    result = senet_board("tournament", "--ruleset", "kendall", "--pairs", "random:greedy",
                         "--games", "2", "--jobs", "1")
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    assert "random vs greedy" in result.stdout


def test_the_progress_bar_is_drawn_on_a_terminal():
    from host_tools import tournament
    master, slave = pty.openpty()
    tty.setraw(slave)
    try:
        with os.fdopen(os.dup(slave), "w") as terminal:
            tasks = tournament.tasks_for(["kendall"], [("random", "greedy")], 2, 1, None)
            tournament.play_all(tasks, 1, tournament.progress_stream(terminal))
        drawn = b""
        while not drawn.endswith(b"\n"):       # done() ends the bar's line
            if not select.select([master], [], [], HANG_S)[0]:
                break
            drawn += os.read(master, 4096)
    finally:
        os.close(master)
        os.close(slave)
    assert b"2/2 games" in drawn


# -- a busy port -----------------------------------------------------------------------------

def test_a_busy_port_names_show_among_the_programs_to_close():
    import serial

    from host_tools.board.messages import DeployError
    from host_tools.board.serialport import connect
    master, slave = pty.openpty()
    port = os.ttyname(slave)
    try:
        with serial.Serial(port, 115200, exclusive=True):
            with pytest.raises(DeployError) as caught:
                connect(port)
    finally:
        os.close(master)
        os.close(slave)
    text = str(caught.value)
    assert text.startswith("Port %s is busy" % port)
    assert "senet-board monitor or show" in text
