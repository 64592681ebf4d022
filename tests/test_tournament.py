"""The tournament's 95% Wilson score interval, against values worked out by hand.

The reference figures come from the interval's other closed form,

    (2np + z^2 -/+ z * sqrt(z^2 + 4np(1 - p))) / (2(n + z^2)),   z = 1.96,

evaluated step by step in each comment, not from the code under test:

- 0 of 10: z^2 = 3.8416; low = 0; high = 2 * 3.8416 / 27.6832 = 0.27754
- 1 of 10: 2np + z^2 = 5.8416; sqrt(3.8416 + 3.6) = 2.72793, x 1.96 = 5.34674;
  low = 0.49486 / 27.6832 = 0.01788; high = 11.18834 / 27.6832 = 0.40416
- 50 of 100: 2np + z^2 = 103.8416; sqrt(3.8416 + 100) = 10.19027, x 1.96 =
  19.97293; low = 83.86867 / 207.6832 = 0.40383; high = 123.81453 / 207.6832 = 0.59617
- 10 of 10: mirror of 0 of 10: low = 0.72246, high = 1
"""

import pytest

from host_tools.tournament import wilson


@pytest.mark.parametrize("wins, n, low, high", [
    (0, 10, 0.0, 0.27754),
    (1, 10, 0.01788, 0.40416),
    (50, 100, 0.40383, 0.59617),
    (10, 10, 0.72246, 1.0),
])
def test_the_interval_matches_the_hand_worked_values(wins, n, low, high):
    got = wilson(wins, n)
    assert got == pytest.approx((low, high), abs=5e-5)


def test_no_games_say_nothing():
    assert wilson(0, 0) == (0.0, 1.0)


def test_the_interval_narrows_as_games_are_added_and_holds_the_rate():
    previous = 1.0
    for n in (10, 100, 1000, 10000):
        low, high = wilson(0.6 * n, n)
        assert low < 0.6 < high
        assert high - low < previous
        previous = high - low
    assert previous == pytest.approx(2 * 1.96 * (0.6 * 0.4 / 10000) ** 0.5, rel=1e-3)
