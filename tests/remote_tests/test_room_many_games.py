"""Two hundred seeded remote games, half by Kendall's rules and half by
the Hungarian ones, each between two boards through a real Mosquitto
broker: not one ends with the boards holding different games. Prints the
messages and bytes each ply costs."""

import time

from mqtt_broker import broker  # noqa: F401  (the fixture)
from remote_tests.pair import Board, joined, play_all, words

GAMES = 200
AT_ONCE = 20         # rooms played side by side: one plays while another waits


def test_two_hundred_remote_games_end_with_zero_divergences(broker):  # noqa: F811
    started = time.monotonic()
    divergences, plies, sent, sent_bytes, finished = 0, 0, 0, 0, 0
    for first in range(0, GAMES, AT_ONCE):
        pairs = []
        for seed in range(first, first + AT_ONCE):
            rules = "kendall" if seed % 2 else "hungarian"
            room = "room %d" % seed
            pairs.append((Board("B", broker.port, seed=seed, ruleset=rules, room=room, quick=True),
                          Board("W", broker.port, seed=seed, ruleset=rules, room=room, quick=True)))
        try:
            for a, b in pairs:
                a.setup()
                b.setup()
            for a, b in pairs:
                joined(a, b)
            play_all(pairs)
            for a, b in pairs:
                if (words(a) != words(b) or a.app.position != b.app.position
                        or a.room.problem or b.room.problem):
                    divergences += 1
                finished += a.app.game.is_over() and b.app.game.is_over()
                plies += len(words(a))
                for board in (a, b):
                    sent += board.room.counts["sent"]
                    sent_bytes += board.room.counts["bytes"]
        finally:
            for a, b in pairs:
                a.close()
                b.close()
    print("REMOTE GAMES %d, divergences %d, plies %d, messages per ply %.2f, bytes per ply "
          "%.0f, %.1f s" % (finished, divergences, plies, sent / plies, sent_bytes / plies,
                            time.monotonic() - started))
    assert finished == GAMES
    assert divergences == 0
