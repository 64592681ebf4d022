"""The wiring rules in firmware/pinrules.py: the one source that the firmware's
config check and the laptop's pin map check both ask, so a board the laptop
accepts is a board the firmware accepts."""

import ast
import os

import pytest

from firmware import pinrules
from firmware.config import DEFAULTS, validate
from firmware.pinrules import (extra_leds, gpio_problem, led_problem, pin_clashes,
                               whole, wired_keys)
import paths

ROOT = paths.ROOT


def test_the_rules_import_nothing_so_laptop_tools_can_load_them_anywhere():
    with open(os.path.join(ROOT, "firmware", "pinrules.py")) as f:
        tree = ast.parse(f.read())
    imports = [n for n in ast.walk(tree) if isinstance(n, (ast.Import, ast.ImportFrom))]
    assert imports == []


@pytest.mark.parametrize("gpio", [0, 1, 22, 26, 27, 28, 16.0])
def test_header_gpios_are_pins(gpio):
    assert gpio_problem(gpio) is None


@pytest.mark.parametrize("gpio,why", [
    (23, "reserved on the Pico board for the regulator's power-save control"),
    (24, "reserved on the Pico board for VBUS sensing"),
    (25, "reserved on the Pico board for the on-board LED"),
    (29, "reserved on the Pico board for measuring VSYS"),
    (30, "not a GPIO on the Pico's header"),
    (-1, "not a GPIO on the Pico's header"),
    (True, "not a GPIO number"),
    ("16", "not a GPIO number"),
    (16.5, "not a GPIO number"),
    (None, "not a GPIO number"),
])
def test_other_numbers_are_refused_with_the_reason(gpio, why):
    assert why in gpio_problem(gpio)


def test_whole_numbers():
    assert whole(3) == 3 and whole(3.0) == 3 and type(whole(3.0)) is int
    assert whole(3.5) is None and whole(False) is None and whole("3") is None


def test_only_the_chosen_scanner_pins_are_wired():
    assert wired_keys("matrix") == ("matrix_rows", "matrix_cols", "led", "button")
    assert wired_keys("shift") == ("sr_load", "sr_clock", "sr_data", "led", "button")


def test_a_pin_with_two_jobs_is_named_with_both():
    pins = dict(DEFAULTS["pins"])
    assert pin_clashes("matrix", pins) == []
    assert pin_clashes("shift", pins) == []
    pins["button"] = 4                         # the third matrix row's pin
    assert pin_clashes("matrix", pins) == [(4, "matrix_rows[2]", "button")]
    assert pin_clashes("shift", pins) == []    # the matrix is not wired there
    pins["sr_data"] = 16                       # the LED line
    assert pin_clashes("shift", pins) == [(16, "sr_data", "led")]


def layout(**changes):
    leds = {"count": 36, "squares": 30, "sticks": 30, "side_black": 34, "side_white": 35}
    leds.update(changes)
    return leds


def test_the_extra_leds_in_strip_order():
    assert extra_leds(layout()) == [("sticks", 30), ("sticks+1", 31), ("sticks+2", 32),
                                    ("sticks+3", 33), ("side_black", 34), ("side_white", 35)]


def test_the_default_layout_fits_exactly():
    assert led_problem(layout()) is None


def test_an_extra_led_at_the_end_of_the_strip_fits_and_one_past_it_does_not():
    assert led_problem(layout(count=40, side_white=39)) is None
    assert led_problem(layout(count=40, side_white=40)) == ("side_white", 40, "past the end")


def test_an_extra_led_right_after_the_squares_fits_and_one_on_a_square_does_not():
    assert led_problem(layout(count=40, sticks=36, side_black=30, side_white=31)) is None
    assert led_problem(layout(count=40, sticks=36, side_black=29, side_white=31)) == (
        "side_black", 29, "square 30")


def test_two_extra_leds_on_one_led():
    assert led_problem(layout(side_black=33)) == ("side_black", 33, "sticks+3")
    assert led_problem(layout(side_white=34)) == ("side_white", 34, "side_black")


def test_the_firmware_check_follows_the_same_rules():
    # The config check gives the defaults back exactly when a rule fails.
    for gpio in range(-1, 31):
        cfg, messages = validate({"pins": {"button": gpio}})
        fine = gpio_problem(gpio) is None and not pin_clashes(
            "matrix", dict(DEFAULTS["pins"], button=gpio))
        assert (messages == []) == fine, gpio
        assert cfg["pins"]["button"] == (gpio if fine else DEFAULTS["pins"]["button"])
    for side_white in range(28, 42):
        cfg, messages = validate({"leds": {"count": 40, "side_white": side_white}})
        fine = led_problem(layout(count=40, side_white=side_white)) is None
        assert (messages == []) == fine, side_white


def test_every_pin_key_and_scanner_is_known_to_the_config():
    from firmware.config_base import SCANNERS
    assert set(pinrules.PIN_KEYS) == set(DEFAULTS["pins"])
    assert tuple(sorted(pinrules.SCANNER_PINS)) == SCANNERS
