"""A capture on the House of Happiness, in words (K11, C6).

White 23-26 with a 3 lands on the lone black piece on 26: the two swap
(C6), black's piece goes back to 23, and white's, having landed on 26, goes
on to 29 (K11). Half way, with white's piece put on 26 and black's still in
the hand, the lights ask for three things at once: ``take`` on 26, ``put``
on 29 (the mover's final square) and ``put`` on 23 (the captured piece's
square). The words must send each piece where its light says, in every
language: the mover on to 29, the captured piece to 23.
"""

import json
import os

from engine.game import Game
from engine.position import Position
from engine.rules import ruleset
from firmware.store import Store
from host_tools.words import explain as ex
from host_tools.sim.board import Sim
import paths

I18N = os.path.join(paths.ROOT,
                    "host_tools", "words", "i18n")

# White on 23 with a 3 to play; a lone black piece on 26, 29 free.
BEFORE = "B.B.B" + "." * 17 + "W..B" + "." * 4 + " W"


def happiness_capture_half_way(tmp_path):
    """The board resumed at BEFORE; white lifts 23, takes black's piece off
    26 into the other hand and puts its own on 26."""
    game = Game(ruleset("kendall"), position=Position.parse(BEFORE))
    game.set_throw(3)
    Store(str(tmp_path)).save(game)
    sim = Sim(config={"ruleset": "kendall"}, store_dir=str(tmp_path), seed=3)
    sim.advance(1000)                         # the setup check: the pieces match
    assert sim.app.state == "move"
    mover = sim.piece_at(23).id
    for step in (lambda: sim.lift(23), lambda: sim.lift(26), lambda: sim.place(26, mover)):
        step()
        sim.advance(150)
    sim.advance(600)
    return sim


def english(sentences):
    with open(os.path.join(I18N, "en.json"), encoding="utf-8") as f:
        words = json.load(f)["text"]
    return " · ".join(words[key].format(**args) for key, args in sentences)


def test_the_mover_goes_on_to_29_and_the_captured_piece_back_to_23(tmp_path):
    sim = happiness_capture_half_way(tmp_path)
    roles = sim.roles
    assert (ex.squares(roles, "take"), ex.squares(roles, "put")) == ([26], [23, 29])
    words = sim.snapshot()["explain"]
    assert words["kind"] == "happiness"
    assert words["instruction"] == [["do.happiness", {"from": 26, "to": 29}],
                                    ["do.capture", {"square": 23}]]
    assert english(words["instruction"]) == (
        "The House of Happiness: take the piece off 26 and put it on 29 · "
        "Put the captured piece on square 23")
    sim.place(23)                             # black's piece back: the carry to 29 is left
    sim.advance(600)
    assert sim.app.state == "move"
    assert sim.snapshot()["explain"]["instruction"] == [["do.happiness", {"from": 26, "to": 29}]]
    sim.lift(26)
    sim.advance(150)
    sim.place(29)
    sim.advance(600)
    with sim.lock:
        assert sim.app.position.startswith("B.B.B" + "." * 17 + "B.....W")


def test_the_words_read_the_lights_whatever_their_order():
    """explain() alone: the carry goes forward from 26 and back from 27, the
    other ``put`` is the captured piece's."""
    story = ex.Story()
    for roles, carry, back in (({26: "take", 23: "put", 29: "put"}, ("do.happiness", 26, 29), 23),
                               ({26: "take", 29: "put", 21: "put"}, ("do.happiness", 26, 29), 21),
                               ({27: "take", 24: "put", 15: "put"}, ("do.water", 27, 15), 24),
                               ({27: "take", 25: "put", 1: "put"}, ("do.water", 27, 1), 25)):
        r = [""] * 30
        for square, role in roles.items():
            r[square - 1] = role
        words = ex.explain({"state": "move", "turn": "W", "throw": 3, "roles": r}, story)
        key, origin, to = carry
        assert words["instruction"] == [[key, {"from": origin, "to": to}],
                                         ["do.capture", {"square": back}]], roles

