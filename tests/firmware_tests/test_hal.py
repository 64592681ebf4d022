"""hal.py, the hardware edge, against the fake machine and neopixel modules."""

import os
import re
import sys

import pytest

import paths

HERE = paths.TESTS
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(HERE, "fakes"))

import machine  # noqa: E402  (tests/fakes/machine.py)
import neopixel  # noqa: E402  (tests/fakes/neopixel.py)

from firmware import hal  # noqa: E402
from firmware.config import validate  # noqa: E402
from firmware.lights import Lights  # noqa: E402
from firmware.scan import MatrixScanner, Shift165Scanner  # noqa: E402


@pytest.fixture
def board():
    machine.board.reset()
    neopixel.reset()
    return machine.board


def sq(*squares):
    return sum(1 << (s - 1) for s in squares)


def test_the_fakes_are_the_ones_in_use():
    assert machine.__file__.startswith(os.path.join(HERE, "fakes"))
    assert neopixel.__file__.startswith(os.path.join(HERE, "fakes"))


def test_hal_builds_a_matrix_scanner_that_reads_the_fake_board(board):
    config, _ = validate({})
    pins = config["pins"]
    board.wire_matrix(pins["matrix_rows"], pins["matrix_cols"])
    hw = hal.build(config)
    assert isinstance(hw.scanner, MatrixScanner)
    board.place(*range(1, 11))
    assert hw.scanner.scan() == sq(*range(1, 11))
    board.lift(10)
    board.place(13)
    assert hw.scanner.scan() == sq(*range(1, 10), 13)


def test_matrix_pins_are_set_up_as_the_build_guide_says(board):
    config, _ = validate({})
    hal.make_scanner(config)
    for n in config["pins"]["matrix_rows"]:
        pin = board.pins[n]
        assert pin._mode == machine.Pin.OPEN_DRAIN and pin._pull == machine.Pin.PULL_UP
        assert pin._out == 1                 # released: an idle row is an input
    for n in config["pins"]["matrix_cols"]:
        pin = board.pins[n]
        assert pin._mode == machine.Pin.IN and pin._pull == machine.Pin.PULL_UP


def test_hal_builds_a_74hc165_scanner_on_its_three_pins(board):
    config, messages = validate({"scanner": "shift", "pins": {"sr_load": 20, "sr_clock": 21,
                                                              "sr_data": 22}})
    assert messages == []
    board.wire_shift165(20, 21, 22)
    hw = hal.build(config)
    assert isinstance(hw.scanner, Shift165Scanner)
    assert board.output(20) == 1 and board.output(21) == 0
    board.place(1, 15, 30)
    assert hw.scanner.scan() == sq(1, 15, 30)


def test_the_button_reads_pressed_when_its_pin_is_pulled_low(board):
    config, _ = validate({"pins": {"button": 22}})
    pressed = hal.make_button(config)
    assert board.pins[22]._pull == machine.Pin.PULL_UP
    assert pressed() is False                # pull-up: not pressed
    board.set_input(22, 0)
    assert pressed() is True
    board.set_input(22, 1)
    assert pressed() is False


def test_the_strip_is_written_only_when_the_frame_changes(board):
    config, _ = validate({})
    strip = hal.make_strip(config)
    np = neopixel.strips[-1]
    assert np.n == 36 and np.pin.id == 16
    lights = Lights(config["leds"], config["brightness_cap"])
    roles = ["movable"] * 3 + [""] * 33
    assert strip.write(lights.render(0, roles)) is True
    assert strip.write(lights.render(100, roles)) is False     # steady: nothing sent
    assert strip.write(lights.render(200, roles)) is False
    assert len(np.writes) == 1 and strip.writes == 1
    roles[10] = "target"
    assert strip.write(lights.render(300, roles)) is True
    assert len(np.writes) == 2
    assert np.colours()[10] == lights.frame[10]


def test_the_first_frame_is_sent_even_when_dark(board):
    config, _ = validate({})
    strip = hal.make_strip(config)
    assert strip.write([(0, 0, 0)] * 36) is True
    assert strip.write([(0, 0, 0)] * 36) is False
    assert len(neopixel.strips[-1].writes) == 1


def test_the_strip_sends_the_colour_order_the_leds_expect(board):
    config, _ = validate({})
    strip = hal.make_strip(config)                # GRB, as WS2812B
    frame = [(0, 0, 0)] * 36
    frame[0] = (10, 20, 30)
    strip.write(frame)
    assert neopixel.strips[-1].writes[-1][:3] == bytes([20, 10, 30])
    config, _ = validate({"leds": {"order": "RGB"}})
    strip = hal.make_strip(config)
    strip.write(frame)
    assert neopixel.strips[-1].writes[-1][:3] == bytes([10, 20, 30])


def test_a_blinking_role_writes_on_each_change_only(board):
    config, _ = validate({})
    strip = hal.make_strip(config)
    lights = Lights(config["leds"], config["brightness_cap"])
    roles = ["error"] + [""] * 35             # 2 Hz: on 250 ms, off 250 ms
    sent = sum(strip.write(lights.render(t, roles)) for t in range(0, 2000, 10))
    assert sent == 8                          # the first frame and 7 on/off changes


def test_strip_off_sends_a_dark_frame(board):
    config, _ = validate({})
    strip = hal.make_strip(config)
    strip.write([(5, 5, 5)] * 36)
    strip.off()
    assert neopixel.strips[-1].writes[-1] == bytes(108)


def test_the_watchdog_is_started_and_fed(board):
    dog = hal.watchdog(8000)
    assert board.watchdog is dog and dog.timeout == 8000
    dog.feed()
    assert dog.feeds == 1
    assert hal.watchdog(20000).timeout == 8388     # the RP2040's longest
    quiet = hal.watchdog(None)
    quiet.feed()                                   # does nothing, never fails


def test_reset_and_unique_id(board):
    with pytest.raises(machine.Reset):
        hal.reset()
    assert board.resets == 1
    uid = hal.unique_id()
    assert re.fullmatch(r"[0-9a-f]{16}", uid)


def test_time_helpers_work_off_the_pico_too():
    a = hal.ticks_ms()
    hal.sleep_ms(2)
    b = hal.ticks_ms()
    assert hal.ticks_diff(b, a) >= 1
    assert hal.ticks_add(a, 5) == a + 5


def test_only_hal_imports_machine_or_neopixel():
    folder = os.path.join(ROOT, "firmware")
    for name in sorted(os.listdir(folder)):
        if not name.endswith(".py") or name == "hal.py":
            continue
        source = open(os.path.join(folder, name)).read()
        found = re.findall(r"^\s*(?:import|from)\s+(machine|neopixel)\b", source, re.M)
        if name == "hal_cp.py":          # CircuitPython's edge: Adafruit's neopixel only
            found = [m for m in found if m != "neopixel"]
        assert not found, "%s imports %s" % (name, found)
