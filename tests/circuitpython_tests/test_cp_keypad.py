"""CircuitPython's keypad as it really behaves, and the board on top of it.

On CircuitPython 10 a keypad scanner's debounce counters start at zero, so a
key already closed when ``Keys``, ``KeyMatrix`` or ``ShiftRegisterKeys`` is
made never reports a press; only ``reset()`` marks every key released, so
that the closed ones report. The fakes (tests/fakes/circuitpython/keypad.py)
do the same, and these stories hold the board to it:

- the throw button held from power-on is seen by boot.py (the maintenance
  gesture) and by the game;
- after a power cut the pieces left standing are seen, and the board is
  ready without a hand touching anything, on either scanner;
- an overflow of keypad's event queue (a stalled loop, busy hands) never
  shows the App a board that no hand made, so it never invents a move.

Each story runs in a child CPython on a drive filled by
``deploy --circuitpython`` (tests/cp/game_cp.py).
"""

from cphelp import filled_drive, play


def test_the_keypad_fake_reports_a_key_closed_at_construction_only_after_reset(tmp_path):
    drive = filled_drive(tmp_path / "CIRCUITPY", {})
    assert play(drive, "keypad")["checked"] == 2


def test_the_throw_button_held_from_power_on_is_the_maintenance_gesture(tmp_path):
    drive = filled_drive(tmp_path / "CIRCUITPY", {})
    seen = play(drive, "held")
    assert seen["events"] == ["maintenance"]


def test_after_a_power_cut_the_standing_pieces_are_seen_on_a_matrix(tmp_path):
    drive = filled_drive(tmp_path / "CIRCUITPY", {})
    seen = play(drive, "resume")
    assert seen["state"] == "throw"
    assert seen["ready_ms"] < 2000          # settle time and a scan or two, no hand


def test_after_a_power_cut_the_standing_pieces_are_seen_on_a_74hc165_chain(tmp_path):
    drive = filled_drive(tmp_path / "CIRCUITPY", {"scanner": "shift"})
    seen = play(drive, "resume_shift")
    assert seen["state"] == "throw"
    assert seen["ready_ms"] < 2000


def test_an_overflow_never_gives_the_loop_a_board_no_hand_made(tmp_path):
    drive = filled_drive(tmp_path / "CIRCUITPY", {})
    assert play(drive, "overflow_scan")["loops"] == 100


def test_an_overflow_during_a_stall_invents_no_capture(tmp_path):
    """W on 10, a lone B on 12, a throw of 2; the loop stalls while a hand
    lifts and puts back the piece on 1 forty times. No hand touched 10 or
    12: the App must not take 10-12."""
    drive = filled_drive(tmp_path / "CIRCUITPY", {})
    seen = play(drive, "overflow")
    assert seen["seen"] >= 1
