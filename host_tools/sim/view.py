"""What the browser page of `senet-board sim` is told about the App.

The page draws the App's public state, never its insides: these helpers read
that state defensively (an App that lacks a name, or whose property fails,
shows it as unknown), lay out the LED strip as the firmware's pin map does
and scale the lights back up from the brightness cap, so a dimmed board
still shows the App's exact colours.
"""

from host_tools.words.explain import explain

DEFAULT_LEDS = {"count": 36, "squares": 30, "sticks": 30, "side_black": 34, "side_white": 35}
APP_NAMES = ("position", "ruleset", "state", "turn", "throw", "sticks", "mode")


def leds_layout():
    """Where the lights are on the strip: firmware/pins.py's map, or the default."""
    try:
        from firmware.pins import PINMAP
        leds = PINMAP["leds"]
    except (ImportError, KeyError):
        leds = DEFAULT_LEDS
    return {k: leds[k] for k in DEFAULT_LEDS if k in leds}


def brightness_cap(app, config):
    """The App's brightness cap (its config, then ``config``, then the pin
    map), 255 when none is a whole number from 1 to 255."""
    cap = None
    app_config = getattr(app, "config", None)
    if isinstance(app_config, dict):
        cap = app_config.get("brightness_cap")
    if cap is None:
        cap = config.get("brightness_cap")
    if cap is None:
        try:
            from firmware.pins import BRIGHTNESS_CAP as cap
        except ImportError:
            cap = 255
    return cap if isinstance(cap, int) and 0 < cap <= 255 else 255


def app_value(app, name):
    """``app.name``, or None when the App has none or reading it fails."""
    try:
        return getattr(app, name, None)
    except Exception:                   # a property that fails is shown as unknown
        return None


def ruleset_name(app, config):
    """The name of the App's ruleset, else ``config``'s, else "kendall"."""
    value = app_value(app, "ruleset")
    name = getattr(value, "name", value)
    if isinstance(name, str):
        return name
    return config.get("ruleset", "kendall")


def app_state(app, config):
    """The App's public state as plain JSON values, and its opponent."""
    state = {}
    for name in APP_NAMES:
        value = app_value(app, name)
        if name == "ruleset":
            value = ruleset_name(app, config)
        elif name == "sticks" and value is not None:
            value = list(value)
        elif value is not None and not isinstance(value, (str, int, float, bool, list, dict)):
            value = str(value)
        state[name] = value
    computer = (getattr(app, "config", None) or {}).get("computer")
    state["computer"] = dict(computer) if isinstance(computer, dict) else None
    return state


def board_words(state, roles, app, story):
    """What the page says, from ``state`` (as app_state gives it), the LED
    ``roles``, the ``app`` (its game, once over) and the ``story`` its events
    told (host_tools/words/explain.py reads them)."""
    board = {"state": state["state"], "turn": state["turn"], "throw": state["throw"],
             "roles": list(roles), "mode": state["mode"]}
    if state["mode"] == "computer" and state["computer"]:
        board["computer_side"] = state["computer"].get("side")
    if state["state"] == "game_over":
        game = app_value(app, "game")
        board["winner"] = getattr(game, "winner", None)
        board["score"] = getattr(game, "score", None)
    return explain(board, story)


def can_take_back(app, state):
    """Whether the board would take a move back now, as the App's own
    takeback decides: a move to take back, not while the board is being set
    up or the game is over, and never in museum mode (its serial line only
    reports)."""
    if app_value(app, "museum") or state in ("setup", "game_over", None):
        return False
    game = app_value(app, "game")
    try:
        return any(text is not None for _, _, text in game.turns())
    except Exception:                   # an App without a game log: nothing to take back
        return False
