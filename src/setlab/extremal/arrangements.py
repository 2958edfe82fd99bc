"""Arrangements of big hyperplanes: k hyperplanes that hold many of n cards and meet in many.

The problem. Given k hyperplanes H_1, ..., H_k of AG(P,3), from k different parallel classes,
is there a set S of n points with low <= |S ∩ H_i| <= high for each i and |S ∩ H_i ∩ H_j| >=
sigma for each pair? The split's count of big classes (:func:`setlab.extremal.split.
meeting_bound`) needs the answer "no" for every such arrangement: then no configuration has k
classes whose largest hyperplanes are that big.

Up to AGL(P,3) the arrangements are few. Let r be the rank of the k hyperplanes' normals and
take r of them that are independent: an affine map sends those to x_1 = 0, ..., x_r = 0, and
then every other normal lies in the span of e_1, ..., e_r (its last P - r coordinates are 0),
with any offset. So an arrangement is the basis x_1 = 0, ..., x_r = 0 plus k - r hyperplanes
xi . x = c with xi in F_3^r (the first nonzero coordinate 1, xi not a unit vector, the k - r
normals distinct). The maps that permute the r coordinates and negate some of them keep the
basis, so of the arrangements added to it only one per orbit of that group of r! 2^r maps is
kept: the one whose hyperplanes, written as sorted indices, are the least of the orbit
(:func:`arrangements`).

For each arrangement the linear program over the 3^P points (0 <= s_x <= 1, the sum at most
n, the k + k + k(k-1)/2 rows above) has no solution, and integer multipliers y prove it
(Farkas' lemma): y >= 0 on the rows "at least", y <= 0 on the rows "at most", and with g =
sum_r y_r a_r (a_r the row's 0/1 vector over the points) and b = sum_r y_r b_r, the most
g . s can reach over the box, the sum of the positive g_x, is below b. A set S would give
g . 1_S >= b. :func:`arrangement_certificate` lists the arrangements with their multipliers;
the standalone checker (``split_check.py``) lists the orbits itself and checks each.

*With the sets.* Where sigma is a whole (P-2)-flat, 3^(P-2) points, every two of the k
hyperplanes meet in a flat that lies in S: their union F is forced, and the arrangement may fit
(at n = 168 of AG(5,3) six hyperplanes of 72 cards, every two meeting in a full 3-flat, fit in
21 of the 173 arrangements) and yet leave too few sets. The split asks for S holding at least
``sets`` lines, no hyperplane of S above ``high`` (:func:`set_row`, :func:`arrangement_rows`);
F and R = S - F then count

    L(S) = L(F) + sum over r in R of p(r) + (lines with two points in R) + (lines inside R),

p(r) the lines through r with both other points in F, and for each r in R the other points of
R pair off along the lines through r (a line inside R takes two, one whose third point is in F
one), so that r's share of the last two terms is at most u(r) (:func:`set_row`). So
sum over r in R of 6 (p(r) + u(r)) >= 6 (sets - L(F)): one more row, linear in s.

*The lines left out.* Where that program still has a solution, the cards S leaves out may say
more: T = AG(P,3) - S avoids F, holds a fixed range of each piece H_i - F, and S holds
``sets`` lines only if T holds few (:mod:`setlab.extremal.complement_lines`). Such an
arrangement carries a "complement" certificate in place of its multipliers. At n = 168 of
AG(5,3) this refutes the eleven arrangements of five 72-card hyperplanes that fit with 3418
sets: their complements hold 84 to 105 lines or more, where 3418 sets allow 83.

References
----------
J. Farkas, "Theorie der einfachen Ungleichungen", J. Reine Angew. Math. 124 (1902).
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Iterator
from typing import Any

import numba as nb
import numpy as np
from scipy.optimize import linprog

from setlab.cards import deck_size
from setlab.errors import SetlabError
from setlab.extremal.complement_lines import complement_certificate
from setlab.find import count_sets
from setlab.geometry import digits, linear_forms, third_card_table

__all__ = [
    "arrangement_certificate",
    "arrangement_rows",
    "arrangements",
    "check_arrangement",
    "set_row",
]

_CHUNK = 1 << 22
"""Most numbers one step of the orbit test holds (arrangements x hyperplanes)."""

_SCALES = (1, 2, 6, 12, 60, 420, 2520, 10**4, 10**6)
"""Denominators tried when the float multipliers are rounded to integers."""

_FITTING: dict[tuple[int, ...], int] = {}
"""By (P, k, low, high, meeting, cards): the most sets for which some arrangement's program with
the row of the sets had a solution. With fewer sets the row is weaker, so it has one still, and
there is no certificate: the split asks one threshold after another, downwards, and up to
1,460 programs of seven hyperplanes each time would find that again."""


def _normals(rank: int) -> list[tuple[int, ...]]:
    """The normals of F_3^rank with first nonzero coordinate 1, in lexicographic order."""
    return [xi for xi in itertools.product(range(3), repeat=rank)
            if any(xi) and xi[next(i for i, v in enumerate(xi) if v)] == 1]  # fmt: skip


def _normal_form(xi: tuple[int, ...], c: int) -> tuple[tuple[int, ...], int]:
    """The hyperplane xi . x = c written with its first nonzero coordinate 1 (times 2 if not)."""
    if xi[next(i for i, v in enumerate(xi) if v)] == 2:
        return tuple(2 * v % 3 for v in xi), 2 * c % 3
    return xi, c


@functools.cache
def _added(rank: int) -> tuple[list[tuple[tuple[int, ...], int]], np.ndarray]:
    """The hyperplanes that may join the basis x_1 = 0, ..., x_rank = 0 (normal not a unit
    vector, any offset; index 3 * class + offset) and the image of each under each signed
    permutation of the rank coordinates, (maps, hyperplanes) as indices."""
    units = {tuple(int(i == j) for j in range(rank)) for i in range(rank)}
    classes = [xi for xi in _normals(rank) if xi not in units]
    added = [(xi, c) for xi in classes for c in range(3)]
    normal = np.array([xi for xi, _ in added], dtype=np.int64).reshape(len(added), rank)
    offset = np.array([c for _, c in added], dtype=np.int64)
    # a hyperplane's code: its normal's digits, then its offset, read in base 3
    code = np.full(3 ** (rank + 1), -1, dtype=np.int64)
    code[(normal @ 3 ** np.arange(rank, 0, -1) + offset)] = np.arange(len(added))
    orders = np.array(list(itertools.permutations(range(rank))), dtype=np.int64)
    signs = np.array(list(itertools.product((1, 2), repeat=rank)), dtype=np.int64)
    # map (order, sign): xi -> (sign_i xi_order_i)_i, the offset kept, then the normal form
    # (times 2 when the first nonzero coordinate is 2), one row per map
    permuted = normal[:, orders].transpose(1, 0, 2)  # (orders, hyperplanes, rank)
    xi = permuted[:, None] * signs[None, :, None, :] % 3  # (orders, signs, hyperplanes, rank)
    first = np.take_along_axis(xi, np.argmax(xi != 0, axis=3)[..., None], axis=3)[..., 0]
    twice = first == 2
    xi = np.where(twice[..., None], 2 * xi % 3, xi)
    c = np.where(twice, 2 * offset % 3, offset)
    images = code[xi @ 3 ** np.arange(rank, 0, -1) + c]
    return added, images.reshape(len(orders) * len(signs), len(added))


def arrangements(properties: int, k: int) -> Iterator[list[tuple[tuple[int, ...], int]]]:
    """Every arrangement of k hyperplanes of AG(P,3) from different classes, up to AGL(P,3):
    one per orbit of the basis's signed permutations (module docstring), each a list of (xi, c)
    for the hyperplane xi . x = c.

    Examples
    --------
    Two hyperplanes from different classes are one arrangement; three are three: normals
    independent, or x_1 = 0, x_2 = 0 and x_1 + x_2 = c, through their common line (c = 0) or
    not (c = 1 and 2 are one orbit: negate both coordinates).

    >>> [len(list(arrangements(3, k))) for k in (1, 2, 3)]
    [1, 1, 3]
    >>> list(arrangements(3, 2))
    [[((1, 0, 0), 0), ((0, 1, 0), 0)]]
    """
    if not 1 <= k <= (deck_size(properties) - 1) // 2:
        raise SetlabError(f"AG({properties},3) has {(deck_size(properties) - 1) // 2} classes")
    for rank in range(1, min(k, properties) + 1):
        if (3**rank - 1) // 2 < k:  # rank independent normals span (3^rank - 1) / 2 classes
            continue
        basis = [(tuple(int(i == j) for j in range(properties)), 0) for i in range(rank)]
        pad = (0,) * (properties - rank)
        added, images = _added(rank)
        for chosen in _orbit_least(len(added) // 3, k - rank, images):
            yield basis + [(added[i][0] + pad, added[i][1]) for i in chosen.tolist()]


@functools.cache
def _listed(properties: int, k: int) -> tuple[list[tuple[tuple[int, ...], int]], ...]:
    """:func:`arrangements`, kept: the split asks the same k again and again (each level,
    threshold and count of sets its own call). Finding the orbits once took longer than their
    programs (the 1,460 of seven hyperplanes of AG(5,3): some 18 s with a numpy test of every
    map on every set, 0.04 s compiled and stopping at the first smaller image)."""
    return tuple(arrangements(properties, k))


def _orbit_least(classes: int, m: int, images: np.ndarray) -> Iterator[np.ndarray]:
    """The sets of m added hyperplanes from distinct classes (sorted indices) that are the
    least of their orbit under the maps ``images``: each set and its images are read as m
    digits in base 3 * classes, and a set is kept when no image reads less."""
    if m == 0:
        yield np.zeros(0, dtype=np.int64)
        return
    offsets = np.array(list(itertools.product(range(3), repeat=m)), dtype=np.int64)
    step = max(1, _CHUNK // (m * len(offsets)))
    combos = itertools.combinations(range(classes), m)
    while chunk := list(itertools.islice(combos, step)):
        # class c with offset o is hyperplane 3c + o: ascending classes give sorted indices
        sets = (3 * np.array(chunk, dtype=np.int64)[:, None, :] + offsets[None]).reshape(-1, m)
        yield from sets[_least_in_orbit(sets, images)]


@nb.njit(cache=True)
def _least_in_orbit(sets, images):  # pragma: no cover - compiled
    """Whether each row of ``sets`` (sorted indices) is the least of its orbit: no map's image
    of it, sorted, is lexicographically smaller (the m digits' order). A set stops at the first
    map that makes it smaller, so most sets cost a few maps, not all of them."""
    count, m = sets.shape
    least = np.ones(count, dtype=np.bool_)
    image = np.empty(m, dtype=np.int64)
    for s in range(count):
        for g in range(images.shape[0]):
            for i in range(m):  # the image, sorted by insertion as it is made
                v = images[g, sets[s, i]]
                j = i
                while j > 0 and image[j - 1] > v:
                    image[j] = image[j - 1]
                    j -= 1
                image[j] = v
            i = 0
            while i < m and image[i] == sets[s, i]:
                i += 1
            if i < m and image[i] < sets[s, i]:
                least[s] = False
                break
    return least


def arrangement_rows(
    properties: int, hyperplanes: list[tuple[tuple[int, ...], int]], low: int, high: int,
    meeting: int, cards: int, sets: int | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:  # fmt: skip
    """The linear program of one arrangement over the points of AG(P,3): (A, b, sense) with
    rows the sum (at most ``cards``), each hyperplane at least ``low`` and then at most
    ``high``, and each pair of them (in :func:`itertools.combinations` order) at least
    ``meeting``; sense +1 for "at least", -1 for "at most". With ``sets`` (``meeting`` a whole
    (P-2)-flat), then every hyperplane of AG(P,3) at most ``high`` (forms of
    :func:`~setlab.geometry.linear_forms` in order, offsets 0, 1, 2) and last :func:`set_row`.

    Examples
    --------
    >>> a, b, sense = arrangement_rows(2, [((1, 0), 0), ((0, 1), 0)], 2, 3, 1, 5)
    >>> a.shape, b.tolist(), sense.tolist()
    ((6, 9), [5, 2, 2, 3, 3, 1], [-1, 1, 1, -1, -1, 1])
    >>> arrangement_rows(2, [((1, 0), 0), ((0, 1), 0)], 2, 3, 1, 5, sets=2)[0].shape
    (19, 9)
    """
    points = digits(properties).astype(np.int64)
    inside = np.array([(points @ np.array(xi)) % 3 == c for xi, c in hyperplanes], dtype=np.int64)
    pairs = [inside[i] & inside[j] for i, j in itertools.combinations(range(len(inside)), 2)]
    a = np.vstack([np.ones((1, len(points)), np.int64), inside, inside, *pairs]).reshape(
        -1, len(points)
    )
    k = len(hyperplanes)
    b = np.array([cards] + [low] * k + [high] * k + [meeting] * len(pairs), dtype=np.int64)
    sense = np.array([-1] + [1] * k + [-1] * k + [1] * len(pairs), dtype=np.int64)
    if sets is None:
        return a, b, sense
    if meeting < 3 ** (properties - 2):
        raise SetlabError("the sets' row needs every two hyperplanes to meet in a whole flat")
    forced = np.any(pairs, axis=0) if pairs else np.zeros(len(points), bool)
    every = np.array([(points @ form) % 3 == c for form in linear_forms(properties)
                      for c in range(3)], dtype=np.int64)  # fmt: skip
    weights, least = set_row(properties, forced, cards, sets)
    a = np.vstack([a, every, weights[None, :]])
    b = np.concatenate([b, np.full(len(every), high), [least]])
    sense = np.concatenate([sense, np.full(len(every), -1), [1]])
    return a, b, sense


def set_row(
    properties: int, forced: np.ndarray, cards: int, sets: int
) -> tuple[np.ndarray, int]:
    """The row "S holds ``sets`` lines or more" over the points of AG(P,3), for n = ``cards``
    points S containing the points ``forced`` (a boolean mask, F): weights w and a right side
    with w . 1_S >= right side (module docstring, "With the sets").

    For r off F, p(r) counts the lines through r whose other two points lie in F, and q(r) the
    points y off F (y != r) whose third point with r lies in F. In S, with R = S - F of m =
    n - |F| points, take r in R: each line through r holds at most two other points of R, and
    if it holds one whose third point is in F, only that one. So a_r (the points of R whose
    third with r is in F, at most q(r)) and b_r (the lines through r inside R) satisfy a_r + 2
    b_r <= m - 1, and r's share of the sets with two or three points in R, a_r / 2 + b_r / 3, is
    at most u(r) = a / 2 + (m - 1 - a) / 6, a = min(q(r), m - 1). Every set of S has 0, 1, 2
    or 3 points in R, so L(S) <= L(F) + sum over R of (p + u), and in integers, w = 6 (p + u)
    = 6 p + 2 a + m - 1 off F (0 on F) and the right side 6 (sets - L(F)).

    Examples
    --------
    Three cards of AG(2,3) holding the cards 0 and 1 hold a set only with their third card,
    2; with four, each card off F may also share a set with the other one (1/2 of it when
    their third card may be in F, 1/6 when not):

    >>> two = np.array([True, True] + [False] * 7)
    >>> weights, right = set_row(2, two, 3, 1)
    >>> weights.tolist(), right
    ([0, 0, 6, 0, 0, 0, 0, 0, 0], 6)
    >>> set_row(2, two, 4, 1)[0].tolist()
    [0, 0, 7, 3, 3, 3, 3, 3, 3]
    """
    forced = np.asarray(forced, dtype=bool)
    third = third_card_table(properties).astype(np.int64)
    closes = forced[third]  # closes[r, y]: the third point of r and y lies in F
    p = (closes & forced[None, :]).sum(axis=1) // 2  # each such line seen from its two points
    q = (closes & ~forced[None, :]).sum(axis=1)  # y = r is never counted: r's "third" is r
    rest = max(cards - int(forced.sum()) - 1, 0)  # m - 1: the other points of R
    a = np.minimum(q, rest)
    weights = np.where(forced, 0, 6 * p + 2 * a + rest).astype(np.int64)
    inside = count_sets(np.flatnonzero(forced), properties)
    return weights, 6 * (sets - inside)


def check_arrangement(
    a: np.ndarray, b: np.ndarray, sense: np.ndarray, y: list[int], size: np.ndarray | None = None
) -> bool:
    """Whether the integer multipliers y refute the program (A, b, sense) over 0 <= s <= 1:
    each y_r of its row's sense (or 0), and the positive part of y A summed below y b. Where
    A's columns are atoms (:func:`_multipliers`), ``size`` is how many points each stands for:
    the sum counts each atom's positive part that many times.

    Examples
    --------
    Five points cannot put three in each of two disjoint lines (rows 1 and 2 at least 3):

    >>> a, b, sense = arrangement_rows(2, [((1, 0), 0), ((1, 0), 1)], 3, 3, 0, 5)
    >>> check_arrangement(a, b, sense, [-1, 1, 1, 0, 0, 0])
    True
    >>> check_arrangement(a, b, sense, [1, 1, 1, 0, 0, 0])  # a wrong sign
    False
    >>> atoms, size = np.unique(a.T, axis=0, return_counts=True)  # the two lines, the rest
    >>> size.tolist(), check_arrangement(atoms.T, b, sense, [-1, 1, 1, 0, 0, 0], size)
    ([3, 3, 3], True)
    """
    y_arr = np.array([int(v) for v in y], dtype=object)
    if len(y_arr) != len(b) or any(v * s < 0 for v, s in zip(y_arr, sense.tolist(), strict=True)):
        return False
    g = y_arr @ a.astype(object)
    size = [1] * len(g) if size is None else size.tolist()
    return sum(v * m for v, m in zip(g, size, strict=True) if v > 0) < int(y_arr @ b.astype(object))


def _multipliers(a: np.ndarray, b: np.ndarray, sense: np.ndarray) -> list[int] | None:
    """Integer multipliers refuting the program, or None where its LP has a solution.

    HiGHS solves for real y (of the rows' signs) and z >= 0 with z >= y A, y b - sum z >= 1,
    the least sum of |y|; y is then rounded with a few denominators and checked exactly.

    Points with the same column of A (the same hyperplanes of the arrangement through them: an
    atom of it) get the same (y A)_x, so one z per atom, weighted by the atom's size in the
    sum, is the same program for y, and the exact check is the same sum over the atoms. The
    seven hyperplanes of an arrangement of AG(5,3) cut its 243 points into 13 to 26 atoms, and
    this function took 6.8 ms per arrangement over the points, 2.7 ms over the atoms (all 1,460
    of seven at two levels, the same verdicts). With the sets' rows (every hyperplane of
    AG(P,3) among them) each atom is one point, as before."""
    atoms, size = np.unique(a.T, axis=0, return_counts=True)  # their columns and sizes
    width, rows = atoms.shape
    cost = np.concatenate([sense.astype(float), np.zeros(width)])  # sum |y|
    upper = np.hstack([atoms, -np.eye(width)])  # y A - z <= 0, per atom
    gap = np.concatenate([-b.astype(float), size.astype(float)])[None, :]  # sum z - y b <= -1
    bounds = [(0, None) if s > 0 else (None, 0) for s in sense] + [(0, None)] * width
    limits = np.concatenate([np.zeros(width), [-1]])
    found = linprog(cost, A_ub=np.vstack([upper, gap]), b_ub=limits, bounds=bounds, method="highs")
    if found.status != 0:
        return None
    ray = found.x[:rows]
    for scale in _SCALES:
        rounded = np.rint(ray * scale).astype(np.int64).tolist()
        y = [v if v * s >= 0 else 0 for v, s in zip(rounded, sense.tolist(), strict=True)]
        if check_arrangement(atoms.T, b, sense, y, size):
            divisor = math.gcd(*y) or 1
            return [v // divisor for v in y]
    return None


@functools.cache
def arrangement_certificate(
    properties: int, k: int, low: int, high: int, meeting: int, cards: int,
    sets: int | None = None, complement: bool = False,
) -> dict[str, Any] | None:  # fmt: skip
    """A certificate that no n cards of AG(P,3) meet k hyperplanes of different classes in
    ``low`` to ``high`` cards each and every two of them in ``meeting`` or more, or None when
    the linear program of some arrangement has a solution (module docstring). With ``sets``
    (``meeting`` a whole (P-2)-flat): none that also hold ``sets`` lines or more with no
    hyperplane above ``high`` (the rows of :func:`arrangement_rows` with ``sets``); and with
    ``complement`` too, an arrangement whose program has a solution is refuted by the lines
    its complement must hold where it can be (module docstring, "The lines left out"): that
    takes seconds to minutes an arrangement where the rows take milliseconds.

    Returns
    -------
    dict or None
        ``{"properties", "hyperplanes": k, "low", "high", "meeting", "cards", "arrangements":
        [{"planes": [[xi..., c], ...], "multipliers": [...]}, ...]}`` (and ``"sets"`` where
        given), the multipliers in the order of :func:`arrangement_rows`; with the sets, an
        arrangement whose program has a solution may carry ``"complement"`` (a certificate of
        :func:`~setlab.extremal.complement_lines.complement_certificate`) instead. Cached:
        callers must not change it.

    Examples
    --------
    Two full lines of AG(2,3) from different classes hold 5 points; with 4 there is none.

    >>> found = arrangement_certificate(2, 2, 3, 3, 1, 4)
    >>> found["arrangements"][0]["planes"], found["arrangements"][0]["multipliers"]
    ([[1, 0, 0], [0, 1, 0]], [-1, 1, 1, 0, 0, 0])
    >>> arrangement_certificate(2, 2, 3, 3, 1, 5) is None
    True

    Those 5 points hold 2 lines. The row of the sets is a bound (here: each of the four
    points off the meeting point shares at most 5/6 of a set), so it refutes 4, not 3:

    >>> arrangement_certificate(2, 2, 3, 3, 1, 5, sets=3) is None
    True
    >>> arrangement_certificate(2, 2, 3, 3, 1, 5, sets=4)["sets"]
    4
    """
    key = (properties, k, low, high, meeting, cards)
    if sets is not None and not complement and sets <= _FITTING.get(key, -1):
        return None
    found: list[dict[str, Any]] = []
    for hyperplanes in _listed(properties, k):
        rows = arrangement_rows(properties, hyperplanes, low, high, meeting, cards, sets)
        planes = [[*xi, c] for xi, c in hyperplanes]
        y = _multipliers(*rows)
        if y is not None:
            found.append({"planes": planes, "multipliers": y})
            continue
        # The program fits; with the sets, the lines among the cards S leaves out may still
        # be too many for them (complement_lines)
        if sets is not None:
            _FITTING[key] = max(sets, _FITTING.get(key, -1))
        if sets is None or not complement:
            return None
        lines = complement_certificate(properties, hyperplanes, low, high, cards, sets)
        if lines is None:
            return None
        found.append({"planes": planes, "complement": lines})
    return {"properties": properties, "hyperplanes": k, "low": low, "high": high,
            "meeting": meeting, "cards": cards, "arrangements": found,
            **({} if sets is None else {"sets": sets})}  # fmt: skip
