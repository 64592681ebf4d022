"""An answer the moment the piece is down: a put-down that can only be one
legal move is played as soon as the switch is debounced; every board that
could still be a step on the way to something else waits the settle time
(docs/dev/recognition.md says which and why)."""

from board_sim import BUSY_PASS_MS, board_at, throws
from firmware import recognise as rec

# kendall, white to throw: W on 3 and 12, B on 1 and 14 (lone), so a 2 gives
# the plain 3-5 and the capture 12-14 (K7, C6).
CAPTURE = "B.W........W.B................ W"
# W on 5 and 30: a 1 gives 5-6 and 30-off (the last square's piece leaves).
BEAR_OFF = "B.B.W........................W W"


def steps_until(board, kind, limit_ms):
    """Step the board scan by scan until an event of ``kind``; return how
    long it took in the board's own clock (None: not within ``limit_ms``)."""
    start = board.t
    while board.t - start <= limit_ms:
        if any(e["event"] == kind for e in board.step()):
            return board.t - start
    return None


def debounce_ms(board):
    return board.app.config["debounce_scans"] * board.tick_ms


def test_a_plain_move_is_played_as_soon_as_the_piece_is_down(tmp_path):
    board = board_at(CAPTURE, tmp_path, rng=throws(2))
    board.press()
    board.lift(3)
    board.occ |= rec.bit(5)                               # the piece down on 5
    took = steps_until(board, "move", board.settle_ms + 200)
    # played in the pass right after the one that saw it debounced, lit in
    # the next, said in the one after (docs/dev/firmware-modules.md, "Every
    # job a pass of its own")
    assert took is not None and took <= debounce_ms(board) + 3 * BUSY_PASS_MS, took
    assert board.last("move")["move"] == "3-5"
    assert board.app.roles[4] == "" and board.app.state == "throw"   # lit at once


def test_a_capture_swap_still_waits_the_settle_time_c6(tmp_path):
    board = board_at(CAPTURE, tmp_path, rng=throws(2))
    board.press()
    board.lift(12).lift(14).place(14)
    board.occ |= rec.bit(12)                              # the captured piece to 12
    took = steps_until(board, "move", board.settle_ms + 200)
    assert took is not None and took >= board.settle_ms, took
    assert board.last("move")["move"] == "12-14"


def test_a_piece_in_the_hand_still_waits_the_settle_time(tmp_path):
    board = board_at(BEAR_OFF, tmp_path, rng=throws(1))
    board.press()
    board.occ &= ~rec.bit(30)                             # 30 leaves, or is carried?
    took = steps_until(board, "move", board.settle_ms + 200)
    assert took is not None and took >= board.settle_ms, took
    assert board.last("move")["move"] == "30-off"


def test_a_put_down_while_another_switch_still_changes_waits(tmp_path):
    board = board_at(CAPTURE, tmp_path, rng=throws(2))
    board.press()
    board.lift(3)
    board.occ |= rec.bit(5)
    board.step()
    board.step()
    board.occ |= rec.bit(20)                              # a sleeve brushes 20...
    board.step()                                          # ...as 5 is debounced
    board.occ &= ~rec.bit(20)
    took = steps_until(board, "move", board.settle_ms + 200)
    assert took is not None and took + 3 * board.tick_ms >= board.settle_ms, took
    assert board.last("move")["move"] == "3-5"


def test_a_put_down_after_a_reported_mistake_waits(tmp_path):
    board = board_at(CAPTURE, tmp_path, rng=throws(2))
    board.press()
    board.lift(3).place(7).wait()                         # a wrong square, reported
    assert board.events_of("mismatch")
    board.lift(7)
    board.occ |= rec.bit(5)
    took = steps_until(board, "move", board.settle_ms + 200)
    assert took is not None and took >= board.settle_ms, took


class Move:
    """A stand-in for engine moves the rules do not make today (two from
    one square), to prove the recogniser does not rely on that."""

    def __init__(self, origin, to, final=None, capture=False):
        self.origin = origin
        self.to = to
        self.final = to if final is None else final
        self.capture = capture


def done_verdict(moves, base, occ, lifts=()):
    r = rec.Recogniser()
    r.begin(base, moves)
    now = base
    for s in lifts:
        r.record(now, now & ~rec.bit(s))
        now &= ~rec.bit(s)
    r.record(now, occ)
    verdict = r.classify(occ, [""] * 30)
    return r, verdict


def test_a_slide_over_another_move_of_the_same_piece_waits():
    base = rec.bit(5)
    moves = [Move(5, 7), Move(5, 9)]                      # 5-9 slides over 7
    r, verdict = done_verdict(moves, base, rec.bit(7), lifts=(5,))
    assert verdict == rec.DONE and r.move is moves[0]
    assert not r.ready(rec.bit(7))


def test_an_end_that_is_another_move_s_square_on_the_way_waits():
    base = rec.bit(5) | rec.bit(1)
    # 1-27 ends on the water and goes on to 15 (K12): "a piece on 27" is on
    # its way; a move ending on 27 from the same square must wait for it.
    moves = [Move(1, 27), Move(1, 27, final=15)]
    r, verdict = done_verdict(moves, base, rec.bit(5) | rec.bit(27), lifts=(1,))
    assert verdict == rec.DONE and r.move is moves[0]
    assert not r.ready(rec.bit(5) | rec.bit(27))


def test_the_only_move_of_its_piece_ending_on_an_empty_square_is_at_once():
    base = rec.bit(5) | rec.bit(12)
    moves = [Move(5, 7), Move(12, 14)]
    r, verdict = done_verdict(moves, base, rec.bit(7) | rec.bit(12), lifts=(5,))
    assert verdict == rec.DONE and r.ready(rec.bit(7) | rec.bit(12))


def test_sliding_bouncing_hands_that_lift_the_wrong_piece_make_no_false_commit():
    """A CI-sized run of tests/bench/recognition_bench.py's careless hands
    (the bench itself makes 5,000 moves a ruleset)."""
    import os
    import sys
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    for folder in ("bench", "mp"):
        path = os.path.join(here, folder)
        if path not in sys.path:
            sys.path.append(path)
    from recognition_bench import false_commits
    for ruleset, seed in (("kendall", 5), ("hungarian", 6)):
        made, false, mistakes, games = false_commits(ruleset, 150, seed)
        assert made >= 150
        assert (false, mistakes) == (0, 0), (ruleset, made, false, mistakes)
