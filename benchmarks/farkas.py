"""Exact Farkas certificates for every M_4(n), m_4(n) the slice programs can prove: time to
produce them, time to check them with the standalone checker, against re-solving the same
programs with CP-SAT (the solver `setlab verify --rerun` uses), and peak memory.

Values come from a solver run without searches (deletion, complement, the programs); a value is
certified when its LP relaxation (or a branching tree over it) refutes one set more (max) or one
set fewer (min). ``--plane-coupling`` also measures item 5's first candidate for M(48..53): the
class program coupled to the plane profile by counting k-subsets inside a common hyperplane.

    PYTHONPATH=src python benchmarks/farkas.py [--plane-coupling]
"""

from __future__ import annotations

import importlib.util
import resource
import sys
import time
import tracemalloc
from math import comb
from pathlib import Path

import numpy as np
from scipy.optimize import Bounds, LinearConstraint, milp

from setlab.extremal.bounds import slice_program, solve_cpsat
from setlab.extremal.farkas import farkas_certificate, program_range
from setlab.extremal.identities import degree_bound
from setlab.extremal.maxsets import Solver
from setlab.store import Store

CHECKER = Path(__file__).resolve().parents[1] / "src" / "setlab" / "proofcheck" / "farkas_check.py"


def load_checker():
    spec = importlib.util.spec_from_file_location("farkas_check", CHECKER)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def plane_coupled_bound(n: int, m3: dict[int, int]) -> float:
    """ILP optimum of L: the class program plus v_s (planes with s cards, s = 0..9), tied by
    sum_classes sum_slices C(s,k) = C(n,4) + 3 Q_4 (k = 4) and 4 Q_k <= ... <= C(n,k) + 3 Q_k
    (k = 5..9), Q_k = sum_s v_s C(s,k) (a k-set spanning a plane lies in 4 hyperplanes of AG(4,3),
    one spanning a 3-flat in 1); sum v = 1170, sum s v = 130 n, sum C(s,2) v = 13 C(n,2),
    sum C(s,3) v = C(n,3) + 12 L, and 13 L between sum m_2(s) v and sum M_2(s) v."""
    most2, least2 = [0, 0, 0, 1, 1, 2, 3, 5, 8, 12], [0, 0, 0, 0, 0, 1, 2, 4, 8, 12]
    program = slice_program(4, n, 0, degree_bound(4, n), m3)
    width = len(program.variables) + 10
    planes = list(range(width - 10, width))
    rows, low, high = [], [], []

    def add(row, lo, hi):
        rows.append(row)
        low.append(lo)
        high.append(hi)

    for coefficients, lo, hi in program.rows:
        row = np.zeros(width)
        for i, a in coefficients:
            row[i] = a
        add(row, -np.inf if lo is None else lo, np.inf if hi is None else hi)
    for weights, extra, value in (
        ([1] * 10, 0, 1170),
        (list(range(10)), 0, 130 * n),
        ([comb(s, 2) for s in range(10)], 0, 13 * comb(n, 2)),
        ([comb(s, 3) for s in range(10)], -12, comb(n, 3)),
    ):
        row = np.zeros(width)
        row[planes], row[0] = weights, extra
        add(row, value, value)
    for weights, side in ((most2, (0, np.inf)), (least2, (-np.inf, 0))):
        row = np.zeros(width)
        row[planes], row[0] = weights, -13
        add(row, *side)
    types = [
        (i, [int(s) for s in name[2:].split("_")])
        for i, (name, _, _) in enumerate(program.variables)
        if name.startswith("x_")
    ]
    for k in range(4, 10):
        row = np.zeros(width)
        for i, sizes in types:
            row[i] = sum(comb(s, k) for s in sizes)
        q = np.array([comb(s, k) for s in range(10)], dtype=float)
        if k == 4:
            row[planes] = -3 * q
            add(row, comb(n, 4), comb(n, 4))
        else:
            lower, upper = row.copy(), row.copy()
            lower[planes], upper[planes] = -4 * q, -3 * q
            add(lower, 0, np.inf)
            add(upper, -np.inf, comb(n, k))
    cost = np.zeros(width)
    cost[0] = -1
    result = milp(
        cost,
        constraints=LinearConstraint(np.array(rows), low, high),
        integrality=np.ones(width),
        bounds=Bounds(
            [lo for _, lo, _ in program.variables] + [0] * 10,
            [hi for _, _, hi in program.variables] + [1170] * 10,
        ),
        options={"time_limit": 300},
    )
    return float(result.x[0]) if result.x is not None else float("nan")


def main() -> None:
    start = time.perf_counter()
    solver = Solver(4, Store(":memory:"), search_cards=0, min_search_cards=0, anneal_restarts=0)
    values = {}
    for sense in ("max", "min"):
        for n in range(82):
            v = solver.max(n) if sense == "max" else solver.min(n)
            if v.proven:
                values[sense, n] = (v.value, v.method)
    print(f"solver without searches: {len(values)} of 164 values proven", end="")
    print(f" in {time.perf_counter() - start:.1f} s")
    m3 = solver.known_max(3)
    cited = {(3, k, "max"): v for k, v in m3.items()}

    certificates, kinds, produce = {}, {}, 0.0
    for (sense, n), (value, _) in sorted(values.items()):
        began = time.perf_counter()
        certificate = farkas_certificate(4, n, sense, value, m3)
        produce += time.perf_counter() - began
        kind = "none" if certificate is None else certificate["kind"]
        kinds.setdefault(kind, []).append(f"{sense[1]}{n}")
        if certificate is not None:
            certificates[sense, n] = (value, certificate)
    checker = load_checker()

    def check_all() -> list:
        return [
            key
            for key, (value, certificate) in certificates.items()
            if checker.check_farkas(4, key[1], key[0], value, certificate, cited)
        ]

    began = time.perf_counter()
    failed = check_all()
    check = time.perf_counter() - began
    tracemalloc.start()  # a second pass for the peak: tracemalloc slows what it traces
    check_all()
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    began = time.perf_counter()
    solved = 0
    for (sense, n), (value, certificate) in certificates.items():
        if certificate["kind"] != "empty":
            low, high = program_range(4, n, sense, value)
            solve_cpsat(slice_program(4, n, low, high, m3))
            solved += 1
    cpsat = time.perf_counter() - began
    for kind, names in sorted(kinds.items()):
        print(f"{kind:>7}: {len(names):3d}  {' '.join(names)}")
    bounds = sum(method == "bounds" for key, (_, method) in values.items() if key in certificates)
    print(f"certificates: {len(certificates)} ({bounds} of the solver's program proofs), failed")
    print(f"  checks: {len(failed)}; produce {produce:.2f} s, check {check:.2f} s (exact),")
    print(f"  CP-SAT re-solving the {solved} non-empty programs {cpsat:.2f} s:")
    print(f"  check / CP-SAT = {check / cpsat:.3f}, produce / CP-SAT = {produce / cpsat:.3f}")
    print(f"peak memory of the checks {peak / 2**10:.0f} KiB (tracemalloc), process", end="")
    print(f" {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MiB (max RSS)")
    if "--plane-coupling" in sys.argv:
        truth = {48: 252, 49: 264, 50: 276, 51: 289, 52: 305, 53: 323}
        for n, value in truth.items():
            began = time.perf_counter()
            bound = plane_coupled_bound(n, m3)
            print(f"M({n}) = {value}: plane-coupled ILP optimum {bound:.0f}", end="")
            print(f" ({time.perf_counter() - began:.1f} s)")


if __name__ == "__main__":
    main()
