"""HMAC-SHA256 (RFC 2104) on ``hashlib.sha256`` alone.

MicroPython has ``hashlib.sha256`` but no ``hmac`` module; the room's
messages (firmware/room.py) are signed with this. Keys longer than the
block are hashed first, as RFC 2104 says; tests check it against CPython's
``hmac`` on RFC 4231's vectors.
"""

import hashlib

_BLOCK = 64


def _pad(key, byte):
    out = bytearray(_BLOCK)
    for i in range(_BLOCK):
        out[i] = (key[i] if i < len(key) else 0) ^ byte
    return bytes(out)


def pads(key):
    """The key's inner and outer blocks, made once for a key used often
    (a room signs and checks every message with the same one)."""
    if len(key) > _BLOCK:
        key = hashlib.sha256(key).digest()
    return _pad(key, 0x36), _pad(key, 0x5C)


def digest(key, msg):
    """The 32-byte HMAC-SHA256 of ``msg`` under ``key`` (bytes, or the
    ``pads`` of one)."""
    inner, outer = key if isinstance(key, tuple) else pads(key)
    h = hashlib.sha256(inner)
    h.update(msg)
    d = h.digest()
    h = hashlib.sha256(outer)
    h.update(d)
    return h.digest()


def hexdigest(key, msg):
    """``digest`` as 64 lowercase hex digits (what goes in a message)."""
    d = digest(key, msg)
    return "".join("%02x" % b for b in d)


def equal(a, b):
    """Compare two MACs in time that does not depend on where they differ."""
    if len(a) != len(b):
        return False
    diff = 0
    for i in range(len(a)):
        diff |= ord(a[i]) ^ ord(b[i]) if isinstance(a, str) else a[i] ^ b[i]
    return diff == 0
