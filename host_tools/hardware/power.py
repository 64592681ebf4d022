"""The power budget of the LED strip: every figure the docs and firmware/pins.py
quote, worked out from the supply's rating in one place (docs/hardware.md,
"Power budget"). Pure arithmetic.
"""

# --- Power budget ----------------------------------------------------------

# WS2812B: about 20 mA per colour channel at 255, about 1 mA per LED when dark
# (Worldsemi WS2812B datasheet; the Adafruit NeoPixel Uberguide budgets 60 mA
# per pixel at full white). BOARD_MA is an allowance for the Pico running
# MicroPython (tens of mA, Pico datasheet power chapter), the 74AHCT125's extra
# supply current with a 3.3 V input, and the sensing pull-ups.
LED_MA_PER_CHANNEL = 20
LED_IDLE_MA = 1
CHANNELS = 3
BOARD_MA = 50
DERATE_PERCENT = 80  # plan to 80 % of a supply's rating
USB_LIMIT_MA = 500   # USB 2.0 port after configuration
SUPPLY_2A_MA = 2000


def budget_ma(limit_ma):
    """The current we plan to: a supply's rating less a 20 % margin."""
    return limit_ma * DERATE_PERCENT // 100


def fixed_ma(count):
    """Current drawn whatever the frame: dark LEDs plus the board itself."""
    return count * LED_IDLE_MA + BOARD_MA


def worst_frame_ma(count, cap):
    """Worst frame: every LED full white, each channel at the cap."""
    return fixed_ma(count) + count * CHANNELS * LED_MA_PER_CHANNEL * cap / 255.0


def max_cap(limit_ma, count):
    """Largest 8-bit channel cap whose worst frame stays within the budget."""
    spare = budget_ma(limit_ma) - fixed_ma(count)
    cap = spare * 255 // (count * CHANNELS * LED_MA_PER_CHANNEL)
    return max(0, min(255, cap))


def channel_sum_max(limit_ma, count):
    """Largest sum of all channel values in one frame that fits the budget.

    The light module can scale any frame down to this, so a frame stays in
    budget even when config.json raises the brightness cap.
    """
    spare = budget_ma(limit_ma) - fixed_ma(count)
    return max(0, spare * 255 // LED_MA_PER_CHANNEL)


def power_figures(count):
    """Every number the docs and firmware/pins.py quote, from one place."""
    figures = {}
    for name, limit in (("usb", USB_LIMIT_MA), ("2a", SUPPLY_2A_MA)):
        cap = max_cap(limit, count)
        figures[name] = {
            "limit_ma": limit, "budget_ma": budget_ma(limit), "cap": cap,
            "worst_ma": worst_frame_ma(count, cap),
            "channel_sum_max": channel_sum_max(limit, count),
        }
    figures["uncapped_ma"] = worst_frame_ma(count, 255)
    return figures

