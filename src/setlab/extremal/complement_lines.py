"""The lines among the cards an arrangement leaves out: when k big hyperplanes hold too few sets.

The problem. S is a set of n cards of AG(P,3), H_1, ..., H_k hyperplanes of different classes
with low <= |S ∩ H_i| <= high, every two meeting in a whole (P-2)-flat inside S. Their
meetings' union F lies in S, the pieces H_i - F are disjoint, and the complement T = AG(P,3) - S
(t = 3^P - n cards) avoids F. Every card lies on lambda = (3^P - 1)/2 lines and every two
cards on one, so the lines meeting T number lambda t - C(t, 2) + L(T), and

    L(S) = N - lambda t + C(t, 2) - L(T)        (N = 3^P lambda / 3 lines in all).

So S holds ``sets`` lines or more only if L(T) <= N - lambda t + C(t, 2) - sets, the *budget*;
a lower bound on L(T) above the budget refutes the arrangement. T is pinned down by counts:
|T ∩ H_i| = |T ∩ (H_i - F)| lies in [3^(P-1) - high, 3^(P-1) - low], and T avoids F. This
module bounds L(T) from below in two ways, each with a certificate in integers that the
standalone checker (``split_check.py``) re-derives and checks.

*Fibres* (rank r < P). In the basis form (:mod:`setlab.extremal.arrangements`) every normal is
supported on the first r coordinates, so F, the pieces and the rest are unions of the fibres
{v} x AG(P-r,3) over the points v of the image AG(r,3). A line of AG(P,3) lies in one fibre or
meets three fibres over a line {u, v, w} of the image, with fibre parts x + y + z = 0. With t_v
= |T ∩ fibre(v)|:

    L(T) >= sum_v m(t_v) + sum over image lines of r(t_u, t_v, t_w),

m the fewest lines among t_v cards of AG(P-r,3) and r the fewest solutions of x + y + z = 0
with x, y, z in sets of t_u, t_v, t_w cards (:func:`~setlab.extremal.identities.across_bounds`'
lower bound). Lines through a fibre of F hold no card of T. The integer program over the t_v,
with the counts above and L(T) at most the budget, is refuted branch by branch: in a box of
the t_v its linear relaxation (one distribution over t_v per fibre, one over (t_u, t_v, t_w)
per line, with those as its marginals) has a dual that bounds L(T) above the budget.

*Local bounds* (rank P, fibres of one card). Take structures Q_j of few cards of T's range and
weigh each line by one over the number of structures holding it; then L(T) >= the weighted
sum, and each structure's weighted lines are at least sum_g lambda_{j,g} |X ∩ g| + beta_j over
all its subsets X (checked one by one), g the groups (the pieces and the rest). The sum over j
is linear in T, and its least value over T with the groups' counts bounds L(T). The
arrangement of five of AG(5,3) of rank 5 (the cube {1, 2}^5, its 80 edges as the pieces) is
bounded by its forty 3-flats of 20 such cards.

References
----------
J. Farkas, "Theorie der einfachen Ungleichungen", J. Reine Angew. Math. 124 (1902).
H. D. Sherali and W. P. Adams, "A hierarchy of relaxations between the continuous and convex
hull representations for zero-one programming problems", SIAM J. Discrete Math. 3 (1990).
"""

from __future__ import annotations

import functools
import itertools
import math
from dataclasses import dataclass
from typing import Any

import numpy as np
import scipy.sparse as sp
from scipy.optimize import linprog

from setlab.cards import deck_size
from setlab.extremal.identities import across_bounds
from setlab.find import count_sets
from setlab.geometry import digits, flats, indices_of, rank_mod3, third_card_table

__all__ = [
    "complement_certificate",
    "complement_shape",
    "fibre_certificate",
    "local_certificate",
]

_SCALE = 10**6
"""Denominator of the certificates' multipliers (rounded from HiGHS's floats, then mended)."""

NODES = 1000
"""Most boxes a fibre certificate's branching may open before it gives up."""

PACE = 10
"""A fibre tree that has opened :data:`LOOK` boxes or more gives up once, at the pace its
closed boxes have covered the root's integer points so far, the whole would take more than
``PACE`` times its ``nodes`` boxes (:func:`fibre_certificate`, Notes)."""

LOOK = 50
"""Boxes a fibre tree opens before its pace is judged."""

_PROVEN: dict[tuple[Any, ...], dict[str, Any]] = {}
"""By (P, hyperplanes, low, high, cards): the certificate found, whose "least" (the fewest lines
it proves T holds) refutes every count of sets with a budget below it: the split asks one
count after another."""

_HOPELESS: dict[tuple[Any, ...], int] = {}
"""By the same key: the least budget no certificate was found for (a larger one is harder)."""

LOCAL_CARDS = 20
"""Most cards of a local structure (its subsets are checked one by one)."""


@dataclass(frozen=True)
class Shape:
    """What S's arrangement leaves for T: the rank r, ``group`` of each card (piece i < k, the
    rest k, F -1), each group's count range ``counts`` [(least, most)], t = |T| and the lines'
    constant N - lambda t + C(t, 2) (the budget is it minus the sets)."""

    properties: int
    rank: int
    group: np.ndarray
    counts: tuple[tuple[int, int], ...]
    t: int
    constant: int

    def budget(self, sets: int) -> int:
        """The most lines T may hold when S holds ``sets`` (module docstring)."""
        return self.constant - sets


def complement_shape(
    properties: int, hyperplanes: list[tuple[tuple[int, ...], int]], low: int, high: int,
    cards: int,
) -> Shape:  # fmt: skip
    """The groups and counts T = AG(P,3) - S must have (module docstring).

    Examples
    --------
    Two lines of AG(2,3) through the card 0, each holding 2 or 3 of 5 cards: T (4 cards) holds
    0 or 1 of each line's two cards off 0, and the rest, 2 to 4 of the four cards off both.

    >>> shape = complement_shape(2, [((1, 0), 0), ((0, 1), 0)], 2, 3, 5)
    >>> shape.group.tolist(), shape.counts, shape.t, shape.budget(2)
    ([-1, 0, 0, 1, 2, 2, 1, 2, 2], ((0, 1), (0, 1), (2, 4)), 4, 0)
    """
    points = digits(properties).astype(np.int64)
    inside = np.array([(points @ np.array(xi)) % 3 == c for xi, c in hyperplanes])
    k = len(hyperplanes)
    forced = np.zeros(len(points), dtype=bool)
    for i, j in itertools.combinations(range(k), 2):
        forced |= inside[i] & inside[j]
    group = np.full(len(points), k, dtype=np.int64)
    for i in range(k):
        group[inside[i]] = i
    group[forced] = -1
    plane = deck_size(properties - 1)
    t = deck_size(properties) - cards
    pieces = [(plane - high, plane - low)] * k
    rest = (t - sum(most for _, most in pieces), t - sum(least for least, _ in pieces))
    every = deck_size(properties) * (deck_size(properties) - 1) // 6
    per_card = (deck_size(properties) - 1) // 2
    rank = rank_mod3(np.array([xi for xi, _ in hyperplanes], dtype=np.int64))
    return Shape(properties, rank, group, (*pieces, rest), t,
                 every - per_card * t + math.comb(t, 2))  # fmt: skip


# --- fibres --------------------------------------------------------------------------------


@functools.cache
def _fewest_lines(dim: int) -> tuple[int, ...]:
    """m(k): the fewest lines among k cards of AG(dim,3), k = 0..3^dim, by every subset
    (dim 1 or 2: the fibres of ranks P - 1 and P - 2)."""
    size = deck_size(dim)
    fewest = [math.inf] * (size + 1)
    for chosen in range(1 << size):
        board = [c for c in range(size) if chosen >> c & 1]
        fewest[len(board)] = min(fewest[len(board)], count_sets(board, dim))
    return tuple(int(v) for v in fewest)


@functools.cache
def _fewest_across(dim: int) -> np.ndarray:
    """r(a, b, c): across_bounds' least number of solutions of x + y + z = 0 in sets of a, b, c
    cards of AG(dim,3), as a (q+1, q+1, q+1) table, q = 3^dim."""
    q = deck_size(dim)
    table = np.zeros((q + 1,) * 3, dtype=np.int64)
    for a, b, c in itertools.product(range(q + 1), repeat=3):
        table[a, b, c] = across_bounds(a, b, c, q)[0]
    table.setflags(write=False)
    return table


@dataclass(frozen=True)
class _Fibres:
    """The fibre program of a shape: the free fibres (image points off F, in order), their
    groups, the image lines through three free fibres (positions, in order) and the linear
    rows over the t_v: (coefficients per free fibre, sense, right side), sense +1 for "at
    least", -1 "at most", 0 "equal"."""

    width: int
    free: np.ndarray
    lines: np.ndarray
    rows: tuple[tuple[np.ndarray, int, int], ...]
    fewest: np.ndarray
    across: np.ndarray


def _fibres(shape: Shape) -> _Fibres:
    """The fibre program's parts (module docstring, "Fibres")."""
    p, r = shape.properties, shape.rank
    width = deck_size(p - r)
    fibre_group = shape.group.reshape(-1, width)[:, 0]  # constant on each fibre
    free = np.flatnonzero(fibre_group >= 0)
    position = np.full(deck_size(r), -1, dtype=np.int64)
    position[free] = np.arange(len(free))
    image = digits(r).astype(np.int64)
    lines = []
    for u, v in itertools.combinations(free.tolist(), 2):
        w = int(indices_of(-(image[u] + image[v])))
        if w > v and position[w] >= 0:
            lines.append((position[u], position[v], position[w]))
    groups = fibre_group[free]
    k = len(shape.counts) - 1
    rows: list[tuple[np.ndarray, int, int]] = [(np.ones(len(free), np.int64), 0, shape.t)]
    for i in range(k):
        least, most = shape.counts[i]
        rows.append(((groups == i).astype(np.int64), 1, least))
        rows.append(((groups == i).astype(np.int64), -1, most))
    fewest = np.array(_fewest_lines(p - r), dtype=np.int64)
    lines_array = np.array(lines, dtype=np.int64).reshape(-1, 3)
    return _Fibres(width, free, lines_array, tuple(rows), fewest, _fewest_across(p - r))


def _leaf_bound(
    program: _Fibres, box: np.ndarray, leaf: dict[str, Any], scale: int
) -> int | None:
    """The bound a leaf's multipliers give on scale * L(T) in the box, or None where a line's
    inequality fails (the checker's test, here to vet what the prover writes)."""
    y = [int(v) for v in leaf["rows"]]
    for value, (_, sense, _) in zip(y, program.rows, strict=True):
        if value * sense < 0:
            return None
    spans = [range(lo, hi + 1) for lo, hi in box.tolist()]
    share = [np.array([scale * int(program.fewest[k]) for k in span], dtype=object)
             for span in spans]  # fmt: skip
    for (u, v, w), phi in zip(program.lines.tolist(), leaf["lines"], strict=True):
        parts = [np.array(part, dtype=object) for part in phi]
        if any(len(part) != len(spans[x]) for part, x in zip(parts, (u, v, w), strict=True)):
            return None
        cube = program.across[np.ix_(spans[u], spans[v], spans[w])].astype(object) * scale
        summed = parts[0][:, None, None] + parts[1][None, :, None] + parts[2][None, None, :]
        if (cube < summed).any():
            return None
        for part, x in zip(parts, (u, v, w), strict=True):
            share[x] = share[x] + part
    total = sum(value * b for value, (_, _, b) in zip(y, program.rows, strict=True))
    for x, span in enumerate(spans):
        slope = sum(value * int(a[x]) for value, (a, _, _) in zip(y, program.rows, strict=True))
        total += min(share[x][i] - slope * k for i, k in enumerate(span))
    return int(total)


def _relaxation(
    program: _Fibres, box: np.ndarray
) -> tuple[float, np.ndarray, dict[str, Any]] | None:
    """HiGHS on the box's linear relaxation: (its optimum, each free fibre's distribution's
    mean and variance, the leaf's float multipliers), or None where it has no solution.

    Columns: for each free fibre x a distribution over its t in the box, then for each line
    one over its three fibres' values, costing m(t) and r(a, b, c). Equal rows: each fibre's
    sum 1, each line's marginals those of its fibres, the total; "at most" rows: the pieces'
    counts (an "at least" row negated). Without HiGHS's presolve: these programs are small
    and the dual simplex alone took 0.12 s where presolve and all took 0.29 (the root of
    n = 168's arrangement 24, 6,560 columns)."""
    spans = [list(range(lo, hi + 1)) for lo, hi in box.tolist()]
    start = np.cumsum([0, *(len(span) for span in spans)])
    cost = [float(program.fewest[k]) for span in spans for k in span]
    equal: list[tuple[list[tuple[int, float]], float]] = []
    for x, span in enumerate(spans):  # each fibre's distribution sums to 1
        equal.append(([(start[x] + i, 1.0) for i in range(len(span))], 1.0))
    marginals = []  # per line, the rows of its three marginals
    for u, v, w in program.lines.tolist():
        cube = program.across[np.ix_(spans[u], spans[v], spans[w])]
        cells = np.arange(cube.size).reshape(cube.shape) + len(cost)
        cost += cube.ravel().astype(float).tolist()
        first = len(equal)
        for axis, x in enumerate((u, v, w)):
            for i in range(cube.shape[axis]):  # the line's marginal = the fibre's distribution
                terms = [(c, 1.0) for c in np.take(cells, i, axis=axis).ravel().tolist()]
                equal.append(([*terms, (start[x] + i, -1.0)], 0.0))
        marginals.append(range(first, len(equal)))
    upper: list[tuple[list[tuple[int, float]], float]] = []
    where = []  # each program row: ("equal" or "upper", its index there)
    for a, sense, b in program.rows:
        terms = [(start[x] + i, float(a[x] * k)) for x, span in enumerate(spans)
                 for i, k in enumerate(span) if a[x] * k]  # fmt: skip
        if sense == 0:
            where.append(("equal", len(equal)))
            equal.append((terms, float(b)))
        else:  # sense * (a . t) >= sense * b, as -sense * (a . t) <= -sense * b
            where.append(("upper", len(upper)))
            upper.append(([(c, -sense * value) for c, value in terms], -sense * float(b)))
    found = linprog(np.array(cost), A_ub=_sparse(upper, len(cost)), b_ub=[b for _, b in upper],
                    A_eq=_sparse(equal, len(cost)), b_eq=[b for _, b in equal], bounds=(0, None),
                    method="highs-ds", options={"presolve": False})  # fmt: skip
    if found.status != 0:
        return None
    dual = {"equal": found.eqlin.marginals, "upper": found.ineqlin.marginals}
    # a row's multiplier y in the bound: HiGHS's marginal, negated where the row was negated
    y = [(-1 if kind == "upper" and sense > 0 else 1) * dual[kind][i]
         for (kind, i), (_, sense, _) in zip(where, program.rows, strict=True)]  # fmt: skip
    phi = []
    for (u, v, w), rows in zip(program.lines.tolist(), marginals, strict=True):
        values = dual["equal"][list(rows)]
        cut = np.cumsum([0, len(spans[u]), len(spans[v]), len(spans[w])])
        phi.append([values[cut[i] : cut[i + 1]] for i in range(3)])
    parts = [found.x[start[x] : start[x + 1]] for x in range(len(spans))]
    mean = np.array([part @ np.array(span, float) for part, span in zip(parts, spans, strict=True)])
    square = np.array([part @ np.array(span, float) ** 2
                       for part, span in zip(parts, spans, strict=True)])  # fmt: skip
    return float(found.fun), np.column_stack([mean, square - mean**2]), {"rows": y, "lines": phi}


def _sparse(rows: list[tuple[list[tuple[int, float]], float]], width: int) -> sp.csr_matrix:
    """The rows' (column, coefficient) terms as a sparse matrix."""
    data = [(r, c, value) for r, (terms, _) in enumerate(rows) for c, value in terms]
    return sp.csr_matrix(([d[2] for d in data], ([d[0] for d in data], [d[1] for d in data])),
                         shape=(len(rows), width))  # fmt: skip


def _exact_leaf(program: _Fibres, box: np.ndarray, floats: dict[str, Any]) -> dict[str, Any]:
    """Integer multipliers (denominator :data:`_SCALE`) from HiGHS's: y and the first two parts
    of each line's rounded, the third part then the largest that keeps every inequality of
    the line (so each holds exactly, whatever the rounding)."""
    y = []
    for value, (_, sense, _) in zip(floats["rows"], program.rows, strict=True):
        rounded = round(value * _SCALE)
        y.append(0 if rounded * sense < 0 else rounded)
    spans = [range(lo, hi + 1) for lo, hi in box.tolist()]
    lines = []
    for (u, v, w), phi in zip(program.lines.tolist(), floats["lines"], strict=True):
        first = [round(c * _SCALE) for c in phi[0]]
        second = [round(c * _SCALE) for c in phi[1]]
        cube = program.across[np.ix_(spans[u], spans[v], spans[w])].astype(np.int64) * _SCALE
        rest = cube - np.array(first)[:, None, None] - np.array(second)[None, :, None]
        lines.append([first, second, rest.min(axis=(0, 1)).tolist()])
    return {"rows": y, "lines": lines}


def fibre_certificate(
    properties: int, hyperplanes: list[tuple[tuple[int, ...], int]], low: int, high: int,
    cards: int, sets: int, nodes: int = NODES,
) -> dict[str, Any] | None:  # fmt: skip
    """A branching certificate that T holds more lines than the budget (module docstring,
    "Fibres"), or None: rank P, fibres wider than a plane, a box whose relaxation reaches an
    integer point within the budget, or more than ``nodes`` boxes.

    The tree splits a box on the fibre whose distribution in the relaxation's optimum varies
    most, at the floor of its mean; a leaf holds the multipliers of the rows and of each line's
    three marginals, times :data:`_SCALE`.

    Parameters
    ----------
    properties, hyperplanes, low, high, cards
        The arrangement and S's counts, as for :func:`complement_shape`.
    sets
        The count of sets to refute (the budget is the shape's constant minus it).
    nodes
        Most boxes to open; the pace rule (Notes) may give up sooner.

    Returns
    -------
    dict or None
        ``{"kind": "fibres", "scale": D, "tree": node}``, a node ``{"split": [fibre, cut],
        "low": node, "high": node}`` (the free fibre's t at most ``cut``, then above it) or a
        leaf ``{"rows": [y...], "lines": [[phi_u], [phi_v], [phi_w]], ...}``, each phi over its
        fibre's values in the box.

    Examples
    --------
    Three planes of AG(3,3) from different classes, x = 0, y = 0 and x + y = 1 (every two
    meeting in a line along z, the fibres), each holding 7 of 18 cards: T (9 cards) holds 2
    of each plane's 6 cards off the meetings and 3 of the 9 off all three, so L(S) = 36 -
    L(T). T holds at least 3 lines, so S at most 33 sets, and there is a T with 3:

    >>> planes = [((1, 0, 0), 0), ((0, 1, 0), 0), ((1, 1, 0), 1)]
    >>> complement_shape(3, planes, 7, 7, 18).budget(34)
    2
    >>> found = fibre_certificate(3, planes, 7, 7, 18, 34)
    >>> found["kind"], found["least"]
    ('fibres', 3)
    >>> fibre_certificate(3, planes, 7, 7, 18, 33) is None
    True

    Notes
    -----
    *The pace rule.* The boxes of the tree partition the root's integer points, so the share
    of them that closed leaves cover grows to 1 exactly when the tree closes. Searched depth
    first, a tree covers that share at a steady pace: n = 168's hardest tree (653 boxes)
    had covered 3.5 % after 25 boxes and 7.2 % after 50, so "boxes opened / share covered"
    foretold 711 and 692 boxes; n = 149's tree of four hyperplanes of 69 cards, which 1,000
    boxes do not close, foretold 51,200 and 52,900. So once :data:`LOOK` boxes are open the
    tree gives up when that forecast exceeds :data:`PACE` times ``nodes``. Giving up only
    returns None: every certificate returned still carries its leaves' bounds.
    """
    shape = complement_shape(properties, hyperplanes, low, high, cards)
    r = shape.rank
    if r >= properties or properties - r > 2 or any(any(xi[r:]) for xi, _ in hyperplanes):
        return None  # fibres of one card, or wider than a plane, or not the basis form
    program = _fibres(shape)
    budget = shape.budget(sets)
    root = np.array([[0, program.width]] * len(program.free), dtype=np.int64)
    points = (program.width + 1) ** len(program.free)  # the root's integer points
    opened, covered = 0, 0  # boxes opened; the integer points of the closed leaves

    def closed(box: np.ndarray) -> None:
        """Count a closed leaf's integer points in the share covered."""
        nonlocal covered
        covered += math.prod(hi - lo + 1 for lo, hi in box.tolist())

    def grow(box: np.ndarray) -> tuple[dict[str, Any], int] | None:
        """The box's subtree and the least leaf bound in it (times the scale), or None."""
        nonlocal opened
        opened += 1
        # the pace rule (Notes): opened / (covered / points) > PACE * nodes, in integers
        if opened > nodes or (opened > LOOK and opened * points > PACE * nodes * covered):
            return None
        relaxed = _relaxation(program, box)
        if relaxed is None:  # no t_v in the box meet the rows
            leaf = _empty_leaf(program, box, budget)
            if leaf is None:
                return None
            closed(box)
            return leaf, _leaf_bound(program, box, leaf, _SCALE)
        value, moments, floats = relaxed
        if value > budget + 1e-6:
            leaf = _exact_leaf(program, box, floats)
            bound = _leaf_bound(program, box, leaf, _SCALE)
            if bound is not None and bound > _SCALE * budget:
                closed(box)
                return leaf, bound
        x = int(np.argmax(moments[:, 1]))
        if moments[x, 1] < 1e-9:
            return None  # an integer point of the program within the budget
        lo, hi = box[x].tolist()
        cut = min(max(math.floor(moments[x, 0] + 1e-9), lo), hi - 1)
        lower, upper = box.copy(), box.copy()
        lower[x, 1], upper[x, 0] = cut, cut + 1
        left = grow(lower)
        right = None if left is None else grow(upper)
        if left is None or right is None:
            return None
        return {"split": [x, cut], "low": left[0], "high": right[0]}, min(left[1], right[1])

    grown = grow(root)
    if grown is None:
        return None
    return {"kind": "fibres", "scale": _SCALE, "tree": grown[0],
            "least": -(-grown[1] // _SCALE)}  # fmt: skip


def _empty_leaf(program: _Fibres, box: np.ndarray, budget: int) -> dict[str, Any] | None:
    """A leaf for a box where the rows have no solution even in real t_v: multipliers y of
    the rows alone with sum_v min over the box of -(y . a_v) t_v + y . b > 0 (HiGHS, y in
    [-1, 1]), scaled until that exceeds the budget; each line's parts 0, 0 and the least r."""
    count = len(program.rows)
    free = len(program.free)
    # variables y (count), z (free): maximise sum z + y . b, z_x <= -(y . a_x) k at both ends
    cost = np.concatenate([-np.array([b for _, _, b in program.rows], float), -np.ones(free)])
    matrix, right = [], []
    coefficients = np.array([a for a, _, _ in program.rows], dtype=float)  # (rows, free)
    for x in range(free):
        for k in box[x].tolist():
            row = np.zeros(count + free)
            row[:count] = coefficients[:, x] * k
            row[count + x] = 1.0
            matrix.append(row)
            right.append(0.0)
    bounds = [(0, 1) if sense > 0 else (-1, 0) if sense < 0 else (-1, 1)
              for _, sense, _ in program.rows] + [(None, None)] * free  # fmt: skip
    found = linprog(cost, A_ub=np.array(matrix), b_ub=right, bounds=bounds, method="highs")
    if found.status != 0 or -found.fun <= 1e-9:
        return None
    spans = [range(lo, hi + 1) for lo, hi in box.tolist()]
    lines = []
    for u, v, w in program.lines.tolist():
        cube = program.across[np.ix_(spans[u], spans[v], spans[w])].astype(np.int64) * _SCALE
        lines.append([[0] * len(spans[u]), [0] * len(spans[v]), cube.min(axis=(0, 1)).tolist()])
    factor = _SCALE * (abs(budget) + 1) / -found.fun + _SCALE
    for _ in range(8):
        y = [int(math.copysign(math.ceil(abs(v) * factor), v)) if abs(v) > 1e-12 else 0
             for v in found.x[:count]]  # fmt: skip
        leaf = {"rows": y, "lines": lines}
        bound = _leaf_bound(program, box, leaf, _SCALE)
        if bound is not None and bound > _SCALE * budget:
            return leaf
        factor *= 4
    return None


# --- local bounds --------------------------------------------------------------------------


def _least_sum(
    values: list[np.ndarray], ranges: tuple[tuple[int, int], ...], total: int
) -> int | None:
    """The least sum over the groups of the n_g smallest of ``values[g]``, with n_g in
    ``ranges[g]`` and the n_g adding up to ``total`` (a knapsack over the groups), or None."""
    best: dict[int, int] = {0: 0}
    for group, (least, most) in zip(values, ranges, strict=True):
        prefix = np.concatenate([[0], np.cumsum(np.sort(np.array(group, dtype=object)))])
        step: dict[int, int] = {}
        for taken, value in best.items():
            for n in range(max(least, 0), min(most, len(group)) + 1):
                key = taken + n
                if key <= total and (key not in step or value + prefix[n] < step[key]):
                    step[key] = value + prefix[n]
        best = step
    return best.get(total)


def _structures(shape: Shape) -> list[np.ndarray]:
    """The 3-flats holding the most cards of T's range (at most :data:`LOCAL_CARDS`), each as
    its cards there."""
    if shape.properties < 3:
        return []
    allowed = shape.group >= 0
    every = flats(shape.properties, 3)
    held = allowed[every].sum(axis=1)
    most = int(held.max())
    if most > LOCAL_CARDS or most < 3:
        return []
    return [row[allowed[row]] for row in every[held == most]]


def local_certificate(
    properties: int, hyperplanes: list[tuple[tuple[int, ...], int]], low: int, high: int,
    cards: int, sets: int,
) -> dict[str, Any] | None:  # fmt: skip
    """A certificate that T holds more lines than the budget by local bounds (module
    docstring, "Local bounds"), or None.

    The structures are the 3-flats holding the most cards of T's range; one multiplier per
    group for all of them (HiGHS maximises the bound over those and a constant per structure,
    with each card's count of structures where the groups' cards differ in it averaged), then
    rounded, each structure's constant the largest its subsets allow.

    Returns
    -------
    dict or None
        ``{"kind": "local", "scale": D, "structures": [{"cards": [...], "multipliers": [one per
        group], "constant": beta}, ...]}``: for every subset X of a structure's cards,
        D * (the sum over the lines inside X of 1 / the number of structures holding the line)
        >= sum_g multipliers[g] |X ∩ g| + constant.
    """
    shape = complement_shape(properties, hyperplanes, low, high, cards)
    structures = _structures(shape)
    if not structures:
        return None
    third = third_card_table(properties).astype(np.int64)
    holding: dict[tuple[int, int, int], int] = {}
    local_lines = []
    for cards_here in structures:
        here = set(cards_here.tolist())
        pairs = itertools.combinations(cards_here.tolist(), 2)
        found = sorted({tuple(sorted((a, b, int(third[a, b])))) for a, b in pairs
                        if int(third[a, b]) in here})  # fmt: skip
        local_lines.append(found)
        for line in found:
            holding[line] = holding.get(line, 0) + 1
    common = math.lcm(*holding.values())
    groups = len(shape.counts)
    tables = []  # per structure: {group counts: least weighted lines, in 1/common}
    for cards_here, found in zip(structures, local_lines, strict=True):
        index = {c: i for i, c in enumerate(cards_here.tolist())}
        subsets = np.arange(1 << len(cards_here), dtype=np.int64)
        weighted = np.zeros(len(subsets), dtype=np.int64)
        for line in found:
            a, b, c = (index[x] for x in line)
            inside = (subsets >> a) & (subsets >> b) & (subsets >> c) & 1
            weighted += inside * (common // holding[line])
        counts = np.zeros((len(subsets), groups), dtype=np.int64)
        for i, card in enumerate(cards_here.tolist()):
            counts[:, shape.group[card]] += (subsets >> i) & 1
        keys = counts @ (LOCAL_CARDS + 1) ** np.arange(groups)
        order = np.lexsort((weighted, keys))
        first = np.concatenate([[True], keys[order][1:] != keys[order][:-1]])
        tables.append((counts[order][first], weighted[order][first]))
    # HiGHS: maximise sum_j beta_j + sum_g lambda_g * (cards of g in T times their structures)
    membership = np.zeros(deck_size(properties), dtype=np.int64)
    for cards_here in structures:
        membership[cards_here] += 1
    weight = []
    for g, (least, most) in enumerate(shape.counts):
        in_group = membership[shape.group == g]
        weight.append(float(in_group.mean()) * (least + most) / 2 if len(in_group) else 0.0)
    width = groups + len(structures)
    rows, right = [], []
    for j, (counts, least) in enumerate(tables):
        block = np.zeros((len(counts), width))
        block[:, :groups] = counts
        block[:, groups + j] = 1.0
        rows.append(block)
        right.append(least / common)
    found = linprog(-np.concatenate([weight, np.ones(len(structures))]), A_ub=np.vstack(rows),
                    b_ub=np.concatenate(right), bounds=(None, None), method="highs")  # fmt: skip
    if found.status != 0:
        return None
    scale = _SCALE * common
    multipliers = [round(v * scale) for v in found.x[:groups]]
    entries = []
    for cards_here, (counts, least) in zip(structures, tables, strict=True):
        room = least.astype(object) * _SCALE - counts.astype(object) @ np.array(multipliers, object)
        entries.append({"cards": cards_here.tolist(), "multipliers": multipliers,
                        "constant": int(room.min())})  # fmt: skip
    certificate = {"kind": "local", "scale": scale, "structures": entries}
    bound = _local_bound(shape, certificate)
    if bound is None or bound <= scale * shape.budget(sets):
        return None
    certificate["least"] = -(-bound // scale)
    return certificate


def _local_bound(shape: Shape, certificate: dict[str, Any]) -> int | None:
    """scale times the local certificate's bound on L(T) (its structures' inequalities taken
    as proven: the prover made each constant the largest its subsets allow)."""
    share = np.zeros(len(shape.group), dtype=object)
    total = 0
    for entry in certificate["structures"]:
        for card in entry["cards"]:
            share[card] += entry["multipliers"][shape.group[card]]
        total += entry["constant"]
    values = [share[shape.group == g] for g in range(len(shape.counts))]
    least = _least_sum(values, shape.counts, shape.t)
    return None if least is None else int(least + total)


def complement_certificate(
    properties: int, hyperplanes: list[tuple[tuple[int, ...], int]], low: int, high: int,
    cards: int, sets: int,
) -> dict[str, Any] | None:  # fmt: skip
    """A certificate that S (n = ``cards``, every two of the hyperplanes meeting in a whole
    flat of S) holds fewer than ``sets`` lines: :func:`fibre_certificate` below rank P, else
    :func:`local_certificate`; None where neither finds one.

    Examples
    --------
    >>> from setlab.extremal.arrangements import arrangements
    >>> rank3 = list(arrangements(5, 5))[6]
    >>> found = complement_certificate(5, rank3, 72, 72, 168, 3418)
    >>> found["kind"], "rows" in found["tree"]
    ('fibres', True)
    """
    key = (properties, tuple(hyperplanes), low, high, cards)
    budget = complement_shape(properties, hyperplanes, low, high, cards).budget(sets)
    known = _PROVEN.get(key)
    if known is not None and known["least"] > budget:
        return known
    if _HOPELESS.get(key, math.inf) <= budget:
        return None
    found = fibre_certificate(properties, hyperplanes, low, high, cards, sets)
    if found is None:
        found = local_certificate(properties, hyperplanes, low, high, cards, sets)
    if found is None:
        _HOPELESS[key] = min(budget, _HOPELESS.get(key, math.inf))
        return None
    _PROVEN[key] = found
    return found

