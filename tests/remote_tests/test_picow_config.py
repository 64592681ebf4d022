"""config.json's "remote" section: a Pico W that plays someone far away.

A mistake in it names the key and turns remote play off (the board still
plays at home); a password or passphrase is never repeated in a message.
"""

import json

from firmware.config import DEFAULTS, validate

GOOD = {
    "wifi": {"ssid": "Nagyi-otthon", "password": "kecske-sajt-42"},
    "broker": {"host": "broker.example.org", "port": 8883, "tls": True},
    "room": "nagyi-and-ada",
    "passphrase": "the river floods in summer",
    "side": "W",
}
SECRETS = ("kecske-sajt-42", "the river floods in summer", "Qz7#k")


def remote(**changes):
    section = json.loads(json.dumps(GOOD))
    for key, value in changes.items():
        part, _, sub = key.partition("__")
        if sub:
            section[part][sub] = value
        elif value is None:
            section.pop(part)
        else:
            section[part] = value
    return section


def test_a_board_without_remote_play_has_it_off_and_its_config_no_bigger():
    assert "remote" not in DEFAULTS
    for raw in ({}, {"remote": None}):
        cfg, messages = validate(raw)
        assert cfg == DEFAULTS and messages == []


def test_a_complete_remote_section_is_taken_as_it_is():
    cfg, messages = validate({"remote": GOOD})
    assert messages == []
    assert cfg["remote"] == GOOD
    assert validate(cfg) == (cfg, [])          # what validate returns is itself valid


def test_the_port_follows_tls_when_it_is_left_out():
    plain = remote(broker={"host": "192.168.1.20"})
    cfg, messages = validate({"remote": plain})
    assert messages == []
    assert cfg["remote"]["broker"] == {"host": "192.168.1.20", "port": 1883, "tls": False}
    cfg, _ = validate({"remote": remote(broker={"host": "b.example.org", "tls": True})})
    assert cfg["remote"]["broker"]["port"] == 8883


def test_an_open_network_needs_no_password():
    cfg, messages = validate({"remote": remote(wifi={"ssid": "Museum guests"})})
    assert messages == [] and cfg["remote"]["wifi"] == {"ssid": "Museum guests",
                                                         "password": ""}


BAD = [
    ({"wifi": None}, "remote.wifi must be an object"),
    ({"wifi__ssid": ""}, "remote.wifi.ssid must be the network's name"),
    ({"wifi__password": "short"}, "remote.wifi.password must be"),
    ({"wifi__password": 12345678}, "remote.wifi.password must be"),
    ({"broker__host": ""}, "remote.broker.host must be"),
    ({"broker__port": 0}, "remote.broker.port must be a whole number from 1 to 65535"),
    ({"broker__port": "8883"}, "remote.broker.port must be a whole number from 1 to 65535"),
    ({"broker__tls": "yes"}, "remote.broker.tls must be true or false"),
    ({"room": ""}, "remote.room must be"),
    ({"room": None}, "remote.room must be"),
    ({"passphrase": "short"}, "remote.passphrase must be"),
    ({"side": "X"}, 'remote.side must be one of "B", "W"'),
]


def test_each_mistake_names_its_key_and_turns_remote_play_off():
    for change, start in BAD:
        cfg, messages = validate({"remote": remote(**change), "ruleset": "hungarian"})
        assert "remote" not in cfg, change
        assert cfg["ruleset"] == "hungarian"           # the rest still counts
        assert len(messages) == 1, (change, messages)
        assert messages[0].startswith("config.json: " + start), (change, messages)
        assert messages[0].endswith("; remote play is off"), messages


def test_a_password_or_passphrase_is_never_repeated_in_a_message():
    wrong = remote(wifi={"ssid": "x" * 40, "password": SECRETS[0]},
                   passphrase=SECRETS[2])
    for raw in ({"remote": wrong}, {"remote": remote(broker__port=SECRETS[0])},
                {"remote": remote(side=SECRETS[1])}, {"remote": remote(room=SECRETS[0] * 5)}):
        _, messages = validate(raw)
        assert messages, raw
        for secret in SECRETS:
            assert all(secret not in m for m in messages), messages


def test_an_unknown_key_in_remote_is_named_and_ignored():
    cfg, messages = validate({"remote": remote(colour="blue")})
    assert messages == ['config.json: unknown key "remote.colour" ignored']
    assert cfg["remote"] == GOOD


def test_remote_play_is_for_two_players_at_two_boards():
    cfg, messages = validate({"remote": GOOD, "mode": "museum"})
    assert "remote" not in cfg and cfg["mode"] == "museum"
    assert messages == ['config.json: remote play needs "mode": "two_players"; '
                        'remote play is off']


def test_remote_that_is_not_an_object_turns_it_off():
    for raw in ("yes", [], 1):
        cfg, messages = validate({"remote": raw})
        assert "remote" not in cfg
        assert messages == ["config.json: remote must be an object {...} or null; "
                            "remote play is off"]
