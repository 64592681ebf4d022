"""What a deploy changes on the board, decided before anything is touched.

host_tools/board/plan.py is pure: a build (paths with sizes and hashes) and the
board's flash as the probe saw it go in, the plan and the space it needs come
out. These are the edges the stand-in tests of test_deploy.py only pass by:
main.py copied last, stale files and stale sub-folders removed, nothing
copied when nothing changed, the free-space check at its exact boundary.
"""

import pytest

from host_tools.board.build import Build
from host_tools.board.messages import DeployError
from host_tools.board.plan import Flash, blocks, check_space, plan, space_needed

BLOCK = 4096


def built(**sizes):
    """A Build of the given files, each hashed by its name and size."""
    files = {"main.py": (32, "sha-main"), "config.json": (3, "sha-config")}
    for name, size in sizes.items():
        path = "lib/%s.mpy" % name.replace("__", "/")
        files[path] = (size, "sha-%s-%d" % (path, size))
    return Build("/nowhere", "0.1.0", (6, 3), files)


def flash_of(build, free=10 ** 6, extra=None, dirs=("lib", "lib/engine", "lib/firmware")):
    """A board that already holds ``build`` exactly, plus ``extra`` files."""
    files = dict(build.files)
    files.update(extra or {})
    return Flash(files=files, dirs=dirs, free=free, block=BLOCK)


SOME = dict(engine__rules=5000, engine__position=3000, firmware__board=9000,
            firmware__app=12000)


# -- the plan -------------------------------------------------------------------

def test_a_fresh_board_gets_every_file_with_main_py_last():
    b = built(**SOME)
    todo = plan(b, Flash(free=10 ** 6))
    assert sorted(todo.copy) == sorted(b.files)
    assert todo.copy[-1] == "main.py"
    assert todo.mkdirs == ["lib", "lib/engine", "lib/firmware"]
    assert todo.remove == [] and todo.unchanged == []


def test_main_py_goes_last_even_when_it_sorts_first():
    """A copy cut short must leave the old main.py, which still starts the old
    firmware, not a new main.py importing half-copied modules."""
    b = built(**SOME)
    b.files["a.py"] = (1, "sha-a")              # sorts before main.py
    b.files["z.py"] = (1, "sha-z")              # and after it
    old = flash_of(b)
    old.files["main.py"] = (30, "old main")
    old.files["z.py"] = (1, "old z")
    old.files["a.py"] = (1, "old a")
    todo = plan(b, old)
    assert todo.copy == ["a.py", "z.py", "main.py"]


def test_nothing_is_copied_when_nothing_changed():
    b = built(**SOME)
    todo = plan(b, flash_of(b))
    assert todo.copy == [] and todo.remove == [] and todo.mkdirs == []
    assert sorted(todo.unchanged) == sorted(b.files)


def test_only_the_changed_file_is_copied():
    b = built(**SOME)
    board = flash_of(b)
    board.files["lib/firmware/app.mpy"] = (11999, "older")
    assert plan(b, board).copy == ["lib/firmware/app.mpy"]


def test_the_boards_config_is_kept_unless_a_new_one_is_given():
    b = built(**SOME)
    board = flash_of(b)
    board.files["config.json"] = (40, "the board's own")
    assert plan(b, board, write_config=False).copy == []
    assert plan(b, board, write_config=True).copy == ["config.json"]


def test_stale_files_in_the_packages_are_removed_and_others_left_alone():
    b = built(**SOME)
    board = flash_of(b, extra={
        "lib/firmware/app.py": (100, None),       # would shadow app.mpy
        "lib/engine/gone.mpy": (100, None),       # a module that no longer exists
        "lib/other/thing.py": (100, None),        # another library: not ours
        "game.json": (100, None),                 # the board's saved game
    })
    removed = plan(b, board).remove
    assert sorted(removed) == [("lib/engine/gone.mpy", False),
                               ("lib/firmware/app.py", False)]


def test_stale_sub_folders_of_the_packages_are_removed_whole():
    b = built(**SOME)
    board = flash_of(b, dirs=("lib", "lib/engine", "lib/firmware", "lib/firmware/old",
                              "lib/firmware/old/deeper", "lib/other", "lib/other/sub"),
                     extra={"lib/firmware/old/a.mpy": (10, None),
                            "lib/firmware/old/deeper/b.mpy": (10, None)})
    removed = plan(b, board).remove
    assert removed == [("lib/firmware/old", True)]    # its files go with it


def test_a_root_package_that_shadows_lib_is_removed():
    b = built(**SOME)
    board = flash_of(b, dirs=("lib", "lib/engine", "lib/firmware", "firmware"),
                     extra={"firmware/board.py": (10, None), "engine.py": (10, None)})
    assert sorted(plan(b, board).remove) == [("engine.py", False), ("firmware", True)]


# -- the space it needs ------------------------------------------------------------

@pytest.mark.parametrize("size, expected", [
    (0, 1),            # an empty file: its metadata block only
    (1, 2),
    (BLOCK - 1, 2),
    (BLOCK, 2),        # exactly one block of data
    (BLOCK + 1, 3),    # one byte more needs a second data block
    (3 * BLOCK, 4),
])
def test_a_file_takes_its_data_rounded_up_to_whole_blocks_plus_one(size, expected):
    assert blocks(size, BLOCK) == expected


def test_space_needed_counts_whole_blocks_and_what_is_replaced_or_removed():
    b = built(engine__rules=BLOCK + 1)                  # 3 blocks
    board = Flash(files={"lib/engine/rules.mpy": (10, "old"),        # 2 blocks freed
                         "lib/engine/gone.mpy": (BLOCK, None)},      # 2 blocks freed
                  dirs=("lib", "lib/engine", "lib/firmware"), free=10 ** 6, block=BLOCK)
    todo = plan(b, board)
    assert todo.copy == ["config.json", "lib/engine/rules.mpy", "main.py"]
    # 2 spare + config 2 + rules 3 - old rules 2 + main 2 - gone 2
    assert space_needed(b, board, todo) == (2 + 2 + 3 - 2 + 2 - 2) * BLOCK


def test_the_free_space_check_at_its_exact_boundary():
    b = built(**SOME)
    empty = Flash(dirs=(), block=BLOCK)
    need = space_needed(b, empty, plan(b, empty))
    fits = Flash(free=need, block=BLOCK)
    check_space(b, fits, plan(b, fits))                 # exactly enough: goes ahead
    short = Flash(free=need - 1, block=BLOCK)
    with pytest.raises(DeployError, match=r"flash is full \(1 KB more needed"):
        check_space(b, short, plan(b, short))


def test_the_shortfall_is_rounded_up_to_whole_kilobytes():
    b = built(**SOME)
    empty = Flash(dirs=(), block=BLOCK)
    need = space_needed(b, empty, plan(b, empty))
    short = Flash(free=need - 1025, block=BLOCK)        # 1025 bytes short: 2 KB
    with pytest.raises(DeployError, match=r"\(2 KB more needed, %d KB free\)"
                       % ((need - 1025) // 1024)):
        check_space(b, short, plan(b, short))


def test_a_board_that_does_not_say_its_free_space_is_not_refused():
    b = built(**SOME)
    check_space(b, Flash(free=None), plan(b, Flash(free=None)))


def test_the_probe_output_is_read_back_into_a_flash():
    lines = ["garbage", "('I', 0x0206, 'micropython', '1.24.0', 'rp2')",
             "('S', 800000, 4096)", "('D', 'lib')",
             "('F', 'main.py', 32, 'abc')", "('F', 'a b.txt', 5, None)", "(broken"]
    flash = Flash.parse(lines)
    assert flash.mpy == (6, 2) and flash.name == "micropython" and flash.release == "1.24.0"
    assert flash.free == 800000 and flash.block == 4096 and flash.dirs == {"lib"}
    assert flash.files == {"main.py": (32, "abc"), "a b.txt": (5, None)}
    assert flash.romfs == 0 and flash.romfs_image is None        # no 'R' line: no partition


def test_the_probe_reads_a_romfs_partition_and_the_image_in_it():
    flash = Flash.parse(["('R', 262144, 'ab12')"])
    assert flash.romfs == 262144 and flash.romfs_image == "ab12"
    for line in ("('R', 0, None)", "('R', -19, None)", "('R', 'x', None)"):
        assert Flash.parse([line]).romfs == 0, line


# -- a board with a ROMFS partition ---------------------------------------------------

def test_with_romfs_only_main_and_config_are_copied_and_lib_packages_removed():
    b = built(**SOME)
    old = flash_of(built(engine__rules=1, firmware__board=2))
    todo = plan(b, old, romfs=True)
    assert todo.copy == [] and todo.unchanged == ["config.json", "main.py"], todo.copy
    assert todo.mkdirs == []
    assert todo.remove == [("lib/engine", True), ("lib/firmware", True)]
    # without a copy in lib/ there is nothing to remove, and nothing to make
    fresh = plan(b, Flash(free=10 ** 6), romfs=True)
    assert fresh.copy == ["config.json", "main.py"] and fresh.remove == [] and fresh.mkdirs == []


def test_with_romfs_a_root_package_that_would_shadow_it_is_still_removed():
    b = built(**SOME)
    board = Flash(files={"firmware/board.py": (9, "x")}, dirs={"firmware"}, free=10 ** 6)
    assert plan(b, board, romfs=True).remove == [("firmware", True)]
