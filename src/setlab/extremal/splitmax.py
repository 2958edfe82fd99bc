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

tau = -1 for a complemented part. Symmetry: the maps p -> Mp + u, q -> Mq + v, z -> Mz - u - v
(M invertible) keep p + q + z = 0 and every I, so X runs over one representative per
AGL(d,3)-orbit and Y over every subset (A and B may trade roles: :func:`orbit_part`). C is the
smallest part.

The search. For each X, Y grows point by point in a depth-first search that keeps r, the
histogram of its values and I(Y) along the path (a point costs |X| steps). C's part is first
bounded by I(C) <= M_d(c) plus the c largest values of sigma r; only where that passes the best
value so far is C searched itself, again depth first over the points in decreasing order of
sigma r. A prefix of Y is cut when even the most its missing points can add (module code:
``_best_second``) does not pass the best so far. Nothing is cut that could pass it, so the
result is S(a, b, c) itself: the tests compare it with a search over every configuration of
AG(2,3) and AG(3,3), and for AG(4,3) it equals the count of a configuration wherever annealing
was run (docs/bounds.md, "Split maxima"). Bounding C by M_d(c) alone, as the first version
did, gave S(18, 18, 5) <= 147, where the search gives 146, in 3 s.
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
from setlab.interrupts import ctrl_c_held
from setlab.symmetry import orbit_representatives, point_orbits

__all__ = [
    "SPLIT_PAIRS_LIMIT",
    "orbit_part",
    "part_orbits",
    "split_maxima_found",
    "split_maximum_bound",
    "split_table",
]

SPLIT_PAIRS_LIMIT = 2 * 10**9
"""Most pairs (X, Y) one split maximum may run through (orbits of X times subsets Y)."""


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
def _best_third(r, sigma, neg, c, most_c, floor):  # pragma: no cover - compiled
    # max(floor, max over c-subsets C of I(C) + sigma sum_{z in C} r(z)): a depth-first search
    # over C taking the points in decreasing order of sigma r. At a node with k points chosen
    # and the next candidate at position i, the best completion adds at most the next c - k
    # values in that order and brings I(C) to at most M_d(c) = most_c, so a node whose bound
    # does not pass the best so far is cut, and with it every later candidate of its depth
    # (their values are no larger).
    size = r.shape[0]
    if c == 0:
        return max(floor, 0)
    value = sigma * r
    order = np.argsort(-value)
    prefix = np.zeros(size + 1, np.int64)
    for i in range(size):
        prefix[i + 1] = prefix[i] + value[order[i]]
    best = floor
    member = np.zeros(size, np.bool_)
    chosen = np.empty(c, np.int64)
    position = np.empty(c, np.int64)
    summed = np.zeros(c + 1, np.int64)  # sigma r over the first k points chosen
    inside = np.zeros(c + 1, np.int64)  # I of the first k points chosen
    k, position[0] = 0, 0
    while k >= 0:
        i = position[k]
        reach = best
        if i <= size - (c - k):
            reach = summed[k] + prefix[i + c - k] - prefix[i] + max(most_c, inside[k])
        if reach <= best:  # cut: no later candidate of this depth does better
            k -= 1
            if k >= 0:
                member[chosen[k]] = False
                position[k] += 1
            continue
        z = order[i]
        twice = 0  # each line {u, w, z} inside the chosen points is met from u and from w
        for t in range(k):
            if member[neg[chosen[t], z]]:
                twice += 1
        summed[k + 1] = summed[k] + value[z]
        inside[k + 1] = inside[k] + twice // 2
        if k + 1 == c:
            best = max(best, summed[c] + inside[c])
            position[k] += 1
        else:
            member[z], chosen[k] = True, z
            k += 1
            position[k] = i + 1
    return best


@nb.njit(cache=True)
def _top(counts, c, x, sigma):  # pragma: no cover - compiled
    # the c largest values of sigma r, read from the histogram counts[v] = #{z : r(z) = v}
    step = -1 if sigma > 0 else 1
    left, total, value = c, 0, x if sigma > 0 else 0
    while left > 0:
        take = min(counts[value], left)
        total += take * value
        left -= take
        value += step
    return sigma * total


@nb.njit(cache=True)
def _move(first, q, neg, r, counts, sign):  # pragma: no cover - compiled
    # add (sign 1) or take back (sign -1) the point q of Y: r(z) changes at the |X| points
    # z = -(p + q), p in X, and the histogram with it
    for p in first:
        z = neg[p, q]
        counts[r[z]] -= 1
        r[z] += sign
        counts[r[z]] += 1


@nb.njit(cache=True)
def _best_second(first, y, neg, own, tau_b, sigma, c, most_c, floor):
    # pragma: no cover - compiled
    # max(floor, max over y-subsets Y of own + tau_b I(Y) + max over C of (I(C) + sigma sum r)),
    # r(z) = #{(p, q) in X x Y : p + q + z = 0}. Y grows by a depth-first search over points in
    # increasing order, with r, its histogram (r lies in 0..|X|) and I(Y) kept along the path:
    # a point costs |X| steps, not |X| |Y| per subset.
    # Pruning. With k points chosen and m = y - k to come, each point to come raises r by one
    # at |X| points, so the c largest values of sigma r gain at most m min(c, |X|) (nothing when
    # sigma = -1: they are the smallest r, negated); the j-th point added lies on at most
    # floor((j - 1) / 2) lines of the points before it, so I(Y) gains at most their sum (a loss
    # when tau_b = -1, bounded by nothing); and I(C) <= M_d(c). A prefix whose bound does not
    # pass the best so far is not extended. At a whole Y the same bound with m = 0 decides
    # whether C is searched exactly (_best_third).
    size, x = neg.shape[0], first.shape[0]
    r = np.zeros(size, np.int64)
    counts = np.zeros(x + 1, np.int64)
    counts[0] = size
    member = np.zeros(size, np.bool_)
    chosen = np.empty(y + 1, np.int64)
    position = np.zeros(y + 1, np.int64)
    inside = np.zeros(y + 1, np.int64)  # I of the first k points of Y
    gain = np.zeros(y + 1, np.int64)  # the most the m = y - k points to come can add
    for k in range(y - 1, -1, -1):
        gain[k] = gain[k + 1] + (min(c, x) if sigma > 0 else 0) + (k // 2 if tau_b > 0 else 0)
    best = floor
    k = 0
    while k >= 0:
        reach = own + tau_b * inside[k] + most_c + _top(counts, c, x, sigma) + gain[k]
        if reach > best and k == y:
            base = own + tau_b * inside[y]
            best = base + _best_third(r, sigma, neg, c, most_c, best - base)
        elif reach > best and position[k] <= size - (y - k):
            q = position[k]  # extend the prefix by its next candidate point
            twice = 0  # each line {u, w, q} of Y is met from u and from w
            for t in range(k):
                if member[neg[chosen[t], q]]:
                    twice += 1
            inside[k + 1] = inside[k] + twice // 2
            _move(first, q, neg, r, counts, 1)
            member[q], chosen[k] = True, q
            k += 1
            position[k] = q + 1
            continue
        # this prefix is done: take back its last point and try the next one in its place
        k -= 1
        if k >= 0:
            q = chosen[k]
            member[q] = False
            _move(first, q, neg, r, counts, -1)
            position[k] = q + 1
    return best


def split_maximum_bound(dimension: int, split: Sequence[int], known_max: Sequence[int]) -> int:
    """S(a, b, c), the most sets among points of AG(d+1,3) meeting the three hyperplanes
    x_0 = 0, 1, 2 in a, b and c points (the module docstring's search).

    Parameters
    ----------
    dimension
        d, the dimension of the three hyperplanes: 1, 2 or 3.
    split
        (a, b, c), each at most 3^d, in any order.
    known_max
        Upper bounds on M_d(k) for k = 0..3^d (the smallest part's own sets, for pruning).

    Returns
    -------
    int
        The most sets such a configuration holds: none exceeds it and one reaches it (the
        pruning needs ``known_max`` to be upper bounds).

    Raises
    ------
    SetlabError
        For a dimension outside 1..3, a bad split, or a search over more than
        :data:`SPLIT_PAIRS_LIMIT` pairs (X, Y).

    Examples
    --------
    Ten points of AG(3,3), 4 + 4 + 2 in three parallel planes, hold at most 9 sets, where
    M_3(10) = 12 and the planes' own bound (1 + 1 + 0 inside, 8 across) allow 10; 17 points
    split 7 + 7 + 3 reach M_3(17) = 30:

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
    if orbit_part(dimension, (a, b, c)) != a:  # A the part run over its orbits
        a, b, flip_a, flip_b = b, a, flip_b, flip_a
    x, y = (size - a if flip_a else a), (size - b if flip_b else b)
    firsts = _orbits(dimension, x)
    if len(firsts) * comb(size, y) > SPLIT_PAIRS_LIMIT:
        raise SetlabError(f"the split {a} + {b} + {c} needs too large a search")
    tau_a, tau_b = (-1 if flip_a else 1), (-1 if flip_b else 1)
    sigma = 1 if flip_a == flip_b else -1
    alpha = {(False, False): 0, (True, False): y, (False, True): x, (True, True): size - x - y}
    constant = (
        (complement_sum(dimension, x) if flip_a else 0)
        + (complement_sum(dimension, y) if flip_b else 0)
        + c * alpha[flip_a, flip_b]
    )
    line_table = lines(dimension).astype(np.int64).reshape(-1, 3)
    neg = _negation(dimension)
    best = -(10**9)
    for first in firsts:  # one orbit of X at a time: a Ctrl-C is answered between them
        own = tau_a * _lines_in(int(sum(1 << int(p) for p in first)), line_table)
        with ctrl_c_held():
            best = int(_best_second(np.array(first, dtype=np.int64), y, neg, own, tau_b, sigma,
                                    c, int(known_max[c]), best))  # fmt: skip
    return constant + best


def orbit_part(dimension: int, split: Sequence[int]) -> int:
    """The size of the part a split maximum's search runs over its AGL(d,3)-orbits: of the two
    largest parts (A and B play symmetric roles), the one whose orbits times the subsets of the
    other are fewer (the larger on a tie). The search and the proof bundle's checker both run
    over those pairs.

    Examples
    --------
    18 + 13 + 9 points of AG(3,3): the 47 orbits of 18-subsets against the 20,058,300
    13-subsets, or the 127 orbits of 13-subsets against the 4,686,825 18-subsets:

    >>> orbit_part(3, (18, 13, 9)), orbit_part(3, (18, 18, 5))
    (13, 18)
    """
    size = deck_size(dimension)
    a, b = sorted((int(v) for v in split), reverse=True)[:2]
    if len(part_orbits(dimension, b)) * comb(size, a) < len(part_orbits(dimension, a)) * comb(
        size, b
    ):
        return b
    return a


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
