"""What players meet in real games, with 95% confidence intervals, beside exact values.

For k cards drawn at random from the 3^P, each of the C(k,3) triples is a set with probability
1/(3^P - 2) (two cards fix the third), so the expected number of sets is C(k,3)/(3^P - 2): 220/79
for 12 cards of the real deck. Proportions from independent games get Wilson intervals; rates that
pool several inspections of one game get ratio-estimator intervals with games as clusters.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from setlab.cards import deck_size
from setlab.errors import SetlabError
from setlab.game import GameTally

Z95 = 1.959963984540054
"""The two-sided 95% point of the standard normal distribution."""


@dataclass(frozen=True)
class Estimate:
    """A value with its 95% confidence interval ``[low, high]`` and the number of observations."""

    value: float
    low: float
    high: float
    observations: int

    def odds(self) -> Estimate:
        """The odds against the event, X meaning X:1, i.e. (1 - p)/p (infinite when p = 0)."""
        return Estimate(_odds(self.value), _odds(self.high), _odds(self.low), self.observations)

    def as_list(self) -> list[float | None]:
        """``[low, high]`` for JSON (an infinite end as ``None``)."""
        return [_finite(self.low), _finite(self.high)]


def _odds(p: float) -> float:
    return math.inf if p <= 0 else (1 - p) / p


def _finite(x: float) -> float | None:
    return None if not math.isfinite(x) else float(x)


def wilson(successes: int, trials: int) -> Estimate:
    """A binomial proportion with its Wilson score 95% interval.

    References
    ----------
    E. B. Wilson, "Probable inference, the law of succession, and statistical inference", JASA 1927.

    Examples
    --------
    >>> e = wilson(30, 1000)
    >>> round(e.value, 3), round(e.low, 4), round(e.high, 4)
    (0.03, 0.0211, 0.0425)
    """
    if trials == 0:
        return Estimate(math.nan, math.nan, math.nan, 0)
    p = successes / trials
    z2 = Z95 * Z95
    centre = (p + z2 / (2 * trials)) / (1 + z2 / trials)
    half = Z95 * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / (1 + z2 / trials)
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == trials else min(1.0, centre + half)
    return Estimate(p, low, high, trials)


def clustered_ratio(sums: np.ndarray, games: int) -> Estimate:
    """Ratio sum(y)/sum(n) over games with a cluster-robust (delta method) 95% interval.

    ``sums`` = (sum n, sum y, sum n^2, sum y^2, sum n*y) over the games (y may count events or
    add up values, such as sets seen on n tables); the residual of a game
    is y - p n, and var(p) = G/(G-1) * sum (y - p n)^2 / (sum n)^2.

    Examples
    --------
    >>> e = clustered_ratio(np.array([4, 2, 8, 2, 4]), 2)  # games (n, y) = (2, 1), (2, 1)
    >>> e.value, e.low, e.high
    (0.5, 0.5, 0.5)
    """
    n, y, nn, yy, ny = (int(v) for v in sums[:5])
    if n == 0:
        return Estimate(math.nan, math.nan, math.nan, 0)
    if y in (0, n):  # no spread to measure: fall back to the binomial interval
        return wilson(y, n)
    p = y / n
    residual = max(0.0, yy - 2 * p * ny + p * p * nn)
    half = Z95 * math.sqrt(games / max(games - 1, 1) * residual) / n
    return Estimate(p, max(0.0, p - half), p + half, n)


def mean_estimate(total: float, square: float, count: int) -> Estimate:
    """A mean of ``count`` independent observations with a normal 95% interval."""
    if count == 0:
        return Estimate(math.nan, math.nan, math.nan, 0)
    mean = total / count
    var = max(0.0, square / count - mean * mean) * count / max(count - 1, 1)
    half = Z95 * math.sqrt(var / count)
    return Estimate(mean, mean - half, mean + half, count)


def expected_sets(cards: int, properties: int = 4) -> Fraction:
    """Exact expected number of sets among ``cards`` random cards: C(k,3)/(3^P - 2).

    Examples
    --------
    >>> expected_sets(12), expected_sets(15), float(expected_sets(12))
    (Fraction(220, 79), Fraction(455, 79), 2.7848101265822787)
    """
    return Fraction(math.comb(cards, 3), deck_size(properties) - 2)


def exact_no_set_probability(cards: int, properties: int = 4) -> Fraction | None:
    """Exact probability that ``cards`` random cards hold no set, when setlab can prove it.

    The value comes from cap counting, :func:`setlab.extremal.caps.no_set_probability` (k-caps
    over C(3^P, k)); where that does not cover the deck (P > 4) this returns None and no exact
    value is printed.

    Examples
    --------
    >>> exact_no_set_probability(2)  # two cards never hold a set
    Fraction(1, 1)
    >>> exact_no_set_probability(12)
    Fraction(325432404, 10074689485)
    """
    if cards < 3:
        return Fraction(1)
    from setlab.extremal.caps import no_set_probability  # cap counting, imported on first use

    try:
        return no_set_probability(cards, properties)
    except SetlabError:  # the cap counter does not cover this deck
        return None


def by_round(tally: GameTally, cards: int | None = None) -> list[Estimate]:
    """Probability of no set on a table of ``cards`` (default: the deal) in each round.

    A game meets at most one such table per round, so games are independent observations.
    """
    k = tally.deal if cards is None else cards
    return [
        wilson(int(y), int(n))
        for y, n in zip(tally.no_set[:, k], tally.inspections[:, k], strict=True)
    ]


def set_distribution(tally: GameTally, cards: int) -> np.ndarray:
    """Fraction of inspections of ``cards`` cards with s sets, for s = 0, 1, ... (trimmed)."""
    counts = tally.set_counts[cards]
    total = counts.sum()
    if total == 0:
        return np.zeros(0)
    last = int(np.nonzero(counts)[0].max())
    return counts[: last + 1] / total


def _estimate_json(e: Estimate) -> dict[str, Any]:
    return {"value": _finite(e.value), "ci95": e.as_list(), "observations": e.observations}


def summary(tally: GameTally) -> dict[str, Any]:
    """Every statistic of a simulation, as one JSON-ready dictionary.

    Odds are numbers X meaning X:1 against having no set (null when no such table was seen
    without a set); ``*_ci`` are 95% intervals; ``rounds`` are numbered from 1 (the first deal);
    "15" and "18" mean the deal plus 3 and plus 6 cards. ``mean_sets_12`` is over every table
    of the deal size met in play; ``first_deal_mean_sets_12`` only over first deals (random
    cards, so it estimates ``exact.mean_sets_12``).

    Examples
    --------
    >>> from setlab.game import simulate
    >>> s = summary(simulate(200, seed=2))
    >>> s["games"], 0 < s["first_round_no_set_odds"] and s["mean_sets_12"] > 0
    (200, True)
    """
    k, games, p = tally.deal, tally.games, tally.properties
    rounds = by_round(tally)
    first = rounds[0]
    later = clustered_ratio(tally.later_by_game, games)
    no_set = {extra: clustered_ratio(tally.by_game[k + extra, :5], games) for extra in (3, 6)}
    never = wilson(int(tally.largest_table[: k + 1].sum()), games)
    mean_12 = clustered_ratio(tally.by_game[k, [0, 5, 2, 6, 7]], games)  # sets per table
    first_sets = mean_estimate(
        int(tally.sets_sum[0, k]), int(tally.sets_square[0, k]), int(tally.inspections[0, k])
    )
    sizes = np.arange(tally.cards_left.size)
    left = mean_estimate(
        int((sizes * tally.cards_left).sum()), int((sizes**2 * tally.cards_left).sum()), games
    )
    played = [r for r, e in enumerate(rounds) if e.observations]
    exact_first = exact_no_set_probability(k, p)
    result: dict[str, Any] = {
        "games": games,
        "seed": tally.seed,
        "properties": p,
        "strategy": tally.strategy,
        "deal": k,
        "first_round_no_set_probability": _finite(first.value),
        "first_round_no_set_probability_ci": first.as_list(),
        "first_round_no_set_odds": _finite(first.odds().value),
        "first_round_no_set_odds_ci": first.odds().as_list(),
        "later_rounds_no_set_probability": _finite(later.value),
        "later_rounds_no_set_odds": _finite(later.odds().value),
        "later_rounds_no_set_odds_ci": later.odds().as_list(),
        "never_needs_15_fraction": _finite(never.value),
        "never_needs_15_fraction_ci": never.as_list(),
        "no_set_probability_15": _finite(no_set[3].value),
        "no_set_odds_15": _finite(no_set[3].odds().value),
        "no_set_odds_15_ci": no_set[3].odds().as_list(),
        "tables_15": no_set[3].observations,
        "no_set_probability_18": _finite(no_set[6].value),
        "no_set_odds_18": _finite(no_set[6].odds().value),
        "no_set_odds_18_ci": no_set[6].odds().as_list(),
        "tables_18": no_set[6].observations,
        "mean_sets_12": _finite(mean_12.value),
        "mean_sets_12_ci": mean_12.as_list(),
        "first_deal_mean_sets_12": _finite(first_sets.value),
        "first_deal_mean_sets_12_ci": first_sets.as_list(),
        "mean_cards_left": _finite(left.value),
        "mean_cards_left_ci": left.as_list(),
        "cards_left": {str(c): int(n) for c, n in enumerate(tally.cards_left) if n},
        "sets_on_table": {
            str(c): set_distribution(tally, c).tolist()
            for c in (k, k + 3, k + 6)
            if c < tally.set_counts.shape[0] and tally.set_counts[c].sum()
        },
        "rounds": [r + 1 for r in played],
        "round_tables_12": [rounds[r].observations for r in played],
        "round_no_set_probability_12": [_finite(rounds[r].value) for r in played],
        "round_no_set_odds_12": [_finite(rounds[r].odds().value) for r in played],
        "round_no_set_odds_12_ci": [rounds[r].odds().as_list() for r in played],
        "exact": {
            "mean_sets_12": float(expected_sets(k, p)),
            "mean_sets_12_fraction": str(expected_sets(k, p)),
            "mean_sets_15": float(expected_sets(k + 3, p)),
            "mean_sets_15_fraction": str(expected_sets(k + 3, p)),
            "first_round_no_set_probability": None if exact_first is None else float(exact_first),
            "first_round_no_set_odds": None if exact_first is None else _odds(float(exact_first)),
        },
    }
    return result
