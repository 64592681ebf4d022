"""The App's rare path: serial commands.

A board spends its life scanning and recognising moves; a command from the
serial line comes now and then. Their code is kept out of firmware/app.py so
that it does not sit in the Pico's heap all day: ``App.command`` loads this
module for the one call and lets it go again (``firmware.unload``). The
functions work on the App's own state, as its methods would. (The takeback,
a long press any player may make in the middle of a game, stays in the App:
loading code then needs room a long game may have cut into pieces.)
"""

from engine.rules import ruleset as make_ruleset


def command(app, cmd):
    """Carry out a serial command (a dict from protocol.parse_command) and
    return the events it gave (with any the App had not yet handed out).
    Malformed or refused: one error event."""
    name = cmd.get("cmd") if isinstance(cmd, dict) else None
    why = app._museum and app._museum.refuse(name)
    if why:
        app._emit({"event": "error", "message": why})
    elif name == "state":
        app._emit({"event": "state", "position": app.position, "ruleset": app.ruleset,
                   "state": app.state, "turn": app.turn, "throw": app.throw,
                   "sticks": list(app.sticks) if app.sticks else None,
                   "roles": list(app.roles)})
    elif name == "undo":
        app._takeback()
    elif name == "throw":
        app._short_press()
    elif name == "new":
        _new(app, cmd)
    else:
        app._emit({"event": "error", "message": "unknown command %r" % (name,)})
    if app._dirty:
        app._render(app._now)
    events = app._events or []
    app._events = None
    return events


def _new(app, cmd):
    """{"cmd": "new"} with an optional ruleset, options and computer mode."""
    name = cmd.get("ruleset", app._next_rs.name)
    options = cmd.get("options", {} if "ruleset" in cmd else app._next_rs.options)
    try:
        if not isinstance(options, dict):
            raise ValueError("options must be an object")
        rs = make_ruleset(name, **options)
    except Exception as e:
        app._emit({"event": "error", "message": "new: %s" % (e,)})
        return
    if "mode" in cmd or "side" in cmd or "level" in cmd:
        from firmware.computer import set_mode
        why = set_mode(app, cmd)
        if why is not None:
            app._emit({"event": "error", "message": "new: " + why})
            return
    app._next_rs = rs
    app._new_game(rs)
