"""The big-slice split: an upper bound on the sets among n cards of AG(P,3), case by case.

The problem. M(n) is the most lines (sets) among n points of AG(P,3). The slice program of
:mod:`setlab.extremal.bounds` bounds it from the parallel classes of hyperplanes one at a time,
and above some n it lets every hyperplane be extremal at once, which no configuration can be. The
split couples two classes. Call a hyperplane *big* for S when it holds more than theta points.

* **At most one class has a big hyperplane.** Then the class profile of S satisfies the slice
  program with one more row: the classes whose type has a part above theta number at most one.
* **Two classes have one each.** Their big hyperplanes H and H' are not parallel; they meet in a
  (P-2)-flat whose nine translates, the *cells*, are the points of the plane AG(P,3)/(H ∩ H')
  = AG(2,3). The twelve lines of that plane are the hyperplanes through a cell, in four
  parallel classes; H and H' are two of them that meet. Every line of AG(P,3) lies inside one
  cell or meets three cells that form a line of the plane, so with s_c = |S ∩ c|:

      L = sum over cells c of (sets inside c) + sum over the 12 lines l of (sets across l),

  the sets inside c at most M_{P-2}(s_c), the sets across l at most the across bound of its
  three cells (:func:`~setlab.extremal.identities.across_bounds`, flat 3^(P-2)). And for each
  class k of the pencil, L is the sets inside its three hyperplanes (each at most M_{P-1} of its
  size, and at most its cells' bound plus its own across term; a table of bounds for a
  hyperplane given its three cells may sharpen this, ``split_most``) plus the sets across k (at
  most the across bound of k's three sizes, flat 3^(P-1), and at most the other lines' across
  terms). :func:`pencil_bound` is the least of these five bounds; the largest over all nine cell
  sizes with H and H' big (:func:`two_big_hyperplanes`) bounds L in this case.

**The pencil's own linear program.** Those bounds are a few solutions of one linear program's
dual: maximize sum I(c) + sum X(l) over I(c) <= M_{P-2}(s_c), X(l) <= A_l (l's across bound),
sum_{c in l} I(c) + X(l) <= H_l (l's hyperplane) and sum_{l not in k} X(l) <= A_k (class k's
across bound). Any weights w_l >= 0 on the lines, v_k >= 0 on the classes and D > 0 bound it:
with y_c = max(0, D - sum_{l through c} w_l) and z_l = max(0, D - w_l - sum_{k not l's class}
v_k), every I(c) and X(l) is counted D times or more in

    D L <= sum_c y_c M_{P-2}(s_c) + sum_l (z_l A_l + w_l H_l) + sum_k v_k A_k.

The bounds above are w = 0, and w = D on one class's lines with v_k = D or not. A *triangle*
(three lines of three classes, not through one point, each weighted 1 with D = 2) is new: its
three sides hold each corner cell twice and each other cell of theirs once, so 2L is at most
their hyperplanes' and across bounds, the sides' other cells once and the three cells off the
triangle and the nine lines that are not sides twice. The 72 triangles
(:func:`pencil_multipliers`) take the largest bound of the pencils of AG(5,3) from 2864 to
2862 at n = 157 and 2718 to 2716 at n = 154 (top 71 and 70, with the split maxima known); on
the patterns that stop the pencils at n = 148..157 they reach the program's optimum (solved
by HiGHS) nearly everywhere. Records list them, and the proof bundle's checker takes any such
rows a certificate gives.

If the program is infeasible for L >= U + 1 and every pencil bound is at most U, then M(n) <= U.

Where the program needs a smaller theta than the pencils, a **middle case** fills the gap. Let t
be the second largest of the class maxima (the largest hyperplane of each parallel class): the
program covers t <= theta, the pencils t > top, and for theta < t <= top take as row 0 the
largest hyperplane of a class of largest maximum and as column 0 that of a class of maximum t.
The two diagonal classes of their pencil have no hyperplane above t, and no class but the row's
has one, so each pattern past U (:func:`middle_types`) names four class types that the program
with ``big`` = t and those types forced must admit; refuting it for each pattern (per row and
column types where that suffices) covers the case.

Where a quadruple's program stays feasible, the **pencil's cells** may refute it: the program
lets each of the pencil's four classes hold its types' bounds inside its hyperplanes at once,
but a line inside a cell lies inside a hyperplane of all four and a line across three cells in
one of them, so together they hold 3 I + L, I the lines inside the cells, which the pattern
bounds (:func:`cells_bound`, :func:`middle_cells`; ``cells`` in the program).

Where that fails too, a **count of big classes** may still refute it.
With the row "at most k - 1 classes have a part of h or more" (h near row 0's c cards) its
program is infeasible, so S has k such classes. Any two of them form a pencil whose bound
must pass U, and every such pattern has cell 0 of sigma cards or more (:func:`meeting_bound`):
their largest hyperplanes share sigma cards of S. And k hyperplanes of different classes, of
h..c cards each, every two sharing sigma, fit in no n cards: up to AGL(P,3) they are few, and
each arrangement's linear program has integer Farkas multipliers (:mod:`setlab.extremal.
arrangements`). The count's program of four forced types keeps the pencil's cells' row too, and
the quadruples the count leaves are sharpened by split maxima (:func:`_counted_split`).

For AG(5,3) the two cases prove M(140..143), where the witness is a full 4-flat with two slices
(the largest pencil bound is that of H ∪ H' full plus a few cards, the same configurations seen
from another pencil): they meet exactly at the witness. The middle case adds M(144..146) and
M(161); with split maxima (:mod:`setlab.extremal.splitmax`: a hyperplane bounded through its
three cells, the middle case sharpened by them too) the split proves M(147) and M(163) as well;
with the triangles and four values of t, M(148), M(160) and M(164..167) too, and it gives the
upper bound of every other M(n) it lowers (n = 149..159, 168..175, 177..181; the pencil's
cells lowered fourteen of them by 1 or 2, the count with them and sharpened after it M(151),
M(156) and M(157) by 1, 2 and 1).
"""

from __future__ import annotations

import functools
import itertools
import math
import time
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numba as nb
import numpy as np

from setlab.cards import deck_size
from setlab.errors import SetlabError
from setlab.executor import run_tasks
from setlab.extremal.arrangements import arrangement_certificate
from setlab.extremal.bounds import (
    SliceProgram,
    forced_types,
    prove_max_bound,
    slice_maxima,
    slice_program,
    solve_cpsat,
    solve_highs,
    verify_max_bound,
)
from setlab.extremal.identities import across_bounds, degree_bound
from setlab.extremal.splitmax import split_maximum_bound, split_table
from setlab.geometry import parallel_classes
from setlab.interrupts import ctrl_c_held
from setlab.store import Store, job_digest

__all__ = [
    "FAR_LINES",
    "MIDDLE_SPAN",
    "SHARPEN_LIMIT",
    "cells_bound",
    "cover_middle_case",
    "covers",
    "meeting_bound",
    "middle_cells",
    "middle_patterns",
    "middle_types",
    "pencil_bound",
    "pencil_maximum",
    "pencil_multipliers",
    "prove_split_bound",
    "split_bounds",
    "split_job",
    "split_jobs",
    "split_maxima_job",
    "split_task",
    "split_upper_bound",
    "two_big_hyperplanes",
    "verify_split_bound",
]

MIDDLE_SPAN = 4
"""Most values of t the middle case of :func:`split_upper_bound` takes on (each enumerates its
pencils and solves a program per pair of types). At 3, the pencils of AG(5,3) stop n = 148,
151 and 152 one top short (the pencils above theta + 3 pass the next target, those above
theta + 4 stay at most it); at 4 the middle case closes M(148) = 2461 and lowers M(151) and
M(152) by one (measured from the bounds of the table before)."""

SHARPEN_LIMIT = 150
"""Most exact split maxima (:func:`~setlab.extremal.splitmax.split_maximum_bound`) one n of
:func:`split_upper_bound` computes: each takes 0.1 to 17 s (at 40, M(154) stopped at 2719; it
needs 44 for 2718)."""

COUNT_CLASSES = 7
"""Most hyperplanes the count of big classes asks to fit (:func:`_count_refutation`): the
arrangements of seven hyperplanes of AG(5,3) are 1,460 (some 30 s with their programs), of
eight some 20 times as many."""

COUNT_LEVELS = 3
"""Levels h = c, c - 1, ... the count of big classes tries per quadruple (c: row 0's cards)."""

COUNT_PROGRAMS = 80
"""Most programs the count of big classes refutes for one threshold of the split, over all t
(each its own certificate): a pair of row and column types counts once for all its quadruples.
n = 150 of AG(5,3) needs 26 for 2545 and n = 157 30 for 2864; n = 149 reaches 2504 when each
target is sharpened before it is counted (:func:`split_upper_bound`)."""

INTEGER_FIRST_SECONDS = 2.0
"""CP-SAT's time for an integer verdict before HiGHS is asked instead: a forced program's
(:func:`_forced_infeasible`; at n = 157 of AG(5,3) CP-SAT decides in under 5 s the 42 integer
programs that took HiGHS 46.9 s), a threshold's of :meth:`_Optima.below` before the optimum
answers (there CP-SAT finds the feasible ones in 0.2 to 0.5 s, where HiGHS ran out of its 1 s
for four of seven), or an optimum of :class:`_Optima` before HiGHS optimizes."""

PLANE = parallel_classes(2).reshape(12, 3).astype(np.int64)
"""The twelve lines of AG(2,3) as cells 3i + j, rows 3k..3k+2 the parallel class k. Class 0 is
the columns (j fixed), class 1 the rows (i fixed): the big hyperplanes are column 0 = cells
{0, 3, 6} and row 0 = cells {0, 1, 2}, meeting in cell 0 (AGL(2,3) maps any two lines that meet
onto these two)."""

_THROUGH = np.zeros((12, 9), dtype=np.int64)
_THROUGH[np.arange(12)[:, None], PLANE] = 1
"""Line x cell of the plane: 1 where the line (PLANE's order) holds the cell."""


def pencil_multipliers() -> np.ndarray:
    """Multipliers of the pencil's own linear program: one row per triangle of the plane.

    A triangle is three lines of AG(2,3) of three classes, not through one point (72 of the
    108 such triples). Each row is 17 integers: the weights w of the twelve lines, in the
    order of their cells as sorted triples (1 on the triangle's sides), those v of the four
    classes, in the order of their lines through cell 0 (here 0), and the denominator (2); the
    bound they give is in the module docstring, "The pencil's own linear program". Records
    list them so, and the proof bundle's checker reads them so.

    Examples
    --------
    The first: row 0 (cells 0, 1, 2), column 0 (cells 0, 3, 6) and the line through cells 1
    and 3 (and 8), the first, second and fifth lines in that order.

    >>> rows = pencil_multipliers()
    >>> rows.shape, rows[0].tolist()
    ((72, 17), [1, 1, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2])
    """
    rows = []
    for sides in itertools.combinations(range(12), 3):
        lines = [set(_LINES[side]) for side in sides]
        classes = {_LINE_CLASS[side] for side in sides}
        if len(classes) == 3 and not lines[0] & lines[1] & lines[2]:
            row = np.zeros(17, dtype=np.int64)
            row[list(sides)], row[16] = 1, 2
            rows.append(row)
    return np.array(rows)


_LINES = sorted(tuple(sorted(line)) for line in PLANE.tolist())
"""The lines of the plane in the order :func:`pencil_multipliers` writes them."""
_LINE_INDEX = [[tuple(sorted(line)) for line in PLANE.tolist()].index(line) for line in _LINES]
"""PLANE's index of each line of _LINES (its class: the index // 3)."""
_LINE_CLASS = [index // 3 for index in _LINE_INDEX]


def _coefficients(multipliers: np.ndarray) -> np.ndarray:
    """Each row of multipliers (w, v, D, as :func:`pencil_multipliers` orders them) as the
    coefficients, times D, of the bounds it weighs, in PLANE's order of lines and classes: y
    on the nine cells, z on the twelve lines' across bounds, w on their hyperplanes, v on the
    classes' across bounds (module docstring), then D."""
    classes = [_LINE_CLASS[i] for i, line in enumerate(_LINES) if 0 in line]
    w = np.zeros((len(multipliers), 12), dtype=np.int64)
    v = np.zeros((len(multipliers), 4), dtype=np.int64)
    w[:, _LINE_INDEX], v[:, classes] = multipliers[:, :12], multipliers[:, 12:16]
    d = multipliers[:, 16:]
    crossing = 1 - np.kron(np.eye(4, dtype=np.int64), np.ones((3, 1), dtype=np.int64))
    y = np.maximum(0, d - w @ _THROUGH)
    z = np.maximum(0, d - w - v @ crossing.T)  # crossing: 1 where the class is not the line's
    return np.hstack([y, z, w, v, d]).astype(np.int64)


MULTIPLIERS = _coefficients(pencil_multipliers())
"""The triangles' rows of :func:`pencil_multipliers`, expanded for the kernels (read-only)."""
MULTIPLIERS.flags.writeable = False


def _across_high(a: int, b: int, c: int, flat: int) -> int:
    return across_bounds(a, b, c, flat)[1]


def pencil_bound(
    cells: Sequence[int],
    properties: int,
    most: Sequence[int],
    most_below: Sequence[int],
    split_most: np.ndarray | None = None,
) -> int:
    """The most sets n cards can hold given their sizes in the nine cells of one pencil.

    ``cells[3i + j]`` is |S ∩ c| for the cell at (i, j) of the plane AG(P,3)/W (W of dimension
    P - 2); ``most[h]`` bounds the sets among h points of AG(P-1,3), ``most_below[s]`` among s
    points of AG(P-2,3), and ``split_most[a, b, c]``, where given, the sets among a + b + c
    points of AG(P-1,3) that meet three parallel (P-2)-flats in a, b and c points (a hyperplane
    of the pencil and its three cells). The least of the cells' bound, the four classes'
    bounds and the triangles' (:func:`pencil_multipliers`; module docstring).

    Examples
    --------
    The whole of AG(3,3): nine lines of three points and twelve planes, each crossed by the
    3 x 3 pairs of two of its lines, 9 + 12 * 9 = 117 sets; AG(4,3) likewise holds 1080.

    >>> plane = [0, 0, 0, 1, 1, 2, 3, 5, 8, 12]  # M_2(k), AG(2,3)
    >>> pencil_bound([3] * 9, 3, plane, [0, 0, 0, 1])
    117
    >>> space = [0, 0, 0, 1, 1, 2, 3, 5, 8, 12, 12, 13, 14, 16, 19, 23, 26, 30, 36, 41, 47, 54,
    ...          62, 71, 81, 92, 104, 117]  # M_3(k), Table 3 of the paper
    >>> pencil_bound([9] * 9, 4, space, plane)
    1080
    """
    below, across2, across1, hyperplane, _ = _tables(
        properties, int(sum(cells)), most, most_below, split_most
    )
    pattern = np.asarray(cells, dtype=np.int64)
    return int(_pattern_bound(pattern, PLANE, below, across2, across1, hyperplane, MULTIPLIERS, -1))


@nb.njit(cache=True)
def _pattern_bound(
    s, plane, below, across2, across1, hyperplane, weights, value
):  # pragma: no cover - compiled
    # pencil_bound of the cells s; across1[h0, h1] is the across bound of a class whose three
    # hyperplanes hold h0, h1 and n - h0 - h1 points, hyperplane[a, b, c] the most sets of a
    # hyperplane whose cells hold a, b and c points, weights the rows of MULTIPLIERS. Only
    # bounds above value matter to the caller: once the bound is at most value it is returned
    # (the multipliers' rows, the costly part, are not all tried).
    sizes = np.zeros(12, np.int64)
    across = np.zeros(12, np.int64)
    held = np.zeros(12, np.int64)
    best = 0
    for c in range(9):
        best += below[s[c]]
    for line in range(12):
        a, b, c = s[plane[line, 0]], s[plane[line, 1]], s[plane[line, 2]]
        sizes[line] = a + b + c
        across[line] = across2[a, b, c]
        held[line] = hyperplane[a, b, c]
        best += across[line]
    for k in range(4):
        within = 0
        rest = 0
        for line in range(12):
            if line // 3 == k:
                within += held[line]
            else:
                rest += across[line]
        bound = within + min(across1[sizes[3 * k], sizes[3 * k + 1]], rest)
        if bound < best:
            best = bound
    # Each row of weights bounds D L by a sum of the bounds above, D its last entry.
    for r in range(weights.shape[0]):
        if best <= value:
            break
        total = 0
        for c in range(9):
            total += weights[r, c] * below[s[c]]
        for line in range(12):
            total += weights[r, 9 + line] * across[line] + weights[r, 21 + line] * held[line]
        for k in range(4):
            total += weights[r, 33 + k] * across1[sizes[3 * k], sizes[3 * k + 1]]
        bound = total // weights[r, 37]
        if bound < best:
            best = bound
    return best


@nb.njit(cache=True)
def _classes_allowed(s, plane, allowed):  # pragma: no cover - compiled
    # True when the two diagonal classes (lines 6..8, 9..11) have allowed types.
    for k in (2, 3):
        h0 = s[plane[3 * k, 0]] + s[plane[3 * k, 1]] + s[plane[3 * k, 2]]
        h1 = s[plane[3 * k + 1, 0]] + s[plane[3 * k + 1, 1]] + s[plane[3 * k + 1, 2]]
        if not allowed[h0, h1]:
            return False
    return True


@nb.njit(cache=True)
def _held_with_part(hyperplane):  # pragma: no cover - compiled
    # by_part[h, a]: the most of hyperplane[a, b, c] over b + c = h - a, the bound of a
    # hyperplane of h points whose first cell holds a points; -1 where there is none.
    side = hyperplane.shape[0]
    by_part = np.full((3 * side - 2, side), -1, np.int64)
    for a in range(side):
        for b in range(side):
            for c in range(side):
                held = hyperplane[a, b, c]
                if held > by_part[a + b + c, a]:
                    by_part[a + b + c, a] = held
    return by_part


@nb.njit(cache=True)
def _cell_patterns(
    rows, columns, top, floor, across1, hyperplane, by_part, out, first=-1
):  # pragma: no cover - compiled
    # Every nine cell sizes in [0, top] whose rows hold rows[0..2] and columns columns[0..2]
    # points and whose row class and column class may each hold more than floor sets, into
    # out, cell 0 at most first where first >= 0; returns how many. Cells 0, 1, 3, 4 fix the
    # other five.
    #
    # The pruning rule. A class holds at most the sets inside its three hyperplanes, each at
    # most hyperplane[its cells], plus its across bound across1 (the class bound of
    # _pattern_bound without its min), so a pattern whose rows or columns add up to at most
    # floor this way has a bound of at most floor. Row 0 (cells 0, 1, 2) is known with s0, s1
    # and column 0 (cells 0, 3, 6) with s3; the other rows and columns each hold a known cell
    # by then (s3 in row 1, s6 in row 2, s1 in column 1, s2 in column 2), so by_part[h, known
    # cell] bounds them, and when that sum is at most floor no s4 is tried. With s4 every cell
    # is known and the sums are exact.
    row0, r1, r2 = rows[0], rows[1], rows[2]
    c0, c1, c2 = columns[0], columns[1], columns[2]
    across_rows, across_columns = across1[row0, r1], across1[c0, c1]
    k = 0
    last = min(top, row0, c0) if first < 0 else min(top, row0, c0, first)
    for s0 in range(max(0, row0 - 2 * top, c0 - 2 * top), last + 1):
        for s1 in range(max(0, row0 - s0 - top), min(top, row0 - s0, c1) + 1):
            s2 = row0 - s0 - s1
            row_0 = hyperplane[s0, s1, s2] + across_rows
            for s3 in range(max(0, c0 - s0 - top), min(top, c0 - s0, r1) + 1):
                s6 = c0 - s0 - s3
                if s6 > r2:
                    continue
                column_0 = hyperplane[s0, s3, s6] + across_columns
                if row_0 + by_part[r1, s3] + by_part[r2, s6] <= floor:
                    continue
                if column_0 + by_part[c1, s1] + by_part[c2, s2] <= floor:
                    continue
                for s4 in range(0, min(top, r1 - s3, c1 - s1) + 1):
                    s5 = r1 - s3 - s4
                    s7 = c1 - s1 - s4
                    s8 = r2 - s6 - s7
                    if s5 > top or s7 > top or s7 > r2 - s6 or s8 > top:
                        continue
                    if s2 + s5 + s8 != c2:
                        continue
                    if row_0 + hyperplane[s3, s4, s5] + hyperplane[s6, s7, s8] <= floor:
                        continue
                    if column_0 + hyperplane[s1, s4, s7] + hyperplane[s2, s5, s8] <= floor:
                        continue
                    out[k, 0], out[k, 1], out[k, 2], out[k, 3], out[k, 4] = s0, s1, s2, s3, s4
                    out[k, 5], out[k, 6], out[k, 7], out[k, 8] = s5, s6, s7, s8
                    k += 1
    return k


@nb.njit(cache=True)
def _largest(
    n,
    row0,
    col_low,
    col_high,
    floor,
    cutoff,
    allowed,
    plane,
    weights,
    below,
    across2,
    across1,
    hyperplane,
    cap,
):  # pragma: no cover - compiled
    # The largest pattern bound with row 0 holding row0 points, the most of the three rows, and
    # column 0 between col_low and col_high, the most of the three columns, every class's type
    # allowed (allowed[h0, h1]: the class whose hyperplanes hold h0, h1, n - h0 - h1); floor
    # when none exceeds floor. Margins first: a pattern's bound is at most cap[.] of its row
    # class and of its column class (the most sets inside their hyperplanes plus the most
    # across), so margins whose caps do not pass the best found so far are skipped. Returns as
    # soon as a bound passes cutoff.
    top = below.shape[0] - 1  # the most points of a cell
    best = floor
    found = np.full(9, -1, np.int64)
    # Room for every pattern of a margin pair, left unset: _cell_patterns fills the rows it
    # counts and no other row is read. Zeroing these 44 MB (AG(5,3)) on every call took most
    # of a short search.
    cells = np.empty(((top + 1) ** 4, 9), np.int64)
    by_part = _held_with_part(hyperplane)
    rows, columns = np.zeros(3, np.int64), np.zeros(3, np.int64)
    for r1 in range(max(0, n - 2 * row0), min(row0, n - row0) + 1):
        r2 = n - row0 - r1
        if r2 > row0 or not allowed[row0, r1]:
            continue
        cap_rows = cap[row0, r1]
        if cap_rows <= best:
            continue
        rows[0], rows[1], rows[2] = row0, r1, r2
        for c0 in range(col_high, col_low - 1, -1):
            for c1 in range(max(0, n - 2 * c0), min(c0, n - c0) + 1):
                c2 = n - c0 - c1
                if c2 > c0 or not allowed[c0, c1] or min(cap_rows, cap[c0, c1]) <= best:
                    continue
                columns[0], columns[1], columns[2] = c0, c1, c2
                count = _cell_patterns(
                    rows, columns, top, best, across1, hyperplane, by_part, cells
                )
                for i in range(count):
                    s = cells[i]
                    if not _classes_allowed(s, plane, allowed):
                        continue
                    value = _pattern_bound(
                        s, plane, below, across2, across1, hyperplane, weights, best
                    )
                    if value > best:
                        best = value
                        found[:] = s
                        if best > cutoff:
                            return best, found
    return best, found


@nb.njit(cache=True)
def _class_type(s, plane, k, out):  # pragma: no cover - compiled
    # The sizes of class k's three hyperplanes (lines 3k..3k+2 of the plane), largest first.
    for j in range(3):
        line = 3 * k + j
        out[j] = s[plane[line, 0]] + s[plane[line, 1]] + s[plane[line, 2]]
    out.sort()
    out[0], out[2] = out[2], out[0]


@nb.njit(cache=True)
def _middle_types(
    n, row0, t, value, allowed, diagonal, plane, weights, below, across2, across1, hyperplane,
    cap, out,
):  # pragma: no cover - compiled
    # The pencils of the split's middle case with row 0 holding row0 points (the most of the
    # rows), column 0 exactly t (the most of the columns), the diagonal classes' types in
    # diagonal (no part above t) and a bound above value: their four class types (rows,
    # columns, then the two diagonal classes in increasing order; each largest part first) and
    # then their nine cells as rows of out, 21 numbers each. Returns how many, or -1 when out
    # is too small.
    top = below.shape[0] - 1
    cells = np.empty(((top + 1) ** 4, 9), np.int64)  # unset, as in _largest
    by_part = _held_with_part(hyperplane)
    rows, columns = np.zeros(3, np.int64), np.zeros(3, np.int64)
    first, second = np.zeros(3, np.int64), np.zeros(3, np.int64)
    k = 0
    for r1 in range(max(0, n - 2 * row0), min(row0, n - row0) + 1):
        r2 = n - row0 - r1
        if r2 > row0 or not allowed[row0, r1] or cap[row0, r1] <= value:
            continue
        rows[0], rows[1], rows[2] = row0, r1, r2
        for c1 in range(max(0, n - 2 * t), min(t, n - t) + 1):
            c2 = n - t - c1
            if c2 > t or not allowed[t, c1] or cap[t, c1] <= value:
                continue
            columns[0], columns[1], columns[2] = t, c1, c2
            count = _cell_patterns(rows, columns, top, value, across1, hyperplane, by_part, cells)
            for i in range(count):
                s = cells[i]
                if not _classes_allowed(s, plane, diagonal):
                    continue
                if _pattern_bound(
                    s, plane, below, across2, across1, hyperplane, weights, value
                ) <= value:
                    continue
                if k == out.shape[0]:
                    return -1
                _class_type(s, plane, 1, first)
                out[k, 0:3] = first
                _class_type(s, plane, 0, first)
                out[k, 3:6] = first
                _class_type(s, plane, 2, first)
                _class_type(s, plane, 3, second)
                swap = False
                for j in range(3):
                    if first[j] != second[j]:
                        swap = first[j] > second[j]
                        break
                out[k, 6:9] = second if swap else first
                out[k, 9:12] = first if swap else second
                out[k, 12:21] = s
                k += 1
    return k


@functools.cache
def _across_cells(flat: int) -> np.ndarray:
    """The across bound of every three parallel slices of ``flat`` cards holding a, b and c
    points, at [a, b, c]: the same for every n, so built once per size (read-only, shared)."""
    across = np.zeros((flat + 1,) * 3, dtype=np.int64)
    for a, b, c in itertools.product(range(flat + 1), repeat=3):
        across[a, b, c] = _across_high(a, b, c, flat)
    across.flags.writeable = False
    return across


def _tables(
    properties: int,
    cards: int,
    most: Sequence[int],
    most_below: Sequence[int],
    split_most: np.ndarray | None = None,
) -> tuple[np.ndarray, ...]:
    """Arrays for the kernels: M_{P-2} bounds, the cells' across bounds, per line of the plane
    with cells a, b, c the most sets of its hyperplane (M_{P-1}(a + b + c), the cells' own bound
    M_{P-2}(a) + M_{P-2}(b) + M_{P-2}(c) + their across bound, and ``split_most[a, b, c]``
    where given, whichever is least), and per class (h0, h1) (the third size n - h0 - h1) its
    across bound and its cap (the last array: the classes that exist have a cap >= 0)."""
    flat, below = deck_size(properties - 1), deck_size(properties - 2)
    most_arr = np.asarray(most, dtype=np.int64)
    below_arr = np.asarray(most_below, dtype=np.int64)
    across2 = _across_cells(below)
    parts = np.arange(below + 1)
    sums = parts[:, None, None] + parts[None, :, None] + parts[None, None, :]
    cells_own = (
        below_arr[:, None, None] + below_arr[None, :, None] + below_arr[None, None, :] + across2
    )
    hyperplane = np.minimum(most_arr[sums], cells_own)
    if split_most is not None:
        sharper = np.asarray(split_most, dtype=np.int64)
        if sharper.shape != hyperplane.shape:
            raise SetlabError(f"split_most must have shape {hyperplane.shape}")
        hyperplane = np.minimum(hyperplane, sharper)
    across1, cap = (table.copy() for table in _class_caps(flat, cards, tuple(most_arr.tolist())))
    return below_arr, across2, across1, hyperplane, cap


@functools.lru_cache(maxsize=64)
def _class_caps(flat: int, cards: int, most: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray]:
    """Per class (h0, h1) of ``cards`` cards (the third size n - h0 - h1) its across bound and
    its cap, -1 where no such class exists: :func:`_tables`' last two arrays, which depend on n
    and M_{P-1} alone, made once for the many pencils of one n (read-only, shared)."""
    across1 = np.full((flat + 1, flat + 1), -1, dtype=np.int64)
    cap = np.full((flat + 1, flat + 1), -1, dtype=np.int64)
    for h0 in range(flat + 1):
        for h1 in range(flat + 1):
            h2 = cards - h0 - h1
            if 0 <= h2 <= flat:
                across1[h0, h1] = _across_high(h0, h1, h2, flat)
                cap[h0, h1] = most[h0] + most[h1] + most[h2] + across1[h0, h1]
    across1.flags.writeable = cap.flags.writeable = False
    return across1, cap


def pencil_maximum(
    properties: int,
    cards: int,
    most: Sequence[int],
    most_below: Sequence[int],
    rows: tuple[int, int],
    columns: tuple[int, int],
    refuted: Sequence[tuple[int, int, int]] = (),
    floor: int = -1,
    cutoff: int | None = None,
    split_most: np.ndarray | None = None,
) -> tuple[int, list[int] | None]:
    """The largest :func:`pencil_bound` over the pencils of two classes that meet as given.

    Row 0 (cells 0, 1, 2) is the largest hyperplane of its class and holds between ``rows[0]``
    and ``rows[1]`` cards; column 0 (cells 0, 3, 6), the largest of its class, between
    ``columns[0]`` and ``columns[1]``; no class of the pencil has a type in ``refuted`` (sorted
    triples of hyperplane sizes, proven impossible in the case at hand).

    Parameters
    ----------
    properties, cards
        P and n.
    most, most_below
        Upper bounds on M_{P-1}(h), h = 0..3^(P-1), and on M_{P-2}(s), s = 0..3^(P-2).
    rows, columns
        Ranges (inclusive) of the sizes of row 0 and column 0.
    refuted
        Class types no class of the pencil may have.
    floor
        Only bounds above ``floor`` are sought: the answer is exact when it exceeds ``floor``,
        and at most ``floor`` (with no pattern) when no pattern does. Pruning needs it.
    cutoff
        Stop at the first bound above ``cutoff`` (then the answer is such a bound, not the
        largest): enough to learn that the largest passes it.
    split_most
        Sharper bounds on a hyperplane given its three cells, as :func:`pencil_bound` takes.

    Returns
    -------
    (int, list of int or None)
        The largest bound and a pattern reaching it (nine cell sizes, cell 3i + j).

    Examples
    --------
    Twelve points of AG(3,3) with two planes of six or more hold at most 14 sets (M_3(12) = 14,
    reached by a full plane, row 0, with three more points); two full planes would meet in a
    line and hold 15 points, so there is no pattern with both at 9:

    >>> plane = [0, 0, 0, 1, 1, 2, 3, 5, 8, 12]  # M_2(k)
    >>> pencil_maximum(3, 12, plane, [0, 0, 0, 1], (6, 9), (6, 9))
    (14, [3, 3, 3, 1, 0, 0, 2, 0, 0])
    >>> pencil_maximum(3, 12, plane, [0, 0, 0, 1], (9, 9), (9, 9))
    (-1, None)
    """
    flat = deck_size(properties - 1)
    if properties < 3 or not 0 <= cards <= deck_size(properties):
        raise SetlabError(f"pencils need P >= 3 and 0 <= n <= 3^P, got P = {properties}")
    if len(most) != flat + 1 or len(most_below) != deck_size(properties - 2) + 1:
        raise SetlabError("most and most_below must cover every size of AG(P-1,3), AG(P-2,3)")
    tables = _tables(properties, cards, most, most_below, split_most)
    allowed = tables[-1] >= 0  # the sizes (h0, h1, n - h0 - h1) of some class
    for a, b, c in refuted:
        for h0, h1, _ in itertools.permutations((a, b, c)):
            allowed[h0, h1] = False
    low, high = max(0, columns[0]), min(flat, columns[1])
    # Transposing the plane, (i, j) -> (j, i), swaps rows and columns and keeps the diagonal
    # directions, so it keeps every bound: with equal ranges, column 0 <= row 0 suffices.
    symmetric = tuple(rows) == tuple(columns)
    stop = 10**18 if cutoff is None else cutoff
    best, found = floor, None
    for row0 in range(min(flat, rows[1]), max(0, rows[0]) - 1, -1):  # a compiled call per size
        top = min(high, row0) if symmetric else high
        with ctrl_c_held():
            value, pattern = _largest(cards, row0, low, top, best, stop, allowed, PLANE,
                                      MULTIPLIERS, *tables)  # fmt: skip
        if value > best:
            best, found = int(value), [int(c) for c in pattern]
            if best > stop:
                break
    return best, found


def two_big_hyperplanes(
    properties: int,
    cards: int,
    theta: int,
    most: Sequence[int],
    most_below: Sequence[int],
    floor: int = -1,
    cutoff: int | None = None,
    split_most: np.ndarray | None = None,
) -> tuple[int, list[int] | None]:
    """The largest :func:`pencil_bound` when two classes have hyperplanes of more than theta
    cards: :func:`pencil_maximum` with row 0 and column 0 above theta.

    Examples
    --------
    >>> two_big_hyperplanes(3, 12, 5, [0, 0, 0, 1, 1, 2, 3, 5, 8, 12], [0, 0, 0, 1])[0]
    14
    """
    flat = deck_size(properties - 1)
    span = (theta + 1, flat)
    return pencil_maximum(
        properties, cards, most, most_below, span, span, floor=floor, cutoff=cutoff,
        split_most=split_most,
    )  # fmt: skip


def middle_types(
    properties: int,
    cards: int,
    t: int,
    most: Sequence[int],
    most_below: Sequence[int],
    value: int,
    split_most: np.ndarray | None = None,
) -> list[tuple[tuple[int, int, int], ...]]:
    """The class types of the pencils of the split's middle case whose bound exceeds ``value``.

    The middle case: t is the second largest of the class maxima (the largest hyperplane of
    each parallel class). Row 0 is the largest hyperplane of a class of largest maximum (t or
    more cards), column 0 the largest of a class of maximum t, and the two diagonal classes of
    their pencil, classes other than the row's, have no hyperplane above t. For each such
    pattern of nine cell sizes with :func:`pencil_bound` above ``value`` this lists the types
    (hyperplane sizes, largest first) of its four classes: rows, columns, then the diagonal
    classes in increasing order; each distinct quadruple once, sorted. ``split_most`` is as
    :func:`pencil_bound` takes it.

    Examples
    --------
    Twelve points of AG(3,3) with 14 sets or more where every class but one has planes of at
    most 6 points: the pencils allow it only around a full plane (rows 9, 2, 1).

    >>> plane = [0, 0, 0, 1, 1, 2, 3, 5, 8, 12]  # M_2(k)
    >>> middle_types(3, 12, 6, plane, [0, 0, 0, 1], 13)
    [((9, 2, 1), (6, 3, 3), (5, 4, 3), (5, 4, 3))]
    >>> middle_types(3, 12, 8, plane, [0, 0, 0, 1], 13)
    []
    """
    found = _middle_pencils(properties, cards, t, most, most_below, value, split_most)
    return [_quadruple(row) for row in _distinct_rows(found[:, :12])[0]]


def middle_patterns(
    properties: int,
    cards: int,
    t: int,
    most: Sequence[int],
    most_below: Sequence[int],
    value: int,
    split_most: np.ndarray | None = None,
    quads: Sequence[tuple[tuple[int, int, int], ...]] | None = None,
) -> list[list[int]]:
    """The cell sizes of the pencils :func:`middle_types` lists the types of (``cells[3i + j]``
    at (i, j) of the plane, as :func:`pencil_bound` takes them): those of the quadruples
    ``quads`` only, when given. The split sharpens the split maxima of their hyperplanes where
    a quadruple's program is not refuted.

    Examples
    --------
    The pencils behind the quadruple of :func:`middle_types`' example: row 0 (cells 0, 1, 2)
    is the full plane, and column 0 (cells 0, 3, 6) holds the other three points too.

    >>> plane = [0, 0, 0, 1, 1, 2, 3, 5, 8, 12]  # M_2(k)
    >>> middle_patterns(3, 12, 6, plane, [0, 0, 0, 1], 13)
    [[3, 3, 3, 1, 0, 0, 2, 0, 0], [3, 3, 3, 2, 0, 0, 1, 0, 0]]
    """
    found = _middle_pencils(properties, cards, t, most, most_below, value, split_most)
    wanted = None if quads is None else set(quads)
    patterns = {
        tuple(int(v) for v in row[12:])
        for row in found
        if wanted is None or _quadruple(row) in wanted
    }
    return [list(cells) for cells in sorted(patterns)]


def _far_lines() -> np.ndarray:
    """(6, 12): for each two classes of the plane, 1 on their four lines that miss cell 0."""
    rows = []
    for pair in itertools.combinations(range(4), 2):
        rows.append([int(line // 3 in pair and 0 not in PLANE[line]) for line in range(12)])
    return np.array(rows, dtype=np.int64)


FAR_LINES = _far_lines()


def cells_bound(
    patterns: np.ndarray, tables: tuple[np.ndarray, ...], threshold: int
) -> np.ndarray:
    """The most lines inside the nine cells of each pattern (rows of cell sizes) when its
    pencil holds ``threshold`` lines or more; ``tables`` as :func:`_tables` makes them.

    I = sum_c I(c) is at most sum_c M_{P-2}(s_c). And L >= threshold bounds it more: take two
    classes of the plane and their four lines that miss cell 0 (:data:`FAR_LINES`). Each such
    line's hyperplane holds its cells' inside lines and its across lines, at most H_l; the
    other eight lines' across lines number at most A_l; and the cells the four lines miss or
    meet once are counted twice or once more by M_{P-2}. Every inside line is then counted at
    least twice and every across line once, so 2 I + X <= R, and with I + X = L >= threshold,
    I <= R - threshold. On the patterns the middle case of AG(5,3) leaves at n = 177 and 178
    the least of the six such bounds is the pencil's linear program's own maximum of I.

    Examples
    --------
    A full plane of AG(3,3) as row 0, its cells three lines of AG(1,3): of its 12 lines 3 lie
    inside cells.

    >>> plane = [0, 0, 0, 1, 1, 2, 3, 5, 8, 12]
    >>> tables = _tables(3, 9, plane, [0, 0, 0, 1])
    >>> cells_bound(np.array([[3, 3, 3, 0, 0, 0, 0, 0, 0]]), tables, 12).tolist()
    [3]
    """
    below, across2, _, hyperplane, _ = tables
    twice = np.maximum(0, 2 - FAR_LINES @ _THROUGH)  # (6, 9): M_{P-2} again for each cell
    out = np.empty(len(patterns), dtype=np.int64)
    for at in range(0, len(patterns), 1 << 15):  # a chunk of patterns at a time: memory
        cells = np.asarray(patterns[at : at + (1 << 15)], dtype=np.int64)
        parts = cells[:, PLANE]
        across = across2[parts[..., 0], parts[..., 1], parts[..., 2]]
        held = hyperplane[parts[..., 0], parts[..., 1], parts[..., 2]]
        inside = below[cells]
        rows = inside @ twice.T + across @ (1 - FAR_LINES).T + held @ FAR_LINES.T - threshold
        out[at : at + len(cells)] = np.minimum(inside.sum(axis=1), rows.min(axis=1))
    return np.maximum(out, 0)


_Cells = Mapping[tuple[tuple[int, ...], ...], int]
"""A bound on the lines inside the cells of the pencils of each multiset of class types."""


def middle_cells(
    properties: int,
    cards: int,
    t: int,
    most: Sequence[int],
    most_below: Sequence[int],
    value: int,
    split_most: np.ndarray | None = None,
) -> dict[tuple[tuple[int, ...], ...], int]:
    """For each multiset of class types :func:`middle_types` lists (as :func:`_kinds` writes
    it), the most lines the nine cells of its pencils can hold: the largest
    :func:`cells_bound` over the patterns past ``value`` of those types.

    The program of a quadruple forces the four types of one pencil; with this bound I on the
    lines inside its cells the four classes hold at most 3 I + L lines inside their
    hyperplanes (:func:`~setlab.extremal.bounds.slice_program`'s ``cells``), where the program
    alone allows each type its M_{P-1} bounds: at n = 177 of AG(5,3) the one quadruple the
    middle case leaves at t = 73 for 3919 sets, ((73, 53, 51), (73, 53, 51), (61, 59, 57),
    (61, 61, 55)), has cells of at most 467 lines, and the four classes 3 * 467 + L where the
    types allow 5384 - L; its program is then infeasible.

    Examples
    --------
    The pencils of :func:`middle_types`' example, past 13 lines: row 0 a full plane.

    >>> plane = [0, 0, 0, 1, 1, 2, 3, 5, 8, 12]  # M_2(k)
    >>> middle_cells(3, 12, 6, plane, [0, 0, 0, 1], 13)
    {((5, 4, 3), (5, 4, 3), (6, 3, 3), (9, 2, 1)): 3}
    """
    found = _middle_pencils(properties, cards, t, most, most_below, value, split_most)
    tables = _tables(properties, cards, most, most_below, split_most)
    held = cells_bound(found[:, 12:], tables, value + 1)
    sizes, where = _distinct_rows(found[:, :12])
    most_held = np.zeros(len(sizes), dtype=np.int64)
    np.maximum.at(most_held, where, held)
    out: dict[tuple[tuple[int, ...], ...], int] = {}
    for row, value_held in zip(sizes, most_held.tolist(), strict=True):
        kinds = _kinds(_quadruple(row))
        out[kinds] = max(out.get(kinds, 0), value_held)
    return dict(sorted(out.items()))


def meeting_bound(
    properties: int,
    cards: int,
    value: int,
    low: int,
    ceiling: int,
    most: Sequence[int],
    most_below: Sequence[int],
    split_most: np.ndarray | None = None,
) -> int | None:
    """The fewest cards two largest hyperplanes of ``low`` to ``ceiling`` cards, of two
    classes of a configuration with more than ``value`` sets and no hyperplane above
    ``ceiling``, share; None when no two such classes exist.

    Any two classes of S form a pencil: the rows the one class, row 0 its largest hyperplane
    H, the columns the other, column 0 its largest H', and the two diagonal classes have no
    hyperplane above ``ceiling`` either. Its :func:`pencil_bound` is at least the sets of S,
    so some pattern of the two classes' types passes ``value``, and H ∩ H' is its cell 0. So
    the least cell 0 over every such pattern, either class the rows, bounds |S ∩ H ∩ H'|.

    Examples
    --------
    Twelve points of AG(3,3) with 13 sets or more: the largest planes of two classes with a
    plane of 6 to 9 points share 3 points or more, and no two classes have their largest
    planes of exactly 6.

    >>> plane, line = [0, 0, 0, 1, 1, 2, 3, 5, 8, 12], [0, 0, 0, 1]  # M_2(k), M_1(k)
    >>> meeting_bound(3, 12, 12, 6, 9, plane, line), meeting_bound(3, 12, 12, 6, 6, plane, line)
    (3, None)
    """
    tables = _tables(properties, cards, most, most_below, split_most)
    cap = tables[-1]
    allowed = np.zeros_like(cap, dtype=bool)  # classes with no hyperplane above the ceiling
    for h0, h1 in zip(*np.nonzero(cap >= 0), strict=True):
        allowed[h0, h1] = max(h0, h1, cards - h0 - h1) <= ceiling
    with ctrl_c_held():
        least = _least_meeting(cards, value, low, ceiling, allowed, PLANE, MULTIPLIERS, *tables)
    return None if least < 0 else int(least)


@nb.njit(cache=True)
def _least_meeting(
    n, value, low, ceiling, allowed, plane, weights, below, across2, across1, hyperplane, cap
):  # pragma: no cover - compiled
    # meeting_bound's search: the least cell 0 over the patterns of two classes of allowed
    # types (allowed[h0, h1]: no part above the ceiling), each with its largest part, row 0
    # and column 0, between low and the ceiling, whose bound passes value; -1 when there is
    # none. A class whose cap (the most sets inside its hyperplanes plus across) is at most
    # value cannot be either, and a pattern whose cell 0 is not below the least found so far
    # cannot lower it, so its bound is not formed.
    top = below.shape[0] - 1
    cells = np.empty(((top + 1) ** 4, 9), np.int64)  # unset, as in _largest
    by_part = _held_with_part(hyperplane)
    margins = np.zeros(((ceiling + 1) ** 2, 3), np.int64)
    m = 0
    for a in range(low, ceiling + 1):
        for b in range(a + 1):
            c = n - a - b
            if 0 <= c <= a and allowed[a, b] and cap[a, b] > value:
                margins[m, 0], margins[m, 1], margins[m, 2] = a, b, c
                m += 1
    least = -1
    for i in range(m):
        for j in range(m):
            if least == 0:
                return least
            count = _cell_patterns(margins[i], margins[j], top, value, across1, hyperplane,
                                   by_part, cells, least - 1)  # fmt: skip
            for k in range(count):
                s = cells[k]
                if least >= 0 and s[0] >= least:
                    continue
                if not _classes_allowed(s, plane, allowed):
                    continue
                if _pattern_bound(
                    s, plane, below, across2, across1, hyperplane, weights, value
                ) > value:
                    least = s[0]
    return least


def _quadruple(row: np.ndarray) -> tuple[tuple[int, int, int], ...]:
    """The four class types of one row of :func:`_middle_pencils`."""
    return tuple((int(a), int(b), int(c)) for a, b, c in row[:12].reshape(4, 3))


def _middle_pencils(
    properties: int,
    cards: int,
    t: int,
    most: Sequence[int],
    most_below: Sequence[int],
    value: int,
    split_most: np.ndarray | None = None,
) -> np.ndarray:
    """The distinct rows of the kernel :func:`_middle_types` over every size of row 0: four
    class types and nine cells per pencil of the middle case at t past ``value``; from
    :data:`_PENCILS` where it has them or rows they are among."""
    tables = _tables(properties, cards, most, most_below, split_most)
    hyperplane = tables[3]
    case = (properties, cards, t, tuple(map(int, most)), tuple(map(int, most_below)), value)
    kept = _PENCILS.pop(case, [])
    _PENCILS[case] = kept  # the newest case last
    for looser, rows in kept:
        if np.array_equal(looser, hyperplane):
            return rows
    rows = next((rows for looser, rows in kept if (hyperplane <= looser).all()), None)
    if rows is not None:  # a sharper table: those of its rows that still pass
        with ctrl_c_held():
            found = rows[_passing(rows[:, 12:], value, PLANE, MULTIPLIERS, *tables[:4])]
    else:
        found = _enumerate_middle(cards, t, value, tables)
    found.flags.writeable = False  # kept, and handed out again
    kept.insert(0, (hyperplane, found))
    del kept[_KEPT_TABLES:]
    while len(_PENCILS) > 1 and _kept_bytes() > _KEPT_BYTES:  # the oldest case goes
        del _PENCILS[next(iter(_PENCILS))]
    return found


def _kept_bytes() -> int:
    """The bytes of the rows :data:`_PENCILS` keeps."""
    return sum(rows.nbytes for kept in _PENCILS.values() for _, rows in kept)


def _enumerate_middle(cards: int, t: int, value: int, tables: tuple[np.ndarray, ...]) -> np.ndarray:
    """:func:`_middle_pencils` by the kernel, row 0 size by size."""
    flat = tables[-1].shape[0] - 1
    small = np.min_scalar_type(flat)  # the rows kept as bytes where sizes fit
    if not 0 <= t <= flat:
        return np.zeros((0, 21), dtype=small)
    allowed = tables[-1] >= 0
    diagonal = allowed.copy()
    for h0, h1 in itertools.product(range(flat + 1), repeat=2):
        diagonal[h0, h1] &= max(h0, h1, cards - h0 - h1) <= t
    found = [np.zeros((0, 21), dtype=small)]
    out = np.zeros((1 << 16, 21), dtype=np.int64)
    for row0 in range(t, min(flat, cards) + 1):
        while True:
            with ctrl_c_held():
                count = _middle_types(cards, row0, t, value, allowed, diagonal, PLANE,
                                      MULTIPLIERS, *tables, out)  # fmt: skip
            if count >= 0:
                break
            out = np.zeros((2 * len(out), 21), dtype=np.int64)
        found.append(_distinct_rows(out[:count].astype(small))[0])
    return np.concatenate(found)


def _distinct_rows(rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``np.unique(rows, axis=0, return_inverse=True)``: the distinct rows in lexicographic
    order and where each row went, sooner for rows of bytes (as the middle case keeps them).

    A row of bytes, padded with zeros and read as big-endian 64-bit words, sorts as the bytes
    do, so the rows are sorted by their few words. numpy sorts them as records of single bytes,
    some ten times as slowly (a million rows of 12 bytes, the middle case's class types: 1.9 s
    against 0.17 s; of 21 bytes, types and cells: 2.7 s against 0.47 s), and n = 154 of AG(5,3)
    spent 27 s of its split there (438 s under a profiler).

    Examples
    --------
    >>> rows = np.array([[2, 0], [1, 9], [2, 0], [1, 3]], dtype=np.uint8)
    >>> distinct, where = _distinct_rows(rows)
    >>> distinct.tolist(), where.tolist()
    ([[1, 3], [1, 9], [2, 0]], [2, 1, 2, 0])
    """
    if rows.dtype != np.uint8:  # sizes past 255 (P >= 7): numpy's own
        distinct, where = np.unique(rows, axis=0, return_inverse=True)
        return distinct, where.ravel()
    count, width = rows.shape
    padded = np.zeros((count, -(-width // 8) * 8), dtype=np.uint8)
    padded[:, :width] = rows
    words = padded.view(">u8")
    order = np.lexsort(words.T[::-1])  # the first word the primary key
    ordered = words[order]
    first = np.ones(count, dtype=bool)  # the first of its run of equal rows
    first[1:] = (ordered[1:] != ordered[:-1]).any(axis=1)
    where = np.empty(count, dtype=np.intp)
    where[order] = np.cumsum(first) - 1
    return rows[order[first]], where


# The walk of split_upper_bound meets the same middle case again and again: each top the
# sharpening tries runs t = theta + 1, theta + 2, ... anew, the count of big classes walks the
# case again after each pair it refutes, and the count follows the sharpening at the same
# target. And where the split maxima were sharpened in between, the pencils past the value are
# among those of the looser table: a pattern's bound does not grow as a hyperplane's bound
# shrinks (its multipliers are nonnegative), and the kernel's pruning only drops patterns at
# most the value. So the process keeps each case's rows for the last few tables
# (_KEPT_TABLES; a table's effective hyperplane bounds, at most those of the table kept, say
# which rows to filter), as bytes (sizes up to 3^(P-1) <= 255 for P <= 6), and the newest
# cases while they take at most _KEPT_BYTES (n = 152 of AG(5,3) has 1.1 million rows at t =
# 66, 2.3 million at t = 65).
_PENCILS: dict[tuple[Any, ...], list[tuple[np.ndarray, np.ndarray]]] = {}
_KEPT_TABLES = 3
_KEPT_BYTES = 1 << 27


@nb.njit(cache=True)
def _passing(
    patterns, value, plane, weights, below, across2, across1, hyperplane
):  # pragma: no cover - compiled
    # Which patterns' bounds pass value (the patterns as bytes, each copied to integers).
    passing = np.zeros(patterns.shape[0], np.bool_)
    s = np.zeros(9, np.int64)
    for i in range(patterns.shape[0]):
        s[:] = patterns[i]
        passing[i] = _pattern_bound(
            s, plane, below, across2, across1, hyperplane, weights, value
        ) > value
    return passing


def _tables_for(
    properties: int, known_max: dict[int, int], known_below: dict[int, int]
) -> tuple[list[int], list[int]]:
    """Bounds on M_{P-1}(h) and M_{P-2}(s): the proven values, else the degree bound."""
    return slice_maxima(properties, known_max), slice_maxima(properties - 1, known_below)


class _Optima:
    """The largest L when at most one class has a hyperplane of more than theta cards, by
    theta, each solved once: -1 when no profile is left, None when no solver decides within
    its time limit. It does not decrease with theta (a larger theta admits more profiles).

    The bisection of :meth:`largest_below` asks only whether the optimum is below a threshold,
    a feasibility question (is L >= threshold possible?) answered much sooner than the
    optimum is found: at n = 153 of AG(5,3), 24 of 27 verdicts in 0.01 to 0.43 s against up to
    14 s for an optimum (docs/bounds.md, "Verdicts for the bisection"). :meth:`below` asks
    those questions (:meth:`_verdict`: the LP relaxation, then CP-SAT); the walk of
    :func:`split_upper_bound` still asks for exact optima, its floors.
    """

    def __init__(self, properties: int, cards: int, known_max: dict[int, int]) -> None:
        self.properties, self.cards, self.known_max = properties, cards, known_max
        self.high = degree_bound(properties, cards)
        self.seen: dict[int, int | None] = {}
        self.refuted: dict[int, int] = {}  # theta -> a threshold L >= which is infeasible
        self.attained: dict[int, int] = {}  # theta -> an L the program admits

    def _program(self, theta: int, low: int = 0) -> SliceProgram:
        return slice_program(
            self.properties, self.cards, low, self.high, self.known_max, None, theta
        )

    def __call__(self, theta: int) -> int | None:
        """The optimum at theta: CP-SAT's (it proves one in 0.46 to 0.7 s at n = 149 and 157
        of AG(5,3), where HiGHS took 1.2 to 20 s), HiGHS's where CP-SAT does not decide within
        :data:`INTEGER_FIRST_SECONDS`."""
        if theta not in self.seen:
            program = self._program(theta)
            status, best, _ = solve_cpsat(program, 1, seconds=INTEGER_FIRST_SECONDS)
            if status == "unknown":
                status, best, _ = solve_highs(program, 1)
            if status == "infeasible":
                self.seen[theta] = -1
            elif status == "optimal" and best is not None:
                self.seen[theta] = best
            else:
                self.seen[theta] = None
        return self.seen[theta]

    def below(self, theta: int, threshold: int) -> bool | None:
        """Whether the optimum at theta is below ``threshold``, None when no solver decides.

        What is known settles it first, since the optimum does not decrease with theta: an
        optimum below the threshold, or a refuted threshold at most it, at theta or above says
        below; an optimum or an admitted L reaching it, at theta or below, says not below.
        Else the solvers decide L >= threshold (:meth:`_verdict`): infeasible, below; feasible,
        not below.
        """
        optima = [(t, v) for t, v in self.seen.items() if v is not None]
        if (
            threshold > self.high
            or any(t >= theta and v < threshold for t, v in optima)
            or any(t >= theta and r <= threshold for t, r in self.refuted.items())
        ):
            return True
        if any(t <= theta and v >= threshold for t, v in [*optima, *self.attained.items()]):
            return False
        verdict = self._verdict(theta, threshold)
        if verdict is True:
            self.refuted[theta] = min(threshold, self.refuted.get(theta, threshold))
        elif verdict is False:
            self.attained[theta] = max(threshold, self.attained.get(theta, threshold))
        return verdict

    def _verdict(self, theta: int, threshold: int) -> bool | None:
        """L >= threshold at theta: True when infeasible, False when feasible.

        As for the forced programs (:func:`_forced_infeasible`), the LP relaxation is asked
        first: infeasible there, infeasible. Where it is feasible, CP-SAT looks for an integer
        point, which HiGHS is slow to find (most often at the optimum itself), and the L it
        finds is kept as admitted. Where CP-SAT does not decide within
        :data:`INTEGER_FIRST_SECONDS`, the optimum answers instead, for every threshold at
        theta. At n = 157 of AG(5,3) the relaxation refuted every threshold found
        infeasible (11 ms each, against 10 to 60 ms for HiGHS's integer verdict), and CP-SAT
        found the other seven feasible in 0.2 to 0.5 s each, where HiGHS ran out of its 1 s
        for four and optimized them (1.2 to 9.7 s each).
        """
        program = self._program(theta, threshold)
        if solve_highs(program, relaxed=True)[0] == "infeasible":
            return True
        status, found, _ = solve_cpsat(program, seconds=INTEGER_FIRST_SECONDS)
        if status == "infeasible":
            return True
        if status == "feasible" and found is not None:
            self.attained[theta] = max(found, self.attained.get(theta, found))
            return False
        best = self(theta)
        return None if best is None else best < threshold

    def largest_below(self, threshold: int) -> int | None:
        """The largest theta whose optimum is known below ``threshold`` (bisection), or None.

        Below n/3 - 1 every class has a hyperplane above theta, so the search starts there.
        The optimum does not decrease with theta, so an undecided middle is settled by the
        first decided theta above it: below the threshold there, below it at the middle too.
        When every theta up to the top is undecided, the top comes down to the middle: the
        split cannot use a theta whose program no solver decides.
        """
        low = self.cards // 3 - 1
        top = min(self.cards, deck_size(self.properties - 1))  # above it no part is big
        if not self.below(low, threshold):
            return None
        while top - low > 1:  # invariant: known below threshold at low, unused from top on
            middle = (low + top) // 2
            verdicts = ((t, self.below(t, threshold)) for t in range(middle, top))
            decided = next(((t, v) for t, v in verdicts if v is not None), None)
            if decided is None:
                top = middle
            elif decided[1]:
                low = decided[0]
            else:  # not below at decided; middle..decided-1 are undecided: unusable
                top = middle
        return low


def prove_split_bound(
    properties: int,
    cards: int,
    threshold: int,
    known_max: dict[int, int],
    known_below: dict[int, int],
    theta: int | None = None,
    top: int | None = None,
) -> dict[str, Any] | None:
    """Proof record refuting "some n cards of AG(P,3) hold >= threshold sets" by the split.

    Let t be the second largest of the class maxima (the largest hyperplane of each parallel
    class). Three cases, for theta <= top:

    * t <= theta, at most one class has a hyperplane above theta: the slice program with that
      row is infeasible for L >= threshold (HiGHS and CP-SAT, :func:`~setlab.extremal.bounds.
      prove_max_bound` with ``big``);
    * t > top, two classes have hyperplanes above top: :func:`two_big_hyperplanes` stays below
      threshold;
    * theta < t <= top, the middle case: every pencil of :func:`middle_types` past threshold - 1
      names four class types, and the program with big = t and those types forced (or its row
      and column types alone) is infeasible.

    The program is refuted more easily for smaller theta and the pencils for larger, so without
    a given ``theta`` the largest theta the program refutes is found by bisection (HiGHS alone);
    ``top`` defaults to theta (no middle case).

    Parameters
    ----------
    properties, cards, threshold
        P, n and the sets refuted (every count >= threshold).
    known_max, known_below
        Proven M_{P-1}(k) and M_{P-2}(k) (missing k: the degree bound).
    theta, top
        The thresholds of the cases, or None: theta searched for, top = theta.

    Returns
    -------
    dict or None
        ``{"method": "split", "claim": "max <= threshold-1", "theta", "program": <the slice-ilp
        record>, "pencil": {"theta": top, "largest", "pattern", "known_below"}, "middle": [<the
        slice-ilp records of the middle case, each with "big" t and "forced" types>], ...}``, or
        None.

    Examples
    --------
    In AG(3,3) the split proves M_3(12) <= 14 from the planes' maxima M_2: two full planes
    would hold 15 points, and the program with at most one full plane refutes 15 sets.

    >>> plane = {k: v for k, v in enumerate([0, 0, 0, 1, 1, 2, 3, 5, 8, 12])}
    >>> line = {0: 0, 1: 0, 2: 0, 3: 1}
    >>> record = prove_split_bound(3, 12, 15, plane, line)
    >>> record["claim"], record["theta"], record["program"]["big"], record["pencil"]["pattern"]
    ('max <= 14', 8, 8, None)

    M_4(12) <= 14 in AG(4,3) with theta = 4 and top = 5: the middle case t = 5 is refuted by
    one program, with two classes of type (5, 4, 3) forced.

    >>> space = dict(enumerate([0, 0, 0, 1, 1, 2, 3, 5, 8, 12, 12, 13, 14]))  # M_3, Table 3
    >>> record = prove_split_bound(4, 12, 15, space, plane, theta=4, top=5)
    >>> [(entry["big"], entry["forced"]) for entry in record["middle"]]
    [(5, [[5, 4, 3], [5, 4, 3]])]

    References
    ----------
    J. Stevens and D. Wilson, "The Maximum Number of Sets for 12 Cards is 14" (2025), Table 1.
    """
    if threshold > degree_bound(properties, cards):
        return None
    if theta is None:
        theta = _Optima(properties, cards, known_max).largest_below(threshold)
        if theta is None:
            return None  # the program fails even where every class but one is balanced
    top = theta if top is None else max(theta, top)
    return _record(properties, cards, threshold, known_max, known_below, theta, None, top)


@dataclass
class _Decided:
    """A split HiGHS's verdicts close, with all its record needs but the CP-SAT solves: P, n
    and the maxima it rests on, the threshold it refutes, theta, top, the pencils above top,
    the middle case's quadruples for each t (with the bounds on their pencils' cells), the
    bounds on split maxima used and the quadruples of each t the count of big classes refutes
    (:func:`_decide`, :func:`_build`)."""

    properties: int
    cards: int
    known_max: dict[int, int]
    known_below: dict[int, int]
    threshold: int
    theta: int
    top: int
    pencils: tuple[int, list[int] | None]
    cases: list[tuple[int, list[tuple[tuple[int, int, int], ...]], _Cells]]
    split_maxima: dict[tuple[int, int, int], int]
    counted: dict[int, dict[tuple[tuple[int, int, int], ...], _Count]] = field(default_factory=dict)


def _record(*args: Any, **kwargs: Any) -> dict[str, Any] | None:
    """The split's record, or None: :func:`_decide` (with its arguments), then :func:`_build`
    where it closes."""
    decided = _decide(*args, **kwargs)
    return None if decided is None else _build(decided)


def _decide(
    properties: int,
    cards: int,
    threshold: int,
    known_max: dict[int, int],
    known_below: dict[int, int],
    theta: int,
    pencils: tuple[int, list[int] | None] | None,
    top: int | None = None,
    split_maxima: dict[tuple[int, int, int], int] | None = None,
    sharpen: Callable[[int, list[tuple[tuple[int, int, int], ...]]], dict] | None = None,
    count: Callable[[int, list[tuple[tuple[int, int, int], ...]], _Cells], dict] | None = None,
    hopeless: Callable[[int, Sequence[tuple[tuple[int, int, int], ...]]], set] | None = None,
    floor: Callable[[int], tuple[list[tuple[tuple[int, int, int], ...]], _Cells]] | None = None,
) -> _Decided | None:
    """Whether the split at ``theta`` and ``top`` (default theta) refutes ``threshold`` sets by
    HiGHS's verdicts, or None; ``pencils``: the pencil maximum above top, if known;
    ``split_maxima``: proven bounds on split maxima of AG(P-1,3) the pencils use. Where the
    middle case at some t leaves quadruples no program refutes, ``sharpen(t, quadruples)``, if
    given, may return more bounds on split maxima (a mapping like ``split_maxima``; empty when
    it has none): the case at t is then tried again with them. A bound added later only shrinks
    the pencils' bounds, so the programs of an earlier t (and the pencils above top) still
    cover what the final bounds leave. Where ``count`` is given, ``count(t, quadruples,
    cells)`` refutes first what it can of the quadruples left by the count of big classes
    (with the bounds on their pencils' cells at t, :func:`middle_cells`; returns {quadruple:
    :class:`_Count`} for those), the walk goes on past them, and ``sharpen`` is asked for the
    rest, while the count's programs over all t number at most :data:`COUNT_PROGRAMS`.
    ``hopeless(t, quadruples)``, if given, lists those of them that no bound ``sharpen`` may
    give can remove (``sharpen`` returns nothing when one is among its quadruples): one left
    that the count does not refute keeps the case at t from closing, so the walk tries them
    first and stops at the first such one, and so does the split, with the verdict it would
    reach after the count and the sharpening of all that the walk leaves. ``floor(t)``, if
    given, is every hopeless quadruple at t and the least the bounds on the pencils' cells at
    t can become (with the guide's values as split maxima): a hopeless quadruple that no
    program refutes and the count does not refute even with those ends the case wherever the
    walk meets it, so each is tried before any walk: its programs at the floor, then the count
    first with the cells' bounds the walk starts from at t, whose verdicts the walk then
    reuses, and at the floor only where those leave it.

    The records, whose CP-SAT solves take the time, are built apart (:func:`_build`): a case
    that fails at a later t would throw away the records of the earlier ones, and the walk of
    :func:`split_upper_bound` builds only the record of its last step."""
    top = theta if top is None else top
    most, most_below = _tables_for(properties, known_max, known_below)
    split_maxima = {} if split_maxima is None else split_maxima

    def table() -> np.ndarray | None:
        return split_table(properties - 2, split_maxima) if split_maxima else None

    if pencils is None:
        pencils = two_big_hyperplanes(
            properties, cards, top, most, most_below, floor=threshold - 1, split_most=table()
        )
    if pencils[0] >= threshold:
        return None
    found_cells: dict[tuple[Any, ...], _Cells] = {}

    def cells_at(t: int) -> _Cells:  # the bounds on the pencils' cells with the bounds so far
        key = (t, tuple(sorted(split_maxima.items())))
        if key not in found_cells:
            found_cells[key] = middle_cells(properties, cards, t, most, most_below,
                                            threshold - 1, split_most=table())  # fmt: skip
        return found_cells[key]

    # The walk meets a hopeless quadruple with the cells' bounds of its round, which only fall
    # as split maxima are sharpened, never below ``floor``; its program and the count refute
    # more as they fall (a program of its pair, or one that covers it, forces fewer of its
    # types, so is looser). So one that neither refutes even at ``floor`` is left wherever
    # the walk meets it, and ends the case there: it is looked for first, over every t. Its
    # programs are asked at the floor (mostly their pairs' LP relaxations; with the walk's
    # looser bounds the integer programs of the quadruples are often feasible, and slow to
    # find so: n = 149 took 778 s in the table so, against 507). One they leave, the walk's
    # programs leave too, and the walk asks the count for it: so the count is asked first
    # with the bounds of the walk's first round at t, whose verdicts (kept by their inputs)
    # the walk then reuses, and at the floor only where those leave it.
    for t in range(theta + 1, top + 1) if floor is not None else ():
        stuck, least = floor(t)
        for quad in stuck:
            if not _cover_middle(properties, cards, threshold, known_max, t, [quad], False,
                                 least)[1]:  # fmt: skip
                continue
            if count is None or not (count(t, [quad], cells_at(t)) or count(t, [quad], least)):
                return None
    cases: list[tuple[int, list[tuple[tuple[int, int, int], ...]], _Cells]] = []
    counted: dict[int, dict[tuple[tuple[int, int, int], ...], _Count]] = {}
    for t in range(theta + 1, top + 1):  # each t decided by HiGHS's verdicts (_cover_middle)
        done = counted.setdefault(t, {})
        while True:
            quads = middle_types(
                properties, cards, t, most, most_below, threshold - 1, split_most=table()
            )
            rest = [quad for quad in quads if quad not in done]
            cells = cells_at(t)  # for the tighter programs (_cover_middle)
            # The walk stops at the first pair left: the count (if any) refutes what it can,
            # the sharpening (if any) takes the rest, and the walk goes on. A hopeless
            # quadruple the count does not refute ends the case however the rest goes, so the
            # hopeless are tried first, and the walk stops at the first such one.
            stuck = set() if hopeless is None else hopeless(t, rest)
            rest.sort(key=stuck.__contains__, reverse=True)  # stable: else in order

            def stop(quad, t=t, cells=cells, stuck=stuck) -> bool:  # the case cannot close
                return quad in stuck and (count is None or not count(t, [quad], cells))

            left = _cover_middle(properties, cards, threshold, known_max, t, rest, False, cells,
                                 stop)[1]  # fmt: skip
            if not left:
                break
            if stop(left[-1]):
                return None
            if count is not None:
                found = count(t, left, cells)
                programs = {row for rows in counted.values() for row in rows.values()}
                if len(programs | set(found.values())) > COUNT_PROGRAMS:
                    return None
                done.update(found)
                left = [quad for quad in left if quad not in found]
                if not left:
                    continue
            sharper = {} if sharpen is None else sharpen(t, left)
            if not sharper:
                return None
            split_maxima.update(sharper)
        cases.append((t, quads, cells))
    return _Decided(properties, cards, known_max, known_below, threshold, theta, top, pencils,
                    cases, split_maxima, counted)  # fmt: skip


def _build(decided: _Decided) -> dict[str, Any] | None:
    """The record of a split :func:`_decide` closed: every program confirmed by CP-SAT too
    (:func:`~setlab.extremal.bounds.prove_max_bound`), or None where CP-SAT does not decide
    one HiGHS refutes."""
    properties, cards, known_max = decided.properties, decided.cards, decided.known_max
    threshold, theta = decided.threshold, decided.theta
    known = tuple(sorted(known_max.items()))
    middle: list[dict[str, Any]] = []
    for t, quads, cells in decided.cases:
        counted = decided.counted.get(t, {})
        rest = [quad for quad in quads if quad not in counted]
        entries, left = _cover_middle(properties, cards, threshold, known_max, t, rest, True, cells)
        if left:
            return None
        middle += entries
        for found in sorted(set(counted.values()), key=_Count.key):  # the count, once each
            entry = _forced_refutation(properties, cards, threshold, known, t, found.forced,
                                       (found.part, found.most), found.cells)  # fmt: skip
            if entry is None:
                return None
            sets = {} if found.sets is None else {"sets": found.sets}
            middle.append({**entry, "meeting": found.meeting, **sets})
    program = prove_max_bound(properties, cards, threshold, known_max, big=theta)
    if program is None:
        return None
    largest, pattern = decided.pencils
    return {
        "method": "split",
        "properties": properties,
        "cards": cards,
        "claim": f"max <= {threshold - 1}",
        "theta": theta,
        "program": program,
        "pencil": {
            "theta": decided.top,
            "largest": largest,
            "pattern": pattern,
            "known_below": {str(k): v for k, v in sorted(decided.known_below.items())},
            "multipliers": pencil_multipliers().tolist(),
        },
        "middle": middle,
        "split_maxima": [[*split, int(v)] for split, v in sorted(decided.split_maxima.items())],
    }


def split_upper_bound(
    properties: int,
    cards: int,
    known_max: dict[int, int],
    known_below: dict[int, int],
    lower: int,
    upper: int,
    guide: Mapping[tuple[int, int, int], int] | None = None,
    store: Store | None = None,
) -> tuple[int, dict[str, Any] | None]:
    """The least U in [lower, upper) the split proves M(n) <= U for, with its record.

    ``lower`` is a witness's count (nothing less can be proven), ``upper`` the bound known.
    Over theta, the program's optimum grows and the pencils' largest bound shrinks; the split
    proves their larger one. Above the largest theta whose program stays below ``upper`` (found
    by bisection) nothing is gained; from there theta walks down, each pencil search cut off as
    soon as it cannot beat the best so far, until a pattern passes the best or the program's
    optimum has reached ``lower`` (a second bisection: below it the larger is the pencils'). A
    theta where the program gains nothing (a plateau) or no solver decides is passed over.
    So where the split gains nothing it costs a few solves and one short pencil search. Then
    the middle case (module docstring) tries one set fewer at a time: theta where the program
    refutes it, top the least of theta + 1..theta + :data:`MIDDLE_SPAN` whose pencils do, and
    the forced programs for t between them. Last, with a ``guide`` (split maxima annealing
    found, :func:`~setlab.extremal.splitmax.split_maxima_found`), the same one set at a time
    with exhaustive bounds on the split maxima of the hyperplanes that stop the pencils
    (:func:`_sharpened_split`), computed only where the guide says they may prove one set
    fewer. Those bounds are read from and kept in ``store`` (:func:`split_maxima_job`), where
    every other n, worker and later run finds them. Where that fails at a target, the same
    target with those bounds and the count of big classes for the quadruples the middle case
    leaves, the pencils behind those it leaves sharpened further (:func:`_counted_split`), and
    the next target is sharpened first again. Each step
    is decided by the solvers' verdicts alone (HiGHS's; for the forced programs' integer
    programs CP-SAT's first, :func:`_forced_infeasible`), and only the last one's record is
    built (its CP-SAT solves take the time; where a solver does not decide a program the
    verdicts refute, the step before is built instead). Returns (upper, None) when the split
    proves nothing below ``upper``.

    Examples
    --------
    >>> plane = {k: v for k, v in enumerate([0, 0, 0, 1, 1, 2, 3, 5, 8, 12])}
    >>> split_upper_bound(3, 12, plane, {0: 0, 1: 0, 2: 0, 3: 1}, 14, 19)[0]
    14
    """
    most, most_below = _tables_for(properties, known_max, known_below)
    optima = _Optima(properties, cards, known_max)
    theta = optima.largest_below(upper)
    if theta is None:
        return upper, None
    bottom = optima.largest_below(lower + 1)
    bottom = cards // 3 - 1 if bottom is None else bottom
    best, chosen = upper, None
    while theta >= bottom:
        optimum = optima(theta)
        if optimum is None:  # no solver decides this theta: the next one down may do
            theta -= 1
            continue
        floor = max(optimum, lower)  # the program's optimum shrinks as theta does
        if floor >= best:  # no gain from the program here; it may shrink further down
            theta -= 1
            continue
        pencils = two_big_hyperplanes(
            properties, cards, theta, most, most_below, floor=floor, cutoff=best - 1
        )
        if pencils[0] >= best:
            break  # a pattern passes best: a smaller theta only enlarges the pencils' bound
        best, chosen = max(floor, pencils[0]), (theta, pencils)
        if best == lower:
            break
        theta -= 1
    # Each step below is decided by the solvers' verdicts (_decide), one set lower than the
    # one before; only the last one's record is built, both solvers confirming them, and
    # where one does not decide a program the verdicts refute, the step before is built.
    steps: list[_Decided] = []
    if chosen is not None:
        step = _decide(properties, cards, best + 1, known_max, known_below, *chosen)
        steps += [] if step is None else [step]
    if not steps:
        best = upper
    while best > lower:  # the middle case, one set at a time
        step = _middle_split(
            properties, cards, best - 1, known_max, known_below, optima, most, most_below
        )
        if step is None:
            break
        best, steps = best - 1, [*steps, step]
    # Each target is sharpened first, then counted: the count takes the split maxima the
    # sharpening bounded at that same target (n = 149 of AG(5,3): from the maxima of 2506
    # alone the count at 2505 needs more than COUNT_PROGRAMS; sharpened first, 2505 and 2504).
    exhaustive: dict[tuple[int, int, int], int] = {}  # split maxima bounded so far, for all steps
    while guide is not None and best > lower and properties - 2 <= 3:
        tops = _hopeful_tops(properties, cards, best - 1, known_max, known_below, optima, guide)
        step = _sharpened_split(
            properties, cards, best - 1, known_max, known_below, optima, tops, guide, exhaustive,
            store,
        ) or _counted_split(
            properties, cards, best - 1, known_max, known_below, optima, tops, guide, exhaustive,
            store,
        )  # fmt: skip
        if step is None:
            break
        best, steps = best - 1, [*steps, step]
    for step in reversed(steps):
        record = _build(step)
        if record is not None:
            return step.threshold - 1, record
    return upper, None


SPLIT_VERSION = 14
"""Bumped whenever :func:`split_upper_bound` changes what it proves: it names the checkpoints of
:func:`split_bounds`, so a job interrupted under older code is started afresh."""


def split_job(properties: int, known_max: Mapping[int, int], known_below: Mapping[int, int]) -> str:
    """The checkpoint job of :func:`split_bounds`: the code version, P and a hash of the proven
    tables the tasks read.

    Examples
    --------
    >>> job = split_job(3, {3: 1}, {})
    >>> job.startswith(f"split-v{SPLIT_VERSION}/P3/"), job == split_job(3, {3: 2}, {})
    (True, False)
    """
    digest = job_digest([sorted(known_max.items()), sorted(known_below.items())])
    return f"split-v{SPLIT_VERSION}/P{properties}/{digest}"


def split_jobs(
    properties: int, known_max: Mapping[int, int], known_below: Mapping[int, int]
) -> tuple[str, str]:
    """What the split keeps in a store for these tables: the tasks of :func:`split_bounds`
    (:func:`split_job`) and the exhaustive split maxima of AG(P-1,3) (:func:`split_maxima_job`).

    Examples
    --------
    >>> names = [job.rsplit("/", 1)[0] for job in split_jobs(4, {3: 1}, {})]  # and the digests
    >>> names == [f"split-v{SPLIT_VERSION}/P4", f"split-maxima-v{SPLIT_MAXIMA_VERSION}/AG(3,3)"]
    True
    """
    below = slice_maxima(properties - 1, dict(known_below))
    return split_job(properties, known_max, known_below), split_maxima_job(properties - 2, below)


def split_task(
    properties: int,
    cards: int,
    known_max: Sequence[tuple[int, int]],
    known_below: Sequence[tuple[int, int]],
    lower: int,
    upper: int,
    guide: Sequence[Sequence[int]] | None = None,
    store_path: str | None = None,
) -> dict[str, Any]:
    """One task of :func:`split_bounds` (top level, so a pool or a Dask worker can run it):
    :func:`split_upper_bound` on the tables given as (k, value) pairs and the guide as
    [a, b, c, count] rows, with its time. The split maxima it bounds are shared through the
    store at ``store_path`` where that file is there to be seen (a local pool; a Dask worker on
    a machine without it computes its own).

    Examples
    --------
    >>> plane = list(enumerate([0, 0, 0, 1, 1, 2, 3, 5, 8, 12]))
    >>> payload = split_task(3, 12, plane, [(0, 0), (1, 0), (2, 0), (3, 1)], 14, 19)
    >>> payload["bound"], payload["record"]["claim"]
    (14, 'max <= 14')
    """
    started = time.perf_counter()
    hints = None if guide is None else {(a, b, c): v for a, b, c, v in guide}
    shared = Store(store_path) if store_path and Path(store_path).is_file() else None
    try:
        bound, record = split_upper_bound(
            properties, cards, dict(known_max), dict(known_below), lower, upper, hints, shared
        )
    finally:
        if shared is not None:
            shared.close()
    return {"bound": bound, "record": record, "seconds": time.perf_counter() - started}


def split_bounds(
    properties: int,
    ranges: Mapping[int, tuple[int, int]],
    known_max: Mapping[int, int],
    known_below: Mapping[int, int],
    store: Store | None = None,
    *,
    workers: int | None = None,
    scheduler: str | None = None,
    guide: Mapping[tuple[int, int, int], int] | None = None,
) -> dict[int, dict[str, Any]]:
    """:func:`split_upper_bound` for many n at once, one task per n: in a process pool, or on a
    Dask cluster (``scheduler``), each checkpointed in ``store`` as it finishes; every task
    with the same ``guide`` (split maxima annealing found), and the exhaustive split maxima
    shared through ``store`` (:func:`split_maxima_job`).

    ``ranges[n]`` is (lower, upper) for n: a witness's count and the bound known. The splits of
    different n share nothing but the proven tables, so they run side by side; the table of
    AG(5,3) spends most of its time in them. A task is keyed by n and its lower alone: its
    payload is a proof whatever upper it started from (upper only limits the work), so a job
    interrupted after recording some bounds, which lowers their uppers, still finds them. The
    job is kept after a table, and a later one reads its tasks too: for a lower raised since
    (a better witness), the finished task of the largest lower below it, whose walk down only
    stopped later (:func:`split_upper_bound` stops where it meets lower).

    Returns
    -------
    dict
        n -> ``{"bound", "record", "seconds"}`` of :func:`split_task` (record None when the split
        proves nothing below upper).

    Examples
    --------
    >>> plane = dict(enumerate([0, 0, 0, 1, 1, 2, 3, 5, 8, 12]))
    >>> line = {0: 0, 1: 0, 2: 0, 3: 1}
    >>> found = split_bounds(3, {12: (14, 19), 13: (17, 20)}, plane, line, workers=1)
    >>> {n: payload["bound"] for n, payload in found.items()}
    {12: 14, 13: 17}
    """
    tables = sorted(known_max.items()), sorted(known_below.items())
    rows = None if guide is None else [[*split, v] for split, v in sorted(guide.items())]
    shared = None if store is None or store.path == ":memory:" else store.path
    job = split_job(properties, known_max, known_below)
    walked: dict[int, list[int]] = {}  # the lowers of the finished tasks of each n
    for key in store.finished_tasks(job) if store is not None else {}:
        n, lower = map(int, key.split("/"))
        walked.setdefault(n, []).append(lower)
    keys = {
        n: f"{n}/{max((k for k in walked.get(n, []) if k <= lower), default=lower)}"
        for n, (lower, _) in ranges.items()
    }
    tasks = {
        keys[n]: (properties, n, *tables, lower, upper, rows, shared)
        for n, (lower, upper) in sorted(ranges.items())
    }
    done = run_tasks(
        job,
        tasks,
        split_task,
        store,
        workers=workers,
        scheduler=scheduler,
        description=f"the big-slice split of AG({properties},3)",
    )
    return {n: done[keys[n]] for n in sorted(ranges)}


def _middle_split(
    properties: int,
    cards: int,
    target: int,
    known_max: dict[int, int],
    known_below: dict[int, int],
    optima: _Optima,
    most: Sequence[int],
    most_below: Sequence[int],
) -> _Decided | None:
    """The split HiGHS's verdicts close for M(n) <= target with a middle case, or None.

    theta is the largest the program refutes target + 1 at, top the least above it (at most
    :data:`MIDDLE_SPAN` above) whose pencils stay at most target. The cheap parts come first:
    when no such top exists, nothing is enumerated or solved.
    """
    theta = optima.largest_below(target + 1)
    if theta is None:
        return None
    flat = deck_size(properties - 1)
    for top in range(theta + 1, min(theta + MIDDLE_SPAN, flat) + 1):
        pencils = two_big_hyperplanes(
            properties, cards, top, most, most_below, floor=target, cutoff=target
        )
        if pencils[0] <= target:
            return _decide(
                properties, cards, target + 1, known_max, known_below, theta, pencils, top
            )
    return None


def _sharpened_split(
    properties: int,
    cards: int,
    target: int,
    known_max: dict[int, int],
    known_below: dict[int, int],
    optima: _Optima,
    tops: Sequence[int],
    guide: Mapping[tuple[int, int, int], int],
    exhaustive: dict[tuple[int, int, int], int],
    store: Store | None = None,
) -> _Decided | None:
    """The split HiGHS's verdicts close for M(n) <= target with bounds on split maxima, or
    None.

    A hyperplane of a pencil whose cells hold a, b and c cards holds at most S(a, b, c) sets,
    the split maximum of AG(P-1,3) (:mod:`setlab.extremal.splitmax`), which can be below both
    bounds the pencils have without it. Computing one exhaustively can take minutes, so the
    ``guide`` says where it may pay: its values are counts of configurations, at most S, so
    where the guide is not below a hyperplane's bound no exhaustive bound is either, and where
    the pencils above top pass the target even with the guide's values they pass it with any
    bound there can be (that top is skipped unsearched: ``tops`` are the others,
    :func:`_hopeful_tops`). At a top that may close, the loop is:
    take a pattern past the target, bound exhaustively the split maxima of its hyperplanes that
    the guide says may drop, and search again, until no pattern passes or no hyperplane of the
    pattern can drop, or :data:`SHARPEN_LIMIT` is reached. Then the middle case runs with the
    same bounds, and where a quadruple of types is left that no program refutes, the pencils
    behind it (:func:`middle_patterns`) are sharpened the same way and the case is tried again
    (M(152) of AG(5,3): three split maxima of one such pencil, [[27, 27, 18], [26, 7, 7],
    [17, 6, 17]], take 2632 to 2631), unless a quadruple left passes the target even with the
    guide's values: then no bound can close the case. ``exhaustive`` keeps the bounds
    computed, for the next target of the same n; a split too large to search keeps its old
    bound. ``store`` shares them with every other n and run (:func:`split_maxima_job`).
    """
    theta = optima.largest_below(target + 1)
    if theta is None:
        return None
    sharpening = _Sharpening(properties, cards, target, known_max, known_below, guide,
                             exhaustive, store)  # fmt: skip
    for top in tops:
        largest, pattern = sharpening.pencils(top)
        while largest > target and pattern is not None and sharpening.sharpen([pattern]):
            largest, pattern = sharpening.pencils(top)
        if largest > target:
            continue
        decided = _decide(properties, cards, target + 1, known_max, known_below, theta,
                          (largest, pattern), top, sharpening.useful(), sharpening.middle,
                          hopeless=sharpening.hopeless)  # fmt: skip
        if decided is not None:
            return decided
    return None


class _Sharpening:
    """The exhaustive bounds on split maxima at one target, for :func:`_sharpened_split` and
    :func:`_counted_split`: computed where the ``guide`` says they may pay and kept in
    ``exhaustive`` (and ``store``)."""

    def __init__(
        self,
        properties: int,
        cards: int,
        target: int,
        known_max: dict[int, int],
        known_below: dict[int, int],
        guide: Mapping[tuple[int, int, int], int],
        exhaustive: dict[tuple[int, int, int], int],
        store: Store | None = None,
    ) -> None:
        self.properties, self.cards, self.target = properties, cards, target
        self.guide, self.exhaustive, self.store = guide, exhaustive, store
        self.most, self.most_below = _tables_for(properties, known_max, known_below)
        # the bounds without split maxima, and at most every bound on split maxima there can be
        self.base = _tables(properties, cards, self.most, self.most_below)[3]
        self.hopeful = split_table(properties - 2, guide)
        # by t: the quadruples past the target with the guide's values (hopeless), and the
        # bounds on their pencils' cells with those values (the least there can be)
        self.passing: dict[int, set[tuple[tuple[int, int, int], ...]]] = {}
        self.least: dict[int, _Cells] = {}

    def table(self) -> np.ndarray:
        """The split maxima's bounds so far, as a table."""
        return split_table(self.properties - 2, self.exhaustive)

    def pencils(self, top: int) -> tuple[int, list[int] | None]:
        """The pencil maximum above ``top`` with the bounds so far, cut off at the target."""
        return two_big_hyperplanes(self.properties, self.cards, top, self.most, self.most_below,
                                   floor=self.target, cutoff=self.target,
                                   split_most=self.table())  # fmt: skip

    def sharpen(self, patterns: Sequence[Sequence[int]]) -> bool:
        """Bound the split maxima of the patterns' hyperplanes where the guide says they may
        drop (its counts are at most the true maxima); True when one did drop."""
        table, exhaustive, base = self.table(), self.exhaustive, self.base
        splits = {
            tuple(sorted(np.asarray(cells)[line].tolist(), reverse=True))
            for cells in patterns
            for line in PLANE
        }
        new = [
            split
            for split in sorted(splits)
            if split not in exhaustive
            and self.guide.get(split, 10**6) < min(base[split], table[split])
        ]
        if not new or len(exhaustive) + len(new) > SHARPEN_LIMIT:
            return False
        for split in new:
            found = _remembered_split_maximum(self.properties - 2, split, self.most_below,
                                              self.store)  # fmt: skip
            exhaustive[split] = int(base[split]) if found is None else found
        return any(exhaustive[split] < min(base[split], table[split]) for split in new)

    def useful(self) -> dict[tuple[int, int, int], int]:
        """The bounds that sharpen the pencils (below the bounds without split maxima)."""
        return {split: v for split, v in self.exhaustive.items() if v < self.base[split]}

    def hopeless(
        self, t: int, quads: Sequence[tuple[tuple[int, int, int], ...]]
    ) -> set[tuple[tuple[int, int, int], ...]]:
        """Those of ``quads`` no bound on split maxima removes from the middle case at t: still
        past the target with the guide's values as split maxima. The guide's values are at most
        the true ones, so such a quadruple stays past it with any bound there can be."""
        return set(quads) & self._past(t)

    def _past(self, t: int) -> set[tuple[tuple[int, int, int], ...]]:
        """Every quadruple past the target at t with the guide's values as split maxima."""
        if t not in self.passing:
            found = middle_types(self.properties, self.cards, t, self.most, self.most_below,
                                 self.target, self.hopeful)  # fmt: skip
            self.passing[t] = set(found)
        return self.passing[t]

    def floor(self, t: int) -> tuple[list[tuple[tuple[int, int, int], ...]], _Cells]:
        """Every :meth:`hopeless` quadruple at t (sorted), and the bounds on the pencils' cells
        at t (:func:`middle_cells`) with the guide's values as split maxima: at most those with
        any bound on them there can be, since the cells' bounds grow with the split maxima's
        bounds. The split maxima's bounds are at least the guide's values, so the middle case
        at t lists every hopeless quadruple too."""
        if t not in self.least:
            self.least[t] = middle_cells(self.properties, self.cards, t, self.most,
                                         self.most_below, self.target, self.hopeful)  # fmt: skip
        return sorted(self._past(t)), self.least[t]

    def middle(self, t: int, quads: list[tuple[tuple[int, int, int], ...]]) -> dict:
        """The middle case at t leaves ``quads``: sharpen the hyperplanes of their pencils
        (:func:`_decide`'s ``sharpen``). A quadruple's program does not depend on split maxima,
        so where a quadruple left is :meth:`hopeless` the case cannot close, and nothing is
        searched."""
        if self.hopeless(t, quads):
            return {}
        patterns = middle_patterns(self.properties, self.cards, t, self.most, self.most_below,
                                   self.target, self.table(), quads)  # fmt: skip
        return self.useful() if self.sharpen(patterns) else {}


def _counted_split(
    properties: int,
    cards: int,
    target: int,
    known_max: dict[int, int],
    known_below: dict[int, int],
    optima: _Optima,
    tops: Sequence[int],
    guide: Mapping[tuple[int, int, int], int],
    exhaustive: dict[tuple[int, int, int], int],
    store: Store | None = None,
) -> _Decided | None:
    """The split HiGHS's verdicts close for M(n) <= target with the split maxima bounded so
    far (``exhaustive``) and the count of big classes for the quadruples the middle case leaves
    (:func:`_count_refutation`), or None: at the first of ``tops`` (:func:`_hopeful_tops`)
    whose pencils stay at most the target. Where the count leaves quadruples, the pencils
    behind them are sharpened as in :func:`_sharpened_split` and the case is tried again: the
    sharpening follows what the middle case leaves, so a target the count closes may need
    bounds no target before asked for (n = 156 of AG(5,3): the targets down to 2814 asked for
    23 split maxima, and 2813 stopped on a quadruple the count does not refute; sharpened
    after the count, 2813 and 2812 close).

    The counted split is the last try at a target, so it looks first for a hopeless quadruple
    that nothing refutes even with the least bounds the cells can get (:func:`_decide`'s
    ``floor``): where the walk would meet one only after rounds of the count and the
    sharpening, the target is given up at once (n = 152 at 2628: 40 s instead of 179). Where
    none blocks, the look ahead costs (n = 149 at 2503: 81 s instead of 28, the count asked
    for 70 quadruples one by one at the floor, and again by the walk with its own bounds), so
    it asks with the walk's bounds first and shares those verdicts. The sharpened split does
    not look ahead so:
    the split maxima its walk bounds before it meets such a quadruple are what the counted
    split at the same target then starts from (n = 157 of AG(5,3) at 2863)."""
    theta = optima.largest_below(target + 1)
    if theta is None:
        return None
    sharpening = _Sharpening(properties, cards, target, known_max, known_below, guide,
                             exhaustive, store)  # fmt: skip
    known, below = tuple(sorted(known_max.items())), tuple(sorted(known_below.items()))

    verdicts: dict[tuple[Any, ...], _Count | None] = {}  # each program of the count once

    def refuted(t: int, forced: Sequence[Sequence[int]], cells: _Cells,
                integer: bool = True) -> _Count | None:  # fmt: skip
        kinds = _kinds(forced)
        held = cells.get(kinds) if len(kinds) == 4 else None
        asked = (t, kinds, integer, held)
        if asked not in verdicts:
            verdicts[asked] = _count_refutation(properties, cards, target + 1, known, below, t,
                                                kinds, integer, held)  # fmt: skip
        return verdicts[asked]

    def count(t: int, quads: list[tuple[tuple[int, int, int], ...]], cells: _Cells) -> dict:
        # The row and column types first, as in the middle case: one program for all their
        # quadruples (row 0 holds the largest part, so theirs is the quadruples' ceiling), by
        # its LP relaxation only (a pair's integer programs are slow, and their certificates
        # branch); else each quadruple, one program per multiset (it forces types, not which
        # class is the row), with the bound on its pencils' cells.
        pair_of = {quad: _kinds(quad[:2]) for quad in quads}
        pairs = {pair: refuted(t, pair, cells, False) for pair in set(pair_of.values())}
        found = {quad: pairs[pair_of[quad]] or refuted(t, quad, cells) for quad in quads}
        return {quad: row for quad, row in found.items() if row is not None}

    for top in tops:
        pencils = sharpening.pencils(top)
        if pencils[0] <= target:
            return _decide(properties, cards, target + 1, known_max, known_below, theta, pencils,
                           top, sharpening.useful(), sharpening.middle, count,
                           sharpening.hopeless, sharpening.floor)  # fmt: skip
    return None


SPLIT_MAXIMA_VERSION = 2
"""Bumped whenever :func:`~setlab.extremal.splitmax.split_maximum_bound` changes what it
returns: it names the split maxima kept in a store (:func:`split_maxima_job`)."""


def split_maxima_job(dimension: int, most: Sequence[int]) -> str:
    """The store's name for the exhaustive split maxima of AG(d+1,3) bounded with ``most``
    (the proven M_d): a checkpoint job whose tasks are the splits ``"a,b,c"`` and whose
    payloads are their bounds (None for a split too large to search).

    One bound can take minutes, and the splits of neighbouring n meet the same hyperplanes, so
    the bounds are kept, not forgotten with the job of a table: the other workers of a pool, a
    resumed table and later ones read them. A value read is checked no less:
    :func:`verify_split_bound` and the proof bundle's checker bound again, by themselves, every
    split maximum a record uses.

    Examples
    --------
    >>> split_maxima_job(2, [0, 0, 0, 1, 1, 2, 3, 5, 8, 12])[:20]
    'split-maxima-v2/AG(3'
    """
    digest = job_digest([int(v) for v in most])
    return f"split-maxima-v{SPLIT_MAXIMA_VERSION}/AG({dimension + 1},3)/{digest}"


def _remembered_split_maximum(
    dimension: int, split: tuple[int, int, int], most: Sequence[int], store: Store | None
) -> int | None:
    """:func:`_split_maximum`, read from ``store`` when some worker or run has bounded it,
    else computed and kept there."""
    if store is None:
        return _split_maximum(dimension, split, tuple(most))
    found = store.remembered(
        split_maxima_job(dimension, most), ",".join(map(str, split)),
        lambda: _split_maximum(dimension, split, tuple(most)),
    )  # fmt: skip
    return None if found is None else int(found)


@functools.cache
def _split_maximum(
    dimension: int, split: tuple[int, int, int], most: tuple[int, ...]
) -> int | None:
    """:func:`~setlab.extremal.splitmax.split_maximum_bound`, remembered by the process (a pool
    worker runs many n, and neighbouring n meet the same splits); None for a split too large to
    search (it keeps its other bounds)."""
    try:
        return split_maximum_bound(dimension, split, most)
    except SetlabError:
        return None


def _hopeful_tops(
    properties: int,
    cards: int,
    target: int,
    known_max: dict[int, int],
    known_below: dict[int, int],
    optima: _Optima,
    guide: Mapping[tuple[int, int, int], int],
) -> list[int]:
    """The tops (theta + 1..theta + :data:`MIDDLE_SPAN`, theta where the program refutes
    target + 1) whose pencils stay at most ``target`` with the guide's values as split maxima.
    The guide's values are counts of configurations, at most the true split maxima, so at any
    other top no bound on them makes the pencils stay so."""
    theta = optima.largest_below(target + 1)
    if theta is None:
        return []
    most, most_below = _tables_for(properties, known_max, known_below)
    hopeful = split_table(properties - 2, guide)
    flat = deck_size(properties - 1)
    tops = []
    for top in range(theta + 1, min(theta + MIDDLE_SPAN, flat) + 1):
        largest, _ = two_big_hyperplanes(properties, cards, top, most, most_below, floor=target,
                                         cutoff=target, split_most=hopeful)  # fmt: skip
        if largest <= target:
            tops.append(top)
    return tops


def cover_middle_case(
    properties: int,
    cards: int,
    threshold: int,
    known_max: dict[int, int],
    t: int,
    quads: Sequence[tuple[tuple[int, int, int], ...]],
) -> list[dict[str, Any]] | None:
    """Programs refuting ``threshold`` sets for every quadruple of class types of the middle
    case at t (:func:`middle_types`), with big = t and forced types: per pair (row type, column
    type) both forced where that program's LP relaxation is infeasible, else per quadruple all
    four, else the pair's integer program after all. None when some quadruple's program is not
    refuted. Each program also has a ceiling: no class has a hyperplane above row 0, the
    largest part of the forced types.

    The order is meant for the certificates. A pair's program covers all its quadruples at once,
    but where only its integer program is infeasible its certificate is a branching tree, while
    its quadruples' programs, with all four types forced, are mostly refuted by their LP
    relaxation: one set of multipliers each. At n = 147 of AG(5,3) the 467 certificates of the
    record take about a minute, the largest tree 30 leaves (:mod:`setlab.extremal.farkas`).

    Examples
    --------
    Twelve points of AG(3,3) with 15 sets (M_3(12) = 14) and second largest class maximum 5:
    one quadruple of class types passes the pencils, and the program with its row and column
    types forced (and no plane above 5 points) has no solution.

    >>> plane = [0, 0, 0, 1, 1, 2, 3, 5, 8, 12]  # M_2(k)
    >>> quads = middle_types(3, 12, 5, plane, [0, 0, 0, 1], 14)
    >>> quads
    [((5, 4, 3), (5, 4, 3), (4, 4, 4), (5, 4, 3))]
    >>> found = cover_middle_case(3, 12, 15, dict(enumerate(plane)), 5, quads)
    >>> [(r["forced"], r["ceiling"]) for r in found]
    [([[5, 4, 3], [5, 4, 3]], 5)]
    """
    if _cover_middle(properties, cards, threshold, known_max, t, quads, records=False)[1]:
        return None
    entries, left = _cover_middle(properties, cards, threshold, known_max, t, quads)
    return None if left else entries


def _cover_middle(
    properties: int,
    cards: int,
    threshold: int,
    known_max: dict[int, int],
    t: int,
    quads: Sequence[tuple[tuple[int, int, int], ...]],
    records: bool = True,
    cells: _Cells | None = None,
    stop: Callable[[tuple[tuple[int, int, int], ...]], bool] | None = None,
) -> tuple[list[dict[str, Any]], list[tuple[tuple[int, int, int], ...]]]:
    """:func:`cover_middle_case`'s programs and the quadruples they leave: at the first pair
    of types whose programs are not all refuted, its quadruples no program refutes (and no
    programs: a case left open keeps none). Without ``records``, by the solvers' verdicts alone
    (:func:`_forced_infeasible`):
    no programs, and the quadruples left, up to the first that ``stop``, if given, holds for.
    With ``cells`` (:func:`middle_cells`), a quadruple whose program's LP relaxation is
    feasible is tried with the bound on its pencil's cells instead (the tighter program, so it
    refutes all the plain one does).

    A program is refuted when HiGHS and CP-SAT both find it infeasible
    (:func:`~setlab.extremal.bounds.prove_max_bound`), and nearly all the time goes to
    CP-SAT: at n = 188 of AG(5,3), whose middle cases all fail, 298 s of CP-SAT against 4 s
    of HiGHS for 717 programs. A program the verdicts do not find infeasible is not refuted, so
    the walk by verdicts, in the same order, leaves the quadruples the walk with records would
    leave (unless one solver does not decide a program the verdicts refute before them: then
    the case fails all the same), in a fraction of the time. So the middle case is decided by
    verdicts first (:func:`_decide`), and the records are built where it closes
    (:func:`_build`).
    """
    known = tuple(sorted(known_max.items()))

    def held(forced: tuple[tuple[int, int, int], ...]) -> int | None:  # its cells' bound
        return None if cells is None or len(forced) != 4 else cells.get(_kinds(forced))

    def relaxed(forced: tuple[tuple[int, int, int], ...]) -> bool:
        return _forced_infeasible(properties, cards, threshold, known, t, forced, relaxed=True)

    def tightened(forced: tuple[tuple[int, int, int], ...]) -> int | None:
        # The program with the cells' row is the tighter one, so it refutes every quadruple
        # the plain one does: where the plain LP relaxation does not refute it, the cells'
        # program alone is solved (HiGHS's verdict on the plain integer program, feasible for
        # most quadruples that get this far, is never needed).
        return None if held(forced) is None or relaxed(forced) else held(forced)

    def infeasible(forced: tuple[tuple[int, int, int], ...]) -> dict[str, Any] | None:
        found = _forced_infeasible(properties, cards, threshold, known, t, forced, relaxed=False,
                                   cells=tightened(forced))  # fmt: skip
        return {} if found else None

    def refutation(forced: tuple[tuple[int, int, int], ...]) -> dict[str, Any] | None:
        return _forced_refutation(properties, cards, threshold, known, t, forced,
                                  cells=tightened(forced))  # fmt: skip

    if not records:
        return [], _cover_walk(quads, relaxed, infeasible, stop)[1]
    return _cover_walk(quads, relaxed, refutation)


def _cover_walk(
    quads: Sequence[tuple[tuple[int, int, int], ...]],
    relaxed: Callable[[tuple[tuple[int, int, int], ...]], bool],
    refute: Callable[[tuple[tuple[int, int, int], ...]], dict[str, Any] | None],
    stop: Callable[[tuple[tuple[int, int, int], ...]], bool] | None = None,
) -> tuple[list[dict[str, Any]], list[tuple[tuple[int, int, int], ...]]]:
    """One walk of :func:`_cover_middle` over the quadruples, by pairs of (row, column) types:
    ``relaxed(forced)`` whether a program's LP relaxation is infeasible, ``refute(forced)``
    its record or None. Returns the records (copies) and no quadruples, or no records and the
    quadruples left at the first pair not covered (nothing further is tried), up to the first
    ``stop`` holds for.

    Where a pair's quadruples are left, the rest of them are tried too, so that what is done
    with the quadruples left (:func:`_decide`: the count, the sharpening) takes all of them at
    once. Those programs are most of a failing case's time (n = 152 of AG(5,3), the target its
    split stops at: 87 s of one walk leaving 42 quadruples), so a quadruple ``stop`` holds for,
    one that ends the case, ends the walk: n = 152 alone, from its bound before the split,
    took 399 s instead of 483, and in the P = 5 table every split task kept its bound and its
    record (5077 s of tasks, 5229 before)."""
    pairs: dict[tuple[tuple[int, int, int], ...], list[tuple[tuple[int, int, int], ...]]] = {}
    for quad in quads:  # the program forces types, not which class is the row
        pairs.setdefault(tuple(sorted(quad[:2], reverse=True)), []).append(quad)
    entries: list[dict[str, Any]] = []
    done: dict[tuple[tuple[int, ...], ...], float] = {}  # entries' forced types: ceiling

    def refuted(forced: Sequence[Sequence[int]]) -> bool:
        record = refute(tuple(tuple(kind) for kind in forced))
        if record is not None:
            entries.append(dict(record))
            done[_kinds(forced)] = max(max(kind) for kind in forced)
        return record is not None

    for pair, group in sorted(pairs.items(), reverse=True):
        group = [quad for quad in group if not _covered(quad, done)]
        if not group:  # an earlier program's types are among these quadruples' already
            continue
        if relaxed(pair) and refuted(pair):
            continue
        failed = next((i for i, quad in enumerate(group) if not refuted(quad)), None)
        if failed is not None and not refuted(pair):  # these quadruples stay uncovered
            left = []
            for i, quad in enumerate(group[failed:]):
                if i == 0 or not refuted(quad):
                    left.append(quad)
                    if stop is not None and stop(quad):
                        break
            return [], left
    return entries, []


# The middle case meets the same forced programs again and again: the plain middle case and
# then each top the split maxima may close run t = theta + 1, theta + 2, ... with the same
# threshold, and a quadruple's program does not depend on split maxima. So each program is
# solved once per process (the keys hold every input, n among them).


@functools.lru_cache(maxsize=1 << 16)
def _forced_infeasible(
    properties: int,
    cards: int,
    threshold: int,
    known: tuple[tuple[int, int], ...],
    t: int,
    forced: tuple[tuple[int, int, int], ...],
    relaxed: bool,
    count: tuple[int, int] | None = None,
    cells: int | None = None,
) -> bool:
    """Whether the middle case's program at t with ``forced`` class types
    (:func:`cover_middle_case`) is found infeasible, or its LP relaxation if ``relaxed``;
    ``known`` is ``known_max`` as sorted items; ``count``: the row of the count of big
    classes, if any; ``cells``: the bound on the lines inside the pencil's cells
    (:func:`middle_cells`), if any.

    An integer program whose LP relaxation is infeasible is infeasible too, and HiGHS decides
    the relaxation some three times sooner (n = 148 of AG(5,3): 3.4 ms against 11.6 ms for
    the forced programs of the middle case, nearly all of them refuted by the relaxation), so
    the relaxation is asked first. The integer program then goes to CP-SAT, and to HiGHS only
    where CP-SAT does not decide it within :data:`INTEGER_FIRST_SECONDS`: where the relaxation
    is feasible, HiGHS's branch and bound is slow to find an integer point (n = 157 of AG(5,3):
    25 such programs feasible in 40.3 s, up to 5.2 s each, and 17 infeasible in 6.6 s), and
    CP-SAT decides the same 42 the same way in under 5 s. Either verdict only guides the walk: the
    record's programs are refuted by both solvers again (:func:`_build`).

    And a program is the same for every threshold but its row L >= threshold, so one found
    feasible stays feasible for every smaller threshold: the walk of
    :func:`split_upper_bound` goes down one target at a time and meets the quadruples each
    target left again at the next (:data:`_FEASIBLE`). Likewise one feasible with a bound on the
    pencil's cells stays feasible with any larger bound or none, and the bound grows as the
    target falls (unless sharper split maxima lower it). Where no solver decides within its
    time, the program counts as not refuted, as before, but nothing is kept."""
    if not relaxed and _forced_infeasible(properties, cards, threshold, known, t, forced, True,
                                          count, cells):  # fmt: skip
        return True
    case = (properties, cards, known, t, forced, relaxed, count)
    looser = _FEASIBLE.get(case, {})  # cells bound (None: no row) -> largest threshold feasible
    if any(_looser(held, cells) and found >= threshold for held, found in looser.items()):
        return False
    ceiling = max(max(kind) for kind in forced)
    program = slice_program(properties, cards, threshold, degree_bound(properties, cards),
                            dict(known), None, t, forced_types(forced), ceiling, count,
                            cells)  # fmt: skip
    if relaxed:
        status = solve_highs(program, relaxed=True)[0]
    else:
        status = solve_cpsat(program, seconds=INTEGER_FIRST_SECONDS)[0]
        if status == "unknown":
            status = solve_highs(program)[0]
    if status == "feasible":
        if len(_FEASIBLE) >= 1 << 16:
            _FEASIBLE.clear()
        looser = _FEASIBLE.setdefault(case, {})
        looser[cells] = max(threshold, looser.get(cells, -1))
    return status == "infeasible"


def _looser(held: int | None, cells: int | None) -> bool:
    """Whether a program with the cells' bound ``cells`` is at most as tight as one with
    ``held`` (None: no such row, the loosest): its row's right side 3 * cells lower."""
    return cells is None or (held is not None and held <= cells)


_FEASIBLE: dict[tuple[Any, ...], dict[int | None, int]] = {}
"""For each forced program (all but its threshold and its cells' bound): the largest threshold
at which it was found feasible, per cells' bound, for :func:`_forced_infeasible`."""


@functools.lru_cache(maxsize=1 << 14)
def _forced_refutation(
    properties: int,
    cards: int,
    threshold: int,
    known: tuple[tuple[int, int], ...],
    t: int,
    forced: tuple[tuple[int, int, int], ...],
    count: tuple[int, int] | None = None,
    cells: int | None = None,
) -> dict[str, Any] | None:
    """:func:`~setlab.extremal.bounds.prove_max_bound`'s record refuting the middle case at t
    with ``forced`` class types (and the row ``count``, the bound ``cells`` on the pencil's
    cells, if given), or None. No hyperplane of S is larger than row 0, the largest part of
    the forced types: that is the ceiling. Callers copy the record before keeping it."""
    ceiling = max(max(kind) for kind in forced)
    return prove_max_bound(properties, cards, threshold, dict(known), big=t, forced=forced,
                           ceiling=ceiling, count=count, cells=cells)  # fmt: skip


# The count of big classes. Where a quadruple's program stays feasible, it may still need many
# classes whose largest hyperplane is nearly row 0's c cards: with the row "at most k - 1
# classes have a part of h or more" it is infeasible. Any two such classes meet in sigma cards
# or more (meeting_bound), and k hyperplanes of h..c cards, every two meeting in sigma, may fit
# in no n cards at all (arrangements.arrangement_certificate). Then the quadruple is refuted.


@dataclass(frozen=True)
class _Count:
    """Quadruples refuted by the count of big classes: the program forcing the class types
    ``forced`` (a quadruple's four, or the row and column types all its quadruples share), with
    the row "at most ``most`` classes have a part of ``part`` or more" (and for four types the
    bound ``cells`` on the lines inside their pencils' cells, if any), is infeasible, the
    largest hyperplanes of two such classes meet in ``meeting`` cards or more, and ``most`` + 1
    such hyperplanes fit in no n cards (with ``sets``, a whole (P-2)-flat as ``meeting``: in
    none holding ``sets`` lines or more, :func:`~setlab.extremal.arrangements.set_row`)."""

    forced: tuple[tuple[int, ...], ...]
    part: int
    most: int
    meeting: int
    cells: int | None = None
    sets: int | None = None

    def key(self) -> tuple[Any, ...]:
        """An order for records (None, no cells' bound or sets, before any)."""
        cells = -1 if self.cells is None else self.cells
        sets = -1 if self.sets is None else self.sets
        return self.forced, self.part, self.most, self.meeting, cells, sets


@functools.lru_cache(maxsize=1 << 10)
def _meeting(
    properties: int,
    cards: int,
    value: int,
    low: int,
    ceiling: int,
    known: tuple[tuple[int, int], ...],
    known_below: tuple[tuple[int, int], ...],
) -> int:
    """:func:`meeting_bound` on the proven tables (no split maxima), and where no two such
    classes exist one more than a cell holds: then no two hyperplanes meet in that many."""
    most, most_below = _tables_for(properties, dict(known), dict(known_below))
    found = meeting_bound(properties, cards, value, low, ceiling, most, most_below)
    return deck_size(properties - 2) + 1 if found is None else found


def _count_refutation(
    properties: int,
    cards: int,
    threshold: int,
    known: tuple[tuple[int, int], ...],
    known_below: tuple[tuple[int, int], ...],
    t: int,
    forced: tuple[tuple[int, ...], ...],
    integer: bool = True,
    cells: int | None = None,
) -> _Count | None:
    """The count of big classes refuting the middle case's program at t with ``forced`` class
    types (:func:`_kinds` order) by HiGHS's verdicts, or None.

    At each level h = c, c - 1, ... (:data:`COUNT_LEVELS`; c is row 0's cards, no hyperplane
    of S holds more) the fewest hyperplanes of h..c cards, every two meeting in the level's
    meeting bound, that fit in no n cards (at most :data:`COUNT_CLASSES`) give the row "at
    most one fewer classes have a part of h or more", valid for every S of the case. A level
    whose program with that row has an infeasible LP relaxation is taken first (its
    certificate is one set of multipliers; at n = 148 of AG(5,3) the programs of the fewest
    classes the program needs stayed LP-feasible, and one had no branching certificate within
    20,000 nodes), then, if ``integer``, one whose integer program is infeasible; in each pass
    the rows without the sets (:class:`_Count`) before those with. ``cells``:
    the bound on the lines inside the cells of the pencils of four forced types
    (:func:`middle_cells`), a row valid alongside the count's; together they refute programs
    neither refutes alone (the AG(4,3) example in the tests: 13 cards, 14 sets, types
    (12, 1, 0) and three (9, 3, 1) at t = 9); in the P = 5 table, 212 of the 218 count
    programs its records hold carry both. Last, where the sets' row refutes k hyperplanes, the
    row of one fewer, its arrangements refuted by the lines their complements must hold
    (:func:`~setlab.extremal.arrangements.arrangement_certificate` with ``complement``), is
    tried where its program is infeasible: seconds to minutes an arrangement (n = 168 of
    AG(5,3): "at most four classes have a part of 72" at 3418 sets)."""
    ceiling = max(max(kind) for kind in forced)
    rows = []
    closer = []  # rows one hyperplane below the sets', by the lines the cards left out hold
    for part in range(ceiling, ceiling - COUNT_LEVELS, -1):
        meeting = _meeting(properties, cards, threshold - 1, part, ceiling, known, known_below)
        crowd = next((k for k in range(2, COUNT_CLASSES + 1) if arrangement_certificate(
            properties, k, part, ceiling, meeting, cards) is not None), None)  # fmt: skip
        if crowd is not None:
            rows.append(_Count(forced, part, crowd - 1, meeting, cells))
        # Where two such hyperplanes meet in a whole flat, k of them force the points of their
        # meetings, and fewer may leave too few sets though they fit (n = 168 of AG(5,3): six
        # of 72 cards fit, and hold at most 3405 sets where the case asks 3419).
        if meeting == deck_size(properties - 2):
            fewer = next((k for k in range(2, crowd or COUNT_CLASSES + 1) if
                          arrangement_certificate(properties, k, part, ceiling, meeting, cards,
                                                  threshold) is not None), None)  # fmt: skip
            if fewer is not None:
                rows.append(_Count(forced, part, fewer - 1, meeting, cells, threshold))
                if fewer > 2:
                    closer.append(_Count(forced, part, fewer - 2, meeting, cells, threshold))
    # The rows without the sets first: where both refute only the integer program, the plain
    # row's exact certificate was the cheaper one (n = 148 of AG(5,3): its four programs with
    # the sets' row at 69 had no branching certificate within 300 nodes, and the bundle's
    # writer spent up to 20,000 on each; with the plain row at 68, 0.2 to 2.3 s each).
    rows.sort(key=lambda row: row.sets is not None)  # stable: by level within each kind
    for relaxed in (True, False) if integer else (True,):
        for row in rows:
            count = (row.part, row.most)
            if _forced_infeasible(properties, cards, threshold, known, t, forced, relaxed, count,
                                  cells):  # fmt: skip
                return row
    # Last, and only where the row would refute: one hyperplane fewer, its arrangements
    # refuted by the lines their complements hold (seconds to minutes each, where the rows'
    # programs take milliseconds; n = 168 of AG(5,3): five of 72 cards, 3418 sets)
    for relaxed in (True, False) if integer else (True,):
        for row in closer:
            count = (row.part, row.most)
            if _forced_infeasible(properties, cards, threshold, known, t, forced, relaxed, count,
                                  cells) and arrangement_certificate(
                    properties, row.most + 1, row.part, ceiling, row.meeting, cards, threshold,
                    complement=True) is not None:  # fmt: skip
                return row
    return None


def _kinds(types: Sequence[Sequence[int]]) -> tuple[tuple[int, ...], ...]:
    """Class types as a multiset: each largest first, in sorted order."""
    return tuple(sorted(tuple(sorted(kind, reverse=True)) for kind in types))


def _covered(
    quad: Sequence[Sequence[int]], refuted: Mapping[tuple[tuple[int, ...], ...], float]
) -> bool:
    """:func:`covers` against many refuted programs at once: ``refuted`` maps each program's
    forced types (:func:`_kinds`) to its ceiling (``math.inf`` for none), and the quadruple is
    covered when some sub-multiset of its types is a key whose ceiling no hyperplane of the
    quadruple is above. A quadruple has at most 15 sub-multisets, where the middle case has
    thousands of programs (n = 176 of AG(5,3) spent 22 million calls of :func:`covers` on this,
    and verifying n = 153 four million).

    Examples
    --------
    >>> quad = [(9, 2, 1), (6, 3, 3), (5, 4, 3), (5, 4, 3)]
    >>> _covered(quad, {((9, 2, 1),): 9}), _covered(quad, {((5, 4, 3), (6, 3, 3)): 6})
    (True, False)
    >>> _covered(quad, {((5, 4, 3), (6, 3, 3)): math.inf})
    True
    """
    top = max(max(kind) for kind in quad)
    kinds = _kinds(quad)
    for size in {len(forced) for forced in refuted}:
        for sub in itertools.combinations(kinds, size):
            if top <= refuted.get(sub, -math.inf):
                return True
    return False


def covers(
    forced: Sequence[Sequence[int]], quad: Sequence[Sequence[int]], ceiling: int | None = None
) -> bool:
    """Whether the classes of the pencil (types ``quad``) include classes of the ``forced``
    types, as many as forced, and no hyperplane of the pencil is above ``ceiling``: then a
    program refuted with ``forced`` and ``ceiling`` refutes the pencil (its row 0 is the
    largest hyperplane of all).

    Examples
    --------
    >>> covers([(9, 2, 1)], [(9, 2, 1), (6, 3, 3), (5, 4, 3), (5, 4, 3)])
    True
    >>> covers([(5, 4, 3), (5, 4, 3), (5, 4, 3)], [(9, 2, 1), (6, 3, 3), (5, 4, 3), (5, 4, 3)])
    False
    >>> covers([(5, 4, 3)], [(9, 2, 1), (6, 3, 3), (5, 4, 3), (5, 4, 3)], ceiling=6)
    False
    """
    if ceiling is not None and any(max(t) > ceiling for t in quad):
        return False
    have = Counter(tuple(sorted(t, reverse=True)) for t in quad)
    need = Counter(tuple(sorted(t, reverse=True)) for t in forced)
    return all(have[t] >= k for t, k in need.items())


def _verify_count(
    entry: dict[str, Any],
    properties: int,
    cards: int,
    bound: int,
    most: Sequence[int],
    most_below: Sequence[int],
    table: np.ndarray | None,
) -> bool:
    """Whether a middle entry's count of big classes holds, or it has none: the meeting bound
    found again (with the split maxima: at least the entry's) and the arrangements of one more
    class than its row allows refuted again (:func:`_count_refutation`; with the entry's
    ``sets``, at most one more than the bound, and a whole flat as the meeting)."""
    if entry.get("count") is None:
        return True
    part, allowed = (int(v) for v in entry["count"])
    ceiling, meeting, sets = entry.get("ceiling"), entry.get("meeting"), entry.get("sets")
    if not isinstance(ceiling, int) or not isinstance(meeting, int):
        return False
    if sets is not None and (not isinstance(sets, int) or sets > bound + 1
                             or meeting != deck_size(properties - 2)):  # fmt: skip
        return False
    found = meeting_bound(properties, cards, bound, part, ceiling, most, most_below, table)
    if found is not None and found < meeting:
        return False
    certificate = arrangement_certificate(properties, allowed + 1, part, ceiling, meeting, cards,
                                          sets, complement=sets is not None)  # fmt: skip
    return certificate is not None


def verify_split_bound(record: dict[str, Any]) -> bool:
    """Re-check a record of :func:`prove_split_bound` or :func:`split_upper_bound`: the
    programs by the other solver on the same models (:func:`~setlab.extremal.bounds.
    verify_max_bound` with their theta and forced types), the pencils above the pencil theta by
    running :func:`two_big_hyperplanes` again, and for each t of the middle case (between the
    two thetas) every quadruple of :func:`middle_types` covered by a program of that t (one
    with a bound on its pencil's cells only where :func:`middle_cells` finds no pencil of its
    types above it); where a program has a count of big classes, its meeting bound found
    again and its arrangements refuted again.

    Examples
    --------
    >>> plane = {k: v for k, v in enumerate([0, 0, 0, 1, 1, 2, 3, 5, 8, 12])}
    >>> record = prove_split_bound(3, 12, 15, plane, {0: 0, 1: 0, 2: 0, 3: 1})
    >>> verify_split_bound(record), verify_split_bound({**record, "theta": 7})
    (True, False)
    """
    if record.get("method") != "split":
        return False
    properties, cards, theta = int(record["properties"]), int(record["cards"]), record["theta"]
    program, pencil = record["program"], record["pencil"]
    top = pencil.get("theta", theta)
    claim = record.get("claim")
    if program.get("claim") != claim or int(program["cards"]) != cards or top < theta:
        return False
    if not verify_max_bound(program, big=theta):
        return False
    known_max = {int(k): int(v) for k, v in program["known_max"].items()}
    known_below = {int(k): int(v) for k, v in pencil["known_below"].items()}
    most, most_below = _tables_for(properties, known_max, known_below)
    bound = int(str(claim).split("<=")[1])
    rows = record.get("split_maxima") or []
    split_maxima = {(int(a), int(b), int(c)): int(v) for a, b, c, v in rows}
    for split, value in split_maxima.items():  # each bound recomputed
        found = _split_maximum(properties - 2, split, tuple(most_below))
        if found is None or found > value:
            return False
    table = split_table(properties - 2, split_maxima) if split_maxima else None
    middle = record.get("middle") or []
    for entry in middle:
        t = entry.get("big")
        if not (
            isinstance(t, int)
            and theta < t <= top
            and entry.get("claim") == claim
            and entry.get("known_max") == program["known_max"]
            and int(entry["cards"]) == cards
            and verify_max_bound(entry, big=t, forced=entry.get("forced") or [],
                                 ceiling=entry.get("ceiling"), count=entry.get("count"),
                                 cells=entry.get("cells"))
            and _verify_count(entry, properties, cards, bound, most, most_below, table)
        ):  # fmt: skip
            return False
    for t in range(theta + 1, top + 1):
        refuted: dict[tuple[tuple[int, ...], ...], float] = {}  # forced types: highest ceiling
        cells = None  # the cells' bounds found again, where an entry rests on one
        for entry in middle:
            if entry["big"] == t:
                kinds, ceiling = _kinds(entry.get("forced") or []), entry.get("ceiling")
                if entry.get("cells") is not None:
                    if cells is None:
                        cells = middle_cells(properties, cards, t, most, most_below, bound,
                                             split_most=table)  # fmt: skip
                    if entry["cells"] < cells.get(kinds, -1):  # some pencil's cells hold more
                        continue
                high = math.inf if ceiling is None else ceiling
                refuted[kinds] = max(refuted.get(kinds, -math.inf), high)
        quads = middle_types(properties, cards, t, most, most_below, bound, split_most=table)
        if not all(_covered(quad, refuted) for quad in quads):
            return False
    largest, _ = two_big_hyperplanes(
        properties, cards, top, most, most_below, floor=bound, split_most=table
    )
    return largest <= bound
