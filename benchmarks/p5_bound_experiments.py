"""Exploratory (NOT wired into the solver, NOT certified): stronger programs for the open
M(140..145) of AG(5,3). Each is the slice program of `setlab.extremal.bounds` with extra rows;
HiGHS (scipy milp) reports the integer optimum of L. Three variants:

* base: the slice program as the solver builds it (P = 4 maxima from the store);
* flats: + the size distributions of the 32670 planes (v_s) and 10890 3-flats (w_s):
  sum v = 32670, sum s v = 1210 n, sum C(s,2) v = 40 C(n,2), sum C(s,3) v = 40 L + C(n,3) - L,
  40 L in [sum m2(s) v, sum M2(s) v]; sum w = 10890, sum s w = 1210 n, sum C(s,2) w =
  130 C(n,2), sum C(s,3) w = 130 L + 13 (C(n,3) - L), 130 L in [sum m3 w, sum M3 w]; and for
  k = 4, 5 the k-subsets by the dimension d of their span (Q_d >= 0): planes see Q_2, 3-flats
  13 Q_2 + Q_3, the 363 slices 13 Q_2 + 4 Q_3 + Q_4, and Q_2 + .. + Q_5 = C(n,k).
* closure: the pencil cell bound. Classes f, g and f+g, f-g cut AG(5,3) into nine 3-flats; a
  cell u lies in one slice of each of the four classes and every other cell in exactly one of
  those four slices, so the four slices through u hold 3|S cap u| + n cards, and |S cap u| <= 27.
  Take theta, and delta = ceil((n + 82 - 2 theta)/2) - 1. B: classes with a slice >= theta; D:
  classes with a slice <= delta. For f, g in B the cell of their big slices would hold > 27
  cards unless f+g or f-g is in D. So if every class of D is in B, every line of PG(4,3) through
  two points of B holds a third: B is "secant-closed", and the closed sets of <= 9 points have
  1, 3, 4 or 9 points (exhaustive, `closed_sizes`). Per theta: a binary disjunction "|B| in
  {0, 1, 3, 4, 9} or |B| >= 10, or D has a class outside B".

    PYTHONPATH=src python benchmarks/p5_bound_experiments.py STORE [n ...]   (default 140)

STORE holds the proven P = 4 maxima and the P = 3 table (read through `setlab.store.Store`).
Measured numbers: docs/maxsets.md.
"""

from __future__ import annotations

if __name__ == "__main__":  # first: a Ctrl-C in the imports below is then one line (_common.py)
    from _common import run_script  # only so: tests load this file by its path

import itertools
import resource
import sys
import time
from math import comb
from pathlib import Path

import numpy as np
from scipy.optimize import Bounds, LinearConstraint, milp

from setlab.errors import SetlabError
from setlab.extremal.bounds import slice_program
from setlab.extremal.identities import degree_bound
from setlab.store import Store

M2 = [0, 0, 0, 1, 1, 2, 3, 5, 8, 12]
m2 = [0, 0, 0, 0, 0, 1, 2, 4, 8, 12]


def closed_sizes(limit: int) -> list[int]:
    """Sizes <= limit of point sets of PG(4,3) in which every line through two points holds a
    third; a depth-first search from two points (PGL is transitive on pairs) that branches on
    the two candidate third points of an unsatisfied pair, and extends closed sets by any point."""

    def norm(v: tuple[int, ...]) -> tuple[int, ...] | None:
        lead = next((x for x in v if x), 0)
        return tuple((y * lead) % 3 for y in v) if lead else None

    points = [p for p in (norm(v) for v in itertools.product(range(3), repeat=5)) if p]
    points = sorted(set(points))
    sizes, seen = {1}, set()

    def open_pair(k: frozenset) -> tuple | None:
        for p, q in itertools.combinations(sorted(k), 2):
            s = norm(tuple((a + b) % 3 for a, b in zip(p, q, strict=True)))
            d = norm(tuple((a - b) % 3 for a, b in zip(p, q, strict=True)))
            if s not in k and d not in k:
                return s, d
        return None

    stack = [frozenset(points[i] for i in (0, 1))]
    while stack:
        k = stack.pop()
        if k in seen:
            continue
        seen.add(k)
        pair = open_pair(k)
        if pair is None:
            sizes.add(len(k))
        if len(k) >= limit:
            continue
        candidates = pair if pair is not None else [p for p in points if p not in k]
        stack.extend(k | {p} for p in candidates)
    return sorted(sizes)


class Program:
    """The slice program as sparse rows, with extra columns and rows appended."""

    def __init__(self, n: int, known_max: dict[int, int]) -> None:
        base = slice_program(5, n, 0, degree_bound(5, n), known_max)
        self.n = n
        self.names = [v[0] for v in base.variables]
        self.low = [float(v[1]) for v in base.variables]
        self.high = [float(v[2]) for v in base.variables]
        self.integer = [1] * len(self.names)
        self.rows: list[tuple[dict[int, float], float, float]] = []
        for coefficients, lo, hi in base.rows:
            self.add({i: float(a) for i, a in coefficients}, lo, hi)
        self.types = {
            i: tuple(int(a) for a in name[2:].split("_"))
            for i, name in enumerate(self.names)
            if name.startswith("x_")
        }

    def column(self, name: str, low: float, high: float, integer: int = 1) -> int:
        self.names.append(name)
        self.low.append(low)
        self.high.append(high)
        self.integer.append(integer)
        return len(self.names) - 1

    def add(self, row: dict[int, float], low: float | None, high: float | None, scale=1.0):
        self.rows.append(
            (
                {i: a / scale for i, a in row.items()},
                -np.inf if low is None else low / scale,
                np.inf if high is None else high / scale,
            )
        )

    def optimum(self, seconds: float = 600) -> float | None:
        matrix = np.zeros((len(self.rows), len(self.names)))
        for r, (row, _, _) in enumerate(self.rows):
            for i, a in row.items():
                matrix[r, i] = a
        cost = np.zeros(len(self.names))
        cost[0] = -1
        result = milp(
            cost,
            constraints=LinearConstraint(
                matrix, [lo for _, lo, _ in self.rows], [hi for _, _, hi in self.rows]
            ),
            integrality=np.array(self.integer),
            bounds=Bounds(self.low, self.high),
            options={"time_limit": seconds},
        )
        return None if result.x is None else float(result.x[0])


def add_flats(program: Program, m3_most: list[int], m3_least: list[int], kmax: int = 5):
    n = program.n
    v = [program.column(f"v{s}", 0, 32670) for s in range(10)]
    w = [program.column(f"w{s}", 0, 10890) for s in range(28)]
    for cols, most, least, count, pairs, triples, inside, plain in (
        (v, M2, m2, 32670, 40, 40, 40, 1),
        (w, m3_most, m3_least, 10890, 130, 130, 130, 13),
    ):
        size = len(cols)
        program.add({cols[s]: 1 for s in range(size)}, count, count)
        program.add({cols[s]: s for s in range(size)}, 1210 * n, 1210 * n)
        program.add(
            {cols[s]: comb(s, 2) for s in range(size)}, pairs * comb(n, 2), pairs * comb(n, 2)
        )
        row = {cols[s]: comb(s, 3) for s in range(size)}
        row[0] = -(triples - plain)
        program.add(row, plain * comb(n, 3), plain * comb(n, 3))
        program.add({**{cols[s]: most[s] for s in range(size)}, 0: -inside}, 0, None)
        program.add({**{cols[s]: least[s] for s in range(size)}, 0: -inside}, None, 0)
    for k in range(4, kmax + 1):
        q = {d: program.column(f"Q{k}_{d}", 0, np.inf, 0) for d in (2, 3, 4, 5)}
        scale = float(comb(n, k))
        program.add({q[d]: 1 for d in q}, comb(n, k), comb(n, k), scale)
        row = {i: float(sum(comb(a, k) for a in t)) for i, t in program.types.items()}
        program.add({**row, q[2]: -13, q[3]: -4, q[4]: -1}, 0, 0, scale)
        program.add({**{v[s]: comb(s, k) for s in range(10)}, q[2]: -1}, 0, 0, scale)
        program.add({**{w[s]: comb(s, k) for s in range(28)}, q[2]: -13, q[3]: -1}, 0, 0, scale)


def add_closure(program: Program, thetas: list[int], closed: list[int]) -> None:
    n = program.n
    for theta in thetas:
        delta = -(-(n + 82 - 2 * theta) // 2) - 1
        z = {k: program.column(f"z{theta}_{k}", 0, 1) for k in closed}
        big = program.column(f"z{theta}_big", 0, 1)
        escape = program.column(f"z{theta}_escape", 0, 1)
        in_b = [i for i, t in program.types.items() if t[0] >= theta]
        d_only = [i for i, t in program.types.items() if t[2] <= delta and t[0] < theta]
        size = {i: 1.0 for i in in_b}
        program.add({**size, **{z[k]: -k for k in closed}, big: -121, escape: -121}, None, 0)
        program.add({**size, **{z[k]: -k for k in closed}, big: -(max(closed) + 1)}, 0, None)
        program.add({**{z[k]: 1 for k in closed}, big: 1}, None, 1)
        program.add({**{i: -1.0 for i in d_only}, escape: 1}, None, 0)


def proven_table(store: Store, problem: str, properties: int) -> dict[int, int]:
    """The proven values of ``problem`` for P = ``properties`` in ``store``, by n."""
    return {r.cards: r.bound for r in store.results(problem, properties)
            if r.proven and not r.params}


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] in (["-h"], ["--help"]):
        print(__doc__)
        return 0
    try:
        path, cards = Path(argv[0]), [int(a) for a in argv[1:]] or [140]
    except (IndexError, ValueError):
        print("error: usage: p5_bound_experiments.py STORE [n ...]", file=sys.stderr)
        return 2
    if not path.is_file():
        print(f"error: no results store at {path}", file=sys.stderr)
        return 2
    try:
        with Store(path) as store:
            known4 = proven_table(store, "maxsets", 4)
            most3, least3 = (proven_table(store, problem, 3) for problem in ("maxsets", "minsets"))
    except SetlabError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    for properties, tables in ((3, (most3, least3)), (4, (known4,))):
        if any(n not in table for table in tables for n in range(3**properties + 1)):
            print(f"error: {path} lacks the proven P = {properties} table "
                  f"(setlab maxsets -p {properties} --table)", file=sys.stderr)
            return 2
    most3, least3 = ([table[n] for n in range(28)] for table in (most3, least3))
    began = time.perf_counter()
    closed = [k for k in closed_sizes(9) if k > 0]
    print(f"secant-closed sets of <= 9 points in PG(4,3): sizes {closed} "
          f"({time.perf_counter() - began:.1f} s)")  # fmt: skip
    for n in cards:
        for label, extend in (
            ("base", lambda p: None),
            ("flats", lambda p: add_flats(p, most3, least3)),
            ("closure", lambda p: add_closure(p, list(range(50, 81, 2)), closed)),
        ):
            program = Program(n, known4)
            extend(program)
            began = time.perf_counter()
            value = program.optimum()
            print(f"n={n} {label}: integer optimum {value} ({time.perf_counter() - began:.1f} s)")
    print(f"peak memory {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MiB")
    return 0


if __name__ == "__main__":
    run_script(main, needs="STORE")
