"""`senet-board sim --room`: the simulator's board, with the options a
person types, plays a whole game against a board through a real broker;
the page's board shows the other board's throws on its sticks, and its
words say when the other board is away."""

import argparse
import time

from mqtt_broker import broker  # noqa: F401  (the fixture)
from hand import carry
from host_tools.sim.board import Sim
from host_tools.sim import command
from firmware.room import actions
from remote_tests.pair import Hang, PASSPHRASE, ROOM, Board, words


class SimHands:
    """A person at the page: drags pieces, presses the button."""

    def __init__(self, sim):
        self.sim = sim

    def lift(self, square):
        self.sim.lift(square)
        self.sim.advance(60)

    def place(self, square):
        self.sim.place(square)
        self.sim.advance(60)


def page(port, environ):
    parser = argparse.ArgumentParser()
    command.add_arguments(parser)
    args = parser.parse_args(["--room", ROOM, "--side", "W", "--broker", "127.0.0.1:%d" % port,
                              "--no-tls", "--seed", "5"])
    from host_tools.remote.seat import Settings
    from host_tools.remote.page import PageSeat
    settings = Settings(args, environ=environ)
    assert settings.problem is None, settings.problem
    seat = PageSeat(settings)
    sim = Sim(ruleset="kendall", seed=5, app_factory=seat.app_factory(command.App()))
    return sim, seat


def page_acts(sim, seat, hands):
    app = sim.app
    state = app.state
    if state in ("setup", "mismatch", "takeback"):
        if sim.occupancy() != app.game.position.occupancy():
            sim.arrange()
            sim.advance(400)
            return True
        return False
    if state in ("opening", "throw"):
        if seat.room.opponent.throws_now():
            return False
        sim.press(120)
        sim.advance(300)
        return True
    if state == "move":
        moves = app.moves if app.turn == "W" else (
            [seat.room.opponent.move] if seat.room.opponent.move else [])
        if not moves:
            return False
        carry(hands, moves[0], lambda: False)
        sim.advance(400)
        return True
    if state == "nomove":
        sim.advance(500)
        return True
    return False


def idle(board, sim, hang):
    """Nobody at the page or the board had anything to do: both clocks move
    on 20 ms while the network answers (a hang fails after HANG_S)."""
    hang.check(board.app.state, sim.app.state)
    board.wait(20)
    sim.advance(20)
    time.sleep(0.001)


def test_the_page_plays_a_whole_game_against_a_board(broker):  # noqa: F811
    sim, seat = page(broker.port, {"SENET_ROOM_PASSPHRASE": PASSPHRASE})
    hands = SimHands(sim)
    a = Board("B", broker.port, seed=5)
    try:
        a.setup()
        hang = Hang("the page's game")
        shown = []                       # the other board's throws as the page showed them
        seen = 0
        while not (a.app.state == "game_over" and sim.app.state == "game_over"):
            moved = a.act() | page_acts(sim, seat, hands)
            for e in sim.snapshot(since=seen)["log"]:
                data = e["data"]
                seen = e["seq"]
                if e["kind"] == "app" and data.get("event") == "throw" and data.get("by") == "remote":
                    shown.append((data["value"], data["sticks"]))
            if moved:
                hang.moved()
                continue
            idle(a, sim, hang)
        thrown = [(e["value"], e["sticks"]) for e in a.events_of("throw") if e.get("by") != "remote"]
        assert shown == thrown                          # every throw, sticks and all
        assert [w for s, w in actions(sim.app.game)] == words(a)
        a.close()
        hang = Hang("the page waiting for the last will")
        while seat.room.peer != "away":
            hang.check(seat.room.peer)
            sim.advance(20)
        sim.advance(20)
        said = [e["data"] for e in sim.log if e["kind"] == "app"
                and e["data"].get("event") == "remote"]
        assert said[-1]["message"] == "opponent away"
    finally:
        seat.close()
        a.close()


def test_sim_room_without_a_passphrase_says_how_to_give_one():
    parser = argparse.ArgumentParser()
    command.add_arguments(parser)
    args = parser.parse_args(["--room", ROOM, "--side", "B"])
    from host_tools.remote.seat import Settings
    problem = Settings(args, environ={}).problem
    assert problem == ("the room's passphrase must be 8 to 128 characters: set "
                       "SENET_ROOM_PASSPHRASE or type it when asked")
