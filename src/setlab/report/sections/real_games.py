"""The Wikipedia article's odds in real games, reproduced by setlab's own simulation.

Games are played by the rules with :func:`setlab.game.simulate` (random strategy); the odds X:1
against no set on a table are (1 - p)/p. Among k random cards the mean number of sets is exactly
C(k,3)/79 (220/79 for 12, 455/79 for 15); the exact probability of no set among k random cards is
the cap count's, printed only when :func:`setlab.game.exact_no_set_probability` has it. Every
simulated figure is read from the typed :func:`setlab.game.summary`, as ``setlab simulate`` does.
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

from setlab.game import (
    Estimate,
    GameSummary,
    exact_no_set_probability,
    expected_sets,
    plot_odds_by_round,
    plot_sets_on_table,
    simulate,
    summary,
)
from setlab.report.model import Claim, Claims, Context, Figure, Number, Section, Table, Text

__all__ = ["GAMES", "NOT_AVAILABLE", "QUICK_GAMES", "SEED", "TITLE", "build"]

TITLE = "Wikipedia: the odds in real games"

GAMES = 1_000_000
"""Games simulated in the default run (about 10-15 s per million on 2 cores)."""

QUICK_GAMES = 100_000
"""Games simulated with ``--quick``."""

SEED = 1
"""The simulation seed: game g plays the SplitMix64 stream of (SEED, g), as in docs/game.md."""

NOT_AVAILABLE = "exact value: from the cap count, not available in this build"


def _interval(e: Estimate) -> str:
    return f"[{e.low:.4g}, {e.high:.4g}]"


def _estimate(source: Number, e: Estimate, what: str, interval: str) -> Number:
    """A Number holding the estimate ``e`` made from the simulation ``source``."""
    return replace(
        source,
        value=round(e.value, 6),
        how=f"{source.how}; {what}; {interval} 95% CI {_interval(e)}",
    )


def _overlap_tolerance(e: Estimate, seed: float, rounding: float) -> float:
    """Largest |estimate - seed| at which the seed's rounding interval meets the 95% CI.

    The seed value s stands for [s - rounding, s + rounding] (its last stated digit); setlab's
    estimate x has the 95% interval [low, high]. The two agree when the intervals overlap, i.e.
    when |x - s| <= rounding + (high - x if s > x else x - low).
    """
    side = e.high - e.value if seed > e.value else e.value - e.low
    return rounding + side


def _claim(
    statement: str, seed: float, rounding: float, e: Estimate, number: Number, stated: str = "seed"
) -> Claim:
    tolerance = _overlap_tolerance(e, float(seed), rounding)
    return Claim(statement, seed, number, tolerance=tolerance, stated=stated)


def _percent(e: Estimate) -> Estimate:
    return Estimate(100 * e.value, 100 * e.low, 100 * e.high, e.observations)


def build(context: Context) -> Section:
    """Simulate the games, compare every in-play figure of the article, draw both plots."""
    games = QUICK_GAMES if context.quick else GAMES
    simulate(10, seed=SEED)  # load the compiled kernel before timing
    played = context.compute(
        f"simulate({games:,} games, seed {SEED}, random strategy, 12 dealt)",
        simulate, games, seed=SEED,
    )  # fmt: skip
    dealt_15 = context.compute(
        f"simulate({games:,} games, seed {SEED}, random strategy, 15 dealt)",
        simulate, games, seed=SEED, deal=15,
    )  # fmt: skip
    stats: GameSummary = summary(played.value)
    stats_15: GameSummary = summary(dealt_15.value)

    rounds = stats.rounds
    first = stats.first_round.odds()
    no_set_15 = stats.board(15).no_set.odds()
    random_15 = stats_15.first_round.odds()
    never = _percent(stats.never_beyond_deal)
    mean_12, mean_15 = stats.first_deal_mean_sets, stats_15.first_deal_mean_sets
    play_12, play_15 = stats.board(12).mean_sets, stats.board(15).mean_sets
    exact_12, exact_15 = stats.board(12).exact_mean_sets, stats.board(15).exact_mean_sets

    n_first = _estimate(played, first, "odds, first deals", "Wilson")
    n_round = {
        r: _estimate(played, rounds[r - 1].odds(), f"odds, 12-card tables of round {r}", "Wilson")
        for r in range(1, len(rounds) + 1)
        if rounds[r - 1].observations
    }
    n_15 = _estimate(played, no_set_15, "odds, every 15-card table in play", "games-clustered")
    n_random_15 = _estimate(dealt_15, random_15, "odds, first deals of 15", "Wilson")
    n_never = _estimate(played, never, "percent of games whose table never exceeded 12", "Wilson")
    n_mean_12 = _estimate(played, mean_12, "mean sets on the first deal", "normal")
    n_mean_15 = _estimate(dealt_15, mean_15, "mean sets on the first deal of 15", "normal")
    n_play_12 = _estimate(played, play_12, "mean sets, every 12-card table in play", "clustered")
    n_play_15 = _estimate(played, play_15, "mean sets, every 15-card table in play", "clustered")
    n_exact_12 = context.compute("C(12,3)/(81 - 2)", expected_sets, 12)
    n_exact_15 = context.compute("C(15,3)/(81 - 2)", expected_sets, 15)

    later = range(5, 25)  # "after about the 4th round ... for the next 20 rounds"
    between = [r for r in later if r in n_round and 12.5 <= n_round[r].value <= 14.5]
    n_most = replace(
        played,
        value=len(between) > len(later) / 2,
        how=f"{played.how}; {len(between)} of rounds 5-24 have odds in [12.5, 14.5]",
    )

    claims = [
        _claim("No set among 12 cards, first round: odds X:1", 30, 0.5, first, n_first),
        _claim("After about the 4th round: odds X:1 (round 4)", 14, 0.5, rounds[3].odds(),
               n_round[4]),
        _claim("Slowly falling towards 13:1: odds X:1 (round 23, the last with a deck left)", 13,
               0.5, rounds[22].odds(), n_round[23]),
        Claim("Most of the next 20 rounds (5-24) between 14:1 and 13:1", True, n_most),
        _claim("No set among 15 cards in play: odds X:1", 88, 0.5, no_set_15, n_15),
        _claim("No set among any 15 random cards: odds X:1", 2700, 50, random_15, n_random_15),
        _claim("Games never needing 15 cards (percent)", 30, 5, never, n_never),
        Claim("Average sets among 12 random cards, exact", Fraction(220, 79), n_exact_12,
              stated="formula"),
        _claim("Average sets among 12 random cards, simulated first deals", Fraction(220, 79),
               0, mean_12, n_mean_12, stated="formula"),
        Claim("Average sets among 15 random cards, exact", Fraction(455, 79), n_exact_15,
              stated="formula"),
        _claim("Average sets among 15 random cards, simulated first deals", Fraction(455, 79),
               0, mean_15, n_mean_15, stated="formula"),
        Claim("In play the numbers are smaller: 12 cards", True,
              replace(n_play_12, value=play_12.high < exact_12)),
        Claim("In play the numbers are smaller: 15 cards", True,
              replace(n_play_15, value=play_15.high < exact_15)),
    ]  # fmt: skip

    # The exact values come only from the cap count, through the hook; never hard-coded here.
    no_set_rows, exact_odds = [], []
    for cards, simulation, simulated, estimate, number in (
        (12, played, stats, first, n_first),
        (15, dealt_15, stats_15, random_15, n_random_15),
    ):
        probability = simulated.first_round
        n_probability = _estimate(
            simulation, probability, f"probability of no set, first deals of {cards}", "Wilson"
        )
        exact = context.compute(
            f"exact_no_set_probability({cards}) (cap count)", exact_no_set_probability, cards
        )
        if exact.value is None:
            exact_p: Number | str = NOT_AVAILABLE
            exact_odds.append(NOT_AVAILABLE)
        else:
            exact_p = replace(exact, value=float(exact.value))
            odds = replace(exact, value=float((1 - exact.value) / exact.value), how=f"{exact.how}"
                           ", as odds (1 - p)/p")  # fmt: skip
            exact_odds.append(odds)
            claims.append(
                Claim(
                    f"No set among {cards} random cards: exact odds (cap count) vs simulated",
                    odds.value,
                    number,
                    tolerance=_overlap_tolerance(estimate, odds.value, 0),
                    stated="exact",
                )
            )
        no_set_rows.append(
            (f"Probability of no set among {cards} random cards (first deals)", n_probability,
             _interval(probability), f"{probability.observations:,} first deals", exact_p)
        )  # fmt: skip

    estimates = Table(
        ("Figure", "setlab", "95% CI", "Observations", "Exact"),
        (
            ("Odds against no set among 12 cards, first round", n_first, _interval(first),
             f"{first.observations:,} first deals", exact_odds[0]),
            no_set_rows[0],
            ("Odds against no set among 15 cards in play", n_15, _interval(no_set_15),
             f"{no_set_15.observations:,} tables", "none (not random cards)"),
            ("Odds against no set among 15 random cards", n_random_15, _interval(random_15),
             f"{random_15.observations:,} first deals", exact_odds[1]),
            no_set_rows[1],
            ("Games never needing 15 cards (percent)", n_never, _interval(never),
             f"{never.observations:,} games", "none (depends on play)"),
            ("Mean sets among 12 random cards (first deals)", n_mean_12, _interval(mean_12),
             f"{mean_12.observations:,} first deals", n_exact_12),
            ("Mean sets among 15 random cards (first deals)", n_mean_15, _interval(mean_15),
             f"{mean_15.observations:,} first deals", n_exact_15),
            ("Mean sets among 12 cards in play", n_play_12, _interval(play_12),
             f"{play_12.observations:,} tables", "none (depends on play)"),
            ("Mean sets among 15 cards in play", n_play_15, _interval(play_15),
             f"{play_15.observations:,} tables", "none (depends on play)"),
        ),
        "Every estimate with its 95% confidence interval: Wilson for one observation per game, "
        "games as clusters (delta method) where a game meets several such tables.",
    )  # fmt: skip
    by_round_table = Table(
        ("Round", "Odds X:1 against no set among 12", "95% CI", "12-card tables"),
        tuple(
            (str(r), n_round[r], _interval(rounds[r - 1].odds()),
             f"{rounds[r - 1].observations:,}")
            for r in sorted(n_round)
        ),
        "Round r is played after r - 1 sets were taken; round 24 usually starts with the deck "
        "empty, so a table without a set there ends the game instead of bringing 15 cards.",
    )  # fmt: skip
    return Section(
        TITLE,
        "Wikipedia, *Set (card game)* (seed article), the odds of its mathematics section",
        (
            Text(
                f"{games:,} games played by the rules (`setlab.game.simulate`, seed {SEED}, a "
                "uniformly random set taken each time; 3 more cards when the table holds none, "
                "not replaced when a set is taken from 15), and as many first deals of 15 "
                "random cards for the article's 2700:1. The article's figures come from "
                "someone else's simulation and are rounded, so a claim is reproduced when the "
                "seed's rounding interval (30:1 means 29.5 to 30.5; 2700:1 means 2650 to "
                "2750; *around* 30 % means 25 to 35 %) overlaps setlab's 95% confidence "
                "interval; the tolerance shown is that largest allowed difference. Exact "
                "values (220/79, 455/79) have no rounding: the interval must contain them."
            ),
            Text(
                " ".join(
                    f"No set among {cards} random cards, "
                    + (f"{exact}." if isinstance(exact, str) else f"exact (cap count): {exact}:1.")
                    for cards, exact in zip((12, 15), exact_odds, strict=True)
                )
            ),
            Claims(
                tuple(claims),
                "The article's in-play odds and averages beside setlab's simulation "
                "(tolerance: seed rounding plus the 95% interval on the seed's side).",
            ),
            estimates,
            by_round_table,
            Figure(
                "games-odds-by-round",
                plot_odds_by_round(stats),
                "Odds against no set among the 12 cards on the table, round by round, with "
                f"95% intervals ({games:,} games): from about 30:1 on the first deal to 14:1 "
                "by round 4, then slowly towards 13:1.",
            ),
            Figure(
                "games-sets-on-table",
                plot_sets_on_table(stats),
                "How many sets lie on the 12- and 15-card tables met in play; in play the "
                "averages are below those of random cards (220/79 and 455/79).",
            ),
        ),
    )
