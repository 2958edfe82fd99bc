"""Exact Farkas certificates for every M_4(n), m_4(n) the slice programs can prove: time to
produce them, time to check them with the standalone checker, against re-solving the same
programs with CP-SAT (the solver `setlab verify --rerun` uses), and peak memory.

Values come from a solver run without searches (deletion, complement, the programs); a value is
certified when its LP relaxation (or a branching tree over it) refutes one set more (max) or one
set fewer (min). (Stronger programs for M(48..53): benchmarks/stronger_programs.py.)

    PYTHONPATH=src python benchmarks/farkas.py [--store PATH]

With ``--store``, the values of a store where the whole table is solved (with the searches).
"""

from __future__ import annotations

from _common import Parser, existing_store, require_results, run_script  # first: see _common.py

# isort: split
import importlib.util
import resource
import time
import tracemalloc
from pathlib import Path

from setlab.extremal.bounds import slice_program, solve_cpsat
from setlab.extremal.farkas import farkas_certificate, program_range
from setlab.extremal.maxsets import Solver
from setlab.store import Store

CHECKER = Path(__file__).resolve().parents[1] / "src" / "setlab" / "proofcheck" / "farkas_check.py"


def load_checker():
    spec = importlib.util.spec_from_file_location("farkas_check", CHECKER)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def main() -> None:
    parser = Parser(description=__doc__)
    parser.add_argument("--store", type=existing_store,
                        help="a store with the whole P = 4 table solved (setlab maxsets --table)")
    args = parser.parse_args()
    if args.store is not None:
        require_results(parser, args.store, 4)
    start = time.perf_counter()
    if args.store is not None:
        solver = Solver(4, Store(args.store))
        label = "store"
    else:
        solver = Solver(4, Store(":memory:"), search_cards=0, min_search_cards=0, anneal_restarts=0)
        label = "solver without searches"
    values = {}
    for sense in ("max", "min"):
        for n in range(82):
            v = solver.max(n) if sense == "max" else solver.min(n)
            if v.proven:
                values[sense, n] = (v.value, v.method)
    print(f"{label}: {len(values)} of 164 values proven", end="")
    print(f" in {time.perf_counter() - start:.1f} s")
    m3 = solver.known_max(3)
    cited = {(3, k, "max"): v for k, v in m3.items()}

    certificates, kinds, produce, failing = {}, {}, 0.0, 0.0
    for (sense, n), (value, _) in sorted(values.items()):
        began = time.perf_counter()
        certificate = farkas_certificate(4, n, sense, value, m3)
        if certificate is None:  # the program does not prove it: the tree search gave up
            failing += time.perf_counter() - began
        else:
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
    print(f"  checks: {len(failed)}; produce {produce:.2f} s (and {failing:.2f} s giving up where")
    print(f"  none exists), check {check:.2f} s (exact),")
    print(f"  CP-SAT re-solving the {solved} non-empty programs {cpsat:.2f} s:")
    print(f"  check / CP-SAT = {check / cpsat:.3f}, produce / CP-SAT = {produce / cpsat:.3f}")
    print(f"peak memory of the checks {peak / 2**10:.0f} KiB (tracemalloc), process", end="")
    print(f" {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MiB (max RSS)")


if __name__ == "__main__":
    run_script(main)
