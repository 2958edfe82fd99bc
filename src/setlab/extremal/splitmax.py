"""Split maxima: the most sets among points of AG(d+1,3) meeting three parallel hyperplanes in
a, b and c points.

The problem. Write a configuration of AG(d+1,3) as A, B, C in the hyperplanes x_0 = 0, 1, 2,
each read as a subset of AG(d,3). A line of AG(d+1,3) lies in one hyperplane or meets all three
in points p, q, z with p + q + z = 0 in F_3^d, so

    sets = I(A) + I(B) + I(C) + #{(p, q, z) in A x B x C : p + q + z = 0},

I the sets inside a part. The split maximum S(a, b, c) is the largest value over |A| = a,
|B| = b, |C| = c. The big-slice split of :mod:`setlab.extremal.split` bounds a hyperplane of its
pencil, whose three cells are such parallel flats, by M_{d+1} of its size and by the cells' own
bound; S(a, b, c) can be smaller than both (for AG(4,3): S(21, 21, 9) = 287 < M_4(51) = 289).

The bound. A large part is best seen through its complement X in its hyperplane: I(G - X) =
N(N-1)/6 - x(N-x)/2 - I(X) (N = 3^d; the complement identity of AG(d,3)), and for fixed z the
pairs (p, q) of A x B completing to z number alpha + sigma r(z), where r(z) counts the pairs of
the two small sides X x Y with p + q + z = 0, sigma = +1 when both or neither of A, B are
complemented and -1 otherwise, and alpha is 0, |Y|, |X| or N - x - y. So

    sets = const + tau_A I(X) + tau_B I(Y) + I(C) + sum over z in C of (alpha + sigma r(z)),

tau = -1 for a complemented part. For C only I(C) <= M_d(c) and the c largest values of
sigma r are used: maximising over X and Y of tau_A I(X) + tau_B I(Y) + M_d(c) + (those c values)
bounds S(a, b, c). Symmetry: the maps p -> Mp + u, q -> Mq + v, z -> Mz - u - v (M invertible)
keep p + q + z = 0 and every I, so X runs over one representative per AGL(d,3)-orbit and Y over
every subset. C is the smallest part, A the largest.

For AG(4,3) (d = 3) this bound equals the split maximum that annealing finds wherever the
split needed it (docs/bounds.md, "Split maxima"); for d = 2 the tests compare it with an
exhaustive search over all three parts.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from math import comb

import numba as nb
import numpy as np

from setlab.cards import deck_size
from setlab.errors import SetlabError
from setlab.extremal.heuristics import local_search
from setlab.extremal.identities import complement_sum
from setlab.geometry import lines, third_card_table
from setlab.kernels import interrupts_held
from setlab.symmetry import orbit_representatives, point_orbits

__all__ = [
    "SPLIT_SUBSETS_LIMIT",
    "part_orbits",
    "split_maxima_found",
    "split_maximum_bound",
    "split_table",
]

SPLIT_SUBSETS_LIMIT = 10**7
"""Most subsets Y one bound may run through for each orbit of X (C(27, 10) = 8,436,285)."""


def _orbits(dimension: int, size: int) -> list[list[int]]:
    """One subset of AG(d,3) of each size-``size`` AGL(d,3)-orbit: each orbit of size k - 1
    extended by one point of each orbit of its stabiliser off it (every k-subset is the image of
    such a one: map any k - 1 of its points onto their representative), merged by certificate."""
    level: list[list[int]] = [[]]
    for _ in range(size):
        extended = (
            sorted([*subset, int(point)])
            for subset in level
            for point in np.unique(point_orbits(subset, dimension))
            if point not in subset
        )
        level = [r.tolist() for r in orbit_representatives(extended, dimension)]
    return level


def _negation(dimension: int) -> np.ndarray:
    """neg[p, q] = -(p + q) in F_3^d: the third card of p and q, or p itself when q = p."""
    table = third_card_table(dimension).astype(np.int64)
    np.fill_diagonal(table, np.arange(len(table)))
    return table


@nb.njit(cache=True)
def _lines_in(mask, line_table):  # pragma: no cover - compiled
    count = 0
    for i in range(line_table.shape[0]):
        a, b, c = line_table[i, 0], line_table[i, 1], line_table[i, 2]
        if (mask >> a) & 1 and (mask >> b) & 1 and (mask >> c) & 1:
            count += 1
    return count


@nb.njit(cache=True)
def _subset_points(size, k, count, line_table):  # pragma: no cover - compiled
    # Every k-subset of range(size), in increasing order of its bit mask (Gosper's next mask
    # with the same number of bits): its points, increasing, and the lines inside it.
    points = np.empty((count, k), np.int64)
    inside = np.empty(count, np.int64)
    mask = (1 << k) - 1
    for i in range(count):
        inside[i] = _lines_in(mask, line_table)
        t = 0
        for q in range(size):
            if (mask >> q) & 1:
                points[i, t] = q
                t += 1
        if k == 0:
            break
        low = mask & -mask
        high = mask + low
        mask = (((high ^ mask) >> 2) // low) | high
    return points, inside


@nb.njit(cache=True)
def _best_second(first, seconds, second_sets, neg, own, tau_b, sigma, c, most_c):
    # pragma: no cover - compiled
    # max over Y in seconds (rows of points) of own + tau_b I(Y) + most_c + (the c largest of
    # sigma r), r(z) = #{(p, q) in X x Y : p + q + z = 0}. r lies in 0..|X|, so the c largest
    # come from how many z take each value (the largest r for sigma = 1, the smallest for -1).
    size, x = neg.shape[0], first.shape[0]
    best = -(10**9)
    r = np.zeros(size, np.int64)
    counts = np.zeros(x + 1, np.int64)
    step = -1 if sigma > 0 else 1
    for j in range(seconds.shape[0]):
        r[:] = 0
        for p in first:
            row = neg[p]
            for t in range(seconds.shape[1]):
                r[row[seconds[j, t]]] += 1
        counts[:] = 0
        for z in range(size):
            counts[r[z]] += 1
        left, total, value = c, 0, x if sigma > 0 else 0
        while left > 0:
            take = min(counts[value], left)
            total += take * value
            left -= take
            value += step
        found = own + tau_b * second_sets[j] + most_c + sigma * total
        if found > best:
            best = found
    return best


def split_maximum_bound(dimension: int, split: Sequence[int], known_max: Sequence[int]) -> int:
    """An upper bound on S(a, b, c), the most sets among points of AG(d+1,3) meeting the three
    hyperplanes x_0 = 0, 1, 2 in a, b and c points (the module docstring's bound).

    Parameters
    ----------
    dimension
        d, the dimension of the three hyperplanes: 1, 2 or 3.
    split
        (a, b, c), each at most 3^d, in any order.
    known_max
        Upper bounds on M_d(k) for k = 0..3^d (the smallest part's own sets).

    Returns
    -------
    int
        A number no such configuration exceeds.

    Examples
    --------
    Ten points of AG(3,3), 4 + 4 + 2 in three parallel planes, hold at most 9 sets, where
    M_3(10) = 12 and the planes' own bound (1 + 1 + 0 inside, 8 across) allow 10; 17 points
    split 7 + 7 + 3 may reach M_3(17) = 30:

    >>> plane = [0, 0, 0, 1, 1, 2, 3, 5, 8, 12]  # M_2(k)
    >>> split_maximum_bound(2, (4, 4, 2), plane), split_maximum_bound(2, (7, 3, 7), plane)
    (9, 30)
    """
    if dimension not in (1, 2, 3):
        raise SetlabError(
            f"split maxima are bounded for hyperplanes of dimension 1..3: {dimension}"
        )
    size = deck_size(dimension)
    a, b, c = sorted((int(v) for v in split), reverse=True)  # A the largest, C the smallest
    if c < 0 or a > size or len(known_max) != size + 1:
        raise SetlabError(f"a split of 3^{dimension} points per part, got {tuple(split)}")
    half = size // 2
    flip_a, flip_b = a > half, b > half  # complement a part of more than half its hyperplane
    x, y = (size - a if flip_a else a), (size - b if flip_b else b)
    tau_a, tau_b = (-1 if flip_a else 1), (-1 if flip_b else 1)
    sigma = 1 if flip_a == flip_b else -1
    alpha = {(False, False): 0, (True, False): y, (False, True): x, (True, True): size - x - y}
    constant = (
        (complement_sum(dimension, x) if flip_a else 0)
        + (complement_sum(dimension, y) if flip_b else 0)
        + c * alpha[flip_a, flip_b]
    )
    if comb(size, y) > SPLIT_SUBSETS_LIMIT:
        raise SetlabError(f"the split {a} + {b} + {c} needs too large a search")
    firsts = (
        np.array(_orbits(dimension, x), dtype=np.int64).reshape(-1, x)
        if x
        else np.zeros((1, 0), np.int64)
    )
    line_table = lines(dimension).astype(np.int64).reshape(-1, 3)
    seconds, second_sets = _subset_points(size, y, comb(size, y), line_table)
    neg = _negation(dimension)
    best = -(10**9)
    for first in firsts:  # one orbit of X at a time: a Ctrl-C is answered between them
        own = tau_a * _lines_in(int(sum(1 << int(p) for p in first)), line_table)
        with interrupts_held():
            value = _best_second(first, seconds, second_sets, neg, own, tau_b, sigma, c,
                                 int(known_max[c]))  # fmt: skip
        best = max(best, int(value))
    return constant + best


def part_orbits(dimension: int, size: int) -> list[list[int]]:
    """One subset of AG(d,3) from each AGL(d,3)-orbit of ``size``-subsets, sorted: the orbits
    the split maximum's bound runs its largest part over (a part of more than half the points
    through the orbits of its complements, as the bound does).

    Examples
    --------
    AG(2,3) has two orbits of 3-subsets (lines and triangles) and, by complement, of 6-subsets:

    >>> [len(part_orbits(2, k)) for k in range(10)]
    [1, 1, 1, 2, 2, 2, 2, 1, 1, 1]
    """
    points = deck_size(dimension)
    if size <= points // 2:
        return _orbits(dimension, size)
    return [sorted(set(range(points)) - set(r)) for r in _orbits(dimension, points - size)]


def split_table(dimension: int, maxima: Mapping[tuple[int, int, int], int]) -> np.ndarray:
    """``maxima`` (bounds on split maxima S(a, b, c) of AG(d+1,3), keyed by sorted or unsorted
    triples) as the array ``table[a, b, c]`` the big-slice split takes as ``split_most``: every
    order of each triple, and elsewhere a value no hyperplane reaches, so the split's other
    bounds stand there.

    Examples
    --------
    >>> table = split_table(2, {(4, 4, 2): 9})
    >>> table.shape, int(table[2, 4, 4]), int(table[4, 2, 4]), int(table[3, 3, 3]) > 10**5
    ((10, 10, 10), 9, 9, True)
    """
    side = deck_size(dimension) + 1
    table = np.full((side, side, side), 10**6, dtype=np.int64)
    for split, value in maxima.items():
        for order in itertools.permutations(split):
            table[order] = min(int(table[order]), int(value))
    return table


def split_maxima_found(dimension: int, smallest: int) -> dict[tuple[int, int, int], int]:
    """The most sets annealing finds among a + b + c points of AG(d+1,3) meeting the three
    hyperplanes x_0 = 0, 1, 2 in a, b and c points, for every a >= b >= c with a + b + c >=
    ``smallest``: lower bounds on the split maxima (each is a configuration), the same on every
    machine (three restarts of 30,000 swaps, seeded by a + b + c). They guide the big-slice
    split to the splits worth an exhaustive bound: where one is not below the bound the split
    already has, :func:`split_maximum_bound` cannot improve it.

    Examples
    --------
    >>> found = split_maxima_found(1, 8)  # AG(2,3): 9 points, 12 lines; 8 points, 8 lines
    >>> found
    {(3, 3, 2): 8, (3, 3, 3): 12}
    """
    top = deck_size(dimension)
    found = {}
    for split in itertools.combinations_with_replacement(range(top, -1, -1), 3):
        if sum(split) >= smallest:
            best = local_search(dimension + 1, sum(split), seconds=None, restarts=3,
                                iterations=30_000, seed=sum(split), cells=split)  # fmt: skip
            found[split] = best.sets
    return dict(sorted(found.items()))
