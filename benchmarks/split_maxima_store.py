"""The split of one n of AG(5,3) with its exhaustive split maxima searched, against the same
split reading them from the store: what a resumed table, the other worker of its pool and a
later table save (docs/maxsets.md).

The split's sharpened step (``split_upper_bound`` with the table's guide) bounds some split
maxima S(a, b, c) of AG(4,3) by an exhaustive search (minutes each with the first version,
seconds since); they are kept in the store (``split_maxima_job``). This script runs the split
of each n asked twice, in the same run, first on a store without them (the baseline), then
on the same store, and prints the bound proven, the split maxima searched and read, the
seconds of each run, their ratio and peak memory. Both runs must prove the same bound.

    python benchmarks/split_maxima_store.py [--store STORE] [n ...]   (default n = 147)

STORE holds the proven P = 4 maxima (computed there first when missing, about 2 minutes); the
split maxima go to a fresh store of their own. The ranges (witness, bound before the split) are
the P = 5 table's, so only n = 147..157 are meaningful (default 147: 2425 proven from 2429).
"""

from __future__ import annotations

from _common import Parser, run_script  # first: see _common.py

# isort: split
import resource
import tempfile
import time
from pathlib import Path

from setlab.extremal.maxsets import GUIDE_CARDS, Solver
from setlab.extremal.split import split_maxima_job, split_upper_bound
from setlab.extremal.splitmax import split_maxima_found
from setlab.store import Store

# What the P = 5 table knows when its split job starts: each n's witness and its bound from the
# slice programs, the deletion bound and the plain split (docs/maxsets.md, "Split maxima").
RANGES = {147: (2425, 2429), 148: (2461, 2469), 151: (2575, 2589), 152: (2615, 2633),
          153: (2656, 2679), 154: (2698, 2723), 155: (2747, 2769), 156: (2799, 2818),
          157: (2852, 2867)}  # fmt: skip


def main() -> None:
    parser = Parser(description=__doc__)
    parser.add_argument("--store", help="a store with the P = 4 table (kept)")
    parser.add_argument("cards", nargs="*", type=int, default=[147], help="n in 147..157")
    args = parser.parse_args()
    unknown = [n for n in args.cards if n not in RANGES]
    if unknown:
        parser.error(f"no range for n = {unknown}: choose among {sorted(RANGES)}")
    with tempfile.TemporaryDirectory() as tmp:
        tables = Store(args.store or Path(tmp) / "p4.sqlite")
        if len(Solver(4, tables).known_max(4)) < 82:
            Solver(4, tables).table()
        most4, most3 = Solver(4, tables).known_max(4), Solver(3, tables).known_max(3)
        guide = split_maxima_found(3, GUIDE_CARDS)
        # compile the split's kernels first, so the baseline does not pay for them alone
        plane = dict(enumerate([0, 0, 0, 1, 1, 2, 3, 5, 8, 12]))
        split_upper_bound(3, 12, plane, {0: 0, 1: 0, 2: 0, 3: 1}, 14, 19)
        job = split_maxima_job(3, [most3[k] for k in range(28)])
        for n in args.cards:
            shared = Store(Path(tmp) / f"split-maxima-{n}.sqlite")
            runs = []
            for name in ("searched", "read"):
                before = len(shared.finished_tasks(job))
                started = time.perf_counter()
                bound, _ = split_upper_bound(5, n, most4, most3, *RANGES[n], guide, shared)
                seconds = time.perf_counter() - started
                runs.append((bound, seconds))
                kept = len(shared.finished_tasks(job))
                print(f"M({n}) <= {bound}, split maxima {name}: {seconds:.1f} s "
                      f"({kept - before} searched, {before} read)", flush=True)  # fmt: skip
            (cold_bound, cold), (warm_bound, warm) = runs
            assert cold_bound == warm_bound, "the two runs prove different bounds"
            print(f"M({n}): baseline (searched) / read from the store = {cold / warm:.1f}x")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak memory: {peak:.0f} MiB")


if __name__ == "__main__":
    run_script(main)
