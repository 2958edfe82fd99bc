"""Upper bounds on M_4(n) for every n by the slice integer programs, against witnessed values.

Everything is computed in this run, with no table taken from the paper:
1. M_2(k) by brute force over the 512 subsets of AG(2,3);
2. upper bounds on M_3(k) from the programs on M_2, and witnesses in AG(3,3) by a local search;
3. upper bounds on M_4(n) from the programs on those M_3 bounds, and witnesses in AG(4,3): a
   3-flat plus slices in the two parallel flats, two 3-flats plus a slice, and a swap local search;
   every witness is re-counted with ``count_sets``.
A value is settled when the witness count meets the proven upper bound; minima follow by the
complement identity m(81 - n) = 1080 - n(81 - n)/2 - M(n).
"""

from __future__ import annotations

import resource
import sys
import time

import numpy as np

from setlab.extremal.bounds import bound_table, max_upper_bound
from setlab.extremal.identities import complement_sets
from setlab.find import count_sets
from setlab.geometry import third_card_table

PAPER_TABLE_3 = [0, 0, 0, 1, 1, 2, 3, 5, 8, 12, 12, 13, 14, 16, 19, 23, 26, 30, 36, 41, 47, 54,
                 62, 71, 81, 92, 104, 117]  # fmt: skip


def brute_force_maxima(properties: int) -> dict[int, int]:
    n = 3**properties
    best = dict.fromkeys(range(n + 1), 0)
    for mask in range(1 << n):
        board = [i for i in range(n) if mask >> i & 1]
        best[len(board)] = max(best[len(board)], count_sets(board, properties))
    return best


def local_search(
    properties: int, start: np.ndarray, sense: int, steps: int, rng: np.random.Generator
) -> np.ndarray:
    """Tabu swap search maximizing (sense 1) or minimizing (-1) the sets of a board.

    deg[z] = pairs of the board completing z to a set (z itself excluded); swapping u out and v
    in changes the count by deg[v] - deg[u] - [third(u, v) on the board].
    """
    table = third_card_table(properties).astype(np.int64)
    size = len(table)
    member = np.zeros(size, dtype=bool)
    member[start] = True
    best, best_value = member.copy(), count_sets(np.flatnonzero(member), properties)
    value = best_value
    tabu = np.zeros(size, dtype=np.int64)
    if member.all() or not member.any():
        return np.flatnonzero(member)
    for step in range(1, steps + 1):
        deg = ((member[table] & member[None, :]).sum(axis=1) - member) // 2
        inside, outside = np.flatnonzero(member), np.flatnonzero(~member)
        delta = deg[outside][None, :] - deg[inside][:, None]
        delta = delta - member[table[np.ix_(inside, outside)]]
        gain = sense * delta + rng.random(delta.shape) * 0.5
        gain[tabu[inside] > step, :] = -np.inf
        gain[:, tabu[outside] > step] = -np.inf
        if not np.isfinite(gain).any():
            break
        i, j = np.unravel_index(np.argmax(gain), gain.shape)
        u, v = inside[i], outside[j]
        member[u], member[v] = False, True
        value += int(delta[i, j])
        tabu[u] = tabu[v] = step + 1 + int(rng.integers(3, 8))
        if sense * value > sense * best_value:
            best, best_value = member.copy(), value
    return np.flatnonzero(best)


def best_witness(properties, n, seeds, sense, steps, rng):
    """The best of the seeds and of a local search from each, by a fresh count_sets."""
    candidates = []
    for seed in seeds:
        candidates.append(np.asarray(seed, dtype=np.int64))
        candidates.append(local_search(properties, candidates[-1], sense, steps, rng))
    return max(candidates, key=lambda board: sense * count_sets(board, properties))


def main() -> None:
    rng = np.random.default_rng(2026)
    start = time.perf_counter()
    m2 = brute_force_maxima(2)
    upper3 = {k: max_upper_bound(3, k, m2)[0] for k in range(28)}
    seconds3 = time.perf_counter() - start
    witness3 = {}
    for k in range(28):
        seeds = [rng.choice(27, k, replace=False) for _ in range(3)]
        witness3[k] = best_witness(3, k, seeds, 1, 300, rng)
    lower3 = {k: count_sets(witness3[k], 3) for k in range(28)}
    print(f"AG(3,3): upper bounds from brute force of AG(2,3) in {seconds3:.2f} s")
    print("  k  witness  upper  paper")
    for k in range(28):
        print(f"{k:3d} {lower3[k]:8d} {upper3[k]:6d} {PAPER_TABLE_3[k]:6d}")
    settled3 = sum(lower3[k] == upper3[k] for k in range(28))
    print(f"AG(3,3): {settled3}/28 values settled (witness = upper bound)")

    # Witnesses in AG(4,3): the hyperplanes H_s = {x_0 = s}, each a copy of AG(3,3) (card index
    # 27 s + i is the point (s, digits of i)).
    hyper = np.arange(81).reshape(3, 27)
    witness4 = {}
    for n in range(82):
        seeds = [rng.choice(81, n, replace=False)]
        if n <= 27:
            seeds.append(witness3[n])
        for b in range(max(0, n - 54), min(27, n - 27) + 1):  # H0 full, b cards in H1, rest in H2
            c = n - 27 - b
            if 0 <= c <= 27:
                seeds.append(np.concatenate([hyper[0], 27 + witness3[b], 54 + witness3[c]]))
        witness4[n] = best_witness(4, n, seeds, 1, 150, rng)
    for n in range(82):  # complements of good large boards are good small ones, and conversely
        rest = np.setdiff1d(np.arange(81), witness4[81 - n])
        if count_sets(rest, 4) > count_sets(witness4[n], 4):
            witness4[n] = rest
    lower4 = {n: count_sets(witness4[n], 4) for n in range(82)}

    start = time.perf_counter()
    rows = bound_table(4, upper3, lower4)
    seconds4 = time.perf_counter() - start
    print(f"\nAG(4,3): upper bounds from the AG(3,3) bounds in {seconds4:.2f} s")
    print("  n  M witness  M upper  method     seconds  settled | m(81-n) in [lower, witness]")
    for row in rows:
        n = row["cards"]
        low_min = complement_sets(4, n, row["upper"])
        witness_min = complement_sets(4, n, row["lower"])
        print(
            f"{n:3d} {row['lower']:10d} {row['upper']:8d}  {row['method']:9s} "
            f"{row['seconds']:8.3f}  {'yes' if row['meets'] else 'NO ':3s}    | "
            f"m({81 - n}) in [{low_min}, {witness_min}]"
        )
    settled = sum(row["meets"] for row in rows)
    open_n = [row["cards"] for row in rows if not row["meets"]]
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"open n (max): {open_n}")
    print(f"peak memory {peak:.0f} MiB, total {time.perf_counter() - start + seconds3:.1f} s")
    print(f"AG(4,3): {settled}/82 maxima settled by slice programs + witnesses", file=sys.stdout)


if __name__ == "__main__":
    main()
