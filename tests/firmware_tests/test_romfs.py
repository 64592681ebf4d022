"""The firmware run from a ROMFS image, as a Pico built with a ROMFS partition
holds it (tests/romfs_run.py, tests/romfs_mount.py).

The image is built by the real ``mpremote romfs build`` from the .mpy files
mpy-cross makes for the Pico, and the real MicroPython unix port mounts it
with ``vfs.VfsRom`` from memory outside its heap: its loader then leaves the
bytecode and strings where they are, so the heap the collector walks holds
less. These tests prove that the launcher gives the benchmarks that (and
not a copy of the image inside the heap, which would measure nothing), and
that a benchmark's game runs from it. None of it ran on a Pico.
"""

import json
import os
import subprocess
import sys

import pytest

from mpyhelp import ROOT, compile_lib, tool

pytestmark = pytest.mark.micropython

sys.path.insert(0, os.path.join(ROOT, "tests"))
import romfs_run  # noqa: E402
from host_tools.board.build import romfs_image  # noqa: E402

HEAP = "480K"

IMPORT = """
import gc, os, sys
gc.collect()
before = gc.mem_alloc()
if sys.argv[1] == "/rom":
    sys.path.insert(0, %r)
    import romfs_mount
    sys.path.pop(0)
sys.path.insert(0, sys.argv[1])
import firmware.app
gc.collect()
print("HELD", gc.mem_alloc() - before, firmware.app.__file__)
print("LISTED", sorted(os.listdir(sys.argv[1] + "/firmware")))
""" % os.path.join(ROOT, "tests")


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """(lib folder, ROMFS image of it)."""
    where = tmp_path_factory.mktemp("romfs")
    lib = compile_lib(where / "lib")
    image = str(where / "firmware.romfs")
    romfs_image(lib, image)
    return lib, image


def held(tmp_path, lib, image):
    """Run IMPORT from the lib folder (image None) or the image: (bytes the
    import left in the heap, firmware.app's file, firmware/'s names)."""
    script = tmp_path / "held.py"
    script.write_text(IMPORT)
    args = ["-X", "heapsize=" + HEAP, str(script)]
    if image is None:
        command = [tool("micropython")] + args + [lib]
    else:
        command = romfs_run.command(image, args + [romfs_run.MOUNT])
    out = subprocess.run(command, capture_output=True, text=True, timeout=120)
    text = out.stdout + out.stderr
    assert out.returncode == 0, text
    line = [x for x in text.splitlines() if x.startswith("HELD ")][0].split()
    names = [x for x in text.splitlines() if x.startswith("LISTED ")][0][len("LISTED "):]
    return int(line[1]), line[2], names


def test_the_image_holds_every_module_of_the_lib(built, tmp_path):
    lib, image = built
    with open(image, "rb") as f:
        assert f.read(3) == b"\xd2\xcd\x31"          # the ROMFS header
    _, _, listed = held(tmp_path, lib, image)
    wanted = sorted(os.listdir(os.path.join(lib, "firmware")))
    assert listed == repr(wanted), (listed, wanted)


def test_the_app_imported_from_the_image_leaves_its_bytecode_out_of_the_heap(built, tmp_path):
    lib, image = built
    from_flash, flash_file, _ = held(tmp_path, lib, None)
    from_rom, rom_file, _ = held(tmp_path, lib, image)
    assert flash_file.startswith(lib), flash_file
    assert rom_file == "/rom/firmware/app.mpy", rom_file
    # the mount and the import; a copy of the image in the heap, or files
    # read into it from the mounted image, would hold as much as the flash
    assert from_rom < 0.7 * from_flash, (from_rom, from_flash)
    assert from_rom > 0.3 * from_flash, (from_rom, from_flash)    # the App's objects stay


def test_a_script_run_without_the_launcher_is_told_so(tmp_path):
    script = tmp_path / "alone.py"
    script.write_text("import sys\nsys.path.insert(0, %r)\nimport romfs_mount\n"
                      % os.path.join(ROOT, "tests"))
    env = dict(os.environ)
    env.pop(romfs_run.ENV, None)
    out = subprocess.run([tool("micropython"), str(script)], capture_output=True, text=True,
                         timeout=60, env=env)
    assert out.returncode != 0
    assert "run this script through tests/romfs_run.py" in out.stdout + out.stderr


def test_the_launcher_refuses_a_file_that_is_no_image(tmp_path):
    bogus = tmp_path / "bogus.romfs"
    bogus.write_bytes(b"MF" + bytes(100))
    out = subprocess.run(romfs_run.command(str(bogus), ["-c", "print(1)"]),
                         capture_output=True, text=True, timeout=60)
    assert out.returncode != 0
    assert "is not a ROMFS image" in out.stderr, out.stderr


def test_the_loop_benchmark_plays_from_the_image(built, tmp_path):
    lib, image = built
    flash = tmp_path / "flash"
    flash.mkdir()
    bench = os.path.join(ROOT, "tests", "bench", "loop_bench.py")
    out = subprocess.run(romfs_run.command(image, ["-X", "heapsize=" + HEAP, bench,
                                                   romfs_run.MOUNT, str(flash), "10"]),
                         capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stdout[-2000:] + out.stderr[-2000:]
    report = json.loads(out.stdout.strip().splitlines()[-1])
    assert report["collections"] > 10, report
    assert report["steps"]["save"]["count"] > 10, report["steps"]
    assert os.path.exists(str(flash / "kendall" / "game.json")), os.listdir(str(flash))
