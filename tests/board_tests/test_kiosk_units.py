"""`senet-board kiosk`: the systemd user units that start the exhibit's screen
by themselves, generated, checked by systemd and run.

A museum PC logs in, the show unit mirrors the board on the page, the browser
unit opens the page full screen once it answers, and either comes back when it
fails. These tests check the generated files with systemd's own verifier and
run the show unit's ``ExecStart`` line, as systemd would, against the stand-in
Pico behind a link (as udev's /dev/serial/by-id name points at a real one).
The waits are for events, with a deadline that only catches a hang.
"""

import json
import os
import shlex
import shutil
import socket
import subprocess
import sys
import time
import urllib.request

import pytest

from host_tools import cli
from host_tools.board import deploy
from standin.device import FAKES, StandIn
from standin.scenario import KENDALL_START, hook

WAIT_S = 60
SHOW = "senet-board-show.service"
BROWSER = "senet-board-browser.service"


def generate(tmp_path, *extra):
    """The files `kiosk --print --out` writes, as {name: text}."""
    out = tmp_path / "units"
    assert cli.main(["kiosk", "--print", "--out", str(out)] + list(extra)) == 0
    return {p.name: p.read_text(encoding="utf-8") for p in out.iterdir()}


def unit(text):
    """A unit file's sections; repeated keys (ExecStartPre) kept as lists."""
    sections = {}
    current = None
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("["):
            current = sections.setdefault(line.strip("[]"), {})
            continue
        key, _, value = line.partition("=")
        current.setdefault(key, []).append(value)
    return sections


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def fetch_state(http):
    """What show's page is told about the board (/api/state)."""
    with urllib.request.urlopen("http://127.0.0.1:%d/api/state" % http, timeout=WAIT_S) as r:
        return json.loads(r.read())


def with_option(argv, option, value):
    """``argv`` with ``option``'s value replaced by ``value``."""
    i = argv.index(option)
    return argv[:i + 1] + [value] + argv[i + 2:]


def test_the_units_restart_and_start_the_page_and_the_browser_in_order(tmp_path):
    link = tmp_path / "usb-MicroPython_Board_in_FS_mode_e6614103e7-if00"
    master, slave = os.openpty()             # a terminal, as the Pico's USB serial is
    try:
        os.symlink(os.ttyname(slave), str(link))
        files = generate(tmp_path, "--port", str(link), "--browser", sys.executable)
    finally:
        os.close(master)
        os.close(slave)
    show, browser = unit(files[SHOW]), unit(files[BROWSER])
    argv = shlex.split(show["Service"]["ExecStart"][0])
    assert argv[argv.index("show") + 1:argv.index("show") + 3] == ["--view", "kiosk"]
    assert "--no-browser" in argv
    assert argv[argv.index("--port") + 1] == str(link)
    assert argv[argv.index("--usage") + 1] == "%h/senet-usage.csv", \
        "the museum's usage figures are kept in the user's home"
    for sections in (show, browser):
        assert sections["Service"]["Restart"][0] in ("always", "on-failure")
        assert float(sections["Service"]["RestartSec"][0]) > 0
    assert SHOW in browser["Unit"]["After"][0] and SHOW in browser["Unit"]["Wants"][0]
    chromium = shlex.split(browser["Service"]["ExecStart"][0])
    assert chromium[0] == sys.executable
    for flag in ("--kiosk", "--noerrdialogs", "--disable-infobars", "--no-first-run",
                 "--disable-session-crashed-bubble"):
        assert flag in chromium, flag
    assert chromium[-1] == "http://127.0.0.1:8738/?view=kiosk"
    pre = " ".join(browser["Service"]["ExecStartPre"])
    assert "xset s off -dpms" in pre, "the X11 screen is kept from blanking"
    assert "--wait-for http://127.0.0.1:8738/" in pre


def test_the_units_pass_systemd_analyze_verify(tmp_path):
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        pytest.fail("systemd-analyze is not installed, so the generated units cannot be "
                    "verified: run scripts/test.sh as root, or apt-get install systemd")
    generate(tmp_path, "--browser", sys.executable)
    units = sorted(str(p) for p in (tmp_path / "units").glob("*.service"))
    assert len(units) == 2
    env = dict(os.environ, SYSTEMD_LOG_LEVEL="notice")
    done = subprocess.run([analyze, "verify", "--man=no"] + units, capture_output=True,
                          text=True, timeout=WAIT_S, env=env)
    problems = [line for line in (done.stdout + done.stderr).splitlines()
                if any(os.path.basename(u) in line for u in units)]
    assert done.returncode == 0 and not problems, done.stdout + done.stderr


def test_install_writes_the_units_and_says_how_to_enable_them(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.delenv("XDG_CONFIG_HOME", raising=False)
    assert cli.main(["kiosk", "--install", "--browser", sys.executable]) == 0
    folder = tmp_path / ".config" / "systemd" / "user"
    assert sorted(p.name for p in folder.iterdir()) == [BROWSER, SHOW]
    autostart = tmp_path / ".config" / "autostart" / "senet-board-kiosk.desktop"
    assert "systemctl --user start " + BROWSER in autostart.read_text(encoding="utf-8")
    said = capsys.readouterr().out
    assert "systemctl --user daemon-reload" in said
    assert "systemctl --user enable %s %s" % (SHOW, BROWSER) in said


@pytest.mark.parametrize("argv, words", [
    (["--print", "--browser", "/no/such/chromium"], "no browser at /no/such/chromium"),
    (["--print", "--port", "/no/such/port"], "/no/such/port"),
    (["--print", "--http-port", "70000"], "--http-port"),
    (["--install"], "--out goes with --print"),
    (["--wait-for", "127.0.0.1:8738"], "http://"),
])
def test_bad_input_gets_one_line_and_writes_nothing(tmp_path, capsys, argv, words):
    out = tmp_path / "units"
    assert cli.main(["kiosk", "--out", str(out)] + argv) == 1
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and words in err, err
    assert not out.exists()


def test_the_show_units_command_serves_the_page_of_the_board(tmp_path):
    boot = hook([(0, "place", KENDALL_START)])
    dev = StandIn(str(tmp_path / "flash"), fakes=FAKES, boot_hook=boot)
    dev.start()
    link = str(tmp_path / "usb-MicroPython_Board_in_FS_mode_standin-if00")
    proc = None
    try:
        deploy.deploy(dev.port)
        os.symlink(dev.port, link)
        files = generate(tmp_path, "--port", link, "--browser", sys.executable)
        show, browser = unit(files[SHOW]), unit(files[BROWSER])
        http = free_port()
        argv = with_option(shlex.split(show["Service"]["ExecStart"][0]), "--http-port", str(http))
        usage = argv[argv.index("--usage") + 1]
        argv = with_option(argv, "--usage", usage.replace("%h", str(tmp_path)))
        proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        wait = [a for a in browser["Service"]["ExecStartPre"] if "--wait-for" in a][0]
        wait = shlex.split(wait.replace(":8738/", ":%d/" % http))
        done = subprocess.run(wait, capture_output=True, text=True, timeout=WAIT_S * 2)
        assert done.returncode == 0, done.stdout + done.stderr
        with urllib.request.urlopen("http://127.0.0.1:%d/?view=kiosk" % http, timeout=WAIT_S) as r:
            assert r.status == 200 and b"<html" in r.read().lower()
        end = time.monotonic() + WAIT_S
        state = {}
        while time.monotonic() < end and not state.get("mirror", {}).get("connected"):
            state = fetch_state(http)
            time.sleep(0.05)
        assert state["mirror"] == {"connected": True, "port": link}
    finally:
        if proc is not None:
            proc.terminate()
            proc.wait(timeout=WAIT_S)
        dev.stop()


def test_the_board_is_named_by_its_usb_id_not_its_tty_number(tmp_path):
    from host_tools.board.kiosk import stable_port
    by_id = tmp_path / "by-id"
    by_id.mkdir()
    tty = tmp_path / "ttyACM1"
    tty.write_text("")
    os.symlink("../ttyACM1", str(by_id / "usb-MicroPython_Board_in_FS_mode_e6614103e7-if00"))
    assert stable_port(str(tty), str(by_id)) == str(by_id / "usb-MicroPython_Board_in_FS_mode_"
                                                            "e6614103e7-if00")
    assert stable_port(str(tmp_path / "ttyACM0"), str(by_id)) == str(tmp_path / "ttyACM0")
    assert stable_port(str(tty), str(tmp_path / "none")) == str(tty)


def test_the_browser_waits_until_the_page_answers(capsys):
    from host_tools.board.kiosk import wait_for
    answers = [OSError("refused"), OSError("refused"), None]
    naps = []

    def opener(url):
        answer = answers.pop(0)
        if answer is not None:
            raise answer

    assert wait_for("http://127.0.0.1:8738/", sleep=naps.append, opener=opener) == 0
    assert answers == [] and len(naps) == 2
    assert capsys.readouterr().out.count("waiting for the page") == 1
