"""Max sets among n cards: the paper's complete brute force vs setlab's pruned orbit search.

Prints, in one run: the paper's brute force (every C(81,4) subset, every triple tested; as plain
Python like the paper's, and compiled) vs the search proving M(4) for P = 4, and the same for
n = 5; the whole P = 3 table from scratch (exhaustive walk); and the time setlab needs to prove
each P = 4 value n = 0..K (default K = 30) in a fresh store, then the rest of the P = 4 table
(every max and min, n = 0..81). The last line is the headline ratio (Python brute force / search
for n = 4).
"""

from __future__ import annotations

from _common import Parser, in_range, run_script  # first: see _common.py

# isort: split
import itertools
import resource
import tempfile
import time
from pathlib import Path

from setlab.extremal.bruteforce import brute_force_extremes, exhaustive_table
from setlab.extremal.maxsets import Solver
from setlab.extremal.search import search
from setlab.geometry import digits
from setlab.store import Store


def python_brute_force_max(cards: int) -> int:
    """The seed paper's complete solver as plain Python: every subset, every triple."""
    vectors = [tuple(int(d) for d in row) for row in digits(4)]
    best = 0
    for subset in itertools.combinations(vectors, cards):
        count = 0
        for x, y, z in itertools.combinations(subset, 3):
            if all((a + b + c) % 3 == 0 for a, b, c in zip(x, y, z, strict=True)):
                count += 1
        best = max(best, count)
    return best


def timed(function, *args, **kwargs):
    started = time.perf_counter()
    value = function(*args, **kwargs)
    return value, time.perf_counter() - started


def main() -> None:
    parser = Parser(description=__doc__)
    parser.add_argument("--up-to", type=in_range(int, 0, 81), default=30,
                        help="largest P = 4 n to prove (default 30)")
    args = parser.parse_args()

    brute_force_extremes(2, 3)  # compile the kernels outside the timings
    exhaustive_table(2)
    search(3, 4, "max", 1, workers=1)

    python_max, python_seconds = timed(python_brute_force_max, 4)
    brute, brute_seconds = timed(brute_force_extremes, 4, 4)
    found, search_seconds = timed(search, 4, 4, "max", 1, workers=1)
    assert python_max == brute.max == found.best == 1
    calls = sum(found.certificate_calls)
    print(f"P=4 n=4 paper-style brute force (Python): max {python_max}: {python_seconds:.2f} s")
    print(f"P=4 n=4 brute force {brute.examined:,} subsets (numba): {brute_seconds:.2f} s")
    print(f"P=4 n=4 search: {calls} certificate calls, max {found.best}: {search_seconds:.4f} s")
    five, five_seconds = timed(brute_force_extremes, 4, 5)
    found5, search5_seconds = timed(search, 4, 5, "max", 2, workers=1)
    assert five.max == found5.best == 2
    print(f"P=4 n=5 brute force {five.examined:,} subsets (numba): {five_seconds:.2f} s")
    print(f"P=4 n=5 search: {search5_seconds:.4f} s, ratio {five_seconds / search5_seconds:.0f}x")
    ratio = python_seconds / search_seconds

    with tempfile.TemporaryDirectory() as directory:
        store = Store(Path(directory) / "bench.sqlite")
        _, p3_seconds = timed(Solver(3, store).table)
        print(f"P=3 table n=0..27 (max and min, exhaustive, 2^27 subsets): {p3_seconds:.2f} s")
        solver = Solver(4, store, search_cards=args.up_to)
        total = 0.0
        for n in range(args.up_to + 1):
            value, seconds = timed(solver.max, n)
            total += seconds
            status = "proven" if value.proven else f"open (bound {value.bound})"
            print(f"P=4 n={n:2d}: M = {value.value:4d} {status} by {value.method}, {seconds:.3f} s")
            if n == 12:
                print(f"P=4 n<=12 all proven in {total:.2f} s (+ {p3_seconds:.2f} s P=3 table)")
        print(f"P=4 n<={args.up_to}: {total:.2f} s")
        rows, rest_seconds = timed(solver.table)
        proven = sum(r["max_proven"] and r["min_proven"] for r in rows)
        print(
            f"P=4 table n=0..81 (max and min): {proven} of {len(rows)} rows proven, "
            f"{total + rest_seconds:.1f} s in all ({rest_seconds:.1f} s after n <= {args.up_to})"
        )
        store.close()

    peak = max(
        resource.getrusage(who).ru_maxrss
        for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)
    )
    print(f"peak memory (largest process): {peak / 1024:.0f} MiB")
    print(f"paper-style brute force / search, P=4 n=4: {ratio:.0f}x")


if __name__ == "__main__":
    run_script(main)
