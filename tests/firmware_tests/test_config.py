"""config.json: a typo names its key and falls back to a safe value; the board
still starts."""

import json
import os
import re

import pytest
from hypothesis import given, settings, strategies as st

from firmware import config, pins
from firmware.config import DEFAULTS, load, validate
import paths

ROOT = paths.ROOT


def test_defaults_come_from_the_pin_map():
    assert DEFAULTS["scanner"] == pins.PINMAP["scanner"]
    assert DEFAULTS["pins"] == pins.PINMAP["pins"]
    for key, value in pins.PINMAP["leds"].items():
        assert DEFAULTS["leds"][key] == value
    assert DEFAULTS["brightness_cap"] == pins.BRIGHTNESS_CAP
    assert DEFAULTS["ruleset"] == "kendall"
    assert DEFAULTS["mode"] == "two_players"
    assert DEFAULTS["settle_ms"] == 250
    assert DEFAULTS["museum"] == {"attract_s": 90, "reset_s": 600, "reset_after_game_s": 180}


def test_an_empty_config_is_the_defaults_without_complaint():
    assert validate({}) == (DEFAULTS, [])
    assert validate(None) == (DEFAULTS, [])


def test_an_invalid_config_json_names_the_bad_key_and_keeps_a_safe_default():
    cfg, messages = validate({"settle_ms": 3, "ruleset": "hungarian"})
    assert messages == ["config.json: settle_ms must be a whole number of milliseconds "
                        "from 20 to 5000; using 250"]
    assert cfg["settle_ms"] == 250
    assert cfg["ruleset"] == "hungarian"            # the good key still counts


@pytest.mark.parametrize("key,bad", [
    ("settle_ms", "250"), ("settle_ms", True), ("settle_ms", 250.5), ("settle_ms", 99999),
    ("debounce_scans", 0), ("long_press_ms", 100), ("brightness_cap", 256),
    ("brightness_cap", -1), ("brightness_cap", None),
])
def test_each_bad_number_gets_one_message_naming_it(key, bad):
    cfg, messages = validate({key: bad})
    assert len(messages) == 1
    assert messages[0].startswith("config.json: %s must be a whole number" % key)
    assert messages[0].endswith("using %d" % DEFAULTS[key])
    assert cfg == DEFAULTS


def test_a_whole_number_written_with_a_point_is_accepted():
    cfg, messages = validate({"settle_ms": 300.0})
    assert messages == [] and cfg["settle_ms"] == 300 and isinstance(cfg["settle_ms"], int)


def test_unknown_keys_are_named_and_ignored():
    cfg, messages = validate({"setle_ms": 300, "museum": {"atract_s": 5}})
    assert messages == ['config.json: unknown key "setle_ms" ignored',
                        'config.json: unknown key "museum.atract_s" ignored']
    assert cfg == DEFAULTS


def test_choices_name_what_is_allowed():
    cfg, messages = validate({"mode": "party", "ruleset": "chess", "scanner": "74hc595"})
    assert cfg["mode"] == "two_players" and cfg["ruleset"] == "kendall"
    assert cfg["scanner"] == "matrix"
    text = "\n".join(messages)
    assert 'mode must be one of "two_players", "computer", "museum"; using "two_players"' in text
    assert 'ruleset must be one of "hungarian", "kendall"; using "kendall"' in text
    assert 'scanner must be one of "matrix", "shift"; using "matrix"' in text


def test_a_museum_exhibit_and_a_game_against_the_computer():
    cfg, messages = validate({"mode": "museum", "museum": {"attract_s": 60, "reset_s": 300}})
    assert messages == []
    assert cfg["museum"] == {"attract_s": 60, "reset_s": 300, "reset_after_game_s": 180}
    cfg, messages = validate({"mode": "computer", "computer": {"side": "W", "level": 4}})
    assert cfg["computer"] == {"side": "W", "level": 4} and messages == []
    cfg, messages = validate({"mode": "computer", "computer": {"side": "W", "level": 5}})
    assert cfg["computer"] == {"side": "W", "level": 2}
    assert messages == ["config.json: computer.level must be a whole number from 1 to 4; using 2"]


def test_a_section_that_is_not_an_object_falls_back_whole():
    cfg, messages = validate({"museum": 5, "pins": [1, 2], "leds": "36"})
    assert cfg == DEFAULTS
    assert len(messages) == 3
    assert all("must be an object" in m for m in messages)


def test_ruleset_options_are_checked_by_the_rules_engine():
    cfg, messages = validate({"ruleset": "hungarian", "options": {"no_move": "end"}})
    assert messages == [] and cfg["options"] == {"no_move": "end"}
    cfg, messages = validate({"ruleset": "kendall", "options": {"pieces": 7}})
    assert messages == [] and cfg["options"] == {"pieces": 7}
    cfg, messages = validate({"ruleset": "kendall", "options": {"no_move": "end"}})
    assert cfg["options"] == {} and len(messages) == 1
    assert messages[0].startswith("config.json: options are not valid for ruleset kendall")
    cfg, messages = validate({"options": "pieces=7"})
    assert cfg["options"] == {} and "options must be an object" in messages[0]


# -- pins -----------------------------------------------------------------------

@pytest.mark.parametrize("bad", [23, 24, 25, 29, -1, "16", 3.5, None, True])
def test_pins_the_pico_keeps_for_itself_are_refused(bad):
    cfg, messages = validate({"pins": {"led": bad}})
    assert cfg["pins"]["led"] == 16
    assert messages == ["config.json: pins.led must be a GPIO number from 0 to 28 but "
                        "not 23, 24 or 25; using 16"]


def test_other_pins_are_taken():
    cfg, messages = validate({"pins": {"led": 22, "button": 0}})
    assert messages == []
    assert cfg["pins"]["led"] == 22 and cfg["pins"]["button"] == 0


def test_a_pin_used_twice_gives_the_default_pins():
    cfg, messages = validate({"pins": {"led": 20, "button": 8}})
    assert cfg["pins"] == DEFAULTS["pins"]
    assert len(messages) == 1
    assert "GP8" in messages[0] and "pins.matrix_cols" in messages[0]
    assert "pins.button" in messages[0] and messages[0].endswith("using the default pins")


def test_the_unused_scanner_pins_may_overlap():
    # A matrix board leaves the 74HC165 pins unconnected: no clash.
    cfg, messages = validate({"pins": {"sr_load": 2, "sr_clock": 3, "sr_data": 4}})
    assert messages == [] and cfg["pins"]["sr_load"] == 2
    # On a shift board the same pins do clash with the LED line.
    cfg, messages = validate({"scanner": "shift", "pins": {"sr_load": 16}})
    assert cfg["pins"] == DEFAULTS["pins"] and "GP16" in messages[0]


def test_matrix_pin_lists_must_have_the_right_length():
    cfg, messages = validate({"pins": {"matrix_rows": [2, 3, 4, 5, 6], "matrix_cols": [8, 9, 10, 11, 24]}})
    assert cfg["pins"] == DEFAULTS["pins"]
    assert messages[0].startswith("config.json: pins.matrix_rows must be a list of 6 GPIO numbers")
    assert messages[1].startswith("config.json: pins.matrix_cols must be a list of 5 GPIO numbers")


# -- leds -----------------------------------------------------------------------

def test_a_longer_strip_with_the_extras_moved_is_fine():
    leds = {"count": 40, "order": "RGB", "sticks": 36, "side_black": 30, "side_white": 31}
    cfg, messages = validate({"leds": leds})
    assert messages == []
    assert cfg["leds"]["count"] == 40 and cfg["leds"]["sticks"] == 36


def test_extra_leds_that_overlap_give_the_default_layout():
    cfg, messages = validate({"leds": {"side_black": 31}})
    assert cfg["leds"] == DEFAULTS["leds"]
    assert messages[0].startswith("config.json: leds: the four stick LEDs")


def test_led_order_and_supply():
    cfg, messages = validate({"leds": {"order": "GRBW", "supply_ma": 2000}})
    assert cfg["leds"]["order"] == "GRB" and cfg["leds"]["supply_ma"] == 2000
    assert messages == ['config.json: leds.order must be one of "RGB", "RBG", "GRB", '
                        '"GBR", "BRG", "BGR"; using "GRB"']


# -- never raises ---------------------------------------------------------------

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-10 ** 6, 10 ** 6) | st.floats(allow_nan=False)
    | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=6) | st.dictionaries(st.text(max_size=8), inner, max_size=6),
    max_leaves=20)
keys = st.sampled_from(sorted(DEFAULTS) + ["extra"])
sub_keys = st.sampled_from(["led", "button", "matrix_rows", "count", "sticks", "order",
                            "side", "level", "attract_s", "reset_s", "pieces", "x"])
configs = st.dictionaries(keys, json_values | st.dictionaries(sub_keys, json_values, max_size=6),
                          max_size=10)


@settings(max_examples=150, deadline=None)
@given(configs)
def test_any_json_at_all_gives_a_complete_safe_config(raw):
    cfg, messages = validate(raw)
    assert set(cfg) == set(DEFAULTS)
    assert all(m.startswith("config.json: ") for m in messages)
    again, more = validate(cfg)               # what validate returns is itself valid
    assert more == [] and again == cfg


@given(json_values)
def test_a_config_that_is_not_an_object_gives_the_defaults(raw):
    cfg, messages = validate(raw)
    assert cfg == DEFAULTS
    assert (messages == []) == (raw is None or raw == {})


def test_the_result_is_a_copy():
    cfg, _ = validate({})
    cfg["pins"]["matrix_rows"].append(99)
    cfg["museum"]["reset_s"] = 1
    assert DEFAULTS["pins"]["matrix_rows"] == [2, 3, 4, 5, 6, 7]
    assert DEFAULTS["museum"]["reset_s"] == 600


# -- load -----------------------------------------------------------------------

def test_a_board_without_config_json_starts_quietly(tmp_path):
    assert load(str(tmp_path / "config.json")) == (DEFAULTS, [])


def test_config_json_that_is_not_json_gives_defaults_and_says_so(tmp_path):
    path = tmp_path / "config.json"
    path.write_text('{"settle_ms": 300,}')
    cfg, messages = load(str(path))
    assert cfg == DEFAULTS
    assert len(messages) == 1 and messages[0].startswith("config.json: is not valid JSON")


def test_config_json_that_cannot_be_read_gives_defaults_and_says_so(tmp_path):
    cfg, messages = load(str(tmp_path))            # a folder, not a file
    assert cfg == DEFAULTS
    assert len(messages) == 1 and messages[0].startswith("config.json: could not be")


def test_a_half_written_or_binary_file_never_raises(tmp_path):
    path = tmp_path / "config.json"
    path.write_bytes(b'\xff\xfe{"settle')
    cfg, messages = load(str(path))
    assert cfg == DEFAULTS and len(messages) == 1


def test_a_good_config_json_is_read(tmp_path):
    path = tmp_path / "config.json"
    path.write_text(json.dumps({"ruleset": "hungarian", "settle_ms": 400}))
    cfg, messages = load(str(path))
    assert messages == [] and cfg["ruleset"] == "hungarian" and cfg["settle_ms"] == 400


def test_the_example_in_the_docs_is_valid_and_every_key_is_documented():
    text = open(os.path.join(ROOT, "docs", "config.md")).read()
    example = re.search(r"```json\n(.*?)```", text, re.S).group(1)
    cfg, messages = validate(json.loads(example))
    assert messages == []
    for key in DEFAULTS:
        assert "`%s`" % key in text, key
    for section in ("pins", "leds", "computer", "museum"):
        for key in DEFAULTS[section]:
            assert "`%s.%s`" % (section, key) in text, (section, key)


def test_config_uses_only_what_micropython_has():
    source = open(config.__file__).read()
    for module in re.findall(r"^\s*(?:import|from) (\w+)", source, re.M):
        assert module in ("json", "os", "firmware", "engine", "micropython"), module
