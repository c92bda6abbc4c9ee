"""Glicko-2 ratings (Mark E. Glickman, "Example of the Glicko-2 system", 2013 revision).

Each rated game is its own rating period, as online ladders play. The volatility (step 5) is
found with the Illinois algorithm of the paper's 2013 revision; some packages still carry the
Newton iteration of its first version, which can settle on a wrong volatility.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

SCALE = 173.7178  # Glicko-2's conversion between the Glicko scale and its own
DEFAULT_RATING = 1500.0
DEFAULT_DEVIATION = 350.0
DEFAULT_VOLATILITY = 0.06
TAU = 0.5  # how much volatility may change; the paper suggests 0.3 to 1.2
EPSILON = 0.000001
PROVISIONAL_DEVIATION = 110.0  # above this a rating is marked provisional


@dataclass(frozen=True)
class Rating:
    rating: float = DEFAULT_RATING
    deviation: float = DEFAULT_DEVIATION
    volatility: float = DEFAULT_VOLATILITY

    @property
    def provisional(self) -> bool:
        return self.deviation > PROVISIONAL_DEVIATION

    @property
    def mu(self) -> float:
        return (self.rating - DEFAULT_RATING) / SCALE

    @property
    def phi(self) -> float:
        return self.deviation / SCALE


@dataclass(frozen=True)
class Result:
    """One game against ``opponent`` (their rating before it): score 1 win, 0.5 draw, 0 loss."""

    opponent: Rating
    score: float


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _expected(mu: float, mu_j: float, g_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-g_j * (mu - mu_j)))


def rate(player: Rating, results: Iterable[Result], tau: float = TAU) -> Rating:
    """The player's rating after one rating period with ``results`` (steps 2 to 8)."""
    results = list(results)
    if not results:
        return inflate(player, 1)
    mu, phi = player.mu, player.phi
    v_inverse = 0.0
    delta_sum = 0.0
    for result in results:
        g_j = _g(result.opponent.phi)
        e_j = _expected(mu, result.opponent.mu, g_j)
        v_inverse += g_j * g_j * e_j * (1.0 - e_j)
        delta_sum += g_j * (result.score - e_j)
    v = 1.0 / v_inverse
    delta = v * delta_sum
    sigma = _volatility(phi, player.volatility, v, delta, tau)
    phi_star = math.sqrt(phi * phi + sigma * sigma)
    new_phi = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    new_mu = mu + new_phi * new_phi * delta_sum
    # A very surprising result raises the volatility enough to leave a newcomer's deviation
    # a hair above a new player's; like ``inflate``, keep it at most that.
    deviation = min(DEFAULT_DEVIATION, new_phi * SCALE)
    return Rating(new_mu * SCALE + DEFAULT_RATING, deviation, sigma)


def _volatility(phi: float, sigma: float, v: float, delta: float, tau: float) -> float:
    """Step 5: the new volatility, by the Illinois algorithm."""
    a = math.log(sigma * sigma)
    phi2, delta2 = phi * phi, delta * delta

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta2 - phi2 - v - ex) / (2.0 * (phi2 + v + ex) ** 2) - (x - a) / (tau * tau)

    low = a
    if delta2 > phi2 + v:
        high = math.log(delta2 - phi2 - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        high = a - k * tau
    f_low, f_high = f(low), f(high)
    while abs(high - low) > EPSILON:
        c = low + (low - high) * f_low / (f_high - f_low)
        f_c = f(c)
        if f_c * f_high <= 0:
            low, f_low = high, f_high
        else:
            f_low /= 2.0
        high, f_high = c, f_c
    return math.exp(low / 2.0)


def inflate(player: Rating, periods: int) -> Rating:
    """Deviation grows over ``periods`` rating periods without games (step 6 alone), capped at
    the deviation of a new player."""
    phi = player.phi
    for _ in range(max(0, periods)):
        phi = math.sqrt(phi * phi + player.volatility * player.volatility)
    deviation = min(DEFAULT_DEVIATION, phi * SCALE)
    return Rating(player.rating, deviation, player.volatility)


def play(first: Rating, second: Rating, score: float) -> tuple[Rating, Rating]:
    """Both ratings after one game in which ``first`` scored ``score`` (1, 0.5 or 0)."""
    return (
        rate(first, [Result(second, score)]),
        rate(second, [Result(first, 1.0 - score)]),
    )
