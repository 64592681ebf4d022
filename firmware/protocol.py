"""The serial protocol: one JSON object per line, events out and commands in.

Events are the App's dicts (``{"event": "move", ...}``); ``encode`` writes
one as a single line without the newline. Commands come in as lines;
``parse_command`` checks one completely before the App sees it, so a garbled
line never changes the game: it gets an ``error`` event instead.
docs/protocol.md lists every event and command with an example.
"""

import json

try:
    from micropython import const
except ImportError:
    const = lambda x: x  # noqa: E731

MAX_LINE = const(512)

# command: the keys it may carry besides "cmd"
COMMANDS = {
    "new": ("ruleset", "options", "mode", "side", "level"),
    "state": (),
    "game": (),                                       # the game's record (show at connect)
    "undo": (),
    "throw": (),
    "join": ("room", "passphrase", "side"),          # remote play over USB (docs/remote.md)
    "room": ("topic", "payload", "more", "online"),
}


def error(message):
    return {"event": "error", "message": message}


def encode(event):
    """One event as one line of JSON (no newline)."""
    return json.dumps(event)


def check_ruleset(name, options):
    """None if the engine accepts ruleset ``name`` with ``options``, else why not."""
    from engine.rules import ruleset
    if not isinstance(name, str):
        return "ruleset must be a name such as \"kendall\" or \"hungarian\""
    if not isinstance(options, dict):
        return "options must be an object such as {\"no_move\": \"end\"}"
    try:
        ruleset(name, **options)
    except Exception as e:      # PositionError names the bad ruleset or option
        return str(e)
    return None


def check_mode(cmd):
    """None if the ``new`` command's ``mode``, ``side`` and ``level`` are good."""
    if cmd.get("mode", "computer") not in ("two_players", "computer"):
        return "mode must be \"two_players\" or \"computer\""
    if cmd.get("side", "B") not in ("B", "W"):
        return "side must be \"B\" or \"W\""
    level = cmd.get("level", 2)
    if not isinstance(level, int) or isinstance(level, bool) or not 1 <= level <= 4:
        return "level must be a whole number from 1 to 4"
    return None


def check_room(cmd):
    """None if a ``join`` or ``room`` command is well formed (the words say
    which key is wrong, never its value: a passphrase is never repeated)."""
    if cmd["cmd"] == "join":
        room, phrase = cmd.get("room"), cmd.get("passphrase")
        if not isinstance(room, str) or not 1 <= len(room) <= 64:
            return "room must be the room's name, 1 to 64 characters"
        if not isinstance(phrase, str) or not 8 <= len(phrase) <= 128:
            return "passphrase must be 8 to 128 characters"
        if cmd.get("side") not in ("B", "W"):
            return "side must be \"B\" or \"W\""
        return None
    if "online" in cmd:
        if cmd["online"] is not True and cmd["online"] is not False or len(cmd) != 2:
            return "online must be true or false, alone"
        return None
    if not isinstance(cmd.get("topic"), str) or not isinstance(cmd.get("payload"), str):
        return "topic and payload must be text"
    if cmd.get("more", False) not in (True, False):
        return "more must be true or false"
    return None


def parse_command(line):
    """``(cmd, None)`` for a good command line, ``(None, error_event)`` otherwise."""
    if isinstance(line, bytes):
        try:
            line = line.decode()
        except Exception:
            return None, error("command is not UTF-8 text")
    if not isinstance(line, str):
        return None, error("command must be a line of text")
    if len(line) > MAX_LINE:
        return None, error("command line too long (%d characters, at most %d)" % (
            len(line), MAX_LINE))
    line = line.strip()
    if not line:
        return None, error("empty command line")
    try:
        cmd = json.loads(line)
    except Exception:
        return None, error("command is not JSON; send e.g. {\"cmd\": \"state\"}")
    if not isinstance(cmd, dict):
        return None, error("command must be a JSON object such as {\"cmd\": \"state\"}")
    name = cmd.get("cmd")
    if not isinstance(name, str) or name not in COMMANDS:
        return None, error("unknown command %s; known: %s" % (
            json.dumps(name), ", ".join(sorted(COMMANDS))))
    allowed = COMMANDS[name]
    for key in cmd:
        if key != "cmd" and key not in allowed:
            return None, error("command %s takes no key %s" % (name, json.dumps(key)))
    if name == "join" or name == "room":
        why = check_room(cmd)
        if why is not None:
            return None, error(name + ": " + why)
    if name == "new":
        if "ruleset" in cmd:
            why = check_ruleset(cmd["ruleset"], cmd.get("options", {}))
            if why is not None:
                return None, error("new: " + why)
        elif "options" in cmd and not isinstance(cmd["options"], dict):
            return None, error("new: options must be an object such as {\"no_move\": \"end\"}")
        why = check_mode(cmd)
        if why is not None:
            return None, error("new: " + why)
    return cmd, None
