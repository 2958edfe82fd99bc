"""The random source of a game: SplitMix64 started from ``mix(mix(seed) + game)``.

The state advances by the golden-ratio constant 0x9E3779B97F4A7C15 and each word is the
SplitMix64 finaliser of the state; an integer below n is the top 53 bits scaled, (w >> 11) n >> 53.
:class:`GameRandom` (Python) and :func:`draw_below` (numba) are one generator in two languages.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from setlab.errors import SetlabError

__all__ = ["WORD_MASK", "GameRandom", "draw_below", "mix64", "start_state"]

WORD_MASK = (1 << 64) - 1
"""Seeds are 64-bit words: a seed is reduced modulo 2^64."""

_GOLDEN = 0x9E3779B97F4A7C15
_MIX_1 = 0xBF58476D1CE4E5B9
_MIX_2 = 0x94D049BB133111EB


def _mix(z: int) -> int:
    """The SplitMix64 finaliser (a bijection of 64-bit words), on Python integers."""
    z = ((z ^ (z >> 30)) * _MIX_1) & WORD_MASK
    z = ((z ^ (z >> 27)) * _MIX_2) & WORD_MASK
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
        self.state = _mix((_mix(seed & WORD_MASK) + game) & WORD_MASK)

    def next(self) -> int:
        """The next 64-bit word."""
        self.state = (self.state + _GOLDEN) & WORD_MASK
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


@nb.njit(cache=True)
def mix64(z):  # pragma: no cover - compiled
    """The SplitMix64 finaliser on a ``uint64``: the compiled twin of the one GameRandom uses.

    A bijection of 64-bit words; each word a game draws is the finaliser of its state after the
    state has advanced by the golden-ratio constant.

    Examples
    --------
    >>> rng = GameRandom(seed=5, game=1)
    >>> word = mix64(np.uint64((rng.state + 0x9E3779B97F4A7C15) & WORD_MASK))
    >>> word == rng.next()
    True
    """
    z = (z ^ (z >> np.uint64(30))) * np.uint64(_MIX_1)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(_MIX_2)
    return z ^ (z >> np.uint64(31))


@nb.njit(cache=True)
def start_state(seed_word, game):  # pragma: no cover - compiled
    """The state :class:`GameRandom` starts from for game ``game`` of ``seed_word`` (uint64).

    It is ``mix64(mix64(seed_word) + game)`` modulo 2^64, so a kernel thread can start any game
    of a seed on its own and draw the same numbers as the Python engine.

    Examples
    --------
    >>> int(start_state(np.uint64(4), 2)) == GameRandom(seed=4, game=2).state
    True
    """
    return mix64(mix64(seed_word) + np.uint64(game))


@nb.njit(cache=True)
def draw_below(state, n):  # pragma: no cover - compiled
    """:meth:`GameRandom.below` on a one-word state array (the state advances in place).

    Examples
    --------
    >>> state = np.array([start_state(np.uint64(4), 2)], dtype=np.uint64)
    >>> rng = GameRandom(4, 2)
    >>> [int(draw_below(state, 81)) for _ in range(3)] == [rng.below(81) for _ in range(3)]
    True
    """
    state[0] = state[0] + np.uint64(_GOLDEN)
    return np.int64(((mix64(state[0]) >> np.uint64(11)) * np.uint64(n)) >> np.uint64(53))
