"""`senet-board deploy` to a board whose MicroPython has a ROMFS partition.

The stand-in (tests/standin) is given a partition of the size the board's
MicroPython build has (hardware/micropython/SENET_PICO, ``romfs=``): it
answers ``vfs.rom_ioctl`` over memory outside its heap kept in a file beside
its flash folder, giving the partition as memory as the unix and qemu ports
do (the rp2 port gives a block device, which mpremote writes through its
``writeblocks``, and deploy's probe reads either), and mounts a valid image at
/rom at each boot, where the real unix port's ``VfsRom`` runs the bytecode in
place. The image is built and written by the real mpremote (``romfs build``,
``romfs deploy``). No Pico with such a partition was at hand: the rp2 side is
the partition's interface as mpremote uses it, not the chip.
"""

import os
import subprocess
import sys

import pytest

from host_tools.board import deploy
from host_tools.board.build import ROMFS_HEADER, firmware_version
from host_tools.board.transport import precheck
from host_tools.board.uf2 import senet_board
from standin import StandIn
from standin.device import FAKES
from standin.scenario import hook
# ``first``, test_deploy's fixture, deploys once to this module's ``board``
from test_deploy import SCRIPT, first, read_events, tree  # noqa: F401

pytestmark = pytest.mark.micropython

PARTITION = senet_board()[1].romfs_bytes      # hardware/micropython/SENET_PICO's


def board_says(port, code):
    """What ``code`` prints on the board (mpremote exec), the firmware stopped
    first as deploy stops it."""
    precheck(port)
    out = subprocess.run([sys.executable, "-m", "mpremote", "connect", port, "exec", code],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stdout + out.stderr
    return out.stdout.strip()


def partition(dev):
    with open(dev.flash + ".romfs", "rb") as f:
        return f.read()


@pytest.fixture(scope="module")
def board(tmp_path_factory):
    flash = tmp_path_factory.mktemp("flash")
    # a firmware deployed before the partition held it: lib/ holds a copy
    os.makedirs(os.path.join(str(flash), "lib", "firmware"))
    with open(os.path.join(str(flash), "lib", "firmware", "app.mpy"), "wb") as f:
        f.write(b"M\x06old")
    dev = StandIn(str(flash), fakes=FAKES, boot_hook=hook(SCRIPT), romfs=PARTITION)
    dev.start()
    yield dev
    dev.stop()


def test_the_firmware_goes_into_the_partition_and_only_main_and_config_to_the_flash(
        board, first):
    assert first["romfs"] and first["romfs_written"], first
    files = tree(board.flash)
    for name in ("health.json", "crash.log"):          # the running board's own
        files.pop(name, None)
    assert sorted(files) == ["config.json", "main.py"], sorted(files)
    assert "lib/firmware" in first["removed"], first["removed"]
    with open(os.path.join(first["build"], "senet.romfs"), "rb") as f:
        image = f.read()
    held = partition(board)
    assert image.startswith(ROMFS_HEADER) and held[:len(image)] == image
    assert first["hello"]["version"] == firmware_version()
    assert first["hello"]["romfs"] is True            # the board says where it runs from


def test_the_board_runs_the_firmware_from_the_partition(board, first):
    events = read_events(board.port, 8, until="throw", send={"cmd": "state"})
    names = [e["event"] for e in events]
    assert "state" in names and "throw" in names, names
    said = board_says(board.port, "import firmware.board, engine.rules\n"
                                  "print(firmware.board.__file__, engine.rules.__file__)")
    assert said.split() == ["/rom/firmware/board.mpy", "/rom/engine/rules.mpy"], said


def test_a_second_deploy_leaves_an_unchanged_partition_alone(board, first, tmp_path):
    before = partition(board)
    second = deploy.deploy(board.port, build_dir=str(tmp_path / "build"))
    assert second["romfs"] and not second["romfs_written"], second
    assert second["copied"] == [] and second["removed"] == [], second
    assert partition(board) == before
    assert second["hello"]["version"] == firmware_version()


def test_without_romfs_the_firmware_goes_to_lib_and_the_partition_is_emptied(
        board, first, tmp_path):
    out = str(tmp_path / "build")
    third = deploy.deploy(board.port, build_dir=out, romfs=False)
    assert not third["romfs"] and third["romfs_emptied"], third
    assert partition(board)[:4] == ROMFS_HEADER + b"\x00"     # an empty image
    assert "lib/firmware/board.mpy" in tree(board.flash)
    said = board_says(board.port, "import firmware.board\nprint(firmware.board.__file__)")
    assert said == "/lib/firmware/board.mpy", said
    assert third["hello"]["romfs"] is False
    # and back: the partition takes the firmware again, lib/ gives it up
    fourth = deploy.deploy(board.port, build_dir=str(tmp_path / "again"))
    assert fourth["romfs_written"] and "lib/firmware" in fourth["removed"], fourth
    assert board_says(board.port, "import firmware.board\nprint(firmware.board.__file__)") \
        == "/rom/firmware/board.mpy"


def test_an_image_larger_than_the_partition_goes_to_lib(tmp_path):
    flash = tmp_path / "small"
    with StandIn(str(flash), fakes=FAKES, boot_hook=hook(SCRIPT), romfs=16 * 1024) as dev:
        result = deploy.deploy(dev.port, build_dir=str(tmp_path / "build"))
        assert not result["romfs"] and not result["romfs_emptied"], result
        assert "lib/firmware/app.mpy" in tree(dev.flash)
        assert result["hello"]["version"] == firmware_version()


def test_build_writes_the_image_for_mpremote(tmp_path):
    image = tmp_path / "senet.romfs"
    out = subprocess.run([sys.executable, "-m", "host_tools.cli", "build", "--romfs", str(image)],
                         capture_output=True, text=True, timeout=300,
                         cwd=os.path.dirname(os.path.dirname(os.path.dirname(
                             os.path.abspath(__file__)))))
    assert out.returncode == 0, out.stdout + out.stderr
    assert "mpremote romfs deploy" in out.stdout, out.stdout
    data = image.read_bytes()
    assert data.startswith(ROMFS_HEADER) and b"firmware" in data and b"app.mpy" in data
