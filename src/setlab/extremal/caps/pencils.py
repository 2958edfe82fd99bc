"""Pencil programs: counting certificates that AG(d,3) holds no cap of n points.

The problem. A cap is a set of points of AG(d,3) with no three on a line. The largest caps have
2, 4, 9, 20 and 45 points for d = 1, ..., 5; the last value is the theorem of Edel, Ferret,
Landjev and Storme. Here the upper bounds are proven by a chain of linear programs, each refuted by
exact rational Farkas multipliers that a separate checker (``proofcheck/caps_check.py``) re-checks
from the mathematics alone.

The pencil of a codimension-2 direction U. The nine translates of U (its *cells*, flats of
dimension d - 2) form the plane AG(d,3)/U = AG(2,3); the twelve lines of that plane are the
hyperplanes containing U, in four parallel classes of three. Writing f(c) = |S ∩ c| for a cap S,
each direction U gives a *pattern*: nine cell sizes, each at most the largest cap of AG(d-2,3),
whose line sums (hyperplane sizes h) are at most the largest cap of AG(d-1,3), and whose lines,
read as the sorted triple of their cells, are *splits* of an h-cap of AG(d-1,3) into three
parallel flats. A split proven impossible by an earlier step is left out of every pattern.

The program. Variables: z_p >= 0, the number of directions U with pattern p, and w_t >= 0, the
number of parallel classes of hyperplanes whose three sizes are the sorted triple t. Each row
counts incidences of S two ways, so every cap satisfies it:

* (pencils) sum z_p = [d, 2]_3, the number of codimension-2 directions;
* (class t) a hyperplane class lies in (3^(d-1) - 1)/2 pencils, as one of their four classes:
  sum_p z_p #(classes of p of type t) = (3^(d-1) - 1)/2 w_t, and sum_t w_t = (3^d - 1)/2;
* (hyperplane pairs, triples) with n_h = sum_t w_t #(h in t): sum_h C(h,2) n_h = C(n,2)
  (3^(d-1) - 1)/2 (the hyperplanes through a line) and sum_h C(h,3) n_h = C(n,3) (3^(d-2) - 1)/2
  (three points of a cap span a plane);
* (cell pairs, triples) sum over all cells C(f,2) = C(n,2) [d-1, 2]_3 and sum C(f,3) = C(n,3)
  [d-2, 2]_3 (the codimension-2 flats through a line, through a plane);
* (inner, for each h) inside a hyperplane H of h points, its codimension-1 flats carry
  sum C(f,2) = C(h,2) (3^(d-2) - 1)/2 and sum C(f,3) = C(h,3) (3^(d-3) - 1)/2; each pair (H, a
  flat of H) is one (line, cell) of exactly one pencil, so summed over the lines of sum h of all
  patterns these equal the right sides times n_h.

A forced type t (w_t >= 1) asks for a cap with that class; refuting it proves the split t
impossible for n-caps of AG(d,3), a lemma for the next dimension. Farkas' lemma: the program
{A x = b, x >= l} has no real point iff some y has y^T A <= 0 on every column and
y^T (b - A l) > 0.

References
----------
Y. Edel, S. Ferret, I. Landjev, L. Storme, "The classification of the largest caps in AG(5,3)",
J. Combin. Theory Ser. A 99 (2002) 95-110.
A. Potechin, "Maximal caps in AG(6,3)", Des. Codes Cryptogr. 46 (2008) 243-259 (counting programs
over hyperplane sections).
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from fractions import Fraction
from math import comb
from typing import Any

import numba as nb
import numpy as np
from scipy.optimize import linprog

from setlab.errors import SetlabError
from setlab.extremal.identities import class_count, classes_through_direction
from setlab.geometry import digits, lines, parallel_classes, third_card_table

__all__ = [
    "CAP_CHAIN",
    "PLANE_LINES",
    "TWENTY_CAP_SPLITS",
    "PencilProgram",
    "gaussian_binomial",
    "largest_cap_certificate",
    "pencil_program",
    "refute",
    "sections_impossible",
]


def gaussian_binomial(n: int, k: int) -> int:
    """[n, k]_3: the number of k-dimensional subspaces of F_3^n.

    Examples
    --------
    >>> gaussian_binomial(5, 2), gaussian_binomial(4, 1), gaussian_binomial(2, 2)
    (1210, 40, 1)
    """
    if not 0 <= k <= n:
        return 0
    top = bottom = 1
    for i in range(k):
        top *= 3 ** (n - i) - 1
        bottom *= 3 ** (i + 1) - 1
    return top // bottom


PLANE_LINES = parallel_classes(2).reshape(12, 3).astype(np.int64)
"""The twelve lines of AG(2,3) as cells 3i + j; rows 3c, 3c + 1, 3c + 2 form parallel class c."""


@nb.njit(cache=True)
def _patterns(n, cell_max, allowed, lines, last, out):  # pragma: no cover - compiled
    # Depth-first over the nine cells in order; a line is tested as soon as its last cell is set
    # (allowed[a, b, c] >= 0 iff the sorted triple is a possible split), and a partial sum that
    # cannot reach n, or passes it, is cut. Writes each pattern's twelve line ids; returns how
    # many patterns there are (more than the rows of out when it is too small).
    value = np.full(9, -1, np.int64)
    count = 0
    position = 0
    partial = 0
    while position >= 0:
        value[position] += 1
        if value[position] > cell_max:
            value[position] = -1
            position -= 1
            if position >= 0:
                partial -= value[position]
            continue
        total = partial + value[position]
        if total > n:
            value[position] = cell_max  # larger values only overshoot more
            continue
        if total + cell_max * (8 - position) < n:
            continue
        good = True
        for line in range(12):
            if last[line] == position:
                a, b, c = value[lines[line, 0]], value[lines[line, 1]], value[lines[line, 2]]
                if allowed[a, b, c] < 0:
                    good = False
                    break
        if not good:
            continue
        if position == 8:
            if total == n:
                if count < out.shape[0]:
                    for line in range(12):
                        cell = lines[line]
                        out[count, line] = allowed[value[cell[0]], value[cell[1]], value[cell[2]]]
                count += 1
            continue
        partial = total
        position += 1
    return count


@dataclass
class PencilProgram:
    """The pencil program of n-caps of AG(d,3): {A x = b, x >= lower}, columns z_p then w_t."""

    dimension: int
    cards: int
    cell_max: int
    line_max: int
    splits: list[tuple[int, int, int]]
    """The sorted triples a pattern's lines may be (sum <= line_max, not forbidden)."""
    types: list[tuple[int, int, int]]
    """The sorted class types t of the w_t columns."""
    patterns: int
    """How many patterns (before merging those with equal columns)."""
    matrix: np.ndarray
    rhs: np.ndarray
    lower: np.ndarray
    rows: list[str]

    def pattern_column(self, grid: np.ndarray) -> np.ndarray:
        """The column of z for one pattern: nine cell sizes, cell 3i + j at (i, j) of AG(2,3).

        Examples
        --------
        The 9-cap of ``largest_cap(3)`` meets the nine lines of the direction (0, 0, 1) once
        each, so the planes through them (the lines of the pattern) hold 3 of its points each:

        >>> program = pencil_program(3, 9, 2, 4)
        >>> column = program.pattern_column(np.ones(9, dtype=int))
        >>> [int(column[program.rows.index(r)]) for r in ("pencils", "class 3_3_3", "cell 2")]
        [1, 4, 0]
        """
        column = np.zeros(len(self.rows))
        row = {name: r for r, name in enumerate(self.rows)}
        column[row["pencils"]] = 1
        for c in range(4):
            sums = sorted(int(grid[line].sum()) for line in PLANE_LINES[3 * c : 3 * c + 3])
            column[row[f"class {sums[0]}_{sums[1]}_{sums[2]}"]] += 1
            for line in PLANE_LINES[3 * c : 3 * c + 3]:
                h = int(grid[line].sum())
                for j in (2, 3):
                    inside = sum(comb(int(f), j) for f in grid[line])
                    column[row[f"inner {j} {h}"]] += inside
                    column[row[f"cell {j}"]] += inside / 4  # a cell lies on four lines
        return column

    def type_column(self, sizes: tuple[int, int, int]) -> np.ndarray:
        """The column of w_t, t the sorted ``sizes``: that of a matrix column of the program."""
        first = self.matrix.shape[1] - len(self.types)  # the w columns come last
        return self.matrix[:, first + self.types.index(tuple(sorted(sizes)))]


def pencil_program(
    dimension: int,
    cards: int,
    cell_max: int,
    line_max: int,
    forbidden: tuple[tuple[int, int, int], ...] = (),
    forced: tuple[int, int, int] | None = None,
) -> PencilProgram:
    """The pencil program of ``cards``-caps of AG(``dimension``,3) (see the module docstring).

    Parameters
    ----------
    dimension, cards
        d and n.
    cell_max, line_max
        Proven largest caps of AG(d-2,3) and AG(d-1,3): the most points of a cell, of a line.
    forbidden
        Splits (sorted triples) proven impossible: no pattern has such a line.
    forced
        A class type t given w_t >= 1, or None.

    Examples
    --------
    Ten points of AG(3,3), at most 2 on a line (a cell) and 4 in a plane (a line of the
    pattern): the class types are 2 + 4 + 4 and 3 + 3 + 4, and 45 patterns exist.

    >>> program = pencil_program(3, 10, 2, 4)
    >>> program.types, program.patterns, program.rows[:4]
    ([(2, 4, 4), (3, 3, 4)], 45, ['pencils', 'class 2_4_4', 'class 3_3_4', 'classes'])
    """
    if dimension < 3 or cards < 3:
        raise SetlabError("pencil programs need d >= 3 and n >= 3")
    splits = [t for t in itertools.combinations_with_replacement(range(cell_max + 1), 3)
              if sum(t) <= line_max and t not in set(forbidden)]  # fmt: skip
    allowed = np.full((cell_max + 1,) * 3, -1, dtype=np.int64)
    for index, split in enumerate(splits):
        for order in itertools.permutations(split):
            allowed[order] = index
    capacity = 1 << 22  # 96 MiB, touched only as far as used: AG(5,3)'s programs fit at once
    while True:  # grow the buffer until every pattern fits
        out = np.zeros((capacity, 12), dtype=np.int16)
        count = _patterns(cards, cell_max, allowed, PLANE_LINES, PLANE_LINES.max(1), out)
        if count <= capacity:
            break
        capacity = count
    # A pattern's column depends on its line splits and on how they group into classes only.
    classes = np.sort(out[:count].astype(np.int64).reshape(-1, 4, 3), axis=2)
    codes = np.sort((classes[:, :, 0] * 1024 + classes[:, :, 1]) * 1024 + classes[:, :, 2], 1)
    # Number the classes that occur (their order is the codes' order, so each row of numbers
    # stays sorted), read a pattern's four numbers as one base-K integer and keep one of each:
    # a sort of single integers, where rows of four sort slowly.
    kinds, number = np.unique(codes, return_inverse=True)
    base = len(kinds)
    assert base**4 < 2**63
    whole = np.unique(number.reshape(-1, 4) @ base ** np.arange(3, -1, -1))
    keys = kinds[(whole[:, None] // base ** np.arange(3, -1, -1)) % base]
    types = [t for t in itertools.combinations_with_replacement(range(line_max + 1), 3)
             if sum(t) == cards]  # fmt: skip
    type_index = {t: i for i, t in enumerate(types)}
    sums = np.array([sum(s) for s in splits])
    lines_of = np.zeros((len(keys), len(splits)))
    classes_of = np.zeros((len(keys), len(types)))
    for k, key in enumerate(keys):
        for code in key:
            ids = (code >> 20, (code >> 10) & 1023, code & 1023)
            for i in ids:
                lines_of[k, i] += 1
            classes_of[k, type_index[tuple(sorted(int(sums[i]) for i in ids))]] += 1

    def moment(j: int) -> np.ndarray:  # sum over a split's three cells of C(f, j)
        return np.array([sum(comb(f, j) for f in s) for s in splits], dtype=float)

    d, n = dimension, cards
    per_class = class_count(d - 1)  # codimension-2 directions inside a hyperplane direction
    width = len(keys) + len(types)
    rows: list[np.ndarray] = []
    rhs: list[int] = []
    names: list[str] = []

    def add(name: str, z: np.ndarray | float, w: np.ndarray | float, value: int) -> None:
        row = np.zeros(width)
        row[: len(keys)] = z
        row[len(keys) :] = w
        rows.append(row)
        rhs.append(value)
        names.append(name)

    add("pencils", 1.0, 0.0, gaussian_binomial(d, 2))
    for i, t in enumerate(types):
        add(f"class {t[0]}_{t[1]}_{t[2]}", classes_of[:, i], -per_class * np.eye(len(types))[i], 0)
    add("classes", 0.0, 1.0, class_count(d))
    size_count = np.array([[t.count(h) for t in types] for h in range(line_max + 1)], dtype=float)
    cells = {j: lines_of @ moment(j) / 4 for j in (2, 3)}  # each cell lies on four lines
    for j, through in ((2, classes_through_direction(d, 1)), (3, classes_through_direction(d, 2))):
        weights = np.array([comb(h, j) for h in range(line_max + 1)], dtype=float)
        add(f"hyperplane {j}", 0.0, weights @ size_count, comb(n, j) * through)
    for j, within in ((2, gaussian_binomial(d - 1, 2)), (3, gaussian_binomial(d - 2, 2))):
        add(f"cell {j}", cells[j], 0.0, comb(n, j) * within)
    for h in range(line_max + 1):
        mine = (sums == h).astype(float)
        for j, inside in ((2, classes_through_direction(d - 1, 1)),
                          (3, classes_through_direction(d - 1, 2))):  # fmt: skip
            add(f"inner {j} {h}", lines_of @ (moment(j) * mine),
                -comb(h, j) * inside * size_count[h], 0)  # fmt: skip
    lower = np.zeros(width)
    if forced is not None:
        lower[len(keys) + type_index[tuple(sorted(forced))]] = 1
    return PencilProgram(d, n, cell_max, line_max, splits, types, count, np.array(rows),
                         np.array(rhs, dtype=float), lower, names)  # fmt: skip


def refute(program: PencilProgram) -> dict[str, Fraction] | None:
    """Exact Farkas multipliers y (row name -> fraction) refuting ``program``, or None.

    HiGHS finds a float y of least |y|_1 with y^T A <= 0 and y^T (b - A lower) >= 1;
    :func:`_snap` turns it into fractions meeting the same columns with equality, and the
    result is checked in integer arithmetic before it is returned.

    Examples
    --------
    Ten points of AG(3,3) are refuted by three rows (the planes' triples, the lines' pairs
    inside planes of 2 and of 3 points); nine are not, a 9-cap exists:

    >>> sorted(refute(pencil_program(3, 10, 2, 4)))
    ['hyperplane 3', 'inner 2 2', 'inner 2 3']
    >>> refute(pencil_program(3, 9, 2, 4)) is None
    True
    """
    a = program.matrix
    rows = a.shape[0]
    gap = program.rhs - a @ program.lower
    # y = y+ - y-, minimise |y|_1: a vertex, with small denominators
    result = linprog(
        np.ones(2 * rows),
        A_ub=np.vstack([np.hstack([a.T, -a.T]), -np.concatenate([gap, -gap])[None, :]]),
        b_ub=np.concatenate([np.zeros(a.shape[1]), [-1.0]]),
        bounds=(0, None),
        method="highs",
    )
    if result.status != 0:
        return None
    ray = result.x[:rows] - result.x[rows:]
    exact_a = np.rint(a).astype(np.int64).astype(object)
    exact_gap = np.array([round(v) for v in gap], dtype=object)
    y = _snap(exact_a, exact_gap, ray)
    if y is None:
        return None
    common = math.lcm(*(v.denominator for v in y))
    scaled = np.array([int(v * common) for v in y], dtype=object)
    if (scaled @ exact_a <= 0).all() and scaled @ exact_gap > 0:
        return {name: v for name, v in zip(program.rows, y, strict=True) if v}
    return None


def _snap(a: np.ndarray, gap: np.ndarray, ray: np.ndarray) -> list[Fraction] | None:
    """Fractions near the float multipliers ``ray`` that meet exactly the columns ``ray`` meets
    (y^T a_j = 0 where the float value is ~0) and y^T gap = 1: Gaussian elimination over the
    rows ``ray`` uses, its free unknowns fixed at their rounded float values."""
    scale = float(np.abs(ray).max())
    support = [r for r in range(len(ray)) if abs(ray[r]) > 1e-12 * scale]
    values = ray.astype(float) @ a.astype(float)
    tight = [j for j in range(a.shape[1]) if values[j] > -1e-9 * scale]
    equations = [[Fraction(int(a[r, j])) for r in support] + [Fraction(0)] for j in tight]
    equations.append([Fraction(int(gap[r])) for r in support] + [Fraction(1)])
    pivots: list[int] = []
    row = 0
    for column in range(len(support)):  # reduced row echelon form
        pick = next((i for i in range(row, len(equations)) if equations[i][column]), None)
        if pick is None:
            continue
        equations[row], equations[pick] = equations[pick], equations[row]
        lead = equations[row][column]
        pivot = equations[row] = [v / lead for v in equations[row]]
        used = [c for c, w in enumerate(pivot) if w]  # the pivot row is sparse: touch only these
        for i in range(len(equations)):
            if i != row and equations[i][column]:
                factor, other = equations[i][column], equations[i]
                for c in used:
                    other[c] -= factor * pivot[c]
        pivots.append(column)
        row += 1
    if any(not any(e[:-1]) and e[-1] for e in equations):
        return None  # inconsistent: the float point was not close enough
    free = {c: Fraction(float(ray[support[c]])).limit_denominator(10**6)
            for c in range(len(support)) if c not in pivots}  # fmt: skip
    solution = dict(free)
    for i, column in enumerate(pivots):
        e = equations[i]
        solution[column] = e[-1] - sum(e[c] * v for c, v in free.items())
    y = [Fraction(0)] * len(ray)
    for c, r in enumerate(support):
        y[r] = solution[c]
    return y


def _all_caps(properties: int, k: int) -> np.ndarray:
    """(count, k) every k-cap of AG(P,3), cards increasing, P <= 3 (a cap's cards and those
    they block fit in the bits of one integer).

    Level by level: a cap grows by each card above its last card that it does not block, a
    card blocking itself and the third card of each pair it makes with the cap's cards.
    """
    size = 3**properties
    assert size < 63
    third = third_card_table(properties).astype(np.int64)
    caps = np.zeros((1, 0), dtype=np.int64)
    blocked = np.zeros(1, dtype=np.int64)
    for level in range(k):
        last = caps[:, -1] if level else np.full(1, -1)
        grown, masks = [], []
        for card in range(size - (k - level) + 1):  # room for the cards still to come
            ok = (last < card) & ((blocked >> card) & 1 == 0)
            if not ok.any():
                continue
            mine = caps[ok]
            thirds = np.bitwise_or.reduce(np.left_shift(1, third[card, mine]), axis=1)
            masks.append(blocked[ok] | (1 << card) | thirds)
            grown.append(np.hstack([mine, np.full((len(mine), 1), card)]))
        if not grown:
            return np.zeros((0, k), dtype=np.int64)
        caps, blocked = np.vstack(grown), np.concatenate(masks)
    return caps


def sections_impossible(sections: tuple[int, int, int]) -> bool:
    """True when no cap of AG(4,3) meets three parallel hyperplanes in ``sections`` points.

    Sorted sections (a, b, c) with a <= 3 and b >= 5. The hyperplanes are x_0 = 0, 1, 2 with
    parts A, B, C of S; each pair of B x C completes to a point of the first hyperplane, and A
    must avoid all of them (the pairs A x B, A x C complete to the same points); within a
    hyperplane each part is a cap. Symmetry: the maps (x_0, y) -> (x_0, M y + u) fix each
    hyperplane and act on the second as all of AGL(3,3), which is sharply transitive on affine
    frames; b >= 5 points of a cap span AG(3,3) (a plane holds at most 4), so B may be taken to
    hold the frame 0, e_1, e_2, e_3. Every such B is tried against every c-cap C.

    Examples
    --------
    >>> sections_impossible((3, 8, 8))
    True
    >>> sections_impossible((2, 8, 9))  # a 20-cap less one point
    False
    """
    a, b, c = sorted(sections)
    if a > 3 or b < 5:
        raise SetlabError("sections_impossible takes sections (a, b, c) with a <= 3 and b >= 5")
    vectors = digits(3).astype(np.int64)
    index = 3 ** np.arange(2, -1, -1)
    frame = {0, 1, 3, 9}  # 000, 001, 010, 100
    firsts = [cap for cap in _all_caps(3, b) if frame <= set(cap.tolist())]
    seconds = _all_caps(3, c)
    full = (1 << 27) - 1
    line_masks = np.bitwise_or.reduce(np.left_shift(1, lines(3).astype(np.int64)), axis=1)
    ones = np.unpackbits(np.arange(1 << 16, dtype=">u2").view(np.uint8).reshape(-1, 2), 1)
    ones = ones.sum(axis=1)  # ones[m]: the bits set in a 16-bit m
    for first in firsts:
        # completion[q]: the points of the first hyperplane completing a pair (p in B, q)
        thirds = ((-(vectors[first][:, None, :] + vectors[None, :, :])) % 3) @ index
        completion = np.bitwise_or.reduce(np.left_shift(1, thirds), axis=0)
        taken = completion[seconds[:, 0]]
        for column in seconds.T[1:]:  # column by column: a reduce along rows of c is slow
            taken |= completion[column]
        free = full & ~taken
        left = ones[free & 0xFFFF] + ones[free >> 16]  # how many points are free
        # a cap of a points among the free points: any a of them if a <= 2; for a = 3 any
        # four points hold three off a line, and three points are a cap unless they are a line
        if (left > a).any() or (a < 3 and (left == a).any()):
            return False
        if a == 3 and not np.isin(free[left == 3], line_masks).all():
            return False
    return True


TWENTY_CAP_SPLITS = ((3, 8, 9), (4, 7, 9), (4, 8, 8), (5, 6, 9), (5, 7, 8), (6, 7, 7))
"""Splits no 20-cap of AG(4,3) has (each refuted by a forced pencil program): the 20-cap meets
parallel 3-flats only as 2 + 9 + 9 or 6 + 6 + 8."""

CAP_CHAIN: tuple[dict[str, Any], ...] = (
    {"lemma": "AG(3,3) has no 10-cap", "dimension": 3, "cards": 10, "cell_max": 2, "line_max": 4},
    {"lemma": "AG(4,3) has no 21-cap", "dimension": 4, "cards": 21, "cell_max": 4, "line_max": 9},
    *({"lemma": f"no 20-cap of AG(4,3) splits {a} + {b} + {c}", "dimension": 4, "cards": 20,
       "cell_max": 4, "line_max": 9, "forced": [a, b, c]} for a, b, c in TWENTY_CAP_SPLITS),
    {"lemma": "no 19-cap of AG(4,3) splits 3 + 8 + 8", "dimension": 4, "cards": 19,
     "sections": [3, 8, 8]},
    {"lemma": "AG(5,3) has no 46-cap", "dimension": 5, "cards": 46, "cell_max": 9, "line_max": 20,
     "forbidden": [list(t) for t in (*TWENTY_CAP_SPLITS, (3, 8, 8))]},
)  # fmt: skip
"""The steps that prove the largest cap of AG(5,3) has 45 points, each resting on earlier ones:
cells and lines at most the largest caps two and one dimensions down (AG(2,3): 4, a line: 2),
forbidden splits proven by the forced programs and the search of :func:`sections_impossible`."""


def largest_cap_certificate(properties: int = 5) -> dict[str, Any]:
    """The certificate that no cap of AG(P,3) exceeds the largest (P = 5: 45 points).

    Each pencil step of :data:`CAP_CHAIN` (those of dimension <= P) carries its exact Farkas
    multipliers (row name -> "p/q"); the search step carries nothing, its checker searches.

    Examples
    --------
    >>> certificate = largest_cap_certificate(3)
    >>> certificate["value"], [step["lemma"] for step in certificate["steps"]]
    (9, ['AG(3,3) has no 10-cap'])
    """
    if properties not in (3, 4, 5):
        raise SetlabError("pencil certificates exist for P = 3, 4 and 5")
    steps = []
    for step in CAP_CHAIN:
        main = "forced" not in step and "sections" not in step
        if step["dimension"] > properties or (step["dimension"] == properties and not main):
            continue  # a lemma of a higher dimension only
        entry = dict(step)
        if "sections" in step:
            if not sections_impossible(tuple(step["sections"])):
                raise SetlabError(f"the search step failed: {step['lemma']}")
        else:
            program = pencil_program(
                step["dimension"], step["cards"], step["cell_max"], step["line_max"],
                forbidden=tuple(tuple(t) for t in step.get("forbidden", ())),
                forced=tuple(step["forced"]) if "forced" in step else None,
            )  # fmt: skip
            y = refute(program)
            if y is None:
                raise SetlabError(f"no Farkas certificate found: {step['lemma']}")
            entry["multipliers"] = {name: str(v) for name, v in y.items()}
        steps.append(entry)
    value = {3: 9, 4: 20, 5: 45}[properties]
    return {"kind": "pencil chain", "properties": properties, "value": value, "steps": steps}
