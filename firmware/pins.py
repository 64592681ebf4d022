# GENERATED from hardware/pinmap.json by `python -m host_tools.hardware generate`.
# Do not edit: change hardware/pinmap.json, regenerate, and commit both.
"""Default pin map and power-budget numbers of the Senet board.

The wiring, the scan order and the arithmetic behind these numbers are in
docs/hardware.md. Plain data, so it runs on MicroPython and CPython alike.
"""

PINMAP = {
    "scanner": "matrix",
    "pins": {
        "matrix_rows": [2, 3, 4, 5, 6, 7],
        "matrix_cols": [8, 9, 10, 11, 12],
        "sr_load": 13,
        "sr_clock": 14,
        "sr_data": 15,
        "led": 16,
        "button": 17,
    },
    "leds": {
        "count": 36,
        "order": "GRB",
        "squares": 30,
        "sticks": 30,
        "side_black": 34,
        "side_white": 35,
    },
}

# Matrix scan: wait this long after pulling a row low before reading columns.
MATRIX_SETTLE_US = 50
# 74HC165 chain: hold SH/LD low and each clock level at least this long.
SR_PULSE_US = 1
# Bits shifted out of the 74HC165 chain per scan (inputs 31 and 32 unused).
SR_BITS = 32

# Power budget of a 36-LED strip (docs/hardware.md, "Power budget").
LED_MA_PER_CHANNEL = 20
LED_IDLE_MA = 1
BOARD_MA = 50
# On USB (500 mA less a 20 % margin): the default cap, and the largest sum of
# all channel values of one frame that stays within the budget.
BUDGET_MA = 400
BRIGHTNESS_CAP = 37
FRAME_CHANNEL_SUM_MAX = 4003
# On a 5 V 2 A supply (2000 mA less a 20 % margin).
BUDGET_MA_2A = 1600
BRIGHTNESS_CAP_2A = 178
FRAME_CHANNEL_SUM_MAX_2A = 19303
