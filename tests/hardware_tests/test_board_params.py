"""A maker changes hardware/board.json and runs `senet-board hardware`: a file
that would make a board that does not work is refused in one line that names
the key the maker changed, and nothing is written.

Each case copies the shipped file into a temporary folder, changes it the way
a maker would, and runs the real command on it.
"""

import json
import os
import subprocess
import sys

import paths

ROOT = paths.ROOT


def shipped():
    with open(os.path.join(ROOT, "hardware", "board.json"), encoding="utf-8") as f:
        return json.load(f)


def run_hardware(tmp_path, data):
    """`senet-board hardware --board FILE --out DIR` on a changed copy."""
    board = tmp_path / "board.json"
    board.write_text(json.dumps(data))
    out = tmp_path / "out"
    out.mkdir()
    done = subprocess.run([sys.executable, "-m", "host_tools.cli", "hardware",
                           "--board", str(board), "--out", str(out)],
                          capture_output=True, text=True, cwd=ROOT, timeout=300)
    return done, out


def refusal(tmp_path, data):
    """The one line the command refuses the file with; nothing was written."""
    done, out = run_hardware(tmp_path, data)
    assert done.returncode == 2, (done.returncode, done.stdout[-300:], done.stderr)
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert "Traceback" not in done.stderr
    assert list(out.iterdir()) == []
    prefix = "senet-board hardware: "
    assert lines[0].startswith(prefix)
    return lines[0][len(prefix):]


def test_a_top_panel_too_thick_for_the_magnet_to_reach_the_reed_is_refused(tmp_path):
    """A 20 mm top puts the magnet 24 mm above the reed's glass, three times
    the distance at which the piece's magnet closes the reed."""
    data = shipped()
    reach = data["reed"]["actuation_distance"]
    data["panels"]["top"]["thickness"] = 20
    line = refusal(tmp_path, data)
    assert line.startswith("panels.top.thickness = 20:"), line
    assert "24 mm" in line and "%s mm" % reach in line, line
    assert "reed.actuation_distance" in line


def test_the_shipped_stack_is_within_the_reeds_reach():
    data = shipped()
    gap = data["panels"]["top"]["thickness"] + data["panels"]["frame"]["thickness"]
    assert gap <= data["reed"]["actuation_distance"]


def test_a_thicker_frame_is_named_when_it_is_the_change(tmp_path):
    data = shipped()
    data["panels"]["frame"]["thickness"] = 9
    line = refusal(tmp_path, data)
    assert line.startswith("panels.frame.thickness = 9:"), line
    assert "12 mm" in line


def test_an_unknown_key_is_refused_naming_it_and_the_nearest_known_one(tmp_path):
    data = shipped()
    data["colour"] = "red"
    line = refusal(tmp_path, data)
    assert line.startswith("colour is not a setting of the board file"), line
    suggestion = line.split("did you mean ")[1].rstrip("?.")
    assert suggestion in shipped()                       # a real key at the top


def test_a_misspelt_key_is_pointed_to_the_right_one(tmp_path):
    data = shipped()
    data["panels"]["top"]["thicknes"] = data["panels"]["top"].pop("thickness")
    line = refusal(tmp_path, data)
    assert line.startswith("panels.top.thicknes is not a setting"), line
    assert line.endswith("did you mean panels.top.thickness?"), line


def test_a_smaller_pitch_is_refused_as_the_pitch_not_as_the_led_it_moves(tmp_path):
    """At a 20 mm pitch the pieces shrink to 14 mm but the LED window stays
    5 mm from the edges, under a piece: the maker changed the pitch, so the
    refusal names the pitch."""
    data = shipped()
    data["pitch"] = 20
    line = refusal(tmp_path, data)
    assert line.startswith("pitch = 20:"), line
    assert "LED window" in line
