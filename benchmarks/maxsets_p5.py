"""AG(5,3), where it stands: the whole P = 5 table, what it proves, the gap left, the bundle check.

Prints, in one run from a fresh store (or ``--store``): the time of the P = 4 table (the baseline:
the P = 5 slice programs need it), the time of the P = 5 table (every M(n) and m(n), n = 0..243)
and of its big-slice splits, which run side by side (wall time against the sum of the tasks' own
times, and the ten slowest n), the time of the same table again on the finished store (a second
table reads what the first kept: each open value's programs, split and annealing; in
this process and as `setlab maxsets -p 5 --table` in a fresh one), how many
maxima and minima are proven, the open values with both bounds and the sum of their gaps, the
largest cap (45, proven by the pencil chain the table runs for m(46) >= 1), m(46) >= 2 (the
fibre split the table runs: its time, and the time of `setlab verify`'s check of it by
oneset_check.py), the time to write the P = 5 proof bundle and to check it with its standalone
checker in a child process, and peak memory. The last line is the ratio P = 5 table / P = 4
table.
"""

from __future__ import annotations

from _common import Parser, run_script  # first: see _common.py

# isort: split
import resource
import subprocess
import sys
import tempfile
from pathlib import Path

from maxsets import timed  # benchmarks/maxsets.py, beside this script
from setlab.bundle import write_bundle
from setlab.certificates import check_bound
from setlab.executor import default_workers
from setlab.extremal.maxsets import Solver
from setlab.store import Store


def _bounds(row: dict) -> tuple[int, int, int, int]:
    return row["max"], row["max_bound"], row["min"], row["min_bound"]


def main() -> None:
    parser = Parser(description=__doc__)
    parser.add_argument(
        "--store", default=None, help="a store to use (and keep) instead of a fresh one"
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        store = Store(args.store or Path(tmp) / "p5.sqlite")
        _, p4_seconds = timed(Solver(4, store).table)
        print(f"P = 4 table (baseline): {p4_seconds:.1f} s")
        solver = Solver(5, store)
        rows, p5_seconds = timed(solver.table)
        maxima = sum(row["max_proven"] for row in rows)
        minima = sum(row["min_proven"] for row in rows)
        print(
            f"P = 5 table: {p5_seconds:.1f} s; proven {maxima} of 244 maxima, "
            f"{minima} of 244 minima"
        )
        split = solver.split_seconds
        if split:
            print(
                f"  of which the splits side by side on {default_workers()} workers: "
                f"{split['wall']:.1f} s wall for {split['tasks']:.1f} s of task time "
                f"({split['tasks'] / split['wall']:.2f}x)"
            )
        slowest = sorted(rows, key=lambda row: row["seconds"], reverse=True)[:10]
        print(
            "  slowest n (max and min, splits' task time included): "
            + ", ".join(f"{row['cards']}: {row['seconds']:.0f} s" for row in slowest)
        )
        again, again_seconds = timed(Solver(5, store).table)
        same = [_bounds(row) for row in again] == [_bounds(row) for row in rows]
        print(
            f"P = 5 table again on the finished store: {again_seconds:.1f} s "
            f"({p5_seconds / again_seconds:.0f}x faster), "
            + ("the same bounds" if same else "DIFFERENT BOUNDS")
        )
        # what a user meets: the command in a new process, no cache of this one warm
        command = [sys.executable, "-m", "setlab", "maxsets", "-p", "5", "--table",
                   "--store", store.path]  # fmt: skip
        done, fresh_seconds = timed(subprocess.run, command, capture_output=True, text=True)
        print(
            f"  in a fresh process (setlab maxsets -p 5 --table): {fresh_seconds:.1f} s, "
            + ("exit 0" if done.returncode == 0 else f"EXIT {done.returncode}")
        )
        gaps = [
            (row["cards"], row["max"], row["max_bound"]) for row in rows if not row["max_proven"]
        ]
        for n, low, high in gaps:
            print(f"  {low} <= M({n}) <= {high}")
        print(f"open maxima: {len(gaps)}, gap sum {sum(high - low for _, low, high in gaps)}")
        cap = store.get("maxcap", 5, 0, {"values": 3})
        if cap is not None:
            how = (cap.proof or {}).get("method", "construction")
            seconds = (cap.proof or {}).get("seconds")
            timing = f", {seconds:.1f} s" if seconds is not None else ""
            status = "proven" if cap.proven else "not proven"
            print(f"largest cap of AG(5,3): {cap.value}, {status} ({how}{timing})")
        m46 = store.get("minsets", 5, 46)
        if m46 is not None and m46.bound_method == "one set":
            print(
                f"m(46) >= {m46.bound} (the fibre split, {m46.proof['cases']} cases, "
                f"{m46.proof['lemmas']} LRAT clauses; n = 46 took {rows[46]['seconds']:.0f} s "
                "of the table)"
            )
            verdict, verify_seconds = timed(check_bound, m46, store)
            print(
                f"  checked by oneset_check.py in {verify_seconds:.1f} s: "
                + ("ok" if verdict.ok else f"FAILED ({verdict.detail})")
            )
        summary, write_seconds = timed(write_bundle, store, 5, Path(tmp) / "bundle5")
        store.close()
        print(
            f"P = 5 bundle: {summary.values} values, {summary.bytes / 1e6:.1f} MB, "
            f"written in {write_seconds:.1f} s"
        )
        check = [sys.executable, str(summary.directory / "check.py"), str(summary.directory)]
        done, check_seconds = timed(subprocess.run, check, capture_output=True, text=True)
        verdict = (done.stdout.strip().splitlines() or ["(no output)"])[-1]
        print(f"P = 5 bundle checked in {check_seconds:.1f} s: {verdict}")
        for line in done.stdout.splitlines():
            if "largest cap" in line:
                print(f"  {line}")
    peak = max(
        resource.getrusage(who).ru_maxrss
        for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)
    )
    print(f"peak memory (largest process): {peak / 1024:.0f} MiB")
    print(f"P = 5 table / P = 4 table: {p5_seconds / p4_seconds:.1f}x")


if __name__ == "__main__":
    run_script(main)
