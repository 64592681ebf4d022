"""The opening's end in words: who threw the first 1, and which colour they play.

K4 and H4: the players throw in turn, the player at the black light first;
the first to throw a 1 takes the side that starts (white in kendall, black in
hungarian) and moves with that 1. So the player at the *black* light may now
play *white*: the page must say who threw the 1 (the player at which light)
and which colour that player plays from now on, in every language.

Against the computer the colours stay as set (docs/playing.md section 8):
the page then says whether the computer or the person threw the 1, and never
tells the person at the black light that they play white.
"""

import json
import os
import re

from firmware.app import App
from host_tools.words import explain as ex
from host_tools.board.show import Mirror
from host_tools.sim.board import Sim

from board_sim import throws
import paths

I18N = os.path.join(paths.ROOT,
                    "host_tools", "words", "i18n")


def text(lang, sentences):
    """The sentences as the page writes them (host_tools/sim/web/sim.js ``t``),
    for sentences without plural forms."""
    with open(os.path.join(I18N, lang + ".json"), encoding="utf-8") as f:
        words = json.load(f)["text"]
    out = []
    for key, args in sentences:
        template = words[key]
        assert isinstance(template, str), key
        out.append(re.sub(r"\{(\w+)\}", lambda m: str(args[m.group(1)]), template))
    return " · ".join(out)


def opening_sim(*values, ruleset="kendall", config=None):
    """A board whose sticks throw ``values``, its pieces set up, in the opening."""
    rng = throws(*values)
    cfg = dict(config or {}, ruleset=ruleset)
    sim = Sim(config=cfg, app_factory=lambda **kw: App(**dict(kw, rng=rng)))
    sim.advance(1000)                   # the setup check: the opening begins
    assert sim.app.state == "opening"
    return sim


def started(sim, presses):
    """Press for the people's opening throws until one side starts."""
    for _ in range(presses):
        sim.press()
        sim.advance(400)
    assert sim.app.state == "move", sim.app.state
    return sim.snapshot()["explain"]


def test_the_player_at_the_black_light_who_throws_the_first_1_is_told_they_play_white():
    """`senet-board sim --seed 7`: the first throw, at the black light, is a 1."""
    sim = Sim(seed=7)
    sim.advance(1000)
    sim.press()
    sim.advance(400)
    start = [e["data"] for e in sim.log if e["data"].get("event") == "start"]
    assert start == [{"event": "start", "side": "W", "player": 1}]
    words = sim.snapshot()["explain"]
    assert words["kind"] == "start"
    assert words["status"] == [["status.start.W", {"player": 1}],
                               ["status.threw_first.black_light.W", {}]]
    assert text("en", words["status"]) == (
        "White starts, with the first 1 · "
        "Player at the black light: you threw it, so you play white")
    assert text("hu", words["status"]) == (
        "Fehér kezd, az első 1-essel · "
        "A fekete fénynél ülő játékos: te dobtad, így te játszol fehérrel")
    assert text("ru", words["status"]) == (
        "Начинают белые, с первой единицы · "
        "Игрок у чёрного огонька: это ваша единица, вы играете белыми")


def test_every_light_and_colour_is_named_as_it_happened():
    """Both lights, both rulesets: kendall's first 1 plays white (K4),
    hungarian's black (H4)."""
    cases = [((1,), "kendall", "black_light.W"), ((2, 1), "kendall", "white_light.W"),
             ((1,), "hungarian", "black_light.B"), ((3, 1), "hungarian", "white_light.B")]
    said = set()
    for values, ruleset, seat in cases:
        words = started(opening_sim(*values, ruleset=ruleset), len(values))
        assert words["status"][1] == ["status.threw_first." + seat, {}], (values, ruleset)
        for lang in ("en", "hu", "ru"):
            said.add(text(lang, words["status"][1:]))
    assert len(said) == 12              # four different sentences in each language


def test_the_words_follow_the_events_not_the_side_that_starts():
    """The same start read from the serial line (`senet-board show`)."""
    mirror = Mirror("/dev/null")
    for event in ({"event": "ready", "position": "BWBWBWBWBW.................... W"},
                  {"event": "throw", "side": None, "player": 1, "value": 2, "opening": True},
                  {"event": "throw", "side": None, "player": 2, "value": 1, "opening": True},
                  {"event": "start", "side": "W", "player": 2},
                  {"event": "state", "state": "move", "turn": "W", "throw": 1,
                   "roles": ["movable" if s in (2, 4, 6, 8, 10) else "" for s in range(1, 31)]}):
        mirror.line(json.dumps(event).encode())
    words = mirror.snapshot()["explain"]
    assert words["status"] == [["status.start.W", {"player": 2}],
                               ["status.threw_first.white_light.W", {}]]


def test_a_start_without_its_player_names_only_the_side():
    """An event from a board that does not say which player threw: no guess."""
    story = ex.Story()
    story.event({"event": "start", "side": "B"})
    words = ex.explain({"state": "move", "turn": "B", "throw": 1, "roles": [""] * 30}, story)
    assert words["status"] == [["status.start.B", {"player": None}]]
    assert text("en", words["status"]) == "Black starts, with the first 1"


def test_against_the_computer_the_colours_stay_and_the_thrower_is_named():
    """The computer plays black, so it throws at the black light (player 1);
    its first 1 lets white, the person, start (K4). Playing white, the
    computer sits at the white light; the person's first 1 at the black
    light lets the computer's white start, and the person still plays black."""
    computer_b = {"mode": "computer", "computer": {"side": "B", "level": 1}}
    sim = opening_sim(1, config=computer_b)
    sim.advance(1500)                   # the computer throws after a second at rest
    words = sim.snapshot()["explain"]
    assert words["status"] == [["status.start.W", {"player": 1}],
                               ["status.threw_first.computer", {}]]
    assert text("en", words["status"]) == "White starts, with the first 1 · The computer threw it"

    computer_w = {"mode": "computer", "computer": {"side": "W", "level": 1}}
    words = started(opening_sim(1, config=computer_w), 1)
    assert words["status"] == [["status.start.W", {"player": 1}],
                               ["status.threw_first.you", {}]]
    assert text("en", words["status"]) == "White starts, with the first 1 · You threw it"


def test_the_mirror_of_a_computer_board_knows_its_mode_from_the_hello():
    """A real board says its mode when `show` connects; the person's first 1
    at the black light then is not told that they play white."""
    mirror = Mirror("/dev/null")
    for event in ({"event": "hello", "version": "1", "ruleset": "kendall", "mode": "computer"},
                  {"event": "ready", "position": "BWBWBWBWBW.................... W"},
                  {"event": "throw", "side": None, "player": 1, "value": 1, "opening": True},
                  {"event": "start", "side": "W", "player": 1}):
        mirror.line(json.dumps(event).encode())
    assert mirror.snapshot()["explain"]["status"] == [["status.start.W", {"player": 1}],
                                                      ["status.threw_first.you", {}]]
