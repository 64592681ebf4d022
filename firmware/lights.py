"""What the lights show: roles turned into colours, blink patterns and brightness.

The App decides what every LED means (a *role*: "target", "error", ...); this
module decides what that looks like. Every role differs from every other by
its blink pattern or its brightness, not only by its colour, so a player who
cannot tell red from green still reads the board; colours come from the
Okabe-Ito palette. Nothing blinks faster than 2 Hz (the limit is 3 Hz). A
brightness cap limits every channel, and a current limiter scales the whole
frame down whenever the strip would draw more than the power budget allows.
docs/lights.md describes the roles for players and the power arithmetic.
"""

try:
    from micropython import const
except ImportError:
    const = lambda x: x  # noqa: E731


# -- palette and levels -----------------------------------------------------------
# Okabe-Ito colours converted to linear light (gamma 2.2, since an LED has no
# gamma curve) and scaled so the strongest channel is 255; a role's level then
# sets how bright it looks. The colours are written into STYLES below by
# value (a name per colour would cost the Pico's heap a name each):
#   blue (0, 95, 255)        sky blue (28, 146, 255)   bluish green (0, 255, 126)
#   orange (255, 113, 0)     vermillion (255, 41, 0)   yellow (255, 228, 15)
#   reddish purple (255, 80, 163)                       white (255, 255, 255)
_FULL = const(255)       # brightness levels (share of the cap)
_HIGH = const(150)
_MID = const(80)
_LOW = const(36)
# The setup colours: white's yellow is about four times as bright as black's
# blue to the eye (tests/firmware_tests/test_setup_colours.py works it out
# for the colour-blind too), and neither pair shares a look with another role.
_PUT_B = const(110)
_PUT_W = const(210)
_PLACED_B = const(24)
_PLACED_W = const(60)

# -- blink patterns -------------------------------------------------------------
# A pattern is (kind, period_ms, data). "steps": data are the times within the
# period where the light toggles, starting on at 0. "tri": a smooth rise and
# fall (a triangle) from data (the floor, 0..255) to full and back.
_STEADY = const(0)
_STEPS = const(1)
_TRI = const(2)

PATTERNS = {
    "steady": (_STEADY, 0, None),
    "breathe": (_TRI, 2000, 40),            # 0.5 Hz smooth swell
    "wave": (_TRI, 1000, 40),               # 1 Hz smooth swell
    "glow": (_TRI, 4000, 0),                # 0.25 Hz, shifted along the path
    "slow": (_STEPS, 1000, (500,)),         # 1 Hz: 500 ms on, 500 ms off
    "fast": (_STEPS, 500, (250,)),          # 2 Hz: 250 ms on, 250 ms off
    "double": (_STEPS, 1200, (200, 400, 600)),   # on-off-on, long pause
    "blip": (_STEPS, 1000, (150,)),         # a short flash once a second
}

# role: (colour, pattern, level); every (pattern, level) pair is used once.
STYLES = {
    "": ((0, 0, 0), "steady", 0),
    "movable": ((0, 95, 255), "steady", _MID),                 # blue
    "lifted": ((28, 146, 255), "breathe", _MID),               # sky blue
    "target": ((0, 255, 126), "steady", _HIGH),                # bluish green
    "put": ((28, 146, 255), "slow", _FULL),                    # sky blue
    "take": ((255, 113, 0), "double", _FULL),                  # orange
    "error": ((255, 41, 0), "fast", _FULL),                    # vermillion
    "missing": ((255, 228, 15), "blip", _FULL),                # yellow
    "computer_from": ((255, 80, 163), "wave", _HIGH),          # reddish purple,
    #                                                            unlike lifted's slow swell
    "computer_to": ((255, 80, 163), "slow", _MID),             # reddish purple
    "offer": ((255, 80, 163), "double", _HIGH),                # reddish purple: the
    #                                                            museum offers to play this side
    "turn": ((255, 228, 15), "breathe", _HIGH),                # yellow
    "nomove": ((255, 41, 0), "slow", _HIGH),                   # vermillion
    "winner": ((255, 228, 15), "wave", _FULL),                 # yellow
    "stick_white": ((255, 255, 255), "steady", _FULL),         # white
    "stick_black": ((255, 113, 0), "steady", _LOW),            # orange
    "attract": ((28, 146, 255), "glow", _HIGH),                # sky blue
    "setup": ((0, 255, 126), "breathe", _LOW),                 # bluish green
}
_WAVES = tuple(sorted(PATTERNS))   # a pattern's place here is its number in Lights
_PATTERN_OF = tuple(PATTERNS[name] for name in _WAVES)   # by that number
_STEADY_AT = _WAVES.index("steady")

_ATTRACT_STEP_MS = const(150)   # "glow" phase shift from one LED to the next

def side_styles():
    """The looks of the setup colours, as STYLES gives every other role's:
    role -> (colour, pattern, level). Movable's blue for a black piece,
    missing's yellow for a white one, the yellow brighter; blinking where a
    piece is wanted, swelling softly where one stands. Kept out of STYLES and
    made only when asked (by Lights at start, by the laptop's tools): a
    table always in memory cost the Pico's heap room its games needed."""
    blue = STYLES["movable"][0]
    yellow = STYLES["missing"][0]
    return {"put_black": (blue, "slow", _PUT_B), "put_white": (yellow, "slow", _PUT_W),
            "setup_black": (blue, "breathe", _PLACED_B),
            "setup_white": (yellow, "breathe", _PLACED_W)}


def side_colours(led_roles, position, squares=30):
    """Setup and restore: light each square in its piece's colour.

    Kendall sets black on the odd squares, the Hungarian ruleset on the even
    ones (K2, H2), and a reed switch feels only a magnet, so a board that
    said "put a piece here" let a visitor set up the wrong layout, or swap
    two pieces, unnoticed. ``position`` is the wanted position's text (None:
    not known, nothing changes); the "put" and "setup" roles of
    ``led_roles`` (squares first, in path order) become that side's own.
    """
    if not position:
        return
    for i in range(squares):
        role = led_roles[i]
        if role == "put" or role == "setup":     # wants a piece, or holds one already
            side = position[i]
            if side == "B":
                led_roles[i] = "put_black" if role == "put" else "setup_black"
            elif side == "W":
                led_roles[i] = "put_white" if role == "put" else "setup_white"


# -- power ----------------------------------------------------------------------
# The figures are firmware/pins.py's, worked out in docs/hardware.md: each
# channel draws LED_MA_PER_CHANNEL at 255, each LED LED_IDLE_MA when dark, the
# rest of the board BOARD_MA, and we plan to 80 % of the supply's rating.
_USB_MA = const(500)


def budget_ma(supply_ma=_USB_MA):
    """Current the whole board may draw from a supply rated ``supply_ma``."""
    return supply_ma * 4 // 5


def _power_figures(ma_per_channel, idle_ma, board_ma):
    """The current figures given, each one left out taken from
    firmware/pins.py (read here only: the App lets that module go)."""
    from firmware import pins
    return (pins.LED_MA_PER_CHANNEL if ma_per_channel is None else ma_per_channel,
            pins.LED_IDLE_MA if idle_ma is None else idle_ma,
            pins.BOARD_MA if board_ma is None else board_ma)


def estimate_ma(frame, ma_per_channel=None, idle_ma=None, board_ma=None):
    """Estimated current of the whole board showing ``frame``, in mA: every
    channel draws ``ma_per_channel`` at 255 and in proportion below, every LED
    ``idle_ma`` more, and the Pico and the rest of the board ``board_ma``."""
    ma_per_channel, idle_ma, board_ma = _power_figures(ma_per_channel, idle_ma, board_ma)
    total = 0
    for c in frame:
        total += c[0] + c[1] + c[2]
    return total * ma_per_channel / 255 + idle_ma * len(frame) + board_ma


def wave(pattern, t):
    """Brightness 0..255 of ``pattern`` (a PATTERNS value) at ``t`` ms."""
    kind = pattern[0]
    if kind == _STEADY:
        return 255
    period = pattern[1]
    ph = t % period
    if kind == _STEPS:
        on = 255
        for edge in pattern[2]:
            if ph < edge:
                return on
            on = 255 - on
        return on
    half = period >> 1
    x = ph if ph < half else period - ph
    floor = pattern[2]
    v = floor + (255 - floor) * x // half
    return v & 0xF8 if v < 248 else 255   # coarse steps: fewer strip writes


class Lights:
    """Turns one role per LED into the colours to send to the strip.

    ``leds_config`` is config["leds"]: "count" LEDs, and "supply_ma", the
    rating of the supply (500 for USB, the default). ``cap`` is the
    brightness cap, the largest value any channel may reach (0..255). The
    current figures default to firmware/pins.py.
    """

    def __init__(self, leds_config, cap, ma_per_channel=None, idle_ma=None, board_ma=None):
        count = leds_config["count"]
        if cap < 0 or cap > 255:
            raise ValueError("brightness cap must be 0..255")
        self.count = count
        ma_per_channel, idle_ma, board_ma = _power_figures(ma_per_channel, idle_ma, board_ma)
        # The largest sum of all channel values (0..255 each) of one frame with
        # sum * ma_per_channel / 255 + idle_ma * count + board_ma <= budget.
        spare = budget_ma(leds_config.get("supply_ma", _USB_MA)) - board_ma - idle_ma * count
        self.max_channel_sum = int(spare * 255 // ma_per_channel) if spare > 0 else 0
        self.limited = False           # the last frame was scaled down for power
        self.changed = True            # the last frame differs from the one before
        # Each role's colour at its level and under the cap, worked out once,
        # packed in one small int (no tuple per role): 0xRRGGBB, the pattern's
        # place in _WAVES from bit 24, and bit 28 for the attract glow.
        self._styles = {}
        for looks in (STYLES, side_styles()):
            for role in looks:
                colour, pattern, level = looks[role]
                base = [c * level // 255 * cap // 255 for c in colour]
                if level and cap and max(base) == 0:
                    base[colour.index(max(colour))] = 1   # dim, never invisible
                self._styles[role] = ((base[0] << 16) | (base[1] << 8) | base[2]
                                      | (_WAVES.index(pattern) << 24)
                                      | ((1 << 28) if role == "attract" else 0))
        self._rgb = bytearray(3 * count)
        self.frame = [(0, 0, 0)] * count
        # each pattern's brightness in the frame being drawn (-1: not yet
        # worked out): one wave() a pattern a frame, not one an LED
        self._waves = [-1] * len(_WAVES)

    def render(self, now_ms, led_roles):
        """Colours for every LED in strip order, as a list of (r, g, b).

        ``led_roles`` holds one role per LED (missing or unknown ones are
        dark). The returned list is reused by the next call: copy it to keep
        it. Its tuples are new only where a colour changed.

        One pass in the usual case: ``_rgb`` keeps the colours before the
        power limit, so an LED whose colour is the same as last time costs
        no tuple and no second look. Only a frame that is scaled down for
        power, or the first one after, takes a second pass over the strip.
        """
        rgb = self._rgb
        styles = self._styles
        frame = self.frame
        count = self.count
        n = len(led_roles)
        was_limited = self.limited
        changed = False
        total = 0
        waves = self._waves
        for k in range(len(waves)):
            waves[k] = -1
        for i in range(count):
            style = styles.get(led_roles[i], 0) if i < n else 0
            r = (style >> 16) & 255
            g = (style >> 8) & 255
            b = style & 255
            if r | g | b:
                k = (style >> 24) & 15
                if k != _STEADY_AT:
                    if style & (1 << 28):            # the attract glow: a phase an LED
                        w = wave(_PATTERN_OF[k], now_ms - i * _ATTRACT_STEP_MS)
                    else:
                        w = waves[k]
                        if w < 0:
                            w = waves[k] = wave(_PATTERN_OF[k], now_ms)
                    if w != 255:
                        r = r * w // 255
                        g = g * w // 255
                        b = b * w // 255
                total += r + g + b
            o = 3 * i
            if rgb[o] != r or rgb[o + 1] != g or rgb[o + 2] != b:
                rgb[o] = r
                rgb[o + 1] = g
                rgb[o + 2] = b
                if not was_limited:
                    frame[i] = (r, g, b)
                changed = True
        limit = self.max_channel_sum
        limited = total > limit
        self.limited = limited
        if limited or was_limited:
            changed = False
            for i in range(count):
                o = 3 * i
                r = rgb[o]
                g = rgb[o + 1]
                b = rgb[o + 2]
                if limited:
                    r = r * limit // total
                    g = g * limit // total
                    b = b * limit // total
                old = frame[i]
                if old[0] != r or old[1] != g or old[2] != b:
                    frame[i] = (r, g, b)
                    changed = True
        self.changed = changed
        return frame
