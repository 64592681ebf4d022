# The Senet board's MicroPython: RPI_PICO with a ROMFS partition (mpconfigboard.h).
set(PICO_BOARD "pico")
set(PICO_PLATFORM "rp2040")
