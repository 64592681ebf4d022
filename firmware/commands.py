"""The App's rare path: serial commands.

A board spends its life scanning and recognising moves; a command from the
serial line comes now and then. Their code is kept out of firmware/app.py:
``App.command`` loads this module with the first command. The functions use
the App's public members only, as any mode does.
"""

from engine.rules import ruleset as make_ruleset


def command(app, cmd):
    """Carry out a serial command (a dict from protocol.parse_command) on
    ``app``; what it gives is reported through ``app.emit``. Malformed or
    refused: one error event."""
    name = cmd.get("cmd") if isinstance(cmd, dict) else None
    why = app.museum and app.museum.refuse(name)
    if why:
        app.emit({"event": "error", "message": why})
    elif name == "state":
        _state(app)
    elif name == "game":
        _game(app)
    elif name == "undo":
        app.take_back()
    elif name == "throw":
        app.press()
    elif name == "new":
        _new(app, cmd)
    elif name == "join" or name == "room":
        from firmware.usbroom import command as room_command
        room_command(app, cmd)
    else:
        app.emit({"event": "error", "message": "unknown command %r" % (name,)})


def _state(app):
    """{"cmd": "state"}: the board as it stands; a board in a room through
    a laptop (firmware/usbroom.py) adds its seat, so a page opened after
    the join knows its opponent is a player far away."""
    event = {"event": "state", "position": app.position, "ruleset": app.ruleset,
             "state": app.state, "turn": app.turn, "throw": app.throw,
             "sticks": list(app.sticks) if app.sticks else None,
             "roles": list(app.roles)}
    room = getattr(app.computer, "room", None)
    if room is not None:
        event["remote"] = room.seat()
    app.emit(event)


def _game(app):
    """{"cmd": "game"}: the game as this board holds it, in the engine's own
    record text, so a page plugged in mid-game lists the moves played
    before it came; ``throw`` is the throw made and not yet played. The
    record's code is forgotten again: a board asks for it seldom."""
    record = app.game.record()
    from firmware import unload
    unload("engine.record1")
    app.emit({"event": "game", "record": record, "throw": app.throw})


def _new(app, cmd):
    """{"cmd": "new"} with an optional ruleset, options and computer mode."""
    rs = app.next_ruleset
    name = cmd.get("ruleset", rs.name)
    options = cmd.get("options", {} if "ruleset" in cmd else rs.options)
    try:
        if not isinstance(options, dict):
            raise ValueError("options must be an object")
        rs = make_ruleset(name, **options)
    except Exception as e:
        app.emit({"event": "error", "message": "new: %s" % (e,)})
        return
    if "mode" in cmd or "side" in cmd or "level" in cmd:
        from firmware.computer import set_mode
        why = set_mode(app, cmd)
        if why is not None:
            app.emit({"event": "error", "message": "new: " + why})
            return
    app.new_game(rs)
