"""The CircuitPython strip (firmware/hal_cp.py's Strip) compares each frame
with the last one sent, byte by byte, and sends only a changed one: a change
in the red, the green or the blue of one LED alone must still be sent, with
its bytes in the strip's GRB order on the wire (the fakes' neopixel_write
keeps them). Played in a child CPython with Adafruit's real NeoPixel library
from a drive filled by ``deploy --circuitpython`` (tests/cp/game_cp.py)."""

from cphelp import filled_drive, play


def test_a_change_in_one_colour_channel_alone_is_sent(tmp_path):
    drive = filled_drive(tmp_path / "CIRCUITPY", {})
    assert play(drive, "strip")["sent"] == 9      # 3 LEDs x 3 channels
