"""Split maxima of AG(4,3): setlab's search against the proof bundle's own check, in one run.

S(a, b, c), the most sets among a + b + c points of AG(4,3) meeting three parallel 3-flats in
a, b and c points, bounds a hyperplane of the big-slice split's pencils (docs/bounds.md, "Split
maxima"). ``split_maximum_bound`` finds it by a depth-first search (numba) over the second large
part with pruning, and searches the third part only where its bound passes the best so far. The
baseline is the bundle's standalone checker (``split_check.split_maximum``, numpy, written
apart), which checks S <= v by its own pruned search level by level; asked to check S itself
it must agree.

    python benchmarks/split_maxima_search.py [a,b,c ...]

The default splits: two of M(147)'s record (S(21, 21, 9) among them), S(18, 18, 5) (146, where
bounding the third part alone gave 147) and S(16, 16, 7), the longest of the splits the first
version could not search. Prints, per split, S, the seconds of each and their ratio, then the
totals and peak memory.
"""

from __future__ import annotations

from _common import Parser, run_script  # first: see _common.py

# isort: split
import importlib.util
import resource
import time
from pathlib import Path

from setlab.extremal.splitmax import orbit_part, part_orbits, split_maximum_bound

# M_3(k), Table 3 of the paper
TABLE_3 = [0, 0, 0, 1, 1, 2, 3, 5, 8, 12, 12, 13, 14, 16, 19, 23, 26, 30, 36, 41, 47, 54, 62, 71,
           81, 92, 104, 117]  # fmt: skip
DEFAULT = ("19,10,9", "21,21,9", "18,18,5", "16,16,7")

_PATH = Path(__file__).parents[1] / "src" / "setlab" / "proofcheck" / "split_check.py"
_SPEC = importlib.util.spec_from_file_location("split_check", _PATH)
split_check = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(split_check)  # standalone, as the bundle runs it


def main() -> None:
    parser = Parser(description=__doc__)
    parser.add_argument("splits", nargs="*", default=list(DEFAULT), help="a,b,c (each <= 27)")
    args = parser.parse_args()
    try:
        splits = [tuple(int(v) for v in text.split(",")) for text in args.splits]
    except ValueError:
        parser.error("a split is three numbers a,b,c")
    if any(len(s) != 3 or not all(0 <= v <= 27 for v in s) for s in splits):
        parser.error("a split is three numbers a,b,c in 0..27")
    split_maximum_bound(3, (21, 21, 9), TABLE_3)  # compile the kernels outside the timings
    ours_total = theirs_total = 0.0
    for split in splits:
        started = time.perf_counter()
        value = split_maximum_bound(3, split, TABLE_3)
        ours = time.perf_counter() - started
        orbits = part_orbits(3, orbit_part(3, split))
        started = time.perf_counter()
        checked = split_check.split_maximum(3, split, orbits, TABLE_3[min(split)], value)
        theirs = time.perf_counter() - started
        assert checked == value, f"the checker gives {checked} for S{split}, not {value}"
        ours_total, theirs_total = ours_total + ours, theirs_total + theirs
        print(f"S{split} = {value}: search {ours:.2f} s, checker {theirs:.2f} s, "
              f"{theirs / ours:.1f}x", flush=True)  # fmt: skip
    print(f"all {len(splits)}: search {ours_total:.1f} s, checker (baseline) "
          f"{theirs_total:.1f} s, {theirs_total / ours_total:.1f}x")  # fmt: skip
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak memory: {peak:.0f} MiB")


if __name__ == "__main__":
    run_script(main)
