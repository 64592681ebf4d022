"""The room's code runs on the MicroPython unix port as on CPython: the
same HMAC on RFC 4231's vectors, the same room key and topic, the same
words for a game (a Pico W and a laptop must sign and name alike)."""

import re

from firmware import hmac256
from firmware.room import room_key
from mpyhelp import run_mp_script


def test_the_room_signs_and_names_alike_on_micropython():
    out = run_mp_script("tests/remote_tests/room_on_micropython.py", "256k",
                        args=("kitchen", "our long shared passphrase"), min_passed=5)
    root = re.search(r"ROOT ([0-9a-f]{16})", out).group(1)
    assert root == hmac256.hexdigest(room_key("kitchen", "our long shared passphrase"),
                                     b"topic")[:16]
