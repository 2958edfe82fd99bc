"""Real games of SET: the rules, a reference engine, a numba batch simulator, statistics, plots.

A game deals 12 of the 3^P cards, adds 3 while the table holds no set, and takes sets until the
deck is empty and no set is left (:mod:`setlab.game.rules`). :func:`simulate` plays millions of
the same games; :func:`summary` turns their tally into estimates with 95% intervals beside exact
values (C(k,3)/(3^P - 2) sets among k random cards); the plots (matplotlib, loaded on first
use) are Drawings.

Examples
--------
>>> from setlab.game import play_game, simulate, summary
>>> s = summary(simulate(100, seed=1))
>>> s.games, [b.cards for b in s.boards], len(play_game(seed=1).inspections) > 20
(100, [12, 15, 18], True)
"""

from setlab.game.rng import GameRandom
from setlab.game.rules import (
    STRATEGIES,
    Game,
    Inspection,
    Strategy,
    play_game,
    take_first,
    take_random,
)
from setlab.game.simulator import MAX_GAMES, MAX_SIMULATION_PROPERTIES, simulate
from setlab.game.statistics import (
    BoardFigures,
    Estimate,
    GameSummary,
    by_round,
    clustered_ratio,
    exact_no_set_probability,
    expected_sets,
    mean_estimate,
    set_distribution,
    summary,
    wilson,
)
from setlab.game.tally import SET_COUNT_BINS, TALLY_ARRAYS, ByGame, GameTally, tally_games

__all__ = [
    "MAX_GAMES",
    "MAX_SIMULATION_PROPERTIES",
    "SET_COUNT_BINS",
    "STRATEGIES",
    "TALLY_ARRAYS",
    "BoardFigures",
    "ByGame",
    "Estimate",
    "Game",
    "GameRandom",
    "GameSummary",
    "GameTally",
    "Inspection",
    "Strategy",
    "by_round",
    "clustered_ratio",
    "exact_no_set_probability",
    "expected_sets",
    "mean_estimate",
    "play_game",
    "plot_games",
    "plot_odds_by_round",
    "plot_sets_on_table",
    "set_distribution",
    "simulate",
    "summary",
    "take_first",
    "take_random",
    "tally_games",
    "wilson",
]

_PLOTS = ("plot_games", "plot_odds_by_round", "plot_sets_on_table")


def __getattr__(name: str) -> object:
    """The plots of :mod:`setlab.game.plots`, imported on first use (matplotlib is slow to load)."""
    if name in _PLOTS:
        from setlab.game import plots

        return getattr(plots, name)
    raise AttributeError(f"module 'setlab.game' has no attribute {name!r}")
