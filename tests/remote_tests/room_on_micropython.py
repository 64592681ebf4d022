"""Plain asserts for the MicroPython unix port (run by test_room_micropython.py):
the room's HMAC, key, topics and words come out as on CPython."""

import sys

sys.path.insert(0, ".")

from firmware import hmac256  # noqa: E402
from firmware import room  # noqa: E402
from engine.game import Game  # noqa: E402
from engine.rules import ruleset  # noqa: E402

passed = 0
failed = 0


def check(name, ok):
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
        print("FAILED", name)


check("rfc4231 case 2", hmac256.hexdigest(b"Jefe", b"what do ya want for nothing?")
      == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
check("rfc4231 case 6", hmac256.hexdigest(b"\xaa" * 131, b"Test Using Larger Than Block-Size Key - Hash Key First")
      == "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54")
key = room.room_key(sys.argv[1], sys.argv[2])
print("ROOT", hmac256.hexdigest(key, b"topic")[:16])
check("key is 32 bytes", len(key) == 32)
g = Game(ruleset("kendall"))
g.opening.append(3)
g.opening.append(1)
g.set_throw(1)
g.play("10-11")
g.set_throw(2)
words = [w for s, w in room.actions(g)]
check("words", words == ["o3", "o1", "10-11", "t2"])
check("ply", room.ply_of(g) == 4)
check("replay", room.game_from("kendall", words).position == g.position)
print("%d passed, %d failed" % (passed, failed))
