"""config.json's "remote" section (a Pico W's remote play), checked.

firmware/config_check.py loads this only for a config that has the section,
and lets it go afterwards, so a plain board never compiles or holds it.
A mistake turns remote play off and the board plays at home; the message
names the key and the rule, never the value (a Wi-Fi password or the
room's passphrase must not reach the serial line or a log).
"""

from firmware.config_base import SIDES
from firmware.pinrules import whole

KEYS = ("wifi", "broker", "room", "passphrase", "side")


class _Off(Exception):
    """One thing wrong with "remote": its sentence."""


def _text(key, value, low, high, rule):
    if not isinstance(value, str) or not low <= len(value) <= high:
        raise _Off("remote.%s must be %s" % (key, rule))
    return value


def _part(key, value, known, messages):
    """The object under remote.``key``; its unknown keys reported (by name only)."""
    if not isinstance(value, dict):
        raise _Off("remote.%s must be an object {...}" % key)
    _unknown(key + ".", value, known, messages)
    return value


def _unknown(prefix, value, known, messages):
    for k in sorted(value):
        if k not in known:
            messages.append('config.json: unknown key "remote.%s%s" ignored' % (prefix, k))


def _wifi(value, messages):
    found = _part("wifi", value, ("ssid", "password"), messages)
    ssid = _text("wifi.ssid", found.get("ssid"), 1, 32,
                 "the network's name, 1 to 32 characters")
    password = found.get("password", "")
    if password != "":        # WPA2 asks 8 to 63 characters; "" is an open network
        _text("wifi.password", password, 8, 63,
              '8 to 63 characters, or "" for an open network')
    return {"ssid": ssid, "password": password}


def _broker(value, messages):
    found = _part("broker", value, ("host", "port", "tls"), messages)
    host = _text("broker.host", found.get("host"), 1, 253,
                 "the broker's name or address, without spaces")
    if " " in host:
        raise _Off("remote.broker.host must be the broker's name or address, without spaces")
    tls = found.get("tls", False)
    if tls is not True and tls is not False:
        raise _Off("remote.broker.tls must be true or false")
    port = whole(found.get("port", 8883 if tls else 1883))
    if port is None or not 1 <= port <= 65535:
        raise _Off("remote.broker.port must be a whole number from 1 to 65535")
    return {"host": host, "port": port, "tls": tls}


def check(value, mode, messages):
    """The checked "remote" section, or None (remote play off, the key left
    out of the config) with one message."""
    try:
        if not isinstance(value, dict):
            raise _Off("remote must be an object {...} or null")
        _unknown("", value, KEYS, messages)
        checked = {
            "wifi": _wifi(value.get("wifi"), messages),
            "broker": _broker(value.get("broker"), messages),
            "room": _text("room", value.get("room"), 1, 64,
                          "the room's name, 1 to 64 characters, the same on both boards"),
            "passphrase": _text("passphrase", value.get("passphrase"), 8, 128,
                                "a sentence of 8 to 128 characters both boards share"),
            "side": value.get("side"),
        }
        if checked["side"] not in SIDES or not isinstance(checked["side"], str):
            raise _Off("remote.side must be one of %s, the colour this board plays"
                       % ", ".join('"%s"' % s for s in SIDES))
        if mode != "two_players":
            raise _Off('remote play needs "mode": "two_players"')
        return checked
    except _Off as e:
        messages.append("config.json: %s; remote play is off" % e)
        return None
