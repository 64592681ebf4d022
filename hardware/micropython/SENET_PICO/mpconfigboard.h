// The Senet board's MicroPython: a Raspberry Pi Pico (RPI_PICO) whose flash
// keeps a ROMFS partition for the engine and firmware, which then run in
// place instead of being copied into the heap (docs/deploy.md, "A MicroPython
// with a ROMFS partition"). The rp2 port puts the partition just below the
// flash file system, so the file system gives up what the partition takes:
//
//   0 KB     MicroPython itself, 640 KB as on RPI_PICO
//   640 KB   ROMFS, 256 KB (the firmware's image is about 103 KB)
//   896 KB   the flash file system, 1152 KB (main.py, config.json, the game)
//
// Flashing this MicroPython over the stock one moves the file system, so the
// board starts with an empty one: deploy again afterwards.
#define MICROPY_HW_BOARD_NAME                   "Raspberry Pi Pico (Senet board, ROMFS)"
#define MICROPY_HW_ROMFS_BYTES                  (256 * 1024)
#define MICROPY_HW_FLASH_STORAGE_BYTES          (1408 * 1024 - MICROPY_HW_ROMFS_BYTES)
