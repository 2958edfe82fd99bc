"""The tally of a batch of games: integer sums, so batches and threads add up exactly.

Per round r and table size k: inspections, tables without a set, sum and sum of squares of sets.
Per game and size k, with n tables of k cards, y of them without a set and m sets on them, the
sums of n, y, m and their squares and products (:class:`ByGame`): enough for the cluster-robust
variance of the ratios y/n and m/n with games as clusters.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import IntEnum

import numpy as np

from setlab.cards import deck_size
from setlab.errors import SetlabError
from setlab.game.rules import Game

__all__ = [
    "NO_SET_SUMS",
    "SETS_SUMS",
    "SET_COUNT_BINS",
    "TALLY_ARRAYS",
    "ByGame",
    "GameTally",
    "tally_games",
]

SET_COUNT_BINS = 256
"""Bins of the sets-on-the-table histogram; the last bin also holds every larger count."""


class ByGame(IntEnum):
    """The columns of ``GameTally.by_game[k, :]``: sums over games of one game's counts.

    A game meets n tables of k cards, y of them without a set, with m sets on them in all.
    ``GameTally.later_by_game`` has the first five columns (the no-set sums) for the tables of
    the deal size in rounds r >= 1.
    """

    TABLES = 0
    """n: tables of k cards the game met."""
    NO_SET = 1
    """y: those without a set."""
    TABLES_SQUARED = 2
    """n^2."""
    NO_SET_SQUARED = 3
    """y^2."""
    TABLES_NO_SET = 4
    """n y."""
    SETS = 5
    """m: sets on those tables, in all."""
    SETS_SQUARED = 6
    """m^2."""
    TABLES_SETS = 7
    """n m."""


NO_SET_SUMS = (
    ByGame.TABLES, ByGame.NO_SET, ByGame.TABLES_SQUARED, ByGame.NO_SET_SQUARED,
    ByGame.TABLES_NO_SET,
)  # fmt: skip
"""The sums (n, y, n^2, y^2, n y) of the no-set rate y/n, in the order of ``clustered_ratio``."""

SETS_SUMS = (
    ByGame.TABLES, ByGame.SETS, ByGame.TABLES_SQUARED, ByGame.SETS_SQUARED, ByGame.TABLES_SETS,
)  # fmt: skip
"""The sums (n, m, n^2, m^2, n m) of the mean sets per table m/n, in the same order."""


@dataclass
class GameTally:
    """Integer tallies of a batch of games; :mod:`setlab.game.statistics` turns them into figures.

    Arrays are indexed by round ``r`` (sets taken before the inspection) and table size ``k``:

    - ``inspections[r, k]``, ``no_set[r, k]``, ``sets_sum[r, k]``, ``sets_square[r, k]``: number of
      inspections of k cards in round r, how many had no set, the sum and sum of squares of sets;
    - ``set_counts[k, s]``: inspections of k cards with s sets (s clipped to the last bin);
    - ``by_game[k, c]``: over games, the sum named by column ``c`` of :class:`ByGame`;
    - ``later_by_game[c]``: the no-set sums (``c`` in :data:`NO_SET_SUMS`) for the tables of
      ``deal`` cards in rounds r >= 1;
    - ``cards_left[k]``, ``largest_table[k]``, ``sets_taken[t]``: games ending with k cards on
      the table, whose largest table had k cards, in which t sets were taken.

    Examples
    --------
    >>> t = GameTally.empty(0, seed=1, properties=3, strategy="random", deal=12)
    >>> t.inspections.shape, t.by_game.shape, t.later_by_game.shape
    ((10, 28), (28, 8), (5,))
    """

    games: int
    seed: int
    properties: int
    strategy: str
    deal: int
    inspections: np.ndarray
    no_set: np.ndarray
    sets_sum: np.ndarray
    sets_square: np.ndarray
    set_counts: np.ndarray
    by_game: np.ndarray
    later_by_game: np.ndarray
    cards_left: np.ndarray
    largest_table: np.ndarray
    sets_taken: np.ndarray

    @classmethod
    def empty(cls, games: int, seed: int, properties: int, strategy: str, deal: int) -> GameTally:
        """Zeros for ``games`` games of the 3^P deck (table sizes 0 .. 3^P, rounds 0 .. 3^P / 3)."""
        n = deck_size(properties)
        rounds, sizes = n // 3 + 1, n + 1
        return cls(
            games, seed, properties, strategy, deal,
            inspections=np.zeros((rounds, sizes), np.int64),
            no_set=np.zeros((rounds, sizes), np.int64),
            sets_sum=np.zeros((rounds, sizes), np.int64),
            sets_square=np.zeros((rounds, sizes), np.int64),
            set_counts=np.zeros((sizes, SET_COUNT_BINS), np.int64),
            by_game=np.zeros((sizes, len(ByGame)), np.int64),
            later_by_game=np.zeros(len(NO_SET_SUMS), np.int64),
            cards_left=np.zeros(sizes, np.int64),
            largest_table=np.zeros(sizes, np.int64),
            sets_taken=np.zeros(rounds, np.int64),
        )  # fmt: skip

    def __add__(self, other: GameTally) -> GameTally:
        same = ("properties", "strategy", "deal", "seed")
        if any(getattr(self, name) != getattr(other, name) for name in same):
            raise SetlabError("only tallies of the same simulation settings can be added")
        arrays = {name: getattr(self, name) + getattr(other, name) for name in TALLY_ARRAYS}
        return GameTally(
            self.games + other.games, self.seed, self.properties, self.strategy, self.deal,
            **arrays,
        )  # fmt: skip

    def no_set_sums(self, cards: int) -> np.ndarray:
        """The sums (n, y, n^2, y^2, n y) of tables of ``cards`` cards (zeros beyond the deck)."""
        return self._columns(cards, NO_SET_SUMS)

    def sets_sums(self, cards: int) -> np.ndarray:
        """The sums (n, m, n^2, m^2, n m) of tables of ``cards`` cards (zeros beyond the deck)."""
        return self._columns(cards, SETS_SUMS)

    def _columns(self, cards: int, columns: tuple[ByGame, ...]) -> np.ndarray:
        if not 0 <= cards < self.by_game.shape[0]:
            return np.zeros(len(columns), np.int64)
        return self.by_game[cards, list(columns)]


TALLY_ARRAYS = (
    "inspections", "no_set", "sets_sum", "sets_square", "set_counts", "by_game", "later_by_game",
    "cards_left", "largest_table", "sets_taken",
)  # fmt: skip
"""The names of the array fields of :class:`GameTally` (all integer sums over games)."""


def tally_games(
    games: Sequence[Game], seed: int, properties: int, strategy: str, deal: int = 12
) -> GameTally:
    """Tally recorded games (from :func:`setlab.game.play_game`) as the batch simulator does.

    Examples
    --------
    >>> from setlab.game.rules import play_game
    >>> t = tally_games([play_game(seed=3, game=g) for g in range(2)], 3, 4, "random")
    >>> int(t.inspections[0, 12]), int(t.cards_left.sum()), int(t.by_game[12, ByGame.TABLES]) > 2
    (2, 2, True)
    """
    tally = GameTally.empty(len(games), seed, properties, strategy, deal)
    sizes = tally.cards_left.size
    for game in games:
        tables = np.zeros(sizes, np.int64)  # n, y, m of this game, per table size
        no_set = np.zeros(sizes, np.int64)
        sets = np.zeros(sizes, np.int64)
        later_tables = later_no_set = 0
        for look in game.inspections:
            r, k, s = look.round, len(look.table), look.sets
            tally.inspections[r, k] += 1
            tally.no_set[r, k] += s == 0
            tally.sets_sum[r, k] += s
            tally.sets_square[r, k] += s * s
            tally.set_counts[k, min(s, SET_COUNT_BINS - 1)] += 1
            tables[k] += 1
            no_set[k] += s == 0
            sets[k] += s
            if r > 0 and k == deal:
                later_tables += 1
                later_no_set += s == 0
        columns = {
            ByGame.TABLES: tables, ByGame.NO_SET: no_set, ByGame.TABLES_SQUARED: tables * tables,
            ByGame.NO_SET_SQUARED: no_set * no_set, ByGame.TABLES_NO_SET: tables * no_set,
            ByGame.SETS: sets, ByGame.SETS_SQUARED: sets * sets, ByGame.TABLES_SETS: tables * sets,
        }  # fmt: skip
        for column, values in columns.items():
            tally.by_game[:, column] += values
        later = {
            ByGame.TABLES: later_tables, ByGame.NO_SET: later_no_set,
            ByGame.TABLES_SQUARED: later_tables**2, ByGame.NO_SET_SQUARED: later_no_set**2,
            ByGame.TABLES_NO_SET: later_tables * later_no_set,
        }  # fmt: skip
        for column, value in later.items():
            tally.later_by_game[column] += value
        tally.cards_left[game.cards_left] += 1
        tally.largest_table[game.largest_table] += 1
        tally.sets_taken[len(game.taken)] += 1
    return tally
