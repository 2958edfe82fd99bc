"""The batch simulator: the rules of :mod:`setlab.game.rules` for millions of games, in numba.

Game g of seed s shuffles the 3^P cards and chooses its sets with ``GameRandom(s, g)``, exactly as
the reference engine does, so ``simulate(N, s)`` tallies the games ``play_game(s, g)`` for
g < N. Chunks of games run in ``prange``; tallies are integer sums, so the result does not
depend on threads or batches.
"""

from __future__ import annotations

import time

import numba as nb
import numpy as np

from setlab.cards import check_properties, deck_size
from setlab.errors import SetlabError
from setlab.game.rng import WORD_MASK, draw_below, start_state
from setlab.game.rules import Strategy, check_deal, play_game, resolve_strategy
from setlab.game.tally import TALLY_ARRAYS, ByGame, GameTally, tally_games
from setlab.geometry import third_card_table
from setlab.kernels import close_gaps, sets_of_board

__all__ = [
    "BATCH_SECONDS",
    "FIRST_BATCH",
    "MAX_GAMES",
    "MAX_SIMULATION_PROPERTIES",
    "STRATEGY_CODES",
    "simulate",
]

MAX_SIMULATION_PROPERTIES = 6
"""Largest P the batch simulator tallies (its per-round, per-table-size arrays grow as 9^P)."""

MAX_GAMES = 10**10
"""Most games one call plays (10^10 games of P = 4 take hours on a laptop)."""

BATCH_SECONDS = 0.25
"""Aimed-at wall time of one kernel call. A compiled call does not return to Python until it is
done, so a Ctrl-C is answered only between calls: batches are sized to end this often."""

FIRST_BATCH = 256
"""Games in the first kernel call, before the speed of this deck on this machine is known."""

STRATEGY_CODES = {"random": 0, "first": 1}
"""The built-in strategies the kernel plays, by their code in the kernel."""

_FIRST = STRATEGY_CODES["first"]


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
        tables_seen = np.zeros(sizes, dtype=np.int64)  # n, y, m of this game, per table size
        no_set_seen = np.zeros(sizes, dtype=np.int64)
        sets_seen = np.zeros(sizes, dtype=np.int64)
        state = np.zeros(1, dtype=np.uint64)
        for g in range(chunk, n_games, n_chunks):
            state[0] = start_state(seed_word, first_game + g)
            for i in range(n_cards):
                order[i] = i
            for i in range(n_cards - 1, 0, -1):  # Fisher-Yates, as GameRandom.shuffled
                j = draw_below(state, i + 1)
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
                tables_seen[size] += 1
                sets_seen[size] += found
                if found == 0:
                    no_set[chunk, taken, size] += 1
                    no_set_seen[size] += 1
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
                pick = 0 if strategy == _FIRST else draw_below(state, found)
                refill = size <= deal  # places are refilled only if at most `deal` cards lay
                for t in range(3):
                    p = out[pick, t]
                    if refill and dealt < n_cards:
                        table[p] = order[dealt]
                        dealt += 1
                    else:
                        table[p] = -1
                size = close_gaps(table, size)
                taken += 1
            for k in range(sizes):
                n = tables_seen[k]
                if n:
                    y = no_set_seen[k]
                    m = sets_seen[k]
                    by_game[chunk, k, ByGame.TABLES] += n
                    by_game[chunk, k, ByGame.NO_SET] += y
                    by_game[chunk, k, ByGame.TABLES_SQUARED] += n * n
                    by_game[chunk, k, ByGame.NO_SET_SQUARED] += y * y
                    by_game[chunk, k, ByGame.TABLES_NO_SET] += n * y
                    by_game[chunk, k, ByGame.SETS] += m
                    by_game[chunk, k, ByGame.SETS_SQUARED] += m * m
                    by_game[chunk, k, ByGame.TABLES_SETS] += n * m
                    tables_seen[k] = 0
                    no_set_seen[k] = 0
                    sets_seen[k] = 0
            later_by_game[chunk, ByGame.TABLES] += later_n
            later_by_game[chunk, ByGame.NO_SET] += later_y
            later_by_game[chunk, ByGame.TABLES_SQUARED] += later_n * later_n
            later_by_game[chunk, ByGame.NO_SET_SQUARED] += later_y * later_y
            later_by_game[chunk, ByGame.TABLES_NO_SET] += later_n * later_y
            cards_left[chunk, size] += 1
            largest_table[chunk, largest] += 1
            sets_taken[chunk, taken] += 1


def _batch(
    first_game: int, n_games: int, seed: int, properties: int, strategy: str, deal: int
) -> GameTally:
    """Tallies of games ``first_game .. first_game + n_games - 1``, played by the numba kernel."""
    tally = GameTally.empty(n_games, seed, properties, strategy, deal)
    n_chunks = max(1, min(n_games, 4 * nb.get_num_threads()))
    chunked = {name: np.zeros((n_chunks, *getattr(tally, name).shape), np.int64)
               for name in TALLY_ARRAYS}  # fmt: skip
    if n_games:
        n = deck_size(properties)
        _play_games(
            first_game, n_games, np.uint64(seed & WORD_MASK), third_card_table(properties), n,
            deal, STRATEGY_CODES[strategy], n_chunks, *(chunked[name] for name in TALLY_ARRAYS),
        )  # fmt: skip
    for name in TALLY_ARRAYS:
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
    reference engine :func:`setlab.game.play_game` (same rules, same random numbers, much
    slower). The result is the same for any number of threads and any ``batch``; ``progress``
    shows a bar on stderr.

    Parameters
    ----------
    games, seed
        How many games, and the seed of their random sources (below 2^64).
    properties, deal
        The deck of 3^P cards and the number of cards dealt (12 in the real game).
    strategy
        ``"random"``, ``"first"`` or a function ``strategy(table, sets, rng) -> index``.
    batch, progress
        Most games per kernel call (the progress bar advances per call). Calls start with
        :data:`FIRST_BATCH` games and are then sized to take about :data:`BATCH_SECONDS`, so a
        Ctrl-C (KeyboardInterrupt) is answered within a second whatever the deck.

    Returns
    -------
    GameTally
        The integer tallies; :func:`setlab.game.summary` turns them into figures.

    Examples
    --------
    >>> t = simulate(100, seed=1)
    >>> int(t.inspections[0, 12]), int(t.cards_left.sum()), int(t.largest_table[12:].sum())
    (100, 100, 100)
    """
    check_properties(properties)
    if properties > MAX_SIMULATION_PROPERTIES:
        raise SetlabError(f"the simulator plays games for P <= {MAX_SIMULATION_PROPERTIES}")
    if games < 0 or seed < 0 or seed > WORD_MASK:
        raise SetlabError("games and seed are non-negative (seed below 2^64)")
    if games > MAX_GAMES:
        raise SetlabError(f"at most {MAX_GAMES:,} games in one simulation, got {games:,}")
    check_deal(deal)
    if batch < 1:
        raise SetlabError("batch must be positive")
    if callable(strategy):
        name = getattr(strategy, "__name__", "custom")
        played = [play_game(seed, g, properties, strategy, deal) for g in range(games)]
        return tally_games(played, seed, properties, name, deal)
    resolve_strategy(strategy)
    from tqdm import tqdm

    tally = GameTally.empty(0, seed, properties, strategy, deal)
    start, size = 0, min(batch, FIRST_BATCH)
    with tqdm(total=games, unit="game", disable=not progress, unit_scale=True) as bar:
        while start < games:
            size = min(size, games - start)
            began = time.perf_counter()
            tally = tally + _batch(start, size, seed, properties, strategy, deal)
            seconds = time.perf_counter() - began
            start += size
            bar.update(size)
            # the next call: about BATCH_SECONDS long, growing at most fourfold at a time
            aimed = int(size * BATCH_SECONDS / max(seconds, 1e-4))
            size = max(1, min(batch, 4 * size, aimed))
    return tally
