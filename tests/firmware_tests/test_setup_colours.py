"""Setting up says which colour goes where.

Kendall starts with black on the odd squares 1..9 and white on the even ones
(K2); the Hungarian ruleset the other way round (H2). The reed switches only
feel a magnet, so during the setup check (and while a takeback is put back)
each square's light takes the colour of the piece that belongs there: blue
for a black piece, yellow for a white one, the yellow much the brighter.
A square already holding a piece keeps that colour, dimmer and swelling
softly, so a visitor can check that the piece standing there is the right
colour: a swapped pair looks to the switches exactly like a right one.

Blue against yellow is the one pair of hues that people with the common
red-green colour blindness (protanopia, deuteranopia) see as well as
anyone; the test below simulates both, and tritanopia, and also requires
a brightness difference, which every eye sees.
"""

import pytest

from firmware.lights import Lights, STYLES, side_styles

from board_sim import BoardSim

KENDALL_BLACK = [1, 3, 5, 7, 9]          # K2
HUNGARIAN_BLACK = [2, 4, 6, 8, 10]       # H2


def hue(rgb):
    """"blue", "yellow" or "dark" for an LED colour (r, g, b)."""
    r, g, b = rgb
    if r + g + b == 0:
        return "dark"
    if b > r and b > 0:
        return "blue"
    if r > b and g > b:
        return "yellow"
    return "other"


def lit_hues(board, squares, ms=1200):
    """The hue each square shows while lit, over a whole blink period."""
    seen = {s: set() for s in squares}
    end = board.t + ms
    while board.t < end:
        board.step()
        for s in squares:
            h = hue(board.app.frame[s - 1])
            if h != "dark":
                seen[s].add(h)
    return seen


def brightest(board, square, ms=2000):
    peak = 0
    end = board.t + ms
    while board.t < end:
        board.step()
        peak = max(peak, sum(board.app.frame[square - 1]))
    return peak


@pytest.mark.parametrize("ruleset, black", [("kendall", KENDALL_BLACK),
                                            ("hungarian", HUNGARIAN_BLACK)])
def test_an_empty_board_lights_each_start_square_in_the_colour_of_its_piece(ruleset, black):
    board = BoardSim(config={"ruleset": ruleset})
    board.wait()
    assert board.app.state == "setup"
    assert board.squares_with("put") == list(range(1, 11))
    seen = lit_hues(board, range(1, 11))
    for s in range(1, 11):
        want = "blue" if s in black else "yellow"
        assert seen[s] == {want}, (ruleset, s, seen[s])
        assert board.app.led_roles[s - 1] == ("put_black" if s in black else "put_white")


def test_hungarian_black_on_1_and_white_on_2_no_longer_look_alike():
    """The issue's case: both glowed the same green, "already right"."""
    board = BoardSim(config={"ruleset": "hungarian"})
    board.set_board(0b11)                         # pieces on 1 and 2
    assert board.squares_with("setup") == [1, 2]
    seen = lit_hues(board, (1, 2), ms=2100)
    assert seen[1] == {"yellow"} and seen[2] == {"blue"}, seen
    assert board.app.led_roles[:2] == ["setup_white", "setup_black"]


def test_a_white_square_is_brighter_than_a_black_one_in_both_looks():
    board = BoardSim(config={"ruleset": "kendall"})
    board.wait()
    assert brightest(board, 2) > 2 * brightest(board, 1)     # put: white 2, black 1
    board.set_board(0b11)
    assert brightest(board, 2) > 2 * brightest(board, 1)     # already placed


def test_a_takeback_asks_for_the_piece_back_in_its_colour():
    """White's first move 10-11 taken back (a long press): square 10 wants
    its white piece again, in white's yellow; 11 is to be cleared."""
    from board_sim import throws
    board = BoardSim(rng=throws(1))
    board.setup().press()                 # the first 1: white starts with it (K4)
    board.move(10, 11)
    assert board.last("move")["move"] == "10-11"
    board.hold()                          # take it back
    assert board.app.state == "takeback"
    assert board.squares_with("put") == [10] and board.squares_with("take") == [11]
    seen = lit_hues(board, [10])
    assert seen[10] == {"yellow"}, seen   # square 10 is white's in kendall (K2)


def test_the_setup_colours_and_the_other_roles_keep_their_looks_apart():
    """Each setup look differs from every role of STYLES by blink pattern or
    brightness, and the two colours of one look share its pattern."""
    side = side_styles()
    assert sorted(side) == ["put_black", "put_white", "setup_black", "setup_white"]
    assert side["put_black"][1] == side["put_white"][1]            # both: put a piece here
    assert side["setup_black"][1] == side["setup_white"][1]        # both: already there
    assert side["put_black"][1] != side["setup_black"][1]
    looks = set((pattern, level) for _, pattern, level in STYLES.values())
    for role in side:
        assert side[role][1:] not in looks, role
        assert role not in STYLES


# -- colour blindness, simulated ---------------------------------------------------
# Machado, Oliveira and Fernandes (2009), severity 1.0, on linear RGB: what a
# dichromat's eye makes of a colour. The LED values are linear light already
# (firmware/lights.py converts its palette so).
SIMULATIONS = {
    "normal": ((1, 0, 0), (0, 1, 0), (0, 0, 1)),
    "protanopia": ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216),
                   (-0.003882, -0.048116, 1.051998)),
    "deuteranopia": ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413),
                     (-0.011820, 0.042940, 0.968881)),
    "tritanopia": ((1.255528, -0.076749, -0.178779), (-0.078411, 0.930809, 0.147602),
                   (0.004733, 0.691367, 0.303900)),
}


def seen_as(role, eye):
    """The role's colour at its level, linear 0..1, as ``eye`` sees it."""
    colour, _, level = side_styles()[role]
    lin = [c / 255 * level / 255 for c in colour]
    m = SIMULATIONS[eye]
    return [min(1.0, max(0.0, sum(m[i][j] * lin[j] for j in range(3)))) for i in range(3)]


def lab(rgb):
    """CIELAB (D65) of a linear sRGB colour."""
    r, g, b = rgb
    x = 0.4124 * r + 0.3576 * g + 0.1805 * b
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = 0.0193 * r + 0.1192 * g + 0.9505 * b

    def f(t):
        return t ** (1 / 3) if t > 216 / 24389 else (24389 / 27 * t + 16) / 116
    fx, fy, fz = f(x / 0.95047), f(y), f(z / 1.08883)
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


def delta_e(a, b):
    return sum((p - q) ** 2 for p, q in zip(lab(a), lab(b))) ** 0.5


def luminance(rgb):
    return 0.2126 * rgb[0] + 0.7152 * rgb[1] + 0.0722 * rgb[2]


def contrast(a, b):
    la, lb = sorted((luminance(a), luminance(b)))
    return (lb + 0.05) / (la + 0.05)


def test_the_simulation_loses_red_against_green_so_it_can_tell():
    """The yardstick first: a red and a green that a normal eye sees far
    apart are near one colour to a deuteranope."""
    red, green = [1.0, 0.0, 0.0], [0.0, 0.427, 0.0]
    m = SIMULATIONS["deuteranopia"]

    def sim(c):
        return [min(1.0, max(0.0, sum(m[i][j] * c[j] for j in range(3)))) for i in range(3)]
    assert delta_e(red, green) > 80
    assert delta_e(sim(red), sim(green)) < 10


@pytest.mark.parametrize("eye", sorted(SIMULATIONS))
@pytest.mark.parametrize("pair", [("put_black", "put_white"), ("setup_black", "setup_white")])
def test_black_and_white_squares_differ_for_every_eye(eye, pair):
    black, white = (seen_as(role, eye) for role in pair)
    assert delta_e(black, white) >= 30, (eye, pair, delta_e(black, white))
    assert contrast(black, white) >= 2.5, (eye, pair, contrast(black, white))
    assert luminance(white) > luminance(black)        # white pieces: the bright light


def test_the_setup_colours_render_under_the_cap():
    light = Lights({"count": 4}, 60)
    peaks = [0] * 4
    for t in range(0, 2000, 50):          # a whole swell; a blink is on at first
        frame = light.render(t, ["put_black", "put_white", "setup_black", "setup_white"])
        assert all(max(c) <= 60 for c in frame)
        peaks = [max(p, max(c)) for p, c in zip(peaks, frame)]
    assert all(p > 0 for p in peaks), peaks
