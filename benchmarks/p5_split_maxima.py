"""What the big-slice split proves for M(147..160) of AG(5,3) with split maxima of AG(4,3):
exhaustive bounds at n = 147 (what the P = 5 table now proves), annealed values as a target
beyond (which the table, with its exact split maxima and sharpened middle case, now reaches at
every n = 148..160).

The split bounds each hyperplane of a pencil by M_4 of its size and by its three cells' own
bound (M_3 of each cell plus the across bound of the three). A hyperplane with cells of a, b and
c cards holds at most S(a, b, c) sets, the most among a + b + c points of AG(4,3) meeting three
parallel 3-flats in a, b, c points, and S can be well below both: at n = 147 the one pattern
left at 2428, cells [[27, 21, 21], [21, 9, 9], [21, 9, 9]], has two hyperplanes of 51 cards with
cells 21 + 21 + 9; M_4(51) = 289, but such a hyperplane holds 287 at the most annealing finds
(two complements of 6-caps whose 36 pair sums fall on a plane must lie on planes themselves).

This script
1. anneals S(a, b, c) for every a + b + c >= 30 with the search kept in the three cells
   (:func:`~setlab.extremal.splitmax.split_maxima_found`, the table's guide): lower bounds on
   the true split maxima;
2. bounds the 12 splits that n = 147 needs by the exhaustive search of
   :mod:`setlab.extremal.splitmax` and runs the middle case at 2425 with those alone;
3. for each n asked, finds by bisection the least U the split proves, the way
   ``split_upper_bound`` proves a bound (the program with one class above theta refuted, the
   pencils above top at most U, the middle case's forced programs for theta < t <= top), first
   as setlab runs it today (the baseline, same run), then with the annealed S as ``split_most``.

Since the annealed values are lower bounds on the split maxima, the figure of step 3 is what the
split could reach at best with exact split maxima: a target. Step 2 is the computation the P = 5
table runs for n = 147 (``split_upper_bound`` with the guide finds the same twelve splits), where
its record lists them and the bundle's checker re-derives each.

    python benchmarks/p5_split_maxima.py [--store STORE] [n ...]     (default n = 147)

STORE holds the proven P = 4 maxima (computed there first when missing, about 100 s). Measured
numbers: docs/bounds.md, "Split maxima".
"""

from __future__ import annotations

from _common import Parser, run_script  # first: see _common.py

# isort: split
import resource
import tempfile
import time
from pathlib import Path

from setlab.extremal.bounds import slice_program, solve_highs
from setlab.extremal.identities import degree_bound
from setlab.extremal.maxsets import GUIDE_CARDS, Solver
from setlab.extremal.split import cover_middle_case, middle_types, two_big_hyperplanes
from setlab.extremal.splitmax import split_maxima_found, split_maximum_bound, split_table
from setlab.store import Store

# The splits whose sharper bounds the middle case at n = 147 needs (found by adding, pattern by
# pattern, the lines of the largest pencil above top = 68 where the annealed S is below today's
# hyperplane bound, then keeping only those below it): with them alone it proves 2425.
NEEDED_147 = (
    *((19, 10, 9), (20, 10, 9), (20, 19, 8), (20, 20, 8), (21, 20, 9), (21, 21, 9)),
    *((22, 19, 9), (22, 20, 9), (22, 21, 9), (22, 22, 10), (23, 20, 9), (23, 22, 10)),
)

# The witnesses of M(147..160), and the bounds the split proved before split maxima (the high
# end of each bisection: proven without them, so proven with them).
WITNESS = dict(zip(range(147, 161), (2425, 2461, 2498, 2536, 2575, 2615, 2656, 2698, 2747,
                                     2799, 2852, 2906, 2961, 3017), strict=True))  # fmt: skip
SPLIT_ALONE = dict(zip(range(147, 161), (2429, 2469, 2507, 2549, 2589, 2633, 2679, 2723, 2769,
                                         2818, 2867, 2919, 2973, 3027), strict=True))  # fmt: skip


def program_theta(n: int, bound: int, known_max: dict[int, int]) -> int | None:
    """The largest theta at which the slice program with at most one class above theta refutes
    bound + 1 sets (bisection: a smaller theta admits fewer profiles), or None."""

    def refuted(theta: int) -> bool:
        program = slice_program(5, n, bound + 1, degree_bound(5, n), known_max, big=theta)
        return solve_highs(program)[0] == "infeasible"

    low, high = n // 3 - 1, 82  # below n/3 every class has a part above theta
    if not refuted(low):
        return None
    while high - low > 1:  # refuted at low; high is past every part
        middle = (low + high) // 2
        low, high = (middle, high) if refuted(middle) else (low, middle)
    return low


def proves(n: int, bound: int, known: tuple, split_most) -> tuple[bool, str]:
    """Whether the split proves M(n) <= bound with these split maxima (None: today's), and why
    not: the steps of ``split_upper_bound``'s middle case, with tops theta..theta + 3."""
    most, below, known_max = known
    theta = program_theta(n, bound, known_max)
    if theta is None:
        return False, "the program"
    for top in range(theta, theta + 4):
        worst = two_big_hyperplanes(5, n, top, most, below, floor=bound, cutoff=bound,
                                    split_most=split_most)[0]  # fmt: skip
        if worst > bound:
            continue
        for t in range(theta + 1, top + 1):
            quads = middle_types(5, n, t, most, below, bound, split_most=split_most)
            if cover_middle_case(5, n, bound + 1, known_max, t, quads) is None:
                return False, f"middle case t = {t} ({len(quads)} quadruples)"
        return True, f"theta {theta}, top {top}"
    return False, f"pencils above theta + 3 (theta {theta})"


def least_proven(n: int, known: tuple, split_most) -> tuple[int, dict[int, str], float]:
    """The least U in [witness, the bound of the split alone] the split proves, by bisection (a
    larger U is never harder), with the reason at each U tried, and the seconds."""
    started = time.perf_counter()
    low, high = WITNESS[n] - 1, SPLIT_ALONE[n]  # low: below the witness, never proven; high: proven
    reasons = {}
    while high - low > 1:
        middle = (low + high) // 2
        ok, reasons[middle] = proves(n, middle, known, split_most)
        low, high = (low, middle) if ok else (middle, high)
    return high, reasons, time.perf_counter() - started


def main() -> None:
    parser = Parser(description=__doc__)
    parser.add_argument("--store", help="a store with the P = 4 table (kept)")
    parser.add_argument("cards", nargs="*", type=int, default=[147], help="n in 147..160")
    args = parser.parse_args()
    unknown = [n for n in args.cards if n not in WITNESS]
    if unknown:
        parser.error(f"no witness for n = {unknown}: choose n in 147..160")
    with tempfile.TemporaryDirectory() as tmp:
        store = Store(args.store or Path(tmp) / "p4.sqlite")
        most4, most3 = Solver(4, store).known_max(4), Solver(3, store).known_max(3)
        if len(most4) < 82:
            Solver(4, store).table()
            most4, most3 = Solver(4, store).known_max(4), Solver(3, store).known_max(3)
        known = ([most4[h] for h in range(82)], [most3[h] for h in range(28)], most4)
        started = time.perf_counter()
        split_most = split_table(3, split_maxima_found(3, GUIDE_CARDS))
        seconds = time.perf_counter() - started
        print(f"annealed split maxima of AG(4,3), a + b + c >= 30: {seconds:.0f} s; "
              f"S(21, 21, 9) = {split_most[21, 21, 9]} (M_4(51) = {most4[51]})")  # fmt: skip
        started = time.perf_counter()
        bounds = {}
        for split in NEEDED_147:
            bounds[split] = split_maximum_bound(3, split, [most3[k] for k in range(28)])
            print(f"  S{split} <= {bounds[split]} (exhaustive), annealed {split_most[split]}")
        exhaustive = split_table(3, bounds)
        seconds = time.perf_counter() - started
        ok, why = proves(147, WITNESS[147], known, exhaustive)
        print(
            f"the {len(NEEDED_147)} split bounds n = 147 needs: {seconds:.0f} s; with them alone "
            f"the split {'proves' if ok else 'does not prove'} M(147) <= {WITNESS[147]} ({why})"
        )
        for n in args.cards:
            today, why_today, seconds_today = least_proven(n, known, None)
            better, why, seconds = least_proven(n, known, split_most)
            print(f"M({n}): witness {WITNESS[n]}; the split today {today} ({seconds_today:.0f} s)"
                  f"; with the annealed split maxima {better} ({seconds:.0f} s)")  # fmt: skip
            print(f"  tried today: {why_today}")
            print(f"  tried with split maxima: {why}")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak memory: {peak:.0f} MiB")


if __name__ == "__main__":
    run_script(main)
