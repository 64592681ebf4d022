"""Two boards play a whole game through a real Mosquitto broker and end
holding the same game, move for move."""

from mqtt_broker import broker  # noqa: F401  (the fixture)
from remote_tests.pair import Board, joined, play, words


def test_a_whole_game_through_the_broker_ends_the_same_on_both_boards(broker):  # noqa: F811
    a = Board("B", broker.port, seed=3)
    b = Board("W", broker.port, seed=3)
    try:
        a.setup(); b.setup()
        joined(a, b)
        play(a, b)
        assert words(a) == words(b)
        assert a.app.game.winner == b.app.game.winner
        assert a.app.position == b.app.position
        assert a.room.problem is None and b.room.problem is None
    finally:
        a.close(); b.close()


def test_boards_new_to_a_room_begin_a_new_game_not_the_finished_one_kept_there(broker):  # noqa: F811
    a = Board("B", broker.port, seed=6, quick=True)
    b = Board("W", broker.port, seed=6, quick=True)
    try:
        a.setup(); b.setup()
        joined(a, b)
        play(a, b)
        finished = words(a)
    finally:
        a.close(); b.close()
    c = Board("B", broker.port, seed=7, quick=True)
    d = Board("W", broker.port, seed=7, quick=True)
    try:
        c.setup(); d.setup()
        joined(c, d)                       # the finished game's record was read by both
        assert c.app.state == d.app.state == "opening"
        assert words(c) == words(d) == []
        play(c, d)
        assert words(c) == words(d) != finished
    finally:
        c.close(); d.close()
