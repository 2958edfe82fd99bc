"""Largest cap of AG(4,3): setlab's proof of 20 vs the seed's plain integer program.

The plain model (the capset-ilp seed): maximise sum x_v subject to x_a + x_b + x_c <= 2 for the
1080 sets, x binary. It is solved with OR-Tools CP-SAT and with HiGHS (scipy.optimize.milp),
each under a time limit; setlab proves 20 by isomorph-free generation. Also timed: the full count
of the caps of every size (682,344 of 20 cards). Usage: python benchmarks/caps.py [LIMIT_S].
"""

from __future__ import annotations

from _common import Parser, in_range, run_script  # first: see _common.py

# isort: split
import resource
import time

import numpy as np
from ortools.sat.python import cp_model
from scipy.optimize import Bounds, LinearConstraint, milp
from scipy.sparse import csr_matrix

from setlab.extremal.bounds import solve_interruptibly
from setlab.extremal.caps import count_caps, largest_cap
from setlab.geometry import lines


def cp_sat(limit: float, properties: int = 4) -> tuple[float, str, bool]:
    """The seed's plain 0/1 program for the largest cap of AG(P,3) under CP-SAT: (seconds,
    best and bound, proven)."""
    model = cp_model.CpModel()
    x = [model.NewBoolVar(f"x{i}") for i in range(3**properties)]
    for a, b, c in lines(properties).tolist():
        model.Add(x[a] + x[b] + x[c] <= 2)
    model.Maximize(sum(x))
    solver = cp_model.CpSolver()
    solver.parameters.max_time_in_seconds = limit
    solver.parameters.num_workers = 2
    start = time.perf_counter()
    # not solver.Solve: CP-SAT's own SIGINT handler would swallow a Ctrl-C (the benchmark went
    # on, the search cut short), and keep Python's away for the rest of the run
    status = solve_interruptibly(solver, model)
    elapsed = time.perf_counter() - start
    proven = status == cp_model.OPTIMAL
    return (
        elapsed,
        (
            f"best {solver.ObjectiveValue():.0f}, bound {solver.BestObjectiveBound():.0f}, "
            + ("proven" if proven else "NOT proven")
        ),
        proven,
    )


def highs(limit: float) -> tuple[float, str, bool]:
    sets = lines(4)
    rows = np.repeat(np.arange(len(sets)), 3)
    matrix = csr_matrix((np.ones(sets.size), (rows, sets.ravel())), shape=(len(sets), 81))
    start = time.perf_counter()
    result = milp(
        -np.ones(81),
        constraints=LinearConstraint(matrix, -np.inf, 2),
        integrality=np.ones(81),
        bounds=Bounds(0, 1),
        options={"time_limit": limit},
    )
    elapsed = time.perf_counter() - start
    best = -result.fun if result.x is not None else float("nan")
    bound = -getattr(result, "mip_dual_bound", float("nan"))
    proven = result.status == 0
    return (
        elapsed,
        (f"best {best:.0f}, bound {bound:.0f}, " + ("proven" if proven else "NOT proven")),
        proven,
    )


def main() -> None:
    parser = Parser(description=__doc__)
    parser.add_argument("limit", metavar="LIMIT_S", nargs="?", type=in_range(float, 1, 86400),
                        default=60.0, help="each solver's time limit in seconds (default 60)")
    limit = parser.parse_args().limit
    largest_cap(3)  # warm-up: compiled kernels, the AG(3,3) slice bound
    start = time.perf_counter()
    result = largest_cap(4, workers=2)
    ours = time.perf_counter() - start
    assert result.size == 20 and result.proven
    print(f"setlab: largest cap of AG(4,3) = 20, proven, in {ours:.1f} s (2 workers)")

    ratios = []
    for name, solve in (("CP-SAT", cp_sat), ("HiGHS", highs)):
        elapsed, text, proven = solve(limit)
        sign = "" if proven else ">= "
        ratios.append((name, elapsed / ours, sign))
        print(f"{name} (plain model, limit {limit:.0f} s): {elapsed:.1f} s, {text}")

    start = time.perf_counter()
    table = count_caps(4, workers=2)
    counting = time.perf_counter() - start
    print(
        f"setlab: all caps of AG(4,3) counted in {counting:.1f} s (2 workers): "
        f"{sum(r.classes for r in table)} classes, {table[20].caps} caps of 20 cards"
    )
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak memory (main process): {peak:.0f} MiB")
    for name, ratio, sign in ratios:
        print(f"ratio {name} / setlab (prove max cap P=4): {sign}{ratio:.1f}x")
    name, ratio, sign = min(ratios, key=lambda r: r[1])
    print(
        f"headline: best open solver ({name}) / setlab, proving the P=4 maximum: {sign}{ratio:.1f}x"
    )


if __name__ == "__main__":
    run_script(main)
