"""What the players see: every role readable without colour, calm blinking,
and a strip that never draws more than its supply gives."""

import os
import re

import pytest

from firmware import lights, pins
from firmware.lights import Lights, PATTERNS, STYLES, estimate_ma, wave
import paths

ROOT = paths.ROOT
LEDS = {"count": 36, "order": "GRB", "squares": 30, "sticks": 30,
        "side_black": 34, "side_white": 35}
ONE = {"count": 1}


def documented_roles():
    """The roles listed in docs/dev/firmware-modules.md."""
    text = open(os.path.join(ROOT, "docs", "dev", "firmware-modules.md")).read()
    block = text.split("## lights.py", 1)[1].split("```", 2)[1]
    return set(re.findall(r'^"([a-z_]*)"', block, re.M))


def test_every_documented_role_has_a_look():
    roles = documented_roles()
    assert "target" in roles and "" in roles and len(roles) >= 17
    assert roles <= set(STYLES)


def test_roles_differ_by_blink_pattern_or_brightness_not_only_colour():
    looks = {}
    for role, (colour, pattern, level) in STYLES.items():
        assert (pattern, level) not in looks, (role, looks.get((pattern, level)))
        looks[(pattern, level)] = role


def brightness_over_time(role, ms, step=1, cap=255, index=0, count=1):
    """The brightest channel of ``role`` at each ms: what an eye without colour sees."""
    light = Lights({"count": count}, cap)
    roles = [role] * count
    return [max(light.render(t, roles)[index]) for t in range(0, ms, step)]


def test_roles_look_different_on_the_board_without_their_colours():
    # Rendered at full cap, a colour-blind eye still tells every role apart.
    traces = {}
    for role in STYLES:
        trace = tuple(brightness_over_time(role, 4000, step=10))
        assert trace not in traces, (role, traces.get(trace))
        traces[trace] = role


@pytest.mark.parametrize("role", sorted(STYLES))
def test_nothing_blinks_faster_than_three_times_a_second(role):
    # 12 s covers a whole number of every pattern's periods.
    trace = brightness_over_time(role, 12000)
    peak = max(trace)
    if peak == 0:
        return
    on = [v > peak // 2 for v in trace]
    rises = [t for t in range(1, len(on)) if on[t] and not on[t - 1]]
    for a, b in zip(rises, rises[1:]):
        assert b - a >= 333, (role, a, b)
    falls = [t for t in range(1, len(on)) if on[t - 1] and not on[t]]
    for a, b in zip(falls, falls[1:]):
        assert b - a >= 333, (role, a, b)


def test_the_attract_glow_travels_along_the_path_slowly():
    light = Lights(LEDS, 255)
    roles = ["attract"] * 30 + [""] * 6
    first = light.render(0, roles)
    assert len(set(first[:30])) > 5             # a wave, not one flat colour
    traces = {0: [], 7: [], 29: []}
    for t in range(0, 12000, 2):
        frame = light.render(t, roles)
        for index in traces:
            traces[index].append(max(frame[index]))
    for trace in traces.values():
        on = [v > max(trace) // 2 for v in trace]
        rises = [2 * t for t in range(1, len(on)) if on[t] and not on[t - 1]]
        assert len(rises) >= 2
        assert all(b - a >= 333 for a, b in zip(rises, rises[1:]))
    assert traces[0] != traces[7]                 # each LED a little behind the one before


def test_patterns_are_calm_by_construction():
    for name, (kind, period, data) in PATTERNS.items():
        if period:
            assert period >= 333, name
        assert wave(PATTERNS[name], 0) >= 0


def test_the_brightness_cap_limits_every_channel():
    for cap in (0, 20, 37, 100, 255):
        light = Lights(LEDS, cap)
        for role in STYLES:
            for t in range(0, 2400, 50):
                for colour in light.render(t, [role] * 36):
                    assert max(colour) <= cap, (role, cap, t)


def test_dim_roles_stay_visible_under_a_low_cap():
    light = Lights(LEDS, 5)
    for role in STYLES:
        if role:
            peak = max(max(light.render(t, [role] * 36)[0]) for t in range(0, 4000, 10))
            assert peak >= 1, role


def worst_frame(light):
    """The frame drawing the most current, over every role and moment."""
    worst = None
    worst_ma = -1
    for role in STYLES:
        for t in range(0, 4000, 25):
            frame = list(light.render(t, [role] * light.count))
            ma = estimate_ma(frame)
            if ma > worst_ma:
                worst, worst_ma = frame, ma
    return worst, worst_ma


def test_the_worst_frame_stays_within_500_ma():
    # Default cap, USB supply: every LED white at the cap.
    light = Lights(LEDS, pins.BRIGHTNESS_CAP)
    frame, ma = worst_frame(light)
    assert frame == [(pins.BRIGHTNESS_CAP,) * 3] * 36
    assert ma <= 400 < 500                        # the planned budget, and the port's limit
    assert ma == pytest.approx(399.4, abs=0.1)


@pytest.mark.parametrize("cap", [38, 64, 128, 255])
def test_a_cap_set_too_high_is_held_to_the_budget_by_the_current_limiter(cap):
    light = Lights(LEDS, cap)
    frame = light.render(0, ["stick_white"] * 36)
    assert light.limited
    assert estimate_ma(frame) <= 400
    assert estimate_ma(frame) > 390               # scaled just enough, not blacked out
    r, g, b = frame[0]
    assert r == g == b                            # the colour kept its hue


def test_a_bright_mixed_frame_keeps_its_colours_when_limited():
    light = Lights(LEDS, 255)
    roles = ["error"] * 10 + ["target"] * 10 + ["put"] * 10 + ["stick_white"] * 4 + ["turn"] * 2
    frame = light.render(0, roles)
    assert light.limited and estimate_ma(frame) <= 400
    r, g, b = frame[0]
    assert r > 3 * g and b == 0                   # error still vermillion


def test_a_2a_supply_lets_a_museum_board_shine_brighter():
    leds = dict(LEDS, supply_ma=2000)
    light = Lights(leds, pins.BRIGHTNESS_CAP_2A)
    frame, ma = worst_frame(light)
    assert ma <= 1600
    assert not light.limited or ma > 1590
    assert light.max_channel_sum == pins.FRAME_CHANNEL_SUM_MAX_2A


def test_the_limit_agrees_with_the_hardware_budget():
    assert Lights(LEDS, 37).max_channel_sum == pins.FRAME_CHANNEL_SUM_MAX


def test_the_frame_is_in_strip_order_and_unknown_roles_are_dark():
    light = Lights(LEDS, 255)
    roles = [""] * 36
    roles[4] = "target"
    roles[34] = "turn"
    roles[7] = "no-such-role"
    frame = light.render(1000, roles)
    assert len(frame) == 36
    assert frame[4] != (0, 0, 0) and frame[34] != (0, 0, 0)
    assert frame[7] == (0, 0, 0)
    assert all(c == (0, 0, 0) for i, c in enumerate(frame) if i not in (4, 34))
    short = light.render(1000, ["target"])           # fewer roles than LEDs: the rest dark
    assert short[0] != (0, 0, 0) and short[1] == (0, 0, 0)


def test_a_steady_frame_reuses_its_storage():
    light = Lights(LEDS, 37)
    roles = ["movable"] * 10 + [""] * 26
    first = light.render(0, roles)
    kept = list(first)
    second = light.render(40, roles)
    assert second is first                         # the same list, refilled
    assert not light.changed
    assert all(a is b for a, b in zip(kept, second))   # and the same tuples
    light.render(40, ["target"] + roles[1:])
    assert light.changed


def reference_frame(light, now_ms, roles):
    """The frame worked out from nothing, the plain way: each LED's colour at
    its level, cap and blink phase, then the whole frame scaled down if it
    would draw more than the budget."""
    raw = []
    for i in range(light.count):
        role = roles[i] if i < len(roles) else ""
        colour, pattern, level = STYLES.get(role, STYLES[""])
        style = light._styles.get(role, 0)
        rgb = [(style >> 16) & 255, (style >> 8) & 255, style & 255]
        if any(rgb) and PATTERNS[pattern][0] != 0:
            t = now_ms - i * 150 if role == "attract" else now_ms
            w = wave(PATTERNS[pattern], t)
            rgb = [c * w // 255 for c in rgb]
        raw.append(rgb)
    total = sum(sum(c) for c in raw)
    if total > light.max_channel_sum:
        raw = [[c * light.max_channel_sum // total for c in rgb] for rgb in raw]
    return [tuple(c) for c in raw]


@pytest.mark.parametrize("cap", [37, 90, 255])
def test_the_one_pass_render_gives_the_plain_frame_through_limits_and_back(cap):
    """Random frames, bright and dim, blinking and steady, in and out of the
    current limit: every frame equals the one worked out from nothing, and
    ``changed`` says exactly whether it differs from the one before."""
    import random
    rnd = random.Random(cap)
    light = Lights(LEDS, cap)
    names = sorted(STYLES)
    before = [(0, 0, 0)] * 36
    limited_seen = unlimited_seen = 0
    for step in range(400):
        if rnd.random() < 0.3:
            roles = [rnd.choice(names) if rnd.random() < 0.7 else "" for _ in range(36)]
        elif rnd.random() < 0.2:
            roles = [""] * 36
        now = step * 40
        frame = light.render(now, roles)
        want = reference_frame(light, now, roles)
        assert list(frame) == want, step
        assert light.changed == (want != before), step
        before = want
        limited_seen += light.limited
        unlimited_seen += not light.limited
    if cap == 255:
        assert limited_seen > 20 and unlimited_seen > 20   # both ways, many times


def test_the_palette_avoids_relying_on_red_against_green():
    # Where red-ish and green-ish roles meet on the squares they blink differently.
    assert STYLES["error"][1] != STYLES["target"][1]
    assert STYLES["error"][1] != STYLES["movable"][1]
    assert STYLES["missing"][1] != STYLES["setup"][1]


def test_cap_out_of_range_is_refused():
    with pytest.raises(ValueError):
        Lights(LEDS, 256)


def test_budget_is_eighty_percent_of_the_supply():
    assert lights.budget_ma() == pins.BUDGET_MA
    assert lights.budget_ma(2000) == pins.BUDGET_MA_2A


# -- each role's colour, as docs/lights.md names it -------------------------------

# The Okabe-Ito colours in linear light, scaled to 255 (firmware/lights.py).
PALETTE = {
    "blue": (0, 95, 255), "sky blue": (28, 146, 255), "bluish green": (0, 255, 126),
    "orange": (255, 113, 0), "vermillion": (255, 41, 0), "yellow": (255, 228, 15),
    "reddish purple": (255, 80, 163), "white": (255, 255, 255),
}
LEVELS = {"dim": lights._LOW, "medium": lights._MID, "bright": lights._HIGH,
          "brightest": lights._FULL}


def documented_looks():
    """role -> (colour name, level name) from the tables of docs/lights.md."""
    text = open(os.path.join(ROOT, "docs", "lights.md")).read()
    looks = {}
    for role, look in re.findall(r"^\| ([a-z_]+) \| ([^|]+) \|", text, re.M):
        parts = [p.strip() for p in look.split(",")]
        if parts[0] in PALETTE:
            level = [p for p in parts if p in LEVELS]
            looks[role] = (parts[0], level[0] if level else None)
    return looks


def test_every_role_is_documented_with_its_colour():
    looks = documented_looks()
    assert set(STYLES) - {""} == set(looks), set(STYLES) ^ set(looks)


@pytest.mark.parametrize("role", sorted(set(STYLES) - {""}))
def test_each_role_is_drawn_in_its_documented_colour_at_its_level(role):
    colour_name, level_name = documented_looks()[role]
    colour = PALETTE[colour_name]
    colour_, pattern, level = STYLES[role]
    if level_name is not None:
        assert level == LEVELS[level_name]
    # Drawn at full cap at the pattern's brightest moment: the colour, at the level.
    kind, period, _ = PATTERNS[pattern]
    t = period // 2 if kind == 2 else 0          # a swell peaks half way; a blink starts on
    if role == "attract":
        t = period // 2                          # LED 0 of the travelling glow
    got = Lights({"count": 1}, 255).render(t, [role])[0]
    assert got == tuple(c * level // 255 for c in colour), (role, colour_name)

