"""Playing SET by the rules: a seeded engine for one game and a numba batch simulator for millions.

Deal ``deal`` (12) cards; a *round* is the stretch of play between two taken sets, and each time the
table is looked at is an *inspection*. If the table holds no set and the deck is not empty, 3 more
cards are dealt (15, 18, ...) and the table is inspected again in the same round. A found set is
removed; its places are refilled from the deck only if the table held at most ``deal`` cards, so a
set taken from 15 leaves 12. The game ends when the deck is empty and the table holds no set.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numba as nb
import numpy as np

from setlab.cards import check_properties, deck_size
from setlab.errors import SetlabError
from setlab.find import find_sets
from setlab.geometry import third_card_table
from setlab.kernels import sets_of_board

MAX_SIMULATION_PROPERTIES = 6
"""Largest P the batch simulator tallies (its per-round, per-table-size arrays grow as 9^P)."""

SET_COUNT_BINS = 256
"""Bins of the sets-on-the-table histogram; the last bin also holds every larger count."""

_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15
_MIX_1 = 0xBF58476D1CE4E5B9
_MIX_2 = 0x94D049BB133111EB


def _mix(z: int) -> int:
    """The SplitMix64 finaliser (a bijection of 64-bit words), on Python integers."""
    z = ((z ^ (z >> 30)) * _MIX_1) & _MASK
    z = ((z ^ (z >> 27)) * _MIX_2) & _MASK
    return z ^ (z >> 31)


class GameRandom:
    """The random source of one game: SplitMix64 started from ``(seed, game)``.

    Game ``g`` of a simulation with seed ``s`` draws exactly the numbers of ``GameRandom(s, g)``,
    in the Python engine and in the numba kernel alike, so results do not depend on how games are
    split between threads.

    References
    ----------
    G. Steele, D. Lea, C. Flood, "Fast splittable pseudorandom number generators", OOPSLA 2014.

    Examples
    --------
    >>> order = GameRandom(seed=1, game=0).shuffled(9)
    >>> sorted(order) == list(range(9)), order == GameRandom(seed=1, game=0).shuffled(9)
    (True, True)
    """

    def __init__(self, seed: int, game: int) -> None:
        if seed < 0 or game < 0:
            raise SetlabError("seeds and game numbers are non-negative integers")
        self.state = _mix((_mix(seed & _MASK) + game) & _MASK)

    def next(self) -> int:
        """The next 64-bit word."""
        self.state = (self.state + _GOLDEN) & _MASK
        return _mix(self.state)

    def below(self, n: int) -> int:
        """An integer in ``0 .. n-1`` (top 53 bits scaled: bias below n / 2^53)."""
        return ((self.next() >> 11) * n) >> 53

    def shuffled(self, size: int) -> list[int]:
        """``0 .. size-1`` in a uniformly random order (Fisher-Yates, from the last place down)."""
        order = list(range(size))
        for i in range(size - 1, 0, -1):
            j = self.below(i + 1)
            order[i], order[j] = order[j], order[i]
        return order


Strategy = Callable[[tuple[int, ...], list[tuple[int, int, int]], GameRandom], int]
"""Which set a player takes: ``strategy(table, sets, rng)`` returns an index into ``sets``.

``table`` holds card indices in table order, ``sets`` the sets on it as position triples in the
order of :func:`setlab.find.find_sets`, and ``rng`` is the game's random source.
"""


def take_random(table: tuple[int, ...], sets: list[tuple[int, int, int]], rng: GameRandom) -> int:
    """Strategy: a set chosen uniformly at random among those on the table."""
    return rng.below(len(sets))


def take_first(table: tuple[int, ...], sets: list[tuple[int, int, int]], rng: GameRandom) -> int:
    """Strategy: the first set in table order (smallest first two positions)."""
    return 0


STRATEGIES: dict[str, Strategy] = {"random": take_random, "first": take_first}
_STRATEGY_CODES = {"random": 0, "first": 1}


@dataclass(frozen=True)
class Inspection:
    """One look at the table: its round, its cards in order, its number of sets, the deck left."""

    round: int
    table: tuple[int, ...]
    sets: int
    deck_left: int


@dataclass
class Game:
    """A finished game: the deck order, every inspection, and the sets taken (as card triples)."""

    order: tuple[int, ...]
    inspections: list[Inspection] = field(default_factory=list)
    taken: list[tuple[int, int, int]] = field(default_factory=list)

    @property
    def cards_left(self) -> int:
        """Cards on the table when the game ended."""
        return len(self.inspections[-1].table)

    @property
    def largest_table(self) -> int:
        """The most cards that lay on the table at once."""
        return max(len(look.table) for look in self.inspections)


def _strategy(strategy: str | Strategy) -> Strategy:
    if callable(strategy):
        return strategy
    if strategy not in STRATEGIES:
        raise SetlabError(f"unknown strategy {strategy!r}: choose from {', '.join(STRATEGIES)}")
    return STRATEGIES[strategy]


def play_game(
    seed: int = 0,
    game: int = 0,
    properties: int = 4,
    strategy: str | Strategy = "random",
    deal: int = 12,
    order: Sequence[int] | None = None,
) -> Game:
    """Play one game by the rules (see the module docstring) and record every inspection.

    The deck is shuffled by ``GameRandom(seed, game)`` unless ``order`` gives the cards to deal, in
    order (any distinct cards: a crafted deck). This is the reference engine, in plain Python with
    :func:`setlab.find.find_sets` per inspection; :func:`simulate` plays the same games in numba.

    Examples
    --------
    >>> g = play_game(seed=7)
    >>> len(g.inspections[0].table), 3 * len(g.taken) + g.cards_left
    (12, 81)
    >>> play_game(seed=7).taken == g.taken
    True
    """
    check_properties(properties)
    choose = _strategy(strategy)
    if deal < 1:
        raise SetlabError("deal at least one card")
    rng = GameRandom(seed, game)
    if order is None:
        deck = rng.shuffled(deck_size(properties))
    else:
        deck = [int(card) for card in order]
        if len(set(deck)) != len(deck) or any(not 0 <= c < deck_size(properties) for c in deck):
            raise SetlabError("a crafted deck holds distinct cards of the P-property deck")
    record = Game(order=tuple(deck))
    table, dealt = deck[:deal], min(deal, len(deck))
    while True:
        sets = find_sets(table, properties)
        look = Inspection(len(record.taken), tuple(table), len(sets), len(deck) - dealt)
        record.inspections.append(look)
        if not sets:
            if dealt == len(deck):
                return record
            table += deck[dealt : dealt + 3]
            dealt = min(dealt + 3, len(deck))
            continue
        choice = choose(tuple(table), sets, rng)
        if not 0 <= choice < len(sets):
            raise SetlabError(f"strategy chose set {choice!r} of {len(sets)}")
        places = sets[choice]
        record.taken.append(tuple(table[p] for p in places))  # type: ignore[arg-type]
        refill = len(table) <= deal
        for p in places:
            if refill and dealt < len(deck):
                table[p] = deck[dealt]
                dealt += 1
            else:
                table[p] = -1
        table = [card for card in table if card >= 0]


# ---------------------------------------------------------------------------------------------
# The batch simulator. Tallies are integers summed over games, so their totals do not depend on
# how games are split into chunks or threads; each game draws only from its own GameRandom.


@dataclass
class GameTally:
    """Integer tallies of a batch of games; :mod:`setlab.game_statistics` turns them into figures.

    Arrays are indexed by round ``r`` (sets taken before the inspection) and table size ``k``:

    - ``inspections[r, k]``, ``no_set[r, k]``, ``sets_sum[r, k]``, ``sets_square[r, k]``: number of
      inspections of k cards in round r, how many had no set, the sum and sum of squares of sets;
    - ``set_counts[k, s]``: inspections of k cards with s sets (s clipped to the last bin);
    - ``by_game[k, :]``: over games, sums of n, y, n^2, y^2, n*y, m, m^2, n*m where a game has
      n inspections of k cards, y of them without a set and m sets on them in total (for
      confidence intervals of ratios that pool several inspections of one game);
    - ``later_by_game``: the same five sums for the tables of ``deal`` cards in rounds r >= 1;
    - ``cards_left[k]``, ``largest_table[k]``, ``sets_taken[t]``: games ending with k cards on
      the table, whose largest table had k cards, in which t sets were taken.
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

    def __add__(self, other: GameTally) -> GameTally:
        same = ("properties", "strategy", "deal", "seed")
        if any(getattr(self, name) != getattr(other, name) for name in same):
            raise SetlabError("only tallies of the same simulation settings can be added")
        arrays = {name: getattr(self, name) + getattr(other, name) for name in _TALLY_ARRAYS}
        return GameTally(
            self.games + other.games, self.seed, self.properties, self.strategy, self.deal,
            **arrays,
        )  # fmt: skip


_TALLY_ARRAYS = (
    "inspections", "no_set", "sets_sum", "sets_square", "set_counts", "by_game", "later_by_game",
    "cards_left", "largest_table", "sets_taken",
)  # fmt: skip


def _empty_tally(games: int, seed: int, properties: int, strategy: str, deal: int) -> GameTally:
    n = deck_size(properties)
    rounds, sizes = n // 3 + 1, n + 1
    return GameTally(
        games, seed, properties, strategy, deal,
        inspections=np.zeros((rounds, sizes), np.int64),
        no_set=np.zeros((rounds, sizes), np.int64),
        sets_sum=np.zeros((rounds, sizes), np.int64),
        sets_square=np.zeros((rounds, sizes), np.int64),
        set_counts=np.zeros((sizes, SET_COUNT_BINS), np.int64),
        by_game=np.zeros((sizes, 8), np.int64),
        later_by_game=np.zeros(5, np.int64),
        cards_left=np.zeros(sizes, np.int64),
        largest_table=np.zeros(sizes, np.int64),
        sets_taken=np.zeros(rounds, np.int64),
    )  # fmt: skip


def tally_games(
    games: Sequence[Game], seed: int, properties: int, strategy: str, deal: int = 12
) -> GameTally:
    """Tally recorded games (from :func:`play_game`) exactly as the batch simulator does.

    Examples
    --------
    >>> t = tally_games([play_game(seed=3, game=g) for g in range(2)], 3, 4, "random")
    >>> int(t.inspections[0, 12]), int(t.cards_left.sum())
    (2, 2)
    """
    tally = _empty_tally(len(games), seed, properties, strategy, deal)
    for game in games:
        per_size = np.zeros((tally.cards_left.size, 3), np.int64)  # n, y, m of this game
        later = np.zeros(2, np.int64)
        for look in game.inspections:
            r, k, s = look.round, len(look.table), look.sets
            tally.inspections[r, k] += 1
            tally.no_set[r, k] += s == 0
            tally.sets_sum[r, k] += s
            tally.sets_square[r, k] += s * s
            tally.set_counts[k, min(s, SET_COUNT_BINS - 1)] += 1
            per_size[k] += (1, s == 0, s)
            if r > 0 and k == deal:
                later += (1, s == 0)
        n, y, m = per_size.T
        tally.by_game += np.stack([n, y, n * n, y * y, n * y, m, m * m, n * m], axis=1)
        tally.later_by_game += [later[0], later[1], later[0] ** 2, later[1] ** 2, later.prod()]
        tally.cards_left[game.cards_left] += 1
        tally.largest_table[game.largest_table] += 1
        tally.sets_taken[len(game.taken)] += 1
    return tally


@nb.njit(cache=True)
def _mix64(z):  # pragma: no cover - compiled
    z = (z ^ (z >> np.uint64(30))) * np.uint64(_MIX_1)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(_MIX_2)
    return z ^ (z >> np.uint64(31))


@nb.njit(cache=True)
def _below(state, n):  # pragma: no cover - compiled
    """GameRandom.below on a one-word state array."""
    state[0] = state[0] + np.uint64(_GOLDEN)
    return np.int64(((_mix64(state[0]) >> np.uint64(11)) * np.uint64(n)) >> np.uint64(53))


@nb.njit(parallel=True, cache=True)
def _play_games(
    first_game, n_games, seed_word, third, n_cards, deal, strategy, n_chunks,
    inspections, no_set, sets_sum, sets_square, set_counts, by_game, later_by_game,
    cards_left, largest_table, sets_taken,
):  # fmt: skip  # pragma: no cover - compiled
    """Play games first_game .. first_game+n_games-1; add their tallies into chunk slices [c]."""
    sizes = n_cards + 1
    bins = set_counts.shape[2]
    for chunk in nb.prange(n_chunks):
        position = np.full(n_cards, -1, dtype=np.int64)
        out = np.zeros((n_cards * (n_cards - 1) // 6 + 1, 3), dtype=np.int64)
        order = np.zeros(n_cards, dtype=np.int64)
        table = np.zeros(n_cards, dtype=np.int64)
        per_size = np.zeros((sizes, 3), dtype=np.int64)
        state = np.zeros(1, dtype=np.uint64)
        for g in range(chunk, n_games, n_chunks):
            state[0] = _mix64(_mix64(seed_word) + np.uint64(first_game + g))
            for i in range(n_cards):
                order[i] = i
            for i in range(n_cards - 1, 0, -1):  # Fisher-Yates, as GameRandom.shuffled
                j = _below(state, i + 1)
                order[i], order[j] = order[j], order[i]
            size = min(deal, n_cards)
            for i in range(size):
                table[i] = order[i]
            dealt = size
            taken = 0
            largest = size
            later_n = 0
            later_y = 0
            while True:
                found = sets_of_board(table[:size], third, position, out)
                inspections[chunk, taken, size] += 1
                sets_sum[chunk, taken, size] += found
                sets_square[chunk, taken, size] += found * found
                set_counts[chunk, size, min(found, bins - 1)] += 1
                per_size[size, 0] += 1
                per_size[size, 2] += found
                if found == 0:
                    no_set[chunk, taken, size] += 1
                    per_size[size, 1] += 1
                if taken > 0 and size == deal:
                    later_n += 1
                    later_y += found == 0
                if found == 0:
                    if dealt == n_cards:
                        break
                    for _ in range(min(3, n_cards - dealt)):  # three more cards
                        table[size] = order[dealt]
                        size += 1
                        dealt += 1
                    largest = max(largest, size)
                    continue
                pick = 0 if strategy == 1 else _below(state, found)
                refill = size <= deal  # places are refilled only if at most `deal` cards lay
                for t in range(3):
                    p = out[pick, t]
                    if refill and dealt < n_cards:
                        table[p] = order[dealt]
                        dealt += 1
                    else:
                        table[p] = -1
                kept = 0
                for i in range(size):
                    if table[i] >= 0:
                        table[kept] = table[i]
                        kept += 1
                size = kept
                taken += 1
            for k in range(sizes):
                n = per_size[k, 0]
                if n:
                    y = per_size[k, 1]
                    m = per_size[k, 2]
                    by_game[chunk, k, 0] += n
                    by_game[chunk, k, 1] += y
                    by_game[chunk, k, 2] += n * n
                    by_game[chunk, k, 3] += y * y
                    by_game[chunk, k, 4] += n * y
                    by_game[chunk, k, 5] += m
                    by_game[chunk, k, 6] += m * m
                    by_game[chunk, k, 7] += n * m
                    per_size[k, 0] = 0
                    per_size[k, 1] = 0
                    per_size[k, 2] = 0
            later_by_game[chunk, 0] += later_n
            later_by_game[chunk, 1] += later_y
            later_by_game[chunk, 2] += later_n * later_n
            later_by_game[chunk, 3] += later_y * later_y
            later_by_game[chunk, 4] += later_n * later_y
            cards_left[chunk, size] += 1
            largest_table[chunk, largest] += 1
            sets_taken[chunk, taken] += 1


def _batch(
    first_game: int, n_games: int, seed: int, properties: int, strategy: str, deal: int
) -> GameTally:
    """Tallies of games ``first_game .. first_game + n_games - 1``, played by the numba kernel."""
    tally = _empty_tally(n_games, seed, properties, strategy, deal)
    n_chunks = max(1, min(n_games, 4 * nb.get_num_threads()))
    chunked = {name: np.zeros((n_chunks, *getattr(tally, name).shape), np.int64)
               for name in _TALLY_ARRAYS}  # fmt: skip
    if n_games:
        n = deck_size(properties)
        _play_games(
            first_game, n_games, np.uint64(seed & _MASK), third_card_table(properties), n,
            deal, _STRATEGY_CODES[strategy], n_chunks, *(chunked[name] for name in _TALLY_ARRAYS),
        )  # fmt: skip
    for name in _TALLY_ARRAYS:
        setattr(tally, name, chunked[name].sum(axis=0))
    return tally


def simulate(
    games: int,
    seed: int = 0,
    properties: int = 4,
    strategy: str | Strategy = "random",
    deal: int = 12,
    batch: int = 50_000,
    progress: bool = False,
) -> GameTally:
    """Play ``games`` games (game numbers 0 .. games-1 of ``seed``) and tally them.

    The built-in strategies run in the parallel numba kernel; a Python strategy function runs the
    reference engine :func:`play_game` (same rules, same random numbers, much slower). The result
    is the same for any number of threads and any ``batch``; ``progress`` shows a bar on stderr.

    Examples
    --------
    >>> t = simulate(100, seed=1)
    >>> int(t.inspections[0, 12]), int(t.cards_left.sum()), int(t.largest_table[12:].sum())
    (100, 100, 100)
    """
    check_properties(properties)
    if properties > MAX_SIMULATION_PROPERTIES:
        raise SetlabError(f"the simulator plays games for P <= {MAX_SIMULATION_PROPERTIES}")
    if games < 0 or seed < 0 or seed > _MASK:
        raise SetlabError("games and seed are non-negative (seed below 2^64)")
    if deal < 1:
        raise SetlabError("deal at least one card")
    if batch < 1:
        raise SetlabError("batch must be positive")
    if callable(strategy):
        name = getattr(strategy, "__name__", "custom")
        played = [play_game(seed, g, properties, strategy, deal) for g in range(games)]
        return tally_games(played, seed, properties, name, deal)
    _strategy(strategy)
    from tqdm import tqdm

    tally = _empty_tally(0, seed, properties, strategy, deal)
    with tqdm(total=games, unit="game", disable=not progress, unit_scale=True) as bar:
        for start in range(0, games, batch):
            size = min(batch, games - start)
            tally = tally + _batch(start, size, seed, properties, strategy, deal)
            bar.update(size)
    return tally
