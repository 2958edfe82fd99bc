"""Check a split certificate: no n cards of AG(P,3) hold more than v sets, case by case.

Standalone: the standard library and numpy, and farkas_check.py beside this file; nothing from
setlab. Written from the mathematics below.

The mathematics. S is a set of n points of AG(P,3) with L lines inside it. Each parallel class
of hyperplanes has a largest hyperplane; let t be the second largest of these class maxima (a
class of largest maximum aside, every class has hyperplanes of at most t points). For two
thresholds theta <= top, either (1) t <= theta: at most one class has a hyperplane of more
than theta points; or (2) t > top: two classes f, g have hyperplanes H_f, H_g of more than top
points, not parallel; or (3) theta < t <= top.

(1) is the counting program of farkas_check.py with one more row, "big": the classes whose
sizes (a >= b >= c) have a > theta number at most one. The certificate's "program" must refute
it for L >= v + 1.

(2) Take H_f, H_g the largest hyperplanes of their classes. Their intersection is a flat of
dimension P - 2; its direction W splits AG(P,3) into nine parallel flats, the *cells*, which are
the points of the affine plane AG(P,3)/W. Write cell (i, j) for f = i, g = j (up to relabelling
the values of f and g, H_f is row 0 and H_g column 0). The twelve lines of that plane are the
hyperplanes through a cell, in four classes: the rows (f), the columns (g) and the two diagonal
directions. A line of AG(P,3) maps to a point or to a line of the plane, so it lies inside one
cell or meets the three cells of one plane line. Hence, with s the nine cell sizes:

  L = sum_cells I(c) + sum_lines X(l),   I(c) <= M_{P-2}(s_c),   X(l) <= A(s_l; 3^(P-2)),

where A(a, b, c; F) is the most lines across three parallel flats of F points holding a, b, c
points (each pair of the first two completes to one point of the third: A <= c min(a, b) and
A <= ab - (F - c) max(0, a + b - F), in each of the three roles). And for each class k of the
plane: the lines of S inside its hyperplane l are sum_{c in l} I(c) + X(l) <= M_{P-1}(h_l), the
others cross k, at most A(h_k; 3^(P-1)) of them and at most sum_{l not in k} X(l). So

  L <= min( sum M_{P-2}(s_c) + sum A_l,
            min over k of [ sum_{l in k} min(M_{P-1}(h_l), sum_{c in l} M_{P-2}(s_c) + A_l)
                            + min(A(h_k; 3^(P-1)), sum_{l not in k} A_l) ] ),

and every pattern (cells in [0, 3^(P-2)], total n, row 0 > top the largest row, column 0 >
top the largest column) must give at most v. The row class alone gives L <= sum_{rows}
M_{P-1}(h) + A(h_rows; 3^(P-1)) (its cap), so margins whose cap is at most v need no cells.

The pencil's multipliers. Write H_l for the bound on the lines inside l's hyperplane above (the
min) and A_k for A(h_k; 3^(P-1)). Any integers w_l >= 0 on the twelve lines, v_k >= 0 on the
four classes and D > 0 give one more bound: with y_c = max(0, D - sum_{l through c} w_l) and
z_l = max(0, D - w_l - sum_{k not l's class} v_k),

  D L <= sum_c y_c M_{P-2}(s_c) + sum_l (z_l A_l + w_l H_l) + sum_k v_k A_k,

since the right side is at least sum_c (y_c + sum_{l through c} w_l) I(c) + sum_l (z_l + w_l +
sum_{k not l's class} v_k) X(l) (each H_l and A_k term bounds the I and X it sums), and each of
those coefficients is at least D. The certificate's "pencil" may list such rows, "multipliers"
[w_1..w_12, v_1..v_4, D], the lines in the order of their cells as sorted triples and the
classes in the order of their lines through cell 0; each row is taken transposed too (cell
(i, j) -> (j, i)), and the bound of a pattern is the least of the bound above and
floor(right side / D) for every row.

(3) f a class of largest maximum, g a class of maximum t: the pencil of (2) with row 0 of t or
more points, column 0 of exactly t (each the largest of its class), and two diagonal classes
whose hyperplanes hold at most t points (they are neither f nor g). Its bound must exceed v,
and its four classes are four classes of S, of the types (sorted sizes) of the pattern. So S's
class profile satisfies the program of (1) with theta = t, x_type >= the number of the four
classes of that type, and no type with a part above row 0 (the largest hyperplane of all): a
certificate refuting the program with big = t, "forced" types and "ceiling" c (farkas_check.py's
forced rows; no column for a type above c) rules out every pattern whose four types include the
forced ones and whose row 0 is at most c. Every pattern of (3) past v, for every t in
theta+1..top, must be ruled out so.

The pencil's cells. Such a program may stay feasible because it lets each of the four classes
hold its types' M_{P-1} bounds inside its hyperplanes at once. A line inside a cell lies inside
a hyperplane of all four classes of the pencil, a line across three cells inside one of them,
so the four hold 4 I + X = 3 I + L lines inside their hyperplanes, I = sum_c I(c) <= sum_c
M_{P-2}(s_c). With L >= v + 1 it is less: for two classes of the plane, their four lines
missing cell 0 (the far lines), each far line's hyperplane holds at most H_l lines (its cells'
and its across ones), each other line at most A_l across, and a cell met by j far lines is
counted 2 - j more times by M_{P-2}(s_c) (j <= 2): every inside line is counted twice or more,
every across line once, so 2 I + X <= R, and with I + X = L >= v + 1, I <= R - (v + 1). An entry
with "cells" I forces all four types of a pattern and refutes the program whose row inside_high
takes 3 I + L for those four classes (farkas_check.py's (cells)); it rules out the patterns of
those four types past v whose cells' bound (the least of these) is at most I, and this checker
finds that largest bound itself, over the same patterns.

The count of big classes. A program of (3) may stay feasible and yet need many classes with a
big hyperplane: with the row "at most k - 1 classes have a part of h or more" (farkas_check.py's
"big_classes", an entry's "count" [h, k - 1]) it is refuted. Two such classes f, g of S (parts
in h..c, c the entry's ceiling, no hyperplane of S above it) form a pencil as in (2): rows f
with row 0 its largest hyperplane, columns g likewise, diagonal classes with no hyperplane
above c. Its bound is at least L > v, so some pattern of their types past v has cell 0 =
|S ∩ H_f ∩ H_g|; the entry's "meeting" sigma must be at most the cell 0 of every such pattern
(either class the rows), and then any two of the k classes' largest hyperplanes share sigma
points of S or more. The certificate's "arrangements" must show that no k hyperplanes of
different classes, each holding h..c points of S and every two sharing sigma, fit in n points:

- Up to AGL(P,3) they are x_1 = 0, ..., x_r = 0 (r independent ones, mapped to the basis) and
  k - r hyperplanes xi . x = e with xi supported on the first r coordinates (the other normals
  lie in the span), first nonzero coordinate 1, not a unit vector, the normals distinct.
- The signed permutations of the first r coordinates keep that form. Each listed arrangement
  is checked to be of it; their orbits under that group must be distinct and their sizes
  (|G| / |stabiliser|) must add up to the number of such forms, C(m, k - r) 3^(k - r) with m =
  (3^r - 1)/2 - r the non-unit normals: then every arrangement is in the orbit of a listed one,
  whose program is the same up to relabelling the points.
- Each listed arrangement's program over the 3^P points (0 <= s_x <= 1; rows: the sum at most
  n, each hyperplane at least h, then each at most c, then each pair at least sigma) is refuted
  by integer multipliers y, of the rows' signs, with the positive part of y A summed below y b.
- Where the entry and the certificate carry "sets" (at most v + 1: S holds more than v lines)
  sigma must be a whole (P-2)-flat, 3^(P-2) points: every two of the k hyperplanes then meet
  in a flat inside S, and their union F is in S. The program gets two kinds of rows more, each
  true of S: every hyperplane of AG(P,3) at most c (no hyperplane of S holds more; the forms
  with first nonzero coordinate 1 in lexicographic order, offsets 0, 1, 2), and last the sets.
  With R = S - F (m = n - |F| points), a set of S has 0, 1, 2 or 3 points in R: L(F) of them
  none, p(r) (the lines through r with both other points in F) one point r. For r in R, the
  other points of R lie on the lines through r, at most two on one, and only one on a line
  whose third point is in F: a_r of those (at most q(r), the points off F whose third with r
  lies in F) and b_r lines inside R with a_r + 2 b_r <= m - 1. The sets with two points in R
  number the sum of a_r / 2, with three the sum of b_r / 3, and a_r / 2 + b_r / 3 <= a / 2 +
  (m - 1 - a) / 6 with a = min(q(r), m - 1). So, times 6: the sum over the points r off F of
  (6 p(r) + 2 a + m - 1) s_r is at least 6 (sets - L(F)).
- The lines left out. With "sets", an arrangement may carry a "complement" certificate instead
  of multipliers. T, the points off S (t = 3^P - n), avoids F; hyperplane i's points off F
  (its *piece*) hold 3^(P-1) - c to 3^(P-1) - h of T, the pieces are disjoint, and the points
  off all k hyperplanes (the *rest*) hold the others. Each point lies on lambda = (3^P - 1)/2
  lines and every two on one, so L(S) = N - lambda t + C(t, 2) - L(T) (N lines in all): S holds
  sets lines only if L(T) <= N - lambda t + C(t, 2) - sets, the budget. The certificate shows
  L(T) above it.
  "fibres" (rank r of the basis form, P - r = 1 or 2): the groups are unions of the fibres
  {v} x AG(P-r,3), v in AG(r,3). A line lies in a fibre or meets three over a line {u, v, w}
  of AG(r,3), its fibre parts adding to 0; so with t_v the points of T in fibre v,
  L(T) >= sum_v m(t_v) + sum over those lines of r(t_u, t_v, t_w), m the fewest lines among
  t_v points of AG(P-r,3) and r the fewest (x, y, z) in sets of those sizes with x + y + z = 0
  (both read here from every subset; fibres of F hold no point of T, so only lines of three
  free fibres count). Rows over the free fibres: the sum is t, each piece's count in its
  range. A tree splits a box of the t_v at [fibre, cut]; each leaf gives integer y (a row's
  sign: >= 0 for "at least", <= 0 for "at most") and for each such line three lists phi over
  its fibres' values in the box with scale * r(a, b, c) >= phi_u(a) + phi_v(b) + phi_w(c).
  Then for t in the box meeting the rows, scale * L(T) >= sum_v (scale m(t_v) + the phi at
  t_v) >= sum_v min over the box of (scale m(k) + phi(k) - (sum_j y_j a_jv) k) + y . b, which
  must be above scale times the budget.
  "local": structures Q_j (3 to 20 points off F); a line inside some Q_j weighs 1/m in each
  of the m that hold it. For every subset X of Q_j, scale times X's weighted lines is at least
  sum_g lambda_jg |X ∩ g| + beta_j (g the pieces and the rest; every subset read). The weights
  of a line add up to 1, so scale * L(T) >= sum_j (lambda_j . counts of T ∩ Q_j + beta_j) =
  sum over T of Lambda(x) + sum_j beta_j, Lambda(x) the lambda of x's group summed over the
  Q_j holding x; its least over T (the smallest Lambda of each group, as many as the group
  may hold, the counts adding up to t) must be above scale times the budget.

M_{P-1}, M_{P-2}: the cited proven maxima, else the degree bound (a point of k lies on at most
floor((k-1)/2) lines; and the complement identity with an empty complement).

Split maxima. A hyperplane l of a pencil is an AG(P-1,3) cut by its three cells into three
parallel (P-2)-flats; with a, b, c points in them it holds at most S(a, b, c) lines, the split
maximum. Where the certificate lists "split_maxima" (a split, a bound and a list of subsets),
each bound is re-derived here and then taken as one more bound on M_{P-1}(h_l) above. Read the
three flats as A, B, C in AG(d,3), d = P - 2. A line of the hyperplane lies in one flat or
meets the three in p, q, z with p + q + z = 0, so the lines number

  I(A) + I(B) + I(C) + sum over z in C of r(z),   r(z) = #{(p, q) in A x B : p + q + z = 0},

at most I(A) + I(B) + M_d(c) + (the c largest values of r). The affine maps p -> Mp + u,
q -> Mq + v, z -> Mz - u - v keep every term, so A runs over one subset of each orbit of the
affine group AGL(d,3) on subsets of its size (the certificate's list; A is either of the two
largest parts; checked to hit each orbit once, the orbit sizes |G| / |stabiliser| adding up to
C(3^d, |A|), with G enumerated here as all invertible matrices and translations) and B over
every subset of the size of the other. The bound v is checked by a search with pruning:

- B is Y, or G - Y when B holds more than half of G (N = 3^d points). With w(q, z) = 1 when
  -(q + z) lies in A, r(z) is the sum of w(q, z) over q in B; for B = G - Y that is |A| minus
  the sum over Y (each z has |A| partners q), so the c largest r are c|A| minus the c least
  sums over Y. And I(G - Y) = N(N - 1)/6 - y(N - y)/2 - I(Y): the lines meeting Y number
  y(N - 1)/2 (through its points) minus y(y - 1)/2 (through its pairs) plus I(Y).
- Y grows one point at a time, in increasing order, keeping the sums over Y and I(Y). For
  B = G - Y a larger Y only lowers I(B) and the c largest r, so the bound of a prefix bounds
  every Y through it. For B = Y each point to come raises the c largest r by at most
  min(c, |A|) (its |A| partners are distinct) and I(Y) by at most (j - 1) // 2 as the j-th
  point, and the prefix's bound adds those. A prefix whose bound is at most v is dropped.
- A whole Y still passing v gets the exact value I(A) + I(B) + the most I(C) + (r summed over
  C) among all c-subsets C; S(a, b, c) <= v when none of those passes v. The c-subsets are
  read by their number of lines l, the most first, and the reading stops at the first l with
  l + (the c largest r) not above the best so far (at least v): a C of l lines or fewer gives
  at most that. (In AG(3,3) 39 of the 4,686,825 9-subsets hold 12 lines, the most, 6,318 hold
  8, and the rest 6 or fewer.)
"""

from __future__ import annotations

import functools
import importlib.util
import itertools
import json
from math import comb
from pathlib import Path

import numpy as np

__all__ = [
    "affine_group",
    "check_split",
    "check_split_maximum",
    "checked_split_maxima",
    "largest_pencil_bound",
    "middle_cells",
    "middle_quadruples",
    "piece_result",
    "remember_split_maxima",
    "split_maxima_inputs",
    "split_maximum",
    "split_maximum_key",
    "split_maximum_pieces",
]


def _plane_lines() -> np.ndarray:
    """(12, 3): the lines of AG(2,3), class k in rows 3k..3k+2 (rows, columns, diagonals)."""
    out = []
    for u, w in ((0, 1), (1, 0), (1, 1), (1, 2)):  # direction (di, dj)
        seen: list[tuple[int, ...]] = []
        for i, j in itertools.product(range(3), repeat=2):
            line = tuple(sorted(3 * ((i + t * u) % 3) + (j + t * w) % 3 for t in range(3)))
            if line not in seen:
                seen.append(line)
        out += seen
    return np.array(out)


def _across(a: np.ndarray, b: np.ndarray, c: np.ndarray, flat: int) -> np.ndarray:
    """The most lines across parallel flats of ``flat`` points holding a, b, c points."""
    best = a * b * c
    for x, y, z in ((a, b, c), (b, c, a), (c, a, b)):
        best = np.minimum(best, z * np.minimum(x, y))
        best = np.minimum(best, x * y - (flat - z) * np.maximum(0, x + y - flat))
    return best


def _line_bounds(cells: np.ndarray, most: np.ndarray, below: np.ndarray, p: int,
                 split: np.ndarray | None) -> tuple[np.ndarray, np.ndarray]:  # fmt: skip
    """For each pattern (K, 9) and line of the plane (K, 12): A_l, its across bound, and H_l,
    the bound on the lines inside its hyperplane (M_{P-1}, its cells' own bound, and the split
    maximum where given, whichever is least)."""
    parts = cells[:, PLANE]  # (K, 12, 3)
    across = _across(parts[..., 0], parts[..., 1], parts[..., 2], 3 ** (p - 2))
    held = np.minimum(most[parts.sum(axis=2)], below[parts].sum(axis=2) + across)
    if split is not None:
        held = np.minimum(held, split[parts[..., 0], parts[..., 1], parts[..., 2]])
    return across, held


def _bounds(
    cells: np.ndarray, most: np.ndarray, below: np.ndarray, p: int, split: np.ndarray | None,
    multipliers: np.ndarray | None = None, above: int | None = None,
) -> np.ndarray:  # fmt: skip
    """The bound above for each row of ``cells`` (K, 9); ``split[a, b, c]`` bounds a hyperplane
    with cells of a, b, c points (None: no split maxima); ``multipliers`` rows (w, v, D) as
    :func:`_weighed` takes them (None: none), read only where the other bounds exceed ``above``
    (given: a caller keeping the rows above it loses none, their bounds are the same)."""
    sizes = cells[:, PLANE].sum(axis=2)  # (K, 12)
    across, held = _line_bounds(cells, most, below, p, split)
    crossing = np.stack([_across(sizes[:, 3 * k], sizes[:, 3 * k + 1], sizes[:, 3 * k + 2],
                                 3 ** (p - 1)) for k in range(4)], axis=1)  # fmt: skip
    best = below[cells].sum(axis=1) + across.sum(axis=1)
    for k in range(4):
        mine = slice(3 * k, 3 * k + 3)
        rest = across.sum(axis=1) - across[:, mine].sum(axis=1)
        best = np.minimum(best, held[:, mine].sum(axis=1) + np.minimum(crossing[:, k], rest))
    if multipliers is not None and len(multipliers) and len(cells):
        rows = np.arange(len(cells)) if above is None else np.flatnonzero(best > above)
        best[rows] = np.minimum(best[rows], _weighed(multipliers, below[cells[rows]],
                                                     across[rows], held[rows], crossing[rows]))
    return best


def _weighed(multipliers: np.ndarray, inside: np.ndarray, across: np.ndarray, held: np.ndarray,
             crossing: np.ndarray) -> np.ndarray:  # fmt: skip
    """The least over the rows (w, v, D) of ``multipliers`` of floor(B / D) per pattern, B the
    right side of "The pencil's multipliers" (module docstring) with y and z derived here from
    w and v; ``inside`` (K, 9) the cells' bounds, ``across`` and ``held`` (K, 12) the lines'
    across and hyperplane bounds, ``crossing`` (K, 4) the classes' across bounds."""
    w, v, d = multipliers[:, :12], multipliers[:, 12:16], multipliers[:, 16]
    holds = np.zeros((12, 9), dtype=np.int64)
    for line, cells in enumerate(PLANE):
        holds[line, cells] = 1
    others = np.array([[int(line // 3 != k) for k in range(4)] for line in range(12)])
    y = np.maximum(0, d[:, None] - w @ holds)  # each cell covered d times in all
    z = np.maximum(0, d[:, None] - w - v @ others.T)  # each line's across sets likewise
    # B for every pattern and row is one product of (K, 37) and (37, rows), all entries
    # integers >= 0. It is taken in floating point (numpy multiplies integers without BLAS, six
    # times slower), exact while every sum stays below 2^53: the largest entry of a pattern
    # times the largest column sum of the weights bounds every B; else in integers.
    bounds = np.hstack([inside, across, held, crossing])
    weights = np.vstack([y.T, z.T, w.T, v.T])
    exact = len(bounds) == 0 or int(bounds.max()) * int(weights.sum(axis=0).max()) < 2**53
    if exact:
        bounds, weights = bounds.astype(np.float64), weights.astype(np.float64)
    out = np.empty(len(inside), dtype=np.int64)
    for at in range(0, len(inside), 1 << 14):  # (patterns, rows) a chunk at a time: memory
        total = (bounds[at : at + (1 << 14)] @ weights).astype(np.int64)
        out[at : at + (1 << 14)] = (total // d[None, :]).min(axis=1)
    return out


def _multipliers(rows: object) -> np.ndarray | None:
    """The certificate's multipliers as an integer array in this file's order of lines and
    classes (PLANE's), each row also transposed (cell (i, j) -> (j, i)), so that a pattern and
    its transpose get the same bound; None when malformed. A row lists w by the lines in the
    order of their cells as sorted triples, v by the classes in the order of their lines
    through cell 0, then D."""
    if not isinstance(rows, list) or not all(
        isinstance(row, list) and len(row) == 17 and all(type(x) is int and x >= 0 for x in row)
        and row[16] > 0 for row in rows
    ):  # fmt: skip
        return None
    if not rows:
        return np.zeros((0, 17), dtype=np.int64)
    mine = [tuple(sorted(line)) for line in PLANE.tolist()]
    named = sorted(mine)  # the certificate's order of lines
    through_0 = [line for line in named if 0 in line]  # its order of classes
    columns = [named.index(line) for line in mine]
    columns += [12 + through_0.index(next(line for line in mine[3 * k : 3 * k + 3] if 0 in line))
                for k in range(4)]  # fmt: skip
    given = np.array(rows, dtype=np.int64)[:, [*columns, 16]]
    moved = [tuple(sorted(3 * (c % 3) + c // 3 for c in line)) for line in mine]
    image = [mine.index(line) for line in moved]
    flipped = given.copy()
    flipped[:, image] = given[:, :12]
    flipped[:, [12 + image[3 * k] // 3 for k in range(4)]] = given[:, 12:16]
    return np.vstack([given, flipped])


PLANE = _plane_lines()


def _margins(p: int, n: int, first: range, most: np.ndarray, value: int) -> list[tuple]:
    """Class types (a, b, c), a in ``first`` the largest part (b, c in any order), whose cap
    (the most lines inside their hyperplanes plus the most across) exceeds ``value``."""
    flat = 3 ** (p - 1)
    out = []
    for a in first:
        for b in range(0, a + 1):
            c = n - a - b
            if not 0 <= c <= a:
                continue
            cap = int(most[a] + most[b] + most[c])
            cap += int(_across(np.array(a), np.array(b), np.array(c), flat))
            if cap > value:
                out.append((a, b, c))
    return out


def _candidates(p: int, rows: tuple, cols: tuple) -> np.ndarray:
    """(K, 9) every pattern with rows and columns of the given sizes (cells in [0, 3^(P-2)],
    rows and columns adding up), before any bound."""
    top = 3 ** (p - 2)
    a, b, c = rows
    d, e, f = cols
    # cells 0, 1, 3, 4 fix the rest; each ranges over what its row and column allow (a cell
    # holds at most top points, so cell 0 at least a - 2 top, ...)
    spans = [
        np.arange(max(0, a - 2 * top, d - 2 * top), min(top, a, d) + 1),  # cell 0
        np.arange(max(0, a - 2 * top), min(top, a, e) + 1),  # cell 1: row 0, column 1
        np.arange(max(0, d - 2 * top), min(top, d, b) + 1),  # cell 3: row 1, column 0
        np.arange(0, min(top, b, e) + 1),  # cell 4
    ]
    s0, s1, s3, s4 = np.meshgrid(*spans, indexing="ij", sparse=True)
    s2, s6 = a - s0 - s1, d - s0 - s3
    s5, s7 = b - s3 - s4, e - s1 - s4
    s8 = c - s6 - s7
    shape = tuple(len(span) for span in spans)
    full = [np.broadcast_to(v, shape) for v in (s0, s1, s2, s3, s4, s5, s6, s7, s8)]
    cells = np.stack(full, axis=-1).reshape(-1, 9)
    ok = ((cells >= 0) & (cells <= top)).all(axis=1)
    ok &= cells[:, 2] + cells[:, 5] + cells[:, 8] == f
    return cells[ok]


def _batches(p: int, margins: list[tuple[tuple, tuple]], size: int = 1 << 16):
    """The :func:`_candidates` of each (rows, columns) of ``margins``, gathered into arrays of
    about ``size`` rows: the bounds then run on few large arrays, not many small ones."""
    group, count = [], 0
    for rows, cols in margins:
        group.append(_candidates(p, rows, cols))
        count += len(group[-1])
        if count >= size:
            yield np.concatenate(group)
            group, count = [], 0
    if count:
        yield np.concatenate(group)


def _above(p: int, cells: np.ndarray, most: np.ndarray, below: np.ndarray, value: int,
           split: np.ndarray | None = None, multipliers: np.ndarray | None = None):  # fmt: skip
    """(cells, bounds): the patterns among ``cells`` whose bound exceeds ``value``."""
    simple = below[cells].sum(axis=1)  # the cells' bound alone, cheaper: a first filter
    parts = cells[:, PLANE]
    simple += _across(parts[..., 0], parts[..., 1], parts[..., 2], 3 ** (p - 2)).sum(axis=1)
    cells = cells[simple > value]
    bound = _bounds(cells, most, below, p, split, multipliers, above=value)
    return cells[bound > value], bound[bound > value]


def largest_pencil_bound(
    p: int, n: int, theta: int, most: list[int], below: list[int], value: int,
    split: np.ndarray | None = None, multipliers: np.ndarray | None = None,
) -> tuple[int, list[int] | None]:  # fmt: skip
    """The largest bound of case (2) over the patterns whose bound exceeds ``value``, or
    (value, None) when none does: margins by their caps, then every pattern of the margin
    pairs (the transpose of a pattern has the same bound, so row margins >= column margins)."""
    most_a, below_a = np.array(most, dtype=np.int64), np.array(below, dtype=np.int64)
    margins = _margins(p, n, range(theta + 1, min(3 ** (p - 1), n) + 1), most_a, value)
    pairs = [(rows, cols) for x, rows in enumerate(margins) for cols in margins[: x + 1]]
    worst, where = value, None
    for batch in _batches(p, pairs):
        cells, bound = _above(p, batch, most_a, below_a, worst, split, multipliers)
        if len(bound):
            i = int(np.argmax(bound))
            worst, where = int(bound[i]), cells[i].tolist()
    return worst, where


def _cells_held(cells: np.ndarray, most: np.ndarray, below: np.ndarray, p: int,
                split: np.ndarray | None, threshold: int) -> np.ndarray:  # fmt: skip
    """For each pattern (K, 9) the most lines inside its cells when L >= ``threshold``: the
    least of sum_c M_{P-2}(s_c) and, for each two classes of the plane, R - threshold (the
    pencil's cells, module docstring), at least 0."""
    across, held = _line_bounds(cells, most, below, p, split)
    inside = below[cells]
    best = inside.sum(axis=1)
    for far, near, spare in _TWO_CLASSES:
        bound = inside @ spare + across[:, near].sum(axis=1)
        best = np.minimum(best, bound + held[:, far].sum(axis=1) - threshold)
    return np.maximum(best, 0)


def _two_classes() -> list[tuple[list[int], list[int], np.ndarray]]:
    """For each two classes of the plane: their far lines (those missing cell 0), the other
    lines, and for each cell max(0, 2 - the far lines through it)."""
    out = []
    for one, two in itertools.combinations(range(4), 2):
        far = [line for line in range(12) if line // 3 in (one, two) and 0 not in PLANE[line]]
        near = [line for line in range(12) if line not in far]
        met = np.zeros(9, dtype=np.int64)  # how many of the far lines pass through each cell
        for line in far:
            met[PLANE[line]] += 1
        out.append((far, near, np.maximum(0, 2 - met)))
    return out


_TWO_CLASSES = _two_classes()


def middle_quadruples(
    p: int, n: int, t: int, most: list[int], below: list[int], value: int,
    split: np.ndarray | None = None, multipliers: np.ndarray | None = None,
) -> set[tuple]:  # fmt: skip
    """The class types of the patterns of case (3) at t whose bound exceeds ``value``: row 0
    (>= t points) the largest row, column 0 (exactly t) the largest column, no diagonal
    hyperplane above t. Each as a sorted tuple of four sorted types (a multiset)."""
    return set(middle_cells(p, n, t, most, below, value, split, multipliers))


def middle_cells(
    p: int, n: int, t: int, most: list[int], below: list[int], value: int,
    split: np.ndarray | None = None, multipliers: np.ndarray | None = None,
) -> dict[tuple, int]:  # fmt: skip
    """:func:`middle_quadruples`, each with the largest :func:`_cells_held` of its patterns:
    the most lines inside the cells of a pencil of those types (case (3))."""
    most_a, below_a = np.array(most, dtype=np.int64), np.array(below, dtype=np.int64)
    flat = 3 ** (p - 1)
    if not 0 <= t <= flat:
        return {}
    rows = _margins(p, n, range(t, min(flat, n) + 1), most_a, value)
    cols = _margins(p, n, range(t, t + 1), most_a, value)
    out: dict[tuple, int] = {}
    for batch in _batches(p, [(r, c) for r in rows for c in cols]):
        cells, _ = _above(p, batch, most_a, below_a, value, split, multipliers)
        sizes = cells[:, PLANE].sum(axis=2)  # (K, 12): class k is lines 3k..3k+2
        diagonal = sizes[:, 6:].max(axis=1) <= t  # the diagonal classes
        types = -np.sort(-sizes[diagonal].reshape(-1, 4, 3), axis=2)  # (K, 4, 3)
        held = _cells_held(cells[diagonal], most_a, below_a, p, split, value + 1)
        # A type (x, y, z) is the number (x B + y) B + z, B = 3^(P-1) + 1; a pattern's four,
        # sorted, are numbered by the kinds that occur (at most B^2: each type adds up to n;
        # for P <= 5 B^8 < 2^63) and read as one integer in base of that many: one sort of
        # integers finds the multisets of types and the most held by each.
        base = flat + 1
        codes = np.sort((types[..., 0] * base + types[..., 1]) * base + types[..., 2], axis=1)
        kinds, number = np.unique(codes, return_inverse=True)
        places = len(kinds) ** np.arange(3, -1, -1)
        keys, where = np.unique(number.reshape(-1, 4) @ places, return_inverse=True)
        most_held = np.zeros(len(keys), dtype=np.int64)
        np.maximum.at(most_held, where.ravel(), held)
        quads = kinds[(keys[:, None] // places) % len(kinds)]  # (quads, 4) type numbers, sorted
        for quad, inside in zip(quads.tolist(), most_held.tolist(), strict=True):
            key = tuple((c // base**2, c // base % base, c % base) for c in quad)
            out[key] = max(out.get(key, 0), inside)
    return out


def _points(d: int) -> np.ndarray:
    """(3^d, d): point i of AG(d,3) has the base-3 digits of i, first digit first."""
    return np.array(list(itertools.product(range(3), repeat=d)), dtype=np.int64)


def _index(vectors: np.ndarray) -> np.ndarray:
    """The numbers of points given by their coordinates (last axis), reduced mod 3."""
    d = vectors.shape[-1]
    return (vectors % 3) @ (3 ** np.arange(d - 1, -1, -1))


@functools.cache
def affine_group(d: int) -> np.ndarray:
    """(|AGL(d,3)|, 3^d): the images of the points under every map x -> Mx + u, M invertible
    (those whose images of the 3^d points are all distinct); built once, read only."""
    points = _points(d)
    matrices = np.array(list(itertools.product(range(3), repeat=d * d))).reshape(-1, d, d)
    images = _index(np.einsum("mij,pj->mpi", matrices, points))  # (3^(d d), 3^d)
    ordered = np.sort(images, axis=1)
    linear = images[(ordered == np.arange(3**d)).all(axis=1)]
    # then a translation: the image of Mx + u is point (Mx) shifted by u
    shift = _index(points[:, None, :] + points[None, :, :])  # shift[x, u] = x + u
    return shift[linear[:, None, :], np.arange(3**d)[None, :, None]].reshape(-1, 3**d)


def _lines(d: int) -> np.ndarray:
    """(L, 3): the lines of AG(d,3), each {p, q, -(p + q)} once."""
    points = _points(d)
    third = _index(-(points[:, None, :] + points[None, :, :]))
    return np.array([(p, q, int(third[p, q])) for p in range(3**d) for q in range(p + 1, 3**d)
                     if q < third[p, q]])  # fmt: skip


_COVERED: dict[str, str | None] = {}  # the verdict of each list of orbits, by its whole input


def _orbits_cover(d: int, size: int, subsets: list) -> str | None:
    """None when ``subsets`` holds one ``size``-subset of each AGL(d,3)-orbit, else why not;
    once for each input (many split maxima of one certificate list the orbits of one size)."""
    key = json.dumps([d, size, subsets], default=str)
    if key not in _COVERED:
        _COVERED[key] = _orbits_verdict(d, size, subsets, affine_group(d))
    return _COVERED[key]


def _orbits_verdict(d: int, size: int, subsets: list, group: np.ndarray) -> str | None:
    """:func:`_orbits_cover` itself, by the orbit-stabiliser count over ``group``, AGL(d,3)."""
    seen, total = set(), 0
    for subset in subsets:
        if (
            not isinstance(subset, list)
            or len(set(subset)) != size
            or not all(isinstance(x, int) and 0 <= x < 3**d for x in subset)
        ):
            return f"{subset} is not a {size}-subset of AG({d},3)"
        masks = (np.int64(1) << group[:, subset].astype(np.int64)).sum(axis=1)
        mine = int((np.int64(1) << np.array(subset, dtype=np.int64)).sum())
        least = int(masks.min())
        if least in seen:
            return f"two of the subsets lie in one orbit ({subset})"
        seen.add(least)
        total += len(group) // int((masks == mine).sum())  # |orbit| = |G| / |stabiliser|
    if total != comb(3**d, size):
        return f"the orbits of the subsets hold {total} of the {comb(3**d, size)} {size}-subsets"
    return None


def _largest(values: np.ndarray, c: int) -> np.ndarray:
    """The sum of the c largest entries of each row."""
    if c == 0:
        return np.zeros(len(values), dtype=np.int64)
    width = values.shape[1]
    return np.partition(values, width - c, axis=1)[:, width - c :].sum(axis=1, dtype=np.int64)


def _by_lines(size: int, c: int, lines: np.ndarray) -> list[tuple[int, np.ndarray]]:
    """Every c-subset of AG(d,3) (``size`` = 3^d points, ``lines`` its lines) once, grouped by
    the number of lines inside it: (l, the subsets with l lines as bit masks), the most lines
    first.

    The subsets grow one point at a time, each new point x above all before it, so each subset
    is made once; x joins only where c - k - 1 larger points remain after it (k points before).
    Each subset is its bit mask (d <= 3: 27 bits) with its largest point, and x adds the lines
    {q, r, x} with q and r already in: the lines through x as masks of their other two points,
    tested on the mask. C(27, 13) subsets are 80 MB as masks."""
    through: list[list[int]] = [[] for _ in range(size)]  # per x: {q, r} of each line {q, r, x}
    for line in np.asarray(lines).tolist():
        for x in line:
            through[x].append(sum(1 << q for q in line if q != x))
    masks, counts = np.zeros(1, dtype=np.int32), np.zeros(1, dtype=np.int16)
    last = np.full(1, -1, dtype=np.int8)
    groups: dict[int, list[np.ndarray]] = {0: [masks]} if c == 0 else {}
    for k in range(c):
        pieces: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []
        for start in range(0, len(masks), 1 << 18):  # a chunk of the k-subsets at a time
            part = slice(start, start + (1 << 18))
            for x in range(k, size - c + k + 1):
                keep = last[part] < x
                mine, count = masks[part][keep], counts[part][keep]
                for pair in through[x]:
                    count += (mine & pair) == pair
                mine |= 1 << x
                if k + 1 < c:
                    pieces.append((mine, count, np.full(len(mine), x, dtype=np.int8)))
                    continue
                for lines_in in np.unique(count).tolist():
                    groups.setdefault(lines_in, []).append(mine[count == lines_in])
        if pieces:
            masks, counts, last = (np.concatenate(field) for field in zip(*pieces, strict=True))
        del pieces
    del masks, counts, last
    return [(count, np.concatenate(groups.pop(count))) for count in sorted(groups, reverse=True)]


def _sums_by_mask(values: np.ndarray) -> np.ndarray:
    """The sum of ``values`` over each subset of their positions, indexed by its bit mask (the
    subsets with position j are those without it, shifted by 2^j)."""
    sums = np.zeros(1, dtype=np.int32)
    for value in values.tolist():
        sums = np.concatenate([sums, sums + value])
    return sums


class _Search:
    """The search for one A: Y grows point by point, in increasing order and level by level,
    keeping r_Y(z) = #{q in Y : -(q + z) in A} and I(Y) for each prefix; a prefix lives on while
    its bound passes the claim, and a whole Y passing it gets its exact value over C."""

    def __init__(self, d: int, subset: list, other: int, c: int, most_c: int, claim: int,
                 shared: dict):  # fmt: skip
        # shared by the searches in AG(d,3) (_shared): the lines, third[p, q] = -(p + q), and
        # every c-subset C with I(C) (listed when first needed)
        self.size, self.lines, self.third = 3**d, shared["lines"], shared["third"]
        self.shared = shared
        self.flip = other > self.size // 2  # B = G - Y, else B = Y
        self.y = self.size - other if self.flip else other
        self.a, self.c, self.most_c, self.claim = len(subset), c, most_c, claim
        ones = np.zeros(self.size, dtype=bool)
        ones[subset] = True
        self.own = int(ones[self.lines].all(axis=1).sum())  # I(A)
        self.w = np.zeros((self.size, self.size), dtype=np.int16)  # w[q, z]: -(q + z) in A
        for p in subset:
            self.w[np.arange(self.size), self.third[p]] = 1
        # the most the points k + 1..y of Y can add to the bound: each raises the c largest
        # r_B by at most min(c, |A|) and lies on at most (j - 1) // 2 lines of the j - 1 points
        # before it; nothing when B = G - Y (I(B) and the c largest r_B only fall)
        per_point = min(c, self.a)
        self.gain = [0 if self.flip else sum(per_point + j // 2 for j in range(k, self.y))
                     for k in range(self.y + 1)]  # fmt: skip
        self.found = claim

    def bound(self, r: np.ndarray, inside: np.ndarray, k: int) -> tuple:
        """(the bound of each prefix, I(B) for a whole Y)."""
        if self.flip:  # I(G - Y) by the identity; r_B = |A| - r_Y: its c largest from r's least
            i_b = len(self.lines) - self.y * (self.size - self.y) // 2 - inside
            top = self.c * self.a + _largest(-r, self.c)
        else:
            i_b, top = inside, _largest(r, self.c)
        return self.own + i_b + self.most_c + top + self.gain[k], i_b

    def exact_c(self, r_b: np.ndarray, floor: int) -> int:
        """The most I(C) + (r_B summed over C) among the c-subsets C where it passes ``floor``,
        else ``floor``. The subsets are read by their number of lines l, the most first: every
        C of l lines or fewer gives at most l + (the c largest r_B), so the reading stops at the
        first l where that does not pass the best so far. A subset's sum of r_B is read from two
        tables, one per half of the points, at the two halves of its mask."""
        key = ("every_c", self.c)
        if key not in self.shared:  # one c kept at a time
            for old in [k for k in self.shared if isinstance(k, tuple)]:
                del self.shared[old]
            self.shared[key] = _by_lines(self.size, self.c, self.lines)
        best, top = floor, int(_largest(r_b[None, :], self.c)[0])
        half = (self.size + 1) // 2
        low, high = _sums_by_mask(r_b[:half]), _sums_by_mask(r_b[half:])
        for lines, masks in self.shared[key]:
            if lines + top <= best:
                break
            sums = low[masks & ((1 << half) - 1)] + high[masks >> half]
            best = max(best, lines + int(sums.max()))
        return best

    def run(self, first: int | None = None) -> None:
        """Search every Y, or (``first``) those whose least point is ``first``: the first level
        of :meth:`grow` keeps that one child alone, on the same test."""
        size = self.size
        member, r = np.zeros((1, size), dtype=bool), np.zeros((1, size), dtype=np.int16)
        inside, last, k = np.zeros(1, dtype=np.int64), np.full(1, -1), 0
        if first is not None:
            member[0, first], r, last, k = True, r + self.w[first], np.full(1, first), 1
            if not self.bound(r, inside, k)[0][0] > self.claim:
                return
        self.grow(member, r, inside, last, k)

    def grow(self, member, r, inside, last, k: int) -> None:
        """Extend the prefixes of k points (their largest: ``last``) by one larger point each."""
        if k == self.y:
            crude, i_b = self.bound(r, inside, k)
            for row in np.flatnonzero(crude > self.claim):  # the pair's exact value
                r_b = self.a - r[row] if self.flip else r[row]
                known = self.own + int(i_b[row])
                self.found = known + self.exact_c(r_b, self.found - known)
            return
        children = []
        for q in range(self.size - (self.y - k) + 1):
            rows = np.flatnonzero(last < q)
            if not len(rows):
                continue
            mem = member[rows]
            added = (mem & mem[:, self.third[:, q]]).sum(axis=1) // 2  # lines {u, w, q} in Y
            mem[:, q] = True
            grown = (mem, r[rows] + self.w[q], inside[rows] + added)
            alive = self.bound(grown[1], grown[2], k + 1)[0] > self.claim
            if alive.any():
                children.append((*(part[alive] for part in grown), q))
        if not children:
            return
        member, r, inside = (np.concatenate([ch[i] for ch in children]) for i in range(3))
        last = np.concatenate([np.full(len(ch[0]), ch[3]) for ch in children])
        for start in range(0, len(last), 1 << 14):
            part = slice(start, start + (1 << 14))
            self.grow(member[part], r[part], inside[part], last[part], k + 1)


@functools.cache
def _shared(d: int) -> dict:
    """What every search in AG(d,3) reads, built once a process: the lines, third[p, q] =
    -(p + q), and (under ("every_c", c), one c at a time) every c-subset with I(C)."""
    points = _points(d)
    return {"lines": _lines(d), "third": _index(-(points[:, None, :] + points[None, :, :]))}


def split_maximum(d: int, split: tuple, subsets: list, most_c: int, claim: int,
                  first: int | None = None) -> int:  # fmt: skip
    """S(a, b, c) if it passes ``claim``, else ``claim``: the search of the module docstring
    ("Split maxima") with A over ``subsets`` (one subset per orbit, of the size of one of the two
    largest parts) and B over the subsets of the size of the other; with ``first``, only the Y
    whose least point is ``first`` (:func:`split_maximum_pieces`)."""
    a, b, c = sorted(split, reverse=True)
    other = b if len(subsets[0]) == a else a
    shared = _shared(d)
    found = claim
    for subset in subsets:
        search = _Search(d, subset, other, c, most_c, claim, shared)
        search.run(first)
        found = max(found, search.found)
    return found


_CHECKED: dict[str, list[str]] = {}  # the errors of each entry checked, by its whole input


def split_maximum_key(d: int, entry: dict, below: list[int]) -> str:
    """The whole input of one split maximum's check, as text: its verdict depends on nothing
    else, so two checks of the same key agree."""
    return json.dumps([d, entry, below], sort_keys=True, default=int)


def check_split_maximum(d: int, entry: dict, below: list[int],
                        pieces: list | None = None) -> list[str]:  # fmt: skip
    """:func:`_check_split_maximum`, once for each input: the certificates of neighbouring n
    list many of the same split maxima, and an entry's check depends on nothing else."""
    key = split_maximum_key(d, entry, below)
    if key not in _CHECKED:
        _CHECKED[key] = _check_split_maximum(d, entry, below, pieces)
    return _CHECKED[key]


def split_maxima_inputs(p: int, certificate: dict, cited: dict) -> list[tuple[int, dict, list]]:
    """The inputs (d, entry, below) on which :func:`check_split` (p, n, value, ``certificate``,
    ``cited``) checks split maxima, for any n and value: to check them ahead of it, side by side,
    and hand the verdicts over with :func:`remember_split_maxima`. Empty where the certificate
    lists none it would check."""
    entries = certificate.get("split_maxima") if isinstance(certificate, dict) else None
    if not isinstance(p, int) or not 3 <= p <= 5 or not isinstance(entries, list):
        return []
    farkas = _load_farkas()
    if farkas is None:
        return []
    _, below = _maxima_below(p, cited, farkas.degree_bound)
    return [(p - 2, entry, below) for entry in entries if isinstance(entry, dict)]


def remember_split_maxima(checked: dict[str, list[str]]) -> None:
    """Take verdicts of :func:`check_split_maximum` reached in another process as this one's,
    by :func:`split_maximum_key`: each was reached on the input its key spells out, so a later
    check of that input agrees."""
    _CHECKED.update(checked)


def checked_split_maxima() -> dict[str, list[str]]:
    """Every verdict of :func:`check_split_maximum` this process holds, by key."""
    return dict(_CHECKED)


def _entry_errors(d: int, entry: dict) -> list[str]:
    """Why ``entry`` is no split maximum of AG(d,3) to check (empty: it is one)."""
    split, value, subsets = entry.get("split"), entry.get("bound"), entry.get("orbits")
    if not (isinstance(split, list) and len(split) == 3 and isinstance(value, int)
            and all(isinstance(x, int) and 0 <= x <= 3**d for x in split)
            and isinstance(subsets, list) and subsets
            and isinstance(subsets[0], list)):  # fmt: skip
        return [f"a split maximum needs a split of three parts of AG({d},3) and a bound"]
    a, b, _ = sorted(split, reverse=True)
    if len(subsets[0]) not in (a, b):
        return [f"S{tuple(split)}: orbits of {len(subsets[0])}-subsets, not of {a} or {b}"]
    return []


def split_maximum_pieces(d: int, entry: dict) -> list[tuple]:
    """The independent pieces of one split maximum's check, for workers side by side:
    ("cover",), that its subsets hit every orbit once, and ("search", i, first), the search of
    orbit i's A over the Y whose least point is ``first`` (None: Y is empty, one piece). The Y
    of each least point are disjoint and make up every Y, and a search's pruning test compares
    with the claim alone, so the bound is the largest over the pieces (:func:`piece_result`,
    then :func:`check_split_maximum` with ``pieces``). None where the entry is malformed."""
    if _entry_errors(d, entry):
        return []
    a, b, _ = sorted(entry["split"], reverse=True)
    subsets, size = entry["orbits"], 3**d
    other = b if len(subsets[0]) == a else a
    y = size - other if other > size // 2 else other  # Y's size, as _Search takes it
    firsts = list(range(size - y + 1)) if y else [None]
    return [("cover",)] + [("search", i, first) for i in range(len(subsets)) for first in firsts]


def piece_result(d: int, entry: dict, below: list[int], piece: tuple) -> str | int | None:
    """The result of one piece of :func:`split_maximum_pieces`: why the orbits fail (None: they
    do not), or the search's S if it passes the entry's bound, else the bound."""
    subsets = entry["orbits"]
    if piece[0] == "cover":
        return _orbits_cover(d, len(subsets[0]), subsets)
    _, i, first = piece
    c = sorted(entry["split"])[0]
    return split_maximum(d, tuple(entry["split"]), [subsets[i]], below[c], entry["bound"], first)


def _check_split_maximum(d: int, entry: dict, below: list[int],
                         pieces: list | None = None) -> list[str]:  # fmt: skip
    """Errors checking one entry {"split": [a, b, c], "bound": v, "orbits": subsets} of a
    certificate's "split_maxima": the subsets, all of the size of one of the two largest parts,
    hit every orbit of subsets of that size once and the bound computed from them is at most
    v. ``pieces``: the results of every piece of :func:`split_maximum_pieces`, in its order,
    reached elsewhere (then nothing is searched here)."""
    errors = _entry_errors(d, entry)
    if errors:
        return errors
    split, value, subsets = entry["split"], entry["bound"], entry["orbits"]
    why = _orbits_cover(d, len(subsets[0]), subsets) if pieces is None else pieces[0]
    if why is not None:
        return [f"S{tuple(split)}: {why}"]
    if pieces is None:
        found = split_maximum(d, tuple(split), subsets, below[sorted(split)[0]], value)
    else:
        found = max([value, *pieces[1:]])
    if found > value:
        return [f"S{tuple(split)} is bounded by {found} here, not {value}"]
    return []


def meeting_holds(
    p: int, n: int, value: int, low: int, ceiling: int, meeting: int, most: list[int],
    below: list[int], split: np.ndarray | None = None, multipliers: np.ndarray | None = None,
) -> bool:  # fmt: skip
    """Whether every pattern whose rows and columns have types of largest part in low..ceiling
    (row 0 and column 0 those parts), whose diagonal classes have no hyperplane above
    ``ceiling`` and whose bound exceeds ``value`` has cell 0 of ``meeting`` points or more.
    A pattern and its transpose have the same bound and cell 0, so row margins >= columns."""
    most_a, below_a = np.array(most, dtype=np.int64), np.array(below, dtype=np.int64)
    margins = _margins(p, n, range(low, ceiling + 1), most_a, value)
    pairs = [(rows, cols) for x, rows in enumerate(margins) for cols in margins[: x + 1]]
    for batch in _batches(p, pairs):
        cells, _ = _above(p, batch, most_a, below_a, value, split, multipliers)
        sizes = cells[:, PLANE].sum(axis=2)
        cells = cells[sizes[:, 6:].max(axis=1, initial=0) <= ceiling]
        if len(cells) and int(cells[:, 0].min()) < meeting:
            return False
    return True


def _signed_permutations(r: int) -> np.ndarray:
    """(r! 2^r, r, r): every matrix permuting the r coordinates and negating some."""
    out = []
    for order in itertools.permutations(range(r)):
        for signs in itertools.product((1, -1), repeat=r):
            matrix = np.zeros((r, r), dtype=np.int64)
            for i in range(r):
                matrix[i, order[i]] = signs[i]
            out.append(matrix)
    return np.array(out)


def _codes(normals: np.ndarray, offsets: np.ndarray) -> np.ndarray:
    """Each hyperplane xi . x = e as the number 3 (xi in base 3) + e, with xi and e first
    multiplied by the inverse of xi's first nonzero coordinate (the same hyperplane)."""
    normals, offsets = normals % 3, offsets % 3
    first = np.take_along_axis(normals, (normals != 0).argmax(axis=-1)[..., None], axis=-1)
    normals, offsets = normals * first % 3, offsets * first[..., 0] % 3  # 1 * 1 = 2 * 2 = 1
    digits = 3 ** np.arange(normals.shape[-1] - 1, -1, -1)
    return 3 * (normals @ digits) + offsets


def _thirds(p: int) -> np.ndarray:
    """(3^p, 3^p): the third point of the line through points x and y (x itself for y = x)."""
    points = _points(p)
    return _index(-(points[:, None, :] + points[None, :, :]))


def _sets_row(third: np.ndarray, forced: np.ndarray, n: int, sets: int) -> tuple[np.ndarray, int]:
    """The row of the sets (module docstring): weights over the points and the right side;
    ``third`` from :func:`_thirds`."""
    closed = forced[third]
    twice_p = (closed & forced[None, :]).sum(axis=1)  # y and its third both in F: 2 p(x)
    q = (closed & ~forced[None, :]).sum(axis=1)
    others = max(n - int(forced.sum()) - 1, 0)
    a = np.minimum(q, others)
    weights = np.where(forced, 0, 3 * twice_p + 2 * a + others)
    members = np.flatnonzero(forced)
    ordered = int(forced[third[np.ix_(members, members)]].sum()) - len(members)  # x != y
    return weights.astype(np.int64), 6 * (sets - ordered // 6)


def _hyperplanes(p: int) -> np.ndarray:
    """Every hyperplane of AG(p,3) as a 0/1 row: forms with first nonzero coordinate 1 in
    lexicographic order, offsets 0, 1, 2."""
    points = _points(p)
    forms = [f for f in points.tolist() if any(f) and f[next(i for i, v in enumerate(f) if v)] == 1]
    return np.array([(points @ np.array(f)) % 3 == e for f in forms for e in range(3)],
                    dtype=np.int64)  # fmt: skip


@functools.cache
def _fewest_in_space(d: int) -> list[int]:
    """m(k): the fewest lines among k points of AG(d,3), every subset read (d <= 2). Cached:
    callers must not change it."""
    points = _points(d)
    size = len(points)
    lines = [(x, y, z) for x, y in itertools.combinations(range(size), 2)
             for z in [int(_index(-(points[x] + points[y])))] if z > y]  # fmt: skip
    fewest = [10**9] * (size + 1)
    for chosen in range(1 << size):
        held = sum(1 for x, y, z in lines if chosen >> x & chosen >> y & chosen >> z & 1)
        k = bin(chosen).count("1")
        fewest[k] = min(fewest[k], held)
    return fewest


@functools.cache
def _fewest_solutions(d: int) -> np.ndarray:
    """r(a, b, c): the fewest (x, y, z) in A x B x C with x + y + z = 0 over sets of a, b, c
    points of AG(d,3) (d <= 2), every A and B read: for each z the pairs of A x B it closes,
    and C the c points closing fewest. Cached: callers must not change it."""
    points = _points(d)
    size = len(points)
    subsets = (np.arange(1 << size)[:, None] >> np.arange(size)[None, :]) & 1  # (2^N, N)
    closing = np.zeros((1 << size, 1 << size, size), dtype=np.int64)
    for z in range(size):
        partner = _index(-(points + points[z]))  # y = -(x + z) for each x
        closing[:, :, z] = subsets @ subsets[:, partner].T
    ordered = np.sort(closing, axis=2).cumsum(axis=2)
    sizes = subsets.sum(axis=1)
    table = np.full((size + 1,) * 3, 10**9, dtype=np.int64)
    table[:, :, 0] = 0
    for a in range(size + 1):
        for b in range(size + 1):
            pick = ordered[np.ix_(sizes == a, sizes == b)].reshape(-1, size)
            table[a, b, 1:] = pick.min(axis=0)
    return table


def _complement_shape(p: int, planes: np.ndarray, low: int, high: int, n: int) -> tuple:
    """T = the complement of S: each point's group (hyperplane i off the meetings, k off all
    of them, -1 on a meeting), each group's count range, |T| and T's most lines when S holds
    ``sets``: N - lambda t + C(t, 2) - sets (returned without the sets)."""
    points = _points(p)
    k = len(planes)
    inside = np.array([(points @ row[:p]) % 3 == row[p] % 3 for row in planes])
    meets = np.zeros(len(points), dtype=bool)
    for i, j in itertools.combinations(range(k), 2):
        meets |= inside[i] & inside[j]
    group = np.full(len(points), k, dtype=np.int64)
    for i in range(k):
        group[inside[i]] = i
    group[meets] = -1
    plane, t = 3 ** (p - 1), 3**p - n
    counts = [(plane - high, plane - low)] * k
    counts.append((t - k * (plane - low), t - k * (plane - high)))
    per_point = (3**p - 1) // 2
    return group, counts, t, 3**p * per_point // 3 - per_point * t + comb(t, 2)


def _fibre_errors(p: int, r: int, group: np.ndarray, counts: list, t: int, budget: int,
                  certificate: dict) -> list[str]:  # fmt: skip
    """Errors of a "fibres" certificate (module docstring, "The lines left out"): the free
    fibres in order, the lines of three of them as sorted triples of their positions in order,
    the rows the sum then each piece at least and at most."""
    d = p - r
    if not 1 <= d <= 2:
        return [f"fibres of dimension {d} are not checked here"]
    width = 3**d
    fibres = group.reshape(-1, width)
    if (fibres != fibres[:, :1]).any():
        return ["the groups are not unions of fibres"]
    free = np.flatnonzero(fibres[:, 0] >= 0)
    where = {int(v): i for i, v in enumerate(free.tolist())}
    image = _points(r)
    lines = []
    for i, u in enumerate(free.tolist()):
        for v in free.tolist()[i + 1:]:
            w = int(_index(-(image[u] + image[v])))
            if w > v and w in where:
                lines.append((where[u], where[v], where[w]))
    lines.sort()
    kinds = fibres[free, 0]
    rows = [(np.ones(len(free), dtype=np.int64), 0, t)]
    for i in range(len(counts) - 1):
        rows.append(((kinds == i).astype(np.int64), 1, counts[i][0]))
        rows.append(((kinds == i).astype(np.int64), -1, counts[i][1]))
    fewest = np.array(_fewest_in_space(d), dtype=object)
    solutions = _fewest_solutions(d).astype(object)
    try:
        scale = int(certificate["scale"])
    except (KeyError, TypeError, ValueError):
        return ["a fibres certificate needs a scale"]
    if scale < 1:
        return ["a fibres certificate needs a positive scale"]
    stack = [(certificate.get("tree"), [(0, width)] * len(free))]
    while stack:
        node, box = stack.pop()
        if not isinstance(node, dict):
            return ["a fibres tree node is not an object"]
        if "split" in node:
            try:
                x, cut = (int(v) for v in node["split"])
            except (TypeError, ValueError):
                return ["a fibres split needs [fibre, cut]"]
            if not (0 <= x < len(free) and box[x][0] <= cut < box[x][1]):
                return [f"a fibres split [{x}, {cut}] is outside its box"]
            low_box, high_box = list(box), list(box)
            low_box[x], high_box[x] = (box[x][0], cut), (cut + 1, box[x][1])
            stack += [(node.get("low"), low_box), (node.get("high"), high_box)]
            continue
        try:
            y = [int(v) for v in node["rows"]]
            parts = [[[int(v) for v in part] for part in line] for line in node["lines"]]
        except (KeyError, TypeError, ValueError):
            return ["a fibres leaf needs rows and lines"]
        if len(y) != len(rows) or len(parts) != len(lines):
            return ["a fibres leaf has the wrong number of rows or lines"]
        if any(value * sense < 0 for value, (_, sense, _) in zip(y, rows, strict=True)):
            return ["a fibres leaf has a multiplier of the wrong sign"]
        spans = [range(lo, hi + 1) for lo, hi in box]
        share = [np.array([scale * fewest[k] for k in span], dtype=object) for span in spans]
        for (u, v, w), phi in zip(lines, parts, strict=True):
            if len(phi) != 3 or [len(q) for q in phi] != [len(spans[u]), len(spans[v]),
                                                          len(spans[w])]:  # fmt: skip
                return ["a fibres leaf's line parts do not fit the box"]
            first, second, third = (np.array(q, dtype=object) for q in phi)
            cube = solutions[np.ix_(spans[u], spans[v], spans[w])] * scale
            if (cube < first[:, None, None] + second[None, :, None] + third[None, None, :]).any():
                return [f"a fibres leaf's line {u, v, w} is above its fewest solutions"]
            share[u], share[v], share[w] = share[u] + first, share[v] + second, share[w] + third
        bound = sum(value * b for value, (_, _, b) in zip(y, rows, strict=True))
        for x, span in enumerate(spans):
            slope = sum(value * int(a[x]) for value, (a, _, _) in zip(y, rows, strict=True))
            bound += min(share[x][i] - slope * k for i, k in enumerate(span))
        if not bound > scale * budget:
            return [f"a fibres leaf bounds the lines left out by {bound}/{scale}, not above "
                    f"{budget}"]  # fmt: skip
    return []


def _local_errors(p: int, group: np.ndarray, counts: list, t: int, budget: int,
                  certificate: dict) -> list[str]:  # fmt: skip
    """Errors of a "local" certificate (module docstring, "The lines left out")."""
    try:
        scale = int(certificate["scale"])
        structures = [([int(c) for c in e["cards"]], [int(v) for v in e["multipliers"]],
                       int(e["constant"])) for e in certificate["structures"]]  # fmt: skip
    except (KeyError, TypeError, ValueError):
        return ["a local certificate needs a scale and structures"]
    if scale < 1 or not structures:
        return ["a local certificate needs a positive scale and structures"]
    third = _thirds(p)
    holding: dict[tuple, int] = {}
    inside = []
    for cards, multipliers, _ in structures:
        if (len(set(cards)) != len(cards) or not 3 <= len(cards) <= 20
                or any(not 0 <= c < 3**p or group[c] < 0 for c in cards)
                or len(multipliers) != len(counts)):  # fmt: skip
            return ["a local structure needs 3 to 20 distinct points off the meetings"]
        here = set(cards)
        pairs = itertools.combinations(cards, 2)
        found = {tuple(sorted((x, y, int(third[x, y])))) for x, y in pairs
                 if int(third[x, y]) in here}  # fmt: skip
        inside.append(sorted(found))
        for line in found:
            holding[line] = holding.get(line, 0) + 1
    common = 1
    for m in holding.values():
        common = common * m // np.gcd(common, m)
    share = np.zeros(3**p, dtype=object)
    constants = 0
    for (cards, multipliers, constant), found in zip(structures, inside, strict=True):
        index = {c: i for i, c in enumerate(cards)}
        subsets = np.arange(1 << len(cards), dtype=np.int64)
        weighed = np.zeros(len(subsets), dtype=np.int64)  # common times the weighted lines
        for line in found:
            x, y, z = (index[c] for c in line)
            held = (subsets >> x) & (subsets >> y) & (subsets >> z) & 1
            weighed += held * (common // holding[line])
        right = np.full(len(subsets), constant, dtype=np.int64)
        for i, c in enumerate(cards):
            right += ((subsets >> i) & 1) * multipliers[group[c]]
        if (scale * weighed < common * right).any():
            return ["a local structure's subset holds fewer weighted lines than its bound"]
        for c in cards:
            share[c] += multipliers[group[c]]
        constants += constant
    # the least sum of share over T: per group the n_g smallest, the n_g adding up to t
    best = {0: 0}
    for g, (least, most) in enumerate(counts):
        values = sorted(share[group == g].tolist())
        prefix = [0]
        for v in values:
            prefix.append(prefix[-1] + v)
        step: dict[int, int] = {}
        for taken, value in best.items():
            for m in range(max(least, 0), min(most, len(values)) + 1):
                key = taken + m
                if key <= t and (key not in step or value + prefix[m] < step[key]):
                    step[key] = value + prefix[m]
        best = step
    if t not in best:
        return []  # no T has these counts: nothing to bound
    if not best[t] + constants > scale * budget:
        return [f"a local certificate bounds the lines left out by {best[t] + constants}/"
                f"{scale}, not above {budget}"]  # fmt: skip
    return []


def _complement_errors(p: int, r: int, planes: np.ndarray, low: int, high: int, n: int,
                       sets: int, certificate: dict) -> list[str]:  # fmt: skip
    """Errors of one arrangement's "complement" certificate: the lines left out by S (module
    docstring) are more than S holding ``sets`` lines allows."""
    group, counts, t, constant = _complement_shape(p, planes, low, high, n)
    budget = constant - sets
    if not isinstance(certificate, dict):
        return ["a complement certificate is not an object"]
    if certificate.get("kind") == "fibres":
        return _fibre_errors(p, r, group, counts, t, budget, certificate)
    if certificate.get("kind") == "local":
        return _local_errors(p, group, counts, t, budget, certificate)
    return [f"a complement certificate of kind {certificate.get('kind')!r} is not checked here"]


def _arrangement_errors(p: int, entry: dict) -> list[str]:
    """Errors of one "arrangements" certificate (the module docstring's count of big
    classes): every listed arrangement refuted, the orbits complete."""
    try:
        k, low, high = int(entry["hyperplanes"]), int(entry["low"]), int(entry["high"])
        meeting, n = int(entry["meeting"]), int(entry["cards"])
        listed = entry["arrangements"]
        sets = None if entry.get("sets") is None else int(entry["sets"])
    except (KeyError, TypeError, ValueError):
        return ["an arrangements certificate needs hyperplanes, low, high, meeting, cards"]
    if entry.get("properties") != p or not 2 <= k <= (3**p - 1) // 2:
        return [f"arrangements of {k} hyperplanes of AG({p},3) are not checked here"]
    if sets is not None and meeting != 3 ** (p - 2):
        return [f"the sets' row needs every two hyperplanes to meet in {3 ** (p - 2)} points"]
    points = _points(p)
    pairs = list(itertools.combinations(range(k), 2))
    found: dict[int, dict[int, int]] = {}  # rank: least code of each orbit -> its size
    every, third = (_hyperplanes(p), _thirds(p)) if sets is not None else (None, None)
    for item in listed:
        try:
            planes = np.array(item["planes"], dtype=np.int64).reshape(k, p + 1)
            left_out = item.get("complement")
            y = (None if left_out is not None
                 else np.array([int(v) for v in item["multipliers"]], dtype=np.int64))  # fmt: skip
        except (KeyError, TypeError, ValueError, OverflowError):
            return ["an arrangement needs k planes [xi..., e] and integer multipliers"]
        normals, offsets = planes[:, :p] % 3, planes[:, p] % 3
        r = 0
        while r < k and planes[r].tolist() == [int(i == r) for i in range(p)] + [0]:
            r += 1
        added, rest = normals[r:, :r], normals[r:, r:]
        units = (added != 0).sum(axis=1) == 1
        if r == 0 or rest.any() or not added.any(axis=1).all() or units.any():
            return [f"arrangement {planes.tolist()} is not of the basis form"]
        codes = 3 * (added @ 3 ** np.arange(r - 1, -1, -1)) + offsets[r:]
        if (_codes(added, offsets[r:]) != codes).any() or len(set((codes // 3).tolist())) < k - r:
            return [f"arrangement {planes.tolist()} is not normalised or repeats a class"]
        # the rows of the program, and the multipliers' check
        inside = np.array([(points @ xi) % 3 == e for xi, e in zip(normals, offsets, strict=True)])
        meets = [inside[i] & inside[j] for i, j in pairs]
        rows = np.vstack([np.ones(len(points), bool), inside, inside, *meets]).astype(np.int64)
        b = np.array([n] + [low] * k + [high] * k + [meeting] * len(pairs), dtype=np.int64)
        sense = np.array([-1] + [1] * k + [-1] * k + [1] * len(pairs))
        if sets is not None:
            weights, right = _sets_row(third, np.any(meets, axis=0), n, sets)
            rows = np.vstack([rows, every, weights[None, :]])
            b = np.concatenate([b, np.full(len(every), high), [right]])
            sense = np.concatenate([sense, np.full(len(every), -1), [1]])
        if y is None:  # the lines its complement must hold instead of the multipliers
            if sets is None:
                return [f"arrangement {planes.tolist()}: a complement certificate needs sets"]
            errors = _complement_errors(p, r, planes, low, high, n, sets, left_out)
            if errors:
                return [f"arrangement {planes.tolist()}: {errors[0]}"]
        elif len(y) != len(b) or (y * sense < 0).any() or np.abs(y).max(initial=0) > 10**9:
            return [f"arrangement {planes.tolist()}: multipliers of the wrong sign or size"]
        elif not int((y @ rows)[y @ rows > 0].sum()) < int(y @ b):
            return [f"arrangement {planes.tolist()}: the multipliers reach no contradiction"]
        # its orbit under the signed permutations of the first r coordinates
        group = _signed_permutations(r)
        moved = np.einsum("gij,hj->ghi", group, added)  # each map on each added normal
        images = np.sort(_codes(moved, np.broadcast_to(offsets[r:], moved.shape[:2])), axis=1)
        mine = np.sort(codes)
        width = 3 ** (r + 1)
        keys = images @ width ** np.arange(k - r - 1, -1, -1)
        least, stabiliser = int(keys.min()), int((images == mine).all(axis=1).sum())
        orbits = found.setdefault(r, {})
        if least in orbits:
            return [f"arrangement {planes.tolist()} lies in the orbit of another"]
        orbits[least] = len(group) // stabiliser
    for r in range(1, min(k, p) + 1):
        classes = (3**r - 1) // 2
        if classes < k:
            continue
        total = comb(classes - r, k - r) * 3 ** (k - r)
        if sum(found.get(r, {}).values()) != total:
            return [f"the arrangements of rank {r} cover {sum(found.get(r, {}).values())} of "
                    f"the {total} forms"]  # fmt: skip
    return []


def _load_farkas():
    """farkas_check.py beside this file (its program checker and degree bound), or None."""
    path = Path(__file__).with_name("farkas_check.py")
    if not path.exists():
        return None
    spec = importlib.util.spec_from_file_location("farkas_check", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _covers(forced: list, ceiling: int | None, quad: tuple, cells: int | None = None,
            held: int = 0) -> bool:  # fmt: skip
    """The pencil's classes (types ``quad``) include the ``forced`` types, as many times, and
    none has a hyperplane above ``ceiling``; with a bound ``cells`` on the lines inside the
    cells, the forced types are all four and the patterns of ``quad`` hold at most ``held``
    <= ``cells`` there."""
    if ceiling is not None and max(max(t) for t in quad) > ceiling:
        return False
    if cells is not None and (len(forced) != 4 or held > cells):
        return False
    have = list(quad)
    for t in forced:
        t = tuple(sorted((int(v) for v in t), reverse=True))
        if t not in have:
            return False
        have.remove(t)
    return True


_ARRANGEMENT = ("hyperplanes", "low", "high", "meeting", "sets")


def _count_errors(p: int, n: int, value: int, middle: list, arrangements: list, most: list,
                  below: list, split: np.ndarray | None,
                  multipliers: np.ndarray | None = None) -> list[str]:  # fmt: skip
    """Errors of the middle entries with a count of big classes: each one's meeting bound
    (:func:`meeting_holds`) and the arrangements of one more class than its count allows."""
    errors, checked, met = [], {}, {}
    for entry in middle:
        if entry.get("count") is None:
            continue
        try:
            (part, allowed), ceiling = (int(v) for v in entry["count"]), int(entry["ceiling"])
            meeting = int(entry["meeting"])
            sets = None if entry.get("sets") is None else int(entry["sets"])
        except (KeyError, TypeError, ValueError):
            errors.append(f"a count needs [h, k], an integer ceiling and meeting: {entry}")
            continue
        if sets is not None and sets > value + 1:
            errors.append(f"a count asks {sets} sets of a configuration with more than {value}")
            continue
        key = (allowed + 1, part, ceiling, meeting, sets)
        if key[1:4] not in met:
            met[key[1:4]] = meeting_holds(p, n, value, part, ceiling, meeting, most, below, split,
                                          multipliers)  # fmt: skip
        if not met[key[1:4]]:
            errors.append(f"two classes with parts {part}..{ceiling} may meet in fewer than "
                          f"{meeting} points")  # fmt: skip
        if key not in checked:
            same = [a for a in arrangements if isinstance(a, dict) and a.get("cards") == n
                    and tuple(a.get(name) for name in _ARRANGEMENT) == key]  # fmt: skip
            # (an entry without "sets" needs a certificate without them: key[4] None)
            checked[key] = (_arrangement_errors(p, same[0]) if same else
                            [f"no arrangements certificate for {key[0]} hyperplanes of "
                             f"{part}..{ceiling} points meeting in {meeting}"])  # fmt: skip
        errors += checked[key]
    return errors


def _maxima_below(p: int, cited: dict, degree) -> tuple[list[int], list[int]]:
    """M_{P-1}(h) for h = 0..3^(P-1) and M_{P-2}(s) for s = 0..3^(P-2): the cited proven maxima,
    else the degree bound."""
    most = [min(degree(p - 1, h), cited.get((p - 1, h, "max"), h**3))
            for h in range(3 ** (p - 1) + 1)]  # fmt: skip
    below = [min(degree(p - 2, s), cited.get((p - 2, s, "max"), s**3))
             for s in range(3 ** (p - 2) + 1)]  # fmt: skip
    return most, below


def check_split(p: int, n: int, value: int, certificate: dict, cited: dict) -> list[str]:
    """Errors checking that ``certificate`` proves M_P(n) <= value by the split (empty: ok).

    ``certificate`` = {"theta": theta, "program": a certificate for farkas_check with "big"
    theta, "pencil": {"theta": top}, "middle": [certificates with "big" t and "forced"
    types, some with a "count" [h, k - 1] and a "meeting" sigma, and maybe "sets"],
    "split_maxima": [{"split", "bound", "orbits"}], "arrangements": [{"hyperplanes": k, "low":
    h, "high": c, "meeting": sigma, "cards": n, ("sets",) "arrangements": [...]}]} (no "pencil"
    theta: top = theta, no middle
    case; no split maxima or arrangements: none used); ``cited`` maps (P', k, "max") to proven
    values (P' = P - 1, P - 2 are used).
    """
    name = f"max({p},{n}) = {value}"
    theta = certificate.get("theta") if isinstance(certificate, dict) else None
    if not isinstance(theta, int) or not isinstance(p, int) or p < 3:
        return [f"{name}: a split needs P >= 3 and an integer theta"]
    pencil = certificate.get("pencil") or {}
    top = pencil.get("theta", theta) if isinstance(pencil, dict) else None
    middle = certificate.get("middle") or []
    if not isinstance(top, int) or top < theta or not isinstance(middle, list):
        return [f"{name}: the pencils' theta must be an integer >= {theta}, middle a list"]
    farkas = _load_farkas()
    if farkas is None:
        return [f"{name}: farkas_check.py is missing next to split_check.py"]
    errors = farkas.check_farkas(p, n, "max", value, certificate.get("program"), cited, big=theta)
    most, below = _maxima_below(p, cited, farkas.degree_bound)
    forced: dict[int, list] = {}  # t: (forced types, ceiling) of each program
    for entry in middle:
        t = entry.get("big") if isinstance(entry, dict) else None
        if not isinstance(t, int) or not theta < t <= top:
            errors.append(f"{name}: a middle case's t must lie in {theta + 1}..{top}")
            continue
        types, ceiling = entry.get("forced") or [], entry.get("ceiling")
        cells = entry.get("cells")
        errors += farkas.check_farkas(p, n, "max", value, entry, cited, big=t, forced=types,
                                      ceiling=ceiling, count=entry.get("count"),
                                      cells=cells)  # fmt: skip
        if ceiling is not None and not isinstance(ceiling, int):
            errors.append(f"{name}: a ceiling must be an integer")
        if cells is not None and type(cells) is not int:
            errors.append(f"{name}: a bound on the cells must be an integer")
        forced.setdefault(t, []).append((types, ceiling, cells))
    if errors:
        return errors
    split = None
    entries = certificate.get("split_maxima") or []
    if entries:
        if p - 2 > 3 or not isinstance(entries, list):
            return [f"{name}: split maxima are checked for hyperplanes of AG(2..4,3)"]
        side = 3 ** (p - 2) + 1
        split = np.full((side, side, side), 10**9, dtype=np.int64)
        for entry in entries:
            found = ["a split maximum is a mapping"]
            if isinstance(entry, dict):
                found = check_split_maximum(p - 2, entry, below)
            errors += [f"{name}: {e}" for e in found]
            if not found:
                for order in itertools.permutations(entry["split"]):
                    split[order] = min(split[order], entry["bound"])
    if errors:
        return errors
    multipliers = _multipliers(pencil.get("multipliers", []))
    if multipliers is None:
        return [f"{name}: the pencil's multipliers must be rows of 17 integers >= 0, the last > 0"]
    errors += _count_errors(p, n, value, middle, certificate.get("arrangements") or [], most,
                            below, split, multipliers)  # fmt: skip
    for t in range(theta + 1, top + 1):
        found = middle_cells(p, n, t, most, below, value, split, multipliers)
        for quad, held in sorted(found.items()):
            if not any(_covers(f, ceiling, quad, cells, held)
                       for f, ceiling, cells in forced.get(t, [])):  # fmt: skip
                errors.append(f"{name}: no program of t = {t} covers the pencil types {quad}")
    worst, where = largest_pencil_bound(p, n, top, most, below, value, split, multipliers)
    if where is not None:
        errors.append(f"{name}: two hyperplanes above {top} allow {worst} sets (cells {where})")
    return errors
