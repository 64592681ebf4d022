"""The room's signature is HMAC-SHA256 exactly: RFC 4231's test vectors,
checked against CPython's own ``hmac`` and the RFC's printed results."""

import hashlib
import hmac

import pytest

from firmware import hmac256

# RFC 4231, section 4: (key, data, HMAC-SHA-256); case 5 (truncated) left out.
VECTORS = [
    (b"\x0b" * 20, b"Hi There",
     "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"),
    (b"Jefe", b"what do ya want for nothing?",
     "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"),
    (b"\xaa" * 20, b"\xdd" * 50,
     "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe"),
    (bytes(range(1, 26)), b"\xcd" * 50,
     "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b"),
    (b"\xaa" * 131, b"Test Using Larger Than Block-Size Key - Hash Key First",
     "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"),
    (b"\xaa" * 131,
     b"This is a test using a larger than block-size key and a larger than "
     b"block-size data. The key needs to be hashed before being used by the "
     b"HMAC algorithm.",
     "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2"),
]


@pytest.mark.parametrize("key,data,expected", VECTORS)
def test_rfc4231_vectors_match_cpython_hmac(key, data, expected):
    ours = hmac256.hexdigest(key, data)
    assert ours == hmac.new(key, data, hashlib.sha256).hexdigest()
    assert ours == expected
    assert hmac256.hexdigest(hmac256.pads(key), data) == expected


def test_equal_tells_one_changed_digit():
    mac = hmac256.hexdigest(b"k", b"m")
    assert hmac256.equal(mac, mac)
    assert not hmac256.equal(mac, mac[:-1] + ("0" if mac[-1] != "0" else "1"))
    assert not hmac256.equal(mac, mac[:-2])
