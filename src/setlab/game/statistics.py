"""What players meet in real games, with 95% confidence intervals, beside exact values.

Among k random cards of the 3^P each of the C(k,3) triples is a set with probability 1/(3^P - 2)
(two cards fix the third): C(k,3)/(3^P - 2) sets on average, 220/79 for 12 cards of the real deck.
Proportions from independent games get Wilson intervals; rates that pool several tables of one
game get ratio-estimator (delta method) intervals with games as clusters.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any

import numpy as np

from setlab.cards import check_properties, deck_size
from setlab.errors import SetlabError
from setlab.game.tally import GameTally

if TYPE_CHECKING:
    from setlab.store import Store

__all__ = [
    "Z95",
    "BoardFigures",
    "Estimate",
    "GameSummary",
    "board_figures",
    "by_round",
    "clustered_ratio",
    "exact_no_set_probability",
    "expected_sets",
    "mean_estimate",
    "set_distribution",
    "summary",
    "wilson",
]

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
    """A mean of ``count`` independent observations with a normal 95% interval.

    ``total`` and ``square`` are the sums of the observations and of their squares; the interval
    is mean +- Z95 s / sqrt(count), with s the sample standard deviation (divisor count - 1).

    Examples
    --------
    >>> e = mean_estimate(total=1 + 2 + 3, square=1 + 4 + 9, count=3)  # observations 1, 2, 3
    >>> e.value, round(e.low, 3), round(e.high, 3), e.observations
    (2.0, 0.868, 3.132, 3)
    """
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


def exact_no_set_probability(
    cards: int, properties: int = 4, store: Store | None = None
) -> Fraction | None:
    """Exact probability that ``cards`` random cards hold no set, when setlab can prove it.

    The value comes from cap counting, :func:`setlab.extremal.caps.no_set_probability` (k-caps
    over C(3^P, k); the count table read from ``store``, or counted into it, when one is given);
    where that does not cover the deck (P > 4 and k > 5: counting the caps would take far too
    long) this returns None at once and no exact value is printed.

    Examples
    --------
    >>> exact_no_set_probability(2)  # two cards never hold a set
    Fraction(1, 1)
    >>> exact_no_set_probability(12)
    Fraction(325432404, 10074689485)
    >>> exact_no_set_probability(10, 2)
    Traceback (most recent call last):
    ...
    setlab.errors.SetlabError: cannot draw 10 cards from a deck of 9
    """
    check_properties(properties)
    if not 0 <= cards <= deck_size(properties):
        raise SetlabError(f"cannot draw {cards} cards from a deck of {deck_size(properties)}")
    if cards < 3:
        return Fraction(1)
    from setlab.extremal.caps import no_set_probability  # cap counting, imported on first use

    try:
        return no_set_probability(cards, properties, store=store)
    except SetlabError:  # the cap counter does not cover this deck
        return None


def by_round(tally: GameTally, cards: int | None = None) -> list[Estimate]:
    """Probability of no set on a table of ``cards`` (default: the deal), round by round.

    Entry r is round r + 1 (r sets taken before). A game meets at most one such table per round,
    so games are independent observations (Wilson intervals); a size beyond the deck was never met.

    Examples
    --------
    >>> from setlab.game.tally import GameTally
    >>> t = GameTally.empty(0, seed=0, properties=2, strategy="first", deal=12)
    >>> [e.observations for e in by_round(t)]
    [0, 0, 0, 0]
    """
    k = tally.deal if cards is None else cards
    if not 0 <= k < tally.no_set.shape[1]:
        return [wilson(0, 0) for _ in range(tally.no_set.shape[0])]
    return [
        wilson(int(y), int(n))
        for y, n in zip(tally.no_set[:, k], tally.inspections[:, k], strict=True)
    ]


def set_distribution(tally: GameTally, cards: int) -> np.ndarray:
    """Fraction of inspections of ``cards`` cards with s sets, for s = 0, 1, ... (trimmed).

    Entry s is ``set_counts[cards, s]`` over all inspections of that table size; the array ends
    at the largest count seen, and is empty when no table of ``cards`` cards was inspected.

    Examples
    --------
    >>> t = GameTally.empty(4, seed=0, properties=4, strategy="random", deal=12)
    >>> t.set_counts[12, [0, 2, 3]] = [1, 2, 1]  # four tables of 12: 0, 2, 2 and 3 sets
    >>> set_distribution(t, 12).tolist(), set_distribution(t, 15).tolist()
    ([0.25, 0.0, 0.5, 0.25], [])
    """
    if not 0 <= cards < tally.set_counts.shape[0]:
        return np.zeros(0)
    counts = tally.set_counts[cards]
    total = counts.sum()
    if total == 0:
        return np.zeros(0)
    last = int(np.nonzero(counts)[0].max())
    return counts[: last + 1] / total


@dataclass(frozen=True)
class BoardFigures:
    """What play shows on the tables of ``cards`` cards: every such table met, games as clusters.

    ``no_set`` is the probability that such a table holds no set and ``mean_sets`` the mean
    number of sets on it (both ratio estimators over games); ``set_distribution[s]`` is the
    fraction of these tables with s sets; ``exact_mean_sets`` is C(k,3)/(3^P - 2), the mean for
    k *random* cards, which play does not deal.
    """

    cards: int
    no_set: Estimate
    mean_sets: Estimate
    set_distribution: tuple[float, ...]
    exact_mean_sets: Fraction

    @property
    def tables(self) -> int:
        """How many tables of this size the games met."""
        return self.no_set.observations


def board_figures(tally: GameTally, cards: int) -> BoardFigures:
    """The figures of the tables of ``cards`` cards met in the tallied games.

    Examples
    --------
    >>> from setlab.game.simulator import simulate
    >>> b = board_figures(simulate(200, seed=2), 15)
    >>> b.cards, b.tables == b.mean_sets.observations > 0, b.exact_mean_sets
    (15, True, Fraction(455, 79))
    """
    return BoardFigures(
        cards=cards,
        no_set=clustered_ratio(tally.no_set_sums(cards), tally.games),
        mean_sets=clustered_ratio(tally.sets_sums(cards), tally.games),
        set_distribution=tuple(float(f) for f in set_distribution(tally, cards)),
        exact_mean_sets=expected_sets(cards, tally.properties),
    )


@dataclass(frozen=True)
class GameSummary:
    """Every statistic of a simulation; the CLI, ``--json`` and the report all read this.

    The table sizes follow the deal k: ``boards`` are the figures of the tables of k, k + 3 and
    k + 6 cards met in play (12, 15 and 18 in the real game). ``rounds[r]`` is the probability of
    no set on the table of k cards of round r + 1 (r sets taken before; no observations once no
    game reached it); ``first_round`` is ``rounds[0]``, the first deals, which are random cards.
    ``later_rounds`` pools the tables of k cards of rounds 2, 3, ... (games as clusters);
    ``never_beyond_deal`` is the fraction of games whose table never held more than k cards;
    ``first_deal_mean_sets`` the mean sets on the first deal; ``cards_left[c]`` the games that
    ended with c cards on the table.

    Examples
    --------
    >>> from setlab.game.simulator import simulate
    >>> s = summary(simulate(300, seed=1, properties=3, deal=9))
    >>> [b.cards for b in s.boards], s.board(12).cards, s.first_round.observations
    ([9, 12, 15], 12, 300)
    """

    games: int
    seed: int
    properties: int
    strategy: str
    deal: int
    first_round: Estimate
    later_rounds: Estimate
    rounds: tuple[Estimate, ...]
    never_beyond_deal: Estimate
    first_deal_mean_sets: Estimate
    mean_cards_left: Estimate
    cards_left: tuple[int, ...]
    boards: tuple[BoardFigures, ...]

    def board(self, cards: int) -> BoardFigures:
        """The figures of the tables of ``cards`` cards (the deal, deal + 3 or deal + 6)."""
        for figures in self.boards:
            if figures.cards == cards:
                return figures
        sizes = ", ".join(str(b.cards) for b in self.boards)
        raise SetlabError(f"the summary has tables of {sizes} cards, not {cards}")

    @property
    def exact_first_round(self) -> Fraction | None:
        """Exact probability of no set among ``deal`` random cards (cap counting), if known."""
        return exact_no_set_probability(self.deal, self.properties)

    @property
    def exact_first_round_note(self) -> str | None:
        """Why :attr:`exact_first_round` is None (too costly to count), else None.

        Examples
        --------
        >>> from setlab.game.simulator import simulate
        >>> summary(simulate(5, seed=1, properties=5)).exact_first_round_note
        'not computed: cap counts cover P <= 4'
        """
        if self.exact_first_round is not None:
            return None
        from setlab.extremal.caps import MAX_COUNTED_PROPERTIES

        return f"not computed: cap counts cover P <= {MAX_COUNTED_PROPERTIES}"

    def as_dict(self) -> dict[str, Any]:
        """The summary as the JSON object ``setlab simulate --json`` prints.

        Keys name the table sizes after the deal k (``mean_sets_12``, ``no_set_odds_15``,
        ``no_set_odds_18`` for k = 12). Odds are numbers X meaning X:1 against having no set
        (infinite, i.e. null in JSON, when no such table was seen without a set); ``*_ci`` are
        95% intervals; ``rounds`` are numbered from 1 (the first deal). ``mean_sets_12`` is over
        every table of the deal size met in play; ``first_deal_mean_sets_12`` only over first
        deals (random cards, so it estimates ``exact.mean_sets_12``).

        Examples
        --------
        >>> from setlab.game.simulator import simulate
        >>> d = summary(simulate(200, seed=2)).as_dict()
        >>> d["games"], 0 < d["first_round_no_set_odds"] and d["mean_sets_12"] > 0
        (200, True)
        """
        k, first, later = self.deal, self.first_round, self.later_rounds
        never = self.never_beyond_deal
        here, more, most = self.boards
        played = [r for r, e in enumerate(self.rounds) if e.observations]
        rounds = [self.rounds[r] for r in played]
        exact_first = self.exact_first_round
        result: dict[str, Any] = {
            "games": self.games,
            "seed": self.seed,
            "properties": self.properties,
            "strategy": self.strategy,
            "deal": k,
            "first_round_no_set_probability": _finite(first.value),
            "first_round_no_set_probability_ci": first.as_list(),
            "first_round_no_set_odds": _finite(first.odds().value),
            "first_round_no_set_odds_ci": first.odds().as_list(),
            "later_rounds_no_set_probability": _finite(later.value),
            "later_rounds_no_set_odds": _finite(later.odds().value),
            "later_rounds_no_set_odds_ci": later.odds().as_list(),
            f"never_needs_{more.cards}_fraction": _finite(never.value),
            f"never_needs_{more.cards}_fraction_ci": never.as_list(),
        }
        for board in (more, most):
            c = board.cards
            result[f"no_set_probability_{c}"] = _finite(board.no_set.value)
            result[f"no_set_odds_{c}"] = _finite(board.no_set.odds().value)
            result[f"no_set_odds_{c}_ci"] = board.no_set.odds().as_list()
            result[f"tables_{c}"] = board.tables
        result |= {
            f"mean_sets_{k}": _finite(here.mean_sets.value),
            f"mean_sets_{k}_ci": here.mean_sets.as_list(),
            f"first_deal_mean_sets_{k}": _finite(self.first_deal_mean_sets.value),
            f"first_deal_mean_sets_{k}_ci": self.first_deal_mean_sets.as_list(),
            "mean_cards_left": _finite(self.mean_cards_left.value),
            "mean_cards_left_ci": self.mean_cards_left.as_list(),
            "cards_left": {str(c): n for c, n in enumerate(self.cards_left) if n},
            "sets_on_table": {
                str(b.cards): list(b.set_distribution) for b in self.boards if b.set_distribution
            },
            "rounds": [r + 1 for r in played],
            f"round_tables_{k}": [e.observations for e in rounds],
            f"round_no_set_probability_{k}": [_finite(e.value) for e in rounds],
            f"round_no_set_odds_{k}": [_finite(e.odds().value) for e in rounds],
            f"round_no_set_odds_{k}_ci": [e.odds().as_list() for e in rounds],
            "exact": {
                f"mean_sets_{k}": float(here.exact_mean_sets),
                f"mean_sets_{k}_fraction": str(here.exact_mean_sets),
                f"mean_sets_{more.cards}": float(more.exact_mean_sets),
                f"mean_sets_{more.cards}_fraction": str(more.exact_mean_sets),
                "first_round_no_set_probability": (
                    None if exact_first is None else float(exact_first)
                ),
                "first_round_no_set_odds": (
                    None if exact_first is None else _odds(float(exact_first))
                ),
                "first_round_note": self.exact_first_round_note,
            },
        }
        return result


def summary(tally: GameTally) -> GameSummary:
    """Every statistic of a simulation, typed: see :class:`GameSummary`.

    Parameters
    ----------
    tally
        The tallies of :func:`setlab.game.simulate` (or :func:`setlab.game.tally_games`).

    Returns
    -------
    GameSummary
        The estimates with their 95% intervals, for the tables of the deal, deal + 3, deal + 6.

    Examples
    --------
    >>> from setlab.game.simulator import simulate
    >>> s = summary(simulate(200, seed=2))
    >>> s.games, [b.cards for b in s.boards], 0 < s.first_round.odds().value
    (200, [12, 15, 18], True)
    """
    k, games = tally.deal, tally.games
    rounds = by_round(tally)
    sizes = np.arange(tally.cards_left.size)
    first_deal = mean_estimate(0, 0, 0)  # no table of k cards when the deck is smaller
    if k < tally.inspections.shape[1]:
        first_deal = mean_estimate(
            int(tally.sets_sum[0, k]), int(tally.sets_square[0, k]), int(tally.inspections[0, k])
        )
    return GameSummary(
        games=games,
        seed=tally.seed,
        properties=tally.properties,
        strategy=tally.strategy,
        deal=k,
        first_round=rounds[0],
        later_rounds=clustered_ratio(tally.later_by_game, games),
        rounds=tuple(rounds),
        never_beyond_deal=wilson(int(tally.largest_table[: k + 1].sum()), games),
        first_deal_mean_sets=first_deal,
        mean_cards_left=mean_estimate(
            int((sizes * tally.cards_left).sum()), int((sizes**2 * tally.cards_left).sum()), games
        ),
        cards_left=tuple(int(n) for n in tally.cards_left),
        boards=tuple(board_figures(tally, c) for c in (k, k + 3, k + 6)),
    )
