"""Upper bounds on M_4(n) for every n by the slice integer programs, against witnessed values.

Everything is computed in this run, with no table taken from the paper:
1. M_2(k) by the exhaustive walk over the 512 subsets of AG(2,3);
2. upper bounds on M_3(k) from the programs on M_2, and witnesses in AG(3,3) by a local search;
3. upper bounds on M_4(n) from the programs on those M_3 bounds, and witnesses in AG(4,3): a
   3-flat plus slices in the two parallel flats, two 3-flats plus a slice, and the annealed swap
   search of `setlab.extremal.heuristics` (fixed restarts and seeds);
   every witness is re-counted with ``count_sets``.
A value is settled when the witness count meets the proven upper bound; minima follow by the
complement identity m(81 - n) = 1080 - n(81 - n)/2 - M(n).
"""

from __future__ import annotations

from _common import Parser, run_script  # first: see _common.py

# isort: split
import resource
import time

import numpy as np

from setlab.extremal.bounds import bound_table, max_upper_bound
from setlab.extremal.bruteforce import exhaustive_table
from setlab.extremal.heuristics import local_search
from setlab.extremal.identities import complement_sets
from setlab.find import count_sets
from setlab.seeds import TABLE_3

PAPER_TABLE_3 = [TABLE_3.get(n, 0) for n in range(28)]


def best_witness(properties, seeds, restarts, seed):
    """The best of the seeds and of the package's annealed swap search, by a fresh count_sets."""
    n = len(seeds[0])
    found = local_search(properties, n, "max", seconds=None, restarts=restarts, seed=seed)
    candidates = [*seeds, np.array(found.witness, dtype=np.int64)]
    return max(candidates, key=lambda board: count_sets(board, properties))


def lift_witnesses(properties, lower, restarts, rng, cards):
    """Witnesses for every n in AG(P,3) from witnesses ``lower[k]`` of AG(P-1,3).

    Seeds: a random board; the (P-1)-dimensional witness in the hyperplane H_0 = {x_0 = 0};
    H_0 full with witnesses for b and c cards in H_1 and H_2 (all b c pairs across complete to
    a set through H_0). Card (s, i) has index s 3^(P-1) + i. Then complements: of few-set
    boards found by a minimizing search (caps) and of the other witnesses.
    """
    flat = 3 ** (properties - 1)
    size = 3 * flat
    wanted = sorted(set(cards) | {size - n for n in cards})
    witness = {}
    for n in wanted:
        seeds = [rng.choice(size, n, replace=False)]
        if n <= flat:
            seeds.append(lower[n])
        for b in range(max(0, n - 2 * flat), min(flat, n - flat) + 1):
            c = n - flat - b
            if 0 <= c <= flat:
                seeds.append(
                    np.concatenate([np.arange(flat), flat + lower[b], 2 * flat + lower[c]])
                )
        witness[n] = (
            best_witness(properties, seeds, restarts, n)
            if restarts
            else max(seeds, key=lambda board: count_sets(board, properties))
        )
    for n in (n for n in wanted if restarts and 2 * n <= size):  # few-set boards, dense complements
        sparse = local_search(properties, n, "min", seconds=None, restarts=restarts, seed=n)
        dense = np.setdiff1d(np.arange(size), sparse.witness)
        if count_sets(dense, properties) > count_sets(witness[size - n], properties):
            witness[size - n] = dense
    for n in wanted:
        rest = np.setdiff1d(np.arange(size), witness[size - n])
        if count_sets(rest, properties) > count_sets(witness[n], properties):
            witness[n] = rest
    return witness


def report(properties, rows, seconds):
    size = 3**properties
    below = properties - 1
    print(f"\nAG({properties},3): upper bounds from the AG({below},3) bounds in {seconds:.2f} s")
    print("  n  M witness  M upper  method     seconds  settled | m(N-n) in [lower, witness]")
    for row in rows:
        n = row["cards"]
        low_min = complement_sets(properties, n, row["upper"])
        witness_min = complement_sets(properties, n, row["lower"])
        print(
            f"{n:3d} {row['lower']:10d} {row['upper']:8d}  {row['method']:9s} "
            f"{row['seconds']:8.3f}  {'yes' if row['meets'] else 'NO ':3s}    | "
            f"m({size - n}) in [{low_min}, {witness_min}]"
        )
    open_n = [row["cards"] for row in rows if not row["meets"]]
    print(f"AG({properties},3) open n (max): {open_n}")
    return sum(row["meets"] for row in rows)


def main() -> None:
    parser = Parser(description=__doc__)
    parser.add_argument("--p5", action="store_true", help="AG(5,3) too: every 11th n, minutes")
    top = 5 if parser.parse_args().p5 else 4
    rng = np.random.default_rng(2026)
    start = time.perf_counter()
    m2 = {e.cards: e.max for e in exhaustive_table(2)}
    upper = {k: max_upper_bound(3, k, m2)[0] for k in range(28)}
    seconds3 = time.perf_counter() - start
    lower = {}
    for k in range(28):
        seeds = [rng.choice(27, k, replace=False) for _ in range(3)]
        lower[k] = best_witness(3, seeds, 20, k)
    print(f"AG(3,3): upper bounds from the exhaustive walk of AG(2,3) in {seconds3:.2f} s")
    print("  k  witness  upper  paper")
    for k in range(28):
        print(f"{k:3d} {count_sets(lower[k], 3):8d} {upper[k]:6d} {PAPER_TABLE_3[k]:6d}")
    settled3 = sum(count_sets(lower[k], 3) == upper[k] for k in range(28))
    print(f"AG(3,3): {settled3}/28 values settled (witness = upper bound)")
    total = seconds3
    for properties in range(4, top + 1):
        # P = 5: every 11th n and 243, constructions only, to stay within minutes
        cards = range(82) if properties == 4 else [*range(0, 243, 11), 243]
        restarts = 20 if properties == 4 else 0
        lower = lift_witnesses(properties, lower, restarts, rng, cards)
        counts = {n: count_sets(board, properties) for n, board in lower.items()}
        start = time.perf_counter()
        rows = bound_table(properties, upper, counts, cards)
        seconds = time.perf_counter() - start
        total += seconds
        settled = report(properties, rows, seconds)
        upper = {row["cards"]: row["upper"] for row in rows}
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak memory {peak:.0f} MiB, bound programs {total:.1f} s in all")
    print(f"AG({top},3): {settled}/{len(rows)} maxima settled by slice programs + witnesses")


if __name__ == "__main__":
    run_script(main)
