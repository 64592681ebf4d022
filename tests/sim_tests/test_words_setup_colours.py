"""The setup words name the colour that goes on each square.

Kendall sets black on the odd squares, the Hungarian ruleset on the even
ones (K2, H2), and the kiosk hides "How to play", so "Put pieces on squares
1, 2, 3..." let a visitor set the wrong layout. The words now say which
colour goes where and which light shows it (firmware/lights.py: blue for
black, yellow for white), and, once pieces stand, that the board cannot see
colours, so the visitor checks them.
"""

import pytest

from firmware.app import App
from host_tools.sim.board import Sim
from host_tools.words import explain as ex

from test_sim_words import LANGS, sentences

COLOUR_WORDS = {     # language: (black, blue light, white, yellow light)
    "en": ("black", "blue", "white", "yellow"),
    "hu": ("fekete", "kék", "fehér", "sárg"),      # stems: sárgán, sárga
    "ru": ("чёрн", "син", "бел", "жёлт"),
}


EMPTY = "." * 30 + " W"


def sim_of(ruleset):
    return Sim(config={"ruleset": ruleset}, app_factory=lambda **kw: App(**kw))


def told(sim):
    return sim.snapshot()["explain"]


@pytest.mark.parametrize("ruleset, black, white", [
    ("kendall", [1, 3, 5, 7, 9], [2, 4, 6, 8, 10]),          # K2
    ("hungarian", [2, 4, 6, 8, 10], [1, 3, 5, 7, 9]),        # H2
])
def test_an_empty_board_is_told_where_black_and_where_white_go(ruleset, black, white):
    sim = sim_of(ruleset)
    sim.arrange(EMPTY)                        # every piece in its tray
    sim.advance(1000)                         # the setup check has looked at the board
    said = told(sim)
    assert said["kind"] == "setup"
    assert ["do.put_on.B", {"squares": black}] in said["instruction"], said
    assert ["do.put_on.W", {"squares": white}] in said["instruction"], said
    assert not any(key == "do.put_on" for key, _ in said["instruction"])


def test_pieces_already_standing_are_to_be_checked_for_colour():
    """Hungarian, black on 1 and white on 2, the issue's swapped pair: the
    switches feel two pieces where two belong."""
    sim = sim_of("hungarian")
    sim.arrange("BW" + "." * 28 + " W")
    sim.advance(1000)
    said = told(sim)
    assert ["do.check_colours", {}] in said["instruction"], said
    assert ["do.put_on.B", {"squares": [4, 6, 8, 10]}] in said["instruction"]
    assert ["do.put_on.W", {"squares": [3, 5, 7, 9]}] in said["instruction"]


def test_without_a_position_the_words_stay_general():
    """A mirror that has heard no position yet says what it can."""
    story = ex.Story()
    said = ex.explain({"state": "setup", "roles": ["put"] * 10 + [""] * 20}, story)
    assert said["instruction"] == [["do.put_on", {"squares": list(range(1, 11))}]]


def test_a_takeback_names_the_colour_of_the_piece_to_put_back():
    story = ex.Story()
    story.event({"event": "undo", "side": "W", "move": "10-11", "throw": 1,
                 "position": "BWBWBWBWBW.................... W"})
    roles = ["setup"] * 9 + ["put", "take"] + [""] * 19
    said = ex.explain({"state": "takeback", "roles": roles}, story)
    assert ["do.take_off", {"squares": [11]}] in said["instruction"]
    assert ["do.put_on.W", {"squares": [10]}] in said["instruction"]


def forms(template):
    return list(template.values()) if isinstance(template, dict) else [template]


@pytest.mark.parametrize("lang", LANGS)
def test_every_language_names_the_piece_and_its_light(lang):
    words = sentences(lang)
    black, blue, white, yellow = COLOUR_WORDS[lang]
    for text in forms(words["do.put_on.B"]):
        assert black in text and blue in text and "{squares}" in text, text
    for text in forms(words["do.put_on.W"]):
        assert white in text and yellow in text and "{squares}" in text, text
    check = words["do.check_colours"]
    assert black in check and blue in check and white in check and yellow in check


def test_the_show_mirror_lights_the_setup_squares_in_their_colours():
    """`senet-board show` draws the board's lights from its reported roles:
    the same colours per square as the board itself."""
    import json
    from host_tools.board.show import Mirror
    mirror = Mirror("/dev/ttyACM0")
    mirror.line(json.dumps({"event": "setup", "extra": [], "missing": list(range(1, 11)),
                            "position": "BWBWBWBWBW.................... W"}).encode())
    mirror.line(json.dumps({"event": "state", "state": "setup", "turn": "W", "throw": None,
                            "roles": ["put"] * 10 + [""] * 20}).encode())
    assert mirror.led_roles[:10] == ["put_black", "put_white"] * 5
