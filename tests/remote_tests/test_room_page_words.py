"""The page of a board in a room names its opponent as a player far away,
never "the computer": the remote side sits in the App's computer seat, so
the App's `new` event reports it as the computer's, but the `remote`
events and the throws `"by": "remote"` (docs/protocol.md) tell the page it
is in a room. The opponent away and back, and two boards on different
rules, are said in words, in all three languages.

The Story is fed the events as the page (`sim --room`) and the mirror of a
board in a room (`show`) receive them.
"""

import json
import os
import re

from host_tools.words import I18N_DIR, LANGUAGES
from host_tools.words import explain as ex

COMPUTER = {"en": "computer", "hu": "gép", "ru": "компьютер"}
FAR = {"en": "far away", "hu": "távoli", "ru": "удалённ"}


def sentences(lang):
    with open(os.path.join(I18N_DIR, lang + ".json"), encoding="utf-8") as f:
        return json.load(f)["text"]


def board(state, turn="B", throw=None, roles=None):
    r = [""] * 30
    for square, role in (roles or {}).items():
        r[square - 1] = role
    return {"state": state, "turn": turn, "throw": throw, "roles": r, "mode": "two_players"}


def room_story(*events):
    """The page of the white seat: the room joined, a new game whose App
    reports black as the computer's seat, then ``events``."""
    story = ex.Story()
    for event in ({"event": "remote", "what": "joined", "side": "B"},
                  {"event": "new", "ruleset": "kendall", "mode": "two_players",
                   "position": "BWBWBWBWBW.................... W", "computer": "B"}) + events:
        story.event(event)
    return story


def keys(words):
    return [k for k, args in words["status"] + words["instruction"]]


def test_the_remote_throw_and_move_are_the_far_opponents_not_the_computers():
    story = room_story({"event": "throw", "side": "B", "value": 3, "sticks": [1, 1, 1, 0],
                        "by": "remote"})
    words = ex.explain(board("move", "B", 3, {10: "computer_from", 13: "computer_to"}), story)
    assert words["status"] == [["status.remote_threw", {"value": 3}]]
    assert words["instruction"] == [["do.remote", {"value": 3, "from": 10, "to": 13}]]
    off = ex.explain(board("move", "B", 3, {28: "computer_from"}), story)
    assert off["instruction"] == [["do.remote_off", {"value": 3, "from": 28}]]
    story.event({"event": "move", "side": "B", "move": "10-13",
                 "after": "BWBWBWBWBW.................... W"})
    throw = ex.explain(board("throw", "B"), story)
    assert throw["instruction"] == [["do.remote_throws.B", {}]]
    assert not [k for k in keys(words) + keys(off) + keys(throw) if "computer" in k]


def test_the_opening_throw_of_the_far_opponent_is_theirs():
    story = room_story({"event": "throw", "side": None, "player": 1, "value": 1,
                        "sticks": [1, 0, 0, 0], "opening": True, "by": "remote"},
                       {"event": "start", "side": "B", "player": 1})
    words = ex.explain(board("move", "B", 1, {10: "computer_from", 11: "computer_to"}), story)
    assert ["status.threw_first.remote", {}] in words["status"]
    assert not [k for k in keys(words) if "computer" in k]


def test_a_board_in_a_room_is_known_from_its_first_remote_throw():
    """A mirror opened after the room was joined sees no `joined`: the first
    throw by the remote side tells it."""
    story = ex.Story()
    story.event({"event": "throw", "side": "W", "value": 2, "sticks": [1, 1, 0, 0],
                 "by": "remote"})
    words = ex.explain(board("move", "W", 2, {12: "computer_from", 14: "computer_to"}), story)
    assert words["instruction"] == [["do.remote", {"value": 2, "from": 12, "to": 14}]]


def test_the_opponent_away_and_back_in_words():
    story = room_story()
    story.event({"event": "remote", "what": "away", "side": "B", "message": "opponent away"})
    away = ex.explain(board("throw", "B"), story)
    assert ["status.remote_away", {}] in away["status"]
    assert away["kind"] == "away" and away["instruction"] == [["do.remote_away", {}]]
    mine = ex.explain(board("throw", "W"), story)          # no throw on either board
    assert mine["instruction"] == [["do.remote_away", {}]]
    story.event({"event": "remote", "what": "back", "side": "B"})
    back = ex.explain(board("throw", "W"), story)
    assert ["status.remote_back", {}] in back["status"]
    assert back["instruction"] == [["do.throw.W", {}]]
    story.event({"event": "throw", "side": "W", "value": 2, "sticks": [1, 1, 0, 0]})
    assert "status.remote_back" not in keys(ex.explain(board("move", "W", 2), story))


def test_this_board_offline_is_said_and_ends_when_the_room_is_joined_again():
    story = room_story({"event": "remote", "what": "offline"})
    words = ex.explain(board("throw", "W"), story)
    assert ["status.remote_offline", {}] in words["status"]
    assert words["instruction"] == [["do.remote_away", {}]]
    story.event({"event": "remote", "what": "joined", "side": "B"})
    assert "status.remote_offline" not in keys(ex.explain(board("throw", "W"), story))


def test_two_boards_on_different_rules_are_told_which_and_what_to_do():
    message = ("the other board plays hungarian and this one kendall: set both to the "
               "same rules; no throw until they agree")
    story = ex.Story()
    story.event({"event": "remote", "what": "rules", "message": message})
    words = ex.explain(board("opening", "B"), story)
    assert words["kind"] == "rules"
    assert ["status.remote_rules", {"theirs": "hungarian", "ours": "kendall"}] in words["status"]
    assert words["instruction"] == [["do.remote_rules", {}]]
    story.event({"event": "new", "ruleset": "hungarian", "mode": "two_players",
                 "position": "WBWBWBWBWB.................... B", "computer": "B"})
    assert "status.remote_rules" not in keys(ex.explain(board("opening", "B"), story))


def picked_keys(pattern=r"(?:status|do)\.[a-z_.]+"):
    """The sentence keys the words modules can pick (explain.py and the
    modules of the opponents in the computer's seat), ".B" and ".W" added
    where a side is."""
    picked = set()
    for name in ("explain.py", "museum.py", "remote.py"):
        with open(os.path.join(os.path.dirname(ex.__file__), name), encoding="utf-8") as f:
            for key in re.findall('"(%s)"' % pattern, f.read()):
                picked |= {key + "B", key + "W"} if key.endswith(".") else {key}
    return picked


def test_every_key_the_words_modules_pick_is_translated():
    picked = picked_keys()
    assert {"status.board_plays.B", "do.board", "do.remote", "do.computer"} <= picked
    for lang in LANGUAGES:
        assert sorted(picked - set(sentences(lang))) == [], lang


def test_every_room_sentence_is_in_every_language_and_never_says_computer():
    story = room_story()
    picked = picked_keys(r"(?:status|do)\.[a-z_.]*remote[a-z_.]*")
    assert len(picked) >= 10, sorted(picked)
    for lang in LANGUAGES:
        text = sentences(lang)
        missing = sorted(picked - set(text))
        assert missing == [], (lang, missing)
        for key in picked:
            said = json.dumps(text[key], ensure_ascii=False).lower()
            assert COMPUTER[lang] not in said, (lang, key, said)
        for key in ("do.remote", "status.remote_away", "do.remote_throws.B"):
            assert FAR[lang] in text[key].lower(), (lang, key, text[key])
    assert story.far.room


def test_show_of_a_board_that_link_runs_names_the_far_opponent():
    """`senet-board show` mirrors a USB board in a room: its serial line
    carries the `room` event of its join, the App's `new` (the remote seat
    reported as the computer's), the far side's throw and the state."""
    from host_tools.board.show import Mirror
    mirror = Mirror("/dev/null")
    roles = [""] * 30
    roles[9], roles[12] = "computer_from", "computer_to"
    for event in (
            {"event": "room", "what": "joined", "side": "W",
             "topics": ["senet/ff31e85c0546fc9f/#"], "will": ["senet/ff31e85c0546fc9f/hello/W", "x"]},
            {"event": "new", "ruleset": "kendall", "mode": "two_players",
             "position": "BWBWBWBWBW.................... W", "computer": "B"},
            {"event": "throw", "side": "B", "value": 3, "sticks": [1, 1, 1, 0], "by": "remote"},
            {"event": "state", "position": "BWBWBWBWBW.................... B", "ruleset": "kendall",
             "state": "move", "turn": "B", "throw": 3, "sticks": [1, 1, 1, 0], "roles": roles}):
        mirror.line(json.dumps(event).encode())
    words = mirror.snapshot()["explain"]
    assert words["status"] == [["status.remote_threw", {"value": 3}]]
    assert words["instruction"] == [["do.remote", {"value": 3, "from": 10, "to": 13}]]
    mirror.line(json.dumps({"event": "remote", "what": "away", "side": "B",
                            "message": "opponent away"}).encode())
    assert ["status.remote_away", {}] in mirror.snapshot()["explain"]["status"]


def test_the_rooms_news_is_said_while_the_pieces_are_set_up_too():
    """Two boards on different rules are told before anyone sets up a
    piece; the opponent away too."""
    story = room_story({"event": "remote", "what": "rules", "message":
                        "the other board plays hungarian and this one kendall: set both"})
    setup = ex.explain(board("setup", roles={1: "put"}), story)
    assert setup["status"][0] == ["status.setup", {}]
    assert ["status.remote_rules", {"theirs": "hungarian", "ours": "kendall"}] in setup["status"]
    assert setup["instruction"][0][0].startswith("do.put_on")


def test_the_page_waits_for_the_far_opponent_to_join_in_words():
    """Before the other board says hello, no throw is made here: the page
    says whom it waits for, not "player at the black light: throw"."""
    story = ex.Story()
    story.event({"event": "room", "what": "joined", "side": "W", "topics": ["senet/x/#"]})
    words = ex.explain(board("opening", "B"), story)
    assert words["status"] == [["status.opening", {}], ["status.remote_waiting", {}]]
    assert words["kind"] == "away" and words["instruction"] == [["do.remote_away", {}]]
    story.event({"event": "remote", "what": "joined", "side": "B"})
    words = ex.explain(board("opening", "B"), story)
    assert words["instruction"] == [["do.remote_throws.B", {}]]   # at its own light
    assert "status.remote_waiting" not in keys(words)


class NoBroker:
    """The page's line to the broker, unplugged: the seat is taken all the same."""

    def drain(self):
        pass

    def drop(self):
        pass

    def stop(self):
        pass


def test_the_pages_seat_says_it_took_a_seat_in_the_room_and_no_secret():
    import argparse
    from firmware.app import App
    from host_tools.remote.page import PageSeat
    from host_tools.remote.seat import Settings, add_room_arguments
    from host_tools.sim.board import Sim
    parser = argparse.ArgumentParser()
    add_room_arguments(parser)
    args = parser.parse_args(["--room", "nagyi-and-ada", "--side", "W", "--no-tls"])
    secret = "the river runs past the old mill"
    seat = PageSeat(Settings(args, environ={"SENET_ROOM_PASSPHRASE": secret}),
                    connect=lambda *a, **kw: NoBroker())
    sim = Sim(ruleset="kendall", seed=5, app_factory=seat.app_factory(App))
    sim.advance(100)
    told = [e["data"] for e in sim.log if e["data"].get("event") == "room"]
    assert [(e["what"], e["side"]) for e in told] == [("joined", "W")]
    assert sim.story.far.room
    assert secret not in json.dumps(sim.snapshot())


def test_their_move_on_its_way_is_waited_for_in_words():
    story = room_story({"event": "throw", "side": "B", "value": 2, "sticks": [1, 1, 0, 0],
                        "by": "remote"})
    words = ex.explain(board("move", "B", 2), story)
    assert words["instruction"] == [["do.remote_moving", {}]]
    story.event({"event": "remote", "what": "away", "side": "B", "message": "opponent away"})
    assert ex.explain(board("move", "B", 2), story)["instruction"] == [["do.remote_away", {}]]
