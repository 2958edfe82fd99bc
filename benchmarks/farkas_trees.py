"""Branching Farkas certificates: setlab's trees against the baseline rule, in the same run.

Where only the integer program refutes a range of L, the certificate is a tree of boxes whose
leaves the LP relaxation refutes (:mod:`setlab.extremal.farkas`). setlab branches as in branch
and bound with L as the objective: the relaxation maximises L (minimises, for a minimum) and a
fractional column of that optimum is chosen by strong branching. The baseline is the rule
setlab used before: any vertex of the feasibility LP, and its first fractional switch (else its
first fractional column). Both trees end in the same exact leaves (``farkas._leaf``), so the
ratio of leaves and of seconds is the branching rule's alone.

The programs: the P = 4 slice programs (the table solved first, about 2 minutes) at the best
bound each proves by itself where it does not reach the table's value, and with ``--store
PATH`` (a store holding the P = 5 table, ``setlab maxsets -p 5 --table``) the programs of every
value proven by the big-slice split; the baseline then runs on the ``--hardest K`` of these with
the largest setlab trees (default 4: the baseline's trees there take minutes each). Prints
leaves and seconds per program, the totals, the ratios baseline / setlab, and peak memory.

    python benchmarks/farkas_trees.py [--store PATH] [--hardest K]
"""

from __future__ import annotations

from _common import (  # first: see _common.py
    Parser,
    existing_store,
    in_range,
    require_results,
    run_script,
)

# isort: split
import resource
import time
from typing import Any

import numpy as np
from scipy.optimize import linprog

from setlab.extremal import farkas
from setlab.extremal.bounds import SliceProgram
from setlab.extremal.maxsets import Solver
from setlab.store import Store


def baseline_tree(
    program: SliceProgram, box: list[tuple[int, int]], budget: list[int]
) -> int | None:
    """Leaves of the baseline's tree (None: an integer point, or the budget ran out)."""
    budget[0] -= 1
    if budget[0] < 0:
        return None
    if farkas._leaf(program, box) is not None:
        return 1
    width = len(program.variables)
    rows, rhs = [], []
    for coefficients, low, high in program.rows:
        row = np.zeros(width)
        for i, a in coefficients:
            row[i] = a
        if high is not None:
            rows.append(row)
            rhs.append(high)
        if low is not None:
            rows.append(-row)
            rhs.append(-low)
    found = linprog(np.zeros(width), A_ub=np.array(rows), b_ub=rhs, bounds=box)
    if found.status != 0:
        return None
    point = found.x
    fractional = [
        i for i, v in enumerate(point) if abs(v - round(v)) > 1e-6 and box[i][0] < box[i][1]
    ]
    if not fractional:
        return None
    switches = [i for i in fractional if program.variables[i][0].startswith("y_")]
    column = (switches or fractional)[0]
    at = int(np.floor(point[column]))
    low_box, high_box = list(box), list(box)
    low_box[column] = (box[column][0], at)
    high_box[column] = (at + 1, box[column][1])
    left = baseline_tree(program, low_box, budget)
    right = baseline_tree(program, high_box, budget) if left is not None else None
    return None if right is None else left + right


def leaves(certificate: dict[str, Any] | None) -> int | None:
    if certificate is None:
        return None
    if certificate["kind"] == "branch":
        low, high = leaves(certificate["low"]), leaves(certificate["high"])
        return None if low is None or high is None else low + high
    return 1


def p4_records() -> list[tuple[str, dict[str, Any]]]:
    """The records of the P = 4 slice programs (the proven M_3 as slice bounds) at the best
    bound each proves by itself where it does not reach the table's value: the least v above
    M_4(n) (the greatest below m_4(n)) that the program refutes one set past. Those are the
    programs whose certificates branch."""
    solver = Solver(4, Store(":memory:"))
    rows = solver.table()
    m3 = {str(k): v for k, v in solver.known_max(3).items()}

    def record(n: int, sense: str, value: int) -> dict[str, Any]:
        low, high = farkas.program_range(4, n, sense, value)
        claim = f"max <= {value}" if sense == "max" else f"min >= {value}"
        return {"method": "slice-ilp", "properties": 4, "cards": n, "claim": claim, "low": low,
                "high": high, "known_max": m3, "known_min": {}}  # fmt: skip

    records = []
    for row in rows:
        n = row["cards"]
        for sense, value in (("max", row["max"]), ("min", row["min"])):
            if farkas.record_certificate(record(n, sense, value)) is not None:
                continue
            step = 1 if sense == "max" else -1
            for bound in range(value + step, value + 6 * step, step):
                if bound >= 0 and farkas.record_certificate(record(n, sense, bound)) is not None:
                    name = f"{'M' if sense == 'max' else 'm'}_4({n}) {'<=' if step > 0 else '>='}"
                    records.append((f"{name} {bound}", record(n, sense, bound)))
                    break
    return records


def p5_records(path: str) -> list[tuple[str, dict[str, Any]]]:
    store = Store(path)
    records = []
    for result in store.results("maxsets", 5):
        record = (result.proof or {}).get("record") or {}
        if result.proven and (result.proof or {}).get("method") == "split":
            entries = [record["program"], *(record.get("middle") or [])]
            records += [(f"M_5({result.cards}) #{i}", e) for i, e in enumerate(entries)]
    return records


def main() -> None:
    parser = Parser(description=__doc__)
    parser.add_argument("--store", type=existing_store, help="a store holding the P = 5 table")
    parser.add_argument("--hardest", type=in_range(int, 0, 1000), default=4,
                        help="P = 5 programs the baseline runs (default 4)")
    args = parser.parse_args()
    if args.store is not None:
        require_results(parser, args.store, 5)
    records = p4_records() + (p5_records(args.store) if args.store else [])
    print(f"{len(records)} programs")
    ours = []
    for name, record in records:
        began = time.perf_counter()
        certificate = farkas.record_certificate(record)
        ours.append((leaves(certificate) or 0, time.perf_counter() - began, name, record))
    branching = sorted((o for o in ours if o[0] > 1), key=lambda o: -o[0])
    print(f"setlab: {sum(o[0] for o in ours)} leaves in {sum(o[1] for o in ours):.1f} s for "
          f"all {len(ours)}; {len(branching)} branch")  # fmt: skip
    chosen = [o for o in branching if "_4(" in o[2]]
    chosen += [o for o in branching if "_5(" in o[2]][: args.hardest]
    totals = np.zeros(4)
    print(f"{'program':>16} {'setlab':>14} {'baseline':>16}")
    for ours_leaves, ours_seconds, name, record in chosen:
        program, _ = farkas.record_program(record)
        box = [(lo, hi) for _, lo, hi in program.variables]
        began = time.perf_counter()
        theirs = baseline_tree(program, box, [farkas.FARKAS_NODES])
        seconds = time.perf_counter() - began
        print(f"{name:>16} {ours_leaves:6d} {ours_seconds:6.2f} s {theirs or 'none':>7} "
              f"{seconds:7.2f} s", flush=True)  # fmt: skip
        totals += (ours_leaves, ours_seconds, theirs or 0, seconds)
    print(f"totals: setlab {totals[0]:.0f} leaves, {totals[1]:.1f} s; baseline {totals[2]:.0f} "
          f"leaves, {totals[3]:.1f} s; baseline / setlab = {totals[2] / totals[0]:.1f}x leaves, "
          f"{totals[3] / totals[1]:.1f}x time")  # fmt: skip
    print(f"peak memory {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MiB")


if __name__ == "__main__":
    run_script(main)
