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
