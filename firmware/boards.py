# GENERATED from hardware/pinmap.json by `python -m host_tools.hardware generate`.
# Do not edit: change hardware/pinmap.json, regenerate, and commit both.
"""Default wiring of RP2040 boards other than the Pico, for CircuitPython.

firmware/hal_cp.py takes the entry of CircuitPython's ``board.board_id``
while config.json leaves the pins at the Pico's defaults
(docs/circuitpython.md). The numbers are the RP2040's GPIOs, checked by the
same pin rules as the Pico's. A module of its own, so that MicroPython, which
loads firmware/pins.py, never holds this table (nor finds it on its flash).
"""

BOARD_PINS = {
    # Adafruit Feather RP2040: GPIO16 is its NeoPixel; 4, 5, 14, 15, 17 are not
    # brought out. Rows D4 D5 D6 D9 D10 D11, columns D12 D13 SCK MOSI MISO, strip
    # A0, button A1; the 74HC165 chain on D4 D5 D6.
    "adafruit_feather_rp2040": {
        "matrix_rows": [6, 7, 8, 9, 10, 11],
        "matrix_cols": [12, 13, 18, 19, 20],
        "sr_load": 6,
        "sr_clock": 7,
        "sr_data": 8,
        "led": 26,
        "button": 27,
    },
    # Adafruit KB2040: GPIO17 is its NeoPixel; 14, 15, 16 are not brought out. Rows
    # D2-D7, columns D8 D9 D10 D12 D13, strip A0, button A1; the 74HC165 chain on D2
    # D3 D4.
    "adafruit_kb2040": {
        "matrix_rows": [2, 3, 4, 5, 6, 7],
        "matrix_cols": [8, 9, 10, 12, 13],
        "sr_load": 2,
        "sr_clock": 3,
        "sr_data": 4,
        "led": 26,
        "button": 27,
    },
}
