#!/usr/bin/env python3
"""Standalone check that no n cards of AG(P,3) hold exactly one set (the fibre split).

Standalone: the standard library and numpy, and check.py beside this file for the classification
of caps (closure by counting, bliss through python-igraph); nothing from setlab. It rebuilds
every case and its CNF from the mathematics below and follows each case's LRAT refutation.

The mathematics. Let S be n cards whose only set is the line L, with L's direction taken as the
last digit. The lines parallel to L (fibres) are the points x of AG(P-1,3); card (x, a) lies in
fibre x at label a, and three cards in three different fibres form a set exactly when the fibres
are collinear and the labels sum to 0 mod 3. Write o for L's fibre (it holds 3 cards; no other
fibre does, that would be a second set), D for the fibres holding 2 cards (k of them), and call
the fibres holding 1 card singles: n = 3 + 2k + the singles.
1. Two fibres p, q holding 2 cards each, on a line of AG(P-1,3) with a third fibre z: the four
   pairs of their cards complete to cards of z of labels -(a + b), and a + b takes all three
   values (a, b from two 2-sets of labels). So every card of z is on a set other than L, and z
   holds none: K = D + {o} is a cap of AG(P-1,3) (with z = o or a double), and no single lies
   on a secant of two doubles.
2. A card in fibre x and one in x' = 2o - x (the third point of o, x) complete to a card of the
   full fibre o. So at most one fibre of each pair {x, 2o - x} holds cards, and no single lies
   on a secant through o. The singles lie in ext(K), the points off K and off its secants, at
   most one in each pair: n - 3 - 2k <= the pairs meeting ext(K) (the room).
3. On a line {x, y, z} of AG(P-1,3) inside ext(K) + D (at most one double: K is a cap and ext
   avoids its secants), with single labels b, c and a double missing label g: no set exactly
   when b + c + g = 0 (its cards g + 1, g + 2 miss -(b + c) only then); three singles a, b, c:
   no set exactly when a + b + c != 0.
4. Symmetry: x -> Ax (an affine map of AG(P-1,3)) with a fixed, so (K, o) is a class
   representative and o one point of each orbit of K's stabiliser; (x, a) -> (x, a + psi(x))
   with psi affine, which keeps every fibre and every set, so the missing labels of the first
   affinely independent doubles (at most P of them, in increasing order) are 0.

The CNF of a case (K, o, n), exactly (the certificate's LRAT names its clauses by number):
ext sorted increasingly, D = sorted(K - o), k = |D|; pairs = the sets {x, 2o - x} for x in ext,
sorted by their (smaller, larger) points, each with its members in ext; need = n - 3 - 2k and
r = |pairs| - need (a case exists when 0 <= need and r >= 0). Variables: s(i, a) = 3i + a + 1 for
the i-th point of ext; g(j, a) = 3|ext| + 3j + a + 1 for the j-th double; y(t) = 3|ext| + 3k + t
+ 1 for the t-th pair; R(i, j) = 3|ext| + 3k + |pairs| + r i + j + 1 (i < |pairs|, j < r).
Clauses, in order:
  each double j: [g(j,0), g(j,1), g(j,2)], [-g(j,0), -g(j,1)], [-g(j,0), -g(j,2)],
  [-g(j,1), -g(j,2)];
  each independent double j: [g(j, 0)];
  each pair t: [-u, -v] for the pairs u < v (in list order) of its s variables (members in
  increasing order, labels 0, 1, 2 each), then [-y(t)] + those variables;
  at most r of the literals l_t = -y(t) (t < |pairs|): if r = 0, [y(t)] for each t; else
  [y(0), R(0,0)], then for t >= 1: [y(t), R(t,0)]; [-R(t-1,j), R(t,j)] for j < r;
  [y(t), -R(t-1,j-1), R(t,j)] for 1 <= j < r; [y(t), -R(t-1,r-1)];
  each line {u < v < w} of AG(P-1,3) inside ext + D (lines in increasing order of (u, v, w)),
  each labels (a, b, c) in 0..2 (the last fastest) that would make a set: [-X(u,a), -X(v,b),
  -X(w,c)], X being g for a double and s for a single.
"""

from __future__ import annotations

import importlib.util
import itertools
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import numpy as np

__all__ = ["case_cnf", "check_lrat", "check_one_set"]


def _space(properties: int) -> tuple[np.ndarray, np.ndarray]:
    """Digits of the points of AG(d,3) and the third point of every pair."""
    n = 3**properties
    weights = 3 ** np.arange(properties - 1, -1, -1)
    digits = (np.arange(n)[:, None] // weights[None, :]) % 3
    third = (-(digits[:, None, :] + digits[None, :, :]) % 3) @ weights
    return digits, third


def _independent(points: list[int], digits: np.ndarray, most: int) -> list[int]:
    """The points kept when scanning in order and keeping each one affinely independent of
    those kept, up to ``most``: rank of the differences to the first, over F_3."""
    kept: list[int] = []
    rows: list[np.ndarray] = []  # reduced rows: (pivot column, row)
    pivots: list[int] = []
    for x in points:
        if len(kept) == most:
            break
        if not kept:
            kept.append(x)
            continue
        v = (digits[x] - digits[kept[0]]) % 3
        for col, row in zip(pivots, rows, strict=True):
            if v[col]:
                v = (v - v[col] * row) % 3
        nonzero = np.flatnonzero(v)
        if nonzero.size:
            col = int(nonzero[0])
            v = (v * v[col]) % 3  # v[col] is 1 or 2, its own inverse mod 3
            pivots.append(col)
            rows.append(v)
            kept.append(x)
    return kept


def case_cnf(dimension: int, cap: list[int], fibre: int, cards: int
             ) -> tuple[int, list[list[int]]] | None:  # fmt: skip
    """The CNF of the case (cap K of AG(dimension,3), o = fibre, n = cards), or None when the
    room is too small (the module docstring states the clauses, in order).

    >>> nv, clauses = case_cnf(2, [0, 1, 4], 0, 7)  # AG(2,3): o + 2 doubles + 0 singles
    >>> nv > 0 and all(clauses)
    True
    """
    digits, third = _space(dimension)
    n = 3**dimension
    covered = set(cap)
    for a, b in itertools.combinations(cap, 2):
        covered.add(int(third[a, b]))
    ext = [x for x in range(n) if x not in covered]
    doubles = sorted(x for x in cap if x != fibre)
    k = len(doubles)
    members: dict[tuple[int, int], list[int]] = {}
    for x in ext:
        pair = tuple(sorted((x, int(third[fibre, x]))))
        members.setdefault(pair, []).append(x)  # ext ascending: members ascending
    pairs = sorted(members)
    need = cards - 3 - 2 * k
    r = len(pairs) - need
    if need < 0 or r < 0:
        return None
    e = len(ext)
    single = {x: 3 * i + 1 for i, x in enumerate(ext)}  # s(i, a) = single[x] + a
    double = {x: 3 * e + 3 * j + 1 for j, x in enumerate(doubles)}
    y0 = 3 * e + 3 * k + 1
    r0 = y0 + len(pairs)
    clauses: list[list[int]] = []
    for x in doubles:
        g = double[x]
        clauses.append([g, g + 1, g + 2])
        clauses += [[-g, -g - 1], [-g, -g - 2], [-g - 1, -g - 2]]
    for x in _independent(doubles, digits, dimension + 1):
        clauses.append([double[x]])
    for t, pair in enumerate(pairs):
        options = [single[x] + a for x in members[pair] for a in range(3)]
        clauses += [[-u, -v] for u, v in itertools.combinations(options, 2)]
        clauses.append([-(y0 + t), *options])
    if r == 0:
        clauses += [[y0 + t] for t in range(len(pairs))]
    else:
        def R(i: int, j: int) -> int:
            return r0 + r * i + j

        clauses.append([y0, R(0, 0)])
        for t in range(1, len(pairs)):
            y = y0 + t
            clauses.append([y, R(t, 0)])
            clauses += [[-R(t - 1, j), R(t, j)] for j in range(r)]
            clauses += [[y, -R(t - 1, j - 1), R(t, j)] for j in range(1, r)]
            clauses.append([y, -R(t - 1, r - 1)])
    n_vars = r0 - 1 + r * len(pairs)
    allowed = set(ext) | set(doubles)
    for u in range(n):
        for v in range(u + 1, n):
            w = int(third[u, v])
            if w <= v or not {u, v, w} <= allowed:
                continue
            line = (u, v, w)
            on = [x for x in line if x in double]
            if len(on) > 1:
                raise ValueError(f"the line {line} holds two doubles of a cap")
            for labels in itertools.product(range(3), repeat=3):
                zero = sum(labels) % 3 == 0
                if zero != bool(on):  # a set: singles summing to 0, or b + c + g != 0
                    clauses.append([-((double[x] if x in double else single[x]) + a)
                                    for x, a in zip(line, labels, strict=True)])  # fmt: skip
    return n_vars, clauses


def check_lrat(clauses: list[list[int]], lines: Iterable[str]) -> str | None:
    """None when the LRAT lines derive the empty clause from ``clauses`` (ids 1..m), else why not.

    Each line is ``id literals 0 hints 0`` with ids increasing past m. Under the negation of the
    clause, each hint must leave exactly one literal open (it becomes true) until one leaves
    none: the clause follows by unit propagation along the hints alone.

    >>> check_lrat([[1, 2], [-1, 2], [1, -2], [-1, -2]], ["5 2 0 1 2 0", "6 0 5 3 4 0"])
    >>> check_lrat([[1, 2], [-1, 2], [1, -2]], ["4 2 0 1 2 0", "5 0 4 3 0"])
    '5: no conflict'
    """
    db: dict[int, list[int]] = dict(enumerate(clauses, 1))
    last = len(clauses)
    for line in lines:
        numbers = [int(w) for w in line.split()]
        cid = numbers[0]
        zero = numbers.index(0, 1)
        lemma, hints = numbers[1:zero], numbers[zero + 1 : -1]
        if cid <= last or numbers[-1] != 0:
            return f"{cid}: ids must increase past the CNF's and lines end in 0"
        last = cid
        true = {-x for x in lemma}
        for h in hints:
            clause = db.get(h)
            if clause is None:
                return f"{cid}: hint {h} is no clause"
            open_ = None
            count = 0
            for x in clause:
                if x in true:
                    return f"{cid}: hint {h} is satisfied"
                if -x not in true:
                    open_ = x
                    count += 1
            if count == 0:
                break  # falsified: the clause follows
            if count > 1:
                return f"{cid}: hint {h} is not unit"
            true.add(open_)
        else:
            return f"{cid}: no conflict"
        if not lemma:
            return None
        db[cid] = lemma
    return "no empty clause"


def _check_module() -> Any:
    """check.py beside this file (the classification of caps, bliss)."""
    path = Path(__file__).with_name("check.py")
    spec = importlib.util.spec_from_file_location("setlab_bundle_check", path)
    if spec is None or spec.loader is None:
        raise ImportError(f"{path} is missing")
    module = sys.modules.get(spec.name)
    if module is None:
        module = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = module
        spec.loader.exec_module(module)
    return module


class _Levels:
    """The cap levels of a claim, shaped as check.py's bundle for its closure check."""

    def __init__(self, levels: list[list[list[int]]]) -> None:
        self.levels = levels
        self.censuses: dict[str, Any] = {}

    def level(self, path: str) -> list[list[int]]:
        return self.levels[int(path)]

    def census(self, p: int, path: str, reps: Any, degree: Any, run: Any) -> Any:
        if path not in self.censuses:
            self.censuses[path] = run.census(p, reps, degree)
        return self.censuses[path]


def check_one_set(claim: dict[str, Any], lrat: Callable[[int], Iterable[str]],
                  workers: int = 1) -> list[str]:  # fmt: skip
    """Errors of the claim "no ``cards`` cards of AG(``properties``,3) hold exactly one set".

    ``claim["caps"][j]`` lists the classes of j-caps of AG(P-1,3), the last level empty;
    ``claim["cases"][i]`` = {"cap", "fibre"} is refuted by the LRAT lines ``lrat(i)``. Checked:
    the levels are complete (check.py's closure by counting), every orbit of o with room has a
    case, and every case's LRAT derives the empty clause from the CNF rebuilt here.
    """
    p, n = int(claim["properties"]), int(claim["cards"])
    d = p - 1
    levels = [[[int(x) for x in rep] for rep in level] for level in claim["caps"]]
    if d < 1 or not levels or levels[-1]:
        return ["the cap levels must end with an empty level"]
    check = _check_module()
    run = check.Runner(workers)
    try:
        value = {"properties": d, "cards": len(levels) - 1, "sense": "min", "value": 1}
        certificate = {"threshold": 0, "levels": [str(j) for j in range(1, len(levels))]}
        errors = check.check_search(_Levels(levels), value, certificate, run)
        if errors:
            return [f"caps of AG({d},3): {e}" for e in errors]
        space = check.space(d)
        given: dict[tuple[tuple[int, ...], int], int] = {}
        for i, case in enumerate(claim["cases"]):
            given[tuple(sorted(int(x) for x in case["cap"])), int(case["fibre"])] = i
        wanted = []
        for level in levels:
            for cap in level:
                labels = space.stabiliser_orbits(cap)
                for orbit in sorted({int(labels[x]) for x in cap}):
                    points = [x for x in cap if labels[x] == orbit]
                    if case_cnf(d, cap, points[0], n) is None:
                        continue
                    found = [given[tuple(sorted(cap)), x] for x in points
                             if (tuple(sorted(cap)), x) in given]  # fmt: skip
                    if not found:
                        return [f"no case for the cap {cap} with o in the orbit of {points[0]}"]
                    wanted.append(found[0])
        errors = []
        for i in wanted:
            case = claim["cases"][i]
            cnf = case_cnf(d, [int(x) for x in case["cap"]], int(case["fibre"]), n)
            assert cnf is not None
            try:
                failure = check_lrat(cnf[1], lrat(i))
            except (ValueError, IndexError) as error:  # not numbers, or no 0 where one belongs
                failure = f"malformed LRAT ({error})"
            if failure is not None:
                errors.append(f"case {i} (cap {case['cap']}, o = {case['fibre']}): {failure}")
        return errors
    finally:
        run.close()
