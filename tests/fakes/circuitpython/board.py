"""A fake of CircuitPython's ``board`` module: the pin names printed on the
board, each one of ``microcontroller.pin``'s RP2040 pins.

Which board it is comes from ``_cpworld.board_id`` when this module is first
imported (the tables are those of CircuitPython's ports/raspberrypi/boards/
*/pins.c): "raspberry_pi_pico" (GP0..GP28, LED), "adafruit_feather_rp2040"
or "adafruit_kb2040".
"""

import _cpworld
import microcontroller

_P = microcontroller.pin

_BOARDS = {
    "raspberry_pi_pico": dict([("GP%d" % n, "GPIO%d" % n) for n in range(29) if n not in (23, 24)]
                              + [("LED", "GPIO25"), ("A0", "GPIO26"), ("A1", "GPIO27"),
                                 ("A2", "GPIO28")]),
    "adafruit_feather_rp2040": {
        "A0": "GPIO26", "A1": "GPIO27", "A2": "GPIO28", "A3": "GPIO29", "D24": "GPIO24",
        "D25": "GPIO25", "SCK": "GPIO18", "MOSI": "GPIO19", "MISO": "GPIO20", "D0": "GPIO1",
        "RX": "GPIO1", "D1": "GPIO0", "TX": "GPIO0", "D4": "GPIO6", "SDA": "GPIO2",
        "SCL": "GPIO3", "D5": "GPIO7", "D6": "GPIO8", "D9": "GPIO9", "D10": "GPIO10",
        "D11": "GPIO11", "D12": "GPIO12", "D13": "GPIO13", "LED": "GPIO13",
        "NEOPIXEL": "GPIO16"},
    "adafruit_kb2040": dict([("D%d" % n, "GPIO%d" % n) for n in range(14)]
                            + [("A0", "GPIO26"), ("A1", "GPIO27"), ("A2", "GPIO28"),
                               ("A3", "GPIO29"), ("SCK", "GPIO18"), ("MOSI", "GPIO19"),
                               ("MISO", "GPIO20"), ("TX", "GPIO0"), ("RX", "GPIO1"),
                               ("BUTTON", "GPIO11"), ("SDA", "GPIO12"), ("SCL", "GPIO13"),
                               ("NEOPIXEL", "GPIO17")]),
}

board_id = _cpworld.board_id
for _name, _gpio in _BOARDS[board_id].items():
    globals()[_name] = getattr(_P, _gpio)
