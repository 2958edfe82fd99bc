"""Counting identities for a configuration S of n cards with L sets over the parallel classes.

Each of the C = (3^P - 1)/2 parallel classes of hyperplanes cuts S into slices of sizes a, b, c.
A pair of cards shares a hyperplane in K1 = (3^(P-1) - 1)/2 classes, a non-collinear triple in
K2 = (3^(P-2) - 1)/2, a set in K1. Hence sum(a+b+c) = Cn, sum(a^2+b^2+c^2) = Cn + K1 n(n-1),
sum(a^3+b^3+c^3) = Cn + 3 K1 n(n-1) + K2 n(n-1)(n-2) + 6 (K1 - K2) L, and the sets lying inside a
slice, summed over the classes, total K1 L. Complement: sets(S) + sets(S^c) = N(N-1)/6 - n(N-n)/2.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from setlab.cards import deck_size
from setlab.errors import SetlabError
from setlab.geometry import lines, parallel_classes

__all__ = [
    "across_bounds",
    "class_count",
    "classes_through_direction",
    "complement_sets",
    "complement_sum",
    "degree_bound",
    "greatest_degree_bound",
    "inside_sets",
    "least_degree_bound",
    "pair_bound",
    "power_sums",
    "slice_sizes",
    "total_lines",
]


def class_count(properties: int) -> int:
    """C = (3^P - 1)/2, the number of parallel classes of hyperplanes of AG(P,3).

    Examples
    --------
    >>> class_count(4)
    40
    """
    return (deck_size(properties) - 1) // 2


def classes_through_direction(properties: int, codim: int = 1) -> int:
    """Number of parallel classes whose hyperplanes contain a given (codim)-dimensional direction.

    A class is a linear form f up to sign; f vanishes on a fixed d-dimensional subspace for
    (3^(P-d) - 1)/2 classes. ``codim=1`` (a pair of cards, or a set) gives K1 and ``codim=2``
    (a non-collinear triple) gives K2.

    Examples
    --------
    >>> classes_through_direction(4, 1), classes_through_direction(4, 2)
    (13, 4)
    """
    return (3 ** (properties - codim) - 1) // 2


def pair_bound(cards: int) -> int:
    """The most sets n cards can hold by pairs alone: floor(n floor((n-1)/2) / 3).

    A card of S lies on at most floor((n-1)/2) sets of S, since the n - 1 other cards pair up
    into disjoint pairs around it; summing over the n cards counts every set three times.

    Examples
    --------
    >>> [pair_bound(n) for n in (2, 3, 9, 18)]
    [0, 1, 12, 48]
    """
    return cards * ((cards - 1) // 2) // 3 if cards >= 3 else 0


def least_degree_bound(cards: int, sets: int) -> int:
    """Some card of an n-card configuration with L sets lies on at most this many of them.

    The degrees (sets through each card) sum to 3L, so the least is at most floor(3L/n); and no
    card lies on more than floor((n-1)/2) sets (see :func:`pair_bound`). Deleting that card
    leaves at least L - min(floor(3L/n), floor((n-1)/2)) sets, an amount that does not decrease
    with L: the degree inequality behind the deletion bound and the max search's thresholds.

    Examples
    --------
    >>> least_degree_bound(12, 14), least_degree_bound(9, 12), least_degree_bound(0, 0)
    (3, 4, 0)
    """
    if cards <= 0 or sets <= 0:
        return 0
    return min(3 * sets // cards, (cards - 1) // 2)


def greatest_degree_bound(cards: int, sets: int) -> int:
    """Some card of an n-card configuration with L sets lies on at least ceil(3L/n) of them.

    The degrees sum to 3L, so the greatest is at least their average. Deleting that card leaves
    at most L - ceil(3L/n) sets, an amount that does not decrease with L: the min search's
    thresholds.

    Examples
    --------
    >>> greatest_degree_bound(21, 3), greatest_degree_bound(6, 1), greatest_degree_bound(0, 0)
    (1, 1, 0)
    """
    if cards <= 0 or sets <= 0:
        return 0
    return -(-3 * sets // cards)


def total_lines(properties: int) -> int:
    """N(N-1)/6, the number of sets of the whole deck of N = 3^P cards.

    Examples
    --------
    >>> total_lines(4), total_lines(3)
    (1080, 117)
    """
    n = deck_size(properties)
    return n * (n - 1) // 6


def complement_sum(properties: int, cards: int) -> int:
    """sets(S) + sets(S^c) for any S of n cards: N(N-1)/6 - n(N-n)/2.

    A line meets S in 0, 1, 2 or 3 cards (l0..l3). Counting pairs between S and S^c gives
    2 l1 + 2 l2 = n(N-n), and l0 + l1 + l2 + l3 = N(N-1)/6, so l0 + l3 = N(N-1)/6 - n(N-n)/2.

    Examples
    --------
    >>> complement_sum(4, 27), complement_sum(3, 0)
    (351, 117)
    """
    n = deck_size(properties)
    if not 0 <= cards <= n:
        raise SetlabError(f"cards must be between 0 and {n}, got {cards}")
    return total_lines(properties) - cards * (n - cards) // 2


def complement_sets(properties: int, cards: int, sets: int) -> int:
    """sets(S^c) from sets(S), by :func:`complement_sum`.

    Examples
    --------
    >>> complement_sets(4, 20, 0)  # the complement of a 20-cap
    470
    """
    return complement_sum(properties, cards) - sets


def slice_sizes(board: Iterable[int], properties: int) -> np.ndarray:
    """The (C, 3) array of |S ∩ H| for the three hyperplanes H of every parallel class.

    Examples
    --------
    >>> slice_sizes(range(9), 4).sum(axis=1)[:3].tolist()
    [9, 9, 9]
    """
    member = np.zeros(deck_size(properties), dtype=bool)
    member[np.fromiter(board, dtype=np.int64)] = True
    return member[parallel_classes(properties)].sum(axis=2)


def inside_sets(board: Iterable[int], properties: int) -> np.ndarray:
    """The (C,) array: per class, the number of sets of S lying inside one of its hyperplanes.

    Examples
    --------
    >>> int(inside_sets(range(9), 4).sum())  # 12 sets of a 2-flat, each inside 13 classes
    156
    """
    member = np.zeros(deck_size(properties), dtype=bool)
    member[np.fromiter(board, dtype=np.int64)] = True
    all_lines = lines(properties)
    own = all_lines[member[all_lines].all(axis=1)]
    side = np.zeros((class_count(properties), deck_size(properties)), dtype=np.int64)
    for c, slices in enumerate(parallel_classes(properties)):
        for s, hyperplane in enumerate(slices):
            side[c, hyperplane] = s
    labels = side[:, own]  # (C, L, 3)
    return (labels == labels[:, :, :1]).all(axis=2).sum(axis=1)


def power_sums(properties: int, cards: int, sets: int) -> tuple[int, int, int]:
    """The identities' values of sum over classes of (a^k + b^k + c^k) for k = 1, 2, 3.

    Counting ordered k-tuples of S inside one hyperplane of a class: a tuple whose cards span a
    d-dimensional direction space lies in a hyperplane of (3^(P-d) - 1)/2 classes (C for d = 0).

    Examples
    --------
    >>> power_sums(4, 3, 1)
    (120, 198, 432)
    """
    c = class_count(properties)
    k1 = classes_through_direction(properties, 1)
    k2 = classes_through_direction(properties, 2)
    n = cards
    first = c * n
    second = c * n + k1 * n * (n - 1)
    third = c * n + 3 * k1 * n * (n - 1) + k2 * n * (n - 1) * (n - 2) + 6 * (k1 - k2) * sets
    return first, second, third


def across_bounds(a: int, b: int, c: int, flat: int) -> tuple[int, int]:
    """Least and greatest number of sets with one card in each of three parallel slices.

    Slices A, B, C of sizes a, b, c in three parallel hyperplanes of ``flat`` = 3^(P-1) cards
    each. Every pair (x, y) in A x B has its third card z in the third hyperplane, so writing
    t_z = #{(x, y) in A x B : x + y + z = 0} for the ``flat`` cards z there, sum_z t_z = ab and
    max(0, a + b - flat) <= t_z <= min(a, b); the across count is sum_{z in C} t_z. This bounds it
    by ``c*min(a,b)`` and ``ab - (flat-c)*max(0,a+b-flat)`` above and by ``c*max(0,a+b-flat)``
    and ``ab - (flat-c)*min(a,b)`` below, taking the best over which slice plays C.

    Examples
    --------
    >>> across_bounds(27, 27, 27, 27), across_bounds(2, 1, 1, 27), across_bounds(20, 20, 5, 27)
    ((729, 729), (0, 1), (65, 100))
    """
    low, high = 0, a * b * c
    for x, y, z in ((a, b, c), (b, c, a), (c, a, b)):
        high = min(high, z * min(x, y), x * y - (flat - z) * max(0, x + y - flat))
        low = max(low, z * max(0, x + y - flat), x * y - (flat - z) * min(x, y))
    return low, high


def degree_bound(properties: int, cards: int) -> int:
    """The counting upper bound on sets(S) for |S| = n: the least of two identities.

    :func:`pair_bound` (a card of S lies in at most floor((n-1)/2)
    sets of S, its partners pairing up, so 3L <= n floor((n-1)/2)), and
    :func:`complement_sets` of an empty complement (sets(S) =
    N(N-1)/6 - n(N-n)/2 - sets(S^c), attained iff S^c is a cap).

    Examples
    --------
    >>> [degree_bound(4, n) for n in (3, 9, 27, 61, 81)]
    [1, 12, 117, 470, 1080]
    """
    return min(pair_bound(cards), complement_sets(properties, cards, 0))
