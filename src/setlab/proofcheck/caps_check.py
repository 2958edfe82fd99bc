#!/usr/bin/env python3
"""Standalone check of a largest-cap claim in a setlab proof bundle: no cap of AG(P,3) has more
than s points (a witness of s points comes with it).

Standalone: numpy and the standard library, nothing from setlab. It rebuilds every program of
the claim's chain from the mathematics below, enumerates the patterns itself, and checks the
rational multipliers exactly.

The mathematics. A cap is a set S of points of AG(d,3), no three on a line (x + y + z = 0).
Known here without a certificate: a line holds at most 2 points of a cap, and AG(2,3) at most 4
(every subset of the 9 points is tried).

A pencil program (d, n, c, l): for an n-cap S of AG(d,3), take a codimension-2 direction U. Its
nine cells (translates of U) form AG(2,3); the 12 lines of that plane are the hyperplanes through
U, four parallel classes of three. A pattern is the nine sizes |S n cell| (each <= c, a proven
bound for AG(d-2,3)); each line's sum (a hyperplane size) is <= l, proven for AG(d-1,3); a line's
sorted triple must not be a split proven impossible earlier. Variables: z_p >= 0 (directions with
pattern p), w_t >= 0 (hyperplane classes whose sizes sort to t, sum n, parts <= l). With
K(k) = (3^k - 1)/2 and G(m) the number of 2-dimensional subspaces of F_3^m:

  pencils          sum z = G(d) (codimension-2 directions are 2-dim subspaces of the dual)
  class t          sum_p z_p #(classes of p of type t) - K(d-1) w_t = 0
                   (a hyperplane direction contains K(d-1) codimension-2 directions)
  classes          sum w = K(d)
  hyperplane 2, 3  sum_t w_t sum_{h in t} C(h,j) = C(n,j) K(d-j+1) (the hyperplanes through a
                   line, j = 2; through a plane, j = 3: three cap points span a plane)
  cell 2, 3        sum over the cells of all patterns C(f,j) = C(n,j) G(d-j+1) (codimension-2
                   flats through a line, a plane)
  inner j h        sum over the lines of sum h of all patterns, of their cells' C(f,j), equals
                   C(h,j) K(d-j) n_h, n_h = sum_t w_t #(h in t): inside a hyperplane of h points
                   its codimension-1 flats hold that many pairs (triples); each (hyperplane, flat
                   of it) is a (line, cell) of the pencil of the flat's direction.

A step with "forced" t adds w_t >= 1. Multipliers y refute {A x = b, x >= lo} when every column
has y.A_col <= 0 and y.(b - A lo) > 0. A step without "forced" proves that AG(d,3) has no n-cap
(so its largest cap has at most n - 1 points, a bound for later steps); a forced step proves that
no n-cap of AG(d,3) meets the three hyperplanes of a class in t, a split a later step forbids.

A "sections" step (d = 4, sorted a <= 3 < 5 <= b <= c) is searched here: the parts A, B, C in
x_0 = 0, 1, 2. A pair of B x C completes to a point of the first hyperplane, which A avoids (the
pairs A x B, A x C complete to those same points). The maps (x_0, y) -> (x_0, M y + u) keep each
hyperplane and act on the second as AGL(3,3), transitive on affine frames; B spans AG(3,3) (a
plane holds at most 4 cap points), so B holds 0, e1, e2, e3. Every such b-cap B meets every c-cap
C, and the claim holds when no free set holds an a-cap.
"""

from __future__ import annotations

import itertools
from fractions import Fraction
from math import comb
from typing import Any

import numpy as np

__all__ = ["check_largest_cap"]


def _k(m: int) -> int:
    return (3**m - 1) // 2 if m >= 0 else 0


def _g(m: int) -> int:
    """2-dimensional subspaces of F_3^m: pairs of independent vectors over |GL(2,3)| = 48."""
    if m < 2:
        return 0
    return (3**m - 1) * (3**m - 3) // 48


def _cap_size_of_plane() -> int:
    points = list(itertools.product(range(3), repeat=2))
    best = 0
    for mask in range(1 << 9):
        chosen = [points[i] for i in range(9) if mask >> i & 1]
        if len(chosen) <= best:
            continue
        if all((x[0] + y[0] + z[0]) % 3 or (x[1] + y[1] + z[1]) % 3
               for x, y, z in itertools.combinations(chosen, 3)):  # fmt: skip
            best = len(chosen)
    return best


# the 12 lines of the 3 x 3 grid of cells (i, j) -> 3i + j, by class: i, j, i + j, i + 2j fixed;
# a line of the last three classes has one cell in each row, listed row 0, 1, 2
_CLASSES = [[[3 * i + j for i in range(3) for j in range(3) if (u * i + v * j) % 3 == c]
             for c in range(3)] for u, v in ((1, 0), (0, 1), (1, 1), (1, 2))]  # fmt: skip
assert all(cell // 3 == row for cls in _CLASSES[1:] for ln in cls for row, cell in enumerate(ln))


def _patterns(n: int, cell: int, line: int, banned: set[tuple[int, ...]]):
    """Every pattern, as (count, 9) arrays, one per sum of the grid's first row: the three rows
    are allowed lines summing to n, then the other three classes' lines are tested. Each of those
    takes one cell of each row (cells ln[0], ln[1], ln[2] in rows 0, 1, 2), so for all first rows
    of one sum and all second and third rows of given sums the test is one table lookup per line,
    and a grid is built only for the triples of rows that pass."""
    good = np.zeros((cell + 1,) * 3, dtype=bool)
    for t in itertools.product(range(cell + 1), repeat=3):
        good[t] = sum(t) <= line and tuple(sorted(t)) not in banned
    rows = np.array([t for t in itertools.product(range(cell + 1), repeat=3) if good[t]])
    by_sum = {s: rows[rows.sum(1) == s] for s in range(3 * cell + 1)}
    others = [ln for cls in _CLASSES[1:] for ln in cls]
    for total, firsts in by_sum.items():
        if not len(firsts):
            continue
        rest = n - total
        found = []
        for s in range(rest + 1):
            second, third = by_sum.get(s), by_sum.get(rest - s)
            if second is None or third is None or not len(second) or not len(third):
                continue
            keep = np.ones((len(firsts), len(second), len(third)), dtype=bool)
            for ln in others:
                keep &= good[firsts[:, ln[0], None, None], second[None, :, ln[1] - 3, None],
                             third[None, None, :, ln[2] - 6]]  # fmt: skip
            f, i, k = np.nonzero(keep)
            found.append(np.hstack([firsts[f], second[i], third[k]]))
        if found:
            yield np.concatenate(found)


def _sorted3(a: np.ndarray, b: np.ndarray, c: np.ndarray) -> tuple[np.ndarray, ...]:
    """Three arrays sorted entrywise: (least, middle, largest)."""
    low, high = np.minimum(np.minimum(a, b), c), np.maximum(np.maximum(a, b), c)
    return low, a + b + c - low - high, high


def _distinct_rows(rows: np.ndarray) -> np.ndarray:
    """The distinct rows of a 2-D integer array, in lexicographic order."""
    rows = rows[np.lexsort(rows.T[::-1])]
    keep = np.ones(len(rows), dtype=bool)
    keep[1:] = (rows[1:] != rows[:-1]).any(axis=1)
    return rows[keep]


def _columns(chunks, cell: int) -> list[tuple[tuple[tuple[int, ...], ...], ...]]:
    """The distinct patterns up to what their columns see: per class, its three sorted lines
    (a line coded in base cell + 1, a class in base (cell + 1)^3, the classes sorted)."""
    base = cell + 1
    keys = []
    for grids in chunks:
        codes = []
        for cls in _CLASSES:
            lines = [_sorted3(*(grids[:, k] for k in ln)) for ln in cls]
            low, mid, high = _sorted3(*((x * base + y) * base + z for x, y, z in lines))
            codes.append((low * base**3 + mid) * base**3 + high)
        keys.append(_distinct_rows(np.sort(np.stack(codes, axis=1), axis=1)))
    if not keys:
        return []

    def line(code: int) -> tuple[int, ...]:
        return (code // base**2, code // base % base, code % base)

    def klass(code: int) -> tuple[tuple[int, ...], ...]:
        return (line(code // base**6), line(code // base**3 % base**3), line(code % base**3))

    return [tuple(klass(int(c)) for c in key) for key in _distinct_rows(np.concatenate(keys))]


def _check_program(step: dict[str, Any], banned: set[tuple[int, ...]]) -> list[str]:
    d, n = int(step["dimension"]), int(step["cards"])
    cell, line = int(step["cell_max"]), int(step["line_max"])
    try:
        y = {name: Fraction(value) for name, value in step["multipliers"].items()}
    except (ValueError, TypeError, ZeroDivisionError):
        return ["a multiplier is not a fraction"]
    types = [t for t in itertools.combinations_with_replacement(range(line + 1), 3)
             if sum(t) == n]  # fmt: skip
    names = {"pencils", "classes", "hyperplane 2", "hyperplane 3", "cell 2", "cell 3"}
    names |= {f"class {a}_{b}_{c}" for a, b, c in types}
    names |= {f"inner {j} {h}" for j in (2, 3) for h in range(line + 1)}
    unknown = set(y) - names
    if unknown:
        return [f"multipliers of rows the program has not: {sorted(unknown)[:3]}"]
    if "forced" in step and tuple(sorted(int(v) for v in step["forced"])) not in types:
        return [f"the forced type {step['forced']} is not three sizes <= {line} summing to {n}"]

    def get(name: str) -> Fraction:
        return y.get(name, Fraction(0))

    def w_column(t: tuple[int, ...]) -> Fraction:
        total = get("classes") - _k(d - 1) * get(f"class {t[0]}_{t[1]}_{t[2]}")
        for h in t:
            total += comb(h, 2) * get("hyperplane 2") + comb(h, 3) * get("hyperplane 3")
            total -= comb(h, 2) * _k(d - 2) * get(f"inner 2 {h}")
            total -= comb(h, 3) * _k(d - 3) * get(f"inner 3 {h}")
        return total

    errors = []
    worst = [t for t in types if w_column(t) > 0]
    if worst:
        errors.append(f"the column of class type {worst[0]} has y.A > 0")
    weighed: dict[tuple[Any, ...], Fraction] = {}  # y . (a line's or a class's entries)

    def line_column(ln: tuple[int, ...]) -> Fraction:
        if ln not in weighed:
            h, total = sum(ln), Fraction(0)
            for j in (2, 3):
                inside = sum(comb(f, j) for f in ln)
                total += inside * get(f"inner {j} {h}") + Fraction(inside, 4) * get(f"cell {j}")
            weighed[ln] = total
        return weighed[ln]

    def class_column(cls: tuple[tuple[int, ...], ...]) -> Fraction:
        if cls not in weighed:
            t = sorted(sum(ln) for ln in cls)
            weighed[cls] = get(f"class {t[0]}_{t[1]}_{t[2]}") + sum(map(line_column, cls))
        return weighed[cls]

    for pattern in _columns(_patterns(n, cell, line, banned), cell):
        total = get("pencils") + sum(class_column(cls) for cls in pattern)
        if total > 0:
            errors.append(f"the column of pattern {pattern} has y.A > 0")
            break
    rhs = (get("pencils") * _g(d) + get("classes") * _k(d)
           + get("hyperplane 2") * comb(n, 2) * _k(d - 1)
           + get("hyperplane 3") * comb(n, 3) * _k(d - 2)
           + get("cell 2") * comb(n, 2) * _g(d - 1)
           + get("cell 3") * comb(n, 3) * _g(d - 2))  # fmt: skip
    if "forced" in step:
        rhs -= w_column(tuple(sorted(int(v) for v in step["forced"])))
    if rhs <= 0:
        errors.append(f"y.(b - A lo) = {rhs} is not positive")
    return errors


def _caps3(k: int) -> np.ndarray:
    """(count, k) every k-cap of AG(3,3) as sorted point indices (x, y, z) -> 9x + 3y + z, grown
    one point at a time in numpy, the new point larger than the rest."""
    points = np.array(list(itertools.product(range(3), repeat=3)))
    third = ((-(points[:, None, :] + points[None, :, :])) % 3) @ np.array([9, 3, 1])
    level = np.arange(27)[:, None]
    for _ in range(k - 1):
        grown = []
        for new in range(27):
            rows = level[level[:, -1] < new]
            # new joins a row unless it completes a pair (new, x) of the row to a third row point
            completing = third[new][rows]
            bad = (completing[:, :, None] == rows[:, None, :]).any(axis=(1, 2))
            grown.append(np.hstack([rows[~bad], np.full((int((~bad).sum()), 1), new)]))
        level = np.concatenate(grown)
    return level


def _sections_impossible(sections: list[int]) -> bool:
    """Whether no cap of AG(4,3) meets x_0 = 0, 1, 2 in a, b, c points (searched, see above).

    A set of points of AG(3,3) is a 27-bit mask. For a fixed B, each point p of C rules out the
    b completions of p with B; the points left free by a c-cap C are those no point of C rules
    out, counted by a table of 14-bit halves.
    """
    a, b, c = sorted(int(v) for v in sections)
    if a > 3 or b < 5:
        raise ValueError("a sections step needs a <= 3 < 5 <= b <= c")
    points = np.array(list(itertools.product(range(3), repeat=3)))
    weights = np.array([9, 3, 1])
    third = (-(points[:, None, :] + points[None, :, :])) % 3 @ weights  # (27, 27)
    lines = np.array(sorted({(1 << x) | (1 << y) | (1 << int(third[x, y]))
                             for x in range(27) for y in range(x + 1, 27)}))  # fmt: skip
    ones = np.array([bin(m).count("1") for m in range(1 << 14)], dtype=np.int64)
    frame = {0, 1, 3, 9}
    bs = [row for row in _caps3(b) if frame <= set(row.tolist())]
    cs = _caps3(c)
    for first in bs:
        ruled = np.bitwise_or.reduce(np.left_shift(1, third[first].astype(np.int64)), axis=0)
        hit = np.bitwise_or.reduce(ruled[cs], axis=1)  # per c-cap: the points it rules out
        free = 27 - ones[hit & 16383] - ones[hit >> 14]
        if (free > a).any() or (a < 3 and (free == a).any()):
            return False
        # three free points hold a 3-cap unless they are a line
        if a == 3 and not np.isin(~hit[free == 3] & ((1 << 27) - 1), lines).all():
            return False
    return True


def check_largest_cap(claim: dict[str, Any]) -> list[str]:
    """Errors of a largest-cap claim (an empty list when it holds)."""
    p, value = int(claim["properties"]), int(claim["value"])
    witness = [tuple(int(v) % 3 for v in w) for w in claim["witness"]]
    errors = []
    if len(set(witness)) != value or any(len(w) != p for w in witness):
        errors.append(f"the witness is not {value} distinct points of AG({p},3)")
    members = set(witness)
    for x, y in itertools.combinations(witness if not errors else [], 2):
        if tuple((-(u + v)) % 3 for u, v in zip(x, y, strict=True)) in members:
            errors.append(f"the witness holds the line through {x} and {y}")
            break
    proof = claim.get("proof") or {}
    if proof.get("method") != "pencil chain":
        return [*errors, f"unknown method {proof.get('method')!r}"]
    largest = {0: 1, 1: 2, 2: _cap_size_of_plane()}  # proven upper bounds by dimension
    splits: dict[int, set[tuple[int, ...]]] = {}  # dimension -> impossible sorted sections
    for step in proof["steps"]:
        d, n = int(step["dimension"]), int(step["cards"])
        label = step.get("lemma", f"step d = {d}, n = {n}")
        if "sections" in step:
            if d != 4 or sum(int(v) for v in step["sections"]) != n:
                errors.append(f"{label}: a sections step is for AG(4,3) and sums to n")
            elif _sections_impossible(step["sections"]):
                splits.setdefault(d, set()).add(tuple(sorted(int(v) for v in step["sections"])))
            else:
                errors.append(f"{label}: the search found such a cap")
            continue
        cell, line = int(step["cell_max"]), int(step["line_max"])
        banned = {tuple(sorted(int(v) for v in t)) for t in step.get("forbidden", [])}
        if d < 3 or d > p:
            errors.append(f"{label}: pencil steps are for 3 <= d <= P")
            continue
        if largest.get(d - 2, 10**9) > cell or largest.get(d - 1, 10**9) > line:
            errors.append(f"{label}: cell or line bound not proven ({cell}, {line})")
            continue
        if not banned <= splits.get(d - 1, set()):
            errors.append(f"{label}: forbids splits not proven impossible")
            continue
        failed = _check_program(step, banned)
        if failed:
            errors += [f"{label}: {e}" for e in failed]
            continue
        if "forced" in step:
            splits.setdefault(d, set()).add(tuple(sorted(int(v) for v in step["forced"])))
        else:
            largest[d] = min(largest.get(d, n - 1), n - 1)
    if not errors and largest.get(p) != value:
        errors.append(f"the chain bounds AG({p},3) by {largest.get(p)}, not {value}")
    return errors
